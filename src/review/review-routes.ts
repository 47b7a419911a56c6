import { readFile } from 'node:fs/promises';
import { errors, jwtVerify, SignJWT } from 'jose';
import { DocexError } from '../core/errors.js';
import type { Engine } from '../engine-types.js';
import { readJson } from '../http/body.js';
import { decodeSegment } from '../http/segments.js';
import { errorResponse, json } from '../http/responses.js';
import { remoteAddressOf } from '../http/remote-address.js';
import { SignInLimiter, signInKeys, tooManySignIns } from '../http/sign-in-limiter.js';
import type { NewReviewer, ReviewerChanges, SignedInReviewer } from '../reviewers/reviewers.js';

export interface ReviewOptions {
  /** Where the page is served, inside the handler's basePath. Default `/review/`. */
  path?: string;
  /** How long a sign-in lasts. Default 8 hours. */
  sessionSeconds?: number;
  /**
   * How long the page holds a completion back so that the reviewer can undo it (default 10 s; 0: sent
   * at once). The values are checked at once either way.
   */
  undoSeconds?: number;
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
  reviewer: SignedInReviewer;
}

/**
 * The review web page: a small self-contained front end (static files shipped in the package, no CDN)
 * and the API it calls, served by the same fetch handler. Reviewers are people with their own accounts
 * (`engine.createReviewer`, `docex reviewers add`, or an admin on the page); API clients do not sign
 * in here. The session is a signed cookie (HttpOnly, SameSite=Strict, scoped to the page's path) that
 * names the reviewer and the epoch of their password, role and state (a change of any ends it), and
 * every change also needs the session's CSRF token in `x-csrf-token`.
 */
export function createReviewRoutes(
  engine: Engine,
  key: Uint8Array,
  options: ReviewOptions = {},
  signIns: SignInLimiter = new SignInLimiter(),
): (request: Request, path: string) => Promise<Response | undefined> {
  const base = normalisePath(options.path ?? '/review/');
  const sessionSeconds = options.sessionSeconds ?? 8 * 3600;
  const undoSeconds = Math.max(0, Math.min(120, options.undoSeconds ?? 10));
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
    let claims: { acc: string; sub: string; ep: number; csrf: string };
    try {
      const { payload } = await jwtVerify(token, key, {
        algorithms: ['HS256'],
        audience: 'docex-review',
        issuer: 'docex',
      });
      if (
        typeof payload.acc !== 'string' ||
        typeof payload.sub !== 'string' ||
        typeof payload.ep !== 'number' ||
        typeof payload.csrf !== 'string'
      ) {
        throw new Error('claims');
      }
      claims = { acc: payload.acc, sub: payload.sub, ep: payload.ep, csrf: payload.csrf };
    } catch (error) {
      throw new DocexError(
        'UNAUTHORIZED',
        error instanceof errors.JWTExpired ? 'The session has expired: sign in again.' : 'Sign in first.',
      );
    }
    // A reviewer disabled, or whose password or role changed, since the session began is signed out.
    const reviewer = await engine.sessionReviewer(claims.sub, claims.ep, { accountId: claims.acc });
    if (!reviewer) throw new DocexError('UNAUTHORIZED', 'The session has ended: sign in again.');
    return { accountId: claims.acc, csrf: claims.csrf, reviewer };
  }

  /** A change needs the session's CSRF token in a header a cross-site form cannot set. */
  async function changing(request: Request): Promise<Session> {
    const current = await session(request);
    if (request.headers.get('x-csrf-token') !== current.csrf) {
      throw new DocexError('UNAUTHORIZED', 'The request has no valid CSRF token.');
    }
    return current;
  }

  /** Managing reviewers is an admin's. */
  function asAdmin(current: Session): Session {
    if (current.reviewer.role !== 'admin') {
      throw new DocexError('FORBIDDEN', "Only an admin manages the account's reviewers.");
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
        const body = (await readJson(request, 16 * 1024)) as { login?: unknown; password?: unknown };
        if (typeof body.login !== 'string' || typeof body.password !== 'string') {
          throw new DocexError(
            'INVALID_ARGUMENT',
            'Sign in with your reviewer login and password (API clients do not sign in here).',
          );
        }
        const keys = signInKeys(`reviewer:${body.login.trim().toLowerCase()}`, remoteAddressOf(request));
        const wait = signIns.retryAfter(keys);
        if (wait !== undefined) return tooManySignIns(wait);
        const reviewer = await engine.authenticateReviewer(body.login, body.password);
        if (!reviewer) {
          signIns.failed(keys);
          throw new DocexError('INVALID_LOGIN', 'The login or password is not valid.');
        }
        signIns.succeeded(keys[0]!);
        const csrf = crypto.randomUUID();
        const token = await new SignJWT({ acc: reviewer.accountId, ep: reviewer.sessionEpoch, csrf })
          .setProtectedHeader({ alg: 'HS256' })
          .setSubject(reviewer.reviewerId)
          .setIssuer('docex')
          .setAudience('docex-review')
          .setIssuedAt()
          .setExpirationTime(`${sessionSeconds}s`)
          .sign(key);
        return json(sessionBody(reviewer, csrf, undoSeconds), 200, {
          'set-cookie': cookie(token, sessionSeconds, request, rest),
        });
      }
      if (request.method === 'POST' && rest === 'api/logout') {
        await changing(request);
        return json({ signedOut: true }, 200, { 'set-cookie': cookie('', 0, request, rest) });
      }
      if (request.method === 'GET' && rest === 'api/session') {
        const { reviewer, csrf } = await session(request);
        return json(sessionBody(reviewer, csrf, undoSeconds));
      }
      if (request.method === 'POST' && rest === 'api/password') {
        const { accountId, reviewer } = await changing(request);
        const body = (await readJson(request, 16 * 1024)) as { current?: unknown; password?: unknown };
        const keys = signInKeys(`reviewer:${reviewer.login}`, remoteAddressOf(request));
        const wait = signIns.retryAfter(keys);
        if (wait !== undefined) return tooManySignIns(wait);
        if (!(await engine.authenticateReviewer(reviewer.login, String(body.current ?? '')))) {
          signIns.failed(keys);
          throw new DocexError('INVALID_LOGIN', 'The current password is not valid.');
        }
        await engine.updateReviewer(
          reviewer.reviewerId,
          { password: body.password as string },
          { accountId },
        );
        // The new password ends every session of the reviewer, this one too: sign in again.
        return json({ changed: true }, 200, { 'set-cookie': cookie('', 0, request, rest) });
      }
      if (rest === 'api/reviewers' && request.method === 'GET') {
        const { accountId } = asAdmin(await session(request));
        return json({ reviewers: await engine.listReviewers({ accountId }) });
      }
      if (rest === 'api/reviewers' && request.method === 'POST') {
        const { accountId } = asAdmin(await changing(request));
        const body = (await readJson(request, 16 * 1024)) as NewReviewer;
        return json(await engine.createReviewer(body, { accountId }), 201);
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
      m = /^api\/tasks\/([^/]+)\/check$/.exec(rest);
      if (m && request.method === 'POST') {
        // The completion's checks without completing: the page says a mistake before the undo window.
        const { accountId } = await changing(request);
        const body = (await readJson(request, 1024 * 1024)) as { values: Record<string, unknown> };
        await engine.completeTask(decodeSegment(m[1]!), body, { accountId, dryRun: true });
        return json({ valid: true });
      }
      m = /^api\/tasks\/([^/]+)\/complete$/.exec(rest);
      if (m && request.method === 'POST') {
        const { accountId, reviewer } = await changing(request);
        const body = (await readJson(request, 1024 * 1024)) as { values: Record<string, unknown> };
        const by = {
          kind: 'reviewer',
          id: reviewer.reviewerId,
          login: reviewer.login,
          name: reviewer.name,
        } as const;
        return json(await engine.completeTask(decodeSegment(m[1]!), body, { accountId, by }));
      }
      m = /^api\/reviewers\/([^/]+)$/.exec(rest);
      if (m && request.method === 'PATCH') {
        const { accountId, reviewer } = asAdmin(await changing(request));
        const reviewerId = decodeSegment(m[1]!);
        const changes = (await readJson(request, 16 * 1024)) as ReviewerChanges;
        // An admin cannot lock themselves out (the account would be left without one).
        if (
          reviewerId === reviewer.reviewerId &&
          (changes.disabled === true || changes.role === 'reviewer')
        ) {
          throw new DocexError(
            'INVALID_ARGUMENT',
            'You cannot disable yourself or give up your own admin role.',
          );
        }
        return json(await engine.updateReviewer(reviewerId, changes, { accountId }));
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

/** What the page knows of its session: the reviewer (never a hash or epoch) and the CSRF token. */
function sessionBody(reviewer: SignedInReviewer, csrf: string, undoSeconds: number): object {
  const { reviewerId, accountId, login, name, role } = reviewer;
  return { accountId, reviewer: { reviewerId, login, name, role }, csrfToken: csrf, undoSeconds };
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
