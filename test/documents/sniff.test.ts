import { describe, expect, it } from 'vitest';
import { sniffMediaType } from '../../src/documents/sniff.js';
import { assertImageWithinLimit, readImageSize } from '../../src/documents/image-size.js';
import { encodeImage } from '../helpers/make-documents.js';

const grey = (width: number, height: number) => ({
  width,
  height,
  data: new Uint8Array(width * height).fill(200),
});

describe('sniffMediaType', () => {
  it('recognises PDF, PNG and JPEG by their bytes', async () => {
    expect(sniffMediaType(new TextEncoder().encode('%PDF-1.7\n...'))).toBe('application/pdf');
    expect(sniffMediaType(await encodeImage(grey(4, 4), 'png'))).toBe('image/png');
    expect(sniffMediaType(await encodeImage(grey(4, 4), 'jpeg'))).toBe('image/jpeg');
  });

  it('accepts a PDF header after a few junk bytes, as PDF readers do', () => {
    expect(sniffMediaType(new TextEncoder().encode('\r\n  %PDF-1.4'))).toBe('application/pdf');
  });

  it('recognises TIFF (both byte orders) and GIF (87a, 89a) by their bytes', () => {
    expect(sniffMediaType(new Uint8Array([0x49, 0x49, 0x2a, 0x00, 8, 0, 0, 0]))).toBe('image/tiff');
    expect(sniffMediaType(new Uint8Array([0x4d, 0x4d, 0x00, 0x2a, 0, 0, 0, 8]))).toBe('image/tiff');
    expect(sniffMediaType(new TextEncoder().encode('GIF89a'))).toBe('image/gif');
    expect(sniffMediaType(new TextEncoder().encode('GIF87a'))).toBe('image/gif');
  });

  it('refuses anything else', () => {
    expect(sniffMediaType(new TextEncoder().encode('GIF88a'))).toBeUndefined();
    expect(sniffMediaType(new Uint8Array([0x49, 0x49, 0x2b, 0x00]))).toBeUndefined();
    expect(sniffMediaType(new TextEncoder().encode('hello, PDF'))).toBeUndefined();
    expect(sniffMediaType(new Uint8Array())).toBeUndefined();
  });
});

describe('readImageSize', () => {
  it('reads PNG and JPEG dimensions from the header', async () => {
    expect(readImageSize(await encodeImage(grey(37, 21), 'png'))).toEqual({ width: 37, height: 21 });
    expect(readImageSize(await encodeImage(grey(37, 21), 'jpeg'))).toEqual({ width: 37, height: 21 });
  });

  it('refuses a decompression bomb before decoding', async () => {
    const png = await encodeImage(grey(10, 10), 'png');
    const view = new DataView(png.buffer, png.byteOffset);
    view.setUint32(16, 30_000);
    view.setUint32(20, 30_000);
    expect(() => assertImageWithinLimit(png, 40_000_000)).toThrowError(
      expect.objectContaining({ code: 'IMAGE_TOO_LARGE' }),
    );
  });

  it('refuses a truncated header', async () => {
    const jpeg = await encodeImage(grey(10, 10), 'jpeg');
    expect(() => readImageSize(jpeg.subarray(0, 6))).toThrowError(
      expect.objectContaining({ code: 'IMAGE_CORRUPT' }),
    );
  });
});
