import type { FieldDefinition } from '../products/types.js';
import { customerBlockTokens } from './finders/customer-block.js';
import { findLabels, type Candidate } from './finders/labelled.js';
import { COMPANY_WORDS, LABELS, LEGAL_FORMS } from './labels.js';
import type { DocumentView } from './view.js';

/**
 * Generic features of a field's candidate, for the learned ranking (src/extraction/ranker.ts). Nothing
 * here names a supplier, a document or a layout: what a candidate is (its reading, its words), where
 * it is (page zone, size of print, its row among the page's rows), how it was found (label, pattern,
 * header, arithmetic) and how it compares with the field's other candidates. Every feature lies in
 * [-1, 1] or [0, 1].
 */
export const FEATURE_NAMES = [
  'bias',
  'score',
  'gap-to-best',
  'finder-top',
  'finder-rank',
  'source-label',
  'source-label-below',
  'source-pattern',
  'source-header',
  'source-derived',
  'agrees-with-other-fields',
  'has-label',
  'quality',
  'y',
  'x',
  'top-quarter',
  'bottom-third',
  'first-page',
  'row-on-page',
  'print-size',
  'largest-print',
  'ocr',
  'ocr-confidence',
  'ocr-confidence-min',
  'same-value-count',
  'tokens',
  'letters',
  'digits',
  'upper-case',
  'label-words',
  'legal-form',
  'company-word',
  'largest-value',
  'smallest-value',
  'earliest-value',
  'latest-value',
  'highest-on-page',
  'currency-printed',
  'own-label-left',
  'own-label-above',
  'other-label-left',
  'other-label-above',
  'payment-label-left',
  'label-gap',
  'broad',
  'buyer-block',
] as const;

export type FeatureName = (typeof FEATURE_NAMES)[number];

/** Words of every label vocabulary: a name made of them is a heading or caption, not a name. */
const LABEL_WORDS: ReadonlySet<string> = new Set(
  Object.values(LABELS)
    .flatMap((set) => [...set.strong, ...(set.weak ?? [])])
    .flatMap((phrase) => phrase.split(/\s+/))
    .map((w) => w.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, ''))
    .filter((w) => w.length >= 3),
);
const LEGAL: ReadonlySet<string> = new Set(LEGAL_FORMS.map((w) => w.replace(/\.$/, '')));
const COMPANY: ReadonlySet<string> = new Set(COMPANY_WORDS);

const DERIVED = /^(total-less|cash-less|total-as-due|payment-terms|largest-amount|first-date|period|locale)/;

/** Per document: what features compare candidates with (row order per page, largest print, labels). */
export interface FeatureContext {
  view: DocumentView;
  /** Rows per page, and the index of each page's first row. */
  pageRows: Map<number, { first: number; count: number; tallest: number }>;
  /** Every label of the label sets below, by row (found once per document). */
  labels?: Map<number, LabelMark[]>;
}

/** A label printed on the page: which set, where, how strong. */
interface LabelMark {
  set: string;
  x0: number;
  x1: number;
  strength: number;
}

/** The label sets whose labels tell what a value near them is. */
const LABEL_SETS = [
  'total',
  'subTotal',
  'tax',
  'amountDue',
  'amountPaid',
  'cashTendered',
  'change',
  'date',
  'dueDate',
  'paymentDate',
  'supplier',
  'customerName',
  'referenceNo',
  'purchaseOrderNo',
  'supplierTaxId',
] as const;

/** The label set of a field's own labels. */
const OWN_SET: Record<string, string> = {
  'invoice.total': 'total',
  'receipt.total': 'total',
  'invoice.subTotal': 'subTotal',
  'invoice.tax': 'tax',
  'receipt.tax': 'tax',
  'invoice.amountDue': 'amountDue',
  'invoice.amountPaid': 'amountPaid',
  'document.date': 'date',
  'invoice.dueDate': 'dueDate',
  'invoice.paymentDate': 'paymentDate',
  'document.supplierName': 'supplier',
  'document.customerName': 'customerName',
  'document.referenceNo': 'referenceNo',
  'invoice.purchaseOrderNo': 'purchaseOrderNo',
  'document.supplierTaxId': 'supplierTaxId',
};

function labelMarks(context: FeatureContext): Map<number, LabelMark[]> {
  if (context.labels) return context.labels;
  const byRow = new Map<number, LabelMark[]>();
  for (const set of LABEL_SETS) {
    for (const hit of findLabels(context.view, LABELS[set]!)) {
      const tokens = hit.row.tokens.slice(hit.start, hit.end);
      const mark = {
        set,
        x0: Math.min(...tokens.map((t) => t.box.x0)),
        x1: Math.max(...tokens.map((t) => t.box.x1)),
        strength: hit.strength === 'strong' ? 1 : 0.6,
      };
      (byRow.get(hit.row.index) ?? byRow.set(hit.row.index, []).get(hit.row.index)!).push(mark);
    }
  }
  context.labels = byRow;
  return byRow;
}

/**
 * The label nearest a value: on its row to its left (the nearest one), else on one of the two rows
 * above it over the value's column.
 */
function labelsNear(
  context: FeatureContext,
  row: number,
  x0: number,
  x1: number,
): { left?: LabelMark; gap: number; above?: LabelMark } {
  const marks = labelMarks(context);
  let left: LabelMark | undefined;
  for (const mark of marks.get(row) ?? []) {
    if (mark.x1 <= x0 + 0.005 && (!left || mark.x1 > left.x1)) left = mark;
  }
  let above: LabelMark | undefined;
  const rows = context.view.rows;
  for (let r = row - 1; r >= Math.max(0, row - 2) && !above; r--) {
    if (rows[r]?.pageNum !== rows[row]?.pageNum) break;
    above = (marks.get(r) ?? []).find((m) => m.x0 < x1 + 0.02 && m.x1 > x0 - 0.02);
  }
  return {
    ...(left ? { left } : {}),
    gap: left ? x0 - left.x1 : 1,
    ...(above ? { above } : {}),
  };
}

export function featureContext(view: DocumentView): FeatureContext {
  const pageRows = new Map<number, { first: number; count: number; tallest: number }>();
  for (const row of view.rows) {
    const entry = pageRows.get(row.pageNum);
    if (!entry) pageRows.set(row.pageNum, { first: row.index, count: 1, tallest: row.height });
    else {
      entry.count++;
      entry.tallest = Math.max(entry.tallest, row.height);
    }
  }
  return { view, pageRows };
}

/** The features of every candidate of a field (the finder's order), FEATURE_NAMES long each. */
export function candidateFeatures(
  list: readonly Candidate[],
  context: FeatureContext,
  field: FieldDefinition,
): number[][] {
  const { view } = context;
  const best = list[0]?.score ?? 0;
  const values = list.map((c) => c.value);
  const numbers = list.map((c) => (typeof c.norm === 'number' ? c.norm : Number.NaN));
  const finite = numbers.filter((n) => Number.isFinite(n));
  const dates = field.kind === 'date' ? list.map((c) => String(c.norm)).sort() : [];
  const tops = list.map((c) => Math.min(...c.tokens.map((t) => t.box.y0)));
  const highest = Math.min(...tops);
  const buyer = customerBlockTokens(view);
  return list.map((c, i) => {
    const tokens = c.tokens;
    const text = tokens.map((t) => t.text).join(' ');
    const first = tokens[0];
    const page = first ? context.pageRows.get(first.pageNum) : undefined;
    const cx = tokens.length
      ? (Math.min(...tokens.map((t) => t.box.x0)) + Math.max(...tokens.map((t) => t.box.x1))) / 2
      : 0;
    const cy = tokens.length ? (tops[i]! + Math.max(...tokens.map((t) => t.box.y1))) / 2 : 0;
    const heights = tokens.map((t) => t.height).sort((a, b) => a - b);
    const height = heights[Math.floor(heights.length / 2)] ?? 0;
    const ocr = tokens.filter((t) => t.source === 'ocr');
    const meanConfidence = ocr.length ? ocr.reduce((s, t) => s + t.confidence, 0) / ocr.length : 1;
    const minConfidence = ocr.length ? Math.min(...ocr.map((t) => t.confidence)) : 1;
    const letters = [...text].filter((ch) => /\p{L}/u.test(ch));
    const chars = text.replace(/\s+/g, '').length || 1;
    const keys = tokens.map((t) => t.key).filter((k) => k.length > 0);
    const row = first ? view.rows[first.row] : undefined;
    const value = numbers[i]!;
    const source = c.source;
    const x0 = tokens.length ? Math.min(...tokens.map((t) => t.box.x0)) : 0;
    const x1 = tokens.length ? Math.max(...tokens.map((t) => t.box.x1)) : 0;
    const near = first ? labelsNear(context, first.row, x0, x1) : { gap: 1 };
    const own = OWN_SET[field.name];
    const features: Record<FeatureName, number> = {
      bias: 1,
      score: clamp01(c.score),
      'gap-to-best': clamp(c.score - best, -1, 0),
      'finder-top': i === 0 ? 1 : 0,
      'finder-rank': 1 / (1 + i),
      'source-label': source.startsWith('label-') && !source.startsWith('label-below') ? 1 : 0,
      'source-label-below': source.startsWith('label-below') ? 1 : 0,
      'source-pattern': source.startsWith('pattern') || source === 'printed' || source === 'keywords' ? 1 : 0,
      'source-header': /^(header|after-name|window-address)/.test(source) ? 1 : 0,
      'source-derived': DERIVED.test(source) ? 1 : 0,
      'agrees-with-other-fields': /\+(sum|due|change)/.test(source) ? 1 : 0,
      'has-label': c.label ? 1 : 0,
      quality: clamp01(c.quality),
      y: clamp01(cy),
      x: clamp01(cx),
      'top-quarter': cy < 0.25 ? 1 : 0,
      'bottom-third': cy > 0.66 ? 1 : 0,
      'first-page': first?.pageNum === 1 ? 1 : 0,
      'row-on-page': row && page ? clamp01((row.index - page.first) / Math.max(1, page.count - 1)) : 0,
      'print-size':
        view.bodyHeight > 0 && height > 0 ? clamp(Math.log2(height / view.bodyHeight) / 2, -1, 1) : 0,
      'largest-print': page && height > 0 && height >= 0.95 * page.tallest ? 1 : 0,
      ocr: ocr.length > 0 ? 1 : 0,
      'ocr-confidence': clamp01(meanConfidence),
      'ocr-confidence-min': clamp01(minConfidence),
      'same-value-count': Math.min(1, (values.filter((v) => v === c.value).length - 1) / 3),
      tokens: Math.min(1, tokens.length / 8),
      letters: letters.length / chars,
      digits: [...text].filter((ch) => ch >= '0' && ch <= '9').length / chars,
      'upper-case': letters.length
        ? letters.filter((ch) => ch === ch.toUpperCase() && ch !== ch.toLowerCase()).length / letters.length
        : 0,
      'label-words': keys.length ? keys.filter((k) => LABEL_WORDS.has(k)).length / keys.length : 0,
      'legal-form': keys.some((k) => LEGAL.has(k.replace(/\.$/, ''))) ? 1 : 0,
      'company-word': keys.some((k) => COMPANY.has(k)) ? 1 : 0,
      'largest-value': finite.length > 1 && value === Math.max(...finite) ? 1 : 0,
      'smallest-value': finite.length > 1 && value === Math.min(...finite) ? 1 : 0,
      'earliest-value': dates.length > 1 && String(c.norm) === dates[0] ? 1 : 0,
      'latest-value': dates.length > 1 && String(c.norm) === dates[dates.length - 1] ? 1 : 0,
      'highest-on-page': list.length > 1 && tops[i] === highest ? 1 : 0,
      'currency-printed': c.currency ? 1 : 0,
      'own-label-left': near.left && near.left.set === own ? near.left.strength : 0,
      'own-label-above': near.above && near.above.set === own ? near.above.strength : 0,
      'other-label-left': near.left && near.left.set !== own ? near.left.strength : 0,
      'other-label-above': near.above && near.above.set !== own ? near.above.strength : 0,
      'payment-label-left':
        near.left && (near.left.set === 'cashTendered' || near.left.set === 'change') ? 1 : 0,
      'label-gap': clamp01(near.gap * 2),
      broad: source === 'broad' ? 1 : 0,
      'buyer-block': tokens.some((t) => buyer.has(t.id)) ? 1 : 0,
    };
    return FEATURE_NAMES.map((name) => features[name]);
  });
}

function clamp01(v: number): number {
  return clamp(v, 0, 1);
}

function clamp(v: number, lo: number, hi: number): number {
  return Number.isFinite(v) ? Math.max(lo, Math.min(hi, v)) : 0;
}
