import { readFile } from 'node:fs/promises';
import { errors, jwtVerify, SignJWT } from 'jose';
import { DocexError } from '../core/errors.js';
import type { Engine } from '../engine.js';
import { readJson } from '../http/body.js';
import { decodeSegment } from '../http/segments.js';
import { errorResponse, json } from '../http/responses.js';
import { remoteAddressOf } from '../http/remote-address.js';
import { SignInLimiter, signInKeys, tooManySignIns } from '../http/sign-in-limiter.js';

export interface ReviewOptions {
  /** Where the page is served, inside the handler's basePath. Default `/review/`. */
  path?: string;
  /** How long a sign-in lasts. Default 8 hours. */
  sessionSeconds?: number;
}

const COOKIE = 'docex_review';
const STATIC: Record<string, string> = {
  '': 'text/html; charset=utf-8',
  'app.js': 'text/javascript; charset=utf-8',
  'app.css': 'text/css; charset=utf-8',
};
const FILES: Record<string, string> = { '': 'index.html', 'app.js': 'app.js', 'app.css': 'app.css' };
const CSP =
  "default-src 'self'; img-src 'self' blob: data:; style-src 'self'; script-src 'self'; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'";

interface Session {
  accountId: string;
  csrf: string;
}

/**
 * The review web page: a small self-contained front end (static files shipped in the package, no CDN)
 * and the API it calls, served by the same fetch handler. Reviewers sign in with the account's API
 * credentials; the session is a signed cookie (HttpOnly, SameSite=Strict, scoped to the page's path)
 * and every change also needs the session's CSRF token in `x-csrf-token`.
 */
export function createReviewRoutes(
  engine: Engine,
  key: Uint8Array,
  options: ReviewOptions = {},
  signIns: SignInLimiter = new SignInLimiter(),
): (request: Request, path: string) => Promise<Response | undefined> {
  const base = normalisePath(options.path ?? '/review/');
  const sessionSeconds = options.sessionSeconds ?? 8 * 3600;
  const cache = new Map<string, Uint8Array>();

  async function staticFile(name: string): Promise<Response> {
    let body = cache.get(name);
    if (!body) {
      body = new Uint8Array(await readFile(new URL(`./static/${FILES[name]!}`, import.meta.url)));
      cache.set(name, body);
    }
    return new Response(body, {
      headers: {
        'content-type': STATIC[name]!,
        'cache-control': 'no-cache',
        'content-security-policy': CSP,
        'x-content-type-options': 'nosniff',
        'referrer-policy': 'no-referrer',
      },
    });
  }

  async function session(request: Request): Promise<Session> {
    const token = cookieOf(request.headers.get('cookie'), COOKIE);
    if (!token) throw new DocexError('UNAUTHORIZED', 'Sign in first.');
    try {
      const { payload } = await jwtVerify(token, key, {
        algorithms: ['HS256'],
        audience: 'docex-review',
        issuer: 'docex',
      });
      if (typeof payload.acc !== 'string' || typeof payload.csrf !== 'string') throw new Error('claims');
      return { accountId: payload.acc, csrf: payload.csrf };
    } catch (error) {
      throw new DocexError(
        'UNAUTHORIZED',
        error instanceof errors.JWTExpired ? 'The session has expired: sign in again.' : 'Sign in first.',
      );
    }
  }

  /** A change needs the session's CSRF token in a header a cross-site form cannot set. */
  async function changing(request: Request): Promise<Session> {
    const current = await session(request);
    if (request.headers.get('x-csrf-token') !== current.csrf) {
      throw new DocexError('UNAUTHORIZED', 'The request has no valid CSRF token.');
    }
    return current;
  }

  /** The cookie is scoped to the page's path as the browser sees it (under the host's basePath). */
  function cookie(value: string, maxAge: number, request: Request, rest: string): string {
    const url = new URL(request.url);
    const secure = url.protocol === 'https:' ? '; Secure' : '';
    const pathOfPage = url.pathname.slice(0, url.pathname.length - rest.length) || base;
    return `${COOKIE}=${value}; Path=${pathOfPage}; HttpOnly; SameSite=Strict; Max-Age=${maxAge}${secure}`;
  }

  return async (request, path) => {
    if (path === base.slice(0, -1)) {
      return new Response(null, { status: 308, headers: { location: new URL(request.url).pathname + '/' } });
    }
    if (!path.startsWith(base)) return undefined;
    const rest = path.slice(base.length);
    try {
      if (request.method === 'GET' && Object.hasOwn(FILES, rest)) return await staticFile(rest);
      if (request.method === 'POST' && rest === 'api/login') {
        const body = (await readJson(request, 16 * 1024)) as { clientId?: unknown; clientSecret?: unknown };
        const clientId = typeof body.clientId === 'string' ? body.clientId : undefined;
        const keys = signInKeys(clientId, remoteAddressOf(request));
        const wait = signIns.retryAfter(keys);
        if (wait !== undefined) return tooManySignIns(wait);
        const accountId =
          clientId && typeof body.clientSecret === 'string'
            ? await engine.authenticateClient(clientId, body.clientSecret)
            : undefined;
        if (!accountId) {
          signIns.failed(keys);
          throw new DocexError('INVALID_CLIENT', 'The client id or secret is not valid.');
        }
        signIns.succeeded(`client:${clientId!.slice(0, 256)}`);
        const csrf = crypto.randomUUID();
        const token = await new SignJWT({ acc: accountId, csrf })
          .setProtectedHeader({ alg: 'HS256' })
          .setIssuer('docex')
          .setAudience('docex-review')
          .setIssuedAt()
          .setExpirationTime(`${sessionSeconds}s`)
          .sign(key);
        return json({ accountId, csrfToken: csrf }, 200, {
          'set-cookie': cookie(token, sessionSeconds, request, rest),
        });
      }
      if (request.method === 'POST' && rest === 'api/logout') {
        await changing(request);
        return json({ signedOut: true }, 200, { 'set-cookie': cookie('', 0, request, rest) });
      }
      if (request.method === 'GET' && rest === 'api/session') {
        const { accountId, csrf } = await session(request);
        return json({ accountId, csrfToken: csrf });
      }
      if (request.method === 'GET' && rest === 'api/tasks') {
        const { accountId } = await session(request);
        const tasks = await engine.listTasks({ accountId, status: 'open' });
        // Highest priority first, then the oldest.
        tasks.sort(
          (a, b) =>
            b.priority - a.priority || (a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : 0),
        );
        // The document's name beside each task (a file deleted meanwhile has none).
        const names = new Map(
          await Promise.all(
            [...new Set(tasks.map((t) => t.fileId))].map(async (fileId) => {
              const file = await engine.getFile(fileId, { accountId }).catch(() => undefined);
              return [fileId, file?.name] as const;
            }),
          ),
        );
        return json({
          tasks: tasks.map((t) => {
            const fileName = names.get(t.fileId);
            return fileName === undefined ? t : { ...t, fileName };
          }),
        });
      }
      let m = /^api\/tasks\/([^/]+)$/.exec(rest);
      if (m && request.method === 'GET') {
        const { accountId } = await session(request);
        return json(await engine.getTaskView(decodeSegment(m[1]!), { accountId }));
      }
      m = /^api\/tasks\/([^/]+)\/complete$/.exec(rest);
      if (m && request.method === 'POST') {
        const { accountId } = await changing(request);
        const body = (await readJson(request, 1024 * 1024)) as { values: Record<string, unknown> };
        return json(await engine.completeTask(decodeSegment(m[1]!), body, { accountId }));
      }
      m = /^api\/files\/([^/]+)\/pages\/(\d{1,4})$/.exec(rest);
      if (m && request.method === 'GET') {
        const { accountId } = await session(request);
        const asked = Number(new URL(request.url).searchParams.get('dpi') ?? 110);
        const dpi = Number.isFinite(asked) ? asked : 110;
        const image = await engine.pageImage(decodeSegment(m[1]!), Number(m[2]), { accountId, dpi });
        return new Response(image.bytes, {
          headers: { 'content-type': image.contentType, 'cache-control': 'private, max-age=3600' },
        });
      }
      m = /^api\/files\/([^/]+)\/tokens$/.exec(rest);
      if (m && request.method === 'GET') {
        const { accountId } = await session(request);
        const page = Number(new URL(request.url).searchParams.get('page') ?? 1);
        const layer = await engine.getTokenLayer(decodeSegment(m[1]!), { accountId });
        const tokens = (layer?.tokens ?? [])
          .filter((t) => t.pageNum === page)
          .map((t) => ({ id: t.id, text: t.text, box: t.box }));
        return json({ page, tokens });
      }
      throw new DocexError('NOT_FOUND', 'No such page of the review application.');
    } catch (error) {
      return errorResponse(error);
    }
  };
}

function normalisePath(path: string): string {
  const withSlash = path.startsWith('/') ? path : `/${path}`;
  return withSlash.endsWith('/') ? withSlash : `${withSlash}/`;
}

function cookieOf(header: string | null, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const [k, ...v] = part.trim().split('=');
    if (k === name) return v.join('=') || undefined;
  }
  return undefined;
}
