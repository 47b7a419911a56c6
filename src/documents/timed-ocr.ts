import type { OcrEngine } from '../ports/ocr-engine.js';

/**
 * An OCR engine that adds up the time its recognitions take (summed over recognitions that run at
 * once, like CPU time): the OCR time of one reading of a document. Closing it closes nothing: the
 * engine it wraps is shared.
 */
export function timedOcr(
  ocr: OcrEngine,
  now: () => number = performance.now.bind(performance),
): {
  ocr: OcrEngine;
  elapsedMs(): number;
} {
  let elapsed = 0;
  const timed: OcrEngine = {
    ...(ocr.concurrency !== undefined ? { concurrency: ocr.concurrency } : {}),
    async recognize(image, options) {
      const started = now();
      try {
        return await ocr.recognize(image, options);
      } finally {
        elapsed += now() - started;
      }
    },
    close: async () => undefined,
  };
  return { ocr: timed, elapsedMs: () => elapsed };
}
