/**
 * Text clean-up shared by the field finders: labels and values read from OCR or PDF text.
 */

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
