import { afterEach, describe, expect, it } from 'vitest';
import { createPdfWorkerPool, type PdfWorkerPool } from '../../../src/adapters/pdf/pdf-worker-pool.js';
import type { PdfReader } from '../../../src/ports/pdf-reader.js';
import { INVOICE_LINES, makeTextPdf } from '../../helpers/make-documents.js';
import {
  flateContentBomb,
  jpegHeaderBomb,
  longString,
  manyImages,
  nestedSaves,
} from '../../../support/hostile-pdfs.js';
import { pdfPageCopierContract } from '../../ports/pdf-page-copier.contract.js';
import { pdfReaderContract } from '../../ports/pdf-reader.contract.js';

pdfReaderContract('pdf.js in bounded worker threads', async () => {
  const pool = createPdfWorkerPool();
  return { reader: pool, close: () => pool.close() };
});

pdfPageCopierContract('pdf-lib in bounded worker threads', async () => {
  const pool = createPdfWorkerPool();
  return { copier: pool, close: () => pool.close() };
});

/** Reads every page's text (and, for pages with pictures, a rendering): what ingestion asks of a reader. */
async function readAll(reader: PdfReader, pdf: Uint8Array): Promise<string> {
  const doc = await reader.open(pdf);
  try {
    const words: string[] = [];
    for (let n = 1; n <= doc.pageCount; n++) {
      const page = await doc.page(n);
      words.push(...(await page.textRuns()).map((r) => r.text));
      if (await page.hasImages()) await page.render({ dpi: 72, maxPixels: 4_000_000 });
      page.release();
    }
    return words.join(' ');
  } finally {
    await doc.close();
  }
}

describe('PDF worker pool: bounds on hostile documents', () => {
  let pool: PdfWorkerPool | undefined;
  afterEach(async () => {
    await pool?.close();
    pool = undefined;
  });
  const invoice = () => makeTextPdf([{ lines: INVOICE_LINES }]);

  it('stops a page that never finishes (graphics state saved 300,000 times) with PDF_TOO_COMPLEX, then reads on', async () => {
    pool = createPdfWorkerPool({ workers: 1, callTimeoutMs: 3000 });
    await expect(readAll(pool, nestedSaves(300_000))).rejects.toMatchObject({ code: 'PDF_TOO_COMPLEX' });
    expect(pool.stats().ended.timeout).toBe(1);
    // The one thread was replaced: the next document is read.
    expect(await readAll(pool, await invoice())).toContain('TAX INVOICE');
    expect(pool.stats().started).toBe(2);
  });

  it('bounds all calls of one document together (documentTimeoutMs), each call within its own limit', async () => {
    pool = createPdfWorkerPool({ workers: 1, callTimeoutMs: 600_000, documentTimeoutMs: 1000 });
    await expect(readAll(pool, nestedSaves(300_000))).rejects.toMatchObject({ code: 'PDF_TOO_COMPLEX' });
    expect(pool.stats().ended.timeout).toBe(1);
  });

  it('ends a thread past its JavaScript heap limit with PDF_RESOURCE_LIMIT', async () => {
    // One string of 20 million characters in a 20 KB file: pdf.js builds its text out of JavaScript objects.
    // Time limits far beyond what reaching the limit takes on any machine: the limit decides.
    pool = createPdfWorkerPool({
      workers: 1,
      heapMb: 128,
      callTimeoutMs: 600_000,
      documentTimeoutMs: 600_000,
    });
    await expect(readAll(pool, longString(20_000_000))).rejects.toMatchObject({ code: 'PDF_RESOURCE_LIMIT' });
    expect(pool.stats().ended.heap).toBe(1);
  });

  it('ends the thread whose pictures fill memory (PDF_RESOURCE_LIMIT) while another document beside it is read', async () => {
    // 40 pictures of 36 million pixels, each within the per-picture limits: 1.4 GB once decoded.
    pool = createPdfWorkerPool({
      workers: 2,
      memoryBudgetMb: 256,
      callTimeoutMs: 600_000,
      documentTimeoutMs: 600_000,
    });
    const [bomb, fine] = await Promise.allSettled([
      readAll(pool, manyImages(40, 6000)),
      readAll(pool, await invoice()),
    ]);
    expect(bomb).toMatchObject({ status: 'rejected', reason: { code: 'PDF_RESOURCE_LIMIT' } });
    expect(fine, String((fine as PromiseRejectedResult).reason)).toMatchObject({ status: 'fulfilled' });
    expect((fine as PromiseFulfilledResult<string>).value).toContain('TAX INVOICE');
    expect(pool.stats().ended.memory).toBeGreaterThanOrEqual(1);
  });

  it('refuses pictures over the pixel limit and streams inflating past the stream limit before pdf.js reads them', async () => {
    pool = createPdfWorkerPool({ workers: 1 });
    // A 16 x 16 JPEG whose header says 65,000 x 65,000, and a content stream of 1 MB inflating to 256 MB.
    await expect(pool.open(jpegHeaderBomb(65_000))).rejects.toMatchObject({
      code: 'PDF_RESOURCE_LIMIT',
      message: expect.stringContaining('65000 x 65000'),
    });
    await expect(pool.open(flateContentBomb(256))).rejects.toMatchObject({
      code: 'PDF_RESOURCE_LIMIT',
      message: expect.stringContaining('64 MB'),
    });
    // Refused without ending a thread.
    expect(pool.stats()).toMatchObject({ started: 1, ended: { memory: 0, heap: 0, timeout: 0 } });
  });

  it('reads a page whose picture hides a huge JPEG behind a filter given by reference: the picture is left out', async () => {
    // The raw-bytes check cannot see this one; the cap on single allocations in the thread stops the
    // decoder, and the page is read without the picture.
    pool = createPdfWorkerPool({ workers: 1 });
    expect(await readAll(pool, jpegHeaderBomb(65_000, 16, { hidden: true }))).toContain('Total 10.00');
    expect(pool.stats().ended).toMatchObject({ memory: 0, heap: 0, timeout: 0, crash: 0 });
  });

  it('replaces a thread after recycleAfterDocuments documents, and refuses work once closed', async () => {
    pool = createPdfWorkerPool({ workers: 1, recycleAfterDocuments: 2 });
    for (let i = 0; i < 3; i++) expect(await readAll(pool, await invoice())).toContain('TAX INVOICE');
    expect(pool.stats()).toMatchObject({ started: 2, ended: { recycled: 1 } });
    const open = await pool.open(await invoice());
    await pool.close();
    await expect((await open.page(1).catch((e: unknown) => e)) as object).toMatchObject({
      code: 'ENGINE_CLOSED',
    });
    await expect(pool.open(await invoice())).rejects.toMatchObject({ code: 'ENGINE_CLOSED' });
  });
});
