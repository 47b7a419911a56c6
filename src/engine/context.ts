import { randomUUID } from 'node:crypto';
import { createMemoryPersistence } from '../adapters/persistence/memory-persistence.js';
import { createMemoryFileStore } from '../adapters/stores/memory-file-store.js';
import { createNodeWebhookSender } from '../adapters/http/webhook-sender.js';
import { createRulesChecker, type RulesChecker } from '../conditions/rules.js';
import { AccountDirectory } from '../core/accounts.js';
import { DocexError, toDocexError } from '../core/errors.js';
import { createSchemaChecker } from '../core/schema-checker.js';
import type { FileRecord } from '../core/types.js';
import type { EngineOptions } from '../engine-types.js';
import { supplierMemories, type SupplierMemories } from '../learning/supplier-memories.js';
import type { FileStore } from '../ports/file-store.js';
import type { EnginePersistence } from '../ports/engine-persistence.js';
import { createCatalogue, type Catalogue, type ResolvedSelection } from '../products/catalogue.js';
import type { FieldKind } from '../products/types.js';
import { FileSignals } from '../queue/file-signals.js';
import { createJobClock } from '../queue/job-clock.js';
import { reviewerAccounts, type ReviewerAccounts } from '../reviewers/reviewers.js';
import { assertWithinQuota } from '../usage/quotas.js';
import { WebhookDispatcher } from '../webhooks/dispatcher.js';
import { webhookSettings } from '../webhooks/settings.js';
import { webhookSubscriptions, type WebhookSubscriptions } from '../webhooks/subscriptions.js';
import { WorkflowRegistry } from '../workflows/registry.js';
import { createEventHub, type Emit, type EngineEventHub } from './events.js';
import { lazyAdapters, type LazyAdapters } from './lazy-adapters.js';
import { DEFAULT_ACCOUNT, resolveSettings, type EngineSettings } from './settings.js';

/**
 * What the parts of one engine share: settings resolved once, the stores, the accounts, the lazy
 * adapters, the events and the small checks every part makes. Made once by `createContext`; the parts
 * (documents, jobs, results, tasks, clients, webhooks) take it and add no state to it.
 */
export interface EngineContext {
  options: EngineOptions;
  settings: EngineSettings;
  namespace: string;
  files: FileStore;
  persistence: EnginePersistence;
  accounts: AccountDirectory;
  catalogue: Catalogue;
  adapters: LazyAdapters;
  events: EngineEventHub;
  emit: Emit;
  /** The clock of usage days and quotas (epoch ms). */
  now: () => number;
  /** The clock of webhook events. */
  eventClock: () => number;
  /** Job creation times, strictly increasing within the process. */
  jobClock: () => string;
  /** This process's name as a job owner. */
  owner: string;
  /** Wakes result requests waiting on a file. */
  signals: FileSignals;
  registry: WorkflowRegistry;
  rules: RulesChecker;
  learning: SupplierMemories;
  reviewers: ReviewerAccounts;
  subscriptions: WebhookSubscriptions;
  /** Sends the outbox's deliveries; absent when this engine only records them. */
  dispatcher: WebhookDispatcher | undefined;
  /** The account of a call: the one given, else the default one. */
  accountOf(options: { accountId?: string | undefined }): string;
  isClosed(): boolean;
  markClosed(): void;
  /** Refuses calls once the engine is closed (ENGINE_CLOSED). */
  assertOpen(): void;
  requireFile(accountId: string, fileId: string): Promise<FileRecord>;
  /** Refuses work that would pass the account's page quotas (QUOTA_EXCEEDED). */
  assertQuota(accountId: string, pages: number): Promise<void>;
  /** The kinds of the catalogue's fields, by field name. */
  fieldKinds(): Map<string, FieldKind>;
  /** The fieldsets products select, refused when the account may not use one (or it is unknown). */
  resolveProducts(accountId: string, productIds: string[]): ResolvedSelection;
  /** A write nobody awaits (account settings, usage): awaited before the persistence closes. */
  track(write: Promise<unknown>, what?: string, jobId?: string): void;
  settleWrites(): Promise<void>;
}

export function createContext(options: EngineOptions): EngineContext {
  const settings = resolveSettings(options);
  const files = options.files ?? createMemoryFileStore();
  const persistence = options.persistence ?? createMemoryPersistence();
  const accounts = new AccountDirectory(options.limits);
  const now = options.now ?? Date.now;
  const events = createEventHub();
  const emit = events.emit;
  const owner = randomUUID();
  const eventClock = (): number => Date.now();
  const schemaChecker = createSchemaChecker();
  const catalogue = createCatalogue({
    namespace: settings.namespace,
    ...(options.products?.fieldsets ? { fieldsets: options.products.fieldsets } : {}),
    ...(options.products?.products ? { products: options.products.products } : {}),
  });
  const hooks = webhookSettings(options.webhooks);
  const dispatcher = hooks.deliver
    ? new WebhookDispatcher({
        outbox: persistence,
        sender: options.webhooks?.sender ?? createNodeWebhookSender(),
        owner,
        shared: persistence.shared,
        settings: hooks.dispatch,
        allowPrivateTargets: hooks.allowPrivateTargets,
        onError: (error) =>
          emit('error', {
            jobId: '',
            error: toDocexError(error, 'INTERNAL', 'A webhook delivery could not be stored.'),
          }),
      })
    : undefined;
  const writes = new Set<Promise<unknown>>();
  let closed = false;

  return {
    options,
    settings,
    namespace: settings.namespace,
    files,
    persistence,
    accounts,
    catalogue,
    adapters: lazyAdapters(options, settings.ingest.maxPixels),
    events,
    emit,
    now,
    eventClock,
    jobClock: createJobClock(),
    owner,
    signals: new FileSignals(),
    registry: new WorkflowRegistry(schemaChecker),
    rules: createRulesChecker(schemaChecker),
    learning: supplierMemories(persistence, { shared: persistence.shared, now }),
    reviewers: reviewerAccounts(persistence, () => new Date(now())),
    subscriptions: webhookSubscriptions(persistence, {
      allowPrivateTargets: hooks.allowPrivateTargets,
      maxPerAccount: hooks.maxPerAccount,
      rotationOverlapMs: hooks.rotationOverlapMs,
      now: eventClock,
    }),
    dispatcher,
    accountOf: (given) => given.accountId ?? DEFAULT_ACCOUNT,
    isClosed: () => closed,
    markClosed() {
      closed = true;
    },
    assertOpen() {
      if (closed) throw new DocexError('ENGINE_CLOSED', 'The engine has been closed.');
    },
    async requireFile(accountId, fileId) {
      const record = await files.stat(accountId, checkFileId(fileId));
      if (!record) throw new DocexError('FILE_NOT_FOUND', `No file with id ${fileId}.`);
      return record;
    },
    assertQuota: (accountId, pages) =>
      assertWithinQuota(accounts.get(accountId).limits, pages, now(), (from, to) =>
        persistence.listUsage(accountId, from, to),
      ),
    resolveProducts(accountId, productIds) {
      const account = accounts.get(accountId);
      return catalogue.resolve(
        productIds,
        account.subscriptions ? { subscriptions: account.subscriptions } : {},
      );
    },
    fieldKinds: () =>
      new Map(catalogue.fieldsets().flatMap((f) => f.fields.map((d) => [d.name, d.kind] as const))),
    track(write, what = 'Account settings', jobId = '') {
      const tracked = write
        .catch((error: unknown) =>
          emit('error', {
            jobId,
            error: toDocexError(error, 'INTERNAL', `${what} could not be stored.`),
          }),
        )
        .finally(() => writes.delete(tracked));
      writes.add(tracked);
    },
    async settleWrites() {
      await Promise.allSettled([...writes]);
    },
  };
}

export const UUID_LIKE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** File ids are UUIDs; anything else is unknown (never passed on to a store as a path). */
export function checkFileId(fileId: string): string {
  if (!UUID_LIKE.test(fileId))
    throw new DocexError('FILE_NOT_FOUND', `No file with id ${String(fileId).slice(0, 64)}.`);
  return fileId.toLowerCase();
}
