/**
 * Requests made to hurt the service: names that are Object.prototype's, bad percent-encoding, bodies far
 * deeper or larger than any real request. Each gets a clear 4xx and leaves nothing behind; the handler
 * is called with a Request (no socket matters here).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFetchHandler, type FetchHandler } from '../../src/http/fetch-handler.js';
import { createEngine, type Engine } from '../../src/index.js';
import { INVOICE_LINES, makeTextPdf } from '../helpers/make-documents.js';
import { multipartBody, BOUNDARY, type Json } from './harness.js';

const ORIGIN = 'http://127.0.0.1';
let engine: Engine;
let handle: FetchHandler;
let bearer: string;
let pdf: Uint8Array;

async function send(
  path: string,
  init: {
    method?: string;
    json?: unknown;
    body?: RequestInit['body'];
    headers?: Record<string, string>;
  } = {},
): Promise<{ status: number; body: Json; text: string }> {
  const headers: Record<string, string> = { authorization: `Bearer ${bearer}`, ...init.headers };
  let body = init.body;
  if (init.json !== undefined) {
    body = JSON.stringify(init.json);
    headers['content-type'] = 'application/json';
  }
  const response = await handle(
    new Request(ORIGIN + path, {
      method: init.method ?? (body ? 'POST' : 'GET'),
      headers,
      ...(body ? { body } : {}),
    }),
  );
  const text = await response.text();
  let parsed: Json;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  return { status: response.status, body: parsed, text };
}

/** `{"a": {"a": ... 1 ...}}` nested `depth` levels, as JSON text (JSON.stringify would overflow). */
function deepJson(depth: number): string {
  return '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);
}

beforeAll(async () => {
  engine = createEngine({ ingest: { ocr: 'never' } });
  handle = createFetchHandler(engine, { tokens: { secret: 'hostile-requests-secret-0123456789' } });
  await engine.createClient('acme', { clientId: 'acme', clientSecret: 'acme-secret-0123456789' });
  await engine.createReviewer(
    { login: 'acme-reviewer', name: 'Reviewer', password: 'acme-secret-0123456789' },
    { accountId: 'acme' },
  );
  const answer = await handle(
    new Request(`${ORIGIN}/oauth2/token`, {
      method: 'POST',
      body: new URLSearchParams({
        grant_type: 'client_credentials',
        client_id: 'acme',
        client_secret: 'acme-secret-0123456789',
      }),
    }),
  );
  bearer = ((await answer.json()) as { access_token: string }).access_token;
  pdf = await makeTextPdf([{ lines: INVOICE_LINES }]);
});
afterAll(async () => {
  await engine.close();
});

describe('hostile requests', () => {
  it('keeps multipart fields named constructor, toString, valueOf and __proto__ as plain metadata', async () => {
    const body = multipartBody([
      { name: 'constructor', value: 'c' },
      { name: 'toString', value: 't' },
      { name: 'valueOf', value: 'v' },
      { name: '__proto__', value: 'p' },
      { name: 'file', filename: 'invoice.pdf', content: pdf },
    ]);
    const answer = await send('/fileupload/v2/multipart', {
      body,
      headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
    });
    expect(answer.status, answer.text).toBe(200);
    const record = (await engine.listFiles({ accountId: 'acme' })).find(
      (f) => f.fileId === answer.body.fileId,
    );
    expect(Object.entries(record!.metadata)).toEqual(
      expect.arrayContaining([
        ['constructor', 'c'],
        ['toString', 't'],
        ['valueOf', 'v'],
        ['__proto__', 'p'],
      ]),
    );
  });

  it('refuses a v1 upload whose metadata nests 100,000 deep with a 400, and stores nothing', async () => {
    const before = (await engine.listFiles({ accountId: 'acme' })).length;
    const text =
      `{"fileToUpload":"${Buffer.from(pdf).toString('base64')}","fieldSets":["svc.invoice"],"extra":` +
      deepJson(100_000) +
      '}';
    const answer = await send('/fileupload/json', {
      body: text,
      headers: { 'content-type': 'application/json' },
    });
    expect(answer.status, answer.text).toBe(400);
    expect(answer.body.error.message).toMatch(/nests deeper than/);
    expect(await engine.listFiles({ accountId: 'acme' })).toHaveLength(before);
    // The library refuses the same before anything is stored.
    const metadata = JSON.parse(deepJson(50)) as Record<string, unknown>;
    await expect(engine.upload(pdf, { accountId: 'acme', metadata })).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
    });
    expect(await engine.listFiles({ accountId: 'acme' })).toHaveLength(before);
  });

  it('refuses a JSON upload whose fields besides the file weigh more than a JSON request may (400)', async () => {
    const upload = (count: number) =>
      send('/fileupload/json', {
        json: {
          fileToUpload: Buffer.from(pdf).toString('base64'),
          fieldSet: 'svc.invoice',
          workflowId: 'validate',
          workflowOptions: {
            prediction: { fieldset: 'svc.invoice', conditions: Array.from({ length: count }, () => ({})) },
          },
        },
      });
    const large = await upload(500_000);
    expect(large.status, large.text.slice(0, 300)).toBe(400);
    // Within the size, the one problem that matters (not a problem per condition).
    const many = await upload(200_000);
    expect(many.status).toBe(422);
    expect(many.body.error.details).toEqual([
      { path: '/workflowOptions/prediction/conditions', message: 'must NOT have more than 1000 items' },
    ]);
  });

  it('answers workflow inputs nested 20,000 deep with INVALID_INPUTS, not a 500', async () => {
    const answer = await send('/workflows/svc.extract/jobs', {
      body: `{"inputs": ${deepJson(20_000)}}`,
      headers: { 'content-type': 'application/json' },
    });
    expect(answer.status, answer.text.slice(0, 300)).toBe(400);
    expect(answer.body.error.code).toBe('INVALID_INPUTS');
  });

  it('lists at most 100 problems, whatever the size of what is wrong', async () => {
    // 30,000 invalid paths in one `or` (more than the 1,000 an `or` may hold), and 1,001 checks.
    const or = {
      type: 'or',
      conditions: Array.from({ length: 30_000 }, () => ({ type: 'is-set', path: '$.' })),
    };
    const rules = await send('/workflows/validation_rules/hostile', {
      method: 'PUT',
      json: {
        schema: true,
        data: { checks: [{ id: 'c', note: 'n', field_ids: ['svc.invoice.total'], condition: or }] },
      },
    });
    expect(rules.status).toBe(422);
    expect(rules.body.error.details).toEqual([
      { path: '/data/checks/0/condition/conditions', message: 'must NOT have more than 1000 items' },
    ]);
    // Within the size limits, every problem but at most 100.
    const paths = Array.from({ length: 900 }, () => ({ type: 'is-set', path: '$.' }));
    const many = await send('/workflows/validation_rules/hostile', {
      method: 'PUT',
      json: {
        schema: true,
        data: {
          checks: [
            {
              id: 'c',
              note: 'n',
              field_ids: ['svc.invoice.total'],
              condition: { type: 'or', conditions: paths },
            },
          ],
        },
      },
    });
    expect(many.status).toBe(422);
    expect(many.body.error.details).toHaveLength(100);
    // Inputs of a job: an array of 300,000 product ids is one problem, not 300,000.
    const inputs = await send('/workflows/svc.extract/jobs', {
      json: {
        inputs: { file_id: '00000000-0000-4000-8000-000000000000', product_ids: Array(300_000).fill('x') },
      },
    });
    expect(inputs.status).toBe(400);
    expect(inputs.body.error.details.length).toBeLessThanOrEqual(100);
    expect(inputs.text.length).toBeLessThan(20_000);
  });

  it('answers bad percent-encoding in any path, the review pages included, with a 400', async () => {
    const login = await handle(
      new Request(`${ORIGIN}/review/api/login`, {
        method: 'POST',
        body: JSON.stringify({ login: 'acme-reviewer', password: 'acme-secret-0123456789' }),
      }),
    );
    const cookie = login.headers.get('set-cookie')!.split(';')[0]!;
    for (const path of [
      '/review/api/files/%FF/pages/1',
      '/review/api/files/%E0%A4%A/tokens',
      '/review/api/tasks/%FF',
    ]) {
      const answer = await handle(new Request(ORIGIN + path, { headers: { cookie } }));
      expect(answer.status, path).toBe(400);
      expect(((await answer.json()) as Json).error.code).toBe('MALFORMED_REQUEST');
    }
    expect((await send('/workflows/jobs/%FF')).status).toBe(400);
    // The review page's own files are looked up as names, not as Object.prototype's properties.
    for (const name of ['constructor', '__proto__', 'toString', 'hasOwnProperty']) {
      expect((await handle(new Request(`${ORIGIN}/review/${name}`))).status, name).toBe(404);
    }
  });

  it('treats a client id holding a NUL character as an unknown client (401)', async () => {
    const answer = await handle(
      new Request(`${ORIGIN}/oauth2/token`, {
        method: 'POST',
        body: new URLSearchParams({
          grant_type: 'client_credentials',
          client_id: 'a\u0000b',
          client_secret: 'x',
        }),
      }),
    );
    expect(answer.status).toBe(401);
  });
});
