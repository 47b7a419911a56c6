import { DocexError } from '../core/errors.js';
import type { Engine } from '../engine-types.js';
import type { MetricsSource } from '../observability/metrics.js';
import type { ReviewSession, ReviewSettings } from '../review/review-session.js';
import type { SignInLimiter } from './sign-in-limiter.js';
import type { TokenService } from './tokens.js';

/**
 * The shape of the one route table (src/http/routes.ts) and the matching of requests against it. A
 * route is declared once: its method, its path as a template (`/tasks/{taskId}`), who may call it, what
 * the OpenAPI document says of it, and its handler. The matcher compiles the templates; the OpenAPI
 * document (src/http/openapi.ts) and the tests of authentication read the same table.
 */

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** Who may call a route; checked by the dispatcher before the handler runs. */
export type Auth =
  /** Anyone: the token endpoint, the probes, the API document, the review page's files and sign-in. */
  | 'none'
  /** An access token of the API (`Authorization: Bearer`), which names the account. */
  | 'bearer'
  /** The review page's session cookie. */
  | 'session'
  /** The session cookie and its CSRF token in `x-csrf-token`: every change made on the review page. */
  | 'session+csrf';

/** What the handler was set up with, given to every route (made once per handler). */
export interface HttpServices {
  engine: Engine;
  /** The path prefix the host mounts the service under (`/api`), without a trailing slash. */
  basePath: string;
  /** Largest JSON body besides uploads. */
  maxJsonBytes: number;
  /** Longest wait of a result request, in ms. */
  maxResultWaitMs: number;
  tokens: TokenService;
  signIns: SignInLimiter;
  metrics: { source: MetricsSource; token?: string | undefined } | undefined;
  /** The review page's settings; undefined when the handler leaves the page out. */
  review: ReviewSettings | undefined;
  /** The OpenAPI document, built from this table and the engine's workflows. */
  apiDocument(): object;
}

export interface RouteContext extends HttpServices {
  request: Request;
  url: URL;
  /** The path parameters by their names in the template, percent-decoded. */
  params: Record<string, string>;
  /** Routes with `auth: 'bearer'`: the caller's account ('' on other routes). */
  accountId: string;
  /** Routes with `auth: 'bearer'`: the API client the token was issued to ('' on other routes). */
  clientId: string;
}

/** A review page route's context: the page's settings, and the page's path as the browser sees it. */
export interface PageContext extends RouteContext {
  review: ReviewSettings;
  /** The page's path in the browser's URL (under the host's basePath): `/docex/review/`. */
  pagePath: string;
}

/** A signed-in review page route's context: the session it was called with. */
export interface SessionContext extends PageContext {
  session: ReviewSession;
}

/** What the OpenAPI document says of a route; src/http/openapi.ts adds the path parameters and security. */
export interface OperationDoc {
  summary: string;
  /** Schemas of the path parameters that are not plain strings (each is `{type: 'string'}` otherwise). */
  pathParams?: Record<string, object>;
  query?: ReadonlyArray<{ name: string; schema: object; description?: string }>;
  requestBody?: object;
  responses: Record<string, object>;
}

/** What an operation's document may depend on: the engine's workflows and the shared components. */
export interface DocTools {
  workflows: ReadonlyArray<{ id: string; inputsSchema: object }>;
  /** A schema with its local `$defs` moved to the document's components. */
  lift(schema: object): object;
}

interface RouteBase {
  method: Method;
  /** The path as a template: `/tasks/{taskId}`; a parameter is one path segment unless `paramPatterns` says. */
  path: string;
  /** Other paths answered by the same route, not in the OpenAPI document (`/results/{fileId}`). */
  aliases?: readonly string[];
  /** A parameter's pattern (a regular expression's source) where it is narrower than a segment. */
  paramPatterns?: Readonly<Record<string, string>>;
}

/** A route of the API, under the handler's basePath. */
export interface ApiRoute extends RouteBase {
  kind?: 'api';
  auth: 'none' | 'bearer';
  /** The route's operation in the OpenAPI document, or false: not in the document. */
  doc: OperationDoc | ((tools: DocTools) => OperationDoc) | false;
  /** Name in logs and metrics; default the template with `{}` for each parameter (`/tasks/{}`). */
  label?: string;
  /** Whether the handler has the route (`/metrics` only with a metrics source); default always. */
  enabled?: (services: HttpServices) => boolean;
  handle(c: RouteContext): Promise<Response>;
}

/**
 * A route of the review page, under the page's path (default `/review/`): `path` is relative to it
 * (`api/tasks/{taskId}`, `''` for the page itself). Never in the public OpenAPI document.
 */
export type PageRoute = RouteBase & { kind: 'review' } & (
    | { auth: 'none'; handle(c: PageContext): Promise<Response> }
    | {
        auth: 'session' | 'session+csrf';
        /** Only the account's admins (others: 403 FORBIDDEN). */
        role?: 'admin';
        handle(c: SessionContext): Promise<Response>;
      }
  );

export type Route = ApiRoute | PageRoute;

/** Every path a route answers: its template, then its aliases. */
export function pathsOf(route: Route): string[] {
  return [route.path, ...(route.aliases ?? [])];
}

/** The names of a template's parameters, in order. */
export function paramNames(template: string): string[] {
  return [...template.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!);
}

/** The route's name in logs and metrics (never an id). */
export function labelOf(route: Route): string {
  if (route.kind === 'review') return REVIEW_LABEL;
  return route.label ?? route.path.replace(/\{[^}]+\}/g, '{}');
}

/** Every request to the review page has one name in logs and metrics. */
export const REVIEW_LABEL = '/review/*';

interface Compiled<R extends Route> {
  route: R;
  pattern: RegExp;
  names: string[];
}

/** Each path of each route as a regular expression: a parameter is one segment unless its pattern says. */
function compile<R extends Route>(routes: readonly R[]): Array<Compiled<R>> {
  return routes.flatMap((route) =>
    pathsOf(route).map((template) => {
      const source = template.replace(/\{([^}]+)\}|[^{]+/g, (part, name?: string) =>
        name === undefined
          ? part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
          : `(${route.paramPatterns?.[name] ?? '[^/]+'})`,
      );
      return { route, pattern: new RegExp(`^${source}$`), names: paramNames(template) };
    }),
  );
}

/** How a request's path and method stand against the table. */
export type Resolution =
  | RouteFound
  /** A known path, another method: 405 with `allow` (API routes). */
  | { type: 'method-not-allowed'; route: ApiRoute; allow: string }
  /** The review page's path without its slash. */
  | { type: 'redirect'; location: string }
  | { type: 'not-found'; error: DocexError; label: string };

export interface RouteFound {
  type: 'route';
  route: Route;
  /** The path parameters as they are in the path (percent-encoded). */
  rawParams: Record<string, string>;
  /** Review page routes: the page's path as the browser sees it (`/docex/review/`). */
  pagePath: string;
}

/**
 * The table compiled for one handler: API routes under the basePath, the review page's routes under
 * the page's path inside it. The review page's paths come first; under them another method or an
 * unknown path is the page's 404 (never 405), and HEAD is not GET. A path outside the basePath is 404.
 */
export function createRouter(
  routes: readonly Route[],
  options: { basePath: string; reviewBase?: string | undefined; enabled: (route: ApiRoute) => boolean },
): (method: string, pathname: string) => Resolution {
  const { basePath, reviewBase: base } = options;
  const api = compile(routes.filter((r): r is ApiRoute => r.kind !== 'review' && options.enabled(r)));
  const page = base ? compile(routes.filter((r): r is PageRoute => r.kind === 'review')) : [];
  const notFound = (message: string, label: string): Resolution => ({
    type: 'not-found',
    error: new DocexError('NOT_FOUND', message),
    label,
  });

  return (method, pathname) => {
    let path = pathname;
    if (basePath) {
      if (path !== basePath && !path.startsWith(`${basePath}/`))
        return notFound('No such endpoint.', 'unmatched');
      path = path.slice(basePath.length) || '/';
    }
    if (base) {
      if (path === base.slice(0, -1)) return { type: 'redirect', location: `${pathname}/` };
      if (path.startsWith(base)) {
        const rest = path.slice(base.length);
        for (const { route, pattern, names } of page) {
          const m = route.method === method ? pattern.exec(rest) : null;
          if (m) {
            const pagePath = pathname.slice(0, pathname.length - rest.length) || base;
            return { type: 'route', route, rawParams: paramsOf(names, m), pagePath };
          }
        }
        return notFound('No such page of the review application.', REVIEW_LABEL);
      }
    }
    const matching = api.filter((c) => c.pattern.test(path));
    if (matching.length === 0) return notFound('No such endpoint.', 'unmatched');
    // HEAD is GET without the body (the dispatcher drops it).
    const wanted = method === 'HEAD' ? 'GET' : method;
    const found = matching.find((c) => c.route.method === wanted);
    if (!found) {
      const methods: string[] = matching.map((c) => c.route.method);
      if (methods.includes('GET')) methods.push('HEAD');
      return {
        type: 'method-not-allowed',
        route: matching[0]!.route,
        allow: [...new Set(methods)].join(', '),
      };
    }
    const rawParams = paramsOf(found.names, found.pattern.exec(path)!);
    return { type: 'route', route: found.route, rawParams, pagePath: '' };
  };
}

function paramsOf(names: string[], match: RegExpExecArray): Record<string, string> {
  return Object.fromEntries(names.map((name, i) => [name, match[i + 1]!]));
}
