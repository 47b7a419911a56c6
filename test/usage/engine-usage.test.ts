/**
 * Usage and quotas through the engine and its HTTP interface: jobs that end add their pages and time to
 * the account's day, `GET /usage` reports them per account, and a quota refuses new work with 429
 * QUOTA_EXCEEDED before anything is queued. The engine's clock is a fixed instant (`now`).
 */
import { afterEach, describe, expect, it } from 'vitest';

import { createEngine, type Engine, type JobRecord } from '../../src/index.js';
import { createFetchHandler } from '../../src/http/fetch-handler.js';
import { INVOICE_LINES, makeTextPdf } from '../helpers/make-documents.js';
import { whenJob } from '../helpers/when-job.js';

const NOW = Date.UTC(2026, 10, 23, 12, 0, 0);
const SECRET = 'usage-test-token-secret-0123456789abcdef';

const engines: Engine[] = [];
afterEach(async () => {
  await Promise.all(engines.splice(0).map((e) => e.close()));
});

function newEngine(limits: Record<string, number> = {}): Engine {
  const engine = createEngine({ ingest: { ocr: 'never' }, now: () => NOW, limits });
  engines.push(engine);
  return engine;
}

const whenEnded = (engine: Engine, jobId: string, accountId: string): Promise<JobRecord> =>
  whenJob(engine, jobId, ['succeeded', 'failed'], accountId);

/** Usage is added just after the job's change is stored: waits for it on the event loop, no timer. */
async function usageWith(engine: Engine, accountId: string, jobs: number) {
  for (let turn = 0; turn < 1000; turn++) {
    const report = await engine.getUsage({ accountId });
    if (report.total.jobs >= jobs) return report;
    await new Promise((r) => setImmediate(r));
  }
  throw new Error(`usage of ${jobs} jobs never came`);
}

async function extractOnce(engine: Engine, accountId: string, pdf: Uint8Array): Promise<JobRecord> {
  const file = await engine.upload(pdf, { accountId });
  const { job } = await engine.invoke(
    'svc.extract',
    { inputs: { file_id: file.fileId, product_ids: ['invoices'] } },
    { accountId },
  );
  return whenEnded(engine, job.id, accountId);
}

describe('usage', () => {
  it("a job that ends carries its usage and adds it to its account's day, and only its account's", async () => {
    const engine = newEngine();
    const pdf = await makeTextPdf([{ lines: INVOICE_LINES }, { lines: INVOICE_LINES }]);
    const job = await extractOnce(engine, 'acme', pdf);
    expect(job.status).toBe('succeeded');
    expect(job.usage).toEqual({ pages: 2, ocr_pages: 0, processing_ms: expect.any(Number) });
    await extractOnce(engine, 'acme', pdf);
    const report = await usageWith(engine, 'acme', 2);
    expect(report.from).toBe('2026-11-01');
    expect(report.to).toBe('2026-11-23');
    expect(report.days).toEqual([
      { day: '2026-11-23', jobs: 2, failedJobs: 0, pages: 4, ocrPages: 0, processingMs: expect.any(Number) },
    ]);
    expect(report.total.pages).toBe(4);
    expect(report.quotas).toEqual({ pagesPerDay: null, pagesPerMonth: null, usedToday: 4, usedThisMonth: 4 });
    expect((await engine.getUsage({ accountId: 'other' })).days).toEqual([]);
  });

  it('a failed job counts as a failed job', async () => {
    const engine = newEngine();
    engine.registerWorkflow({
      id: 'acme.fails',
      inputsSchema: { type: 'object' },
      run: async () => {
        throw new Error('broken');
      },
    });
    engine.on('error', () => undefined);
    const { job } = await engine.invoke('acme.fails', { inputs: {} }, { accountId: 'acme' });
    const failed = await whenEnded(engine, job.id, 'acme');
    expect(failed.usage).toEqual({ processing_ms: expect.any(Number) });
    const report = await usageWith(engine, 'acme', 1);
    expect(report.total).toMatchObject({ jobs: 1, failedJobs: 1, pages: 0 });
  });

  it('refuses a range that is not days, is reversed or spans more than a year', async () => {
    const engine = newEngine();
    for (const range of [
      { from: '2026-13-01' },
      { from: '2026-11-24', to: '2026-11-23' },
      { from: '2025-01-01' },
    ]) {
      await expect(engine.getUsage(range)).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
    }
  });
});

describe('quotas', () => {
  it('refuses a job whose pages would pass the daily quota, before queuing it; others go on', async () => {
    const engine = newEngine({ pagesPerDay: 3 });
    const two = await makeTextPdf([{ lines: INVOICE_LINES }, { lines: INVOICE_LINES }]);
    await extractOnce(engine, 'acme', two);
    await usageWith(engine, 'acme', 1);
    const file = await engine.upload(two, { accountId: 'acme' });
    const before = (await engine.listJobs({ accountId: 'acme' })).length;
    await expect(
      engine.invoke(
        'svc.extract',
        { inputs: { file_id: file.fileId, product_ids: ['invoices'] } },
        { accountId: 'acme' },
      ),
    ).rejects.toMatchObject({ code: 'QUOTA_EXCEEDED', retryAfterSeconds: 12 * 3600 });
    expect(await engine.listJobs({ accountId: 'acme' })).toHaveLength(before);
    // Another account has its own day; a raised quota lets the same work through.
    expect((await extractOnce(engine, 'other', two)).status).toBe('succeeded');
    engine.configureAccount('acme', { limits: { pagesPerDay: 10 } });
    expect((await extractOnce(engine, 'acme', two)).status).toBe('succeeded');
  });

  it('HTTP: GET /usage per account, and a v1 upload past the quota is 429 with retry-after, its file not kept', async () => {
    const engine = newEngine({ pagesPerMonth: 2 });
    const handler = createFetchHandler(engine, { tokens: { secret: SECRET }, review: false });
    await engine.createClient('acme', { clientId: 'acme-client', clientSecret: 'acme-secret-0123456789' });
    const tokenAnswer = await handler(
      new Request('http://docex.test/oauth2/token', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'grant_type=client_credentials&client_id=acme-client&client_secret=acme-secret-0123456789',
      }),
    );
    const { access_token } = (await tokenAnswer.json()) as { access_token: string };
    const auth = { authorization: `Bearer ${access_token}` };
    const pdf = await makeTextPdf([{ lines: INVOICE_LINES }, { lines: INVOICE_LINES }]);
    await extractOnce(engine, 'acme', pdf);
    await usageWith(engine, 'acme', 1);

    const usage = await handler(new Request('http://docex.test/usage?from=2026-11-20', { headers: auth }));
    expect(usage.status).toBe(200);
    expect(await usage.json()).toMatchObject({
      from: '2026-11-20',
      to: '2026-11-23',
      total: { jobs: 1, pages: 2 },
      quotas: { pagesPerMonth: 2, usedThisMonth: 2 },
    });
    const bad = await handler(new Request('http://docex.test/usage?from=yesterday', { headers: auth }));
    expect(bad.status).toBe(400);

    const upload = new FormData();
    upload.append('products', 'invoices');
    upload.append('fileToUpload', new Blob([pdf], { type: 'application/pdf' }), 'invoice.pdf');
    const refused = await handler(
      new Request('http://docex.test/fileupload', { method: 'POST', headers: auth, body: upload }),
    );
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe(String((7 * 24 + 12) * 3600));
    expect(await refused.json()).toMatchObject({ code: 'QUOTA_EXCEEDED' });
    // Only the file of the first extraction is stored.
    expect(await engine.listFiles({ accountId: 'acme' })).toHaveLength(1);
  });
});
