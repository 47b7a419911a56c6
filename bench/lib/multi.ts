/**
 * Files of several invoices one after another, for the split benchmark (section 7 of bench/run.ts): a
 * compact copy of the test generator test/helpers/make-multi.ts (same suppliers, layouts, page marks
 * and seeded drawing, so a seed draws the same documents), adapted for the bench: any number of
 * documents (the tests cap it at 20), no blank separators, and scans encoded here (sharp, else jimp)
 * rather than with the tests' canvas helper. bench is compiled with tsconfig.bench.json (src and
 * bench only), so it cannot import from test/.
 */
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { createPdfjsReader } from '../../src/adapters/pdf/pdfjs-reader.js';
import type { GreyImage } from '../../src/ports/image-backend.js';
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
} from './multi-data.js';

/** A line to draw: left edge and baseline in points from the top left of an A4 page. */
interface TextLine {
  text: string;
  x: number;
  y: number;
  size?: number;
  bold?: boolean;
}

interface TextPage {
  lines: TextLine[];
}

const A4 = { width: 595, height: 842 };

export type MarkStyle = 'page-of' | 'seite' | 'page-slash' | 'bare-fraction' | 'dashed';

export interface MultiOptions {
  seed: number;
  /** Exact pages of each document (their number is the number of documents). */
  pageCounts: readonly number[];
  /** Printed page numbers: the chance that a document has them (a style drawn per document). */
  pageMarks: number;
  /** Chance that a document is from the same supplier as the one before it (default 0.15). */
  sameSupplier?: number;
  /** Chance that a continuation page repeats a small header with the invoice number (default 0.5). */
  repeatHeader?: number;
}

export interface MultiDocument {
  pdf: Uint8Array;
  /** What each page says. */
  pages: TextPage[];
  /** The true segments: each document's [first, last] page (1-based, inclusive). */
  segments: Array<[number, number]>;
  /** Documents with printed page numbers. */
  marked: number;
}

const ROW_HEIGHT = 16;
const MARK_STYLES: readonly MarkStyle[] = ['page-of', 'seite', 'page-slash', 'bare-fraction', 'dashed'];

/**
 * `documents` page counts of 1 to 4 adding up to `total` (seeded): drawn at random, then pages added
 * to or taken from random documents until the sum is right.
 */
export function pageCountsSumming(seed: number, documents: number, total: number): number[] {
  if (total < documents || total > documents * 4) {
    throw new Error(`${documents} documents of 1 to 4 pages cannot make ${total} pages`);
  }
  const random = seeded(seed);
  const counts = Array.from({ length: documents }, () => random.int(1, 4));
  let sum = counts.reduce((a, b) => a + b, 0);
  while (sum !== total) {
    const i = random.int(0, documents - 1);
    if (sum < total && counts[i]! < 4) {
      counts[i]!++;
      sum++;
    } else if (sum > total && counts[i]! > 1) {
      counts[i]!--;
      sum--;
    }
  }
  return counts;
}

/** A seeded multi-document text PDF and its truth (as the tests' makeMultiDocument draws it). */
export async function makeMultiDocument(options: MultiOptions): Promise<MultiDocument> {
  const random = seeded(options.seed);
  const pages: TextPage[] = [];
  const segments: Array<[number, number]> = [];
  const usedNumbers = new Set<string>();
  let marked = 0;
  let supplierIndex = random.int(0, SUPPLIERS.length - 1);
  for (const [d, pageCount] of options.pageCounts.entries()) {
    if (d > 0 && !random.chance(options.sameSupplier ?? 0.15)) {
      supplierIndex = (supplierIndex + random.int(1, SUPPLIERS.length - 1)) % SUPPLIERS.length;
    }
    const markStyle = random.chance(options.pageMarks) ? random.pick(MARK_STYLES) : undefined;
    if (markStyle) marked++;
    const first = pages.length + 1;
    const drawn = drawDocument(
      random,
      SUPPLIERS[supplierIndex]!,
      Math.max(1, pageCount),
      markStyle,
      options.repeatHeader ?? 0.5,
      usedNumbers,
    );
    pages.push(...drawn.pages);
    segments.push([first, pages.length]);
  }
  return { pdf: await makeTextPdf(pages), pages, segments, marked };
}

function drawDocument(
  random: Random,
  supplier: Supplier,
  pageCount: number,
  markStyle: MarkStyle | undefined,
  repeatHeader: number,
  usedNumbers: Set<string>,
): { pages: TextPage[] } {
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
      return { pages };
    }
    if (markStyle) lines.push(pageMark(markStyle, index + 1, pageCount));
    pages.push({ lines });
  }
  throw new Error('unreachable');
}

/** A printed page number at the bottom of the page, in the given style. */
function pageMark(style: MarkStyle, index: number, count: number): TextLine {
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

async function makeTextPdf(pages: TextPage[]): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const regular = await doc.embedFont(StandardFonts.Helvetica);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  for (const spec of pages) {
    const page = doc.addPage([A4.width, A4.height]);
    for (const line of spec.lines) {
      page.drawText(line.text, {
        x: line.x,
        y: A4.height - line.y,
        size: line.size ?? 12,
        font: line.bold ? bold : regular,
      });
    }
  }
  return doc.save();
}

// ---------------------------------------------------------------------------------------------------
// Scans

export interface ScannedMulti {
  pdf: Uint8Array;
  /** The JPEG of each page, as embedded (for the native tesseract baseline). */
  jpegs: Uint8Array[];
  /** The JPEG encoder used: 'sharp' (greyscale JPEG) or 'jimp' (RGB JPEG of grey pixels). */
  encoder: 'sharp' | 'jimp';
}

type JpegEncoder = { name: 'sharp' | 'jimp'; encode(image: GreyImage): Promise<Uint8Array> };

/** sharp when installed (fast; a one-channel JPEG, as a scanner set to grey writes), else jimp. */
async function jpegEncoder(quality: number): Promise<JpegEncoder> {
  try {
    const sharp = (await import('sharp')).default;
    return {
      name: 'sharp',
      encode: async ({ width, height, data }) =>
        new Uint8Array(
          await sharp(data, { raw: { width, height, channels: 1 } })
            .jpeg({ quality })
            .toBuffer(),
        ),
    };
  } catch {
    const { Jimp } = await import('jimp');
    return {
      name: 'jimp',
      async encode({ width, height, data }) {
        const rgba = Buffer.alloc(width * height * 4);
        for (let i = 0; i < data.length; i++) {
          const v = data[i]!;
          rgba[i * 4] = v;
          rgba[i * 4 + 1] = v;
          rgba[i * 4 + 2] = v;
          rgba[i * 4 + 3] = 255;
        }
        const image = new Jimp({ width, height, data: rgba });
        return new Uint8Array(await image.getBuffer('image/jpeg', { quality }));
      },
    };
  }
}

/**
 * The same file as a scan: every page rendered at `dpi` (grey), encoded as a JPEG and placed as the
 * only thing on an A4 page of its own, as a scanner delivers it.
 */
export async function makeScannedMulti(doc: MultiDocument, dpi: number, quality = 92): Promise<ScannedMulti> {
  const encoder = await jpegEncoder(quality);
  const source = await createPdfjsReader().open(doc.pdf);
  const jpegs: Uint8Array[] = [];
  try {
    for (let pageNum = 1; pageNum <= source.pageCount; pageNum++) {
      const page = await source.page(pageNum);
      try {
        const { image } = await page.render({ dpi, maxPixels: 50_000_000 });
        jpegs.push(await encoder.encode(image));
      } finally {
        page.release();
      }
    }
  } finally {
    await source.close();
  }
  const pdf = await PDFDocument.create();
  for (const bytes of jpegs) {
    const image = await pdf.embedJpg(bytes);
    const page = pdf.addPage([A4.width, A4.height]);
    page.drawImage(image, { x: 0, y: 0, width: A4.width, height: A4.height });
  }
  return { pdf: await pdf.save(), jpegs, encoder: encoder.name };
}
