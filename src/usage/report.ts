import { DocexError } from '../core/errors.js';
import type { AccountLimits } from '../core/accounts.js';
import { sumUsage, type UsageLedger } from '../ports/usage-ledger.js';
import type { UsageReport } from '../engine-types.js';
import { monthStart, utcDay } from './quotas.js';

const DAY = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/;
/** A report covers at most this many days. */
const MAX_DAYS = 366;

/** An account's usage from `from` to `to` (default: the current UTC month), with its quotas. */
export async function usageReport(
  ledger: UsageLedger,
  accountId: string,
  limits: AccountLimits,
  now: number,
  range: { from?: string | undefined; to?: string | undefined },
): Promise<UsageReport> {
  const today = utcDay(now);
  const from = range.from ?? monthStart(now);
  const to = range.to ?? today;
  for (const [name, value] of [
    ['from', from],
    ['to', to],
  ] as const) {
    if (!DAY.test(value) || Number.isNaN(Date.parse(`${value}T00:00:00Z`))) {
      throw new DocexError('INVALID_ARGUMENT', `${name} must be a day, YYYY-MM-DD.`, {
        details: [{ path: `/${name}`, message: 'must be a day, YYYY-MM-DD' }],
      });
    }
  }
  const span = (Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000;
  if (span < 0 || span >= MAX_DAYS) {
    throw new DocexError(
      'INVALID_ARGUMENT',
      `from must be a day before to, at most ${MAX_DAYS} days apart.`,
      {
        details: [{ path: '/from', message: `at most ${MAX_DAYS} days before to` }],
      },
    );
  }
  // One read covers the range asked and the current month (for the quotas).
  const first = monthStart(now);
  const read = await ledger.listUsage(accountId, from < first ? from : first, to > today ? to : today);
  const days = read.filter((d) => d.day >= from && d.day <= to);
  const month = read.filter((d) => d.day >= first && d.day <= today);
  return {
    from,
    to,
    days,
    total: sumUsage(days),
    quotas: {
      pagesPerDay: limits.pagesPerDay ?? null,
      pagesPerMonth: limits.pagesPerMonth ?? null,
      usedToday: sumUsage(month.filter((d) => d.day === today)).pages,
      usedThisMonth: sumUsage(month).pages,
    },
  };
}
