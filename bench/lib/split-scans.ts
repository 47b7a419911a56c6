/**
 * Composites of scanned receipts and invoices (section split): files of 2 to 10 generated
 * documents, every page a scan (src/evaluation/generator/scanned-composites.ts), split by svc.split;
 * how many files came out exactly as their true documents, and the pages read a second.
 */
import { createPdfjsReader } from '../../src/adapters/pdf/pdfjs-reader.js';
import { defaultImageBackend } from '../../src/default-adapters.js';
import { createEngine } from '../../src/index.js';
import { generateCorpus } from '../../src/evaluation/generator/documents.js';
import { makeScannedComposite } from '../../src/evaluation/generator/scanned-composites.js';

/** Seeds of the measured files (the tests use 504-511: these are files the rules were not looked at on). */
const FIRST_SEED = 600;
const FILES = 12;

export interface ScannedCompositeSplit {
  files: number;
  exact: number;
  documents: number;
  pages: number;
  seconds: number;
  /** Files not split exactly: what they held, and the children found. */
  wrong: Array<{
    seed: number;
    documents: string;
    want: Array<[number, number]>;
    got: Array<[number, number]>;
  }>;
}

export async function splitScannedComposites(log: (text: string) => void): Promise<ScannedCompositeSplit> {
  const pool = await generateCorpus(37, 60, 3);
  const deps = { reader: createPdfjsReader(), images: await defaultImageBackend() };
  const engine = createEngine({ limits: { maxPages: 100, maxFileBytes: 200 * 1024 * 1024 } });
  const result: ScannedCompositeSplit = { files: 0, exact: 0, documents: 0, pages: 0, seconds: 0, wrong: [] };
  try {
    for (let i = 0; i < FILES; i++) {
      const seed = FIRST_SEED + i;
      const documents = 2 + (i % 9);
      const composite = await makeScannedComposite(pool, { seed, documents }, deps);
      const started = performance.now();
      const { fileId } = await engine.uploadV2(composite.pdf);
      await engine.invoke('svc.split', { inputs: { file_id: fileId } });
      const outcome = await engine.getResult(fileId, { timeoutMs: 600_000 });
      if (outcome.status !== 'FINALISED')
        throw new Error(`split of composite ${seed} ended ${outcome.status}`);
      result.seconds += (performance.now() - started) / 1000;
      const field = outcome.results.fields.find((f) => f.name === 'components.children') as unknown as {
        value: Array<{ file_id: string }>;
      };
      const children = await Promise.all(field.value.map((c) => engine.getFile(c.file_id)));
      const got = children.map((c) => c.parent!.pages);
      const pages = composite.segments.at(-1)![1];
      result.files++;
      result.documents += documents;
      result.pages += pages;
      const kinds = composite.documents.map((d) => `${d.type[0]}${d.pages}`).join(',');
      if (JSON.stringify(got) === JSON.stringify(composite.segments)) result.exact++;
      else result.wrong.push({ seed, documents: kinds, want: composite.segments, got });
      log(
        `   composite ${seed}: ${documents} documents (${kinds}; r receipt, i invoice, c credit note), ${pages} pages:` +
          ` ${JSON.stringify(got) === JSON.stringify(composite.segments) ? 'exact' : `WRONG, want ${JSON.stringify(composite.segments)} got ${JSON.stringify(got)}`}`,
      );
    }
  } finally {
    await engine.close();
  }
  return result;
}
