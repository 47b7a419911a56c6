import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { describe, expect, inject, it } from 'vitest';
import { createPostgresPersistence } from '../../../src/adapters/persistence/postgres-persistence.js';
import { describeReviewerDirectory } from '../../ports/reviewer-directory.contract.js';
import { describeSupplierMemoryStore } from '../../ports/supplier-memory-store.contract.js';
import { describeUsageLedger } from '../../ports/usage-ledger.contract.js';
import { describeWebhookOutbox } from '../../ports/webhook-outbox.contract.js';
import { describeJobPersistence, makeJob } from '../../ports/engine-persistence.contract.js';

const url = inject('pgUrl');
const skipReason = inject('pgSkipReason');
if (!url) console.warn(`PostgreSQL tests skipped: ${skipReason}`);

/** A fresh schema per test, dropped afterwards. */
function freshSchema(): string {
  return `t_${randomBytes(6).toString('hex')}`;
}

async function dropSchema(schema: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  await client.end();
}

describe.skipIf(!url)('PostgreSQL persistence', () => {
  const makePostgres = async () => {
    const schema = freshSchema();
    const persistence = createPostgresPersistence({ connectionString: url, schema, maxConnections: 4 });
    return {
      persistence,
      reopen: async () => {
        await persistence.close();
        return createPostgresPersistence({ connectionString: url, schema, maxConnections: 4 });
      },
      cleanup: () => dropSchema(schema),
    };
  };
  describeJobPersistence('postgres', makePostgres);
  describeWebhookOutbox('postgres', makePostgres);
  describeUsageLedger('postgres', makePostgres);
  describeReviewerDirectory('postgres', makePostgres);
  describeSupplierMemoryStore('postgres', makePostgres);

  it('migrates safely when several processes start at once', async () => {
    const schema = freshSchema();
    const many = Array.from({ length: 5 }, () =>
      createPostgresPersistence({ connectionString: url, schema, maxConnections: 2 }),
    );
    try {
      await Promise.all(many.map((p) => p.listAccounts()));
      await many[0]!.insertJob(makeJob());
      expect(await many[4]!.listJobs({})).toHaveLength(1);
    } finally {
      await Promise.all(many.map((p) => p.close()));
      await dropSchema(schema);
    }
  });

  it('claims each job for one process only, and takes over jobs whose lease ended', async () => {
    const schema = freshSchema();
    const a = createPostgresPersistence({ connectionString: url, schema, maxConnections: 4 });
    const b = createPostgresPersistence({ connectionString: url, schema, maxConnections: 4 });
    try {
      const jobs = Array.from({ length: 20 }, () => makeJob());
      for (const job of jobs) await a.insertJob(job);
      const now = Date.now();
      const claim = (p: typeof a, owner: string) =>
        p.claimNext!({ owner, now, leaseUntil: now + 1000, excludeAccounts: [], excludeQueues: [] });
      const claims = await Promise.all(
        Array.from({ length: 30 }, (_, i) => claim(i % 2 ? a : b, `owner-${i % 2}`)),
      );
      const ids = claims.filter((c) => c).map((c) => c!.claimed.record.id);
      expect(ids).toHaveLength(20);
      expect(new Set(ids).size).toBe(20);
      for (const c of claims.filter((x) => x)) {
        expect(c!.claimed).toMatchObject({ attempts: 1, record: { status: 'running', version: 2 } });
      }
      // Leases end: another process takes the jobs over.
      const later = Date.now() + 5000;
      const taken = await b.claimNext!({
        owner: 'owner-x',
        now: later,
        leaseUntil: later + 1000,
        excludeAccounts: [],
        excludeQueues: [],
      });
      expect(taken!.claimed).toMatchObject({ attempts: 2, leaseOwner: 'owner-x', record: { version: 3 } });
      // Excluded accounts are skipped.
      expect(
        await a.claimNext!({
          owner: 'o',
          now: later,
          leaseUntil: later,
          excludeAccounts: ['account-a'],
          excludeQueues: [],
        }),
      ).toBeUndefined();
      expect(await a.countJobs!(['running'])).toBe(20);
    } finally {
      await a.close();
      await b.close();
      await dropSchema(schema);
    }
  });

  it('announces changes to every subscriber', async () => {
    const schema = freshSchema();
    const a = createPostgresPersistence({ connectionString: url, schema, maxConnections: 4 });
    const b = createPostgresPersistence({ connectionString: url, schema, maxConnections: 4 });
    try {
      const seen: unknown[] = [];
      let heard!: () => void;
      const got = new Promise<void>((resolve) => (heard = resolve));
      // LISTEN is in place once subscribe resolves: nothing sent after it is missed.
      const off = await b.subscribe!((change) => {
        seen.push(change);
        heard();
      });
      const job = makeJob();
      await a.insertJob(job);
      await got;
      expect(seen[0]).toEqual({ kind: 'job', accountId: job.accountId, fileId: job.record.file_id });
      await off();
    } finally {
      await a.close();
      await b.close();
      await dropSchema(schema);
    }
  });
});
