/**
 * Files holding several documents one after another, as a scanner's batch or a mail merge makes them:
 * invoices of invented suppliers, each 1 to 4 pages, with or without printed page numbers, optionally
 * separated by blank sheets. The generator is seeded (the same options give the same bytes) and hands
 * back where each document truly starts and ends, for the split tests to compare with.
 */
import { encodeImage, makeImagePdf, makeTextPdf, renderPdfPage, type TextPage } from './make-documents.js';
import { type Random, SUPPLIERS, type Supplier, seeded } from '../../support/multi-data.js';
import { drawDocument, type DrawnDocument, MARK_STYLES, type MarkStyle } from '../../support/multi-draw.js';

export { seeded, SUPPLIERS, type MarkStyle, type Random, type Supplier };

export interface MultiOptions {
  seed: number;
  /** Number of documents, 1 to 20. */
  documents: number;
  /** Pages of each document, drawn in [min, max] (default 1 to 4). */
  pages?: { min: number; max: number };
  /** Exact pages of each document (overrides `pages`). */
  pageCounts?: readonly number[];
  /**
   * Printed page numbers: `true` every document has them (a style drawn per document), `false` none,
   * a number: the chance that a document has them. A style or list of styles to draw from may be given.
   */
  pageMarks?: boolean | number;
  markStyles?: readonly MarkStyle[];
  /** Chance that a document is from the same supplier as the one before it (default 0.15). */
  sameSupplier?: number;
  /** Chance that a continuation page repeats a small header with the invoice number (default 0.5). */
  repeatHeader?: number;
  /** A blank sheet between documents: `true` between all, a number: the chance of one after each. */
  blankSeparators?: boolean | number;
}

export interface GeneratedDocument extends DrawnDocument {
  /** Pages of the file this document occupies (1-based, inclusive). */
  pages: [number, number];
  markStyle?: MarkStyle;
}

export interface MultiDocument {
  pdf: Uint8Array;
  /** The drawn pages (blank separators included): what each page says. */
  pages: TextPage[];
  /** The true segments: each document's [first, last] page, blank separators excluded. */
  segments: Array<[number, number]>;
  documents: GeneratedDocument[];
  /** Pages that are blank separators (1-based). */
  blankPages: number[];
  /** The pages' text, one block per page, for failure reports. */
  describe(): string;
}

/** A seeded multi-document text PDF and its truth. */
export async function makeMultiDocument(options: MultiOptions): Promise<MultiDocument> {
  const random = seeded(options.seed);
  const count = Math.max(1, Math.min(20, options.documents));
  const range = options.pages ?? { min: 1, max: 4 };
  const styles = options.markStyles ?? MARK_STYLES;
  const markChance =
    options.pageMarks === true ? 1 : options.pageMarks === false ? 0 : (options.pageMarks ?? 0);
  const separatorChance =
    options.blankSeparators === true
      ? 1
      : options.blankSeparators === false
        ? 0
        : (options.blankSeparators ?? 0);
  const pages: TextPage[] = [];
  const documents: GeneratedDocument[] = [];
  const blankPages: number[] = [];
  const usedNumbers = new Set<string>();
  let supplierIndex = random.int(0, SUPPLIERS.length - 1);
  for (let d = 0; d < count; d++) {
    if (d > 0) {
      if (separatorChance > 0 && random.chance(separatorChance)) {
        pages.push({ lines: [] });
        blankPages.push(pages.length);
      }
      if (!random.chance(options.sameSupplier ?? 0.15)) {
        supplierIndex = (supplierIndex + random.int(1, SUPPLIERS.length - 1)) % SUPPLIERS.length;
      }
    }
    const supplier = SUPPLIERS[supplierIndex]!;
    const pageCount = Math.max(1, options.pageCounts?.[d] ?? random.int(range.min, range.max));
    const markStyle = random.chance(markChance) ? random.pick(styles) : undefined;
    const first = pages.length + 1;
    const drawn = drawDocument(
      random,
      supplier,
      pageCount,
      markStyle,
      options.repeatHeader ?? 0.5,
      usedNumbers,
    );
    pages.push(...drawn.pages);
    documents.push({
      ...drawn.document,
      pages: [first, pages.length],
      ...(markStyle ? { markStyle } : {}),
    });
  }
  const pdf = await makeTextPdf(pages);
  return {
    pdf,
    pages,
    segments: documents.map((d) => d.pages),
    documents,
    blankPages,
    describe: () => describePages(pages),
  };
}

/** The text of drawn pages, top to bottom, for a failure report. */
export function describePages(pages: readonly TextPage[]): string {
  return pages
    .map((page, i) => {
      const lines = [...page.lines].sort((a, b) => a.y - b.y || a.x - b.x);
      const text = lines.length === 0 ? '    (blank)' : lines.map((l) => `    ${l.text}`).join('\n');
      return `  page ${i + 1}:\n${text}`;
    })
    .join('\n');
}

/**
 * The same file as a scan: every page rendered at `dpi` (grey, JPEG) and placed as an image on a page
 * of its own, as a scanner would deliver it. Blank separators stay (near) white.
 */
export async function makeScannedMulti(
  doc: MultiDocument,
  dpi = 150,
  format: 'png' | 'jpeg' = 'jpeg',
): Promise<Uint8Array> {
  const images: Uint8Array[] = [];
  for (let pageNum = 1; pageNum <= doc.pages.length; pageNum++) {
    images.push(await encodeImage(await renderPdfPage(doc.pdf, dpi, pageNum), format));
  }
  return makeImagePdf(images);
}
