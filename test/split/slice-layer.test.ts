import { afterAll, describe, expect, it } from 'vitest';
import type { Block, Box, Line, Page, Token, TokenLayer } from '../../src/core/types.js';
import { sliceTokenLayer } from '../../src/split/slice-layer.js';
import { textOnlyEngine } from '../helpers/make-invoices.js';
import { makeMultiDocument } from '../helpers/make-multi.js';

/**
 * A hand-made layer: `words[p][b][l]` are the words of line l of block b of page p+1; ids in reading
 * order, every box distinct (so a box that moved to another token shows).
 */
function layerOf(words: string[][][][]): TokenLayer {
  const pages: Page[] = [];
  const blocks: Block[] = [];
  const lines: Line[] = [];
  const tokens: Token[] = [];
  const box = (n: number): Box => ({ x0: n / 1000, y0: n / 2000, x1: n / 1000 + 0.01, y1: n / 2000 + 0.01 });
  words.forEach((pageBlocks, p) => {
    const pageNum = p + 1;
    pages.push({ pageNum, width: 595, height: 842, unit: 'pt', rotation: 0, source: 'text' });
    for (const blockLines of pageBlocks) {
      const block: Block = { id: blocks.length, pageNum, box: box(blocks.length), lineIds: [] };
      blocks.push(block);
      for (const lineWords of blockLines) {
        const line: Line = {
          id: lines.length,
          pageNum,
          box: box(100 + lines.length),
          tokenIds: [],
          blockId: block.id,
        };
        lines.push(line);
        block.lineIds.push(line.id);
        for (const text of lineWords) {
          const token: Token = {
            id: tokens.length,
            text,
            pageNum,
            box: box(300 + tokens.length),
            confidence: 1,
            source: 'text',
            lineId: line.id,
          };
          tokens.push(token);
          line.tokenIds.push(token.id);
        }
      }
    }
  });
  return {
    formatVersion: 1,
    fileId: 'parent',
    mediaType: 'application/pdf',
    pages,
    tokens,
    lines,
    blocks,
    createdAt: '2024-03-14T10:00:00.000Z',
  };
}

const SAMPLE = layerOf([
  [[['INVOICE'], ['No', 'A-1']], [['Total', '10.00']]],
  [
    [['Page', '2']],
    [
      ['rows', 'only'],
      ['more', 'rows'],
    ],
  ],
  [[['RECHNUNG'], ['Nr', 'B-7']]],
  [],
  [
    [
      ['FACTURE', 'F-9'],
      ['Total', '99,00'],
    ],
  ],
]);

/** Every id equals its index, every reference points at an item of the same page that points back. */
function expectConsistent(layer: TokenLayer): void {
  layer.pages.forEach((p, i) => expect(p.pageNum, 'pages numbered from 1').toBe(i + 1));
  layer.tokens.forEach((t, i) => {
    expect(t.id, 'token id = index').toBe(i);
    const line = layer.lines[t.lineId];
    expect(line, `token ${i}: its line`).toBeDefined();
    expect(line!.tokenIds, `token ${i}: listed by its line`).toContain(t.id);
    expect(line!.pageNum).toBe(t.pageNum);
  });
  layer.lines.forEach((l, i) => {
    expect(l.id, 'line id = index').toBe(i);
    const block = layer.blocks[l.blockId];
    expect(block, `line ${i}: its block`).toBeDefined();
    expect(block!.lineIds).toContain(l.id);
    expect(block!.pageNum).toBe(l.pageNum);
    for (const id of l.tokenIds) expect(layer.tokens[id]?.lineId, `line ${i}: token ${id}`).toBe(l.id);
  });
  layer.blocks.forEach((b, i) => {
    expect(b.id, 'block id = index').toBe(i);
    for (const id of b.lineIds) expect(layer.lines[id]?.blockId, `block ${i}: line ${id}`).toBe(b.id);
  });
  const pageNums = new Set(layer.pages.map((p) => p.pageNum));
  for (const item of [...layer.tokens, ...layer.lines, ...layer.blocks]) {
    expect(pageNums.has(item.pageNum), `page ${item.pageNum} is a page of the slice`).toBe(true);
  }
  // Reading order: tokens by page, then by line.
  for (let i = 1; i < layer.tokens.length; i++) {
    const [a, b] = [layer.tokens[i - 1]!, layer.tokens[i]!];
    expect(a.pageNum < b.pageNum || (a.pageNum === b.pageNum && a.lineId <= b.lineId)).toBe(true);
  }
}

/** The words of each page, by line, for comparing a slice with the pages of its parent. */
function pageTexts(layer: TokenLayer, first = 1, last = layer.pages.length): string[][] {
  const out: string[][] = [];
  for (let p = first; p <= last; p++) {
    out.push(
      layer.lines
        .filter((l) => l.pageNum === p)
        .map((l) => l.tokenIds.map((id) => layer.tokens[id]!.text).join(' ')),
    );
  }
  return out;
}

describe('sliceTokenLayer', () => {
  it('renumbers pages from 1 and ids from 0, in the same order, with consistent references', () => {
    const slice = sliceTokenLayer(SAMPLE, 2, 3, 'child');
    expect(slice.fileId).toBe('child');
    expect(slice.formatVersion).toBe(1);
    expect(slice.mediaType).toBe('application/pdf');
    expect(slice.createdAt).toBe(SAMPLE.createdAt);
    expect(slice.pages.map((p) => p.pageNum)).toEqual([1, 2]);
    expect(slice.tokens.map((t) => t.text)).toEqual([
      'Page',
      '2',
      'rows',
      'only',
      'more',
      'rows',
      'RECHNUNG',
      'Nr',
      'B-7',
    ]);
    expect(slice.tokens.map((t) => t.id)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8]);
    expect(slice.tokens.map((t) => t.pageNum)).toEqual([1, 1, 1, 1, 1, 1, 2, 2, 2]);
    expect(slice.lines.map((l) => l.tokenIds)).toEqual([[0, 1], [2, 3], [4, 5], [6], [7, 8]]);
    expect(slice.lines.map((l) => l.blockId)).toEqual([0, 1, 1, 2, 2]);
    expect(slice.blocks.map((b) => b.lineIds)).toEqual([[0], [1, 2], [3, 4]]);
    expectConsistent(slice);
    expect(pageTexts(slice)).toEqual(pageTexts(SAMPLE, 2, 3));
  });

  it('keeps boxes, confidences, sources and page properties as they were', () => {
    const slice = sliceTokenLayer(SAMPLE, 2, 3, 'child');
    const original = SAMPLE.tokens.filter((t) => t.pageNum === 2 || t.pageNum === 3);
    expect(slice.tokens.map((t) => [t.text, t.box, t.confidence, t.source])).toEqual(
      original.map((t) => [t.text, t.box, t.confidence, t.source]),
    );
    expect(slice.lines.map((l) => l.box)).toEqual(
      SAMPLE.lines.filter((l) => l.pageNum >= 2 && l.pageNum <= 3).map((l) => l.box),
    );
    expect(slice.blocks.map((b) => b.box)).toEqual(
      SAMPLE.blocks.filter((b) => b.pageNum >= 2 && b.pageNum <= 3).map((b) => b.box),
    );
    expect(slice.pages).toEqual([
      { ...SAMPLE.pages[1]!, pageNum: 1 },
      { ...SAMPLE.pages[2]!, pageNum: 2 },
    ]);
  });

  it('holds no token, line or block of another page', () => {
    for (const [first, last] of [
      [1, 1],
      [2, 2],
      [1, 3],
      [3, 5],
      [5, 5],
    ] as const) {
      const slice = sliceTokenLayer(SAMPLE, first, last, 'child');
      const expected = SAMPLE.tokens
        .filter((t) => t.pageNum >= first && t.pageNum <= last)
        .map((t) => t.text);
      expect(
        slice.tokens.map((t) => t.text),
        `pages ${first}-${last}`,
      ).toEqual(expected);
      expect(slice.pages).toHaveLength(last - first + 1);
      expect(slice.lines).toHaveLength(
        SAMPLE.lines.filter((l) => l.pageNum >= first && l.pageNum <= last).length,
      );
      expect(slice.blocks).toHaveLength(
        SAMPLE.blocks.filter((b) => b.pageNum >= first && b.pageNum <= last).length,
      );
      expectConsistent(slice);
    }
  });

  it('an empty page slices to a page without tokens', () => {
    const slice = sliceTokenLayer(SAMPLE, 4, 4, 'child');
    expect(slice.pages).toEqual([{ ...SAMPLE.pages[3]!, pageNum: 1 }]);
    expect(slice.tokens).toEqual([]);
    expect(slice.lines).toEqual([]);
    expect(slice.blocks).toEqual([]);
  });

  it('the whole range is the layer itself, under the new file id', () => {
    expect(sliceTokenLayer(SAMPLE, 1, 5, 'child')).toEqual({ ...SAMPLE, fileId: 'child' });
  });

  it('does not change the layer it slices', () => {
    const before = structuredClone(SAMPLE);
    sliceTokenLayer(SAMPLE, 2, 4, 'child');
    expect(SAMPLE).toEqual(before);
  });

  describe('on a layer read from a generated PDF', () => {
    const engine = textOnlyEngine();
    afterAll(() => engine.close());

    it('every range of every document slices consistently, page texts as in the parent', async () => {
      const multi = await makeMultiDocument({ seed: 11, documents: 4, pageCounts: [2, 1, 3, 1] });
      const record = await engine.upload(multi.pdf);
      const layer = await engine.ingest(record.fileId);
      expectConsistent(layer);
      for (const [first, last] of [
        ...multi.segments,
        [1, layer.pages.length] as [number, number],
        [3, 5] as [number, number],
      ]) {
        const slice = sliceTokenLayer(layer, first, last, 'child');
        expectConsistent(slice);
        expect(pageTexts(slice), `pages ${first}-${last}`).toEqual(pageTexts(layer, first, last));
        expect(slice.tokens.map((t) => t.box)).toEqual(
          layer.tokens.filter((t) => t.pageNum >= first && t.pageNum <= last).map((t) => t.box),
        );
      }
    });
  });
});
