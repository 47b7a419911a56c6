import type { TableValue } from '../types.js';
import { parseDate } from '../normalise/dates.js';
import { READERS, type ReadingHints } from '../readers.js';
import { boundingBoxOf, type DocumentView, type Row, type ViewToken } from '../view.js';

/** One label/value pair printed on a document, as the generic fieldset answers it. */
export interface KeyValuePair {
  key: ViewToken[];
  value: ViewToken[];
  keyText: string;
  valueText: string;
  type: 'date' | 'amount' | 'text';
  /** ISO date, the amount as a number's string, or the text. */
  normalised: string;
  /** How the pair was found and how clean it reads, 0..1 (a heuristic score, see docs/extraction.md). */
  score: number;
  source: 'colon' | 'colon-right' | 'colon-below' | 'gap' | 'inline' | 'column';
}

/** The columns of the generic fieldset's table, in order. */
export const KEY_VALUE_HEADERS = ['key', 'value', 'type', 'normalised', 'confidence'];

/** A gap wider than this many text heights separates two segments of a row (a label and its value). */
const SEGMENT_GAP = 1.2;
const MAX_LABEL_WORDS = 6;
const MAX_LABEL_CHARS = 48;

/** Splits a row into runs of tokens separated by wide gaps. */
function segments(row: Row): ViewToken[][] {
  const out: ViewToken[][] = [];
  let current: ViewToken[] = [];
  for (const token of row.tokens) {
    const previous = current.at(-1);
    if (previous && token.u.x0 - previous.u.x1 > SEGMENT_GAP * Math.max(row.height, 1e-6)) {
      out.push(current);
      current = [];
    }
    current.push(token);
  }
  if (current.length > 0) out.push(current);
  return out;
}

const join = (tokens: readonly ViewToken[]): string => tokens.map((t) => t.text).join(' ');

/** Text that reads as a label: words with letters, short, few digits, not itself a value. */
function isLabel(tokens: readonly ViewToken[]): boolean {
  if (tokens.length === 0 || tokens.length > MAX_LABEL_WORDS) return false;
  const text = join(tokens).replace(/:$/, '');
  if (text.length < 2 || text.length > MAX_LABEL_CHARS) return false;
  const letters = (text.match(/\p{L}/gu) ?? []).length;
  const digits = (text.match(/\d/g) ?? []).length;
  return letters >= 2 && digits <= letters / 3 && !/[$€£]/.test(text);
}

/** The value's type: a date or an amount when it reads as one, else text. */
function typed(
  text: string,
  hints: ReadingHints,
): Pick<KeyValuePair, 'type' | 'normalised'> & { quality: number } {
  // A full stop or comma closing the value is the sentence's, not the value's.
  const compact = text.trim().replace(/[.,;]$/, '');
  // A date: three numeric parts, or a month's name with a year; its order may stay unsure (a lower
  // quality, so a lower score), as in 02/09/1987 on a document that shows no day above 12.
  const looksLikeDate = /\d+\s*[/.-]\s*\d+\s*[/.-]\s*\d+|\p{L}{3,}.*\d{4}|\d{4}.*\p{L}{3,}/u.test(compact);
  // Any year (a date of birth is a date too), unlike the document-date reader's window.
  const date =
    looksLikeDate && compact.length <= 32
      ? parseDate(compact, hints.dateOrder ? { order: hints.dateOrder } : {})
      : undefined;
  if (date) {
    return {
      type: 'date',
      normalised: date.iso,
      quality: date.ambiguous ? (hints.dateOrderSeen ? 0.95 : 0.6) : 1,
    };
  }
  // An amount: the text is a number with two decimals (or a currency), nothing else of note.
  if (/^[^\p{L}]*[\d.,' ]+[^\p{L}]*$|^\p{Lu}{3}\s*[\d.,' ]+$|^[\d.,' ]+\s*\p{Lu}{3}$/u.test(compact)) {
    const amount = READERS.amount?.(compact, hints);
    if (amount && /[.,]\d{2}\b/.test(compact)) {
      return { type: 'amount', normalised: String(amount.norm), quality: amount.quality };
    }
  }
  return { type: 'text', normalised: compact, quality: 1 };
}

function pair(
  key: ViewToken[],
  value: ViewToken[],
  source: KeyValuePair['source'],
  base: number,
  hints: ReadingHints,
): KeyValuePair | undefined {
  const keyText = join(key).replace(/\s*:$/, '').trim();
  const valueText = join(value).replace(/^:\s*/, '').trim();
  if (!keyText || !valueText || valueText === ':') return undefined;
  const reading = typed(valueText, hints);
  // A typed value (a date, an amount) next to a label is the clearest case; long free text the least.
  const typedBonus = reading.type === 'text' ? (valueText.length > 60 ? -0.15 : 0) : 0.08;
  const score = Math.max(0.05, Math.min(0.97, base + typedBonus - (1 - reading.quality) * 0.3));
  return {
    key,
    value,
    keyText,
    valueText,
    type: reading.type,
    normalised: reading.normalised,
    score: Math.round(score * 100) / 100,
    source,
  };
}

/**
 * Every label/value pair printed on the document, like the "forms" output of the big cloud services:
 * - `Label: value` within a run of words (a colon after one to six label words): 0.85;
 * - `Label:` with its value in the next run of the row (past a wide gap): 0.78;
 * - `Label:` alone, its value at the start of the row below, aligned under it: 0.6;
 * - `Label      value` (two runs, the left one all words, the right one with a digit): 0.62;
 * - a row of labels over a row of values, paired column by column (a header table): 0.6;
 * - `Label value` in one run of at most eight words, the value a date, an amount or one number-like
 *   word (`Invoice No 12345`): 0.55.
 * Values are typed as dates or amounts when they read as one. Each token belongs to one pair at most.
 */
export function findKeyValues(view: DocumentView, hints: ReadingHints): KeyValuePair[] {
  const pairs: KeyValuePair[] = [];
  const used = new Set<ViewToken>();
  const take = (found: KeyValuePair | undefined): void => {
    if (!found || [...found.key, ...found.value].some((t) => used.has(t))) return;
    for (const t of [...found.key, ...found.value]) used.add(t);
    pairs.push(found);
  };
  view.rows.forEach((row, r) => {
    const runs = segments(row);
    // A row of labels over a row of values, column by column (an invoice's header table).
    if (runs.length >= 2 && runs.every((run) => isLabel(run) && !/:$/.test(run.at(-1)!.text))) {
      const below = view.rows[r + 1];
      if (below && below.pageNum === row.pageNum && below.box.y0 - row.box.y1 < 2 * row.height) {
        const valueRuns = segments(below);
        // A third row of the same shape makes it a table (line items), whose rows are not pairs.
        const after = view.rows[r + 2];
        const table =
          after !== undefined &&
          after.pageNum === row.pageNum &&
          after.box.y0 - below.box.y1 < 2 * row.height &&
          segments(after).length >= Math.min(runs.length, valueRuns.length) &&
          /\d/.test(join(after.tokens));
        if (!table && valueRuns.some((run) => /\d/.test(join(run)))) {
          for (const label of runs) {
            const x0 = label[0]!.u.x0;
            const x1 = label.at(-1)!.u.x1;
            const value = valueRuns.find(
              (v) => v[0]!.u.x0 < x1 + row.height && v.at(-1)!.u.x1 > x0 - row.height,
            );
            if (value && /\d/.test(join(value))) take(pair(label, value, 'column', 0.6, hints));
          }
          return;
        }
      }
    }
    runs.forEach((run, s) => {
      const colon = run.findIndex((t, i) => i < MAX_LABEL_WORDS && /:$/.test(t.text));
      if (colon >= 0 && isLabel(run.slice(0, colon + 1))) {
        const key = run.slice(0, colon + 1);
        const rest = run.slice(colon + 1);
        if (rest.length > 0) return take(pair(key, rest, 'colon', 0.85, hints));
        const next = runs[s + 1];
        if (next && !(next.length > 0 && /:$/.test(next.at(-1)!.text) && isLabel(next))) {
          return take(pair(key, next, 'colon-right', 0.78, hints));
        }
        // Nothing to the right: the value may sit below, starting under the label.
        const below = view.rows[r + 1];
        if (below && below.pageNum === row.pageNum && below.box.y0 - row.box.y1 < 1.5 * row.height) {
          const x0 = key[0]!.u.x0;
          const under = segments(below).find(
            (seg) => Math.abs(seg[0]!.u.x0 - x0) < 2 * row.height && !/:$/.test(seg.at(-1)!.text),
          );
          if (under) take(pair(key, under, 'colon-below', 0.6, hints));
        }
        return;
      }
      // `Label      value`: exactly two runs on the row, words then something with a digit.
      if (s === 0 && runs.length === 2 && isLabel(run) && /\d/.test(join(runs[1]!))) {
        take(pair(run, runs[1]!, 'gap', 0.62, hints));
        return;
      }
      // `Label value` in one run: label words, then a value that reads as a date, an amount or a
      // number-like reference (`Invoice No 12345`, `Date 03/20/2023`), and nothing else.
      const inline = inlinePair(run, hints);
      if (inline) take(inline);
    });
  });
  return pairs;
}

/** A run that is label words followed by one typed or number-like value, or nothing. */
function inlinePair(run: ViewToken[], hints: ReadingHints): KeyValuePair | undefined {
  if (run.length < 2 || run.length > 8) return undefined;
  for (let split = Math.min(run.length - 1, 4); split >= 1; split--) {
    const key = run.slice(0, split);
    const value = run.slice(split);
    if (!isLabel(key) || key.some((t) => /\d/.test(t.text))) continue;
    const text = join(value);
    const reading = typed(text, hints);
    const referenceLike = value.length === 1 && /\d/.test(text) && /^[\p{L}\d#/.-]{3,}$/u.test(text);
    if (reading.type === 'text' && !referenceLike) continue;
    return pair(key, value, 'inline', 0.55, hints);
  }
  return undefined;
}

/** The pairs as the generic fieldset's table: key and value with their boxes, type, typed value, score. */
export function keyValueTable(pairs: readonly KeyValuePair[]): TableValue {
  return {
    headers: [...KEY_VALUE_HEADERS],
    rows: pairs.map((p) => [
      { value: p.keyText, boundingBox: boundingBoxOf(p.key) },
      { value: p.valueText, boundingBox: boundingBoxOf(p.value) },
      { value: p.type, boundingBox: null },
      { value: p.normalised, boundingBox: null },
      { value: p.score.toFixed(2), boundingBox: null },
    ]),
  };
}
