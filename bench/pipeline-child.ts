/**
 * Full-pipeline OCR ingestion of one scanned PDF, run by bench/sections/pipeline.ts in a fresh process
 * so that its memory figures are those of a host doing only this (not of the benchmark's earlier
 * stages).
 * Protocol over the IPC channel: child `ready` -> parent `go` -> child `done` (or `failed`).
 */
import { readFileSync } from 'node:fs';
import { createEngine } from '../src/index.js';
import { peakSampler, procStatusBytes, resetPeakRss } from './lib/memory.js';

export interface PipelineChildResult {
  type: 'done';
  pages: number;
  tokens: number;
  /** Upload (page count) plus ingest, milliseconds. */
  wallMs: number;
  uploadMs: number;
  ingestMs: number;
  pageSources: string[];
  /** Recognised text of each page, words separated by spaces. */
  pageTexts: string[];
  rssBeforeBytes: number;
  /** Largest process.memoryUsage().rss seen by a 50 ms timer during upload and ingest. */
  peakRssSampledBytes: number;
  /** The kernel's peak RSS (VmHWM) over upload and ingest, when it could be reset before. */
  peakRssKernelBytes: number | undefined;
  heapUsedAfterBytes: number;
}

export type ChildMessage = { type: 'ready' } | PipelineChildResult | { type: 'failed'; error: string };

function send(message: ChildMessage): Promise<void> {
  return new Promise((resolve, reject) => {
    if (!process.send) {
      reject(new Error('bench/pipeline-child.ts must be started by bench/run.ts (IPC channel).'));
      return;
    }
    process.send(message, (error: Error | null) => (error ? reject(error) : resolve()));
  });
}

async function main(): Promise<void> {
  const pdfPath = process.argv[2];
  if (!pdfPath) throw new Error('usage: pipeline-child.ts FILE.pdf');
  const bytes = readFileSync(pdfPath);
  const engine = createEngine({ ocr: { workers: 2 } });
  try {
    const go = new Promise<void>((resolve) => {
      process.once('message', () => resolve());
    });
    await send({ type: 'ready' });
    await go;

    const hwmReset = resetPeakRss();
    const rssBefore = process.memoryUsage().rss;
    const sampler = peakSampler(() => process.memoryUsage().rss, 50);
    const start = performance.now();
    const record = await engine.upload(bytes, { name: 'scanned-16.pdf' });
    const uploaded = performance.now();
    const layer = await engine.ingest(record.fileId);
    const end = performance.now();
    const peakSampled = sampler.stop() ?? rssBefore;
    const peakKernel = hwmReset ? procStatusBytes('self', 'VmHWM') : undefined;

    const pageTexts = layer.pages.map((p) =>
      layer.tokens
        .filter((t) => t.pageNum === p.pageNum)
        .map((t) => t.text)
        .join(' '),
    );
    await send({
      type: 'done',
      pages: layer.pages.length,
      tokens: layer.tokens.length,
      wallMs: end - start,
      uploadMs: uploaded - start,
      ingestMs: end - uploaded,
      pageSources: layer.pages.map((p) => p.source),
      pageTexts,
      rssBeforeBytes: rssBefore,
      peakRssSampledBytes: peakSampled,
      peakRssKernelBytes: peakKernel,
      heapUsedAfterBytes: process.memoryUsage().heapUsed,
    });
  } finally {
    await engine.close();
  }
}

main()
  .catch(async (error: unknown) => {
    const text = error instanceof Error ? (error.stack ?? error.message) : String(error);
    await send({ type: 'failed', error: text }).catch(() => console.error(text));
    process.exitCode = 1;
  })
  .finally(() => process.disconnect?.());
