import { DocexError } from '../../core/errors.js';
import type { GreyImage } from '../../ports/image-backend.js';

/** Argument checks shared by the ImageBackend adapters: bad input is INVALID_ARGUMENT, not a library crash. */

export function assertGreyImage(image: GreyImage): void {
  assertDimension(image.width, 'The image width');
  assertDimension(image.height, 'The image height');
  if (image.data.length !== image.width * image.height) {
    throw new DocexError(
      'INVALID_ARGUMENT',
      `The image data holds ${image.data.length} bytes; ${image.width} x ${image.height} needs ${image.width * image.height}.`,
    );
  }
}

export function assertDimension(value: number, what: string): void {
  if (!Number.isInteger(value) || value < 1) {
    throw new DocexError('INVALID_ARGUMENT', `${what} must be a positive whole number, got ${value}.`);
  }
}

export function assertAngle(degrees: number): void {
  if (!Number.isFinite(degrees)) {
    throw new DocexError('INVALID_ARGUMENT', `The rotation angle must be a finite number, got ${degrees}.`);
  }
}

/** The background as a whole grey value 0..255. */
export function toGreyValue(background: number): number {
  if (!Number.isFinite(background) || background < 0 || background > 255) {
    throw new DocexError('INVALID_ARGUMENT', `The background grey value must be 0..255, got ${background}.`);
  }
  return Math.round(background);
}

/** Angle in [0, 360); whole turns become 0. */
export function normaliseDegrees(degrees: number): number {
  const turn = degrees % 360;
  return turn < 0 ? turn + 360 : turn;
}

export function copyGreyImage(image: GreyImage): GreyImage {
  return { width: image.width, height: image.height, data: image.data.slice() };
}
