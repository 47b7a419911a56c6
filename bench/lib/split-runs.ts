/**
 * Pieces of the split benchmark (bench/sections/split.ts): svc.split run through the engine and
 * timed from invoke to result, the adapters wrapped so their calls are timed (the OCR engine, the PDF
 * reader, the page copier), and the found children scored against the true segments.
 */
import type { Engine } from '../../src/index.js';
import type { SplitFieldResult } from '../../src/extraction/types.js';
import type { TesseractOcr } from '../../src/adapters/ocr/tesseract-ocr.js';
import type { OcrEngine } from '../../src/ports/ocr-engine.js';
import type { PdfPageCopier } from '../../src/ports/pdf-page-copier.js';
import type { PdfDocument, PdfPage, PdfReader } from '../../src/ports/pdf-reader.js';

/** Calls of one kind: how many, their summed duration, and each one's [start, end] (performance.now). */
export interface CallTimes {
  calls: number;
  ms: number;
  spans: Array<[number, number]>;
}

export type Timings = Record<string, CallTimes>;

function newTimes(): CallTimes {
  return { calls: 0, ms: 0, spans: [] };
}

/** Forgets every call recorded so far (before a phase is measured). */
export function resetTimings(timings: Timings): void {
  for (const t of Object.values(timings)) Object.assign(t, newTimes());
}

async function timeCall<T>(timings: Timings, name: string, work: () => Promise<T>): Promise<T> {
  const times = (timings[name] ??= newTimes());
  const start = performance.now();
  try {
    return await work();
  } finally {
    const end = performance.now();
    times.calls++;
    times.ms += end - start;
    times.spans.push([start, end]);
  }
}

/** Milliseconds in [from, to] during which at least one of the spans was running. */
export function coveredMs(spans: ReadonlyArray<readonly [number, number]>, from: number, to: number): number {
  const clipped = spans
    .map(([a, b]) => [Math.max(a, from), Math.min(b, to)] as const)
    .filter(([a, b]) => b > a)
    .sort((x, y) => x[0] - y[0]);
  let total = 0;
  let end = -Infinity;
  for (const [a, b] of clipped) {
    if (b <= end) continue;
    total += b - Math.max(a, end);
    end = b;
  }
  return total;
}

/**
 * The tesseract.js pool with every `recognize` timed, and the pixels it was given counted. `size` is
 * passed on: the engine reads as many pages at once as the pool has workers.
 */
export function timedOcr(inner: TesseractOcr): {
  ocr: OcrEngine & { size: number };
  timings: Timings;
  pixels: { count: number };
} {
  const timings: Timings = { recognize: newTimes() };
  const pixels = { count: 0 };
  const ocr: OcrEngine & { size: number } = {
    size: inner.size,
    recognize(image, options) {
      pixels.count += image.width * image.height;
      return timeCall(timings, 'recognize', () => inner.recognize(image, options));
    },
    close: () => inner.close(),
  };
  return { ocr, timings, pixels };
}

const PAGE_METHODS = ['textRuns', 'hasImages', 'scanImage', 'imagePlacements', 'render'] as const;

/**
 * The PDF reader with its work timed: opening and closing documents (`open`: upload page counts,
 * ingestion) and the page calls that read text or pictures.
 */
export function timedPdfReader(inner: PdfReader): { reader: PdfReader; timings: Timings } {
  const timings: Timings = {};
  const wrapPage = (page: PdfPage): PdfPage =>
    new Proxy(page, {
      get(target, key, receiver) {
        const value: unknown = Reflect.get(target, key, receiver);
        if (typeof value !== 'function') return value;
        const method = (value as (...a: unknown[]) => unknown).bind(target);
        if (!(PAGE_METHODS as readonly (string | symbol)[]).includes(key)) return method;
        return (...args: unknown[]) =>
          timeCall(timings, String(key), () => method(...args) as Promise<unknown>);
      },
    });
  const reader: PdfReader = {
    async open(bytes, options) {
      const doc = await timeCall(timings, 'open', () => inner.open(bytes, options));
      const wrapped: PdfDocument = {
        get pageCount() {
          return doc.pageCount;
        },
        page: async (pageNum) => wrapPage(await doc.page(pageNum)),
        close: () => timeCall(timings, 'open', () => doc.close()),
      };
      return wrapped;
    },
  };
  return { reader, timings };
}

/** The page copier (split children's PDFs) with each call timed. */
export function timedCopier(inner: PdfPageCopier): { copier: PdfPageCopier; timings: Timings } {
  const timings: Timings = {};
  return {
    copier: {
      copyPages: (pdf, ranges) => timeCall(timings, 'copyPages', () => inner.copyPages(pdf, ranges)),
    },
    timings,
  };
}

export interface SplitRun {
  /** Invoke called to result returned (the verbose FINALISED result). */
  seconds: number;
  /** Invoke called to the job's `running` event, its `succeeded` event, and the result returned. */
  queuedMs: number;
  runMs: number;
  resultMs: number;
  /** performance.now() at invoke and at the result. */
  start: number;
  end: number;
  children: NonNullable<SplitFieldResult['children']>;
  decisions: NonNullable<SplitFieldResult['decisions']>;
  usage: Record<string, unknown> | null;
}

/**
 * svc.split on an uploaded file: `engine.invoke`, then `engine.getResult(verbose)` waiting for the
 * job. The job's own running time is read from the engine's `job` events.
 */
export async function runSplit(engine: Engine, fileId: string, timeoutMs: number): Promise<SplitRun> {
  const marks: { running?: number; done?: number } = {};
  let usage: Record<string, unknown> | null = null;
  const unsubscribe = engine.on('job', ({ job }) => {
    if (job.file_id !== fileId || job.workflow_id !== 'svc.split') return;
    if (job.status === 'running') marks.running ??= performance.now();
    else if (job.status === 'succeeded' || job.status === 'failed') {
      marks.done ??= performance.now();
      usage = job.usage;
    }
  });
  try {
    const start = performance.now();
    await engine.invoke('svc.split', { inputs: { file_id: fileId } });
    const result = await engine.getResult(fileId, { timeoutMs, verbose: true });
    const end = performance.now();
    if (result.status !== 'FINALISED') {
      throw new Error(`bench split: no result within ${timeoutMs / 1000} s (${result.status})`);
    }
    const field = result.results.fields.find((f) => f.name === 'components.children') as
      SplitFieldResult | undefined;
    if (!field?.children) throw new Error('bench split: the result has no verbose components.children');
    const running = marks.running ?? start;
    const done = marks.done ?? end;
    return {
      seconds: (end - start) / 1000,
      queuedMs: running - start,
      runMs: done - running,
      resultMs: end - done,
      start,
      end,
      children: field.children,
      decisions: field.decisions ?? [],
      usage,
    };
  } finally {
    unsubscribe();
  }
}

export interface SplitScore {
  /** Every child's pages equal a true segment's, in order. */
  exact: boolean;
  documents: number;
  children: number;
  /** Boundaries are the pages where a document starts, after page 1 (as score_split.py counts them). */
  precision: number;
  recall: number;
  f1: number;
  /** Boundaries missed (a document glued to the one before) and found where there is none (a cut). */
  missed: number[];
  extra: number[];
}

export function scoreSplit(
  truth: ReadonlyArray<readonly [number, number]>,
  found: ReadonlyArray<readonly [number, number]>,
): SplitScore {
  const starts = (segments: ReadonlyArray<readonly [number, number]>): Set<number> =>
    new Set(segments.slice(1).map((s) => s[0]));
  const want = starts(truth);
  const got = starts(found);
  const hits = [...got].filter((p) => want.has(p)).length;
  const precision = got.size === 0 ? (want.size === 0 ? 1 : 0) : hits / got.size;
  const recall = want.size === 0 ? 1 : hits / want.size;
  return {
    exact: JSON.stringify(truth) === JSON.stringify(found),
    documents: truth.length,
    children: found.length,
    precision,
    recall,
    f1: precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall),
    missed: [...want].filter((p) => !got.has(p)),
    extra: [...got].filter((p) => !want.has(p)),
  };
}

/** The wrong decisions of a split, each with its evidence (what a reviewer would read). */
export function wrongDecisions(
  truth: ReadonlyArray<readonly [number, number]>,
  decisions: SplitRun['decisions'],
): string[] {
  const starts = new Set(truth.map((s) => s[0]));
  return decisions
    .filter((d) => d.start !== starts.has(d.pageNum))
    .map(
      (d) =>
        `page ${d.pageNum}: start=${d.start} (confidence ${d.confidence}; truth ${starts.has(d.pageNum) ? 'starts' : 'continues'}): ${d.reasons.join('; ')}`,
    );
}
