import { DocexError } from '../core/errors.js';
import { sumUsage, type UsageDay } from '../ports/usage-ledger.js';

/** Pages an account may have processed per UTC day and per UTC calendar month; absent: no limit. */
export interface PageQuotas {
  pagesPerDay?: number | undefined;
  pagesPerMonth?: number | undefined;
}

/** `YYYY-MM-DD` of an instant, in UTC. */
export function utcDay(epochMs: number): string {
  return new Date(epochMs).toISOString().slice(0, 10);
}

/** The first day of the instant's UTC month. */
export function monthStart(epochMs: number): string {
  return `${utcDay(epochMs).slice(0, 7)}-01`;
}

/** Seconds from the instant to the next UTC midnight, or to the first of the next UTC month. */
function secondsUntil(epochMs: number, period: 'day' | 'month'): number {
  const d = new Date(epochMs);
  const next =
    period === 'day'
      ? Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() + 1)
      : Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1);
  return Math.max(1, Math.ceil((next - epochMs) / 1000));
}

/**
 * Refuses work (QUOTA_EXCEEDED, with the seconds until the quota's next period) when the pages already
 * processed this day or month plus `pages` would pass a quota. `usage` answers the account's days in a
 * range, read only when the account has a quota.
 */
export async function assertWithinQuota(
  quotas: PageQuotas,
  pages: number,
  now: number,
  usage: (fromDay: string, toDay: string) => Promise<UsageDay[]>,
): Promise<void> {
  const { pagesPerDay, pagesPerMonth } = quotas;
  if (pagesPerDay === undefined && pagesPerMonth === undefined) return;
  const today = utcDay(now);
  const days = await usage(monthStart(now), today);
  const check = (limit: number | undefined, used: number, period: 'day' | 'month'): void => {
    if (limit === undefined || used + pages <= limit) return;
    throw new DocexError(
      'QUOTA_EXCEEDED',
      `The account's quota of ${limit} pages a ${period} would be passed: ${used} used, ${pages} more asked.`,
      {
        details: [{ path: `/limits/pagesPer${period === 'day' ? 'Day' : 'Month'}`, message: `${limit}` }],
        retryAfterSeconds: secondsUntil(now, period),
      },
    );
  };
  check(pagesPerDay, sumUsage(days.filter((d) => d.day === today)).pages, 'day');
  check(pagesPerMonth, sumUsage(days).pages, 'month');
}

/** A job's usage record (`pages`, `ocr_pages`, `processing_ms`) as figures to add to its account's day. */
export function figuresOfJob(
  status: 'succeeded' | 'failed',
  usage: Record<string, unknown> | null,
): { jobs: number; failedJobs: number; pages: number; ocrPages: number; processingMs: number } {
  const count = (key: string): number => {
    const value = usage?.[key];
    return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : 0;
  };
  return {
    jobs: 1,
    failedJobs: status === 'failed' ? 1 : 0,
    pages: count('pages'),
    ocrPages: count('ocr_pages'),
    processingMs: count('processing_ms'),
  };
}
