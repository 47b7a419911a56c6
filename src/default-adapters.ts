import type { PdfPageCopier } from './ports/pdf-page-copier.js';
import type { ImageBackend } from './ports/image-backend.js';
import type { OcrEngine } from './ports/ocr-engine.js';
import type { PdfReader } from './ports/pdf-reader.js';
import type { TesseractOcrOptions } from './adapters/ocr/tesseract-ocr.js';

/**
 * The embedded defaults, loaded on first use only: a host that plugs in its own adapters never loads
 * pdfjs, tesseract or an image library it does not use.
 */
export async function defaultPdfReader(): Promise<PdfReader> {
  const { createPdfjsReader } = await import('./adapters/pdf/pdfjs-reader.js');
  return createPdfjsReader();
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

export async function defaultPdfPageCopier(): Promise<PdfPageCopier> {
  const { createPdfLibCopier } = await import('./adapters/pdf/pdf-lib-copier.js');
  return createPdfLibCopier();
}
