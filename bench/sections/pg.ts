/**
 * Section `pg` (8): PostgreSQL scale-out. No-op jobs/s with 1, 2 and 3 engine processes sharing one
 * PostgreSQL database, beside the same jobs with SQLite in one process. The server is DOCEX_PG_URL when
 * set, otherwise a throwaway cluster started from the Debian binaries (support/throwaway-postgres.ts,
 * shared with the tests), stopped at the end; when neither is possible the figures are n/a with the
 * reason.
 */
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { PgChildConfig, PgChildMessage, PgParentMessage } from '../pg-child.js';
import { startPostgres } from '../../support/throwaway-postgres.js';
import { forkBenchScript } from '../lib/paths.js';
import { fmt } from '../lib/report.js';
import type { SectionContext } from '../lib/section.js';
import type { SummaryRow } from '../lib/summary-row.js';

/** Jobs of each measured run (split evenly over the processes, each invoking its share). */
export const PG_JOBS = 3000;
export const PG_WARMUP_JOBS = 300;
export const PG_CONCURRENCY = 4;
export const PG_PROCESSES = [1, 2, 3] as const;
/** Pool of each process: its running jobs, the claim loop, an invoke, LISTEN. */
const PG_MAX_CONNECTIONS = 8;
const PG_ROUND_TIMEOUT_MS = 180_000;

// ---------------------------------------------------------------------------------------------------
// Worker processes

type Progress = Extract<PgChildMessage, { type: 'progress' }>;

interface Worker {
  child: ChildProcess;
  ready: boolean;
  /** The latest progress of the current round. */
  progress: Progress | undefined;
}

/** Forks bench/pg-child (compiled JavaScript, or TypeScript through tsx) with `config`. */
function forkWorker(config: PgChildConfig, onChange: () => void, onFailure: (e: Error) => void): Worker {
  const child = forkBenchScript('pg-child', [JSON.stringify(config)]);
  const worker: Worker = { child, ready: false, progress: undefined };
  child.on('message', (message: PgChildMessage) => {
    if (message.type === 'ready') worker.ready = true;
    else if (message.type === 'failed') onFailure(new Error(`pg worker failed: ${message.error}`));
    else if (message.type === 'progress') worker.progress = message;
    onChange();
  });
  child.on('error', onFailure);
  return worker;
}

export interface PgRun {
  processes: number;
  jobs: number;
  succeeded: number;
  failed: number;
  firstError?: string;
  /** First invoke (of any process) to the last job finished (in any process). */
  seconds: number;
  jobsPerSecond: number;
  /** First invoke to the last invoke returned (jobs run meanwhile). */
  invokeSeconds: number;
  /** Jobs each process finished (the processes claim each other's jobs). */
  finishedPerProcess: number[];
}

/**
 * Starts `processes` workers on `config(i)`, runs a warm-up round and a measured round of `jobs`
 * no-op jobs (each process invoking its share), stops the workers and returns the measured round.
 */
async function measureCase(
  processes: number,
  config: (i: number) => PgChildConfig,
  jobs: number,
  warmupJobs: number,
): Promise<PgRun> {
  let changed: () => void = () => undefined;
  let failure: Error | undefined;
  const workers = Array.from({ length: processes }, (_, i) =>
    forkWorker(
      config(i),
      () => changed(),
      (error) => {
        failure ??= error;
        changed();
      },
    ),
  );
  const exits = workers.map(
    (w) =>
      new Promise<void>((resolve) => {
        w.child.on('exit', (code) => {
          if (code !== 0 && code !== null) failure ??= new Error(`a pg worker exited with code ${code}`);
          resolve();
          changed();
        });
      }),
  );
  /** Resolves when `done()` holds, checked at each message; rejects on a failure or after `ms`. */
  const until = (what: string, done: () => boolean, ms = PG_ROUND_TIMEOUT_MS): Promise<void> =>
    new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`pg bench: ${what}: not within ${ms} ms`)), ms);
      changed = () => {
        if (failure) reject(failure);
        else if (done()) resolve();
        else return;
        clearTimeout(timer);
        changed = () => undefined;
      };
      changed();
    });
  const round = async (n: number, count: number): Promise<PgRun> => {
    const shares = workers.map((_, i) => Math.floor(count / processes) + (i < count % processes ? 1 : 0));
    for (const w of workers) w.progress = undefined;
    workers.forEach((w, i) =>
      w.child.send({ type: 'go', round: n, count: shares[i]! } satisfies PgParentMessage),
    );
    const current = (): Progress[] =>
      workers.map((w) => w.progress).filter((p): p is Progress => p !== undefined && p.round === n);
    const finished = (): number => current().reduce((sum, p) => sum + p.succeeded + p.failed, 0);
    await until(`${count} no-op jobs with ${processes} processes`, () => finished() >= count);
    const progress = current();
    const start = Math.min(...progress.filter((p) => p.submitted > 0).map((p) => p.firstSubmitAt));
    const end = Math.max(...progress.map((p) => p.lastFinishedAt));
    const seconds = (end - start) / 1000;
    const run: PgRun = {
      processes,
      jobs: count,
      succeeded: progress.reduce((sum, p) => sum + p.succeeded, 0),
      failed: progress.reduce((sum, p) => sum + p.failed, 0),
      seconds,
      jobsPerSecond: count / seconds,
      invokeSeconds: (Math.max(...progress.map((p) => p.lastSubmitAt)) - start) / 1000,
      finishedPerProcess: workers.map((w) =>
        w.progress?.round === n ? w.progress.succeeded + w.progress.failed : 0,
      ),
    };
    const firstError = progress.find((p) => p.firstError !== undefined)?.firstError;
    if (firstError !== undefined) run.firstError = firstError;
    return run;
  };
  try {
    await until(`${processes} pg workers starting`, () => workers.every((w) => w.ready), 60_000);
    await round(1, warmupJobs);
    return await round(2, jobs);
  } finally {
    for (const w of workers) {
      if (w.child.connected) w.child.send({ type: 'stop' } satisfies PgParentMessage);
      else w.child.kill();
    }
    const timer = setTimeout(() => workers.forEach((w) => w.child.kill('SIGKILL')), 20_000);
    await Promise.all(exits);
    clearTimeout(timer);
  }
}

// ---------------------------------------------------------------------------------------------------
// The section

export interface PgSection {
  jobs: number;
  warmupJobs: number;
  concurrency: number;
  cores: number;
  /** One process on SQLite (WAL), the same jobs and measurement. */
  sqlite: PgRun;
  /** 1, 2 and 3 processes on one PostgreSQL database, or why not. */
  postgres:
    { ok: true; server: string; serverVersion: string; runs: PgRun[] } | { ok: false; reason: string };
}

/** Runs the section, logging as it goes; `tmp` is the bench's temporary folder. */
export async function benchPg({ tmp, log }: SectionContext): Promise<PgSection> {
  log(
    `\n== 8. PostgreSQL scale-out: no-op jobs/s with ${PG_PROCESSES.join(', ')} engine processes on one PostgreSQL,` +
      ` each jobs: { concurrency: ${PG_CONCURRENCY} }, vs SQLite in one process ==`,
  );
  log(
    `   per case: fresh processes (compiled JS), ${PG_WARMUP_JOBS} warm-up jobs, then ${PG_JOBS} jobs, each process` +
      ' invoking its share (one awaited engine.invoke() after another) while all claim and run jobs;' +
      ' timed from the first invoke to the last job event `succeeded` (in any process)',
  );
  const dir = mkdtempSync(path.join(tmp, 'pg-bench-'));
  const section = {
    jobs: PG_JOBS,
    warmupJobs: PG_WARMUP_JOBS,
    concurrency: PG_CONCURRENCY,
    cores: os.availableParallelism(),
  };
  try {
    const sqlite = await measureCase(
      1,
      () => ({ kind: 'sqlite', path: path.join(dir, 'jobs.db'), concurrency: PG_CONCURRENCY }),
      PG_JOBS,
      PG_WARMUP_JOBS,
    );
    log(`   SQLite (WAL), 1 process : ${describeRun(sqlite)}`);
    const postgres = await measurePostgres(log);
    if (!postgres.ok) log(`   PostgreSQL: n/a (${postgres.reason})`);
    return { ...section, sqlite, postgres };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function measurePostgres(log: (text: string) => void): Promise<PgSection['postgres']> {
  const server = await startPostgres();
  if ('reason' in server) return { ok: false, reason: server.reason };
  const admin = new pg.Client({ connectionString: server.url });
  const schemas: string[] = [];
  try {
    await admin.connect();
    const version = (await admin.query<{ v: string }>('SHOW server_version')).rows[0];
    const serverVersion = version ? String(Object.values(version)[0]) : 'unknown';
    log(`   PostgreSQL ${serverVersion}: ${server.origin}`);
    const runs: PgRun[] = [];
    for (const processes of PG_PROCESSES) {
      // A fresh schema per case: every case starts on empty tables.
      const schema = `docex_bench_${randomBytes(4).toString('hex')}_p${processes}`;
      schemas.push(schema);
      const run = await measureCase(
        processes,
        () => ({
          kind: 'postgres',
          url: server.url,
          schema,
          concurrency: PG_CONCURRENCY,
          maxConnections: PG_MAX_CONNECTIONS,
        }),
        PG_JOBS,
        PG_WARMUP_JOBS,
      );
      runs.push(run);
      log(`   PostgreSQL, ${processes} process${processes === 1 ? ' ' : 'es'}: ${describeRun(run)}`);
    }
    const one = runs[0]!;
    log(
      `   scaling: ${runs.map((r) => `${r.processes} -> ${fmt(r.jobsPerSecond / one.jobsPerSecond)}x`).join(', ')}` +
        ` of 1 process; ${os.availableParallelism()} cores shared by the processes and the server`,
    );
    return { ok: true, server: server.origin, serverVersion, runs };
  } catch (error) {
    return { ok: false, reason: `the PostgreSQL run failed: ${(error as Error).message}` };
  } finally {
    for (const schema of schemas) {
      await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`).catch(() => undefined);
    }
    await admin.end().catch(() => undefined);
    server.stop();
  }
}

function describeRun(run: PgRun): string {
  return (
    `${run.jobs} jobs in ${fmt(run.seconds, 's')} = ${fmt(run.jobsPerSecond, 'jobs/s')}` +
    ` (${run.succeeded} succeeded, ${run.failed} failed; invokes done after ${fmt(run.invokeSeconds, 's')};` +
    ` finished per process ${run.finishedPerProcess.join('/')})` +
    (run.firstError ? `; first failure: ${run.firstError}` : '')
  );
}

/** Rows of the summary table. */
export function pgSummaryRows(section: PgSection): SummaryRow[] {
  const sqlite = section.sqlite.jobsPerSecond;
  return PG_PROCESSES.map((processes) => {
    const metric =
      `PostgreSQL, ${processes} process${processes === 1 ? '' : 'es'} x ${PG_CONCURRENCY}:` +
      ' no-op jobs/s (vs SQLite, 1 process, jobs/s)';
    const run = section.postgres.ok
      ? section.postgres.runs.find((r) => r.processes === processes)
      : undefined;
    return {
      metric,
      docex: run
        ? fmt(run.jobsPerSecond)
        : `n/a (${section.postgres.ok ? 'not run' : section.postgres.reason})`,
      baseline: fmt(sqlite),
      ratio: run ? fmt(run.jobsPerSecond / sqlite) : 'n/a',
      target: '-',
      met: '-',
    };
  });
}
