import { describe, expect, it } from 'vitest';
import { fillUnread, unreadPrint } from '../../src/documents/unread-print.js';
import type { GreyImage } from '../../src/ports/image-backend.js';
import type { OcrWord } from '../../src/ports/ocr-engine.js';

/** A grey page (200) of 400 x 600 pixels with dark bars (40) where print would be. */
function page(bars: Array<[x0: number, y0: number, x1: number, y1: number]>): GreyImage {
  const width = 400;
  const height = 600;
  const data = new Uint8Array(width * height).fill(200);
  for (const [x0, y0, x1, y1] of bars)
    for (let y = y0; y < y1; y++) data.fill(40, y * width + x0, y * width + x1);
  return { width, height, data };
}

const word = (x0: number, y0: number, x1: number, y1: number, text = 'word', confidence = 0.9): OcrWord => ({
  text,
  confidence,
  x0,
  y0,
  x1,
  y1,
});

describe('unreadPrint', () => {
  const bars: Array<[number, number, number, number]> = [
    [20, 20, 380, 60], // a heading
    [20, 200, 300, 215],
    [20, 240, 300, 255],
  ];

  it('is none where the words cover the print', () => {
    const all = bars.map(([x0, y0, x1, y1]) => word(x0, y0, x1, y1));
    expect(unreadPrint(page(bars), all)).toEqual({ share: 0, bands: [] });
  });

  it("is the heading's share of the print and its band, padded, where only the body was read", () => {
    const body = bars.slice(1).map(([x0, y0, x1, y1]) => word(x0, y0, x1, y1));
    const unread = unreadPrint(page(bars), body);
    expect(unread.share).toBeCloseTo(14400 / 22800, 2);
    expect(unread.bands).toHaveLength(1);
    const [y0, y1] = unread.bands[0]!;
    expect(y0).toBeLessThanOrEqual(20);
    expect(y1).toBeGreaterThanOrEqual(60);
    expect(y1).toBeLessThan(200);
  });

  it('is nothing on a page without print', () => {
    expect(unreadPrint(page([]), [])).toEqual({ share: 0, bands: [] });
  });
});

describe('fillUnread', () => {
  const first = [word(0, 100, 200, 120, 'TOTAL')];

  it('adds the words of another reading that lie where the first read none, read surely, with a letter or digit', () => {
    const other = [
      word(0, 10, 200, 40, 'ACME'),
      word(10, 105, 100, 118, 'T0TAL'), // over a word of the first reading
      word(250, 10, 300, 40, 'faint', 0.4), // unsure
      word(320, 10, 330, 40, '|'), // no letter or digit
    ];
    expect(fillUnread(first, other).map((w) => w.text)).toEqual(['TOTAL', 'ACME']);
  });
});
