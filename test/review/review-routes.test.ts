/**
 * The review page's routes of the table (src/review/review-routes.ts) as the handler answers them,
 * without a browser (the handler called with Requests): every route that needs a session refuses a
 * request without one, every change needs the CSRF token too, the admins' routes refuse a reviewer;
 * under the page's path an unknown path or another method is 404 and the path without its slash
 * redirects to it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FetchHandler } from '../../src/http/fetch-handler.js';
import { ROUTES } from '../../src/http/routes.js';
import type { PageRoute } from '../../src/http/routing.js';
import { createEngine, createFetchHandler, type Engine } from '../../src/index.js';
import { request } from '../helpers/request.js';

const PAGE = ROUTES.filter((r): r is PageRoute => r.kind === 'review');
const PASSWORD = 'reviewer-password-0123456789';

let engine: Engine;
let handler: FetchHandler;

/** A signed-in session: its cookie and CSRF token. */
async function signIn(login: string): Promise<{ cookie: string; csrf: string }> {
  const answer = await request(handler, '/review/api/login', {
    method: 'POST',
    body: JSON.stringify({ login, password: PASSWORD }),
  });
  expect(answer.status).toBe(200);
  const { csrfToken } = (await answer.json()) as { csrfToken: string };
  return { cookie: answer.headers.get('set-cookie')!.split(';')[0]!, csrf: csrfToken };
}

/** A request to a page route, its ids made up. */
function send(route: PageRoute, headers: Record<string, string> = {}): Promise<Response> {
  const path = `/review/${route.path.replace(/\{page\}/g, '1').replace(/\{[^}]+\}/g, 'x1')}`;
  return request(handler, path, {
    method: route.method,
    headers,
    ...(route.method === 'GET' ? {} : { body: '{}' }),
  });
}

beforeAll(async () => {
  engine = createEngine({ ingest: { ocr: 'never' } });
  await engine.createReviewer(
    { login: 'ada', name: 'Ada', password: PASSWORD, role: 'admin' },
    { accountId: 'acme' },
  );
  await engine.createReviewer({ login: 'rita', name: 'Rita', password: PASSWORD }, { accountId: 'acme' });
  handler = createFetchHandler(engine, { tokens: { secret: 'review-routes-secret-0123456789abcdef' } });
});
afterAll(() => engine.close());

describe('the review page routes', () => {
  it('refuse every request without a session where the table says one is needed (401)', async () => {
    const needing = PAGE.filter((r) => r.auth !== 'none');
    expect(needing.length).toBeGreaterThan(8);
    for (const route of needing) {
      const answer = await send(route);
      expect(answer.status, `${route.method} ${route.path}`).toBe(401);
      expect(((await answer.json()) as { error: { code: string } }).error.code).toBe('UNAUTHORIZED');
    }
  });

  it('refuse every change without the CSRF token, even with the session cookie (401)', async () => {
    const { cookie } = await signIn('ada');
    const changes = PAGE.filter((r) => r.auth === 'session+csrf');
    expect(changes.map((r) => r.method).every((m) => m !== 'GET')).toBe(true);
    for (const route of changes) {
      const answer = await send(route, { cookie });
      expect(answer.status, `${route.method} ${route.path}`).toBe(401);
      expect(await answer.text()).toContain('CSRF');
      const forged = await send(route, { cookie, 'x-csrf-token': 'not-the-token' });
      expect(forged.status, `${route.method} ${route.path}`).toBe(401);
    }
  });

  it("refuse a reviewer on the admins' routes (403), with a valid session and CSRF token", async () => {
    const { cookie, csrf } = await signIn('rita');
    const admins = PAGE.filter((r) => r.auth !== 'none' && r.role === 'admin');
    expect(admins.length).toBeGreaterThanOrEqual(3);
    for (const route of admins) {
      const answer = await send(route, { cookie, 'x-csrf-token': csrf });
      expect(answer.status, `${route.method} ${route.path}`).toBe(403);
    }
    expect((await engine.listReviewers({ accountId: 'acme' })).map((r) => r.login).sort()).toEqual([
      'ada',
      'rita',
    ]);
  });

  it('answer the routes that need no session without one', async () => {
    for (const route of PAGE.filter((r) => r.auth === 'none')) {
      const answer = await send(route);
      // The page's files; the sign-in refuses an empty body as a bad request.
      expect(answer.status, `${route.method} ${route.path}`).toBe(route.method === 'GET' ? 200 : 400);
    }
  });

  it('answer an unknown path or another method under the page 404, and redirect the path without its slash', async () => {
    for (const [method, path] of [
      ['GET', '/review/nope'],
      ['PUT', '/review/api/tasks'],
      ['DELETE', '/review/api/session'],
      ['GET', '/review/api/files/x1/pages/first'],
      ['POST', '/review/'],
    ] as const) {
      const answer = await request(handler, path, { method, ...(method === 'GET' ? {} : { body: '{}' }) });
      expect(answer.status, `${method} ${path}`).toBe(404);
      expect(answer.headers.get('allow')).toBeNull();
    }
    const redirect = await request(handler, '/review');
    expect(redirect.status).toBe(308);
    expect(redirect.headers.get('location')).toBe('/review/');
  });
});
