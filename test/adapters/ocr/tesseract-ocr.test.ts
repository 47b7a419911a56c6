import { describe, expect, it } from 'vitest';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createTesseractOcr, englishModelDir } from '../../../src/adapters/ocr/tesseract-ocr.js';
import { INVOICE_LINES, makeTextPdf, renderPdfPage } from '../../helpers/make-documents.js';
import { ocrEngineContract } from '../../ports/ocr-engine.contract.js';

ocrEngineContract('tesseract.js (WebAssembly workers)', (options) => createTesseractOcr(options));

async function invoiceImage(dpi = 150) {
  return renderPdfPage(await makeTextPdf([{ lines: INVOICE_LINES.slice(0, 4) }]), dpi);
}

describe('tesseract.js OCR pool', () => {
  it('runs calls on up to `workers` workers and recycles a worker after N pages', async () => {
    const ocr = createTesseractOcr({ workers: 2, recycleAfterPages: 2 });
    try {
      const image = await invoiceImage(100);
      const results = await Promise.all(Array.from({ length: 4 }, () => ocr.recognize(image)));
      for (const words of results) expect(words.map((w) => w.text)).toContain('INV-20931');
      const stats = ocr.stats();
      expect(stats.pages).toBe(4);
      expect(stats.started).toBe(2);
      expect(stats.retired).toBe(2);
      expect(stats.live).toBe(0);
    } finally {
      await ocr.close();
    }
  });

  it('takes further language packs from a folder, and fails clearly on a missing one', async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'docex-lang-'));
    try {
      // A host's folder of packs (English data under a second code stands in for another language).
      await fs.copyFile(
        path.join(englishModelDir(), 'eng.traineddata.gz'),
        path.join(dir, 'eng.traineddata.gz'),
      );
      await fs.copyFile(
        path.join(englishModelDir(), 'eng.traineddata.gz'),
        path.join(dir, 'extra.traineddata.gz'),
      );
      const ocr = createTesseractOcr({
        workers: 1,
        languages: [
          { code: 'eng', dir },
          { code: 'extra', dir },
        ],
      });
      try {
        const words = await ocr.recognize(await invoiceImage(100));
        expect(words.map((w) => w.text)).toContain('INV-20931');
      } finally {
        await ocr.close();
      }
      const missing = createTesseractOcr({ workers: 1, languages: [{ code: 'nope', dir }] });
      await expect(missing.recognize(await invoiceImage(100))).rejects.toMatchObject({ code: 'OCR_FAILED' });
      await missing.close();
      expect(() => createTesseractOcr({ languages: [] })).toThrowError(
        expect.objectContaining({ code: 'INVALID_ARGUMENT' }),
      );
      expect(() =>
        createTesseractOcr({
          languages: [
            { code: 'eng', dir: englishModelDir() },
            { code: 'extra', dir },
          ],
        }),
      ).toThrowError(expect.objectContaining({ code: 'INVALID_ARGUMENT' }));
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
    }
  });
});
