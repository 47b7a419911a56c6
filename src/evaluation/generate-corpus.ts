/**
 * `npm run generate -- <dir> [--seed N] [--templates N] [--per N]`
 *
 * Writes a generated corpus (src/evaluation/generator/documents.ts) in the corpus format of docs/extraction.md:
 * `<dir>/generated/<family>-<k>.pdf` beside its ground truth `.json`, each template a family. The same
 * seed writes the same files. `npm run train -- CORPUS <dir>` learns from both;
 * `npm run eval -- <dir> --cv family` measures on layouts held out.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { generateCorpus } from './generator/documents.js';

const { positionals, values } = parseArgs({
  args: process.argv.slice(2),
  allowPositionals: true,
  options: {
    seed: { type: 'string', default: '1' },
    templates: { type: 'string', default: '80' },
    per: { type: 'string', default: '4' },
  },
});
const dir = positionals[0];
if (!dir) {
  process.stderr.write('usage: npm run generate -- <dir> [--seed N] [--templates N] [--per N]\n');
  process.exitCode = 2;
} else {
  const documents = await generateCorpus(Number(values.seed), Number(values.templates), Number(values.per));
  const folder = path.join(dir, 'generated');
  mkdirSync(folder, { recursive: true });
  for (const doc of documents) {
    writeFileSync(path.join(folder, doc.name), doc.pdf);
    writeFileSync(
      path.join(folder, doc.name.replace(/\.pdf$/, '.json')),
      JSON.stringify(doc.truth, null, 1) + '\n',
    );
  }
  process.stdout.write(`${documents.length} documents in ${folder}\n`);
}
