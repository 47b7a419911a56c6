import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';

import type { StoredJob, StoredTask } from '../../src/core/jobs.js';
import type {
  ClaimRequest,
  EnginePersistence,
  PersistenceChange,
} from '../../src/ports/engine-persistence.js';
import { makeJob } from './engine-persistence.contract.js';

/**
 * One shared storage (a database schema, an in-memory store) of a test, on which the suite opens
 * several handles, as several engine processes each open their own connection to one database.
 */
export interface SharedStorageUnderTest {
  /** A new handle on the storage. */
  connect(): Promise<EnginePersistence>;
  /** Called after the test, once every handle is closed. */
  cleanup?: () => Promise<void>;
}

export type MakeSharedStorage = () => Promise<SharedStorageUnderTest>;

const A = 'account-a';
const B = 'account-b';
/** A moment of the claims' own clock (epoch ms): claims are asked with a `now`, never the wall clock. */
const T = 1_800_000_000_000;

/** A claim at `now` by `owner`, leased for a second, excluding nothing unless told. */
function claimAt(now: number, owner: string, exclude: Partial<ClaimRequest> = {}): ClaimRequest {
  return { owner, now, leaseUntil: now + 1000, excludeAccounts: [], excludeQueues: [], ...exclude };
}

function bumped(job: StoredJob, change: Partial<StoredJob['record']> = {}, rest: Partial<StoredJob> = {}) {
  return { ...job, ...rest, record: { ...job.record, ...change, version: job.record.version + 1 } };
}

/** A job some process was running (attempt 1, version 2), held by `owner` until `leaseUntil`. */
function runningJob(owner: string, leaseUntil: number, overrides: Partial<StoredJob> = {}): StoredJob {
  const job = makeJob({ status: 'running', attempts: 1, leaseOwner: owner, leaseUntil, ...overrides });
  job.record.version = 2;
  return job;
}

function makeTask(fileId: string): StoredTask {
  return {
    id: randomUUID(),
    accountId: A,
    fileId,
    status: 'open',
    version: 1,
    createdAt: '2026-11-22T10:00:00.000Z',
    data: { note: 'Check the total' },
  };
}

const ids = (jobs: Array<StoredJob | undefined>): Array<string | undefined> => jobs.map((j) => j?.record.id);

/**
 * The shared-storage members of EnginePersistence (`claimNext`, `countJobs`, `subscribe`), checked
 * over several handles on one storage: what several engine processes (PostgreSQL) or several engines of
 * one process (memory, `{ shared: true }`) rely on to share the jobs. Every handle is also an
 * EnginePersistence of its own, checked by engine-persistence.contract.ts.
 */
export function describeSharedPersistence(name: string, make: MakeSharedStorage): void {
  describe(`shared EnginePersistence contract: ${name}`, () => {
    let storage: SharedStorageUnderTest | undefined;
    const handles: EnginePersistence[] = [];
    const unsubscribes: Array<() => Promise<void>> = [];
    afterEach(async () => {
      // Subscriptions first: a PostgreSQL pool does not end while a listening connection is out.
      for (const off of unsubscribes.splice(0)) await off().catch(() => undefined);
      for (const p of handles.splice(0)) await p.close().catch(() => undefined);
      await storage?.cleanup?.();
      storage = undefined;
    });

    /** `count` handles on one new storage. */
    async function open(count: number): Promise<EnginePersistence[]> {
      storage = await make();
      for (let i = 0; i < count; i++) handles.push(await storage.connect());
      return handles.slice(0, count);
    }

    /** Subscribes `p`; the changes heard are pushed to the returned list. */
    async function listen(
      p: EnginePersistence,
    ): Promise<{ seen: PersistenceChange[]; off: () => Promise<void> }> {
      const seen: PersistenceChange[] = [];
      const off = await p.subscribe!((change) => seen.push(change));
      unsubscribes.push(off);
      return { seen, off };
    }

    /** Resolves once `seen` holds `count` changes (fails after 5 s). */
    async function heard(seen: PersistenceChange[], count: number): Promise<void> {
      await vi.waitFor(() => expect(seen.length).toBeGreaterThanOrEqual(count), {
        timeout: 5000,
        interval: 10,
      });
    }

    it('says it is shared and has the shared-storage members', async () => {
      const [p] = await open(1);
      expect(p!.shared).toBe(true);
      expect(typeof p!.claimNext).toBe('function');
      expect(typeof p!.countJobs).toBe('function');
      expect(typeof p!.subscribe).toBe('function');
    });

    it('shows through every handle what one handle stored', async () => {
      const [a, b] = await open(2);
      const job = makeJob();
      await a!.insertJob(job);
      expect(await b!.getJob(job.record.id)).toEqual(job);
      const cancelled = bumped(job, { status: 'cancelled' });
      expect(await b!.updateJob(cancelled, 1)).toBe(true);
      expect(await a!.getJob(job.record.id)).toEqual(cancelled);
      // The handle that wrote first lost nothing by the other's write: its stale write is refused.
      expect(await a!.updateJob(bumped(job, { status: 'running' }), 1)).toBe(false);
    });

    describe('claims', () => {
      it('gives each job to one of many concurrent claims from several handles, never to two', async () => {
        const handles = await open(3);
        const jobs = Array.from({ length: 20 }, () => makeJob());
        for (const job of jobs) await handles[0]!.insertJob(job);
        const claims = await Promise.all(
          Array.from({ length: 45 }, (_, i) => handles[i % 3]!.claimNext!(claimAt(T, `owner-${i}`))),
        );
        const won = claims.flatMap((c, i) => (c ? [{ ...c, owner: `owner-${i}` }] : []));
        expect(won).toHaveLength(20);
        expect(new Set(won.map((c) => c.claimed.record.id)).size).toBe(20);
        const inserted = new Map(jobs.map((j) => [j.record.id, j]));
        for (const { previous, claimed, owner } of won) {
          // The job as it was, and as claimed: running, attempt and version bumped, leased to the owner.
          expect(previous).toEqual(inserted.get(claimed.record.id));
          expect(claimed).toEqual({
            ...previous,
            attempts: 1,
            leaseOwner: owner,
            leaseUntil: T + 1000,
            record: { ...previous.record, status: 'running', version: 2 },
          });
          expect(await handles[1]!.getJob(claimed.record.id)).toEqual(claimed);
        }
        // Every job is held: nothing is left to claim until a lease ends.
        expect(await handles[2]!.claimNext!(claimAt(T + 1000, 'late'))).toBeUndefined();
      });

      it('lets one of many concurrent claims of a single job win', async () => {
        const [a, b] = await open(2);
        const job = makeJob();
        await a!.insertJob(job);
        const claims = await Promise.all(
          Array.from({ length: 10 }, (_, i) => (i % 2 ? a : b)!.claimNext!(claimAt(T, `owner-${i}`))),
        );
        const winners = claims.filter((c) => c !== undefined);
        expect(winners).toHaveLength(1);
        expect((await a!.getJob(job.record.id))!.leaseOwner).toBe(winners[0]!.claimed.leaseOwner);
      });

      it('claims the oldest runnable job first (by created, then id), never an ended one', async () => {
        const [a, b] = await open(2);
        // Ended jobs, older than all others: never claimed.
        const ended = (['succeeded', 'failed', 'cancelled'] as const).map((status) => makeJob({ status }));
        const first = makeJob();
        // A running job whose lease ended ranks by its age too, among the queued ones.
        const abandoned = runningJob('gone', T - 1);
        const third = makeJob();
        // Two jobs created in the same microsecond: by id.
        const twinB = makeJob();
        const twinA = makeJob();
        twinA.record.created = twinB.record.created;
        twinA.record.id = '00000000-0000-4000-8000-00000000000a';
        twinB.record.id = '00000000-0000-4000-8000-00000000000b';
        const last = makeJob();
        for (const job of [last, twinB, third, ...ended, twinA, abandoned, first]) await a!.insertJob(job);
        const order: Array<string | undefined> = [];
        for (let i = 0; i < 7; i++) order.push((await b!.claimNext!(claimAt(T, 'me')))?.claimed.record.id);
        expect(order).toEqual([...ids([first, abandoned, third, twinA, twinB, last]), undefined]);
        for (const job of ended) expect(await a!.getJob(job.record.id)).toEqual(job);
      });

      it('claims a queued job once it is due, not before', async () => {
        const [a, b] = await open(2);
        // Waiting for a retry: a later job that is due already goes first.
        const waiting = makeJob({ runAfter: T + 500, attempts: 1 });
        const due = makeJob({ runAfter: T });
        await a!.insertJob(waiting);
        await a!.insertJob(due);
        expect(ids([(await b!.claimNext!(claimAt(T, 'me')))?.claimed])).toEqual(ids([due]));
        expect(await b!.claimNext!(claimAt(T + 499, 'me'))).toBeUndefined();
        const claimed = await a!.claimNext!(claimAt(T + 500, 'me'));
        expect(claimed?.claimed).toMatchObject({ attempts: 2, record: { id: waiting.record.id } });
      });

      it('takes over a running job whose lease ended, not one whose lease holds', async () => {
        const [a, b] = await open(2);
        const job = runningJob('vanished', T);
        await a!.insertJob(job);
        // A lease that ends at the claim's `now` still holds.
        expect(await b!.claimNext!(claimAt(T - 1, 'survivor'))).toBeUndefined();
        expect(await b!.claimNext!(claimAt(T, 'survivor'))).toBeUndefined();
        const taken = (await b!.claimNext!(claimAt(T + 1, 'survivor')))!;
        expect(taken.previous).toEqual(job);
        expect(taken.claimed).toEqual({
          ...job,
          attempts: 2,
          leaseOwner: 'survivor',
          leaseUntil: T + 1001,
          record: { ...job.record, status: 'running', version: 3 },
        });
        // The former holder has lost it: its lease cannot be renewed, its end not stored.
        expect(await a!.renewLease(job.record.id, 'vanished', T + 5000)).toBe(false);
        expect(await a!.finishJob(bumped(job, { status: 'succeeded' }), 2)).toBe(false);
        // The new holder renews its lease: no one takes the job over while it holds.
        expect(await b!.renewLease(job.record.id, 'survivor', T + 5000)).toBe(true);
        expect(await a!.claimNext!(claimAt(T + 2000, 'other'))).toBeUndefined();
        expect(await a!.claimNext!(claimAt(T + 5001, 'other'))).toMatchObject({
          claimed: { attempts: 3, leaseOwner: 'other', record: { version: 4 } },
        });
      });

      it("clears a queued job's error from its earlier run when it is claimed", async () => {
        const [a] = await open(1);
        const job = makeJob({ attempts: 1, runAfter: T });
        job.record.error = { code: 'OCR_FAILED', message: 'The OCR engine failed.' };
        await a!.insertJob(job);
        const { previous, claimed } = (await a!.claimNext!(claimAt(T, 'me')))!;
        expect(previous.record.error).toEqual(job.record.error);
        expect(claimed.record).not.toHaveProperty('error');
        expect((await a!.getJob(job.record.id))!.record).not.toHaveProperty('error');
      });

      it('skips jobs of the accounts and queues the claim excludes', async () => {
        const [a, b] = await open(2);
        const aDefault = makeJob({ accountId: A });
        const bOcr = makeJob({ accountId: B, queue: 'ocr' });
        const bDefault = makeJob({ accountId: B });
        const aOcr = runningJob('gone', T - 1, { accountId: A, queue: 'ocr' });
        for (const job of [aDefault, bOcr, bDefault, aOcr]) await a!.insertJob(job);
        const claim = async (exclude: Partial<ClaimRequest>): Promise<string | undefined> =>
          (await b!.claimNext!(claimAt(T, 'me', exclude)))?.claimed.record.id;
        expect(await claim({ excludeAccounts: [A, B] })).toBeUndefined();
        expect(await claim({ excludeQueues: ['default', 'ocr'] })).toBeUndefined();
        expect(await claim({ excludeAccounts: [A], excludeQueues: ['ocr'] })).toBe(bDefault.record.id);
        expect(await claim({ excludeQueues: ['default'] })).toBe(bOcr.record.id);
        expect(await claim({ excludeAccounts: [B] })).toBe(aDefault.record.id);
        expect(await claim({ excludeAccounts: [B], excludeQueues: ['default'] })).toBe(aOcr.record.id);
        expect(await claim({})).toBeUndefined();
      });
    });

    it('counts the jobs with one of the statuses, of every account, through any handle', async () => {
      const [a, b] = await open(2);
      expect(await b!.countJobs!(['new'])).toBe(0);
      const jobs = [
        makeJob(),
        makeJob(),
        makeJob({ accountId: B }),
        runningJob('someone', T + 1000),
        makeJob({ status: 'succeeded' }),
        makeJob({ status: 'failed', accountId: B }),
      ];
      for (const job of jobs) await a!.insertJob(job);
      expect(await b!.countJobs!(['new'])).toBe(3);
      expect(await b!.countJobs!(['new', 'running'])).toBe(4);
      expect(await b!.countJobs!(['succeeded', 'failed', 'cancelled'])).toBe(2);
      expect(await b!.countJobs!([])).toBe(0);
      await b!.claimNext!(claimAt(T, 'me'));
      expect(await a!.countJobs!(['new'])).toBe(2);
      expect(await a!.countJobs!(['running'])).toBe(2);
    });

    describe('change notifications', () => {
      it('tells every subscriber, on any handle, of each stored change of a job or task', async () => {
        const [a, b] = await open(2);
        const other = await listen(b!);
        const own = await listen(a!);
        // Subscribed once `subscribe` resolves: a change made right after is heard.
        const job = makeJob();
        const fileId = job.record.file_id!;
        await a!.insertJob(job);
        const running = bumped(job, { status: 'running' }, { leaseOwner: 'me', leaseUntil: T });
        expect(await a!.updateJob(running, 1)).toBe(true);
        // A compare-and-set that lost changes nothing and announces nothing.
        expect(await a!.updateJob(bumped(job, { status: 'cancelled' }), 1)).toBe(false);
        expect(await a!.finishJob(bumped(running, { status: 'succeeded' }), 2)).toBe(true);
        const loose = makeJob({ fileId: null, accountId: B });
        await a!.insertJob(loose);
        expect(await a!.claimNext!(claimAt(T, 'me'))).toBeDefined();
        const task = makeTask(fileId);
        await a!.insertTask(task);
        expect(await a!.updateTask({ ...task, version: 3 }, 2)).toBe(false);
        expect(await a!.updateTask({ ...task, status: 'completed', version: 2 }, 1)).toBe(true);

        const expected: PersistenceChange[] = [
          { kind: 'job', accountId: A, fileId }, // inserted
          { kind: 'job', accountId: A, fileId }, // updated
          { kind: 'job', accountId: A, fileId }, // finished
          { kind: 'job', accountId: B, fileId: null }, // inserted
          { kind: 'job', accountId: B, fileId: null }, // claimed
          { kind: 'task', accountId: A, fileId }, // inserted
          { kind: 'task', accountId: A, fileId }, // completed
        ];
        await heard(other.seen, expected.length);
        await heard(own.seen, expected.length);
        expect(other.seen).toEqual(expected);
        expect(own.seen).toEqual(expected);
      });

      it('tells an unsubscribed listener nothing more, while others still hear', async () => {
        const [a, b, c] = await open(3);
        const leaving = await listen(b!);
        const staying = await listen(c!);
        await a!.insertJob(makeJob());
        await heard(leaving.seen, 1);
        await heard(staying.seen, 1);
        await leaving.off();
        await leaving.off(); // a second unsubscribe is harmless
        await a!.insertJob(makeJob());
        await a!.insertTask(makeTask(randomUUID()));
        // The listener that stays heard both changes; by then the other would have heard them too.
        await heard(staying.seen, 3);
        expect(staying.seen.map((c) => c.kind)).toEqual(['job', 'job', 'task']);
        expect(leaving.seen).toHaveLength(1);
      });
    });
  });
}
