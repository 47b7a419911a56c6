import { toDocexError } from '../core/errors.js';
import type { JobQueue } from '../queue/job-queue.js';
import type { EngineContext } from './context.js';
import { fileKey } from './job-queue.js';

export interface EngineLifecycle {
  /** Settles when the engine has started and, unless the host says when, taken up unfinished jobs. */
  ready: Promise<void>;
  resumeJobs(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Starts an engine after the current macrotask, so workflows the host registers right after
 * createEngine are known by then; unfinished jobs of an earlier engine on the same persistence are
 * taken up then too, unless the host asked to say when (a server first listens, then takes them up).
 */
export function startEngine(ctx: EngineContext, queue: JobQueue): EngineLifecycle {
  const { persistence, dispatcher, signals } = ctx;
  let unsubscribe: (() => Promise<void>) | undefined;
  const started = new Promise<void>((resolve) => setTimeout(resolve, 0)).then(async () => {
    // Closed before it started (createEngine then close at once): nothing to take up.
    if (ctx.isClosed()) return;
    // Shared storage: other processes' changes wake result requests waiting here, and new or released
    // jobs wake this process's claims.
    if (persistence.shared && persistence.subscribe) {
      unsubscribe = await persistence.subscribe((change) => {
        if (change.fileId) signals.notify(fileKey(change.accountId, change.fileId));
        if (change.kind === 'job') queue.poke();
        dispatcher?.poke();
      });
    }
    // Accounts stored by an earlier engine, unless this one configured them already.
    for (const { accountId, settings } of await persistence.listAccounts()) {
      if (!ctx.accounts.has(accountId)) ctx.accounts.configure(accountId, settings);
    }
    // Deliveries an earlier process left (its crash included) are sent from now on.
    if (!ctx.isClosed()) dispatcher?.start();
  });
  let resumed: Promise<void> | undefined;
  const startFailed = (error: unknown): void => {
    ctx.emit('error', {
      jobId: '',
      error: toDocexError(error, 'INTERNAL', 'Unfinished jobs could not be taken up.'),
    });
  };
  const resumeJobs = (): Promise<void> =>
    (resumed ??= started
      .then(async () => {
        if (!ctx.isClosed()) await queue.recover();
      })
      .catch(startFailed));
  const ready = ctx.settings.jobs.resumeOnStart ? resumeJobs() : started.catch(startFailed);

  return {
    ready,
    resumeJobs,
    async close() {
      if (ctx.isClosed()) return;
      ctx.markClosed();
      signals.notifyAll();
      await ready.catch(() => undefined);
      await resumed?.catch(() => undefined);
      await queue.stop(ctx.settings.jobs.shutdownGraceMs);
      await dispatcher?.stop();
      await ctx.settleWrites();
      await unsubscribe?.().catch(() => undefined);
      await ctx.adapters.close();
      await persistence.close();
    },
  };
}
