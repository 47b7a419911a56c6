/**
 * Files of several invoices one after another, for the split, batch and logos benchmarks.
 * Each invoice is drawn by support/multi-draw.ts, as the split tests' generator
 * (test/helpers/make-multi.ts) draws it, so a seed draws the same documents; this file adds what the
 * bench needs: any number of documents (the tests cap it at 20), no blank separators, and scans encoded
 * here (sharp, else jimp) rather than with the tests' canvas helper.
 */
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { createPdfjsReader } from '../../src/adapters/pdf/pdfjs-reader.js';
import type { GreyImage } from '../../src/ports/image-backend.js';
import { SUPPLIERS, seeded } from '../../support/multi-data.js';
import { drawDocument, type DrawnPage as TextPage, MARK_STYLES } from '../../support/multi-draw.js';

const A4 = { width: 595, height: 842 };

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
