/**
 * Section `extract` (11): extractFields on token layers already read (warm), the learned ranking against the
 * finders' own order (what extraction cost before the ranking): milliseconds a page. The documents are
 * the generated corpus's (src/evaluation/generator), born-digital invoices and receipts of many layouts.
 */
import { performance } from 'node:perf_hooks';
import { createEngine } from '../../src/index.js';
import { generateCorpus } from '../../src/evaluation/generator/documents.js';
import { productFor } from '../../src/evaluation/scoring.js';
import { extractFields } from '../../src/extraction/extract.js';
import type { TokenLayer } from '../../src/core/types.js';
import type { FieldDefinition } from '../../src/products/types.js';
import { fmt, yesNo } from '../lib/report.js';
import type { SectionContext } from '../lib/section.js';
import type { SummaryRow } from '../lib/summary-row.js';

export interface ExtractBench {
  documents: number;
  pages: number;
  findersMsPerPage: number;
  learnedMsPerPage: number;
}

export async function benchExtract({ log }: SectionContext): Promise<ExtractBench> {
  log('\n== 11. Extraction on token layers (warm), 60 generated documents ==');
  const engine = createEngine({ ingest: { ocr: 'never' } });
  const docs: Array<{ layer: TokenLayer; fields: FieldDefinition[] }> = [];
  try {
    for (const doc of await generateCorpus(42, 30, 2)) {
      const file = await engine.upload(doc.pdf);
      const layer = await engine.ingest(file.fileId);
      const fields = engine.catalogue
        .resolve([productFor(String(doc.truth.type))])
        .fieldsets.flatMap((f) => f.fields);
      docs.push({ layer, fields });
    }
  } finally {
    await engine.close();
  }
  const pages = docs.reduce((n, d) => n + d.layer.pages.length, 0);
  const time = (ranker: false | undefined): number => {
    const run = (): void => {
      for (const d of docs)
        extractFields(d.layer, { fields: d.fields, ...(ranker === false ? { ranker } : {}) });
    };
    for (let i = 0; i < 3; i++) run();
    const rounds = 5;
    const start = performance.now();
    for (let i = 0; i < rounds; i++) run();
    return (performance.now() - start) / rounds / pages;
  };
  const finders = time(false);
  const learned = time(undefined);
  log(`   finders' own order (before the learned ranking): ${finders.toFixed(2)} ms a page`);
  log(`   learned ranking (shipped model, broad candidates, features): ${learned.toFixed(2)} ms a page`);
  return { documents: docs.length, pages, findersMsPerPage: finders, learnedMsPerPage: learned };
}

export function extractSummaryRows(extract: ExtractBench): SummaryRow[] {
  return [
    {
      metric: `Extraction on token layers, ms a page warm (${extract.pages} generated pages; baseline: the finders' own order)`,
      docex: fmt(extract.learnedMsPerPage),
      baseline: fmt(extract.findersMsPerPage),
      ratio: fmt(extract.learnedMsPerPage / extract.findersMsPerPage),
      target: '< 10 ms',
      met: yesNo(extract.learnedMsPerPage < 10),
    },
  ];
}
