/**
 * Authentication and account isolation, on the fetch handler: bearer tokens (missing, malformed,
 * expired, forged, foreign, alg none) on every route of the table that needs one, the token endpoint,
 * and one account never seeing another's files, jobs, results, rules or tasks. Also the public OpenAPI
 * document.
 */
import { decodeJwt, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { companyIdOf } from '../../src/core/company-id.js';
import { createFetchHandler } from '../../src/http/fetch-handler.js';
import { ROUTES } from '../../src/http/routes.js';
import { pathsOf, type ApiRoute } from '../../src/http/routing.js';
import {
  call,
  eventually,
  form,
  invoicePdf,
  result,
  startHarness,
  TOKEN_SECRET,
  UUID,
  type Harness,
  type Json,
} from './harness.js';

let h: Harness;

/**
 * A request for every path (template and aliases) of the API routes the filter keeps, each path
 * parameter an id no account has.
 */
function tableRequests(keep: (route: ApiRoute) => boolean): Array<[string, string]> {
  return ROUTES.filter((r): r is ApiRoute => r.kind !== 'review' && keep(r)).flatMap((route) =>
    pathsOf(route).map((path): [string, string] => [
      route.method,
      path.replace(/\{[^}]+\}/g, '00000000-0000-4000-8000-000000000000'),
    ]),
  );
}

const CLIENT = { id: 'acme-app', secret: 'acme-app-secret-0123456789' };

beforeAll(async () => {
  h = await startHarness({
    engine: {
      workflows: [
        {
          id: 'acme.noop',
          inputsSchema: { type: 'object', additionalProperties: false, properties: {} },
          async run() {
            return {};
          },
        },
      ],
    },
  });
  await h.engine.createClient('acme', { clientId: CLIENT.id, clientSecret: CLIENT.secret });
});
afterAll(() => h.close());

const now = () => Math.floor(Date.now() / 1000);

function sign(
  claims: Record<string, unknown>,
  options: { secret?: string; iss?: string; aud?: string; exp?: number; alg?: string } = {},
): Promise<string> {
  const jwt = new SignJWT({ acc: 'acme', company_id: companyIdOf('acme'), ...claims })
    .setProtectedHeader({ alg: options.alg ?? 'HS256', typ: 'JWT' })
    .setSubject(CLIENT.id)
    .setIssuer(options.iss ?? 'docex')
    .setAudience(options.aud ?? 'docex')
    .setIssuedAt()
    .setExpirationTime(options.exp ?? now() + 600);
  return jwt.sign(new TextEncoder().encode(options.secret ?? TOKEN_SECRET));
}

function b64url(value: unknown): string {
  return Buffer.from(JSON.stringify(value)).toString('base64url');
}

function expectUnauthorized(answer: { status: number; headers: Headers; body: Json }): void {
  expect(answer.status).toBe(401);
  expect(answer.headers.get('www-authenticate')).toBe('Bearer');
  expect(answer.headers.get('content-type')).toMatch(/^application\/json/);
  expect(answer.body).toEqual({
    code: 'UNAUTHORIZED',
    message: expect.any(String),
    error: { code: 'UNAUTHORIZED', message: expect.any(String), details: [] },
  });
}

const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;

describe('bearer tokens', () => {
  it('accepts a token the test signs with the same secret and the expected claims (control)', async () => {
    const answer = await call(h.handler, '/tasks', { token: await sign({}) });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ tasks: [] });
  });

  it('refuses a request without a token on every route of the table that needs one', async () => {
    const requests = tableRequests((route) => route.auth === 'bearer');
    expect(requests.length).toBeGreaterThan(20);
    for (const [method, path] of requests) {
      const answer = await call(h.handler, path, { method, ...(method === 'GET' ? {} : { body: '{}' }) });
      expect(answer.status, `${method} ${path}`).toBe(401);
      expectUnauthorized(answer);
    }
  });

  it('needs no token only for the token endpoint, the probes, the API document and the metrics', () => {
    const open = ROUTES.filter((r) => r.kind !== 'review' && r.auth !== 'bearer').map(
      (r) => `${r.method} ${r.path}`,
    );
    expect(open.sort()).toEqual(
      [
        'POST /oauth2/token',
        'POST /oauth/token',
        'GET /healthz',
        'GET /readyz',
        'GET /openapi.json',
        'GET /metrics',
      ].sort(),
    );
  });

  it('answers every route that needs no token without one (never 401)', async () => {
    const metrics = { render: async () => ({ contentType: 'text/plain; version=0.0.4', body: 'up 1\n' }) };
    const handler = createFetchHandler(h.engine, {
      tokens: { secret: TOKEN_SECRET },
      metrics: { source: metrics },
    });
    const requests = tableRequests((route) => route.auth === 'none');
    expect(requests.length).toBeGreaterThan(5);
    for (const [method, path] of requests) {
      const answer = await call(handler, path, { method, ...(method === 'GET' ? {} : { body: '{}' }) });
      expect([200, 400], `${method} ${path}: ${answer.text}`).toContain(answer.status);
    }
  });

  it('refuses malformed Authorization headers', async () => {
    const good = await sign({});
    for (const header of [
      'Bearer',
      'Bearer ',
      `Bearer ${good} extra`,
      `Token ${good}`,
      good,
      basic(CLIENT.id, CLIENT.secret),
      'Bearer not.a.jwt',
      'Bearer %%%',
      `Bearer ${good.split('.').slice(0, 2).join('.')}`,
    ]) {
      const answer = await call(h.handler, '/tasks', { headers: { authorization: header } });
      expectUnauthorized(answer);
    }
  });

  it('refuses an expired token, saying so', async () => {
    const expired = await sign({}, { exp: now() - 120 });
    const answer = await call(h.handler, '/tasks', { token: expired });
    expectUnauthorized(answer);
    expect(answer.body.error.message).toMatch(/expired/i);
  });

  it('refuses a token signed with another secret (forged)', async () => {
    expectUnauthorized(
      await call(h.handler, '/tasks', {
        token: await sign({}, { secret: 'another-secret-of-at-least-32-bytes!!' }),
      }),
    );
  });

  it('refuses a token for another audience or from another issuer', async () => {
    expectUnauthorized(await call(h.handler, '/tasks', { token: await sign({}, { aud: 'someone-else' }) }));
    expectUnauthorized(await call(h.handler, '/tasks', { token: await sign({}, { iss: 'someone-else' }) }));
  });

  it('refuses alg none, and another HMAC algorithm with the same secret', async () => {
    const claims = {
      acc: 'acme',
      company_id: companyIdOf('acme'),
      iss: 'docex',
      aud: 'docex',
      exp: now() + 600,
    };
    for (const unsigned of [
      `${b64url({ alg: 'none', typ: 'JWT' })}.${b64url(claims)}.`,
      `${b64url({ alg: 'none' })}.${b64url(claims)}`,
    ]) {
      expectUnauthorized(
        await call(h.handler, '/tasks', { headers: { authorization: `Bearer ${unsigned}` } }),
      );
    }
    expectUnauthorized(await call(h.handler, '/tasks', { token: await sign({}, { alg: 'HS512' }) }));
  });

  it('refuses a token without an account, and one whose payload was changed after signing', async () => {
    expectUnauthorized(await call(h.handler, '/tasks', { token: await sign({ acc: undefined }) }));
    expectUnauthorized(await call(h.handler, '/tasks', { token: await sign({ acc: '' }) }));
    const [header, , signature] = (await sign({})).split('.');
    const tampered = `${header!}.${b64url({ acc: 'other', iss: 'docex', aud: 'docex', exp: now() + 600 })}.${signature!}`;
    expectUnauthorized(await call(h.handler, '/tasks', { token: tampered }));
  });

  it('does not read an upload it refuses for want of a token', async () => {
    const answer = await call(h.handler, '/fileupload/v2/multipart', {
      body: form('file', await invoicePdf()),
    });
    expectUnauthorized(answer);
    expect(await h.engine.listFiles({ accountId: 'acme' })).toEqual([]);
  });
});

describe('token endpoint', () => {
  it('answers {access_token, token_type: Bearer, expires_in} with cache-control: no-store', async () => {
    const answer = await call(h.handler, '/oauth2/token', {
      body: new URLSearchParams({ grant_type: 'client_credentials' }),
      headers: { authorization: basic(CLIENT.id, CLIENT.secret) },
    });
    expect(answer.status).toBe(200);
    expect(Object.keys(answer.body).sort()).toEqual(['access_token', 'expires_in', 'token_type']);
    expect(answer.body.token_type).toBe('Bearer');
    expect(answer.body.expires_in).toBe(3600);
    expect(answer.headers.get('cache-control')).toBe('no-store');
    const claims = decodeJwt(answer.body.access_token as string);
    expect(claims).toMatchObject({
      acc: 'acme',
      company_id: companyIdOf('acme'),
      sub: CLIENT.id,
      iss: 'docex',
      aud: 'docex',
    });
    expect(claims.company_id).toMatch(UUID);
    expect(claims.exp! - now()).toBeGreaterThan(3500);
    expect(claims.exp! - now()).toBeLessThanOrEqual(3600);
  });

  it('takes the client from the form body too', async () => {
    const answer = await call(h.handler, '/oauth2/token', {
      body: new URLSearchParams({
        grant_type: 'client_credentials',
        client_id: CLIENT.id,
        client_secret: CLIENT.secret,
      }),
    });
    expect(answer.status).toBe(200);
    expect(decodeJwt(answer.body.access_token as string).acc).toBe('acme');
  });

  it('answers 401 INVALID_CLIENT for a wrong secret or an unknown client', async () => {
    for (const headers of [
      { authorization: basic(CLIENT.id, 'wrong-secret-0123456789') },
      { authorization: basic('nobody', CLIENT.secret) },
    ]) {
      const answer = await call(h.handler, '/oauth2/token', {
        body: new URLSearchParams({ grant_type: 'client_credentials' }),
        headers,
      });
      expect(answer.status).toBe(401);
      expect(answer.body).toEqual({
        code: 'INVALID_CLIENT',
        message: expect.any(String),
        error: { code: 'INVALID_CLIENT', message: expect.any(String), details: [] },
      });
    }
    for (const body of [
      { grant_type: 'client_credentials', client_id: CLIENT.id, client_secret: 'nope-nope-nope-nope' },
      { grant_type: 'client_credentials', client_id: 'nobody', client_secret: CLIENT.secret },
      { grant_type: 'client_credentials', client_id: CLIENT.id },
      { grant_type: 'client_credentials' },
    ]) {
      const answer = await call(h.handler, '/oauth2/token', { body: new URLSearchParams(body) });
      expect(answer.status, JSON.stringify(body)).toBe(401);
      expect(answer.body.error.code).toBe('INVALID_CLIENT');
    }
  });

  it('answers 400 UNSUPPORTED_GRANT_TYPE for another or a missing grant type', async () => {
    for (const grant of ['password', 'authorization_code', '']) {
      const answer = await call(h.handler, '/oauth2/token', {
        body: new URLSearchParams(grant ? { grant_type: grant } : {}),
        headers: { authorization: basic(CLIENT.id, CLIENT.secret) },
      });
      expect(answer.status, grant).toBe(400);
      expect(answer.body).toEqual({
        code: 'UNSUPPORTED_GRANT_TYPE',
        message: expect.any(String),
        error: { code: 'UNSUPPORTED_GRANT_TYPE', message: expect.any(String), details: [] },
      });
    }
  });

  it('is POST only', async () => {
    const answer = await call(h.handler, '/oauth2/token');
    expect(answer.status).toBe(405);
    expect(answer.headers.get('allow')).toBe('POST');
  });

  it('issues tokens a request with the client id in URL-encoded Basic form can use (RFC 6749 2.3.1)', async () => {
    const clientId = 'odd~client.id';
    const secret = 'secret with spaces & colon: 0123456789';
    await h.engine.createClient('acme', { clientId, clientSecret: secret });
    const encoded = `${encodeURIComponent(clientId)}:${encodeURIComponent(secret).replace(/%20/g, '+')}`;
    const answer = await call(h.handler, '/oauth2/token', {
      body: new URLSearchParams({ grant_type: 'client_credentials' }),
      headers: { authorization: `Basic ${Buffer.from(encoded).toString('base64')}` },
    });
    expect(answer.status, answer.text).toBe(200);
  });
});

describe('isolation between accounts', () => {
  let tokenA: string;
  let tokenB: string;
  let fileA: string;
  let jobA: string;
  let taskA: string;

  beforeAll(async () => {
    tokenA = await h.login('account-a');
    tokenB = await h.login('account-b');
    const upload = await call(h.handler, '/fileupload/v2/multipart', {
      token: tokenA,
      body: form('file', await invoicePdf()),
    });
    fileA = upload.body.fileId as string;
    const rules = {
      data: {
        checks: [
          {
            condition: { type: 'has-value', item: "$.predictions['svc.invoice.total'].value" },
            note: 'Check every total',
            field_ids: ['svc.invoice.total'],
          },
        ],
      },
      schema: true,
    };
    expect(
      (
        await call(h.handler, '/workflows/validation_rules/shared-name', {
          method: 'PUT',
          token: tokenA,
          json: rules,
        })
      ).status,
    ).toBe(200);
    const invoked = await call(h.handler, '/workflows/svc.validate/jobs', {
      token: tokenA,
      json: { inputs: { file_id: fileA, product_id: 'invoices:1', rules_id: 'shared-name' } },
    });
    expect(invoked.status, invoked.text).toBe(200);
    jobA = invoked.body.job.id as string;
    taskA = await eventually(async () => {
      const list = await call(h.handler, `/tasks?fileId=${fileA}`, { token: tokenA });
      return (list.body.tasks as Json[])[0]?.id as string | undefined;
    });
  });

  const unknown = '9b2f6f0e-3c1d-4e8a-9f7b-1a2b3c4d5e6f';

  /** B's answer for A's id equals B's answer for an unknown id (the id itself aside). */
  async function sameAsUnknown(
    method: string,
    pathOf: (id: string) => string,
    idA: string,
    idUnknown: string,
    expected: { status: number; code: string },
    json?: unknown,
  ): Promise<void> {
    const theirs = await call(h.handler, pathOf(idA), { method, token: tokenB, ...(json ? { json } : {}) });
    const none = await call(h.handler, pathOf(idUnknown), {
      method,
      token: tokenB,
      ...(json ? { json } : {}),
    });
    expect(theirs.status, pathOf(idA)).toBe(expected.status);
    expect(theirs.body.error.code).toBe(expected.code);
    expect(none.status).toBe(theirs.status);
    expect(none.body.error.code).toBe(theirs.body.error.code);
    expect((theirs.body.error.message as string).replace(idA, '<id>')).toBe(
      (none.body.error.message as string).replace(idUnknown, '<id>'),
    );
    expect(theirs.body.error.details).toEqual(none.body.error.details);
  }

  it("B gets 404 for A's file result, exactly like an unknown id (both paths)", async () => {
    expect((await result(h.handler, tokenA, fileA, 'timeout=50')).status).toBe(200);
    await sameAsUnknown('GET', (id) => `/result/final/${id}`, fileA, unknown, {
      status: 404,
      code: 'FILE_NOT_FOUND',
    });
    await sameAsUnknown('GET', (id) => `/results/${id}`, fileA, unknown, {
      status: 404,
      code: 'FILE_NOT_FOUND',
    });
  });

  it("B gets 404 for A's job, exactly like an unknown id", async () => {
    expect((await call(h.handler, `/workflows/jobs/${jobA}`, { token: tokenA })).status).toBe(200);
    await sameAsUnknown('GET', (id) => `/workflows/jobs/${id}`, jobA, unknown, {
      status: 404,
      code: 'JOB_NOT_FOUND',
    });
  });

  it("B gets 404 for A's rules, exactly like an unknown id, and keeps its own under the same id", async () => {
    await sameAsUnknown('GET', (id) => `/workflows/validation_rules/${id}`, 'shared-name', 'never-stored', {
      status: 404,
      code: 'RULES_NOT_FOUND',
    });
    const own = {
      data: { checks: [{ condition: { type: 'and', conditions: [] }, note: 'B', field_ids: [] }] },
      schema: true,
    };
    expect(
      (
        await call(h.handler, '/workflows/validation_rules/shared-name', {
          method: 'PUT',
          token: tokenB,
          json: own,
        })
      ).status,
    ).toBe(200);
    expect(
      (await call(h.handler, '/workflows/validation_rules/shared-name', { token: tokenB })).body,
    ).toEqual(own);
    const a = await call(h.handler, '/workflows/validation_rules/shared-name', { token: tokenA });
    expect(a.body.data.checks[0].note).toBe('Check every total');
  });

  it("B gets 404 for A's task, and for completing it, exactly like an unknown id", async () => {
    await sameAsUnknown('GET', (id) => `/tasks/${id}`, taskA, unknown, {
      status: 404,
      code: 'TASK_NOT_FOUND',
    });
    await sameAsUnknown(
      'POST',
      (id) => `/tasks/${id}/complete`,
      taskA,
      unknown,
      { status: 404, code: 'TASK_NOT_FOUND' },
      { values: { 'svc.invoice.total': '1.00' } },
    );
    // A's task is untouched and invisible in B's list.
    const task = await call(h.handler, `/tasks/${taskA}`, { token: tokenA });
    expect(task.body.status).toBe('open');
    expect((await call(h.handler, '/tasks', { token: tokenB })).body.tasks).toEqual([]);
    expect((await call(h.handler, `/tasks?fileId=${fileA}`, { token: tokenB })).body.tasks).toEqual([]);
  });

  it("B cannot invoke a workflow on A's file: 404 like an unknown file", async () => {
    const theirs = await call(h.handler, '/workflows/svc.extract/jobs', {
      token: tokenB,
      json: { inputs: { file_id: fileA, product_ids: ['invoices:1'] } },
    });
    const none = await call(h.handler, '/workflows/svc.extract/jobs', {
      token: tokenB,
      json: { inputs: { file_id: unknown, product_ids: ['invoices:1'] } },
    });
    expect(theirs.status).toBe(404);
    expect(theirs.body.error.code).toBe('FILE_NOT_FOUND');
    expect(none.status).toBe(404);
    expect(none.body.error.code).toBe('FILE_NOT_FOUND');
    expect(await h.engine.listJobs({ accountId: 'account-b' })).toEqual([]);
  });

  it('gives each account its own company_id', async () => {
    const b = await call(h.handler, '/fileupload/v2/multipart', {
      token: tokenB,
      body: form('file', await invoicePdf()),
    });
    const jobB = await call(h.handler, '/workflows/svc.ingest/jobs', {
      token: tokenB,
      json: { inputs: { file_id: b.body.fileId as string } },
    });
    const jobOfA = await call(h.handler, `/workflows/jobs/${jobA}`, { token: tokenA });
    expect(jobB.body.job.company_id).toMatch(UUID);
    expect(jobB.body.job.company_id).not.toBe(jobOfA.body.job.company_id);
    expect(jobOfA.body.job.company_id).toBe(companyIdOf('account-a'));
  });
});

describe('/openapi.json', () => {
  it('is public and a valid-looking OpenAPI 3.1 document with every route and the workflow ids', async () => {
    const answer = await call(h.handler, '/openapi.json');
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toMatch(/^application\/json/);
    const doc = answer.body as Json;
    expect(doc.openapi).toMatch(/^3\.1\.\d+$/);
    expect(doc.info).toMatchObject({ title: expect.any(String), version: expect.any(String) });
    const expected: Record<string, string[]> = {
      '/oauth2/token': ['post'],
      '/fileupload/v2/multipart': ['post'],
      '/fileupload': ['post'],
      '/fileupload/json': ['post'],
      '/workflows/{workflowId}/jobs': ['post'],
      '/workflows/jobs/{jobId}': ['get'],
      '/workflows/validation_rules/{rules_id}': ['get', 'put'],
      '/result/final/{fileId}': ['get'],
      '/tasks': ['get'],
      '/tasks/{taskId}': ['get'],
      '/tasks/{taskId}/complete': ['post'],
    };
    for (const [path, methods] of Object.entries(expected)) {
      expect(doc.paths, path).toHaveProperty([path]);
      expect(Object.keys(doc.paths[path]).sort(), path).toEqual(methods);
      for (const method of methods) {
        const operation = doc.paths[path][method] as Json;
        expect(operation.responses, `${method} ${path}`).toHaveProperty(['200']);
        // Path parameters are declared.
        for (const name of [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1])) {
          expect(
            (operation.parameters as Json[]).some(
              (p: Json) => p.name === name && p.in === 'path' && p.required === true,
            ),
            `${method} ${path} {${name}}`,
          ).toBe(true);
        }
      }
    }
    // The alias of the result is named in the document.
    expect(JSON.stringify(doc.paths['/result/final/{fileId}'])).toContain('/results/{fileId}');
    // Every protected operation asks for the bearer token; the token endpoint does not.
    expect(doc.components.securitySchemes.bearer).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(doc.paths['/oauth2/token'].post.security).toBeUndefined();
    expect(doc.paths['/fileupload/v2/multipart'].post.security).toEqual([{ bearer: [] }]);
    // The workflow ids, built-in and custom.
    const workflowParam = (doc.paths['/workflows/{workflowId}/jobs'].post.parameters as Json[]).find(
      (p: Json) => p.name === 'workflowId',
    );
    expect(workflowParam.schema.enum).toEqual([
      'svc.ingest',
      'svc.extract',
      'svc.validate',
      'svc.split',
      'acme.noop',
    ]);
    const text = JSON.stringify(doc);
    for (const id of ['svc.ingest', 'svc.extract', 'svc.validate', 'svc.split', 'acme.noop'])
      expect(text).toContain(id);
    // Every local reference resolves.
    for (const [, ref] of text.matchAll(/"\$ref":"([^"]+)"/g)) {
      expect(ref!.startsWith('#/')).toBe(true);
      const target = ref!
        .slice(2)
        .split('/')
        .reduce<Json>((node, key) => (node === undefined ? undefined : node[key]), doc);
      expect(target, ref).toBeDefined();
    }
    // An error response points at the error schema.
    expect(doc.components.schemas.Error.properties.error.required).toEqual(['code', 'message', 'details']);
  });
});
