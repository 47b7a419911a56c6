import { sequenceRatio } from '../core/sequence-ratio.js';

/**
 * The corpus scoring rules of the reference scorer score.py, in TypeScript: the same vocabulary mapping, the
 * same comparisons per kind of value, the same calibration figures. `npm run eval` reports with these
 * and its figures agree with the reference scorer on the same output.
 */
export type ValueKind = 'date' | 'amount' | 'code' | 'id' | 'text';

export const INVOICE_MAP: Record<string, string> = {
  invoice_number: 'document.referenceNo',
  date: 'document.date',
  due_date: 'invoice.dueDate',
  total: 'invoice.total',
  subtotal: 'invoice.subTotal',
  tax: 'invoice.tax',
  amount_due: 'invoice.amountDue',
  currency: 'document.currency',
  issuer: 'document.supplierName',
  issuer_tax_id: 'document.supplierTaxId',
  issuer_address: 'document.supplierAddress',
  customer_name: 'document.customerName',
  order_number: 'invoice.purchaseOrderNo',
  iban: 'bank.iban',
};

export const RECEIPT_MAP: Record<string, string> = {
  invoice_number: 'document.referenceNo',
  date: 'document.date',
  total: 'receipt.total',
  tax: 'receipt.tax',
  currency: 'document.currency',
  issuer: 'document.supplierName',
  issuer_tax_id: 'document.supplierTaxId',
  issuer_address: 'document.supplierAddress',
};

export const KIND: Record<string, ValueKind> = {
  date: 'date',
  due_date: 'date',
  total: 'amount',
  subtotal: 'amount',
  tax: 'amount',
  amount_due: 'amount',
  currency: 'code',
  invoice_number: 'id',
  issuer_tax_id: 'id',
  iban: 'id',
  order_number: 'id',
  issuer: 'text',
  issuer_address: 'text',
  customer_name: 'text',
};

export function productFor(type: string): string {
  return type === 'receipt' ? 'receipts:1' : 'invoices:2';
}

export function fieldMapFor(type: string): Record<string, string> {
  return type === 'receipt' ? RECEIPT_MAP : INVOICE_MAP;
}

export function normText(value: string): string {
  return value
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}_]+/gu, ' ')
    .split(/\s+/)
    .filter(Boolean)
    .join(' ');
}

function amountOf(value: string): number | undefined {
  const n = Number(String(value).replace(/,/g, '').trim());
  return String(value).trim() === '' || Number.isNaN(n) ? undefined : n;
}

export function sameValue(kind: ValueKind, got: unknown, want: string): boolean {
  if (got === null || got === undefined) return false;
  const g = String(got);
  switch (kind) {
    case 'amount': {
      const a = amountOf(g);
      const b = amountOf(want);
      return a !== undefined && b !== undefined && Math.abs(a - b) < 0.005;
    }
    case 'date':
      return g.trim() === String(want).trim();
    case 'code':
      return g.trim().toUpperCase() === String(want).trim().toUpperCase();
    case 'id': {
      const f = (v: string) => v.replace(/\s+/g, '').toUpperCase();
      return f(g) === f(String(want));
    }
    case 'text': {
      const a = normText(g);
      const b = normText(String(want));
      if (!a) return false;
      return a === b || sequenceRatio(a, b) >= 0.9;
    }
  }
}

/** A true item row: description, quantity, unit price and amount as printed (a column not printed left out). */
export type TrueLineItem = Partial<Record<'description' | 'quantity' | 'unit_price' | 'amount', string>> & {
  accept?: { description?: string[] };
};

export interface GroundTruth {
  file: string;
  type: string;
  format?: string;
  /** The template family (documents of one supplier or layout): the unit held out in cross-validation. */
  family?: string;
  /** Where the document comes from; `generated` for the project's own generated corpus. */
  source?: string;
  fields: Record<string, string | null>;
  accept?: Record<string, string[]>;
  /** The item table's rows (some e-invoices), scored apart from the fields (./line-item-scoring.ts). */
  line_items?: TrueLineItem[];
}

export interface PredictedField {
  name: string;
  value: unknown;
  confidence?: number;
  /** Alternatives with their confidences, best first (a reading's runners-up, for choosing across readings). */
  candidates?: ReadonlyArray<{ value: string; confidence: number }>;
}

export interface ScoreRow {
  file: string;
  field: string;
  want: string;
  got: unknown;
  ok: boolean;
  confidence: number | null;
}

export interface FieldStats {
  n: number;
  correct: number;
  predicted: number;
  accuracy: number;
  precision: number | null;
  recall: number;
}

export interface ScoreReport {
  accuracy: number;
  fields: number;
  correct: number;
  filesMissing: number;
  perField: Record<string, FieldStats>;
  byType: Record<string, { n: number; correct: number; accuracy: number }>;
  reliability: Array<{ bin: string; n: number; meanConfidence: number | null; shareCorrect: number | null }>;
  ece: number;
  highConfidence: { n: number; precision: number | null };
  rows: ScoreRow[];
}

/** Scores predictions against ground truths, exactly as score.py does. */
export function scoreCorpus(
  truths: GroundTruth[],
  predictions: Map<string, PredictedField[] | undefined>,
): ScoreReport {
  const rows: ScoreRow[] = [];
  const perField = new Map<string, { n: number; correct: number; predicted: number }>();
  const byType = new Map<string, { n: number; correct: number }>();
  const pairs: Array<[number, boolean]> = [];
  let filesMissing = 0;
  for (const gt of truths) {
    if (gt.type === 'multi') continue;
    const predicted = predictions.get(gt.file);
    if (predicted === undefined) filesMissing++;
    const fields = new Map((predicted ?? []).map((f) => [f.name, f]));
    const map = fieldMapFor(gt.type);
    for (const [key, want] of Object.entries(gt.fields)) {
      const kind = KIND[key];
      const name = map[key];
      if (!name || !kind || want === null || want === '') continue;
      const f = fields.get(name);
      const got = f?.value ?? null;
      const ok =
        sameValue(kind, got, want) || (gt.accept?.[key] ?? []).some((alt) => sameValue(kind, got, alt));
      const pf = perField.get(key) ?? { n: 0, correct: 0, predicted: 0 };
      pf.n++;
      pf.correct += ok ? 1 : 0;
      pf.predicted += got !== null ? 1 : 0;
      perField.set(key, pf);
      const typeKey = `${gt.type}/${gt.format ?? '?'}`;
      const bt = byType.get(typeKey) ?? { n: 0, correct: 0 };
      bt.n++;
      bt.correct += ok ? 1 : 0;
      byType.set(typeKey, bt);
      if (got !== null && typeof f?.confidence === 'number') pairs.push([f.confidence, ok]);
      rows.push({
        file: gt.file,
        field: key,
        want,
        got,
        ok,
        confidence: typeof f?.confidence === 'number' ? f.confidence : null,
      });
    }
  }
  const { reliability, ece, highConfidence } = calibrationOf(pairs);
  const n = [...perField.values()].reduce((s, p) => s + p.n, 0);
  const correct = [...perField.values()].reduce((s, p) => s + p.correct, 0);
  return {
    accuracy: n ? correct / n : 0,
    fields: n,
    correct,
    filesMissing,
    perField: Object.fromEntries(
      [...perField.entries()]
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([k, v]) => [
          k,
          {
            ...v,
            accuracy: v.correct / v.n,
            precision: v.predicted ? v.correct / v.predicted : null,
            recall: v.correct / v.n,
          },
        ]),
    ),
    byType: Object.fromEntries(
      [...byType.entries()]
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([k, v]) => [k, { ...v, accuracy: v.correct / v.n }]),
    ),
    reliability,
    ece,
    highConfidence,
    rows,
  };
}

/**
 * How well confidences say which values are right, over (confidence, right) pairs of the values given:
 * a reliability table of ten bins, the expected calibration error (the bins' gap between mean
 * confidence and share right, weighted by their size) and the share right of values given >= 0.9.
 */
export function calibrationOf(
  pairs: ReadonlyArray<readonly [number, boolean]>,
): Pick<ScoreReport, 'reliability' | 'ece' | 'highConfidence'> {
  const bins = Array.from({ length: 10 }, () => ({ n: 0, correct: 0, sum: 0 }));
  for (const [confidence, ok] of pairs) {
    const bin = bins[Math.min(9, Math.max(0, Math.floor(confidence * 10)))]!;
    bin.n++;
    bin.correct += ok ? 1 : 0;
    bin.sum += confidence;
  }
  const ece =
    bins.reduce((s, b) => s + (b.n ? Math.abs(b.correct / b.n - b.sum / b.n) * b.n : 0), 0) /
    Math.max(1, pairs.length);
  const high = pairs.filter(([c]) => c >= 0.9);
  return {
    reliability: bins.map((b, i) => ({
      bin: `${(i / 10).toFixed(1)}-${((i + 1) / 10).toFixed(1)}`,
      n: b.n,
      meanConfidence: b.n ? b.sum / b.n : null,
      shareCorrect: b.n ? b.correct / b.n : null,
    })),
    ece,
    highConfidence: {
      n: high.length,
      precision: high.length ? high.filter(([, ok]) => ok).length / high.length : null,
    },
  };
}
