import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { TrueLineItem } from '../../src/evaluation/line-item-scoring.js';
import type { Engine } from '../../src/engine-types.js';
import type { TextLine, TextPage } from './make-documents.js';
import { extractPages, type Extracted } from './make-invoices.js';

/** A probe document (test/probes/README.md): its pages as drawn, and what it should read. */
export interface ProbeCase {
  name: string;
  product: 'invoices:2' | 'receipts:1';
  want: Record<string, string>;
  /** The item table's rows, for the sets that print one (scored as score.py scores line items). */
  line_items?: TrueLineItem[];
  pages: Array<{ width?: number; height?: number; lines: Array<[string, number, number, number, 0 | 1]> }>;
}

/** The cases of a probe set (`invoices-i`, `receipts-a`...). */
export function probeSet(set: string): ProbeCase[] {
  const file = path.join(import.meta.dirname, '..', 'probes', `${set}.json`);
  return JSON.parse(readFileSync(file, 'utf8')) as ProbeCase[];
}

/** A case's pages as the document makers draw them. */
export function probePages(c: ProbeCase): TextPage[] {
  return c.pages.map((p) => ({
    ...(p.width ? { width: p.width } : {}),
    ...(p.height ? { height: p.height } : {}),
    lines: p.lines.map(([text, x, y, size, bold]): TextLine => ({ text, x, y, size, bold: bold === 1 })),
  }));
}

/**
 * A probe set's document read into fields: with its own product, as the probe test reads it, unless
 * `products` says otherwise.
 */
export async function readProbe(
  engine: Engine,
  set: string,
  name: string,
  products?: string[],
): Promise<Extracted> {
  const probe = probeSet(set).find((c) => c.name === name);
  if (!probe) throw new Error(`No probe document ${set}/${name}`);
  return extractPages(engine, probePages(probe), products ?? [probe.product]);
}
