import { createInflate } from 'node:zlib';
import { DocexError } from '../../core/errors.js';

/**
 * Limits a PDF's own bytes are checked against before a parser sees them: the pictures it declares and
 * the data its compressed streams inflate to. A small file can declare a 65,000 x 65,000 picture or
 * hold a megabyte that inflates to a gigabyte; a parser that believes it allocates first and fails
 * later (pdf.js does both, and its `maxImageSize` only reads the image dictionary, not a JPEG's own
 * header). These checks read the file's bytes as they are, so they cost little and refuse early with a
 * clear reason. They are a first line only: what they cannot see (encrypted streams, sizes given by
 * reference) is bounded by the worker that runs the parser (src/adapters/pdf/pdf-worker-pool.ts).
 */
export interface PdfBudget {
  /** Largest picture, in pixels, an image may declare (in its dictionary or its JPEG header). */
  maxImagePixels: number;
  /** Largest size, in bytes, any Flate stream other than an image's may inflate to. */
  maxStreamBytes: number;
}

export const DEFAULT_PDF_BUDGET: PdfBudget = {
  maxImagePixels: 40_000_000,
  maxStreamBytes: 64 * 1024 * 1024,
};

/** Flate cannot compress better than about 1032:1, so a stream shorter than cap/1032 never needs inflating. */
const FLATE_MAX_RATIO = 1032;

/**
 * Throws DocexError('PDF_RESOURCE_LIMIT') when a stream of the file declares a picture over
 * `maxImagePixels` or inflates beyond `maxStreamBytes`. Streams it cannot read (another filter, data
 * under encryption, a dictionary it cannot parse) are left to the parser.
 */
export async function checkPdfBudget(bytes: Uint8Array, budget: PdfBudget): Promise<void> {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const encrypted = /\/Encrypt(?![^\s/<>[\]()%{}])/.test(trailerText(buf));
  for (const stream of streams(buf)) {
    const { dict, data } = stream;
    const filters = filtersOf(dict);
    if (/\/Subtype\s*\/Image(?![^\s/<>[\]()%{}])/.test(dict)) {
      const width = numberAfter(dict, 'Width');
      const height = numberAfter(dict, 'Height');
      if (width !== undefined && height !== undefined) assertPixels(width, height, budget, 'declares');
      if (!encrypted && filters.length === 1 && (filters[0] === 'DCTDecode' || filters[0] === 'DCT')) {
        const header = jpegSize(data);
        if (header) assertPixels(header.width, header.height, budget, 'holds a JPEG picture of');
      }
      // An image's data is read only up to the size its dictionary gives, so inflating it costs no more.
      continue;
    }
    if (encrypted || filters.length === 0 || (filters[0] !== 'FlateDecode' && filters[0] !== 'Fl')) continue;
    if (data.length * FLATE_MAX_RATIO <= budget.maxStreamBytes) continue;
    if ((await inflatedSize(data, budget.maxStreamBytes)) > budget.maxStreamBytes) {
      throw new DocexError(
        'PDF_RESOURCE_LIMIT',
        `A compressed stream of the PDF inflates to more than ${mb(budget.maxStreamBytes)} MB; the limit is ` +
          `${mb(budget.maxStreamBytes)} MB.`,
      );
    }
  }
}

function assertPixels(width: number, height: number, budget: PdfBudget, what: string): void {
  if (width * height > budget.maxImagePixels) {
    throw new DocexError(
      'PDF_RESOURCE_LIMIT',
      `The PDF ${what} ${width} x ${height} pixels; the limit is ${budget.maxImagePixels.toLocaleString('en-US')} pixels.`,
    );
  }
}

function mb(bytes: number): string {
  return String(Math.round(bytes / (1024 * 1024)));
}

/** The last 4 KB of the file plus every trailer dictionary's opening: where /Encrypt is named. */
function trailerText(buf: Buffer): string {
  const tail = buf.toString('latin1', Math.max(0, buf.length - 4096));
  const trailers: string[] = [tail];
  for (
    let at = buf.indexOf('trailer');
    at >= 0 && trailers.length < 64;
    at = buf.indexOf('trailer', at + 7)
  ) {
    trailers.push(buf.toString('latin1', at, Math.min(buf.length, at + 1024)));
  }
  // Cross-reference streams carry the trailer's keys in their dictionary.
  for (let at = buf.indexOf('/XRef'); at >= 0 && trailers.length < 128; at = buf.indexOf('/XRef', at + 5)) {
    trailers.push(buf.toString('latin1', Math.max(0, at - 1024), Math.min(buf.length, at + 1024)));
  }
  return trailers.join('\n');
}

interface RawStream {
  dict: string;
  data: Buffer;
}

/** Every `stream ... endstream` of the file with the dictionary before it (at most 1 MB of it). */
function* streams(buf: Buffer): Generator<RawStream> {
  for (let at = buf.indexOf('stream'); at >= 0; at = buf.indexOf('stream', at + 6)) {
    const before = buf[at - 1];
    // `endstream`, or part of a longer word.
    if (before !== undefined && isRegular(before)) continue;
    const after = buf[at + 6];
    if (after !== 0x0d && after !== 0x0a) continue;
    const close = buf.lastIndexOf('>>', at);
    if (close < 0 || at - close > 64) continue;
    const open = dictStart(buf, close);
    if (open < 0) continue;
    let start = at + 6;
    if (buf[start] === 0x0d) start++;
    if (buf[start] === 0x0a) start++;
    const dict = buf.toString('latin1', open, close + 2);
    const length = numberAfter(dict, 'Length');
    let end: number;
    if (length !== undefined && start + length <= buf.length && endsStream(buf, start + length)) {
      end = start + length;
    } else {
      end = buf.indexOf('endstream', start);
      if (end < 0) end = buf.length;
    }
    yield { dict, data: buf.subarray(start, end) };
    at = Math.max(at, end - 6);
  }
}

function endsStream(buf: Buffer, at: number): boolean {
  let i = at;
  while (i < buf.length && i < at + 4 && (buf[i] === 0x0d || buf[i] === 0x0a || buf[i] === 0x20)) i++;
  return buf.toString('latin1', i, i + 9) === 'endstream';
}

/** The `<<` that opens the dictionary closed by the `>>` at `close`, nested dictionaries counted. */
function dictStart(buf: Buffer, close: number): number {
  let depth = 0;
  const limit = Math.max(0, close - (1 << 20));
  for (let i = close + 1; i > limit; i--) {
    if (buf[i] === 0x3e && buf[i - 1] === 0x3e) {
      depth++;
      i--;
    } else if (buf[i] === 0x3c && buf[i - 1] === 0x3c) {
      depth--;
      i--;
      if (depth === 0) return i;
    }
  }
  return -1;
}

function isRegular(c: number): boolean {
  return !(c <= 0x20 || '()<>[]{}/%'.includes(String.fromCharCode(c)));
}

/** The number directly after the key `/name` in a dictionary (not a reference to one). */
function numberAfter(dict: string, name: string): number | undefined {
  const match = new RegExp(
    `/${name}(?![^\\s/<>\\[\\]()%{}])\\s*(\\d+(?:\\.\\d+)?)(?![\\d.])(?!\\s+\\d+\\s+R)`,
  ).exec(dict);
  return match ? Number(match[1]) : undefined;
}

/** The filters of a stream dictionary, by name. */
function filtersOf(dict: string): string[] {
  const match = /\/(?:Filter|F)(?![^\s/<>[\]()%{}])\s*(\/[^\s/<>[\]()%{}]+|\[[^\]]*\])/.exec(dict);
  if (!match) return [];
  return [...match[1]!.matchAll(/\/([^\s/<>[\]()%{}]+)/g)].map((m) => m[1]!);
}

/** The size a JPEG's frame header declares, or undefined when there is none to read. */
export function jpegSize(data: Uint8Array): { width: number; height: number } | undefined {
  if (data[0] !== 0xff || data[1] !== 0xd8) return undefined;
  let i = 2;
  while (i + 9 < data.length) {
    if (data[i] !== 0xff) return undefined;
    const marker = data[i + 1]!;
    if (marker === 0xff) {
      i++;
      continue;
    }
    const size = (data[i + 2]! << 8) | data[i + 3]!;
    // Start-of-frame markers: C0-CF except C4 (Huffman tables), C8 (reserved) and CC (arithmetic tables).
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      const height = (data[i + 5]! << 8) | data[i + 6]!;
      const width = (data[i + 7]! << 8) | data[i + 8]!;
      return { width, height };
    }
    if (marker === 0xda || size < 2) return undefined;
    i += 2 + size;
  }
  return undefined;
}

/** Bytes the zlib data inflates to, counted without keeping them; stops counting past `cap`. */
function inflatedSize(data: Buffer, cap: number): Promise<number> {
  return new Promise((resolve) => {
    const inflate = createInflate({ finishFlush: 2 /* Z_SYNC_FLUSH: a truncated stream still counts */ });
    let total = 0;
    let settled = false;
    const done = (): void => {
      if (settled) return;
      settled = true;
      inflate.destroy();
      resolve(total);
    };
    inflate.on('data', (chunk: Buffer) => {
      total += chunk.length;
      if (total > cap) done();
    });
    // Damaged data is the parser's to judge: what inflated so far is the answer.
    inflate.on('error', done);
    inflate.on('end', done);
    inflate.end(data);
  });
}
