import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createMemoryPersistence } from '../../src/adapters/persistence/memory-persistence.js';
import type { StoredJob } from '../../src/core/jobs.js';
import { createEngine, type Engine, type JobRecord } from '../../src/index.js';
import type { EnginePersistence } from '../../src/ports/engine-persistence.js';
import type { WorkflowDefinition } from '../../src/workflows/types.js';
import { makeJob } from '../ports/engine-persistence.contract.js';

const engines: Engine[] = [];
afterEach(async () => {
  await Promise.all(engines.splice(0).map((e) => e.close()));
});

function leftBehind(status: 'new' | 'running', overrides: Partial<StoredJob> = {}): StoredJob {
  const job = makeJob({ status, fileId: null, accountId: 'default', ...overrides });
  job.record.workflow_id = 'test.echo';
  job.record.inputs = { tag: job.record.id };
  if (status === 'running') {
    job.record.version = 2;
    job.leaseOwner = randomUUID();
    job.leaseUntil = Date.now() + 60_000;
    job.attempts = Math.max(1, job.attempts);
  }
  return job;
}

function engineOn(persistence: EnginePersistence, runs: string[]): Engine {
  const echo: WorkflowDefinition = {
    id: 'test.echo',
    inputsSchema: { type: 'object' },
    run: async ({ job }) => {
      runs.push(job.id);
      return { usage: { attempt: runs.length } };
    },
  };
  const engine = createEngine({ persistence, jobs: { retry: { maxAttempts: 3 } } });
  // Registered right after creation: still known when the left-behind jobs are taken up.
  engine.registerWorkflow(echo);
  engines.push(engine);
  return engine;
}

async function settled(engine: Engine, ids: string[]): Promise<JobRecord[]> {
  await engine.ready;
  const done = (job: JobRecord) => !['new', 'running'].includes(job.status);
  await new Promise<void>((resolve) => {
    const check = async () => {
      const jobs = await Promise.all(ids.map((id) => engine.getJob(id)));
      if (jobs.every(done)) {
        off();
        resolve();
      }
    };
    const off = engine.on('job', () => void check());
    void check();
  });
  return Promise.all(ids.map((id) => engine.getJob(id)));
}

describe('taking up jobs an earlier engine left behind', () => {
  it('runs queued jobs and jobs that were running when their process ended', async () => {
    const persistence = createMemoryPersistence();
    const queued = leftBehind('new');
    const running = leftBehind('running');
    await persistence.insertJob(queued);
    await persistence.insertJob(running);
    const runs: string[] = [];
    const engine = engineOn(persistence, runs);
    const [a, b] = await settled(engine, [queued.record.id, running.record.id]);
    expect(a).toMatchObject({ status: 'succeeded', version: 3 });
    // running (v2) -> new (v3, released) -> running (v4) -> succeeded (v5)
    expect(b).toMatchObject({ status: 'succeeded', version: 5 });
    expect(runs.sort()).toEqual([queued.record.id, running.record.id].sort());
    expect((await persistence.getJob(running.record.id))!.attempts).toBe(2);
  });

  it('fails a job whose every run was cut short, instead of crashing the next process again', async () => {
    const persistence = createMemoryPersistence();
    const poison = leftBehind('running', { attempts: 3 });
    await persistence.insertJob(poison);
    const runs: string[] = [];
    const engine = engineOn(persistence, runs);
    const [job] = await settled(engine, [poison.record.id]);
    expect(job).toMatchObject({ status: 'failed', error: { code: 'JOB_INTERRUPTED' } });
    expect(runs).toEqual([]);
  });

  it('waits for the backoff of a job that was waiting for a retry', async () => {
    // The job clock is faked: how busy the machine is cannot decide whether the backoff has passed.
    vi.useFakeTimers({ toFake: ['Date', 'setTimeout', 'clearTimeout'] });
    try {
      const persistence = createMemoryPersistence();
      const later = leftBehind('new', { runAfter: Date.now() + 60_000, attempts: 1 });
      await persistence.insertJob(later);
      const runs: string[] = [];
      const engine = engineOn(persistence, runs);
      await vi.advanceTimersByTimeAsync(1);
      await engine.ready;
      await vi.advanceTimersByTimeAsync(59_000);
      expect((await engine.getJob(later.record.id)).status).toBe('new');
      expect(runs).toEqual([]);
      await vi.advanceTimersByTimeAsync(1_000);
      const [job] = await settled(engine, [later.record.id]);
      expect(job!.status).toBe('succeeded');
      expect(runs).toEqual([later.record.id]);
    } finally {
      vi.useRealTimers();
    }
  });

  it('takes up nothing until asked when resumeOnStart is false, as a server that listens first', async () => {
    const persistence = createMemoryPersistence();
    const queued = leftBehind('new');
    await persistence.insertJob(queued);
    const runs: string[] = [];
    const engine = createEngine({ persistence, jobs: { resumeOnStart: false } });
    engine.registerWorkflow({
      id: 'test.echo',
      inputsSchema: { type: 'object' },
      run: async ({ job }) => {
        runs.push(job.id);
        return {};
      },
    });
    engines.push(engine);
    await engine.ready;
    // Other work is served meanwhile.
    expect((await engine.getJob(queued.record.id)).status).toBe('new');
    expect(runs).toEqual([]);
    await engine.resumeJobs();
    const [job] = await settled(engine, [queued.record.id]);
    expect(job!.status).toBe('succeeded');
    expect(runs).toEqual([queued.record.id]);
  });

  it('fails a taken-up job whose workflow this engine does not know', async () => {
    const persistence = createMemoryPersistence();
    const orphan = leftBehind('new');
    orphan.record.workflow_id = 'gone.workflow';
    await persistence.insertJob(orphan);
    const engine = engineOn(persistence, []);
    const [job] = await settled(engine, [orphan.record.id]);
    expect(job).toMatchObject({ status: 'failed', error: { code: 'UNKNOWN_WORKFLOW' } });
  });
});

describe('an engine closed before it took anything up', () => {
  it('starts no claims and no polling after close, even with shared storage', async () => {
    const memory = createMemoryPersistence();
    let claims = 0;
    const shared: EnginePersistence = {
      ...memory,
      shared: true,
      claimNext: async () => {
        claims++;
        return undefined;
      },
      countJobs: async () => 0,
    };
    const engine = createEngine({ persistence: shared, jobs: { pollMs: 10 } });
    await engine.close();
    await engine.ready;
    await new Promise((r) => setTimeout(r, 60));
    expect(claims).toBe(0);
  });
});
