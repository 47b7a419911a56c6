import { DocexError } from '../core/errors.js';

/**
 * Width and height of a PNG or JPEG from its header, without decoding pixels: the guard against
 * decompression bombs runs on this before any image library allocates the bitmap.
 */
export function readImageSize(bytes: Uint8Array): { width: number; height: number } {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (bytes.length >= 24 && bytes[0] === 0x89 && bytes[1] === 0x50) {
    // PNG: signature (8), IHDR length (4), "IHDR" (4), width (4), height (4).
    return { width: view.getUint32(16), height: view.getUint32(20) };
  }
  if (bytes.length >= 4 && bytes[0] === 0xff && bytes[1] === 0xd8) {
    let offset = 2;
    while (offset + 4 <= bytes.length) {
      if (bytes[offset] !== 0xff) {
        offset++;
        continue;
      }
      const marker = bytes[offset + 1] ?? 0;
      if (marker === 0xff) {
        offset++;
        continue;
      }
      if (marker === 0xd8 || marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
        offset += 2;
        continue;
      }
      if (offset + 4 > bytes.length) break;
      const length = view.getUint16(offset + 2);
      const isStartOfFrame =
        marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
      if (isStartOfFrame && offset + 9 <= bytes.length) {
        return { height: view.getUint16(offset + 5), width: view.getUint16(offset + 7) };
      }
      offset += 2 + length;
    }
  }
  throw new DocexError(
    'IMAGE_CORRUPT',
    'The image header could not be read: the file is truncated or corrupt.',
  );
}

/** Refuses an image whose pixel count is over the limit, before anything decodes it. */
export function assertImageWithinLimit(
  bytes: Uint8Array,
  maxPixels: number,
): { width: number; height: number } {
  const size = readImageSize(bytes);
  if (size.width === 0 || size.height === 0) {
    throw new DocexError('IMAGE_CORRUPT', 'The image has no pixels.');
  }
  if (size.width * size.height > maxPixels) {
    throw new DocexError(
      'IMAGE_TOO_LARGE',
      `The image is ${size.width} x ${size.height} pixels; the limit is ${maxPixels} pixels.`,
    );
  }
  return size;
}
