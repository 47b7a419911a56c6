import { crc32, deflateSync } from 'node:zlib';
import type { GreyImage } from '../ports/image-backend.js';

function chunk(type: string, data: Uint8Array): Buffer {
  const out = Buffer.alloc(12 + data.length);
  out.writeUInt32BE(data.length, 0);
  out.write(type, 4, 'latin1');
  out.set(data, 8);
  out.writeUInt32BE(crc32(out.subarray(4, 8 + data.length)), 8 + data.length);
  return out;
}

/** An 8-bit greyscale PNG of the image (what a scanner set to greyscale produces). */
export function encodeGreyPng(image: GreyImage): Uint8Array {
  const { width, height, data } = image;
  const raw = Buffer.alloc((width + 1) * height);
  for (let y = 0; y < height; y++) {
    // Filter byte 0 (none) and the row.
    raw.set(data.subarray(y * width, (y + 1) * width), y * (width + 1) + 1);
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 0; // colour type: greyscale
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(raw, { level: 6 })),
    chunk('IEND', new Uint8Array(0)),
  ]);
}
