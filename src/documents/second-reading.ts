import type { GreyImage } from '../ports/image-backend.js';
import type { OcrWord } from '../ports/ocr-engine.js';

/**
 * A second reading of a weak page (faint thermal print, low contrast, a stamp over the text): the image
 * it is read from, and how weak a reading is. Pure: the caller recognises. The two readings are not
 * merged word by word (measured worse than either alone choosing per field: docs/extraction.md);
 * extraction reads both and chooses per field (src/extraction/readings.ts).
 */

/**
 * Largest image binarised for a second reading: its sums take 12 bytes a pixel (about 100 MB at the
 * limit). A receipt photo at recognition size is 1 to 4 million pixels, an A4 page at 240 dpi 5.6.
 */
export const MAX_SECOND_READING_PIXELS = 8_000_000;

/**
 * Sauvola's local threshold: a pixel is ink when darker than mean x (1 + k (sd / 128 - 1)) of the
 * window around it. Unlike one global threshold (Otsu), faint strokes on a light background survive,
 * and a shaded band does not turn black. `window` in pixels (odd; default from the image's size).
 */
export function sauvolaBinarise(image: GreyImage, options: { window?: number; k?: number } = {}): GreyImage {
  const { width, height, data } = image;
  const k = options.k ?? 0.2;
  const half = Math.max(
    3,
    Math.floor((options.window ?? Math.max(15, Math.round(Math.min(width, height) / 40) | 1)) / 2),
  );
  // Integral images of the values and of their squares, one row and column of zeros in front.
  const stride = width + 1;
  // Sums of at most 255 x 16 million fit 32 bits; sums of squares need a double.
  const cells = stride * (height + 1);
  const sum = width * height <= 16_000_000 ? new Uint32Array(cells) : new Float64Array(cells);
  const squares = new Float64Array(cells);
  for (let y = 0; y < height; y++) {
    let rowSum = 0;
    let rowSquares = 0;
    for (let x = 0; x < width; x++) {
      const v = data[y * width + x]!;
      rowSum += v;
      rowSquares += v * v;
      const at = (y + 1) * stride + x + 1;
      sum[at] = sum[at - stride]! + rowSum;
      squares[at] = squares[at - stride]! + rowSquares;
    }
  }
  const out = new Uint8Array(width * height);
  for (let y = 0; y < height; y++) {
    const y0 = Math.max(0, y - half);
    const y1 = Math.min(height, y + half + 1);
    for (let x = 0; x < width; x++) {
      const x0 = Math.max(0, x - half);
      const x1 = Math.min(width, x + half + 1);
      const n = (y1 - y0) * (x1 - x0);
      const a = y0 * stride + x0;
      const b = y0 * stride + x1;
      const c = y1 * stride + x0;
      const d = y1 * stride + x1;
      const s = sum[d]! - sum[b]! - sum[c]! + sum[a]!;
      const q = squares[d]! - squares[b]! - squares[c]! + squares[a]!;
      const mean = s / n;
      const sd = Math.sqrt(Math.max(0, q / n - mean * mean));
      const threshold = mean * (1 + k * (sd / 128 - 1));
      out[y * width + x] = data[y * width + x]! < threshold ? 0 : 255;
    }
  }
  return { width, height, data: out };
}

/** A pixel whose lightest channel is this much lighter than its luma is coloured ink... */
const COLOURED = 64;
/** ...and an image with at least this share of such pixels carries coloured marks. */
const COLOURED_SHARE = 0.001;

/**
 * Whether an image carries coloured ink (a stamp, a pen mark, a coloured logo): `lightest` is the same
 * image decoded from each pixel's lightest channel, `luma` by its luma. A grey photo's two decodings
 * differ only by the JPEG's colour noise, and its second reading stays the luma's.
 */
export function hasColouredMarks(luma: GreyImage, lightest: GreyImage): boolean {
  if (luma.width !== lightest.width || luma.height !== lightest.height) return false;
  const needed = Math.max(1, Math.ceil(luma.data.length * COLOURED_SHARE));
  let coloured = 0;
  for (let i = 0; i < luma.data.length; i++) {
    if (lightest.data[i]! - luma.data[i]! >= COLOURED && ++coloured >= needed) return true;
  }
  return false;
}

/** How much readable text a recognition produced: letters and digits weighted by confidence. */
export function readingQuality(words: readonly OcrWord[]): { score: number; mean: number; chars: number } {
  let chars = 0;
  let score = 0;
  for (const word of words) {
    const n = (word.text.match(/[\p{L}\p{N}]/gu) ?? []).length;
    chars += n;
    score += n * word.confidence;
  }
  return { score, mean: chars === 0 ? 0 : score / chars, chars };
}
