import { DocexError } from '../core/errors.js';
import type { Logger } from '../ports/logger.js';
import type { MetricsSource, RequestObservation } from '../observability/metrics.js';
import { assertPlainData } from '../core/plain-data.js';
import type { Engine, UploadV1Options } from '../engine-types.js';
import { decodeSegment } from './segments.js';
import { readForm, readJson } from './body.js';
import { readMultipart } from './multipart.js';
import { openApiDocument } from './openapi.js';
import { errorBody, errorResponse, json } from './responses.js';
import { TokenService, type TokenOptions } from './tokens.js';
import { remoteAddressOf } from './remote-address.js';
import { SignInLimiter, signInKeys, tooManySignIns, type SignInLimits } from './sign-in-limiter.js';
import { companyIdOf } from '../core/company-id.js';
import type { FileRecord } from '../core/types.js';
import { createReviewRoutes, type ReviewOptions } from '../review/review-routes.js';

export interface FetchHandlerOptions {
  /** Access tokens: signing secret (at least 32 bytes), lifetime, issuer, audience. */
  tokens?: TokenOptions;
  /** Path prefix the host mounts the service under (`/api`). Default: none. */
  basePath?: string;
  /** Largest JSON body besides uploads. Default 1 MB. */
  maxJsonBytes?: number;
  /** Longest wait of a result request (`?timeout=`), in ms. Default 30 s. */
  maxResultWaitMs?: number;
  /** The review web page (default at `/review/`); `false` leaves it out. */
  review?: ReviewOptions | false;
  /**
   * Failed sign-ins (token endpoint, review page) allowed per client id and per address before 429:
   * default 10 a minute (src/http/sign-in-limiter.ts).
   */
  signInLimits?: Partial<SignInLimits>;
  /** One line per request (method, route, status, ms, request id, account; never a token or a body). Default none. */
  logger?: Logger;
  /** Called with every answered request (for metrics: `createEngineMetrics(engine).observeRequest`). */
  onRequest?: (observation: RequestObservation) => void;
  /**
   * `GET /metrics` in Prometheus' text format (from `createEngineMetrics(engine)`); with `token`, only for
   * `Authorization: Bearer <token>`. Absent: no such route.
   */
  metrics?: { source: MetricsSource; token?: string | undefined };
}

export type FetchHandler = (request: Request) => Promise<Response>;

interface Context {
  request: Request;
  url: URL;
  params: string[];
  /** Set for every route but the token endpoint and the API document. */
  accountId: string;
  /** The API client the bearer token was issued to (set with `accountId`). */
  clientId: string;
}

type Handler = (context: Context) => Promise<Response>;

interface Route {
  method: string;
  pattern: RegExp;
  public?: boolean;
  handle: Handler;
}

/** A route's path as logs and metrics name it: the pattern with `{}` for each id. */
function routeName(route: Route): string {
  return route.pattern.source
    .replace(/^\^|\$$/g, '')
    .replace(/\(\[\^\\?\/\]\+\)/g, '{}')
    .replace(/\\(.)/g, '$1');
}

/** A caller's request id is kept when it is a plain token; otherwise one is made. */
function requestIdOf(request: Request): string {
  const given = request.headers.get('x-request-id');
  return given && /^[\w.:-]{1,128}$/.test(given) ? given : crypto.randomUUID();
}

const V1_KEYS = new Set([
  'products',
  'products[]',
  'fieldSets',
  'fieldSets[]',
  'fieldSet',
  'tags',
  'workflowId',
  'workflowOptions',
  'locale',
]);

/**
 * The service's HTTP interface (v1 and v2, docs/interface.md and docs/decisions.md) as a web-standard handler:
 * `(Request) => Promise<Response>`. Mount it in any host (node:http through `docex/http/node`,
 * Express, Fastify, Hono, Deno, Bun). It changes no global; errors are `{code, message, error: {code, message, details}}`
 * with the status of their code, never a stack.
 */
export function createFetchHandler(engine: Engine, options: FetchHandlerOptions = {}): FetchHandler {
  // One signing key for access tokens and review sessions (their audiences keep them apart).
  const secret = options.tokens?.secret ?? crypto.getRandomValues(new Uint8Array(32));
  const signIns = new SignInLimiter(options.signInLimits);
  const tokens = new TokenService({ ...options.tokens, secret });
  const review =
    options.review === false
      ? undefined
      : createReviewRoutes(
          engine,
          typeof secret === 'string' ? new TextEncoder().encode(secret) : secret,
          options.review ?? {},
          signIns,
        );
  const basePath = (options.basePath ?? '').replace(/\/+$/, '');
  const maxJson = options.maxJsonBytes ?? 1024 * 1024;
  const maxWait = options.maxResultWaitMs ?? 30_000;
  const segment = '([^/]+)';
  const account = (c: Context) => ({ accountId: c.accountId });

  /**
   * OAuth 2.0 client credentials: a form (RFC 6749) or, as older clients send it, a JSON body
   * `{client_id, client_secret, grant_type, audience}`; the client by HTTP Basic or in the body.
   * `audience` is accepted and not checked (docex has one audience).
   */
  async function issueToken({ request }: Context): Promise<Response> {
    const type = request.headers.get('content-type') ?? '';
    let fields: { get(name: string): string | null };
    if (/^application\/json\b/i.test(type)) {
      const body = (await readJson(request, maxJson)) as Record<string, unknown>;
      fields = { get: (name) => (typeof body[name] === 'string' ? (body[name] as string) : null) };
    } else {
      fields = await readForm(request, maxJson);
    }
    if (fields.get('grant_type') !== 'client_credentials') {
      throw new DocexError(
        'UNSUPPORTED_GRANT_TYPE',
        'Only grant_type=client_credentials is supported (in a form or a JSON body).',
      );
    }
    const basic = basicCredentials(request.headers.get('authorization'));
    const clientId = basic?.id ?? fields.get('client_id');
    const secret = basic?.secret ?? fields.get('client_secret');
    const keys = signInKeys(clientId, remoteAddressOf(request));
    const wait = signIns.retryAfter(keys);
    if (wait !== undefined) return tooManySignIns(wait);
    const accountId = clientId && secret ? await engine.authenticateClient(clientId, secret) : undefined;
    if (accountId && clientId) signIns.succeeded(`client:${clientId.slice(0, 256)}`);
    else signIns.failed(keys);
    if (!accountId || !clientId) {
      const failed = errorResponse(new DocexError('INVALID_CLIENT', 'The client id or secret is not valid.'));
      // RFC 6749 5.2: a client that authenticated with HTTP Basic is challenged with Basic.
      if (basic) failed.headers.set('www-authenticate', 'Basic realm="docex"');
      return failed;
    }
    return json(
      {
        access_token: await tokens.issue(accountId, clientId),
        token_type: 'Bearer',
        expires_in: tokens.ttlSeconds,
      },
      200,
      { pragma: 'no-cache' },
    );
  }

  /** The company id in a path must be the caller's own (another account's is unknown, like a bad id). */
  function ownCompany(c: Context, companyId: string): void {
    if (companyId.toLowerCase() !== companyIdOf(c.accountId)) {
      throw new DocexError('NOT_FOUND', `No company with id ${companyId.slice(0, 64)}.`);
    }
  }

  /** Waits (up to maxWait) for a job to end; answers its invocation record as it then stands. */
  async function jobEnded(c: Context, jobId: string): Promise<Response> {
    const deadline = Date.now() + maxWait;
    for (;;) {
      const invocation = await engine.getInvocation(jobId, account(c));
      const status = invocation.job.status;
      const remaining = deadline - Date.now();
      if ((status !== 'new' && status !== 'running') || remaining <= 0) return json(invocation);
      // This process's job changes wake the wait; another process's are seen by looking again each second.
      await new Promise<void>((resolve) => {
        const timer = setTimeout(done, Math.min(1000, remaining));
        const off = engine.on('job', ({ job }) => {
          if (job.id === jobId) done();
        });
        function done(): void {
          clearTimeout(timer);
          off();
          resolve();
        }
      });
    }
  }

  async function upload(c: Context): Promise<Response> {
    const { maxFileBytes } = engine.getAccount(c.accountId).limits;
    const body = await readMultipart(c.request, { fileFields: ['file'], maxFileBytes });
    if (!body.file) throw missingFile('file');
    const record = await engine.uploadV2(body.file.bytes, {
      ...account(c),
      name: body.file.name,
      metadata: flatten(body.fields),
    });
    return json(record);
  }

  async function uploadV1(
    c: Context,
    bytes: Uint8Array,
    fileName: string | undefined,
    fields: Record<string, unknown>,
  ): Promise<Response> {
    const list = (key: string): string[] | undefined => {
      const values = [fields[key], fields[`${key}[]`]]
        .flat()
        .filter((v): v is string => typeof v === 'string');
      return values.length > 0 ? values : undefined;
    };
    const single = (key: string): string | undefined => {
      const value = fields[key];
      const first = Array.isArray(value) ? value[0] : value;
      return typeof first === 'string' ? first : undefined;
    };
    const options: UploadV1Options = { ...account(c) };
    const products = list('products');
    const fieldSets = list('fieldSets');
    const fieldSet = single('fieldSet');
    if (products) options.products = products;
    if (fieldSets) options.fieldSets = fieldSets;
    if (fieldSet !== undefined) options.fieldSet = fieldSet;
    const tags = list('tags');
    if (tags) options.tags = tags;
    const workflowId = single('workflowId');
    if (workflowId) options.workflowId = workflowId;
    // A form field comes as a list of strings (the first counts); the JSON upload may send an object.
    const workflowOptions = Array.isArray(fields.workflowOptions)
      ? (fields.workflowOptions as unknown[])[0]
      : fields.workflowOptions;
    if (
      typeof workflowOptions === 'string' ||
      (typeof workflowOptions === 'object' && workflowOptions !== null && !Array.isArray(workflowOptions))
    ) {
      options.workflowOptions = workflowOptions as string | Record<string, unknown>;
    }
    const locale = single('locale');
    if (locale) options.locale = locale;
    if (fileName) options.name = fileName;
    // Unknown fields are kept with the file, so newer clients keep working.
    options.metadata = Object.fromEntries(
      Object.entries(fields)
        .filter(([k]) => !V1_KEYS.has(k) && k !== 'fileToUpload')
        .map(([k, v]) => [k, Array.isArray(v) && v.length === 1 ? (v as unknown[])[0] : v]),
    );
    return json(await engine.uploadV1(bytes, options));
  }

  const routes: Route[] = [
    // /oauth/token: the path older clients of the original service use.
    { method: 'POST', pattern: /^\/oauth2?\/token$/, public: true, handle: issueToken },
    // Probes for load balancers and orchestrators: no token, nothing about the accounts.
    { method: 'GET', pattern: /^\/healthz$/, public: true, handle: async () => json({ status: 'ok' }) },
    {
      method: 'GET',
      pattern: /^\/readyz$/,
      public: true,
      async handle() {
        const health = await engine.health();
        return json(
          { status: health.ready ? 'ready' : 'not ready', checks: health.checks },
          health.ready ? 200 : 503,
        );
      },
    },
    {
      method: 'GET',
      pattern: /^\/openapi\.json$/,
      public: true,
      handle: async () => json(openApiDocument(engine, basePath)),
    },
    { method: 'POST', pattern: /^\/fileupload\/v2\/multipart$/, handle: upload },
    {
      method: 'POST',
      pattern: /^\/fileupload\/?$/,
      async handle(c) {
        const { maxFileBytes } = engine.getAccount(c.accountId).limits;
        const body = await readMultipart(c.request, { fileFields: ['fileToUpload'], maxFileBytes });
        if (!body.file) throw missingFile('fileToUpload');
        return uploadV1(c, body.file.bytes, body.file.name, body.fields);
      },
    },
    {
      method: 'POST',
      pattern: /^\/fileupload\/json$/,
      async handle(c) {
        const { maxFileBytes } = engine.getAccount(c.accountId).limits;
        // Base64 is 4/3 of the bytes; the limit applies to the decoded file as well.
        const body = (await readJson(
          c.request,
          Math.ceil((maxFileBytes * 4) / 3) + maxJson,
          'object',
          () =>
            new DocexError('FILE_TOO_LARGE', `The file is larger than the limit of ${maxFileBytes} bytes.`),
        )) as Record<string, unknown>;
        const encoded = body.fileToUpload;
        if (typeof encoded !== 'string' || encoded.length === 0) throw missingFile('fileToUpload');
        const bytes = decodeBase64(encoded);
        if (bytes.byteLength > maxFileBytes) {
          throw new DocexError(
            'FILE_TOO_LARGE',
            `The file is larger than the limit of ${maxFileBytes} bytes.`,
          );
        }
        const name = typeof body.fileName === 'string' ? body.fileName : undefined;
        const { fileToUpload: _file, ...fields } = body;
        // Besides the file, the body holds what any other JSON request may: the same limit.
        assertPlainData(fields, { maxDepth: 64, maxBytes: maxJson }, 'request', 'MALFORMED_REQUEST');
        return uploadV1(c, bytes, name, fields);
      },
    },
    {
      method: 'GET',
      pattern: new RegExp(`^/result/image/${segment}$`),
      async handle(c) {
        const page = c.url.searchParams.get('page') ?? '1';
        if (!/^\d{1,4}$/.test(page)) {
          throw new DocexError('MALFORMED_REQUEST', 'page must be a page number.', {
            details: [{ path: '/page', message: 'must be a page number' }],
          });
        }
        const image = await engine.pageImage(c.params[0]!, Number(page), account(c));
        return new Response(image.bytes, {
          headers: { 'content-type': image.contentType, 'cache-control': 'private, max-age=3600' },
        });
      },
    },
    {
      method: 'GET',
      pattern: new RegExp(`^/app/company/byclientid/${segment}$`),
      async handle(c) {
        const client = await engine.findClient(c.params[0]!, account(c));
        return json({ id: companyIdOf(client.accountId), name: client.accountId, clientId: client.clientId });
      },
    },
    {
      method: 'GET',
      pattern: new RegExp(`^/app/docs/${segment}$`),
      async handle(c) {
        const record = await engine.getFile(c.params[0]!, account(c));
        return json(fileDocument(record));
      },
    },
    {
      method: 'GET',
      pattern: new RegExp(`^/app/docs/${segment}/download$`),
      async handle(c) {
        const record = await engine.getFile(c.params[0]!, account(c));
        const bytes = await engine.readFile(record.fileId, account(c));
        const name = (record.name ?? record.fileId).replace(/[^\w.-]+/g, '_');
        return new Response(bytes, {
          headers: {
            'content-type': record.mediaType,
            'content-disposition': `attachment; filename="${name}"`,
            'cache-control': 'private, no-store',
          },
        });
      },
    },
    {
      method: 'GET',
      pattern: new RegExp(`^/app/docs/${segment}/tags$`),
      async handle(c) {
        const record = await engine.getFile(c.params[0]!, account(c));
        return json({ fileId: record.fileId, tags: record.tags ?? [] });
      },
    },
    {
      method: 'PUT',
      pattern: new RegExp(`^/workflows/${segment}/rules/${segment}$`),
      async handle(c) {
        ownCompany(c, c.params[0]!);
        const rules = await readJson(c.request, maxJson, 'any');
        return json(await engine.putValidationRules(c.params[1]!, rules, account(c)));
      },
    },
    {
      method: 'GET',
      pattern: new RegExp(`^/workflows/${segment}/rules/${segment}$`),
      async handle(c) {
        ownCompany(c, c.params[0]!);
        return json(await engine.getValidationRules(c.params[1]!, account(c)));
      },
    },
    {
      method: 'DELETE',
      pattern: new RegExp(`^/workflows/${segment}/rules/${segment}$`),
      async handle(c) {
        ownCompany(c, c.params[0]!);
        await engine.deleteValidationRules(c.params[1]!, account(c));
        return new Response(null, { status: 204 });
      },
    },
    {
      method: 'POST',
      pattern: new RegExp(`^/workflows/${segment}/invoke$`),
      async handle(c) {
        const body = (await readJson(c.request, maxJson)) as { inputs?: unknown };
        if (typeof body.inputs !== 'object' || body.inputs === null || Array.isArray(body.inputs)) {
          throw new DocexError('INVALID_INPUTS', 'The body must be {"inputs": {...}}.', {
            details: [{ path: '/inputs', message: 'must be an object' }],
          });
        }
        const { job } = await engine.invoke(
          c.params[0]!,
          { inputs: body.inputs as Record<string, unknown> },
          account(c),
        );
        return jobEnded(c, job.id);
      },
    },
    {
      method: 'GET',
      pattern: new RegExp(`^/workflows/jobs/${segment}$`),
      handle: async (c) => json(await engine.getInvocation(c.params[0]!, account(c))),
    },
    {
      method: 'POST',
      pattern: new RegExp(`^/workflows/${segment}/jobs$`),
      async handle(c) {
        const body = (await readJson(c.request, maxJson)) as { inputs?: unknown };
        if (typeof body.inputs !== 'object' || body.inputs === null || Array.isArray(body.inputs)) {
          throw new DocexError('INVALID_INPUTS', 'The body must be {"inputs": {...}}.', {
            details: [{ path: '/inputs', message: 'must be an object' }],
          });
        }
        return json(
          await engine.invoke(c.params[0]!, { inputs: body.inputs as Record<string, unknown> }, account(c)),
        );
      },
    },
    {
      method: 'PUT',
      pattern: new RegExp(`^/workflows/validation_rules/${segment}$`),
      async handle(c) {
        const rules = await readJson(c.request, maxJson, 'any');
        return json(await engine.putValidationRules(c.params[0]!, rules, account(c)));
      },
    },
    {
      method: 'GET',
      pattern: new RegExp(`^/workflows/validation_rules/${segment}$`),
      handle: async (c) => json(await engine.getValidationRules(c.params[0]!, account(c))),
    },
    {
      method: 'GET',
      pattern: new RegExp(`^/(?:result/final|results)/${segment}$`),
      async handle(c) {
        const timeout = c.url.searchParams.get('timeout');
        let timeoutMs: number | undefined;
        if (timeout !== null) {
          if (!/^\d{1,9}$/.test(timeout)) {
            throw new DocexError('MALFORMED_REQUEST', 'timeout must be a whole number of milliseconds.', {
              details: [{ path: '/timeout', message: 'must be a whole number' }],
            });
          }
          timeoutMs = Math.min(Number(timeout), maxWait);
        }
        const verbose = c.url.searchParams.get('verbose') === 'true';
        const result = await engine.getResult(c.params[0]!, {
          ...account(c),
          verbose,
          maxWaitMs: maxWait,
          ...(timeoutMs !== undefined ? { timeoutMs } : {}),
        });
        return json(result);
      },
    },
    {
      method: 'GET',
      pattern: /^\/tasks$/,
      async handle(c) {
        const status = c.url.searchParams.get('status');
        const fileId = c.url.searchParams.get('fileId');
        if (status !== null && status !== 'open' && status !== 'completed') {
          throw new DocexError('MALFORMED_REQUEST', 'status must be open or completed.', {
            details: [{ path: '/status', message: 'must be open or completed' }],
          });
        }
        const tasks = await engine.listTasks({
          ...account(c),
          ...(status ? { status } : {}),
          ...(fileId ? { fileId } : {}),
        });
        return json({ tasks });
      },
    },
    {
      method: 'GET',
      pattern: new RegExp(`^/tasks/${segment}$`),
      handle: async (c) => json(await engine.getTask(c.params[0]!, account(c))),
    },
    {
      method: 'GET',
      pattern: /^\/suppliers$/,
      handle: async (c) => json({ suppliers: await engine.listSuppliers(account(c)) }),
    },
    {
      method: 'POST',
      pattern: /^\/suppliers$/,
      async handle(c) {
        const body = await readJson(c.request, maxJson);
        return json(await engine.importSupplier(body, account(c)), 201);
      },
    },
    {
      method: 'GET',
      pattern: new RegExp(`^/suppliers/${segment}$`),
      handle: async (c) => json(await engine.exportSupplier(c.params[0]!, account(c))),
    },
    {
      method: 'DELETE',
      pattern: new RegExp(`^/suppliers/${segment}$`),
      async handle(c) {
        await engine.forgetSupplier(c.params[0]!, account(c));
        return new Response(null, { status: 204 });
      },
    },
    {
      method: 'POST',
      pattern: /^\/webhooks$/,
      async handle(c) {
        const body = await readJson(c.request, maxJson);
        return json(await engine.createWebhook(body as { url: string; events: string[] }, account(c)), 201);
      },
    },
    {
      method: 'GET',
      pattern: /^\/webhooks$/,
      handle: async (c) => json({ webhooks: await engine.listWebhooks(account(c)) }),
    },
    {
      method: 'GET',
      pattern: new RegExp(`^/webhooks/${segment}$`),
      handle: async (c) => json(await engine.getWebhook(c.params[0]!, account(c))),
    },
    {
      method: 'DELETE',
      pattern: new RegExp(`^/webhooks/${segment}$`),
      async handle(c) {
        await engine.deleteWebhook(c.params[0]!, account(c));
        return new Response(null, { status: 204 });
      },
    },
    {
      method: 'POST',
      pattern: new RegExp(`^/webhooks/${segment}/rotate-secret$`),
      handle: async (c) => json(await engine.rotateWebhookSecret(c.params[0]!, account(c))),
    },
    {
      method: 'GET',
      pattern: new RegExp(`^/webhooks/${segment}/deliveries$`),
      async handle(c) {
        const status = c.url.searchParams.get('status');
        const limit = c.url.searchParams.get('limit');
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
        const deliveries = await engine.listWebhookDeliveries(c.params[0]!, {
          ...account(c),
          ...(status ? { status } : {}),
          ...(limit !== null ? { limit: Number(limit) } : {}),
        });
        return json({ deliveries });
      },
    },
    {
      method: 'GET',
      pattern: /^\/usage$/,
      async handle(c) {
        const from = c.url.searchParams.get('from') ?? undefined;
        const to = c.url.searchParams.get('to') ?? undefined;
        return json(await engine.getUsage({ ...account(c), from, to }));
      },
    },
    {
      method: 'POST',
      pattern: new RegExp(`^/tasks/${segment}/complete$`),
      async handle(c) {
        const body = (await readJson(c.request, maxJson)) as { values: Record<string, unknown> };
        return json(
          await engine.completeTask(c.params[0]!, body, {
            ...account(c),
            ...(c.clientId ? { by: { kind: 'client', id: c.clientId } } : {}),
          }),
        );
      },
    },
  ];

  if (options.metrics) {
    const { source, token } = options.metrics;
    routes.unshift({
      method: 'GET',
      pattern: /^\/metrics$/,
      public: true,
      async handle({ request }) {
        if (
          token !== undefined &&
          !sameSecret(request.headers.get('authorization') ?? '', `Bearer ${token}`)
        ) {
          return errorResponse(new DocexError('UNAUTHORIZED', 'The metrics need their token.'));
        }
        const { contentType, body } = await source.render();
        return new Response(body, { headers: { 'content-type': contentType, 'cache-control': 'no-store' } });
      },
    });
  }

  // Names for logs and metrics, made once rather than per request.
  const routeNames = new Map(routes.map((r) => [r, routeName(r)]));
  const nameOf = (route: Route): string => routeNames.get(route)!;

  /** What answered a request, for its log line and metrics. */
  interface Answered {
    response: Response;
    route: string;
    accountId?: string;
  }

  async function dispatch(request: Request): Promise<Answered> {
    let route: Route | undefined;
    let accountId: string | undefined;
    try {
      const url = new URL(request.url);
      let path = url.pathname;
      if (basePath) {
        if (path !== basePath && !path.startsWith(`${basePath}/`)) throw notFound();
        path = path.slice(basePath.length) || '/';
      }
      const page = review ? await review(request, path) : undefined;
      if (page) return { response: page, route: '/review/*' };
      const matching = routes.filter((r) => r.pattern.test(path));
      if (matching.length === 0) throw notFound();
      // HEAD is GET without the body (the node adapter and fetch hosts drop it).
      const method = request.method === 'HEAD' ? 'GET' : request.method;
      route = matching.find((r) => r.method === method);
      if (!route) {
        const methods = matching.map((r) => r.method);
        if (methods.includes('GET')) methods.push('HEAD');
        const allowed = [...new Set(methods)].join(', ');
        const response = json(errorBody('METHOD_NOT_ALLOWED', `Use ${allowed} here.`), 405, {
          allow: allowed,
        });
        return { response, route: nameOf(matching[0]!) };
      }
      const params = (route.pattern.exec(path) ?? []).slice(1).map(decodeSegment);
      let clientId = '';
      if (!route.public)
        ({ accountId, clientId } = await tokens.verify(request.headers.get('authorization')));
      const response = await route.handle({ request, url, params, accountId: accountId ?? '', clientId });
      return {
        response:
          request.method === 'HEAD'
            ? new Response(null, { status: response.status, headers: response.headers })
            : response,
        route: nameOf(route),
        ...(accountId ? { accountId } : {}),
      };
    } catch (error) {
      return {
        response: errorResponse(error),
        route: route ? nameOf(route) : 'unmatched',
        ...(accountId ? { accountId } : {}),
      };
    }
  }

  const logger = options.logger;
  const onRequest = options.onRequest;
  if (!logger && !onRequest) return async (request) => (await dispatch(request)).response;
  return async function handle(request: Request): Promise<Response> {
    const started = performance.now();
    const requestId = requestIdOf(request);
    const { response, route, accountId } = await dispatch(request);
    const ms = Math.round((performance.now() - started) * 10) / 10;
    // The answer's headers may be immutable (a fetched Response); the id goes on a copy then.
    let answer = response;
    try {
      answer.headers.set('x-request-id', requestId);
    } catch {
      answer = new Response(response.body, response);
      answer.headers.set('x-request-id', requestId);
    }
    onRequest?.({ method: request.method, route, status: response.status, ms });
    logger?.info(
      {
        requestId,
        method: request.method,
        route,
        status: response.status,
        ms,
        ...(accountId ? { accountId } : {}),
      },
      'request',
    );
    return answer;
  };
}

/** Compares two strings in time that does not depend on where they differ. */
function sameSecret(given: string, expected: string): boolean {
  const a = new TextEncoder().encode(given);
  const b = new TextEncoder().encode(expected);
  if (a.length !== b.length) return false;
  let difference = 0;
  for (let i = 0; i < a.length; i++) difference |= a[i]! ^ b[i]!;
  return difference === 0;
}

/** A file record as `GET /app/docs/{fileId}` answers it (the original service's field names). */
function fileDocument(record: FileRecord): Record<string, unknown> {
  return {
    id: record.fileId,
    fileId: record.fileId,
    fileName: record.name ?? null,
    mediaType: record.mediaType,
    size: record.size,
    pageCount: record.pageCount,
    uploadedAt: record.uploadedAt,
    status: record.status,
    tags: record.tags ?? [],
    metadata: record.metadata ?? {},
  };
}

function notFound(): DocexError {
  return new DocexError('NOT_FOUND', 'No such endpoint.');
}

function missingFile(field: string): DocexError {
  return new DocexError('MALFORMED_REQUEST', `The request has no file in the field "${field}".`, {
    details: [{ path: `/${field}`, message: 'is required' }],
  });
}

/** `Authorization: Basic base64(id:secret)` (RFC 6749 2.3.1: both form-urlencoded first). */
function basicCredentials(header: string | null): { id: string; secret: string } | undefined {
  const match = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header ?? '');
  if (!match) return undefined;
  let decoded: string;
  try {
    decoded = new TextDecoder().decode(Uint8Array.from(atob(match[1]!), (c) => c.charCodeAt(0)));
  } catch {
    return undefined;
  }
  const colon = decoded.indexOf(':');
  if (colon < 0) return undefined;
  const unescape = (s: string): string => {
    try {
      return decodeURIComponent(s.replace(/\+/g, ' '));
    } catch {
      return s;
    }
  };
  return { id: unescape(decoded.slice(0, colon)), secret: unescape(decoded.slice(colon + 1)) };
}

function decodeBase64(text: string): Uint8Array {
  const compact = text.replace(/^data:[^,]*;base64,/, '').replace(/\s+/g, '');
  if (!/^[A-Za-z0-9+/_-]*={0,2}$/.test(compact)) {
    throw new DocexError('MALFORMED_REQUEST', 'fileToUpload is not base64.', {
      details: [{ path: '/fileToUpload', message: 'is not base64' }],
    });
  }
  return new Uint8Array(
    Buffer.from(compact, compact.includes('-') || compact.includes('_') ? 'base64url' : 'base64'),
  );
}

/** Form fields for metadata: a field sent once is a string, a repeated one a list. */
function flatten(fields: Record<string, string[]>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, v.length === 1 ? v[0] : v]));
}
