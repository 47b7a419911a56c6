import { DocexError } from '../core/errors.js';

/** A path segment percent-decoded; bad percent-encoding (`%FF`) is a 400 MALFORMED_REQUEST, never a 500. */
export function decodeSegment(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    throw new DocexError('MALFORMED_REQUEST', 'The path is not valid percent-encoding.');
  }
}
