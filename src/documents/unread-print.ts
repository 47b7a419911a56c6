/**
 * What a reading left unread. Tesseract told to read a page as one block of text (the mode that keeps
 * a receipt's label and amount on one line) passes over print of another size: the letterhead's name
 * in large bold, a title. The page's print that no recognised word covers says when that happened, and
 * the words of a reading that segments the page itself can fill those places.
 */
import type { GreyImage } from '../ports/image-backend.js';
import type { OcrWord } from '../ports/ocr-engine.js';
import { downsample, otsuThreshold, paperTone } from './raster.js';

/** The image is measured at about this many pixels on its longer side. */
const MEASURE_SIZE = 600;
/** Ink must be this many grey levels darker than the paper (grain and shading are not print). */
const MIN_CONTRAST = 40;

/** What a reading left unread: the share of the page's print, and where it lies. */
export interface UnreadPrint {
  /** The share of the image's print (dark pixels, at a coarse scale) outside every word's box. */
  share: number;
  /** Bands of pixel rows `[y0, y1)` across the image that hold the unread print, padded. */
  bands: Array<[number, number]>;
}

/**
 * The image's print outside every word's box (each box grown by a cell): its share of all the print
 * (0 when the page holds next to no print), and the bands of rows it lies in, rows of unread print
 * less than BAND_GAP cells apart joined.
 */
export function unreadPrint(image: GreyImage, words: readonly OcrWord[]): UnreadPrint {
  const factor = Math.max(1, Math.ceil(Math.max(image.width, image.height) / MEASURE_SIZE));
  const small = downsample(image, factor);
  const { width, height, data } = small;
  const threshold = Math.min(otsuThreshold(small), paperTone(small) - MIN_CONTRAST);
  const covered = new Uint8Array(width * height);
  for (const w of words) {
    const x0 = Math.max(0, Math.floor(w.x0 / factor) - 1);
    const x1 = Math.min(width - 1, Math.ceil(w.x1 / factor) + 1);
    const y0 = Math.max(0, Math.floor(w.y0 / factor) - 1);
    const y1 = Math.min(height - 1, Math.ceil(w.y1 / factor) + 1);
    for (let y = y0; y <= y1; y++) covered.fill(1, y * width + x0, y * width + x1 + 1);
  }
  let ink = 0;
  let unread = 0;
  const unreadRows = new Uint32Array(height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = y * width + x;
      if (data[i]! > threshold) continue;
      ink++;
      if (!covered[i]) {
        unread++;
        unreadRows[y]!++;
      }
    }
  }
  if (ink < 50) return { share: 0, bands: [] };
  const bands: Array<[number, number]> = [];
  let open: [number, number] | undefined;
  for (let y = 0; y < height; y++) {
    if (unreadRows[y]! < MIN_ROW_CELLS) continue;
    if (open && y - open[1] <= BAND_GAP) open[1] = y;
    else {
      if (open) bands.push(open);
      open = [y, y];
    }
  }
  if (open) bands.push(open);
  return {
    share: unread / ink,
    bands: bands.map(([y0, y1]) => [
      Math.max(0, (y0 - BAND_PAD) * factor),
      Math.min(image.height, (y1 + 1 + BAND_PAD) * factor),
    ]),
  };
}

/** A row counts towards a band with at least this many cells of unread print (not a speck). */
const MIN_ROW_CELLS = 2;
/** Rows of unread print this many cells apart or less belong to one band (a large line's letters). */
const BAND_GAP = 3;
/** Cells added above and below a band, so its print is whole in the crop. */
const BAND_PAD = 3;

/** A word of another reading is taken only when it is read this surely... */
const MIN_CONFIDENCE = 0.6;

/**
 * `first` with the words of `other` that lie where `first` read nothing (no overlap with any of its
 * words' boxes), are read surely and hold a letter or a digit.
 */
export function fillUnread(first: readonly OcrWord[], other: readonly OcrWord[]): OcrWord[] {
  const added = other.filter(
    (w) =>
      w.confidence >= MIN_CONFIDENCE &&
      /[\p{L}\p{N}]/u.test(w.text) &&
      !first.some((f) => f.x0 < w.x1 && w.x0 < f.x1 && f.y0 < w.y1 && w.y0 < f.y1),
  );
  return added.length === 0 ? [...first] : [...first, ...added];
}
