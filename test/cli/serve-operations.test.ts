/**
 * `docex serve` as an operator runs it: JSON log lines (one per request, one per job change, faults
 * with their stack, never a token), `GET /metrics` scraped and parsed (requests by route and status,
 * jobs by workflow and state, pages read, queue depth, tasks open, usage) behind its token, page
 * quotas from the configuration, and the command itself started from a config file, a clients file
 * and variables with no secret on its command line.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { startServer, type RunningServer } from '../../src/cli/serve.js';
import { call, form, result, token } from '../http/harness.js';
import { whenJob } from '../helpers/when-job.js';
import { exited, listeningUrl, spawnCli } from './cli-helpers.js';

const AZURE = new URL('../../fixtures/invoice2data/AzureInterior.pdf', import.meta.url);
const CLIENT = { id: 'ops', secret: 'ops-secret-0123456789abcdef' };
const METRICS_TOKEN = 'metrics-token-0123456789';

let dir: string;
const running: RunningServer[] = [];
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'docex-serve-ops-'));
});
afterAll(async () => {
  await Promise.all(running.map((s) => s.close()));
  await rm(dir, { recursive: true, force: true });
});

type Sample = { name: string; labels: Record<string, string>; value: number };

/** Prometheus' text format (0.0.4): `name{label="value",...} number` lines, comments skipped. */
function parseMetrics(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    if (!line || line.startsWith('#')) continue;
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match) throw new Error(`not a sample line: ${line}`);
    const labels: Record<string, string> = {};
    for (const pair of (match[2] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g))
      labels[pair[1]!] = pair[2]!;
    samples.push({ name: match[1]!, labels, value: Number(match[3]) });
  }
  return samples;
}

function sample(samples: Sample[], name: string, labels: Record<string, string> = {}): number | undefined {
  return samples.find((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v))
    ?.value;
}

describe('docex serve in operation', () => {
  it('logs each request and job change as JSON, serves parsed metrics behind a token, keeps quotas', async () => {
    const lines: Array<Record<string, unknown>> = [];
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        for (const line of chunk.toString('utf8').split('\n').filter(Boolean))
          lines.push(JSON.parse(line) as Record<string, unknown>);
        done();
      },
    });
    const server = await startServer({
      port: 0,
      host: '127.0.0.1',
      dataDir: path.join(dir, 'in-process'),
      clients: [`${CLIENT.id}:${CLIENT.secret}:acme`],
      logger: pino({ level: 'info' }, sink),
      metrics: { enabled: true, token: METRICS_TOKEN },
      accounts: { acme: { limits: { pagesPerDay: 1 } } },
    });
    running.push(server);
    // A workflow that throws: an INTERNAL failure whose cause the operator must see.
    server.engine.registerWorkflow({
      id: 'ops.broken',
      inputsSchema: { type: 'object' },
      run: async () => {
        throw new TypeError('the broken part');
      },
    });
    expect(lines.some((l) => String(l.msg).includes(`listening on ${server.url}`))).toBe(true);

    const auth = await token(server.url, CLIENT.id, CLIENT.secret);
    const pdf = new Uint8Array(await readFile(AZURE));
    const upload = await call(server.url, '/fileupload/v2/multipart', {
      token: auth,
      body: form('file', pdf, 'AzureInterior.pdf'),
      headers: { 'x-request-id': 'upload-1' },
    });
    expect(upload.status).toBe(200);
    expect(upload.headers.get('x-request-id')).toBe('upload-1');
    const fileId = upload.body.fileId as string;
    const invoked = await call(server.url, '/workflows/svc.extract/jobs', {
      token: auth,
      json: { inputs: { file_id: fileId, product_ids: ['invoices'] } },
    });
    expect(invoked.status).toBe(200);
    await result(server.url, auth, fileId);
    // The quota of one page a day is used: the next job is refused before it is queued.
    const refused = await call(server.url, '/workflows/svc.extract/jobs', {
      token: auth,
      json: { inputs: { file_id: fileId, product_ids: ['invoices'] } },
    });
    expect(refused.status).toBe(429);
    expect(refused.body.code).toBe('QUOTA_EXCEEDED');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    const usage = await call(server.url, '/usage', { token: auth });
    expect(usage.body).toMatchObject({
      total: { jobs: 1, pages: 1 },
      quotas: { pagesPerDay: 1, usedToday: 1 },
    });
    server.engine.configureAccount('acme', { limits: { pagesPerDay: 100 } });
    // A review task left open: a rule that always holds.
    await server.engine.putValidationRules(
      'always',
      {
        data: {
          checks: [
            {
              condition: { type: 'greater-than', values: [2, 1], compare_as: 'numeric' },
              note: 'Look at every document',
              field_ids: ['svc.invoice.total'],
            },
          ],
        },
        schema: true,
      },
      { accountId: 'acme' },
    );
    const validation = await call(server.url, '/workflows/svc.validate/jobs', {
      token: auth,
      json: { inputs: { file_id: fileId, product_id: 'invoices:2', rules_id: 'always' } },
    });
    expect(validation.status, validation.text).toBe(200);
    await whenJob(server.engine, validation.body.job.id as string, ['succeeded'], 'acme');
    const broken = await call(server.url, '/workflows/ops.broken/jobs', {
      token: auth,
      json: { inputs: {} },
    });
    const brokenId = broken.body.job.id as string;
    await whenJob(server.engine, brokenId, ['failed'], 'acme');

    // One line per request: method, route template, status, duration, request id, account; no token.
    const requests = lines.filter((l) => l.msg === 'request');
    expect(requests.find((l) => l.requestId === 'upload-1')).toMatchObject({
      method: 'POST',
      route: '/fileupload/v2/multipart',
      status: 200,
      accountId: 'acme',
      ms: expect.any(Number),
    });
    expect(requests.find((l) => l.status === 429)).toMatchObject({ route: '/workflows/{}/jobs' });
    expect(requests.length).toBeGreaterThanOrEqual(6);
    const text = lines.map((l) => JSON.stringify(l)).join('\n');
    expect(text).not.toContain(auth);
    expect(text).not.toContain(CLIENT.secret);
    // Job changes, and the INTERNAL failure with the stack of what was thrown.
    expect(lines.filter((l) => l.workflow === 'svc.extract').map((l) => l.status)).toEqual([
      'new',
      'running',
      'succeeded',
    ]);
    const fault = lines.find((l) => l.level === 50 && l.jobId === brokenId) as
      { code: string; err: { message: string; stack: string } } | undefined;
    expect(fault?.code).toBe('INTERNAL');
    expect(fault?.err.message).toBe('the broken part');
    expect(fault?.err.stack).toMatch(/TypeError: the broken part\n\s+at /);
    // The client sees the code, never the cause.
    const job = await call(server.url, `/jobs/${brokenId}`, { token: auth });
    expect(JSON.stringify(job.body)).not.toContain('the broken part');

    // Metrics: public route, but only with the token.
    expect((await call(server.url, '/metrics')).status).toBe(401);
    const scraped = await fetch(`${server.url}/metrics`, {
      headers: { authorization: `Bearer ${METRICS_TOKEN}` },
    });
    expect(scraped.status).toBe(200);
    expect(scraped.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    const samples = parseMetrics(await scraped.text());
    const uploads = { method: 'POST', route: '/fileupload/v2/multipart', status: '200' };
    expect(sample(samples, 'docex_http_request_duration_seconds_count', uploads)).toBe(1);
    expect(sample(samples, 'docex_http_request_duration_seconds_sum', uploads)).toBeGreaterThan(0);
    expect(sample(samples, 'docex_http_request_duration_seconds_count', { status: '429' })).toBe(1);
    expect(sample(samples, 'docex_jobs_total', { workflow: 'svc.extract', state: 'succeeded' })).toBe(1);
    expect(sample(samples, 'docex_jobs_total', { workflow: 'ops.broken', state: 'failed' })).toBe(1);
    expect(sample(samples, 'docex_job_duration_seconds_count', { workflow: 'svc.extract' })).toBe(1);
    expect(sample(samples, 'docex_pages_read_total', { source: 'text' })).toBe(1);
    expect(sample(samples, 'docex_queue_jobs', { state: 'queued' })).toBe(0);
    expect(sample(samples, 'docex_queue_jobs', { state: 'running' })).toBe(0);
    expect(sample(samples, 'docex_tasks_open')).toBe(1);
    // The extraction's page and the validation's (a document two workflows read counts twice).
    expect(sample(samples, 'docex_usage_pages_total', { account: 'acme' })).toBe(2);
    expect(sample(samples, 'docex_process_resident_memory_bytes')).toBeGreaterThan(0);
  });

  it('docex serve starts from a config file, a clients file and variables, logging JSON lines', async () => {
    const dataDir = path.join(dir, 'cli');
    const clientsFile = path.join(dir, 'clients');
    const configFile = path.join(dir, 'docex.json');
    await writeFile(clientsFile, `# API clients\n${CLIENT.id}:${CLIENT.secret}:acme\n`, { mode: 0o600 });
    await writeFile(
      configFile,
      JSON.stringify({ port: 0, dataDir, clientsFile, logLevel: 'info', ocrEngine: 'wasm' }),
    );
    const child = spawnCli(['serve'], undefined, {
      env: {
        DOCEX_CONFIG: configFile,
        DOCEX_METRICS_TOKEN: METRICS_TOKEN,
        DOCEX_TOKEN_SECRET: 'x'.repeat(40),
      },
    });
    try {
      const url = await listeningUrl(child);
      expect(child.spawnargs.join(' ')).not.toContain(CLIENT.secret);
      const auth = await token(url, CLIENT.id, CLIENT.secret);
      expect((await call(url, '/tasks', { token: auth })).status).toBe(200);
      expect((await call(url, '/metrics')).status).toBe(401);
      const metrics = await fetch(`${url}/metrics`, {
        headers: { authorization: `Bearer ${METRICS_TOKEN}` },
      });
      expect(metrics.status).toBe(200);
      // Every line on stdout is a JSON log line; the requests are among them.
      await new Promise<void>((resolve) => {
        const look = (): void => {
          if (child.output.stdout.includes('"route":"/tasks"')) resolve();
        };
        child.stdout!.on('data', look);
        look();
      });
      const logged = child.output.stdout
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as Record<string, unknown>);
      expect(logged.find((l) => l.route === '/tasks')).toMatchObject({ status: 200, accountId: 'acme' });
      expect(logged.find((l) => l.route === '/oauth2?/token')).toMatchObject({ method: 'POST', status: 200 });
    } finally {
      child.kill('SIGTERM');
      expect((await exited(child)).code).toBe(0);
    }
  });

  it('docex serve refuses a config file with an unknown key, naming it (exit 2)', async () => {
    const configFile = path.join(dir, 'typo.json');
    await writeFile(configFile, JSON.stringify({ prot: 8080 }));
    const child = spawnCli(['serve', '--config', configFile]);
    expect((await exited(child)).code).toBe(2);
    expect(child.output.stderr).toMatch(/additional properties \(prot\)/);
  });
});
