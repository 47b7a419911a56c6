import { spawnSync } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  createNativeTesseractOcr,
  nativeTesseractVersion,
  parseTsv,
} from '../../../src/adapters/ocr/native-tesseract-ocr.js';
import { createTesseractOcr, englishModelDir } from '../../../src/adapters/ocr/tesseract-ocr.js';
import { defaultOcrEngine } from '../../../src/default-adapters.js';
import { INVOICE_LINES, makeTextPdf, renderPdfPage } from '../../helpers/make-documents.js';
import { ocrEngineContract } from '../../ports/ocr-engine.contract.js';

// CI installs Debian's tesseract-ocr (.ci/run), so there these tests always run; a developer's machine
// without the program skips them and says why.
const installed = spawnSync('tesseract', ['--version'], { stdio: 'ignore' }).status === 0;
if (!installed && !process.env.CI)
  console.warn('native OCR tests skipped: no tesseract program (apt-get install tesseract-ocr)');

async function invoiceImage(dpi = 150) {
  return renderPdfPage(await makeTextPdf([{ lines: INVOICE_LINES.slice(0, 4) }]), dpi);
}

describe('tesseract TSV', () => {
  it('keeps the words (level 5) with their boxes and confidences', () => {
    const tsv = [
      'level\tpage_num\tblock_num\tpar_num\tline_num\tword_num\tleft\ttop\twidth\theight\tconf\ttext',
      '1\t1\t0\t0\t0\t0\t0\t0\t1240\t1755\t-1\t',
      '4\t1\t1\t1\t1\t0\t68\t52\t48\t11\t-1\t',
      '5\t1\t1\t1\t1\t1\t68\t52\t48\t11\t96.5\tTotal',
      '5\t1\t1\t1\t1\t2\t130\t52\t40\t11\t12\t   ',
      '5\t1\t1\t1\t1\t3\t180\t50\t60\t13\t88\t$12.50',
      '',
    ].join('\n');
    expect(parseTsv(tsv)).toEqual([
      { text: 'Total', confidence: 0.965, x0: 68, y0: 52, x1: 116, y1: 63 },
      { text: '$12.50', confidence: 0.88, x0: 180, y0: 50, x1: 240, y1: 63 },
    ]);
  });
});

describe.skipIf(!installed && !process.env.CI)('native tesseract OCR', () => {
  ocrEngineContract('the tesseract program (native)', (options) => createNativeTesseractOcr(options));

  it('finds the program and its version', async () => {
    expect(await nativeTesseractVersion()).toMatch(/^5\.\d+/);
    expect(await nativeTesseractVersion('/nonexistent/tesseract')).toBeUndefined();
    // A program that runs but is not tesseract.
    expect(await nativeTesseractVersion('true')).toBeUndefined();
  });

  it('reads a page as the WebAssembly engine does: same model, same words', async () => {
    const image = await invoiceImage(150);
    const native = createNativeTesseractOcr({ workers: 1 });
    const wasm = createTesseractOcr({ workers: 1 });
    try {
      const [a, b] = await Promise.all([
        native.recognize(image, { dpi: 150 }),
        wasm.recognize(image, { dpi: 150 }),
      ]);
      expect(a.map((w) => w.text)).toEqual(b.map((w) => w.text));
      for (const [i, word] of a.entries()) {
        const other = b[i]!;
        for (const key of ['x0', 'y0', 'x1', 'y1'] as const)
          expect(Math.abs(word[key] - other[key])).toBeLessThanOrEqual(2);
      }
    } finally {
      await Promise.all([native.close(), wasm.close()]);
    }
  });

  it('fails clearly without the program or its language pack', async () => {
    const missing = createNativeTesseractOcr({ binary: '/nonexistent/tesseract', workers: 1 });
    await expect(missing.recognize(await invoiceImage(100))).rejects.toMatchObject({
      code: 'OCR_FAILED',
      message: expect.stringContaining('not found'),
    });
    await missing.close();
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'docex-lang-'));
    try {
      const noPack = createNativeTesseractOcr({ workers: 1, languages: [{ code: 'nope', dir }] });
      await expect(noPack.recognize(await invoiceImage(100))).rejects.toMatchObject({
        code: 'OCR_FAILED',
        message: expect.stringContaining('"nope"'),
      });
      await noPack.close();
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
    }
    expect(() => createNativeTesseractOcr({ languages: [] })).toThrowError(
      expect.objectContaining({ code: 'INVALID_ARGUMENT' }),
    );
    // A code that could pass for an option or a path is refused before any process starts.
    expect(() =>
      createNativeTesseractOcr({ languages: [{ code: '--psm', dir: englishModelDir() }] }),
    ).toThrowError(expect.objectContaining({ code: 'INVALID_ARGUMENT' }));
  });

  it('is the default engine when the program is there (auto), or when asked for; wasm when asked for', async () => {
    const image = await invoiceImage(100);
    for (const choice of ['auto', 'native', 'wasm'] as const) {
      const ocr = await defaultOcrEngine({ workers: 1 }, choice);
      try {
        // Only the tesseract.js pool counts its workers' pages.
        expect('stats' in ocr).toBe(choice === 'wasm');
        expect((await ocr.recognize(image)).map((w) => w.text)).toContain('INV-20931');
      } finally {
        await ocr.close();
      }
    }
    await expect(defaultOcrEngine({ binary: '/nonexistent/tesseract' }, 'native')).rejects.toMatchObject({
      code: 'OCR_FAILED',
      message: expect.stringContaining('apt-get install tesseract-ocr'),
    });
    // auto without the program: tesseract.js, which needs nothing installed.
    const fallback = await defaultOcrEngine({ binary: '/nonexistent/tesseract', workers: 1 }, 'auto');
    expect('stats' in fallback).toBe(true);
    await fallback.close();
  });
});
