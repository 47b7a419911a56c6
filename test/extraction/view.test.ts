import { describe, expect, it } from 'vitest';
import type { Page, Token, TokenLayer } from '../../src/core/types.js';
import { createView, keyOf } from '../../src/extraction/view.js';

/** A label at the left and its amount at the far right, the amount 0.028 of the page lower. */
function receipt(ocrCorrection?: Page['ocrCorrection']): TokenLayer {
  const token = (id: number, text: string, cx: number, cy: number): Token => ({
    id,
    text,
    pageNum: 1,
    box: { x0: cx - 0.05, y0: cy - 0.01, x1: cx + 0.05, y1: cy + 0.01 },
    confidence: 0.9,
    source: 'ocr',
    lineId: id,
  });
  return {
    formatVersion: 1,
    fileId: 'skewed',
    mediaType: 'image/png',
    pages: [
      {
        pageNum: 1,
        width: 1000,
        height: 1000,
        unit: 'px',
        rotation: 0,
        source: 'ocr',
        ...(ocrCorrection ? { ocrCorrection } : {}),
      },
    ],
    tokens: [token(0, 'TOTAL', 0.1, 0.5), token(1, '12.50', 0.9, 0.528)],
    lines: [],
    blocks: [],
    createdAt: '2024-01-01T00:00:00.000Z',
  };
}

const rowTexts = (layer: TokenLayer): string[] =>
  createView(layer).rows.map((r) => r.tokens.map((t) => t.text).join(' '));

describe('rows of a skewed scan', () => {
  it('are formed on the straightened heights: a label and its amount far right share a row', () => {
    // Straightened by 2 degrees clockwise before OCR: tan(2°) x 0.8 of the width = 0.028 of the height.
    expect(rowTexts(receipt({ rightAngle: 0, skew: 2, dpi: 0 }))).toEqual(['TOTAL 12.50']);
  });

  it('stay apart where the page was not straightened, or was turned the other way', () => {
    expect(rowTexts(receipt())).toEqual(['TOTAL', '12.50']);
    expect(rowTexts(receipt({ rightAngle: 0, skew: -2, dpi: 0 }))).toEqual(['TOTAL', '12.50']);
    // Skew under 0.2 degrees is left alone.
    expect(rowTexts(receipt({ rightAngle: 0, skew: 0.1, dpi: 0 }))).toEqual(['TOTAL', '12.50']);
  });
});

/**
 * One printed line `Zell am See` as OCR gives it: the words' boxes their letters' own (`am` has no
 * capital: its box is lower and shorter), all three one line of the layout. In a text layer the same
 * boxes are taken as they are.
 */
function smallPrint(source: 'ocr' | 'text'): TokenLayer {
  const word = (id: number, text: string, x0: number, y0: number, y1: number): Token => ({
    id,
    text,
    pageNum: 1,
    box: { x0, y0, x1: x0 + 0.03, y1 },
    confidence: 0.95,
    source,
    lineId: 7,
  });
  const tokens = [
    word(0, 'Zell', 0.1, 0.5, 0.507),
    word(1, 'am', 0.135, 0.5045, 0.5085),
    word(2, 'See', 0.17, 0.5, 0.507),
  ];
  return {
    formatVersion: 1,
    fileId: 'small-print',
    mediaType: 'image/png',
    pages: [{ pageNum: 1, width: 1000, height: 1000, unit: 'px', rotation: 0, source }],
    tokens,
    lines: [
      { id: 7, pageNum: 1, box: { x0: 0.1, y0: 0.5, x1: 0.2, y1: 0.5085 }, tokenIds: [0, 1, 2], blockId: 0 },
    ],
    blocks: [],
    createdAt: '2024-01-01T00:00:00.000Z',
  };
}

describe('rows of OCR words', () => {
  it("stand at their line's height: a word of small letters stays in its line's row", () => {
    expect(rowTexts(smallPrint('ocr'))).toEqual(['Zell am See']);
  });

  it('keep their own heights where the layout put two print lines in one line', () => {
    const layer = smallPrint('ocr');
    // `am` a whole print line below its neighbours, in the same line of the layout.
    const tokens = layer.tokens.map((t) =>
      t.text === 'am' ? { ...t, box: { ...t.box, y0: t.box.y0 + 0.009, y1: t.box.y1 + 0.009 } } : t,
    );
    expect(rowTexts({ ...layer, tokens })).toEqual(['Zell See', 'am']);
  });

  it("in a text layer, words stand at their own boxes' height", () => {
    expect(rowTexts(smallPrint('text'))).toEqual(['Zell See', 'am']);
  });
});

describe('keyOf', () => {
  it('reads typographic apostrophes as the plain one, case and surrounding marks aside', () => {
    expect(keyOf('d’échéance:')).toBe("d'échéance");
    expect(keyOf('(Date')).toBe('date');
    expect(keyOf('l‘ancienne')).toBe("l'ancienne");
  });

  it('keeps the mark of "N°" as a letter: a number\'s label, not the letter N nor the word "no"', () => {
    expect(keyOf('N°')).toBe('nº');
    expect(keyOf('n°:')).toBe('nº');
    expect(keyOf('N')).toBe('n');
    expect(keyOf('No')).toBe('no');
    expect(keyOf('20°C')).toBe('20°c');
  });
});
