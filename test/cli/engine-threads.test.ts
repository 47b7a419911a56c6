import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { BatchSetup } from '../../src/cli/batch-engine.js';
import { SetupError } from '../../src/cli/batch-engine.js';
import { describeError } from '../../src/cli/batch.js';
import { startEngineThreads } from '../../src/cli/engine-threads.js';
import { parseLines, run, writeBadFiles, writeInvoices } from './cli-helpers.js';

const DYING = new URL('./dying-thread.ts', import.meta.url);
const SETUP: BatchSetup = {
  command: 'extract',
  ocr: 'never',
  products: ['invoices:2'],
  verbose: false,
  text: false,
  concurrency: 2,
};

let dir: string;
beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'docex-threads-'));
});
afterAll(() => fs.rm(dir, { recursive: true, force: true }));

/** A line without what differs between runs by construction (ids, times). */
function comparable(line: Record<string, unknown>): string {
  const { fileId: _id, ...rest } = line;
  const results = rest.results as { timestamp?: unknown } | undefined;
  if (results) delete results.timestamp;
  return JSON.stringify(rest);
}

describe('engine threads', () => {
  it('a batch over 2 threads writes the same lines as one thread, bad files included', async () => {
    const files = await writeInvoices(
      path.join(dir, 'same'),
      Array.from({ length: 6 }, (_, i) => `inv-${i}.pdf`),
    );
    const bads = await writeBadFiles(path.join(dir, 'same'));
    const args = ['extract', ...files, ...Object.values(bads), '--ocr', 'never', '--verbose'];
    const one = await run([...args, '--threads', '1']);
    const two = await run([...args, '--threads', '2']);
    expect(one.code).toBe(1);
    expect(two.code).toBe(1);
    const a = parseLines(one.stdout).map(comparable).sort();
    const b = parseLines(two.stdout).map(comparable).sort();
    expect(b).toEqual(a);
    expect(a).toHaveLength(9);
    expect(two.stderr).toMatch(
      /9 files, 6 pages, 3 failed \(EMPTY_FILE 1, PDF_CORRUPT 1, UNSUPPORTED_FILE_TYPE 1\)/,
    );
  });

  it('spreads files over the threads, each taking the next file when it has fewest in flight', async () => {
    const pool = await startEngineThreads({ threads: 2, setup: SETUP, entry: DYING });
    try {
      const outcomes = await Promise.all(
        ['slow-1', 'slow-2', 'slow-3', 'slow-4'].map((f) => pool.work(path.join(dir, f))),
      );
      const threads = outcomes.map((o) => o.line.threadId);
      expect(new Set(threads).size).toBe(2);
      expect(threads.filter((t) => t === threads[0])).toHaveLength(2);
    } finally {
      await pool.close();
    }
  });

  it('a thread that dies fails only its files in flight (INTERNAL) and is replaced; the batch goes on', async () => {
    const pool = await startEngineThreads({ threads: 2, setup: SETUP, entry: DYING });
    try {
      expect(pool.started).toBe(2);
      const dying = pool.work(path.join(dir, 'die.pdf'));
      const error = await dying.then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(describeError(error)).toEqual({
        code: 'INTERNAL',
        message: 'The engine thread reading this file stopped (exit code 3).',
      });
      const after = await Promise.all(
        Array.from({ length: 6 }, (_, i) => pool.work(path.join(dir, `ok-${i}.pdf`))),
      );
      expect(after.map((o) => o.line.file)).toEqual(
        Array.from({ length: 6 }, (_, i) => path.join(dir, `ok-${i}.pdf`)),
      );
      expect(pool.started).toBe(3);
    } finally {
      await pool.close();
    }
  });

  it('a setup the threads refuse is a SetupError before any file is read', async () => {
    const error = await startEngineThreads({
      threads: 2,
      setup: { ...SETUP, products: ['refuse'] },
      entry: DYING,
    }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(SetupError);
    expect((error as Error).message).toBe('unknown product "refuse"');
  });

  it('an unknown product with --threads 2 is a usage error (exit 2) from the real engine threads', async () => {
    const files = await writeInvoices(path.join(dir, 'usage'), ['a.pdf', 'b.pdf']);
    const result = await run(['extract', ...files, '--product', 'nope:9', '--threads', '2']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('UNKNOWN_PRODUCT');
    expect(result.stdout).toBe('');
  });

  it('--threads must be 1 to 64, and above 1 not with --data-dir', async () => {
    const files = await writeInvoices(path.join(dir, 'opts'), ['a.pdf', 'b.pdf']);
    for (const bad of ['0', '65', '1.5', 'many']) {
      const result = await run(['extract', ...files, '--threads', bad]);
      expect(result.code).toBe(2);
      expect(result.stderr).toContain('--threads must be a whole number from 1 to 64');
    }
    const withDir = await run(['extract', ...files, '--threads', '2', '--data-dir', path.join(dir, 'data')]);
    expect(withDir.code).toBe(2);
    expect(withDir.stderr).toContain('--threads above 1 cannot be used with --data-dir');
  });
});
