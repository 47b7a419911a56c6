/**
 * `npm run probe-corpus -- <dir> [--probes DIR] [--photographed [--seed N]]`
 *
 * Writes the probe documents (test/probes, src/evaluation/probes.ts) as a corpus in the format of
 * docs/extraction.md: `<dir>/<set>/<name>.pdf` beside its ground truth `.json`, each set a family.
 * `npm run train -- CORPUS GENERATED <dir>` calibrates confidences on them too (they teach no ranking).
 * With `--photographed` every document is written as pictures of its pages instead (photographed.ts),
 * which `npm run eval -- <dir>` reads by OCR: the probe layouts through the scan and photo path.
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import { createPdfjsReader } from '../adapters/pdf/pdfjs-reader.js';
import { defaultImageBackend } from '../default-adapters.js';
import { writeProbeCorpus } from './probes.js';

const { positionals, values } = parseArgs({
  args: process.argv.slice(2),
  allowPositionals: true,
  options: {
    probes: { type: 'string', default: path.join('test', 'probes') },
    photographed: { type: 'boolean', default: false },
    seed: { type: 'string', default: '1' },
  },
});
const dir = positionals[0];
const seed = Number(values.seed);
if (!dir || !Number.isInteger(seed)) {
  process.stderr.write('usage: npm run probe-corpus -- <dir> [--probes DIR] [--photographed [--seed N]]\n');
  process.exitCode = 2;
} else {
  const photographed = values.photographed
    ? { seed, reader: createPdfjsReader(), images: await defaultImageBackend() }
    : undefined;
  const { sets, documents } = await writeProbeCorpus(values.probes, dir, photographed);
  process.stdout.write(
    `${documents} documents of ${sets} probe sets in ${dir}${photographed ? ' (photographed)' : ''}\n`,
  );
}
