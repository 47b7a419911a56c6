/**
 * The hostile corpus (support/hostile-pdfs.ts) through the library: every kind ends with a clear error
 * or a result, memory stays bounded, and other documents are read meanwhile.
 */
import { afterEach, describe, expect, it } from 'vitest';
import {
  flateContentBomb,
  flateImageBomb,
  jpegHeaderBomb,
  longString,
  manyImages,
  manyWords,
  nestedSaves,
} from '../support/hostile-pdfs.js';
import { createEngine, type Engine } from '../src/index.js';
import { INVOICE_LINES, makeTextPdf } from './helpers/make-documents.js';

const MB = 1024 * 1024;

/** Samples this process's resident memory until stopped; answers the peak. */
function watchMemory(): () => number {
  let peak = process.memoryUsage.rss();
  const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage.rss())), 20);
  return () => {
    clearInterval(timer);
    return Math.max(peak, process.memoryUsage.rss());
  };
}

/** Upload then extraction: the code of the first error, or 'result' with the fields' text. */
async function outcome(
  engine: Engine,
  pdf: Uint8Array,
): Promise<{ code: string; at: string } | { result: string }> {
  let fileId: string;
  try {
    fileId = (await engine.upload(pdf)).fileId;
  } catch (error) {
    return { code: (error as { code: string }).code, at: 'upload' };
  }
  try {
    const layer = await engine.ingest(fileId);
    return { result: layer.tokens.map((t) => t.text).join(' ') };
  } catch (error) {
    return { code: (error as { code: string }).code, at: 'read' };
  }
}

describe('hostile PDFs through the library', () => {
  let engine: Engine | undefined;
  afterEach(async () => {
    await engine?.close();
    engine = undefined;
  });

  it(
    'ends each kind with its error or a result, within bounded memory, and reads the next document',
    { timeout: 300_000 },
    async () => {
      // A smaller memory budget than the default (768 MB) keeps the test short. The time limits are far
      // longer than the files that fill memory take on any machine, so memory decides them; the file that
      // never finishes has its own engine with a short time limit.
      engine = createEngine({
        pdf: { callTimeoutMs: 600_000, documentTimeoutMs: 600_000, memoryBudgetMb: 384 },
      });
      const quick = createEngine({ pdf: { callTimeoutMs: 3000 } });
      const peak = watchMemory();
      const cases: Array<[string, Uint8Array, object]> = [
        [
          '16 x 16 JPEG declaring 65,000 x 65,000',
          jpegHeaderBomb(65_000),
          { code: 'PDF_RESOURCE_LIMIT', at: 'upload' },
        ],
        [
          '1 MB content stream inflating to 1 GB',
          flateContentBomb(1024),
          { code: 'PDF_RESOURCE_LIMIT', at: 'upload' },
        ],
        [
          'Flate picture declaring 60,000 x 60,000',
          flateImageBomb(60_000, 64),
          { code: 'PDF_RESOURCE_LIMIT', at: 'upload' },
        ],
        [
          'one string of 20 million characters',
          longString(20_000_000),
          { code: 'PDF_RESOURCE_LIMIT', at: 'read' },
        ],
        [
          '40 pictures of 36 million pixels',
          manyImages(40, 6000),
          { code: 'PDF_RESOURCE_LIMIT', at: 'read' },
        ],
        [
          'a huge JPEG behind a filter given by reference (left out, the text read)',
          jpegHeaderBomb(65_000, 16, { hidden: true }),
          { result: expect.stringContaining('Total 10.00') },
        ],
        ['200,000 words', manyWords(200_000), { result: expect.stringContaining('w999') }],
      ];
      for (const [name, pdf, expected] of cases) {
        expect(await outcome(engine, pdf), name).toMatchObject(expected);
      }
      try {
        expect(await outcome(quick, nestedSaves(300_000))).toMatchObject({
          code: 'PDF_TOO_COMPLEX',
          at: 'read',
        });
      } finally {
        await quick.close();
      }
      expect((await outcome(engine, await makeTextPdf([{ lines: INVOICE_LINES }]))) as object).toMatchObject({
        result: expect.stringContaining('TAX INVOICE'),
      });
      expect(peak()).toBeLessThan(1536 * MB);
    },
  );

  it('reads other documents while a hostile one is being read', async () => {
    // The hostile file would take its whole time limit (here far longer than the test): the ordinary
    // documents are read and answered while it is still being read.
    engine = createEngine({ pdf: { callTimeoutMs: 600_000, documentTimeoutMs: 600_000 } });
    const hostile = await engine.upload(nestedSaves(300_000));
    let hostileEnded = false;
    const reading = engine.ingest(hostile.fileId).finally(() => (hostileEnded = true));
    reading.catch(() => undefined);
    for (let i = 0; i < 3; i++) {
      const file = await engine.upload(await makeTextPdf([{ lines: INVOICE_LINES }]));
      const result = await engine.extract(file.fileId, ['invoices:2']);
      expect(result.fields.find((f) => f.name === 'document.referenceNo')?.value).toBe('INV-20931');
    }
    expect(hostileEnded).toBe(false);
    await engine.close();
    engine = undefined;
    await expect(reading).rejects.toMatchObject({ code: 'ENGINE_CLOSED' });
  });

  it(
    'reads four hostile files at once within bounded memory, each failing on its own',
    { timeout: 300_000 },
    async () => {
      // A smaller memory budget than the default keeps the test short; the bound holds the same way.
      engine = createEngine({ pdf: { callTimeoutMs: 5000, memoryBudgetMb: 384 } });
      const peak = watchMemory();
      const files = await Promise.all(Array.from({ length: 4 }, () => engine!.upload(manyImages(40, 6000))));
      const results = await Promise.allSettled(files.map((f) => engine!.ingest(f.fileId)));
      for (const result of results) {
        expect(result).toMatchObject({
          status: 'rejected',
          reason: { code: expect.stringMatching(/^PDF_(RESOURCE_LIMIT|TOO_COMPLEX)$/) },
        });
      }
      expect(peak()).toBeLessThan(1536 * MB);
    },
  );
});
