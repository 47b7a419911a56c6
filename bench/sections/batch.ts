/**
 * Section `batch` (9): the real `docex extract` (bin/docex.js on the compiled dist/src: run `npm run
 * build` first) as a child process, timed from its spawn to its exit (and by its own summary, engine
 * start left out). Pages/s over a folder of 60 text PDFs of 1 to 4 pages, against pdftotext
 * -bbox-layout over every file, one process per file and per core; pages/s over 8 scanned pages
 * (image-only PDFs and PNG/JPEG files, 200 dpi), with the header fields compared to those read from
 * the born-digital originals, against pdftoppm -r 200 -gray + tesseract tsv per page, one process
 * chain per core; peak memory of a 1,000-file mixed run (--progress plain followed, RSS sampled) and
 * its growth between file 100 and file 1,000.
 */
import { mkdir } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { nativeTesseractVersion } from '../../src/adapters/ocr/native-tesseract-ocr.js';
import { defaultThreads } from '../../src/cli/main.js';
import { makeMixedFolder, makeScanFolder, makeTextFolder } from '../lib/batch-folders.js';
import {
  fieldAgreement,
  parseProgressLine,
  readJsonLines,
  runCli,
  runProblem,
  type CliRun,
} from '../lib/docex-cli.js';
import { measured, median, medianRound, timed, type Baseline, type Measured } from '../lib/measure.js';
import { procStatusBytes, toMb, treeRssBytes } from '../lib/memory.js';
import { missingTool, pdftotextFolder, run, toolVersion } from '../lib/native.js';
import {
  nativeTessdata,
  nativeTesseract,
  systemModel,
  unpackDocexModel,
  type NativePage,
} from '../lib/native-tesseract.js';
import { docexBin } from '../lib/paths.js';
import { fmt, na, wordRecall } from '../lib/report.js';
import type { SectionContext } from '../lib/section.js';
import { baselineCell, info, ratioCell, targetRow, type SummaryRow } from '../lib/summary-row.js';

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
export const TARGET_BATCH_TEXT_RATIO = 0.5;
export const TARGET_BATCH_SCAN_RATIO = 1;

type Log = (text: string) => void;

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

async function batchTextCase(log: Log, dir: string, bin: string, cores: number) {
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
  const large = await largeTextRun(log, dir, bin, cores, baselineError);
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
async function largeTextRun(
  log: Log,
  dir: string,
  bin: string,
  cores: number,
  baselineError: string | undefined,
) {
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

async function batchScanCase(log: Log, dir: string, bin: string, cores: number) {
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
    nativeModel = (await systemModel(tess.dir)).description;
    docexTessdata = path.join(dir, 'tessdata-docex');
    docexModel = (await unpackDocexModel(docexTessdata)).description;
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

async function batchLongCase(log: Log, dir: string, bin: string) {
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

export type BatchSection = Awaited<ReturnType<typeof benchBatch>>;

export async function benchBatch({ tmp, log }: SectionContext) {
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
  const text = await batchTextCase(log, dir, found.bin, cores);
  const scans = await batchScanCase(log, dir, found.bin, cores);
  const long = await batchLongCase(log, dir, found.bin);
  return { ok: true as const, cores, product: BATCH_PRODUCT, text, scans, long };
}

/**
 * The native scan pipeline: per page, `pdftoppm -r <dpi> -gray` of that page (for a PDF) then
 * tesseract's tsv of the page image (or of the image file itself), one page per process chain and
 * `slots` chains at a time. Answers the seconds and the words tesseract found.
 */
async function nativeScanPipeline(
  pages: NativePage[],
  outDir: string,
  slots: number,
  dpi: number,
  tessdataDir?: string,
): Promise<{ seconds: number; words: string[] }> {
  await mkdir(outDir, { recursive: true });
  const outs = pages.map((_, i) => path.join(outDir, `page-${String(i + 1).padStart(3, '0')}`));
  return nativeTesseract(pages, outs, {
    slots,
    dpi,
    tsv: true,
    ...(tessdataDir === undefined ? {} : { tessdataDir }),
  });
}

interface MemoryPoint {
  /** Files finished when sampled (the progress line's count), or undefined for a timed sample. */
  files?: number;
  seconds: number;
  rssBytes: number;
}

/** Least-squares slope of y over x (undefined for fewer than two distinct x). */
function slope(points: Array<[number, number]>): number | undefined {
  const n = points.length;
  if (n < 2) return undefined;
  const mx = points.reduce((a, [x]) => a + x, 0) / n;
  const my = points.reduce((a, [, y]) => a + y, 0) / n;
  let num = 0;
  let den = 0;
  for (const [x, y] of points) {
    num += (x - mx) * (y - my);
    den += (x - mx) ** 2;
  }
  return den === 0 ? undefined : num / den;
}

export function batchSummaryRows(batch: BatchSection): SummaryRow[] {
  if (!batch.ok) return [info('Batch command line (docex extract)', na(batch.reason))];
  const { text: t, scans: c, long: l } = batch;
  return [
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
      baseline: baselineCell(c.sameModelBaseline),
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
  ];
}
