/**
 * docex benchmark: our figures beside native baselines measured in the same run.
 *   1. text-layer ingestion (engine, ocr: 'never')   vs  pdftotext -bbox-layout
 *   2. OCR of 300 dpi page images (tesseract.js pool) vs  native tesseract, two processes
 *   3. full-pipeline OCR ingestion of a 16-page scanned PDF: time and peak memory
 *   4. job-queue overhead: no-op jobs/s through engine.invoke (memory and SQLite persistence) and
 *      invoke latency                                  vs  a plain pool of no-op async functions
 *   5. validation rules: evaluations/s of a 50-check v2 rule set on one document's predictions, and
 *      checkRules calls/s (storing the set)           vs  the same checks as a hand-written JS function
 *   6. HTTP surface (createFetchHandler through createNodeListener on node:http; the client a child
 *      process): result endpoint requests/s           vs  a bare node:http server sending the same bytes;
 *      v2 upload MB/s of a 3-page scanned-like PDF    vs  bare node:http reading the body (and parsing it
 *      with busboy); a load test of 200 concurrent v2 uploads, each invoking svc.extract, checked for
 *      anything lost (the run fails if so)
 *   7. split (svc.split, invoke to verbose result): pages/s of a 100-page text PDF of 38 invoices, also
 *      as ingestion vs split decisions and children   vs  pdftotext -bbox-layout of the same file;
 *      pages/s of a 20-page scanned PDF of 8 invoices (200 dpi JPEG pages) and the share in OCR
 *                                                     vs  native tesseract on the page images, one
 *      process per core; each split checked against the true documents (exactly right, boundary F1)
 *   8. PostgreSQL scale-out: no-op jobs/s with 1, 2 and 3 engine processes (each concurrency 4) on one
 *      PostgreSQL (DOCEX_PG_URL, or a throwaway cluster; n/a without)  vs  SQLite in one process
 *   9. batch command line: the real `docex extract` (bin/docex.js on the compiled dist/src: run
 *      `npm run build` first) as a child process, timed from its spawn to its exit (and by its own
 *      summary, engine start left out): pages/s over a folder of 60 text PDFs of 1 to 4 pages
 *                                                     vs  pdftotext -bbox-layout over every file, one
 *      process per file and per core; pages/s over 8 scanned pages (image-only PDFs and PNG/JPEG files,
 *      200 dpi), with the header fields compared to those read from the born-digital originals
 *                                                     vs  pdftoppm -r 200 -gray + tesseract tsv per page,
 *      one process chain per core; peak memory of a 1,000-file mixed run (--progress plain followed,
 *      RSS sampled) and its growth between file 100 and file 1,000
 *  10. hostile PDFs (bench/lib/hostile.ts): `docex serve` with its defaults fed the hostile corpus one
 *      file at a time and four at once: how each ended, in how long, the server's peak memory and the
 *      worst wait of another client meanwhile       vs  the same for an ordinary invoice
 *  11. extract (bench/lib/extract.ts): extractFields on warm token layers of generated documents, ms a
 *      page, the learned ranking                      vs  the finders' own order (before it)
 *  12. logos (bench/lib/logos.ts): `docex extract` over 400 born-digital invoices whose first page also
 *      paints the supplier's name as a logo picture, pages/s and header fields right
 *                                                     vs  pdftotext -bbox-layout; the same invoices
 *      without logos; and invoices whose name is only in the logo (with and without reading pictures)
 *  13. webhooks (bench/lib/webhooks.ts): jobs/s on SQLite with a webhook subscription (deliveries in
 *      the outbox, sent to a loopback receiver)          vs  no subscription; deliveries/s vs plain
 *      node:http POSTs of the same bodies
 *  14. scale (bench/lib/serve-scale.ts): `docex serve` on PostgreSQL + S3 (s3rver), 1, 2 and 3 processes,
 *      files finalised/s over HTTP                   vs  one `docex serve` on SQLite + disk
 * Prints a table and writes bench/out/results.json. A missing native tool gives "n/a", never a failure;
 * an HTTP load test that lost anything fails the run (exit code 1, after the results are written).
 * Run: npm run bench
 * Some sections only: npm run bench -- --only queue   (or node dist/bench/run.js --only text,queue, or
 *   DOCEX_BENCH_ONLY=queue npm run bench); section names: text, ocr, pipeline, queue, rules, http,
 *   split, pg, batch, hostile, extract, logos, webhooks, scale, learning.
 *  15. learning (bench/lib/learning.ts): extractFields with no supplier memory (the baseline), with 30
 *      and with 2,000 (the per-account cap), ms a page.
 *   Such a partial run writes bench/out/results-<names>.json instead, so results.json stays the last
 *   full run.
 */
import { fork, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { createEngine, type Engine } from '../src/index.js';
import type { ResultRecord } from '../src/index.js';
import type { TokenLayer } from '../src/core/types.js';
import { createNodeListener } from '../src/adapters/http/node-listener.js';
import { createFetchHandler } from '../src/http/fetch-handler.js';
import { readMultipart } from '../src/http/multipart.js';
import { TokenService } from '../src/http/tokens.js';
import { createMemoryPersistence } from '../src/adapters/persistence/memory-persistence.js';
import { createSqlitePersistence } from '../src/adapters/persistence/sqlite-persistence.js';
import {
  createNativeTesseractOcr,
  nativeTesseractVersion,
} from '../src/adapters/ocr/native-tesseract-ocr.js';
import { createTesseractOcr, englishModelDir } from '../src/adapters/ocr/tesseract-ocr.js';
import { defaultThreads } from '../src/cli/main.js';
import { createPdfjsReader } from '../src/adapters/pdf/pdfjs-reader.js';
import { benchExtract } from './lib/extract.js';
import { benchLearning } from './lib/learning.js';
import { MAX_SUPPLIERS } from '../src/learning/supplier-memories.js';
import { benchHostile } from './lib/hostile.js';
import { createPdfLibCopier } from '../src/adapters/pdf/pdf-lib-copier.js';
import { planSplit } from '../src/split/boundaries.js';
import { pageFeatures } from '../src/split/page-features.js';
import { sliceTokenLayer } from '../src/split/slice-layer.js';
import { encodePgm } from '../src/documents/raster.js';
import { createRulesChecker } from '../src/conditions/rules.js';
import { DocexError } from '../src/core/errors.js';
import { createSchemaChecker } from '../src/core/schema-checker.js';
import type { GreyImage } from '../src/ports/image-backend.js';
import type { EnginePersistence } from '../src/ports/engine-persistence.js';
import type { OcrEngine } from '../src/ports/ocr-engine.js';
import type { PdfReader } from '../src/ports/pdf-reader.js';
import type { ChildMessage, PipelineChildResult } from './pipeline-child.js';
import { makeInvoicePdf, makeScannedPdf, pageWords, type GeneratedPdf } from './lib/invoice.js';
import { peakSampler, procStatusBytes, toMb, treeRssBytes } from './lib/memory.js';
import { INSTALL_HINT, debianPackageOf, missingTool, run, runPool, toolVersion } from './lib/native.js';
import {
  bareJsonServer,
  bareUploadServer,
  closeServer,
  listen,
  makeLargePdf,
  measureAsync,
  multipartBody,
  summarize,
  type ClientMessage,
  type ClientTask,
  type ClientTaskBody,
  type LoadResult,
  type LoadSpec,
  type UploadOutcome,
  type UploadsResult,
  type UploadsSpec,
} from './lib/http.js';
import { encodeGreyPng } from '../src/documents/png.js';
import {
  noopWorkflow,
  promisePoolBaseline,
  runNoopJobs,
  timedPersistence,
  type PersistenceTimes,
  type QueueRun,
} from './lib/queue.js';
import {
  RULES_PRODUCT,
  buildRuleSet,
  conditionDepth,
  conditionPaths,
  evaluateRuleSet,
  handWrittenRuleSet,
  makePredictions,
  measureRate,
  pathParts,
  pathsRead,
  productFieldIds,
  type Rate,
} from './lib/rules.js';
import { fmt, formatTable, splitWords, wordRecall } from './lib/report.js';
import { makeMultiDocument, makeScannedMulti, pageCountsSumming } from './lib/multi.js';
import {
  coveredMs,
  median,
  resetTimings,
  runSplit,
  scoreSplit,
  timedCopier,
  timedOcr,
  timedPdfReader,
  wrongDecisions,
  type SplitRun,
  type SplitScore,
  type Timings,
} from './lib/split.js';
import { benchLogos, logoSummaryRows } from './lib/logos.js';
import type { SummaryRow } from './lib/summary-row.js';
import { benchWebhooks, webhookSummaryRows } from './lib/webhooks.js';
import { benchServeScale, serveScaleSummaryRows, type ServeScaleSection } from './lib/serve-scale.js';
import { splitScannedComposites } from './lib/split-scans.js';
import { benchPg, pgSummaryRows } from './lib/pg.js';
import {
  fieldAgreement,
  makeMixedFolder,
  makeScanFolder,
  makeTextFolder,
  nativeScanPipeline,
  parseProgressLine,
  pdftotextFolder,
  readJsonLines,
  runCli,
  runProblem,
  slope,
  type CliRun,
  type MemoryPoint,
} from './lib/batch.js';

const BENCH_DIR = path.dirname(fileURLToPath(import.meta.url));
// bench/out of the repository, also when running compiled from dist/bench (npm run bench).
const OUT_DIR = path.join(
  path.basename(path.dirname(BENCH_DIR)) === 'dist' ? path.resolve(BENCH_DIR, '../../bench') : BENCH_DIR,
  'out',
);
/** The repository root (bench/.. or dist/bench/../..), where bin/docex.js is. */
const REPO_DIR =
  path.basename(path.dirname(BENCH_DIR)) === 'dist'
    ? path.resolve(BENCH_DIR, '../..')
    : path.resolve(BENCH_DIR, '..');

const TEXT_DOCS = 20;
const PAGES_PER_DOC = 3;
const TEXT_ROUNDS = 3;
const OCR_PAGES = 6;
const OCR_WORKERS = 2;
const NATIVE_SLOTS = 2;
const PIPELINE_PAGES = 16;
const DPI = 300;
const MAX_PIXELS = 40_000_000;
const TARGET_TEXT_RATIO = 0.5;
const TARGET_OCR_RATIO = 0.8;
const TARGET_PEAK_RSS_MB = 600;
// Sized for about 1 to 3 s per measured run on a 2-core machine.
const QUEUE_JOBS_MEMORY = 30_000;
const QUEUE_JOBS_SQLITE = 10_000;
const QUEUE_WARMUP_JOBS = 500;
const QUEUE_CONCURRENCY = 4;
const RULES_CHECKS = 50;
const RULES_DOCUMENTS = 8;
// Each figure: a warm-up, then the median of 5 rounds of about 0.3 s (about 1.5 s measured).
const RULES_ROUNDS = 5;
const RULES_ROUND_SECONDS = 0.3;
const RULES_WARMUP_SECONDS = 0.5;
// HTTP: each figure a warm-up, then the median of 3 rounds of 1 s, the cases taking turns.
const HTTP_ROUNDS = 3;
const HTTP_ROUND_SECONDS = 1;
const HTTP_WARMUP_SECONDS = 0.5;
const HTTP_LAYER_SECONDS = 0.5;
const HTTP_RESULT_CONCURRENCY = 50;
const HTTP_UPLOAD_CONCURRENCY = 8;
// About 1.1 MB of image a page: a 3.3 MB PDF, under the default limits (20 MB, 16 pages).
const HTTP_UPLOAD_PAGES = 3;
const HTTP_UPLOAD_PX = [1100, 1000] as const;
const HTTP_LOAD_UPLOADS = 200;
const HTTP_LOAD_TIMEOUT_MS = 180_000;
const HTTP_PRODUCTS = ['invoices:2'];
// Split: a 100-page text PDF of 38 invoices (1 to 4 pages each), 3 rounds; a 20-page scan of 8
// invoices (200 dpi greyscale JPEG pages), one measured run (OCR takes some 10 to 30 s on 2 cores).
const SPLIT_SEED = 7001;
const SPLIT_TEXT_PAGES = 100;
const SPLIT_TEXT_DOCS = 38;
const SPLIT_TEXT_ROUNDS = 3;
const SPLIT_SCAN_PAGES = 20;
const SPLIT_SCAN_DOCS = 8;
const SPLIT_SCAN_DPI = 200;
/** Share of the documents with printed page numbers ("Page 2 of 3", "Seite 1/2", "- 2 -"...). */
const SPLIT_PAGE_MARKS = 0.5;
const SPLIT_TIMEOUT_MS = 300_000;
const SPLIT_LIMITS = { maxPages: 200, maxFileBytes: 200e6 };
// Batch command line: a folder of 60 text PDFs (150 pages), 3 rounds taking turns with pdftotext; 8
// scanned pages (3 image-only PDFs of 2, 1 and 2 pages, and 3 image files), 3 rounds; 1,000 small
// files, one file in 20 a small PNG (OCR). About 2 minutes on 2 cores.
const BATCH_SEED = 9001;
const BATCH_PRODUCT = 'invoices:2';
const BATCH_TEXT_FILES = 60;
const BATCH_TEXT_PAGES = 150;
/** A larger text folder, where the engine's warm-up weighs less and engine threads pay. */
const BATCH_LARGE_TEXT_FILES = 400;
const BATCH_LARGE_TEXT_PAGES = 1000;
const BATCH_ROUNDS = 3;
const BATCH_SCAN_PDF_PAGES = [2, 1, 2];
const BATCH_SCAN_IMAGES = 3;
const BATCH_SCAN_DPI = 200;
const BATCH_LONG_FILES = 1000;
const BATCH_LONG_IMAGE_EVERY = 20;
const BATCH_LONG_EARLY = 100;
const BATCH_SAMPLE_MS = 100;
const BATCH_TIMEOUT_MS = 600_000;
const TARGET_BATCH_TEXT_RATIO = 0.5;
const TARGET_BATCH_SCAN_RATIO = 1;

const SECTIONS = [
  'text',
  'ocr',
  'pipeline',
  'queue',
  'rules',
  'http',
  'split',
  'pg',
  'batch',
  'hostile',
  'extract',
  'logos',
  'webhooks',
  'scale',
  'learning',
] as const;
type Section = (typeof SECTIONS)[number];

type Measured = { seconds: number; pages: number; pagesPerSecond: number };
type Baseline = ({ ok: true } & Measured & Record<string, unknown>) | { ok: false; reason: string };

const startedAt = performance.now();
const elapsed = (): string => `${((performance.now() - startedAt) / 1000).toFixed(1)} s`;
const log = (text: string): void => console.log(text);
const na = (reason: string): string => `n/a (${reason})`;
const yesNo = (ok: boolean): string => (ok ? 'yes' : 'NO');
const measured = (seconds: number, pages: number): Measured => ({
  seconds,
  pages,
  pagesPerSecond: pages / seconds,
});

async function timed<T>(work: () => Promise<T>): Promise<{ value: T; seconds: number }> {
  const start = performance.now();
  const value = await work();
  return { value, seconds: (performance.now() - start) / 1000 };
}

async function renderPages(reader: PdfReader, bytes: Uint8Array, pageNums: number[]): Promise<GreyImage[]> {
  const doc = await reader.open(bytes);
  try {
    const images: GreyImage[] = [];
    for (const n of pageNums) {
      const page = await doc.page(n);
      images.push((await page.render({ dpi: DPI, maxPixels: MAX_PIXELS })).image);
    }
    return images;
  } finally {
    await doc.close();
  }
}

function decodeEntities(text: string): string {
  return text
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;|&apos;/g, "'")
    .replace(/&amp;/g, '&');
}

// ---------------------------------------------------------------------------------------------------
// Native tool facts

interface TesseractModel {
  description: string;
  path: string;
  lstmBytes?: number;
}

function lstmBytes(file: string): number | undefined {
  const result = spawnSync('combine_tessdata', ['-d', file], { encoding: 'utf8' });
  if (result.error) return undefined;
  const match = /\blstm:size=(\d+)/.exec(`${result.stdout}\n${result.stderr}`);
  return match ? Number(match[1]) : undefined;
}

function networkClass(bytes: number | undefined): string {
  if (bytes === undefined) return 'network size unknown';
  const kib = Math.round(bytes / 1024);
  return `LSTM network ${kib} KiB, ${bytes < 1_000_000 ? 'tessdata_fast' : 'tessdata_best/best_int'} class`;
}

async function describeModel(file: string, origin: string): Promise<TesseractModel> {
  const size = (await readFile(file)).byteLength;
  const lstm = lstmBytes(file);
  const model: TesseractModel = {
    description: `${origin} (${file}, ${fmt(size / 1024 / 1024, 'MiB')}, ${networkClass(lstm)})`,
    path: file,
  };
  if (lstm !== undefined) model.lstmBytes = lstm;
  return model;
}

/** The tessdata folder native tesseract uses and whether it has English, or why it cannot be used. */
function nativeTessdata(): { dir: string; langs: string[] } | { reason: string } {
  const missing = missingTool('tesseract', ['--version']);
  if (missing) return { reason: missing };
  const result = spawnSync('tesseract', ['--list-langs'], { encoding: 'utf8' });
  const text = `${result.stdout}\n${result.stderr}`;
  const dir = /languages in "([^"]+)"/.exec(text)?.[1];
  const langs = text
    .split('\n')
    .slice(1)
    .map((l) => l.trim())
    .filter((l) => /^[a-z_]+$/i.test(l));
  if (!dir) return { reason: 'tesseract did not report its tessdata folder' };
  if (!langs.includes('eng'))
    return { reason: 'tesseract has no eng model: apt-get install tesseract-ocr-eng' };
  return { dir, langs };
}

// ---------------------------------------------------------------------------------------------------
// 1. Text layer

async function ingestAll(
  engine: Engine,
  docs: GeneratedPdf[],
): Promise<{ pages: number; texts: string[][] }> {
  let pages = 0;
  const texts: string[][] = [];
  for (const doc of docs) {
    const record = await engine.upload(doc.bytes);
    const layer = await engine.ingest(record.fileId);
    pages += layer.pages.length;
    texts.push(
      layer.pages.map((p) =>
        layer.tokens
          .filter((t) => t.pageNum === p.pageNum)
          .map((t) => t.text)
          .join(' '),
      ),
    );
  }
  return { pages, texts };
}

async function benchTextLayer(tmp: string, warmDoc: GeneratedPdf, docs: GeneratedPdf[]) {
  log(
    `\n== 1. Text layer: ${docs.length} born-digital PDFs x ${PAGES_PER_DOC} pages, ${TEXT_ROUNDS} rounds ==`,
  );
  const dir = path.join(tmp, 'text');
  await mkdir(dir);
  const files = await Promise.all(
    [warmDoc, ...docs].map(async (doc, i) => {
      const file = path.join(dir, `invoice-${String(i).padStart(2, '0')}.pdf`);
      await writeFile(file, doc.bytes);
      return file;
    }),
  );
  const expected = docs.flatMap((d) => d.pages.map(pageWords)).flat();
  const linesPerPage = docs[0]!.pages.map((items) => new Set(items.map((i) => i.y)).size);
  log(
    `   ${fmt(docs[0]!.bytes.byteLength / 1024, 'KiB')} per PDF, ${linesPerPage.join('/')} text lines on the pages of the first;` +
      ` each round runs docex then pdftotext over the same ${docs.length} files; figures are medians`,
  );

  const engine = createEngine({ ingest: { ocr: 'never' } });
  const pdftotextMissing = missingTool('pdftotext', ['-v']);
  let baselineError: string | undefined;
  const outs = files.map((f) => f.replace(/\.pdf$/, '.html'));
  const oursRounds: Measured[] = [];
  const baseRounds: Measured[] = [];
  let found: string[] = [];
  try {
    // Warm-up: one document through the engine, one file through pdftotext.
    await ingestAll(engine, [warmDoc]);
    if (!pdftotextMissing) {
      await run('pdftotext', ['-bbox-layout', files[0]!, outs[0]!]).catch((error: Error) => {
        baselineError = `pdftotext failed: ${error.message}`;
      });
    }
    for (let round = 0; round < TEXT_ROUNDS; round++) {
      // docex: upload then ingest, one document after another.
      const { value, seconds } = await timed(() => ingestAll(engine, docs));
      oursRounds.push(measured(seconds, value.pages));
      if (round === 0) found = value.texts.flat().flatMap(splitWords);
      // Baseline: pdftotext -bbox-layout over the same files, one after another.
      if (pdftotextMissing || baselineError) continue;
      try {
        const { seconds: s } = await timed(async () => {
          for (let i = 1; i < files.length; i++)
            await run('pdftotext', ['-bbox-layout', files[i]!, outs[i]!]);
        });
        baseRounds.push(measured(s, docs.length * PAGES_PER_DOC));
      } catch (error) {
        baselineError = `pdftotext failed: ${(error as Error).message}`;
      }
    }
  } finally {
    await engine.close();
  }

  const ours = {
    ...medianRound(oursRounds),
    rounds: oursRounds.map((r) => r.pagesPerSecond),
    tokens: found.length,
    recall: wordRecall(expected, found),
  };
  log(
    `   docex     : ${ours.pages} pages in ${fmt(ours.seconds, 's')} = ${fmt(ours.pagesPerSecond, 'pages/s')}` +
      ` (rounds: ${ours.rounds.map((v) => fmt(v)).join(', ')}; ${ours.tokens} tokens, ${fmt(ours.recall * 100, '%')} of printed words)`,
  );

  let baseline: Baseline;
  const reason = pdftotextMissing ?? baselineError;
  if (reason) {
    baseline = { ok: false, reason };
    log(`   pdftotext : ${na(reason)}`);
  } else {
    const words: string[] = [];
    for (const out of outs.slice(1)) {
      const html = await readFile(out, 'utf8');
      for (const m of html.matchAll(/<word [^>]*>([^<]*)<\/word>/g)) words.push(decodeEntities(m[1]!));
    }
    const median = medianRound(baseRounds);
    const rounds = baseRounds.map((r) => r.pagesPerSecond);
    const recall = wordRecall(expected, words);
    const tool = toolVersion('pdftotext', ['-v']);
    baseline = { ok: true, ...median, rounds, words: words.length, recall, tool };
    log(
      `   pdftotext : ${median.pages} pages in ${fmt(median.seconds, 's')} = ${fmt(median.pagesPerSecond, 'pages/s')}` +
        ` (rounds: ${rounds.map((v) => fmt(v)).join(', ')}; ${words.length} words, ${fmt(recall * 100, '%')} of printed words; ${tool})`,
    );
  }
  const ratio = baseline.ok ? ours.pagesPerSecond / baseline.pagesPerSecond : undefined;
  if (ratio !== undefined) log(`   ratio docex/pdftotext = ${fmt(ratio)} (target >= ${TARGET_TEXT_RATIO})`);
  return {
    documents: docs.length,
    pagesPerDocument: PAGES_PER_DOC,
    rounds: TEXT_ROUNDS,
    docex: ours,
    baseline,
    ratio,
  };
}

/** The round with the median throughput (rounds are few and odd in number). */
function medianRound(rounds: Measured[]): Measured {
  const sorted = [...rounds].sort((a, b) => a.pagesPerSecond - b.pagesPerSecond);
  return sorted[Math.floor(sorted.length / 2)]!;
}

// ---------------------------------------------------------------------------------------------------
// 2. OCR

async function benchOcr(tmp: string, warmImage: GreyImage, images: GreyImage[], expected: string[][]) {
  log(
    `\n== 2. OCR: ${images.length} page images at ${DPI} dpi, ${OCR_WORKERS} workers vs ${NATIVE_SLOTS} processes ==`,
  );
  const dir = path.join(tmp, 'ocr');
  await mkdir(dir);
  log(`   image size ${images[0]!.width} x ${images[0]!.height} px (greyscale)`);

  // docex: its two OCR adapters, tesseract.js's pool (both workers started by two concurrent warm-up
  // calls) and the host's tesseract program, one process per page (when it is installed).
  const docexModelFile = path.join(englishModelDir(), 'eng.traineddata.gz');
  type OcrRun = Measured & { words: number; recall: number; warmUpSeconds: number };
  const runAdapter = async (ocr: OcrEngine): Promise<OcrRun> => {
    try {
      const warm = await timed(() => Promise.all([ocr.recognize(warmImage), ocr.recognize(warmImage)]));
      const { value, seconds } = await timed(() => Promise.all(images.map((image) => ocr.recognize(image))));
      const found = value.map((words) => words.map((w) => w.text));
      return {
        ...measured(seconds, images.length),
        words: found.flat().length,
        recall: wordRecall(expected.flat(), found.flat()),
        warmUpSeconds: warm.seconds,
      };
    } finally {
      await ocr.close();
    }
  };
  const ours = await runAdapter(createTesseractOcr({ workers: OCR_WORKERS }));
  log(
    `   docex wasm  : ${ours.pages} pages in ${fmt(ours.seconds, 's')} = ${fmt(ours.pagesPerSecond, 'pages/s')}` +
      ` (${ours.words} words, ${fmt(ours.recall * 100, '%')} of printed words; warm-up ${fmt(ours.warmUpSeconds, 's')})`,
  );
  log(`     model     : tesseract.js ${tesseractJsVersion()} with @tesseract.js-data/eng 4.0.0_best_int`);
  const nativeVersion = await nativeTesseractVersion();
  let oursNative: OcrRun | undefined;
  if (nativeVersion) {
    oursNative = await runAdapter(createNativeTesseractOcr({ workers: OCR_WORKERS }));
    log(
      `   docex native: ${oursNative.pages} pages in ${fmt(oursNative.seconds, 's')} = ${fmt(oursNative.pagesPerSecond, 'pages/s')}` +
        ` (${oursNative.words} words, ${fmt(oursNative.recall * 100, '%')} of printed words; the tesseract program ${nativeVersion},` +
        ` the same model, a process per page, bitmaps on stdin)`,
    );
  } else {
    log(`   docex native: ${na('no tesseract program 5.x: ' + INSTALL_HINT)}`);
  }

  // Baselines: native tesseract, two processes at a time, one thread each.
  const pgms = await Promise.all(
    [warmImage, ...images].map(async (image, i) => {
      const file = path.join(dir, `page-${i}.pgm`);
      await writeFile(file, encodePgm(image));
      return file;
    }),
  );
  const tess = nativeTessdata();
  let nativeModel: TesseractModel | undefined;
  let docexModel: TesseractModel | undefined;
  let baseline: Baseline;
  let sameModel: Baseline;
  if ('reason' in tess) {
    baseline = { ok: false, reason: tess.reason };
    sameModel = { ok: false, reason: tess.reason };
    printNative('tesseract ', baseline);
  } else {
    const debianFile = path.join(tess.dir, 'eng.traineddata');
    nativeModel = await describeModel(debianFile, `eng from ${debianPackageOf(debianFile) ?? 'the system'}`);
    log(`   native    : ${toolVersion('tesseract', ['--version'])}, model ${nativeModel.description}`);
    baseline = await nativeOcr(pgms, dir, 'native', [], expected);
    printNative('tesseract ', baseline);

    // For information: the same native binary with docex's own (larger) model.
    const docexTessdata = path.join(tmp, 'tessdata-docex');
    await mkdir(docexTessdata);
    const unpacked = path.join(docexTessdata, 'eng.traineddata');
    await writeFile(unpacked, gunzipSync(await readFile(docexModelFile)));
    docexModel = await describeModel(unpacked, 'eng from @tesseract.js-data/eng 4.0.0_best_int');
    sameModel = await nativeOcr(pgms, dir, 'native-docex-model', ['--tessdata-dir', docexTessdata], expected);
    printNative('tesseract with docex model', sameModel, '(for information)');
  }
  const ratio = baseline.ok ? ours.pagesPerSecond / baseline.pagesPerSecond : undefined;
  const sameModelRatio = sameModel.ok ? ours.pagesPerSecond / sameModel.pagesPerSecond : undefined;
  if (ratio !== undefined)
    log(`   ratio docex wasm/native tesseract = ${fmt(ratio)} (target >= ${TARGET_OCR_RATIO})`);
  const nativeRatio =
    oursNative && sameModel.ok ? oursNative.pagesPerSecond / sameModel.pagesPerSecond : undefined;
  if (oursNative && baseline.ok && nativeRatio !== undefined)
    log(
      `   ratio docex native adapter/native tesseract = ${fmt(oursNative.pagesPerSecond / baseline.pagesPerSecond)}` +
        ` (Debian's model), ${fmt(nativeRatio)} (the same model; target >= 1.0)`,
    );
  if (sameModelRatio !== undefined) {
    log(`   ratio docex/native tesseract with docex's model = ${fmt(sameModelRatio)} (for information)`);
  }
  return {
    pages: images.length,
    dpi: DPI,
    workers: OCR_WORKERS,
    docex: ours,
    docexNative: oursNative ?? { ok: false, reason: 'no tesseract program 5.x' },
    nativeRatio,
    docexModel: docexModel ?? { description: 'eng 4.0.0_best_int', path: docexModelFile },
    baseline,
    nativeModel,
    ratio,
    sameModelBaseline: sameModel,
    sameModelRatio,
  };
}

function tesseractJsVersion(): string {
  try {
    return (createRequire(import.meta.url)('tesseract.js/package.json') as { version: string }).version;
  } catch {
    return '(version unknown)';
  }
}

async function nativeOcr(
  pgms: string[],
  dir: string,
  label: string,
  extraArgs: string[],
  expected: string[][],
): Promise<Baseline> {
  const env = { ...process.env, OMP_THREAD_LIMIT: '1' };
  const args = (pgm: string, out: string): string[] => [
    pgm,
    out,
    ...extraArgs,
    '-l',
    'eng',
    '--oem',
    '1',
    '--psm',
    '3',
  ];
  try {
    const [warm, ...pages] = pgms;
    await run('tesseract', args(warm!, path.join(dir, `${label}-warm`)), env);
    const outs = pages.map((_, i) => path.join(dir, `${label}-${i}`));
    const { seconds } = await timed(() =>
      runPool(
        pages.map((pgm, i) => () => run('tesseract', args(pgm, outs[i]!), env)),
        NATIVE_SLOTS,
      ),
    );
    const found = await Promise.all(outs.map(async (o) => splitWords(await readFile(`${o}.txt`, 'utf8'))));
    return {
      ok: true,
      ...measured(seconds, pages.length),
      words: found.flat().length,
      recall: wordRecall(expected.flat(), found.flat()),
    };
  } catch (error) {
    return { ok: false, reason: `tesseract failed: ${(error as Error).message}` };
  }
}

function printNative(name: string, result: Baseline, note = ''): void {
  const label = name.trimEnd().padEnd(10);
  if (!result.ok) {
    log(`   ${label}: ${na(result.reason)}`);
    return;
  }
  log(
    `   ${label}: ${result.pages} pages in ${fmt(result.seconds, 's')} = ${fmt(result.pagesPerSecond, 'pages/s')}` +
      ` (${String(result.words)} words, ${fmt(Number(result.recall) * 100, '%')} of printed words) ${note}`.trimEnd(),
  );
}

// ---------------------------------------------------------------------------------------------------
// 3. Full pipeline

async function benchPipeline(tmp: string, pngs: Uint8Array[], expected: string[][]) {
  log(`\n== 3. Full pipeline: one ${pngs.length}-page scanned PDF, createEngine({ ocr: { workers: 2 } }) ==`);
  const pdf = await makeScannedPdf(pngs);
  const file = path.join(tmp, `scanned-${pngs.length}.pdf`);
  await writeFile(file, pdf);
  log(`   ${fmt(pdf.byteLength / 1024 / 1024, 'MiB')} PDF, each page a full-page ${DPI} dpi greyscale PNG`);
  log('   ingesting in a fresh Node process (so earlier stages do not count towards its memory) ...');

  // Compiled (npm run bench) the child is plain JavaScript; run with tsx it is TypeScript. tsx itself
  // costs some 300 MB of memory, which is why `npm run bench` compiles first.
  const compiled = import.meta.url.endsWith('.js');
  const child = fork(path.join(BENCH_DIR, compiled ? 'pipeline-child.js' : 'pipeline-child.ts'), [file], {
    execArgv: compiled ? [] : ['--import', import.meta.resolve('tsx')],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const pid = child.pid!;
  let processPeak: { stop(): number | undefined } | undefined;
  let treePeak: { stop(): number | undefined } | undefined;
  const result = await new Promise<{
    child: PipelineChildResult;
    processRssOutside: number | undefined;
    treeRss: number | undefined;
  }>((resolve, reject) => {
    let settled = false;
    child.on('message', (message: ChildMessage) => {
      if (message.type === 'ready') {
        processPeak = peakSampler(() => procStatusBytes(pid, 'VmRSS'), 50);
        treePeak = peakSampler(() => treeRssBytes(pid), 50);
        child.send('go');
      } else if (message.type === 'done') {
        settled = true;
        resolve({ child: message, processRssOutside: processPeak?.stop(), treeRss: treePeak?.stop() });
      } else {
        settled = true;
        reject(new Error(`pipeline child failed: ${message.error}`));
      }
    });
    child.on('error', reject);
    child.on('exit', (code) => {
      processPeak?.stop();
      treePeak?.stop();
      if (!settled) reject(new Error(`pipeline child exited (${code}) before reporting`));
    });
  });
  await new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once('exit', () => resolve());
  });

  const r = result.child;
  const seconds = r.wallMs / 1000;
  const recall = wordRecall(expected.flat(), r.pageTexts.flatMap(splitWords));
  const out = {
    pages: r.pages,
    tokens: r.tokens,
    seconds,
    uploadSeconds: r.uploadMs / 1000,
    ingestSeconds: r.ingestMs / 1000,
    pagesPerSecond: r.pages / seconds,
    secondsPerPage: seconds / r.pages,
    recall,
    pageSources: r.pageSources,
    rssBeforeMb: toMb(r.rssBeforeBytes),
    peakRssSampledMb: toMb(r.peakRssSampledBytes),
    peakRssKernelMb: toMb(r.peakRssKernelBytes),
    peakRssOutsideMb: toMb(result.processRssOutside),
    peakTreeRssMb: toMb(result.treeRss),
    pdfBytes: pdf.byteLength,
  };
  const sources = [...new Set(r.pageSources)].join(', ');
  log(
    `   docex     : ${r.pages} pages in ${fmt(seconds, 's')} (upload ${fmt(out.uploadSeconds, 's')}, ingest ${fmt(out.ingestSeconds, 's')})` +
      ` = ${fmt(out.pagesPerSecond, 'pages/s')}, ${fmt(out.secondsPerPage, 's/page')}; page source: ${sources}`,
  );
  log(`               ${r.tokens} tokens, ${fmt(recall * 100, '%')} of printed words`);
  log(
    '               cold engine: the time includes starting the OCR workers; pages are read two at a' +
      ' time (one per worker), each scanned picture OCRed at its own resolution',
  );
  log(
    `   memory    : RSS before ${fmt(out.rssBeforeMb, 'MB')}; peak RSS sampled in-process every 50 ms ${fmt(out.peakRssSampledMb, 'MB')};` +
      ` kernel peak (VmHWM) ${fmt(out.peakRssKernelMb, 'MB')}; sampled from outside ${fmt(out.peakRssOutsideMb, 'MB')}`,
  );
  log(
    `               process tree (the node process incl. its tesseract.js worker threads, plus any child processes) ${fmt(out.peakTreeRssMb, 'MB')}`,
  );
  return out;
}

// ---------------------------------------------------------------------------------------------------
// 4. Job queue overhead

interface QueueBreakdown {
  /** Throughput of this second, instrumented run (the timing costs a little). */
  jobsPerSecond: number;
  /** Time inside persistence calls per job, in microseconds, by method and in all. */
  persistenceUsPerJob: Record<string, number>;
  persistenceTotalUsPerJob: number;
  /** The rest of a job's wall time: engine, queue, events, event loop. */
  otherUsPerJob: number;
  persistenceShare: number;
}

async function queueBreakdown(persistence: EnginePersistence, count: number): Promise<QueueBreakdown> {
  const timed = timedPersistence(persistence);
  const engine = createEngine({
    persistence: timed.persistence,
    workflows: [noopWorkflow],
    jobs: { concurrency: QUEUE_CONCURRENCY, maxQueued: count + 10 },
  });
  let run: QueueRun;
  try {
    await engine.ready;
    await runNoopJobs(engine, QUEUE_WARMUP_JOBS);
    for (const entry of Object.values(timed.times)) Object.assign(entry, { calls: 0, ms: 0 });
    run = await runNoopJobs(engine, count);
  } finally {
    await engine.close();
  }
  const perJob = (times: PersistenceTimes): Record<string, number> =>
    Object.fromEntries(
      Object.entries(times)
        .filter(([name, t]) => name !== 'close' && t.calls > 0)
        .map(([name, t]) => [name, (t.ms * 1000) / count]),
    );
  const persistenceUsPerJob = perJob(timed.times);
  const total = Object.values(persistenceUsPerJob).reduce((a, b) => a + b, 0);
  const wallUs = 1e6 / run.jobsPerSecond;
  return {
    jobsPerSecond: run.jobsPerSecond,
    persistenceUsPerJob,
    persistenceTotalUsPerJob: total,
    otherUsPerJob: wallUs - total,
    persistenceShare: total / wallUs,
  };
}

async function queueCase(
  label: string,
  count: number,
  open: (name: string) => { persistence: EnginePersistence; file?: string },
) {
  const { persistence, file } = open('measured');
  const engine = createEngine({
    persistence,
    workflows: [noopWorkflow],
    jobs: { concurrency: QUEUE_CONCURRENCY, maxQueued: count + 10 },
  });
  let run: QueueRun;
  let walFile: boolean | undefined;
  try {
    await engine.ready;
    await runNoopJobs(engine, QUEUE_WARMUP_JOBS);
    run = await runNoopJobs(engine, count);
    if (file !== undefined) walFile = existsSync(`${file}-wal`);
  } finally {
    await engine.close();
  }
  const breakdown = await queueBreakdown(open('breakdown').persistence, count);
  const baseline = await promisePoolBaseline(count, QUEUE_CONCURRENCY);
  const ratio = run.jobsPerSecond / baseline.tasksPerSecond;
  const overheadUsPerJob = 1e6 / run.jobsPerSecond - 1e6 / baseline.tasksPerSecond;
  const name = label.padEnd(10);
  log(
    `   ${name}: ${count} jobs in ${fmt(run.seconds, 's')} = ${fmt(run.jobsPerSecond, 'jobs/s')}` +
      ` (${run.succeeded} succeeded, ${run.failed} failed; the invokes took ${fmt(run.invokeSeconds, 's')})`,
  );
  if (run.firstError) log(`               first failure: ${run.firstError}`);
  log(
    `               invoke latency: mean ${fmt(run.invokeMs.mean, 'ms')}, p50 ${fmt(run.invokeMs.p50, 'ms')},` +
      ` p99 ${fmt(run.invokeMs.p99, 'ms')}, max ${fmt(run.invokeMs.max, 'ms')}` +
      (walFile === undefined ? '' : `; journal WAL (-wal file ${walFile ? 'present' : 'MISSING'})`),
  );
  const methods = Object.entries(breakdown.persistenceUsPerJob)
    .map(([method, us]) => `${method} ${fmt(us)}`)
    .join(', ');
  log(
    `               where the time goes (a second run, persistence calls timed: ${fmt(breakdown.jobsPerSecond, 'jobs/s')}` +
      ` = ${fmt(1e6 / breakdown.jobsPerSecond, 'us')} per job): persistence ${fmt(breakdown.persistenceTotalUsPerJob, 'us')}` +
      ` (${methods}) = ${fmt(breakdown.persistenceShare * 100, '%')}; engine and event loop ${fmt(breakdown.otherUsPerJob, 'us')}`,
  );
  log(
    `     baseline: ${count} no-op async functions, pool of ${QUEUE_CONCURRENCY}, in ${fmt(baseline.seconds * 1000, 'ms')}` +
      ` = ${fmt(baseline.tasksPerSecond, 'tasks/s')} (median of ${baseline.rounds.length} rounds);` +
      ` ratio ${small(ratio)}, overhead ${fmt(overheadUsPerJob, 'us')} per job`,
  );
  return {
    ...run,
    ...(walFile === undefined ? {} : { journal: 'WAL', walFile }),
    breakdown,
    baseline,
    ratio,
    overheadUsPerJob,
  };
}

async function benchQueue(tmp: string) {
  log(
    `\n== 4. Job queue overhead: no-op jobs, jobs: { concurrency: ${QUEUE_CONCURRENCY} }, vs a pool of ${QUEUE_CONCURRENCY} no-op async functions ==`,
  );
  log(
    `   per run: ${QUEUE_WARMUP_JOBS} warm-up jobs, then one awaited engine.invoke() after another (jobs run meanwhile);` +
      ' timed from the first invoke to the last job event `succeeded`',
  );
  const dir = path.join(tmp, 'queue');
  await mkdir(dir);
  const memory = await queueCase('memory', QUEUE_JOBS_MEMORY, () => ({
    persistence: createMemoryPersistence(),
  }));
  const sqlite = await queueCase('SQLite', QUEUE_JOBS_SQLITE, (name) => {
    const file = path.join(dir, `jobs-${name}.db`);
    return { persistence: createSqlitePersistence({ path: file }), file };
  });
  return { concurrency: QUEUE_CONCURRENCY, warmUpJobs: QUEUE_WARMUP_JOBS, memory, sqlite };
}

/** A ratio far below 1 with two significant digits (fmt would round 0.0004 to 0.000). */
function small(ratio: number): string {
  return ratio > 0 && ratio < 0.1 ? ratio.toPrecision(2) : fmt(ratio);
}

// ---------------------------------------------------------------------------------------------------
// 5. Validation rules

/** Every problem of a rejected rule set, so a broken benchmark rule set fails with all of them. */
function rulesProblems(error: unknown): string {
  if (!(error instanceof DocexError)) return (error as Error).message;
  return [error.message, ...error.details.map((d) => `  ${d.path}: ${d.message}`)].join('\n');
}

function benchRules() {
  log(
    `\n== 5. Validation rules: a ${RULES_CHECKS}-check v2 rule set over the fields of ${RULES_PRODUCT}, vs the same checks as a hand-written JS function ==`,
  );
  const fieldIds = productFieldIds();
  const rules = buildRuleSet(fieldIds);
  const checks = rules.data.checks;
  if (checks.length !== RULES_CHECKS) {
    throw new Error(`bench rules: the rule set has ${checks.length} checks, not ${RULES_CHECKS}`);
  }
  // Stored as svc.validate and the rules store take them: an invalid benchmark rule set stops here.
  const compileStart = performance.now();
  const checker = createRulesChecker(createSchemaChecker());
  const createCheckerMs = performance.now() - compileStart;
  try {
    checker.checkRules(rules);
  } catch (error) {
    throw new Error(`bench rules: checkRules refused the benchmark rule set:\n${rulesProblems(error)}`);
  }
  const docs = makePredictions(fieldIds, RULES_DOCUMENTS);
  const paths = checks.flatMap((c) => conditionPaths(c.condition));
  const depth = Math.max(...checks.map((c) => conditionDepth(c.condition)));
  const dottedForm = paths.filter((p) => p.startsWith('$.predictions.[')).length;

  // Both sides must agree on every check of every document before either is timed.
  const ours = new Uint8Array(RULES_CHECKS);
  const theirs = new Uint8Array(RULES_CHECKS);
  const holding: number[] = [];
  docs.forEach((doc, d) => {
    holding.push(evaluateRuleSet(checks, doc, ours));
    handWrittenRuleSet(doc, theirs);
    const differ = checks
      .map((c, i) => ({ i, c }))
      .filter(({ i }) => ours[i] !== theirs[i])
      .map(({ i, c }) => `#${i + 1} '${c.note}' (evaluate ${ours[i]}, hand-written ${theirs[i]})`);
    if (differ.length > 0) {
      throw new Error(
        `bench rules: document ${d}: the hand-written baseline disagrees on ${differ.join(', ')}`,
      );
    }
  });
  log(
    `   ${checks.length} checks, conditions up to ${depth} levels deep, ${paths.length} variable paths` +
      ` (${dottedForm} written $.predictions.['id'], ${paths.length - dottedForm} $.predictions['id']);` +
      ` checkRules accepts it (checker created in ${fmt(createCheckerMs, 'ms')})`,
  );
  log(
    `   ${docs.length} documents, ${fieldIds.length} fields each (some not found: null value, confidence 0),` +
      ` used in turn; checks holding per document: ${holding.join(', ')}; the hand-written function agrees on all`,
  );
  log(
    `   each figure: ${RULES_WARMUP_SECONDS} s warm-up, then median of ${RULES_ROUNDS} rounds of about ${RULES_ROUND_SECONDS} s`,
  );

  const timing = {
    rounds: RULES_ROUNDS,
    roundSeconds: RULES_ROUND_SECONDS,
    warmupSeconds: RULES_WARMUP_SECONDS,
  };
  const perDoc = (i: number) => docs[i % docs.length]!;
  const evaluation = measureRate((i) => evaluateRuleSet(checks, perDoc(i), ours), timing);
  const baseline = measureRate((i) => handWrittenRuleSet(perDoc(i), theirs), timing);
  // A few copies, so no call meets the very object the previous one validated.
  const copies = Array.from({ length: 4 }, () => structuredClone(rules));
  const storing = measureRate(
    (i) => checker.checkRules(copies[i % copies.length]!).data.checks.length,
    timing,
  );

  // Where the time goes: the paths evaluate reads on each document (following its short-circuits),
  // read alone in the same way, then split into readPath's two parts.
  const traces = docs.map((doc) => checks.flatMap((c) => pathsRead(c.condition, doc)));
  const parsed = traces.map((t) => t.map(pathParts.parsed));
  const readsPerEvaluation = traces.reduce((a, t) => a + t.length, 0) / traces.length;
  const overPaths =
    <T>(list: T[][], read: (path: T, doc: (typeof docs)[number]) => unknown) =>
    (i: number): number => {
      const d = i % docs.length;
      const doc = docs[d]!;
      let found = 0;
      for (const p of list[d]!) if (read(p, doc) !== undefined) found++;
      return found;
    };
  const partTiming = {
    ...timing,
    roundSeconds: RULES_ROUND_SECONDS / 2,
    warmupSeconds: RULES_WARMUP_SECONDS / 2,
  };
  const usPer = (r: Rate): number => 1e6 / r.perSecond;
  const parts = {
    readPath: usPer(measureRate(overPaths(traces, pathParts.readPath), partTiming)),
    parsePath: usPer(measureRate(overPaths(traces, pathParts.parse), partTiming)),
    jsonpath: usPer(measureRate(overPaths(parsed, pathParts.jsonpath), partTiming)),
    directRead: usPer(measureRate(overPaths(traces, pathParts.direct), partTiming)),
  };
  const evaluationUs = usPer(evaluation);
  const breakdown = {
    readPathCallsPerEvaluation: readsPerEvaluation,
    evaluationUs,
    readPathUs: parts.readPath,
    parsePathUs: parts.parsePath,
    jsonpathPlusUs: parts.jsonpath,
    otherUs: evaluationUs - parts.readPath,
    readPathShare: parts.readPath / evaluationUs,
    jsonpathPlusShare: parts.jsonpath / evaluationUs,
    /** readPath's parse followed by a plain property read, in place of jsonpath-plus. */
    directReadUs: parts.directRead,
    estimatedEvaluationsPerSecondWithDirectRead: 1e6 / (evaluationUs - parts.readPath + parts.directRead),
  };

  const ratio = evaluation.perSecond / baseline.perSecond;
  const rounds = (r: Rate): string => r.rounds.map((v) => fmt(v)).join(', ');
  log(
    `   docex      : evaluate() on each check: ${fmt(evaluation.perSecond, 'evaluations/s')}` +
      ` = ${fmt(evaluation.perSecond * RULES_CHECKS, 'checks/s')}, ${fmt(evaluationUs, 'us')} per evaluation` +
      ` (${evaluation.iterations} per round; rounds: ${rounds(evaluation)})`,
  );
  log(
    `   baseline   : hand-written function: ${fmt(baseline.perSecond, 'evaluations/s')}` +
      ` = ${fmt(baseline.perSecond * RULES_CHECKS, 'checks/s')}, ${fmt(usPer(baseline) * 1000, 'ns')} per evaluation` +
      ` (rounds: ${rounds(baseline)})`,
  );
  log(`   ratio docex/hand-written = ${small(ratio)} (hand-written is ${fmt(1 / ratio)}x faster)`);
  log(
    `   checkRules : ${fmt(storing.perSecond, 'calls/s')} = ${fmt(usPer(storing), 'us')} to validate the ${RULES_CHECKS}-check set` +
      ` (rounds: ${rounds(storing)})`,
  );
  log(
    `   where the time goes: ${fmt(readsPerEvaluation)} readPath calls per evaluation, timed alone` +
      ` ${fmt(parts.readPath, 'us')} = ${fmt(breakdown.readPathShare * 100, '%')} of an evaluation` +
      ` (path regex ${fmt(parts.parsePath, 'us')}, jsonpath-plus query ${fmt(parts.jsonpath, 'us')}` +
      ` = ${fmt(breakdown.jsonpathPlusShare * 100, '%')}); the rest of evaluate ${fmt(breakdown.otherUs, 'us')}`,
  );
  log(
    `               the same reads as a plain property lookup after the regex: ${fmt(parts.directRead, 'us')};` +
      ` evaluate would then manage roughly ${fmt(breakdown.estimatedEvaluationsPerSecondWithDirectRead, 'evaluations/s')}`,
  );
  return {
    product: RULES_PRODUCT,
    checks: checks.length,
    fields: fieldIds.length,
    documents: docs.length,
    maxDepth: depth,
    paths: paths.length,
    pathsDottedForm: dottedForm,
    checksHoldingPerDocument: holding,
    createCheckerMs,
    ...timing,
    docex: {
      evaluationsPerSecond: evaluation.perSecond,
      checksPerSecond: evaluation.perSecond * RULES_CHECKS,
      usPerEvaluation: evaluationUs,
      iterationsPerRound: evaluation.iterations,
      rounds: evaluation.rounds,
    },
    baseline: {
      kind: 'hand-written JavaScript function, the same checks',
      evaluationsPerSecond: baseline.perSecond,
      checksPerSecond: baseline.perSecond * RULES_CHECKS,
      usPerEvaluation: usPer(baseline),
      iterationsPerRound: baseline.iterations,
      rounds: baseline.rounds,
    },
    ratio,
    checkRules: {
      callsPerSecond: storing.perSecond,
      usPerCall: usPer(storing),
      rounds: storing.rounds,
    },
    breakdown,
  };
}

// ---------------------------------------------------------------------------------------------------
// 6. HTTP surface

interface HttpClientProcess {
  /** A load run in the client; `serverCpuSeconds` is this process's CPU time meanwhile. */
  load(spec: LoadSpec): Promise<LoadResult & { serverCpuSeconds: number }>;
  uploads(spec: UploadsSpec, timeoutMs: number): Promise<UploadsResult>;
  close(): Promise<void>;
}

/** Starts bench/http-client in a child process (compiled JavaScript, or TypeScript through tsx). */
async function startHttpClient(): Promise<HttpClientProcess> {
  const compiled = import.meta.url.endsWith('.js');
  const child = fork(path.join(BENCH_DIR, compiled ? 'http-client.js' : 'http-client.ts'), [], {
    execArgv: compiled ? [] : ['--import', import.meta.resolve('tsx')],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  let nextId = 1;
  const pending = new Map<number, { resolve: (m: ClientMessage) => void; reject: (e: Error) => void }>();
  const failAll = (error: Error): void => {
    for (const p of pending.values()) p.reject(error);
    pending.clear();
  };
  let exited = false;
  const ready = new Promise<void>((resolve, reject) => {
    child.on('message', (message: ClientMessage) => {
      if (message.type === 'ready') return resolve();
      const waiting = pending.get(message.id);
      pending.delete(message.id);
      if (message.type === 'failed') waiting?.reject(new Error(`http client: ${message.error}`));
      else waiting?.resolve(message);
    });
    child.on('error', reject);
    child.on('exit', (code) => {
      exited = true;
      const error = new Error(`http client exited (${code})`);
      reject(error);
      failAll(error);
    });
  });
  await ready;
  const call = (task: ClientTaskBody): Promise<ClientMessage> =>
    new Promise((resolve, reject) => {
      const id = nextId++;
      pending.set(id, { resolve, reject });
      child.send({ ...task, id } satisfies ClientTask);
    });
  return {
    async load(spec) {
      const before = process.cpuUsage();
      const message = await call({ kind: 'load', spec });
      const cpu = process.cpuUsage(before);
      if (message.type !== 'done' || message.kind !== 'load')
        throw new Error('http client: unexpected answer');
      return { ...message.result, serverCpuSeconds: (cpu.user + cpu.system) / 1e6 };
    },
    async uploads(spec, timeoutMs) {
      let timer: ReturnType<typeof setTimeout> | undefined;
      try {
        const message = await Promise.race([
          call({ kind: 'uploads', spec }),
          new Promise<never>((_, reject) => {
            timer = setTimeout(
              () => reject(new Error(`the load test did not finish within ${timeoutMs / 1000} s`)),
              timeoutMs,
            );
          }),
        ]);
        if (message.type !== 'done' || message.kind !== 'uploads') {
          throw new Error('http client: unexpected answer');
        }
        return message.result;
      } finally {
        clearTimeout(timer);
      }
    },
    async close() {
      if (exited) return;
      const gone = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      child.send({ id: 0, kind: 'exit' } satisfies ClientTask);
      const timer = setTimeout(() => child.kill(), 5000);
      await gone;
      clearTimeout(timer);
    },
  };
}

type HttpRun = LoadResult & { serverCpuSeconds: number };

interface HttpCase {
  name: string;
  spec: LoadSpec;
  /** Run after each run of the case, untimed (clearing what the uploads stored). */
  after?: () => Promise<void>;
}

/** Sums and the median round of one case. */
function httpSummary(runs: HttpRun[], fileBytes?: number) {
  const sorted = [...runs].sort((a, b) => a.requestsPerSecond - b.requestsPerSecond);
  const median = sorted[Math.floor(sorted.length / 2)]!;
  const sum = (pick: (r: HttpRun) => number): number => runs.reduce((a, r) => a + pick(r), 0);
  const requests = sum((r) => r.requests);
  const seconds = sum((r) => r.seconds);
  return {
    requestsPerSecond: median.requestsPerSecond,
    ...(fileBytes === undefined ? {} : { mbPerSecond: (median.requestsPerSecond * fileBytes) / 1e6 }),
    rounds: runs.map((r) => r.requestsPerSecond),
    requests,
    errors: sum((r) => r.errors),
    firstError: runs.find((r) => r.firstError !== undefined)?.firstError,
    seconds,
    latencyMs: median.latencyMs,
    /** CPU time per answered request, in microseconds, of the server process and of the client process. */
    serverCpuUsPerRequest: (sum((r) => r.serverCpuSeconds) * 1e6) / requests,
    clientCpuUsPerRequest: (sum((r) => r.clientCpuSeconds) * 1e6) / requests,
    /** Share of one core each process used while measured. */
    serverCpuShare: sum((r) => r.serverCpuSeconds) / seconds,
    clientCpuShare: sum((r) => r.clientCpuSeconds) / seconds,
  };
}
type HttpSummary = ReturnType<typeof httpSummary>;

/** A warm-up run of each case, then rounds of each in turn (so drift hits every case alike). */
async function httpRounds(client: HttpClientProcess, cases: HttpCase[]): Promise<Map<string, HttpRun[]>> {
  const runs = new Map<string, HttpRun[]>(cases.map((c) => [c.name, []]));
  for (const c of cases) {
    await client.load({ ...c.spec, seconds: HTTP_WARMUP_SECONDS });
    await c.after?.();
  }
  for (let round = 0; round < HTTP_ROUNDS; round++) {
    for (const c of cases) {
      runs.get(c.name)!.push(await client.load(c.spec));
      await c.after?.();
    }
  }
  return runs;
}

async function fetchOk(url: string, init: RequestInit, what: string): Promise<Response> {
  const response = await fetch(url, init);
  if (!response.ok) throw new Error(`bench http: ${what}: HTTP ${response.status} ${await response.text()}`);
  return response;
}

/** An access token of the token endpoint (client credentials, HTTP Basic), as `Bearer ...`. */
async function accessToken(base: string, clientId: string, clientSecret: string): Promise<string> {
  const response = await fetchOk(
    `${base}/oauth2/token`,
    {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString('base64')}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: 'grant_type=client_credentials',
    },
    'token',
  );
  return `Bearer ${((await response.json()) as { access_token: string }).access_token}`;
}

const httpLine = (label: string, s: HttpSummary, unit: string, value: number, extra = ''): string =>
  `   ${label.padEnd(10)}: ${fmt(value, unit)} (rounds: ${s.rounds.map((v) => fmt(v)).join(', ')} req/s;` +
  ` ${s.requests} answers, ${s.errors} errors; latency p50 ${fmt(s.latencyMs.p50, 'ms')}, p99 ${fmt(s.latencyMs.p99, 'ms')})` +
  `\n               CPU per request: server ${fmt(s.serverCpuUsPerRequest, 'us')}, client ${fmt(s.clientCpuUsPerRequest, 'us')};` +
  ` cores busy: server ${fmt(s.serverCpuShare)}, client ${fmt(s.clientCpuShare)}${extra}` +
  (s.firstError ? `\n               first error: ${s.firstError}` : '');

async function benchHttp(tmp: string) {
  log(
    `\n== 6. HTTP surface: createFetchHandler + createNodeListener on node:http (127.0.0.1), vs bare node:http handlers ==`,
  );
  const dir = path.join(tmp, 'http');
  await mkdir(dir);
  const secret = randomBytes(32);
  // Persistence calls timed (as in section 4), to say how much of a result request they take.
  const timed = timedPersistence(createMemoryPersistence());
  const engine = createEngine({ ingest: { ocr: 'never' }, persistence: timed.persistence });
  const accounts = { result: 'default', upload: 'bench-upload', load: 'bench-load' } as const;
  const servers: http.Server[] = [];
  let client: HttpClientProcess | undefined;
  try {
    await engine.ready;
    const credentials = await Promise.all(
      (Object.keys(accounts) as Array<keyof typeof accounts>).map((name) =>
        engine.createClient(accounts[name], {
          clientId: `bench-${name}`,
          clientSecret: `bench-${name}-secret-${randomBytes(8).toString('hex')}`,
        }),
      ),
    );
    const handler = createFetchHandler(engine, {
      tokens: { secret },
      maxResultWaitMs: HTTP_LOAD_TIMEOUT_MS,
    });
    const server = http.createServer(createNodeListener(handler));
    servers.push(server);
    const port = await listen(server);
    const base = `http://127.0.0.1:${port}`;
    const [resultAuth, uploadAuth, loadAuth] = await Promise.all(
      credentials.map((c) => accessToken(base, c.clientId, c.clientSecret)),
    );
    log(
      `   server: one process, engine createEngine({ ingest: { ocr: 'never' } }) (memory store and persistence),` +
        ` tokens from POST /oauth2/token; client: a child process (node:http, keep-alive agent, one socket per` +
        ` concurrent request); both share the machine's ${os.availableParallelism()} cores` +
        ` (load average ${fmt(os.loadavg()[0])} as the section starts: other work on the machine skews the figures)`,
    );
    log(
      `   each figure: a ${HTTP_WARMUP_SECONDS} s warm-up, then median of ${HTTP_ROUNDS} rounds of ${HTTP_ROUND_SECONDS} s,` +
        ` the cases taking turns; "CPU per request" is process CPU time / answers over the rounds`,
    );
    client = await startHttpClient();

    // --- Result endpoint ---
    const invoice = (await makeInvoicePdf(0, PAGES_PER_DOC)).bytes;
    const form = new FormData();
    form.append('file', new Blob([invoice], { type: 'application/pdf' }), 'invoice.pdf');
    const uploaded = (await (
      await fetchOk(
        `${base}/fileupload/v2/multipart`,
        { method: 'POST', headers: { authorization: resultAuth! }, body: form },
        'upload',
      )
    ).json()) as { fileId: string };
    await fetchOk(
      `${base}/workflows/svc.extract/jobs`,
      {
        method: 'POST',
        headers: { authorization: resultAuth!, 'content-type': 'application/json' },
        body: JSON.stringify({ inputs: { file_id: uploaded.fileId, product_ids: HTTP_PRODUCTS } }),
      },
      'invoke',
    );
    const resultPath = `/result/final/${uploaded.fileId}`;
    const waited = (await (
      await fetchOk(
        `${base}${resultPath}?timeout=60000`,
        { headers: { authorization: resultAuth! } },
        'result',
      )
    ).json()) as { status: string };
    if (waited.status !== 'FINALISED') throw new Error(`bench http: the result is ${waited.status}`);
    const resultBytes = new Uint8Array(
      await (
        await fetchOk(`${base}${resultPath}`, { headers: { authorization: resultAuth! } }, 'result')
      ).arrayBuffer(),
    );
    const resultFields = (
      JSON.parse(new TextDecoder().decode(resultBytes)) as ResultRecord & {
        results: { fields: unknown[] };
      }
    ).results.fields.length;
    const bareResult = bareJsonServer(resultBytes);
    servers.push(bareResult);
    const barePort = await listen(bareResult);
    log(
      `\n   result endpoint: GET ${resultPath.replace(uploaded.fileId, '{fileId}')} of a ${PAGES_PER_DOC}-page invoice,` +
        ` extracted once (${HTTP_PRODUCTS.join(', ')}: ${resultFields} fields, FINALISED), ${resultBytes.byteLength} bytes of JSON;` +
        ` ${HTTP_RESULT_CONCURRENCY} concurrent requests; bare: node:http answering those bytes (no token check)`,
    );
    const resultSpec = (p: number, headers: Record<string, string>): LoadSpec => ({
      port: p,
      method: 'GET',
      path: resultPath,
      headers,
      concurrency: HTTP_RESULT_CONCURRENCY,
      seconds: HTTP_ROUND_SECONDS,
      expectStatus: 200,
      expectBytes: resultBytes.byteLength,
    });
    const resultRuns = await httpRounds(client, [
      { name: 'docex', spec: resultSpec(port, { authorization: resultAuth! }) },
      { name: 'bare', spec: resultSpec(barePort, { authorization: resultAuth! }) },
    ]);
    const resultOurs = httpSummary(resultRuns.get('docex')!);
    const resultBare = httpSummary(resultRuns.get('bare')!);

    // Where a result request's server time goes: the layers called in this process, no sockets.
    const verifier = new TokenService({ secret });
    const resultUrl = `${base}${resultPath}`;
    const getResult = await measureAsync(
      () => engine.getResult(uploaded.fileId, { accountId: accounts.result }),
      HTTP_RESULT_CONCURRENCY,
      HTTP_LAYER_SECONDS,
      { onStart: () => Object.values(timed.times).forEach((t) => Object.assign(t, { calls: 0, ms: 0 })) },
    );
    // Share of the thread's time in each persistence call while getResult ran (the memory persistence
    // does its work before returning its promise, so call-to-return is its cost).
    const persistenceShare = Object.fromEntries(
      Object.entries(timed.times)
        .filter(([, t]) => t.calls > 0)
        .map(([name, t]) => [name, t.ms / 1000 / getResult.seconds]),
    );
    const resultObject = JSON.parse(new TextDecoder().decode(resultBytes)) as unknown;
    const stringify = measureRate(() => JSON.stringify(resultObject).length, {
      roundSeconds: 0.1,
      rounds: 3,
      warmupSeconds: 0.1,
    });
    const layers = {
      getResult,
      verifyToken: await measureAsync(
        () => verifier.verify(resultAuth!),
        HTTP_RESULT_CONCURRENCY,
        HTTP_LAYER_SECONDS,
      ),
      handler: await measureAsync(
        async () => {
          const response = await handler(new Request(resultUrl, { headers: { authorization: resultAuth! } }));
          return response.arrayBuffer();
        },
        HTTP_RESULT_CONCURRENCY,
        HTTP_LAYER_SECONDS,
      ),
    };
    const resultRatio = resultOurs.requestsPerSecond / resultBare.requestsPerSecond;
    log(httpLine('docex', resultOurs, 'req/s', resultOurs.requestsPerSecond));
    log(httpLine('bare', resultBare, 'req/s', resultBare.requestsPerSecond));
    log(`   ratio docex/bare = ${fmt(resultRatio)}`);
    const adapterUs = resultOurs.serverCpuUsPerRequest - layers.handler.cpuUsPerCall;
    const persistenceText = Object.entries(persistenceShare)
      .map(([name, share]) => `${name} ${fmt(share * 100, '%')}`)
      .join(', ');
    log(
      `   where the server's time goes (CPU per request; the layers timed alone in this process, ${HTTP_RESULT_CONCURRENCY} deep):` +
        ` engine.getResult ${fmt(layers.getResult.cpuUsPerCall, 'us')} (its time in persistence calls: ${persistenceText});` +
        ` token check (jose HS256) ${fmt(layers.verifyToken.cpuUsPerCall, 'us')}; JSON.stringify of the answer ${fmt(1e6 / stringify.perSecond, 'us')};` +
        ` whole fetch handler ${fmt(layers.handler.cpuUsPerCall, 'us')}; node listener + node:http + sockets ${fmt(adapterUs, 'us')}` +
        ` (bare node:http in all: ${fmt(resultBare.serverCpuUsPerRequest, 'us')})`,
    );

    // --- Upload throughput ---
    const bigPdf = await makeLargePdf(HTTP_UPLOAD_PAGES, HTTP_UPLOAD_PX[0], HTTP_UPLOAD_PX[1]);
    const bigForm = multipartBody('file', 'scanned.pdf', bigPdf);
    const bodyFile = path.join(dir, 'upload.multipart');
    await writeFile(bodyFile, bigForm.body);
    const limits = engine.getAccount(accounts.upload).limits;
    if (bigPdf.byteLength > limits.maxFileBytes || HTTP_UPLOAD_PAGES > limits.maxPages) {
      throw new Error('bench http: the upload PDF is over the account limits');
    }
    const discard = bareUploadServer('none');
    const parsing = bareUploadServer('busboy');
    servers.push(discard.server, parsing.server);
    const discardPort = await listen(discard.server);
    const parsingPort = await listen(parsing.server);
    const clearUploads = async (): Promise<void> => {
      for (const f of await engine.listFiles({ accountId: accounts.upload })) {
        await engine.deleteFile(f.fileId, { accountId: accounts.upload });
      }
    };
    log(
      `\n   upload: POST /fileupload/v2/multipart of a ${HTTP_UPLOAD_PAGES}-page PDF, ${fmt(bigPdf.byteLength / 1e6, 'MB')}` +
        ` (each page a ${HTTP_UPLOAD_PX[0]} x ${HTTP_UPLOAD_PX[1]} greyscale noise image under an invoice's text),` +
        ` ${bigForm.body.byteLength} bytes a request; ${HTTP_UPLOAD_CONCURRENCY} concurrent uploads; MB/s = 10^6 bytes of PDF/s;` +
        ` bare: node:http reading the body and dropping it, and node:http + busboy gathering the file part`,
    );
    const uploadSpec = (p: number, headers: Record<string, string>): LoadSpec => ({
      port: p,
      method: 'POST',
      path: '/fileupload/v2/multipart',
      headers: { ...headers, 'content-type': bigForm.contentType },
      bodyFile,
      concurrency: HTTP_UPLOAD_CONCURRENCY,
      seconds: HTTP_ROUND_SECONDS,
      expectStatus: 200,
    });
    const uploadRuns = await httpRounds(client, [
      { name: 'docex', spec: uploadSpec(port, { authorization: uploadAuth! }), after: clearUploads },
      { name: 'bare', spec: uploadSpec(discardPort, {}) },
      { name: 'busboy', spec: uploadSpec(parsingPort, {}) },
    ]);
    const uploadOurs = httpSummary(uploadRuns.get('docex')!, bigPdf.byteLength);
    const uploadBare = httpSummary(uploadRuns.get('bare')!, bigPdf.byteLength);
    const uploadBusboy = httpSummary(uploadRuns.get('busboy')!, bigPdf.byteLength);
    const pdfReader = createPdfjsReader();
    const uploadLayers = {
      uploadV2: await measureAsync(
        () => engine.uploadV2(bigPdf, { accountId: accounts.upload }),
        HTTP_UPLOAD_CONCURRENCY,
        HTTP_LAYER_SECONDS,
      ),
      pageCount: await measureAsync(
        async () => {
          const doc = await pdfReader.open(bigPdf);
          const pages = doc.pageCount;
          await doc.close();
          return pages;
        },
        HTTP_UPLOAD_CONCURRENCY,
        HTTP_LAYER_SECONDS,
      ),
      multipart: await measureAsync(
        () =>
          readMultipart(
            new Request(`${base}/fileupload/v2/multipart`, {
              method: 'POST',
              headers: { 'content-type': bigForm.contentType },
              body: bigForm.body,
            }),
            { fileFields: ['file'], maxFileBytes: limits.maxFileBytes },
          ),
        HTTP_UPLOAD_CONCURRENCY,
        HTTP_LAYER_SECONDS,
      ),
    };
    await clearUploads();
    const uploadUrl = `${base}/fileupload/v2/multipart`;
    const uploadHandler = await measureAsync(
      async () => {
        const response = await handler(
          new Request(uploadUrl, {
            method: 'POST',
            headers: { authorization: uploadAuth!, 'content-type': bigForm.contentType },
            body: bigForm.body,
          }),
        );
        if (response.status !== 200) throw new Error(`bench http: handler upload: ${await response.text()}`);
        return response.arrayBuffer();
      },
      HTTP_UPLOAD_CONCURRENCY,
      HTTP_LAYER_SECONDS,
    );
    await clearUploads();
    const uploadRatio = uploadOurs.mbPerSecond! / uploadBare.mbPerSecond!;
    const busboyRatio = uploadOurs.mbPerSecond! / uploadBusboy.mbPerSecond!;
    const perSecond = (s: HttpSummary): string => `, ${fmt(s.requestsPerSecond, 'uploads/s')}`;
    log(httpLine('docex', uploadOurs, 'MB/s', uploadOurs.mbPerSecond!, perSecond(uploadOurs)));
    log(httpLine('bare', uploadBare, 'MB/s', uploadBare.mbPerSecond!, perSecond(uploadBare)));
    log(httpLine('busboy', uploadBusboy, 'MB/s', uploadBusboy.mbPerSecond!, perSecond(uploadBusboy)));
    log(`   ratio docex/bare = ${fmt(uploadRatio)}, docex/busboy = ${fmt(busboyRatio)}`);
    log(
      `   where the server's time goes (CPU per upload; timed alone in this process, ${HTTP_UPLOAD_CONCURRENCY} deep):` +
        ` readMultipart (busboy) ${fmt(uploadLayers.multipart.cpuUsPerCall, 'us')};` +
        ` engine.uploadV2 ${fmt(uploadLayers.uploadV2.cpuUsPerCall, 'us')} (of which the page count with pdf.js ${fmt(uploadLayers.pageCount.cpuUsPerCall, 'us')});` +
        ` whole fetch handler (token, both) ${fmt(uploadHandler.cpuUsPerCall, 'us')};` +
        ` over HTTP ${fmt(uploadOurs.serverCpuUsPerRequest, 'us')} (bare ${fmt(uploadBare.serverCpuUsPerRequest, 'us')},` +
        ` busboy ${fmt(uploadBusboy.serverCpuUsPerRequest, 'us')})`,
    );

    // --- Load test ---
    log(
      `\n   load test: ${HTTP_LOAD_UPLOADS} unique one-page invoices uploaded at once (one connection each), each then` +
        ` POST /workflows/svc.extract/jobs and GET /result/final/{fileId}?timeout=${HTTP_LOAD_TIMEOUT_MS}` +
        ` (jobs: { concurrency: 4 }, the default)`,
    );
    const finalStatus = new Map<string, string>();
    const unsubscribe = engine.on('job', ({ accountId, job }) => {
      if (accountId === accounts.load && job.workflow_id === 'svc.extract')
        finalStatus.set(job.id, job.status);
    });
    let load: UploadsResult;
    try {
      load = await client.uploads(
        {
          port,
          authorization: loadAuth!,
          count: HTTP_LOAD_UPLOADS,
          workflowId: 'svc.extract',
          productIds: HTTP_PRODUCTS,
          resultTimeoutMs: HTTP_LOAD_TIMEOUT_MS,
        },
        HTTP_LOAD_TIMEOUT_MS + 60_000,
      );
    } finally {
      unsubscribe();
    }
    const loadTest = await checkLoadTest(engine, accounts.load, load, finalStatus);
    log(
      `   ${loadTest.ok ? 'nothing lost' : 'FAILED'}: ${loadTest.uploadsOk}/${HTTP_LOAD_UPLOADS} uploads answered 200,` +
        ` ${loadTest.distinctFileIds} distinct fileIds, ${loadTest.storedFiles} files in engine.listFiles() (${loadTest.sizesMatching} of the sent size),` +
        ` ${loadTest.invokesOk} invokes 200, ${loadTest.jobsSucceeded} jobs succeeded (${loadTest.jobsFailed} failed, events: ${loadTest.succeededEvents} succeeded),` +
        ` ${loadTest.finalised} results FINALISED, ${loadTest.httpErrors} HTTP errors`,
    );
    log(
      `   time: ${fmt(load.seconds, 's')} from the first upload to the last result = ${fmt(HTTP_LOAD_UPLOADS / load.seconds, 'documents/s')};` +
        ` last upload answered at ${fmt(load.lastUploadSeconds, 's')}, last invoke at ${fmt(load.lastInvokeSeconds, 's')};` +
        ` ${load.sockets} connections; ${fmt(loadTest.meanKib, 'KiB')} a PDF (made in ${fmt(load.makeSeconds, 's')} beforehand);` +
        ` fields per result ${loadTest.fieldsRange}; upload latency p50 ${fmt(loadTest.uploadLatencyMs.p50, 'ms')},` +
        ` p99 ${fmt(loadTest.uploadLatencyMs.p99, 'ms')}`,
    );
    for (const problem of loadTest.problems.slice(0, 10)) log(`     problem: ${problem}`);
    return {
      server: 'createFetchHandler + createNodeListener, node:http, 127.0.0.1',
      client: 'child process, node:http keep-alive agent, one socket per concurrent request',
      rounds: HTTP_ROUNDS,
      roundSeconds: HTTP_ROUND_SECONDS,
      warmupSeconds: HTTP_WARMUP_SECONDS,
      result: {
        concurrency: HTTP_RESULT_CONCURRENCY,
        bodyBytes: resultBytes.byteLength,
        fields: resultFields,
        docex: resultOurs,
        baseline: { kind: 'bare node:http, the same bytes', ...resultBare },
        ratio: resultRatio,
        inProcessCpuUsPerCall: {
          getResult: layers.getResult.cpuUsPerCall,
          verifyToken: layers.verifyToken.cpuUsPerCall,
          fetchHandler: layers.handler.cpuUsPerCall,
          nodeListenerAndHttp: adapterUs,
          jsonStringify: 1e6 / stringify.perSecond,
          getResultPersistenceShare: persistenceShare,
        },
        inProcessCallsPerSecond: {
          getResult: layers.getResult.perSecond,
          verifyToken: layers.verifyToken.perSecond,
          fetchHandler: layers.handler.perSecond,
        },
      },
      upload: {
        concurrency: HTTP_UPLOAD_CONCURRENCY,
        pdfBytes: bigPdf.byteLength,
        pages: HTTP_UPLOAD_PAGES,
        requestBytes: bigForm.body.byteLength,
        docex: uploadOurs,
        baseline: { kind: 'bare node:http reading the body', ...uploadBare },
        busboyBaseline: { kind: 'bare node:http + busboy', ...uploadBusboy },
        ratio: uploadRatio,
        busboyRatio,
        inProcessCpuUsPerCall: {
          readMultipart: uploadLayers.multipart.cpuUsPerCall,
          uploadV2: uploadLayers.uploadV2.cpuUsPerCall,
          pageCount: uploadLayers.pageCount.cpuUsPerCall,
          fetchHandler: uploadHandler.cpuUsPerCall,
        },
        inProcessMbPerSecond: {
          uploadV2: (uploadLayers.uploadV2.perSecond * bigPdf.byteLength) / 1e6,
          fetchHandler: (uploadHandler.perSecond * bigPdf.byteLength) / 1e6,
        },
      },
      loadTest: {
        ...loadTest,
        uploads: HTTP_LOAD_UPLOADS,
        seconds: load.seconds,
        documentsPerSecond: HTTP_LOAD_UPLOADS / load.seconds,
        lastUploadSeconds: load.lastUploadSeconds,
        lastInvokeSeconds: load.lastInvokeSeconds,
        connections: load.sockets,
        makeSeconds: load.makeSeconds,
        clientCpuSeconds: load.clientCpuSeconds,
      },
    };
  } finally {
    await client?.close();
    await Promise.all(servers.map(closeServer));
    await engine.close();
  }
}

/** Everything the load test must show: each document uploaded, stored, extracted and answered once. */
async function checkLoadTest(
  engine: Engine,
  accountId: string,
  load: UploadsResult,
  finalStatus: Map<string, string>,
) {
  const problems: string[] = [];
  const outcomes = load.outcomes;
  for (const o of outcomes) if (o.error) problems.push(`document ${o.index}: ${o.error}`);
  const fileIds = new Set(outcomes.flatMap((o) => (o.fileId ? [o.fileId] : [])));
  const jobIds = new Set(outcomes.flatMap((o) => (o.jobId ? [o.jobId] : [])));
  const stored = await engine.listFiles({ accountId });
  const storedById = new Map(stored.map((f) => [f.fileId, f]));
  const sizesMatching = outcomes.filter((o) => o.fileId && storedById.get(o.fileId)?.size === o.bytes).length;
  const jobs = await engine.listJobs({ accountId });
  const succeeded = jobs.filter((j) => j.status === 'succeeded' && jobIds.has(j.id)).length;
  const failed = jobs.filter((j) => j.status === 'failed').length;
  const succeededEvents = [...finalStatus.values()].filter((s) => s === 'succeeded').length;
  const count = (pick: (o: UploadOutcome) => boolean): number => outcomes.filter(pick).length;
  const check = {
    uploadsOk: count((o) => o.uploadStatus === 200),
    distinctFileIds: fileIds.size,
    storedFiles: stored.length,
    sizesMatching,
    invokesOk: count((o) => o.invokeStatus === 200),
    distinctJobIds: jobIds.size,
    jobsSucceeded: succeeded,
    jobsFailed: failed,
    jobsOther: jobs.length - succeeded - failed,
    succeededEvents,
    finalised: count((o) => o.resultState === 'FINALISED'),
    httpErrors: count(
      (o) =>
        (o.uploadStatus ?? 200) !== 200 || (o.invokeStatus ?? 200) !== 200 || (o.resultStatus ?? 200) !== 200,
    ),
  };
  const want = HTTP_LOAD_UPLOADS;
  const expectations: Array<[keyof typeof check, number]> = [
    ['uploadsOk', want],
    ['distinctFileIds', want],
    ['storedFiles', want],
    ['sizesMatching', want],
    ['invokesOk', want],
    ['distinctJobIds', want],
    ['jobsSucceeded', want],
    ['jobsFailed', 0],
    ['jobsOther', 0],
    ['succeededEvents', want],
    ['finalised', want],
    ['httpErrors', 0],
  ];
  for (const [key, value] of expectations) {
    if (check[key] !== value) problems.push(`${key} is ${check[key]}, expected ${value}`);
  }
  const missing = [...fileIds].filter((id) => !storedById.has(id));
  if (missing.length > 0) problems.push(`${missing.length} uploaded fileIds not in listFiles()`);
  const fields = outcomes.map((o) => o.fields ?? 0);
  return {
    ok: problems.length === 0,
    ...check,
    problems,
    meanKib: outcomes.reduce((a, o) => a + o.bytes, 0) / outcomes.length / 1024,
    fieldsRange: `${Math.min(...fields)}-${Math.max(...fields)}`,
    uploadLatencyMs: summarize(outcomes.flatMap((o) => (o.uploadedMs === undefined ? [] : [o.uploadedMs]))),
  };
}

// ---------------------------------------------------------------------------------------------------
// 7. Split

type CallMs = Record<string, { calls: number; ms: number }>;

/** Calls and summed milliseconds of each timed method (the spans left out). */
function callMs(...timings: Timings[]): CallMs {
  const out: CallMs = {};
  for (const t of timings) {
    for (const [name, v] of Object.entries(t)) if (v.calls > 0) out[name] = { calls: v.calls, ms: v.ms };
  }
  return out;
}

const msOf = (calls: CallMs, name: string): number => calls[name]?.ms ?? 0;

function describeCalls(calls: CallMs): string {
  const parts = Object.entries(calls).map(([name, v]) => `${name} ${fmt(v.ms, 'ms')} (${v.calls})`);
  return parts.length === 0 ? 'none' : parts.join(', ');
}

function scoreLine(score: SplitScore): string {
  return (
    `${score.children} children for ${score.documents} documents: exactly right ${yesNo(score.exact)};` +
    ` boundary precision ${fmt(score.precision)}, recall ${fmt(score.recall)}, F1 ${fmt(score.f1)}` +
    (score.missed.length > 0 ? `; missed starts at pages ${score.missed.join(', ')}` : '') +
    (score.extra.length > 0 ? `; wrong cuts at pages ${score.extra.join(', ')}` : '')
  );
}

/** The engine's split features and plan of a token layer, timed alone (median of `rounds`). */
function featuresAlone(engine: Engine, layer: TokenLayer, rounds: number) {
  const fields = engine.catalogue.fieldsets().flatMap((f) => f.fields);
  const featureMs: number[] = [];
  const planMs: number[] = [];
  const sliceMs: number[] = [];
  for (let r = 0; r < rounds; r++) {
    const s = performance.now();
    for (const page of layer.pages) sliceTokenLayer(layer, page.pageNum, page.pageNum, layer.fileId);
    sliceMs.push(performance.now() - s);
    const a = performance.now();
    const features = pageFeatures(layer, fields);
    const b = performance.now();
    planSplit(features);
    planMs.push(performance.now() - b);
    featureMs.push(b - a);
  }
  return { featuresMs: median(featureMs), planMs: median(planMs), sliceMs: median(sliceMs) };
}

/** Where the split phase (decisions and children, on an ingested file) spends its time. */
function splitPhaseParts(run: SplitRun, alone: ReturnType<typeof featuresAlone>, calls: CallMs) {
  const copyMs = msOf(calls, 'copyPages');
  const childPdfOpenMs = msOf(calls, 'open');
  return {
    wallMs: run.seconds * 1000,
    queuedMs: run.queuedMs,
    jobRunMs: run.runMs,
    resultMs: run.resultMs,
    featuresMsAlone: alone.featuresMs,
    /** Of the features: each page's slice of the token layer (the rest is extractFields on it). */
    pageSlicesMsAlone: alone.sliceMs,
    planMsAlone: alone.planMs,
    copyPagesMs: copyMs,
    /** Uploading each child counts its pages: pdfjs opens it. */
    childPdfOpenMs,
    otherMs: run.runMs - alone.featuresMs - alone.planMs - copyMs - childPdfOpenMs,
  };
}

function logSplitParts(parts: ReturnType<typeof splitPhaseParts>, pages: number, children: number): void {
  log(
    `               split phase ${fmt(parts.wallMs, 'ms')}: queue ${fmt(parts.queuedMs, 'ms')}, job ${fmt(parts.jobRunMs, 'ms')},` +
      ` verbose result read ${fmt(parts.resultMs, 'ms')}; in the job: page features ${fmt(parts.featuresMsAlone, 'ms')}` +
      ` (${fmt(parts.featuresMsAlone / pages, 'ms/page')}, timed alone: slicing each page's token layer` +
      ` ${fmt(parts.pageSlicesMsAlone, 'ms')}, the rest extractFields of 8 cue fields on each page),` +
      ` decisions ${fmt(parts.planMsAlone, 'ms')}, copying ${children} child PDFs (pdf-lib) ${fmt(parts.copyPagesMs, 'ms')},` +
      ` pdfjs opening each child to count its pages ${fmt(parts.childPdfOpenMs, 'ms')},` +
      ` the rest (child uploads, token layers sliced and stored, stored layer read) ${fmt(parts.otherMs, 'ms')}`,
  );
}

async function pdftotextRound(file: string, out: string): Promise<number> {
  const { seconds } = await timed(() => run('pdftotext', ['-bbox-layout', file, out]));
  return seconds;
}

async function splitTextCase(dir: string) {
  const counts = pageCountsSumming(SPLIT_SEED, SPLIT_TEXT_DOCS, SPLIT_TEXT_PAGES);
  const multi = await makeMultiDocument({
    seed: SPLIT_SEED,
    pageCounts: counts,
    pageMarks: SPLIT_PAGE_MARKS,
  });
  const pages = multi.pages.length;
  const file = path.join(dir, `text-${pages}.pdf`);
  await writeFile(file, multi.pdf);
  log(
    `   (1) text PDF: ${pages} pages, ${multi.segments.length} invoices of 1-4 pages (${multi.marked} with printed page` +
      ` numbers), ${fmt(multi.pdf.byteLength / 1024, 'KiB')}; ${SPLIT_TEXT_ROUNDS} rounds after a warm-up round, figures are medians`,
  );
  log(
    '       each round: upload (not timed), invoke -> verbose result (end to end); then a second upload,' +
      ' engine.ingest (ingestion), invoke -> result (split phase); then pdftotext -bbox-layout of the file',
  );
  const reader = timedPdfReader(createPdfjsReader());
  const copier = timedCopier(createPdfLibCopier());
  const engine = createEngine({ limits: SPLIT_LIMITS, pdf: reader.reader, pdfPages: copier.copier });
  const pdftotextMissing = missingTool('pdftotext', ['-v']);
  let baselineError: string | undefined;
  const out = path.join(dir, 'text.html');
  const rounds: Array<{
    endToEnd: SplitRun;
    endToEndCalls: CallMs;
    ingestSeconds: number;
    ingestCalls: CallMs;
    split: SplitRun;
    splitCalls: CallMs;
    parts: ReturnType<typeof splitPhaseParts>;
    tokens: number;
    pdftotextSeconds?: number;
  }> = [];
  try {
    // Warm-up: the same file both ways through the engine (a smaller one left the first measured
    // round at half speed: code not yet optimised), and pdftotext once.
    await runSplit(engine, (await engine.uploadV2(multi.pdf)).fileId, SPLIT_TIMEOUT_MS);
    const warmId = (await engine.uploadV2(multi.pdf)).fileId;
    await engine.ingest(warmId);
    await runSplit(engine, warmId, SPLIT_TIMEOUT_MS);
    if (!pdftotextMissing) {
      await pdftotextRound(file, out).catch((error: Error) => {
        baselineError = `pdftotext failed: ${error.message}`;
      });
    }
    for (let r = 0; r < SPLIT_TEXT_ROUNDS; r++) {
      const whole = await engine.uploadV2(multi.pdf);
      resetTimings(reader.timings);
      resetTimings(copier.timings);
      const endToEnd = await runSplit(engine, whole.fileId, SPLIT_TIMEOUT_MS);
      const endToEndCalls = callMs(reader.timings, copier.timings);

      const parted = await engine.uploadV2(multi.pdf);
      resetTimings(reader.timings);
      resetTimings(copier.timings);
      const ingest = await timed(() => engine.ingest(parted.fileId));
      const ingestCalls = callMs(reader.timings);
      resetTimings(reader.timings);
      const split = await runSplit(engine, parted.fileId, SPLIT_TIMEOUT_MS);
      const splitCalls = callMs(reader.timings, copier.timings);
      const parts = splitPhaseParts(split, featuresAlone(engine, ingest.value, 3), splitCalls);
      const round: (typeof rounds)[number] = {
        endToEnd,
        endToEndCalls,
        ingestSeconds: ingest.seconds,
        ingestCalls,
        split,
        splitCalls,
        parts,
        tokens: ingest.value.tokens.length,
      };
      if (!pdftotextMissing && !baselineError) {
        try {
          round.pdftotextSeconds = await pdftotextRound(file, out);
        } catch (error) {
          baselineError = `pdftotext failed: ${(error as Error).message}`;
        }
      }
      rounds.push(round);
    }
  } finally {
    await engine.close();
  }

  const pick = (value: (r: (typeof rounds)[number]) => number) => {
    const sorted = [...rounds].sort((a, b) => value(a) - value(b));
    return sorted[Math.floor(sorted.length / 2)]!;
  };
  const e2eRound = pick((r) => r.endToEnd.seconds);
  const ingestRound = pick((r) => r.ingestSeconds);
  const splitRound = pick((r) => r.split.seconds);
  const found = (run: SplitRun) => run.children.map((c) => c.pages);
  const score = scoreSplit(multi.segments, found(e2eRound.endToEnd));
  // Every run must find the same children (the split is deterministic).
  const consistent = rounds.every(
    (r) =>
      JSON.stringify(found(r.endToEnd)) === JSON.stringify(found(e2eRound.endToEnd)) &&
      JSON.stringify(found(r.split)) === JSON.stringify(found(e2eRound.endToEnd)),
  );
  const wrong = wrongDecisions(multi.segments, e2eRound.endToEnd.decisions);
  const endToEnd = measured(e2eRound.endToEnd.seconds, pages);
  const ingestion = measured(ingestRound.ingestSeconds, pages);
  const splitPhase = measured(splitRound.split.seconds, pages);
  const e2eParts = e2eRound.endToEnd;
  log(
    `   docex     : end to end ${fmt(endToEnd.seconds, 's')} = ${fmt(endToEnd.pagesPerSecond, 'pages/s')}` +
      ` (rounds: ${rounds.map((r) => fmt(pages / r.endToEnd.seconds)).join(', ')};` +
      ` queue ${fmt(e2eParts.queuedMs, 'ms')}, job ${fmt(e2eParts.runMs, 'ms')}, result read ${fmt(e2eParts.resultMs, 'ms')})`,
  );
  log(
    `               ingestion ${fmt(ingestion.seconds, 's')} = ${fmt(ingestion.pagesPerSecond, 'pages/s')}` +
      ` (${ingestRound.tokens} tokens; pdfjs calls summed over ${os.availableParallelism()} pages at a time: ${describeCalls(ingestRound.ingestCalls)})`,
  );
  log(
    `               split on the ingested file ${fmt(splitPhase.seconds, 's')} = ${fmt(splitPhase.pagesPerSecond, 'pages/s')}` +
      ` (rounds: ${rounds.map((r) => fmt(pages / r.split.seconds)).join(', ')})`,
  );
  logSplitParts(splitRound.parts, pages, splitRound.split.children.length);
  log(
    `   split     : ${scoreLine(score)}${consistent ? '' : ' (NOTE: the rounds did not all find the same children)'}`,
  );
  for (const line of wrong.slice(0, 10)) log(`               ${line}`);

  let baseline: Baseline;
  const reason = pdftotextMissing ?? baselineError;
  if (reason) {
    baseline = { ok: false, reason };
    log(`   pdftotext : ${na(reason)}`);
  } else {
    const seconds = rounds.map((r) => r.pdftotextSeconds!);
    const html = await readFile(out, 'utf8');
    const words = [...html.matchAll(/<word [^>]*>/g)].length;
    const tool = toolVersion('pdftotext', ['-v']);
    baseline = {
      ok: true,
      ...measured(median(seconds), pages),
      rounds: seconds.map((s) => pages / s),
      words,
      tool,
    };
    log(
      `   pdftotext : -bbox-layout, ${pages} pages in ${fmt(baseline.seconds, 's')} = ${fmt(baseline.pagesPerSecond, 'pages/s')}` +
        ` (rounds: ${seconds.map((s) => fmt(pages / s)).join(', ')}; ${words} words; ${tool})`,
    );
  }
  const ratio = baseline.ok ? endToEnd.pagesPerSecond / baseline.pagesPerSecond : undefined;
  const ingestRatio = baseline.ok ? ingestion.pagesPerSecond / baseline.pagesPerSecond : undefined;
  if (ratio !== undefined && ingestRatio !== undefined) {
    log(`   ratio docex/pdftotext: end to end ${small(ratio)}, ingestion alone ${small(ingestRatio)}`);
  }
  return {
    pages,
    documents: multi.segments.length,
    markedDocuments: multi.marked,
    pdfBytes: multi.pdf.byteLength,
    pageCounts: counts,
    rounds: SPLIT_TEXT_ROUNDS,
    endToEnd: {
      ...endToEnd,
      rounds: rounds.map((r) => pages / r.endToEnd.seconds),
      queuedMs: e2eParts.queuedMs,
      jobRunMs: e2eParts.runMs,
      resultMs: e2eParts.resultMs,
      usage: e2eParts.usage,
      adapterCalls: e2eRound.endToEndCalls,
    },
    ingestion: {
      ...ingestion,
      rounds: rounds.map((r) => pages / r.ingestSeconds),
      tokens: ingestRound.tokens,
      adapterCalls: ingestRound.ingestCalls,
    },
    splitPhase: {
      ...splitPhase,
      rounds: rounds.map((r) => pages / r.split.seconds),
      breakdownMs: splitRound.parts,
      adapterCalls: splitRound.splitCalls,
    },
    correctness: { ...score, consistentAcrossRounds: consistent, wrongDecisions: wrong },
    truth: multi.segments,
    found: found(e2eRound.endToEnd),
    baseline,
    ratio,
    ingestRatio,
  };
}

/**
 * Native tesseract on the scan's page images (the JPEGs embedded in the PDF): one process per core,
 * one thread each, after one warm-up page. `tessdataDir` chooses the model (default: the system's).
 */
async function nativeScanOcr(
  images: string[],
  outPrefix: string,
  expected: string[],
  slots: number,
  tessdataDir?: string,
): Promise<Baseline> {
  const env = { ...process.env, OMP_THREAD_LIMIT: '1' };
  const args = (image: string, out: string): string[] => [
    image,
    out,
    ...(tessdataDir ? ['--tessdata-dir', tessdataDir] : []),
    '-l',
    'eng',
    '--oem',
    '1',
    '--psm',
    '3',
    '--dpi',
    String(SPLIT_SCAN_DPI),
  ];
  try {
    await run('tesseract', args(images[0]!, `${outPrefix}-warm`), env);
    const outs = images.map((_, i) => `${outPrefix}-${i}`);
    const { seconds } = await timed(() =>
      runPool(
        images.map((f, i) => () => run('tesseract', args(f, outs[i]!), env)),
        slots,
      ),
    );
    const found = await Promise.all(outs.map(async (o) => splitWords(await readFile(`${o}.txt`, 'utf8'))));
    return {
      ok: true,
      ...measured(seconds, images.length),
      processes: slots,
      words: found.flat().length,
      recall: wordRecall(expected, found.flat()),
    };
  } catch (error) {
    return { ok: false, reason: `tesseract failed: ${(error as Error).message}` };
  }
}

/** Both native baselines of the scan: the system's English model, and docex's own (for information). */
async function nativeScanBaselines(dir: string, jpegs: Uint8Array[], expected: string[], slots: number) {
  const tess = nativeTessdata();
  if ('reason' in tess) {
    const missing: Baseline = { ok: false, reason: tess.reason };
    return { baseline: missing, sameModel: missing, tool: undefined, model: undefined };
  }
  const images = await Promise.all(
    jpegs.map(async (bytes, i) => {
      const file = path.join(dir, `scan-page-${String(i + 1).padStart(2, '0')}.jpg`);
      await writeFile(file, bytes);
      return file;
    }),
  );
  const systemModel = path.join(tess.dir, 'eng.traineddata');
  const model = await describeModel(systemModel, `eng from ${debianPackageOf(systemModel) ?? 'the system'}`);
  const baseline = await nativeScanOcr(images, path.join(dir, 'native'), expected, slots);
  const docexTessdata = path.join(dir, 'tessdata-docex');
  await mkdir(docexTessdata);
  await writeFile(
    path.join(docexTessdata, 'eng.traineddata'),
    gunzipSync(await readFile(path.join(englishModelDir(), 'eng.traineddata.gz'))),
  );
  const sameModel = await nativeScanOcr(
    images,
    path.join(dir, 'native-docex-model'),
    expected,
    slots,
    docexTessdata,
  );
  return { baseline, sameModel, tool: toolVersion('tesseract', ['--version']), model: model.description };
}

async function splitScannedCase(dir: string) {
  const seed = SPLIT_SEED + 2;
  const counts = pageCountsSumming(seed, SPLIT_SCAN_DOCS, SPLIT_SCAN_PAGES);
  const multi = await makeMultiDocument({ seed, pageCounts: counts, pageMarks: SPLIT_PAGE_MARKS });
  const made = await timed(() => makeScannedMulti(multi, SPLIT_SCAN_DPI));
  const scan = made.value;
  const warm = await makeScannedMulti(
    await makeMultiDocument({ seed: seed + 1, pageCounts: [1, 1], pageMarks: SPLIT_PAGE_MARKS }),
    SPLIT_SCAN_DPI,
  );
  const pages = multi.pages.length;
  const cores = os.availableParallelism();
  const expected = multi.pages.flatMap((p) => p.lines.flatMap((l) => splitWords(l.text)));
  log(
    `   (2) scanned PDF: ${pages} pages, ${multi.segments.length} invoices (${multi.marked} with printed page numbers),` +
      ` each page rendered at ${SPLIT_SCAN_DPI} dpi and embedded as a JPEG (${scan.encoder}, quality 92):` +
      ` ${fmt(scan.pdf.byteLength / 1024 / 1024, 'MiB')} (made in ${fmt(made.seconds, 's')})`,
  );
  log(
    `       engine with the default OCR pool (${cores} tesseract.js workers, one per core), warmed by splitting a 2-page scan;` +
      ' one measured run: upload (not timed), invoke -> verbose result; then svc.split again on the same (now ingested) file',
  );
  const ocr = timedOcr(createTesseractOcr());
  const reader = timedPdfReader(createPdfjsReader());
  const copier = timedCopier(createPdfLibCopier());
  const engine = createEngine({
    limits: SPLIT_LIMITS,
    ocr: ocr.ocr,
    pdf: reader.reader,
    pdfPages: copier.copier,
  });
  let warmSeconds: number;
  let endToEnd: SplitRun;
  let again: SplitRun;
  let calls: CallMs;
  let readerCalls: CallMs;
  let againCalls: CallMs;
  let ocrCoveredMs: number;
  let recognizeCalls: number;
  let megapixelsPerCall: number;
  let layer: TokenLayer;
  let alone: ReturnType<typeof featuresAlone>;
  try {
    const warmUp = await timed(async () =>
      runSplit(engine, (await engine.uploadV2(warm.pdf)).fileId, SPLIT_TIMEOUT_MS),
    );
    warmSeconds = warmUp.seconds;
    const { fileId } = await engine.uploadV2(scan.pdf);
    resetTimings(ocr.timings);
    resetTimings(reader.timings);
    resetTimings(copier.timings);
    ocr.pixels.count = 0;
    endToEnd = await runSplit(engine, fileId, SPLIT_TIMEOUT_MS);
    calls = callMs(ocr.timings, reader.timings, copier.timings);
    readerCalls = callMs(reader.timings);
    ocrCoveredMs = coveredMs(ocr.timings.recognize!.spans, endToEnd.start, endToEnd.end);
    recognizeCalls = ocr.timings.recognize!.calls;
    megapixelsPerCall = recognizeCalls === 0 ? 0 : ocr.pixels.count / recognizeCalls / 1e6;
    layer = (await engine.getTokenLayer(fileId))!;
    resetTimings(ocr.timings);
    resetTimings(reader.timings);
    resetTimings(copier.timings);
    again = await runSplit(engine, fileId, SPLIT_TIMEOUT_MS);
    againCalls = callMs(ocr.timings, reader.timings, copier.timings);
    alone = featuresAlone(engine, layer, 3);
  } finally {
    await engine.close();
  }

  const found = endToEnd.children.map((c) => c.pages);
  const score = scoreSplit(multi.segments, found);
  const consistent = JSON.stringify(again.children.map((c) => c.pages)) === JSON.stringify(found);
  const wrong = wrongDecisions(multi.segments, endToEnd.decisions);
  const words = layer.tokens.map((t) => t.text);
  const recall = wordRecall(expected, words);
  const sources = [...new Set(layer.pages.map((p) => p.source))].join(', ');
  const ours = measured(endToEnd.seconds, pages);
  const wallMs = endToEnd.seconds * 1000;
  const ocrBusyMs = msOf(calls, 'recognize');
  const splitParts = splitPhaseParts(again, alone, againCalls);
  const ingestEstimateMs = wallMs - splitParts.wallMs;
  log(
    `   docex     : end to end ${fmt(ours.seconds, 's')} = ${fmt(ours.pagesPerSecond, 'pages/s')}` +
      ` (queue ${fmt(endToEnd.queuedMs, 'ms')}, job ${fmt(endToEnd.runMs, 'ms')}, result read ${fmt(endToEnd.resultMs, 'ms')});` +
      ` warm-up split (workers starting) ${fmt(warmSeconds, 's')}`,
  );
  log(
    `               OCR: ${recognizeCalls} recognize calls for ${pages} pages (${fmt(megapixelsPerCall, 'MP')} each on average),` +
      ` running ${fmt(ocrCoveredMs / 1000, 's')} of the ${fmt(ours.seconds, 's')} = ${fmt((ocrCoveredMs / wallMs) * 100, '%')} of the time` +
      ` (busy summed over workers ${fmt(ocrBusyMs / 1000, 's')} = ${fmt((ocrBusyMs / (cores * wallMs)) * 100, '%')} of ${cores} workers' time)`,
  );
  log(`               pdfjs calls summed (${cores} pages at a time): ${describeCalls(readerCalls)}`);
  log(
    `               ingestion (end to end less the split phase) about ${fmt(ingestEstimateMs / 1000, 's')};` +
      ` ${layer.tokens.length} tokens, ${fmt(recall * 100, '%')} of printed words; page source: ${sources}`,
  );
  log(
    `               split again on the ingested file ${fmt(splitParts.wallMs, 'ms')} = ${fmt(pages / (splitParts.wallMs / 1000), 'pages/s')}`,
  );
  logSplitParts(splitParts, pages, again.children.length);
  log(
    `   split     : ${scoreLine(score)}${consistent ? '' : ' (NOTE: the second split found other children)'}`,
  );
  for (const line of wrong.slice(0, 10)) log(`               ${line}`);

  const native = await nativeScanBaselines(dir, scan.jpegs, expected, cores);
  const { baseline, sameModel } = native;
  const nativeLine = (label: string, b: Baseline): void => {
    if (!b.ok) {
      log(`   ${label}: ${na(b.reason)}`);
      return;
    }
    log(
      `   ${label}: ${pages} page images in ${fmt(b.seconds, 's')} = ${fmt(b.pagesPerSecond, 'pages/s')}` +
        ` (${String(b.words)} words, ${fmt(Number(b.recall) * 100, '%')} of printed words)`,
    );
  };
  if (native.tool) {
    log(
      `   native    : ${native.tool}, ${cores} processes (OMP_THREAD_LIMIT=1), --oem 1 --psm 3 --dpi ${SPLIT_SCAN_DPI};` +
        ` model ${native.model}`,
    );
  }
  nativeLine('tesseract ', baseline);
  nativeLine("tesseract with docex's model (for information)", sameModel);
  const ratio = baseline.ok ? ours.pagesPerSecond / baseline.pagesPerSecond : undefined;
  const sameModelRatio = sameModel.ok ? ours.pagesPerSecond / sameModel.pagesPerSecond : undefined;
  if (ratio !== undefined) {
    log(
      `   ratio docex split end to end / native tesseract OCR alone = ${fmt(ratio)}` +
        (sameModelRatio === undefined ? '' : `; with docex's model ${fmt(sameModelRatio)}`),
    );
  }
  return {
    pages,
    documents: multi.segments.length,
    markedDocuments: multi.marked,
    pageCounts: counts,
    dpi: SPLIT_SCAN_DPI,
    jpegEncoder: scan.encoder,
    pdfBytes: scan.pdf.byteLength,
    ocrWorkers: cores,
    warmUpSeconds: warmSeconds,
    endToEnd: {
      ...ours,
      queuedMs: endToEnd.queuedMs,
      jobRunMs: endToEnd.runMs,
      resultMs: endToEnd.resultMs,
      usage: endToEnd.usage,
      adapterCalls: calls,
    },
    ocr: {
      recognizeCalls,
      megapixelsPerCall,
      coveredSeconds: ocrCoveredMs / 1000,
      share: ocrCoveredMs / wallMs,
      busySeconds: ocrBusyMs / 1000,
      workerUtilisation: ocrBusyMs / (cores * wallMs),
    },
    ingestionSecondsEstimate: ingestEstimateMs / 1000,
    tokens: layer.tokens.length,
    recall,
    splitPhase: {
      ...measured(splitParts.wallMs / 1000, pages),
      breakdownMs: splitParts,
      adapterCalls: againCalls,
    },
    correctness: { ...score, consistentAcrossRuns: consistent, wrongDecisions: wrong },
    truth: multi.segments,
    found,
    baseline,
    ratio,
    nativeTool: native.tool,
    nativeModel: native.model,
    sameModelBaseline: sameModel,
    sameModelRatio,
  };
}

async function benchSplit(tmp: string) {
  log(
    `\n== 7. Split (svc.split): a ${SPLIT_TEXT_PAGES}-page text PDF of ${SPLIT_TEXT_DOCS} invoices and a` +
      ` ${SPLIT_SCAN_PAGES}-page scan of ${SPLIT_SCAN_DOCS}, createEngine({ limits: { maxPages: ${SPLIT_LIMITS.maxPages} } }) ==`,
  );
  log(
    `   generated invoices (bench/lib/multi.ts, a copy of the tests' generator), ${SPLIT_PAGE_MARKS * 100}% with printed page numbers;` +
      ' checked against the true documents: exactly right, and boundary F1 (starts after page 1)',
  );
  const dir = path.join(tmp, 'split');
  await mkdir(dir);
  const text = await splitTextCase(dir);
  const scanned = await splitScannedCase(dir);
  log(
    '   composites of scanned receipts and invoices (src/evaluation/generator/scanned-composites.ts: 200 dpi,' +
      ' skewed, specks, each page the size of its paper), 2 to 10 documents a file, svc.split on the default engine',
  );
  const composites = await splitScannedComposites(log);
  log(
    `   composites: ${composites.exact}/${composites.files} files split exactly (${composites.documents} documents,` +
      ` ${composites.pages} pages, ${fmt(composites.pages / composites.seconds, 'pages/s')} upload to result)`,
  );
  return { text, scanned, composites };
}

// ---------------------------------------------------------------------------------------------------
// 9. Batch command line

/** One timed `docex` run: its wall time (spawn to exit) and the batch time of its summary. */
interface CliMeasured {
  wall: Measured;
  batch: Measured;
  /** Spawn to exit less the batch: Node start, module loading, engine start and close. */
  outsideSeconds: number;
  /** CPU seconds of the process (all threads), and that over the wall time: cores kept busy. */
  cpuSeconds: number | undefined;
  coresBusy: number | undefined;
}

function cliMeasured(result: CliRun): CliMeasured {
  const { summary, cpuSeconds } = result;
  return {
    wall: measured(result.wallSeconds, summary!.pages),
    batch: measured(summary!.seconds, summary!.pages),
    outsideSeconds: result.wallSeconds - summary!.seconds,
    cpuSeconds,
    coresBusy: cpuSeconds === undefined ? undefined : cpuSeconds / result.wallSeconds,
  };
}

function cpuText(run: CliMeasured): string {
  return `CPU ${fmt(run.cpuSeconds, 's')} (all threads, read every 50 ms) = ${fmt(run.coresBusy)} cores busy on average`;
}

/** The run with the median wall time (rounds are few and odd in number). */
function medianCli(runs: CliMeasured[]): CliMeasured {
  const sorted = [...runs].sort((a, b) => a.wall.seconds - b.wall.seconds);
  return sorted[Math.floor(sorted.length / 2)]!;
}

function docexBin(): { bin: string } | { reason: string } {
  const bin = path.join(REPO_DIR, 'bin', 'docex.js');
  if (!existsSync(bin)) return { reason: `${bin} not found` };
  if (!existsSync(path.join(REPO_DIR, 'dist', 'src', 'cli', 'main.js')))
    return { reason: 'dist/src/cli/main.js not found: npm run build' };
  return { bin };
}

/** `docex extract DIR --out FILE --product invoices:2 --progress MODE`, run to its exit. */
function docexExtract(
  bin: string,
  dir: string,
  out: string,
  progress: 'none' | 'plain',
  hooks: { onSpawn?: (pid: number) => void; onLine?: (line: string) => void } = {},
  command = 'extract',
  extra: string[] = [],
): Promise<CliRun> {
  const args = [command, dir, '--out', out, '--progress', progress, ...extra];
  if (command === 'extract') args.push('--product', BATCH_PRODUCT);
  return runCli(bin, args, { command, timeoutMs: BATCH_TIMEOUT_MS, ...hooks });
}

/** A measured run, or throws with why it does not count. */
async function measuredRun(run: Promise<CliRun>, files: number): Promise<CliMeasured> {
  const result = await run;
  const problem = runProblem(result, files);
  if (problem) throw new Error(problem);
  return cliMeasured(result);
}

/** `node bin/docex.js --help`: Node start and loading the command's modules (main.js imports the engine). */
async function docexStartSeconds(bin: string): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < 3; i++) {
    const { seconds } = await timed(() => run(process.execPath, [bin, '--help']));
    times.push(seconds);
  }
  return median(times);
}

async function batchTextCase(dir: string, bin: string, cores: number) {
  const text = await makeTextFolder(path.join(dir, 'text'), BATCH_SEED, BATCH_TEXT_FILES, BATCH_TEXT_PAGES);
  const warm = await makeTextFolder(path.join(dir, 'text-warm'), BATCH_SEED + 500, 2, 3);
  log(
    `   (1) text PDFs: ${text.files.length} invoices of 1 to 4 pages (bench/lib/multi.ts), ${text.pages} pages,` +
      ` ${fmt(text.bytes / 1024, 'KiB')} in all; ${BATCH_ROUNDS} rounds, docex then pdftotext; figures are medians`,
  );
  log(
    `       docex extract DIR --out FILE --product ${BATCH_PRODUCT} --progress none (default: ${defaultThreads(BATCH_TEXT_FILES, cores)} engine thread(s) for ${BATCH_TEXT_FILES} files);` +
      ` pdftotext -bbox-layout FILE OUT.html, one process per file, ${cores} at a time`,
  );
  const startSeconds = await docexStartSeconds(bin);
  const pdftotextMissing = missingTool('pdftotext', ['-v']);
  const out = path.join(dir, 'text.jsonl');
  const docexRounds: CliMeasured[] = [];
  const baseRounds: Measured[] = [];
  let baselineError = pdftotextMissing;
  // Warm-up: a 2-file folder through docex (disk cache of Node and the modules), pdftotext on it.
  await measuredRun(docexExtract(bin, path.dirname(warm.files[0]!), out, 'none'), warm.files.length);
  if (!baselineError) {
    await pdftotextFolder(warm.files, path.join(dir, 'pdftotext-warm'), cores).catch((error: Error) => {
      baselineError = `pdftotext failed: ${error.message}`;
    });
  }
  let lines: Awaited<ReturnType<typeof readJsonLines>> = [];
  for (let round = 0; round < BATCH_ROUNDS; round++) {
    docexRounds.push(
      await measuredRun(docexExtract(bin, path.join(dir, 'text'), out, 'none'), text.files.length),
    );
    if (round === 0) lines = await readJsonLines(out);
    if (baselineError) continue;
    try {
      const seconds = await pdftotextFolder(text.files, path.join(dir, 'pdftotext'), cores);
      baseRounds.push(measured(seconds, text.pages));
    } catch (error) {
      baselineError = `pdftotext failed: ${(error as Error).message}`;
    }
  }
  // For where the time goes: the same folder through `docex ingest` (the text layer, no job, no fields),
  // and `docex extract --threads 2` (two engine threads; the default for 60 files is one).
  const ingest = await measuredRun(
    docexExtract(bin, path.join(dir, 'text'), path.join(dir, 'ingest.jsonl'), 'none', {}, 'ingest'),
    text.files.length,
  );
  const twoThreads = await measuredRun(
    docexExtract(bin, path.join(dir, 'text'), path.join(dir, 'two-threads.jsonl'), 'none', {}, 'extract', [
      '--threads',
      '2',
    ]),
    text.files.length,
  );

  const ours = medianCli(docexRounds);
  const finalised = lines.filter((l) => l.status === 'FINALISED').length;
  log(
    `   docex     : ${ours.wall.pages} pages in ${fmt(ours.wall.seconds, 's')} spawn to exit = ${fmt(ours.wall.pagesPerSecond, 'pages/s')}` +
      ` (rounds: ${docexRounds.map((r) => fmt(r.wall.pagesPerSecond)).join(', ')}); ${finalised}/${text.files.length} lines FINALISED`,
  );
  log(
    `               engine start excluded (the summary's batch time): ${fmt(ours.batch.seconds, 's')} = ${fmt(ours.batch.pagesPerSecond, 'pages/s')}` +
      ` (rounds: ${docexRounds.map((r) => fmt(r.batch.pagesPerSecond)).join(', ')})`,
  );
  log(
    `               where the time goes: Node start + loading the modules (docex --help) ${fmt(startSeconds * 1000, 'ms')};` +
      ` engine start and close ${fmt((ours.outsideSeconds - startSeconds) * 1000, 'ms')};` +
      ` batch ${fmt(ours.batch.seconds, 's')} = ${fmt((ours.batch.seconds / ours.batch.pages) * 1000, 'ms')} per page; ${cpuText(ours)}`,
  );
  log(
    `               docex ingest over the same folder (text layer alone, no job, no fields): batch ${fmt(ingest.batch.seconds, 's')}` +
      ` = ${fmt(ingest.batch.pagesPerSecond, 'pages/s')}, spawn to exit ${fmt(ingest.wall.seconds, 's')} = ${fmt(ingest.wall.pagesPerSecond, 'pages/s')};` +
      ` so extraction (job, fields) adds about ${fmt(((ours.batch.seconds - ingest.batch.seconds) / ours.batch.pages) * 1000, 'ms')} per page;` +
      ` ingest ${cpuText(ingest)}`,
  );
  log(
    `               docex extract --threads 2 (two engine threads, each warming up on its own): batch ${fmt(twoThreads.batch.seconds, 's')}` +
      ` = ${fmt(twoThreads.batch.pagesPerSecond, 'pages/s')}, spawn to exit ${fmt(twoThreads.wall.pagesPerSecond, 'pages/s')}; ${cpuText(twoThreads)}`,
  );
  const large = await largeTextRun(dir, bin, cores, baselineError);
  let baseline: Baseline;
  if (baselineError) {
    baseline = { ok: false, reason: baselineError };
    log(`   pdftotext : ${na(baselineError)}`);
  } else {
    const med = medianRound(baseRounds);
    const tool = toolVersion('pdftotext', ['-v']);
    baseline = { ok: true, ...med, rounds: baseRounds.map((r) => r.pagesPerSecond), processes: cores, tool };
    log(
      `   pdftotext : ${med.pages} pages in ${fmt(med.seconds, 's')} = ${fmt(med.pagesPerSecond, 'pages/s')}` +
        ` (rounds: ${baseRounds.map((r) => fmt(r.pagesPerSecond)).join(', ')}; ${tool})`,
    );
  }
  const ratio = baseline.ok ? ours.wall.pagesPerSecond / baseline.pagesPerSecond : undefined;
  const batchRatio = baseline.ok ? ours.batch.pagesPerSecond / baseline.pagesPerSecond : undefined;
  if (ratio !== undefined) {
    log(
      `   ratio docex/pdftotext = ${fmt(ratio)} (target >= ${TARGET_BATCH_TEXT_RATIO}); engine start excluded ${fmt(batchRatio)}`,
    );
  }
  return {
    files: text.files.length,
    pages: text.pages,
    bytes: text.bytes,
    rounds: BATCH_ROUNDS,
    concurrency: cores,
    threads: defaultThreads(BATCH_TEXT_FILES, cores),
    docex: {
      ...ours,
      wallRounds: docexRounds.map((r) => r.wall.pagesPerSecond),
      batchRounds: docexRounds.map((r) => r.batch.pagesPerSecond),
      finalised,
    },
    startSeconds,
    ingest,
    twoThreads,
    large,
    baseline,
    ratio,
    batchRatio,
  };
}

/**
 * One round over a larger folder: docex by default (engine threads, one per 100 files up to one per
 * core), docex in one thread, and pdftotext; where warm-up weighs less than in the 60-file folder.
 */
async function largeTextRun(dir: string, bin: string, cores: number, baselineError: string | undefined) {
  const folder = path.join(dir, 'text-large');
  const text = await makeTextFolder(
    folder,
    BATCH_SEED + 7000,
    BATCH_LARGE_TEXT_FILES,
    BATCH_LARGE_TEXT_PAGES,
  );
  const threads = defaultThreads(text.files.length, cores);
  const byDefault = await measuredRun(
    docexExtract(bin, folder, path.join(dir, 'large.jsonl'), 'none'),
    text.files.length,
  );
  const oneThread = await measuredRun(
    docexExtract(bin, folder, path.join(dir, 'large-1.jsonl'), 'none', {}, 'extract', ['--threads', '1']),
    text.files.length,
  );
  const base = baselineError
    ? undefined
    : measured(await pdftotextFolder(text.files, path.join(dir, 'pdftotext-large'), cores), text.pages);
  const ratio = base ? byDefault.wall.pagesPerSecond / base.pagesPerSecond : undefined;
  log(
    `   larger folder, ${text.files.length} invoices, ${text.pages} pages, one round: docex (default, ${threads} threads)` +
      ` ${fmt(byDefault.wall.pagesPerSecond, 'pages/s')} spawn to exit (batch ${fmt(byDefault.batch.pagesPerSecond, 'pages/s')}; ${cpuText(byDefault)});` +
      ` --threads 1 ${fmt(oneThread.wall.pagesPerSecond, 'pages/s')} (batch ${fmt(oneThread.batch.pagesPerSecond, 'pages/s')});` +
      ` pdftotext ${base ? fmt(base.pagesPerSecond, 'pages/s') : na(baselineError ?? '')}; ratio ${fmt(ratio)}`,
  );
  return {
    files: text.files.length,
    pages: text.pages,
    threads,
    docex: byDefault,
    oneThread,
    baseline: base,
    ratio,
  };
}

async function batchScanCase(dir: string, bin: string, cores: number) {
  const made = await timed(() =>
    makeScanFolder(
      path.join(dir, 'scans'),
      path.join(dir, 'scan-originals'),
      BATCH_SEED + 1000,
      BATCH_SCAN_PDF_PAGES,
      BATCH_SCAN_IMAGES,
      BATCH_SCAN_DPI,
    ),
  );
  const scans = made.value;
  const pages = scans.pages.length;
  const warm = await makeScanFolder(
    path.join(dir, 'scans-warm'),
    path.join(dir, 'scans-warm-originals'),
    BATCH_SEED + 1500,
    [],
    1,
    BATCH_SCAN_DPI,
  );
  log(
    `   (2) scans: ${pages} pages in ${scans.files.length} files: ${BATCH_SCAN_PDF_PAGES.length} image-only PDFs of` +
      ` ${BATCH_SCAN_PDF_PAGES.join(', ')} pages (each page a ${BATCH_SCAN_DPI} dpi greyscale JPEG, ${scans.jpegEncoder})` +
      ` and ${BATCH_SCAN_IMAGES} PNG/JPEG files at ${BATCH_SCAN_DPI} dpi; ${fmt(scans.bytes / 1024 / 1024, 'MiB')} (made in ${fmt(made.seconds, 's')})`,
  );
  log(
    `       docex extract as above; native: per page pdftoppm -f N -l N -r ${BATCH_SCAN_DPI} -gray (PDFs) then tesseract` +
      ` IMAGE OUT --oem 1 --psm 3 --dpi ${BATCH_SCAN_DPI} -c tessedit_create_tsv=1, ${cores} page chains at a time, OMP_THREAD_LIMIT=1;` +
      ` ${BATCH_ROUNDS} rounds taking turns, medians; both warmed by one image first`,
  );
  const out = path.join(dir, 'scans.jsonl');
  await measuredRun(docexExtract(bin, path.join(dir, 'scans-warm'), out, 'none'), 1);
  const tess = nativeTessdata();
  const pdftoppmMissing = missingTool('pdftoppm', ['-v']);
  let nativeError: string | undefined = 'reason' in tess ? tess.reason : pdftoppmMissing;
  let docexTessdata: string | undefined;
  let nativeModel: string | undefined;
  let docexModel: string | undefined;
  if (!nativeError && !('reason' in tess)) {
    const systemModel = path.join(tess.dir, 'eng.traineddata');
    nativeModel = (
      await describeModel(systemModel, `eng from ${debianPackageOf(systemModel) ?? 'the system'}`)
    ).description;
    docexTessdata = path.join(dir, 'tessdata-docex');
    await mkdir(docexTessdata);
    const unpacked = path.join(docexTessdata, 'eng.traineddata');
    await writeFile(unpacked, gunzipSync(await readFile(path.join(englishModelDir(), 'eng.traineddata.gz'))));
    docexModel = (await describeModel(unpacked, 'eng from @tesseract.js-data/eng 4.0.0_best_int'))
      .description;
    await nativeScanPipeline(warm.pages, path.join(dir, 'native-warm'), cores, BATCH_SCAN_DPI).catch(
      (error: Error) => {
        nativeError = `native pipeline failed: ${error.message}`;
      },
    );
  }
  const docexRounds: CliMeasured[] = [];
  // The same run on tesseract.js (what a host without the tesseract program gets).
  const wasmRounds: CliMeasured[] = [];
  const nativeAdapter = await nativeTesseractVersion();
  const nativeRounds: Array<Measured & { words: string[] }> = [];
  const sameModelRounds: Array<Measured & { words: string[] }> = [];
  let scanned: Awaited<ReturnType<typeof readJsonLines>> = [];
  let sameModelError: string | undefined;
  for (let round = 0; round < BATCH_ROUNDS; round++) {
    docexRounds.push(
      await measuredRun(docexExtract(bin, path.join(dir, 'scans'), out, 'none'), scans.files.length),
    );
    if (round === 0) scanned = await readJsonLines(out);
    if (nativeAdapter) {
      wasmRounds.push(
        await measuredRun(
          docexExtract(bin, path.join(dir, 'scans'), out, 'none', {}, 'extract', ['--ocr-engine', 'wasm']),
          scans.files.length,
        ),
      );
    }
    if (nativeError) continue;
    try {
      const system = await nativeScanPipeline(
        scans.pages,
        path.join(dir, `native-${round}`),
        cores,
        BATCH_SCAN_DPI,
      );
      nativeRounds.push({ ...measured(system.seconds, pages), words: system.words });
    } catch (error) {
      nativeError = `native pipeline failed: ${(error as Error).message}`;
      continue;
    }
    if (sameModelError) continue;
    try {
      const same = await nativeScanPipeline(
        scans.pages,
        path.join(dir, `native-docex-model-${round}`),
        cores,
        BATCH_SCAN_DPI,
        docexTessdata,
      );
      sameModelRounds.push({ ...measured(same.seconds, pages), words: same.words });
    } catch (error) {
      sameModelError = `native pipeline with docex's model failed: ${(error as Error).message}`;
    }
  }
  // For where the time goes: the scans through `docex ingest` (OCR into the token layer, no job, no fields).
  const scanIngest = await measuredRun(
    docexExtract(bin, path.join(dir, 'scans'), path.join(dir, 'scans-ingest.jsonl'), 'none', {}, 'ingest'),
    scans.files.length,
  );
  // The reference: the same invoices as born-digital PDFs, read from their text layer.
  const referenceOut = path.join(dir, 'scan-originals.jsonl');
  await measuredRun(
    docexExtract(bin, path.join(dir, 'scan-originals'), referenceOut, 'none'),
    scans.files.length,
  );
  const agreement = fieldAgreement(await readJsonLines(referenceOut), scanned);

  const ours = medianCli(docexRounds);
  const wasm = wasmRounds.length > 0 ? medianCli(wasmRounds) : undefined;
  log(
    `   docex     : OCR by ${nativeAdapter ? `the tesseract program ${nativeAdapter} (--ocr-engine auto: native)` : 'tesseract.js (no tesseract program)'}`,
  );
  if (wasm)
    log(
      `   docex wasm: ${wasm.wall.pages} pages in ${fmt(wasm.wall.seconds, 's')} spawn to exit = ${fmt(wasm.wall.pagesPerSecond, 'pages/s')}` +
        ` (--ocr-engine wasm; rounds: ${wasmRounds.map((r) => fmt(r.wall.pagesPerSecond)).join(', ')})`,
    );
  log(
    `   docex     : ${ours.wall.pages} pages in ${fmt(ours.wall.seconds, 's')} spawn to exit = ${fmt(ours.wall.pagesPerSecond, 'pages/s')}` +
      ` (rounds: ${docexRounds.map((r) => fmt(r.wall.pagesPerSecond)).join(', ')}); engine start excluded ${fmt(ours.batch.seconds, 's')}` +
      ` = ${fmt(ours.batch.pagesPerSecond, 'pages/s')} (the batch time includes starting the ${cores} OCR workers)`,
  );
  log(
    `               where the time goes: Node start + modules and engine start and close ${fmt(ours.outsideSeconds * 1000, 'ms')};` +
      ` docex ingest over the same scans (OCR into the token layer, no job, no fields): batch ${fmt(scanIngest.batch.seconds, 's')}` +
      ` = ${fmt(scanIngest.batch.pagesPerSecond, 'pages/s')}, i.e. ${fmt((scanIngest.batch.seconds / ours.batch.seconds) * 100, '%')} of the extract batch time;` +
      ` ${cpuText(ours)}`,
  );
  log(
    `               header fields: ${agreement.same} of the ${agreement.compared} read from the born-digital originals read the same` +
      ` from the scans (${agreement.missing} missing, ${agreement.different.length} different)`,
  );
  for (const line of agreement.different.slice(0, 10)) log(`                 ${line}`);
  const summarise = (rounds: Array<Measured & { words: string[] }>, error?: string): Baseline => {
    if (error || rounds.length === 0) return { ok: false, reason: error ?? 'not run' };
    const med = medianRound(rounds);
    const words = rounds[0]!.words;
    return {
      ok: true,
      seconds: med.seconds,
      pages: med.pages,
      pagesPerSecond: med.pagesPerSecond,
      rounds: rounds.map((r) => r.pagesPerSecond),
      processes: cores,
      words: words.length,
      recall: wordRecall(scans.expected, words),
    };
  };
  const baseline = summarise(nativeRounds, nativeError);
  const sameModel = summarise(sameModelRounds, nativeError ?? sameModelError);
  const tool = nativeError
    ? undefined
    : `${toolVersion('tesseract', ['--version'])}, ${toolVersion('pdftoppm', ['-v'])}`;
  if (tool) log(`   native    : ${tool}; model ${nativeModel}`);
  const nativeLine = (label: string, b: Baseline): void => {
    if (!b.ok) {
      log(`   ${label}: ${na(b.reason)}`);
      return;
    }
    log(
      `   ${label}: ${b.pages} pages in ${fmt(b.seconds, 's')} = ${fmt(b.pagesPerSecond, 'pages/s')}` +
        ` (rounds: ${(b.rounds as number[]).map((v) => fmt(v)).join(', ')}; ${String(b.words)} words,` +
        ` ${fmt(Number(b.recall) * 100, '%')} of printed words)`,
    );
  };
  nativeLine('native    ', baseline);
  nativeLine("native with docex's model (for information)", sameModel);
  const ratio = baseline.ok ? ours.wall.pagesPerSecond / baseline.pagesPerSecond : undefined;
  const batchRatio = baseline.ok ? ours.batch.pagesPerSecond / baseline.pagesPerSecond : undefined;
  const sameModelRatio = sameModel.ok ? ours.wall.pagesPerSecond / sameModel.pagesPerSecond : undefined;
  if (ratio !== undefined) {
    log(
      `   ratio docex/native = ${fmt(ratio)} (target >= ${TARGET_BATCH_SCAN_RATIO}); engine start excluded ${fmt(batchRatio)};` +
        ` with docex's model ${fmt(sameModelRatio)}`,
    );
  }
  return {
    files: scans.files.length,
    pages,
    pdfPages: BATCH_SCAN_PDF_PAGES,
    images: BATCH_SCAN_IMAGES,
    dpi: BATCH_SCAN_DPI,
    bytes: scans.bytes,
    jpegEncoder: scans.jpegEncoder,
    rounds: BATCH_ROUNDS,
    docex: {
      ...ours,
      ocrEngine: nativeAdapter ? `native ${nativeAdapter}` : 'wasm',
      wallRounds: docexRounds.map((r) => r.wall.pagesPerSecond),
      batchRounds: docexRounds.map((r) => r.batch.pagesPerSecond),
    },
    docexWasm: wasm ? { ...wasm, wallRounds: wasmRounds.map((r) => r.wall.pagesPerSecond) } : undefined,
    fields: agreement,
    ingest: scanIngest,
    baseline,
    nativeTool: tool,
    nativeModel,
    docexModel,
    sameModelBaseline: sameModel,
    ratio,
    batchRatio,
    sameModelRatio,
  };
}

async function batchLongCase(dir: string, bin: string) {
  const folder = path.join(dir, 'mixed');
  const made = await timed(() =>
    makeMixedFolder(folder, BATCH_SEED + 2000, BATCH_LONG_FILES, BATCH_LONG_IMAGE_EVERY, BATCH_SCAN_DPI),
  );
  const mixed = made.value;
  log(
    `   (3) long run: ${mixed.files} files: ${mixed.pdfs} one-page text invoices and ${mixed.images} small PNGs of two` +
      ` printed lines (${BATCH_SCAN_DPI} dpi, OCR), ${fmt(mixed.bytes / 1024 / 1024, 'MiB')} (made in ${fmt(made.seconds, 's')})`,
  );
  log(
    `       docex extract DIR --out FILE --product ${BATCH_PRODUCT} --progress plain; RSS of the process tree read every` +
      ` ${BATCH_SAMPLE_MS} ms and at each progress line`,
  );
  const points: MemoryPoint[] = [];
  const outcomes = new Map<string, number>();
  let pid: number | undefined;
  let timer: NodeJS.Timeout | undefined;
  let kernelPeak: number | undefined;
  let start = 0;
  const sample = (files?: number): void => {
    if (pid === undefined) return;
    const rss = treeRssBytes(pid);
    const hwm = procStatusBytes(pid, 'VmHWM');
    if (hwm !== undefined) kernelPeak = hwm;
    if (rss === undefined) return;
    const point: MemoryPoint = { seconds: (performance.now() - start) / 1000, rssBytes: rss };
    if (files !== undefined) point.files = files;
    points.push(point);
  };
  let result: CliRun;
  try {
    result = await docexExtract(bin, folder, path.join(dir, 'mixed.jsonl'), 'plain', {
      onSpawn(child) {
        pid = child;
        start = performance.now();
        timer = setInterval(() => sample(), BATCH_SAMPLE_MS);
      },
      onLine(line) {
        const progress = parseProgressLine(line);
        if (!progress) return;
        outcomes.set(progress.outcome, (outcomes.get(progress.outcome) ?? 0) + 1);
        sample(progress.done);
      },
    });
  } finally {
    if (timer) clearInterval(timer);
  }
  const problem = runProblem(result, mixed.files);
  const at = (files: number): number | undefined => points.find((p) => p.files === files)?.rssBytes;
  const peak = points.reduce<number | undefined>(
    (m, p) => (m === undefined || p.rssBytes > m ? p.rssBytes : m),
    undefined,
  );
  const first = at(1);
  const early = at(BATCH_LONG_EARLY);
  const last = at(mixed.files);
  const growth = early !== undefined && last !== undefined ? last - early : undefined;
  const lineSlope = slope(
    points
      .filter((p) => p.files !== undefined && p.files >= BATCH_LONG_EARLY)
      .map((p) => [p.files!, p.rssBytes]),
  );
  const slopePer100Mb = lineSlope === undefined ? undefined : (lineSlope * 100) / 1024 / 1024;
  // Less sensitive to where a garbage collection falls: the median RSS over the 100 files around each end.
  const windowMedian = (from: number, to: number): number | undefined => {
    const values = points
      .filter((p) => p.files !== undefined && p.files >= from && p.files <= to)
      .map((p) => p.rssBytes);
    return values.length === 0 ? undefined : median(values);
  };
  const earlyWindow = windowMedian(BATCH_LONG_EARLY - 49, BATCH_LONG_EARLY + 50);
  const lastWindow = windowMedian(mixed.files - 99, mixed.files);
  const windowGrowth =
    earlyWindow !== undefined && lastWindow !== undefined ? lastWindow - earlyWindow : undefined;
  const beforeOcr = at(BATCH_LONG_IMAGE_EVERY - 1);
  const summary = result.summary;
  const filesPerSecond = result.wallSeconds > 0 ? mixed.files / result.wallSeconds : undefined;
  log(
    `   docex     : ${mixed.files} files in ${fmt(result.wallSeconds, 's')} spawn to exit = ${fmt(filesPerSecond, 'files/s')};` +
      ` summary: ${summary ? `${summary.files} files, ${summary.pages} pages, ${summary.failed} failed, ${fmt(summary.seconds, 's')} = ${fmt(summary.filesPerSecond, 'files/s')}` : 'none'}` +
      `; progress lines: ${[...outcomes.entries()].map(([k, v]) => `${k} ${v}`).join(', ')};` +
      ` CPU ${fmt(result.cpuSeconds, 's')} = ${fmt(result.cpuSeconds === undefined ? undefined : result.cpuSeconds / result.wallSeconds)} cores busy`,
  );
  if (problem) log(`               NOTE: ${problem}`);
  log(
    `   memory    : peak RSS ${fmt(toMb(peak), 'MB')} (process tree, ${points.length} samples); kernel peak (VmHWM, last read) ${fmt(toMb(kernelPeak), 'MB')}`,
  );
  log(
    `               RSS after file 1 ${fmt(toMb(first), 'MB')}, after file ${BATCH_LONG_EARLY} ${fmt(toMb(early), 'MB')},` +
      ` after file ${mixed.files} ${fmt(toMb(last), 'MB')}: growth ${fmt(toMb(growth), 'MB')};` +
      ` least-squares slope over files ${BATCH_LONG_EARLY}..${mixed.files} ${fmt(slopePer100Mb, 'MB')} per 100 files`,
  );
  log(
    `               median RSS over files ${BATCH_LONG_EARLY - 49}..${BATCH_LONG_EARLY + 50} ${fmt(toMb(earlyWindow), 'MB')},` +
      ` over files ${mixed.files - 99}..${mixed.files} ${fmt(toMb(lastWindow), 'MB')}: growth ${fmt(toMb(windowGrowth), 'MB')};` +
      ` RSS after file ${BATCH_LONG_IMAGE_EVERY - 1} (before the first image, so before any OCR worker) ${fmt(toMb(beforeOcr), 'MB')}`,
  );
  return {
    files: mixed.files,
    pdfs: mixed.pdfs,
    images: mixed.images,
    bytes: mixed.bytes,
    wallSeconds: result.wallSeconds,
    cpuSeconds: result.cpuSeconds,
    filesPerSecond,
    summary,
    exitCode: result.exitCode,
    problem,
    outcomes: Object.fromEntries(outcomes),
    peakRssMb: toMb(peak),
    kernelPeakRssMb: toMb(kernelPeak),
    rssAfterFirstMb: toMb(first),
    rssAfterEarlyMb: toMb(early),
    rssAfterLastMb: toMb(last),
    earlyFile: BATCH_LONG_EARLY,
    growthMb: toMb(growth),
    earlyWindowMedianMb: toMb(earlyWindow),
    lastWindowMedianMb: toMb(lastWindow),
    windowGrowthMb: toMb(windowGrowth),
    rssBeforeFirstImageMb: toMb(beforeOcr),
    slopeMbPer100Files: slopePer100Mb,
    samples: points.length,
    // Every 10th file's RSS, for a curve.
    curve: points
      .filter((p) => p.files !== undefined && p.files % 10 === 0)
      .map((p) => ({ files: p.files, seconds: Math.round(p.seconds * 100) / 100, rssMb: toMb(p.rssBytes) })),
  };
}

async function benchBatch(tmp: string) {
  const cores = os.availableParallelism();
  log(
    `\n== 9. Batch command line: node bin/docex.js extract over folders, a child process per run, ${cores} cores ==`,
  );
  const found = docexBin();
  if ('reason' in found) {
    log(`   ${na(found.reason)}`);
    return { ok: false as const, reason: found.reason };
  }
  const dir = path.join(tmp, 'batch');
  await mkdir(dir);
  const text = await batchTextCase(dir, found.bin, cores);
  const scans = await batchScanCase(dir, found.bin, cores);
  const long = await batchLongCase(dir, found.bin);
  return { ok: true as const, cores, product: BATCH_PRODUCT, text, scans, long };
}

// ---------------------------------------------------------------------------------------------------

/** Sections chosen by `--only a,b` (or `--only=a,b`) or DOCEX_BENCH_ONLY; all when neither is given. */
function chosenSections(argv: string[], env: NodeJS.ProcessEnv): Set<Section> {
  let value = env.DOCEX_BENCH_ONLY;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--only') value = argv[++i] ?? '';
    else if (arg.startsWith('--only=')) value = arg.slice('--only='.length);
    else throw new Error(`unknown argument ${arg}; usage: run.js [--only ${SECTIONS.join(',')}]`);
  }
  if (value === undefined || value.trim() === '') return new Set(SECTIONS);
  const names = value
    .split(',')
    .map((n) => n.trim().toLowerCase())
    .filter((n) => n !== '');
  const unknown = names.filter((n) => !(SECTIONS as readonly string[]).includes(n));
  if (unknown.length > 0) {
    throw new Error(`unknown section ${unknown.join(', ')}; sections are ${SECTIONS.join(', ')}`);
  }
  return new Set(SECTIONS.filter((s) => names.includes(s)));
}

async function main(): Promise<void> {
  let only: Set<Section>;
  try {
    only = chosenSections(process.argv.slice(2), process.env);
  } catch (error) {
    console.error(`bench: ${(error as Error).message}`);
    process.exitCode = 2;
    return;
  }
  const partial = only.size < SECTIONS.length;
  log(
    `docex benchmark - node ${process.version}, ${os.platform()} ${os.arch()}, ` +
      `${os.availableParallelism()} cores (${os.cpus()[0]?.model.trim() ?? 'unknown cpu'}), ${Math.round(os.totalmem() / 1024 ** 3)} GB RAM`,
  );
  if (partial) log(`sections: ${[...only].join(', ')} (--only)`);
  const tmp = await mkdtemp(path.join(os.tmpdir(), 'docex-bench-'));
  const reader = createPdfjsReader();
  try {
    // Documents: doc 0 is the warm-up, docs 1..20 are measured.
    const needDocs = only.has('text') || only.has('ocr') || only.has('pipeline');
    const [warmDoc, ...docs] = needDocs
      ? await Promise.all(Array.from({ length: TEXT_DOCS + 1 }, (_, i) => makeInvoicePdf(i, PAGES_PER_DOC)))
      : [];
    const text = only.has('text') ? await benchTextLayer(tmp, warmDoc!, docs) : undefined;

    let ocr: Awaited<ReturnType<typeof benchOcr>> | undefined;
    if (only.has('ocr')) {
      // OCR pages: all pages of docs 1 and 2, rendered as a scanner would see them.
      const ocrPages = docs.slice(0, OCR_PAGES / PAGES_PER_DOC);
      const ocrImages: GreyImage[] = [];
      for (const doc of ocrPages) ocrImages.push(...(await renderPages(reader, doc.bytes, [1, 2, 3])));
      const [warmImage] = await renderPages(reader, warmDoc!.bytes, [1]);
      ocr = await benchOcr(
        tmp,
        warmImage!,
        ocrImages,
        ocrPages.flatMap((d) => d.pages.map(pageWords)),
      );
      ocrImages.length = 0;
    }

    let pipeline: Awaited<ReturnType<typeof benchPipeline>> | undefined;
    if (only.has('pipeline')) {
      // Scanned PDF: 16 further pages (docs 3 to 8), each rendered at 300 dpi and embedded as a PNG.
      const scanSources = docs
        .slice(2)
        .flatMap((d) => d.pages.map((items, i) => ({ doc: d, page: i + 1, items })));
      const chosen = scanSources.slice(0, PIPELINE_PAGES);
      const pngs: Uint8Array[] = [];
      for (const { doc, page } of chosen) {
        const [image] = await renderPages(reader, doc.bytes, [page]);
        pngs.push(encodeGreyPng(image!));
      }
      pipeline = await benchPipeline(
        tmp,
        pngs,
        chosen.map((c) => pageWords(c.items)),
      );
    }

    const queue = only.has('queue') ? await benchQueue(tmp) : undefined;
    const rules = only.has('rules') ? benchRules() : undefined;
    const httpSection = only.has('http') ? await benchHttp(tmp) : undefined;
    const split = only.has('split') ? await benchSplit(tmp) : undefined;
    const pgSection = only.has('pg') ? await benchPg(tmp, log) : undefined;
    const batch = only.has('batch') ? await benchBatch(tmp) : undefined;
    const extract = only.has('extract') ? await benchExtract(log) : undefined;
    let logos: Awaited<ReturnType<typeof benchLogos>> | { reason: string } | undefined;
    if (only.has('logos')) {
      log('\n== 12. Born-digital invoices with logos (docex extract as a child process) ==');
      const found = docexBin();
      logos =
        'reason' in found
          ? { reason: found.reason }
          : await benchLogos(found.bin, tmp, os.availableParallelism(), log);
      if ('reason' in logos) log(`   ${na(logos.reason)}`);
    }
    const webhooks = only.has('webhooks') ? await benchWebhooks(tmp, log) : undefined;
    const learning = only.has('learning') ? await benchLearning(log) : undefined;
    let scale: ServeScaleSection | undefined;
    if (only.has('scale')) {
      const found = docexBin();
      scale = 'reason' in found ? { reason: found.reason } : await benchServeScale(found.bin, tmp, log);
      if ('reason' in scale) log(`   ${na(scale.reason)}`);
    }
    let hostile: Awaited<ReturnType<typeof benchHostile>> | { ok: false; reason: string } | undefined;
    if (only.has('hostile')) {
      const found = docexBin();
      hostile =
        'reason' in found ? { ok: false, reason: found.reason } : await benchHostile(found.bin, tmp, log);
    }

    // Summary
    const baselineCell = (b: Baseline, digits: (v: number) => string): string =>
      b.ok ? digits(b.pagesPerSecond) : na(b.reason);
    const ratioCell = (r: number | undefined): string => (r === undefined ? 'n/a' : fmt(r));
    const metCell = (r: number | undefined, target: number): string =>
      r === undefined ? 'n/a' : yesNo(r >= target);
    /** A figure against a baseline measured in the same run, with a target ratio. */
    const targetRow = (
      metric: string,
      docex: number,
      baseline: Baseline,
      ratio: number | undefined,
      target: number,
    ): SummaryRow => ({
      metric,
      docex: fmt(docex),
      baseline: baselineCell(baseline, (v) => fmt(v)),
      ratio: ratioCell(ratio),
      target: `>= ${target}`,
      met: metCell(ratio, target),
    });
    const rssRow = (metric: string, mb: number | undefined): SummaryRow => ({
      metric,
      docex: fmt(mb, 'MB'),
      baseline: '-',
      ratio: '-',
      target: `< ${TARGET_PEAK_RSS_MB} MB`,
      met: mb === undefined ? 'n/a' : yesNo(mb < TARGET_PEAK_RSS_MB),
    });
    const info = (metric: string, docex: string): SummaryRow => ({
      metric,
      docex,
      baseline: '-',
      ratio: '-',
      target: '-',
      met: '-',
    });
    type QueueCase = NonNullable<typeof queue>['memory'];
    const queueRow = (name: string, c: QueueCase): SummaryRow => ({
      metric: `Job queue, ${name}: no-op jobs/s (vs Promise pool of ${QUEUE_CONCURRENCY}, tasks/s)`,
      docex: fmt(c.jobsPerSecond),
      baseline: fmt(c.baseline.tasksPerSecond),
      ratio: small(c.ratio),
      target: '-',
      met: '-',
    });
    const rows: SummaryRow[] = [];
    if (text) {
      rows.push(
        targetRow(
          'Text layer ingest, pages/s (vs pdftotext -bbox-layout)',
          text.docex.pagesPerSecond,
          text.baseline,
          text.ratio,
          TARGET_TEXT_RATIO,
        ),
      );
    }
    if (ocr) {
      rows.push(
        targetRow(
          `OCR ${OCR_PAGES} pages, pages/s (vs native tesseract, Debian eng)`,
          ocr.docex.pagesPerSecond,
          ocr.baseline,
          ocr.ratio,
          TARGET_OCR_RATIO,
        ),
        {
          metric: "  info: same, native tesseract with docex's model",
          docex: fmt(ocr.docex.pagesPerSecond),
          baseline: baselineCell(ocr.sameModelBaseline, (v) => fmt(v)),
          ratio: ratioCell(ocr.sameModelRatio),
          target: '-',
          met: '-',
        },
      );
      if ('pagesPerSecond' in ocr.docexNative) {
        rows.push({
          metric: 'OCR, native adapter (vs native tesseract, same model)',
          docex: fmt(ocr.docexNative.pagesPerSecond),
          baseline: baselineCell(ocr.sameModelBaseline, (v) => fmt(v)),
          ratio: ratioCell(ocr.nativeRatio),
          target: '>= 1.0',
          met: ocr.nativeRatio === undefined ? '-' : ocr.nativeRatio >= 1 ? 'yes' : 'NO',
        });
      }
    }
    if (pipeline) {
      rows.push(
        {
          metric: `Pipeline OCR ingest, ${pipeline.pages} pages, pages/s`,
          docex: fmt(pipeline.pagesPerSecond),
          baseline: '-',
          ratio: '-',
          target: '-',
          met: '-',
        },
        {
          metric: 'Pipeline OCR ingest, wall time',
          docex: fmt(pipeline.seconds, 's'),
          baseline: '-',
          ratio: '-',
          target: '-',
          met: '-',
        },
        rssRow('Pipeline peak RSS, process (50 ms samples)', pipeline.peakRssSampledMb),
        rssRow('Pipeline peak RSS, process (kernel VmHWM)', pipeline.peakRssKernelMb),
        rssRow('Pipeline peak RSS, process tree', pipeline.peakTreeRssMb),
      );
    }
    if (queue) {
      rows.push(
        queueRow('memory', queue.memory),
        queueRow('SQLite (WAL)', queue.sqlite),
        info('Job queue, memory: invoke latency, mean', fmt(queue.memory.invokeMs.mean, 'ms')),
        info('Job queue, SQLite (WAL): invoke latency, mean', fmt(queue.sqlite.invokeMs.mean, 'ms')),
        info(
          '  info: SQLite, share of job time in persistence calls',
          fmt(queue.sqlite.breakdown.persistenceShare * 100, '%'),
        ),
      );
    }
    if (rules) {
      rows.push(
        {
          metric: `Rules, ${rules.checks} checks: rule-set evaluations/s (vs hand-written JS function)`,
          docex: fmt(rules.docex.evaluationsPerSecond),
          baseline: fmt(rules.baseline.evaluationsPerSecond),
          ratio: small(rules.ratio),
          target: '-',
          met: '-',
        },
        {
          metric: 'Rules: checks/s (vs hand-written JS function)',
          docex: fmt(rules.docex.checksPerSecond),
          baseline: fmt(rules.baseline.checksPerSecond),
          ratio: small(rules.ratio),
          target: '-',
          met: '-',
        },
        info(
          `Rules: checkRules calls/s (storing the ${rules.checks}-check set)`,
          fmt(rules.checkRules.callsPerSecond),
        ),
        info('  info: share of an evaluation in readPath', fmt(rules.breakdown.readPathShare * 100, '%')),
        info(
          '  info: share of an evaluation in jsonpath-plus',
          fmt(rules.breakdown.jsonpathPlusShare * 100, '%'),
        ),
      );
    }
    if (httpSection) {
      const { result, upload, loadTest } = httpSection;
      rows.push(
        {
          metric: `HTTP result endpoint, req/s at ${result.concurrency} concurrent (vs bare node:http, same bytes)`,
          docex: fmt(result.docex.requestsPerSecond),
          baseline: fmt(result.baseline.requestsPerSecond),
          ratio: fmt(result.ratio),
          target: '-',
          met: '-',
        },
        {
          metric: `HTTP v2 upload, ${fmt(upload.pdfBytes / 1e6, 'MB')} PDF, MB/s at ${upload.concurrency} concurrent (vs bare node:http reading the body)`,
          docex: fmt(upload.docex.mbPerSecond),
          baseline: fmt(upload.baseline.mbPerSecond),
          ratio: fmt(upload.ratio),
          target: '-',
          met: '-',
        },
        {
          metric: '  same, vs bare node:http + busboy',
          docex: fmt(upload.docex.mbPerSecond),
          baseline: fmt(upload.busboyBaseline.mbPerSecond),
          ratio: fmt(upload.busboyRatio),
          target: '-',
          met: '-',
        },
        {
          metric: `HTTP load test: ${loadTest.uploads} concurrent uploads + svc.extract, all stored and succeeded`,
          docex: `${Math.min(loadTest.storedFiles, loadTest.jobsSucceeded, loadTest.finalised)}/${loadTest.uploads}`,
          baseline: '-',
          ratio: '-',
          target: `${loadTest.uploads}/${loadTest.uploads}`,
          met: yesNo(loadTest.ok),
        },
        info('HTTP load test: first upload to last result', fmt(loadTest.seconds, 's')),
        info(
          '  info: result endpoint, server CPU per request (bare node:http)',
          `${fmt(result.docex.serverCpuUsPerRequest, 'us')} (${fmt(result.baseline.serverCpuUsPerRequest, 'us')})`,
        ),
      );
    }
    if (split) {
      const { text: t, scanned: s, composites: m } = split;
      const right = (c: SplitScore): string =>
        `${yesNo(c.exact)} (F1 ${fmt(c.f1)}, ${c.children}/${c.documents})`;
      rows.push(
        {
          metric: `Split, ${t.pages}-page text PDF (${t.documents} docs): pages/s invoke to result (vs pdftotext -bbox-layout)`,
          docex: fmt(t.endToEnd.pagesPerSecond),
          baseline: baselineCell(t.baseline, (v) => fmt(v)),
          ratio: t.ratio === undefined ? 'n/a' : small(t.ratio),
          target: '-',
          met: '-',
        },
        {
          metric: '  ingestion alone (text layer), pages/s (vs pdftotext -bbox-layout)',
          docex: fmt(t.ingestion.pagesPerSecond),
          baseline: baselineCell(t.baseline, (v) => fmt(v)),
          ratio: t.ingestRatio === undefined ? 'n/a' : small(t.ingestRatio),
          target: '-',
          met: '-',
        },
        info('  split decisions + children on the ingested file, pages/s', fmt(t.splitPhase.pagesPerSecond)),
        {
          metric: 'Split, text PDF: children exactly the true documents (boundary F1)',
          docex: right(t.correctness),
          baseline: '-',
          ratio: '-',
          target: 'exact',
          met: yesNo(t.correctness.exact),
        },
        {
          metric: `Split, ${s.pages}-page scan (${s.documents} docs, ${s.dpi} dpi JPEG): pages/s incl. OCR (vs native tesseract, ${s.ocrWorkers} processes)`,
          docex: fmt(s.endToEnd.pagesPerSecond),
          baseline: baselineCell(s.baseline, (v) => fmt(v)),
          ratio: ratioCell(s.ratio),
          target: '-',
          met: '-',
        },
        {
          metric: "  info: same, native tesseract with docex's model",
          docex: fmt(s.endToEnd.pagesPerSecond),
          baseline: baselineCell(s.sameModelBaseline, (v) => fmt(v)),
          ratio: ratioCell(s.sameModelRatio),
          target: '-',
          met: '-',
        },
        info('  info: share of the scan split with OCR running', fmt(s.ocr.share * 100, '%')),
        info('  split decisions + children on the ingested scan, pages/s', fmt(s.splitPhase.pagesPerSecond)),
        {
          metric: 'Split, scan: children exactly the true documents (boundary F1)',
          docex: right(s.correctness),
          baseline: '-',
          ratio: '-',
          target: 'exact',
          met: yesNo(s.correctness.exact),
        },
        {
          metric: `Split, ${m.files} composites of 2-10 scanned receipts and invoices: files split exactly`,
          docex: `${m.exact}/${m.files}`,
          baseline: '-',
          ratio: fmt(m.exact / m.files),
          target: 'all',
          met: yesNo(m.exact === m.files),
        },
      );
    }
    if (pgSection) rows.push(...pgSummaryRows(pgSection));
    if (batch && !batch.ok) {
      rows.push(info('Batch command line (docex extract)', na(batch.reason)));
    } else if (batch) {
      const { text: t, scans: c, long: l } = batch;
      rows.push(
        targetRow(
          `Batch CLI, ${t.files} text PDFs (${t.pages} pages): pages/s, process start included (vs pdftotext -bbox-layout, ${t.concurrency} processes)`,
          t.docex.wall.pagesPerSecond,
          t.baseline,
          t.ratio,
          TARGET_BATCH_TEXT_RATIO,
        ),
        targetRow(
          "  same, engine start excluded (the summary's batch time)",
          t.docex.batch.pagesPerSecond,
          t.baseline,
          t.batchRatio,
          TARGET_BATCH_TEXT_RATIO,
        ),
        info(
          '  info: docex ingest (text layer alone), pages/s, process start included',
          fmt(t.ingest.wall.pagesPerSecond),
        ),
        {
          metric: `  info: ${t.large.files} text PDFs (${t.large.pages} pages), ${t.large.threads} engine threads, one round`,
          docex: fmt(t.large.docex.wall.pagesPerSecond),
          baseline: t.large.baseline ? fmt(t.large.baseline.pagesPerSecond) : 'n/a',
          ratio: ratioCell(t.large.ratio),
          target: '-',
          met: '-',
        },
        targetRow(
          `Batch CLI, ${c.pages} scanned pages (${c.dpi} dpi PDFs and images): pages/s, process start included (vs pdftoppm + tesseract, ${batch.cores} processes)`,
          c.docex.wall.pagesPerSecond,
          c.baseline,
          c.ratio,
          TARGET_BATCH_SCAN_RATIO,
        ),
        targetRow(
          "  same, engine start excluded (the summary's batch time)",
          c.docex.batch.pagesPerSecond,
          c.baseline,
          c.batchRatio,
          TARGET_BATCH_SCAN_RATIO,
        ),
        {
          metric: "  info: same, native tesseract with docex's model",
          docex: fmt(c.docex.wall.pagesPerSecond),
          baseline: baselineCell(c.sameModelBaseline, (v) => fmt(v)),
          ratio: ratioCell(c.sameModelRatio),
          target: '-',
          met: '-',
        },
        info(
          'Batch CLI, scans: header fields equal to those read from the born-digital originals',
          `${c.fields.same}/${c.fields.compared}`,
        ),
        info(
          `Batch CLI, ${l.files} files (${l.pdfs} text PDFs, ${l.images} small PNGs): files/s, process start included`,
          fmt(l.filesPerSecond),
        ),
        info('  peak RSS, process tree (100 ms samples)', fmt(l.peakRssMb, 'MB')),
        info('  peak RSS, kernel (VmHWM, last read before exit)', fmt(l.kernelPeakRssMb, 'MB')),
        info(
          `  RSS after file ${l.earlyFile} -> after file ${l.files} (growth)`,
          `${fmt(l.rssAfterEarlyMb, 'MB')} -> ${fmt(l.rssAfterLastMb, 'MB')} (${fmt(l.growthMb, 'MB')})`,
        ),
        info(
          `  median RSS, files ${l.earlyFile - 49}-${l.earlyFile + 50} -> ${l.files - 99}-${l.files} (growth)`,
          `${fmt(l.earlyWindowMedianMb, 'MB')} -> ${fmt(l.lastWindowMedianMb, 'MB')} (${fmt(l.windowGrowthMb, 'MB')})`,
        ),
        info('  RSS slope over files 100-1000, MB per 100 files', fmt(l.slopeMbPer100Files)),
      );
    }
    if (extract) {
      rows.push({
        metric: `Extraction on token layers, ms a page warm (${extract.pages} generated pages; baseline: the finders' own order)`,
        docex: fmt(extract.learnedMsPerPage),
        baseline: fmt(extract.findersMsPerPage),
        ratio: fmt(extract.learnedMsPerPage / extract.findersMsPerPage),
        target: '< 10 ms',
        met: yesNo(extract.learnedMsPerPage < 10),
      });
    }
    if (learning) {
      rows.push({
        metric: `Extraction with ${MAX_SUPPLIERS} supplier memories (the cap), ms a page warm (baseline: none)`,
        docex: fmt(learning.msPerPage.cap),
        baseline: fmt(learning.msPerPage.none),
        ratio: fmt(learning.msPerPage.cap / learning.msPerPage.none),
        target: '< 50 ms',
        met: yesNo(learning.msPerPage.cap < 50),
      });
    }
    if (hostile && 'reason' in hostile) rows.push(info('Hostile PDFs (docex serve)', na(hostile.reason)));
    else if (hostile) {
      const single = hostile.rows.filter((r) => r.name.startsWith('4 at once') === false);
      const four = hostile.rows.filter((r) => r.name.startsWith('4 at once'));
      const worst = (list: typeof single, key: 'peakMb' | 'worstWaitMs' | 'seconds') =>
        Math.max(...list.map((r) => r[key]));
      rows.push(
        {
          metric:
            'Hostile PDFs, one at a time: worst peak RSS of docex serve, MB (baseline: an ordinary invoice)',
          docex: fmt(worst(single, 'peakMb'), 'MB'),
          baseline: fmt(single[0]?.peakMb, 'MB'),
          ratio: '-',
          target: '< 1536 MB',
          met: yesNo(worst(single, 'peakMb') < 1536),
        },
        {
          metric: 'Hostile PDFs, four at once: worst peak RSS, MB',
          docex: fmt(worst(four, 'peakMb'), 'MB'),
          baseline: '-',
          ratio: '-',
          target: '< 2048 MB',
          met: yesNo(worst(four, 'peakMb') < 2048),
        },
        {
          metric: "Hostile PDFs: another client's worst wait, ms (baseline: an ordinary invoice)",
          docex: fmt(worst(hostile.rows, 'worstWaitMs')),
          baseline: fmt(single[0]?.worstWaitMs),
          ratio: '-',
          target: '< 2000 ms',
          met: yesNo(worst(hostile.rows, 'worstWaitMs') < 2000),
        },
        {
          metric: 'Hostile PDFs: longest time until a case ended, s',
          docex: fmt(worst(hostile.rows, 'seconds')),
          baseline: fmt(single[0]?.seconds),
          ratio: '-',
          target: '<= 60 s',
          met: yesNo(worst(hostile.rows, 'seconds') <= 60),
        },
      );
    }
    if (logos && 'reason' in logos) rows.push(info('Born-digital invoices with logos', na(logos.reason)));
    else if (logos) rows.push(...logoSummaryRows(logos));
    if (webhooks) rows.push(...webhookSummaryRows(webhooks));
    if (scale) rows.push(...serveScaleSummaryRows(scale));
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
    const results = {
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
      textLayer: text,
      ocr,
      pipeline,
      queue,
      rules,
      http: httpSection,
      split,
      pg: pgSection,
      batch,
      hostile,
      extract,
      logos,
      webhooks,
      scale,
      learning,
      summary: rows,
    };
    // A partial run (--only) leaves results.json, the last full run, alone.
    const outFile = path.join(OUT_DIR, partial ? `results-${[...only].join('-')}.json` : 'results.json');
    // Figures that could not be measured are written as null.
    const json = JSON.stringify(results, (_key, value: unknown) => (value === undefined ? null : value), 2);
    await writeFile(outFile, `${json}\n`);
    log(`Results written to ${path.relative(process.cwd(), outFile)}`);
    if (httpSection && !httpSection.loadTest.ok) {
      throw new Error(
        `bench http: the load test lost documents:\n  ${httpSection.loadTest.problems.slice(0, 20).join('\n  ')}`,
      );
    }
  } finally {
    await rm(tmp, { recursive: true, force: true });
  }
}

await main();
