/**
 * TIFF and GIF files through the command line in a child process (tsx, which loads CommonJS packages
 * as Node does, unlike the test runner): a directory walk picks them up and `docex ingest` reads every
 * page of a two-page TIFF. Guards the way utif2 is imported (its functions are on `default` under Node).
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

import { afterAll, describe, expect, it } from 'vitest';

import {
  encodeGif,
  encodeTiff,
  INVOICE_LINES,
  makeTextPdf,
  renderPdfPage,
} from '../helpers/make-documents.js';
import { SECOND_INVOICE_LINES } from '../http/harness.js';
import { exited, spawnCli } from './cli-helpers.js';

let dir = '';
afterAll(() => (dir ? fs.rm(dir, { recursive: true, force: true }) : undefined));

describe('docex ingest on TIFF and GIF files (child process)', () => {
  it('walks them in a directory and reads every page', { timeout: 120_000 }, async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'docex-paged-cli-'));
    const pdf = await makeTextPdf([{ lines: INVOICE_LINES }, { lines: SECOND_INVOICE_LINES }]);
    const pages = [await renderPdfPage(pdf, 150, 1), await renderPdfPage(pdf, 150, 2)];
    await fs.writeFile(path.join(dir, 'fax.tif'), encodeTiff(pages));
    await fs.writeFile(path.join(dir, 'scan.gif'), encodeGif(pages[0]!));
    const child = spawnCli(['ingest', dir, '--text', '--threads', '1']);
    const { code } = await exited(child);
    expect(code, child.output.stderr).toBe(0);
    const lines = child.output.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { file: string; pages: unknown[]; text?: string });
    const byName = new Map(lines.map((l) => [path.basename(l.file), l]));
    expect(byName.get('fax.tif')?.pages).toHaveLength(2);
    expect(byName.get('fax.tif')?.text).toContain('BT-77120');
    expect(byName.get('scan.gif')?.pages).toHaveLength(1);
    expect(byName.get('scan.gif')?.text).toContain('INV-20931');
  });
});
