import { DocexError } from '../../core/errors.js';
import { readJson } from '../body.js';
import { created, errors, jsonBody, noContent, ok, ref } from '../openapi-schemas.js';
import { json } from '../responses.js';
import type { ApiRoute } from '../routing.js';

/** Webhook subscriptions of the account and their deliveries (docs/webhooks.md). */
export const webhookRoutes: ApiRoute[] = [
  {
    method: 'POST',
    path: '/webhooks',
    auth: 'bearer',
    doc: {
      summary: 'Subscribe a URL to events of the account (answers the signing secret, shown only here)',
      requestBody: jsonBody(ref('WebhookRequest'), true),
      responses: { ...created(ref('WebhookWithSecret')), ...errors(400, 401, 422) },
    },
    async handle({ request, engine, accountId, maxJsonBytes }) {
      const body = await readJson(request, maxJsonBytes);
      return json(await engine.createWebhook(body as { url: string; events: string[] }, { accountId }), 201);
    },
  },
  {
    method: 'GET',
    path: '/webhooks',
    auth: 'bearer',
    doc: {
      summary: "The account's webhook subscriptions",
      responses: {
        ...ok({
          type: 'object',
          required: ['webhooks'],
          properties: { webhooks: { type: 'array', items: ref('Webhook') } },
        }),
        ...errors(401),
      },
    },
    handle: async ({ engine, accountId }) => json({ webhooks: await engine.listWebhooks({ accountId }) }),
  },
  {
    method: 'GET',
    path: '/webhooks/{webhookId}',
    auth: 'bearer',
    doc: { summary: 'A webhook subscription', responses: { ...ok(ref('Webhook')), ...errors(401, 404) } },
    handle: async ({ engine, params, accountId }) =>
      json(await engine.getWebhook(params.webhookId!, { accountId })),
  },
  {
    method: 'DELETE',
    path: '/webhooks/{webhookId}',
    auth: 'bearer',
    doc: {
      summary: 'Delete a webhook subscription and its deliveries not yet sent',
      responses: { ...noContent('Deleted'), ...errors(401, 404) },
    },
    async handle({ engine, params, accountId }) {
      await engine.deleteWebhook(params.webhookId!, { accountId });
      return new Response(null, { status: 204 });
    },
  },
  {
    method: 'POST',
    path: '/webhooks/{webhookId}/rotate-secret',
    auth: 'bearer',
    doc: {
      summary: 'A new signing secret (the old one still signs beside it for a day)',
      responses: { ...ok(ref('WebhookWithSecret')), ...errors(401, 404) },
    },
    handle: async ({ engine, params, accountId }) =>
      json(await engine.rotateWebhookSecret(params.webhookId!, { accountId })),
  },
  {
    method: 'GET',
    path: '/webhooks/{webhookId}/deliveries',
    auth: 'bearer',
    doc: {
      summary: "The subscription's deliveries, newest first (dead: retried for a day without success)",
      query: [
        { name: 'status', schema: { enum: ['pending', 'delivered', 'dead'] } },
        { name: 'limit', schema: { type: 'integer', minimum: 1, maximum: 1000 } },
      ],
      responses: {
        ...ok({
          type: 'object',
          required: ['deliveries'],
          properties: { deliveries: { type: 'array', items: ref('Delivery') } },
        }),
        ...errors(400, 401, 404),
      },
    },
    async handle({ url, engine, params, accountId }) {
      const status = url.searchParams.get('status');
      const limit = url.searchParams.get('limit');
      if (status !== null && status !== 'pending' && status !== 'delivered' && status !== 'dead') {
        throw new DocexError('MALFORMED_REQUEST', 'status must be pending, delivered or dead.', {
          details: [{ path: '/status', message: 'must be pending, delivered or dead' }],
        });
      }
      if (limit !== null && !/^\d{1,4}$/.test(limit)) {
        throw new DocexError('MALFORMED_REQUEST', 'limit must be a whole number up to 1000.', {
          details: [{ path: '/limit', message: 'must be a whole number' }],
        });
      }
      const deliveries = await engine.listWebhookDeliveries(params.webhookId!, {
        accountId,
        ...(status ? { status } : {}),
        ...(limit !== null ? { limit: Number(limit) } : {}),
      });
      return json({ deliveries });
    },
  },
];
