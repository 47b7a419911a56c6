import type { Block, Box, Line, Token } from '../core/types.js';
import { area, clampBox01, intersection, mapBox, type PointMap } from './geometry.js';
import type { RecognisedRegion } from './ocr-page.js';

/** A word ready for the token layer: text, box in page fractions, confidence and origin. */
export interface PageWord {
  text: string;
  box: Box;
  confidence: number;
  source: 'text' | 'ocr';
}

/** The words OCR found in an image, as blocks of lines of page words (`toPage`: pixels to fractions). */
export function regionBlocks(blocks: RecognisedRegion['blocks'], toPage: PointMap): PageWord[][][] {
  return blocks.map((block) =>
    block.lines.map((line) =>
      line.words.map((w) => ({
        text: w.text,
        box: clampBox01(mapBox(w.box, toPage)),
        confidence: w.confidence,
        source: 'ocr' as const,
      })),
    ),
  );
}

/** OCR words where the text layer has none: where both have a word, the text layer's is exact. */
export function wordsNotInText<W extends { box: Box }>(blocks: W[][][], textBoxes: readonly Box[]): W[][][] {
  return blocks
    .map((block) =>
      block
        .map((line) => line.filter((w) => !textBoxes.some((t) => overlaps(t, w.box))))
        .filter((l) => l.length > 0),
    )
    .filter((b) => b.length > 0);
}

function overlaps(a: Box, b: Box): boolean {
  const shared = intersection(a, b);
  return shared > 0.3 * Math.min(area(a), area(b));
}

/** The box around the words of some lines (at least one word). */
export function boxOfLines(lines: ReadonlyArray<ReadonlyArray<{ box: Box }>>): Box {
  let x0 = Infinity;
  let y0 = Infinity;
  let x1 = -Infinity;
  let y1 = -Infinity;
  for (const line of lines) {
    for (const { box } of line) {
      x0 = Math.min(x0, box.x0);
      y0 = Math.min(y0, box.y0);
      x1 = Math.max(x1, box.x1);
      y1 = Math.max(y1, box.y1);
    }
  }
  return { x0, y0, x1, y1 };
}

/** Box coordinates to six decimals, as the token layer stores them. */
export function roundBox(box: Box): Box {
  return { x0: round6(box.x0), y0: round6(box.y0), x1: round6(box.x1), y1: round6(box.y1) };
}

function round6(v: number): number {
  return Math.round(v * 1e6) / 1e6;
}

/**
 * Numbers a page's blocks of words after what `into` holds: blocks top to bottom, then lines, then
 * words, each token, line and block given the next id. Boxes rounded as the token layer stores them.
 */
export function appendPageBlocks(
  into: { tokens: Token[]; lines: Line[]; blocks: Block[] },
  pageNum: number,
  pageBlocks: PageWord[][][],
): void {
  const { tokens, lines, blocks } = into;
  const ordered = pageBlocks
    .map((b) => ({ lines: b, box: boxOfLines(b) }))
    .sort((a, b) => a.box.y0 - b.box.y0 || a.box.x0 - b.box.x0);
  for (const block of ordered) {
    const blockId = blocks.length;
    const lineIds: number[] = [];
    for (const words of block.lines) {
      const lineId = lines.length;
      const tokenIds: number[] = [];
      for (const word of words) {
        tokenIds.push(tokens.length);
        tokens.push({
          id: tokens.length,
          text: word.text,
          pageNum,
          box: roundBox(word.box),
          confidence: Math.round(word.confidence * 10_000) / 10_000,
          source: word.source,
          lineId,
        });
      }
      lines.push({ id: lineId, pageNum, box: roundBox(boxOfLines([words])), tokenIds, blockId });
      lineIds.push(lineId);
    }
    blocks.push({ id: blockId, pageNum, box: roundBox(block.box), lineIds });
  }
}
