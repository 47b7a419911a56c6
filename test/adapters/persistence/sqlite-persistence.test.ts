import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';

import { createSqlitePersistence } from '../../../src/adapters/persistence/sqlite-persistence.js';
import { DocexError } from '../../../src/core/errors.js';
import type { EnginePersistence } from '../../../src/ports/engine-persistence.js';
import { describeReviewerDirectory } from '../../ports/reviewer-directory.contract.js';
import { describeSupplierMemoryStore } from '../../ports/supplier-memory-store.contract.js';
import { describeUsageLedger } from '../../ports/usage-ledger.contract.js';
import { describeWebhookOutbox } from '../../ports/webhook-outbox.contract.js';
import { describeJobPersistence, makeJob } from '../../ports/engine-persistence.contract.js';

function tempDir(): string {
  return mkdtempSync(join(tmpdir(), 'docex-sqlite-'));
}

const makeSqlite = async () => {
  const dir = tempDir();
  const path = join(dir, 'jobs.db');
  const persistence = createSqlitePersistence({ path });
  return {
    persistence,
    reopen: async () => {
      await persistence.close();
      return createSqlitePersistence({ path });
    },
    cleanup: async () => rmSync(dir, { recursive: true, force: true }),
  };
};
describeJobPersistence('sqlite', makeSqlite);
describeWebhookOutbox('sqlite', makeSqlite);
describeUsageLedger('sqlite', makeSqlite);
describeReviewerDirectory('sqlite', makeSqlite);
describeSupplierMemoryStore('sqlite', makeSqlite);

describe('SQLite persistence', () => {
  const dirs: string[] = [];
  const opened: EnginePersistence[] = [];
  afterEach(async () => {
    for (const p of opened.splice(0)) await p.close();
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });
  function open(path: string): EnginePersistence {
    const p = createSqlitePersistence({ path });
    opened.push(p);
    return p;
  }
  function dbPath(): string {
    const dir = tempDir();
    dirs.push(dir);
    // A missing parent directory is created.
    return join(dir, 'nested', 'jobs.db');
  }

  it('creates the file in WAL mode with the current schema version (6)', async () => {
    const path = dbPath();
    open(path);
    const raw = new Database(path, { readonly: true });
    try {
      expect(raw.pragma('journal_mode', { simple: true })).toBe('wal');
      expect(raw.pragma('user_version', { simple: true })).toBe(6);
    } finally {
      raw.close();
    }
  });

  it('shares one file between two connections: exactly one concurrent claim wins', async () => {
    const path = dbPath();
    const first = open(path);
    const second = open(path);
    const job = makeJob();
    await first.insertJob(job);
    expect(await second.getJob(job.record.id)).toEqual(job);
    const claim = (owner: string) => ({
      ...job,
      leaseOwner: owner,
      record: { ...job.record, status: 'running' as const, version: 2 },
    });
    const outcomes = await Promise.all([
      first.updateJob(claim('first'), 1),
      second.updateJob(claim('second'), 1),
    ]);
    expect(outcomes.filter(Boolean)).toHaveLength(1);
    const winner = outcomes[0] ? 'first' : 'second';
    expect((await first.getJob(job.record.id))!.leaseOwner).toBe(winner);
    expect((await second.getJob(job.record.id))!.leaseOwner).toBe(winner);
  });

  it('rejects calls after close, and a second close is harmless', async () => {
    const p = open(dbPath());
    await p.close();
    await p.close();
    await expect(p.getJob('x')).rejects.toThrow(/closed/);
    await expect(p.insertJob(makeJob())).rejects.toThrow(Error);
  });

  it('throws an INTERNAL DocexError when the path cannot be opened', () => {
    const dir = tempDir();
    dirs.push(dir);
    let error: unknown;
    try {
      createSqlitePersistence({ path: dir });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(DocexError);
    expect((error as DocexError).code).toBe('INTERNAL');
    expect((error as DocexError).message).toContain(dir);
  });

  it('refuses a database whose schema is newer than it knows', () => {
    const path = dbPath();
    open(path);
    const raw = new Database(path);
    raw.pragma('user_version = 7');
    raw.close();
    expect(() => createSqlitePersistence({ path })).toThrow(/schema version 7/);
  });
});

describe('sqlite schema migration', () => {
  it('opens a version 1 database and adds the tables of versions 2 to 6', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'docex-sqlite-'));
    try {
      const file = join(dir, 'old.db');
      const raw = new Database(file);
      raw.exec(
        'CREATE TABLE jobs (id TEXT PRIMARY KEY, account_id TEXT NOT NULL, file_id TEXT, status TEXT NOT NULL, version INTEGER NOT NULL, created TEXT NOT NULL, body TEXT NOT NULL)',
      );
      raw.pragma('user_version = 1');
      raw.close();
      const persistence = createSqlitePersistence({ path: file });
      await persistence.putAccount('a', { limits: { maxFileBytes: 1, maxPages: 1 } });
      expect(await persistence.listAccounts()).toHaveLength(1);
      // Version 3: webhook subscriptions and their deliveries.
      expect(await persistence.listWebhooks('a')).toEqual([]);
      expect(await persistence.listDeliveries({ accountId: 'a' })).toEqual([]);
      // Version 4: usage by account and day.
      await persistence.addUsage('a', '2026-11-23', {
        jobs: 1,
        failedJobs: 0,
        pages: 2,
        ocrPages: 0,
        processingMs: 5,
      });
      expect(await persistence.listUsage('a', '2026-11-01', '2026-11-30')).toHaveLength(1);
      // Version 5: reviewers.
      expect(await persistence.listReviewers('a')).toEqual([]);
      // Version 6: supplier memories.
      expect(await persistence.listSupplierMemories('a')).toEqual([]);
      await persistence.close();
      const check = new Database(file, { readonly: true });
      expect(check.pragma('user_version', { simple: true })).toBe(6);
      check.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
