import type { Engine } from '../engine-types.js';
import type { MetricsSource, RequestObservation } from '../observability/metrics.js';
import type { Logger } from '../ports/logger.js';
import { reviewSession, reviewSettings, type ReviewOptions } from '../review/review-session.js';
import { openApiDocument } from './openapi.js';
import { errorBody, errorResponse, json } from './responses.js';
import { ROUTES } from './routes.js';
import {
  createRouter,
  labelOf,
  REVIEW_LABEL,
  type HttpServices,
  type Route,
  type RouteFound,
} from './routing.js';
import { decodeSegment } from './segments.js';
import { SignInLimiter, type SignInLimits } from './sign-in-limiter.js';
import { TokenService, type TokenOptions } from './tokens.js';

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

/** What answered a request, for its log line and metrics. */
interface Answered {
  response: Response;
  /** The route's name (its template, `/tasks/{}`), never an id. */
  route: string;
  accountId?: string;
}

/**
 * The service's HTTP interface (v1 and v2, docs/interface.md and docs/decisions.md) as a web-standard handler:
 * `(Request) => Promise<Response>`. Mount it in any host (node:http through `docex/http/node`,
 * Express, Fastify, Hono, Deno, Bun). It changes no global; errors are `{code, message, error: {code, message, details}}`
 * with the status of their code, never a stack. The routes are the table of src/http/routes.ts.
 */
export function createFetchHandler(engine: Engine, options: FetchHandlerOptions = {}): FetchHandler {
  // One signing key for access tokens and review sessions (their audiences keep them apart).
  const secret = options.tokens?.secret ?? crypto.getRandomValues(new Uint8Array(32));
  const basePath = (options.basePath ?? '').replace(/\/+$/, '');
  const services: HttpServices = {
    engine,
    basePath,
    maxJsonBytes: options.maxJsonBytes ?? 1024 * 1024,
    maxResultWaitMs: options.maxResultWaitMs ?? 30_000,
    tokens: new TokenService({ ...options.tokens, secret }),
    signIns: new SignInLimiter(options.signInLimits),
    metrics: options.metrics,
    review:
      options.review === false
        ? undefined
        : reviewSettings(
            options.review ?? {},
            typeof secret === 'string' ? new TextEncoder().encode(secret) : secret,
          ),
    apiDocument: () => openApiDocument(engine, basePath),
  };
  const resolve = createRouter(ROUTES, {
    basePath,
    reviewBase: services.review?.base,
    enabled: (route) => route.enabled?.(services) ?? true,
  });

  async function dispatch(request: Request): Promise<Answered> {
    let route: Route | undefined;
    const caller: { accountId?: string } = {};
    try {
      const url = new URL(request.url);
      const found = resolve(request.method, url.pathname);
      if (found.type === 'not-found') return { response: errorResponse(found.error), route: found.label };
      if (found.type === 'redirect') {
        const response = new Response(null, { status: 308, headers: { location: found.location } });
        return { response, route: REVIEW_LABEL };
      }
      if (found.type === 'method-not-allowed') {
        const body = errorBody('METHOD_NOT_ALLOWED', `Use ${found.allow} here.`);
        return { response: json(body, 405, { allow: found.allow }), route: labelOf(found.route) };
      }
      route = found.route;
      const response = await run(found, request, url, caller);
      return {
        // HEAD is GET without the body (the node adapter and fetch hosts drop it too).
        response:
          request.method === 'HEAD'
            ? new Response(null, { status: response.status, headers: response.headers })
            : response,
        route: labelOf(route),
        ...caller,
      };
    } catch (error) {
      return { response: errorResponse(error), route: route ? labelOf(route) : 'unmatched', ...caller };
    }
  }

  /** Runs a route: who may call it first, then its handler. The caller's account is noted for the log. */
  async function run(
    { route, rawParams, pagePath }: RouteFound,
    request: Request,
    url: URL,
    caller: { accountId?: string },
  ): Promise<Response> {
    const context = { ...services, request, url, params: {}, accountId: '', clientId: '' };
    if (route.kind !== 'review') {
      // A malformed id is a 400 before the token is looked at.
      const params = decodeAll(rawParams);
      if (route.auth === 'none') return route.handle({ ...context, params });
      const { accountId, clientId } = await services.tokens.verify(request.headers.get('authorization'));
      caller.accountId = accountId;
      return route.handle({ ...context, params, accountId, clientId });
    }
    // The review page's routes check the session before they look at the path's ids.
    const page = { ...context, review: services.review!, pagePath };
    if (route.auth === 'none') return route.handle({ ...page, params: decodeAll(rawParams) });
    const needs = { csrf: route.auth === 'session+csrf', admin: route.role === 'admin' };
    const session = await reviewSession(request, engine, page.review, needs);
    return route.handle({ ...page, session, params: decodeAll(rawParams) });
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

/** The path parameters percent-decoded (bad percent-encoding is a 400). */
function decodeAll(raw: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(raw).map(([name, value]) => [name, decodeSegment(value)]));
}

/** A caller's request id is kept when it is a plain token; otherwise one is made. */
function requestIdOf(request: Request): string {
  const given = request.headers.get('x-request-id');
  return given && /^[\w.:-]{1,128}$/.test(given) ? given : crypto.randomUUID();
}
