/**
 * Failed sign-ins are limited per client id and per address, on the token endpoint and the review
 * page's sign-in, with a clock of the test's own (no waiting on wall time): 429 with `retry-after`
 * before the secret is even checked, a success clears the client's count, the window passes.
 */
import { describe, expect, it } from 'vitest';

import { createEngine } from '../../src/index.js';
import { createFetchHandler } from '../../src/http/fetch-handler.js';
import { setRemoteAddress } from '../../src/http/remote-address.js';
import { SignInLimiter } from '../../src/http/sign-in-limiter.js';

const SECRET = 'sign-in-limits-secret-0123456789abcdef';

async function setUp(limits = { maxFailures: 3, maxFailuresPerAddress: 3, windowMs: 60_000 }) {
  let now = 1_800_000_000_000;
  const engine = createEngine();
  await engine.createClient('acme', { clientId: 'acme', clientSecret: 'acme-secret-0123456789' });
  await engine.createClient('other', { clientId: 'other', clientSecret: 'other-secret-0123456789' });
  // A person who signs in to the review page (API clients do not).
  await engine.createReviewer(
    { login: 'acme', name: 'Acme Reviewer', password: 'acme-secret-0123456789' },
    { accountId: 'acme' },
  );
  const handler = createFetchHandler(engine, {
    tokens: { secret: SECRET },
    signInLimits: { ...limits, now: () => now },
  });
  const token = async (clientId: string, secret: string, address = '203.0.113.7') => {
    const request = new Request('http://docex.test/oauth2/token', {
      method: 'POST',
      body: new URLSearchParams({
        grant_type: 'client_credentials',
        client_id: clientId,
        client_secret: secret,
      }),
    });
    setRemoteAddress(request, address);
    const answer = await handler(request);
    return {
      status: answer.status,
      retryAfter: answer.headers.get('retry-after'),
      body: (await answer.json()) as { code?: string },
    };
  };
  const login = async (login: string, password: string, address = '203.0.113.7') => {
    const request = new Request('http://docex.test/review/api/login', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ login, password }),
    });
    setRemoteAddress(request, address);
    const answer = await handler(request);
    return { status: answer.status, retryAfter: answer.headers.get('retry-after') };
  };
  return { engine, token, login, advance: (ms: number) => (now += ms) };
}

describe('limits on failed sign-ins', () => {
  it('refuses a client id after 3 wrong secrets with 429 and retry-after, even with the right secret', async () => {
    const t = await setUp();
    for (let i = 0; i < 3; i++) expect((await t.token('acme', 'wrong', `198.51.100.${i}`)).status).toBe(401);
    const limited = await t.token('acme', 'acme-secret-0123456789', '198.51.100.9');
    expect(limited.status).toBe(429);
    expect(limited.body.code).toBe('TOO_MANY_REQUESTS');
    expect(Number(limited.retryAfter)).toBe(60);
    // Another client is not slowed down by acme's guesses.
    expect((await t.token('other', 'other-secret-0123456789', '198.51.100.10')).status).toBe(200);
    // Once the window has passed, the right secret works again.
    t.advance(60_001);
    expect((await t.token('acme', 'acme-secret-0123456789', '198.51.100.9')).status).toBe(200);
    await t.engine.close();
  });

  it('refuses an address that guesses across client ids, and the review sign-in counts too', async () => {
    const t = await setUp();
    expect((await t.token('nobody-1', 'x')).status).toBe(401);
    expect((await t.login('nobody-2', 'x')).status).toBe(401);
    expect((await t.token('nobody-3', 'x')).status).toBe(401);
    const limited = await t.login('acme', 'acme-secret-0123456789');
    expect(limited.status).toBe(429);
    expect(Number(limited.retryAfter)).toBeGreaterThan(0);
    // From another address the same reviewer signs in.
    expect((await t.login('acme', 'acme-secret-0123456789', '192.0.2.55')).status).toBe(200);
    await t.engine.close();
  });

  it('refuses a reviewer login after 3 wrong passwords, whatever the address', async () => {
    const t = await setUp();
    for (let i = 0; i < 3; i++)
      expect((await t.login('ACME', 'wrong-password', `198.51.100.${i}`)).status).toBe(401);
    const limited = await t.login('acme', 'acme-secret-0123456789', '198.51.100.9');
    expect(limited.status).toBe(429);
    expect(Number(limited.retryAfter)).toBe(60);
    // The API client of the same name is another key: its tokens are not held up.
    expect((await t.token('acme', 'acme-secret-0123456789', '198.51.100.10')).status).toBe(200);
    t.advance(60_001);
    expect((await t.login('acme', 'acme-secret-0123456789', '198.51.100.9')).status).toBe(200);
    await t.engine.close();
  });

  it('a success clears the client`s count', async () => {
    const t = await setUp();
    for (let i = 0; i < 2; i++) await t.token('acme', 'wrong', `198.51.100.${i}`);
    expect((await t.token('acme', 'acme-secret-0123456789', '198.51.100.20')).status).toBe(200);
    for (let i = 0; i < 2; i++)
      expect((await t.token('acme', 'wrong', `198.51.100.${30 + i}`)).status).toBe(401);
    expect((await t.token('acme', 'acme-secret-0123456789', '198.51.100.40')).status).toBe(200);
    await t.engine.close();
  });

  it('allows an address more failures than a client id (people share addresses)', () => {
    const limiter = new SignInLimiter({ now: () => 5 });
    for (let i = 0; i < 10; i++) limiter.failed([`client:c${i}`, 'address:192.0.2.1']);
    expect(limiter.retryAfter(['client:new', 'address:192.0.2.1'])).toBeUndefined();
    for (let i = 0; i < 10; i++) limiter.failed(['client:c0']);
    expect(limiter.retryAfter(['client:c0'])).toBe(60);
    for (let i = 0; i < 90; i++) limiter.failed(['address:192.0.2.1']);
    expect(limiter.retryAfter(['client:new', 'address:192.0.2.1'])).toBe(60);
  });

  it('keeps at most maxKeys keys', () => {
    const limiter = new SignInLimiter({
      maxFailures: 1,
      maxFailuresPerAddress: 1,
      windowMs: 60_000,
      maxKeys: 2,
      now: () => 5,
    });
    limiter.failed(['a']);
    limiter.failed(['b']);
    limiter.failed(['c']);
    expect(limiter.retryAfter(['a'])).toBeUndefined();
    expect(limiter.retryAfter(['c'])).toBe(60);
  });
});
