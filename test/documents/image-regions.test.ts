import { PDFDocument, StandardFonts } from 'pdf-lib';
import { afterAll, describe, expect, it } from 'vitest';
import { defaultImageBackend, defaultOcrEngine } from '../../src/default-adapters.js';
import { hasUnreadImageRegions, readImageRegions } from '../../src/documents/image-regions.js';
import { createEngine, type TokenLayer } from '../../src/index.js';
import { createPdfjsReader } from '../../src/adapters/pdf/pdfjs-reader.js';
import type { OcrEngine } from '../../src/ports/ocr-engine.js';
import {
  A4,
  INVOICE_LINES,
  encodeImage,
  findToken,
  makeMixedPdf,
  makeTextPdf,
  renderPdfPage,
} from '../helpers/make-documents.js';

const engine = createEngine({ ocr: { workers: 1 } });
const ocr = await defaultOcrEngine({ workers: 1 });
afterAll(async () => {
  await engine.close();
  await ocr.close();
});

async function ingest(bytes: Uint8Array): Promise<TokenLayer> {
  return engine.ingest((await engine.upload(bytes)).fileId);
}

/** A picture of `text` in large bold letters, `width` x `height` points, as a PNG. */
async function picture(text: string, width: number, height: number): Promise<Uint8Array> {
  const pdf = await makeTextPdf([
    { width, height, lines: [{ text, x: 8, y: height - 12, size: 22, bold: true }] },
  ]);
  return encodeImage(await renderPdfPage(pdf, 300), 'png');
}

/** A page with a text layer and two pictures of words: a small one at the top, a large one below. */
async function twoPicturePdf(): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const page = doc.addPage([A4.width, A4.height]);
  const small = await doc.embedPng(await picture('OSPREY', 160, 40));
  const large = await doc.embedPng(await picture('KESTREL', 320, 80));
  page.drawImage(small, { x: 40, y: A4.height - 60, width: 160, height: 40 });
  page.drawImage(large, { x: 40, y: A4.height - 400, width: 320, height: 80 });
  for (const line of INVOICE_LINES.slice(2))
    page.drawText(line.text, { x: line.x, y: A4.height - line.y, size: line.size ?? 12, font });
  return doc.save();
}

const deps = async () => ({ pdf: createPdfjsReader(), ocr, images: await defaultImageBackend() });

describe('pictures on born-digital pages', () => {
  it('are not even looked for by ingestion', async () => {
    const layer = await ingest(await makeMixedPdf('NORTHWIND', INVOICE_LINES.slice(2)));
    const [page] = layer.pages;
    expect(page!.source).toBe('text');
    expect(page!.pictures).toEqual({ examined: false, regions: [] });
    expect(findToken(layer.tokens, 'NORTHWIND')).toBeUndefined();
    expect(hasUnreadImageRegions(layer)).toBe(true);
  });

  it('are read on demand: their words follow every other token, whose ids do not change', async () => {
    const bytes = await makeMixedPdf('NORTHWIND', INVOICE_LINES.slice(2));
    const layer = await ingest(bytes);
    const read = await readImageRegions(bytes, layer, await deps(), {
      dpi: 300,
      maxPixels: 40e6,
      budgetMs: 10_000,
    });
    expect(read.tokens.slice(0, layer.tokens.length)).toEqual(layer.tokens);
    const logo = findToken(read.tokens, 'NORTHWIND')!;
    expect(logo.source).toBe('ocr');
    expect(logo.id).toBeGreaterThanOrEqual(layer.tokens.length);
    expect(logo.box.x0).toBeGreaterThan(40 / A4.width - 0.01);
    expect(logo.box.y1).toBeLessThan(100 / A4.height + 0.01);
    expect(read.lines[logo.lineId]!.tokenIds).toContain(logo.id);
    expect(read.pages[0]!.source).toBe('text+ocr');
    const { pictures } = read.pages[0]!;
    expect(pictures!.examined).toBe(true);
    expect(pictures!.regions).toHaveLength(1);
    const [region] = pictures!.regions;
    expect(region!.state).toBe('read');
    // The logo was painted at x 40-340, y 40-100 points from the top.
    expect(region!.box.x0).toBeCloseTo(40 / A4.width, 2);
    expect(region!.box.y1).toBeCloseTo(100 / A4.height, 2);
    expect(hasUnreadImageRegions(read)).toBe(false);
    // Reading again finds nothing left to read.
    expect(
      await readImageRegions(bytes, read, await deps(), { dpi: 300, maxPixels: 40e6, budgetMs: 10_000 }),
    ).toBe(read);
    // The layer given is left as it was.
    expect(layer.pages[0]!.pictures).toEqual({ examined: false, regions: [] });
  });

  it('add no words where they repeat the text layer, and a page without pictures is examined once', async () => {
    const options = { dpi: 300, maxPixels: 40e6, budgetMs: 10_000 };
    // A logo saying what the text layer says (the supplier's name printed beside it).
    const repeating = await makeMixedPdf('ACME Supplies Pty Ltd', INVOICE_LINES);
    const layer = await ingest(repeating);
    const read = await readImageRegions(repeating, layer, await deps(), options);
    expect(read.pages[0]!.pictures!.regions.map((r) => r.state)).toEqual(['read']);
    expect(read.tokens).toEqual(layer.tokens);
    expect(read.pages[0]!.source).toBe('text');
    const plain = await makeTextPdf([{ lines: INVOICE_LINES }]);
    const plainLayer = await ingest(plain);
    const examined = await readImageRegions(plain, plainLayer, await deps(), options);
    expect(examined.pages[0]!.pictures).toEqual({ examined: true, regions: [] });
    expect(examined.tokens).toEqual(plainLayer.tokens);
    expect(hasUnreadImageRegions(examined)).toBe(false);
  });

  it('are read smallest first until the time budget is spent', async () => {
    const bytes = await twoPicturePdf();
    const layer = await ingest(bytes);
    let clock = 0;
    const read = await readImageRegions(bytes, layer, await deps(), {
      dpi: 300,
      maxPixels: 40e6,
      budgetMs: 5_000,
      // Every look at the clock is ten seconds later: the budget is spent after the first picture.
      now: () => (clock += 10_000),
    });
    const regions = read.pages[0]!.pictures!.regions;
    expect(regions.map((r) => r.state)).toEqual(['read', 'skipped']);
    // Smallest first.
    const width = (r: (typeof regions)[number]) => r.box.x1 - r.box.x0;
    expect(width(regions[0]!)).toBeLessThan(width(regions[1]!));
    expect(findToken(read.tokens, 'OSPREY')).toBeDefined();
    expect(findToken(read.tokens, 'KESTREL')).toBeUndefined();
    expect(hasUnreadImageRegions(read)).toBe(false);
  });

  it('are looked for page by page, the first always, until the budget is spent; the rest are not looked at again', async () => {
    const doc = await PDFDocument.create();
    const font = await doc.embedFont(StandardFonts.Helvetica);
    const logo = await doc.embedPng(await picture('OSPREY', 160, 40));
    for (let n = 0; n < 3; n++) {
      const page = doc.addPage([A4.width, A4.height]);
      page.drawImage(logo, { x: 40, y: A4.height - 60, width: 160, height: 40 });
      for (const line of INVOICE_LINES.slice(2))
        page.drawText(line.text, { x: line.x, y: A4.height - line.y, size: line.size ?? 12, font });
    }
    const bytes = await doc.save();
    const layer = await ingest(bytes);
    let clock = 0;
    const read = await readImageRegions(bytes, layer, await deps(), {
      dpi: 300,
      maxPixels: 40e6,
      budgetMs: 5_000,
      now: () => (clock += 10_000),
    });
    expect(read.pages.map((p) => p.pictures?.skipped ?? false)).toEqual([false, true, true]);
    expect(read.pages[0]!.pictures!.regions.map((r) => r.state)).toEqual(['read']);
    expect(read.pages[1]!.pictures).toEqual({ examined: true, regions: [], skipped: true });
    expect(hasUnreadImageRegions(read)).toBe(false);
    expect(read.tokens.filter((t) => t.text === 'OSPREY').map((t) => t.pageNum)).toEqual([1]);
  });

  it('of a file that cannot be opened again are given up, and the text layer stands', async () => {
    const bytes = await makeMixedPdf('NORTHWIND', INVOICE_LINES.slice(2));
    const layer = await ingest(bytes);
    const refusing = {
      ...(await deps()),
      pdf: { open: () => Promise.reject(new Error('over the memory limit')) },
    };
    const read = await readImageRegions(bytes, layer, refusing, {
      dpi: 300,
      maxPixels: 40e6,
      budgetMs: 10_000,
    });
    expect(read.pages[0]!.pictures).toEqual({ examined: true, regions: [], skipped: true });
    expect(read.tokens).toEqual(layer.tokens);
    expect(hasUnreadImageRegions(read)).toBe(false);
  });

  it('that cannot be read are marked skipped, and the text layer stands', async () => {
    const bytes = await makeMixedPdf('NORTHWIND', INVOICE_LINES.slice(2));
    const layer = await ingest(bytes);
    const failing: OcrEngine = {
      recognize: () => Promise.reject(new Error('the recogniser fell over')),
      close: () => Promise.resolve(),
    };
    const read = await readImageRegions(
      bytes,
      layer,
      { ...(await deps()), ocr: failing },
      { dpi: 300, maxPixels: 40e6, budgetMs: 10_000 },
    );
    expect(read.pages[0]!.pictures!.regions.map((r) => r.state)).toEqual(['skipped']);
    expect(read.tokens).toEqual(layer.tokens);
    expect(read.pages[0]!.source).toBe('text');
  });
});

describe('extraction reads pictures only when a field needs them', () => {
  it('reads the logo when the supplier name is printed nowhere else', async () => {
    const { fileId } = await engine.upload(await makeMixedPdf('NORTHWIND', INVOICE_LINES.slice(2)));
    const result = await engine.extract(fileId, ['invoices'], { verbose: true });
    const name = result.fields.find((f) => f.name === 'document.supplierName')!;
    expect(name.value).toBe('NORTHWIND');
    // The box points at the logo's word in the stored layer.
    const stored = (await engine.getTokenLayer(fileId))!;
    expect(stored.pages[0]!.pictures!.regions.map((r) => r.state)).toEqual(['read']);
    const ids = name.boundingBox!.tokenIds;
    expect(ids.map((id) => stored.tokens[id]!.text)).toEqual(['NORTHWIND']);
  });

  it('leaves the logo unread when the text layer names the supplier', async () => {
    const { fileId } = await engine.upload(await makeMixedPdf('NORTHWIND', INVOICE_LINES));
    const result = await engine.extract(fileId, ['invoices']);
    expect(result.fields.find((f) => f.name === 'document.supplierName')!.value).toBe(
      'ACME Supplies Pty Ltd',
    );
    const stored = (await engine.getTokenLayer(fileId))!;
    expect(stored.pages[0]!.pictures).toEqual({ examined: false, regions: [] });
    expect(stored.tokens.every((t) => t.source === 'text')).toBe(true);
  });

  it('never reads pictures with a budget of 0', async () => {
    const strict = createEngine({ ocr: { workers: 1 }, ingest: { pictureBudgetMs: 0 } });
    try {
      const { fileId } = await strict.upload(await makeMixedPdf('NORTHWIND', INVOICE_LINES.slice(2)));
      const result = await strict.extract(fileId, ['invoices']);
      expect(result.fields.find((f) => f.name === 'document.supplierName')!.value).not.toBe('NORTHWIND');
      expect((await strict.getTokenLayer(fileId))!.pages[0]!.pictures!.examined).toBe(false);
    } finally {
      await strict.close();
    }
  });
});
