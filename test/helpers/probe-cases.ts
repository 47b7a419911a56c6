import path from 'node:path';
import type { Engine } from '../../src/engine-types.js';
import { probePages, readProbeSet, type ProbeCase } from '../../src/evaluation/probes.js';
import { extractPages, type Extracted } from './make-invoices.js';

export { probePages, type ProbeCase };

/** The cases of a probe set (`invoices-i`, `receipts-a`...). */
export function probeSet(set: string): ProbeCase[] {
  return readProbeSet(path.join(import.meta.dirname, '..', 'probes', `${set}.json`));
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

/** One field's value as a probe set's document reads (with its own product). */
export async function probeValue(engine: Engine, set: string, name: string, field: string): Promise<unknown> {
  return (await readProbe(engine, set, name)).value(field);
}
