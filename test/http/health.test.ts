/**
 * Health probes, on the fetch handler with Requests: `/healthz` (alive) always 200 without a token;
 * `/readyz` 200 when the persistence and the file store answer, 503 naming the check that failed when
 * the database is gone (a PostgreSQL address where nothing listens), and 503 once the engine is closed.
 */
import { describe, expect, it } from 'vitest';

import { createPostgresPersistence } from '../../src/adapters/persistence/postgres-persistence.js';
import { createEngine } from '../../src/index.js';
import { createFetchHandler } from '../../src/http/fetch-handler.js';

const get = async (handler: (r: Request) => Promise<Response>, path: string) => {
  const answer = await handler(new Request(`http://docex.test${path}`));
  type Check = { ok: boolean; message?: string; started?: boolean };
  return {
    status: answer.status,
    body: (await answer.json()) as {
      status: string;
      checks: { persistence: Check; files: Check; ocr: Check };
    },
  };
};

describe('health probes', () => {
  it('alive and ready on working storage, without a token', async () => {
    const engine = createEngine();
    const handler = createFetchHandler(engine, { tokens: { secret: 'health-test-secret-0123456789abcdef' } });
    expect(await get(handler, '/healthz')).toEqual({ status: 200, body: { status: 'ok' } });
    const ready = await get(handler, '/readyz');
    expect(ready.status).toBe(200);
    expect(ready.body).toMatchObject({
      status: 'ready',
      checks: { persistence: { ok: true }, files: { ok: true }, ocr: { ok: true, started: false } },
    });
    await engine.close();
    const closed = await get(handler, '/readyz');
    expect(closed.status).toBe(503);
    expect(closed.body.status).toBe('not ready');
  });

  it('not ready, naming the database, when PostgreSQL does not answer; still alive', async () => {
    // Port 9 (discard) on loopback: nothing listens there, the connection is refused at once.
    const engine = createEngine({
      persistence: createPostgresPersistence({ connectionString: 'postgres://docex@127.0.0.1:9/none' }),
      jobs: { resumeOnStart: false },
    });
    engine.on('error', () => undefined);
    const handler = createFetchHandler(engine, { tokens: { secret: 'health-test-secret-0123456789abcdef' } });
    expect((await get(handler, '/healthz')).status).toBe(200);
    const ready = await get(handler, '/readyz');
    expect(ready.status).toBe(503);
    expect(ready.body.checks.persistence.ok).toBe(false);
    expect(ready.body.checks.persistence.message).toEqual(expect.any(String));
    expect(ready.body.checks.files.ok).toBe(true);
    expect(JSON.stringify(ready.body)).not.toMatch(/\n\s+at /);
    await engine.close().catch(() => undefined);
  });
});
