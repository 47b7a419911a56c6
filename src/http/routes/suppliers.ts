import { readJson } from '../body.js';
import { created, errors, jsonBody, noContent, ok } from '../openapi-schemas.js';
import { json } from '../responses.js';
import type { ApiRoute } from '../routing.js';

/** What reviews taught about the account's suppliers (docs/learning.md): list, export, import, forget. */

const SUPPLIER_SUMMARY = {
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

export const supplierRoutes: ApiRoute[] = [
  {
    method: 'GET',
    path: '/suppliers',
    auth: 'bearer',
    doc: {
      summary:
        "What reviews taught about the account's suppliers (docs/learning.md), most recently updated first",
      responses: {
        ...ok({
          type: 'object',
          required: ['suppliers'],
          properties: { suppliers: { type: 'array', items: SUPPLIER_SUMMARY } },
        }),
        ...errors(401),
      },
    },
    handle: async ({ engine, accountId }) => json({ suppliers: await engine.listSuppliers({ accountId }) }),
  },
  {
    method: 'POST',
    path: '/suppliers',
    auth: 'bearer',
    doc: {
      summary: 'Import a supplier memory exported by GET /suppliers/{supplierId} (replaces one with its id)',
      requestBody: jsonBody({ type: 'object' }, true),
      responses: { ...created(SUPPLIER_SUMMARY), ...errors(400, 401) },
    },
    async handle({ request, engine, accountId, maxJsonBytes }) {
      const body = await readJson(request, maxJsonBytes);
      return json(await engine.importSupplier(body, { accountId }), 201);
    },
  },
  {
    method: 'GET',
    path: '/suppliers/{supplierId}',
    auth: 'bearer',
    doc: {
      summary:
        'A supplier memory whole (to export): identity, layout words, reviewed values and where they were printed',
      responses: { ...ok({ type: 'object' }), ...errors(401, 404) },
    },
    handle: async ({ engine, params, accountId }) =>
      json(await engine.exportSupplier(params.supplierId!, { accountId })),
  },
  {
    method: 'DELETE',
    path: '/suppliers/{supplierId}',
    auth: 'bearer',
    doc: {
      summary: 'Forget what reviews taught about a supplier',
      responses: { ...noContent('Forgotten'), ...errors(401, 404) },
    },
    async handle({ engine, params, accountId }) {
      await engine.forgetSupplier(params.supplierId!, { accountId });
      return new Response(null, { status: 204 });
    },
  },
];
