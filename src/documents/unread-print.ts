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

/**
 * The share of the image's print (dark pixels, at a coarse scale) outside every word's box, each box
 * grown by a cell. 0 when the page holds next to no print.
 */
export function unreadInk(image: GreyImage, words: readonly OcrWord[]): number {
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
  for (let i = 0; i < data.length; i++) {
    if (data[i]! >= threshold) continue;
    ink++;
    if (!covered[i]) unread++;
  }
  return ink < 50 ? 0 : unread / ink;
}

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
