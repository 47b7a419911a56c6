import { constants, inflateSync } from 'node:zlib';

/**
 * What the raw bytes of a PDF say about raster images, found without parsing the document:
 * - `none`: no stream is an image XObject and no content stream holds an inline image, so no page
 *   paints a raster image;
 * - `image-xobject`: some stream is an image XObject (which pages paint it is not known);
 * - `inline-image`: some stream holds an inline image (`BI ... ID ... EI`);
 * - `unknown`: the bytes cannot be trusted to tell (encrypted file, a stream under a filter other than
 *   Flate or with a predictor, a name that matters written with `#` escapes, a `/Subtype` given by
 *   reference, something that looks like a stream but is not laid out as one).
 *
 * Why the bytes can tell: an image XObject is a stream, a stream's dictionary is written in the file as
 * it is (streams cannot live in compressed object streams) and encryption covers strings and stream
 * data, never names. Inline images live inside content streams, which are usually Flate-compressed:
 * those are inflated here (node:zlib) and searched for the `BI` operator.
 */
export type RawImageVerdict = 'none' | 'image-xobject' | 'inline-image' | 'unknown';

/** Content streams inflated beyond this size are not searched: the answer is `unknown`. */
const MAX_INFLATED = 64 * 1024 * 1024;

const CR = 0x0d;
const LF = 0x0a;
const SLASH = 0x2f;
const PERCENT = 0x25;
const HASH = 0x23;
const GT = 0x3e;

/** PDF character classes: 1 whitespace, 2 delimiter, 0 regular. */
const CLASS = new Uint8Array(256);
for (const c of [0x00, 0x09, LF, 0x0c, CR, 0x20]) CLASS[c] = 1;
for (const c of '()<>[]{}/%') CLASS[c.charCodeAt(0)] = 2;

function isRegular(c: number | undefined): boolean {
  return c !== undefined && CLASS[c] === 0;
}

/**
 * Names the verdict depends on: one of these written with `#` escapes would be missed by the plain byte
 * search, so the answer is `unknown` (Subtype itself is decoded and checked).
 */
const RELIED_ON = new Set([
  'Image',
  'Encrypt',
  'Filter',
  'F',
  'DecodeParms',
  'DP',
  'Predictor',
  'FlateDecode',
  'Fl',
  'Type',
  'XRef',
  'ObjStm',
  'Metadata',
  'EmbeddedFile',
  'Length1',
  'Length2',
  'Length3',
  'Type1C',
  'CIDFontType0C',
  'OpenType',
]);

export function rawImageVerdict(bytes: Uint8Array): RawImageVerdict {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);

  // 1. Image XObjects: /Subtype /Image, with any whitespace or comments between, the value possibly
  // written with escapes (/Im#61ge).
  for (let at = buf.indexOf('/Subtype'); at >= 0; at = buf.indexOf('/Subtype', at + 8)) {
    if (isRegular(buf[at + 8])) continue; // a longer name
    const subtype = subtypeAt(buf, at + 8);
    if (subtype !== 'other') return subtype;
  }

  // 2. Names written with # escapes: a key /Subtype spelt so is checked like the plain one; any other
  // name the search relies on makes the answer unknown.
  let lastName = -1;
  for (let at = buf.indexOf(HASH); at >= 0; at = buf.indexOf(HASH, at + 1)) {
    let start = at;
    while (start > 0 && at - start < 128 && isRegular(buf[start - 1])) start--;
    if (start === 0 || buf[start - 1] !== SLASH || start - 1 === lastName) continue;
    lastName = start - 1;
    const { name, end } = readName(buf, start - 1);
    if (name === 'Subtype') {
      const subtype = subtypeAt(buf, end);
      if (subtype !== 'other') return subtype;
    } else if (RELIED_ON.has(name)) {
      return 'unknown';
    }
  }

  // 3. Encrypted files: stream data, so any inline image, cannot be read.
  for (let at = buf.indexOf('/Encrypt'); at >= 0; at = buf.indexOf('/Encrypt', at + 8)) {
    if (!isRegular(buf[at + 8])) return 'unknown';
  }

  // 4. Inline images in streams stored without a filter: visible in the file as they are.
  if (hasInlineImage(buf)) return 'inline-image';

  // 5. Inline images in Flate-compressed streams; any other filter cannot be looked into.
  for (let at = buf.indexOf('stream'); at >= 0; at = buf.indexOf('stream', at + 6)) {
    // Not the keyword: endstream, part of a longer word, or followed by something other than a line end.
    if (isRegular(buf[at - 1]) || CLASS[buf[at + 6] ?? 0x41] !== 1) continue;
    const stream = streamAt(buf, at);
    if (stream === 'unknown') return 'unknown';
    if (stream === undefined) continue;
    let inflated: Buffer;
    try {
      inflated = inflateSync(stream, {
        finishFlush: constants.Z_SYNC_FLUSH,
        maxOutputLength: MAX_INFLATED,
      });
    } catch {
      return 'unknown';
    }
    if (hasInlineImage(inflated)) return 'inline-image';
  }
  return 'none';
}

/** The value after a /Subtype key ending at `from`: an image, another name, or not a plain name. */
function subtypeAt(buf: Buffer, from: number): 'image-xobject' | 'other' | 'unknown' {
  const at = skipSpace(buf, from);
  // A value that is not a name (a reference to one, or bytes that only look like a key) cannot be read.
  if (buf[at] !== SLASH) return 'unknown';
  return readName(buf, at).name === 'Image' ? 'image-xobject' : 'other';
}

/** Skips whitespace and comments. */
function skipSpace(buf: Buffer, from: number): number {
  let i = from;
  for (;;) {
    while (i < buf.length && CLASS[buf[i]!] === 1) i++;
    if (buf[i] !== PERCENT) return i;
    while (i < buf.length && buf[i] !== CR && buf[i] !== LF) i++;
  }
}

/** The name starting with the slash at `at`, its #xx escapes decoded, and where it ends. */
function readName(buf: Buffer, at: number): { name: string; end: number } {
  let end = at + 1;
  while (isRegular(buf[end])) end++;
  const raw = buf.toString('latin1', at + 1, end);
  const name = raw.includes('#')
    ? raw.replace(/#([0-9a-fA-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)))
    : raw;
  return { name, end };
}

/**
 * Whether the bytes hold the inline-image operator: `BI` standing alone (not part of a name or a
 * longer word) followed by the first key of the image's dictionary.
 */
function hasInlineImage(buf: Buffer): boolean {
  for (let at = buf.indexOf('BI'); at >= 0; at = buf.indexOf('BI', at + 2)) {
    const before = buf[at - 1];
    if (isRegular(before) || before === SLASH || isRegular(buf[at + 2])) continue;
    if (buf[skipSpace(buf, at + 2)] === SLASH) return true;
  }
  return false;
}

/**
 * The compressed data of the stream whose `stream` keyword is at `at`, when it is Flate-compressed;
 * undefined for a stream stored without a filter (searched as it is) or one that can hold no content
 * (a cross-reference or object stream); `unknown` when its dictionary cannot be read or its filter
 * cannot be undone here.
 */
function streamAt(buf: Buffer, at: number): Buffer | 'unknown' | undefined {
  // The keyword follows the stream's dictionary: `>>`, then whitespace.
  let close = at - 1;
  while (close > 0 && CLASS[buf[close]!] === 1) close--;
  if (buf[close] !== GT || buf[close - 1] !== GT) return 'unknown';
  const open = objectHeaderEnd(buf, close);
  if (open < 0) return 'unknown';
  const dict = buf.toString('latin1', open, close + 1);
  if (NOT_CONTENT.test(dict)) return undefined;
  if (/\/Predictor(?![^\s/<>[\]()%{}])/.test(dict)) return 'unknown';
  const filters = filtersOf(dict);
  if (filters === 'unknown') return 'unknown';
  if (filters.length === 0) return undefined;
  if (filters.length > 1 || (filters[0] !== 'FlateDecode' && filters[0] !== 'Fl')) return 'unknown';
  // The data starts after the end of the keyword's line and runs to `endstream`.
  let start = at + 6;
  while (start < buf.length && buf[start] !== CR && buf[start] !== LF) start++;
  if (buf[start] === CR) start++;
  if (buf[start] === LF) start++;
  const end = buf.indexOf('endstream', start);
  return buf.subarray(start, end < 0 ? buf.length : end);
}

/**
 * Streams a page never draws: cross-reference and object streams, metadata, embedded files and font
 * programs (/Length1-3 of FontFile and FontFile2, the /Subtype of FontFile3). Not inflating fonts keeps
 * the check cheap for documents with large embedded fonts.
 */
const NOT_CONTENT =
  /\/Type\s*\/(?:XRef|ObjStm|Metadata|EmbeddedFile)(?![^\s/<>[\]()%{}])|\/Length[123](?![^\s/<>[\]()%{}])|\/Subtype\s*\/(?:Type1C|CIDFontType0C|OpenType)(?![^\s/<>[\]()%{}])/;

/** Where the dictionary of the object whose `>>` ends at `close` begins: just after `N G obj`. */
function objectHeaderEnd(buf: Buffer, close: number): number {
  // (A negative offset would make lastIndexOf search from the end again.)
  for (let k = buf.lastIndexOf('obj', close); k >= 0; k = k > 0 ? buf.lastIndexOf('obj', k - 1) : -1) {
    if (close - k > 1 << 20) return -1;
    // The end of the object before: this one has no header.
    if (buf.toString('latin1', Math.max(0, k - 3), k) === 'end') return -1;
    if (isRegular(buf[k + 3])) continue;
    if (/(?:^|[^0-9])\d+\s+\d+\s+$/.test(buf.toString('latin1', Math.max(0, k - 32), k))) return k + 3;
  }
  return -1;
}

/** The filter names of a stream dictionary (pdfjs also reads /F as the filter), or unknown. */
function filtersOf(dict: string): string[] | 'unknown' {
  const keys = [...dict.matchAll(/\/(?:Filter|F)(?![^\s/<>[\]()%{}])/g)];
  if (keys.length === 0) return [];
  if (keys.length > 1) return 'unknown';
  const value = /^\s*(?:\/([^\s/<>[\]()%{}]+)|\[((?:\s*\/[^\s/<>[\]()%{}]+)*)\s*\])/.exec(
    dict.slice(keys[0]!.index + keys[0]![0].length),
  );
  if (!value) return 'unknown';
  if (value[1] !== undefined) return [value[1]];
  return [...(value[2] ?? '').matchAll(/\/([^\s/<>[\]()%{}]+)/g)].map((m) => m[1]!);
}
