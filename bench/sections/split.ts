/**
 * Section `split` (7): svc.split, invoke to verbose result. Pages/s of a 100-page text PDF of 38
 * invoices, also as ingestion against split decisions and children, against pdftotext -bbox-layout of
 * the same file; pages/s of a 20-page scanned PDF of 8 invoices (200 dpi JPEG pages) and the share in
 * OCR, against native tesseract on the page images, one process per core; each split checked against
 * the true documents (exactly right, boundary F1); and composites of scanned receipts and invoices.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createTesseractOcr } from '../../src/adapters/ocr/tesseract-ocr.js';
import { createPdfLibCopier } from '../../src/adapters/pdf/pdf-lib-copier.js';
import { createPdfjsReader } from '../../src/adapters/pdf/pdfjs-reader.js';
import type { TokenLayer } from '../../src/core/types.js';
import { createEngine } from '../../src/index.js';
import { measured, median, timed, type Baseline } from '../lib/measure.js';
import { makeMultiDocument, makeScannedMulti, pageCountsSumming } from '../lib/multi.js';
import { missingTool, run, toolVersion } from '../lib/native.js';
import {
  nativeTessdata,
  nativeTesseract,
  systemModel,
  unpackDocexModel,
  type NativePage,
} from '../lib/native-tesseract.js';
import { fmt, na, small, splitWords, wordRecall, yesNo } from '../lib/report.js';
import type { SectionContext } from '../lib/section.js';
import {
  coveredMs,
  resetTimings,
  runSplit,
  scoreSplit,
  timedCopier,
  timedOcr,
  timedPdfReader,
  wrongDecisions,
  type SplitRun,
  type SplitScore,
} from '../lib/split-runs.js';
import {
  callMs,
  describeCalls,
  featuresAlone,
  logSplitParts,
  msOf,
  splitPhaseParts,
  type CallMs,
} from '../lib/split-phase.js';
import { splitScannedComposites } from '../lib/split-scans.js';
import { baselineCell, info, ratioCell, type SummaryRow } from '../lib/summary-row.js';

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

type Log = (text: string) => void;

function scoreLine(score: SplitScore): string {
  return (
    `${score.children} children for ${score.documents} documents: exactly right ${yesNo(score.exact)};` +
    ` boundary precision ${fmt(score.precision)}, recall ${fmt(score.recall)}, F1 ${fmt(score.f1)}` +
    (score.missed.length > 0 ? `; missed starts at pages ${score.missed.join(', ')}` : '') +
    (score.extra.length > 0 ? `; wrong cuts at pages ${score.extra.join(', ')}` : '')
  );
}

async function pdftotextRound(file: string, out: string): Promise<number> {
  const { seconds } = await timed(() => run('pdftotext', ['-bbox-layout', file, out]));
  return seconds;
}

async function splitTextCase(log: Log, dir: string) {
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
  logSplitParts(log, splitRound.parts, pages, splitRound.split.children.length);
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
  const pages = images.map((file): NativePage => ({ kind: 'image', file }));
  const options = { slots, dpi: SPLIT_SCAN_DPI, ...(tessdataDir === undefined ? {} : { tessdataDir }) };
  try {
    await nativeTesseract(pages.slice(0, 1), [`${outPrefix}-warm`], options);
    const outs = images.map((_, i) => `${outPrefix}-${i}`);
    const { seconds, words } = await nativeTesseract(pages, outs, options);
    return {
      ok: true,
      ...measured(seconds, images.length),
      processes: slots,
      words: words.length,
      recall: wordRecall(expected, words),
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
  const model = await systemModel(tess.dir);
  const baseline = await nativeScanOcr(images, path.join(dir, 'native'), expected, slots);
  const docexTessdata = path.join(dir, 'tessdata-docex');
  await unpackDocexModel(docexTessdata);
  const sameModel = await nativeScanOcr(
    images,
    path.join(dir, 'native-docex-model'),
    expected,
    slots,
    docexTessdata,
  );
  return { baseline, sameModel, tool: toolVersion('tesseract', ['--version']), model: model.description };
}

async function splitScannedCase(log: Log, dir: string) {
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
  logSplitParts(log, splitParts, pages, again.children.length);
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

export type SplitSection = Awaited<ReturnType<typeof benchSplit>>;

export async function benchSplit({ tmp, log }: SectionContext) {
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
  const text = await splitTextCase(log, dir);
  const scanned = await splitScannedCase(log, dir);
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

export function splitSummaryRows(split: SplitSection): SummaryRow[] {
  const { text: t, scanned: s, composites: m } = split;
  const right = (c: SplitScore): string =>
    `${yesNo(c.exact)} (F1 ${fmt(c.f1)}, ${c.children}/${c.documents})`;
  return [
    {
      metric: `Split, ${t.pages}-page text PDF (${t.documents} docs): pages/s invoke to result (vs pdftotext -bbox-layout)`,
      docex: fmt(t.endToEnd.pagesPerSecond),
      baseline: baselineCell(t.baseline),
      ratio: t.ratio === undefined ? 'n/a' : small(t.ratio),
      target: '-',
      met: '-',
    },
    {
      metric: '  ingestion alone (text layer), pages/s (vs pdftotext -bbox-layout)',
      docex: fmt(t.ingestion.pagesPerSecond),
      baseline: baselineCell(t.baseline),
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
      baseline: baselineCell(s.baseline),
      ratio: ratioCell(s.ratio),
      target: '-',
      met: '-',
    },
    {
      metric: "  info: same, native tesseract with docex's model",
      docex: fmt(s.endToEnd.pagesPerSecond),
      baseline: baselineCell(s.sameModelBaseline),
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
  ];
}
