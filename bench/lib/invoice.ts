/**
 * The born-digital invoices of sections text, ocr, pipeline and http: seeded, so every run benchmarks
 * the same documents, with the words printed on each page.
 */
import { PDFDocument, StandardFonts, type PDFFont, type PDFPage } from 'pdf-lib';

import { mulberry32 } from '../../src/core/random.js';
import type { GreyImage } from '../../src/ports/image-backend.js';
import type { PdfReader } from '../../src/ports/pdf-reader.js';

const COMPANIES = [
  'Northwind Traders Ltd',
  'Blue Harbor Logistics',
  'Acme Industrial Supply',
  'Greenfield Office Partners',
  'Summit Ridge Consulting',
  'Oakwood Electrical Services',
  'Riverside Print & Paper',
  'Meridian Software GmbH',
];
const STREETS = ['Market Street', 'Harbour Road', 'King Avenue', 'Station Lane', 'Mill Road', 'Park Place'];
const CITIES = ['Springfield', 'Bristol', 'Rotterdam', 'Portland', 'Hamburg', 'Leeds', 'Dublin', 'Lyon'];
const ITEMS = [
  'Copy paper A4 80g, box of 5 reams',
  'Consulting services, senior engineer',
  'Cable duct 40x60 mm, white',
  'Toner cartridge black, high yield',
  'Freight charge, pallet delivery',
  'Annual software maintenance',
  'LED panel 600x600, 36 W',
  'Desk chair, ergonomic, grey',
  'Installation labour per hour',
  'Shipping boxes, double wall',
  'Network switch 24 port',
  'Safety gloves, size L',
  'Printer service visit',
  'Cleaning supplies, monthly',
  'USB-C docking station',
  'Extension lead 4 way, 3 m',
];
const NOTES = [
  'Payment due within 30 days of the invoice date.',
  'Please quote the invoice number with your payment.',
  'Goods remain our property until paid in full.',
  'Late payments may incur interest at 8% per year.',
  'Thank you for your business.',
  'Questions about this invoice: accounts@example.com',
];

/** One line of text to draw: where (points, PDF coordinates: origin bottom left) and how large. */
export interface TextItem {
  text: string;
  x: number;
  y: number;
  size: number;
}

const PAGE_WIDTH = 612;
const PAGE_HEIGHT = 792;

function pick<T>(rand: () => number, list: readonly T[]): T {
  return list[Math.floor(rand() * list.length)]!;
}

function money(value: number): string {
  const [whole, cents] = value.toFixed(2).split('.') as [string, string];
  return `${whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',')}.${cents}`;
}

function date(rand: () => number): string {
  const d = 1 + Math.floor(rand() * 28);
  const m = 1 + Math.floor(rand() * 12);
  return `${String(d).padStart(2, '0')}/${String(m).padStart(2, '0')}/${2023 + Math.floor(rand() * 3)}`;
}

/**
 * The text items of one invoice-like page: a header, addresses, a table of ~42 item rows with
 * quantities, prices and amounts, totals and notes. About 60 text lines in Helvetica 7 to 16 pt.
 */
export function invoicePageItems(rand: () => number, docNo: number, pageNo: number): TextItem[] {
  const items: TextItem[] = [];
  const company = pick(rand, COMPANIES);
  const customer = pick(
    rand,
    COMPANIES.filter((c) => c !== company),
  );
  const invoiceNo = `INV-${2024 + (docNo % 2)}-${String(10000 + docNo * 37 + pageNo).padStart(6, '0')}`;
  let y = PAGE_HEIGHT - 54;
  items.push({ text: company, x: 48, y, size: 16 });
  items.push({ text: pageNo === 1 ? 'INVOICE' : 'INVOICE (continued)', x: 400, y, size: 15 });
  y -= 18;
  items.push({
    text: `${10 + Math.floor(rand() * 180)} ${pick(rand, STREETS)}, ${pick(rand, CITIES)}`,
    x: 48,
    y,
    size: 9,
  });
  items.push({ text: `Invoice no. ${invoiceNo}`, x: 400, y, size: 9 });
  y -= 12;
  items.push({ text: `VAT ID GB${100000000 + Math.floor(rand() * 899999999)}`, x: 48, y, size: 9 });
  items.push({ text: `Invoice date ${date(rand)}`, x: 400, y, size: 9 });
  y -= 12;
  items.push({
    text: `Phone +44 20 ${1000 + Math.floor(rand() * 8999)} ${1000 + Math.floor(rand() * 8999)}`,
    x: 48,
    y,
    size: 9,
  });
  items.push({ text: `Due date ${date(rand)}`, x: 400, y, size: 9 });
  y -= 22;
  items.push({ text: 'Bill to:', x: 48, y, size: 10 });
  items.push({ text: `Page ${pageNo} of 3`, x: 400, y, size: 9 });
  y -= 13;
  items.push({ text: customer, x: 48, y, size: 11 });
  y -= 12;
  items.push({ text: `Attn. Accounts Payable, ${pick(rand, CITIES)}`, x: 48, y, size: 9 });
  items.push({ text: `Order ref. PO-${40000 + Math.floor(rand() * 9999)}`, x: 400, y, size: 9 });
  y -= 12;
  items.push({ text: `Customer no. C-${100000 + Math.floor(rand() * 899999)}`, x: 48, y, size: 9 });
  y -= 18;
  const cols = [48, 80, 330, 400, 470];
  const header = ['Pos', 'Description', 'Qty', 'Unit price', 'Amount'];
  header.forEach((text, i) => items.push({ text, x: cols[i]!, y, size: 9 }));
  y -= 13;
  let subtotal = 0;
  const rows = 40 + Math.floor(rand() * 6);
  for (let r = 0; r < rows && y > 140; r++) {
    const size = 7.5 + Math.floor(rand() * 4) * 0.5;
    const qty = 1 + Math.floor(rand() * 48);
    const unit = Math.round((2 + rand() * 480) * 100) / 100;
    const amount = qty * unit;
    subtotal += amount;
    const cells = [String(r + 1), pick(rand, ITEMS), String(qty), money(unit), money(amount)];
    cells.forEach((text, i) => items.push({ text, x: cols[i]! + (i >= 2 ? rand() * 6 : 0), y, size }));
    y -= size + 2.5 + rand() * 1.5;
  }
  y -= 10;
  const vat = subtotal * 0.2;
  for (const [label, value] of [
    ['Subtotal', subtotal],
    ['VAT 20%', vat],
    ['Total due', subtotal + vat],
  ] as const) {
    items.push({ text: label, x: 400, y, size: label === 'Total due' ? 11 : 9 });
    items.push({ text: `GBP ${money(value)}`, x: 470, y, size: label === 'Total due' ? 11 : 9 });
    y -= 14;
  }
  y -= 8;
  for (let n = 0; n < 5 && y > 40; n++) {
    items.push({ text: pick(rand, NOTES), x: 48 + rand() * 20, y, size: 8 });
    y -= 11;
  }
  items.push({
    text: `IBAN GB${10 + Math.floor(rand() * 89)} NWBK ${6000 + Math.floor(rand() * 3999)} ${10000000 + Math.floor(rand() * 89999999)}  BIC NWBKGB2L`,
    x: 48,
    y: 30,
    size: 7,
  });
  return items;
}

/** The words of a page in drawing order (for checking what a reader found). */
export function pageWords(items: TextItem[]): string[] {
  return items.flatMap((i) => i.text.split(/\s+/)).filter((w) => w !== '');
}

export interface GeneratedPdf {
  bytes: Uint8Array;
  /** Text items of each page. */
  pages: TextItem[][];
}

/** A born-digital invoice PDF (text layer, Helvetica) of `pageCount` US Letter pages. */
export async function makeInvoicePdf(docNo: number, pageCount: number): Promise<GeneratedPdf> {
  // Seeded, so every run benchmarks the same documents.
  const rand = mulberry32(1000 + docNo);
  const pdf = await PDFDocument.create();
  pdf.setTitle(`Invoice ${docNo}`);
  pdf.setCreationDate(new Date(Date.UTC(2024, 0, 1)));
  pdf.setModificationDate(new Date(Date.UTC(2024, 0, 1)));
  const fonts: PDFFont[] = [
    await pdf.embedFont(StandardFonts.Helvetica),
    await pdf.embedFont(StandardFonts.HelveticaBold),
  ];
  const pages: TextItem[][] = [];
  for (let p = 1; p <= pageCount; p++) {
    const page: PDFPage = pdf.addPage([PAGE_WIDTH, PAGE_HEIGHT]);
    const items = invoicePageItems(rand, docNo, p);
    for (const item of items) {
      const font = item.size >= 10 ? fonts[1]! : fonts[0]!;
      page.drawText(item.text, { x: item.x, y: item.y, size: item.size, font });
    }
    pages.push(items);
  }
  return { bytes: await pdf.save(), pages };
}

/** A PDF of scanned pages: each page one full-page PNG image, no text layer. */
export async function makeScannedPdf(pngs: Uint8Array[]): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  pdf.setCreationDate(new Date(Date.UTC(2024, 0, 1)));
  pdf.setModificationDate(new Date(Date.UTC(2024, 0, 1)));
  for (const png of pngs) {
    const image = await pdf.embedPng(png);
    const page = pdf.addPage([PAGE_WIDTH, PAGE_HEIGHT]);
    page.drawImage(image, { x: 0, y: 0, width: PAGE_WIDTH, height: PAGE_HEIGHT });
  }
  return pdf.save();
}

/** Pages of each invoice of sections text, ocr and pipeline. */
export const INVOICE_PAGES = 3;
/** Measured invoices of sections text, ocr and pipeline (a warm-up one comes first). */
export const MEASURED_INVOICES = 20;

/** The invoices of sections text, ocr and pipeline: doc 0 is the warm-up, docs 1..20 are measured. */
export function makeBenchInvoices(): Promise<GeneratedPdf[]> {
  return Promise.all(
    Array.from({ length: MEASURED_INVOICES + 1 }, (_, i) => makeInvoicePdf(i, INVOICE_PAGES)),
  );
}

/** Resolution of the page images of sections ocr and pipeline. */
export const SCAN_DPI = 300;
const MAX_PIXELS = 40_000_000;

/** Pages of a PDF rendered at SCAN_DPI, greyscale, as a scanner would see them. */
export async function renderPages(
  reader: PdfReader,
  bytes: Uint8Array,
  pageNums: number[],
): Promise<GreyImage[]> {
  const doc = await reader.open(bytes);
  try {
    const images: GreyImage[] = [];
    for (const n of pageNums) {
      const page = await doc.page(n);
      images.push((await page.render({ dpi: SCAN_DPI, maxPixels: MAX_PIXELS })).image);
    }
    return images;
  } finally {
    await doc.close();
  }
}
