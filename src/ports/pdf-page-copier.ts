/**
 * Makes new PDFs from page ranges of a PDF, copying the pages (content, fonts, images) rather than
 * rendering them, so a split child is as sharp and as searchable as its parent.
 * Ranges are 1-based and inclusive. Throws DocexError PDF_CORRUPT or PDF_ENCRYPTED for a PDF it cannot read.
 */
export interface PdfPageCopier {
  copyPages(pdf: Uint8Array, ranges: ReadonlyArray<readonly [number, number]>): Promise<Uint8Array[]>;
}
