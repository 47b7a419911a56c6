import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSqlitePersistence } from '../../src/adapters/persistence/sqlite-persistence.js';
import { createFsFileStore } from '../../src/adapters/stores/fs-file-store.js';
import { main } from '../../src/cli/main.js';
import { createEngine } from '../../src/index.js';
import { INVOICE_LINES, makeTextPdf } from '../helpers/make-documents.js';

let dir: string;
beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'docex-cli-'));
  await fs.writeFile(path.join(dir, 'invoice.pdf'), await makeTextPdf([{ lines: INVOICE_LINES }]));
  await fs.writeFile(path.join(dir, 'notes.pdf'), 'not a pdf at all');
});
afterAll(() => fs.rm(dir, { recursive: true, force: true }));

async function lines(file: string): Promise<Array<Record<string, unknown>>> {
  return (await fs.readFile(file, 'utf8'))
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

describe('docex extract', () => {
  it('writes one line per file, a failure as an error line, and exits 1 when a file failed', async () => {
    const out = path.join(dir, 'out.jsonl');
    const code = await main([
      'extract',
      path.join(dir, 'invoice.pdf'),
      path.join(dir, 'notes.pdf'),
      '--product',
      'invoices:2',
      '--ocr',
      'never',
      '--out',
      out,
    ]);
    expect(code).toBe(1);
    const [ok, bad] = await lines(out);
    expect(ok).toMatchObject({ file: path.join(dir, 'invoice.pdf'), status: 'FINALISED' });
    const fields = (ok!.results as { fields: Array<{ name: string; value: unknown }> }).fields;
    expect(fields.find((f) => f.name === 'invoice.total')!.value).toBe('150.00');
    expect(bad).toEqual({
      file: path.join(dir, 'notes.pdf'),
      error: { code: 'UNSUPPORTED_FILE_TYPE', message: expect.any(String) },
    });
  });

  it('keeps files, jobs and results in --data-dir, readable by a later engine', async () => {
    const out = path.join(dir, 'durable.jsonl');
    const dataDir = path.join(dir, 'data');
    const code = await main([
      'extract',
      path.join(dir, 'invoice.pdf'),
      '--ocr',
      'never',
      '--data-dir',
      dataDir,
      '--out',
      out,
    ]);
    expect(code).toBe(0);
    const [line] = await lines(out);
    const engine = createEngine({
      files: createFsFileStore({ dir: path.join(dataDir, 'files') }),
      persistence: createSqlitePersistence({ path: path.join(dataDir, 'docex.db') }),
    });
    try {
      const fileId = line!.fileId as string;
      expect((await engine.getFile(fileId)).name).toBe('invoice.pdf');
      const [job] = await engine.listJobs({ fileId });
      expect(job).toMatchObject({ workflow_id: 'svc.extract', status: 'succeeded' });
      const result = await engine.getResult(fileId);
      expect(result).toEqual({ fileId, status: 'FINALISED', results: line!.results });
    } finally {
      await engine.close();
    }
  });
});
