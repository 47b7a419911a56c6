import type { TokenLayer } from '../core/types.js';
import type { FieldDefinition, FieldKind } from '../products/types.js';
import {
  CALIBRATION,
  calibrate,
  curveFor,
  type CalibrationGroup,
  type CalibrationTable,
} from './calibration.js';
import { findAmounts } from './finders/amounts.js';
import { findBillingPeriod } from './finders/billing-period.js';
import { findDates } from './finders/dates.js';
import {
  findCurrency,
  findDocumentType,
  findPaymentMethod,
  type ExpectedKind,
} from './finders/document-cues.js';
import { findIdentifiers } from './finders/identifiers.js';
import { findLabels, isRate, patternValues, valuesNear, type Candidate } from './label-search.js';
import { chooseAcrossReadings } from './readings.js';
import { findLineItems } from './finders/line-items.js';
import { findPositionBlocks } from './finders/position-blocks.js';
import { findParties, type PartyCandidates } from './finders/parties.js';
import { findReferences } from './finders/references.js';
import { documentHints, type DocumentHints } from './hints.js';
import { candidateFeatures, featureContext, type FeatureContext } from './candidate-features.js';
import { evidenceOf, rankCandidates, weightsFor, type RankerModel } from './ranker.js';
import { READERS } from './readers.js';
import shippedModel from './ranker-model.json' with { type: 'json' };
import type { VerboseFieldResult } from './types.js';
import { boundingBoxOf, createView, type DocumentView } from './view.js';
import { findKeyValues, keyValueTable } from './finders/key-values.js';
import type { SupplierMemory } from '../ports/supplier-memory-store.js';
import { withLearnedHints, withSupplierMemory } from '../learning/apply.js';
import { recogniseSupplier } from '../learning/recognise.js';

export interface ExtractFieldsOptions {
  fields: readonly FieldDefinition[];
  /** Locale of the account or upload (en-AU, de-DE, ...): reads dates and implies a currency. */
  locale?: string;
  /** Curves mapping evidence to probability; the fitted built-in ones by default. */
  calibration?: CalibrationTable;
  /**
   * The learned ranking of candidates and its calibration: the shipped model (`npm run train`) by
   * default; `false` keeps the finders' own order and the built-in curves.
   */
  ranker?: RankerModel | false;
  /** Called with each field's candidates (the finders' order) and their features: training. */
  collect?: (field: FieldDefinition, candidates: readonly Candidate[], features: number[][]) => void;
  /** What reviews of the account's suppliers taught (src/learning): used when the document is one of theirs. */
  suppliers?: readonly SupplierMemory[];
}

const SUPPLIER_NAME: FieldDefinition = { name: 'document.supplierName', kind: 'text' };
const SUPPLIER_ADDRESS = 'document.supplierAddress';

/** The model `npm run train` fitted on the development corpus (weights and calibration as data). */
const SHIPPED_MODEL = shippedModel as unknown as RankerModel;

const GROUP: Partial<Record<FieldKind, CalibrationGroup>> = {
  amount: 'amount',
  date: 'date',
  reference: 'reference',
  text: 'name',
  currency: 'code',
  documentType: 'code',
  paymentMethod: 'code',
  abn: 'id',
  taxId: 'id',
  iban: 'id',
  bic: 'id',
  bsb: 'id',
  bankAccount: 'id',
  bpayBiller: 'id',
  bpayCrn: 'id',
  integer: 'other',
  table: 'other',
};

export function groupOf(field: FieldDefinition): CalibrationGroup {
  if (field.name === 'document.supplierAddress') return 'address';
  return GROUP[field.kind] ?? 'other';
}

/**
 * Reads every requested field from a document's token layer: candidates from the finders, the best
 * one per field, its calibrated confidence and where it was printed. Fields not found are null.
 */
export function extractFields(layer: TokenLayer, options: ExtractFieldsOptions): VerboseFieldResult[] {
  // A document read more than once: each reading extracted, the answer chosen per field. (Training
  // collects the first reading's candidates only.)
  if (layer.readings && layer.readings.length > 0 && !options.collect) {
    const { readings, ...first } = layer;
    return chooseAcrossReadings(
      layer,
      extractReading(first, options),
      readings.map((reading) => ({ layer: reading, fields: extractReading(reading, options) })),
      options.ranker === false ? undefined : (options.ranker ?? SHIPPED_MODEL).readings,
    );
  }
  return extractReading(layer, options);
}

function extractReading(layer: TokenLayer, options: ExtractFieldsOptions): VerboseFieldResult[] {
  const view = createView(layer);
  // A document of a supplier the account's reviews taught: its memory joins (src/learning).
  const recognition =
    options.suppliers && options.suppliers.length > 0 && !options.collect
      ? recogniseSupplier(view, options.suppliers)
      : undefined;
  const hints = withLearnedHints(documentHints(view, options.locale), recognition);
  const requested = new Set(options.fields.map((f) => f.name));
  const { candidates, parties } = lazyCandidates(view, hints, requested);
  const broad = broadCandidates(view, hints);
  const ranker = options.ranker === false ? undefined : (options.ranker ?? SHIPPED_MODEL);
  const curves = options.calibration ?? ranker?.calibration ?? CALIBRATION;
  let context: FeatureContext | undefined;
  /** A field's candidates, best first, and the one chosen as found (before its score was replaced). */
  const ranked = (field: FieldDefinition): { list: Candidate[]; chosen: Candidate | undefined } => {
    const weights = weightsFor(ranker, field.name);
    const learned = weights !== undefined || options.collect !== undefined;
    // The supplier's address is the one under the name the ranking chose, not the finder's favourite.
    const own =
      field.name === SUPPLIER_ADDRESS && weightsFor(ranker, SUPPLIER_NAME.name)
        ? addressUnderChosenName()
        : candidates(field);
    // A learned ranking chooses among every reading of the field's kind, not only the finder's.
    const found = learned ? withBroad(own, broad(field)) : own;
    if (!learned || found.length === 0) return { list: found, chosen: found[0] };
    context ??= featureContext(view);
    const features = candidateFeatures(found, context, field);
    options.collect?.(field, found, features);
    if (!weights) return { list: found, chosen: found[0] };
    // The model's probability stands in for the finder's score, in the model's order.
    const { order, scores } = rankCandidates(weights, features);
    const list = order.map((i) => ({ ...found[i]!, score: scores[i]! }));
    // Where the finder saw nothing, a reading elsewhere answers only when the model finds it more
    // likely right than not: a field the document does not have stays empty.
    if (own.length === 0 && (list[0]?.score ?? 0) < 0.5) return { list: [], chosen: undefined };
    return { list, chosen: found[order[0]!] };
  };
  let names: ReturnType<typeof ranked> | undefined;
  const addressUnderChosenName = (): Candidate[] => {
    names ??= ranked(SUPPLIER_NAME);
    const finderTop = candidates(SUPPLIER_NAME)[0];
    return names.chosen && names.chosen !== finderTop
      ? parties().addressAfterName(names.chosen)
      : candidates({ name: SUPPLIER_ADDRESS, kind: 'text' });
  };
  /** The source of each field's chosen candidate. */
  const sources: Array<string | undefined> = [];
  const results = options.fields.map((field, i) => {
    if (field.name === GENERIC_KEY_VALUES) return keyValuesField(view, field, hints);
    if (field.kind === 'table') return tableField(view, field, hints);
    const { list } = field.name === SUPPLIER_NAME.name ? (names ??= ranked(field)) : ranked(field);
    sources[i] = list[0]?.source;
    return toResult(field, list, curves, groupOf(field));
  });
  capConfidences(results, sources);
  return recognition ? withSupplierMemory(view, hints, options.fields, results, recognition) : results;
}

/** Values worked out from another field's (by their candidate's source): that field. */
const WORKED_OUT_FROM: Readonly<Record<string, string>> = { 'payment-terms': 'document.date' };

/**
 * The most a value the finders took only as a last resort may be trusted: a tax id found only in the
 * buyer's block (source `...+buyer-block`) is the seller's where that block was misread, the buyer's
 * where the seller prints none; the learned ranking, seeing the first case in documents it learned
 * from, is surer than the second allows.
 */
const LAST_RESORT_CONFIDENCE = 0.45;

/**
 * Ceilings on a value's confidence that its field's ranking and calibration do not know of: a value
 * worked out from another field (a due date from the payment terms and the document date) is no surer
 * than that field's; a last resort is no surer than LAST_RESORT_CONFIDENCE.
 */
function capConfidences(results: VerboseFieldResult[], sources: ReadonlyArray<string | undefined>): void {
  sources.forEach((source, i) => {
    const from = source ? WORKED_OUT_FROM[source] : undefined;
    const base = from ? results.find((r) => r.name === from) : undefined;
    const ceiling = Math.min(
      base?.confidence ?? 1,
      source?.endsWith('+buyer-block') ? LAST_RESORT_CONFIDENCE : 1,
    );
    const result = results[i]!;
    if (result.confidence > ceiling) results[i] = { ...result, confidence: ceiling };
  });
}

function toResult(
  field: FieldDefinition,
  list: Candidate[],
  curves: CalibrationTable,
  group: CalibrationGroup,
): VerboseFieldResult {
  const best = list[0];
  if (!best)
    return {
      name: field.name,
      value: null,
      confidence: 0,
      boundingBox: null,
      valueNorm: null,
      candidates: [],
    };
  // A close runner-up with another value is a reason for doubt.
  const evidence = evidenceOf(
    best,
    list.find((c) => c.value !== best.value),
  );
  const { key, curve } = curveFor(
    curves,
    group,
    best.tokens.some((t) => t.source === 'ocr'),
  );
  return {
    name: field.name,
    value: best.value,
    confidence: round(calibrate(evidence, curve)),
    calibration: { key, evidence: round(evidence) },
    boundingBox: boundingBoxOf(best.tokens),
    text: best.tokens.map((t) => t.text).join(' '),
    valueNorm: best.norm,
    candidates: list.slice(0, 5).map((c) => ({
      value: c.value,
      confidence: round(calibrate(c.score, curve)),
      boundingBox: boundingBoxOf(c.tokens),
      text: c.tokens.map((t) => t.text).join(' '),
    })),
  };
}

function tableField(view: DocumentView, field: FieldDefinition, hints: DocumentHints): VerboseFieldResult {
  // A table of items, or else items printed as blocks of labelled values (an e-invoice viewer's).
  const table =
    findLineItems(view, hints.decimalSeparator ? { decimalSeparator: hints.decimalSeparator } : {}) ??
    findPositionBlocks(view);
  if (!table) return { name: field.name, value: null, confidence: 0, boundingBox: null };
  return {
    name: field.name,
    value: table.value,
    confidence: round(table.score),
    boundingBox: boundingBoxOf(table.tokens),
  };
}

/** The generic fieldset's one field: every label/value pair, as a table (finders/key-values.ts). */
export const GENERIC_KEY_VALUES = 'generic.keyValues';

function keyValuesField(
  view: DocumentView,
  field: FieldDefinition,
  hints: DocumentHints,
): VerboseFieldResult {
  const pairs = findKeyValues(view, hints);
  if (pairs.length === 0) return { name: field.name, value: null, confidence: 0, boundingBox: null };
  return {
    name: field.name,
    value: keyValueTable(pairs),
    // The table's confidence: the mean of its pairs' scores.
    confidence: round(pairs.reduce((sum, p) => sum + p.score, 0) / pairs.length),
    boundingBox: boundingBoxOf(pairs.flatMap((p) => [...p.key, ...p.value])),
  };
}

/** Runs each finder once, on first need: a receipt product never pays for bank details or tables. */
function lazyCandidates(
  view: DocumentView,
  hints: DocumentHints,
  names: Set<string>,
): { candidates: (field: FieldDefinition) => Candidate[]; parties: () => PartyCandidates } {
  const memo = new Map<string, unknown>();
  const once = <T>(key: string, make: () => T): T => {
    if (!memo.has(key)) memo.set(key, make());
    return memo.get(key) as T;
  };
  const amounts = () => once('amounts', () => findAmounts(view, hints));
  const dates = () => once('dates', () => findDates(view, hints));
  const refs = () => once('refs', () => findReferences(view, hints));
  const ids = () => once('ids', () => findIdentifiers(view, hints));
  const parties = () => once('parties', () => findParties(view));
  const period = () => once('period', () => findBillingPeriod(view, hints));
  const expected: ExpectedKind = !names.has('receipt.total')
    ? 'invoice'
    : names.has('invoice.total')
      ? 'either'
      : 'receipt';
  const known: Record<string, () => Candidate[]> = {
    'document.date': () => dates().date,
    'document.referenceNo': () => refs().referenceNo,
    'document.type': () => findDocumentType(view, expected),
    'document.currency': () =>
      findCurrency(
        view,
        hints,
        Object.values(amounts())
          .flat()
          .filter((c) => c.currency)
          .map((c) => ({ code: c.currency!, tokens: c.tokens })),
      ),
    'document.supplierName': () => parties().supplierName,
    'document.supplierAddress': () => parties().supplierAddress,
    'document.supplierABN': () => ids().supplierABN,
    'document.supplierTaxId': () => ids().supplierTaxId,
    'document.customerName': () => parties().customerName,
    'invoice.total': () => amounts().total,
    'invoice.subTotal': () => amounts().subTotal,
    'invoice.tax': () => amounts().tax,
    'invoice.amountDue': () => amounts().amountDue,
    'invoice.amountPaid': () => amounts().amountPaid,
    'invoice.dueDate': () => dates().dueDate,
    'invoice.paymentDate': () => dates().paymentDate,
    'invoice.purchaseOrderNo': () => refs().purchaseOrderNo,
    'bank.accountNo': () => ids().bankAccount,
    'bank.bsb': () => ids().bsb,
    'bank.iban': () => ids().iban,
    'bank.bic': () => ids().bic,
    'bpay.billerCode': () => ids().bpayBiller,
    'bpay.crn': () => ids().bpayCrn,
    'receipt.total': () => amounts().total,
    'receipt.tax': () => amounts().tax,
    'receipt.paymentMethod': () => findPaymentMethod(view),
    'bill.billingPeriodFromDate': () => period().from,
    'bill.billingPeriodToDate': () => period().to,
    'bill.billingPeriodNumberOfDays': () => period().days,
  };
  const candidates = (field: FieldDefinition): Candidate[] => {
    const finder = known[field.name];
    if (finder) return once(`field:${field.name}`, finder);
    return once(`field:${field.name}`, () => hostField(view, hints, field));
  };
  return { candidates, parties };
}

/** Most readings of a field's kind a document offers to the learned ranking. */
const MAX_BROAD = 60;

/**
 * Every reading of an amount or a date anywhere in the document, as candidates of no finder (score 0,
 * source `broad`): the learned ranking judges them by their features (labels near them, place, size).
 */
function broadCandidates(view: DocumentView, hints: DocumentHints): (field: FieldDefinition) => Candidate[] {
  const memo = new Map<string, Candidate[]>();
  const readings = (kind: 'amount' | 'date'): Candidate[] => {
    let list = memo.get(kind);
    if (!list) {
      list = patternValues(view, READERS[kind]!, hints, kind === 'date' ? 5 : 4, 0)
        .filter((c) => kind !== 'amount' || !isRate(view, c))
        .slice(0, MAX_BROAD)
        .map((c) => ({ ...c, score: 0, source: 'broad' }));
      memo.set(kind, list);
    }
    return list;
  };
  return (field) => (field.kind === 'amount' || field.kind === 'date' ? readings(field.kind) : []);
}

/** The finder's candidates, then the broad readings of values the finder did not propose. */
function withBroad(found: Candidate[], broad: Candidate[]): Candidate[] {
  if (broad.length === 0) return found;
  const values = new Set(found.map((c) => c.value));
  return [...found, ...broad.filter((c) => !values.has(c.value) && (values.add(c.value), true))];
}

/** A field a host defined: its own labels, read by the reader of its kind. */
function hostField(view: DocumentView, hints: DocumentHints, field: FieldDefinition): Candidate[] {
  const read = READERS[field.kind];
  const words = Object.values(field.labels ?? {}).flat();
  if (!read || words.length === 0) return [];
  return findLabels(view, { strong: words.map((w) => w.toLowerCase()) })
    .flatMap((hit) => valuesNear(view, hit, read, hints, { maxTokens: 4, below: true }))
    .sort((a, b) => b.score - a.score);
}

function round(v: number): number {
  return Math.round(v * 1000) / 1000;
}
