import type { Engine } from '../engine-types.js';
import type { JobQueue } from '../queue/job-queue.js';
import { usageReport } from '../usage/report.js';
import type { EngineContext } from './context.js';

/** What an operator asks of a running engine: health, queue figures, usage, events. */
export function operationsApi(
  ctx: EngineContext,
  queue: JobQueue,
): Pick<Engine, 'health' | 'stats' | 'getUsage' | 'on'> {
  const { persistence, files } = ctx;
  return {
    async health() {
      const persistenceCheck = await probe(() => persistence.listAccounts());
      // A file id no upload has: the store is asked, nothing is found.
      const filesCheck = await probe(() =>
        files.stat('\u0000health', '00000000-0000-4000-8000-000000000000'),
      );
      const ocrCheck = { ok: true, ms: 0, started: ctx.adapters.ocrStarted() };
      const ready = !ctx.isClosed() && persistenceCheck.ok && filesCheck.ok;
      return { ready, checks: { persistence: persistenceCheck, files: filesCheck, ocr: ocrCheck } };
    },

    async stats() {
      return {
        jobsQueued: queue.queued,
        jobsRunning: queue.running,
        tasksOpen: await persistence.countTasks('open'),
      };
    },

    async getUsage(opts = {}) {
      const accountId = ctx.accountOf(opts);
      return usageReport(persistence, accountId, ctx.accounts.get(accountId).limits, ctx.now(), opts);
    },

    on: ctx.events.on,
  };
}

/** Runs a check within 2 s: ok, or why not (the error's message, never its stack). */
async function probe(check: () => Promise<unknown>): Promise<{ ok: boolean; ms: number; message?: string }> {
  const started = performance.now();
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    await Promise.race([
      check(),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error('no answer within 2 s')), 2000);
      }),
    ]);
    return { ok: true, ms: Math.round(performance.now() - started) };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return { ok: false, ms: Math.round(performance.now() - started), message: message.slice(0, 200) };
  } finally {
    clearTimeout(timer);
  }
}
