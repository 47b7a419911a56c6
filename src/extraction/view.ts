import type { Box, Token, TokenLayer } from '../core/types.js';
import { isAscii } from './normalise/text.js';
import type { BoundingBox } from './types.js';

/** A token with what finders keep asking for, computed once. */
export interface ViewToken extends Token {
  /** Lower-case, accents kept, surrounding punctuation removed: for matching labels. */
  key: string;
  /** Index of the token's row in `view.rows`. */
  row: number;
  /** Index of the token inside its row (left to right). */
  col: number;
  height: number;
  /** The box with x scaled to page-height units, so distances across and down compare. */
  u: Box;
}

/**
 * A visual row: tokens of one page whose vertical middles line up, left to right, across column gaps.
 * Lines of the token layer stop at wide gaps; a label and its value far to the right share a row.
 */
export interface Row {
  index: number;
  pageNum: number;
  tokens: ViewToken[];
  box: Box;
  /** Median token height: the row's text size. */
  height: number;
}

/** Read-only helpers over a token layer for finders. */
export interface DocumentView {
  layer: TokenLayer;
  tokens: ViewToken[];
  rows: Row[];
  pageCount: number;
  /** Median token height over the document. */
  bodyHeight: number;
  /** Lower-cased text of the whole document, rows joined by newlines (for document-level cues). */
  text: string;
}

export function keyOf(text: string): string {
  // "N°" (a degree sign for the ordinal) keeps its mark as a letter: a number's label, not the letter N
  // (North, in "4718 N 44th Pl"), nor the word "no" (an address's "No 8").
  return (
    isAscii(text)
      ? text
      : text
          .normalize('NFKC')
          .replace(/[’‘ʼ´]/g, "'")
          .replace(/(?<=n)°/giu, 'º')
  )
    .toLowerCase()
    .replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, '');
}

/** Skew (degrees) below which rows are formed on the heights as they are. */
const MIN_ROW_SKEW = 0.2;
/** An OCR line whose words' middles lie within this share of its tallest word's height is one print line. */
const SINGLE_LINE = 0.6;

export function createView(layer: TokenLayer): DocumentView {
  const aspect = new Map(layer.pages.map((p) => [p.pageNum, p.width / p.height]));
  const tokens: ViewToken[] = layer.tokens.map((t) => {
    const a = aspect.get(t.pageNum) ?? 1;
    // The token's fields listed, not spread: spreading and adding fields cost V8 some 40 times more.
    return {
      id: t.id,
      text: t.text,
      pageNum: t.pageNum,
      box: t.box,
      confidence: t.confidence,
      source: t.source,
      lineId: t.lineId,
      key: keyOf(t.text),
      row: -1,
      col: -1,
      height: t.box.y1 - t.box.y0,
      u: { x0: t.box.x0 * a, y0: t.box.y0, x1: t.box.x1 * a, y1: t.box.y1 },
    };
  });
  const rows: Row[] = [];
  const byPage = new Map<number, ViewToken[]>();
  for (const token of tokens) {
    const list = byPage.get(token.pageNum);
    if (list) list.push(token);
    else byPage.set(token.pageNum, [token]);
  }
  // A scan that was straightened for OCR keeps its boxes where the words are on the page as given:
  // on a page skewed by 1 degree a receipt's label and its amount at the far right lie half a line
  // apart. Rows are formed on the straightened heights.
  const slope = new Map(
    layer.pages.map((p) => [
      p.pageNum,
      p.ocrCorrection && Math.abs(p.ocrCorrection.skew) >= MIN_ROW_SKEW
        ? // Straightened clockwise by `skew`: on the page as given, words further right sit lower.
          (-Math.tan((p.ocrCorrection.skew * Math.PI) / 180) * p.width) / p.height
        : 0,
    ]),
  );
  for (const pageNum of [...byPage.keys()].sort((a, b) => a - b)) {
    const k = slope.get(pageNum) ?? 0;
    const levelOf = (box: Box): number => centreY(box) + k * ((box.x0 + box.x1) / 2 - 0.5);
    // An OCR word stands at its line's height, not its own: a word of small letters (`am`, `see`)
    // has its middle lower than its capitalised neighbours', and on a small print that parted
    // `Zell am See` over two rows. A line's height is its words' mean, where they lie within
    // SINGLE_LINE of their tallest's height of each other (the layout, grouping words by their
    // middles, now and then stacks two print lines in one: those words keep their own). A text
    // layer's words keep their own heights.
    const lineLevel = ocrLineLevels(byPage.get(pageNum)!, levelOf);
    const level = (token: ViewToken): number => lineLevel.get(token.lineId) ?? levelOf(token.box);
    const pageTokens = byPage.get(pageNum)!.sort((a, b) => level(a) - level(b));
    let current: ViewToken[] = [];
    let currentMid = 0;
    let currentHeight = 0;
    // Kept as tokens join the row, not recomputed over the whole row for each token.
    let midSum = 0;
    let heights: number[] = [];
    const flush = (): void => {
      midSum = 0;
      heights = [];
      if (current.length === 0) return;
      current.sort((a, b) => a.box.x0 - b.box.x0);
      const index = rows.length;
      current.forEach((t, i) => {
        t.row = index;
        t.col = i;
      });
      rows.push({
        index,
        pageNum,
        tokens: current,
        box: unionAll(current.map((t) => t.box)),
        height: median(current.map((t) => t.height)),
      });
      current = [];
    };
    for (const token of pageTokens) {
      const mid = level(token);
      if (current.length > 0 && Math.abs(mid - currentMid) > 0.5 * Math.min(currentHeight, token.height))
        flush();
      current.push(token);
      midSum += mid;
      currentMid = midSum / current.length;
      insertSorted(heights, token.height);
      currentHeight = heights[Math.floor(heights.length / 2)]!;
    }
    flush();
  }
  const bodyHeight = median(tokens.map((t) => t.height)) || 0.01;
  const text = rows
    .map((r) => r.tokens.map((t) => t.text).join(' '))
    .join('\n')
    .toLowerCase();
  return { layer, tokens, rows, pageCount: layer.pages.length, bodyHeight, text };
}

/** The mean height of each OCR line's words, for the lines that are one print line (SINGLE_LINE). */
function ocrLineLevels(tokens: readonly ViewToken[], levelOf: (box: Box) => number): Map<number, number> {
  const lines = new Map<number, { min: number; max: number; sum: number; n: number; tallest: number }>();
  for (const t of tokens) {
    if (t.source !== 'ocr') continue;
    const v = levelOf(t.box);
    const line = lines.get(t.lineId);
    if (!line) lines.set(t.lineId, { min: v, max: v, sum: v, n: 1, tallest: t.height });
    else {
      line.min = Math.min(line.min, v);
      line.max = Math.max(line.max, v);
      line.sum += v;
      line.n++;
      line.tallest = Math.max(line.tallest, t.height);
    }
  }
  const levels = new Map<number, number>();
  for (const [id, line] of lines)
    if (line.n > 1 && line.max - line.min <= SINGLE_LINE * line.tallest) levels.set(id, line.sum / line.n);
  return levels;
}

/** Inserts `value` into the ascending `sorted`, keeping it ascending. */
function insertSorted(sorted: number[], value: number): void {
  let i = sorted.length;
  while (i > 0 && sorted[i - 1]! > value) i--;
  sorted.splice(i, 0, value);
}

/** The spec's bounding box of a run of tokens (all on one page: the first token's page wins). */
export function boundingBoxOf(tokens: readonly Token[]): BoundingBox | null {
  const first = tokens[0];
  if (!first) return null;
  const same = tokens.filter((t) => t.pageNum === first.pageNum);
  const box = unionAll(same.map((t) => t.box));
  return {
    pageNum: first.pageNum,
    topLeft: { x: round(box.x0), y: round(box.y0) },
    bottomRight: { x: round(box.x1), y: round(box.y1) },
    tokenIds: tokens.map((t) => t.id),
  };
}

export function centreY(box: Box): number {
  return (box.y0 + box.y1) / 2;
}

export function unionAll(boxes: readonly Box[]): Box {
  return boxes.reduce((a, b) => ({
    x0: Math.min(a.x0, b.x0),
    y0: Math.min(a.y0, b.y0),
    x1: Math.max(a.x1, b.x1),
    y1: Math.max(a.y1, b.y1),
  }));
}

export function median(values: number[]): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

function round(v: number): number {
  return Math.round(v * 1e4) / 1e4;
}

/**
 * Spans of up to `maxTokens` consecutive tokens of each row, left to right: the strings finders try
 * to read as values. A span never crosses a gap wider than `maxGap` body heights.
 */
export function* rowSpans(view: DocumentView, maxTokens: number, maxGap = 1.2): Generator<ViewToken[]> {
  for (const row of view.rows) {
    for (let i = 0; i < row.tokens.length; i++) {
      const span: ViewToken[] = [];
      for (let j = i; j < row.tokens.length && span.length < maxTokens; j++) {
        const token = row.tokens[j]!;
        const previous = span[span.length - 1];
        if (previous && token.u.x0 - previous.u.x1 > maxGap * Math.max(row.height, view.bodyHeight)) break;
        span.push(token);
        yield [...span];
      }
    }
  }
}
