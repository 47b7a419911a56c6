import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TokenLayer } from '../../src/core/types.js';
import { pageFeatures, type PageFeatures } from '../../src/split/page-features.js';
import type { TextLine } from '../helpers/make-documents.js';
import { textOnlyEngine } from '../helpers/make-invoices.js';
import { makeMultiDocument, type MultiDocument } from '../helpers/make-multi.js';

const engine = textOnlyEngine();
const fields = engine.catalogue.fieldsets().flatMap((f) => f.fields);
afterAll(() => engine.close());

async function read(pdf: Uint8Array): Promise<TokenLayer> {
  return engine.ingest((await engine.upload(pdf, { enforcePageLimit: false })).fileId);
}

/** The features of every page of a generated file, with its truth. */
async function featuresOf(multi: MultiDocument): Promise<PageFeatures[]> {
  return pageFeatures(await read(multi.pdf), fields);
}

describe('pageFeatures on generated invoices', () => {
  let multi: MultiDocument;
  let features: PageFeatures[];
  beforeAll(async () => {
    multi = await makeMultiDocument({
      seed: 31,
      documents: 6,
      pageCounts: [1, 3, 2, 1, 2, 1],
      pageMarks: true,
      markStyles: ['page-of'],
      blankSeparators: 0.5,
      repeatHeader: 0.5,
    });
    features = await featuresOf(multi);
  });

  it('one entry per page, numbered from 1', () => {
    expect(features.map((f) => f.pageNum)).toEqual(multi.pages.map((_, i) => i + 1));
  });

  it('a first page has a title, its number, date and currency, and its words in the header', () => {
    for (const doc of multi.documents) {
      const f = features[doc.pages[0] - 1]!;
      const label = `${doc.supplier} ${doc.number} on page ${doc.pages[0]}\n${multi.describe()}`;
      expect(f.title, label).toBe(true);
      expect(f.number?.value, label).toBe(doc.number);
      expect(f.currency?.value, label).toBe(doc.currency);
      expect(f.date, label).toBeDefined();
      expect(f.blank).toBe(false);
      expect(f.textless).toBe(false);
      expect(f.scanned).toBe(false);
      expect(f.tokens).toBeGreaterThan(20);
      expect(f.header.size).toBeGreaterThanOrEqual(4);
      for (const word of f.header) expect(word).toBe(word.toLowerCase());
    }
  });

  it('page marks are read on every page', () => {
    for (const doc of multi.documents) {
      const count = doc.pages[1] - doc.pages[0] + 1;
      for (let p = doc.pages[0]; p <= doc.pages[1]; p++) {
        expect(features[p - 1]!.mark, `page ${p}`).toEqual({ index: p - doc.pages[0] + 1, count });
      }
    }
  });

  it('continuation pages have no title; a repeated small header carries the same number', () => {
    for (const doc of multi.documents) {
      for (let p = doc.pages[0] + 1; p <= doc.pages[1]; p++) {
        const f = features[p - 1]!;
        expect(f.title, `page ${p}`).toBe(false);
        const repeated = multi.pages[p - 1]!.lines.some((l) => l.text.includes(doc.number));
        if (repeated) expect(f.number?.value, `page ${p}`).toBe(doc.number);
        else expect(f.number, `page ${p}`).toBeUndefined();
      }
    }
  });

  it('the last page of each document has a closing total', () => {
    for (const doc of multi.documents)
      expect(features[doc.pages[1] - 1]!.total, `page ${doc.pages[1]}`).toBe(true);
  });

  it('blank separators are blank, not textless', () => {
    expect(multi.blankPages.length).toBeGreaterThan(0);
    for (const p of multi.blankPages) {
      expect(features[p - 1]).toMatchObject({
        blank: true,
        textless: false,
        tokens: 0,
        title: false,
        total: false,
      });
      expect(features[p - 1]!.header.size).toBe(0);
      expect(features[p - 1]!.mark).toBeUndefined();
    }
  });

  it('every mark style of the generator is read', async () => {
    for (const style of ['page-of', 'seite', 'page-slash', 'bare-fraction', 'dashed'] as const) {
      const marked = await makeMultiDocument({
        seed: 5,
        documents: 2,
        pageCounts: [2, 1],
        pageMarks: true,
        markStyles: [style],
      });
      const got = (await featuresOf(marked)).map((f) => f.mark);
      const withCount = style !== 'dashed';
      expect(got, style).toEqual([
        { index: 1, ...(withCount ? { count: 2 } : {}) },
        { index: 2, ...(withCount ? { count: 2 } : {}) },
        { index: 1, ...(withCount ? { count: 1 } : {}) },
      ]);
    }
  });

  it('the same supplier read on each first page is the same value', async () => {
    const same = await makeMultiDocument({ seed: 8, documents: 3, pageCounts: [1, 1, 1], sameSupplier: 1 });
    const f = await featuresOf(same);
    expect(new Set(same.documents.map((d) => d.supplier)).size).toBe(1);
    const numbers = f.map((p) => p.number?.value);
    expect(numbers).toEqual(same.documents.map((d) => d.number));
  });
});

describe('pageFeatures: what a page without totals or header looks like', () => {
  const header: TextLine[] = [
    { text: 'Harbour Lane Stationers Ltd', x: 50, y: 60, size: 15, bold: true },
    { text: 'INVOICE', x: 400, y: 60, size: 18, bold: true },
    { text: '14 Harbour Lane', x: 50, y: 80, size: 10 },
    { text: 'Bristol BS1 4QA, United Kingdom', x: 50, y: 94, size: 10 },
    { text: 'VAT Registration No: GB294718365', x: 50, y: 108, size: 10 },
    { text: 'Invoice No: HLS-10234', x: 330, y: 150, size: 11 },
    { text: 'Invoice Date: 26 June 2025', x: 330, y: 166, size: 11 },
    { text: 'Currency: GBP', x: 330, y: 182, size: 11 },
    { text: 'Description   Qty   Unit Price   Amount', x: 50, y: 260, size: 10, bold: true },
  ];
  const rows = (items: string[], top: number): TextLine[] =>
    items.flatMap((item, i) => [
      { text: item, x: 50, y: top + 16 * i, size: 10 },
      { text: String((i % 9) + 2), x: 300, y: top + 16 * i, size: 10 },
      { text: `${(i * 37 + 12).toFixed(2)}`, x: 360, y: top + 16 * i, size: 10 },
      { text: `${((i % 9) + 2) * (i * 37 + 12)}.00`, x: 470, y: top + 16 * i, size: 10 },
    ]);
  const ITEMS = [
    'Consulting services (hours)',
    'Office chairs, ergonomic',
    'A4 copy paper, 80gsm (box)',
    'Delivery and handling',
    'Printer toner cartridge',
    'Steel brackets M8',
  ];
  let first: PageFeatures;
  let continuation: PageFeatures;
  beforeAll(async () => {
    const { makeTextPdf } = await import('../helpers/make-documents.js');
    const pdf = await makeTextPdf([
      { lines: [...header, ...rows(ITEMS, 280)] },
      { lines: rows([...ITEMS, ...ITEMS], 60) },
    ]);
    [first, continuation] = pageFeatures(await read(pdf), fields) as [PageFeatures, PageFeatures];
  });

  it('the first page opens a document, the continuation does not', () => {
    expect(first.title).toBe(true);
    expect(first.number?.value).toBe('HLS-10234');
    expect(continuation.title).toBe(false);
    expect(continuation.number).toBeUndefined();
    expect(continuation.taxId).toBeUndefined();
  });

  // Once a weakness, kept as a regression test: `total` is true on every page that holds amounts. A first page with only table rows (no
  // "Total" / "Amount due" label) gets an invoice.total above the 0.35 threshold (the year of
  // "26 June 2025" read as 2025.00 at ~0.38, or a quantity and an amount fused, "24 850.47" ->
  // 24850.47), so "previous page has a closing total" (+1) is given after every page. On 6 generated
  // 20-document files, 179 of 179 pages that are not the last of their document had total: true.
  it('a page of table rows without a total label has no closing total', () => {
    expect(first.total).toBe(false);
    expect(continuation.total).toBe(false);
  });

  // Once a weakness, kept as a regression test: the first row of a continuation page without a header is read as the supplier name
  // ("Consulting services (hours)" at 0.625 on text PDFs; on scans also "Maintenance contract,
  // quarterly", "Training session, half day", "Delivery and handling" at 0.57-0.73). planSplit then
  // adds "+1.5 another supplier name" and, with the unconditional "+1 previous page has a closing
  // total", starts a new document at the continuation page (score +1.5).
  it('a line item at the top of a continuation page is not a supplier name', () => {
    expect(continuation.supplier).toBeUndefined();
  });
});
