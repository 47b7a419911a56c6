import { DocexError } from '../core/errors.js';
import type { EngineOptions } from '../engine-types.js';

/** The account a call without `accountId` acts for. */
export const DEFAULT_ACCOUNT = 'default';
/** What an upload's metadata may hold: it is stored with the file record. */
export const METADATA_LIMITS = { maxDepth: 32, maxBytes: 256 * 1024 };
/** What a job's inputs may hold (the HTTP body is 1 MB at most). */
export const INPUTS_LIMITS = { maxDepth: 64, maxBytes: 4 * 1024 * 1024 };
export const MAX_RESULT_WAIT_MS = 5 * 60_000;
export const DEFAULT_RESULT_WAIT_MS = 30_000;
/** Scans and photos read with an average word confidence below this are read a second time. */
const DEFAULT_SECOND_READING_BELOW = 0.9;
/** Time a document may spend OCRing the pictures of its born-digital pages when a field needs them. */
const DEFAULT_PICTURE_BUDGET_MS = 3000;

/** The engine's options with every default filled in, resolved once (the parts read only these). */
export interface EngineSettings {
  namespace: string;
  ingest: {
    dpi: number;
    maxPixels: number;
    ocr: NonNullable<NonNullable<EngineOptions['ingest']>['ocr']>;
    /** Undefined: as many pages as the OCR engine has workers. */
    pageConcurrency: number | undefined;
    secondReadingBelow: number;
    pictureBudgetMs: number;
  };
  jobs: {
    concurrency: number;
    accountConcurrency: number;
    queueConcurrency: Record<string, number>;
    maxQueued: number;
    leaseMs: number;
    pollMs: number;
    timeoutMs: number;
    shutdownGraceMs: number;
    resumeOnStart: boolean;
    retry: { maxAttempts: number; baseDelayMs: number; maxDelayMs: number };
  };
}

export function resolveSettings(options: EngineOptions): EngineSettings {
  const namespace = options.namespace ?? 'svc';
  if (!/^[a-z][a-z0-9_-]{0,31}$/.test(namespace)) {
    throw new DocexError(
      'INVALID_ARGUMENT',
      'The namespace must be lower-case letters, digits, _ or -, starting with a letter.',
    );
  }
  const jobs = options.jobs;
  const concurrency = positive(jobs?.concurrency, 4);
  return {
    namespace,
    ingest: {
      dpi: options.ingest?.dpi ?? 300,
      maxPixels: options.ingest?.maxPixels ?? 40_000_000,
      ocr: options.ingest?.ocr ?? 'auto',
      pageConcurrency: options.ingest?.pageConcurrency,
      secondReadingBelow: options.ingest?.secondReadingBelow ?? DEFAULT_SECOND_READING_BELOW,
      pictureBudgetMs: Math.max(0, options.ingest?.pictureBudgetMs ?? DEFAULT_PICTURE_BUDGET_MS),
    },
    jobs: {
      concurrency,
      accountConcurrency: positive(jobs?.accountConcurrency, concurrency),
      queueConcurrency: { ...jobs?.queues },
      maxQueued: positive(jobs?.maxQueued, 10_000),
      leaseMs: positive(jobs?.leaseMs, 30_000),
      pollMs: positive(jobs?.pollMs, 1000),
      timeoutMs: positive(jobs?.timeoutMs, 10 * 60_000),
      shutdownGraceMs: Math.max(0, jobs?.shutdownGraceMs ?? 10_000),
      resumeOnStart: jobs?.resumeOnStart !== false,
      retry: {
        maxAttempts: positive(jobs?.retry?.maxAttempts, 3),
        baseDelayMs: Math.max(0, jobs?.retry?.baseDelayMs ?? 1000),
        maxDelayMs: Math.max(0, jobs?.retry?.maxDelayMs ?? 60_000),
      },
    },
  };
}

function positive(value: number | undefined, fallback: number): number {
  return value !== undefined && Number.isFinite(value) && value >= 1 ? Math.floor(value) : fallback;
}
