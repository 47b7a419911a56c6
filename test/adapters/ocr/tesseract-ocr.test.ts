import { describe, expect, it } from 'vitest';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createTesseractOcr, englishModelDir } from '../../../src/adapters/ocr/tesseract-ocr.js';
import { INVOICE_LINES, makeTextPdf, renderPdfPage } from '../../helpers/make-documents.js';

async function invoiceImage(dpi = 150) {
  return renderPdfPage(await makeTextPdf([{ lines: INVOICE_LINES.slice(0, 4) }]), dpi);
}

describe('tesseract.js OCR pool', () => {
  it('recognises words with pixel boxes and confidences, offline', async () => {
    const ocr = createTesseractOcr({ workers: 1 });
    try {
      const image = await invoiceImage();
      const words = await ocr.recognize(image, { dpi: 150 });
      const number = words.find((w) => w.text === 'INV-20931');
      expect(number).toBeDefined();
      expect(number!.confidence).toBeGreaterThan(0.8);
      // At 150 dpi the word starts about 140 pt = 292 px from the left, baseline at 140 pt = 292 px.
      expect(number!.x0).toBeGreaterThan(270);
      expect(number!.x0).toBeLessThan(320);
      expect(number!.y1).toBeGreaterThan(280);
      expect(number!.y1).toBeLessThan(305);
    } finally {
      await ocr.close();
    }
  });

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

  it('fails one page that takes too long, replaces its worker, and serves the next call', async () => {
    const ocr = createTesseractOcr({ workers: 1, pageTimeoutMs: 1 });
    const image = await invoiceImage();
    await expect(ocr.recognize(image)).rejects.toMatchObject({ code: 'OCR_TIMEOUT' });
    expect(ocr.stats()).toMatchObject({ failures: 1, retired: 1, live: 0 });
    await ocr.close();

    const healthy = createTesseractOcr({ workers: 1 });
    try {
      const words = await healthy.recognize(image);
      expect(words.length).toBeGreaterThan(5);
    } finally {
      await healthy.close();
    }
  });

  it('survives an image the recogniser cannot read', async () => {
    const ocr = createTesseractOcr({ workers: 1 });
    try {
      // A 1 x 100000 strip: tesseract refuses it; the call fails or finds nothing, the process lives on.
      const strip = { width: 100_000, height: 1, data: new Uint8Array(100_000).fill(0) };
      const outcome = await ocr.recognize(strip).then(
        (words) => ({ words }),
        (error: unknown) => ({ error }),
      );
      if ('error' in outcome) expect(outcome.error).toMatchObject({ code: 'OCR_FAILED' });
      else expect(outcome.words).toEqual([]);
      const words = await ocr.recognize(await invoiceImage(100));
      expect(words.map((w) => w.text)).toContain('INV-20931');
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

  it('refuses calls after close, including queued ones', async () => {
    const ocr = createTesseractOcr({ workers: 1 });
    const image = await invoiceImage(100);
    const first = ocr.recognize(image);
    const queued = ocr.recognize(image);
    await ocr.close();
    await expect(queued).rejects.toMatchObject({ code: 'ENGINE_CLOSED' });
    await first.catch(() => undefined);
    await expect(ocr.recognize(image)).rejects.toMatchObject({ code: 'ENGINE_CLOSED' });
    expect(ocr.stats().live).toBe(0);
  });
});
