/**
 * TIFF (multi-page) and GIF uploads: their pages become the document's pages, read by OCR as scans
 * are, within the page and pixel limits; page images come out as PNG.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { DocexError } from '../../src/core/errors.js';
import { sniffMediaType } from '../../src/documents/sniff.js';
import { checkTiffStructure, openPagedImage } from '../../src/documents/multi-page-images.js';
import { createEngine, type Engine } from '../../src/index.js';
import type { GreyImage } from '../../src/ports/image-backend.js';
import { SECOND_INVOICE_LINES } from '../http/harness.js';
import {
  encodeGif,
  encodeTiff,
  INVOICE_LINES,
  makeTextPdf,
  renderPdfPage,
} from '../helpers/make-documents.js';

let first: GreyImage;
let second: GreyImage;
let engine: Engine;

beforeAll(async () => {
  const pdf = await makeTextPdf([{ lines: INVOICE_LINES }, { lines: SECOND_INVOICE_LINES }]);
  first = await renderPdfPage(pdf, 150, 1);
  second = await renderPdfPage(pdf, 150, 2);
  engine = createEngine({ ocrEngine: 'wasm' });
});
afterAll(() => engine.close());

const text = (layer: { tokens: Array<{ text: string; pageNum: number }> }, pageNum: number) =>
  layer.tokens
    .filter((t) => t.pageNum === pageNum)
    .map((t) => t.text)
    .join(' ');

describe('paged images (TIFF, GIF)', () => {
  it('knows TIFF and GIF by their bytes and counts a TIFF`s pages from its headers', () => {
    const tiff = encodeTiff([first, second, first]);
    expect(sniffMediaType(tiff)).toBe('image/tiff');
    expect(sniffMediaType(encodeGif(first))).toBe('image/gif');
    expect(openPagedImage(tiff, 'image/tiff').count).toBe(3);
    const page2 = openPagedImage(tiff, 'image/tiff').page(2, 50_000_000);
    expect([page2.width, page2.height]).toEqual([second.width, second.height]);
    expect(Buffer.from(page2.data).equals(Buffer.from(second.data))).toBe(true);
  });

  it('reads each page of a two-page TIFF by OCR, as a scan', async () => {
    const file = await engine.upload(encodeTiff([first, second]), { name: 'fax.tif' });
    expect(file).toMatchObject({ mediaType: 'image/tiff', pageCount: 2 });
    const layer = await engine.ingest(file.fileId);
    expect(layer.pages.map((p) => [p.pageNum, p.source])).toEqual([
      [1, 'ocr'],
      [2, 'ocr'],
    ]);
    expect(text(layer, 1)).toContain('INV-20931');
    expect(text(layer, 2)).toContain('BT-77120');
    const result = await engine.extract(file.fileId, ['invoices:2']);
    const total = result.fields.find((f) => f.name === 'invoice.total');
    expect(total?.boundingBox?.pageNum).toBeDefined();
  });

  it('reads a GIF as one page', async () => {
    const file = await engine.upload(encodeGif(first), { name: 'scan.gif' });
    expect(file).toMatchObject({ mediaType: 'image/gif', pageCount: 1 });
    const layer = await engine.ingest(file.fileId);
    expect(text(layer, 1)).toContain('INV-20931');
  });

  it('page images of a TIFF are PNGs of its pages, kept with the file', async () => {
    const file = await engine.upload(encodeTiff([first, second]));
    const image = await engine.pageImage(file.fileId, 2);
    expect(image.contentType).toBe('image/png');
    expect(Buffer.from(image.bytes).subarray(1, 4).toString()).toBe('PNG');
    const again = await engine.pageImage(file.fileId, 2);
    expect(Buffer.from(again.bytes).equals(Buffer.from(image.bytes))).toBe(true);
    await expect(engine.pageImage(file.fileId, 3)).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('split makes each document of a TIFF a child TIFF of its own pages', async () => {
    const file = await engine.upload(encodeTiff([first, second]), { name: 'two.tif' });
    const { job } = await engine.invoke('svc.split', { inputs: { file_id: file.fileId } });
    let result = await engine.getResult(file.fileId, { timeoutMs: 60_000 });
    while (result.status !== 'FINALISED') result = await engine.getResult(file.fileId, { timeoutMs: 60_000 });
    expect((await engine.getJob(job.id)).status).toBe('succeeded');
    const field = result.results.fields.find((f) => f.name === 'components.children') as unknown as {
      value: Array<{ file_id: string }>;
    };
    expect(field.value).toHaveLength(2);
    for (const [i, child] of field.value.entries()) {
      const record = await engine.getFile(child.file_id);
      expect(record).toMatchObject({
        mediaType: 'image/tiff',
        pageCount: 1,
        parent: { pages: [i + 1, i + 1] },
      });
      const page = openPagedImage(await engine.readFile(child.file_id), 'image/tiff').page(1, 50_000_000);
      expect([page.width, page.height]).toEqual([first.width, first.height]);
    }
    const secondChild = await engine.getTokenLayer(field.value[1]!.file_id);
    expect(text(secondChild!, 1)).toContain('BT-77120');
  });

  it('applies the page limit at upload, and refuses corrupt and oversized pages clearly', async () => {
    engine.configureAccount('small', { limits: { maxPages: 2 } });
    await expect(
      engine.upload(encodeTiff([first, second, first]), { accountId: 'small' }),
    ).rejects.toMatchObject({
      code: 'PAGE_LIMIT_EXCEEDED',
    });
    // Cut short: its header still counts one page; reading it is a clear IMAGE_CORRUPT, not garbage.
    const broken = await engine.upload(encodeTiff([first]).subarray(0, 4000));
    await expect(engine.ingest(broken.fileId)).rejects.toMatchObject({ code: 'IMAGE_CORRUPT' });
    await expect(engine.upload(new Uint8Array([0x49, 0x49, 0x2a, 0x00, 9, 9]))).rejects.toBeInstanceOf(
      DocexError,
    );
    expect(() => openPagedImage(encodeTiff([first]), 'image/tiff').page(1, 1000)).toThrow(
      expect.objectContaining({ code: 'IMAGE_TOO_LARGE' }),
    );
  });
});

describe('hostile TIFFs', () => {
  /** A one-page TIFF whose first directory's "next directory" points back at itself. */
  function loopingTiff(): Uint8Array {
    const tiff = encodeTiff([{ width: 4, height: 4, data: new Uint8Array(16).fill(255) }]);
    const view = new DataView(tiff.buffer, tiff.byteOffset, tiff.byteLength);
    const ifd = view.getUint32(4, true);
    const entries = view.getUint16(ifd, true);
    view.setUint32(ifd + 2 + entries * 12, ifd, true);
    return tiff;
  }

  it('refuses a chain of directories that loops, at once, instead of walking it forever', async () => {
    expect(() => checkTiffStructure(loopingTiff())).toThrow(
      expect.objectContaining({ code: 'IMAGE_CORRUPT' }),
    );
    await expect(engine.upload(loopingTiff())).rejects.toMatchObject({ code: 'IMAGE_CORRUPT' });
  });

  it('refuses a tag that claims more values than the file holds', () => {
    const tiff = encodeTiff([{ width: 4, height: 4, data: new Uint8Array(16).fill(255) }]);
    const view = new DataView(tiff.buffer, tiff.byteOffset, tiff.byteLength);
    const ifd = view.getUint32(4, true);
    // The first entry (width, one LONG): now four billion SHORTs somewhere past the end.
    view.setUint16(ifd + 2 + 2, 3, true);
    view.setUint32(ifd + 2 + 4, 0xffffffff, true);
    expect(() => checkTiffStructure(tiff)).toThrow(expect.objectContaining({ code: 'IMAGE_CORRUPT' }));
  });
});
