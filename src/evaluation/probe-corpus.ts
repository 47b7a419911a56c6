/**
 * `npm run probe-corpus -- <dir> [--probes DIR]`
 *
 * Writes the probe documents (test/probes, src/evaluation/probes.ts) as a corpus in the format of
 * docs/extraction.md: `<dir>/<set>/<name>.pdf` beside its ground truth `.json`, each set a family.
 * `npm run train -- CORPUS GENERATED <dir>` calibrates confidences on them too (they teach no ranking).
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import { writeProbeCorpus } from './probes.js';

const { positionals, values } = parseArgs({
  args: process.argv.slice(2),
  allowPositionals: true,
  options: { probes: { type: 'string', default: path.join('test', 'probes') } },
});
const dir = positionals[0];
if (!dir) {
  process.stderr.write('usage: npm run probe-corpus -- <dir> [--probes DIR]\n');
  process.exitCode = 2;
} else {
  const { sets, documents } = await writeProbeCorpus(values.probes, dir);
  process.stdout.write(`${documents} documents of ${sets} probe sets in ${dir}\n`);
}
