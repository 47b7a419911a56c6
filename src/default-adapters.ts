import { DocexError } from './core/errors.js';
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

/** Which OCR adapter: the host's tesseract program when it is there (`auto`), always it, or tesseract.js. */
export type OcrEngineChoice = 'auto' | 'native' | 'wasm';

/** Options of the default OCR engines: the tesseract.js pool's, and the native program's name. */
export type DefaultOcrOptions = TesseractOcrOptions & {
  /** The tesseract program (5.x) of the native adapter. Default `tesseract` on PATH. */
  binary?: string;
};

/**
 * The default OCR engine. `auto`: the host's tesseract program (5.x) when it runs, about twice as fast
 * as WebAssembly, else tesseract.js, which needs nothing installed; both read the same model file.
 * `native` without the program fails with OCR_FAILED saying so.
 */
export async function defaultOcrEngine(
  options: DefaultOcrOptions,
  choice: OcrEngineChoice = 'auto',
): Promise<OcrEngine> {
  const { binary, ...wasm } = options;
  if (choice !== 'wasm') {
    const native = await import('./adapters/ocr/native-tesseract-ocr.js');
    if (await native.nativeTesseractVersion(binary)) {
      return native.createNativeTesseractOcr({
        ...(binary !== undefined ? { binary } : {}),
        ...(wasm.workers !== undefined ? { workers: wasm.workers } : {}),
        ...(wasm.pageTimeoutMs !== undefined ? { pageTimeoutMs: wasm.pageTimeoutMs } : {}),
        ...(wasm.languages !== undefined ? { languages: wasm.languages } : {}),
      });
    }
    if (choice === 'native') {
      throw new DocexError(
        'OCR_FAILED',
        `The native OCR engine needs the tesseract program, 5.x (${binary ?? 'tesseract'} on PATH; Debian: apt-get install tesseract-ocr).`,
      );
    }
  }
  const { createTesseractOcr } = await import('./adapters/ocr/tesseract-ocr.js');
  return createTesseractOcr(wasm);
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
