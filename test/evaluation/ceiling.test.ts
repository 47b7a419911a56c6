import { describe, expect, it } from 'vitest';
import type { Token, TokenLayer } from '../../src/core/types.js';
import { inText, printedForms } from '../../src/evaluation/ceiling.js';

function layerOf(lines: string[]): TokenLayer {
  const tokens: Token[] = [];
  lines.forEach((line, r) =>
    line.split(' ').forEach((text, c) => {
      tokens.push({
        id: tokens.length,
        text,
        pageNum: 1,
        box: { x0: 0.05 + c * 0.1, y0: 0.05 + r * 0.03, x1: 0.13 + c * 0.1, y1: 0.07 + r * 0.03 },
        confidence: 0.9,
        source: 'ocr',
        lineId: r,
      });
    }),
  );
  return {
    formatVersion: 1,
    fileId: 'receipt',
    mediaType: 'image/jpeg',
    pages: [{ pageNum: 1, width: 600, height: 1200, unit: 'px', rotation: 0, source: 'ocr' }],
    tokens,
    lines: [],
    blocks: [],
    createdAt: '2024-01-01T00:00:00.000Z',
  };
}

const receipt = layerOf([
  'KEDAI RUNCIT ABC SDN BHD',
  'NO 12 JALAN MAJU',
  '28/03/2018 10:41',
  'TOTAL RM 20. 40',
]);

describe('whether OCR put a value in the text', () => {
  it('finds amounts by their digits, spaces and currency aside', () => {
    expect(inText(receipt, 'amount', '20.40')).toBe(true);
    expect(inText(receipt, 'amount', '20.04')).toBe(false);
  });

  it('finds dates in the printed orders', () => {
    expect(printedForms('date', '2018-03-28')).toContain('28032018');
    expect(inText(receipt, 'date', '2018-03-28')).toBe(true);
    expect(inText(receipt, 'date', '2018-03-27')).toBe(false);
  });

  it('finds names as a run of words the scorer accepts, one misread letter allowed', () => {
    expect(inText(receipt, 'text', 'KEDAI RUNCIT ABC SDN BHD')).toBe(true);
    expect(inText(receipt, 'text', 'KEDAI RUNCIT ABD SDN BHD')).toBe(true);
    expect(inText(receipt, 'text', 'KEDAI MAKAN XYZ')).toBe(false);
  });
});
