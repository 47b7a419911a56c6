import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPdfjsReader } from '../../src/adapters/pdf/pdfjs-reader.js';
import { defaultImageBackend } from '../../src/default-adapters.js';
import { generateCorpus, type GeneratedDocument } from '../../src/evaluation/generator/documents.js';
import { makeScannedComposite } from '../../src/evaluation/generator/scanned-composites.js';
import { createEngine, type Engine } from '../../src/index.js';

/**
 * Scanned receipts and invoices one after another in one file (src/evaluation/generator/scanned-composites.ts):
 * every child must be exactly one document. Receipts of one shop in a row were the hard case (a
 * hidden composite of four scanned receipts came out with two of them as one child).
 */
let engine: Engine;
let pool: GeneratedDocument[];
beforeAll(async () => {
  engine = createEngine({ ocr: { workers: 2 } });
  pool = await generateCorpus(31, 60, 3);
});
afterAll(() => engine.close());

async function splitRanges(bytes: Uint8Array): Promise<{ ranges: Array<[number, number]>; why: string }> {
  const { fileId } = await engine.uploadV2(bytes);
  await engine.invoke('svc.split', { inputs: { file_id: fileId } });
  const result = await engine.getResult(fileId, { timeoutMs: 120_000, verbose: true });
  if (result.status !== 'FINALISED') throw new Error(`split of ${fileId} ended ${result.status}`);
  const field = result.results.fields.find((f) => f.name === 'components.children') as unknown as {
    value: Array<{ file_id: string }>;
    decisions?: Array<{ pageNum: number; start: boolean; reasons: string[] }>;
  };
  const children = await Promise.all(field.value.map((c) => engine.getFile(c.file_id)));
  const why = (field.decisions ?? []).map(
    (d) => `page ${d.pageNum} start=${d.start}: ${d.reasons.join('; ')}`,
  );
  return { ranges: children.map((c) => c.parent!.pages), why: why.join('\n') };
}

describe('splitting composites of scans', () => {
  // Seeds and sizes: 2 receipts; 4 receipts of one shop; receipts, credit notes and an invoice; 10 documents.
  it.each([
    [509, 2],
    [511, 4],
    [504, 6],
    [508, 10],
  ])('composite %i of %i scanned documents: each child is one document', async (seed, documents) => {
    const composite = await makeScannedComposite(
      pool,
      { seed, documents },
      { reader: createPdfjsReader(), images: await defaultImageBackend() },
    );
    expect(composite.segments).toHaveLength(documents);
    const { ranges, why } = await splitRanges(composite.pdf);
    expect(ranges, `${JSON.stringify(composite.documents)}\n${why}`).toEqual(composite.segments);
  });
});
