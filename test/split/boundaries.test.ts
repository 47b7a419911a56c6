import { describe, expect, it } from 'vitest';
import { planSplit, type SplitPlan } from '../../src/split/boundaries.js';
import type { PageFeatures } from '../../src/split/page-features.js';

/** A page with nothing on it that opens or closes a document, unless `over` says otherwise. */
function page(pageNum: number, over: Partial<PageFeatures> = {}): PageFeatures {
  return {
    pageNum,
    blank: false,
    textless: false,
    tokens: 120,
    scanned: false,
    size: { width: 595, height: 842 },
    title: false,
    total: false,
    header: new Set<string>(),
    ...over,
  };
}

const sure = (value: string, confidence = 0.97): { value: string; confidence: number } => ({
  value,
  confidence,
});

/** A typical first page: title, number, supplier, tax id, date, currency at the top. */
function firstPage(
  pageNum: number,
  doc: { number: string; supplier: string; taxId?: string; currency?: string },
  over: Partial<PageFeatures> = {},
): PageFeatures {
  return page(pageNum, {
    title: true,
    number: sure(doc.number),
    supplier: sure(doc.supplier, 0.625),
    ...(doc.taxId ? { taxId: sure(doc.taxId) } : {}),
    currency: sure(doc.currency ?? 'EUR', 0.8),
    date: sure('2024-03-14', 0.94),
    header: new Set(['invoice', ...doc.supplier.toLowerCase().split(' '), 'no:', doc.number.toLowerCase()]),
    ...over,
  });
}

const blank = (pageNum: number): PageFeatures => page(pageNum, { blank: true, tokens: 0 });

const ACME = { number: 'INV-1001', supplier: 'Acme Supplies Ltd', taxId: 'GB294718365', currency: 'GBP' };
const NORD = { number: 'RE-2024-0007', supplier: 'Nordwind Maschinenbau GmbH', taxId: 'DE123456789' };

const ranges = (plan: SplitPlan): Array<[number, number]> => plan.segments.map((s) => s.pages);

/** Confidences in (0.5, 1], reasons given for every decision, one decision per non-blank page after the first. */
function expectWellFormed(plan: SplitPlan, pages: readonly PageFeatures[]): void {
  const content = pages.filter((p) => !p.blank);
  expect(plan.decisions.map((d) => d.pageNum)).toEqual(content.slice(1).map((p) => p.pageNum));
  for (const d of plan.decisions) {
    expect(d.confidence, `decision at page ${d.pageNum}`).toBeGreaterThan(0.5);
    expect(d.confidence).toBeLessThanOrEqual(1);
    expect(d.reasons.length, `reasons at page ${d.pageNum}`).toBeGreaterThan(0);
    for (const r of d.reasons) expect(r).toMatch(/^[+-]?\d+(\.\d+)? \S/);
  }
  for (const s of plan.segments) {
    expect(s.confidence, `segment ${s.pages.join('-')}`).toBeGreaterThan(0.5);
    expect(s.confidence).toBeLessThanOrEqual(1);
    expect(s.pages[0]).toBeLessThanOrEqual(s.pages[1]);
  }
  // Segments are in order, do not overlap, and start and end on non-blank pages.
  const blanks = new Set(pages.filter((p) => p.blank).map((p) => p.pageNum));
  plan.segments.forEach((s, i) => {
    if (i > 0) expect(s.pages[0]).toBeGreaterThan(plan.segments[i - 1]!.pages[1]);
    if (content.length > 0) {
      expect(blanks.has(s.pages[0])).toBe(false);
      expect(blanks.has(s.pages[1])).toBe(false);
    }
  });
  // A segment is no surer than the decisions at its start and inside it.
  for (const s of plan.segments) {
    for (const d of plan.decisions.filter((d) => d.pageNum >= s.pages[0] && d.pageNum <= s.pages[1])) {
      expect(s.confidence).toBeLessThanOrEqual(d.confidence);
    }
  }
}

describe('planSplit', () => {
  it('a single page is one document', () => {
    const pages = [firstPage(1, ACME, { total: true })];
    const plan = planSplit(pages);
    expect(plan).toEqual({ segments: [{ pages: [1, 1], confidence: 1 }], decisions: [], blankPages: [] });
  });

  it('page marks alone: "1 of 2", "2 of 2", "1 of 2", "2 of 2" are two documents', () => {
    const pages = [
      page(1, { mark: { index: 1, count: 2 } }),
      page(2, { mark: { index: 2, count: 2 } }),
      page(3, { mark: { index: 1, count: 2 } }),
      page(4, { mark: { index: 2, count: 2 } }),
    ];
    const plan = planSplit(pages);
    expect(ranges(plan)).toEqual([
      [1, 2],
      [3, 4],
    ]);
    expectWellFormed(plan, pages);
    expect(plan.decisions[0]!.reasons).toContain('-5 page number follows the previous page');
    expect(plan.decisions[0]!.reasons).toContain('-3 previous page was 1 of 2');
    expect(plan.decisions[1]!.reasons).toContain('+4 marked as page 1');
    expect(plan.decisions[1]!.reasons).toContain('+3 previous page was the last of its document');
    // A printed "page 1" after "2 of 2" is near proof.
    expect(plan.decisions[1]!.confidence).toBeGreaterThan(0.95);
  });

  it('page marks override headers: "1 of 3" .. "3 of 3" of one document that repeats its full header', () => {
    const pages = [1, 2, 3].map((n) =>
      firstPage(n, ACME, { mark: { index: n, count: 3 }, total: n === 3, number: sure(`INV-100${n}`) }),
    );
    const plan = planSplit(pages);
    expect(ranges(plan)).toEqual([[1, 3]]);
    expectWellFormed(plan, pages);
  });

  it('marks without a count ("- 1 -", "- 2 -") still join and part documents', () => {
    const pages = [
      firstPage(1, ACME, { mark: { index: 1 } }),
      page(2, { mark: { index: 2 }, total: true }),
      firstPage(3, NORD, { mark: { index: 1 }, total: true }),
    ];
    expect(ranges(planSplit(pages))).toEqual([
      [1, 2],
      [3, 3],
    ]);
  });

  it('different document numbers part documents; a continuation page without a header joins the one before', () => {
    const pages = [
      firstPage(1, ACME),
      page(2, { total: true }),
      firstPage(3, NORD),
      page(4),
      page(5, { total: true }),
      firstPage(6, { ...ACME, number: 'INV-1002' }, { total: true }),
    ];
    const plan = planSplit(pages);
    expect(ranges(plan)).toEqual([
      [1, 2],
      [3, 5],
      [6, 6],
    ]);
    expectWellFormed(plan, pages);
    const at = (n: number) => plan.decisions.find((d) => d.pageNum === n)!;
    // Numbers are compared with the page just before: page 6 with page 5 (no number there), page 3 with
    // page 2 (none either); the title and the full header open the document.
    expect(at(3).reasons).toContain('+1.5 a document title at the top');
    expect(at(3).reasons).toContain('+0.5 a full document header');
    expect(at(6).reasons).toContain('+1.5 a document title at the top');
    expect(at(2).start).toBe(false);
    expect(at(2).reasons).toContain('-2.5 nothing that opens a document (title, number, date, supplier)');
    expect(at(2).reasons).toContain('-1 previous page has no closing total');
  });

  it('the same number on consecutive pages keeps them together, even under a repeated title', () => {
    const pages = [firstPage(1, ACME), firstPage(2, ACME, { total: true })];
    const plan = planSplit(pages);
    expect(ranges(plan)).toEqual([[1, 2]]);
    expectWellFormed(plan, pages);
    expect(plan.decisions[0]!.reasons).toContain('-4 same document number');
  });

  it('numbers that differ only in spaces, dots or dashes are the same number', () => {
    const pages = [
      firstPage(1, { ...ACME, number: 'INV 1001' }),
      page(2, { number: sure('inv.1001'), header: new Set(['acme', 'inv.1001']) }),
    ];
    expect(ranges(planSplit(pages))).toEqual([[1, 2]]);
  });

  it('consecutive single-page documents of the same supplier are parted by their numbers', () => {
    const pages = [1, 2, 3, 4].map((n) => firstPage(n, { ...ACME, number: `INV-10${n}0` }, { total: true }));
    const plan = planSplit(pages);
    expect(ranges(plan)).toEqual([
      [1, 1],
      [2, 2],
      [3, 3],
      [4, 4],
    ]);
    expectWellFormed(plan, pages);
  });

  it('a number read with little confidence weighs less than a sure one', () => {
    const weak = planSplit([firstPage(1, ACME), page(2, { number: sure('PO-7731', 0.4) })]);
    const strong = planSplit([firstPage(1, ACME), page(2, { number: sure('PO-7731', 0.97) })]);
    const weight = (plan: SplitPlan): number =>
      Number(plan.decisions[0]!.reasons.find((r) => r.endsWith('another document number'))!.split(' ')[0]);
    expect(weight(weak)).toBeLessThan(weight(strong));
    expect(weight(weak)).toBeGreaterThanOrEqual(0);
  });

  it('blank separators are left out of every child', () => {
    const pages = [
      firstPage(1, ACME),
      page(2, { total: true }),
      blank(3),
      firstPage(4, NORD, { total: true }),
      blank(5),
      blank(6),
      firstPage(7, { ...ACME, number: 'INV-1002' }, { total: true }),
    ];
    const plan = planSplit(pages);
    expect(ranges(plan)).toEqual([
      [1, 2],
      [4, 4],
      [7, 7],
    ]);
    expect(plan.blankPages).toEqual([3, 5, 6]);
    expectWellFormed(plan, pages);
    expect(plan.decisions.find((d) => d.pageNum === 4)!.reasons).toContain('+3 blank page before');
  });

  it('a blank separator alone parts two documents that look alike', () => {
    const pages = [page(1, { total: true }), blank(2), page(3, { total: true })];
    const plan = planSplit(pages);
    expect(ranges(plan)).toEqual([
      [1, 1],
      [3, 3],
    ]);
    expect(plan.blankPages).toEqual([2]);
    expectWellFormed(plan, pages);
  });

  it('leading and trailing blank pages belong to no child', () => {
    const pages = [blank(1), firstPage(2, ACME), page(3, { total: true }), blank(4)];
    const plan = planSplit(pages);
    expect(ranges(plan)).toEqual([[2, 3]]);
    expect(plan.blankPages).toEqual([1, 4]);
    expectWellFormed(plan, pages);
  });

  it('an all-blank document is one child of all its pages', () => {
    const plan = planSplit([blank(1), blank(2), blank(3)]);
    expect(plan).toEqual({ segments: [{ pages: [1, 3], confidence: 1 }], decisions: [], blankPages: [] });
    expect(planSplit([blank(1)]).segments).toEqual([{ pages: [1, 1], confidence: 1 }]);
  });

  it('a document without pages is one child of page 1', () => {
    expect(planSplit([]).segments).toEqual([{ pages: [1, 1], confidence: 1 }]);
  });

  it('a scan without readable text (a faint receipt) is a document of its own, not a separator', () => {
    const pages = [
      firstPage(1, ACME, { total: true, scanned: true }),
      page(2, { textless: true, tokens: 0, scanned: true }),
      firstPage(3, NORD, { total: true, scanned: true }),
    ];
    const plan = planSplit(pages);
    expect(ranges(plan)).toEqual([
      [1, 1],
      [2, 2],
      [3, 3],
    ]);
    expect(plan.blankPages).toEqual([]);
    expectWellFormed(plan, pages);
  });

  it('another number on the page right after is strong evidence of a start', () => {
    const pages = [firstPage(1, ACME, { total: true }), firstPage(2, NORD, { total: true })];
    const plan = planSplit(pages);
    expect(ranges(plan)).toEqual([
      [1, 1],
      [2, 2],
    ]);
    expect(plan.decisions[0]!.reasons).toContain('+3 another document number');
    expect(plan.decisions[0]!.confidence).toBeGreaterThan(0.99);
  });

  it('another tax id, supplier and currency part documents whose numbers were not read', () => {
    const pages = [
      page(1, {
        title: true,
        supplier: sure('Acme Supplies Ltd', 0.8),
        taxId: sure('GB294718365'),
        currency: sure('GBP'),
      }),
      page(2, {
        total: true,
        currency: sure('GBP'),
        supplier: sure('Acme Supplies Ltd', 0.8),
        taxId: sure('GB294718365'),
      }),
      page(3, {
        title: true,
        supplier: sure('Nordwind Maschinenbau GmbH', 0.8),
        taxId: sure('DE123456789'),
        currency: sure('EUR'),
        total: true,
      }),
    ];
    const plan = planSplit(pages);
    expect(ranges(plan)).toEqual([
      [1, 2],
      [3, 3],
    ]);
    expectWellFormed(plan, pages);
    const reasons = plan.decisions[1]!.reasons;
    expect(reasons.some((r) => r.endsWith('another supplier tax id'))).toBe(true);
    expect(reasons).toContain('+1.5 another supplier name');
    expect(reasons.some((r) => r.endsWith('another currency'))).toBe(true);
  });

  it('supplier names differing only in legal form and punctuation are the same supplier', () => {
    const plan = planSplit([
      firstPage(1, { ...ACME, supplier: 'ACME SUPPLIES PTY. LTD.' }),
      page(2, { supplier: sure('Acme Supplies Ltd', 0.8), total: true }),
    ]);
    expect(plan.decisions[0]!.reasons).toContain('-0.5 same supplier name');
    expect(ranges(plan)).toEqual([[1, 2]]);
  });

  it('a repeated header without a number is weak evidence of a continuation', () => {
    const header = new Set(['acme', 'supplies', 'ltd', 'harbour', 'lane', 'bristol']);
    const plan = planSplit([firstPage(1, ACME, { header }), page(2, { header, total: true })]);
    expect(plan.decisions[0]!.reasons).toContain('-0.5 same header as the previous page');
    expect(ranges(plan)).toEqual([[1, 2]]);
  });

  it('segment confidence is the weakest decision at or inside it', () => {
    const pages = [
      firstPage(1, ACME),
      page(2, { total: true }),
      firstPage(3, NORD),
      page(4, { total: true }),
    ];
    const plan = planSplit(pages);
    expect(ranges(plan)).toEqual([
      [1, 2],
      [3, 4],
    ]);
    const [d2, d3, d4] = plan.decisions as [
      SplitPlan['decisions'][number],
      SplitPlan['decisions'][number],
      SplitPlan['decisions'][number],
    ];
    expect(plan.segments[0]!.confidence).toBe(Math.min(d2.confidence, d3.confidence));
    expect(plan.segments[1]!.confidence).toBe(Math.min(d3.confidence, d4.confidence));
  });

  it('is deterministic and does not change its input', () => {
    const pages = [firstPage(1, ACME), page(2, { total: true }), blank(3), firstPage(4, NORD)];
    const before = structuredClone(pages);
    expect(planSplit(pages)).toEqual(planSplit(pages));
    expect(pages).toEqual(before);
  });

  // Once a weakness, kept as a regression test: blank backs of a duplex scan inside a document. The blank back of page 1 gives the
  // continuation page "+5 blank page before", which outweighs "-2.5 nothing that opens a document" and
  // "-1 previous page has no closing total": the document is cut in two at its own blank back. Expected
  // [[1, 3]] (blank back 2 inside) or at least one child for pages 1-3; actual [[1,1],[3,3]].
  it('blank backs of a duplex scan do not cut a document without page marks', () => {
    const pages = [firstPage(1, ACME), blank(2), page(3, { total: true }), blank(4)];
    expect(ranges(planSplit(pages))).toEqual([[1, 3]]);
  });

  // Once a weakness, kept as a regression test: blankPages is documented as "blank pages left out of every child", but a blank page
  // inside a document (here between "1 of 2" and "2 of 2") is listed although the child [1, 3] holds it;
  // usage.blank_pages of svc.split counts it too.
  it('blankPages lists only pages outside every child', () => {
    const plan = planSplit([
      page(1, { mark: { index: 1, count: 2 } }),
      blank(2),
      page(3, { mark: { index: 2, count: 2 } }),
    ]);
    expect(ranges(plan)).toEqual([[1, 3]]);
    expect(plan.blankPages).toEqual([]);
  });

  it('scanned receipts of one shop are parted by their paper length and dates, not joined by shop and tax id', () => {
    const receipt = (pageNum: number, height: number, date: string) =>
      page(pageNum, {
        scanned: true,
        size: { width: 226, height },
        supplier: sure('FIZANVARTEC LLC', 0.84),
        taxId: sure('GB695548764', 0.8),
        date: sure(date, 0.97),
        total: true,
      });
    const plan = planSplit([
      receipt(1, 518, '2022-01-24'),
      receipt(2, 462, '2025-04-24'),
      receipt(3, 490, '2024-03-27'),
    ]);
    expect(ranges(plan)).toEqual([
      [1, 1],
      [2, 2],
      [3, 3],
    ]);
    expect(plan.decisions[0]!.reasons).toEqual(expect.arrayContaining(['+2 another paper size']));
    expect(plan.decisions[0]!.reasons.some((r) => r.endsWith('another date'))).toBe(true);
  });

  it('a page turned sideways is the same paper, and the same date is no evidence either way', () => {
    const plan = planSplit([
      firstPage(1, ACME, { date: sure('2024-03-14', 0.97) }),
      page(2, { size: { width: 842, height: 595 }, date: sure('2024-03-14', 0.97) }),
    ]);
    expect(ranges(plan)).toEqual([[1, 2]]);
    expect(plan.decisions[0]!.reasons.join('; ')).not.toMatch(/paper size|another date/);
  });

  it('a date read with little confidence is no evidence of another document', () => {
    const plan = planSplit([
      firstPage(1, ACME, { date: sure('2024-03-14', 0.97) }),
      page(2, { date: sure('2024-04-30', 0.6) }),
    ]);
    expect(plan.decisions[0]!.reasons.join('; ')).not.toMatch(/another date/);
  });
});
