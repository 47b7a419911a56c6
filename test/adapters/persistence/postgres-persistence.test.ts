import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { describe, expect, inject, it } from 'vitest';
import { createPostgresPersistence } from '../../../src/adapters/persistence/postgres-persistence.js';
import { describeReviewerDirectory } from '../../ports/reviewer-directory.contract.js';
import { describeSupplierMemoryStore } from '../../ports/supplier-memory-store.contract.js';
import { describeUsageLedger } from '../../ports/usage-ledger.contract.js';
import { describeWebhookOutbox } from '../../ports/webhook-outbox.contract.js';
import { describeJobPersistence, makeJob } from '../../ports/engine-persistence.contract.js';
import { describeSharedPersistence } from '../../ports/shared-persistence.contract.js';

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
  // Several handles (pools) on one schema, as several engine processes on one database.
  describeSharedPersistence('postgres', async () => {
    const schema = freshSchema();
    return {
      connect: async () => createPostgresPersistence({ connectionString: url, schema, maxConnections: 4 }),
      cleanup: () => dropSchema(schema),
    };
  });

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
});
