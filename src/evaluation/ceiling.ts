/**
 * Whether OCR put a true value in the text at all (src/evaluation/ocr-ceiling.ts reports the share):
 * the upper bound of extraction on scans and photos.
 */
import type { TokenLayer } from '../core/types.js';
import { createView } from '../extraction/view.js';
import { sameValue, type ValueKind } from './scoring.js';

/** Letters and digits of a text, lower case, without spaces: "RM 20. 40" and "rm20.40" meet. */
function squeeze(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '');
}

/** How a value may be printed, squeezed: several forms for dates and amounts. */
export function printedForms(kind: string, value: string): string[] {
  if (kind === 'date') {
    const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
    if (!m) return [squeeze(value)];
    const [, y, mo, d] = m as unknown as [string, string, string, string];
    const yy = y.slice(2);
    const days = [d, String(Number(d))];
    const months = [mo, String(Number(mo))];
    const forms = new Set<string>();
    for (const dd of days)
      for (const mm of months)
        for (const year of [y, yy]) {
          forms.add(`${dd}${mm}${year}`);
          forms.add(`${mm}${dd}${year}`);
          forms.add(`${year}${mm}${dd}`);
        }
    return [...forms];
  }
  if (kind === 'amount') {
    const n = Number(value.replace(/,/g, ''));
    if (!Number.isFinite(n)) return [squeeze(value)];
    const fixed = Math.abs(n).toFixed(2);
    return [fixed.replace('.', '')];
  }
  return [squeeze(value)];
}

/**
 * Whether a value is in the layer's words. Names and addresses: some run of consecutive words (in
 * reading order, within three words of the value's length) that the scorer would accept as the value
 * (the same text, or difflib's ratio 0.9 and more). Amounts, dates and ids: a printed form of the value
 * among the words squeezed together.
 */
export function inText(layer: TokenLayer, kind: ValueKind, value: string): boolean {
  const words = layer.tokens.map((t) => t.text);
  if (kind === 'text') {
    // Words in the order OCR gave them, and in visual rows (a name OCR cut into two blocks).
    const rowWords = createView(layer).rows.flatMap((row) => row.tokens.map((t) => t.text));
    const length = value.split(/\s+/).length;
    return [words, rowWords].some((order) => {
      for (let size = Math.max(1, length - 3); size <= length + 3; size++) {
        for (let at = 0; at + size <= order.length; at++) {
          if (sameValue('text', order.slice(at, at + size).join(' '), value)) return true;
        }
      }
      return false;
    });
  }
  const text = squeeze(words.join(' '));
  return printedForms(kind, value).some((form) => form.length > 0 && text.includes(form));
}
