import type { Box } from '../../core/types.js';
import type { LabelSet } from '../labels.js';
import type { Reader, ReadingHints, ReadValue } from '../readers.js';
import { keyOf, type DocumentView, type Row, type ViewToken } from '../view.js';

/** A value with where it was read and how much the reading is worth before calibration (0..1). */
export interface Candidate extends ReadValue {
  tokens: ViewToken[];
  /** Evidence score, 0..1: label strength, placement, reading quality. Calibrated into a confidence. */
  score: number;
  /** How it was found, for calibration and `verbose` output: `label-right`, `label-below`, `pattern`, ... */
  source: string;
  label?: string;
}

export interface LabelHit {
  row: Row;
  /** Token positions in the row: the label covers [start, end). */
  start: number;
  end: number;
  strength: 'strong' | 'weak';
  phrase: string;
  /** Text glued to the label's last word (`Date:25/01/2018`), when there is some. */
  inline?: string;
  box: Box;
}

interface Phrase {
  words: string[];
  strength: 'strong' | 'weak';
  text: string;
}

function phrasesOf(set: LabelSet): { match: Phrase[]; not: Phrase[] } {
  const make = (text: string, strength: 'strong' | 'weak'): Phrase => ({
    // "#" is a label word of its own; other punctuation is dropped from label words.
    words: text
      .split(/\s+/)
      .map((w) => (w === '#' ? '#' : keyOf(w)))
      .filter((w) => w.length > 0),
    strength,
    text,
  });
  const match = [...set.strong.map((p) => make(p, 'strong')), ...(set.weak ?? []).map((p) => make(p, 'weak'))]
    .filter((p) => p.words.length > 0)
    .sort((a, b) => b.words.length - a.words.length);
  return { match, not: (set.not ?? []).map((p) => make(p, 'strong')).filter((p) => p.words.length > 0) };
}

/** Two words are the same label word; OCR may have changed one letter of a long word. */
function sameWord(token: string, word: string): boolean {
  if (word === '#') return false;
  if (token === word) return true;
  if (word.length < 5 || Math.abs(token.length - word.length) > 1) return false;
  return editDistanceAtMostOne(token, word);
}

function editDistanceAtMostOne(a: string, b: string): boolean {
  let i = 0;
  let j = 0;
  let edits = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      i++;
      j++;
      continue;
    }
    if (++edits > 1) return false;
    if (a.length > b.length) i++;
    else if (b.length > a.length) j++;
    else {
      i++;
      j++;
    }
  }
  return edits + (a.length - i) + (b.length - j) <= 1;
}

/** Where the phrase matches at `start` in the row: the end position and any glued-on value text. */
function matchAt(row: Row, start: number, phrase: Phrase): { end: number; inline?: string } | undefined {
  let col = start;
  for (let w = 0; w < phrase.words.length; w++) {
    const token = row.tokens[col];
    if (!token) return undefined;
    const word = phrase.words[w]!;
    if (word === '#' ? token.text === '#' || token.text === '#:' : sameWord(token.key, word)) {
      col++;
      continue;
    }
    // The last word may carry its value after a colon or hash: `Date:25/01/2018`, `No:1234`.
    if (w === phrase.words.length - 1) {
      const m = /^([^:#]+)[:#]\s*(.+)$/u.exec(token.text);
      if (m && sameWord(keyOf(m[1]!), word)) return { end: col + 1, inline: m[2]! };
    }
    return undefined;
  }
  return { end: col };
}

/** Every place a label of the set is printed, longest phrase first at each position. */
export function findLabels(view: DocumentView, set: LabelSet): LabelHit[] {
  const { match, not } = phrasesOf(set);
  const hits: LabelHit[] = [];
  for (const row of view.rows) {
    for (let start = 0; start < row.tokens.length; start++) {
      // A label starts a phrase: the token before it is not a letter word joined to it ("Sub" + "Total").
      const excluded = not.some((p) => {
        for (let back = 0; back < p.words.length && start - back >= 0; back++) {
          const m = matchAt(row, start - back, p);
          if (m && m.end > start) return true;
        }
        return false;
      });
      if (excluded) continue;
      for (const phrase of match) {
        const m = matchAt(row, start, phrase);
        if (!m) continue;
        const tokens = row.tokens.slice(start, m.end);
        hits.push({
          row,
          start,
          end: m.end,
          strength: phrase.strength,
          phrase: phrase.text,
          ...(m.inline !== undefined ? { inline: m.inline } : {}),
          box: tokens.reduce(
            (a, t) => ({
              x0: Math.min(a.x0, t.u.x0),
              y0: Math.min(a.y0, t.u.y0),
              x1: Math.max(a.x1, t.u.x1),
              y1: Math.max(a.y1, t.u.y1),
            }),
            { ...tokens[0]!.u },
          ),
        });
        start = m.end - 1;
        break;
      }
    }
  }
  return hits;
}

export interface NearOptions {
  /** Most tokens a value spans. */
  maxTokens: number;
  /** Also look on the rows below the label. */
  below?: boolean;
  /** How far right a value may be, in row heights (default: the whole row). */
  maxRightGap?: number;
  /**
   * Which value right of the label to take when the row holds several: the nearest (`first`, default)
   * or the last before `stopAt` (`last`: "Tax 15% on 112.90 16.94" is 16.94).
   */
  pick?: 'first' | 'last';
  /** Tokens that begin another label: the search to the right stops there. */
  stopAt?: ReadonlySet<number>;
  /** Only the first word after the label may start the value ("Invoice Date" holds no number). */
  adjacent?: boolean;
}

const SEPARATOR = /^[:#\-–=.]+$/u;

/**
 * The best reading of a span starting at `tokens[start]`: the cleanest (highest quality), and of those
 * the longest. Longest-first alone would let a loose reading of "FR119 - SIRET" beat "FR119".
 */
function bestSpanAt(
  tokens: readonly ViewToken[],
  start: number,
  maxTokens: number,
  read: Reader,
  hints: ReadingHints,
): { span: ViewToken[]; value: ReadValue } | undefined {
  let best: { span: ViewToken[]; value: ReadValue } | undefined;
  for (let n = Math.min(maxTokens, tokens.length - start); n >= 1; n--) {
    const span = tokens.slice(start, start + n);
    const value = read(span.map((t) => t.text).join(' '), hints);
    if (value && (!best || value.quality > best.value.quality)) best = { span, value };
  }
  return best;
}

/** Values readable next to a label: glued to it, to its right on the row, or just below it. */
export function valuesNear(
  view: DocumentView,
  hit: LabelHit,
  read: Reader,
  hints: ReadingHints,
  options: NearOptions,
): Candidate[] {
  const out: Candidate[] = [];
  const strength = hit.strength === 'strong' ? 1 : 0.6;
  const lastLabelToken = hit.row.tokens[hit.end - 1]!;
  if (hit.inline) {
    const value = read(hit.inline, hints);
    if (value)
      out.push({
        ...value,
        tokens: [lastLabelToken],
        score: strength * value.quality,
        source: 'label-inline',
        label: hit.phrase,
      });
  }
  const rowHeight = Math.max(hit.row.height, view.bodyHeight);
  let right = hit.row.tokens.slice(hit.end);
  const stop = right.findIndex((t) => options.stopAt?.has(t.id));
  if (stop >= 0) right = right.slice(0, stop);
  const found: Array<{ span: ViewToken[]; value: ReadValue; gap: number; index: number }> = [];
  for (let i = 0; i < right.length && found.length < (options.pick === 'last' ? 6 : 1); i++) {
    const first = right[i]!;
    if (SEPARATOR.test(first.text)) continue;
    const gap = (first.u.x0 - hit.box.x1) / rowHeight;
    if (options.maxRightGap !== undefined && gap > options.maxRightGap) break;
    if (options.pick !== 'last' && i >= 4) break;
    if (options.adjacent && right.slice(0, i).some((t) => !SEPARATOR.test(t.text))) break;
    const best = bestSpanAt(right, i, options.maxTokens, read, hints);
    if (!best) continue;
    found.push({ ...best, gap, index: i });
    i += best.span.length - 1;
  }
  const chosen = options.pick === 'last' ? found[found.length - 1] : found[0];
  if (chosen) {
    // Nearer is likelier; a value separated by other words is less likely the label's.
    const between = options.pick === 'last' ? 0 : chosen.index;
    const placement = Math.max(0.55, 1 - 0.015 * Math.max(0, chosen.gap - 2)) * (between === 0 ? 1 : 0.8);
    out.push({
      ...chosen.value,
      tokens: chosen.span,
      score: strength * placement * chosen.value.quality,
      source: 'label-right',
      label: hit.phrase,
    });
  }
  if (options.below) {
    const rows = view.rows;
    for (let r = hit.row.index + 1, seen = 0; r < rows.length && seen < 2; r++) {
      const row = rows[r]!;
      if (row.pageNum !== hit.row.pageNum) break;
      if (row.box.y0 - hit.row.box.y1 > 2.5 * rowHeight) break;
      seen++;
      const under = row.tokens.filter(
        (t) => t.u.x1 > hit.box.x0 - rowHeight && t.u.x0 < hit.box.x1 + 2 * rowHeight,
      );
      if (under.length === 0) continue;
      const best = bestSpanAt(row.tokens, row.tokens.indexOf(under[0]!), options.maxTokens, read, hints);
      if (!best) continue;
      out.push({
        ...best.value,
        tokens: best.span,
        score: strength * (seen === 1 ? 0.85 : 0.65) * best.value.quality,
        source: 'label-below',
        label: hit.phrase,
      });
      break;
    }
  }
  return out;
}

/** Every span of the document that reads as a value of the kind (no label needed). */
export function patternValues(
  view: DocumentView,
  read: Reader,
  hints: ReadingHints,
  maxTokens: number,
  baseScore: number,
): Candidate[] {
  const out: Candidate[] = [];
  for (const row of view.rows) {
    for (let i = 0; i < row.tokens.length; i++) {
      const best = bestSpanAt(row.tokens, i, maxTokens, read, hints);
      if (!best) continue;
      out.push({
        ...best.value,
        tokens: best.span,
        score: baseScore * best.value.quality,
        source: 'pattern',
      });
      i += best.span.length - 1;
    }
  }
  return out;
}
