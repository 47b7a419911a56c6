import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * Every ground-truth JSON of a corpus in the corpus format of docs/extraction.md (a document beside its `.json`),
 * walked in name order; `index.json` and `split.json` are not ground truths.
 */
export function readGroundTruthFiles(dir: string): Array<Record<string, unknown>> {
  const out: Array<Record<string, unknown>> = [];
  const walk = (d: string): void => {
    for (const entry of readdirSync(d, { withFileTypes: true }).sort((a, b) =>
      a.name.localeCompare(b.name),
    )) {
      const full = path.join(d, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name.endsWith('.json') && entry.name !== 'index.json' && entry.name !== 'split.json') {
        out.push(JSON.parse(readFileSync(full, 'utf8')) as Record<string, unknown>);
      }
    }
  };
  walk(dir);
  return out;
}
