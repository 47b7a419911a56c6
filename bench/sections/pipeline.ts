/**
 * Section `pipeline` (3): full-pipeline OCR ingestion of a 16-page scanned PDF (each page a 300 dpi
 * greyscale PNG) by createEngine({ ocr: { workers: 2 } }) in a fresh Node process: time, and peak
 * memory read in the process, by the kernel and from outside.
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { createPdfjsReader } from '../../src/adapters/pdf/pdfjs-reader.js';
import { encodeGreyPng } from '../../src/documents/png.js';
import type { ChildMessage, PipelineChildResult } from '../pipeline-child.js';
import { SCAN_DPI as DPI, makeScannedPdf, pageWords, renderPages } from '../lib/invoice.js';
import { peakSampler, procStatusBytes, toMb, treeRssBytes } from '../lib/memory.js';
import { forkBenchScript } from '../lib/paths.js';
import { fmt, splitWords, wordRecall, yesNo } from '../lib/report.js';
import type { SectionContext } from '../lib/section.js';
import { info, type SummaryRow } from '../lib/summary-row.js';

const PIPELINE_PAGES = 16;
export const TARGET_PEAK_RSS_MB = 600;

export type PipelineSection = Awaited<ReturnType<typeof measurePipeline>>;

/** The section: 16 further pages (of invoices 3 to 8), each rendered at 300 dpi and embedded as a PNG. */
export async function benchPipeline({ tmp, log, invoices }: SectionContext): Promise<PipelineSection> {
  const docs = (await invoices()).slice(1);
  const reader = createPdfjsReader();
  const scanSources = docs
    .slice(2)
    .flatMap((d) => d.pages.map((items, i) => ({ doc: d, page: i + 1, items })));
  const chosen = scanSources.slice(0, PIPELINE_PAGES);
  const pngs: Uint8Array[] = [];
  for (const { doc, page } of chosen) {
    const [image] = await renderPages(reader, doc.bytes, [page]);
    pngs.push(encodeGreyPng(image!));
  }
  return measurePipeline(
    tmp,
    log,
    pngs,
    chosen.map((c) => pageWords(c.items)),
  );
}

async function measurePipeline(
  tmp: string,
  log: (text: string) => void,
  pngs: Uint8Array[],
  expected: string[][],
) {
  log(`\n== 3. Full pipeline: one ${pngs.length}-page scanned PDF, createEngine({ ocr: { workers: 2 } }) ==`);
  const pdf = await makeScannedPdf(pngs);
  const file = path.join(tmp, `scanned-${pngs.length}.pdf`);
  await writeFile(file, pdf);
  log(`   ${fmt(pdf.byteLength / 1024 / 1024, 'MiB')} PDF, each page a full-page ${DPI} dpi greyscale PNG`);
  log('   ingesting in a fresh Node process (so earlier stages do not count towards its memory) ...');

  // Compiled (npm run bench) the child is plain JavaScript; run with tsx it is TypeScript. tsx itself
  // costs some 300 MB of memory, which is why `npm run bench` compiles first.
  const child = forkBenchScript('pipeline-child', [file]);
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

const rssRow = (metric: string, mb: number | undefined): SummaryRow => ({
  metric,
  docex: fmt(mb, 'MB'),
  baseline: '-',
  ratio: '-',
  target: `< ${TARGET_PEAK_RSS_MB} MB`,
  met: mb === undefined ? 'n/a' : yesNo(mb < TARGET_PEAK_RSS_MB),
});

export function pipelineSummaryRows(pipeline: PipelineSection): SummaryRow[] {
  return [
    info(`Pipeline OCR ingest, ${pipeline.pages} pages, pages/s`, fmt(pipeline.pagesPerSecond)),
    info('Pipeline OCR ingest, wall time', fmt(pipeline.seconds, 's')),
    rssRow('Pipeline peak RSS, process (50 ms samples)', pipeline.peakRssSampledMb),
    rssRow('Pipeline peak RSS, process (kernel VmHWM)', pipeline.peakRssKernelMb),
    rssRow('Pipeline peak RSS, process tree', pipeline.peakTreeRssMb),
  ];
}
