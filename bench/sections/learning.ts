/**
 * Section `learning` (15): what supplier memories (src/learning) cost an extraction. Generated documents
 * of 30 suppliers, two each: the first of each reviewed with its truth (`learnFromDocument`), then
 * extractFields on warm token layers with no memory (the baseline, in the same run), with the 30
 * memories, and with 2,000 (the per-account cap: the 30 and others of other names and ids); and how
 * many of the second documents' fields a memory answered.
 */
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';

import type { TokenLayer } from '../../src/core/types.js';
import { createEngine } from '../../src/index.js';
import { generateCorpus } from '../../src/evaluation/generator/documents.js';
import { fieldMapFor, productFor } from '../../src/evaluation/scoring.js';
import { extractFields } from '../../src/extraction/extract.js';
import { documentHints } from '../../src/extraction/hints.js';
import { createView } from '../../src/extraction/view.js';
import { learnFromDocument } from '../../src/learning/learn.js';
import { MAX_SUPPLIERS } from '../../src/learning/supplier-memories.js';
import type { SupplierMemory } from '../../src/ports/supplier-memory-store.js';
import type { FieldDefinition } from '../../src/products/types.js';
import { fmt, yesNo } from '../lib/report.js';
import type { SectionContext } from '../lib/section.js';
import type { SummaryRow } from '../lib/summary-row.js';

export interface LearningBench {
  documents: number;
  pages: number;
  msPerPage: { none: number; learned: number; cap: number };
  answered: number;
}

export async function benchLearning({ log }: SectionContext): Promise<LearningBench> {
  log('\n== 15. Learning from review: supplier memories in an extraction (warm token layers) ==');
  const engine = createEngine({ ingest: { ocr: 'never' } });
  const docs: Array<{
    layer: TokenLayer;
    fields: FieldDefinition[];
    truth: Record<string, unknown>;
    type: string;
  }> = [];
  try {
    for (const doc of await generateCorpus(7, 30, 2)) {
      const file = await engine.upload(doc.pdf);
      const layer = await engine.ingest(file.fileId);
      const type = String(doc.truth.type);
      const fields = engine.catalogue.resolve([productFor(type)]).fieldsets.flatMap((f) => f.fields);
      docs.push({ layer, fields, truth: (doc.truth.fields ?? {}) as Record<string, unknown>, type });
    }
  } finally {
    await engine.close();
  }
  // The first of each pair reviewed: the memories of 30 suppliers.
  const memories: SupplierMemory[] = [];
  const reviewed = docs.filter((_, i) => i % 2 === 0);
  const later = docs.filter((_, i) => i % 2 === 1);
  for (const d of reviewed) {
    const view = createView(d.layer);
    const kinds = new Map(d.fields.map((f) => [f.name, f.kind]));
    const values: Record<string, string | null> = {};
    for (const [key, name] of Object.entries(fieldMapFor(d.type)))
      if (typeof d.truth[key] === 'string') values[name] = d.truth[key] as string;
    const { memory, isNew } = learnFromDocument(
      { view, hints: documentHints(view), values, kindOf: (n) => kinds.get(n) },
      memories,
      { accountId: 'bench', now: new Date().toISOString(), newId: randomUUID },
    );
    if (isNew) memories.push(memory);
    else memories[memories.findIndex((m) => m.supplierId === memory.supplierId)] = memory;
  }
  // Up to the cap: suppliers of other names, addresses and layouts (made-up words), as an account that
  // reviewed documents of 2,000 suppliers would have.
  const word = (n: number): string =>
    Array.from(
      { length: 3 },
      (_, k) => 'bcdfghklmnprstvz'[(n >> (4 * k)) & 15]! + 'aeiou'[(n >> (4 * k + 2)) % 5]!,
    ).join('');
  const cap = Array.from({ length: MAX_SUPPLIERS }, (_, i): SupplierMemory => {
    const m = memories[i % memories.length]!;
    if (i < memories.length) return m;
    const address = `${word(i * 3)}strasse ${i % 90}, ${10000 + i} ${word(i * 5)}`;
    const fields = structuredClone(m.fields);
    const seen = fields['document.supplierAddress']?.seen[0];
    if (seen) seen.value = address;
    return {
      ...m,
      supplierId: `other-${i}`,
      name: `${word(i)} ${word(i * 7 + 1)} GmbH`,
      taxIds: [],
      ibans: [],
      fingerprint: Array.from({ length: 200 }, (_, k) => word(i * 211 + k)),
      fields,
    };
  });
  const pages = later.reduce((n, d) => n + d.layer.pages.length, 0);
  const time = (suppliers: SupplierMemory[]): number => {
    const run = (): void => {
      for (const d of later) extractFields(d.layer, { fields: d.fields, suppliers });
    };
    run();
    const rounds = 3;
    const start = performance.now();
    for (let i = 0; i < rounds; i++) run();
    return (performance.now() - start) / rounds / pages;
  };
  const msPerPage = { none: time([]), learned: time(memories), cap: time(cap) };
  const answered = later.reduce(
    (n, d) =>
      n + extractFields(d.layer, { fields: d.fields, suppliers: memories }).filter((f) => f.learned).length,
    0,
  );
  log(
    `   ${later.length} documents (${pages} pages) after ${memories.length} suppliers' first documents were reviewed`,
  );
  log(`   no memory (baseline):          ${msPerPage.none.toFixed(2)} ms a page`);
  log(
    `   ${String(memories.length).padEnd(4)} memories:                 ${msPerPage.learned.toFixed(2)} ms a page (${answered} fields answered by a memory)`,
  );
  log(`   ${MAX_SUPPLIERS} memories (the cap):      ${msPerPage.cap.toFixed(2)} ms a page`);
  return { documents: later.length, pages, msPerPage, answered };
}

export function learningSummaryRows(learning: LearningBench): SummaryRow[] {
  return [
    {
      metric: `Extraction with ${MAX_SUPPLIERS} supplier memories (the cap), ms a page warm (baseline: none)`,
      docex: fmt(learning.msPerPage.cap),
      baseline: fmt(learning.msPerPage.none),
      ratio: fmt(learning.msPerPage.cap / learning.msPerPage.none),
      target: '< 50 ms',
      met: yesNo(learning.msPerPage.cap < 50),
    },
  ];
}
