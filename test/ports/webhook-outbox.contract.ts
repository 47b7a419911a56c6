import { describe, it, expect } from 'vitest';

import type { StoredJob, StoredTask } from '../../src/core/jobs.js';
import type { EnginePersistence } from '../../src/ports/engine-persistence.js';
import type { FileState, OutboxEvent, RaiseEvents, StoredWebhook } from '../../src/ports/webhook-outbox.js';
import { jobEvents, taskEvents } from '../../src/webhooks/events.js';
import { makeJob, persistenceUnderTest, type MakePersistence } from './engine-persistence.contract.js';

const A = 'account-a';
const B = 'account-b';
let seq = 0;

function hook(overrides: Partial<StoredWebhook> = {}): StoredWebhook {
  seq++;
  return {
    id: `wh_${String(seq).padStart(32, '0')}`,
    accountId: A,
    url: `https://receiver.example/${seq}`,
    events: ['file.finalised', 'job.failed', 'task.created', 'task.completed'],
    secret: 'whsec_c2VjcmV0LXNlY3JldC1zZWNyZXQ=',
    createdAt: new Date(Date.UTC(2026, 10, 23, 10, 0, seq)).toISOString(),
    ...overrides,
  };
}

function finished(job: StoredJob, status: 'succeeded' | 'failed' | 'cancelled' = 'succeeded'): StoredJob {
  return { ...job, record: { ...job.record, status, version: job.record.version + 1 } };
}

function task(fileId: string, overrides: Partial<StoredTask> = {}): StoredTask {
  return {
    id: crypto.randomUUID(),
    accountId: A,
    fileId,
    status: 'open',
    version: 1,
    createdAt: new Date(Date.UTC(2026, 10, 23, 10, 0, 0, seq++)).toISOString(),
    data: { jobId: 'j' },
    ...overrides,
  };
}

const clock = (): number => 1_800_000_000_000;
/** A raise that records the state it was given and raises one event of the given id. */
function recording(id: string, seen: FileState[] = []): RaiseEvents {
  return (file) => {
    seen.push(file);
    const event: OutboxEvent = {
      id,
      accountId: file.accountId,
      type: 'job.failed',
      body: '{}',
      raisedAt: clock(),
    };
    return [event];
  };
}

/** The outbox half of the persistence contract: every EnginePersistence adapter passes it. */
export function describeWebhookOutbox(name: string, make: MakePersistence): void {
  describe(`WebhookOutbox contract: ${name}`, () => {
    const under = persistenceUnderTest(make);
    const open = (): Promise<EnginePersistence> => under.open();

    it('stores subscriptions per account: put, get, list oldest first, replace, delete', async () => {
      const p = await open();
      const first = hook();
      const second = hook();
      const other = hook({ accountId: B });
      for (const h of [second, first, other]) await p.putWebhook(h);
      expect(await p.getWebhook(A, first.id)).toEqual(first);
      expect(await p.getWebhook(B, first.id)).toBeUndefined();
      expect((await p.listWebhooks(A)).map((h) => h.id)).toEqual([first.id, second.id]);
      expect((await p.listWebhooks(B)).map((h) => h.id)).toEqual([other.id]);
      await p.putWebhook({
        ...first,
        secret: 'whsec_bmV3',
        previousSecret: first.secret,
        previousSecretUntil: 5,
      });
      expect((await p.getWebhook(A, first.id))!.previousSecret).toBe(first.secret);
      expect(await p.deleteWebhook(B, first.id)).toBe(false);
      expect(await p.deleteWebhook(A, first.id)).toBe(true);
      expect(await p.deleteWebhook(A, first.id)).toBe(false);
      expect((await p.listWebhooks(A)).map((h) => h.id)).toEqual([second.id]);
    });

    it('a change given raise stores one delivery per event and subscription that asked for its type', async () => {
      const p = await open();
      const all = hook();
      const onlyTasks = hook({ events: ['task.created'] });
      const otherAccount = hook({ accountId: B });
      for (const h of [all, onlyTasks, otherAccount]) await p.putWebhook(h);
      const job = makeJob({ status: 'running' });
      await p.insertJob(job);
      const seen: FileState[] = [];
      expect(
        await p.finishJob(finished(job, 'failed'), job.record.version, undefined, recording('msg_1', seen)),
      ).toBe(true);
      // The file's state after the change, the changed job included.
      expect(seen).toHaveLength(1);
      expect(seen[0]!.fileId).toBe(job.record.file_id);
      expect(seen[0]!.jobs.map((j) => [j.record.id, j.record.status])).toEqual([[job.record.id, 'failed']]);
      const listed = await p.listDeliveries({ accountId: A });
      expect(listed.map((d) => [d.webhookId, d.eventId, d.status, d.attempts])).toEqual([
        [all.id, 'msg_1', 'pending', 0],
      ]);
      expect(await p.listDeliveries({ accountId: B })).toEqual([]);
    });

    it('raises nothing when the change is refused, and does not call raise without subscriptions', async () => {
      const p = await open();
      const job = makeJob({ status: 'running' });
      await p.insertJob(job);
      const seen: FileState[] = [];
      expect(await p.finishJob(finished(job), job.record.version, undefined, recording('msg_x', seen))).toBe(
        true,
      );
      expect(seen).toEqual([]);
      await p.putWebhook(hook());
      const stale = finished(finished(job));
      expect(await p.finishJob(stale, job.record.version, undefined, recording('msg_y', seen))).toBe(false);
      expect(await p.updateJob(stale, job.record.version, recording('msg_z', seen))).toBe(false);
      expect(seen).toEqual([]);
      expect(await p.listDeliveries({ accountId: A })).toEqual([]);
    });

    it('stores an event id once per subscription, whichever change raises it again', async () => {
      const p = await open();
      const h = hook();
      await p.putWebhook(h);
      const job = makeJob({ status: 'new' });
      await p.insertJob(job);
      const running = finished(job);
      running.record.status = 'running';
      await p.updateJob(running, job.record.version, recording('msg_same'));
      await p.finishJob(finished(running), running.record.version, undefined, recording('msg_same'));
      expect((await p.listDeliveries({ accountId: A })).map((d) => d.eventId)).toEqual(['msg_same']);
    });

    it('tasks raise too: the state holds the file`s jobs and tasks after the change', async () => {
      const p = await open();
      await p.putWebhook(hook());
      const job = makeJob({ status: 'succeeded' });
      await p.insertJob(job);
      const fileId = job.record.file_id!;
      const t = task(fileId);
      const seen: FileState[] = [];
      await p.insertTask(t, recording('msg_created', seen));
      const done = { ...t, status: 'completed' as const, version: 2 };
      expect(await p.updateTask(done, 1, recording('msg_completed', seen))).toBe(true);
      expect(await p.updateTask(done, 1, recording('msg_never', seen))).toBe(false);
      expect(seen.map((s) => s.tasks.map((x) => x.status))).toEqual([['open'], ['completed']]);
      expect(seen.map((s) => s.jobs.map((j) => j.record.id))).toEqual([[job.record.id], [job.record.id]]);
      expect((await p.listDeliveries({ accountId: A })).map((d) => d.eventId).sort()).toEqual([
        'msg_completed',
        'msg_created',
      ]);
    });

    it('claims a due delivery for one process at a time and settles it by compare-and-set', async () => {
      const p = await open();
      const h = hook();
      await p.putWebhook(h);
      const job = makeJob({ status: 'running' });
      await p.insertJob(job);
      await p.finishJob(finished(job, 'failed'), job.record.version, undefined, recording('msg_c'));
      const now = clock();
      const early = await p.claimDeliveries({
        owner: 'x',
        now: now - 1,
        leaseUntil: now + 10,
        limit: 5,
        excludeWebhooks: [],
      });
      expect(early).toEqual([]);
      const excluded = await p.claimDeliveries({
        owner: 'x',
        now,
        leaseUntil: now + 10,
        limit: 5,
        excludeWebhooks: [h.id],
      });
      expect(excluded).toEqual([]);
      const [a, b] = await Promise.all([
        p.claimDeliveries({ owner: 'x', now, leaseUntil: now + 1000, limit: 5, excludeWebhooks: [] }),
        p.claimDeliveries({ owner: 'y', now, leaseUntil: now + 1000, limit: 5, excludeWebhooks: [] }),
      ]);
      const claimed = [...a!, ...b!];
      expect(claimed).toHaveLength(1);
      const mine = claimed[0]!;
      expect(mine.leaseUntil).toBe(now + 1000);
      expect(mine.version).toBe(2);
      // Leased: nobody else gets it until the lease ends, unless asked for leased ones at start.
      expect(
        await p.claimDeliveries({
          owner: 'z',
          now: now + 500,
          leaseUntil: now + 900,
          limit: 5,
          excludeWebhooks: [],
        }),
      ).toEqual([]);
      const again = await p.claimDeliveries({
        owner: 'z',
        now: now + 500,
        leaseUntil: now + 900,
        limit: 5,
        excludeWebhooks: [],
        includeLeased: true,
      });
      expect(again.map((d) => [d.id, d.leaseOwner, d.version])).toEqual([[mine.id, 'z', 3]]);
      // The first claimer's settle is refused: the delivery changed since it claimed it.
      const delivered = { ...mine, status: 'delivered' as const, attempts: 1, deliveredAt: now, version: 3 };
      expect(await p.settleDelivery(delivered, mine.version)).toBe(false);
      const latest = again[0]!;
      expect(
        await p.settleDelivery(
          { ...latest, status: 'delivered', attempts: 1, deliveredAt: now, version: 4 },
          3,
        ),
      ).toBe(true);
      expect(
        await p.claimDeliveries({
          owner: 'z',
          now: now + 5000,
          leaseUntil: now + 9000,
          limit: 5,
          excludeWebhooks: [],
        }),
      ).toEqual([]);
      const [stored] = await p.listDeliveries({ accountId: A, status: 'delivered' });
      expect(stored).toMatchObject({ status: 'delivered', attempts: 1, deliveredAt: now, version: 4 });
    });

    it('claims the oldest due first, up to the limit; a pending delivery comes back when it is due again', async () => {
      const p = await open();
      await p.putWebhook(hook());
      const job = makeJob({ status: 'running' });
      await p.insertJob(job);
      const three: RaiseEvents = (file) =>
        [3, 1, 2].map((n) => ({
          id: `msg_${n}`,
          accountId: file.accountId,
          type: 'job.failed',
          body: `{"n":${n}}`,
          raisedAt: 1000 + n,
        }));
      await p.finishJob(finished(job, 'failed'), job.record.version, undefined, three);
      const first = await p.claimDeliveries({
        owner: 'x',
        now: 5000,
        leaseUntil: 20_000,
        limit: 2,
        excludeWebhooks: [],
      });
      expect(first.map((d) => d.eventId)).toEqual(['msg_1', 'msg_2']);
      const retry = {
        ...first[0]!,
        attempts: 1,
        nextAttemptAt: 9000,
        leaseOwner: null,
        leaseUntil: 0,
        version: first[0]!.version + 1,
      };
      expect(await p.settleDelivery(retry, first[0]!.version)).toBe(true);
      const next = await p.claimDeliveries({
        owner: 'x',
        now: 7000,
        leaseUntil: 20_000,
        limit: 5,
        excludeWebhooks: [],
      });
      expect(next.map((d) => d.eventId)).toEqual(['msg_3']);
      const later = await p.claimDeliveries({
        owner: 'x',
        now: 9000,
        leaseUntil: 9500,
        limit: 5,
        excludeWebhooks: [],
      });
      expect(later.map((d) => [d.eventId, d.attempts])).toEqual([['msg_1', 1]]);
      // Listing: newest first, by account and subscription, with a limit.
      expect((await p.listDeliveries({ accountId: A })).map((d) => d.eventId)).toEqual([
        'msg_3',
        'msg_2',
        'msg_1',
      ]);
      expect((await p.listDeliveries({ accountId: A, limit: 1 })).map((d) => d.eventId)).toEqual(['msg_3']);
      expect(await p.listDeliveries({ accountId: A, webhookId: 'wh_none' })).toEqual([]);
    });

    it('takes at most perWebhook deliveries of one subscription, counting those in flight', async () => {
      const p = await open();
      const busy = hook();
      const calm = hook();
      await p.putWebhook(busy);
      await p.putWebhook(calm);
      const job = makeJob({ status: 'running' });
      await p.insertJob(job);
      const three: RaiseEvents = (file) =>
        [1, 2, 3].map((n) => ({
          id: `msg_cap${n}`,
          accountId: file.accountId,
          type: 'job.failed',
          body: '{}',
          raisedAt: n,
        }));
      await p.finishJob(finished(job, 'failed'), job.record.version, undefined, three);
      const taken = await p.claimDeliveries({
        owner: 'x',
        now: 100,
        leaseUntil: 1000,
        limit: 10,
        excludeWebhooks: [],
        perWebhook: 2,
        inFlight: { [busy.id]: 1 },
      });
      const of = (h: StoredWebhook) => taken.filter((d) => d.webhookId === h.id).length;
      expect([of(busy), of(calm)]).toEqual([1, 2]);
      // What was left over stays claimable.
      const rest = await p.claimDeliveries({
        owner: 'y',
        now: 100,
        leaseUntil: 1000,
        limit: 10,
        excludeWebhooks: [],
      });
      expect(rest).toHaveLength(3);
    });

    it('deleting a subscription drops its deliveries; pruning forgets settled ones only', async () => {
      const p = await open();
      const keep = hook();
      const drop = hook();
      await p.putWebhook(keep);
      await p.putWebhook(drop);
      const job = makeJob({ status: 'running' });
      await p.insertJob(job);
      const two: RaiseEvents = (file) =>
        [1, 2].map((n) => ({
          id: `msg_p${n}`,
          accountId: file.accountId,
          type: 'job.failed',
          body: '{}',
          raisedAt: 100 * n,
        }));
      await p.finishJob(finished(job, 'failed'), job.record.version, undefined, two);
      expect(await p.listDeliveries({ accountId: A })).toHaveLength(4);
      await p.deleteWebhook(A, drop.id);
      const left = await p.listDeliveries({ accountId: A });
      expect(left.map((d) => d.webhookId)).toEqual([keep.id, keep.id]);
      const old = left.find((d) => d.eventId === 'msg_p1')!;
      await p.settleDelivery({ ...old, status: 'dead', attempts: 9, version: old.version + 1 }, old.version);
      expect(await p.pruneDeliveries(150)).toBe(1);
      expect((await p.listDeliveries({ accountId: A })).map((d) => d.eventId)).toEqual(['msg_p2']);
      // A pending delivery is never pruned, however old.
      expect(await p.pruneDeliveries(10_000)).toBe(0);
    });

    it('two processes finishing the last two jobs of a file raise its finalisation exactly once', async () => {
      const p = await open();
      await p.putWebhook(hook());
      for (let round = 0; round < 5; round++) {
        const fileId = crypto.randomUUID();
        const jobs = [makeJob({ status: 'running', fileId }), makeJob({ status: 'running', fileId })];
        for (const j of jobs) await p.insertJob(j);
        await Promise.all(
          jobs.map((j) => {
            const done = finished(j);
            return p.finishJob(done, j.record.version, undefined, jobEvents(done, clock));
          }),
        );
        const raised = (await p.listDeliveries({ accountId: A, limit: 1000 })).filter(
          (d) =>
            d.type === 'file.finalised' &&
            (JSON.parse(d.body) as { data: { fileId: string } }).data.fileId === fileId,
        );
        expect(raised).toHaveLength(1);
      }
      // A task closing the file's last open task finalises it too (the events' own logic, through the port).
      const fileId = crypto.randomUUID();
      const j = makeJob({ status: 'running', fileId });
      await p.insertJob(j);
      const t = task(fileId);
      await p.insertTask(t, taskEvents(t, 'created', clock));
      await p.finishJob(finished(j), j.record.version, undefined, jobEvents(finished(j), clock));
      const types = async () =>
        (await p.listDeliveries({ accountId: A, limit: 1000 }))
          .filter((d) => (JSON.parse(d.body) as { data: { fileId: string } }).data.fileId === fileId)
          .map((d) => d.type)
          .sort();
      expect(await types()).toEqual(['task.created']);
      const done = { ...t, status: 'completed' as const, version: 2 };
      await p.updateTask(done, 1, taskEvents(done, 'completed', clock));
      expect(await types()).toEqual(['file.finalised', 'task.completed', 'task.created']);
    });

    it('keeps subscriptions and deliveries when closed and opened again (durable adapters)', async () => {
      const p = await open();
      if (!under.durable) return expect(p.shared).toBe(false);
      const h = hook();
      await p.putWebhook(h);
      const job = makeJob({ status: 'running' });
      await p.insertJob(job);
      await p.finishJob(finished(job, 'failed'), job.record.version, undefined, recording('msg_durable'));
      const again = await under.reopen();
      expect(await again.getWebhook(A, h.id)).toEqual(h);
      expect((await again.listDeliveries({ accountId: A })).map((d) => d.eventId)).toEqual(['msg_durable']);
    });
  });
}
