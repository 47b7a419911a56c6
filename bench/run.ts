/**
 * docex benchmark: our figures beside native baselines measured in the same run. Each section is a
 * module of bench/sections/ (what it measures is said at its top) exporting its run function and the
 * rows it adds to the summary table; shared helpers are in bench/lib/, what the tests also use (the
 * multi-document generator, the hostile PDFs, the throwaway PostgreSQL and S3 servers) in support/.
 *    1 text      text-layer ingestion           vs  pdftotext -bbox-layout
 *    2 ocr       OCR of 300 dpi page images     vs  native tesseract, two processes
 *    3 pipeline  OCR ingestion of a 16-page scanned PDF: time and peak memory
 *    4 queue     no-op jobs/s through engine.invoke (memory, SQLite)  vs  a Promise pool
 *    5 rules     evaluations/s of a 50-check rule set  vs  the same checks hand-written
 *    6 http      result requests/s, upload MB/s  vs  bare node:http; a 200-upload load test
 *    7 split     svc.split pages/s, text and scanned  vs  pdftotext, native tesseract
 *    8 pg        no-op jobs/s, 1 to 3 processes on PostgreSQL  vs  SQLite in one process
 *    9 batch     `docex extract` pages/s and memory (run `npm run build` first)  vs  pdftotext,
 *                pdftoppm + tesseract
 *   10 hostile   `docex serve` fed hostile PDFs  vs  an ordinary invoice
 *   11 extract   extractFields ms a page, the learned ranking  vs  the finders' own order
 *   12 logos     `docex extract` over invoices with logos  vs  pdftotext; without logos
 *   13 webhooks  jobs/s with a webhook subscription  vs  none; deliveries/s vs plain POSTs
 *   14 scale     `docex serve` on PostgreSQL + S3, 1 to 3 processes  vs  one on SQLite + disk
 *   15 learning  extractFields with 30 and 2,000 supplier memories  vs  none
 * Prints a table and writes bench/out/results.json. A missing native tool gives "n/a", never a failure;
 * an HTTP load test that lost anything fails the run (exit code 1, after the results are written).
 * Run: npm run bench
 * Some sections only: npm run bench -- --only queue   (or node dist/bench/run.js --only text,queue, or
 *   DOCEX_BENCH_ONLY=queue npm run bench); section names: text, ocr, pipeline, queue, rules, http,
 *   split, pg, batch, hostile, extract, logos, webhooks, scale, learning.
 *   Such a partial run writes bench/out/results-<names>.json instead, so results.json stays the last
 *   full run.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { makeBenchInvoices, type GeneratedPdf } from './lib/invoice.js';
import { missingTool, toolVersion } from './lib/native.js';
import { OUT_DIR } from './lib/paths.js';
import { formatTable } from './lib/report.js';
import type { SectionContext } from './lib/section.js';
import type { SummaryRow } from './lib/summary-row.js';
import {
  TARGET_BATCH_SCAN_RATIO,
  TARGET_BATCH_TEXT_RATIO,
  batchSummaryRows,
  benchBatch,
} from './sections/batch.js';
import { benchExtract, extractSummaryRows } from './sections/extract.js';
import { benchHostile, hostileSummaryRows } from './sections/hostile.js';
import { benchHttp, httpFailure, httpSummaryRows } from './sections/http.js';
import { benchLearning, learningSummaryRows } from './sections/learning.js';
import { benchLogos, logosSummaryRows } from './sections/logos.js';
import { TARGET_OCR_RATIO, benchOcr, ocrSummaryRows } from './sections/ocr.js';
import { benchPg, pgSummaryRows } from './sections/pg.js';
import { TARGET_PEAK_RSS_MB, benchPipeline, pipelineSummaryRows } from './sections/pipeline.js';
import { benchQueue, queueSummaryRows } from './sections/queue.js';
import { benchRules, rulesSummaryRows } from './sections/rules.js';
import { benchScale, scaleSummaryRows } from './sections/scale.js';
import { benchSplit, splitSummaryRows } from './sections/split.js';
import { TARGET_TEXT_RATIO, benchText, textSummaryRows } from './sections/text.js';
import { benchWebhooks, webhooksSummaryRows } from './sections/webhooks.js';

/** A section as run.ts runs it: its key in results.json, its run, its summary rows, a failure. */
interface Section<T> {
  json: string;
  run(context: SectionContext): Promise<T>;
  rows(result: T): SummaryRow[];
  /** Why the run must fail (exit code 1, after the results are written), if it must. */
  failure?(result: T): string | undefined;
}

const section = <T>(definition: Section<T>): Section<unknown> => definition as Section<unknown>;

/** The sections by their `--only` names, in the order of the usage line and of results.json. */
const SECTIONS = {
  text: section({ json: 'textLayer', run: benchText, rows: textSummaryRows }),
  ocr: section({ json: 'ocr', run: benchOcr, rows: ocrSummaryRows }),
  pipeline: section({ json: 'pipeline', run: benchPipeline, rows: pipelineSummaryRows }),
  queue: section({ json: 'queue', run: benchQueue, rows: queueSummaryRows }),
  rules: section({ json: 'rules', run: benchRules, rows: rulesSummaryRows }),
  http: section({ json: 'http', run: benchHttp, rows: httpSummaryRows, failure: httpFailure }),
  split: section({ json: 'split', run: benchSplit, rows: splitSummaryRows }),
  pg: section({ json: 'pg', run: benchPg, rows: pgSummaryRows }),
  batch: section({ json: 'batch', run: benchBatch, rows: batchSummaryRows }),
  hostile: section({ json: 'hostile', run: benchHostile, rows: hostileSummaryRows }),
  extract: section({ json: 'extract', run: benchExtract, rows: extractSummaryRows }),
  logos: section({ json: 'logos', run: benchLogos, rows: logosSummaryRows }),
  webhooks: section({ json: 'webhooks', run: benchWebhooks, rows: webhooksSummaryRows }),
  scale: section({ json: 'scale', run: benchScale, rows: scaleSummaryRows }),
  learning: section({ json: 'learning', run: benchLearning, rows: learningSummaryRows }),
};
type Name = keyof typeof SECTIONS;
const NAMES = Object.keys(SECTIONS) as Name[];

/** The order the sections run in, and the order of their rows in the summary (as they always were). */
const RUN_ORDER: Name[] = [
  'text',
  'ocr',
  'pipeline',
  'queue',
  'rules',
  'http',
  'split',
  'pg',
  'batch',
  'extract',
  'logos',
  'webhooks',
  'learning',
  'scale',
  'hostile',
];
const SUMMARY_ORDER: Name[] = [
  'text',
  'ocr',
  'pipeline',
  'queue',
  'rules',
  'http',
  'split',
  'pg',
  'batch',
  'extract',
  'learning',
  'hostile',
  'logos',
  'webhooks',
  'scale',
];

const startedAt = performance.now();
const elapsed = (): string => `${((performance.now() - startedAt) / 1000).toFixed(1)} s`;
const log = (text: string): void => console.log(text);

/** Sections chosen by `--only a,b` (or `--only=a,b`) or DOCEX_BENCH_ONLY; all when neither is given. */
function chosenSections(argv: string[], env: NodeJS.ProcessEnv): Set<Name> {
  let value = env.DOCEX_BENCH_ONLY;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--only') value = argv[++i] ?? '';
    else if (arg.startsWith('--only=')) value = arg.slice('--only='.length);
    else throw new Error(`unknown argument ${arg}; usage: run.js [--only ${NAMES.join(',')}]`);
  }
  if (value === undefined || value.trim() === '') return new Set(NAMES);
  const names = value
    .split(',')
    .map((n) => n.trim().toLowerCase())
    .filter((n) => n !== '');
  const unknown = names.filter((n) => !(NAMES as readonly string[]).includes(n));
  if (unknown.length > 0) {
    throw new Error(`unknown section ${unknown.join(', ')}; sections are ${NAMES.join(', ')}`);
  }
  return new Set(NAMES.filter((s) => names.includes(s)));
}

async function main(): Promise<void> {
  let only: Set<Name>;
  try {
    only = chosenSections(process.argv.slice(2), process.env);
  } catch (error) {
    console.error(`bench: ${(error as Error).message}`);
    process.exitCode = 2;
    return;
  }
  const partial = only.size < NAMES.length;
  log(
    `docex benchmark - node ${process.version}, ${os.platform()} ${os.arch()}, ` +
      `${os.availableParallelism()} cores (${os.cpus()[0]?.model.trim() ?? 'unknown cpu'}), ${Math.round(os.totalmem() / 1024 ** 3)} GB RAM`,
  );
  if (partial) log(`sections: ${[...only].join(', ')} (--only)`);
  const tmp = await mkdtemp(path.join(os.tmpdir(), 'docex-bench-'));
  try {
    // The invoices of sections text, ocr and pipeline, made once when the first of them asks.
    let invoices: Promise<GeneratedPdf[]> | undefined;
    const context: SectionContext = { tmp, log, invoices: () => (invoices ??= makeBenchInvoices()) };
    const results = new Map<Name, unknown>();
    for (const name of RUN_ORDER) {
      if (only.has(name)) results.set(name, await SECTIONS[name].run(context));
    }

    const rows = SUMMARY_ORDER.flatMap((name) =>
      results.has(name) ? SECTIONS[name].rows(results.get(name)) : [],
    );
    log('\n== Summary ==');
    log(
      formatTable(
        ['metric', 'docex', 'baseline', 'ratio', 'target', 'met?'],
        rows.map((r) => [r.metric, r.docex, r.baseline, r.ratio, r.target, r.met]),
      ),
    );
    const totalSeconds = (performance.now() - startedAt) / 1000;
    log(`\nTotal bench time ${elapsed()}.`);

    await mkdir(OUT_DIR, { recursive: true });
    const output = {
      generatedAt: new Date().toISOString(),
      totalSeconds,
      sections: [...only],
      environment: {
        node: process.version,
        platform: `${os.platform()} ${os.release()} ${os.arch()}`,
        cores: os.availableParallelism(),
        cpu: os.cpus()[0]?.model.trim(),
        totalMemoryMb: Math.round(os.totalmem() / 1024 / 1024),
        pdftotext: missingTool('pdftotext', ['-v']) ? null : toolVersion('pdftotext', ['-v']),
        tesseract: missingTool('tesseract', ['--version']) ? null : toolVersion('tesseract', ['--version']),
      },
      targets: {
        textRatio: TARGET_TEXT_RATIO,
        ocrRatio: TARGET_OCR_RATIO,
        peakRssMb: TARGET_PEAK_RSS_MB,
        batchTextRatio: TARGET_BATCH_TEXT_RATIO,
        batchScanRatio: TARGET_BATCH_SCAN_RATIO,
      },
      ...Object.fromEntries(NAMES.map((name) => [SECTIONS[name].json, results.get(name)])),
      summary: rows,
    };
    // A partial run (--only) leaves results.json, the last full run, alone.
    const outFile = path.join(OUT_DIR, partial ? `results-${[...only].join('-')}.json` : 'results.json');
    // Figures that could not be measured are written as null.
    const json = JSON.stringify(output, (_key, value: unknown) => (value === undefined ? null : value), 2);
    await writeFile(outFile, `${json}\n`);
    log(`Results written to ${path.relative(process.cwd(), outFile)}`);
    for (const [name, result] of results) {
      const failure = SECTIONS[name].failure?.(result);
      if (failure) throw new Error(failure);
    }
  } finally {
    await rm(tmp, { recursive: true, force: true });
  }
}

await main();
