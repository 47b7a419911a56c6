/**
 * Folders of generated documents for the batch command line benchmark (section batch): born-digital
 * invoices, scans of them (image-only PDFs and image files, with the originals as the reference), and
 * a long mixed run of small files.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { createPdfjsReader } from '../../src/adapters/pdf/pdfjs-reader.js';
import { encodeGreyPng } from '../../src/documents/png.js';
import type { GreyImage } from '../../src/ports/image-backend.js';
import { makeMultiDocument, makeScannedMulti, pageCountsSumming, type MultiDocument } from './multi.js';
import type { NativePage } from './native-tesseract.js';
import { splitWords } from './report.js';

/** `count` single-invoice text PDFs of 1 to 4 pages adding up to `pages` (bench/lib/multi.ts drawing). */
export async function makeTextFolder(
  dir: string,
  seed: number,
  count: number,
  pages: number,
): Promise<{ files: string[]; pages: number; bytes: number }> {
  await mkdir(dir, { recursive: true });
  const counts = pageCountsSumming(seed, count, pages);
  let bytes = 0;
  const files: string[] = [];
  for (const [i, n] of counts.entries()) {
    const doc = await makeMultiDocument({ seed: seed + 1 + i, pageCounts: [n], pageMarks: 0.5 });
    const file = path.join(dir, `invoice-${String(i + 1).padStart(3, '0')}.pdf`);
    await writeFile(file, doc.pdf);
    bytes += doc.pdf.byteLength;
    files.push(file);
  }
  return { files, pages, bytes };
}

async function renderGrey(pdf: Uint8Array, dpi: number): Promise<GreyImage[]> {
  const doc = await createPdfjsReader().open(pdf);
  const images: GreyImage[] = [];
  try {
    for (let n = 1; n <= doc.pageCount; n++) {
      const page = await doc.page(n);
      try {
        images.push((await page.render({ dpi, maxPixels: 50_000_000 })).image);
      } finally {
        page.release();
      }
    }
  } finally {
    await doc.close();
  }
  return images;
}

export interface ScanFolder {
  /** The scans: image-only PDFs and PNG/JPEG files. */
  files: string[];
  /** The born-digital originals, one per scan, same name with .pdf (the extraction reference). */
  originals: string[];
  pages: NativePage[];
  /** The printed words of every page, in order. */
  expected: string[];
  bytes: number;
  jpegEncoder: string;
}

/**
 * Scanned invoices: `pdfPages` (page counts of image-only PDFs, each page a `dpi` greyscale JPEG as
 * bench/lib/multi.ts makeScannedMulti makes it) and `images` single-page invoices as image files (PNG,
 * JPEG, taking turns). The text originals go to `originalsDir` under the same names.
 */
export async function makeScanFolder(
  dir: string,
  originalsDir: string,
  seed: number,
  pdfPages: number[],
  images: number,
  dpi: number,
): Promise<ScanFolder> {
  await mkdir(dir, { recursive: true });
  await mkdir(originalsDir, { recursive: true });
  const folder: ScanFolder = { files: [], originals: [], pages: [], expected: [], bytes: 0, jpegEncoder: '' };
  const words = (doc: MultiDocument): string[] =>
    doc.pages.flatMap((p) => p.lines.flatMap((l) => splitWords(l.text)));
  const add = async (name: string, doc: MultiDocument, bytes: Uint8Array): Promise<string> => {
    const file = path.join(dir, name);
    await writeFile(file, bytes);
    const original = path.join(originalsDir, name.replace(/\.[^.]+$/, '.pdf'));
    await writeFile(original, doc.pdf);
    folder.files.push(file);
    folder.originals.push(original);
    folder.expected.push(...words(doc));
    folder.bytes += bytes.byteLength;
    return file;
  };
  for (const [i, n] of pdfPages.entries()) {
    const doc = await makeMultiDocument({ seed: seed + i, pageCounts: [n], pageMarks: 0.5 });
    const scan = await makeScannedMulti(doc, dpi);
    folder.jpegEncoder = scan.encoder;
    const file = await add(`scan-${String(i + 1).padStart(2, '0')}.pdf`, doc, scan.pdf);
    for (let page = 1; page <= n; page++) folder.pages.push({ kind: 'pdf', file, page });
  }
  for (let i = 0; i < images; i++) {
    const doc = await makeMultiDocument({ seed: seed + 100 + i, pageCounts: [1], pageMarks: 0.5 });
    const name = `photo-${String(i + 1).padStart(2, '0')}`;
    let file: string;
    if (i % 2 === 0) {
      const [image] = await renderGrey(doc.pdf, dpi);
      file = await add(`${name}.png`, doc, encodeGreyPng(image!));
    } else {
      const scan = await makeScannedMulti(doc, dpi);
      file = await add(`${name}.jpg`, doc, scan.jpegs[0]!);
    }
    folder.pages.push({ kind: 'image', file });
  }
  return folder;
}

const SNIPPETS: ReadonlyArray<(n: number) => [string, string]> = [
  (n) => [`Invoice No: INV-${10000 + n}`, `Total due EUR ${(n * 7.31 + 12).toFixed(2)}`],
  (n) => [`Receipt ${n} Thank you`, `Paid GBP ${(n * 3.17 + 5).toFixed(2)}`],
  (n) => [`Order ref PO-${40000 + n}`, `Delivery note ${n}`],
];

/** A small greyscale PNG of two short printed lines (a photographed label or stub), at `dpi`. */
async function smallWordsPng(n: number, dpi: number): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  const page = pdf.addPage([300, 70]);
  const [first, second] = SNIPPETS[n % SNIPPETS.length]!(n);
  page.drawText(first, { x: 16, y: 42, size: 13, font });
  page.drawText(second, { x: 16, y: 18, size: 13, font });
  const [image] = await renderGrey(await pdf.save(), dpi);
  return encodeGreyPng(image!);
}

/**
 * `count` small files for the long run: one-page text invoices, and every `imageEvery`-th file a small
 * PNG of a few words (so about 1/imageEvery of the files need OCR). Sorted by name, the images are
 * spread through the run.
 */
export async function makeMixedFolder(
  dir: string,
  seed: number,
  count: number,
  imageEvery: number,
  dpi: number,
): Promise<{ files: number; images: number; pdfs: number; bytes: number }> {
  await mkdir(dir, { recursive: true });
  let images = 0;
  let bytes = 0;
  for (let i = 1; i <= count; i++) {
    const name = `file-${String(i).padStart(4, '0')}`;
    let data: Uint8Array;
    let file: string;
    if (i % imageEvery === 0) {
      data = await smallWordsPng(i, dpi);
      file = `${name}.png`;
      images++;
    } else {
      data = (await makeMultiDocument({ seed: seed + i, pageCounts: [1], pageMarks: 0 })).pdf;
      file = `${name}.pdf`;
    }
    await writeFile(path.join(dir, file), data);
    bytes += data.byteLength;
  }
  return { files: count, images, pdfs: count - images, bytes };
}
