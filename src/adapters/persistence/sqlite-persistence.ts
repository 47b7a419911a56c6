import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';

import Database from 'better-sqlite3';

import { DocexError } from '../../core/errors.js';
import type { AccountSettings } from '../../core/accounts.js';
import type { StoredClient, StoredJob, StoredResult, StoredTask } from '../../core/jobs.js';
import type { TokenLayer } from '../../core/types.js';
import type { EnginePersistence } from '../../ports/engine-persistence.js';
import type { StoredReviewer } from '../../ports/reviewer-directory.js';
import type { SupplierMemory } from '../../ports/supplier-memory-store.js';
import type {
  DeliveryClaim,
  RaiseEvents,
  StoredDelivery,
  StoredWebhook,
} from '../../ports/webhook-outbox.js';
import { usageDayOf, type UsageRow } from '../../ports/usage-ledger.js';
import { candidates, claimed, deliveriesFor, withinCaps } from '../../webhooks/fan-out.js';

export interface SqlitePersistenceOptions {
  /** The database file; its directory is created when missing. */
  path: string;
}

/** Stored in `PRAGMA user_version`, so that a later release can tell which migrations to run. */
const SCHEMA_VERSION = 6;

const SCHEMA = `
CREATE TABLE IF NOT EXISTS jobs (
  id TEXT PRIMARY KEY, account_id TEXT NOT NULL, file_id TEXT, status TEXT NOT NULL,
  version INTEGER NOT NULL, created TEXT NOT NULL, body TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS jobs_account_file ON jobs (account_id, file_id);
CREATE INDEX IF NOT EXISTS jobs_status ON jobs (status);
CREATE TABLE IF NOT EXISTS results (
  job_id TEXT PRIMARY KEY, account_id TEXT NOT NULL, file_id TEXT NOT NULL,
  job_created TEXT NOT NULL, body TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS results_account_file ON results (account_id, file_id);
CREATE TABLE IF NOT EXISTS token_layers (
  account_id TEXT NOT NULL, file_id TEXT NOT NULL, body TEXT NOT NULL, PRIMARY KEY (account_id, file_id));
CREATE TABLE IF NOT EXISTS rules (
  account_id TEXT NOT NULL, rules_id TEXT NOT NULL, body TEXT NOT NULL, PRIMARY KEY (account_id, rules_id));
CREATE TABLE IF NOT EXISTS tasks (
  id TEXT PRIMARY KEY, account_id TEXT NOT NULL, file_id TEXT NOT NULL, status TEXT NOT NULL,
  version INTEGER NOT NULL, created_at TEXT NOT NULL, body TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS tasks_account_status ON tasks (account_id, status);
CREATE TABLE IF NOT EXISTS accounts (account_id TEXT PRIMARY KEY, body TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS clients (
  client_id TEXT PRIMARY KEY, account_id TEXT NOT NULL, body TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS webhooks (
  id TEXT PRIMARY KEY, account_id TEXT NOT NULL, created_at TEXT NOT NULL, body TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS webhooks_account ON webhooks (account_id);
CREATE TABLE IF NOT EXISTS deliveries (
  id TEXT PRIMARY KEY, account_id TEXT NOT NULL, webhook_id TEXT NOT NULL, status TEXT NOT NULL,
  version INTEGER NOT NULL, created_at INTEGER NOT NULL, next_attempt_at INTEGER NOT NULL,
  lease_until INTEGER NOT NULL, body TEXT NOT NULL);
-- Covers the claims' search: due rows are chosen without reading their bodies.
CREATE INDEX IF NOT EXISTS deliveries_due ON deliveries (status, next_attempt_at, id, lease_until, webhook_id);
CREATE INDEX IF NOT EXISTS deliveries_account ON deliveries (account_id, webhook_id, created_at);
CREATE TABLE IF NOT EXISTS usage (
  account_id TEXT NOT NULL, day TEXT NOT NULL, jobs INTEGER NOT NULL, failed_jobs INTEGER NOT NULL,
  pages INTEGER NOT NULL, ocr_pages INTEGER NOT NULL, processing_ms INTEGER NOT NULL,
  PRIMARY KEY (account_id, day));
CREATE TABLE IF NOT EXISTS reviewers (
  id TEXT PRIMARY KEY, account_id TEXT NOT NULL, login TEXT NOT NULL UNIQUE, version INTEGER NOT NULL,
  created_at TEXT NOT NULL, body TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS reviewers_account ON reviewers (account_id, created_at, login);
CREATE TABLE IF NOT EXISTS supplier_memories (
  account_id TEXT NOT NULL, id TEXT NOT NULL, version INTEGER NOT NULL, updated_at TEXT NOT NULL,
  body TEXT NOT NULL, PRIMARY KEY (account_id, id));
`;

/** Runs an INSERT, turning a primary-key conflict into a plain message. */
function insertNew(statement: Database.Statement, row: object, what: string): void {
  try {
    statement.run(row);
  } catch (error) {
    const duplicate = error instanceof Database.SqliteError && error.code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
    throw duplicate ? new Error(`${what} exists.`, { cause: error }) : error;
  }
}

/** WHERE clause and parameters of the filters that are given (value not undefined). */
function where(filters: [sql: string, value: unknown][]): { sql: string; params: unknown[] } {
  const given = filters.filter(([, value]) => value !== undefined);
  const sql = given.length > 0 ? ` WHERE ${given.map(([condition]) => condition).join(' AND ')}` : '';
  return { sql, params: given.map(([, value]) => value) };
}

function setUp(db: Database.Database): void {
  // busy_timeout first: switching to WAL then waits for other connections, like every later write.
  db.pragma('busy_timeout = 5000');
  db.pragma('journal_mode = WAL');
  // With WAL, NORMAL survives a crash or kill of the process (not a power loss), one fsync less per commit.
  db.pragma('synchronous = NORMAL');
  const migrate = db.transaction(() => {
    const version = db.pragma('user_version', { simple: true }) as number;
    if (version > SCHEMA_VERSION) {
      throw new Error(`its schema version ${version} is newer than this docex knows (${SCHEMA_VERSION})`);
    }
    db.exec(SCHEMA);
    if (version < SCHEMA_VERSION) db.pragma(`user_version = ${SCHEMA_VERSION}`);
  });
  // Immediate: two processes opening a new file at once do not both create the schema.
  migrate.immediate();
}

function openDatabase(path: string): Database.Database {
  let db: Database.Database | undefined;
  try {
    if (path !== ':memory:' && path !== '') mkdirSync(dirname(path), { recursive: true });
    db = new Database(path);
    setUp(db);
    return db;
  } catch (error) {
    db?.close();
    const reason = error instanceof Error ? error.message : String(error);
    const message = `The job database at ${path} could not be opened: ${reason}`;
    throw new DocexError('INTERNAL', message, { cause: error });
  }
}

/**
 * EnginePersistence in a SQLite file (better-sqlite3, WAL): survives restarts of the process. Indexed
 * columns plus each object as JSON in `body`; compare-and-set on `version` makes claims safe even
 * with several connections on one file. better-sqlite3 is synchronous; the methods are async only to
 * fit the port.
 */
export function createSqlitePersistence(options: SqlitePersistenceOptions): EnginePersistence {
  const db = openDatabase(options.path);
  // Named parameters: better-sqlite3 ignores the keys a statement does not use.
  const jobColumns = (job: StoredJob) => ({
    ...job.record,
    accountId: job.accountId,
    body: JSON.stringify(job),
  });
  const taskColumns = (task: StoredTask) => ({ ...task, body: JSON.stringify(task) });

  const q = {
    insertJob: db.prepare(`INSERT INTO jobs (id, account_id, file_id, status, version, created, body)
      VALUES (@id, @accountId, @file_id, @status, @version, @created, @body)`),
    getJob: db.prepare('SELECT body FROM jobs WHERE id = ?'),
    updateJob: db.prepare(`UPDATE jobs SET account_id = @accountId, file_id = @file_id, status = @status,
      version = @version, created = @created, body = @body WHERE id = @id AND version = @expected`),
    // json(?) keeps the number exactly as JSON.stringify wrote it (a bound JS number would become a REAL).
    renewLease: db.prepare(`UPDATE jobs SET body = json_set(body, '$.leaseUntil', json(?))
      WHERE id = ? AND status = 'running' AND json_extract(body, '$.leaseOwner') = ?`),
    insertResult: db.prepare(`INSERT OR IGNORE INTO results (job_id, account_id, file_id, job_created, body)
      VALUES (?, ?, ?, ?, ?)`),
    deleteResults: db.prepare('DELETE FROM results WHERE account_id = ? AND file_id = ?'),
    deleteEndedJobs: db.prepare(`DELETE FROM jobs WHERE account_id = ? AND file_id = ?
      AND status IN ('succeeded', 'failed', 'cancelled')`),
    putLayer: db.prepare(`INSERT INTO token_layers (account_id, file_id, body) VALUES (?, ?, ?)
      ON CONFLICT (account_id, file_id) DO UPDATE SET body = excluded.body`),
    getLayer: db.prepare('SELECT body FROM token_layers WHERE account_id = ? AND file_id = ?'),
    deleteLayer: db.prepare('DELETE FROM token_layers WHERE account_id = ? AND file_id = ?'),
    putRules: db.prepare(`INSERT INTO rules (account_id, rules_id, body) VALUES (?, ?, ?)
      ON CONFLICT (account_id, rules_id) DO UPDATE SET body = excluded.body`),
    getRules: db.prepare('SELECT body FROM rules WHERE account_id = ? AND rules_id = ?'),
    deleteRules: db.prepare('DELETE FROM rules WHERE account_id = ? AND rules_id = ?'),
    insertTask: db.prepare(`INSERT INTO tasks (id, account_id, file_id, status, version, created_at, body)
      VALUES (@id, @accountId, @fileId, @status, @version, @createdAt, @body)`),
    getTask: db.prepare('SELECT body FROM tasks WHERE id = ? AND account_id = ?'),
    updateTask: db.prepare(`UPDATE tasks SET file_id = @fileId, status = @status, version = @version,
      created_at = @createdAt, body = @body
      WHERE id = @id AND account_id = @accountId AND version = @expected`),
    putAccount: db.prepare(`INSERT INTO accounts (account_id, body) VALUES (?, ?)
      ON CONFLICT (account_id) DO UPDATE SET body = excluded.body`),
    countTasks: db.prepare('SELECT count(*) AS n FROM tasks WHERE status = ?'),
    listAccounts: db.prepare('SELECT account_id, body FROM accounts ORDER BY account_id'),
    addUsage:
      db.prepare(`INSERT INTO usage (account_id, day, jobs, failed_jobs, pages, ocr_pages, processing_ms)
      VALUES (@accountId, @day, @jobs, @failedJobs, @pages, @ocrPages, @processingMs)
      ON CONFLICT (account_id, day) DO UPDATE SET jobs = jobs + excluded.jobs,
        failed_jobs = failed_jobs + excluded.failed_jobs, pages = pages + excluded.pages,
        ocr_pages = ocr_pages + excluded.ocr_pages, processing_ms = processing_ms + excluded.processing_ms`),
    listUsage: db.prepare(`SELECT day, jobs, failed_jobs, pages, ocr_pages, processing_ms FROM usage
      WHERE account_id = ? AND day >= ? AND day <= ? ORDER BY day`),
    putClient: db.prepare(`INSERT INTO clients (client_id, account_id, body) VALUES (?, ?, ?)
      ON CONFLICT (client_id) DO UPDATE SET account_id = excluded.account_id, body = excluded.body`),
    getClient: db.prepare('SELECT body FROM clients WHERE client_id = ?'),
    insertReviewer: db.prepare(`INSERT INTO reviewers (id, account_id, login, version, created_at, body)
      VALUES (@reviewerId, @accountId, @login, @version, @createdAt, @body) ON CONFLICT DO NOTHING`),
    updateReviewer: db.prepare(`UPDATE reviewers SET version = @version, body = @body
      WHERE id = @reviewerId AND account_id = @accountId AND login = @login AND version = @expected`),
    getReviewer: db.prepare('SELECT body FROM reviewers WHERE id = ? AND account_id = ?'),
    findReviewer: db.prepare('SELECT body FROM reviewers WHERE login = ?'),
    listReviewers: db.prepare('SELECT body FROM reviewers WHERE account_id = ? ORDER BY created_at, login'),
    insertSupplier: db.prepare(`INSERT INTO supplier_memories (account_id, id, version, updated_at, body)
      VALUES (@accountId, @supplierId, @version, @updatedAt, @body) ON CONFLICT DO NOTHING`),
    updateSupplier: db.prepare(`UPDATE supplier_memories SET version = @version, updated_at = @updatedAt,
      body = @body WHERE account_id = @accountId AND id = @supplierId AND version = @expected`),
    getSupplier: db.prepare('SELECT body FROM supplier_memories WHERE account_id = ? AND id = ?'),
    listSuppliers: db.prepare(
      'SELECT body FROM supplier_memories WHERE account_id = ? ORDER BY updated_at DESC, id',
    ),
    deleteSupplier: db.prepare('DELETE FROM supplier_memories WHERE account_id = ? AND id = ?'),
    putWebhook: db.prepare(`INSERT INTO webhooks (id, account_id, created_at, body) VALUES (?, ?, ?, ?)
      ON CONFLICT (id) DO UPDATE SET account_id = excluded.account_id, created_at = excluded.created_at,
      body = excluded.body`),
    getWebhook: db.prepare('SELECT body FROM webhooks WHERE id = ? AND account_id = ?'),
    listWebhooks: db.prepare('SELECT body FROM webhooks WHERE account_id = ? ORDER BY created_at, id'),
    deleteWebhook: db.prepare('DELETE FROM webhooks WHERE id = ? AND account_id = ?'),
    deleteWebhookDeliveries: db.prepare('DELETE FROM deliveries WHERE webhook_id = ? AND account_id = ?'),
    fileJobs: db.prepare('SELECT body FROM jobs WHERE account_id = ? AND file_id = ? ORDER BY created, id'),
    fileTasks: db.prepare(
      'SELECT body FROM tasks WHERE account_id = ? AND file_id = ? ORDER BY created_at, rowid',
    ),
    insertDelivery: db.prepare(`INSERT OR IGNORE INTO deliveries
      (id, account_id, webhook_id, status, version, created_at, next_attempt_at, lease_until, body)
      VALUES (@id, @accountId, @webhookId, @status, @version, @createdAt, @nextAttemptAt, @leaseUntil, @body)`),
    dueDeliveries: db.prepare(`SELECT id, webhook_id AS webhookId FROM deliveries
      WHERE status = 'pending' AND next_attempt_at <= ? AND lease_until < ?
        AND webhook_id NOT IN (SELECT value FROM json_each(?))
      ORDER BY next_attempt_at, id LIMIT ?`),
    getDelivery: db.prepare('SELECT body FROM deliveries WHERE id = ?'),
    updateDelivery: db.prepare(`UPDATE deliveries SET status = @status, version = @version,
      next_attempt_at = @nextAttemptAt, lease_until = @leaseUntil, body = @body
      WHERE id = @id AND version = @expected`),
    pruneDeliveries: db.prepare(`DELETE FROM deliveries WHERE status <> 'pending' AND created_at < ?`),
  };
  const deliveryColumns = (d: StoredDelivery) => ({ ...d, body: JSON.stringify(d) });
  const bodies = <T>(rows: unknown[]): T[] =>
    (rows as { body: string }[]).map((r) => JSON.parse(r.body) as T);

  /** Stores the deliveries of the events `raise` finds in the file's state after a change (in its transaction). */
  function raiseFor(
    accountId: string,
    fileId: string | null,
    raise: RaiseEvents | undefined,
    self?: StoredJob,
  ): void {
    if (!raise) return;
    const hooks = bodies<StoredWebhook>(q.listWebhooks.all(accountId));
    if (hooks.length === 0) return;
    const jobs =
      fileId === null ? (self ? [self] : []) : bodies<StoredJob>(q.fileJobs.all(accountId, fileId));
    const tasks = fileId === null ? [] : bodies<StoredTask>(q.fileTasks.all(accountId, fileId));
    for (const delivery of deliveriesFor(raise({ accountId, fileId, jobs, tasks }), hooks)) {
      q.insertDelivery.run(deliveryColumns(delivery));
    }
  }
  const update = db.transaction((job: StoredJob, expected: number, raise?: RaiseEvents): boolean => {
    if (q.updateJob.run({ ...jobColumns(job), expected }).changes !== 1) return false;
    raiseFor(job.accountId, job.record.file_id, raise, job);
    return true;
  });
  const insertTask = db.transaction((task: StoredTask, raise?: RaiseEvents) => {
    insertNew(q.insertTask, taskColumns(task), `A task with id ${task.id}`);
    raiseFor(task.accountId, task.fileId, raise);
  });
  const updateTask = db.transaction((task: StoredTask, expected: number, raise?: RaiseEvents): boolean => {
    if (q.updateTask.run({ ...taskColumns(task), expected }).changes !== 1) return false;
    raiseFor(task.accountId, task.fileId, raise);
    return true;
  });
  const claimDeliveries = db.transaction((claim: DeliveryClaim) => {
    const now = claim.now;
    const due = q.dueDeliveries.all(
      now,
      claim.includeLeased === true ? Number.MAX_SAFE_INTEGER : now,
      JSON.stringify(claim.excludeWebhooks),
      candidates(claim),
    ) as Array<{ id: string; webhookId: string }>;
    // Only the rows taken are read whole: a claim may look at several times what it takes.
    return withinCaps(due, claim).map((row) => {
      const chosen = parse<StoredDelivery>(q.getDelivery.get(row.id))!;
      const taken = claimed(chosen, claim.owner, claim.leaseUntil);
      q.updateDelivery.run({ ...deliveryColumns(taken), expected: chosen.version });
      return taken;
    });
  });
  const deleteWebhook = db.transaction((accountId: string, webhookId: string): boolean => {
    if (q.deleteWebhook.run(webhookId, accountId).changes !== 1) return false;
    q.deleteWebhookDeliveries.run(webhookId, accountId);
    return true;
  });

  // List queries differ by which filters are given: one statement per shape, prepared on first use.
  const shapes = new Map<string, Database.Statement>();
  function list<T>(sql: string, params: unknown[]): T[] {
    let statement = shapes.get(sql);
    if (!statement) shapes.set(sql, (statement = db.prepare(sql)));
    return (statement.all(...params) as { body: string }[]).map((row) => JSON.parse(row.body) as T);
  }

  const finish = db.transaction(
    (job: StoredJob, expected: number, result?: StoredResult, raise?: RaiseEvents): boolean => {
      if (q.updateJob.run({ ...jobColumns(job), expected }).changes !== 1) return false;
      if (result) {
        const { jobId, accountId, fileId, jobCreated } = result;
        q.insertResult.run(jobId, accountId, fileId, jobCreated, JSON.stringify(result));
      }
      raiseFor(job.accountId, job.record.file_id, raise, job);
      return true;
    },
  );
  const deleteFileData = db.transaction((accountId: string, fileId: string, jobs: boolean) => {
    q.deleteLayer.run(accountId, fileId);
    q.deleteResults.run(accountId, fileId);
    if (jobs) q.deleteEndedJobs.run(accountId, fileId);
  });

  function live(): void {
    if (!db.open) throw new Error('The persistence has been closed.');
  }
  function parse<T>(row: unknown): T | undefined {
    return row === undefined ? undefined : (JSON.parse((row as { body: string }).body) as T);
  }

  return {
    shared: false,

    async insertJob(job) {
      live();
      insertNew(q.insertJob, jobColumns(job), `A job with id ${job.record.id}`);
    },

    async getJob(jobId) {
      live();
      return parse<StoredJob>(q.getJob.get(jobId));
    },

    async listJobs(query) {
      live();
      const filter = where([
        ['account_id = ?', query.accountId],
        ['file_id = ?', query.fileId],
        // A JSON array keeps one statement for any number of statuses.
        ['status IN (SELECT value FROM json_each(?))', query.statuses && JSON.stringify(query.statuses)],
      ]);
      return list<StoredJob>(`SELECT body FROM jobs${filter.sql} ORDER BY created, id`, filter.params);
    },

    async updateJob(job, expectedVersion, raise) {
      live();
      if (!raise) return q.updateJob.run({ ...jobColumns(job), expected: expectedVersion }).changes === 1;
      return update.immediate(job, expectedVersion, raise);
    },

    async finishJob(job, expectedVersion, result, raise) {
      live();
      // Immediate: takes the write lock up front, so busy_timeout applies instead of a snapshot error.
      return finish.immediate(job, expectedVersion, result, raise);
    },

    async renewLease(jobId, owner, leaseUntil) {
      live();
      return q.renewLease.run(JSON.stringify(leaseUntil), jobId, owner).changes === 1;
    },

    async listResults(accountId, fileId) {
      live();
      const sql =
        'SELECT body FROM results WHERE account_id = ? AND file_id = ? ORDER BY job_created, job_id';
      return list<StoredResult>(sql, [accountId, fileId]);
    },

    async putTokenLayer(accountId, fileId, layer) {
      live();
      q.putLayer.run(accountId, fileId, JSON.stringify(layer));
    },

    async getTokenLayer(accountId, fileId) {
      live();
      return parse<TokenLayer>(q.getLayer.get(accountId, fileId));
    },

    async deleteFileData(accountId, fileId, options = {}) {
      live();
      deleteFileData.immediate(accountId, fileId, options.jobs === true);
    },

    async putRules(accountId, rulesId, rules) {
      live();
      // JSON has no undefined: storing it is forgetting the rules, which reads back the same.
      if (rules === undefined) q.deleteRules.run(accountId, rulesId);
      else q.putRules.run(accountId, rulesId, JSON.stringify(rules));
    },

    async getRules(accountId, rulesId) {
      live();
      return parse<unknown>(q.getRules.get(accountId, rulesId));
    },

    async insertTask(task, raise) {
      live();
      insertTask.immediate(task, raise);
    },

    async getTask(accountId, taskId) {
      live();
      return parse<StoredTask>(q.getTask.get(taskId, accountId));
    },

    async countTasks(status) {
      live();
      return (q.countTasks.get(status) as { n: number }).n;
    },

    async listTasks(query) {
      live();
      const filter = where([
        ['account_id = ?', query.accountId],
        ['file_id = ?', query.fileId],
        ['status = ?', query.status],
      ]);
      return list<StoredTask>(
        `SELECT body FROM tasks${filter.sql} ORDER BY created_at, rowid`,
        filter.params,
      );
    },

    async updateTask(task, expectedVersion, raise) {
      live();
      return updateTask.immediate(task, expectedVersion, raise);
    },

    async putAccount(accountId, settings) {
      live();
      q.putAccount.run(accountId, JSON.stringify(settings));
    },

    async listAccounts() {
      live();
      return (q.listAccounts.all() as Array<{ account_id: string; body: string }>).map((row) => ({
        accountId: row.account_id,
        settings: JSON.parse(row.body) as AccountSettings,
      }));
    },

    async addUsage(accountId, day, figures) {
      live();
      q.addUsage.run({ accountId, day, ...figures, processingMs: Math.round(figures.processingMs) });
    },

    async listUsage(accountId, fromDay, toDay) {
      live();
      return (q.listUsage.all(accountId, fromDay, toDay) as UsageRow[]).map(usageDayOf);
    },

    async putClient(client) {
      live();
      q.putClient.run(client.clientId, client.accountId, JSON.stringify(client));
    },

    async getClient(clientId) {
      live();
      return parse<StoredClient>(q.getClient.get(clientId));
    },

    async insertReviewer(reviewer) {
      live();
      return q.insertReviewer.run({ ...reviewer, body: JSON.stringify(reviewer) }).changes === 1;
    },

    async updateReviewer(reviewer, expectedVersion) {
      live();
      const row = { ...reviewer, body: JSON.stringify(reviewer), expected: expectedVersion };
      return q.updateReviewer.run(row).changes === 1;
    },

    async getReviewer(accountId, reviewerId) {
      live();
      return parse<StoredReviewer>(q.getReviewer.get(reviewerId, accountId));
    },

    async findReviewerByLogin(login) {
      live();
      return parse<StoredReviewer>(q.findReviewer.get(login));
    },

    async listReviewers(accountId) {
      live();
      return q.listReviewers.all(accountId).map((row) => parse<StoredReviewer>(row)!);
    },

    async putSupplierMemory(memory, expectedVersion) {
      live();
      const row = { ...memory, body: JSON.stringify(memory), expected: expectedVersion };
      const statement = expectedVersion === null ? q.insertSupplier : q.updateSupplier;
      return statement.run(row).changes === 1;
    },

    async getSupplierMemory(accountId, supplierId) {
      live();
      return parse<SupplierMemory>(q.getSupplier.get(accountId, supplierId));
    },

    async listSupplierMemories(accountId) {
      live();
      return q.listSuppliers.all(accountId).map((row) => parse<SupplierMemory>(row)!);
    },

    async deleteSupplierMemory(accountId, supplierId) {
      live();
      return q.deleteSupplier.run(accountId, supplierId).changes === 1;
    },

    async putWebhook(hook) {
      live();
      q.putWebhook.run(hook.id, hook.accountId, hook.createdAt, JSON.stringify(hook));
    },

    async getWebhook(accountId, webhookId) {
      live();
      return parse<StoredWebhook>(q.getWebhook.get(webhookId, accountId));
    },

    async listWebhooks(accountId) {
      live();
      return bodies<StoredWebhook>(q.listWebhooks.all(accountId));
    },

    async deleteWebhook(accountId, webhookId) {
      live();
      return deleteWebhook.immediate(accountId, webhookId);
    },

    async claimDeliveries(claim) {
      live();
      return claimDeliveries.immediate(claim);
    },

    async settleDelivery(delivery, expectedVersion) {
      live();
      return q.updateDelivery.run({ ...deliveryColumns(delivery), expected: expectedVersion }).changes === 1;
    },

    async listDeliveries(query) {
      live();
      const filter = where([
        ['account_id = ?', query.accountId],
        ['webhook_id = ?', query.webhookId],
        ['status = ?', query.status],
      ]);
      return list<StoredDelivery>(
        `SELECT body FROM deliveries${filter.sql} ORDER BY created_at DESC, id DESC LIMIT ?`,
        [...filter.params, query.limit ?? 100],
      );
    },

    async pruneDeliveries(before) {
      live();
      return q.pruneDeliveries.run(before).changes;
    },

    async close() {
      if (db.open) db.close();
    },
  };
}
