import { afterAll, describe, expect, it } from 'vitest';
import { createEngine } from '../../src/index.js';
import type { Token, TokenLayer } from '../../src/index.js';
import { rotateRightAngle } from '../../src/documents/raster.js';
import { PDFDocument } from 'pdf-lib';
import { defaultImageBackend, defaultOcrEngine } from '../../src/default-adapters.js';
import type { OcrEngine } from '../../src/ports/ocr-engine.js';
import type { ImageBackend } from '../../src/ports/image-backend.js';
import { Jimp } from 'jimp';
import {
  A4,
  INVOICE_LINES,
  encodeImage,
  findToken,
  makeImagePdf,
  makeMixedPdf,
  makeTextPdf,
  renderPdfPage,
} from '../helpers/make-documents.js';

const engine = createEngine({ ocr: { workers: 2 } });
afterAll(() => engine.close());

async function ingestBytes(bytes: Uint8Array, ocr?: 'auto' | 'always' | 'never'): Promise<TokenLayer> {
  const record = await engine.upload(bytes);
  return engine.ingest(record.fileId, ocr ? { ocr } : {});
}

function centre(token: Token): { x: number; y: number } {
  return { x: (token.box.x0 + token.box.x1) / 2, y: (token.box.y0 + token.box.y1) / 2 };
}

/** Where the middle of a word drawn at (x, baseline y) in points lands, as page fractions. */
function expectedCentre(x: number, y: number, size: number, chars: number): { x: number; y: number } {
  return { x: (x + chars * size * 0.28) / A4.width, y: (y - size * 0.3) / A4.height };
}

function texts(layer: TokenLayer): string[] {
  return layer.tokens.map((t) => t.text);
}

function normalised(words: string[]): string {
  return words
    .join(' ')
    .toLowerCase()
    .replace(/[^a-z0-9 ]/g, '');
}

describe('ingesting a PDF with a text layer', () => {
  it('splits runs into words with boxes in page fractions, origin top left', async () => {
    const layer = await ingestBytes(await makeTextPdf([{ lines: INVOICE_LINES }]));
    expect(layer.pages).toEqual([
      {
        pageNum: 1,
        width: A4.width,
        height: A4.height,
        unit: 'pt',
        rotation: 0,
        source: 'text',
        // Pictures are looked for only when a field needs them (image-regions.test.ts).
        pictures: { examined: false, regions: [] },
      },
    ]);
    expect(texts(layer)).toEqual(INVOICE_LINES.flatMap((l) => l.text.split(' ')));
    const number = findToken(layer.tokens, 'INV-20931')!;
    expect(number.confidence).toBe(1);
    expect(number.source).toBe('text');
    // "Invoice Number: " is 16 characters at 12 pt Helvetica, about 6.7 pt a character.
    expect(number.box.x0).toBeGreaterThan((50 + 12 * 6) / A4.width);
    expect(number.box.x0).toBeLessThan((50 + 16 * 7.5) / A4.width);
    expect(number.box.y1).toBeCloseTo((140 + 12 * 0.2) / A4.height, 3);
    expect(number.box.y0).toBeCloseTo((140 - 12 * 0.8) / A4.height, 3);
    for (const token of layer.tokens) {
      expect(token.box.x0).toBeLessThan(token.box.x1);
      expect(token.box.y0).toBeLessThan(token.box.y1);
    }
  });

  it('numbers tokens in reading order and groups them into lines and blocks', async () => {
    const layer = await ingestBytes(
      await makeTextPdf([
        { lines: INVOICE_LINES },
        { lines: [{ text: 'Page two words here', x: 50, y: 100 }] },
      ]),
    );
    expect(layer.tokens.map((t) => t.id)).toEqual(layer.tokens.map((_, i) => i));
    expect(layer.tokens.at(-1)!.pageNum).toBe(2);
    const lineTexts = layer.lines.map((l) => l.tokenIds.map((id) => layer.tokens[id]!.text).join(' '));
    expect(lineTexts).toContain('Invoice Number: INV-20931');
    expect(lineTexts).toContain('Widgets large 4 120.00');
    for (const line of layer.lines) {
      const block = layer.blocks[line.blockId]!;
      expect(block.lineIds).toContain(line.id);
      for (const id of line.tokenIds) expect(layer.tokens[id]!.lineId).toBe(line.id);
    }
    // The three item lines sit 20 pt apart at 12 pt: one block.
    const item = layer.lines.find((l) => layer.tokens[l.tokenIds[0]!]!.text === 'Widgets')!;
    const delivery = layer.lines.find((l) => layer.tokens[l.tokenIds[0]!]!.text === 'Delivery')!;
    expect(item.blockId).toBe(delivery.blockId);
  });

  it('maps words of a page with /Rotate 90 to the page as displayed', async () => {
    const layer = await ingestBytes(
      await makeTextPdf([
        { rotate: 90, lines: [{ text: 'Rotated invoice heading', x: 50, y: 100, size: 12 }] },
      ]),
    );
    expect(layer.pages[0]).toMatchObject({
      width: A4.height,
      height: A4.width,
      rotation: 90,
      source: 'text',
    });
    const word = findToken(layer.tokens, 'Rotated')!;
    // Turned clockwise: what was 100 pt from the top is now 100 pt from the right; x along the
    // unrotated page becomes y down the displayed one.
    expect(word.box.x1).toBeCloseTo((A4.height - 100 + 12 * 0.8) / A4.height, 2);
    expect(word.box.y0).toBeCloseTo(50 / A4.width, 2);
    expect(word.box.y1 - word.box.y0).toBeGreaterThan(word.box.x1 - word.box.x0);
    expect(layer.lines.map((l) => l.tokenIds.length)).toEqual([3]);
  });

  it('never OCRs a text page when told not to, and keeps no OCR words', async () => {
    const layer = await ingestBytes(await makeMixedPdf('NORTHWIND', INVOICE_LINES.slice(2)), 'never');
    expect(layer.tokens.every((t) => t.source === 'text')).toBe(true);
    expect(findToken(layer.tokens, 'NORTHWIND')).toBeUndefined();
  });
});

describe('ingesting pages without a text layer', () => {
  it('OCRs a scanned PDF page, with word boxes where the words are printed', async () => {
    const scan = await encodeImage(
      await renderPdfPage(await makeTextPdf([{ lines: INVOICE_LINES }]), 200),
      'png',
    );
    const layer = await ingestBytes(await makeImagePdf([scan]));
    expect(layer.pages[0]).toMatchObject({
      source: 'ocr',
      unit: 'pt',
      ocrCorrection: { rightAngle: 0, skew: 0 },
    });
    expect(normalised(texts(layer))).toContain('invoice number inv20931');
    expect(normalised(texts(layer))).toContain('total 15000');
    const word = findToken(layer.tokens, 'Delivery')!;
    expect(word.source).toBe('ocr');
    expect(word.confidence).toBeGreaterThan(0.8);
    expect(word.confidence).toBeLessThanOrEqual(1);
    const expected = expectedCentre(50, 270, 12, 'Delivery'.length);
    expect(centre(word).x).toBeCloseTo(expected.x, 1);
    expect(Math.abs(centre(word).y - expected.y)).toBeLessThan(0.01);
  });

  it('reads both the text layer and the picture of a logo when OCR is always', async () => {
    // With `auto`, pictures are only noted (test/documents/image-regions.test.ts).
    const layer = await ingestBytes(await makeMixedPdf('NORTHWIND', INVOICE_LINES.slice(2)), 'always');
    expect(layer.pages[0]!.source).toBe('text+ocr');
    const logo = findToken(layer.tokens, 'NORTHWIND')!;
    expect(logo.source).toBe('ocr');
    expect(logo.box.x0).toBeGreaterThan(40 / A4.width - 0.01);
    expect(logo.box.y1).toBeLessThan(100 / A4.height + 0.01);
    const text = findToken(layer.tokens, 'INV-20931')!;
    expect(text.source).toBe('text');
    // Words of the text layer are not repeated by OCR.
    expect(layer.tokens.filter((t) => t.text === 'INV-20931')).toHaveLength(1);
  });

  it('turns a page scanned sideways upright for OCR and maps boxes back to the page as seen', async () => {
    const upright = await renderPdfPage(await makeTextPdf([{ lines: INVOICE_LINES }]), 200);
    const sideways = rotateRightAngle(upright, 90);
    const layer = await ingestBytes(await encodeImage(sideways, 'png'));
    expect(layer.pages[0]).toMatchObject({
      unit: 'px',
      width: sideways.width,
      height: sideways.height,
      source: 'ocr',
    });
    expect(layer.pages[0]!.ocrCorrection!.rightAngle).toBe(270);
    expect(normalised(texts(layer))).toContain('invoice number inv20931');
    const word = findToken(layer.tokens, 'Delivery')!;
    // In the upright page the word is near the left at y = 270 pt; turned clockwise, it is near the top.
    const expected = expectedCentre(50, 270, 12, 'Delivery'.length);
    expect(centre(word).x).toBeCloseTo(1 - expected.y, 1);
    expect(centre(word).y).toBeCloseTo(expected.x, 1);
    expect(word.box.y1 - word.box.y0).toBeGreaterThan(word.box.x1 - word.box.x0);
  });

  it('reads a scan turned the other way (counter-clockwise)', async () => {
    const upright = await renderPdfPage(await makeTextPdf([{ lines: INVOICE_LINES }]), 200);
    const turned = rotateRightAngle(upright, 270);
    const layer = await ingestBytes(await encodeImage(turned, 'png'));
    expect(layer.pages[0]!.ocrCorrection!.rightAngle).toBe(90);
    expect(normalised(texts(layer))).toContain('invoice number inv20931');
    const word = findToken(layer.tokens, 'Delivery')!;
    // Turned counter-clockwise: the word near the left at y = 270 pt is now near the bottom left.
    const expected = expectedCentre(50, 270, 12, 'Delivery'.length);
    expect(centre(word).x).toBeCloseTo(expected.y, 1);
    expect(centre(word).y).toBeCloseTo(1 - expected.x, 1);
  });

  it('reads an upside-down scan', async () => {
    const upright = await renderPdfPage(await makeTextPdf([{ lines: INVOICE_LINES }]), 200);
    const layer = await ingestBytes(await encodeImage(rotateRightAngle(upright, 180), 'jpeg'));
    expect(layer.pages[0]!.ocrCorrection!.rightAngle).toBe(180);
    expect(normalised(texts(layer))).toContain('total 15000');
    const word = findToken(layer.tokens, 'Delivery')!;
    const expected = expectedCentre(50, 270, 12, 'Delivery'.length);
    expect(centre(word).x).toBeCloseTo(1 - expected.x, 1);
    expect(centre(word).y).toBeCloseTo(1 - expected.y, 1);
  });

  it('measures and corrects the skew of a scan', async () => {
    const images = await defaultImageBackend();
    const upright = await renderPdfPage(await makeTextPdf([{ lines: INVOICE_LINES }]), 200);
    const skewed = await images.rotate(upright, 2.5);
    const layer = await ingestBytes(await encodeImage(skewed, 'png'));
    expect(layer.pages[0]!.ocrCorrection!.skew).toBeCloseTo(2.5, 0);
    expect(normalised(texts(layer))).toContain('invoice number inv20931');
    const word = findToken(layer.tokens, 'Total')!;
    // Where the word lands after turning the page by 2.5 degrees about its centre.
    const e = expectedCentre(50, 320, 14, 5);
    const theta = (2.5 * Math.PI) / 180;
    const [cx, cy] = [upright.width / 2, upright.height / 2];
    const [px, py] = [e.x * upright.width - cx, e.y * upright.height - cy];
    const x = (Math.cos(theta) * px - Math.sin(theta) * py + skewed.width / 2) / skewed.width;
    const y = (Math.sin(theta) * px + Math.cos(theta) * py + skewed.height / 2) / skewed.height;
    expect(centre(word).x).toBeCloseTo(x, 1);
    expect(Math.abs(centre(word).y - y)).toBeLessThan(0.01);
  });

  it('keeps an image as a page without words when OCR is off', async () => {
    const image = await renderPdfPage(await makeTextPdf([{ lines: INVOICE_LINES.slice(0, 2) }]), 72);
    const layer = await ingestBytes(await encodeImage(image, 'png'), 'never');
    expect(layer.pages).toEqual([
      { pageNum: 1, width: image.width, height: image.height, unit: 'px', rotation: 0, source: 'none' },
    ]);
    expect(layer.tokens).toEqual([]);
  });

  it('returns no words for a blank scan', async () => {
    const blank = { width: 800, height: 1100, data: new Uint8Array(800 * 1100).fill(255) };
    const layer = await ingestBytes(await makeImagePdf([await encodeImage(blank, 'png')]));
    expect(layer.tokens).toEqual([]);
  });
});

describe('ingesting with the pure-JavaScript image backend', () => {
  it('decodes, deskews and reads a scan with jimp as it does with sharp', async () => {
    const jimpEngine = createEngine({ images: 'jimp', ocr: { workers: 1 } });
    try {
      const upright = await renderPdfPage(await makeTextPdf([{ lines: INVOICE_LINES }]), 150);
      const skewed = await (await defaultImageBackend('jimp')).rotate(upright, -2);
      const record = await jimpEngine.upload(await encodeImage(skewed, 'jpeg'));
      const layer = await jimpEngine.ingest(record.fileId);
      expect(layer.pages[0]!.ocrCorrection!.skew).toBeCloseTo(-2, 0);
      expect(normalised(texts(layer))).toContain('invoice number inv20931');
    } finally {
      await jimpEngine.close();
    }
  });
});

describe('a weak photo read a second time', () => {
  it('keeps the second reading (from a locally thresholded image) as a layer of its own, only when asked', async () => {
    const pdf = await makeTextPdf([{ lines: INVOICE_LINES.slice(0, 4) }]);
    const photo = await encodeImage(await renderPdfPage(pdf, 150), 'png');
    const always = createEngine({ ocr: { workers: 1 }, ingest: { secondReadingBelow: 1 } });
    const never = createEngine({ ocr: { workers: 1 }, ingest: { secondReadingBelow: 0 } });
    try {
      const twice = await always.ingest((await always.upload(photo)).fileId);
      expect(twice.readings).toHaveLength(1);
      const second = twice.readings![0]!;
      expect(second.readings).toBeUndefined();
      expect(second.pages).toEqual(twice.pages);
      expect(second.tokens.map((t, i) => t.id === i && t.source === 'ocr').every(Boolean)).toBe(true);
      // Both readings are of the same picture: the same word sits at the same place.
      const a = findToken(twice.tokens, 'INV-20931')!;
      const b = findToken(second.tokens, 'INV-20931')!;
      expect(Math.abs(centre(a).x - centre(b).x)).toBeLessThan(0.01);
      expect(Math.abs(centre(a).y - centre(b).y)).toBeLessThan(0.01);
      // Extraction reads both; every box points at the stored layer's tokens.
      const fields = (await always.extract(twice.fileId, ['invoices:2'])).fields;
      const reference = fields.find((f) => f.name === 'document.referenceNo')!;
      expect(reference.value).toBe('INV-20931');
      expect(reference.boundingBox!.tokenIds.map((id) => twice.tokens[id]!.text)).toEqual(['INV-20931']);

      const once = await never.ingest((await never.upload(photo)).fileId);
      expect(once.readings).toBeUndefined();
      expect(texts(once)).toEqual(texts(twice));
    } finally {
      await Promise.all([always.close(), never.close()]);
    }
  });
});

describe('a colour photo with a stamp over the print', () => {
  it('is read the second time from its lightest channel, where the red stamp is gone', async () => {
    const page = await renderPdfPage(await makeTextPdf([{ lines: INVOICE_LINES.slice(0, 4) }]), 150);
    // A red stamp across the invoice number's line.
    const number = findToken((await ingestBytes(await encodeImage(page, 'png'))).tokens, 'INV-20931')!;
    // Ink over print (the stamp darkens the paper, black stays black): the strokes of a stamp's letters
    // across the number's line, 5 pixels wide, drawn in plain pixels and encoded in JavaScript (a second
    // native image library in this process now and then takes it down, scripts/test-images.mjs).
    const red = [215, 25, 35] as const;
    const rgba = Buffer.alloc(page.width * page.height * 4, 255);
    page.data.forEach((v, i) => rgba.fill(v, i * 4, i * 4 + 3));
    const [top, bottom] = [
      Math.round((number.box.y0 - 0.02) * page.height),
      Math.round((number.box.y1 + 0.02) * page.height),
    ];
    for (let x0 = 0; x0 < page.width; x0 += 14)
      for (let y = top; y <= bottom; y++) {
        const centre = x0 + (10 * (bottom - y)) / (bottom - top);
        for (let x = Math.round(centre - 2.5); x <= Math.round(centre + 2.5); x++) {
          if (x < 0 || x >= page.width) continue;
          const at = (y * page.width + x) * 4;
          for (let c = 0; c < 3; c++) rgba[at + c] = Math.round((rgba[at + c]! * red[c]!) / 255);
        }
      }
    const photo = new Uint8Array(
      await new Jimp({ width: page.width, height: page.height, data: rgba }).getBuffer('image/png'),
    );

    const backend = await defaultImageBackend();
    const channels: Array<string | undefined> = [];
    const recording: ImageBackend = {
      ...backend,
      name: backend.name,
      decode: (bytes, options) => {
        channels.push(options.channel);
        return backend.decode(bytes, options);
      },
    };
    const reading = createEngine({
      ocr: { workers: 1 },
      images: recording,
      ingest: { secondReadingBelow: 1 },
    });
    try {
      const layer = await reading.ingest((await reading.upload(photo)).fileId);
      // Read from the lightest channel the second time; the number the stamp crossed is read there (from
      // the luma image, thresholded, the strokes join the letters and it is lost: checked by hand).
      expect(channels).toEqual([undefined, 'lightest']);
      expect(findToken(layer.readings![0]!.tokens, 'INV-20931')).toBeDefined();
    } finally {
      await reading.close();
    }
  });
});

describe('scanned receipts in a PDF', () => {
  it('reads a page much taller than wide as one block of text, as a photo, and an A4 scan page by page analysis', async () => {
    const real = await defaultOcrEngine({ workers: 1 });
    const modes: Array<number | undefined> = [];
    // The real recogniser, with a note of how it was asked to segment each page.
    const recording: OcrEngine = {
      recognize: (image, options) => {
        modes.push(options?.pageSegmentationMode);
        return real.recognize(image, options);
      },
      close: () => real.close(),
    };
    const reading = createEngine({ ocr: recording });
    try {
      const receipt = await makeTextPdf([
        {
          width: 226,
          height: 520,
          lines: [
            { text: 'CORNER SHOP', x: 60, y: 40, size: 14, bold: true },
            { text: 'TOTAL', x: 12, y: 300, size: 10 },
            { text: '12.50', x: 180, y: 300, size: 10 },
          ],
        },
      ]);
      const image = await encodeImage(await renderPdfPage(receipt, 200), 'png');
      const doc = await PDFDocument.create();
      const png = await doc.embedPng(image);
      doc.addPage([226, 520]).drawImage(png, { x: 0, y: 0, width: 226, height: 520 });
      const { fileId } = await reading.upload(await doc.save());
      const layer = await reading.ingest(fileId);
      expect(layer.pages[0]!.source).toBe('ocr');
      expect(texts(layer).join(' ')).toContain('12.50');
      expect(modes.length).toBeGreaterThan(0);
      expect(modes.every((m) => m === 6)).toBe(true);
      modes.length = 0;
      const a4 = await makeImagePdf([
        await encodeImage(await renderPdfPage(await makeTextPdf([{ lines: INVOICE_LINES }]), 150), 'png'),
      ]);
      await reading.ingest((await reading.upload(a4)).fileId);
      expect(modes.length).toBeGreaterThan(0);
      expect(modes.every((m) => m === undefined)).toBe(true);
    } finally {
      await reading.close();
    }
  });
});
