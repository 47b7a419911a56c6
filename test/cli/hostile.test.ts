/**
 * The hostile corpus through `docex extract` as a child process with its defaults: every file ends with
 * its error line (the same codes as the library), the process's peak memory stays bounded, alone and
 * with four hostile files at once. Inputs that are not regular files are refused, not waited on.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  flateContentBomb,
  flateImageBomb,
  jpegHeaderBomb,
  longString,
  manyImages,
} from '../../support/hostile-pdfs.js';
import { exited, invoicePdf, parseLines, peakRssMb, spawnCli } from './cli-helpers.js';

/** The codes of a file that needs too much memory: memory's, or time's when a busy machine gets there first. */
const RESOURCE = /^PDF_(RESOURCE_LIMIT|TOO_COMPLEX)$/;

let dir: string;
beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'docex-hostile-cli-'));
});
afterAll(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

async function writeAll(sub: string, files: Record<string, Uint8Array>): Promise<string> {
  const folder = path.join(dir, sub);
  await fs.mkdir(folder, { recursive: true });
  for (const [name, bytes] of Object.entries(files)) await fs.writeFile(path.join(folder, name), bytes);
  return folder;
}

function codes(stdout: string): Record<string, string> {
  return Object.fromEntries(
    parseLines(stdout).map((line) => [
      path.basename(line.file as string),
      (line.error as { code?: string } | undefined)?.code ?? (line.status as string),
    ]),
  );
}

describe('docex extract on hostile files', () => {
  it(
    'gives each its error line within bounded memory and reads the ordinary file among them',
    { timeout: 180_000 },
    async () => {
      const folder = await writeAll('one-by-one', {
        'a-jpeg-header.pdf': jpegHeaderBomb(65_000),
        'b-flate-content.pdf': flateContentBomb(1024),
        'c-flate-image.pdf': flateImageBomb(60_000, 64),
        'd-long-string.pdf': longString(20_000_000),
        'e-invoice.pdf': await invoicePdf(),
        'f-many-images.pdf': manyImages(40, 6000),
      });
      const child = spawnCli(['extract', folder, '--concurrency', '1', '--threads', '1'], undefined, {
        peakMemory: true,
      });
      const { code } = await exited(child);
      expect(code, child.output.stderr).toBe(1);
      // Files refused by their declared sizes always get the memory code; files that fill memory get it,
      // or time's when a busy machine reaches the time limit first (the memory is bounded either way).
      expect(codes(child.output.stdout)).toEqual({
        'a-jpeg-header.pdf': 'PDF_RESOURCE_LIMIT',
        'b-flate-content.pdf': 'PDF_RESOURCE_LIMIT',
        'c-flate-image.pdf': 'PDF_RESOURCE_LIMIT',
        'd-long-string.pdf': expect.stringMatching(RESOURCE),
        'e-invoice.pdf': 'FINALISED',
        'f-many-images.pdf': expect.stringMatching(RESOURCE),
      });
      expect(peakRssMb(child.output.stderr)).toBeLessThan(1536);
    },
  );

  // No timing is asserted: a loaded machine may take minutes over four such files.
  it('reads four hostile files at once (--concurrency 4) within 2 GB', { timeout: 300_000 }, async () => {
    const folder = await writeAll('four', {
      '1.pdf': manyImages(40, 6000),
      '2.pdf': longString(20_000_000),
      '3.pdf': manyImages(40, 6000),
      '4.pdf': longString(20_000_000),
    });
    const child = spawnCli(['extract', folder, '--concurrency', '4', '--threads', '1'], undefined, {
      peakMemory: true,
    });
    const { code } = await exited(child);
    expect(code, child.output.stderr).toBe(1);
    const ended = Object.values(codes(child.output.stdout));
    expect(ended).toHaveLength(4);
    for (const code of ended) expect(code).toMatch(RESOURCE);
    expect(peakRssMb(child.output.stderr)).toBeLessThan(2048);
  });

  it('refuses a FIFO named as input with an error line instead of waiting on it', async () => {
    const fifo = path.join(dir, 'waiting.pdf');
    execFileSync('mkfifo', [fifo]);
    const child = spawnCli(['extract', fifo, '--threads', '1']);
    const { code } = await exited(child);
    expect(code).toBe(1);
    expect(parseLines(child.output.stdout)).toEqual([
      { file: fifo, error: { code: 'IO_ERROR', message: `${fifo} is a FIFO, not a regular file.` } },
    ]);
  });

  it('refuses rules nested thousands deep as a usage error, with engine threads too', async () => {
    const rules = path.join(dir, 'deep.json');
    await fs.writeFile(
      rules,
      '{"schema": true, "data": ' + '{"a":'.repeat(20_000) + '1' + '}'.repeat(20_000) + '}',
    );
    const pdf = path.join(dir, 'one.pdf');
    await fs.writeFile(pdf, await invoicePdf());
    const child = spawnCli(['validate', pdf, '--product', 'invoices:2', '--rules', rules, '--threads', '2']);
    const { code } = await exited(child);
    expect(code).toBe(2);
    expect(child.output.stderr).toContain('INVALID_RULES');
  });
});
