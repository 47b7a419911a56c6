/**
 * Documents the tests make themselves: born-digital PDFs with pdf-lib, and "scans" made by rendering
 * those PDFs to bitmaps, optionally turned and skewed, then embedded in a PDF or encoded as PNG/JPEG.
 */
import { createCanvas } from '@napi-rs/canvas';
import { GifWriter } from 'omggif';
import { PDFDocument, PDFHexString, PDFName, PDFNumber, StandardFonts } from 'pdf-lib';
import { createPdfjsReader } from '../../src/adapters/pdf/pdfjs-reader.js';
import { A4, drawTextPdf, type TextLine } from '../../src/evaluation/text-pdf.js';
import type { GreyImage } from '../../src/ports/image-backend.js';

export { A4, type TextLine, type TextPage } from '../../src/evaluation/text-pdf.js';

export const INVOICE_LINES: TextLine[] = [
  { text: 'ACME Supplies Pty Ltd', x: 50, y: 70, size: 20, bold: true },
  { text: 'TAX INVOICE', x: 400, y: 70, size: 16, bold: true },
  { text: 'Invoice Number: INV-20931', x: 50, y: 140, size: 12 },
  { text: 'Invoice Date: 14 March 2024', x: 50, y: 160, size: 12 },
  { text: 'Description Quantity Amount', x: 50, y: 230, size: 12, bold: true },
  { text: 'Widgets large 4 120.00', x: 50, y: 250, size: 12 },
  { text: 'Delivery 1 30.00', x: 50, y: 270, size: 12 },
  { text: 'Total 150.00', x: 50, y: 320, size: 14, bold: true },
];

/** A born-digital PDF of text runs (src/evaluation/text-pdf.ts). */
export const makeTextPdf = drawTextPdf;

/** Renders page `pageNum` of a PDF to a greyscale bitmap at `dpi`. */
export async function renderPdfPage(pdf: Uint8Array, dpi: number, pageNum = 1): Promise<GreyImage> {
  const doc = await createPdfjsReader().open(pdf);
  try {
    const page = await doc.page(pageNum);
    return (await page.render({ dpi, maxPixels: 50_000_000 })).image;
  } finally {
    await doc.close();
  }
}

export async function encodeImage(image: GreyImage, format: 'png' | 'jpeg'): Promise<Uint8Array> {
  const canvas = createCanvas(image.width, image.height);
  const ctx = canvas.getContext('2d');
  const rgba = ctx.createImageData(image.width, image.height);
  for (let i = 0; i < image.data.length; i++) {
    const v = image.data[i]!;
    rgba.data[i * 4] = v;
    rgba.data[i * 4 + 1] = v;
    rgba.data[i * 4 + 2] = v;
    rgba.data[i * 4 + 3] = 255;
  }
  ctx.putImageData(rgba, 0, 0);
  return new Uint8Array(format === 'png' ? await canvas.encode('png') : await canvas.encode('jpeg', 92));
}

/** A PDF whose pages are only images (a scan): each image fills an A4 page (sideways if wider). */
export async function makeImagePdf(images: Uint8Array[]): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  for (const bytes of images) {
    const isPng = bytes[0] === 0x89;
    const image = isPng ? await doc.embedPng(bytes) : await doc.embedJpg(bytes);
    const landscape = image.width > image.height;
    const [w, h] = landscape ? [A4.height, A4.width] : [A4.width, A4.height];
    const page = doc.addPage([w, h]);
    page.drawImage(image, { x: 0, y: 0, width: w, height: h });
  }
  return doc.save();
}

/** A born-digital page whose supplier name is only inside an embedded picture (a logo). */
export async function makeMixedPdf(logoText: string, lines: TextLine[]): Promise<Uint8Array> {
  const logoPdf = await makeTextPdf([
    { width: 300, height: 60, lines: [{ text: logoText, x: 10, y: 40, size: 26, bold: true }] },
  ]);
  const logo = await encodeImage(await renderPdfPage(logoPdf, 300), 'png');
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const page = doc.addPage([A4.width, A4.height]);
  const png = await doc.embedPng(logo);
  page.drawImage(png, { x: 40, y: A4.height - 40 - 60, width: 300, height: 60 });
  for (const line of lines)
    page.drawText(line.text, { x: line.x, y: A4.height - line.y, size: line.size ?? 12, font });
  return doc.save();
}

/** Finds the first token whose text equals `text` (case-insensitive). */
export function findToken<T extends { text: string }>(tokens: readonly T[], text: string): T | undefined {
  return tokens.find((t) => t.text.toLowerCase() === text.toLowerCase());
}

/** A small PDF whose page tree claims 10,000 pages (the same page listed again and again). */
export async function makePageBombPdf(pages = 10_000): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const page = doc.addPage([200, 200]);
  const kids = doc.catalog.Pages().Kids();
  for (let i = 1; i < pages; i++) kids.push(page.ref);
  doc.catalog.Pages().set(PDFName.of('Count'), PDFNumber.of(pages));
  return doc.save({ useObjectStreams: false });
}

/** A PDF encrypted with a user password (standard security handler, revision 2) nobody knows. */
export async function makeEncryptedPdf(): Promise<Uint8Array> {
  const doc = await PDFDocument.load(await makeTextPdf([{ lines: INVOICE_LINES }]));
  const encrypt = doc.context.obj({
    Filter: 'Standard',
    V: 1,
    R: 2,
    O: PDFHexString.of('ab'.repeat(32)),
    U: PDFHexString.of('cd'.repeat(32)),
    P: -44,
  });
  doc.context.trailerInfo.Encrypt = doc.context.register(encrypt);
  doc.context.trailerInfo.ID = doc.context.obj([
    PDFHexString.of('01'.repeat(16)),
    PDFHexString.of('01'.repeat(16)),
  ]);
  return doc.save({ useObjectStreams: false });
}

/** A multi-page TIFF of grey pages (the writer split uses for the children of a TIFF). */
export { encodeGreyTiff as encodeTiff } from '../../src/documents/multi-page-images.js';

/** A GIF of one grey image (a 256-grey palette). */
export function encodeGif(image: GreyImage): Uint8Array {
  const palette = Array.from({ length: 256 }, (_, v) => (v << 16) | (v << 8) | v);
  const buffer = new Uint8Array(image.width * image.height * 2 + 4096);
  const writer = new GifWriter(buffer, image.width, image.height, { palette });
  writer.addFrame(0, 0, image.width, image.height, Array.from(image.data));
  return buffer.subarray(0, writer.end());
}
