/**
 * `npm run ceiling -- <corpus dir> --cache DIR [--cache DIR2] [--type receipt]`
 *
 * How many true values OCR put in the text at all: the upper bound of extraction on scans and photos.
 * For every image document of the corpus (default: receipts) and every field of its ground truth
 * (date, total, issuer, issuer address...), whether the value can be found in the words of the token
 * layer: names and addresses as a run of words the scorer would accept, amounts by their digits, dates
 * in the usual printed orders (letters and digits only, case and spacing ignored). With two caches (token layers
 * of two ways of reading, e.g. the first reading and the locally thresholded one: `npm run eval --
 * --cache ... --second-reading-below`), it reports each and their union: what choosing between the two
 * readings could reach at best. `layer.readings` (the second reading the engine keeps for a weak
 * photo) counts towards each layer's union.
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { TokenLayer } from '../core/types.js';
import { inText } from './ceiling.js';
import { groundTruths, openCorpus } from './corpus-layers.js';
import { KIND } from './scoring.js';

interface Tally {
  n: number;
  found: number[];
}

async function main(): Promise<void> {
  const { positionals, values } = parseArgs({
    args: process.argv.slice(2),
    allowPositionals: true,
    options: {
      cache: { type: 'string', multiple: true, default: [] },
      type: { type: 'string', default: 'receipt' },
    },
  });
  const dir = positionals[0];
  const caches = values.cache ?? [];
  if (!dir || caches.length === 0 || caches.length > 2) {
    process.stderr.write(
      'usage: npm run ceiling -- <corpus dir> --cache DIR [--cache DIR2] [--type receipt]\n',
    );
    process.exitCode = 2;
    return;
  }
  const truths = groundTruths(dir).filter((t) => t.type === values.type && t.format === 'image');
  const corpora = caches.map((cache) => openCorpus({ cache }));
  // Per field: how many values, and how many each way found (cache 1, cache 2, either).
  const tally = new Map<string, Tally>();
  try {
    for (const [i, truth] of truths.entries()) {
      process.stderr.write(`\r[${i + 1}/${truths.length}] ${truth.file.slice(0, 50).padEnd(50)}`);
      const layers: TokenLayer[][] = [];
      for (const corpus of corpora) {
        const { layer } = await corpus.layer(path.join(dir, truth.file));
        layers.push([layer, ...(layer.readings ?? [])]);
      }
      for (const [field, want] of Object.entries(truth.fields ?? {})) {
        const kind = KIND[field];
        if (!kind || typeof want !== 'string' || want === '') continue;
        const found = layers.map((ways) => ways.some((layer) => inText(layer, kind, want)));
        const entry = tally.get(field) ?? { n: 0, found: [0, 0, 0] };
        entry.n++;
        found.forEach((hit, k) => (entry.found[k]! += hit ? 1 : 0));
        if (found.some(Boolean)) entry.found[2]!++;
        tally.set(field, entry);
      }
    }
  } finally {
    process.stderr.write('\n');
    for (const corpus of corpora) await corpus.close();
  }
  const pct = (a: number, n: number): string => `${((a / Math.max(1, n)) * 100).toFixed(1).padStart(5)} %`;
  const log = (s: string) => process.stdout.write(s + '\n');
  log(`${truths.length} ${values.type} images; share of true values found in the OCR text`);
  log(
    `field              n   ${caches.map((c, k) => `reading ${k + 1}`.padEnd(10)).join(' ')}${caches.length > 1 ? ' either' : ''}`,
  );
  let n = 0;
  const all = [0, 0, 0];
  for (const [field, t] of [...tally].sort()) {
    n += t.n;
    t.found.forEach((f, k) => (all[k]! += f));
    log(
      `${field.padEnd(16)} ${String(t.n).padStart(4)}   ${caches.map((_, k) => pct(t.found[k]!, t.n).padEnd(10)).join(' ')}${caches.length > 1 ? ` ${pct(t.found[2]!, t.n)}` : ''}`,
    );
  }
  log(
    `${'all'.padEnd(16)} ${String(n).padStart(4)}   ${caches.map((_, k) => pct(all[k]!, n).padEnd(10)).join(' ')}${caches.length > 1 ? ` ${pct(all[2]!, n)}` : ''}`,
  );
  for (const [k, cache] of caches.entries()) log(`reading ${k + 1}: token layers of ${cache}`);
}

await main();
