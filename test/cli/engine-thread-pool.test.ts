import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { BatchSetup } from '../../src/cli/batch-engine.js';
import { SetupError } from '../../src/cli/batch-engine.js';
import { describeError } from '../../src/cli/file-errors.js';
import { startEngineThreads } from '../../src/cli/engine-thread-pool.js';
import { DocexError } from '../../src/core/errors.js';
import type { OcrEngine } from '../../src/ports/ocr-engine.js';
import { encodeImage, INVOICE_LINES, makeTextPdf, renderPdfPage } from '../helpers/make-documents.js';
import { invoiceWithTotal, parseLines, run, writeBadFiles, writeInvoices } from './cli-helpers.js';

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

  it('split, validate and ingest over 2 threads write the same lines as one thread', async () => {
    const folder = path.join(dir, 'commands');
    const files = await writeInvoices(folder, ['a.pdf', 'b.pdf']);
    const large = path.join(folder, 'large.pdf');
    await fs.writeFile(large, await invoiceWithTotal('1500.00'));
    const rules = path.join(dir, 'high.json');
    await fs.writeFile(
      rules,
      JSON.stringify({
        data: {
          checks: [
            {
              condition: {
                type: 'greater-than',
                values: ["$.predictions['svc.invoice.total'].value_norm", 1000],
                compare_as: 'numeric',
              },
              note: 'Large total',
              field_ids: ['svc.invoice.total'],
            },
          ],
        },
        schema: true,
      }),
    );
    /** Ids and times differ between runs by construction. */
    const strip = (value: unknown): unknown =>
      Array.isArray(value)
        ? value.map(strip)
        : value && typeof value === 'object'
          ? Object.fromEntries(
              Object.entries(value)
                .filter(([k]) => !['fileId', 'file_id', 'id', 'timestamp'].includes(k))
                .map(([k, v]) => [k, strip(v)]),
            )
          : value;
    const commands = [
      ['split', ...files, large],
      ['validate', ...files, large, '--product', 'invoices:2', '--rules', rules],
      ['ingest', ...files, large, '--text'],
    ];
    for (const command of commands) {
      const one = await run([...command, '--ocr', 'never', '--threads', '1']);
      const two = await run([...command, '--ocr', 'never', '--threads', '2']);
      expect([one.code, two.code], command[0]).toEqual([0, 0]);
      const lines = (text: string) =>
        parseLines(text)
          .map((l) => JSON.stringify(strip(l)))
          .sort();
      expect(lines(two.stdout), command[0]).toEqual(lines(one.stdout));
      expect(parseLines(two.stdout), command[0]).toHaveLength(3);
    }
    const validated = parseLines((await run([...commands[1]!, '--ocr', 'never', '--threads', '2'])).stdout);
    expect(validated.find((l) => l.file === large)).toMatchObject({
      status: 'IN PROGRESS',
      tasks: [{ note: 'Large total' }],
    });
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

  it("the threads' pages go to the shared OCR engine, made once at the first page; its errors come back with their code", async () => {
    const seen: Array<{ width: number; height: number; data: number[]; dpi: number | undefined }> = [];
    let made = 0;
    let closed = 0;
    const ocr: OcrEngine = {
      recognize(image, options) {
        seen.push({ width: image.width, height: image.height, data: [...image.data], dpi: options?.dpi });
        if (seen.length === 3)
          return Promise.reject(new DocexError('OCR_TIMEOUT', 'Text recognition took too long.'));
        return Promise.resolve([
          { text: `word-${seen.length}`, confidence: 0.9, x0: 0, y0: 0, x1: 3, y1: 2 },
        ]);
      },
      close: () => {
        closed++;
        return Promise.resolve();
      },
    };
    const pool = await startEngineThreads({
      threads: 2,
      setup: SETUP,
      entry: DYING,
      ocr: () => {
        made++;
        return Promise.resolve(ocr);
      },
    });
    try {
      expect(made).toBe(0);
      const first = await pool.work(path.join(dir, 'ocr-1.png'));
      const second = await pool.work(path.join(dir, 'ocr-2.png'));
      expect([first.line.words, second.line.words]).toEqual([['word-1'], ['word-2']]);
      const third = await pool.work(path.join(dir, 'ocr-3.png')).catch((e: unknown) => e);
      expect(describeError(third)).toEqual({
        code: 'OCR_TIMEOUT',
        message: 'Text recognition took too long.',
      });
      expect(made).toBe(1);
      expect(seen[0]).toEqual({ width: 3, height: 2, data: [0, 255, 0, 255, 0, 255], dpi: 200 });
    } finally {
      await pool.close();
    }
    expect(closed).toBe(1);
  });

  it('scans read by 2 engine threads through the shared OCR workers give the same lines as one thread', async () => {
    const scans = path.join(dir, 'scans');
    await fs.mkdir(scans, { recursive: true });
    const pdf = await makeTextPdf([{ lines: INVOICE_LINES }]);
    const png = await encodeImage(await renderPdfPage(pdf, 150), 'png');
    for (const name of ['a.png', 'b.png', 'c.png']) await fs.writeFile(path.join(scans, name), png);
    const args = ['extract', scans, '--product', 'invoices:2'];
    const one = await run([...args, '--threads', '1']);
    const two = await run([...args, '--threads', '2']);
    expect([one.code, two.code]).toEqual([0, 0]);
    const lines = parseLines(two.stdout);
    expect(lines.map(comparable).sort()).toEqual(parseLines(one.stdout).map(comparable).sort());
    const total = (lines[0]!.results as { fields: Array<{ name: string; value: unknown }> }).fields.find(
      (f) => f.name === 'document.totalAmount' || f.name === 'invoice.total',
    );
    expect(total?.value).toBe('150.00');
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
