import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createSqlitePersistence } from '../adapters/persistence/sqlite-persistence.js';
import { createFsFileStore } from '../adapters/stores/fs-file-store.js';
import type { TokenLayer } from '../core/types.js';
import { createEngine } from '../engine.js';
import type { Engine, EngineOptions } from '../engine-types.js';
import { readGroundTruthFiles } from './corpus.js';
import type { GroundTruth } from './scoring.js';

/** The documents of a corpus (not the multi-document files) with their ground truth. */
export function groundTruths(dir: string): GroundTruth[] {
  return readGroundTruthFiles(dir)
    .filter((gt) => typeof gt.file === 'string' && typeof gt.type === 'string' && gt.type !== 'multi')
    .map((gt) => ({ fields: {}, ...gt }) as GroundTruth);
}

export interface CorpusReader {
  engine: Engine;
  /** Stores the file (once, with a cache) and answers its id. */
  upload(file: string): Promise<string>;
  /** The token layer of a corpus document (read once, kept in the cache when there is one). */
  layer(file: string): Promise<{ fileId: string; layer: TokenLayer }>;
  close(): Promise<void>;
}

/**
 * An engine over a corpus, with `cache` keeping files and token layers between runs (a document is
 * read once: OCR costs seconds a page, extraction milliseconds).
 */
export function openCorpus(options: {
  cache?: string | undefined;
  /** How documents are read (OCR engine, second readings): a cache holds one way's token layers. */
  reading?: Pick<EngineOptions, 'ocrEngine' | 'ingest'> | undefined;
}): CorpusReader {
  const cacheIndexFile = options.cache ? path.join(options.cache, 'index.json') : undefined;
  if (options.cache) mkdirSync(options.cache, { recursive: true });
  const cacheIndex: Record<string, string> =
    cacheIndexFile && existsSync(cacheIndexFile) ? JSON.parse(readFileSync(cacheIndexFile, 'utf8')) : {};
  const engine = createEngine({
    ...options.reading,
    limits: { maxFileBytes: 512 * 1024 * 1024, maxPages: 100 },
    ...(options.cache
      ? {
          files: createFsFileStore({ dir: path.join(options.cache, 'files') }),
          persistence: createSqlitePersistence({ path: path.join(options.cache, 'docex.db') }),
        }
      : {}),
  });
  const upload = async (file: string): Promise<string> => {
    const bytes = readFileSync(file);
    const hash = createHash('sha256').update(bytes).digest('hex');
    let fileId = cacheIndex[hash];
    if (!fileId || !(await engine.getTokenLayer(fileId).catch(() => undefined))) {
      fileId = (await engine.upload(bytes, { name: path.basename(file), flow: 'v2' })).fileId;
      cacheIndex[hash] = fileId;
    }
    return fileId;
  };
  return {
    engine,
    upload,
    async layer(file) {
      const fileId = await upload(file);
      return { fileId, layer: await engine.ingest(fileId) };
    },
    async close() {
      await engine.close();
      if (cacheIndexFile) writeFileSync(cacheIndexFile, JSON.stringify(cacheIndex));
    },
  };
}
