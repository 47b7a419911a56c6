/**
 * Small PDFs made to hurt a PDF reader: each is a valid file whose parsing or rendering costs memory or
 * time far out of proportion to its size. The tests and the hostile benchmark generate them here (none
 * is stored in the repository). Every kind comes in a few sizes.
 */
import { constants, deflateRawSync, deflateSync } from 'node:zlib';

export interface HostilePdf {
  name: string;
  kind: HostileKind;
  bytes: Uint8Array;
}

export type HostileKind =
  | 'jpeg-header-bomb'
  | 'image-size-bomb'
  | 'flate-content-bomb'
  | 'flate-image-bomb'
  | 'nested-q'
  | 'many-words'
  | 'many-images'
  | 'many-shapes'
  | 'long-string';

/** Writes objects (1-based numbers, the first is the catalog) into a PDF with a correct xref table. */
export function writePdf(objects: Array<string | Uint8Array>): Uint8Array {
  const parts: Buffer[] = [Buffer.from('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n', 'latin1')];
  let length = parts[0]!.length;
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(length);
    const chunk = Buffer.concat([
      Buffer.from(`${i + 1} 0 obj\n`, 'latin1'),
      typeof body === 'string' ? Buffer.from(body, 'latin1') : Buffer.from(body),
      Buffer.from('\nendobj\n', 'latin1'),
    ]);
    parts.push(chunk);
    length += chunk.length;
  });
  const xref = [
    'xref',
    `0 ${objects.length + 1}`,
    '0000000000 65535 f ',
    ...offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n `),
    'trailer',
    `<< /Size ${objects.length + 1} /Root 1 0 R >>`,
    'startxref',
    String(length),
    '%%EOF',
    '',
  ].join('\n');
  parts.push(Buffer.from(xref, 'latin1'));
  return new Uint8Array(Buffer.concat(parts));
}

/** A stream object: dictionary entries (without Length) and data. */
function stream(dict: string, data: Uint8Array): Uint8Array {
  return Buffer.concat([
    Buffer.from(`<< ${dict} /Length ${data.length} >>\nstream\n`, 'latin1'),
    Buffer.from(data),
    Buffer.from('\nendstream', 'latin1'),
  ]);
}

/** One A4 page with the given content stream and resources (objects from number 4 on are `extra`). */
function onePage(content: Uint8Array, resources: string, extra: Array<string | Uint8Array> = []): Uint8Array {
  return writePdf([
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources ${resources} /Contents ${4 + extra.length} 0 R >>`,
    ...extra,
    content,
  ]);
}

/** A baseline JPEG of 16x16 grey pixels whose frame header declares `width` x `height`. */
export function jpegDeclaring(width: number, height: number): Uint8Array {
  // A real 16x16 greyscale JPEG (quality 50), with its SOF0 dimensions rewritten.
  const jpeg = Buffer.from(TINY_JPEG_BASE64, 'base64');
  for (let i = 2; i + 9 < jpeg.length;) {
    if (jpeg[i] !== 0xff) break;
    const marker = jpeg[i + 1]!;
    const size = jpeg.readUInt16BE(i + 2);
    if (marker === 0xc0 || marker === 0xc2) {
      jpeg.writeUInt16BE(height, i + 5);
      jpeg.writeUInt16BE(width, i + 7);
      break;
    }
    i += 2 + size;
  }
  return new Uint8Array(jpeg);
}

/**
 * One page painting a small JPEG whose own header declares a huge picture. The image dictionary
 * declares `dictSize` (the JPEG's real size, 16, by default; or the header's size).
 */
export function jpegHeaderBomb(
  declared: number,
  dictSize = 16,
  options: { hidden?: boolean } = {},
): Uint8Array {
  // `hidden`: the filter is given by reference, so only a full parser knows the data is a JPEG (a check
  // of the raw bytes cannot tell; what bounds the reader's memory must then catch it).
  const filter = options.hidden ? '6 0 R' : '/DCTDecode';
  const image = stream(
    `/Type /XObject /Subtype /Image /Width ${dictSize} /Height ${dictSize} /ColorSpace /DeviceGray /BitsPerComponent 8 /Filter ${filter}`,
    jpegDeclaring(declared, declared),
  );
  const content = Buffer.from(
    'q 500 0 0 700 40 60 cm /Im0 Do Q BT /F1 12 Tf 40 40 Td (Invoice 1001 Total 10.00) Tj ET',
  );
  return onePage(stream('', content), '<< /XObject << /Im0 4 0 R >> /Font << /F1 5 0 R >> >>', [
    image,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
    '/DCTDecode',
  ]);
}

/**
 * A zlib stream of `size` bytes of `fill` (about 1/1000 of it compressed), made without holding the
 * inflated bytes: one chunk deflated with a sync flush (a non-final block) repeated, then an empty
 * final block, with the Adler-32 of the whole worked out arithmetically.
 */
export function deflatedRun(size: number, fill = 0x20): Uint8Array {
  const chunkSize = Math.min(size, 4 * 1024 * 1024);
  const times = Math.max(1, Math.floor(size / chunkSize));
  const block = deflateRawSync(Buffer.alloc(chunkSize, fill), {
    level: 9,
    finishFlush: constants.Z_SYNC_FLUSH,
  });
  const total = chunkSize * times;
  const n = BigInt(total);
  const c = BigInt(fill);
  const a = (1n + n * c) % 65521n;
  const b = (n + (c * n * (n + 1n)) / 2n) % 65521n;
  const trailer = Buffer.alloc(4);
  trailer.writeUInt32BE(Number((b << 16n) | a));
  return new Uint8Array(
    Buffer.concat([
      Buffer.from([0x78, 0xda]),
      ...Array.from({ length: times }, () => block),
      Buffer.from([0x03, 0x00]),
      trailer,
    ]),
  );
}

/** One page whose content stream is `inflatedMb` MB of spaces once inflated, then a line of text. */
export function flateContentBomb(inflatedMb: number): Uint8Array {
  const data = deflatedRun(inflatedMb * 1024 * 1024);
  return onePage(stream('/Filter /FlateDecode', data), '<< /Font << /F1 4 0 R >> >>', [
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ]);
}

/**
 * One page painting a Flate greyscale image that declares `side` x `side` pixels; its data inflates
 * to at most `inflatedMb` MB.
 */
export function flateImageBomb(side: number, inflatedMb: number): Uint8Array {
  const image = stream(
    `/Type /XObject /Subtype /Image /Width ${side} /Height ${side} /ColorSpace /DeviceGray /BitsPerComponent 8 /Filter /FlateDecode`,
    deflatedRun(Math.min(side * side, inflatedMb * 1024 * 1024), 0xff),
  );
  const content = Buffer.from('q 500 0 0 700 40 60 cm /Im0 Do Q');
  return onePage(stream('', content), '<< /XObject << /Im0 4 0 R >> >>', [image]);
}

/** One page whose graphics state is saved `depth` times without being restored, then some text. */
export function nestedSaves(depth: number): Uint8Array {
  const content = Buffer.concat([
    Buffer.from('q '.repeat(depth)),
    Buffer.from('BT /F1 12 Tf 40 800 Td (Invoice 1) Tj ET '),
    Buffer.from('Q '.repeat(depth)),
  ]);
  return onePage(stream('/Filter /FlateDecode', deflateSync(content)), '<< /Font << /F1 4 0 R >> >>', [
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ]);
}

/** One page with `words` short words in lines of `perLine` words, in tiny print. */
export function manyWords(words: number, perLine = 100): Uint8Array {
  const parts: string[] = ['BT /F1 1 Tf 1 0 0 1 2 838 Tm 1.1 TL'];
  for (let i = 0; i < words; i += perLine) {
    const line = Array.from({ length: Math.min(perLine, words - i) }, (_, k) => `w${(i + k) % 1000}`).join(
      ' ',
    );
    parts.push(`(${line}) '`);
  }
  parts.push('ET');
  return onePage(
    stream('/Filter /FlateDecode', deflateSync(Buffer.from(parts.join('\n')))),
    '<< /Font << /F1 4 0 R >> >>',
    ['<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>'],
  );
}

/**
 * One page painting `count` different JPEG pictures of `side` x `side` pixels each (each within any
 * sensible per-picture limit; together gigabytes once decoded): what bounds the reader's memory as a
 * whole must catch it.
 */
export function manyImages(count: number, side: number): Uint8Array {
  const images = Array.from({ length: count }, () =>
    stream(
      `/Type /XObject /Subtype /Image /Width ${side} /Height ${side} /ColorSpace /DeviceGray /BitsPerComponent 8 /Filter /DCTDecode`,
      jpegDeclaring(side, side),
    ),
  );
  const names = images.map((_, i) => `/Im${i} ${4 + i} 0 R`).join(' ');
  const draws = images.map(
    (_, i) => `q 10 0 0 10 ${20 + (i % 50) * 11} ${20 + Math.floor(i / 50) * 11} cm /Im${i} Do Q`,
  );
  return onePage(stream('', Buffer.from(draws.join('\n'))), `<< /XObject << ${names} >> >>`, images);
}

/**
 * One page drawing `count` tiny rectangles, each with its own colour: a drawing list of millions of
 * operations (JavaScript objects, so heap) from a few hundred kilobytes.
 */
export function manyShapes(count: number): Uint8Array {
  const ops: string[] = [];
  for (let i = 0; i < count; i++) ops.push(`${(i % 7) / 7} g ${i % 500} ${(i >> 9) % 800} 1 1 re f`);
  ops.push('BT /F1 12 Tf 40 800 Td (Invoice 2) Tj ET');
  return onePage(
    stream('/Filter /FlateDecode', deflateSync(Buffer.from(ops.join('\n')))),
    '<< /Font << /F1 4 0 R >> >>',
    ['<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>'],
  );
}

/** One page showing one string of `chars` characters (a few kilobytes compressed). */
export function longString(chars: number): Uint8Array {
  const content = Buffer.concat([
    Buffer.from('BT /F1 1 Tf 10 800 Td ('),
    Buffer.alloc(chars, 'a'),
    Buffer.from(') Tj ET'),
  ]);
  return onePage(stream('/Filter /FlateDecode', deflateSync(content)), '<< /Font << /F1 4 0 R >> >>', [
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ]);
}

/** The hostile corpus: every kind in a small and a large size. */
export function hostileCorpus(): HostilePdf[] {
  return [
    { name: 'jpeg-header-16k.pdf', kind: 'jpeg-header-bomb', bytes: jpegHeaderBomb(16_000) },
    { name: 'jpeg-header-65k.pdf', kind: 'jpeg-header-bomb', bytes: jpegHeaderBomb(65_000) },
    {
      name: 'jpeg-hidden-16k.pdf',
      kind: 'jpeg-header-bomb',
      bytes: jpegHeaderBomb(16_000, 16, { hidden: true }),
    },
    {
      name: 'jpeg-hidden-65k.pdf',
      kind: 'jpeg-header-bomb',
      bytes: jpegHeaderBomb(65_000, 16, { hidden: true }),
    },
    { name: 'jpeg-header-65k-dict.pdf', kind: 'image-size-bomb', bytes: jpegHeaderBomb(65_000, 65_000) },
    { name: 'flate-content-256m.pdf', kind: 'flate-content-bomb', bytes: flateContentBomb(256) },
    { name: 'flate-content-1g.pdf', kind: 'flate-content-bomb', bytes: flateContentBomb(1024) },
    { name: 'flate-image-20k.pdf', kind: 'flate-image-bomb', bytes: flateImageBomb(20_000, 400) },
    { name: 'flate-image-60k.pdf', kind: 'flate-image-bomb', bytes: flateImageBomb(60_000, 1024) },
    { name: 'nested-q-20k.pdf', kind: 'nested-q', bytes: nestedSaves(20_000) },
    { name: 'nested-q-300k.pdf', kind: 'nested-q', bytes: nestedSaves(300_000) },
    { name: 'words-200k.pdf', kind: 'many-words', bytes: manyWords(200_000) },
    { name: 'shapes-1m.pdf', kind: 'many-shapes', bytes: manyShapes(1_000_000) },
    { name: 'string-20m.pdf', kind: 'long-string', bytes: longString(20_000_000) },
    { name: 'images-40x36m.pdf', kind: 'many-images', bytes: manyImages(40, 6000) },
    { name: 'images-200x36m.pdf', kind: 'many-images', bytes: manyImages(200, 6000) },
  ];
}

const TINY_JPEG_BASE64 =
  '/9j/2wBDABALDA4MChAODQ4SERATGCgaGBYWGDEjJR0oOjM9PDkzODdASFxOQERXRTc4UG1RV19iZ2hnPk1xeXBkeFxlZ2P/wAALCAAQABABAREA/8QAFwAAAwEAAAAAAAAAAAAAAAAAAAIDBP/EACQQAAIBAwIGAwAAAAAAAAAAAAECAwQREgAxBRNRYXGhIkFC/9oACAEBAAA/AIrHwueNVjWmpiDfOJYiT2+UhHrTPGaXOSJoJYFtY5Q5nb8KjHfpfrrQ2FZd7Txy4YqUMqKD9Eqka33899Ah4nT4coz1OV78pJhj5yceumv/2Q==';
