import { DocexError, toDocexError } from '../core/errors.js';
import type { JobRecord, StoredJob, StoredResult } from '../core/jobs.js';
import type { EnginePersistence } from '../ports/engine-persistence.js';
import type { RaiseEvents } from '../ports/webhook-outbox.js';

/** What running a job produced: fields for the file's result (optional) and usage figures. */
export interface JobOutcome {
  fields?: StoredResult['fields'];
  usage?: Record<string, unknown>;
}

export interface RetryPolicy {
  /** Runs of one job at most, the first included. Default 3. */
  maxAttempts: number;
  /** Delay before the first retry; doubled for each later one, with ±20% jitter. Default 1 s. */
  baseDelayMs: number;
  /** Longest delay between two runs. Default 60 s. */
  maxDelayMs: number;
}

export interface JobQueueOptions {
  persistence: EnginePersistence;
  /** Id of this engine process (holder of the leases of the jobs it runs). */
  owner: string;
  /** Jobs running at once in this process. */
  concurrency: number;
  /** Jobs of one account running at once. */
  accountConcurrency: number;
  /** Limits of named queues (a workflow chooses its queue); unnamed ones share `concurrency`. */
  queueConcurrency: Record<string, number>;
  /** Jobs waiting (queued or waiting for a retry) beyond which new work is refused (QUEUE_FULL). */
  maxQueued: number;
  /** How long a running job's lease lasts before another process may take it over (shared storage). */
  leaseMs: number;
  /** Shared storage: how often to look for work besides the change notifications. Default 1 s. */
  pollMs?: number;
  retry: RetryPolicy;
  /** Runs the job's workflow. Rejects with the job's error. */
  execute(job: StoredJob, signal: AbortSignal): Promise<JobOutcome>;
  /** Time limit of one run of this job, in ms. */
  timeoutOf(job: StoredJob): number;
  /** Run limit of this job (its workflow may lower the queue's default). */
  maxAttemptsOf(job: StoredJob): number;
  /** Events (webhooks) a change of the job to this state raises, stored with it; none when undefined. */
  raiseOf?(job: StoredJob): RaiseEvents | undefined;
  /** Called after every stored change of a job, with the result when one was stored. */
  onChange(job: StoredJob, result?: StoredResult): void;
  /** Called when storing a change failed (the job stays as last stored and is taken up on restart). */
  onError(error: unknown, job: StoredJob | undefined): void;
  now?: () => number;
}

interface RunningJob {
  job: StoredJob;
  controller: AbortController;
}

/**
 * The in-process scheduler over a EnginePersistence: the stored job is the truth, this keeps the order,
 * the limits and the timers. Every change of a job is a compare-and-set on its version, so a job is
 * claimed, finished or cancelled once even when several processes share the storage.
 */
export class JobQueue {
  readonly #o: JobQueueOptions;
  readonly #now: () => number;
  /** Queued jobs ready to run, oldest first. */
  readonly #ready: StoredJob[] = [];
  /** Jobs waiting for a retry (or a later start): id -> timer. */
  readonly #delayed = new Map<string, { job: StoredJob; timer: ReturnType<typeof setTimeout> }>();
  readonly #running = new Map<string, RunningJob>();
  readonly #byAccount = new Map<string, number>();
  readonly #byQueue = new Map<string, number>();
  readonly #settled = new Set<() => void>();
  #stopped = false;
  /** Shared storage: jobs are claimed from the database by any process, not queued in memory. */
  readonly #shared: boolean;
  #claiming: Promise<void> | undefined;
  #claimAgain = false;
  #poll: ReturnType<typeof setInterval> | undefined;
  /** Shared storage: queued jobs of every process, as last counted. */
  #sharedQueued = 0;

  constructor(options: JobQueueOptions) {
    this.#o = options;
    this.#now = options.now ?? Date.now;
    const p = options.persistence;
    this.#shared = p.shared && typeof p.claimNext === 'function';
  }

  /** Shared storage: looks for work now (another process queued or released a job). */
  poke(): void {
    if (this.#shared) void this.#claimLoop();
  }

  /** Queued and delayed jobs of this process. */
  get queued(): number {
    return this.#ready.length + this.#delayed.size;
  }

  get running(): number {
    return this.#running.size;
  }

  /** Refuses new work when the queue is full or stopped; call before storing anything for a job. */
  assertAccepting(): void {
    if (this.#stopped)
      throw new DocexError('ENGINE_CLOSED', 'The engine is shutting down and takes no new work.');
    if (Math.max(this.queued, this.#sharedQueued) >= this.#o.maxQueued) {
      throw new DocexError(
        'QUEUE_FULL',
        `The job queue is full (${this.#o.maxQueued} jobs waiting). Try again later.`,
        { transient: true, retryAfterSeconds: 5 },
      );
    }
  }

  /** Stores a new job and queues it. */
  async submit(job: StoredJob): Promise<void> {
    this.assertAccepting();
    await this.#o.persistence.insertJob(job);
    this.#o.onChange(job);
    if (this.#shared) {
      this.#sharedQueued++;
      this.poke();
      return;
    }
    this.#enqueue(job);
    this.#pump();
  }

  /** Cancels a queued job; a running or finished one cannot be cancelled. */
  async cancel(job: StoredJob): Promise<StoredJob> {
    if (job.record.status !== 'new') {
      throw new DocexError(
        'JOB_NOT_CANCELLABLE',
        `The job is ${job.record.status}; only a queued job can be cancelled.`,
      );
    }
    const cancelled = next(job, { status: 'cancelled' }, { runAfter: 0 });
    if (!(await this.#o.persistence.updateJob(cancelled, job.record.version, this.#o.raiseOf?.(cancelled)))) {
      throw new DocexError(
        'JOB_NOT_CANCELLABLE',
        'The job changed meanwhile (it may have started); try again.',
      );
    }
    this.#forget(job.record.id);
    this.#o.onChange(cancelled);
    return cancelled;
  }

  /**
   * Takes up the unfinished jobs found in storage: queued ones are queued again, and jobs that were
   * running when a process ended are run again (at once with storage of this process alone; after
   * their lease with shared storage). A job whose runs were all cut short fails with JOB_INTERRUPTED.
   */
  async recover(): Promise<number> {
    if (this.#stopped) return 0;
    const persistence = this.#o.persistence;
    if (this.#shared) {
      // Any process takes up jobs whose lease ended, through the same claims as new work.
      const poll = this.#o.pollMs ?? 1000;
      this.#poll = setInterval(() => {
        void persistence
          .countJobs?.(['new'])
          .then((n) => (this.#sharedQueued = n))
          .catch(() => undefined);
        this.poke();
      }, poll);
      this.poke();
      return 0;
    }
    const unfinished = await persistence.listJobs({ statuses: ['new', 'running'] });
    let taken = 0;
    for (const job of unfinished) {
      if (this.#running.has(job.record.id) || this.#known(job.record.id)) continue;
      if (job.record.status === 'new') {
        this.#enqueue(job);
        taken++;
        continue;
      }
      if (persistence.shared && job.leaseUntil > this.#now()) continue;
      if (job.attempts >= this.#o.maxAttemptsOf(job)) {
        const failed = next(
          job,
          {
            status: 'failed',
            error: {
              code: 'JOB_INTERRUPTED',
              message: `The job was interrupted ${job.attempts} times (its process ended while it ran).`,
            },
          },
          { leaseOwner: null, leaseUntil: 0 },
        );
        if (await persistence.finishJob(failed, job.record.version, undefined, this.#o.raiseOf?.(failed)))
          this.#o.onChange(failed);
        continue;
      }
      const requeued = next(job, { status: 'new' }, { leaseOwner: null, leaseUntil: 0, runAfter: 0 });
      if (await persistence.updateJob(requeued, job.record.version)) {
        this.#o.onChange(requeued);
        this.#enqueue(requeued);
        taken++;
      }
    }
    this.#pump();
    return taken;
  }

  /**
   * Stops starting jobs, drops retry timers (those jobs stay queued in storage), and waits up to
   * `graceMs` for running jobs. Jobs still running after it stay `running` in storage and are taken
   * up again by the next engine on the same storage.
   */
  async stop(graceMs: number): Promise<void> {
    this.#stopped = true;
    if (this.#poll) clearInterval(this.#poll);
    // A claim in flight ends first (a job it gets is handed back), so nothing starts after stop.
    await this.#claiming?.catch(() => undefined);
    for (const { timer } of this.#delayed.values()) clearTimeout(timer);
    this.#delayed.clear();
    this.#ready.length = 0;
    if (this.#running.size === 0) return;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(done, graceMs);
      const check = (): void => {
        if (this.#running.size === 0) done();
      };
      function done(): void {
        clearTimeout(timer);
        resolve();
      }
      this.#settled.add(check);
    });
    this.#settled.clear();
    for (const { controller } of this.#running.values()) {
      controller.abort(new DocexError('ENGINE_CLOSED', 'The engine was closed while the job ran.'));
    }
  }

  #known(jobId: string): boolean {
    return this.#delayed.has(jobId) || this.#ready.some((j) => j.record.id === jobId);
  }

  #enqueue(job: StoredJob): void {
    const wait = job.runAfter - this.#now();
    if (wait > 0) {
      const timer = setTimeout(() => {
        this.#delayed.delete(job.record.id);
        this.#ready.push(job);
        this.#pump();
      }, wait);
      this.#delayed.set(job.record.id, { job, timer });
    } else {
      this.#ready.push(job);
    }
  }

  #forget(jobId: string): void {
    const delayed = this.#delayed.get(jobId);
    if (delayed) {
      clearTimeout(delayed.timer);
      this.#delayed.delete(jobId);
    }
    const index = this.#ready.findIndex((j) => j.record.id === jobId);
    if (index >= 0) this.#ready.splice(index, 1);
  }

  /** Starts every ready job the limits allow, oldest first; a busy account does not block others. */
  #pump(): void {
    if (this.#stopped) return;
    for (let i = 0; i < this.#ready.length && this.#running.size < this.#o.concurrency;) {
      const job = this.#ready[i]!;
      if (
        (this.#byAccount.get(job.accountId) ?? 0) >= this.#o.accountConcurrency ||
        (this.#byQueue.get(job.queue) ?? 0) >= (this.#o.queueConcurrency[job.queue] ?? Infinity)
      ) {
        i++;
        continue;
      }
      this.#ready.splice(i, 1);
      this.#start(job);
    }
  }

  /** Shared storage: claims jobs from the database while this process has free slots. */
  #claimLoop(): Promise<void> {
    if (this.#claiming) {
      this.#claimAgain = true;
      return this.#claiming;
    }
    this.#claiming = this.#claimWhileFree().finally(() => {
      this.#claiming = undefined;
    });
    return this.#claiming;
  }

  async #claimWhileFree(): Promise<void> {
    try {
      do {
        this.#claimAgain = false;
        while (!this.#stopped && this.#running.size < this.#o.concurrency) {
          const now = this.#now();
          const got = await this.#o.persistence.claimNext!({
            owner: this.#o.owner,
            now,
            leaseUntil: now + this.#o.leaseMs,
            excludeAccounts: [...this.#byAccount]
              .filter(([, n]) => n >= this.#o.accountConcurrency)
              .map(([a]) => a),
            excludeQueues: [...this.#byQueue]
              .filter(([q, n]) => n >= (this.#o.queueConcurrency[q] ?? Infinity))
              .map(([q]) => q),
          });
          if (!got) break;
          this.#sharedQueued = Math.max(0, this.#sharedQueued - 1);
          if (this.#stopped) {
            // Claimed while the engine was closing: handed back at once, for another process to run.
            const back = next(
              got.claimed,
              { status: 'new' },
              { leaseOwner: null, leaseUntil: 0, runAfter: 0 },
            );
            if (await this.#o.persistence.updateJob(back, got.claimed.record.version)) this.#o.onChange(back);
            break;
          }
          this.#start(got.claimed, true);
        }
      } while (this.#claimAgain && !this.#stopped);
    } catch (error) {
      this.#o.onError(error, undefined);
    }
  }

  #start(job: StoredJob, claimed = false): void {
    const controller = new AbortController();
    this.#running.set(job.record.id, { job, controller });
    bump(this.#byAccount, job.accountId, 1);
    bump(this.#byQueue, job.queue, 1);
    void (claimed ? this.#runClaimed(job, controller) : this.#run(job, controller))
      .catch((error: unknown) => this.#o.onError(error, job))
      .finally(() => {
        this.#running.delete(job.record.id);
        bump(this.#byAccount, job.accountId, -1);
        bump(this.#byQueue, job.queue, -1);
        for (const check of this.#settled) check();
        if (this.#shared) this.poke();
        else this.#pump();
      });
  }

  async #run(queued: StoredJob, controller: AbortController): Promise<void> {
    const persistence = this.#o.persistence;
    const claimed = next(
      queued,
      { status: 'running' },
      {
        attempts: queued.attempts + 1,
        leaseOwner: this.#o.owner,
        leaseUntil: this.#now() + this.#o.leaseMs,
      },
    );
    delete claimed.record.error;
    if (!(await persistence.updateJob(claimed, queued.record.version))) return; // cancelled or taken
    await this.#runClaimed(claimed, controller);
  }

  /** Runs a job this process holds, and stores how it ended. */
  async #runClaimed(claimed: StoredJob, controller: AbortController): Promise<void> {
    const persistence = this.#o.persistence;
    this.#o.onChange(claimed);
    if (claimed.attempts > this.#o.maxAttemptsOf(claimed)) {
      // Taken over after its last attempt was cut short (its process died while it ran).
      const failed = next(
        claimed,
        {
          status: 'failed',
          error: {
            code: 'JOB_INTERRUPTED',
            message: `The job was interrupted ${claimed.attempts - 1} times (its process ended while it ran).`,
          },
        },
        { leaseOwner: null, leaseUntil: 0 },
      );
      if (await persistence.finishJob(failed, claimed.record.version, undefined, this.#o.raiseOf?.(failed)))
        this.#o.onChange(failed);
      return;
    }

    const renew = persistence.shared
      ? setInterval(() => {
          persistence
            .renewLease(claimed.record.id, this.#o.owner, this.#now() + this.#o.leaseMs)
            .then((held) => {
              if (!held) controller.abort(new DocexError('JOB_INTERRUPTED', 'The job was taken over.'));
            })
            .catch(() => undefined);
        }, this.#o.leaseMs / 3)
      : undefined;
    let outcome: JobOutcome | undefined;
    let failure: DocexError | undefined;
    const started = this.#now();
    try {
      outcome = await withTimeout(
        this.#o.execute(claimed, controller.signal),
        controller,
        this.#o.timeoutOf(claimed),
      );
    } catch (error) {
      failure = toDocexError(error);
    } finally {
      if (renew) clearInterval(renew);
    }
    // Taken over by another process, or cut short by a shutdown: the job stays as stored, to be
    // finished by whoever holds it or taken up by the next engine.
    if (failure?.code === 'JOB_INTERRUPTED' && controller.signal.aborted) return;
    if (failure?.code === 'ENGINE_CLOSED' && this.#stopped) return;

    const released = { leaseOwner: null, leaseUntil: 0 };
    // The run's time on the job clock, beside what the workflow reports (pages, pages OCRed...).
    const processing = { processing_ms: Math.max(0, Math.round(this.#now() - started)) };
    if (!failure) {
      const usage = { ...outcome?.usage, ...processing };
      const done = next(claimed, { status: 'succeeded', usage }, released);
      const result: StoredResult | undefined = outcome?.fields
        ? {
            jobId: done.record.id,
            accountId: done.accountId,
            fileId: done.record.file_id ?? '',
            workflowId: done.record.workflow_id,
            jobCreated: done.record.created,
            timestamp: new Date(this.#now()).toISOString(),
            fields: outcome.fields,
          }
        : undefined;
      if (await persistence.finishJob(done, claimed.record.version, result, this.#o.raiseOf?.(done)))
        this.#o.onChange(done, result);
      return;
    }
    if (failure.transient && claimed.attempts < this.#o.maxAttemptsOf(claimed)) {
      const retry = next(
        claimed,
        { status: 'new', error: errorOf(failure) },
        { ...released, runAfter: this.#now() + this.#backoff(claimed.attempts) },
      );
      if (await persistence.updateJob(retry, claimed.record.version)) {
        this.#o.onChange(retry);
        if (!this.#stopped && !this.#shared) this.#enqueue(retry);
      }
      return;
    }
    const failed = next(
      claimed,
      { status: 'failed', error: errorOf(failure), usage: processing },
      {
        ...released,
        ...causeOf(failure),
      },
    );
    if (await persistence.finishJob(failed, claimed.record.version, undefined, this.#o.raiseOf?.(failed)))
      this.#o.onChange(failed);
  }

  #backoff(attempts: number): number {
    const { baseDelayMs, maxDelayMs } = this.#o.retry;
    const delay = Math.min(maxDelayMs, baseDelayMs * 2 ** (attempts - 1));
    return Math.round(delay * (0.8 + Math.random() * 0.4));
  }
}

/** The job with a changed record (version bumped) and changed queue fields. */
function next(job: StoredJob, record: Partial<JobRecord>, rest: Partial<StoredJob> = {}): StoredJob {
  return { ...job, ...rest, record: { ...job.record, ...record, version: job.record.version + 1 } };
}

/** The cause behind an INTERNAL failure, for the stored job (its stack cut at 4 KB). */
function causeOf(error: DocexError): Pick<StoredJob, 'cause'> {
  if (error.code !== 'INTERNAL' || !(error.cause instanceof Error)) return {};
  const cause = error.cause;
  return {
    cause: {
      name: cause.name,
      message: cause.message.slice(0, 1000),
      ...(cause.stack ? { stack: cause.stack.slice(0, 4096) } : {}),
    },
  };
}

function errorOf(error: DocexError): NonNullable<JobRecord['error']> {
  return error.details.length > 0
    ? { code: error.code, message: error.message, details: error.details }
    : { code: error.code, message: error.message };
}

function bump(counts: Map<string, number>, key: string, by: number): void {
  const value = (counts.get(key) ?? 0) + by;
  if (value > 0) counts.set(key, value);
  else counts.delete(key);
}

/** Rejects with JOB_TIMEOUT after `ms` and aborts the run's signal, so cooperative work stops. */
function withTimeout<T>(work: Promise<T>, controller: AbortController, ms: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = Number.isFinite(ms)
      ? setTimeout(() => {
          const error = new DocexError('JOB_TIMEOUT', `The job did not finish within ${ms} ms.`);
          controller.abort(error);
          reject(error);
        }, ms)
      : undefined;
    const aborted = (): void => {
      clearTimeout(timer);
      reject(toDocexError(controller.signal.reason));
    };
    controller.signal.addEventListener('abort', aborted, { once: true });
    work.then(
      (value) => {
        clearTimeout(timer);
        controller.signal.removeEventListener('abort', aborted);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        controller.signal.removeEventListener('abort', aborted);
        reject(error);
      },
    );
  });
}
