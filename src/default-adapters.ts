import type { ImageBackend } from './ports/image-backend.js';
import type { OcrEngine } from './ports/ocr-engine.js';
import type { TesseractOcrOptions } from './adapters/ocr/tesseract-ocr.js';
import type { PdfWorkerPool, PdfWorkerPoolOptions } from './adapters/pdf/pdf-worker-pool.js';

/**
 * The embedded defaults, loaded on first use only: a host that plugs in its own adapters never loads
 * pdfjs, tesseract or an image library it does not use.
 */

/**
 * PDF reading (pdf.js) and page copying (pdf-lib) in worker threads bounded in time and memory: the
 * default PdfReader and PdfPageCopier.
 */
export async function defaultPdfWorkerPool(options: PdfWorkerPoolOptions): Promise<PdfWorkerPool> {
  const { createPdfWorkerPool } = await import('./adapters/pdf/pdf-worker-pool.js');
  return createPdfWorkerPool(options);
}

export async function defaultOcrEngine(options: TesseractOcrOptions): Promise<OcrEngine> {
  const { createTesseractOcr } = await import('./adapters/ocr/tesseract-ocr.js');
  return createTesseractOcr(options);
}

/** sharp when it is installed (fast, native), jimp otherwise (pure JavaScript, always there). */
export async function defaultImageBackend(
  preference: 'sharp' | 'jimp' | 'auto' = 'auto',
): Promise<ImageBackend> {
  if (preference !== 'jimp') {
    const { createSharpImageBackend } = await import('./adapters/image/sharp-image-backend.js');
    const sharp = await createSharpImageBackend();
    if (sharp) return sharp;
    if (preference === 'sharp') throw new Error('sharp is not installed');
  }
  const { createJimpImageBackend } = await import('./adapters/image/jimp-image-backend.js');
  return createJimpImageBackend();
}
