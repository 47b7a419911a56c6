import { readFileSync } from 'node:fs';
import { createView } from './src/extraction/view.js';
import { documentHints } from './src/extraction/hints.js';
import { findAmounts } from './src/extraction/finders/amounts.js';
const layer = JSON.parse(readFileSync('/tmp/layers/' + process.argv[2]!.replace('/', '__') + '.json', 'utf8'));
const v = createView(layer);
const a = findAmounts(v, documentHints(v));
for (const k of ['total', 'subTotal', 'amountDue'] as const) console.log(k, a[k].slice(0, 5).map((c) => [c.value, c.score.toFixed(3), c.source, c.label]));
