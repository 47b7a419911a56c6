import { GifReader } from 'omggif';
import * as utif2 from 'utif2';

import { DocexError } from '../core/errors.js';
import type { MediaType } from '../core/types.js';
import type { GreyImage } from '../ports/image-backend.js';
import { greyFromInterleaved } from './raster.js';

// utif2 is CommonJS without named exports Node can see: under Node's ESM its functions are on
// `default`; bundlers (vitest) hand out the named ones. Either way, the same object.
const UTIF = (utif2 as unknown as { default?: typeof utif2 }).default ?? utif2;

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

/** Bytes a TIFF field type's value takes (types 1-13 of TIFF 6.0 and its extensions). */
const TIFF_TYPE_SIZE: Record<number, number> = {
  1: 1,
  2: 1,
  3: 2,
  4: 4,
  5: 8,
  6: 1,
  7: 1,
  8: 2,
  9: 4,
  10: 8,
  11: 4,
  12: 8,
  13: 4,
};
/** Tags whose values are offsets of further directories (sub-images, EXIF, GPS...). */
const SUB_DIRECTORY_TAGS = new Set([330, 34665, 34853, 50740, 61440]);
/** Directories a TIFF may hold in all (pages, sub-images and EXIF together). */
const MAX_DIRECTORIES = 4096;
const MAX_ENTRIES = 1024;

/**
 * Checks a TIFF's directories before any decoder walks them: each directory and each tag's values lie
 * inside the file, no directory is visited twice (a chain that loops), sub-directories nest at most
 * four deep, and there are at most 4,096 directories. Anything else is IMAGE_CORRUPT.
 */
export function checkTiffStructure(bytes: Uint8Array): void {
  const bad = (why: string) => new DocexError('IMAGE_CORRUPT', `The TIFF image is malformed (${why}).`);
  if (bytes.byteLength < 8) throw bad('too short');
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const little = bytes[0] === 0x49;
  const u16 = (at: number) => view.getUint16(at, little);
  const u32 = (at: number) => view.getUint32(at, little);
  const visited = new Set<number>();
  const walk = (first: number, depth: number, chain: boolean): void => {
    let offset = first;
    while (offset !== 0) {
      if (visited.has(offset)) throw bad('its directories loop');
      if (visited.size >= MAX_DIRECTORIES) throw bad('too many directories');
      if (offset < 8 || offset + 2 > bytes.byteLength) throw bad('a directory lies outside the file');
      visited.add(offset);
      const entries = u16(offset);
      if (entries > MAX_ENTRIES || offset + 2 + entries * 12 + (chain ? 4 : 0) > bytes.byteLength) {
        throw bad('a directory lies outside the file');
      }
      for (let e = 0; e < entries; e++) {
        const at = offset + 2 + e * 12;
        const tag = u16(at);
        const size = TIFF_TYPE_SIZE[u16(at + 2)];
        const count = u32(at + 4);
        if (size === undefined) continue; // utif2 skips unknown types
        const length = size * count;
        if (length > 4 && u32(at + 8) + length > bytes.byteLength) throw bad('a tag lies outside the file');
        if (length > bytes.byteLength) throw bad('a tag lies outside the file');
        if (SUB_DIRECTORY_TAGS.has(tag) && (size === 4 || size === 1)) {
          if (depth >= 4) throw bad('directories nest too deep');
          const values = length > 4 ? u32(at + 8) : at + 8;
          for (let k = 0; k < (size === 4 ? count : 1); k++) {
            const target = size === 4 ? u32(values + 4 * k) : values;
            if (target + 2 > bytes.byteLength) throw bad('a directory lies outside the file');
            walk(target, depth + 1, false);
          }
        }
      }
      offset = chain ? u32(offset + 2 + entries * 12) : 0;
    }
  };
  walk(u32(4), 0, true);
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
  let ifds: utif2.IFD[];
  // utif2 trusts the file: a chain of directories that loops, or a tag claiming billions of values,
  // would keep it busy forever. The structure is checked first, within the file's own bounds.
  checkTiffStructure(bytes);
  try {
    const copy = buffer.buffer.slice(buffer.byteOffset, buffer.byteOffset + buffer.byteLength) as ArrayBuffer;
    // Maker notes (camera vendors' private directories) are not read: not needed, not checked above.
    const decode = UTIF.decode as (buffer: ArrayBuffer, options: object) => utif2.IFD[];
    ifds = decode
      .call(UTIF, copy, { parseMN: false, debug: false })
      .filter((ifd) => ifd.t256 !== undefined && ifd.t257 !== undefined);
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
