import { EncryptedPDFError, PDFDocument } from 'pdf-lib';
import { DocexError } from '../../core/errors.js';
import type { PdfPageCopier } from '../../ports/pdf-page-copier.js';
import { checkPdfBudget, DEFAULT_PDF_BUDGET, type PdfBudget } from './pdf-budget.js';

/**
 * PdfPageCopier with pdf-lib: each range becomes a new document holding copies of those pages. The
 * file is checked against `budget` first (src/adapters/pdf/pdf-budget.ts): pdf-lib inflates object
 * streams as it loads.
 */
export function createPdfLibCopier(options: { budget?: Partial<PdfBudget> } = {}): PdfPageCopier {
  const budget: PdfBudget = { ...DEFAULT_PDF_BUDGET, ...options.budget };
  return {
    async copyPages(pdf, ranges) {
      await checkPdfBudget(pdf, budget);
      let source: PDFDocument;
      try {
        source = await PDFDocument.load(pdf, { updateMetadata: false });
      } catch (error) {
        // pdf-lib's errors are compiled without their prototype chain: `instanceof` cannot tell them.
        if (error instanceof EncryptedPDFError || /\bis encrypted\b/.test(String((error as Error)?.message)))
          throw new DocexError('PDF_ENCRYPTED', 'The PDF is encrypted.');
        throw new DocexError('PDF_CORRUPT', 'The PDF could not be read to copy its pages.', { cause: error });
      }
      let count: number;
      try {
        count = source.getPageCount();
      } catch (error) {
        throw new DocexError('PDF_CORRUPT', 'The PDF could not be read to copy its pages.', { cause: error });
      }
      const out: Uint8Array[] = [];
      for (const [first, last] of ranges) {
        if (!(first >= 1 && last >= first && last <= count)) {
          throw new DocexError(
            'INVALID_ARGUMENT',
            `Pages ${first}-${last} are not in a document of ${count} pages.`,
          );
        }
        try {
          const child = await PDFDocument.create({ updateMetadata: false });
          const indices = Array.from({ length: last - first + 1 }, (_, i) => first - 1 + i);
          for (const page of await child.copyPages(source, indices)) child.addPage(page);
          out.push(await child.save());
        } catch (error) {
          throw new DocexError('PDF_CORRUPT', `Pages ${first}-${last} of the PDF could not be copied.`, {
            cause: error,
          });
        }
      }
      return out;
    },
  };
}
