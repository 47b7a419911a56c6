import { errors, jwtVerify, SignJWT } from 'jose';
import { DocexError } from '../core/errors.js';
import type { Engine } from '../engine-types.js';
import type { SignedInReviewer } from '../reviewers/reviewers.js';

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

/** The review page as one handler serves it. */
export interface ReviewSettings {
  /** The page's path inside the handler's basePath, with both slashes: `/review/`. */
  base: string;
  /** Signs the session cookie (the access tokens' key: their audiences keep them apart). */
  key: Uint8Array;
  sessionSeconds: number;
  undoSeconds: number;
  /** The page's static files once read. */
  files: Map<string, Uint8Array>;
}

export function reviewSettings(options: ReviewOptions, key: Uint8Array): ReviewSettings {
  return {
    base: normalisePath(options.path ?? '/review/'),
    key,
    sessionSeconds: options.sessionSeconds ?? 8 * 3600,
    undoSeconds: Math.max(0, Math.min(120, options.undoSeconds ?? 10)),
    files: new Map(),
  };
}

/** A signed-in reviewer's session, from the cookie. */
export interface ReviewSession {
  accountId: string;
  csrf: string;
  reviewer: SignedInReviewer;
}

const COOKIE = 'docex_review';

/**
 * The session a review page route needs (`auth: 'session'`, `'session+csrf'`, `role: 'admin'`). The
 * session is a signed cookie that names the reviewer and the epoch of their password, role and state
 * (a change of any ends it); every change also needs the session's CSRF token in `x-csrf-token`, a
 * header a cross-site form cannot set.
 */
export async function reviewSession(
  request: Request,
  engine: Engine,
  settings: ReviewSettings,
  needs: { csrf: boolean; admin: boolean },
): Promise<ReviewSession> {
  const session = await readSession(request, engine, settings.key);
  if (needs.csrf && request.headers.get('x-csrf-token') !== session.csrf) {
    throw new DocexError('UNAUTHORIZED', 'The request has no valid CSRF token.');
  }
  if (needs.admin && session.reviewer.role !== 'admin') {
    throw new DocexError('FORBIDDEN', "Only an admin manages the account's reviewers.");
  }
  return session;
}

async function readSession(request: Request, engine: Engine, key: Uint8Array): Promise<ReviewSession> {
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

/** A new session's cookie value for a reviewer who has just signed in. */
export function signSession(
  reviewer: SignedInReviewer,
  csrf: string,
  settings: ReviewSettings,
): Promise<string> {
  return new SignJWT({ acc: reviewer.accountId, ep: reviewer.sessionEpoch, csrf })
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(reviewer.reviewerId)
    .setIssuer('docex')
    .setAudience('docex-review')
    .setIssuedAt()
    .setExpirationTime(`${settings.sessionSeconds}s`)
    .sign(settings.key);
}

/**
 * The `set-cookie` of the session (an empty value with max-age 0 ends it): HttpOnly, SameSite=Strict,
 * scoped to the page's path as the browser sees it (under the host's basePath), Secure over https.
 */
export function sessionCookie(value: string, maxAge: number, url: URL, pagePath: string): string {
  const secure = url.protocol === 'https:' ? '; Secure' : '';
  return `${COOKIE}=${value}; Path=${pagePath}; HttpOnly; SameSite=Strict; Max-Age=${maxAge}${secure}`;
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
