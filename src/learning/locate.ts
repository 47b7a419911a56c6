import type { Box } from '../core/types.js';
import { patternValues, type Candidate } from '../extraction/label-search.js';
import { READERS, type ReadingHints } from '../extraction/readers.js';
import type { DocumentView, ViewToken } from '../extraction/view.js';
import type { FieldKind } from '../products/types.js';
import type { Placement } from '../ports/supplier-memory-store.js';

/** Lower-case letters and digits, words separated by one space: how values and labels are compared. */
export function plainWords(text: string): string {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

/** Kinds whose values are read by a pattern (every other kind is matched as words). */
function readerOf(kind: FieldKind) {
  return kind === 'text' || kind === 'table' ? undefined : READERS[kind];
}

/** Whether two values of a kind are the same value (amounts as numbers, ids without spaces or case). */
export function sameValue(kind: FieldKind, a: string, b: string): boolean {
  if (kind === 'amount' || kind === 'integer') return Number(a) === Number(b);
  if (kind === 'text') return plainWords(a) === plainWords(b);
  return a.replace(/\s+/g, '').toUpperCase() === b.replace(/\s+/g, '').toUpperCase();
}

/** Every reading of the kind in the document, in reading order. */
export function readingsOf(view: DocumentView, hints: ReadingHints, kind: FieldKind): Candidate[] {
  const read = readerOf(kind);
  return read ? patternValues(view, read, hints, kind === 'date' ? 5 : 4, 1) : [];
}

/**
 * Where a value is printed: the tokens of a reading equal to it (one with a label before it on its row
 * preferred: the value as the document presents it, not a mention elsewhere), or for words, the first
 * run of tokens that spells them.
 */
export function locateValue(
  view: DocumentView,
  hints: ReadingHints,
  kind: FieldKind,
  value: string,
  readings?: Candidate[],
): ViewToken[] | undefined {
  if (!readerOf(kind)) return wordRun(view, plainWords(value));
  const found = (readings ?? readingsOf(view, hints, kind)).filter((c) => sameValue(kind, c.value, value));
  const labelled = found.find((c) => labelLeftOf(view, c.tokens) !== undefined);
  return (labelled ?? found[0])?.tokens ?? wordRun(view, plainWords(value)) ?? compactRun(view, value);
}

/** Letters and digits only, upper-case: ids compare (and are found) whatever their spacing. */
export function compactText(text: string): string {
  return text
    .normalize('NFKC')
    .toUpperCase()
    .replace(/[^\p{L}\p{N}]+/gu, '');
}

/** The first run of tokens on one row whose letters and digits are the value's (`BZ 7720-A` for `BZ7720-A`). */
function compactRun(view: DocumentView, value: string): ViewToken[] | undefined {
  const target = compactText(value);
  if (target.length < 3) return undefined;
  for (const row of view.rows) {
    for (let i = 0; i < row.tokens.length; i++) {
      let text = '';
      for (let j = i; j < row.tokens.length && j - i < 6; j++) {
        text += compactText(row.tokens[j]!.text);
        if (text === target) return row.tokens.slice(i, j + 1);
        if (!target.startsWith(text)) break;
      }
    }
  }
  return undefined;
}

/** The first run of tokens (in reading order, across rows) whose words are exactly `target`. */
export function wordRun(view: DocumentView, target: string): ViewToken[] | undefined {
  if (target === '') return undefined;
  const sequence = view.rows.flatMap((r) => r.tokens).map((t) => ({ t, w: plainWords(t.text) }));
  for (let i = 0; i < sequence.length; i++) {
    if (!sequence[i]!.w || !target.startsWith(sequence[i]!.w)) continue;
    let text = '';
    for (let j = i; j < sequence.length && j - i < 60; j++) {
      const w = sequence[j]!.w;
      if (!w) continue;
      text = text ? `${text} ${w}` : w;
      if (text === target)
        return sequence
          .slice(i, j + 1)
          .map((x) => x.t)
          .filter((t) => plainWords(t.text));
      if (!target.startsWith(text)) break;
    }
  }
  return undefined;
}

export function boxOf(tokens: readonly ViewToken[]): Box {
  return {
    x0: Math.min(...tokens.map((t) => t.box.x0)),
    y0: Math.min(...tokens.map((t) => t.box.y0)),
    x1: Math.max(...tokens.map((t) => t.box.x1)),
    y1: Math.max(...tokens.map((t) => t.box.y1)),
  };
}

const hasLetter = (t: ViewToken): boolean => /\p{L}/u.test(t.text);

/** Up to three words with letters just left of the value on its row. */
function labelLeftOf(view: DocumentView, tokens: readonly ViewToken[]): ViewToken[] | undefined {
  const first = tokens[0]!;
  const row = view.rows[first.row];
  if (!row) return undefined;
  const label: ViewToken[] = [];
  for (let c = first.col - 1; c >= 0 && label.length < 3; c--) {
    const t = row.tokens[c]!;
    if (!hasLetter(t)) break;
    label.unshift(t);
  }
  return label.length > 0 ? label : undefined;
}

/** Words of the row above the value that overlap it across (the label of a value printed below it). */
function labelAbove(view: DocumentView, tokens: readonly ViewToken[]): ViewToken[] | undefined {
  const first = tokens[0]!;
  const box = boxOf(tokens);
  for (let r = first.row - 1; r >= 0 && r >= first.row - 2; r--) {
    const row = view.rows[r]!;
    if (row.pageNum !== first.pageNum) return undefined;
    const over = row.tokens.filter((t) => t.box.x1 > box.x0 - 0.02 && t.box.x0 < box.x1 + 0.02);
    if (over.length > 0) return over.every(hasLetter) ? over.slice(0, 4) : undefined;
  }
  return undefined;
}

/** Where the tokens are, and the label that introduces them, when there is one. */
export function placementOf(view: DocumentView, tokens: readonly ViewToken[]): Placement {
  const box = boxOf(tokens);
  const placement: Placement = { pageNum: tokens[0]!.pageNum, box };
  const left = labelLeftOf(view, tokens);
  const above = left ? undefined : labelAbove(view, tokens);
  const label = left ?? above;
  if (label) {
    const at = boxOf(label);
    const words = plainWords(label.map((t) => t.text).join(' ')).slice(0, 60);
    if (words)
      placement.anchor = {
        words,
        side: left ? 'left' : 'above',
        dx: round(box.x0 - (left ? at.x1 : at.x0)),
        dy: round(box.y0 - at.y0),
      };
  }
  return placement;
}

/** Runs of tokens on one row that spell `words` (a label), with their boxes. */
export function labelRuns(view: DocumentView, words: string): Array<{ pageNum: number; box: Box }> {
  const out: Array<{ pageNum: number; box: Box }> = [];
  const first = words.split(' ')[0]!;
  for (const row of view.rows) {
    for (let i = 0; i < row.tokens.length; i++) {
      if (!plainWords(row.tokens[i]!.text).startsWith(first)) continue;
      let text = '';
      for (let j = i; j < row.tokens.length && j - i < 6; j++) {
        const w = plainWords(row.tokens[j]!.text);
        text = text ? `${text} ${w}` : w;
        if (text === words) {
          out.push({ pageNum: row.pageNum, box: boxOf(row.tokens.slice(i, j + 1)) });
          break;
        }
        if (!words.startsWith(text)) break;
      }
    }
  }
  return out;
}

function round(v: number): number {
  return Math.round(v * 10000) / 10000;
}

/**
 * The stretch of tokens (in reading order, as many words as the value has, one more or less) most like
 * the value, letter by letter, when it is at least `least` alike: a name or an address OCR misread.
 */
export function likeRun(view: DocumentView, value: string, least: number): ViewToken[] | undefined {
  const target = plainWords(value);
  const count = target.split(' ').length;
  if (target.length < 4) return undefined;
  const sequence = view.rows.flatMap((r) => r.tokens).filter((t) => plainWords(t.text) !== '');
  const words = sequence.map((t) => plainWords(t.text));
  let best: { score: number; start: number; n: number } | undefined;
  for (let i = 0; i < words.length; i++) {
    for (const n of [count - 1, count, count + 1]) {
      if (n < 1 || i + n > words.length) continue;
      const text = words.slice(i, i + n).join(' ');
      if (Math.abs(text.length - target.length) > target.length * (1 - least)) continue;
      const score = similarity(text, target);
      if (!best || score > best.score) best = { score, start: i, n };
    }
  }
  return best && best.score >= least ? sequence.slice(best.start, best.start + best.n) : undefined;
}

/** Similarity of two strings, 0..1: one less the edit distance over the longer length. */
export function similarity(a: string, b: string): number {
  if (a === b) return 1;
  const n = a.length;
  const m = b.length;
  if (n === 0 || m === 0) return 0;
  let previous = Array.from({ length: m + 1 }, (_, j) => j);
  for (let i = 1; i <= n; i++) {
    const current = [i];
    for (let j = 1; j <= m; j++) {
      current[j] = Math.min(
        previous[j]! + 1,
        current[j - 1]! + 1,
        previous[j - 1]! + (a.charCodeAt(i - 1) === b.charCodeAt(j - 1) ? 0 : 1),
      );
    }
    previous = current;
  }
  return 1 - previous[m]! / Math.max(n, m);
}
