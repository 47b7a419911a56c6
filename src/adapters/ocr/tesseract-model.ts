import { createRequire } from 'node:module';
import path from 'node:path';

/**
 * The English model folder of @tesseract.js-data/eng (LSTM "best_int", `eng.traineddata.gz`): the one
 * model both OCR paths read, shipped in the npm package, nothing downloaded.
 */
export function englishModelDir(): string {
  const require = createRequire(import.meta.url);
  return path.join(path.dirname(require.resolve('@tesseract.js-data/eng/package.json')), '4.0.0_best_int');
}
