/**
 * Files holding several documents one after another, as a scanner's batch or a mail merge makes them:
 * invoices of invented suppliers, each 1 to 4 pages, with or without printed page numbers, optionally
 * separated by blank sheets. The generator is seeded (the same options give the same bytes) and hands
 * back where each document truly starts and ends, for the split tests to compare with.
 */
import {
  encodeImage,
  makeImagePdf,
  makeTextPdf,
  renderPdfPage,
  type TextLine,
  type TextPage,
} from './make-documents.js';
import {
  CUSTOMERS,
  ITEMS,
  LABELS,
  type Language,
  MONTHS,
  type Random,
  SUPPLIERS,
  type Supplier,
  seeded,
} from '../../bench/lib/multi-data.js';

export { seeded, SUPPLIERS, type Random, type Supplier };

export type MarkStyle = 'page-of' | 'seite' | 'page-slash' | 'bare-fraction' | 'dashed';

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

export interface GeneratedDocument {
  supplier: string;
  taxId: string;
  title: string;
  number: string;
  date: string;
  currency: string;
  /** The grand total as printed, and as a number. */
  total: string;
  totalValue: number;
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

const ROW_HEIGHT = 16;

/** A seeded multi-document text PDF and its truth. */
export async function makeMultiDocument(options: MultiOptions): Promise<MultiDocument> {
  const random = seeded(options.seed);
  const count = Math.max(1, Math.min(20, options.documents));
  const range = options.pages ?? { min: 1, max: 4 };
  const styles = options.markStyles ?? ['page-of', 'seite', 'page-slash', 'bare-fraction', 'dashed'];
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

function drawDocument(
  random: Random,
  supplier: Supplier,
  pageCount: number,
  markStyle: MarkStyle | undefined,
  repeatHeader: number,
  usedNumbers: Set<string>,
): { pages: TextPage[]; document: Omit<GeneratedDocument, 'pages' | 'markStyle'> } {
  const labels = LABELS[supplier.language];
  const title = random.pick(supplier.titles);
  let number = supplier.number(random.int(1, 9999));
  while (usedNumbers.has(number)) number = supplier.number(random.int(1, 9999));
  usedNumbers.add(number);
  const day = random.int(1, 28);
  const month = random.int(1, 12);
  const year = random.pick([2023, 2024, 2025]);
  const date =
    supplier.language === 'de'
      ? `${pad(day)}.${pad(month)}.${year}`
      : supplier.language === 'fr'
        ? `${pad(day)}/${pad(month)}/${year}`
        : `${day} ${MONTHS[month - 1]} ${year}`;
  const dueMonth = (month % 12) + 1;
  const due =
    supplier.language === 'en'
      ? `${day} ${MONTHS[dueMonth - 1]} ${dueMonth === 1 ? year + 1 : year}`
      : supplier.language === 'de'
        ? `${pad(day)}.${pad(dueMonth)}.${dueMonth === 1 ? year + 1 : year}`
        : `${pad(day)}/${pad(dueMonth)}/${dueMonth === 1 ? year + 1 : year}`;
  const customer = random.pick(CUSTOMERS);
  const repeat = random.chance(repeatHeader);
  const titleRight = random.chance(0.5);

  // Rows per page: the first page has its header, the last one its totals.
  const capacity = (index: number): number => {
    const top = index === 0 ? 290 : repeat ? 110 : 70;
    const bottom = index === pageCount - 1 ? 660 : 770;
    return Math.floor((bottom - top) / ROW_HEIGHT);
  };
  const rowsPerPage = Array.from({ length: pageCount }, (_, i) => {
    const max = capacity(i);
    return pageCount === 1 ? random.int(2, Math.min(8, max)) : random.int(Math.ceil(max * 0.6), max);
  });

  let subtotal = 0;
  const pages: TextPage[] = [];
  for (let index = 0; index < pageCount; index++) {
    const lines: TextLine[] = [];
    let y: number;
    if (index === 0) {
      if (titleRight) {
        lines.push({ text: supplier.name, x: 50, y: 60, size: 15, bold: true });
        lines.push({ text: title, x: 400, y: 60, size: 18, bold: true });
      } else {
        lines.push({ text: title, x: 50, y: 55, size: 20, bold: true });
        lines.push({ text: supplier.name, x: 320, y: 55, size: 13, bold: true });
      }
      const left = titleRight ? 50 : 320;
      lines.push({ text: supplier.address[0], x: left, y: 80, size: 10 });
      lines.push({ text: supplier.address[1], x: left, y: 94, size: 10 });
      lines.push({ text: supplier.taxLine, x: left, y: 108, size: 10 });
      lines.push({ text: labels.billTo, x: 50, y: 150, size: 10, bold: true });
      customer.forEach((text, i) => lines.push({ text, x: 50, y: 164 + 13 * i, size: 10 }));
      lines.push({ text: `${labels.number} ${number}`, x: 330, y: 150, size: 11 });
      lines.push({ text: `${labels.date} ${date}`, x: 330, y: 166, size: 11 });
      lines.push({ text: `${labels.due} ${due}`, x: 330, y: 182, size: 11 });
      lines.push({ text: `${labels.currency} ${supplier.currency}`, x: 330, y: 198, size: 11 });
      lines.push({ text: labels.head, x: 50, y: 260, size: 10, bold: true });
      y = 260 + ROW_HEIGHT + 4;
    } else if (repeat) {
      lines.push({
        text: `${supplier.name} - ${labels.number} ${number} (${labels.continued})`,
        x: 50,
        y: 45,
        size: 8,
      });
      lines.push({ text: labels.head, x: 50, y: 80, size: 10, bold: true });
      y = 80 + ROW_HEIGHT + 4;
    } else {
      y = 60;
    }
    for (let r = 0; r < rowsPerPage[index]!; r++) {
      const qty = random.int(1, 12);
      const unit = random.int(150, 45000) / 100;
      const amount = Math.round(qty * unit * 100) / 100;
      subtotal += amount;
      lines.push({ text: random.pick(ITEMS), x: 50, y, size: 10 });
      lines.push({ text: String(qty), x: 300, y, size: 10 });
      lines.push({ text: money(unit, supplier.language), x: 360, y, size: 10 });
      lines.push({ text: money(amount, supplier.language), x: 470, y, size: 10 });
      y += ROW_HEIGHT;
    }
    if (index === pageCount - 1) {
      subtotal = Math.round(subtotal * 100) / 100;
      const rate = supplier.language === 'fr' ? 0.2 : supplier.language === 'de' ? 0.19 : 0.1;
      const tax = Math.round(subtotal * rate * 100) / 100;
      const total = Math.round((subtotal + tax) * 100) / 100;
      y += 20;
      lines.push({ text: labels.subtotal, x: 330, y, size: 10 });
      lines.push({ text: money(subtotal, supplier.language), x: 470, y, size: 10 });
      lines.push({ text: labels.tax, x: 330, y: y + 16, size: 10 });
      lines.push({ text: money(tax, supplier.language), x: 470, y: y + 16, size: 10 });
      lines.push({ text: `${labels.total} ${supplier.currency}`, x: 330, y: y + 36, size: 12, bold: true });
      lines.push({ text: money(total, supplier.language), x: 470, y: y + 36, size: 12, bold: true });
      lines.push({ text: labels.due2, x: 330, y: y + 54, size: 10 });
      lines.push({ text: money(total, supplier.language), x: 470, y: y + 54, size: 10 });
      if (markStyle) lines.push(pageMark(markStyle, index + 1, pageCount));
      pages.push({ lines });
      return {
        pages,
        document: {
          supplier: supplier.name,
          taxId: supplier.taxId,
          title,
          number,
          date,
          currency: supplier.currency,
          total: money(total, supplier.language),
          totalValue: total,
        },
      };
    }
    if (markStyle) lines.push(pageMark(markStyle, index + 1, pageCount));
    pages.push({ lines });
  }
  throw new Error('unreachable');
}

/** A printed page number at the bottom of the page, in the given style. */
export function pageMark(style: MarkStyle, index: number, count: number): TextLine {
  switch (style) {
    case 'page-of':
      return { text: `Page ${index} of ${count}`, x: 270, y: 815, size: 9 };
    case 'seite':
      return { text: `Seite ${index}/${count}`, x: 270, y: 815, size: 9 };
    case 'page-slash':
      return { text: `Page ${index} / ${count}`, x: 480, y: 815, size: 9 };
    case 'bare-fraction':
      return { text: `${index}/${count}`, x: 520, y: 815, size: 9 };
    case 'dashed':
      return { text: `- ${index} -`, x: 285, y: 815, size: 9 };
  }
}

function pad(n: number): string {
  return String(n).padStart(2, '0');
}

/** An amount as the supplier's language prints it: 1,234.50 / 1.234,50 / 1 234,50. */
function money(value: number, language: Language): string {
  const [whole, cents] = value.toFixed(2).split('.') as [string, string];
  const group = language === 'en' ? ',' : language === 'de' ? '.' : ' ';
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, group);
  return `${grouped}${language === 'en' ? '.' : ','}${cents}`;
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
