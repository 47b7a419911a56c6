import type { TextRun } from '../ports/pdf-reader.js';
import type { FrameBox } from './layout.js';

/** A word of a PDF text layer, with its box in displayed page points and its reading direction. */
export interface TextWord {
  text: string;
  box: FrameBox;
  /** Direction of the text, clockwise from "left to right": 0, 90 (reads downwards), 180, 270. */
  direction: 0 | 90 | 180 | 270;
}

/** Share of the font size above the baseline and below it that a word's box covers. */
const ASCENT = 0.8;
const DESCENT = 0.2;

/**
 * Relative advance widths of Helvetica (Adobe AFM, per 1000 em) for printable ASCII, from space (32)
 * to tilde (126). Most invoices use a proportional sans-serif; weighing characters by these widths puts a
 * word where it is printed far better than an equal share per character (a space or an "i" is a quarter
 * of an "M"). Other characters count as a digit.
 */
const HELVETICA = [
  278, 278, 355, 556, 556, 889, 667, 191, 333, 333, 389, 584, 278, 333, 278, 278, 556, 556, 556, 556, 556,
  556, 556, 556, 556, 556, 278, 278, 584, 584, 584, 556, 1015, 667, 667, 722, 722, 667, 611, 778, 722, 278,
  500, 667, 556, 833, 722, 778, 667, 778, 722, 667, 611, 722, 667, 944, 667, 667, 611, 278, 278, 278, 469,
  556, 333, 556, 556, 500, 556, 556, 278, 556, 556, 222, 222, 500, 222, 833, 556, 556, 556, 556, 333, 500,
  278, 556, 500, 722, 500, 500, 500, 334, 260, 334, 584,
];

function advanceOf(char: string): number {
  const code = char.codePointAt(0)!;
  return code >= 32 && code <= 126 ? HELVETICA[code - 32]! : 556;
}

/**
 * Splits text runs into words. pdfjs gives runs (often a whole line, sometimes single glyphs) with their
 * total width but not each glyph's; a word's extent inside a run is its share of the run's width,
 * weighing each character by its typical advance (see HELVETICA).
 */
export function wordsFromRuns(runs: readonly TextRun[]): TextWord[] {
  const words: TextWord[] = [];
  for (const run of mergeAdjacentRuns(runs)) {
    const chars = [...run.text];
    if (chars.length === 0) continue;
    // Where each character starts along the run, in points.
    const starts = new Array<number>(chars.length + 1);
    starts[0] = 0;
    for (let i = 0; i < chars.length; i++) starts[i + 1] = starts[i]! + advanceOf(chars[i]!);
    const scale = run.width / (starts[chars.length]! || 1);
    const upX = run.dy;
    const upY = -run.dx;
    const direction = quantiseDirection(run.dx, run.dy);
    const below = -DESCENT * run.height;
    const above = ASCENT * run.height;
    let start = -1;
    for (let i = 0; i <= chars.length; i++) {
      const isSpace = i === chars.length || isWhiteSpace(chars[i]!);
      if (!isSpace && start < 0) start = i;
      if (isSpace && start >= 0) {
        const s = starts[start]! * scale;
        const e = starts[i]! * scale;
        // The four corners: start and end along the baseline, each below and above it.
        const x1 = run.x + run.dx * s + upX * below;
        const x2 = run.x + run.dx * s + upX * above;
        const x3 = run.x + run.dx * e + upX * below;
        const x4 = run.x + run.dx * e + upX * above;
        const y1 = run.y + run.dy * s + upY * below;
        const y2 = run.y + run.dy * s + upY * above;
        const y3 = run.y + run.dy * e + upY * below;
        const y4 = run.y + run.dy * e + upY * above;
        words.push({
          text: chars.slice(start, i).join(''),
          box: {
            x0: Math.min(x1, x2, x3, x4),
            y0: Math.min(y1, y2, y3, y4),
            x1: Math.max(x1, x2, x3, x4),
            y1: Math.max(y1, y2, y3, y4),
          },
          direction,
        });
        start = -1;
      }
    }
  }
  return words;
}

/** Whether a character is white space (as `\s` matches it); ASCII without a regular expression. */
function isWhiteSpace(char: string): boolean {
  const code = char.charCodeAt(0);
  if (code < 0x80) return code === 0x20 || (code >= 0x09 && code <= 0x0d);
  return /\s/u.test(char);
}

/**
 * Joins runs that continue one another on the same baseline with no gap (PDFs that place glyph by
 * glyph or split a word across font changes), so a word is not cut in two.
 */
function mergeAdjacentRuns(runs: readonly TextRun[]): TextRun[] {
  const merged: TextRun[] = [];
  for (const run of runs) {
    const last = merged[merged.length - 1];
    if (last && continues(last, run)) {
      merged[merged.length - 1] = {
        ...last,
        text: last.text + run.text,
        width: last.width + gapAlong(last, run) + run.width,
      };
    } else {
      merged.push({ ...run });
    }
  }
  return merged;
}

function gapAlong(a: TextRun, b: TextRun): number {
  const endX = a.x + a.dx * a.width;
  const endY = a.y + a.dy * a.width;
  return (b.x - endX) * a.dx + (b.y - endY) * a.dy;
}

function continues(a: TextRun, b: TextRun): boolean {
  if (Math.abs(a.dx - b.dx) > 1e-3 || Math.abs(a.dy - b.dy) > 1e-3) return false;
  if (Math.abs(a.height - b.height) > 0.2 * Math.max(a.height, b.height)) return false;
  if (/\s$/u.test(a.text) || /^\s/u.test(b.text)) return false;
  // Same baseline: the offset of b from a's end, across the direction, is small.
  const endX = a.x + a.dx * a.width;
  const endY = a.y + a.dy * a.width;
  const across = Math.abs(-(b.x - endX) * a.dy + (b.y - endY) * a.dx);
  if (across > 0.15 * a.height) return false;
  const gap = gapAlong(a, b);
  return gap > -0.15 * a.height && gap < 0.12 * a.height;
}

function quantiseDirection(dx: number, dy: number): 0 | 90 | 180 | 270 {
  const angle = (Math.round((Math.atan2(dy, dx) * 180) / Math.PI / 90) * 90 + 360) % 360;
  return angle as 0 | 90 | 180 | 270;
}

/**
 * Whether a page's text layer is worth reading rather than OCRing: enough words, and mostly letters and
 * digits (a font without a Unicode map yields private-use or control characters).
 */
export function isUsableText(words: readonly TextWord[]): boolean {
  if (words.length < 3) return false;
  let good = 0;
  let total = 0;
  for (const word of words) {
    for (const ch of word.text) {
      total++;
      // Printable ASCII is all letters, digits, punctuation and symbols: no regular expression needed.
      const code = ch.charCodeAt(0);
      if (code > 0x20 && code < 0x7f) good++;
      else if (/[\p{L}\p{N}\p{P}\p{S}]/u.test(ch) && !/[\p{Co}\p{Cc}\uFFFD]/u.test(ch)) good++;
    }
  }
  return total > 0 && good / total >= 0.8;
}
