import type { MediaType } from '../core/types.js';

/** The media type of a file from its first bytes, or undefined when it is none the engine accepts. */
export function sniffMediaType(head: Uint8Array): MediaType | undefined {
  if (head.length >= 8 && startsWith(head, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))
    return 'image/png';
  if (head.length >= 3 && startsWith(head, [0xff, 0xd8, 0xff])) return 'image/jpeg';
  // TIFF, little-endian ("II*\0") or big-endian ("MM\0*"); GIF87a and GIF89a.
  if (
    head.length >= 4 &&
    (startsWith(head, [0x49, 0x49, 0x2a, 0x00]) || startsWith(head, [0x4d, 0x4d, 0x00, 0x2a]))
  )
    return 'image/tiff';
  if (
    head.length >= 6 &&
    (startsWith(head, [0x47, 0x49, 0x46, 0x38, 0x37, 0x61]) ||
      startsWith(head, [0x47, 0x49, 0x46, 0x38, 0x39, 0x61]))
  )
    return 'image/gif';
  // "%PDF-" may follow some junk bytes; readers accept it within the first KiB, and so do we.
  const limit = Math.min(head.length, 1024);
  for (let i = 0; i + 5 <= limit; i++) {
    if (
      head[i] === 0x25 &&
      head[i + 1] === 0x50 &&
      head[i + 2] === 0x44 &&
      head[i + 3] === 0x46 &&
      head[i + 4] === 0x2d
    ) {
      return 'application/pdf';
    }
  }
  return undefined;
}

function startsWith(bytes: Uint8Array, prefix: number[]): boolean {
  return prefix.every((b, i) => bytes[i] === b);
}
