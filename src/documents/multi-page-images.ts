import { GifReader } from 'omggif';
import * as UTIF from 'utif2';

import { DocexError } from '../core/errors.js';
import type { MediaType } from '../core/types.js';
import type { GreyImage } from '../ports/image-backend.js';
import { greyFromInterleaved } from './raster.js';

/** Media types whose pages this module reads (the image backends read PNG and JPEG). */
export type PagedImageType = 'image/tiff' | 'image/gif';

export function isPagedImage(mediaType: MediaType): mediaType is PagedImageType {
  return mediaType === 'image/tiff' || mediaType === 'image/gif';
}

/**
 * The pages of a TIFF (every image file directory is a page, as a fax or a scanner's multi-page TIFF
 * has them) or a GIF (its first frame: an animation's further frames are not pages of a document).
 * `count` reads only the headers; `page` decodes one page to grey, refusing more than `maxPixels`
 * pixels before decoding it. Corrupt bytes are IMAGE_CORRUPT. utif2 and omggif are pure JavaScript
 * (jimp's own TIFF and GIF decoders), so both image backends read the same pages.
 */
export interface PagedImage {
  readonly count: number;
  page(pageNum: number, maxPixels: number): GreyImage;
}

function corrupt(mediaType: PagedImageType, cause: unknown): DocexError {
  const kind = mediaType === 'image/tiff' ? 'TIFF' : 'GIF';
  return new DocexError('IMAGE_CORRUPT', `The ${kind} image could not be read.`, { cause });
}

function checkPixels(width: number, height: number, maxPixels: number): void {
  if (!(width > 0 && height > 0)) throw new DocexError('IMAGE_CORRUPT', 'The image has no pixels.');
  if (width * height > maxPixels) {
    throw new DocexError(
      'IMAGE_TOO_LARGE',
      `The image is ${width}x${height} pixels; the limit is ${maxPixels} pixels.`,
    );
  }
}

export function openPagedImage(bytes: Uint8Array, mediaType: PagedImageType): PagedImage {
  // Both libraries read from a buffer of their own (they index it freely).
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (mediaType === 'image/gif') {
    let reader: GifReader;
    try {
      reader = new GifReader(buffer);
    } catch (error) {
      throw corrupt(mediaType, error);
    }
    return {
      count: 1,
      page(pageNum, maxPixels) {
        if (pageNum !== 1) throw new DocexError('NOT_FOUND', `The image has no page ${pageNum}.`);
        checkPixels(reader.width, reader.height, maxPixels);
        const rgba = new Uint8Array(reader.width * reader.height * 4);
        try {
          reader.decodeAndBlitFrameRGBA(0, rgba);
        } catch (error) {
          throw corrupt(mediaType, error);
        }
        return greyFromInterleaved(rgba, reader.width, reader.height, 4);
      },
    };
  }
  let ifds: UTIF.IFD[];
  try {
    const copy = buffer.buffer.slice(buffer.byteOffset, buffer.byteOffset + buffer.byteLength) as ArrayBuffer;
    ifds = UTIF.decode(copy).filter((ifd) => ifd.t256 !== undefined && ifd.t257 !== undefined);
  } catch (error) {
    throw corrupt(mediaType, error);
  }
  if (ifds.length === 0) throw new DocexError('IMAGE_CORRUPT', 'The TIFF image has no pages.');
  return {
    count: ifds.length,
    page(pageNum, maxPixels) {
      const ifd = ifds[pageNum - 1];
      if (!ifd) throw new DocexError('NOT_FOUND', `The image has no page ${pageNum}.`);
      const width = Number((ifd.t256 as number[])[0]);
      const height = Number((ifd.t257 as number[])[0]);
      checkPixels(width, height, maxPixels);
      // A file cut short: the page's data (strips or tiles) would lie past its end.
      const offsets = (ifd.t273 ?? ifd.t324 ?? []) as number[];
      const counts = (ifd.t279 ?? ifd.t325 ?? []) as number[];
      if (offsets.some((offset, i) => offset + (counts[i] ?? 0) > buffer.byteLength)) {
        throw new DocexError('IMAGE_CORRUPT', `The TIFF image is cut short (page ${pageNum}).`);
      }
      try {
        const copy = buffer.buffer.slice(
          buffer.byteOffset,
          buffer.byteOffset + buffer.byteLength,
        ) as ArrayBuffer;
        UTIF.decodeImage(copy, ifd);
        const rgba = UTIF.toRGBA8(ifd);
        if (rgba.length < width * height * 4) throw new Error('short pixel data');
        return greyFromInterleaved(rgba, width, height, 4);
      } catch (error) {
        throw error instanceof DocexError ? error : corrupt(mediaType, error);
      }
    },
  };
}

/**
 * A baseline TIFF (little-endian, uncompressed, 8-bit grey, one strip a page) with one page per image,
 * as scanners and fax software write multi-page TIFFs: what split makes of a TIFF's pages for a child
 * document (grey, as they were read).
 */
export function encodeGreyTiff(pages: readonly GreyImage[]): Uint8Array {
  const ENTRIES = 9;
  const ifdSize = 2 + ENTRIES * 12 + 4;
  let size = 8;
  const layout = pages.map((page) => {
    const ifd = size;
    const data = ifd + ifdSize;
    size = data + page.data.length + (page.data.length % 2);
    return { ifd, data };
  });
  const out = new Uint8Array(size);
  const view = new DataView(out.buffer);
  out.set([0x49, 0x49, 0x2a, 0x00]);
  view.setUint32(4, layout[0]!.ifd, true);
  pages.forEach((page, i) => {
    const { ifd, data } = layout[i]!;
    view.setUint16(ifd, ENTRIES, true);
    const entries: Array<[tag: number, type: number, value: number]> = [
      [256, 4, page.width],
      [257, 4, page.height],
      [258, 3, 8],
      [259, 3, 1],
      [262, 3, 1], // BlackIsZero
      [273, 4, data],
      [277, 3, 1],
      [278, 4, page.height],
      [279, 4, page.data.length],
    ];
    entries.forEach(([tag, type, value], e) => {
      const at = ifd + 2 + e * 12;
      view.setUint16(at, tag, true);
      view.setUint16(at + 2, type, true);
      view.setUint32(at + 4, 1, true);
      if (type === 3) view.setUint16(at + 8, value, true);
      else view.setUint32(at + 8, value, true);
    });
    view.setUint32(ifd + 2 + ENTRIES * 12, layout[i + 1]?.ifd ?? 0, true);
    out.set(page.data, data);
  });
  return out;
}
