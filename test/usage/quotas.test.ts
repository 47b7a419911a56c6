import { describe, expect, it } from 'vitest';

import { DocexError } from '../../src/core/errors.js';
import type { UsageDay } from '../../src/ports/usage-ledger.js';
import { assertWithinQuota, figuresOfJob, monthStart, utcDay } from '../../src/usage/quotas.js';

const NOON_23 = Date.UTC(2026, 10, 23, 12, 0, 0);
const day = (d: string, pages: number): UsageDay => ({
  day: d,
  jobs: 1,
  failedJobs: 0,
  pages,
  ocrPages: 0,
  processingMs: 0,
});

async function refusal(promise: Promise<unknown>): Promise<DocexError> {
  try {
    await promise;
  } catch (error) {
    return error as DocexError;
  }
  throw new Error('expected a refusal');
}

describe('page quotas', () => {
  const ledger = (days: UsageDay[]) => async (from: string, to: string) =>
    days.filter((d) => d.day >= from && d.day <= to);

  it('days and months are UTC', () => {
    expect(utcDay(Date.UTC(2026, 10, 23, 23, 59, 59))).toBe('2026-11-23');
    expect(utcDay(Date.UTC(2026, 10, 24, 0, 0, 0))).toBe('2026-11-24');
    expect(monthStart(NOON_23)).toBe('2026-11-01');
  });

  it('reads nothing for an account without quotas', async () => {
    let reads = 0;
    await assertWithinQuota({}, 1000, NOON_23, async () => {
      reads++;
      return [];
    });
    expect(reads).toBe(0);
  });

  it('allows work up to the daily quota and refuses what would pass it, until next midnight', async () => {
    const usage = ledger([day('2026-11-22', 50), day('2026-11-23', 8)]);
    await assertWithinQuota({ pagesPerDay: 10 }, 2, NOON_23, usage);
    const error = await refusal(assertWithinQuota({ pagesPerDay: 10 }, 3, NOON_23, usage));
    expect(error).toBeInstanceOf(DocexError);
    expect(error.code).toBe('QUOTA_EXCEEDED');
    expect(error.httpStatus).toBe(429);
    expect(error.message).toMatch(/10 pages a day.*8 used, 3 more/);
    expect(error.retryAfterSeconds).toBe(12 * 3600);
  });

  it('counts the whole UTC month for the monthly quota, not the month before', async () => {
    const usage = ledger([day('2026-10-31', 500), day('2026-11-01', 40), day('2026-11-20', 55)]);
    await assertWithinQuota({ pagesPerMonth: 100, pagesPerDay: 10 }, 5, NOON_23, usage);
    const error = await refusal(assertWithinQuota({ pagesPerMonth: 100 }, 6, NOON_23, usage));
    expect(error.code).toBe('QUOTA_EXCEEDED');
    // Until 1 December 00:00 UTC: 7 days and 12 hours.
    expect(error.retryAfterSeconds).toBe((7 * 24 + 12) * 3600);
  });

  it('a job usage record becomes figures; what is not a count counts nothing', () => {
    expect(figuresOfJob('succeeded', { pages: 3, ocr_pages: 1, processing_ms: 40, children: 2 })).toEqual({
      jobs: 1,
      failedJobs: 0,
      pages: 3,
      ocrPages: 1,
      processingMs: 40,
    });
    expect(figuresOfJob('failed', { pages: 'x', processing_ms: -1 })).toEqual({
      jobs: 1,
      failedJobs: 1,
      pages: 0,
      ocrPages: 0,
      processingMs: 0,
    });
    expect(figuresOfJob('failed', null).jobs).toBe(1);
  });
});
