/**
 * Crash safety: an engine process (test/queue/crash-child.ts) is killed with SIGKILL in the middle of
 * a batch, then a new process is started on the same data directory. Every accepted job must finish
 * exactly once in effect, and no file, result or job may be lost; jobs that were running are taken up
 * again.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath, pathToFileURL } from 'node:url';

import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';

const here = dirname(fileURLToPath(import.meta.url));
const ROOT = resolve(here, '../..');
const CHILD = join(here, 'crash-child.ts');
// tsx's ESM loader, resolved from this test file, so the child does not depend on its working directory.
const TSX_LOADER = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
/** How long the submitting process may take to reach its kill point (normally well under 5 s). */
const SUBMIT_LIMIT_MS = 30_000;

interface ChildLine {
  event: string;
  [key: string]: unknown;
}

interface Accepted {
  id: string;
  fileId: string;
  file: number;
  workflowId: string;
  n: number | null;
}

interface SummaryJob {
  id: string;
  workflowId: string;
  fileId: string | null;
  created: string;
  status: string;
  version: number;
  error: unknown;
}

interface Summary {
  /** False when jobs were still new or running after the child's wait limit. */
  settled: boolean;
  jobs: SummaryJob[];
  files: { fileId: string; name: string | null }[];
  results: Record<string, { status?: string; fields?: { name: string; value: unknown }[]; error?: string }>;
  takenUp: string[];
}

interface DbState {
  jobs: Map<string, string>;
  results: Map<string, { fileId: string; body: string }>;
  perJob: { job_id: string; n: number }[];
}

const children: ChildProcess[] = [];
let dataDir: string | undefined;

afterEach(() => {
  for (const child of children.splice(0)) {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  }
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  dataDir = undefined;
});

function startChild(dir: string, mode: 'submit' | 'resume') {
  const child = spawn(process.execPath, ['--import', TSX_LOADER, CHILD, dir, mode], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let stderr = '';
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (chunk: string) => {
    stderr += chunk;
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((done) => {
    child.on('close', (code, signal) => done({ code, signal }));
  });
  const lines = createInterface({ input: child.stdout, crlfDelay: Infinity });
  return { child, lines, exited, stderr: () => stderr };
}

function parse(line: string): ChildLine {
  return JSON.parse(line) as ChildLine;
}

/** Reads the database the way an operator would, with a connection of its own, read-only. */
function readDb(path: string): DbState {
  const db = new Database(path, { readonly: true, fileMustExist: true });
  try {
    const jobs = db.prepare('SELECT id, status FROM jobs').all() as { id: string; status: string }[];
    const results = db.prepare('SELECT job_id, file_id, body FROM results').all() as {
      job_id: string;
      file_id: string;
      body: string;
    }[];
    const perJob = db
      .prepare('SELECT job_id, COUNT(*) AS n FROM results GROUP BY job_id')
      .all() as DbState['perJob'];
    return {
      jobs: new Map(jobs.map((j) => [j.id, j.status])),
      results: new Map(results.map((r) => [r.job_id, { fileId: r.file_id, body: r.body }])),
      perJob,
    };
  } finally {
    db.close();
  }
}

function idsWith(state: DbState, status: string): string[] {
  return [...state.jobs].filter(([, s]) => s === status).map(([id]) => id);
}

describe('crash recovery (SIGKILL in the middle of a batch)', () => {
  it('finishes every accepted job exactly once in effect after a restart on the same data', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'docex-crash-'));
    dataDir = dir;
    const dbPath = join(dir, 'docex.db');

    // ---- 1. submit a batch, then SIGKILL the process while a test.slow job is certainly running ----
    const submit = startChild(dir, 'submit');
    const files: { fileId: string; index: number; reference: string }[] = [];
    const accepted: Accepted[] = [];
    let submittedCount: number | undefined;
    let killedDuring: string | undefined;
    const guard = setTimeout(() => submit.child.kill('SIGKILL'), SUBMIT_LIMIT_MS);
    try {
      for await (const raw of submit.lines) {
        const line = parse(raw);
        if (line.event === 'file') files.push(line as unknown as (typeof files)[number]);
        else if (line.event === 'accepted') accepted.push(line as unknown as Accepted);
        else if (line.event === 'submitted') submittedCount = line.count as number;
        else if (line.event === 'start' && line.armed === true) {
          // The child arms itself once every job is accepted and at least 5 succeeded; an armed run
          // does not finish by itself, so the kill lands in the middle of it.
          killedDuring = line.id as string;
          submit.child.kill('SIGKILL');
          break;
        }
      }
    } finally {
      clearTimeout(guard);
    }
    const submitExit = await submit.exited;
    expect(
      killedDuring,
      `the submitting process never reached its kill point:\n${submit.stderr()}`,
    ).toBeDefined();
    expect(submitExit.signal).toBe('SIGKILL');
    expect(submittedCount).toBe(30);
    expect(accepted).toHaveLength(30);
    expect(files).toHaveLength(6);
    const acceptedIds = accepted.map((a) => a.id);
    expect(new Set(acceptedIds).size).toBe(acceptedIds.length);
    const byId = new Map(accepted.map((a) => [a.id, a]));
    expect(byId.get(killedDuring!)?.workflowId).toBe('test.slow');

    // What the killed process left: some jobs done, the armed one (at least) running, the rest queued.
    const atKill = readDb(dbPath);
    expect([...atKill.jobs.keys()].sort()).toEqual([...acceptedIds].sort());
    const runningAtKill = idsWith(atKill, 'running');
    const succeededAtKill = idsWith(atKill, 'succeeded');
    expect(runningAtKill).toContain(killedDuring);
    expect(succeededAtKill.length).toBeGreaterThanOrEqual(5);
    expect(runningAtKill.length + succeededAtKill.length + idsWith(atKill, 'new').length).toBe(30);
    // A result is stored with its job's success, in one transaction: never one without the other.
    expect([...atKill.results.keys()].sort()).toEqual([...succeededAtKill].sort());

    // ---- 2. restart on the same data directory and let it finish ----
    const resume = startChild(dir, 'resume');
    let summary: Summary | undefined;
    for await (const raw of resume.lines) {
      const line = parse(raw);
      if (line.event === 'summary') summary = line as unknown as Summary;
    }
    const resumeExit = await resume.exited;
    expect(resumeExit.code, resume.stderr()).toBe(0);
    expect(summary, resume.stderr()).toBeDefined();
    const { jobs, results, takenUp } = summary!;
    console.log(
      'CRASHSTATS',
      JSON.stringify({
        running: runningAtKill.length,
        succeeded: succeededAtKill.length,
        takenUp: takenUp.length,
      }),
    );

    // Every accepted job is there once, and succeeded; none failed (JOB_INTERRUPTED or otherwise).
    expect(jobs.map((j) => j.id).sort()).toEqual([...acceptedIds].sort());
    for (const job of jobs) {
      expect({ id: job.id, status: job.status, error: job.error }, `settled: ${summary!.settled}`).toEqual({
        id: job.id,
        status: 'succeeded',
        error: null,
      });
      expect(job.workflowId).toBe(byId.get(job.id)!.workflowId);
      expect(job.fileId).toBe(byId.get(job.id)!.fileId);
    }
    // Exactly the jobs that were running when the process died were taken up again.
    expect([...takenUp].sort()).toEqual([...runningAtKill].sort());

    // No file is lost, and each file's result has the extraction and the newest test.slow's value.
    expect(summary!.files.map((f) => f.fileId).sort()).toEqual(files.map((f) => f.fileId).sort());
    for (const file of files) {
      const result = results[file.fileId];
      expect(result?.status, JSON.stringify(result)).toBe('FINALISED');
      const fields = new Map((result!.fields ?? []).map((f) => [f.name, f.value]));
      expect(fields.get('invoice.total')).toBe('150.00');
      expect(fields.get('document.referenceNo')).toBe(file.reference);
      const slowJobs = jobs
        .filter((j) => j.fileId === file.fileId && j.workflowId === 'test.slow')
        .sort((a, b) => (a.created < b.created ? -1 : a.created > b.created ? 1 : 0));
      expect(slowJobs).toHaveLength(4);
      const newest = byId.get(slowJobs.at(-1)!.id)!;
      // Created order is the order the invocations were accepted in.
      expect(newest.id).toBe(accepted.filter((a) => a.fileId === file.fileId).at(-1)!.id);
      expect(fields.get('test.n')).toBe(String(newest.n));
    }

    // ---- 3. the database as stored: one result per job, none lost, finished ones untouched ----
    const after = readDb(dbPath);
    expect(after.perJob.every((row) => row.n === 1)).toBe(true);
    // Every job here returns fields (extraction and test.slow alike): one result row for each.
    expect(after.results.size).toBe(30);
    expect([...after.results.keys()].sort()).toEqual([...acceptedIds].sort());
    for (const [jobId, row] of after.results) {
      const job = byId.get(jobId)!;
      expect(row.fileId).toBe(job.fileId);
      if (job.workflowId === 'test.slow') {
        const stored = JSON.parse(row.body) as { fields: { name: string; value: unknown }[] };
        expect(stored.fields).toEqual([expect.objectContaining({ name: 'test.n', value: String(job.n) })]);
      }
    }
    for (const jobId of succeededAtKill) {
      expect(after.results.get(jobId)?.body).toBe(atKill.results.get(jobId)?.body);
    }

    // ---- 4. the side-effect log: how often each test.slow job actually ran ----
    const runs = new Map<string, number>();
    for (const id of readFileSync(join(dir, 'runs.log'), 'utf8').split('\n').filter(Boolean)) {
      runs.set(id, (runs.get(id) ?? 0) + 1);
    }
    const slowIds = accepted.filter((a) => a.workflowId === 'test.slow').map((a) => a.id);
    expect([...runs.keys()].sort()).toEqual([...slowIds].sort());
    for (const [id, count] of runs) {
      // Only a job cut short by the kill runs twice; a job that finished before it never runs again.
      if (takenUp.includes(id)) expect(count).toBeLessThanOrEqual(2);
      else expect(count, `job ${id} ran ${count} times`).toBe(1);
    }
    // The job the kill landed in ran once before the crash and once after it.
    expect(runs.get(killedDuring!)).toBe(2);
  });
});
