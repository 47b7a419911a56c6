import { RULES_SCHEMA } from '../conditions/schemas.js';
import type { Engine } from '../engine-types.js';
import { WEBHOOK_EVENT_TYPES } from '../ports/webhook-outbox.js';

/** A schema with its local `#/$defs/x` references moved to the document's components. */
function lift(schema: object, defs: Record<string, object>): object {
  const text = JSON.stringify(schema).replace(/"#\/\$defs\/([A-Za-z0-9_]+)"/g, (_m, name: string) =>
    JSON.stringify(`#/components/schemas/${name}`),
  );
  const parsed = JSON.parse(text) as { $defs?: Record<string, object> };
  for (const [name, def] of Object.entries(parsed.$defs ?? {})) defs[name] = def;
  delete parsed.$defs;
  return parsed;
}

const ERROR = {
  type: 'object',
  required: ['code', 'message', 'error'],
  properties: {
    code: { type: 'string', description: 'the same as error.code (read by the original service`s clients)' },
    message: { type: 'string', description: 'the same as error.message' },
    error: {
      type: 'object',
      required: ['code', 'message', 'details'],
      properties: {
        code: { type: 'string' },
        message: { type: 'string' },
        details: {
          type: 'array',
          items: { type: 'object', properties: { path: { type: 'string' }, message: { type: 'string' } } },
        },
      },
    },
  },
};

const FIELD = {
  type: 'object',
  required: ['name', 'value'],
  properties: {
    name: { type: 'string' },
    value: {},
    confidence: { type: 'number', minimum: 0, maximum: 1 },
    boundingBox: {
      type: ['object', 'null'],
      properties: {
        pageNum: { type: 'integer' },
        topLeft: { type: 'object', properties: { x: { type: 'number' }, y: { type: 'number' } } },
        bottomRight: { type: 'object', properties: { x: { type: 'number' }, y: { type: 'number' } } },
        tokenIds: { type: 'array', items: { type: 'integer' } },
      },
    },
  },
};

const JOB = {
  type: 'object',
  required: ['job', 'message_id'],
  properties: {
    message_id: { type: 'string', format: 'uuid' },
    job: {
      type: 'object',
      required: [
        'id',
        'company_id',
        'created',
        'workflow_id',
        'inputs',
        'settings',
        'usage',
        'file_id',
        'status',
        'version',
      ],
      properties: {
        id: { type: 'string', format: 'uuid' },
        company_id: { type: 'string', format: 'uuid' },
        created: { type: 'string', description: 'ISO 8601 with microseconds, no zone suffix (UTC)' },
        workflow_id: { type: 'string' },
        inputs: { type: 'object' },
        settings: { type: 'object' },
        usage: { type: ['object', 'null'] },
        file_id: { type: ['string', 'null'] },
        status: { enum: ['new', 'running', 'succeeded', 'failed', 'cancelled'] },
        version: { type: 'integer' },
        error: { type: 'object' },
      },
    },
  },
};

const V1_FORM = {
  type: 'object',
  required: ['fileToUpload'],
  properties: {
    fileToUpload: { type: 'string', contentMediaType: 'application/octet-stream' },
    products: { type: 'array', items: { type: 'string' } },
    fieldSets: { type: 'array', items: { type: 'string' } },
    fieldSet: { type: 'string' },
    tags: { type: 'string' },
    workflowId: { type: 'string' },
    workflowOptions: { type: 'string', description: 'a JSON object as a string' },
    locale: { type: 'string' },
  },
};

const TOKEN_REQUEST = {
  type: 'object',
  required: ['grant_type'],
  properties: {
    grant_type: { const: 'client_credentials' },
    client_id: { type: 'string' },
    client_secret: { type: 'string' },
    audience: { type: 'string', description: 'accepted and not checked (older clients send it)' },
  },
};

const EVENT_TYPES = { enum: [...WEBHOOK_EVENT_TYPES] };
const WEBHOOK = {
  type: 'object',
  required: ['id', 'url', 'events', 'createdAt'],
  properties: {
    id: { type: 'string' },
    url: { type: 'string', format: 'uri' },
    events: { type: 'array', items: EVENT_TYPES },
    createdAt: { type: 'string', format: 'date-time' },
  },
};
const WEBHOOK_SCHEMAS = {
  WebhookRequest: {
    type: 'object',
    required: ['url', 'events'],
    additionalProperties: false,
    properties: {
      url: { type: 'string', format: 'uri', maxLength: 2048 },
      events: { type: 'array', minItems: 1, items: EVENT_TYPES },
    },
  },
  Webhook: WEBHOOK,
  WebhookWithSecret: {
    ...WEBHOOK,
    required: [...WEBHOOK.required, 'secret'],
    properties: { ...WEBHOOK.properties, secret: { type: 'string', description: 'whsec_<base64 key>' } },
  },
  Delivery: {
    type: 'object',
    properties: {
      id: { type: 'string' },
      eventId: { type: 'string', description: 'the webhook-id header of every attempt' },
      type: EVENT_TYPES,
      status: { enum: ['pending', 'delivered', 'dead'] },
      attempts: { type: 'integer' },
      createdAt: { type: 'string', format: 'date-time' },
      nextAttemptAt: { type: ['string', 'null'], format: 'date-time' },
      lastAttemptAt: { type: ['string', 'null'], format: 'date-time' },
      lastStatus: { type: ['integer', 'null'] },
      lastError: { type: ['string', 'null'] },
      deliveredAt: { type: ['string', 'null'], format: 'date-time' },
      event: { $ref: '#/components/schemas/WebhookEvent' },
    },
  },
  WebhookEvent: {
    type: 'object',
    description: 'The body of every delivery (ids and a status; fetch the result to read the document).',
    required: ['type', 'timestamp', 'data'],
    properties: {
      type: EVENT_TYPES,
      timestamp: { type: 'string', format: 'date-time' },
      data: {
        type: 'object',
        required: ['fileId', 'status'],
        properties: {
          fileId: { type: ['string', 'null'] },
          jobId: { type: 'string' },
          taskId: { type: 'string' },
          status: { type: 'string' },
        },
      },
    },
  },
};

/**
 * The OpenAPI 3.1 document of the HTTP surface, built from the schemas that validate requests (the
 * registered workflows' inputs, the validation rules), so the document and the checks cannot drift.
 */
export function openApiDocument(engine: Engine, basePath = ''): object {
  const schemas: Record<string, object> = { Error: ERROR, Field: FIELD, JobAnswer: JOB };
  schemas.ValidationRules = lift(RULES_SCHEMA, schemas);
  const errors = (...codes: number[]) =>
    Object.fromEntries(
      codes.map((code) => [
        String(code),
        {
          description: 'error',
          content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
        },
      ]),
    );
  const ok = (schema: object, description = 'OK') => ({
    '200': { description, content: { 'application/json': { schema } } },
  });
  const secured = [{ bearer: [] }];
  const workflows = engine.describeWorkflows();
  const paths: Record<string, object> = {
    '/oauth2/token': {
      post: {
        summary:
          'Access token (OAuth 2.0 client credentials; client by HTTP Basic, form fields or a JSON body)',
        requestBody: {
          content: {
            'application/x-www-form-urlencoded': { schema: TOKEN_REQUEST },
            'application/json': { schema: TOKEN_REQUEST },
          },
        },
        responses: {
          ...ok({
            type: 'object',
            required: ['access_token', 'token_type', 'expires_in'],
            properties: {
              access_token: { type: 'string' },
              token_type: { const: 'Bearer' },
              expires_in: { type: 'integer' },
            },
          }),
          ...errors(400, 401),
        },
      },
    },
    '/fileupload/v2/multipart': {
      post: {
        summary: 'Upload a document (v2)',
        security: secured,
        requestBody: {
          content: {
            'multipart/form-data': {
              schema: {
                type: 'object',
                required: ['file'],
                properties: { file: { type: 'string', contentMediaType: 'application/octet-stream' } },
              },
            },
          },
        },
        responses: {
          ...ok({
            type: 'object',
            required: ['id', 'fileId', 'uploadedAt', 'status'],
            properties: {
              id: { type: 'string' },
              fileId: { type: 'string' },
              uploadedAt: { type: 'string' },
              status: { const: 'RECEIVED' },
            },
          }),
          ...errors(400, 401, 403, 413, 415, 422, 503),
        },
      },
    },
    '/fileupload': {
      post: {
        summary: 'Upload a document and choose what to extract (v1; also /fileupload/)',
        security: secured,
        requestBody: { content: { 'multipart/form-data': { schema: V1_FORM } } },
        responses: {
          ...ok({ type: 'object', required: ['fileId', 'uploadedAt', 'status'] }),
          ...errors(400, 401, 403, 404, 413, 415, 422, 503),
        },
      },
    },
    '/fileupload/json': {
      post: {
        summary: 'Upload a document as base64 (v1)',
        security: secured,
        requestBody: {
          content: {
            'application/json': {
              schema: {
                ...V1_FORM,
                properties: {
                  ...V1_FORM.properties,
                  fileToUpload: { type: 'string', contentEncoding: 'base64' },
                },
              },
            },
          },
        },
        responses: { ...ok({ type: 'object' }), ...errors(400, 401, 403, 404, 413, 415, 422, 503) },
      },
    },
    '/workflows/{workflowId}/jobs': {
      post: {
        summary: 'Invoke a workflow',
        security: secured,
        parameters: [
          { name: 'workflowId', in: 'path', required: true, schema: { enum: workflows.map((w) => w.id) } },
        ],
        requestBody: {
          content: {
            'application/json': {
              schema: {
                type: 'object',
                required: ['inputs'],
                properties: {
                  inputs: {
                    oneOf: workflows.map((w) => ({ title: w.id, ...lift(w.inputsSchema, schemas) })),
                  },
                },
              },
            },
          },
        },
        responses: { ...ok({ $ref: '#/components/schemas/JobAnswer' }), ...errors(400, 401, 403, 404, 503) },
      },
    },
    '/workflows/jobs/{jobId}': {
      get: {
        summary: 'A job with its current status',
        security: secured,
        parameters: [{ name: 'jobId', in: 'path', required: true, schema: { type: 'string' } }],
        responses: { ...ok({ $ref: '#/components/schemas/JobAnswer' }), ...errors(401, 404) },
      },
    },
    '/workflows/validation_rules/{rules_id}': {
      put: {
        summary: 'Store validation rules',
        security: secured,
        parameters: [{ name: 'rules_id', in: 'path', required: true, schema: { type: 'string' } }],
        requestBody: {
          content: { 'application/json': { schema: { $ref: '#/components/schemas/ValidationRules' } } },
        },
        responses: { ...ok({ $ref: '#/components/schemas/ValidationRules' }), ...errors(400, 401, 422) },
      },
      get: {
        summary: 'Read validation rules',
        security: secured,
        parameters: [{ name: 'rules_id', in: 'path', required: true, schema: { type: 'string' } }],
        responses: { ...ok({ $ref: '#/components/schemas/ValidationRules' }), ...errors(401, 404) },
      },
    },
    '/result/final/{fileId}': {
      get: {
        summary: 'The result of a file (also /results/{fileId})',
        security: secured,
        parameters: [
          { name: 'fileId', in: 'path', required: true, schema: { type: 'string' } },
          {
            name: 'timeout',
            in: 'query',
            schema: { type: 'integer', minimum: 0 },
            description: 'ms to wait for pending work',
          },
          { name: 'verbose', in: 'query', schema: { type: 'boolean' } },
        ],
        responses: {
          ...ok({
            type: 'object',
            required: ['fileId', 'status'],
            properties: {
              fileId: { type: 'string' },
              status: { enum: ['FINALISED', 'IN PROGRESS'] },
              results: {
                type: 'object',
                properties: {
                  timestamp: { type: 'string' },
                  fields: { type: 'array', items: { $ref: '#/components/schemas/Field' } },
                },
              },
            },
          }),
          ...errors(401, 404, 422, 500, 503),
        },
      },
    },
    '/tasks': {
      get: {
        summary: 'Review tasks of the account',
        security: secured,
        parameters: [
          { name: 'status', in: 'query', schema: { enum: ['open', 'completed'] } },
          { name: 'fileId', in: 'query', schema: { type: 'string' } },
        ],
        responses: {
          ...ok({ type: 'object', properties: { tasks: { type: 'array', items: { type: 'object' } } } }),
          ...errors(401),
        },
      },
    },
    '/tasks/{taskId}': {
      get: {
        summary: 'A review task',
        security: secured,
        parameters: [{ name: 'taskId', in: 'path', required: true, schema: { type: 'string' } }],
        responses: { ...ok({ type: 'object' }), ...errors(401, 404) },
      },
    },
    '/tasks/{taskId}/complete': {
      post: {
        summary: 'Complete a review task with corrected values',
        security: secured,
        parameters: [{ name: 'taskId', in: 'path', required: true, schema: { type: 'string' } }],
        requestBody: {
          content: {
            'application/json': {
              schema: {
                type: 'object',
                required: ['values'],
                properties: {
                  values: { type: 'object' },
                  tokenIds: {
                    type: 'object',
                    description: 'for values taken from words of the page: the word ids, which give the box',
                    additionalProperties: { type: 'array', items: { type: 'integer' }, maxItems: 200 },
                  },
                },
              },
            },
          },
        },
        responses: { ...ok({ type: 'object' }), ...errors(400, 401, 404, 409, 422) },
      },
    },
  };
  paths['/healthz'] = {
    get: {
      summary: 'Alive (no token)',
      responses: ok({ type: 'object', properties: { status: { const: 'ok' } } }),
    },
  };
  paths['/readyz'] = {
    get: {
      summary: 'Ready: persistence and file store answer (no token); 503 naming the failed check otherwise',
      responses: {
        ...ok({ type: 'object', properties: { status: { type: 'string' }, checks: { type: 'object' } } }),
        '503': { description: 'not ready', content: { 'application/json': { schema: { type: 'object' } } } },
      },
    },
  };
  paths['/usage'] = {
    get: {
      summary:
        "The account's usage by UTC day (jobs, failed jobs, pages, pages OCRed, processing ms), totals and page quotas",
      security: secured,
      parameters: [
        {
          name: 'from',
          in: 'query',
          schema: { type: 'string', format: 'date' },
          description: 'default: first day of this month',
        },
        {
          name: 'to',
          in: 'query',
          schema: { type: 'string', format: 'date' },
          description: 'default: today (UTC)',
        },
      ],
      responses: {
        ...ok({ type: 'object', required: ['from', 'to', 'days', 'total', 'quotas'] }),
        ...errors(400, 401),
      },
    },
  };
  // The calls the original service's own clients make beyond the written interface (docs/compatibility.md).
  paths['/oauth/token'] = {
    post: {
      ...(paths['/oauth2/token'] as { post: object }).post,
      summary: 'The same as /oauth2/token (older clients)',
    },
  };
  const fileId = { name: 'fileId', in: 'path', required: true, schema: { type: 'string' } };
  const companyId = {
    name: 'companyId',
    in: 'path',
    required: true,
    schema: { type: 'string', format: 'uuid' },
  };
  const rulesId = { name: 'rulesId', in: 'path', required: true, schema: { type: 'string' } };
  const binary = (type: string) => ({
    '200': { description: 'OK', content: { [type]: { schema: { type: 'string', format: 'binary' } } } },
  });
  paths['/result/image/{fileId}'] = {
    get: {
      summary: 'A page of the file as an image (a PDF page rendered as PNG; an uploaded image as it is)',
      security: secured,
      parameters: [
        fileId,
        { name: 'page', in: 'query', schema: { type: 'integer', minimum: 1, default: 1 } },
      ],
      responses: { ...binary('image/png'), ...errors(400, 401, 404, 422) },
    },
  };
  paths['/app/company/byclientid/{clientId}'] = {
    get: {
      summary: "The company (account) of one of the caller's own API clients",
      security: secured,
      parameters: [{ name: 'clientId', in: 'path', required: true, schema: { type: 'string' } }],
      responses: {
        ...ok({
          type: 'object',
          required: ['id'],
          properties: {
            id: { type: 'string', format: 'uuid' },
            name: { type: 'string' },
            clientId: { type: 'string' },
          },
        }),
        ...errors(401, 404),
      },
    },
  };
  paths['/workflows/{companyId}/rules/{rulesId}'] = {
    put: {
      summary: 'Store validation rules (the same as PUT /workflows/validation_rules/{rulesId})',
      security: secured,
      parameters: [companyId, rulesId],
      requestBody: {
        content: { 'application/json': { schema: { $ref: '#/components/schemas/ValidationRules' } } },
      },
      responses: { ...ok({ $ref: '#/components/schemas/ValidationRules' }), ...errors(400, 401, 404, 422) },
    },
    get: {
      summary: 'Validation rules',
      security: secured,
      parameters: [companyId, rulesId],
      responses: { ...ok({ $ref: '#/components/schemas/ValidationRules' }), ...errors(401, 404) },
    },
    delete: {
      summary: 'Forget validation rules',
      security: secured,
      parameters: [companyId, rulesId],
      responses: { '204': { description: 'Deleted' }, ...errors(401, 404) },
    },
  };
  paths['/workflows/{workflowId}/invoke'] = {
    post: {
      summary: 'Invoke a workflow and answer once its job has ended (or after 30 s, as it then stands)',
      security: secured,
      parameters: [{ name: 'workflowId', in: 'path', required: true, schema: { type: 'string' } }],
      requestBody: {
        content: {
          'application/json': {
            schema: { type: 'object', required: ['inputs'], properties: { inputs: { type: 'object' } } },
          },
        },
      },
      responses: {
        ...ok({ $ref: '#/components/schemas/JobAnswer' }),
        ...errors(400, 401, 403, 404, 422, 503),
      },
    },
  };
  paths['/app/docs/{fileId}'] = {
    get: {
      summary: 'The file record',
      security: secured,
      parameters: [fileId],
      responses: { ...ok({ type: 'object', required: ['id', 'fileId'] }), ...errors(401, 404) },
    },
  };
  paths['/app/docs/{fileId}/download'] = {
    get: {
      summary: 'The file as uploaded',
      security: secured,
      parameters: [fileId],
      responses: { ...binary('application/octet-stream'), ...errors(401, 404) },
    },
  };
  paths['/app/docs/{fileId}/tags'] = {
    get: {
      summary: 'The tags of the file',
      security: secured,
      parameters: [fileId],
      responses: {
        ...ok({
          type: 'object',
          properties: { fileId: { type: 'string' }, tags: { type: 'array', items: { type: 'string' } } },
        }),
        ...errors(401, 404),
      },
    },
  };
  const created = (schema: object) => ({
    '201': { description: 'Created', content: { 'application/json': { schema } } },
  });
  const supplierId = { name: 'supplierId', in: 'path', required: true, schema: { type: 'string' } };
  const supplierSummary = {
    type: 'object',
    required: ['supplierId', 'name', 'taxIds', 'ibans', 'documents', 'fields', 'createdAt', 'updatedAt'],
    properties: {
      supplierId: { type: 'string' },
      name: { type: ['string', 'null'] },
      taxIds: { type: 'array', items: { type: 'string' } },
      ibans: { type: 'array', items: { type: 'string' } },
      documents: { type: 'integer' },
      fields: { type: 'array', items: { type: 'string' } },
      createdAt: { type: 'string' },
      updatedAt: { type: 'string' },
    },
  };
  paths['/suppliers'] = {
    get: {
      summary:
        "What reviews taught about the account's suppliers (docs/learning.md), most recently updated first",
      security: secured,
      responses: {
        ...ok({
          type: 'object',
          required: ['suppliers'],
          properties: { suppliers: { type: 'array', items: supplierSummary } },
        }),
        ...errors(401),
      },
    },
    post: {
      summary: 'Import a supplier memory exported by GET /suppliers/{supplierId} (replaces one with its id)',
      security: secured,
      requestBody: { required: true, content: { 'application/json': { schema: { type: 'object' } } } },
      responses: { ...created(supplierSummary), ...errors(400, 401) },
    },
  };
  paths['/suppliers/{supplierId}'] = {
    get: {
      summary:
        'A supplier memory whole (to export): identity, layout words, reviewed values and where they were printed',
      security: secured,
      parameters: [supplierId],
      responses: { ...ok({ type: 'object' }), ...errors(401, 404) },
    },
    delete: {
      summary: 'Forget what reviews taught about a supplier',
      security: secured,
      parameters: [supplierId],
      responses: { '204': { description: 'Forgotten' }, ...errors(401, 404) },
    },
  };
  const webhookId = { name: 'webhookId', in: 'path', required: true, schema: { type: 'string' } };
  paths['/webhooks'] = {
    post: {
      summary: 'Subscribe a URL to events of the account (answers the signing secret, shown only here)',
      security: secured,
      requestBody: {
        required: true,
        content: { 'application/json': { schema: { $ref: '#/components/schemas/WebhookRequest' } } },
      },
      responses: {
        ...created({ $ref: '#/components/schemas/WebhookWithSecret' }),
        ...errors(400, 401, 422),
      },
    },
    get: {
      summary: "The account's webhook subscriptions",
      security: secured,
      responses: {
        ...ok({
          type: 'object',
          required: ['webhooks'],
          properties: { webhooks: { type: 'array', items: { $ref: '#/components/schemas/Webhook' } } },
        }),
        ...errors(401),
      },
    },
  };
  paths['/webhooks/{webhookId}'] = {
    get: {
      summary: 'A webhook subscription',
      security: secured,
      parameters: [webhookId],
      responses: { ...ok({ $ref: '#/components/schemas/Webhook' }), ...errors(401, 404) },
    },
    delete: {
      summary: 'Delete a webhook subscription and its deliveries not yet sent',
      security: secured,
      parameters: [webhookId],
      responses: { '204': { description: 'Deleted' }, ...errors(401, 404) },
    },
  };
  paths['/webhooks/{webhookId}/rotate-secret'] = {
    post: {
      summary: 'A new signing secret (the old one still signs beside it for a day)',
      security: secured,
      parameters: [webhookId],
      responses: { ...ok({ $ref: '#/components/schemas/WebhookWithSecret' }), ...errors(401, 404) },
    },
  };
  paths['/webhooks/{webhookId}/deliveries'] = {
    get: {
      summary: "The subscription's deliveries, newest first (dead: retried for a day without success)",
      security: secured,
      parameters: [
        webhookId,
        { name: 'status', in: 'query', schema: { enum: ['pending', 'delivered', 'dead'] } },
        { name: 'limit', in: 'query', schema: { type: 'integer', minimum: 1, maximum: 1000 } },
      ],
      responses: {
        ...ok({
          type: 'object',
          required: ['deliveries'],
          properties: { deliveries: { type: 'array', items: { $ref: '#/components/schemas/Delivery' } } },
        }),
        ...errors(400, 401, 404),
      },
    },
  };
  Object.assign(schemas, WEBHOOK_SCHEMAS);
  return {
    openapi: '3.1.0',
    info: {
      title: 'docex',
      version: '1',
      description: 'Document data extraction: upload, workflows, results, validation.',
    },
    servers: [{ url: basePath || '/' }],
    paths,
    components: {
      schemas,
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
      },
    },
  };
}
