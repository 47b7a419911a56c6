/**
 * `docex serve` (startServer): the HTTP surface on the embedded defaults in a data directory. Files,
 * results, clients and the token signing key survive a restart on the same directory.
 */
import { readFile, mkdtemp, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../src/cli/serve.js';
import { createSqlitePersistence } from '../../src/adapters/persistence/sqlite-persistence.js';
import { call, fieldsByName, form, result, token, type Json } from '../http/harness.js';
import { makeJob } from '../ports/engine-persistence.contract.js';

const CLIENT = 'demo:demo-secret-1234567890';
const AZURE = new URL('../../fixtures/invoice2data/AzureInterior.pdf', import.meta.url);

let dir: string;
const running: RunningServer[] = [];

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'docex-serve-'));
});
afterAll(async () => {
  await Promise.all(running.map((s) => s.close()));
  await rm(dir, { recursive: true, force: true });
});

async function start(
  dataDir: string,
  clients: string[] = [CLIENT],
): Promise<{ server: RunningServer; log: string[] }> {
  const log: string[] = [];
  const server = await startServer({
    port: 0,
    host: '127.0.0.1',
    dataDir,
    clients,
    log: (line) => log.push(line),
    logLevel: 'silent',
  });
  running.push(server);
  return { server, log };
}

describe('docex serve', () => {
  it('serves the v2 flow, and after a restart on the same data dir keeps clients, tokens and results', async () => {
    const dataDir = path.join(dir, 'data');
    const first = await start(dataDir);
    expect(first.server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(first.log.join('\n')).toContain(`listening on ${first.server.url}`);
    expect(first.log.join('\n')).not.toContain('created client');

    const auth = await token(first.server.url, 'demo', 'demo-secret-1234567890');
    const pdf = new Uint8Array(await readFile(AZURE));
    const upload = await call(first.server.url, '/fileupload/v2/multipart', {
      token: auth,
      body: form('file', pdf, 'AzureInterior.pdf'),
    });
    expect(upload.status, upload.text).toBe(200);
    const fileId = upload.body.fileId as string;
    const invoked = await call(first.server.url, '/workflows/svc.extract/jobs', {
      token: auth,
      json: { inputs: { file_id: fileId, product_ids: ['invoices:2'] } },
    });
    expect(invoked.status, invoked.text).toBe(200);
    const before = await result(first.server.url, auth, fileId, 'timeout=30000');
    expect(before.status, before.text).toBe(200);
    expect(before.body.status).toBe('FINALISED');
    const fields = fieldsByName(before.body);
    expect(fields['invoice.total'].value).toBe('279.84');
    expect(fields['document.referenceNo'].value).toBe('INV/2023/03/0008');

    // The signing key is kept in the data dir, readable by its owner only.
    const secretFile = await stat(path.join(dataDir, 'token-secret'));
    expect(secretFile.mode & 0o077).toBe(0);

    await first.server.close();
    // Closed: the port no longer answers.
    await expect(fetch(`${first.server.url}/openapi.json`)).rejects.toThrow();

    const second = await start(dataDir);
    expect(second.server.url).not.toBe('');
    // The token of the first process is still valid (same signing key), and the client still works.
    const again = await call(second.server.url, `/result/final/${fileId}`, { token: auth });
    expect(again.status, again.text).toBe(200);
    expect(again.body).toEqual(before.body);
    const fresh = await token(second.server.url, 'demo', 'demo-secret-1234567890');
    const job = await call(second.server.url, `/workflows/jobs/${invoked.body.job.id as string}`, {
      token: fresh,
    });
    expect(job.status).toBe(200);
    expect(job.body.job.status).toBe('succeeded');
    expect((await second.server.engine.getFile(fileId)).name).toBe('AzureInterior.pdf');
    await second.server.close();
  });

  it('creates a client when none is given, prints it, and the printed credentials work', async () => {
    const { server, log } = await start(path.join(dir, 'fresh'), []);
    const line = log.find((l) => l.includes('created client'));
    expect(line).toBeDefined();
    const match = /id (\S+) secret (\S+)/.exec(line!);
    expect(match).not.toBeNull();
    const auth = await token(server.url, match![1]!, match![2]!);
    const tasks = await call(server.url, '/tasks', { token: auth });
    expect(tasks.status).toBe(200);
    expect(tasks.body as Json).toEqual({ tasks: [] });
    await server.close();
  });

  it('keeps the accounts of id:secret:account clients apart', async () => {
    const { server } = await start(path.join(dir, 'accounts'), [
      'alpha:alpha-secret-1234567890:team-a',
      'beta:beta-secret-1234567890:team-b',
    ]);
    const a = await token(server.url, 'alpha', 'alpha-secret-1234567890');
    const b = await token(server.url, 'beta', 'beta-secret-1234567890');
    const upload = await call(server.url, '/fileupload/v2/multipart', {
      token: a,
      body: form('file', new Uint8Array(await readFile(AZURE))),
    });
    expect(upload.status).toBe(200);
    expect((await server.engine.listFiles({ accountId: 'team-a' })).length).toBe(1);
    const theirs = await call(server.url, `/result/final/${upload.body.fileId as string}`, { token: b });
    expect(theirs.status).toBe(404);
    expect(theirs.body.error.code).toBe('FILE_NOT_FOUND');
    await server.close();
  });

  it('listens first, then takes up the jobs an earlier run left queued', async () => {
    const dataDir = path.join(dir, 'left-behind');
    const first = await start(dataDir);
    const pdf = new Uint8Array(await readFile(AZURE));
    const { fileId } = await first.server.engine.uploadV2(pdf, { accountId: 'default' });
    await first.server.close();
    // A job queued by a run that ended before it started it, written where that run kept its jobs.
    const persistence = createSqlitePersistence({ path: path.join(dataDir, 'docex.db') });
    const left = makeJob({ fileId, accountId: 'default' });
    left.record.workflow_id = 'svc.ingest';
    left.record.inputs = { file_id: fileId };
    await persistence.insertJob(left);
    await persistence.close();

    const second = await start(dataDir);
    // startServer answered once it listened; the job is taken up after that and runs to its end.
    const ended = await second.server.engine.getResult(fileId, { accountId: 'default', timeoutMs: 30_000 });
    expect(ended.status).toBe('FINALISED');
    expect((await second.server.engine.getJob(left.record.id, { accountId: 'default' })).status).toBe(
      'succeeded',
    );
    await second.server.close();
  });

  it('refuses a malformed --client before listening', async () => {
    await expect(
      startServer({
        port: 0,
        host: '127.0.0.1',
        dataDir: path.join(dir, 'bad'),
        clients: ['no-secret'],
        log: () => undefined,
        logLevel: 'silent',
      }),
    ).rejects.toThrow(/ID:SECRET/);
  });
});
