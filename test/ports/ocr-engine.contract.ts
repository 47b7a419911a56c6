import { describe, expect, it } from 'vitest';
import type { GreyImage } from '../../src/ports/image-backend.js';
import type { OcrEngine } from '../../src/ports/ocr-engine.js';
import { INVOICE_LINES, makeTextPdf, renderPdfPage } from '../helpers/make-documents.js';

export type MakeOcrEngine = (options: { workers?: number; pageTimeoutMs?: number }) => OcrEngine;

async function invoiceImage(dpi = 150): Promise<GreyImage> {
  return renderPdfPage(await makeTextPdf([{ lines: INVOICE_LINES.slice(0, 4) }]), dpi);
}

/**
 * The OcrEngine contract (src/ports/ocr-engine.ts): every implementation (tesseract.js's WebAssembly
 * workers, the host's tesseract program) passes these.
 */
export function ocrEngineContract(name: string, make: MakeOcrEngine): void {
  describe(`OcrEngine contract: ${name}`, () => {
    it('recognises words with pixel boxes and confidences, offline', async () => {
      const ocr = make({ workers: 1 });
      try {
        const words = await ocr.recognize(await invoiceImage(), { dpi: 150 });
        const number = words.find((w) => w.text === 'INV-20931');
        expect(number).toBeDefined();
        expect(number!.confidence).toBeGreaterThan(0.8);
        expect(number!.confidence).toBeLessThanOrEqual(1);
        // At 150 dpi the word starts about 140 pt = 292 px from the left, baseline at 140 pt = 292 px.
        expect(number!.x0).toBeGreaterThan(270);
        expect(number!.x0).toBeLessThan(320);
        expect(number!.y1).toBeGreaterThan(280);
        expect(number!.y1).toBeLessThan(305);
        expect(number!.x1).toBeGreaterThan(number!.x0);
        expect(number!.y1).toBeGreaterThan(number!.y0);
        const texts = words.map((w) => w.text);
        expect(texts).toEqual(expect.arrayContaining(['ACME', 'Supplies', 'Invoice', 'March', '2024']));
      } finally {
        await ocr.close();
      }
    });

    it('says how many pages it reads at once, and answers overlapping calls each with its own page', async () => {
      const ocr = make({ workers: 2 });
      try {
        expect(ocr.concurrency).toBe(2);
        const invoice = await invoiceImage(100);
        const other = await renderPdfPage(
          await makeTextPdf([{ lines: [{ text: 'Receipt 7781 Paid', x: 50, y: 100, size: 24 }] }]),
          100,
        );
        const results = await Promise.all([invoice, other, invoice, other].map((i) => ocr.recognize(i)));
        for (const [i, words] of results.entries()) {
          const texts = words.map((w) => w.text);
          if (i % 2 === 0) expect(texts).toContain('INV-20931');
          else expect(texts).toEqual(['Receipt', '7781', 'Paid']);
        }
      } finally {
        await ocr.close();
      }
    });

    it('reads a blank or empty image as no words', async () => {
      const ocr = make({ workers: 1 });
      try {
        expect(await ocr.recognize({ width: 0, height: 0, data: new Uint8Array(0) })).toEqual([]);
        const blank = { width: 400, height: 300, data: new Uint8Array(400 * 300).fill(255) };
        expect(await ocr.recognize(blank)).toEqual([]);
      } finally {
        await ocr.close();
      }
    });

    it('fails a page that takes too long with OCR_TIMEOUT, and keeps serving', async () => {
      const slow = make({ workers: 1, pageTimeoutMs: 1 });
      const image = await invoiceImage();
      await expect(slow.recognize(image)).rejects.toMatchObject({ code: 'OCR_TIMEOUT' });
      await slow.close();
      const healthy = make({ workers: 1 });
      try {
        expect((await healthy.recognize(image)).length).toBeGreaterThan(5);
      } finally {
        await healthy.close();
      }
    });

    it('survives an image the recogniser cannot read, and reads the next one', async () => {
      const ocr = make({ workers: 1 });
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

    it('refuses calls after close, the queued ones included', async () => {
      const ocr = make({ workers: 1 });
      const image = await invoiceImage(100);
      const first = ocr.recognize(image);
      const queued = ocr.recognize(image);
      await ocr.close();
      await expect(queued).rejects.toMatchObject({ code: 'ENGINE_CLOSED' });
      await first.catch(() => undefined);
      await expect(ocr.recognize(image)).rejects.toMatchObject({ code: 'ENGINE_CLOSED' });
    });
  });
}
