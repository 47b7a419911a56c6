import { PDFDocument } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPdfjsReader } from '../../src/adapters/pdf/pdfjs-reader.js';
import type { PdfPageCopier } from '../../src/ports/pdf-page-copier.js';
import { makeEncryptedPdf, makeTextPdf } from '../helpers/make-documents.js';

export type MakePdfPageCopier = () => Promise<{ copier: PdfPageCopier; close?: () => Promise<void> }>;

/** The PdfPageCopier contract (src/ports/pdf-page-copier.ts), for pdf-lib here and in the worker pool. */
export function pdfPageCopierContract(name: string, make: MakePdfPageCopier): void {
  describe(`PdfPageCopier contract: ${name}`, () => {
    let copier: PdfPageCopier;
    let close: (() => Promise<void>) | undefined;
    beforeAll(async () => {
      ({ copier, close } = await make());
    });
    afterAll(async () => {
      await close?.();
    });

    it('copies 1-based inclusive ranges into new documents, pages in order', async () => {
      const pages = ['one', 'two', 'three', 'four'].map((text) => ({ lines: [{ text, x: 50, y: 100 }] }));
      const pdf = await makeTextPdf(pages);
      const children = await copier.copyPages(pdf, [
        [1, 1],
        [2, 4],
      ]);
      expect(children).toHaveLength(2);
      const counts = await Promise.all(children.map(async (c) => (await PDFDocument.load(c)).getPageCount()));
      expect(counts).toEqual([1, 3]);
      // The copies are the original's pages (their text), not renderings.
      const doc = await createPdfjsReader().open(children[1]!);
      const texts = [];
      for (let n = 1; n <= doc.pageCount; n++) texts.push((await (await doc.page(n)).textRuns())[0]?.text);
      await doc.close();
      expect(texts).toEqual(['two', 'three', 'four']);
      // The original is untouched.
      expect((await PDFDocument.load(pdf)).getPageCount()).toBe(4);
    });

    it('refuses a range outside the document, an encrypted and a damaged PDF with their codes', async () => {
      const pdf = await makeTextPdf([{ lines: [{ text: 'one', x: 50, y: 100 }] }]);
      await expect(copier.copyPages(pdf, [[1, 2]])).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
      await expect(copier.copyPages(await makeEncryptedPdf(), [[1, 1]])).rejects.toMatchObject({
        code: 'PDF_ENCRYPTED',
      });
      await expect(
        copier.copyPages(new TextEncoder().encode('%PDF-1.4 nonsense'), [[1, 1]]),
      ).rejects.toMatchObject({
        code: 'PDF_CORRUPT',
      });
    });
  });
}
