import { EncryptedPDFError, PDFDocument } from 'pdf-lib';
import { DocexError } from '../../core/errors.js';
import type { PdfPageCopier } from '../../ports/pdf-page-copier.js';

/** PdfPageCopier with pdf-lib: each range becomes a new document holding copies of those pages. */
export function createPdfLibCopier(): PdfPageCopier {
  return {
    async copyPages(pdf, ranges) {
      let source: PDFDocument;
      try {
        source = await PDFDocument.load(pdf, { updateMetadata: false });
      } catch (error) {
        if (error instanceof EncryptedPDFError)
          throw new DocexError('PDF_ENCRYPTED', 'The PDF is encrypted.');
        throw new DocexError('PDF_CORRUPT', 'The PDF could not be read to copy its pages.', { cause: error });
      }
      const count = source.getPageCount();
      const out: Uint8Array[] = [];
      for (const [first, last] of ranges) {
        if (!(first >= 1 && last >= first && last <= count)) {
          throw new DocexError(
            'INVALID_ARGUMENT',
            `Pages ${first}-${last} are not in a document of ${count} pages.`,
          );
        }
        const child = await PDFDocument.create({ updateMetadata: false });
        const indices = Array.from({ length: last - first + 1 }, (_, i) => first - 1 + i);
        for (const page of await child.copyPages(source, indices)) child.addPage(page);
        out.push(await child.save());
      }
      return out;
    },
  };
}
