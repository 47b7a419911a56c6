import { readFileSync } from 'node:fs';
import { createView } from './src/extraction/view.js';
const layer = JSON.parse(readFileSync('/tmp/layers/' + process.argv[2]!.replace(/\//g, '__') + '.json', 'utf8'));
for (const r of createView(layer).rows) console.log(r.pageNum, r.box.y0.toFixed(3), r.tokens.map((t) => t.text).join(' '));
