/**
 * `findLabels` finds its phrases through indexes (phrases by first word, printed words one letter off a
 * long label word, glued-on values worked out once per document). Its hits must be exactly those of
 * the plain scan it replaced, kept below as the reference: every phrase tried at every position.
 */
import { describe, expect, it } from 'vitest';
import { findLabels, isTermCode, type LabelHit } from '../../src/extraction/label-search.js';
import { LABELS, type LabelSet } from '../../src/extraction/labels.js';
import { createView, keyOf, type DocumentView, type Row } from '../../src/extraction/view.js';
import { mulberry32 as random } from '../helpers/random.js';
import { layerOfRows as layerOf } from '../helpers/token-layer.js';

interface Phrase {
  words: string[];
  strength: 'strong' | 'weak';
  text: string;
}

function referencePhrases(set: LabelSet): { match: Phrase[]; not: Phrase[] } {
  const make = (text: string, strength: 'strong' | 'weak'): Phrase => ({
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

function sameWord(token: string, word: string): boolean {
  if (word === '#') return false;
  if (token === word) return true;
  if (word.length < 5 || Math.abs(token.length - word.length) > 1) return false;
  let i = 0;
  let j = 0;
  let edits = 0;
  while (i < token.length && j < word.length) {
    if (token[i] === word[j]) {
      i++;
      j++;
      continue;
    }
    if (++edits > 1) return false;
    if (token.length > word.length) i++;
    else if (word.length > token.length) j++;
    else {
      i++;
      j++;
    }
  }
  return edits + (token.length - i) + (word.length - j) <= 1;
}

function matchAt(row: Row, start: number, phrase: Phrase): { end: number; inline?: string } | undefined {
  let col = start;
  for (let w = 0; w < phrase.words.length; w++) {
    const token = row.tokens[col];
    if (!token) return undefined;
    const word = phrase.words[w]!;
    // OCR's words may be one letter off a label word; a text layer's are as printed.
    const same = (printed: string): boolean =>
      token.source === 'ocr' ? sameWord(printed, word) : printed === word;
    if (word === '#' ? token.text === '#' || token.text === '#:' : same(token.key)) {
      col++;
      continue;
    }
    // A bilingual label's last word starts a phrase ("TPS/GST"): words of two letters or more.
    const parts = token.key.split('/');
    if (
      w === 0 &&
      parts.length > 1 &&
      parts.length <= 3 &&
      parts.every((p) => /^\p{L}{2,}\.?$/u.test(p)) &&
      parts[parts.length - 1] === word
    ) {
      col++;
      continue;
    }
    if (w === phrase.words.length - 1) {
      const m = /^([^:#]+)[:#]\s*(.+)$/u.exec(token.text);
      if (m && same(keyOf(m[1]!))) return { end: col + 1, inline: m[2]! };
      if (word === '#' && w > 0 && /^#[\p{L}\p{N}]/u.test(token.text))
        return { end: col + 1, inline: token.text.slice(1) };
    }
    return undefined;
  }
  return { end: col };
}

function referenceLabels(view: DocumentView, set: LabelSet): LabelHit[] {
  const { match, not } = referencePhrases(set);
  const hits: LabelHit[] = [];
  for (const row of view.rows) {
    for (let start = 0; start < row.tokens.length; start++) {
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

const LETTERS = 'abcdefghijklmnopqrstuvwxyzäé';

/** Printed words: label words as printed, one letter off, glued to values, "#", numbers and others. */
function vocabulary(next: () => number): (word: string) => string[] {
  const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)]!;
  return (word) => {
    const i = Math.floor(next() * word.length);
    const letter = pick([...LETTERS]);
    return [
      word,
      word.toUpperCase(),
      `${word}:`,
      `${word[0]!.toUpperCase()}${word.slice(1)}`,
      word.slice(0, i) + word.slice(i + 1),
      word.slice(0, i) + letter + word.slice(i),
      word.slice(0, i) + letter + word.slice(i + 1),
      `${word}:25/01/2018`,
      `${word}#1234`,
      `${word.slice(0, i)}${word.slice(i + 1)}:INV-7`,
      '#',
      '#:',
      ':',
      '12.50',
      'Acme',
      '(incl.',
    ];
  };
}

const SETS: Array<[string, LabelSet]> = [
  ...Object.entries(LABELS),
  [
    'with # and not',
    { strong: ['invoice #', '# of items', 'no'], weak: ['number'], not: ['phone no', 'sub'] },
  ],
];

function summary(hits: LabelHit[]): unknown[] {
  return hits.map(({ row, ...rest }) => ({ row: row.index, ...rest }));
}

describe('findLabels', () => {
  it("reads a bilingual label's last word ('No TPS/GST :'), not the first of a pair of things ('Client/Matter')", () => {
    const labels = (rows: string[][], set: LabelSet) =>
      findLabels(createView(layerOf(rows, 'text')), set).map((hit) => hit.phrase);
    expect(labels([['No', 'TPS/GST', ':', '827415639', 'RT0001']], LABELS.supplierTaxId!)).toHaveLength(1);
    expect(labels([['Client/Matter', '10442-003']], LABELS.customerName!)).toEqual([]);
    expect(labels([['Paid', '24/7']], LABELS.supplierTaxId!)).toEqual([]);
  });

  it("takes no other number's label that starts with the customer's word for the customer's", () => {
    const customer = (row: string[]) =>
      findLabels(createView(layerOf([row], 'text')), LABELS.customerName!).map((hit) => hit.phrase);
    expect(customer(['Customer', 'PO', 'HOA-2024-118'])).toEqual([]);
    expect(customer(['Customer', '#', 'C-02291'])).toEqual([]);
    expect(customer(['Customer:', 'Stonebrook', 'Commons', 'HOA'])).toEqual(['customer']);
    // Nor a document's title with it ("PATIENT STATEMENT").
    expect(customer(['PATIENT', 'STATEMENT', 'Statement', 'No.', 'S-0093127'])).toEqual([]);
  });

  it('takes a word one letter off a label word for it in OCR only, never in a text layer', () => {
    const rows = [
      ['Kunden', 'AG', 'Mitte'],
      ['Tatal', '32.70'],
    ];
    const customer = (source: 'ocr' | 'text') =>
      findLabels(createView(layerOf(rows, source)), LABELS.customerName!).map((hit) => hit.phrase);
    const total = (source: 'ocr' | 'text') =>
      findLabels(createView(layerOf(rows, source)), LABELS.total!).map((hit) => hit.phrase);
    expect(customer('ocr')).toEqual(['kunde']);
    expect(total('ocr')).toEqual(['total']);
    expect(customer('text')).toEqual([]);
    expect(total('text')).toEqual([]);
  });

  it.each(
    [1, 2, 3, 4, 5, 6, 7, 8].flatMap(
      (seed) =>
        [
          [seed, 'ocr'],
          [seed, 'text'],
        ] as const,
    ),
  )('finds what the plain scan finds (seed %i, %s)', (seed, source) => {
    const next = random(seed);
    const forms = vocabulary(next);
    const phrases = SETS.flatMap(([, set]) => [...set.strong, ...(set.weak ?? []), ...(set.not ?? [])]);
    const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)]!;
    // Whole phrases, most words as printed, some changed; between them single words.
    const rows = Array.from({ length: 60 }, () => {
      const row: string[] = [];
      while (row.length < 1 + Math.floor(next() * 9)) {
        const words = pick(phrases).split(/\s+/);
        if (next() < 0.5) row.push(...words.map((w) => (next() < 0.7 ? w : pick(forms(w)))));
        else row.push(pick(forms(pick(words))));
      }
      return row;
    });
    const view = createView(layerOf(rows, source));
    for (const [name, set] of SETS) {
      const expected = summary(referenceLabels(view, set));
      expect(summary(findLabels(view, set)), name).toEqual(expected);
      // Asked again, the same hits.
      expect(summary(findLabels(view, set)), name).toEqual(expected);
    }
  });
});

describe('term codes of e-invoice viewers', () => {
  it.each([
    ['(BT-112)', true],
    ['[BT-44]', true],
    ['(BT-38/37)', true],
    ['(BG-5):', true],
    ['BT-77120', false],
    ['(BT-77120)', false],
    ['BT-1', true],
    ['BT-1234', false],
  ])('%s is a term code: %s', (text, expected) => {
    expect(isTermCode(text)).toBe(expected);
  });
});
