import type { Token, TokenLayer } from '../../src/core/types.js';

/**
 * A one-page token layer of rows of words, as OCR would give them: each row a line, words left to
 * right on a grid (row r at y = 0.02 + 0.02 r, word c at x = 0.02 + 0.06 c).
 */
export function layerOfRows(rows: string[][]): TokenLayer {
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
        source: 'ocr',
        lineId: r,
      });
    }),
  );
  return {
    formatVersion: 1,
    fileId: 'labels',
    mediaType: 'image/png',
    pages: [{ pageNum: 1, width: 1000, height: 1000, unit: 'px', rotation: 0, source: 'ocr' }],
    tokens,
    lines: [],
    blocks: [],
    createdAt: '2024-01-01T00:00:00.000Z',
  };
}
