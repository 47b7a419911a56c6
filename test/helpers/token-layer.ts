import type { Block, Line, Token, TokenLayer } from '../../src/core/types.js';

/**
 * A one-page token layer of rows of words, as OCR would give them: each row a line, words left to
 * right on a grid (row r at y = 0.02 + 0.02 r, word c at x = 0.02 + 0.06 c).
 */
export function layerOfRows(rows: string[][], source: 'ocr' | 'text' = 'ocr'): TokenLayer {
  const tokens: Token[] = [];
  rows.forEach((row, r) =>
    row.forEach((text, c) => {
      const y0 = 0.02 + r * 0.02;
      const x0 = 0.02 + c * 0.06;
      tokens.push({
        id: tokens.length,
        text,
        pageNum: 1,
        box: { x0, y0, x1: x0 + 0.05, y1: y0 + 0.01 },
        confidence: 1,
        source,
        lineId: r,
      });
    }),
  );
  return {
    formatVersion: 1,
    fileId: 'labels',
    mediaType: 'image/png',
    pages: [{ pageNum: 1, width: 1000, height: 1000, unit: 'px', rotation: 0, source }],
    tokens,
    lines: [],
    blocks: [],
    createdAt: '2024-01-01T00:00:00.000Z',
  };
}

/**
 * A one-page receipt as OCR reads it: each row a line of words centred on a narrow page (row r at
 * y = 0.03 + 0.025 r, each letter 0.012 wide), all lines in one layout block, as tesseract often
 * makes of a receipt's head and body.
 */
export function receiptLayer(rows: readonly string[]): TokenLayer {
  const tokens: Token[] = [];
  const lines: Line[] = [];
  rows.forEach((row, r) => {
    const words = row.split(/\s+/).filter((w) => w.length > 0);
    const width = words.reduce((sum, w) => sum + w.length * 0.012, 0) + (words.length - 1) * 0.012;
    const y0 = 0.03 + r * 0.025;
    let x = 0.5 - width / 2;
    const ids: number[] = [];
    for (const text of words) {
      const x1 = x + text.length * 0.012;
      ids.push(tokens.length);
      tokens.push({
        id: tokens.length,
        text,
        pageNum: 1,
        box: { x0: x, y0, x1, y1: y0 + 0.012 },
        confidence: 0.95,
        source: 'ocr',
        lineId: r,
      });
      x = x1 + 0.012;
    }
    const box = { x0: 0.5 - width / 2, y0, x1: 0.5 + width / 2, y1: y0 + 0.012 };
    lines.push({ id: r, pageNum: 1, box, tokenIds: ids, blockId: 0 });
  });
  const blocks: Block[] = [
    {
      id: 0,
      pageNum: 1,
      box: {
        x0: Math.min(...lines.map((l) => l.box.x0)),
        y0: 0.03,
        x1: Math.max(...lines.map((l) => l.box.x1)),
        y1: lines[lines.length - 1]!.box.y1,
      },
      lineIds: lines.map((l) => l.id),
    },
  ];
  return {
    formatVersion: 1,
    fileId: 'receipt',
    mediaType: 'image/jpeg',
    pages: [{ pageNum: 1, width: 1000, height: 1000, unit: 'px', rotation: 0, source: 'ocr' }],
    tokens,
    lines,
    blocks,
    createdAt: '2024-01-01T00:00:00.000Z',
  };
}

/**
 * A receipt printing two companies, each with its street under it: the first at the top (the finder's
 * favourite), the second lower down (what a ranking preferring lower names would choose).
 */
export const TWO_COMPANY_RECEIPT: readonly string[] = [
  'NORTH STAR SDN BHD',
  '12 Jalan Utara, 50000 Kuala Lumpur',
  'TOTAL 12.00',
  'operated by',
  'SOUTH WIND TRADING',
  '7 Jalan Selatan, 81100 Johor Bahru',
];
