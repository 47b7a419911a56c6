import type { VerboseFieldResult } from './types.js';

/**
 * Fields a letterhead may print only as a picture: a logo that is the supplier's name. When the text
 * layer leaves one of them unresolved, the page's unread pictures are worth their OCR time
 * (src/documents/image-regions.ts); other fields left empty (a purchase order number, a due date) are
 * almost never printed as pictures, and reading pictures for them would cost every invoice seconds.
 */
export const FIELDS_PICTURES_ANSWER: readonly string[] = ['document.supplierName'];

/** A value below this confidence is as good as none: a picture may hold the right one. */
export const RESOLVED_CONFIDENCE = 0.5;

/** The fields of a result that the document's pictures could answer and the text layer did not. */
export function fieldsPicturesCouldAnswer(fields: readonly VerboseFieldResult[]): string[] {
  return fields
    .filter(
      (f) =>
        FIELDS_PICTURES_ANSWER.includes(f.name) &&
        (f.value === null || f.value === undefined || f.confidence < RESOLVED_CONFIDENCE),
    )
    .map((f) => f.name);
}
