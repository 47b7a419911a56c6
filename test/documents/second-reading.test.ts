import { describe, expect, it } from 'vitest';
import { otsuThreshold } from '../../src/documents/raster.js';
import { hasColouredMarks, readingQuality, sauvolaBinarise } from '../../src/documents/second-reading.js';
import type { GreyImage } from '../../src/ports/image-backend.js';

/**
 * A 200 x 100 page: the left half light paper (250) with a faint stroke (185, as thermal print fades),
 * the right half a shaded band (110) with a dark stroke (40).
 */
function unevenPage(): GreyImage {
  const width = 200;
  const height = 100;
  const data = new Uint8Array(width * height);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const right = x >= 100;
      const stroke = y >= 45 && y < 50 && (right ? x >= 130 && x < 170 : x >= 30 && x < 70);
      data[y * width + x] = right ? (stroke ? 40 : 110) : stroke ? 185 : 250;
    }
  return { width, height, data };
}

const at = (image: GreyImage, x: number, y: number) => image.data[y * image.width + x];

describe('Sauvola thresholding', () => {
  it('keeps a faint stroke on light paper and a dark one on a shaded band, where one threshold cannot', () => {
    const page = unevenPage();
    const binary = sauvolaBinarise(page, { window: 31 });
    expect(at(binary, 50, 47)).toBe(0); // the faint stroke is ink
    expect(at(binary, 150, 47)).toBe(0); // the dark stroke is ink
    expect(at(binary, 50, 20)).toBe(255); // paper
    expect(at(binary, 150, 20)).toBe(255); // the shaded band is not ink
    expect(new Set(binary.data)).toEqual(new Set([0, 255]));
    // One global threshold (Otsu) either loses the faint stroke or blackens the band.
    const t = otsuThreshold(page);
    const faintKept = at(page, 50, 47)! < t;
    const bandKept = at(page, 150, 20)! >= t;
    expect(faintKept && bandKept).toBe(false);
  });
});

describe('reading quality', () => {
  it('averages word confidence by letters and digits, punctuation aside', () => {
    const word = (text: string, confidence: number) => ({ text, confidence, x0: 0, y0: 0, x1: 1, y1: 1 });
    expect(readingQuality([])).toEqual({ score: 0, mean: 0, chars: 0 });
    const q = readingQuality([word('TOTAL', 0.9), word('12.50', 0.5), word('---', 0.1)]);
    expect(q.chars).toBe(9);
    expect(q.mean).toBeCloseTo((5 * 0.9 + 4 * 0.5) / 9, 6);
  });
});

describe('coloured marks: an image decoded by luma and by its lightest channel', () => {
  const image = (width: number, height: number, value: number): GreyImage => ({
    width,
    height,
    data: new Uint8Array(width * height).fill(value),
  });

  it('a grey photo (the two decodings apart by JPEG colour noise only) has none', () => {
    const luma = image(100, 100, 200);
    const lightest = { ...luma, data: luma.data.map((v, i) => Math.min(255, v + (i % 7) * 6)) };
    expect(hasColouredMarks(luma, lightest)).toBe(false);
  });

  it('a red stamp of a thousandth of the pixels or more is one; fewer is not', () => {
    const luma = image(100, 100, 250);
    const lightest = image(100, 100, 250);
    for (let i = 0; i < 9; i++) luma.data[i * 37] = 83; // red (215, 25, 35) by luma; 215 by its lightest channel
    for (let i = 0; i < 9; i++) lightest.data[i * 37] = 215;
    expect(hasColouredMarks(luma, lightest)).toBe(false);
    luma.data[5000] = 83;
    lightest.data[5000] = 215;
    expect(hasColouredMarks(luma, lightest)).toBe(true);
  });

  it('images of different sizes are not compared', () => {
    expect(hasColouredMarks(image(10, 10, 0), image(10, 11, 255))).toBe(false);
  });
});
