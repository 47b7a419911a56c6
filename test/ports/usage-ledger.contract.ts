import { describe, expect, it } from 'vitest';

import type { EnginePersistence } from '../../src/ports/engine-persistence.js';
import type { UsageFigures } from '../../src/ports/usage-ledger.js';
import { persistenceUnderTest, type MakePersistence } from './engine-persistence.contract.js';

const A = 'account-a';
const B = 'account-b';

function figures(overrides: Partial<UsageFigures> = {}): UsageFigures {
  return { jobs: 1, failedJobs: 0, pages: 3, ocrPages: 1, processingMs: 250, ...overrides };
}

/** The usage half of the persistence contract: every EnginePersistence adapter passes it. */
export function describeUsageLedger(name: string, make: MakePersistence): void {
  describe(`UsageLedger contract: ${name}`, () => {
    const under = persistenceUnderTest(make);
    const open = (): Promise<EnginePersistence> => under.open();

    it('adds figures up by account and day, oldest day first, within the range asked', async () => {
      const p = await open();
      await p.addUsage(A, '2026-11-23', figures());
      await p.addUsage(
        A,
        '2026-11-23',
        figures({ failedJobs: 1, pages: 2, ocrPages: 0, processingMs: 100.6 }),
      );
      await p.addUsage(A, '2026-11-21', figures({ pages: 7 }));
      await p.addUsage(A, '2026-12-01', figures({ pages: 9 }));
      await p.addUsage(B, '2026-11-23', figures({ pages: 100 }));
      expect(await p.listUsage(A, '2026-11-01', '2026-11-30')).toEqual([
        { day: '2026-11-21', jobs: 1, failedJobs: 0, pages: 7, ocrPages: 1, processingMs: 250 },
        { day: '2026-11-23', jobs: 2, failedJobs: 1, pages: 5, ocrPages: 1, processingMs: 351 },
      ]);
      // Both ends are included; another account's days are never seen.
      expect((await p.listUsage(A, '2026-11-23', '2026-12-01')).map((d) => d.day)).toEqual([
        '2026-11-23',
        '2026-12-01',
      ]);
      expect((await p.listUsage(B, '2026-01-01', '2026-12-31')).map((d) => d.pages)).toEqual([100]);
      expect(await p.listUsage('nobody', '2026-01-01', '2026-12-31')).toEqual([]);
    });

    it('counts every one of many additions made at once', async () => {
      const p = await open();
      await Promise.all(
        Array.from({ length: 20 }, () =>
          p.addUsage(A, '2026-11-23', figures({ pages: 1, processingMs: 10 })),
        ),
      );
      const [day] = await p.listUsage(A, '2026-11-23', '2026-11-23');
      expect(day).toMatchObject({ jobs: 20, pages: 20, ocrPages: 20, processingMs: 200 });
    });

    it('keeps usage when the storage is opened again', async () => {
      const p = await open();
      if (!under.durable) return expect(p.shared).toBe(false);
      await p.addUsage(A, '2026-11-23', figures());
      const again = await under.reopen();
      expect(await again.listUsage(A, '2026-11-23', '2026-11-23')).toHaveLength(1);
    });
  });
}
