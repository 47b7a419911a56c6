/**
 * The command as a child process, where signals and pipes are real: `node --import tsx
 * test/cli/run-cli.ts ...`, as bin/docex.js runs the built code.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exited, parseLines, readLines, spawnCli, writeBadFiles, writeInvoices } from './cli-helpers.js';

let dir: string;
let batch: string;
let files: string[];
beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'docex-cli-process-'));
  batch = path.join(dir, 'batch');
  files = await writeInvoices(
    batch,
    Array.from({ length: 40 }, (_, i) => `inv-${String(i).padStart(2, '0')}.pdf`),
  );
});
afterAll(() => fs.rm(dir, { recursive: true, force: true }));

/** Resolves once `file` holds at least `n` lines. */
async function linesAtLeast(file: string, n: number, timeoutMs = 30_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    const text = await fs.readFile(file, 'utf8').catch(() => '');
    if (text.split('\n').length - 1 >= n) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`${file} did not reach ${n} lines`);
}

describe('docex as a process', () => {
  it('piped: the lines on stdout, nothing on stderr but the summary, exit 1 when a file failed', async () => {
    const bads = await writeBadFiles(dir);
    const child = spawnCli(['extract', files[0]!, bads.text, bads.empty, bads.truncated, '--ocr', 'never']);
    expect(await exited(child)).toEqual({ code: 1, signal: null });
    const lines = parseLines(child.output.stdout);
    expect(lines.map((l) => l.file).sort()).toEqual([files[0], ...Object.values(bads)].sort());
    expect(child.output.stderr).toMatch(
      /^docex extract: 4 files, 1 page, 3 failed \(EMPTY_FILE 1, PDF_CORRUPT 1, UNSUPPORTED_FILE_TYPE 1\), [\d.]+ s \([\d.]+ files\/s\)\n$/,
    );
  });

  it('a closed pipe (docex ... | head -1) stops the batch with exit code 1, not a crash', async () => {
    const child = spawnCli(['extract', batch, '--ocr', 'never', '--concurrency', '1']);
    child.stdout!.once('data', () => child.stdout!.destroy());
    expect(await exited(child)).toEqual({ code: 1, signal: null });
    expect(child.output.stderr).toContain('the output could not be written (write EPIPE); stopped');
    expect(child.output.stderr).toMatch(/docex extract: \d+ files?, /);
  });

  it.each(['1', '2'])(
    'SIGINT stops starting files, lets those in flight finish, leaves valid JSON Lines and exits 130; --resume finishes (--threads %s)',
    async (threads) => {
      const out = path.join(dir, `interrupted-${threads}.jsonl`);
      const args = [
        'extract',
        batch,
        '--ocr',
        'never',
        '--product',
        'invoices:1',
        '--out',
        out,
        '--concurrency',
        '2',
        '--threads',
        threads,
      ];
      const child = spawnCli(args);
      await linesAtLeast(out, 3);
      child.kill('SIGINT');
      expect(await exited(child)).toEqual({ code: 130, signal: null });
      expect(child.output.stderr).toContain('interrupted: no new file is started');
      expect(child.output.stderr).toMatch(/interrupted: \d+ files not started; run again with --resume/);
      const done = await readLines(out); // throws on a partial or malformed line
      expect(done.length).toBeGreaterThanOrEqual(3);
      expect(done.length).toBeLessThan(files.length);
      expect(new Set(done.map((l) => l.file)).size).toBe(done.length);
      expect(done.every((l) => l.status === 'FINALISED')).toBe(true);

      const resumed = spawnCli([...args, '--resume']);
      expect(await exited(resumed)).toEqual({ code: 0, signal: null });
      expect(resumed.output.stderr).toContain(`${done.length} files skipped`);
      const all = await readLines(out);
      expect(all.slice(0, done.length)).toEqual(done);
      expect(all.map((l) => l.file).sort()).toEqual([...files].sort());
    },
  );

  it('SIGTERM stops a batch as Ctrl-C does: whole lines, the summary, exit 130, resumable', async () => {
    const out = path.join(dir, 'terminated.jsonl');
    const args = [
      'extract',
      batch,
      '--ocr',
      'never',
      '--product',
      'invoices:1',
      '--out',
      out,
      '--concurrency',
      '2',
    ];
    const child = spawnCli(args);
    await linesAtLeast(out, 3);
    child.kill('SIGTERM');
    expect(await exited(child)).toEqual({ code: 130, signal: null });
    expect(child.output.stderr).toMatch(/interrupted: \d+ files not started; run again with --resume/);
    const done = await readLines(out);
    expect(done.length).toBeGreaterThanOrEqual(3);
    expect(done.length).toBeLessThan(files.length);
    const resumed = spawnCli([...args, '--resume']);
    expect(await exited(resumed)).toEqual({ code: 0, signal: null });
    expect((await readLines(out)).map((l) => l.file).sort()).toEqual([...files].sort());
  });

  it.each(['1', '2'])(
    'a second SIGINT abandons the files in flight: still whole lines only, exit 130 (--threads %s)',
    async (threads) => {
      const out = path.join(dir, `abandoned-${threads}.jsonl`);
      const child = spawnCli([
        'extract',
        batch,
        '--ocr',
        'never',
        '--out',
        out,
        '--concurrency',
        '3',
        '--threads',
        threads,
      ]);
      await linesAtLeast(out, 1);
      child.kill('SIGINT');
      await new Promise((resolve) => setTimeout(resolve, 20));
      child.kill('SIGINT');
      expect(await exited(child)).toEqual({ code: 130, signal: null });
      expect(child.output.stderr).toContain('interrupted again');
      const lines = await readLines(out);
      expect(lines.length).toBeLessThan(files.length);
      expect(new Set(lines.map((l) => l.file)).size).toBe(lines.length);
    },
  );
});
