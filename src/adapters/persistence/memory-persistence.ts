import type { AccountSettings } from '../../core/accounts.js';
import type { JobStatus, StoredClient, StoredJob, StoredResult, StoredTask } from '../../core/jobs.js';
import type { TokenLayer } from '../../core/types.js';
import type {
  ClaimRequest,
  EnginePersistence,
  JobQuery,
  PersistenceChange,
} from '../../ports/engine-persistence.js';
import { byCreatedThenLogin, type StoredReviewer } from '../../ports/reviewer-directory.js';
import { byRecentUpdate, type SupplierMemory } from '../../ports/supplier-memory-store.js';
import { NO_USAGE, sumUsage, type UsageDay } from '../../ports/usage-ledger.js';
import type { RaiseEvents, StoredDelivery, StoredWebhook } from '../../ports/webhook-outbox.js';
import { claimed, deliveriesFor, newestFirst, withinCaps } from '../../webhooks/fan-out.js';

/** Freezes a plain JSON-like value and everything in it; answers it. */
function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}

/** Job states a job no longer leaves. */
const ENDED: ReadonlySet<string> = new Set(['succeeded', 'failed', 'cancelled']);

function byCreated(a: StoredJob, b: StoredJob): number {
  const x = a.record;
  const y = b.record;
  if (x.created !== y.created) return x.created < y.created ? -1 : 1;
  return x.id < y.id ? -1 : x.id > y.id ? 1 : 0;
}

function byTaskCreated(a: StoredTask, b: StoredTask): number {
  return a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : 0;
}

function matches(job: StoredJob, query: JobQuery): boolean {
  if (query.accountId !== undefined && job.accountId !== query.accountId) return false;
  if (query.fileId !== undefined && job.record.file_id !== query.fileId) return false;
  if (query.statuses !== undefined && !query.statuses.includes(job.record.status)) return false;
  return true;
}

/** Job states a job may still be claimed in (shared mode). */
const UNFINISHED: ReadonlySet<string> = new Set(['new', 'running']);

/** Whether a claim may take the job: due and new, or running under a lease that has ended. */
function claimable(job: StoredJob, claim: ClaimRequest): boolean {
  const { status } = job.record;
  return (
    ((status === 'new' && job.runAfter <= claim.now) ||
      (status === 'running' && job.leaseUntil < claim.now)) &&
    !claim.excludeAccounts.includes(job.accountId) &&
    !claim.excludeQueues.includes(job.queue)
  );
}

export interface MemoryPersistenceOptions {
  /**
   * Storage that several engines of this process share, as engine processes share a PostgreSQL
   * database: `shared: true`, jobs claimed with leases (`claimNext`), the queue bound counted over
   * every engine (`countJobs`), and every change announced to every handle (`subscribe`). Each engine
   * takes its own handle (`connect()`). Default false: one engine's storage.
   */
  shared?: boolean;
}

/**
 * A handle on in-memory storage shared by several engines of one process (never by several
 * processes). Every handle reads and changes the same jobs, results, tasks and the rest.
 */
export interface SharedMemoryPersistence extends EnginePersistence {
  readonly shared: true;
  claimNext(claim: ClaimRequest): Promise<{ previous: StoredJob; claimed: StoredJob } | undefined>;
  countJobs(statuses: readonly JobStatus[]): Promise<number>;
  subscribe(listener: (change: PersistenceChange) => void): Promise<() => Promise<void>>;
  /**
   * Another handle on the same storage, for another engine (as another process would open its own
   * connection). Closing a handle closes that handle only: the storage lives while a handle on it is
   * referenced, and `connect()` works on a closed handle too.
   */
  connect(): SharedMemoryPersistence;
}

interface Subscription {
  listener: (change: PersistenceChange) => void;
  active: boolean;
}

/** What every handle on one in-memory storage reads and changes. */
interface MemoryStore {
  jobs: Map<string, StoredJob>;
  /** Ids of jobs `new` or `running` (the ones claims look at). */
  unfinished: Set<string>;
  results: Map<string, StoredResult>;
  layers: Map<string, TokenLayer>;
  rules: Map<string, unknown>;
  tasks: Map<string, StoredTask>;
  accounts: Map<string, AccountSettings>;
  /** By account and day (`account\u0000day`). */
  usage: Map<string, UsageDay>;
  clients: Map<string, StoredClient>;
  /** By reviewer id; logins are unique over every account. */
  reviewers: Map<string, StoredReviewer>;
  /** By account and supplier id. */
  suppliers: Map<string, SupplierMemory>;
  webhooks: Map<string, StoredWebhook>;
  deliveries: Map<string, StoredDelivery>;
  /** Ids of deliveries still pending (the ones claims look at). */
  pending: Set<string>;
  /** Listeners of every handle (shared mode). */
  subscriptions: Set<Subscription>;
}

function createStore(): MemoryStore {
  return {
    jobs: new Map(),
    unfinished: new Set(),
    results: new Map(),
    layers: new Map(),
    rules: new Map(),
    tasks: new Map(),
    accounts: new Map(),
    usage: new Map(),
    clients: new Map(),
    reviewers: new Map(),
    suppliers: new Map(),
    webhooks: new Map(),
    deliveries: new Map(),
    pending: new Set(),
    subscriptions: new Set(),
  };
}

/**
 * EnginePersistence in memory: for tests and short-lived embedded use. Nothing survives the process.
 * Values are cloned on the way in and out, as a database would.
 *
 * With `{ shared: true }`, a handle on storage that several engines of this one process share
 * (`connect()` gives each its own handle): a host running several engines in one process, or a test
 * of scale-out without a database. Each call of a handle changes the storage in one synchronous step,
 * so it is atomic as a transaction is: of concurrent claims one gets a job, never two. Changes are
 * announced to subscribers after they are stored, in a later microtask, as PostgreSQL's NOTIFY
 * reaches listeners after the commit.
 */
export function createMemoryPersistence(options: { shared: true }): SharedMemoryPersistence;
export function createMemoryPersistence(options?: MemoryPersistenceOptions): EnginePersistence;
export function createMemoryPersistence(options: MemoryPersistenceOptions = {}): EnginePersistence {
  const store = createStore();
  return options.shared === true ? sharedHandle(store) : handleOn(store).persistence;
}

/** A handle of the shared mode: the port's shared-storage members besides the others. */
function sharedHandle(store: MemoryStore): SharedMemoryPersistence {
  const { persistence: handle, open } = handleOn(store);
  const { jobs, unfinished, subscriptions } = store;
  /** This handle's listeners: they stop when it closes. */
  const mine = new Set<Subscription>();
  const { close } = handle;
  return {
    ...handle,
    shared: true,

    async claimNext(claim) {
      open();
      let oldest: StoredJob | undefined;
      for (const id of unfinished) {
        const job = jobs.get(id)!;
        if (claimable(job, claim) && (!oldest || byCreated(job, oldest) < 0)) oldest = job;
      }
      if (!oldest) return undefined;
      const claimed = structuredClone(oldest);
      claimed.attempts += 1;
      claimed.leaseOwner = claim.owner;
      claimed.leaseUntil = claim.leaseUntil;
      claimed.record.status = 'running';
      claimed.record.version += 1;
      delete claimed.record.error;
      jobs.set(claimed.record.id, claimed);
      announce(store, jobChange(claimed));
      // The stored object it replaced is nobody's but the caller's now.
      return { previous: oldest, claimed: structuredClone(claimed) };
    },

    async countJobs(statuses) {
      open();
      const among = statuses.every((s) => UNFINISHED.has(s)) ? [...unfinished] : [...jobs.keys()];
      return among.filter((id) => statuses.includes(jobs.get(id)!.record.status)).length;
    },

    async subscribe(listener) {
      open();
      const subscription: Subscription = { listener, active: true };
      subscriptions.add(subscription);
      mine.add(subscription);
      return async () => {
        subscription.active = false;
        subscriptions.delete(subscription);
        mine.delete(subscription);
      };
    },

    connect() {
      return sharedHandle(store);
    },

    async close() {
      for (const subscription of mine) {
        subscription.active = false;
        subscriptions.delete(subscription);
      }
      mine.clear();
      await close();
    },
  };
}

function jobChange(job: StoredJob): PersistenceChange {
  return { kind: 'job', accountId: job.accountId, fileId: job.record.file_id };
}

/**
 * Tells every listener of the storage about a stored change, each in a microtask of its own after the
 * change (in the order of the changes); a listener unsubscribed meanwhile hears nothing more. What a
 * listener throws is dropped, as the PostgreSQL adapter drops it, so one listener cannot stop another.
 */
function announce(store: MemoryStore, change: PersistenceChange): void {
  for (const subscription of store.subscriptions) {
    queueMicrotask(() => {
      if (!subscription.active) return;
      try {
        subscription.listener({ ...change });
      } catch {
        // Dropped: see above.
      }
    });
  }
}

/** The port's members over the storage (not the shared-storage ones), and the check that it is open. */
function handleOn(store: MemoryStore): { persistence: EnginePersistence; open: () => void } {
  const {
    jobs,
    unfinished,
    results,
    layers,
    rules,
    tasks,
    accounts,
    usage,
    clients,
    reviewers,
    suppliers,
    webhooks,
    deliveries,
    pending,
  } = store;
  const key = (accountId: string, id: string): string => `${accountId}\u0000${id}`;
  let closed = false;

  function open(): void {
    if (closed) throw new Error('The persistence has been closed.');
  }

  /** Stores a copy of the job (keeping the ids of unfinished jobs). */
  function put(job: StoredJob): void {
    jobs.set(job.record.id, structuredClone(job));
    if (UNFINISHED.has(job.record.status)) unfinished.add(job.record.id);
    else unfinished.delete(job.record.id);
  }

  /** Stores the deliveries of the events `raise` finds in the file's state after a change. */
  function raiseFor(
    accountId: string,
    fileId: string | null,
    raise: RaiseEvents | undefined,
    self?: StoredJob,
  ): void {
    if (!raise) return;
    const hooks = [...webhooks.values()].filter((h) => h.accountId === accountId);
    if (hooks.length === 0) return;
    const fileJobs =
      fileId === null
        ? self
          ? [self]
          : []
        : [...jobs.values()]
            .filter((j) => j.accountId === accountId && j.record.file_id === fileId)
            .sort(byCreated);
    const fileTasks =
      fileId === null
        ? []
        : [...tasks.values()]
            .filter((t) => t.accountId === accountId && t.fileId === fileId)
            .sort(byTaskCreated);
    const events = raise(structuredClone({ accountId, fileId, jobs: fileJobs, tasks: fileTasks }));
    for (const delivery of deliveriesFor(events, hooks)) {
      if (deliveries.has(delivery.id)) continue;
      deliveries.set(delivery.id, delivery);
      pending.add(delivery.id);
    }
  }

  function compareAndSet(job: StoredJob, expectedVersion: number): boolean {
    const current = jobs.get(job.record.id);
    if (!current || current.record.version !== expectedVersion) return false;
    put(job);
    return true;
  }

  const taskChange = (task: StoredTask): PersistenceChange => ({
    kind: 'task',
    accountId: task.accountId,
    fileId: task.fileId,
  });

  const persistence: EnginePersistence = {
    shared: false,

    async insertJob(job) {
      open();
      if (jobs.has(job.record.id)) throw new Error(`A job with id ${job.record.id} exists.`);
      put(job);
      announce(store, jobChange(job));
    },

    async getJob(jobId) {
      open();
      const job = jobs.get(jobId);
      return job && structuredClone(job);
    },

    async listJobs(query) {
      open();
      return [...jobs.values()]
        .filter((job) => matches(job, query))
        .sort(byCreated)
        .map((job) => structuredClone(job));
    },

    async updateJob(job, expectedVersion, raise) {
      open();
      if (!compareAndSet(job, expectedVersion)) return false;
      raiseFor(job.accountId, job.record.file_id, raise, job);
      announce(store, jobChange(job));
      return true;
    },

    async finishJob(job, expectedVersion, result, raise) {
      open();
      if (!compareAndSet(job, expectedVersion)) return false;
      if (result && !results.has(result.jobId)) results.set(result.jobId, structuredClone(result));
      raiseFor(job.accountId, job.record.file_id, raise, job);
      announce(store, jobChange(job));
      return true;
    },

    async renewLease(jobId, owner, leaseUntil) {
      open();
      const job = jobs.get(jobId);
      if (!job || job.record.status !== 'running' || job.leaseOwner !== owner) return false;
      job.leaseUntil = leaseUntil;
      return true;
    },

    async listResults(accountId, fileId) {
      open();
      return [...results.values()]
        .filter((r) => r.accountId === accountId && r.fileId === fileId)
        .sort((a, b) =>
          a.jobCreated !== b.jobCreated
            ? a.jobCreated < b.jobCreated
              ? -1
              : 1
            : a.jobId < b.jobId
              ? -1
              : a.jobId > b.jobId
                ? 1
                : 0,
        )
        .map((r) => structuredClone(r));
    },

    async putTokenLayer(accountId, fileId, layer) {
      open();
      layers.set(key(accountId, fileId), deepFreeze(structuredClone(layer)));
    },

    async getTokenLayer(accountId, fileId) {
      open();
      // Frozen when stored: handed out as it is, without a copy (a layer is read by every workflow
      // on the file, and copying it was the largest cost of the in-memory store).
      return layers.get(key(accountId, fileId));
    },

    async deleteFileData(accountId, fileId, options = {}) {
      open();
      layers.delete(key(accountId, fileId));
      for (const [jobId, result] of results) {
        if (result.accountId === accountId && result.fileId === fileId) results.delete(jobId);
      }
      if (!options.jobs) return;
      for (const [jobId, job] of jobs) {
        if (job.accountId === accountId && job.record.file_id === fileId && ENDED.has(job.record.status))
          jobs.delete(jobId);
      }
    },

    async putRules(accountId, rulesId, value) {
      open();
      rules.set(key(accountId, rulesId), structuredClone(value));
    },

    async getRules(accountId, rulesId) {
      open();
      const value = rules.get(key(accountId, rulesId));
      return value === undefined ? undefined : structuredClone(value);
    },

    async insertTask(task, raise) {
      open();
      if (tasks.has(task.id)) throw new Error(`A task with id ${task.id} exists.`);
      tasks.set(task.id, structuredClone(task));
      raiseFor(task.accountId, task.fileId, raise);
      announce(store, taskChange(task));
    },

    async getTask(accountId, taskId) {
      open();
      const task = tasks.get(taskId);
      return task && task.accountId === accountId ? structuredClone(task) : undefined;
    },

    async countTasks(status) {
      open();
      return [...tasks.values()].filter((t) => t.status === status).length;
    },

    async listTasks(query) {
      open();
      return (
        [...tasks.values()]
          .filter(
            (t) =>
              t.accountId === query.accountId &&
              (query.fileId === undefined || t.fileId === query.fileId) &&
              (query.status === undefined || t.status === query.status),
          )
          // Stable sort over insertion order: tasks created in the same millisecond keep the order they were stored in.
          .sort(byTaskCreated)
          .map((t) => structuredClone(t))
      );
    },

    async updateTask(task, expectedVersion, raise) {
      open();
      const current = tasks.get(task.id);
      if (!current || current.accountId !== task.accountId || current.version !== expectedVersion)
        return false;
      tasks.set(task.id, structuredClone(task));
      raiseFor(task.accountId, task.fileId, raise);
      announce(store, taskChange(task));
      return true;
    },

    async putAccount(accountId, settings) {
      open();
      accounts.set(accountId, structuredClone(settings));
    },

    async listAccounts() {
      open();
      return [...accounts].map(([accountId, settings]) => ({
        accountId,
        settings: structuredClone(settings),
      }));
    },

    async addUsage(accountId, day, figures) {
      open();
      const key = `${accountId}\u0000${day}`;
      const added = { ...figures, processingMs: Math.round(figures.processingMs) };
      usage.set(key, { day, ...sumUsage([usage.get(key) ?? NO_USAGE, added]) });
    },

    async listUsage(accountId, fromDay, toDay) {
      open();
      return [...usage]
        .filter(([key, d]) => key.startsWith(`${accountId}\u0000`) && d.day >= fromDay && d.day <= toDay)
        .map(([, d]) => ({ ...d }))
        .sort((a, b) => (a.day < b.day ? -1 : 1));
    },

    async putClient(client) {
      open();
      clients.set(client.clientId, structuredClone(client));
    },

    async getClient(clientId) {
      open();
      const client = clients.get(clientId);
      return client && structuredClone(client);
    },

    async insertReviewer(reviewer) {
      open();
      if (reviewers.has(reviewer.reviewerId)) return false;
      for (const r of reviewers.values()) if (r.login === reviewer.login) return false;
      reviewers.set(reviewer.reviewerId, structuredClone(reviewer));
      return true;
    },

    async updateReviewer(reviewer, expectedVersion) {
      open();
      const stored = reviewers.get(reviewer.reviewerId);
      if (
        !stored ||
        stored.version !== expectedVersion ||
        stored.accountId !== reviewer.accountId ||
        stored.login !== reviewer.login
      ) {
        return false;
      }
      reviewers.set(reviewer.reviewerId, structuredClone(reviewer));
      return true;
    },

    async getReviewer(accountId, reviewerId) {
      open();
      const reviewer = reviewers.get(reviewerId);
      return reviewer?.accountId === accountId ? structuredClone(reviewer) : undefined;
    },

    async findReviewerByLogin(login) {
      open();
      for (const r of reviewers.values()) if (r.login === login) return structuredClone(r);
      return undefined;
    },

    async listReviewers(accountId) {
      open();
      return [...reviewers.values()]
        .filter((r) => r.accountId === accountId)
        .sort(byCreatedThenLogin)
        .map((r) => structuredClone(r));
    },

    async putSupplierMemory(memory, expectedVersion) {
      open();
      const k = key(memory.accountId, memory.supplierId);
      const stored = suppliers.get(k);
      if (expectedVersion === null ? stored !== undefined : stored?.version !== expectedVersion) return false;
      suppliers.set(k, structuredClone(memory));
      return true;
    },

    async getSupplierMemory(accountId, supplierId) {
      open();
      const memory = suppliers.get(key(accountId, supplierId));
      return memory && structuredClone(memory);
    },

    async listSupplierMemories(accountId) {
      open();
      return [...suppliers.values()]
        .filter((m) => m.accountId === accountId)
        .sort(byRecentUpdate)
        .map((m) => structuredClone(m));
    },

    async deleteSupplierMemory(accountId, supplierId) {
      open();
      return suppliers.delete(key(accountId, supplierId));
    },

    async putWebhook(hook) {
      open();
      webhooks.set(hook.id, structuredClone(hook));
    },

    async getWebhook(accountId, webhookId) {
      open();
      const hook = webhooks.get(webhookId);
      return hook && hook.accountId === accountId ? structuredClone(hook) : undefined;
    },

    async listWebhooks(accountId) {
      open();
      return [...webhooks.values()]
        .filter((h) => h.accountId === accountId)
        .sort((a, b) => (a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : 0))
        .map((h) => structuredClone(h));
    },

    async deleteWebhook(accountId, webhookId) {
      open();
      const hook = webhooks.get(webhookId);
      if (!hook || hook.accountId !== accountId) return false;
      webhooks.delete(webhookId);
      for (const [id, delivery] of deliveries) {
        if (delivery.webhookId !== webhookId) continue;
        deliveries.delete(id);
        pending.delete(id);
      }
      return true;
    },

    async claimDeliveries(claim) {
      open();
      const due = [...pending]
        .map((id) => deliveries.get(id)!)
        .filter(
          (d) =>
            d.nextAttemptAt <= claim.now &&
            (claim.includeLeased === true || d.leaseUntil < claim.now) &&
            !claim.excludeWebhooks.includes(d.webhookId),
        )
        .sort((a, b) => a.nextAttemptAt - b.nextAttemptAt || (a.id < b.id ? -1 : 1));
      return withinCaps(due, claim).map((d) => {
        const taken = claimed(d, claim.owner, claim.leaseUntil);
        deliveries.set(d.id, taken);
        return structuredClone(taken);
      });
    },

    async settleDelivery(delivery, expectedVersion) {
      open();
      const current = deliveries.get(delivery.id);
      if (!current || current.version !== expectedVersion) return false;
      deliveries.set(delivery.id, structuredClone(delivery));
      if (delivery.status === 'pending') pending.add(delivery.id);
      else pending.delete(delivery.id);
      return true;
    },

    async listDeliveries(query) {
      open();
      return [...deliveries.values()]
        .filter(
          (d) =>
            d.accountId === query.accountId &&
            (query.webhookId === undefined || d.webhookId === query.webhookId) &&
            (query.status === undefined || d.status === query.status),
        )
        .sort(newestFirst)
        .slice(0, query.limit ?? 100)
        .map((d) => structuredClone(d));
    },

    async pruneDeliveries(before) {
      open();
      let pruned = 0;
      for (const [id, delivery] of deliveries) {
        if (delivery.status !== 'pending' && delivery.createdAt < before) {
          deliveries.delete(id);
          pruned++;
        }
      }
      return pruned;
    },

    async close() {
      closed = true;
    },
  };
  return { persistence, open };
}
