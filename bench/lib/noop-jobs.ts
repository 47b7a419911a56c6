/** No-op jobs through an engine (sections queue and pg), and the Promise pool they are measured against. */
import type { Engine } from '../../src/index.js';
import type { WorkflowDefinition } from '../../src/workflows/types.js';
import { runPool } from './native.js';

export const NOOP_WORKFLOW_ID = 'bench.noop';

/** A workflow that does nothing: what is left of a job's time is the queue's own work. */
export const noopWorkflow: WorkflowDefinition = {
  id: NOOP_WORKFLOW_ID,
  inputsSchema: { type: 'object', properties: { n: { type: 'number' } }, additionalProperties: false },
  run: async () => ({}),
};

export interface QueueRun {
  jobs: number;
  succeeded: number;
  failed: number;
  /** The error of the first failed job, if any. */
  firstError?: string;
  /** First invoke called to last job finished. */
  seconds: number;
  jobsPerSecond: number;
  /** First invoke called to last invoke returned (jobs run meanwhile). */
  invokeSeconds: number;
  /** One `await engine.invoke(...)`, in ms. */
  invokeMs: { mean: number; p50: number; p99: number; max: number };
}

/**
 * Invokes `count` no-op jobs one after another as fast as `invoke` returns, then waits until every
 * one has finished, counted from the engine's `job` events (no polling). Rejects when they do not all
 * finish within `timeoutMs` (a stuck queue must not hang the benchmark).
 */
export async function runNoopJobs(engine: Engine, count: number, timeoutMs = 120_000): Promise<QueueRun> {
  let succeeded = 0;
  let failed = 0;
  let firstError: string | undefined;
  let lastFinished = 0;
  let allDone!: () => void;
  const finished = new Promise<void>((resolve) => (allDone = resolve));
  const unsubscribe = engine.on('job', ({ job }) => {
    if (job.workflow_id !== NOOP_WORKFLOW_ID) return;
    if (job.status === 'succeeded') succeeded++;
    else if (job.status === 'failed') {
      failed++;
      firstError ??= `${job.error?.code}: ${job.error?.message}`;
    } else return;
    if (succeeded + failed === count) {
      lastFinished = performance.now();
      allDone();
    }
  });
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    const latencies = new Float64Array(count);
    const start = performance.now();
    for (let i = 0; i < count; i++) {
      const before = performance.now();
      await engine.invoke(NOOP_WORKFLOW_ID, { inputs: { n: i } });
      latencies[i] = performance.now() - before;
    }
    const invoked = performance.now();
    await Promise.race([
      finished,
      new Promise<never>((_, reject) => {
        timer = setTimeout(
          () =>
            reject(
              new Error(`only ${succeeded + failed} of ${count} no-op jobs finished within ${timeoutMs} ms`),
            ),
          timeoutMs,
        );
      }),
    ]);
    const seconds = (lastFinished - start) / 1000;
    const run: QueueRun = {
      jobs: count,
      succeeded,
      failed,
      seconds,
      jobsPerSecond: count / seconds,
      invokeSeconds: (invoked - start) / 1000,
      invokeMs: summarize(latencies),
    };
    if (firstError !== undefined) run.firstError = firstError;
    return run;
  } finally {
    clearTimeout(timer);
    unsubscribe();
  }
}

function summarize(values: Float64Array): QueueRun['invokeMs'] {
  const sorted = Float64Array.from(values).sort();
  const at = (q: number): number => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
  const sum = sorted.reduce((a, b) => a + b, 0);
  return { mean: sum / sorted.length, p50: at(0.5), p99: at(0.99), max: sorted[sorted.length - 1]! };
}

/**
 * The baseline: `count` no-op async functions (`await Promise.resolve()`) through a pool of `slots`,
 * the floor any queue with that concurrency has. Median of `rounds` rounds after one warm-up round.
 */
export async function promisePoolBaseline(
  count: number,
  slots: number,
  rounds = 5,
): Promise<{ tasks: number; seconds: number; tasksPerSecond: number; rounds: number[] }> {
  const noop = async (): Promise<void> => {
    await Promise.resolve();
  };
  const tasks = Array.from({ length: count }, () => noop);
  await runPool(tasks, slots);
  const times: number[] = [];
  for (let r = 0; r < rounds; r++) {
    const start = performance.now();
    await runPool(tasks, slots);
    times.push((performance.now() - start) / 1000);
  }
  const seconds = [...times].sort((a, b) => a - b)[Math.floor(times.length / 2)]!;
  return { tasks: count, seconds, tasksPerSecond: count / seconds, rounds: times.map((s) => count / s) };
}
