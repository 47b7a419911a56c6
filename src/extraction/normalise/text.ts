/**
 * Text clean-up shared by the field finders: labels and values read from OCR or PDF text.
 */

/** A character outside ASCII. */
const NON_ASCII = /[\u0080-\uffff]/;

/**
 * The text is ASCII only. Unicode normalisation (NFC, NFD, NFKC, NFKD) leaves such text unchanged, and
 * it holds no combining marks, typographic quotes or dashes: readers skip that work for it (most
 * printed text is ASCII, and testing is much cheaper than normalising).
 */
export function isAscii(text: string): boolean {
  return !NON_ASCII.test(text);
}

/** An ASCII digit, or a character outside ASCII. */
const DIGIT_OR_NON_ASCII = /[\d\u0080-\uffff]/;

/**
 * The text may hold a digit once normalised: it has an ASCII digit, or characters NFKC may turn into
 * digits (full-width `１`, superscripts). Identifiers of every kind hold digits: most words fail this.
 */
export function mayHoldDigits(text: string): boolean {
  return DIGIT_OR_NON_ASCII.test(text);
}

/**
 * NFKC-normalises (full-width forms, ligatures, no-break spaces), collapses runs of whitespace into one
 * space, trims, and drops trailing `:` and `,` (a label's `Invoice No.:` reads `Invoice No.`).
 */
export function normaliseText(text: string): string {
  return text
    .normalize('NFKC')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/[\s:,]+$/, '');
}

/**
 * An identifier as one run of characters: NFKC, whitespace removed, and only letters, digits and
 * `-`, `/`, `.`, `_` kept (`INV-2024 / 001` reads `INV-2024/001`).
 */
export function compactId(text: string): string {
  return text.normalize('NFKC').replace(/[^\p{L}\p{N}\-/._]/gu, '');
}
