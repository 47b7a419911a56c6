import type { FieldDefinition } from '../products/types.js';
import { customerBlockTokens } from './finders/customer-block.js';
import { findLabels, type Candidate } from './label-search.js';
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
  'sentence-words',
  'fragments',
  'registration-next',
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
/**
 * Words of sentences, hardly ever of a name: pronouns, verbs of being, negation and courtesy, in the
 * corpus languages (English, German, French, Dutch, Spanish, Italian, Malay). A line made of them is a
 * policy or a greeting ("Goods sold are not returnable", "Thank you, please come again"). Words that
 * names do hold (and, the, of, for, und, et, dan) are left out.
 */
const SENTENCE_WORDS: ReadonlySet<string> = new Set([
  ...['are', 'is', 'be', 'been', 'was', 'were', 'not', 'will', 'would', 'please', 'your', 'you', 'we'],
  ...['our', 'us', 'thank', 'thanks', 'visit', 'again', 'must', 'should', 'can', 'may', 'this', 'that'],
  ...['these', 'if', 'any', 'have', 'has', 'do', 'does', 'kindly', 'here', 'when', 'which'],
  ...['sie', 'wir', 'ihr', 'ist', 'sind', 'nicht', 'bitte', 'danke', 'vielen', 'ihre', 'ihren', 'unser'],
  ...['unsere', 'wird', 'werden', 'kein', 'keine', 'vous', 'nous', 'est', 'sont', 'pas', 'merci'],
  ...['votre', 'vos', 'notre', 'sera', 'uw', 'wij', 'niet', 'bedankt', 'ons', 'usted', 'gracias', 'su'],
  ...['sus', 'es', 'son', 'nuestro', 'grazie', 'siete', 'sono', 'non', 'vostro', 'nostro', 'terima'],
  ...['kasih', 'sila', 'tidak', 'anda', 'kami'],
]);
const COMPANY: ReadonlySet<string> = new Set(COMPANY_WORDS);

const DERIVED =
  /^(total-less|total-rounded|tax-lines-sum|cash-less|total-as-due|payment-terms|largest-amount|first-date|period|locale)/;

/** Per document: what features compare candidates with (row order per page, largest print, labels). */
export interface FeatureContext {
  view: DocumentView;
  /** Rows per page, and the index of each page's first row. */
  pageRows: Map<number, { first: number; count: number; tallest: number }>;
  /** Every label of the label sets below, by row (found once per document). */
  labels?: Map<number, LabelMark[]>;
  /** Field-independent facts of each run of tokens candidates were read from. */
  intrinsic: WeakMap<object, Intrinsic>;
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
  'cardBalance',
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
      // "to" names the customer as a heading only ("To:"), and is a word of any sentence.
      if (hit.phrase === 'to') continue;
      const tokens = hit.row.tokens.slice(hit.start, hit.end);
      // Nor is a label's word inside a sentence, a lower-case word right before it ("Bij niet-betaling op
      // de vervaldag is ..."), a label over the line under it.
      const before = hit.row.tokens[hit.start - 1];
      if (
        before !== undefined &&
        /^\p{Ll}/u.test(before.text) &&
        tokens[0]!.u.x0 - before.u.x1 < Math.max(hit.row.height, context.view.bodyHeight)
      )
        continue;
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
  return { view, pageRows, intrinsic: new WeakMap() };
}

/** The features of every candidate of a field (the finder's order), FEATURE_NAMES long each. */
/** What a candidate's tokens say whatever the field: worked out once per document and token run. */
interface Intrinsic {
  top: number;
  cx: number;
  cy: number;
  firstPage: number;
  rowOnPage: number;
  printSize: number;
  largestPrint: number;
  ocr: number;
  ocrConfidence: number;
  ocrConfidenceMin: number;
  tokens: number;
  letters: number;
  digits: number;
  upperCase: number;
  labelWords: number;
  legalForm: number;
  companyWord: number;
  buyerBlock: number;
  sentenceWords: number;
  fragments: number;
  registrationNext: number;
  near: { left?: LabelMark; gap: number; above?: LabelMark };
}

function intrinsic(context: FeatureContext, tokens: Candidate['tokens']): Intrinsic {
  let known = context.intrinsic.get(tokens);
  if (known) return known;
  const { view } = context;
  let x0 = Infinity;
  let x1 = -Infinity;
  let y0 = Infinity;
  let y1 = -Infinity;
  let ocrCount = 0;
  let ocrSum = 0;
  let ocrMin = 1;
  let letters = 0;
  let upper = 0;
  let digits = 0;
  let chars = 0;
  let labelWords = 0;
  let keyed = 0;
  let legal = 0;
  let company = 0;
  let buyerBlock = 0;
  let sentence = 0;
  let fragments = 0;
  const buyer = customerBlockTokens(view);
  for (const t of tokens) {
    x0 = Math.min(x0, t.box.x0);
    x1 = Math.max(x1, t.box.x1);
    y0 = Math.min(y0, t.box.y0);
    y1 = Math.max(y1, t.box.y1);
    if (t.source === 'ocr') {
      ocrCount++;
      ocrSum += t.confidence;
      ocrMin = Math.min(ocrMin, t.confidence);
    }
    for (let k = 0; k < t.text.length; k++) {
      const code = t.text.charCodeAt(k);
      if (code <= 32) continue;
      chars++;
      if (code >= 48 && code <= 57) digits++;
      else if ((code >= 65 && code <= 90) || (code >= 97 && code <= 122)) {
        letters++;
        if (code <= 90) upper++;
      } else if (code > 127) {
        const ch = t.text[k]!;
        if (/\p{L}/u.test(ch)) {
          letters++;
          if (ch === ch.toUpperCase() && ch !== ch.toLowerCase()) upper++;
        }
      }
    }
    const legalForm = LEGAL.has(t.key.replace(/\.$/, ''));
    // A token of fewer than three letters that is no legal form: OCR's fragments of a logo or a stamp.
    if (!legalForm && t.text.replace(/[^\p{L}]/gu, '').length < 3) fragments++;
    if (t.key.length > 0) {
      keyed++;
      if (SENTENCE_WORDS.has(t.key)) sentence++;
      if (LABEL_WORDS.has(t.key)) labelWords++;
      if (legalForm) legal = 1;
      if (COMPANY.has(t.key)) company = 1;
    }
    if (buyer.has(t.id)) buyerBlock = 1;
  }
  const first = tokens[0];
  const page = first ? context.pageRows.get(first.pageNum) : undefined;
  const heights = tokens.map((t) => t.height).sort((a, b) => a - b);
  const height = heights[Math.floor(heights.length / 2)] ?? 0;
  const row = first ? view.rows[first.row] : undefined;
  known = {
    top: tokens.length ? y0 : 0,
    cx: tokens.length ? (x0 + x1) / 2 : 0,
    cy: tokens.length ? (y0 + y1) / 2 : 0,
    firstPage: first?.pageNum === 1 ? 1 : 0,
    rowOnPage: row && page ? clamp01((row.index - page.first) / Math.max(1, page.count - 1)) : 0,
    printSize: view.bodyHeight > 0 && height > 0 ? clamp(Math.log2(height / view.bodyHeight) / 2, -1, 1) : 0,
    largestPrint: page && height > 0 && height >= 0.95 * page.tallest ? 1 : 0,
    ocr: ocrCount > 0 ? 1 : 0,
    ocrConfidence: clamp01(ocrCount ? ocrSum / ocrCount : 1),
    ocrConfidenceMin: clamp01(ocrMin),
    tokens: Math.min(1, tokens.length / 8),
    letters: letters / (chars || 1),
    digits: digits / (chars || 1),
    upperCase: letters ? upper / letters : 0,
    labelWords: keyed ? labelWords / keyed : 0,
    legalForm: legal,
    companyWord: company,
    buyerBlock,
    sentenceWords: keyed ? sentence / keyed : 0,
    fragments: tokens.length ? fragments / tokens.length : 0,
    registrationNext: tokens.length ? registrationNext(context, tokens[tokens.length - 1]!) : 0,
    near: first ? labelsNear(context, first.row, x0, x1) : { gap: 1 },
  };
  context.intrinsic.set(tokens, known);
  return known;
}

export function candidateFeatures(
  list: readonly Candidate[],
  context: FeatureContext,
  field: FieldDefinition,
): number[][] {
  const best = list[0]?.score ?? 0;
  const counts = new Map<string, number>();
  for (const c of list) counts.set(c.value, (counts.get(c.value) ?? 0) + 1);
  let max = -Infinity;
  let min = Infinity;
  let finite = 0;
  for (const c of list) {
    if (typeof c.norm === 'number' && Number.isFinite(c.norm)) {
      finite++;
      max = Math.max(max, c.norm);
      min = Math.min(min, c.norm);
    }
  }
  const dates = field.kind === 'date' ? list.map((c) => String(c.norm)).sort() : [];
  const facts = list.map((c) => intrinsic(context, c.tokens));
  let highest = Infinity;
  for (const f of facts) highest = Math.min(highest, f.top);
  const own = OWN_SET[field.name];
  return list.map((c, i) => {
    const f = facts[i]!;
    const source = c.source;
    const value = typeof c.norm === 'number' ? c.norm : Number.NaN;
    const near = f.near;
    const features: Record<FeatureName, number> = {
      bias: 1,
      score: clamp01(c.score),
      'gap-to-best': clamp(c.score - best, -1, 0),
      'finder-top': i === 0 ? 1 : 0,
      'finder-rank': 1 / (1 + i),
      // A VAT table's column heading is its label.
      'source-label':
        (source.startsWith('label-') && !source.startsWith('label-below')) || source.startsWith('vat-table')
          ? 1
          : 0,
      'source-label-below': source.startsWith('label-below') ? 1 : 0,
      'source-pattern': source.startsWith('pattern') || source === 'printed' || source === 'keywords' ? 1 : 0,
      'source-header': /^(header|after-name|window-address)/.test(source) ? 1 : 0,
      'source-derived': DERIVED.test(source) ? 1 : 0,
      'agrees-with-other-fields': /\+(sum|due|change|rounding|cash|tip)/.test(source) ? 1 : 0,
      'has-label': c.label ? 1 : 0,
      quality: clamp01(c.quality),
      y: clamp01(f.cy),
      x: clamp01(f.cx),
      'top-quarter': f.cy < 0.25 ? 1 : 0,
      'bottom-third': f.cy > 0.66 ? 1 : 0,
      'first-page': f.firstPage,
      'row-on-page': f.rowOnPage,
      'print-size': f.printSize,
      'largest-print': f.largestPrint,
      ocr: f.ocr,
      'ocr-confidence': f.ocrConfidence,
      'ocr-confidence-min': f.ocrConfidenceMin,
      'same-value-count': Math.min(1, ((counts.get(c.value) ?? 1) - 1) / 3),
      tokens: f.tokens,
      letters: f.letters,
      digits: f.digits,
      'upper-case': f.upperCase,
      'label-words': f.labelWords,
      'legal-form': f.legalForm,
      'company-word': f.companyWord,
      'largest-value': finite > 1 && value === max ? 1 : 0,
      'smallest-value': finite > 1 && value === min ? 1 : 0,
      'earliest-value': dates.length > 1 && String(c.norm) === dates[0] ? 1 : 0,
      'latest-value': dates.length > 1 && String(c.norm) === dates[dates.length - 1] ? 1 : 0,
      'highest-on-page': list.length > 1 && f.top === highest ? 1 : 0,
      'currency-printed': c.currency ? 1 : 0,
      'own-label-left': near.left && near.left.set === own ? near.left.strength : 0,
      'own-label-above': near.above && near.above.set === own ? near.above.strength : 0,
      'other-label-left': near.left && near.left.set !== own ? near.left.strength : 0,
      'other-label-above': near.above && near.above.set !== own ? near.above.strength : 0,
      'payment-label-left':
        near.left &&
        (near.left.set === 'cashTendered' || near.left.set === 'change' || near.left.set === 'cardBalance')
          ? 1
          : 0,
      'label-gap': clamp01(near.gap * 2),
      broad: source === 'broad' ? 1 : 0,
      'buyer-block': f.buyerBlock,
      'sentence-words': f.sentenceWords,
      fragments: f.fragments,
      // Of a supplier's name in the letterhead only: a footer prints its registration after whatever
      // it names, and an address line is followed by one as often as not.
      'registration-next': field.name === 'document.supplierName' && f.cy < 0.5 ? f.registrationNext : 0,
    };
    return FEATURE_NAMES.map((name) => features[name]);
  });
}

/** A company number as receipts print it after the name: `(123456-X)`, `Co. No. 123456-X`. */
const REGISTRATION_MARK = /\d{4,8}\s?-\s?[A-Z]\b|\b(co|company|roc|reg|registration)\.?\s*(no|nr|num)\b/iu;

/**
 * Whether the words right after a run (the rest of its row, or the next row close under it) are a
 * registration: a tax id's label or a company number. A legal entity's name is printed over its
 * registration; a shop's trading name or a logo's caption above it is not.
 */
function registrationNext(context: FeatureContext, last: Candidate['tokens'][number]): number {
  const { view } = context;
  const row = view.rows[last.row];
  if (!row) return 0;
  const marks = labelMarks(context);
  const rest = row.tokens.filter((t) => t.box.x0 >= last.box.x1 - 0.001);
  if ((marks.get(row.index) ?? []).some((m) => m.set === 'supplierTaxId' && m.x0 >= last.box.x1 - 0.001))
    return 1;
  if (REGISTRATION_MARK.test(rest.map((t) => t.text).join(' '))) return 1;
  const next = view.rows[row.index + 1];
  if (!next || next.pageNum !== row.pageNum) return 0;
  const y1 = Math.max(...row.tokens.map((t) => t.box.y1));
  const y0 = Math.min(...next.tokens.map((t) => t.box.y0));
  if (y0 - y1 > 1.5 * view.bodyHeight) return 0;
  if ((marks.get(next.index) ?? []).some((m) => m.set === 'supplierTaxId')) return 1;
  return REGISTRATION_MARK.test(next.tokens.map((t) => t.text).join(' ')) ? 1 : 0;
}

function clamp01(v: number): number {
  return clamp(v, 0, 1);
}

function clamp(v: number, lo: number, hi: number): number {
  return Number.isFinite(v) ? Math.max(lo, Math.min(hi, v)) : 0;
}
