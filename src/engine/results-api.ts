import type { Engine } from '../engine-types.js';
import { readResult } from '../results/read-result.js';
import type { EngineContext } from './context.js';
import { fileKey } from './job-queue.js';
import { DEFAULT_RESULT_WAIT_MS, MAX_RESULT_WAIT_MS } from './settings.js';

/** A file's result, waited for while its work (or its review) is under way, up to a limit. */
export function resultsApi(ctx: EngineContext): Pick<Engine, 'getResult'> {
  const { persistence, signals, namespace } = ctx;
  return {
    async getResult(fileId, opts = {}) {
      const accountId = ctx.accountOf(opts);
      const record = await ctx.requireFile(accountId, fileId);
      const started = Date.now();
      const key = fileKey(accountId, record.fileId);
      for (;;) {
        // Armed before reading, so a change between the read and the wait wakes us.
        const waiter = signals.arm(key);
        let state: Awaited<ReturnType<typeof readResult>>;
        try {
          state = await readResult(persistence, accountId, record, {
            verbose: opts.verbose === true,
            namespace,
          });
        } catch (error) {
          waiter.disarm();
          throw error;
        }
        // Default wait: 30 s for a v1 file's work or for open review tasks, none for a v2 file's work.
        const requested =
          opts.timeoutMs ?? (record.flow === 'v1' || state.openTasks ? DEFAULT_RESULT_WAIT_MS : 0);
        const cap = Math.min(MAX_RESULT_WAIT_MS, opts.maxWaitMs ?? MAX_RESULT_WAIT_MS);
        const wait = Math.min(cap, Math.max(0, Number.isFinite(requested) ? requested : 0));
        const remaining = started + wait - Date.now();
        if (state.answer || remaining <= 0 || ctx.isClosed()) {
          waiter.disarm();
          return state.answer ?? { fileId: record.fileId, status: 'IN PROGRESS' };
        }
        // With shared storage a notification can be lost (a dropped connection): look again every second.
        await waiter.wait(persistence.shared ? Math.min(remaining, 1000) : remaining);
      }
    },
  };
}
