/**
 * Section `queue` (4): job-queue overhead. No-op jobs through engine.invoke with memory and with
 * SQLite persistence (jobs/s, invoke latency, where a job's time goes) against a plain pool of no-op
 * async functions of the same concurrency.
 */
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { createMemoryPersistence } from '../../src/adapters/persistence/memory-persistence.js';
import { createSqlitePersistence } from '../../src/adapters/persistence/sqlite-persistence.js';
import { createEngine } from '../../src/index.js';
import type { EnginePersistence } from '../../src/ports/engine-persistence.js';
import { noopWorkflow, promisePoolBaseline, runNoopJobs, type QueueRun } from '../lib/noop-jobs.js';
import { fmt, small } from '../lib/report.js';
import type { SectionContext } from '../lib/section.js';
import { info, type SummaryRow } from '../lib/summary-row.js';
import { timedPersistence, type PersistenceTimes } from '../lib/timed-persistence.js';

// Sized for about 1 to 3 s per measured run on a 2-core machine.
const QUEUE_JOBS_MEMORY = 30_000;
const QUEUE_JOBS_SQLITE = 10_000;
const QUEUE_WARMUP_JOBS = 500;
const QUEUE_CONCURRENCY = 4;

type Log = (text: string) => void;

interface QueueBreakdown {
  /** Throughput of this second, instrumented run (the timing costs a little). */
  jobsPerSecond: number;
  /** Time inside persistence calls per job, in microseconds, by method and in all. */
  persistenceUsPerJob: Record<string, number>;
  persistenceTotalUsPerJob: number;
  /** The rest of a job's wall time: engine, queue, events, event loop. */
  otherUsPerJob: number;
  persistenceShare: number;
}

async function queueBreakdown(persistence: EnginePersistence, count: number): Promise<QueueBreakdown> {
  const timed = timedPersistence(persistence);
  const engine = createEngine({
    persistence: timed.persistence,
    workflows: [noopWorkflow],
    jobs: { concurrency: QUEUE_CONCURRENCY, maxQueued: count + 10 },
  });
  let run: QueueRun;
  try {
    await engine.ready;
    await runNoopJobs(engine, QUEUE_WARMUP_JOBS);
    for (const entry of Object.values(timed.times)) Object.assign(entry, { calls: 0, ms: 0 });
    run = await runNoopJobs(engine, count);
  } finally {
    await engine.close();
  }
  const perJob = (times: PersistenceTimes): Record<string, number> =>
    Object.fromEntries(
      Object.entries(times)
        .filter(([name, t]) => name !== 'close' && t.calls > 0)
        .map(([name, t]) => [name, (t.ms * 1000) / count]),
    );
  const persistenceUsPerJob = perJob(timed.times);
  const total = Object.values(persistenceUsPerJob).reduce((a, b) => a + b, 0);
  const wallUs = 1e6 / run.jobsPerSecond;
  return {
    jobsPerSecond: run.jobsPerSecond,
    persistenceUsPerJob,
    persistenceTotalUsPerJob: total,
    otherUsPerJob: wallUs - total,
    persistenceShare: total / wallUs,
  };
}

async function queueCase(
  log: Log,
  label: string,
  count: number,
  open: (name: string) => { persistence: EnginePersistence; file?: string },
) {
  const { persistence, file } = open('measured');
  const engine = createEngine({
    persistence,
    workflows: [noopWorkflow],
    jobs: { concurrency: QUEUE_CONCURRENCY, maxQueued: count + 10 },
  });
  let run: QueueRun;
  let walFile: boolean | undefined;
  try {
    await engine.ready;
    await runNoopJobs(engine, QUEUE_WARMUP_JOBS);
    run = await runNoopJobs(engine, count);
    if (file !== undefined) walFile = existsSync(`${file}-wal`);
  } finally {
    await engine.close();
  }
  const breakdown = await queueBreakdown(open('breakdown').persistence, count);
  const baseline = await promisePoolBaseline(count, QUEUE_CONCURRENCY);
  const ratio = run.jobsPerSecond / baseline.tasksPerSecond;
  const overheadUsPerJob = 1e6 / run.jobsPerSecond - 1e6 / baseline.tasksPerSecond;
  const name = label.padEnd(10);
  log(
    `   ${name}: ${count} jobs in ${fmt(run.seconds, 's')} = ${fmt(run.jobsPerSecond, 'jobs/s')}` +
      ` (${run.succeeded} succeeded, ${run.failed} failed; the invokes took ${fmt(run.invokeSeconds, 's')})`,
  );
  if (run.firstError) log(`               first failure: ${run.firstError}`);
  log(
    `               invoke latency: mean ${fmt(run.invokeMs.mean, 'ms')}, p50 ${fmt(run.invokeMs.p50, 'ms')},` +
      ` p99 ${fmt(run.invokeMs.p99, 'ms')}, max ${fmt(run.invokeMs.max, 'ms')}` +
      (walFile === undefined ? '' : `; journal WAL (-wal file ${walFile ? 'present' : 'MISSING'})`),
  );
  const methods = Object.entries(breakdown.persistenceUsPerJob)
    .map(([method, us]) => `${method} ${fmt(us)}`)
    .join(', ');
  log(
    `               where the time goes (a second run, persistence calls timed: ${fmt(breakdown.jobsPerSecond, 'jobs/s')}` +
      ` = ${fmt(1e6 / breakdown.jobsPerSecond, 'us')} per job): persistence ${fmt(breakdown.persistenceTotalUsPerJob, 'us')}` +
      ` (${methods}) = ${fmt(breakdown.persistenceShare * 100, '%')}; engine and event loop ${fmt(breakdown.otherUsPerJob, 'us')}`,
  );
  log(
    `     baseline: ${count} no-op async functions, pool of ${QUEUE_CONCURRENCY}, in ${fmt(baseline.seconds * 1000, 'ms')}` +
      ` = ${fmt(baseline.tasksPerSecond, 'tasks/s')} (median of ${baseline.rounds.length} rounds);` +
      ` ratio ${small(ratio)}, overhead ${fmt(overheadUsPerJob, 'us')} per job`,
  );
  return {
    ...run,
    ...(walFile === undefined ? {} : { journal: 'WAL', walFile }),
    breakdown,
    baseline,
    ratio,
    overheadUsPerJob,
  };
}

export type QueueSection = Awaited<ReturnType<typeof benchQueue>>;

export async function benchQueue({ tmp, log }: SectionContext) {
  log(
    `\n== 4. Job queue overhead: no-op jobs, jobs: { concurrency: ${QUEUE_CONCURRENCY} }, vs a pool of ${QUEUE_CONCURRENCY} no-op async functions ==`,
  );
  log(
    `   per run: ${QUEUE_WARMUP_JOBS} warm-up jobs, then one awaited engine.invoke() after another (jobs run meanwhile);` +
      ' timed from the first invoke to the last job event `succeeded`',
  );
  const dir = path.join(tmp, 'queue');
  await mkdir(dir);
  const memory = await queueCase(log, 'memory', QUEUE_JOBS_MEMORY, () => ({
    persistence: createMemoryPersistence(),
  }));
  const sqlite = await queueCase(log, 'SQLite', QUEUE_JOBS_SQLITE, (name) => {
    const file = path.join(dir, `jobs-${name}.db`);
    return { persistence: createSqlitePersistence({ path: file }), file };
  });
  return { concurrency: QUEUE_CONCURRENCY, warmUpJobs: QUEUE_WARMUP_JOBS, memory, sqlite };
}

type QueueCase = QueueSection['memory'];

const queueRow = (name: string, c: QueueCase): SummaryRow => ({
  metric: `Job queue, ${name}: no-op jobs/s (vs Promise pool of ${QUEUE_CONCURRENCY}, tasks/s)`,
  docex: fmt(c.jobsPerSecond),
  baseline: fmt(c.baseline.tasksPerSecond),
  ratio: small(c.ratio),
  target: '-',
  met: '-',
});

export function queueSummaryRows(queue: QueueSection): SummaryRow[] {
  return [
    queueRow('memory', queue.memory),
    queueRow('SQLite (WAL)', queue.sqlite),
    info('Job queue, memory: invoke latency, mean', fmt(queue.memory.invokeMs.mean, 'ms')),
    info('Job queue, SQLite (WAL): invoke latency, mean', fmt(queue.sqlite.invokeMs.mean, 'ms')),
    info(
      '  info: SQLite, share of job time in persistence calls',
      fmt(queue.sqlite.breakdown.persistenceShare * 100, '%'),
    ),
  ];
}
