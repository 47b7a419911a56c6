/**
 * The webhook routes, called on the fetch handler with Requests (no socket needed for the routes); the
 * deliveries themselves go to a real loopback receiver.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { createEngine, type Engine } from '../../src/index.js';
import { createFetchHandler, type FetchHandler } from '../../src/http/fetch-handler.js';
import { verifyWebhook } from '../../docs/examples/verify-webhook.mjs';
import { startReceiver, until, type Receiver } from '../webhooks/receiver.js';

const ORIGIN = 'http://docex.test';
let engine: Engine;
let strict: Engine;
let handle: FetchHandler;
let handleStrict: FetchHandler;
let receiver: Receiver;
const tokens: Record<string, string> = {};

type Json = Record<string, unknown>;

async function token(h: FetchHandler, id: string): Promise<string> {
  const answer = await h(
    new Request(`${ORIGIN}/oauth2/token`, {
      method: 'POST',
      body: new URLSearchParams({
        grant_type: 'client_credentials',
        client_id: id,
        client_secret: `${id}-secret-0123456789`,
      }),
    }),
  );
  return ((await answer.json()) as { access_token: string }).access_token;
}

async function call(
  path: string,
  options: { method?: string; body?: unknown; as?: string; handler?: FetchHandler } = {},
): Promise<{ status: number; body: Json }> {
  const h = options.handler ?? handle;
  const answer = await h(
    new Request(`${ORIGIN}${path}`, {
      method: options.method ?? 'GET',
      headers: {
        authorization: `Bearer ${tokens[options.as ?? 'acme']}`,
        'content-type': 'application/json',
      },
      ...(options.body !== undefined ? { body: JSON.stringify(options.body) } : {}),
    }),
  );
  const text = await answer.text();
  return { status: answer.status, body: text ? (JSON.parse(text) as Json) : {} };
}

beforeAll(async () => {
  receiver = await startReceiver();
  const workflows = [
    {
      id: 'acme.noop',
      inputsSchema: { type: 'object', properties: { file_id: { type: 'string' } } },
      async run() {
        return {};
      },
    },
    {
      id: 'acme.broken',
      inputsSchema: { type: 'object', properties: { file_id: { type: 'string' } } },
      maxAttempts: 1,
      async run(): Promise<never> {
        throw new Error('broken on purpose');
      },
    },
  ];
  engine = createEngine({ webhooks: { allowPrivateTargets: true, pollMs: 20 }, workflows });
  handle = createFetchHandler(engine, { tokens: { secret: 'webhook-routes-secret-0123456789abcdef' } });
  strict = createEngine({});
  handleStrict = createFetchHandler(strict, { tokens: { secret: 'webhook-routes-secret-0123456789abcdef' } });
  for (const id of ['acme', 'other']) {
    await engine.createClient(id, { clientId: id, clientSecret: `${id}-secret-0123456789` });
    tokens[id] = await token(handle, id);
  }
  await strict.createClient('acme', { clientId: 'strict', clientSecret: 'strict-secret-0123456789' });
  tokens.strict = await token(handleStrict, 'strict');
});
afterAll(async () => {
  await engine.close();
  await strict.close();
  await receiver.close();
});

describe('webhook routes', () => {
  it('creates a subscription (201, the secret once), lists, reads and deletes it', async () => {
    const created = await call('/webhooks', {
      method: 'POST',
      body: { url: receiver.url('/a'), events: ['task.created', 'file.finalised', 'file.finalised'] },
    });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.stringMatching(/^wh_[0-9a-f]{32}$/),
      url: receiver.url('/a'),
      events: ['file.finalised', 'task.created'],
      createdAt: expect.any(String),
      secret: expect.stringMatching(/^whsec_/),
    });
    const id = created.body.id as string;
    const { secret: _secret, ...shown } = created.body;
    expect(await call(`/webhooks/${id}`)).toEqual({ status: 200, body: shown });
    expect((await call('/webhooks')).body).toEqual({ webhooks: [shown] });
    expect((await call(`/webhooks/${id}`, { method: 'DELETE' })).status).toBe(204);
    expect((await call(`/webhooks/${id}`)).status).toBe(404);
    expect((await call(`/webhooks/${id}`, { method: 'DELETE' })).body).toMatchObject({
      error: { code: 'WEBHOOK_NOT_FOUND' },
    });
    expect((await call('/webhooks')).body).toEqual({ webhooks: [] });
  });

  it('refuses bad subscriptions with the path of the problem', async () => {
    const bad = async (body: unknown) => (await call('/webhooks', { method: 'POST', body })).body;
    expect(await bad({ url: 'ftp://x.example/', events: ['job.failed'] })).toMatchObject({
      error: { code: 'INVALID_ARGUMENT', details: [{ path: '/url' }] },
    });
    expect(await bad({ url: 'https://x.example/', events: [] })).toMatchObject({
      error: { code: 'INVALID_ARGUMENT', details: [{ path: '/events' }] },
    });
    expect(await bad({ url: 'https://x.example/', events: ['job.failed', 'file.deleted'] })).toMatchObject({
      error: { code: 'INVALID_ARGUMENT', details: [{ path: '/events/1' }] },
    });
    expect(await bad({ url: 'https://x.example/', events: ['job.failed'], secret: 'mine' })).toMatchObject({
      error: { code: 'INVALID_ARGUMENT', details: [{ path: '/secret' }] },
    });
    expect((await call('/webhooks', { method: 'POST', body: [1] })).status).toBe(400);
  });

  it('refuses private targets with 422 unless the host allows them', async () => {
    const answer = await call('/webhooks', {
      method: 'POST',
      as: 'strict',
      handler: handleStrict,
      body: { url: 'http://169.254.169.254/latest', events: ['job.failed'] },
    });
    expect(answer).toEqual({
      status: 422,
      body: {
        code: 'WEBHOOK_TARGET_REFUSED',
        message: expect.any(String),
        error: {
          code: 'WEBHOOK_TARGET_REFUSED',
          message: expect.any(String),
          details: [{ path: '/url', message: expect.any(String) }],
        },
      },
    });
    const fine = await call('/webhooks', {
      method: 'POST',
      as: 'strict',
      handler: handleStrict,
      body: { url: 'https://hooks.example.com/docex', events: ['job.failed'] },
    });
    expect(fine.status).toBe(201);
  });

  it('keeps accounts apart: another account`s subscription is unknown', async () => {
    const created = await call('/webhooks', {
      method: 'POST',
      body: { url: receiver.url('/iso'), events: ['job.failed'] },
    });
    const id = created.body.id as string;
    for (const [method, path] of [
      ['GET', `/webhooks/${id}`],
      ['DELETE', `/webhooks/${id}`],
      ['POST', `/webhooks/${id}/rotate-secret`],
      ['GET', `/webhooks/${id}/deliveries`],
    ] as const) {
      const answer = await call(path, { method, as: 'other' });
      expect(answer.status, `${method} ${path}`).toBe(404);
      expect(answer.body).toMatchObject({ error: { code: 'WEBHOOK_NOT_FOUND' } });
    }
    expect((await call('/webhooks', { as: 'other' })).body).toEqual({ webhooks: [] });
    expect((await call(`/webhooks/${id}`)).status).toBe(200);
    await call(`/webhooks/${id}`, { method: 'DELETE' });
  });

  it('delivers file.finalised and job.failed, signed; rotation signs with both secrets', async () => {
    const created = await call('/webhooks', {
      method: 'POST',
      body: { url: receiver.url('/events'), events: ['file.finalised', 'job.failed'] },
    });
    const id = created.body.id as string;
    const secret = created.body.secret as string;
    const file = await engine.upload(new TextEncoder().encode('%PDF-1.4\n%%EOF\n'), {
      accountId: 'acme',
      enforcePageLimit: false,
    });
    await engine.invoke('acme.noop', { inputs: { file_id: file.fileId } }, { accountId: 'acme' });
    const events = () => receiver.received.filter((r) => r.path === '/events');
    await until(() => events().length === 1, 'file.finalised arrived');
    const finalised = verifyWebhook(
      secret,
      events()[0]!.headers as Record<string, string>,
      events()[0]!.body,
    ) as Json;
    expect(finalised).toMatchObject({
      type: 'file.finalised',
      data: { fileId: file.fileId, status: 'FINALISED' },
    });

    const rotated = await call(`/webhooks/${id}/rotate-secret`, { method: 'POST' });
    expect(rotated.status).toBe(200);
    expect(rotated.body.secret).not.toBe(secret);
    const failing = await engine.invoke(
      'acme.broken',
      { inputs: { file_id: file.fileId } },
      { accountId: 'acme' },
    );
    await until(() => events().length === 2, 'job.failed arrived');
    const failed = events()[1]!;
    for (const key of [secret, rotated.body.secret as string]) {
      expect(verifyWebhook(key, failed.headers as Record<string, string>, failed.body)).toMatchObject({
        type: 'job.failed',
        data: { fileId: file.fileId, jobId: failing.job.id, status: 'failed' },
      });
    }
    // The event carries ids, not what the document says.
    expect(Object.keys((JSON.parse(failed.body) as { data: Json }).data).sort()).toEqual([
      'fileId',
      'jobId',
      'status',
    ]);

    // The receiver has the event before the deliverer has its answer and marks the delivery delivered.
    const delivered = () => call(`/webhooks/${id}/deliveries?status=delivered`);
    await until(
      async () => ((await delivered()).body.deliveries as Json[]).length === 2,
      'both deliveries marked delivered',
    );
    const listed = await delivered();
    expect(listed.status).toBe(200);
    const list = listed.body.deliveries as Json[];
    expect(list.map((d) => d.type)).toEqual(['job.failed', 'file.finalised']);
    expect(list[0]).toMatchObject({
      status: 'delivered',
      attempts: 1,
      lastStatus: 200,
      eventId: failed.headers['webhook-id'],
    });
    expect((await call(`/webhooks/${id}/deliveries?status=dead`)).body).toEqual({ deliveries: [] });
    expect((await call(`/webhooks/${id}/deliveries?status=lost`)).status).toBe(400);
    expect((await call(`/webhooks/${id}/deliveries?limit=x`)).status).toBe(400);
    await call(`/webhooks/${id}`, { method: 'DELETE' });
  });

  it('is in the OpenAPI document', async () => {
    const answer = await handle(new Request(`${ORIGIN}/openapi.json`));
    const doc = (await answer.json()) as {
      paths: Record<string, Record<string, unknown>>;
      components: { schemas: Json };
    };
    expect(Object.keys(doc.paths['/webhooks']!).sort()).toEqual(['get', 'post']);
    expect(Object.keys(doc.paths['/webhooks/{webhookId}']!).sort()).toEqual(['delete', 'get']);
    expect(doc.paths['/webhooks/{webhookId}/rotate-secret']).toHaveProperty('post');
    expect(doc.paths['/webhooks/{webhookId}/deliveries']).toHaveProperty('get');
    expect(Object.keys(doc.components.schemas)).toEqual(
      expect.arrayContaining(['WebhookRequest', 'Webhook', 'WebhookWithSecret', 'Delivery', 'WebhookEvent']),
    );
  });
});
