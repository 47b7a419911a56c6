import { sequenceRatio } from '../core/sequence-ratio.js';
import { normText, type TrueLineItem } from './scoring.js';

/**
 * The reference scorer's line-item rules (score.py, `line_item_report`), in TypeScript: a predicted table's
 * rows are matched one to one with the true rows, then counted as row precision, recall and F1 and as
 * cell accuracy per column. The probe documents and `npm run eval` report with these, so their figures
 * agree with score.py's `line items:` line on the same output.
 */
export const LINE_ITEM_COLUMNS = ['description', 'quantity', 'unit_price', 'amount'] as const;
export type LineItemColumn = (typeof LINE_ITEM_COLUMNS)[number];

export type { TrueLineItem };
type PredictedRow = Record<LineItemColumn, string>;

/** Row keys and column types (docex's own names among them: `unitPrice`) -> the scored column. */
const KEYS: Record<string, LineItemColumn> = {
  description: 'description',
  desc: 'description',
  name: 'description',
  item: 'description',
  quantity: 'quantity',
  qty: 'quantity',
  unitprice: 'unit_price',
  unit_price: 'unit_price',
  price: 'unit_price',
  amount: 'amount',
  total: 'amount',
  linetotal: 'amount',
  line_total: 'amount',
};

/** Python's `\b`, which knows letters beyond ASCII (`\bqté\b`): JavaScript's does not. */
const W = '[\\p{L}\\p{N}_]';
const BOUNDARY = `(?:(?<=${W})(?!${W})|(?<!${W})(?=${W}))`;
const rule = (source: string) => new RegExp(source.replaceAll('\\b', BOUNDARY), 'u');

/** A printed heading -> its column, the first rule that matches (score.py's `LI_HEADER_RULES`). */
const HEADER_RULES: Array<[LineItemColumn | null, RegExp]> = [
  [
    'quantity',
    rule(String.raw`\b(qty|qte|qté|quantity|quantité|quantite|menge|anzahl|aantal|hours|stunden|std)\b`),
  ],
  [
    'unit_price',
    rule(
      String.raw`unit ?price|\bp ?u\b|einzelpreis|nettopreis|stückpreis|\bpreis\b|\bprice\b|\brate\b|\beach\b|\bprijs\b|unitaire|\bprix\b(?! ht\b)(?! total)`,
    ),
  ],
  [
    'amount',
    rule(
      String.raw`amount|total|betrag|summe|gesamt|montant|bedrag|totaal|entgelt|nettowert|\bprix ht\b|\bamt\b|extension`,
    ),
  ],
  [null, rule(String.raw`nummer|\bnr\b|\bno\b|\bcode\b|\bsku\b|\bid\b|\bref\b|\bpos\b|gtin|\bean\b|#`)],
  [
    'description',
    rule(
      String.raw`descr|beschreibung|bezeichnung|produkt|product|produit|désignation|designation|libellé|libelle|omschrijving|article|artikel|\bitems?\b|leistung|service|particulars|details|\bnom\b`,
    ),
  ],
];

const NUMBER = /[-\u2212]?\d(?:[\d.,'\u00a0\u202f]*\d)?/gu;

function keyOf(name: unknown): LineItemColumn | undefined {
  const raw = String(name);
  return KEYS[raw.replace(/[\s-]/gu, '').toLowerCase()] ?? KEYS[raw.toLowerCase()];
}

function cellText(cell: unknown): string {
  if (cell === null || cell === undefined) return '';
  if (typeof cell === 'object' && !Array.isArray(cell)) {
    const value = (cell as { value?: unknown }).value;
    return value === null || value === undefined ? '' : String(value);
  }
  return String(cell);
}

/** Every value a printed number in the text can mean, signs dropped (score.py's `li_numbers`). */
export function lineItemNumbers(text: string): number[] {
  const out: number[] = [];
  for (const token of text.match(NUMBER) ?? []) {
    const t = token.replace(/[-\u2212'\u00a0\u202f]/gu, '');
    const readings: string[] = [];
    if (t.includes(',') && t.includes('.')) {
      const comma = t.lastIndexOf(',') > t.lastIndexOf('.');
      readings.push(comma ? t.replace(/\./gu, '').replaceAll(',', '.') : t.replace(/,/gu, ''));
    } else if (t.includes(',') || t.includes('.')) {
      const sep = t.includes(',') ? ',' : '.';
      if (t.split(sep).length > 2) readings.push(t.split(sep).join(''));
      else {
        readings.push(t.replace(sep, '.'));
        if (t.length - t.indexOf(sep) - 1 === 3) readings.push(t.replace(sep, ''));
      }
    } else readings.push(t);
    for (const r of readings) {
      const n = Number(r);
      if (r !== '' && !Number.isNaN(n)) out.push(Math.abs(n));
    }
  }
  return out;
}

function sameCell(column: LineItemColumn, got: string, want: string | undefined, accept: string[]): boolean {
  if (want === undefined || want === null || !got) return false;
  if (column === 'description') {
    const a = normText(got);
    return (
      a !== '' && [want, ...accept].some((w) => a === normText(w) || sequenceRatio(a, normText(w)) >= 0.8)
    );
  }
  const w = Math.abs(Number(want));
  const tolerance = column === 'quantity' ? 1e-9 : 0.005;
  return lineItemNumbers(got).some((x) => Math.abs(x - w) < tolerance);
}

function descriptionRatio(got: string, want: string | undefined, accept: string[]): number {
  const a = normText(got);
  if (!a) return 0;
  return Math.max(
    0,
    ...[want, ...accept].filter((w): w is string => !!w).map((w) => sequenceRatio(a, normText(w))),
  );
}

function headerColumn(heading: unknown): LineItemColumn | null {
  const t = String(heading)
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}_#]+/gu, ' ')
    .trim()
    .split(/\s+/u)
    .join(' ');
  for (const [column, rule] of HEADER_RULES) if (rule.test(t)) return column;
  return null;
}

/**
 * A predicted table -> its rows' cell texts by column (score.py's `li_predicted_rows`): a list of row
 * objects, `{rows: [row objects]}`, or `{headers, rows: [[cell, ...]], types}`, columns taken from
 * their types or, failing those, their headings.
 */
export function predictedLineItems(value: unknown): PredictedRow[] {
  let table = value;
  if (!table) return [];
  if (typeof table === 'string') {
    try {
      table = JSON.parse(table);
    } catch {
      return [];
    }
  }
  const asObject =
    table && typeof table === 'object' && !Array.isArray(table)
      ? (table as Record<string, unknown>)
      : undefined;
  const rows = asObject ? (asObject.rows ?? []) : table;
  if (!Array.isArray(rows)) return [];
  const empty = (): PredictedRow => ({ description: '', quantity: '', unit_price: '', amount: '' });
  if (rows.length > 0 && rows.every((r) => r && typeof r === 'object' && !Array.isArray(r))) {
    return rows.map((r: Record<string, unknown>) => {
      const row = empty();
      for (const [k, v] of Object.entries(r)) {
        const column = keyOf(k);
        if (column && !row[column]) row[column] = cellText(v);
      }
      return row;
    });
  }
  const headers = Array.isArray(asObject?.headers) ? [...(asObject.headers as unknown[])] : [];
  const width = Math.max(headers.length, ...rows.map((r) => (Array.isArray(r) ? r.length : 0)));
  const types = (asObject?.types ?? asObject?.columnTypes) as unknown[] | undefined;
  const roles: Array<LineItemColumn | null | undefined> = Array.isArray(types)
    ? Array.from({ length: width }, (_, i) => (types[i] ? keyOf(types[i]) : null))
    : Array.from({ length: width }, (_, i) => headerColumn(headers[i] ?? ''));
  const pick: Partial<Record<LineItemColumn, number[]>> = {};
  roles.forEach((role, i) => {
    if (role === 'description') (pick.description ??= []).push(i);
    else if (role === 'amount') pick.amount = [i];
    else if ((role === 'quantity' || role === 'unit_price') && !pick[role]) pick[role] = [i];
  });
  return rows.map((r) => {
    const cells = Array.isArray(r) ? (r as unknown[]) : [];
    const row = empty();
    for (const column of LINE_ITEM_COLUMNS)
      row[column] = (pick[column] ?? [])
        .map((i) => (i < cells.length ? cellText(cells[i]) : ''))
        .filter(Boolean)
        .join(' ');
    return row;
  });
}

export interface LineItemPair {
  true: number;
  pred: number;
  cells: Partial<Record<LineItemColumn, boolean>>;
}

/**
 * One-to-one greedy matching (score.py's `li_match`): an equal amount 3 points, a description at least
 * 0.8 alike 2, an equal quantity 1, an equal unit price 1; a pair needs 2 points.
 */
export function matchLineItems(truth: TrueLineItem[], predicted: PredictedRow[]): LineItemPair[] {
  const candidates: Array<{ key: number[]; i: number; j: number; ok: Record<LineItemColumn, boolean> }> = [];
  truth.forEach((t, i) => {
    const accept = t.accept?.description ?? [];
    predicted.forEach((p, j) => {
      const ok = Object.fromEntries(
        LINE_ITEM_COLUMNS.map((c) => [c, sameCell(c, p[c], t[c], c === 'description' ? accept : [])]),
      ) as Record<LineItemColumn, boolean>;
      const points = 3 * +ok.amount + 2 * +ok.description + +ok.quantity + +ok.unit_price;
      if (points >= 2)
        candidates.push({
          key: [-points, -descriptionRatio(p.description, t.description, accept), Math.abs(i - j), i, j],
          i,
          j,
          ok,
        });
    });
  });
  candidates.sort((a, b) => {
    for (let k = 0; k < a.key.length; k++) if (a.key[k] !== b.key[k]) return a.key[k]! - b.key[k]!;
    return 0;
  });
  const usedTrue = new Set<number>();
  const usedPred = new Set<number>();
  const pairs: LineItemPair[] = [];
  for (const { i, j, ok } of candidates) {
    if (usedTrue.has(i) || usedPred.has(j)) continue;
    usedTrue.add(i);
    usedPred.add(j);
    const cells: Partial<Record<LineItemColumn, boolean>> = {};
    for (const c of LINE_ITEM_COLUMNS)
      if (truth[i]![c] !== undefined && truth[i]![c] !== null) cells[c] = ok[c];
    pairs.push({ true: i, pred: j, cells });
  }
  return pairs.sort((a, b) => a.true - b.true);
}

export interface LineItemReport {
  docs: number;
  rowsTrue: number;
  rowsPredicted: number;
  rowsMatched: number;
  precision: number;
  recall: number;
  f1: number;
  cells: Record<LineItemColumn, { n: number; correct: number; accuracy: number | null }>;
}

/** Row precision, recall and F1 and cell accuracy per column over documents (score.py's `line_item_report`). */
export function scoreLineItems(docs: Array<{ truth: TrueLineItem[]; table: unknown }>): LineItemReport {
  let rowsTrue = 0;
  let rowsPredicted = 0;
  let rowsMatched = 0;
  const cells = Object.fromEntries(LINE_ITEM_COLUMNS.map((c) => [c, { n: 0, correct: 0 }])) as Record<
    LineItemColumn,
    { n: number; correct: number }
  >;
  for (const { truth, table } of docs) {
    const predicted = predictedLineItems(table);
    const pairs = matchLineItems(truth, predicted);
    rowsTrue += truth.length;
    rowsPredicted += predicted.length;
    rowsMatched += pairs.length;
    for (const pair of pairs)
      for (const [c, ok] of Object.entries(pair.cells) as Array<[LineItemColumn, boolean]>) {
        cells[c].n++;
        if (ok) cells[c].correct++;
      }
  }
  const precision = rowsPredicted ? rowsMatched / rowsPredicted : 0;
  const recall = rowsTrue ? rowsMatched / rowsTrue : 0;
  return {
    docs: docs.length,
    rowsTrue,
    rowsPredicted,
    rowsMatched,
    precision,
    recall,
    f1: precision + recall ? (2 * precision * recall) / (precision + recall) : 0,
    cells: Object.fromEntries(
      LINE_ITEM_COLUMNS.map((c) => [
        c,
        { ...cells[c], accuracy: cells[c].n ? cells[c].correct / cells[c].n : null },
      ]),
    ) as LineItemReport['cells'],
  };
}
