import { sequenceRatio } from '../core/sequence-ratio.js';
import { LEGAL_FORMS } from '../extraction/labels.js';
import type { PageFeatures } from './page-features.js';

/** The decision between two consecutive non-blank pages: does `pageNum` start a new document? */
export interface BoundaryDecision {
  pageNum: number;
  start: boolean;
  /** Probability that the decision is right (0.5 = a coin toss). */
  confidence: number;
  /** Evidence weights that made the decision, for a reviewer (verbose results). */
  reasons: string[];
}

/** A child document: its pages (1-based, inclusive) and how sure the split around it is. */
export interface Segment {
  pages: [number, number];
  confidence: number;
}

export interface SplitPlan {
  segments: Segment[];
  decisions: BoundaryDecision[];
  /** Blank pages left out of every child (separator sheets, empty backs). */
  blankPages: number[];
}

/**
 * Where documents start, page by page, without templates: evidence for and against a start is added
 * as log-odds, and a page starts a document when the sum is positive. Weights were set by reasoning
 * about each cue (a printed "page 1 of 2" is near proof; a repeated header weak evidence either way)
 * and checked on the development composites and the generated test documents.
 */
export function planSplit(pages: readonly PageFeatures[]): SplitPlan {
  const blankPages = pages.filter((p) => p.blank).map((p) => p.pageNum);
  const content = pages.filter((p) => !p.blank);
  if (content.length === 0) {
    const all: [number, number] = [1, Math.max(1, pages.length)];
    return { segments: [{ pages: all, confidence: 1 }], decisions: [], blankPages: [] };
  }
  const decisions: BoundaryDecision[] = [];
  // What the document being read so far is known by (its number, supplier...), from all its pages:
  // a continuation page without a header is compared with the document, not only with the page before.
  let context = identityOf(content[0]!);
  for (let i = 1; i < content.length; i++) {
    const page = content[i]!;
    const previous = content[i - 1]!;
    const separated = page.pageNum - previous.pageNum > 1;
    const decision = decide(previous, page, separated, context);
    decisions.push(decision);
    context = decision.start ? identityOf(page) : { ...identityOf(page), ...context };
  }
  const segments: Segment[] = [];
  let first = content[0]!.pageNum;
  let last = first;
  let confidence = 1;
  decisions.forEach((d, i) => {
    if (d.start) {
      segments.push({ pages: [first, last], confidence: Math.min(confidence, d.confidence) });
      first = d.pageNum;
      confidence = d.confidence;
    } else {
      confidence = Math.min(confidence, d.confidence);
    }
    last = content[i + 1]!.pageNum;
  });
  segments.push({ pages: [first, last], confidence });
  // Blank pages inside a child (the empty back of a duplex page) stay in it; the others are left out.
  const outside = blankPages.filter((p) => !segments.some((s) => p >= s.pages[0] && p <= s.pages[1]));
  return { segments, decisions, blankPages: outside };
}

type Identity = Pick<PageFeatures, 'number' | 'taxId' | 'supplier' | 'currency' | 'date'>;

function identityOf(page: PageFeatures): Identity {
  const identity: Identity = {};
  if (page.number) identity.number = page.number;
  if (page.taxId) identity.taxId = page.taxId;
  if (page.supplier) identity.supplier = page.supplier;
  if (page.currency) identity.currency = page.currency;
  if (page.date) identity.date = page.date;
  return identity;
}

function decide(
  previous: PageFeatures,
  page: PageFeatures,
  separated: boolean,
  document: Identity,
): BoundaryDecision {
  let score = 0;
  const reasons: string[] = [];
  const add = (weight: number, reason: string): void => {
    score += weight;
    reasons.push(`${weight > 0 ? '+' : ''}${Math.round(weight * 100) / 100} ${reason}`);
  };

  // A blank page is a separator sheet, or the empty back of a duplex page: evidence, not proof.
  if (separated) add(3, 'blank page before');
  if (page.textless) add(3, 'a scan without readable text (a document of its own)');

  // Pages of one document are printed on one paper size: a receipt after an A4 invoice, or receipts of
  // different lengths, are other documents (a sheet turned sideways is the same paper).
  if (!sameSize(previous.size, page.size)) add(2, 'another paper size');

  // Printed page numbers.
  if (page.mark?.index === 1) add(4, 'marked as page 1');
  else if (page.mark && page.mark.index > 1) {
    const follows = previous.mark && previous.mark.index === page.mark.index - 1;
    add(
      follows ? -5 : -3,
      follows ? 'page number follows the previous page' : `marked as page ${page.mark.index}`,
    );
  }
  if (previous.mark?.count !== undefined) {
    if (previous.mark.index === previous.mark.count) add(3, 'previous page was the last of its document');
    else add(-3, `previous page was ${previous.mark.index} of ${previous.mark.count}`);
  }

  // What identifies a document, weighed by how sure each reading is (a number read on a continuation
  // page is often an order or customer number).
  if (page.number && document.number) {
    const sure = certainty(Math.min(page.number.confidence, document.number.confidence));
    if (sameId(page.number.value, document.number.value)) add(-4 * sure, 'same document number');
    else add(3 * sure, 'another document number');
  }
  if (page.taxId && document.taxId) {
    const sure = certainty(Math.min(page.taxId.confidence, document.taxId.confidence));
    if (sameId(page.taxId.value, document.taxId.value)) add(-0.5, 'same supplier tax id');
    else add(2.5 * sure, 'another supplier tax id');
  }
  if (
    page.supplier &&
    document.supplier &&
    Math.min(page.supplier.confidence, document.supplier.confidence) >= 0.5
  ) {
    const similarity = sequenceRatio(normalise(page.supplier.value), normalise(document.supplier.value));
    if (similarity < 0.5) add(1.5, 'another supplier name');
    else if (similarity > 0.8) add(-0.5, 'same supplier name');
  }
  if (page.currency && document.currency && page.currency.value !== document.currency.value) {
    add(
      1.5 * certainty(Math.min(page.currency.confidence, document.currency.confidence)),
      'another currency',
    );
  }

  // Another date than the document's (both read surely): two receipts of one shop, two invoices of one
  // supplier. The same date says little (a supplier's invoices of one day).
  if (page.date && document.date && page.date.value !== document.date.value) {
    const sure = certainty(Math.min(page.date.confidence, document.date.confidence));
    if (sure >= 0.7) add(1.5 * sure, 'another date');
  }

  // How the page looks: a first page names the document (title, number, supplier, date).
  if (page.title) add(1.5, 'a document title at the top');
  const opening = openingStrength(page);
  if (!page.textless) {
    if (opening === 0) add(-2.5, 'nothing that opens a document (title, number, date, supplier)');
    else if (opening < 1.5) add(-1, 'little that opens a document');
    else if (opening >= 3) add(0.5, 'a full document header');
  }
  if (previous.total) add(1, 'previous page has a closing total');
  else add(-1, 'previous page has no closing total');
  if (page.header.size >= 4 && previous.header.size >= 4) {
    const shared = [...page.header].filter((w) => previous.header.has(w)).length;
    const overlap = shared / Math.min(page.header.size, previous.header.size);
    if (overlap > 0.7 && !page.number) add(-0.5, 'same header as the previous page');
  }
  // Scanned single pages (receipts) that each carry a total and a date are usually one document each.
  if (page.scanned && previous.scanned && previous.total && (page.total || page.date))
    add(0.5, 'scanned pages, each complete');

  const start = score > 0;
  const p = 1 / (1 + Math.exp(-score));
  return { pageNum: page.pageNum, start, confidence: round3(start ? p : 1 - p), reasons };
}

const LEGAL_WORDS = new Set(
  [...LEGAL_FORMS, 'co', 'company', 'corp', 'enterprise', 'enterprises', 'trading', 'm'].flatMap((f) =>
    f.replace(/[^\p{L}\p{N} ]/gu, ' ').split(/\s+/),
  ),
);

/** 0 for a reading at the threshold a value counts as found, 1 for a sure one. */
function certainty(confidence: number): number {
  return round3(Math.max(0, Math.min(1, (confidence - 0.35) / 0.6)));
}

/** How much of a document header a page shows: title, number, supplier, tax id, date. */
function openingStrength(page: PageFeatures): number {
  let strength = page.title ? 1 : 0;
  if (page.number) strength += page.number.confidence >= 0.8 ? 1 : page.number.confidence >= 0.5 ? 0.5 : 0;
  if (page.supplier) strength += page.supplier.confidence >= 0.6 ? 1 : 0.5;
  if (page.taxId && page.taxId.confidence >= 0.8) strength += 1;
  if (page.date && page.date.confidence >= 0.8) strength += 0.5;
  return strength;
}

function sameSize(a: PageFeatures['size'], b: PageFeatures['size']): boolean {
  const [a0, a1] = [a.width, a.height].sort((x, y) => x - y);
  const [b0, b1] = [b.width, b.height].sort((x, y) => x - y);
  const near = (x: number, y: number): boolean => Math.abs(x - y) <= 0.03 * Math.max(x, y);
  return near(a0!, b0!) && near(a1!, b1!);
}

function sameId(a: string, b: string): boolean {
  return a.replace(/[\s.-]/g, '').toLowerCase() === b.replace(/[\s.-]/g, '').toLowerCase();
}

/** A supplier name without punctuation and legal forms (two companies' "SDN BHD" make them no closer). */
function normalise(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^\p{L}\p{N} ]/gu, ' ')
    .split(/\s+/)
    .filter((w) => w && !LEGAL_WORDS.has(w))
    .join(' ');
}

function round3(v: number): number {
  return Math.round(v * 1000) / 1000;
}
