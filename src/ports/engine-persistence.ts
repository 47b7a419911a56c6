import type { AccountSettings } from '../core/accounts.js';
import type { JobStatus, StoredClient, StoredJob, StoredResult, StoredTask } from '../core/jobs.js';
import type { TokenLayer } from '../core/types.js';
import type { ReviewerDirectory } from './reviewer-directory.js';
import type { SupplierMemoryStore } from './supplier-memory-store.js';
import type { UsageLedger } from './usage-ledger.js';
import type { RaiseEvents, WebhookOutbox } from './webhook-outbox.js';

export interface JobQuery {
  accountId?: string;
  fileId?: string;
  statuses?: readonly JobStatus[];
}

/** What a process asks for when it looks for work in shared storage. */
export interface ClaimRequest {
  owner: string;
  /** Epoch ms: jobs due by then, and running jobs whose lease ended before it. */
  now: number;
  leaseUntil: number;
  /** Accounts and queues at their limit in the asking process. */
  excludeAccounts: string[];
  excludeQueues: string[];
}

/** A change another process made, as shared storage announces it. */
export interface PersistenceChange {
  kind: 'job' | 'task';
  accountId: string;
  fileId: string | null;
}

export interface TaskQuery {
  accountId: string;
  fileId?: string;
  status?: StoredTask['status'];
}

/**
 * Where the engine keeps its state: jobs, results, token layers, validation rules, review tasks, and
 * the accounts, API clients, reviewers and supplier memories.
 * Files themselves live in the FileStore.
 *
 * Contract (checked by test/ports/engine-persistence.contract.ts for every adapter, and for adapters
 * with `shared` storage by test/ports/shared-persistence.contract.ts: claims, leases, counts and
 * change notifications over several handles on one storage):
 * - Everything read is a copy: changing it changes nothing stored.
 * - `insertJob` refuses an id that exists (throws). `updateJob` is a compare-and-set: it writes
 *   the job only when the stored `record.version` equals `expectedVersion`, and says whether it did.
 *   So two engine processes can never both claim, finish or cancel one job.
 * - `finishJob` is `updateJob` plus, in the same transaction, the job's result (when given): after a
 *   crash either both are stored or neither. A result is stored once per job id.
 * - `listJobs` and `listResults` return oldest first (by `record.created`, then id); `listTasks` by
 *   `createdAt`, then in the order the tasks were inserted.
 * - `renewLease` extends the lease of a running job held by `owner` without changing its version.
 * - Token layers, rules and tasks are scoped by account: another account's entry is absent.
 * - `shared` says whether other engine processes may use the same storage at the same time (then a
 *   running job of a vanished process is taken over only when its lease expires). A shared adapter
 *   implements `claimNext`, `countJobs` and `subscribe` (PostgreSQL; memory with `{ shared: true }`,
 *   whose handles several engines of one process share).
 * - `raise` (on `updateJob`, `finishJob`, `insertTask`, `updateTask`): the events the change raises,
 *   written to the webhook outbox in the change's transaction (see WebhookOutbox).
 */
export interface EnginePersistence
  extends WebhookOutbox, UsageLedger, ReviewerDirectory, SupplierMemoryStore {
  readonly shared: boolean;

  insertJob(job: StoredJob): Promise<void>;
  getJob(jobId: string): Promise<StoredJob | undefined>;
  listJobs(query: JobQuery): Promise<StoredJob[]>;
  updateJob(job: StoredJob, expectedVersion: number, raise?: RaiseEvents): Promise<boolean>;
  finishJob(
    job: StoredJob,
    expectedVersion: number,
    result?: StoredResult,
    raise?: RaiseEvents,
  ): Promise<boolean>;
  renewLease(jobId: string, owner: string, leaseUntil: number): Promise<boolean>;

  listResults(accountId: string, fileId: string): Promise<StoredResult[]>;

  putTokenLayer(accountId: string, fileId: string, layer: TokenLayer): Promise<void>;
  /**
   * A stored layer is read-only for its readers: an adapter may hand out one shared, frozen object
   * (the memory adapter does), so nobody changes what another reads.
   */
  getTokenLayer(accountId: string, fileId: string): Promise<TokenLayer | undefined>;
  /**
   * Forgets the token layer and results of a deleted file. Its jobs stay, as a history, unless `jobs`
   * is set: then its ended jobs (succeeded, failed, cancelled) go too; jobs still new or running stay.
   */
  deleteFileData(accountId: string, fileId: string, options?: { jobs?: boolean }): Promise<void>;

  putRules(accountId: string, rulesId: string, rules: unknown): Promise<void>;
  getRules(accountId: string, rulesId: string): Promise<unknown>;

  insertTask(task: StoredTask, raise?: RaiseEvents): Promise<void>;
  getTask(accountId: string, taskId: string): Promise<StoredTask | undefined>;
  listTasks(query: TaskQuery): Promise<StoredTask[]>;
  /** Tasks of every account with the status (for metrics). */
  countTasks(status: StoredTask['status']): Promise<number>;
  updateTask(task: StoredTask, expectedVersion: number, raise?: RaiseEvents): Promise<boolean>;

  /** Settings of an account (limits, locale, subscriptions), replaced by a later put. */
  putAccount(accountId: string, settings: AccountSettings): Promise<void>;
  listAccounts(): Promise<Array<{ accountId: string; settings: AccountSettings }>>;
  /** Stores an API client, replacing one with the same client id. */
  putClient(client: StoredClient): Promise<void>;
  getClient(clientId: string): Promise<StoredClient | undefined>;

  /**
   * Shared storage only. Claims the oldest job that may run now for `owner`: of the jobs `new` with
   * `runAfter <= now` and the jobs `running` whose lease ended (`leaseUntil < now`; a lease ending at
   * `now` still holds), not of an excluded account or queue, the first by `record.created`, then id
   * (there is no priority). Of concurrent claims, from any process, one gets a job, never two
   * (PostgreSQL: `FOR UPDATE SKIP LOCKED`). Returns the job as it was and as claimed (`running`,
   * version and attempts bumped, leased to `owner` until `leaseUntil`, `record.error` cleared), or
   * undefined when no job may run.
   */
  claimNext?(claim: ClaimRequest): Promise<{ previous: StoredJob; claimed: StoredJob } | undefined>;
  /** Shared storage only: how many jobs of every account have one of the statuses (the bound of the queue). */
  countJobs?(statuses: readonly JobStatus[]): Promise<number>;
  /**
   * Shared storage only: calls `listener` on changes made by any process through any handle, this one
   * included, after they are stored: a job inserted, updated, finished or claimed (`kind: 'job'`) and a
   * task inserted or updated (`kind: 'task'`); a compare-and-set that lost announces nothing. Changes
   * made after the returned promise resolves are heard. Resolves to an unsubscribe, after which the
   * listener hears nothing more (call it before closing the persistence).
   */
  subscribe?(listener: (change: PersistenceChange) => void): Promise<() => Promise<void>>;

  close(): Promise<void>;
}

/**
 * The former name of EnginePersistence, kept so hosts that implemented it still compile: the port
 * holds accounts, clients, rules, tasks, token layers and more than jobs.
 * @deprecated Use EnginePersistence.
 */
export type JobPersistence = EnginePersistence;
