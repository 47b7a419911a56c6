import { WEBHOOK_EVENT_TYPES } from '../ports/webhook-outbox.js';

/**
 * The schemas and pieces the OpenAPI document is made of, shared by the route table's operations
 * (src/http/routes/) and the document's components (src/http/openapi.ts).
 */

/** A schema with its local `#/$defs/x` references moved to the document's components. */
export function lift(schema: object, defs: Record<string, object>): object {
  const text = JSON.stringify(schema).replace(/"#\/\$defs\/([A-Za-z0-9_]+)"/g, (_m, name: string) =>
    JSON.stringify(`#/components/schemas/${name}`),
  );
  const parsed = JSON.parse(text) as { $defs?: Record<string, object> };
  for (const [name, def] of Object.entries(parsed.$defs ?? {})) defs[name] = def;
  delete parsed.$defs;
  return parsed;
}

export const ERROR = {
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

export const FIELD = {
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

export const JOB = {
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

export const V1_FORM = {
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

export const TOKEN_REQUEST = {
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
export const WEBHOOK_SCHEMAS = {
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

/** A reference to a component schema. */
export function ref(name: string): object {
  return { $ref: `#/components/schemas/${name}` };
}

/** A 200 answer with a JSON body. */
export function ok(schema: object, description = 'OK'): Record<string, object> {
  return { '200': { description, content: { 'application/json': { schema } } } };
}

/** A 201 answer with a JSON body. */
export function created(schema: object): Record<string, object> {
  return { '201': { description: 'Created', content: { 'application/json': { schema } } } };
}

/** A 204 answer. */
export function noContent(description: string): Record<string, object> {
  return { '204': { description } };
}

/** A 200 answer whose body is the bytes of a file. */
export function binary(type: string): Record<string, object> {
  return {
    '200': { description: 'OK', content: { [type]: { schema: { type: 'string', format: 'binary' } } } },
  };
}

/** Error answers with these statuses, each the error body. */
export function errors(...codes: number[]): Record<string, object> {
  return Object.fromEntries(
    codes.map((code) => [
      String(code),
      { description: 'error', content: { 'application/json': { schema: ref('Error') } } },
    ]),
  );
}

/** A JSON request body. */
export function jsonBody(schema: object, required = false): object {
  return { ...(required ? { required: true } : {}), content: { 'application/json': { schema } } };
}
