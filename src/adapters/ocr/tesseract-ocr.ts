import { access } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import Tesseract from 'tesseract.js';
import { DocexError, toDocexError } from '../../core/errors.js';
import { encodePgm } from '../../documents/raster.js';
import type { GreyImage } from '../../ports/image-backend.js';
import type { OcrEngine, OcrOptions, OcrWord } from '../../ports/ocr-engine.js';
import { englishModelDir } from './tesseract-model.js';

export interface TesseractOcrOptions {
  /** Number of workers (each one thread with its own model in memory). Default: one per core. */
  workers?: number;
  /** A worker is replaced after this many pages: tesseract's wasm heap only grows. Default 50. */
  recycleAfterPages?: number;
  /** A worker is replaced after a page when the process's resident memory is above this. Default 1500 MB. */
  recycleAboveRssMb?: number;
  /** A page taking longer fails with OCR_TIMEOUT and its worker is replaced. Default 120 s. */
  pageTimeoutMs?: number;
  /** A worker that has not started by then fails the page with OCR_FAILED. Default 30 s. */
  startTimeoutMs?: number;
  /**
   * Language packs: each a code and a folder holding `<code>.traineddata.gz`. English comes from
   * @tesseract.js-data/eng (LSTM "best_int" model), shipped in the npm package: nothing is downloaded.
   */
  languages?: Array<{ code: string; dir: string }>;
}

interface PooledWorker {
  worker: Tesseract.Worker;
  pages: number;
}

interface PendingJob {
  image: GreyImage;
  options: OcrOptions;
  resolve: (words: OcrWord[]) => void;
  reject: (error: unknown) => void;
}

export { englishModelDir };

/** Bitmaps above this many pixels grow a worker's heap for good: the worker is replaced after them. */
const LARGE_IMAGE_PIXELS = 16_000_000;

export interface TesseractOcr extends OcrEngine {
  /** Number of workers the pool runs at most. */
  readonly size: number;
  readonly concurrency: number;
  /** Workers started and retired so far, and pages recognised: for monitoring. */
  stats(): { started: number; retired: number; live: number; pages: number; failures: number };
}

export function createTesseractOcr(options: TesseractOcrOptions = {}): TesseractOcr {
  const size = Math.max(1, options.workers ?? os.availableParallelism());
  const recycleAfterPages = options.recycleAfterPages ?? 50;
  const recycleAboveRss = (options.recycleAboveRssMb ?? 1500) * 1024 * 1024;
  const pageTimeoutMs = options.pageTimeoutMs ?? 120_000;
  const startTimeoutMs = options.startTimeoutMs ?? 30_000;
  const languages = options.languages ?? [{ code: 'eng', dir: englishModelDir() }];
  if (languages.length === 0 || languages.some((l) => !/^[A-Za-z0-9_]{1,32}$/.test(l.code))) {
    throw new DocexError(
      'INVALID_ARGUMENT',
      'OCR languages need at least one pack, each with a code of letters, digits or _.',
    );
  }
  // tesseract.js reads every pack from one folder: a host with packs from several npm packages copies
  // them into one folder (the English model's folder holds only English).
  if (new Set(languages.map((l) => l.dir)).size !== 1) {
    throw new DocexError('INVALID_ARGUMENT', 'All OCR language packs must be in one folder.');
  }

  const idle: PooledWorker[] = [];
  const queue: PendingJob[] = [];
  let running = 0;
  let closed = false;
  const live = new Set<PooledWorker>();
  const counters = { started: 0, retired: 0, pages: 0, failures: 0 };

  async function startWorker(): Promise<PooledWorker> {
    const missing = await firstMissingPack(languages);
    if (missing)
      throw new DocexError('OCR_FAILED', `No OCR language pack "${missing.code}" in ${missing.dir}.`);
    const creating = Tesseract.createWorker(
      languages.map((l) => l.code),
      Tesseract.OEM.LSTM_ONLY,
      {
        langPath: languages[0]!.dir,
        gzip: true,
        cacheMethod: 'none',
        // Without a handler a bad image throws inside the worker's message handler and ends the process.
        errorHandler: () => undefined,
      },
    );
    const worker = await withTimeout(creating, startTimeoutMs, () => {
      // A language load that fails never settles: end the worker if it appears late.
      void creating.then((w) => w.terminate()).catch(() => undefined);
      return new DocexError('OCR_FAILED', 'The OCR engine did not start in time.');
    });
    if (closed) {
      await worker.terminate().catch(() => undefined);
      throw new DocexError('ENGINE_CLOSED', 'The OCR engine has been closed.');
    }
    const pooled = { worker, pages: 0 };
    live.add(pooled);
    counters.started++;
    return pooled;
  }

  async function discard(pooled: PooledWorker): Promise<void> {
    if (!live.delete(pooled)) return;
    counters.retired++;
    await pooled.worker.terminate().catch(() => undefined);
  }

  async function runJob(job: PendingJob): Promise<void> {
    let pooled: PooledWorker | undefined;
    try {
      pooled = idle.pop() ?? (await startWorker());
      const words = await recognizeOn(pooled, job);
      pooled.pages++;
      counters.pages++;
      const large = job.image.width * job.image.height > LARGE_IMAGE_PIXELS;
      if (
        closed ||
        large ||
        pooled.pages >= recycleAfterPages ||
        process.memoryUsage().rss > recycleAboveRss
      ) {
        await discard(pooled);
      } else {
        idle.push(pooled);
      }
      job.resolve(words);
    } catch (error) {
      counters.failures++;
      if (pooled) await discard(pooled);
      job.reject(toDocexError(error, 'OCR_FAILED', 'Text recognition failed on this page.'));
    }
  }

  async function recognizeOn(pooled: PooledWorker, job: PendingJob): Promise<OcrWord[]> {
    const params: Partial<Tesseract.WorkerParams> = {
      tessedit_pageseg_mode: String(job.options.pageSegmentationMode ?? 3) as Tesseract.PSM,
      // Tesseract's notes ("Estimating resolution as ...") would go to the host's stdout.
      debug_file: '/dev/null',
    };
    if (job.options.dpi) params.user_defined_dpi = String(Math.round(job.options.dpi));
    await pooled.worker.setParameters(params);
    const result = await withTimeout(
      pooled.worker.recognize(asBuffer(encodePgm(job.image)), {}, { blocks: true, text: false }),
      pageTimeoutMs,
      () => new DocexError('OCR_TIMEOUT', `Text recognition took longer than ${pageTimeoutMs} ms on a page.`),
    );
    const words: OcrWord[] = [];
    for (const block of result.data.blocks ?? []) {
      for (const paragraph of block.paragraphs) {
        for (const line of paragraph.lines) {
          for (const word of line.words) {
            const text = word.text.trim();
            if (text === '') continue;
            words.push({
              text,
              confidence: Math.max(0, Math.min(1, word.confidence / 100)),
              x0: word.bbox.x0,
              y0: word.bbox.y0,
              x1: word.bbox.x1,
              y1: word.bbox.y1,
            });
          }
        }
      }
    }
    return words;
  }

  function pump(): void {
    while (!closed && running < size && queue.length > 0) {
      const job = queue.shift()!;
      running++;
      void runJob(job).finally(() => {
        running--;
        pump();
      });
    }
  }

  return {
    size,
    concurrency: size,
    stats: () => ({ ...counters, live: live.size }),
    recognize(image: GreyImage, opts: OcrOptions = {}): Promise<OcrWord[]> {
      if (closed) return Promise.reject(new DocexError('ENGINE_CLOSED', 'The OCR engine has been closed.'));
      if (image.width < 1 || image.height < 1) return Promise.resolve([]);
      return new Promise<OcrWord[]>((resolve, reject) => {
        queue.push({ image, options: opts, resolve, reject });
        pump();
      });
    },
    async close(): Promise<void> {
      closed = true;
      for (const job of queue.splice(0)) {
        job.reject(new DocexError('ENGINE_CLOSED', 'The OCR engine has been closed.'));
      }
      idle.length = 0;
      await Promise.all([...live].map((w) => discard(w)));
    },
  };
}

/** The first pack whose file is not there: tesseract.js would otherwise wait for it forever. */
async function firstMissingPack(
  packs: Array<{ code: string; dir: string }>,
): Promise<{ code: string; dir: string } | undefined> {
  for (const pack of packs) {
    try {
      await access(path.join(pack.dir, `${pack.code}.traineddata.gz`));
    } catch {
      return pack;
    }
  }
  return undefined;
}

function withTimeout<T>(promise: Promise<T>, ms: number, onTimeout: () => Error): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(onTimeout()), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** A Buffer over the same memory (no copy: a page bitmap is megabytes). */
function asBuffer(bytes: Uint8Array): Buffer {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}
