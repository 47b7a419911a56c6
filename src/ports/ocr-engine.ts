import type { GreyImage } from './image-backend.js';

/** A recognised word, its box in pixels of the image that was recognised. */
export interface OcrWord {
  text: string;
  /** 0..1 */
  confidence: number;
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

export interface OcrOptions {
  /** Resolution the image was made at, when known: tells the recogniser the size of the print. */
  dpi?: number;
  /** Tesseract page segmentation mode; 3 (automatic) by default. */
  pageSegmentationMode?: number;
}

/**
 * Optical character recognition. Contract:
 * - `recognize` resolves with the words of the image (possibly none) or rejects with a DocexError
 *   ('OCR_FAILED', 'OCR_TIMEOUT', 'ENGINE_CLOSED'); a failure never takes the host process down and
 *   never affects other calls.
 * - Calls may overlap; the engine queues them over its workers.
 * - `close` ends every worker; calls after it reject with 'ENGINE_CLOSED'.
 */
export interface OcrEngine {
  /** Pages it recognises at once at most (the engine reads that many pages of a document together). */
  readonly concurrency?: number;
  recognize(image: GreyImage, options?: OcrOptions): Promise<OcrWord[]>;
  close(): Promise<void>;
}
