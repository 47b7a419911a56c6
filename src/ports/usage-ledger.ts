/**
 * Usage of an account, added up by day (UTC): what a job that ended cost. Kept apart from jobs so that
 * totals survive the deletion of files and their jobs.
 */
export interface UsageFigures {
  /** Jobs that ended (succeeded or failed). */
  jobs: number;
  /** Jobs among them that failed. */
  failedJobs: number;
  /** Pages of the documents the jobs worked on (a document two workflows process counts twice). */
  pages: number;
  /** Pages among them read by OCR (scans and images, pictures in born-digital pages). */
  ocrPages: number;
  /** Time the jobs ran, in whole ms (stores round what they are given). */
  processingMs: number;
}

export interface UsageDay extends UsageFigures {
  /** `YYYY-MM-DD` (UTC). */
  day: string;
}

export interface UsageLedger {
  /** Adds figures to an account's day (creating it); concurrent additions all count. */
  addUsage(accountId: string, day: string, figures: UsageFigures): Promise<void>;
  /** An account's days from `fromDay` to `toDay` (both included, `YYYY-MM-DD`), oldest first; days without usage left out. */
  listUsage(accountId: string, fromDay: string, toDay: string): Promise<UsageDay[]>;
}

export const NO_USAGE: UsageFigures = { jobs: 0, failedJobs: 0, pages: 0, ocrPages: 0, processingMs: 0 };

/** The figures of several days added up. */
export function sumUsage(days: readonly UsageFigures[]): UsageFigures {
  const total = { ...NO_USAGE };
  for (const d of days) {
    total.jobs += d.jobs;
    total.failedJobs += d.failedJobs;
    total.pages += d.pages;
    total.ocrPages += d.ocrPages;
    total.processingMs += d.processingMs;
  }
  return total;
}

/** A usage row as SQL stores it (PostgreSQL answers BIGINT columns as strings). */
export interface UsageRow {
  day: string;
  jobs: number | string;
  failed_jobs: number | string;
  pages: number | string;
  ocr_pages: number | string;
  processing_ms: number | string;
}

export function usageDayOf(row: UsageRow): UsageDay {
  return {
    day: row.day,
    jobs: Number(row.jobs),
    failedJobs: Number(row.failed_jobs),
    pages: Number(row.pages),
    ocrPages: Number(row.ocr_pages),
    processingMs: Number(row.processing_ms),
  };
}
