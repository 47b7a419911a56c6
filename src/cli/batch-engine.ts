import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { isDocexError } from '../core/errors.js';
import type { OcrEngineChoice } from '../default-adapters.js';
import type { OcrMode } from '../documents/ingest.js';
import { createEngine } from '../engine.js';
import type { Engine, EngineOptions } from '../engine-types.js';
import type { OcrEngine } from '../ports/ocr-engine.js';
import { extractWork, forgetting, ingestWork, splitWork, validateWork, type FileWork } from './file-work.js';

export const BATCH_COMMANDS = ['extract', 'split', 'validate', 'ingest'] as const;
export type BatchCommand = (typeof BATCH_COMMANDS)[number];

/**
 * Everything a batch's engine is made from: plain data, so that an engine thread can make the same
 * engine and work as the main thread would (src/cli/engine-thread-pool.ts).
 */
export interface BatchSetup {
  command: BatchCommand;
  ocr: OcrMode;
  /** Which OCR engine reads the scans: the host's tesseract program or tesseract.js (--ocr-engine). */
  ocrEngine?: OcrEngineChoice | undefined;
  /** Product or fieldset ids (extract: any number; validate: exactly one). */
  products: string[];
  /** validate: the rules file's id and parsed content, and its name for messages. */
  rules?: { id: string; record: unknown; file: string } | undefined;
  locale?: string | undefined;
  verbose: boolean;
  /** ingest: add the text of each file. */
  text: boolean;
  /** Keep everything in DIR (SQLite + files); in memory otherwise, each file forgotten after its line. */
  dataDir?: string | undefined;
  /** Files this engine has in flight at most. */
  concurrency: number;
  /**
   * Engine threads: the number of OCR workers the main thread shares among the threads (this engine
   * sends its pages there); undefined: the engine has OCR workers of its own, one per core.
   */
  sharedOcrWorkers?: number | undefined;
}

/** The batch cannot start: unknown product, invalid rules (a usage error, exit code 2). */
export class SetupError extends Error {}

export interface BatchEngine {
  engine: Engine;
  work: FileWork;
}

/**
 * Makes the engine of a batch and the work on one file, checking products and rules before any file.
 * `ocr`: the OCR engine to use instead of the engine's own workers (an engine thread's link to the
 * shared ones).
 */
export async function openBatchEngine(setup: BatchSetup, ocr?: OcrEngine): Promise<BatchEngine> {
  const storage = setup.dataDir ? await durableStorage(setup.dataDir) : {};
  const engine = createEngine({
    // A local batch: no upload limits beyond the machine's.
    limits: { maxFileBytes: 512 * 1024 * 1024, maxPages: 1000 },
    ingest: { ocr: setup.ocr },
    ...(setup.ocrEngine ? { ocrEngine: setup.ocrEngine } : {}),
    jobs: { concurrency: Math.max(4, setup.concurrency), shutdownGraceMs: 2000 },
    // As many PDF threads as files in flight: more would only sit idle (each holds pdf.js, ~30 MB).
    pdf: { workers: Math.max(1, setup.concurrency) },
    ...(ocr ? { ocr } : {}),
    ...storage,
  });
  try {
    let work = await prepare(setup, engine);
    // In memory, a file's data is dropped once its line is made: memory stays flat however long the
    // batch (with a data dir it is kept, as the server keeps it).
    if (!setup.dataDir) work = forgetting(engine, work);
    return { engine, work };
  } catch (error) {
    await engine.close();
    if (!isDocexError(error)) throw error;
    const details = error.details.map((d) => `\n  ${d.path ? `${d.path}: ` : ''}${d.message}`);
    throw new SetupError(`${error.message} (${error.code})${details.join('')}`);
  }
}

async function prepare(setup: BatchSetup, engine: Engine): Promise<FileWork> {
  const { products, rules } = setup;
  const options = { locale: setup.locale, verbose: setup.verbose };
  switch (setup.command) {
    case 'extract':
      engine.resolveProducts(products);
      return extractWork(engine, { products, ...options });
    case 'validate':
      engine.resolveProducts(products);
      try {
        await engine.putValidationRules(rules!.id, rules!.record);
      } catch (error) {
        if (!isDocexError(error) || error.details.length === 0) throw error;
        const problems = error.details.map((d) => `\n  ${d.path ? `${d.path}: ` : ''}${d.message}`);
        throw new SetupError(`the rules in ${rules!.file} are invalid (${error.code}):${problems.join('')}`);
      }
      return validateWork(engine, { product: products[0]!, rulesId: rules!.id, ...options });
    case 'split':
      return splitWork(engine);
    case 'ingest':
      return ingestWork(engine, { text: setup.text });
  }
}

/** The embedded durable defaults: files in DIR/files, everything else in the SQLite file DIR/docex.db. */
async function durableStorage(dir: string): Promise<Pick<EngineOptions, 'files' | 'persistence'>> {
  await mkdir(dir, { recursive: true });
  const [{ createFsFileStore }, { createSqlitePersistence }] = await Promise.all([
    import('../adapters/stores/fs-file-store.js'),
    import('../adapters/persistence/sqlite-persistence.js'),
  ]);
  return {
    files: createFsFileStore({ dir: path.join(dir, 'files') }),
    persistence: createSqlitePersistence({ path: path.join(dir, 'docex.db') }),
  };
}
