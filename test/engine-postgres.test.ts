import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createPostgresPersistence } from '../src/adapters/persistence/postgres-persistence.js';
import { createFsFileStore } from '../src/adapters/stores/fs-file-store.js';
import { createEngine, type Engine } from '../src/index.js';
import { INVOICE_LINES, makeTextPdf } from './helpers/make-documents.js';

const url = inject('pgUrl');
if (!url) console.warn(`PostgreSQL tests skipped: ${inject('pgSkipReason')}`);

describe.skipIf(!url)('engines sharing one PostgreSQL database', () => {
  const schema = `t_${randomBytes(6).toString('hex')}`;
  let dir: string;
  const engines: Engine[] = [];

  function engine(): Engine {
    const e = createEngine({
      files: createFsFileStore({ dir: path.join(dir, 'files') }),
      persistence: createPostgresPersistence({ connectionString: url, schema, maxConnections: 4 }),
      ingest: { ocr: 'never' },
      jobs: { concurrency: 2, pollMs: 200 },
      workflows: [
        {
          id: 'test.where',
          inputsSchema: { type: 'object' },
          run: async ({ job }) => ({
            fields: [{ name: 'test.ran', value: job.id, confidence: 1, boundingBox: null }],
          }),
        },
      ],
    });
    engines.push(e);
    return e;
  }

  beforeAll(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'docex-pg-engines-'));
  });
  afterAll(async () => {
    await Promise.all(engines.map((e) => e.close()));
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await client.end();
    await fs.rm(dir, { recursive: true, force: true });
  });

  it('runs a job queued in one process in any, and a result request in the other wakes', async () => {
    const a = engine();
    const b = engine();
    await Promise.all([a.ready, b.ready]);
    const pdf = await makeTextPdf([{ lines: INVOICE_LINES }]);
    const files = await Promise.all(Array.from({ length: 6 }, () => a.uploadV2(pdf)));
    for (const f of files) {
      await a.invoke('svc.extract', { inputs: { file_id: f.fileId, product_ids: ['invoices:2'] } });
    }
    // B waits for results of jobs A queued (run by A or by B).
    const results = await Promise.all(files.map((f) => b.getResult(f.fileId, { timeoutMs: 30_000 })));
    for (const result of results) {
      expect(result.status).toBe('FINALISED');
      if (result.status === 'FINALISED') {
        expect(result.results.fields.find((x) => x.name === 'invoice.total')!.value).toBe('150.00');
      }
    }
    const jobs = await b.listJobs();
    expect(jobs.filter((j) => j.status === 'succeeded')).toHaveLength(6);
  });

  it('a job ends in one process only, and its account sees it from both', async () => {
    const [a, b] = [engines[0]!, engines[1]!];
    const pdf = await makeTextPdf([{ lines: INVOICE_LINES }]);
    const file = await b.uploadV2(pdf);
    const invoked = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        (i % 2 ? a : b).invoke('test.where', { inputs: { file_id: file.fileId } }),
      ),
    );
    const result = await a.getResult(file.fileId, { timeoutMs: 30_000 });
    expect(result.status).toBe('FINALISED');
    for (const { job } of invoked) {
      const [fromA, fromB] = [await a.getJob(job.id), await b.getJob(job.id)];
      expect(fromA).toEqual(fromB);
      expect(fromA).toMatchObject({ status: 'succeeded', version: 3 });
    }
  });
});
