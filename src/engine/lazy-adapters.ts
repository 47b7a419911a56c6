import type { PdfWorkerPool } from '../adapters/pdf/pdf-worker-pool.js';
import { defaultImageBackend, defaultOcrEngine, defaultPdfWorkerPool } from '../default-adapters.js';
import type { EngineOptions } from '../engine-types.js';
import type { ImageBackend } from '../ports/image-backend.js';
import type { OcrEngine } from '../ports/ocr-engine.js';
import type { PdfPageCopier } from '../ports/pdf-page-copier.js';
import type { PdfReader } from '../ports/pdf-reader.js';

/** The heavy adapters of one engine: each starts on first use and is shared by every call. */
export interface LazyAdapters {
  pdfReader(): Promise<PdfReader>;
  pdfCopier(): Promise<PdfPageCopier>;
  ocrEngine(): Promise<OcrEngine>;
  imageBackend(): Promise<ImageBackend>;
  /** Whether the OCR engine has been started (health reports it). */
  ocrStarted(): boolean;
  /** Ends the OCR workers and the PDF threads that were started. */
  close(): Promise<void>;
}

export function lazyAdapters(options: EngineOptions, maxPixels: number): LazyAdapters {
  let pdf: Promise<PdfReader> | undefined;
  let ocr: Promise<OcrEngine> | undefined;
  let images: Promise<ImageBackend> | undefined;
  let copier: Promise<PdfPageCopier> | undefined;
  // pdf.js and pdf-lib in bounded worker threads, unless the host brings its own reader and copier.
  let pdfPool: Promise<PdfWorkerPool> | undefined;
  const pdfWorkers = (): Promise<PdfWorkerPool> => {
    const settings = isPdfReader(options.pdf) ? {} : (options.pdf ?? {});
    return (pdfPool ??= defaultPdfWorkerPool({
      ...settings,
      budget: { maxImagePixels: maxPixels, ...settings.budget },
    }));
  };
  return {
    pdfReader: () => (pdf ??= isPdfReader(options.pdf) ? Promise.resolve(options.pdf) : pdfWorkers()),
    pdfCopier: () => (copier ??= options.pdfPages ? Promise.resolve(options.pdfPages) : pdfWorkers()),
    ocrEngine: () =>
      (ocr ??= isOcrEngine(options.ocr)
        ? Promise.resolve(options.ocr)
        : defaultOcrEngine(options.ocr ?? {}, options.ocrEngine ?? 'auto')),
    imageBackend: () =>
      (images ??=
        typeof options.images === 'object'
          ? Promise.resolve(options.images)
          : defaultImageBackend(options.images ?? 'auto')),
    ocrStarted: () => ocr !== undefined,
    async close() {
      if (ocr) await (await ocr).close();
      if (pdfPool) await (await pdfPool).close();
    },
  };
}

/** How many pages an OCR engine can work on at once, when it says so (both tesseract adapters do). */
export function ocrWorkers(engine: OcrEngine): number {
  const size = engine.concurrency;
  return typeof size === 'number' && size >= 1 ? Math.floor(size) : 1;
}

function isPdfReader(value: unknown): value is PdfReader {
  return typeof (value as PdfReader | undefined)?.open === 'function';
}

function isOcrEngine(value: unknown): value is OcrEngine {
  return typeof (value as OcrEngine | undefined)?.recognize === 'function';
}
