import { randomUUID } from 'node:crypto';
import { describe, it, expect, afterEach } from 'vitest';

import type { JobStatus, StoredJob, StoredResult, StoredTask } from '../../src/core/jobs.js';
import type { TokenLayer } from '../../src/core/types.js';
import type { EnginePersistence } from '../../src/ports/engine-persistence.js';

export interface PersistenceUnderTest {
  persistence: EnginePersistence;
  /** For durable adapters: closes and opens the same storage again. */
  reopen?: () => Promise<EnginePersistence>;
  cleanup?: () => Promise<void>;
}

export type MakePersistence = () => Promise<PersistenceUnderTest>;

/** The storage of one test of a contract suite: opened by `open()`, closed and cleaned up after the test. */
export interface OpenedPersistence {
  open(): Promise<EnginePersistence>;
  /** Whether the storage can be closed and opened again (not the memory adapter). */
  readonly durable: boolean;
  /** Closes the storage and opens the same one again (durable adapters); that one is closed after the test. */
  reopen(): Promise<EnginePersistence>;
}

/** Call inside a `describe`: registers the clean-up after each test. */
export function persistenceUnderTest(make: MakePersistence): OpenedPersistence {
  let current: PersistenceUnderTest | undefined;
  afterEach(async () => {
    if (current) {
      await current.persistence.close().catch(() => undefined);
      await current.cleanup?.();
      current = undefined;
    }
  });
  return {
    async open() {
      current = await make();
      return current.persistence;
    },
    get durable() {
      return current?.reopen !== undefined;
    },
    async reopen() {
      if (!current?.reopen) throw new Error('this storage cannot be opened again');
      current.persistence = await current.reopen();
      return current.persistence;
    },
  };
}

const A = 'account-a';
const B = 'account-b';
let clock = 0;

/** Job `created` strings in increasing order, as the engine makes them. */
function nextCreated(): string {
  clock += 1;
  const micros = String(clock).padStart(6, '0');
  return `2026-11-22T10:00:00.${micros}`;
}

export function makeJob(
  overrides: Partial<StoredJob> & { status?: JobStatus; fileId?: string | null } = {},
): StoredJob {
  const { status, fileId, ...rest } = overrides;
  const id = randomUUID();
  return {
    record: {
      id,
      company_id: randomUUID(),
      created: nextCreated(),
      workflow_id: 'svc.extract',
      inputs: { file_id: 'f', product_ids: ['invoices:2'], nested: { a: [1, 'ü', null] } },
      settings: { max_pages: 16 },
      usage: null,
      file_id: fileId === undefined ? randomUUID() : fileId,
      status: status ?? 'new',
      version: 1,
    },
    accountId: A,
    messageId: randomUUID(),
    queue: 'default',
    attempts: 0,
    runAfter: 0,
    leaseOwner: null,
    leaseUntil: 0,
    ...rest,
  };
}

function makeResult(job: StoredJob, fields: StoredResult['fields'] = []): StoredResult {
  return {
    jobId: job.record.id,
    accountId: job.accountId,
    fileId: job.record.file_id ?? '',
    workflowId: job.record.workflow_id,
    jobCreated: job.record.created,
    timestamp: '2026-11-22T10:00:01.000Z',
    fields,
  };
}

function makeTask(overrides: Partial<StoredTask> = {}): StoredTask {
  return {
    id: randomUUID(),
    accountId: A,
    fileId: randomUUID(),
    status: 'open',
    version: 1,
    createdAt: new Date(Date.UTC(2026, 10, 22, 10, 0, 0, clock++)).toISOString(),
    data: { note: 'Check the total', field_ids: ['svc.invoice.total'], priority: 1 },
    ...overrides,
  };
}

export function makeLayer(fileId: string): TokenLayer {
  return {
    formatVersion: 1,
    fileId,
    mediaType: 'application/pdf',
    pages: [{ pageNum: 1, width: 595, height: 842, unit: 'pt', rotation: 0, source: 'text' }],
    tokens: [
      {
        id: 0,
        text: 'Total€',
        pageNum: 1,
        box: { x0: 0.1, y0: 0.1, x1: 0.2, y1: 0.12 },
        confidence: 1,
        source: 'text',
        lineId: 0,
      },
    ],
    lines: [{ id: 0, pageNum: 1, box: { x0: 0.1, y0: 0.1, x1: 0.2, y1: 0.12 }, tokenIds: [0], blockId: 0 }],
    blocks: [{ id: 0, pageNum: 1, box: { x0: 0.1, y0: 0.1, x1: 0.2, y1: 0.12 }, lineIds: [0] }],
    createdAt: '2026-11-22T10:00:00.000Z',
  };
}

function bumped(
  job: StoredJob,
  change: Partial<StoredJob['record']> = {},
  rest: Partial<StoredJob> = {},
): StoredJob {
  return { ...job, ...rest, record: { ...job.record, ...change, version: job.record.version + 1 } };
}

/** One suite every EnginePersistence adapter passes (memory, SQLite, PostgreSQL). */
export function describeJobPersistence(name: string, make: MakePersistence): void {
  describe(`EnginePersistence contract: ${name}`, () => {
    const under = persistenceUnderTest(make);
    const open = (): Promise<EnginePersistence> => under.open();

    describe('jobs', () => {
      it('stores a job and gives back an equal copy', async () => {
        const p = await open();
        const job = makeJob();
        await p.insertJob(job);
        const read = await p.getJob(job.record.id);
        expect(read).toEqual(job);
        read!.record.inputs.file_id = 'changed';
        (job.record.inputs as { nested: { a: unknown[] } }).nested.a.push('x');
        expect((await p.getJob(job.record.id))!.record.inputs).toEqual({
          file_id: 'f',
          product_ids: ['invoices:2'],
          nested: { a: [1, 'ü', null] },
        });
      });

      it('refuses a second job with the same id and answers undefined for an unknown id', async () => {
        const p = await open();
        const job = makeJob();
        await p.insertJob(job);
        await expect(p.insertJob(job)).rejects.toThrow();
        expect(await p.getJob(randomUUID())).toBeUndefined();
      });

      it('lists jobs oldest first, filtered by account, file and status', async () => {
        const p = await open();
        const fileId = randomUUID();
        const first = makeJob({ fileId });
        const second = makeJob({ fileId, status: 'running' });
        const otherFile = makeJob();
        const otherAccount = makeJob({ fileId, accountId: B });
        // Inserted out of order: the list sorts by `created`.
        for (const job of [second, otherAccount, first, otherFile]) await p.insertJob(job);
        const ids = (jobs: StoredJob[]): string[] => jobs.map((j) => j.record.id);
        expect(ids(await p.listJobs({ accountId: A, fileId }))).toEqual([first.record.id, second.record.id]);
        expect(ids(await p.listJobs({ accountId: A, statuses: ['running'] }))).toEqual([second.record.id]);
        expect(ids(await p.listJobs({ fileId }))).toEqual([
          first.record.id,
          second.record.id,
          otherAccount.record.id,
        ]);
        expect(ids(await p.listJobs({ statuses: ['new', 'running'] }))).toHaveLength(4);
        expect(await p.listJobs({ statuses: ['failed'] })).toEqual([]);
      });

      it('keeps jobs without a file', async () => {
        const p = await open();
        const job = makeJob({ fileId: null });
        await p.insertJob(job);
        expect((await p.getJob(job.record.id))!.record.file_id).toBeNull();
        expect(await p.listJobs({ accountId: A })).toHaveLength(1);
      });

      it('updates a job only from the version it expects', async () => {
        const p = await open();
        const job = makeJob();
        await p.insertJob(job);
        const running = bumped(job, { status: 'running' }, { attempts: 1, leaseOwner: 'me', leaseUntil: 99 });
        expect(await p.updateJob(running, 1)).toBe(true);
        expect(await p.getJob(job.record.id)).toEqual(running);
        // A stale writer loses and changes nothing.
        expect(await p.updateJob(bumped(job, { status: 'cancelled' }), 1)).toBe(false);
        expect((await p.getJob(job.record.id))!.record.status).toBe('running');
        expect(await p.updateJob(makeJob(), 1)).toBe(false);
      });

      it('lets exactly one of many concurrent claims win', async () => {
        const p = await open();
        const job = makeJob();
        await p.insertJob(job);
        const outcomes = await Promise.all(
          Array.from({ length: 8 }, (_, i) =>
            p.updateJob(bumped(job, { status: 'running' }, { leaseOwner: `owner-${i}` }), 1),
          ),
        );
        expect(outcomes.filter(Boolean)).toHaveLength(1);
        const winner = outcomes.indexOf(true);
        expect((await p.getJob(job.record.id))!.leaseOwner).toBe(`owner-${winner}`);
      });

      it('renews the lease of a running job for its owner only, without a new version', async () => {
        const p = await open();
        const job = makeJob();
        await p.insertJob(job);
        expect(await p.renewLease(job.record.id, 'me', 500)).toBe(false);
        await p.updateJob(bumped(job, { status: 'running' }, { leaseOwner: 'me', leaseUntil: 100 }), 1);
        expect(await p.renewLease(job.record.id, 'someone-else', 500)).toBe(false);
        expect(await p.renewLease(job.record.id, 'me', 500)).toBe(true);
        const read = (await p.getJob(job.record.id))!;
        expect(read.leaseUntil).toBe(500);
        expect(read.record.version).toBe(2);
      });
    });

    describe('finishing jobs and results', () => {
      it('stores the finished job and its result together', async () => {
        const p = await open();
        const job = makeJob();
        await p.insertJob(job);
        const done = bumped(job, { status: 'succeeded', usage: { pages: 1 } });
        const result = makeResult(job, [
          { name: 'invoice.total', value: '12.50', confidence: 0.9, boundingBox: null, valueNorm: 12.5 },
        ]);
        expect(await p.finishJob(done, 1, result)).toBe(true);
        expect(await p.getJob(job.record.id)).toEqual(done);
        expect(await p.listResults(A, job.record.file_id!)).toEqual([result]);
      });

      it('stores nothing when the version is stale, and one result per job', async () => {
        const p = await open();
        const job = makeJob();
        await p.insertJob(job);
        expect(await p.finishJob(bumped(job, { status: 'succeeded' }), 7, makeResult(job))).toBe(false);
        expect(await p.listResults(A, job.record.file_id!)).toEqual([]);
        const done = bumped(job, { status: 'succeeded' });
        expect(await p.finishJob(done, 1, makeResult(job))).toBe(true);
        // A second finish from a later version (e.g. a run taken up again) keeps one result.
        expect(await p.finishJob(bumped(done), 2, makeResult(job))).toBe(true);
        expect(await p.listResults(A, job.record.file_id!)).toHaveLength(1);
      });

      it('finishes a failed job without a result', async () => {
        const p = await open();
        const job = makeJob();
        await p.insertJob(job);
        const failed = bumped(job, {
          status: 'failed',
          error: { code: 'PDF_CORRUPT', message: 'The PDF is damaged.', details: [] },
        });
        expect(await p.finishJob(failed, 1)).toBe(true);
        expect((await p.getJob(job.record.id))!.record.error).toEqual(failed.record.error);
        expect(await p.listResults(A, job.record.file_id!)).toEqual([]);
      });

      it('lists results of one file of one account, in the order the jobs were created', async () => {
        const p = await open();
        const fileId = randomUUID();
        const early = makeJob({ fileId });
        const late = makeJob({ fileId });
        const foreign = makeJob({ fileId, accountId: B });
        for (const job of [early, late, foreign]) await p.insertJob(job);
        // The late job finishes first; the list still follows creation.
        await p.finishJob(bumped(late, { status: 'succeeded' }), 1, makeResult(late));
        await p.finishJob(bumped(early, { status: 'succeeded' }), 1, makeResult(early));
        await p.finishJob(bumped(foreign, { status: 'succeeded' }), 1, makeResult(foreign));
        expect((await p.listResults(A, fileId)).map((r) => r.jobId)).toEqual([
          early.record.id,
          late.record.id,
        ]);
        expect((await p.listResults(B, fileId)).map((r) => r.jobId)).toEqual([foreign.record.id]);
        expect(await p.listResults(A, randomUUID())).toEqual([]);
      });
    });

    describe('token layers', () => {
      it('stores one layer per file and account, replaced by a later put', async () => {
        const p = await open();
        const fileId = randomUUID();
        const layer = makeLayer(fileId);
        await p.putTokenLayer(A, fileId, layer);
        expect(await p.getTokenLayer(A, fileId)).toEqual(layer);
        expect(await p.getTokenLayer(B, fileId)).toBeUndefined();
        const replaced = { ...layer, tokens: [] };
        await p.putTokenLayer(A, fileId, replaced);
        expect(await p.getTokenLayer(A, fileId)).toEqual(replaced);
      });

      it('forgets the layer and results of a deleted file but keeps its jobs', async () => {
        const p = await open();
        const job = makeJob();
        const fileId = job.record.file_id!;
        await p.insertJob(job);
        await p.finishJob(bumped(job, { status: 'succeeded' }), 1, makeResult(job));
        await p.putTokenLayer(A, fileId, makeLayer(fileId));
        await p.putTokenLayer(B, fileId, makeLayer(fileId));
        await p.deleteFileData(A, fileId);
        expect(await p.getTokenLayer(A, fileId)).toBeUndefined();
        expect(await p.listResults(A, fileId)).toEqual([]);
        expect(await p.getJob(job.record.id)).toBeDefined();
        expect(await p.getTokenLayer(B, fileId)).toBeDefined();
      });

      it('with jobs: also forgets the ended jobs of the file, not its running ones nor others', async () => {
        const p = await open();
        const fileId = randomUUID();
        const ended = makeJob({ fileId });
        const failed = makeJob({ fileId, status: 'failed' });
        const running = makeJob({ fileId, status: 'running' });
        const otherFile = makeJob({ status: 'succeeded' });
        const otherAccount = makeJob({ fileId, status: 'succeeded', accountId: B });
        for (const job of [ended, failed, running, otherFile, otherAccount]) await p.insertJob(job);
        await p.finishJob(bumped(ended, { status: 'succeeded' }), 1, makeResult(ended));
        await p.deleteFileData(A, fileId, { jobs: true });
        expect(await p.getJob(ended.record.id)).toBeUndefined();
        expect(await p.getJob(failed.record.id)).toBeUndefined();
        expect(await p.listResults(A, fileId)).toEqual([]);
        expect(await p.getJob(running.record.id)).toBeDefined();
        expect(await p.getJob(otherFile.record.id)).toBeDefined();
        expect(await p.getJob(otherAccount.record.id)).toBeDefined();
      });
    });

    describe('validation rules', () => {
      it('stores rules by id per account, replaced by a later put', async () => {
        const p = await open();
        const rules = {
          data: { checks: [{ condition: { type: 'is-set', path: "$.predictions['x'].value" } }] },
          schema: true,
        };
        await p.putRules(A, 'my rules/1', rules);
        expect(await p.getRules(A, 'my rules/1')).toEqual(rules);
        expect(await p.getRules(B, 'my rules/1')).toBeUndefined();
        expect(await p.getRules(A, 'other')).toBeUndefined();
        await p.putRules(A, 'my rules/1', { data: { checks: [] }, schema: true });
        expect(await p.getRules(A, 'my rules/1')).toEqual({ data: { checks: [] }, schema: true });
      });
    });

    describe('review tasks', () => {
      it('stores, lists and completes tasks of one account', async () => {
        const p = await open();
        const fileId = randomUUID();
        const t1 = makeTask({ fileId });
        const t2 = makeTask({ fileId });
        const t3 = makeTask();
        const foreign = makeTask({ accountId: B, fileId });
        for (const t of [t2, foreign, t3, t1]) await p.insertTask(t);
        await expect(p.insertTask(t1)).rejects.toThrow();
        expect(await p.getTask(A, t1.id)).toEqual(t1);
        expect(await p.getTask(B, t1.id)).toBeUndefined();
        expect((await p.listTasks({ accountId: A })).map((t) => t.id)).toEqual([t1.id, t2.id, t3.id]);
        expect((await p.listTasks({ accountId: A, fileId })).map((t) => t.id)).toEqual([t1.id, t2.id]);

        const completed: StoredTask = {
          ...t2,
          status: 'completed',
          version: 2,
          data: { ...t2.data, corrections: { a: '1' } },
        };
        expect(await p.updateTask(completed, 1)).toBe(true);
        expect(await p.updateTask({ ...completed, version: 3 }, 1)).toBe(false);
        expect(await p.getTask(A, t2.id)).toEqual(completed);
        expect((await p.listTasks({ accountId: A, status: 'open' })).map((t) => t.id)).toEqual([
          t1.id,
          t3.id,
        ]);
        expect((await p.listTasks({ accountId: A, status: 'completed', fileId })).map((t) => t.id)).toEqual([
          t2.id,
        ]);
        // Counted over every account (metrics): t1, t3 and B's task open, t2 completed.
        expect(await p.countTasks('open')).toBe(3);
        expect(await p.countTasks('completed')).toBe(1);
        // Another account cannot change a task it does not own.
        expect(await p.updateTask({ ...t1, accountId: B, status: 'completed', version: 2 }, 1)).toBe(false);
        expect((await p.getTask(A, t1.id))!.status).toBe('open');
      });
    });

    it('lists tasks created in the same millisecond in the order they were stored', async () => {
      const p = await open();
      const createdAt = '2026-11-22T10:00:00.000Z';
      const ids = ['f', 'a', 'c', 'b', 'e'].map((c) => `${c.repeat(8)}-0000-4000-8000-000000000000`);
      for (const id of ids) await p.insertTask(makeTask({ id, createdAt }));
      expect((await p.listTasks({ accountId: A })).map((t) => t.id)).toEqual(ids);
    });

    describe('accounts and clients', () => {
      it('stores account settings and clients, replaced by a later put', async () => {
        const p = await open();
        expect(await p.listAccounts()).toEqual([]);
        const settings = {
          limits: { maxFileBytes: 1000, maxPages: 3 },
          locale: 'de-DE',
          subscriptions: ['invoices'],
        };
        await p.putAccount(A, settings);
        await p.putAccount(B, { limits: { maxFileBytes: 5, maxPages: 1 } });
        await p.putAccount(A, { ...settings, locale: 'en-AU' });
        const listed = await p.listAccounts();
        expect(listed.sort((x, y) => x.accountId.localeCompare(y.accountId))).toEqual([
          { accountId: A, settings: { ...settings, locale: 'en-AU' } },
          { accountId: B, settings: { limits: { maxFileBytes: 5, maxPages: 1 } } },
        ]);
        const client = {
          clientId: 'c-1',
          accountId: A,
          secretHash: 'scrypt$16384$salt$hash',
          createdAt: '2026-11-22T10:00:00.000Z',
        };
        await p.putClient(client);
        expect(await p.getClient('c-1')).toEqual(client);
        expect(await p.getClient('c-2')).toBeUndefined();
        await p.putClient({ ...client, accountId: B });
        expect((await p.getClient('c-1'))!.accountId).toBe(B);
      });
    });

    it('keeps everything when closed and opened again (durable adapters)', async () => {
      const p = await open();
      if (!under.durable) return expect(p.shared).toBe(false);
      const job = makeJob();
      await p.insertJob(job);
      await p.finishJob(bumped(job, { status: 'succeeded' }), 1, makeResult(job));
      await p.putTokenLayer(A, job.record.file_id!, makeLayer(job.record.file_id!));
      await p.putRules(A, 'r', { data: { checks: [] }, schema: true });
      const task = makeTask();
      await p.insertTask(task);
      await p.putAccount(A, { limits: { maxFileBytes: 9, maxPages: 2 } });
      await p.putClient({
        clientId: 'c',
        accountId: A,
        secretHash: 'h',
        createdAt: '2026-11-22T10:00:00.000Z',
      });
      const again = await under.reopen();
      expect((await again.getJob(job.record.id))!.record.status).toBe('succeeded');
      expect(await again.listResults(A, job.record.file_id!)).toHaveLength(1);
      expect(await again.getTokenLayer(A, job.record.file_id!)).toEqual(makeLayer(job.record.file_id!));
      expect(await again.getRules(A, 'r')).toEqual({ data: { checks: [] }, schema: true });
      expect(await again.getTask(A, task.id)).toEqual(task);
      expect(await again.listAccounts()).toEqual([
        { accountId: A, settings: { limits: { maxFileBytes: 9, maxPages: 2 } } },
      ]);
      expect((await again.getClient('c'))!.accountId).toBe(A);
    });
  });
}
