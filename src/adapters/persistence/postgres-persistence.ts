import pg from 'pg';
import type { AccountSettings } from '../../core/accounts.js';
import { DocexError } from '../../core/errors.js';
import type { StoredClient, StoredJob, StoredResult, StoredTask } from '../../core/jobs.js';
import type { TokenLayer } from '../../core/types.js';
import type { ClaimRequest, EnginePersistence, PersistenceChange } from '../../ports/engine-persistence.js';
import type { RaiseEvents, StoredDelivery, StoredWebhook } from '../../ports/webhook-outbox.js';
import type { StoredReviewer } from '../../ports/reviewer-directory.js';
import type { SupplierMemory } from '../../ports/supplier-memory-store.js';
import { usageDayOf, type UsageRow } from '../../ports/usage-ledger.js';
import { candidates, claimed, deliveriesFor, withinCaps } from '../../webhooks/fan-out.js';

export interface PostgresPersistenceOptions {
  /** `postgres://user:password@host:port/database`; or give a `pool`. */
  connectionString?: string;
  /** A pool of the host's; it is not ended by `close()`. */
  pool?: pg.Pool;
  /** Schema of docex's tables (created when missing). Default `docex`. */
  schema?: string;
  /** Connections of the pool made here. Default 10. */
  maxConnections?: number;
}

const SCHEMA_VERSION = 5;
/** Key of the advisory lock that serialises migrations of processes starting at once. */
const MIGRATION_LOCK = 4_927_113;
const CHANNEL = 'docex_changes';

function ddl(s: string): string {
  return `
CREATE SCHEMA IF NOT EXISTS ${s};
CREATE TABLE IF NOT EXISTS ${s}.meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS ${s}.jobs (
  id TEXT PRIMARY KEY, account_id TEXT NOT NULL, file_id TEXT, status TEXT NOT NULL, version INTEGER NOT NULL,
  created TEXT NOT NULL, queue TEXT NOT NULL, run_after BIGINT NOT NULL, lease_until BIGINT NOT NULL, body JSONB NOT NULL);
CREATE INDEX IF NOT EXISTS jobs_account_file ON ${s}.jobs (account_id, file_id);
CREATE INDEX IF NOT EXISTS jobs_runnable ON ${s}.jobs (status, created) WHERE status IN ('new', 'running');
CREATE TABLE IF NOT EXISTS ${s}.results (
  job_id TEXT PRIMARY KEY, account_id TEXT NOT NULL, file_id TEXT NOT NULL, job_created TEXT NOT NULL, body JSONB NOT NULL);
CREATE INDEX IF NOT EXISTS results_account_file ON ${s}.results (account_id, file_id);
CREATE TABLE IF NOT EXISTS ${s}.token_layers (
  account_id TEXT NOT NULL, file_id TEXT NOT NULL, body JSONB NOT NULL, PRIMARY KEY (account_id, file_id));
CREATE TABLE IF NOT EXISTS ${s}.rules (
  account_id TEXT NOT NULL, rules_id TEXT NOT NULL, body JSONB NOT NULL, PRIMARY KEY (account_id, rules_id));
CREATE TABLE IF NOT EXISTS ${s}.tasks (
  seq BIGSERIAL, id TEXT PRIMARY KEY, account_id TEXT NOT NULL, file_id TEXT NOT NULL, status TEXT NOT NULL,
  version INTEGER NOT NULL, created_at TEXT NOT NULL, body JSONB NOT NULL);
CREATE INDEX IF NOT EXISTS tasks_account_status ON ${s}.tasks (account_id, status);
CREATE TABLE IF NOT EXISTS ${s}.accounts (account_id TEXT PRIMARY KEY, body JSONB NOT NULL);
CREATE TABLE IF NOT EXISTS ${s}.clients (client_id TEXT PRIMARY KEY, account_id TEXT NOT NULL, body JSONB NOT NULL);
CREATE TABLE IF NOT EXISTS ${s}.webhooks (
  id TEXT PRIMARY KEY, account_id TEXT NOT NULL, created_at TEXT NOT NULL, body JSONB NOT NULL);
CREATE INDEX IF NOT EXISTS webhooks_account ON ${s}.webhooks (account_id);
CREATE TABLE IF NOT EXISTS ${s}.deliveries (
  id TEXT PRIMARY KEY, account_id TEXT NOT NULL, webhook_id TEXT NOT NULL, status TEXT NOT NULL,
  version INTEGER NOT NULL, created_at BIGINT NOT NULL, next_attempt_at BIGINT NOT NULL,
  lease_until BIGINT NOT NULL, body JSONB NOT NULL);
CREATE INDEX IF NOT EXISTS deliveries_due ON ${s}.deliveries (next_attempt_at, id) WHERE status = 'pending';
CREATE INDEX IF NOT EXISTS deliveries_account ON ${s}.deliveries (account_id, webhook_id, created_at);
CREATE TABLE IF NOT EXISTS ${s}.usage (
  account_id TEXT NOT NULL, day TEXT NOT NULL, jobs BIGINT NOT NULL, failed_jobs BIGINT NOT NULL,
  pages BIGINT NOT NULL, ocr_pages BIGINT NOT NULL, processing_ms BIGINT NOT NULL,
  PRIMARY KEY (account_id, day));
CREATE TABLE IF NOT EXISTS ${s}.reviewers (
  id TEXT PRIMARY KEY, account_id TEXT NOT NULL, login TEXT NOT NULL UNIQUE, version INTEGER NOT NULL,
  created_at TEXT NOT NULL, body JSONB NOT NULL);
CREATE INDEX IF NOT EXISTS reviewers_account ON ${s}.reviewers (account_id, created_at, login);
CREATE TABLE IF NOT EXISTS ${s}.supplier_memories (
  account_id TEXT NOT NULL, id TEXT NOT NULL, version INTEGER NOT NULL, updated_at TEXT NOT NULL,
  body JSONB NOT NULL, PRIMARY KEY (account_id, id));
`;
}

/**
 * EnginePersistence in PostgreSQL, for several engine processes (on several machines) sharing the work.
 * `shared: true`: jobs are claimed with `FOR UPDATE SKIP LOCKED` so each runs in one process at a time,
 * a running job's lease lets another process take it over when its process dies, and every change is
 * announced with NOTIFY so a result request waiting in one process wakes when another finishes the job.
 * Tables are created on start under an advisory lock (safe when several processes start at once).
 */
export function createPostgresPersistence(options: PostgresPersistenceOptions): EnginePersistence {
  const schemaName = options.schema ?? 'docex';
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(schemaName)) {
    throw new DocexError('INVALID_ARGUMENT', 'The schema name must be lower-case letters, digits and _.');
  }
  const s = `"${schemaName}"`;
  const ownsPool = !options.pool;
  const pool =
    options.pool ??
    new pg.Pool({ connectionString: options.connectionString, max: options.maxConnections ?? 10 });
  // An idle connection that fails (a restarted server) must not crash the host.
  pool.on('error', () => undefined);
  let closed = false;

  const migrated = (async () => {
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      await client.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
      await client.query(ddl(s));
      const found = await client.query<{ value: string }>(
        `SELECT value FROM ${s}.meta WHERE key = 'schema_version'`,
      );
      const version = Number(found.rows[0]?.value ?? 0);
      if (version > SCHEMA_VERSION) {
        throw new Error(`its schema version ${version} is newer than this docex knows (${SCHEMA_VERSION})`);
      }
      await client.query(
        `INSERT INTO ${s}.meta (key, value) VALUES ('schema_version', $1)
         ON CONFLICT (key) DO UPDATE SET value = excluded.value`,
        [String(SCHEMA_VERSION)],
      );
      await client.query('COMMIT');
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw new DocexError(
        'INTERNAL',
        `The PostgreSQL job database could not be prepared: ${(error as Error).message}`,
        {
          cause: error,
        },
      );
    } finally {
      client.release();
    }
  })();
  // Reported by the first call that needs the database, not as an unhandled rejection.
  migrated.catch(() => undefined);

  async function query<R extends pg.QueryResultRow>(
    text: string,
    values: unknown[] = [],
  ): Promise<pg.QueryResult<R>> {
    if (closed) throw new Error('The persistence has been closed.');
    await migrated;
    try {
      return await pool.query<R>(text, values);
    } catch (error) {
      throw unstorable(error);
    }
  }

  async function transaction<T>(work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    if (closed) throw new Error('The persistence has been closed.');
    await migrated;
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      const value = await work(client);
      await client.query('COMMIT');
      return value;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw unstorable(error);
    } finally {
      client.release();
    }
  }

  const notify = (change: PersistenceChange): [string, string] => [CHANNEL, JSON.stringify(change)];
  const jobChange = (job: StoredJob): PersistenceChange => ({
    kind: 'job',
    accountId: job.accountId,
    fileId: job.record.file_id,
  });
  const jobValues = (job: StoredJob) => [
    job.record.id,
    job.accountId,
    job.record.file_id,
    job.record.status,
    job.record.version,
    job.record.created,
    job.queue,
    job.runAfter,
    job.leaseUntil,
    JSON.stringify(job),
  ];
  const UPDATE_JOB = `UPDATE ${s}.jobs SET account_id = $2, file_id = $3, status = $4, version = $5, created = $6,
    queue = $7, run_after = $8, lease_until = $9, body = $10 WHERE id = $1 AND version = $11`;

  async function compareAndSet(
    client: pg.PoolClient | pg.Pool,
    job: StoredJob,
    expected: number,
  ): Promise<boolean> {
    const updated = await client.query(UPDATE_JOB, [...jobValues(job), expected]);
    return updated.rowCount === 1;
  }

  const deliveryValues = (d: StoredDelivery) => [
    d.id,
    d.accountId,
    d.webhookId,
    d.status,
    d.version,
    d.createdAt,
    d.nextAttemptAt,
    d.leaseUntil,
    JSON.stringify(d),
  ];
  const UPDATE_DELIVERY = `UPDATE ${s}.deliveries SET status = $2, version = $3, next_attempt_at = $4,
    lease_until = $5, body = $6 WHERE id = $1 AND version = $7`;
  const updateDeliveryValues = (d: StoredDelivery, expected: number) => [
    d.id,
    d.status,
    d.version,
    d.nextAttemptAt,
    d.leaseUntil,
    JSON.stringify(d),
    expected,
  ];

  /**
   * Stores the deliveries of the events `raise` finds in the file's state after a change, in the
   * change's transaction. The file's changes are serialised by a transaction-scoped advisory lock taken
   * after the change: of two processes finishing a file's last two jobs, the second to take the lock
   * reads the first's committed change, so the file's finalisation is seen once (READ COMMITTED reads
   * what committed before each statement).
   */
  async function raiseFor(
    client: pg.PoolClient,
    accountId: string,
    fileId: string | null,
    raise: RaiseEvents | undefined,
    self?: StoredJob,
  ): Promise<void> {
    if (!raise) return;
    const hooks = (
      await client.query<{ body: StoredWebhook }>(
        `SELECT body FROM ${s}.webhooks WHERE account_id = $1 ORDER BY created_at, id`,
        [accountId],
      )
    ).rows.map((r) => r.body);
    if (hooks.length === 0) return;
    let jobs: StoredJob[] = self ? [self] : [];
    let tasks: StoredTask[] = [];
    if (fileId !== null) {
      await client.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [
        `docex:${schemaName}:file:${accountId}:${fileId}`,
      ]);
      jobs = (
        await client.query<{ body: StoredJob }>(
          `SELECT body FROM ${s}.jobs WHERE account_id = $1 AND file_id = $2 ORDER BY created, id`,
          [accountId, fileId],
        )
      ).rows.map((r) => r.body);
      tasks = (
        await client.query<{ body: StoredTask }>(
          `SELECT body FROM ${s}.tasks WHERE account_id = $1 AND file_id = $2 ORDER BY created_at, seq`,
          [accountId, fileId],
        )
      ).rows.map((r) => r.body);
    }
    for (const delivery of deliveriesFor(raise({ accountId, fileId, jobs, tasks }), hooks)) {
      await client.query(
        `INSERT INTO ${s}.deliveries
           (id, account_id, webhook_id, status, version, created_at, next_attempt_at, lease_until, body)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) ON CONFLICT (id) DO NOTHING`,
        deliveryValues(delivery),
      );
    }
  }

  return {
    shared: true,

    async insertJob(job) {
      await transaction(async (client) => {
        await client.query(
          `INSERT INTO ${s}.jobs (id, account_id, file_id, status, version, created, queue, run_after, lease_until, body)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
          jobValues(job),
        );
        await client.query('SELECT pg_notify($1, $2)', notify(jobChange(job)));
      });
    },

    async getJob(jobId) {
      const { rows } = await query<{ body: StoredJob }>(`SELECT body FROM ${s}.jobs WHERE id = $1`, [jobId]);
      return rows[0]?.body;
    },

    async listJobs(q) {
      const where: string[] = [];
      const values: unknown[] = [];
      if (q.accountId !== undefined) where.push(`account_id = $${values.push(q.accountId)}`);
      if (q.fileId !== undefined) where.push(`file_id = $${values.push(q.fileId)}`);
      if (q.statuses !== undefined) where.push(`status = ANY($${values.push([...q.statuses])})`);
      const { rows } = await query<{ body: StoredJob }>(
        `SELECT body FROM ${s}.jobs${where.length ? ` WHERE ${where.join(' AND ')}` : ''} ORDER BY created, id`,
        values,
      );
      return rows.map((r) => r.body);
    },

    async updateJob(job, expectedVersion, raise) {
      return transaction(async (client) => {
        if (!(await compareAndSet(client, job, expectedVersion))) return false;
        await raiseFor(client, job.accountId, job.record.file_id, raise, job);
        await client.query('SELECT pg_notify($1, $2)', notify(jobChange(job)));
        return true;
      });
    },

    async finishJob(job, expectedVersion, result, raise) {
      return transaction(async (client) => {
        if (!(await compareAndSet(client, job, expectedVersion))) return false;
        if (result) {
          await client.query(
            `INSERT INTO ${s}.results (job_id, account_id, file_id, job_created, body) VALUES ($1, $2, $3, $4, $5)
             ON CONFLICT (job_id) DO NOTHING`,
            [result.jobId, result.accountId, result.fileId, result.jobCreated, JSON.stringify(result)],
          );
        }
        await raiseFor(client, job.accountId, job.record.file_id, raise, job);
        await client.query('SELECT pg_notify($1, $2)', notify(jobChange(job)));
        return true;
      });
    },

    async renewLease(jobId, owner, leaseUntil) {
      const updated = await query(
        `UPDATE ${s}.jobs SET lease_until = $3, body = jsonb_set(body, '{leaseUntil}', to_jsonb($3::bigint))
         WHERE id = $1 AND status = 'running' AND body->>'leaseOwner' = $2`,
        [jobId, owner, leaseUntil],
      );
      return updated.rowCount === 1;
    },

    async claimNext(claim: ClaimRequest) {
      return transaction(async (client) => {
        const { rows } = await client.query<{ body: StoredJob }>(
          `SELECT body FROM ${s}.jobs
           WHERE ((status = 'new' AND run_after <= $1) OR (status = 'running' AND lease_until < $1))
             AND NOT (account_id = ANY($2)) AND NOT (queue = ANY($3))
           ORDER BY created, id LIMIT 1 FOR UPDATE SKIP LOCKED`,
          [claim.now, claim.excludeAccounts, claim.excludeQueues],
        );
        const job = rows[0]?.body;
        if (!job) return undefined;
        const claimed: StoredJob = {
          ...job,
          attempts: job.attempts + 1,
          leaseOwner: claim.owner,
          leaseUntil: claim.leaseUntil,
          record: { ...job.record, status: 'running', version: job.record.version + 1 },
        };
        delete claimed.record.error;
        await compareAndSet(client, claimed, job.record.version);
        await client.query('SELECT pg_notify($1, $2)', notify(jobChange(claimed)));
        return { previous: job, claimed };
      });
    },

    async countJobs(statuses) {
      const { rows } = await query<{ n: string }>(
        `SELECT count(*) AS n FROM ${s}.jobs WHERE status = ANY($1)`,
        [[...statuses]],
      );
      return Number(rows[0]?.n ?? 0);
    },

    async subscribe(listener) {
      if (closed) throw new Error('The persistence has been closed.');
      await migrated;
      const client = await pool.connect();
      const onNotification = (message: pg.Notification): void => {
        if (message.channel !== CHANNEL || !message.payload) return;
        try {
          listener(JSON.parse(message.payload) as PersistenceChange);
        } catch {
          // A payload of another writer's shape is ignored.
        }
      };
      client.on('notification', onNotification);
      client.on('error', () => undefined);
      await client.query(`LISTEN ${CHANNEL}`);
      let released = false;
      return async () => {
        if (released) return;
        released = true;
        client.off('notification', onNotification);
        await client.query(`UNLISTEN ${CHANNEL}`).catch(() => undefined);
        client.release();
      };
    },

    async listResults(accountId, fileId) {
      const { rows } = await query<{ body: StoredResult }>(
        `SELECT body FROM ${s}.results WHERE account_id = $1 AND file_id = $2 ORDER BY job_created, job_id`,
        [accountId, fileId],
      );
      return rows.map((r) => r.body);
    },

    async putTokenLayer(accountId, fileId, layer) {
      await query(
        `INSERT INTO ${s}.token_layers (account_id, file_id, body) VALUES ($1, $2, $3)
         ON CONFLICT (account_id, file_id) DO UPDATE SET body = excluded.body`,
        [accountId, fileId, JSON.stringify(layer)],
      );
    },

    async getTokenLayer(accountId, fileId) {
      const { rows } = await query<{ body: TokenLayer }>(
        `SELECT body FROM ${s}.token_layers WHERE account_id = $1 AND file_id = $2`,
        [accountId, fileId],
      );
      return rows[0]?.body;
    },

    async deleteFileData(accountId, fileId, options = {}) {
      await transaction(async (client) => {
        if (options.jobs) {
          await client.query(
            `DELETE FROM ${s}.jobs WHERE account_id = $1 AND file_id = $2
              AND status IN ('succeeded', 'failed', 'cancelled')`,
            [accountId, fileId],
          );
        }
        await client.query(`DELETE FROM ${s}.token_layers WHERE account_id = $1 AND file_id = $2`, [
          accountId,
          fileId,
        ]);
        await client.query(`DELETE FROM ${s}.results WHERE account_id = $1 AND file_id = $2`, [
          accountId,
          fileId,
        ]);
      });
    },

    async putRules(accountId, rulesId, rules) {
      if (rules === undefined) {
        await query(`DELETE FROM ${s}.rules WHERE account_id = $1 AND rules_id = $2`, [accountId, rulesId]);
        return;
      }
      await query(
        `INSERT INTO ${s}.rules (account_id, rules_id, body) VALUES ($1, $2, $3)
         ON CONFLICT (account_id, rules_id) DO UPDATE SET body = excluded.body`,
        [accountId, rulesId, JSON.stringify(rules)],
      );
    },

    async getRules(accountId, rulesId) {
      const { rows } = await query<{ body: unknown }>(
        `SELECT body FROM ${s}.rules WHERE account_id = $1 AND rules_id = $2`,
        [accountId, rulesId],
      );
      return rows[0]?.body;
    },

    async insertTask(task, raise) {
      await transaction(async (client) => {
        await client.query(
          `INSERT INTO ${s}.tasks (id, account_id, file_id, status, version, created_at, body)
           VALUES ($1, $2, $3, $4, $5, $6, $7)`,
          [
            task.id,
            task.accountId,
            task.fileId,
            task.status,
            task.version,
            task.createdAt,
            JSON.stringify(task),
          ],
        );
        await raiseFor(client, task.accountId, task.fileId, raise);
        await client.query(
          'SELECT pg_notify($1, $2)',
          notify({ kind: 'task', accountId: task.accountId, fileId: task.fileId }),
        );
      });
    },

    async getTask(accountId, taskId) {
      const { rows } = await query<{ body: StoredTask }>(
        `SELECT body FROM ${s}.tasks WHERE id = $1 AND account_id = $2`,
        [taskId, accountId],
      );
      return rows[0]?.body;
    },

    async countTasks(status) {
      const { rows } = await query<{ n: string }>(`SELECT count(*) AS n FROM ${s}.tasks WHERE status = $1`, [
        status,
      ]);
      return Number(rows[0]?.n ?? 0);
    },

    async listTasks(q) {
      const values: unknown[] = [q.accountId];
      const where = ['account_id = $1'];
      if (q.fileId !== undefined) where.push(`file_id = $${values.push(q.fileId)}`);
      if (q.status !== undefined) where.push(`status = $${values.push(q.status)}`);
      const { rows } = await query<{ body: StoredTask }>(
        `SELECT body FROM ${s}.tasks WHERE ${where.join(' AND ')} ORDER BY created_at, seq`,
        values,
      );
      return rows.map((r) => r.body);
    },

    async updateTask(task, expectedVersion, raise) {
      return transaction(async (client) => {
        const updated = await client.query(
          `UPDATE ${s}.tasks SET file_id = $3, status = $4, version = $5, created_at = $6, body = $7
           WHERE id = $1 AND account_id = $2 AND version = $8`,
          [
            task.id,
            task.accountId,
            task.fileId,
            task.status,
            task.version,
            task.createdAt,
            JSON.stringify(task),
            expectedVersion,
          ],
        );
        if (updated.rowCount !== 1) return false;
        await raiseFor(client, task.accountId, task.fileId, raise);
        await client.query(
          'SELECT pg_notify($1, $2)',
          notify({ kind: 'task', accountId: task.accountId, fileId: task.fileId }),
        );
        return true;
      });
    },

    async putAccount(accountId, settings) {
      await query(
        `INSERT INTO ${s}.accounts (account_id, body) VALUES ($1, $2)
         ON CONFLICT (account_id) DO UPDATE SET body = excluded.body`,
        [accountId, JSON.stringify(settings)],
      );
    },

    async listAccounts() {
      const { rows } = await query<{ account_id: string; body: AccountSettings }>(
        `SELECT account_id, body FROM ${s}.accounts ORDER BY account_id`,
      );
      return rows.map((r) => ({ accountId: r.account_id, settings: r.body }));
    },

    async addUsage(accountId, day, f) {
      await query(
        `INSERT INTO ${s}.usage AS u (account_id, day, jobs, failed_jobs, pages, ocr_pages, processing_ms)
         VALUES ($1, $2, $3, $4, $5, $6, $7)
         ON CONFLICT (account_id, day) DO UPDATE SET jobs = u.jobs + excluded.jobs,
           failed_jobs = u.failed_jobs + excluded.failed_jobs, pages = u.pages + excluded.pages,
           ocr_pages = u.ocr_pages + excluded.ocr_pages, processing_ms = u.processing_ms + excluded.processing_ms`,
        [accountId, day, f.jobs, f.failedJobs, f.pages, f.ocrPages, Math.round(f.processingMs)],
      );
    },

    async listUsage(accountId, fromDay, toDay) {
      const { rows } = await query<UsageRow>(
        `SELECT day, jobs, failed_jobs, pages, ocr_pages, processing_ms FROM ${s}.usage
         WHERE account_id = $1 AND day >= $2 AND day <= $3 ORDER BY day`,
        [accountId, fromDay, toDay],
      );
      return rows.map(usageDayOf);
    },

    async putClient(client) {
      await query(
        `INSERT INTO ${s}.clients (client_id, account_id, body) VALUES ($1, $2, $3)
         ON CONFLICT (client_id) DO UPDATE SET account_id = excluded.account_id, body = excluded.body`,
        [client.clientId, client.accountId, JSON.stringify(client)],
      );
    },

    async getClient(clientId) {
      const { rows } = await query<{ body: StoredClient }>(
        `SELECT body FROM ${s}.clients WHERE client_id = $1`,
        [clientId],
      );
      return rows[0]?.body;
    },

    async insertReviewer(reviewer) {
      const { rowCount } = await query(
        `INSERT INTO ${s}.reviewers (id, account_id, login, version, created_at, body)
         VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT DO NOTHING`,
        [
          reviewer.reviewerId,
          reviewer.accountId,
          reviewer.login,
          reviewer.version,
          reviewer.createdAt,
          JSON.stringify(reviewer),
        ],
      );
      return rowCount === 1;
    },

    async updateReviewer(reviewer, expectedVersion) {
      const { rowCount } = await query(
        `UPDATE ${s}.reviewers SET version = $5, body = $6
         WHERE id = $1 AND account_id = $2 AND login = $3 AND version = $4`,
        [
          reviewer.reviewerId,
          reviewer.accountId,
          reviewer.login,
          expectedVersion,
          reviewer.version,
          JSON.stringify(reviewer),
        ],
      );
      return rowCount === 1;
    },

    async getReviewer(accountId, reviewerId) {
      const { rows } = await query<{ body: StoredReviewer }>(
        `SELECT body FROM ${s}.reviewers WHERE id = $1 AND account_id = $2`,
        [reviewerId, accountId],
      );
      return rows[0]?.body;
    },

    async findReviewerByLogin(login) {
      const { rows } = await query<{ body: StoredReviewer }>(
        `SELECT body FROM ${s}.reviewers WHERE login = $1`,
        [login],
      );
      return rows[0]?.body;
    },

    async listReviewers(accountId) {
      const { rows } = await query<{ body: StoredReviewer }>(
        `SELECT body FROM ${s}.reviewers WHERE account_id = $1 ORDER BY created_at COLLATE "C", login COLLATE "C"`,
        [accountId],
      );
      return rows.map((r) => r.body);
    },

    async putSupplierMemory(memory, expectedVersion) {
      const values = [
        memory.accountId,
        memory.supplierId,
        memory.version,
        memory.updatedAt,
        JSON.stringify(memory),
      ];
      const { rowCount } =
        expectedVersion === null
          ? await query(
              `INSERT INTO ${s}.supplier_memories (account_id, id, version, updated_at, body)
               VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING`,
              values,
            )
          : await query(
              `UPDATE ${s}.supplier_memories SET version = $3, updated_at = $4, body = $5
               WHERE account_id = $1 AND id = $2 AND version = $6`,
              [...values, expectedVersion],
            );
      return rowCount === 1;
    },

    async getSupplierMemory(accountId, supplierId) {
      const { rows } = await query<{ body: SupplierMemory }>(
        `SELECT body FROM ${s}.supplier_memories WHERE account_id = $1 AND id = $2`,
        [accountId, supplierId],
      );
      return rows[0]?.body;
    },

    async listSupplierMemories(accountId) {
      const { rows } = await query<{ body: SupplierMemory }>(
        `SELECT body FROM ${s}.supplier_memories WHERE account_id = $1
         ORDER BY updated_at COLLATE "C" DESC, id COLLATE "C"`,
        [accountId],
      );
      return rows.map((r) => r.body);
    },

    async deleteSupplierMemory(accountId, supplierId) {
      const { rowCount } = await query(
        `DELETE FROM ${s}.supplier_memories WHERE account_id = $1 AND id = $2`,
        [accountId, supplierId],
      );
      return rowCount === 1;
    },

    async putWebhook(hook) {
      await query(
        `INSERT INTO ${s}.webhooks (id, account_id, created_at, body) VALUES ($1, $2, $3, $4)
         ON CONFLICT (id) DO UPDATE SET account_id = excluded.account_id, created_at = excluded.created_at,
         body = excluded.body`,
        [hook.id, hook.accountId, hook.createdAt, JSON.stringify(hook)],
      );
    },

    async getWebhook(accountId, webhookId) {
      const { rows } = await query<{ body: StoredWebhook }>(
        `SELECT body FROM ${s}.webhooks WHERE id = $1 AND account_id = $2`,
        [webhookId, accountId],
      );
      return rows[0]?.body;
    },

    async listWebhooks(accountId) {
      const { rows } = await query<{ body: StoredWebhook }>(
        `SELECT body FROM ${s}.webhooks WHERE account_id = $1 ORDER BY created_at, id`,
        [accountId],
      );
      return rows.map((r) => r.body);
    },

    async deleteWebhook(accountId, webhookId) {
      return transaction(async (client) => {
        const deleted = await client.query(`DELETE FROM ${s}.webhooks WHERE id = $1 AND account_id = $2`, [
          webhookId,
          accountId,
        ]);
        if (deleted.rowCount !== 1) return false;
        await client.query(`DELETE FROM ${s}.deliveries WHERE webhook_id = $1 AND account_id = $2`, [
          webhookId,
          accountId,
        ]);
        return true;
      });
    },

    async claimDeliveries(claim) {
      return transaction(async (client) => {
        const { rows } = await client.query<{ webhookId: string; body: string }>(
          `SELECT webhook_id AS "webhookId", body::text AS body FROM ${s}.deliveries
           WHERE status = 'pending' AND next_attempt_at <= $1 AND (lease_until < $1 OR $4)
             AND NOT (webhook_id = ANY($2))
           ORDER BY next_attempt_at, id LIMIT $3 FOR UPDATE SKIP LOCKED`,
          [claim.now, claim.excludeWebhooks, candidates(claim), claim.includeLeased === true],
        );
        // Rows read but not taken (over a subscription's cap) stay as they were; their locks end with us.
        const taken: StoredDelivery[] = [];
        for (const row of withinCaps(rows, claim)) {
          const due = JSON.parse(row.body) as StoredDelivery;
          const mine = claimed(due, claim.owner, claim.leaseUntil);
          await client.query(UPDATE_DELIVERY, updateDeliveryValues(mine, due.version));
          taken.push(mine);
        }
        return taken;
      });
    },

    async settleDelivery(delivery, expectedVersion) {
      const updated = await query(UPDATE_DELIVERY, updateDeliveryValues(delivery, expectedVersion));
      return updated.rowCount === 1;
    },

    async listDeliveries(q) {
      const values: unknown[] = [q.accountId];
      const where = ['account_id = $1'];
      if (q.webhookId !== undefined) where.push(`webhook_id = $${values.push(q.webhookId)}`);
      if (q.status !== undefined) where.push(`status = $${values.push(q.status)}`);
      const { rows } = await query<{ body: StoredDelivery }>(
        `SELECT body FROM ${s}.deliveries WHERE ${where.join(' AND ')}
         ORDER BY created_at DESC, id DESC LIMIT $${values.push(q.limit ?? 100)}`,
        values,
      );
      return rows.map((r) => r.body);
    },

    async pruneDeliveries(before) {
      const deleted = await query(
        `DELETE FROM ${s}.deliveries WHERE status <> 'pending' AND created_at < $1`,
        [before],
      );
      return deleted.rowCount ?? 0;
    },

    async close() {
      if (closed) return;
      closed = true;
      await migrated.catch(() => undefined);
      if (ownsPool) await pool.end();
    },
  };
}

/**
 * Text PostgreSQL cannot hold (a NUL character in a TEXT column or in a JSONB string: SQLSTATE 22021,
 * 22P05) is the client's data, not a fault of the service: refused as INVALID_ARGUMENT (400).
 */
function unstorable(error: unknown): unknown {
  const code = (error as { code?: unknown } | null)?.code;
  if (code === '22021' || code === '22P05') {
    return new DocexError(
      'INVALID_ARGUMENT',
      'The request holds text that cannot be stored (a NUL character).',
      {
        cause: error,
      },
    );
  }
  return error;
}
