/**
 * One engine process of the PostgreSQL scale-out benchmark (bench/sections/pg.ts), forked by it
 * with one argument, the JSON of a PgChildConfig: an engine on PostgreSQL (shared by every worker of
 * a case) or on SQLite (one process alone), with the no-op workflow and `jobs: { concurrency }`.
 * Protocol over the IPC channel: child `ready` -> parent `go` (a round: invoke `count` no-op jobs,
 * one awaited invoke after another, while this process also claims and runs jobs) -> child
 * `progress` every PROGRESS_MS while its figures change (jobs this process finished, and when the last
 * one did) -> ... -> parent `stop` -> child closes the engine and exits. `failed` on any error.
 * Times are epoch milliseconds with sub-millisecond precision (performance.timeOrigin + now), so the
 * parent can compare them across processes.
 */
import { createPostgresPersistence } from '../src/adapters/persistence/postgres-persistence.js';
import { createSqlitePersistence } from '../src/adapters/persistence/sqlite-persistence.js';
import { createEngine } from '../src/index.js';
import { NOOP_WORKFLOW_ID, noopWorkflow } from './lib/noop-jobs.js';

export type PgChildConfig =
  | { kind: 'postgres'; url: string; schema: string; concurrency: number; maxConnections: number }
  | { kind: 'sqlite'; path: string; concurrency: number };

export type PgParentMessage = { type: 'go'; round: number; count: number } | { type: 'stop' };

export type PgChildMessage =
  | { type: 'ready' }
  | {
      type: 'progress';
      round: number;
      /** Jobs invoked by this process in this round, and when the first and last invoke returned. */
      submitted: number;
      firstSubmitAt: number;
      lastSubmitAt: number;
      /** Jobs this process finished in this round (of any process), and when the last one did. */
      succeeded: number;
      failed: number;
      lastFinishedAt: number;
      firstError?: string;
    }
  | { type: 'failed'; error: string };

const PROGRESS_MS = 25;

const epochNow = (): number => performance.timeOrigin + performance.now();

function send(message: PgChildMessage): void {
  if (!process.send) throw new Error('bench/pg-child.ts must be started by bench/run.ts (IPC channel).');
  process.send(message);
}

async function main(): Promise<void> {
  const config = JSON.parse(process.argv[2] ?? '') as PgChildConfig;
  const persistence =
    config.kind === 'postgres'
      ? createPostgresPersistence({
          connectionString: config.url,
          schema: config.schema,
          maxConnections: config.maxConnections,
        })
      : createSqlitePersistence({ path: config.path });
  const engine = createEngine({
    persistence,
    workflows: [noopWorkflow],
    jobs: { concurrency: config.concurrency, maxQueued: 1_000_000 },
  });

  let round = 0;
  let submitted = 0;
  let firstSubmitAt = 0;
  let lastSubmitAt = 0;
  let succeeded = 0;
  let failed = 0;
  let lastFinishedAt = 0;
  let firstError: string | undefined;
  let reported = '';
  engine.on('job', ({ job }) => {
    if (job.workflow_id !== NOOP_WORKFLOW_ID) return;
    if (job.status === 'succeeded') succeeded++;
    else if (job.status === 'failed') {
      failed++;
      firstError ??= `${job.error?.code}: ${job.error?.message}`;
    } else return;
    lastFinishedAt = epochNow();
  });
  const report = (): void => {
    const key = `${round}/${submitted}/${succeeded}/${failed}`;
    if (key === reported) return;
    reported = key;
    send({
      type: 'progress',
      round,
      submitted,
      firstSubmitAt,
      lastSubmitAt,
      succeeded,
      failed,
      lastFinishedAt,
      ...(firstError === undefined ? {} : { firstError }),
    });
  };
  const progress = setInterval(report, PROGRESS_MS);

  const stopped = new Promise<void>((resolve, reject) => {
    process.on('message', (message: PgParentMessage) => {
      if (message.type === 'stop') {
        resolve();
        return;
      }
      round = message.round;
      submitted = succeeded = failed = 0;
      firstSubmitAt = lastSubmitAt = lastFinishedAt = 0;
      firstError = undefined;
      void (async () => {
        for (let i = 0; i < message.count; i++) {
          if (i === 0) firstSubmitAt = epochNow();
          await engine.invoke(NOOP_WORKFLOW_ID, { inputs: { n: i } });
          submitted++;
          lastSubmitAt = epochNow();
        }
      })().catch(reject);
    });
  });
  try {
    await engine.ready;
    send({ type: 'ready' });
    await stopped;
  } finally {
    clearInterval(progress);
    await engine.close();
  }
}

main()
  .catch((error: unknown) => {
    send({ type: 'failed', error: error instanceof Error ? (error.stack ?? error.message) : String(error) });
    process.exitCode = 1;
  })
  .finally(() => process.disconnect?.());
