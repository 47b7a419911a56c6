import { readFile } from 'node:fs/promises';
import { DocexError } from '../core/errors.js';
import { readJson } from '../http/body.js';
import { json } from '../http/responses.js';
import { remoteAddressOf } from '../http/remote-address.js';
import type { PageContext, PageRoute } from '../http/routing.js';
import { signInKeys, tooManySignIns } from '../http/sign-in-limiter.js';
import type { NewReviewer, ReviewerChanges, SignedInReviewer } from '../reviewers/reviewers.js';
import { sessionCookie, signSession } from './review-session.js';

export type { ReviewOptions } from './review-session.js';

const CSP =
  "default-src 'self'; img-src 'self' blob: data:; style-src 'self'; script-src 'self'; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'";

/** A static file of the page, read once per handler. */
function staticFile(file: string, contentType: string): PageRoute {
  return {
    kind: 'review',
    method: 'GET',
    path: file === 'index.html' ? '' : file,
    auth: 'none',
    async handle({ review }: PageContext) {
      let body = review.files.get(file);
      if (!body) {
        body = new Uint8Array(await readFile(new URL(`./static/${file}`, import.meta.url)));
        review.files.set(file, body);
      }
      return new Response(body, {
        headers: {
          'content-type': contentType,
          'cache-control': 'no-cache',
          'content-security-policy': CSP,
          'x-content-type-options': 'nosniff',
          'referrer-policy': 'no-referrer',
        },
      });
    },
  };
}

/**
 * The review web page: a small self-contained front end (static files shipped in the package, no CDN)
 * and the API it calls, routes of the handler's table under the page's path (default `/review/`).
 * Reviewers are people with their own accounts (`engine.createReviewer`, `docex reviewers add`, or an
 * admin on the page); API clients do not sign in here. The session is a signed cookie (HttpOnly,
 * SameSite=Strict, scoped to the page's path); every change also needs the session's CSRF token in
 * `x-csrf-token` (src/review/review-session.ts). Under the page's path another method or an unknown
 * path is 404, and the path without its slash redirects to it.
 */
export const REVIEW_ROUTES: readonly PageRoute[] = [
  staticFile('index.html', 'text/html; charset=utf-8'),
  staticFile('app.js', 'text/javascript; charset=utf-8'),
  staticFile('app.css', 'text/css; charset=utf-8'),
  {
    kind: 'review',
    method: 'POST',
    path: 'api/login',
    auth: 'none',
    async handle({ request, url, engine, signIns, review, pagePath }) {
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
      const token = await signSession(reviewer, csrf, review);
      return json(sessionBody(reviewer, csrf, review.undoSeconds), 200, {
        'set-cookie': sessionCookie(token, review.sessionSeconds, url, pagePath),
      });
    },
  },
  {
    kind: 'review',
    method: 'POST',
    path: 'api/logout',
    auth: 'session+csrf',
    async handle({ url, pagePath }) {
      return json({ signedOut: true }, 200, { 'set-cookie': sessionCookie('', 0, url, pagePath) });
    },
  },
  {
    kind: 'review',
    method: 'GET',
    path: 'api/session',
    auth: 'session',
    async handle({ session, review }) {
      return json(sessionBody(session.reviewer, session.csrf, review.undoSeconds));
    },
  },
  {
    kind: 'review',
    method: 'POST',
    path: 'api/password',
    auth: 'session+csrf',
    async handle({ request, url, pagePath, engine, signIns, session: { accountId, reviewer } }) {
      const body = (await readJson(request, 16 * 1024)) as { current?: unknown; password?: unknown };
      const keys = signInKeys(`reviewer:${reviewer.login}`, remoteAddressOf(request));
      const wait = signIns.retryAfter(keys);
      if (wait !== undefined) return tooManySignIns(wait);
      if (!(await engine.authenticateReviewer(reviewer.login, String(body.current ?? '')))) {
        signIns.failed(keys);
        throw new DocexError('INVALID_LOGIN', 'The current password is not valid.');
      }
      await engine.updateReviewer(reviewer.reviewerId, { password: body.password as string }, { accountId });
      // The new password ends every session of the reviewer, this one too: sign in again.
      return json({ changed: true }, 200, { 'set-cookie': sessionCookie('', 0, url, pagePath) });
    },
  },
  {
    kind: 'review',
    method: 'GET',
    path: 'api/reviewers',
    auth: 'session',
    role: 'admin',
    async handle({ engine, session: { accountId } }) {
      return json({ reviewers: await engine.listReviewers({ accountId }) });
    },
  },
  {
    kind: 'review',
    method: 'POST',
    path: 'api/reviewers',
    auth: 'session+csrf',
    role: 'admin',
    async handle({ request, engine, session: { accountId } }) {
      const body = (await readJson(request, 16 * 1024)) as NewReviewer;
      return json(await engine.createReviewer(body, { accountId }), 201);
    },
  },
  {
    kind: 'review',
    method: 'GET',
    path: 'api/tasks',
    auth: 'session',
    async handle({ engine, session: { accountId } }) {
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
    },
  },
  {
    kind: 'review',
    method: 'GET',
    path: 'api/tasks/{taskId}',
    auth: 'session',
    async handle({ engine, params, session: { accountId } }) {
      return json(await engine.getTaskView(params.taskId!, { accountId }));
    },
  },
  {
    kind: 'review',
    method: 'POST',
    path: 'api/tasks/{taskId}/check',
    auth: 'session+csrf',
    // The completion's checks without completing: the page says a mistake before the undo window.
    async handle({ request, engine, params, session: { accountId } }) {
      const body = (await readJson(request, 1024 * 1024)) as { values: Record<string, unknown> };
      await engine.completeTask(params.taskId!, body, { accountId, dryRun: true });
      return json({ valid: true });
    },
  },
  {
    kind: 'review',
    method: 'POST',
    path: 'api/tasks/{taskId}/complete',
    auth: 'session+csrf',
    async handle({ request, engine, params, session: { accountId, reviewer } }) {
      const body = (await readJson(request, 1024 * 1024)) as { values: Record<string, unknown> };
      const by = {
        kind: 'reviewer',
        id: reviewer.reviewerId,
        login: reviewer.login,
        name: reviewer.name,
      } as const;
      return json(await engine.completeTask(params.taskId!, body, { accountId, by }));
    },
  },
  {
    kind: 'review',
    method: 'PATCH',
    path: 'api/reviewers/{reviewerId}',
    auth: 'session+csrf',
    role: 'admin',
    async handle({ request, engine, params, session: { accountId, reviewer } }) {
      const reviewerId = params.reviewerId!;
      const changes = (await readJson(request, 16 * 1024)) as ReviewerChanges;
      // An admin cannot lock themselves out (the account would be left without one).
      if (reviewerId === reviewer.reviewerId && (changes.disabled === true || changes.role === 'reviewer')) {
        throw new DocexError(
          'INVALID_ARGUMENT',
          'You cannot disable yourself or give up your own admin role.',
        );
      }
      return json(await engine.updateReviewer(reviewerId, changes, { accountId }));
    },
  },
  {
    kind: 'review',
    method: 'GET',
    path: 'api/files/{fileId}/pages/{page}',
    paramPatterns: { page: '\\d{1,4}' },
    auth: 'session',
    async handle({ url, engine, params, session: { accountId } }) {
      const asked = Number(url.searchParams.get('dpi') ?? 110);
      const dpi = Number.isFinite(asked) ? asked : 110;
      const image = await engine.pageImage(params.fileId!, Number(params.page), { accountId, dpi });
      return new Response(image.bytes, {
        headers: { 'content-type': image.contentType, 'cache-control': 'private, max-age=3600' },
      });
    },
  },
  {
    kind: 'review',
    method: 'GET',
    path: 'api/files/{fileId}/tokens',
    auth: 'session',
    async handle({ url, engine, params, session: { accountId } }) {
      const page = Number(url.searchParams.get('page') ?? 1);
      const layer = await engine.getTokenLayer(params.fileId!, { accountId });
      const tokens = (layer?.tokens ?? [])
        .filter((t) => t.pageNum === page)
        .map((t) => ({ id: t.id, text: t.text, box: t.box }));
      return json({ page, tokens });
    },
  },
];

/** What the page knows of its session: the reviewer (never a hash or epoch) and the CSRF token. */
function sessionBody(reviewer: SignedInReviewer, csrf: string, undoSeconds: number): object {
  const { reviewerId, accountId, login, name, role } = reviewer;
  return { accountId, reviewer: { reviewerId, login, name, role }, csrfToken: csrf, undoSeconds };
}
