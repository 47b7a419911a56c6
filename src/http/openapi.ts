import { RULES_SCHEMA } from '../conditions/schemas.js';
import type { Engine } from '../engine-types.js';
import { ERROR, FIELD, JOB, lift, WEBHOOK_SCHEMAS } from './openapi-schemas.js';
import { ROUTES } from './routes.js';
import { paramNames, type ApiRoute, type DocTools, type OperationDoc } from './routing.js';

/**
 * The OpenAPI 3.1 document of the HTTP surface: an operation for every route of the table that has a
 * `doc`, with the schemas that validate requests (the registered workflows' inputs, the validation
 * rules), so the document and the checks cannot drift.
 */
export function openApiDocument(engine: Engine, basePath = ''): object {
  const schemas: Record<string, object> = { Error: ERROR, Field: FIELD, JobAnswer: JOB };
  schemas.ValidationRules = lift(RULES_SCHEMA, schemas);
  const tools: DocTools = { workflows: engine.describeWorkflows(), lift: (schema) => lift(schema, schemas) };
  const paths: Record<string, Record<string, object>> = {};
  for (const route of ROUTES) {
    if (route.kind === 'review' || route.doc === false) continue;
    const doc = typeof route.doc === 'function' ? route.doc(tools) : route.doc;
    (paths[route.path] ??= {})[route.method.toLowerCase()] = operation(route, doc);
  }
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

/** A route's operation: its doc, its path parameters from the template, the bearer token if it needs one. */
function operation(route: ApiRoute, doc: OperationDoc): object {
  const parameters = [
    ...paramNames(route.path).map((name) => ({
      name,
      in: 'path',
      required: true,
      schema: doc.pathParams?.[name] ?? { type: 'string' },
    })),
    ...(doc.query ?? []).map(({ name, schema, description }) => ({
      name,
      in: 'query',
      schema,
      ...(description ? { description } : {}),
    })),
  ];
  return {
    summary: doc.summary,
    ...(route.auth === 'bearer' ? { security: [{ bearer: [] }] } : {}),
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(doc.requestBody ? { requestBody: doc.requestBody } : {}),
    responses: doc.responses,
  };
}
