import type { StoredJob, StoredTask } from '../core/jobs.js';

/** What a subscription can ask to be told about. */
export const WEBHOOK_EVENT_TYPES = [
  'file.finalised',
  'job.failed',
  'task.created',
  'task.completed',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** A webhook subscription of an account. */
export interface StoredWebhook {
  /** `wh_` and 32 hex digits. */
  id: string;
  accountId: string;
  url: string;
  events: WebhookEventType[];
  /** `whsec_` and the base64 of the signing key. */
  secret: string;
  /** The secret before the last rotation, still signed with until `previousSecretUntil` (epoch ms). */
  previousSecret?: string;
  previousSecretUntil?: number;
  /** ISO 8601 UTC. */
  createdAt: string;
}

/**
 * An event a change raises. Its id is its idempotency key: the same change seen twice (by two
 * processes, or again after a crash) raises the same id, and a subscription gets one delivery per id.
 */
export interface OutboxEvent {
  /** `msg_` and 32 hex digits: the `webhook-id` header of every delivery of the event. */
  id: string;
  accountId: string;
  type: WebhookEventType;
  /** The body sent, as JSON text: fixed when raised, so every attempt sends the same bytes. */
  body: string;
  /** Epoch ms. */
  raisedAt: number;
}

/** A file's jobs and review tasks as stored by the change being made (jobs oldest first). */
export interface FileState {
  accountId: string;
  /** null for a job without a file: then `jobs` holds that job alone and `tasks` is empty. */
  fileId: string | null;
  jobs: StoredJob[];
  tasks: StoredTask[];
}

/**
 * Decides, from the file's state after a change, which events the change raises. Called by the
 * persistence inside the change's transaction, after the change and with the file's other changes
 * serialised, so that two processes finishing the last two jobs of a file never both miss (nor both
 * raise twice) its finalisation. Pure and synchronous.
 */
export type RaiseEvents = (file: FileState) => OutboxEvent[];

export type DeliveryStatus = 'pending' | 'delivered' | 'dead';

/** One event on its way to one subscription. */
export interface StoredDelivery {
  /** `dlv_` and 32 hex digits. */
  id: string;
  accountId: string;
  webhookId: string;
  eventId: string;
  type: WebhookEventType;
  body: string;
  status: DeliveryStatus;
  /** Attempts made so far. */
  attempts: number;
  /** Epoch ms: when it was raised, and when the next attempt is due. */
  createdAt: number;
  nextAttemptAt: number;
  /** The process sending it now, and until when it may (epoch ms); null/0 otherwise. */
  leaseOwner: string | null;
  leaseUntil: number;
  /** Bumped on every change (settling is a compare-and-set on it). */
  version: number;
  lastAttemptAt?: number;
  /** HTTP status of the last answer, or the reason no answer came (timeout, refused target...). */
  lastStatus?: number;
  lastError?: string;
  deliveredAt?: number;
}

/** What a process asks for when it looks for deliveries to send. */
export interface DeliveryClaim {
  owner: string;
  /** Epoch ms: pending deliveries due by then whose lease (if any) ended before it. */
  now: number;
  leaseUntil: number;
  limit: number;
  /** Subscriptions this process is already sending to as much as it may. */
  excludeWebhooks: string[];
  /**
   * At most this many deliveries of one subscription in flight in the asking process, counting the
   * ones it has already (`inFlight`, by subscription id). Default: no such limit.
   */
  perWebhook?: number;
  inFlight?: Record<string, number>;
  /**
   * Also deliveries whose lease has not ended: for the first claim of a process that has the storage
   * to itself, when leases still held can only be those of an earlier process that died.
   */
  includeLeased?: boolean;
}

export interface DeliveryQuery {
  accountId: string;
  webhookId?: string;
  status?: DeliveryStatus;
  /** Newest first, at most this many. Default 100. */
  limit?: number;
}

/**
 * Webhook subscriptions and the outbox of their deliveries, kept by the EnginePersistence beside the jobs
 * and tasks whose changes raise them, in the same transaction (the `raise` argument of `updateJob`,
 * `finishJob`, `insertTask` and `updateTask`): a crash never loses a delivery nor invents one.
 *
 * Contract (test/ports/engine-persistence.contract.ts, every adapter):
 * - A change given `raise` calls it (inside its transaction, after the change) only when the change
 *   was made and the account has a subscription; each event becomes one pending delivery per
 *   subscription of the account that asked for its type, at most one per (subscription, event id).
 * - `claimDeliveries` hands a due delivery to one process at a time: leased to `owner` until
 *   `leaseUntil`, version bumped; oldest due first, at most `perWebhook` of one subscription in flight.
 * - `settleDelivery` is a compare-and-set on `version`.
 * - Subscriptions and deliveries are scoped by account; another account's are absent.
 * - `deleteWebhook` removes the subscription and its deliveries (none is sent after it answers).
 * - `pruneDeliveries` forgets delivered and dead deliveries older than the given time.
 */
export interface WebhookOutbox {
  putWebhook(hook: StoredWebhook): Promise<void>;
  getWebhook(accountId: string, webhookId: string): Promise<StoredWebhook | undefined>;
  /** Oldest first. */
  listWebhooks(accountId: string): Promise<StoredWebhook[]>;
  deleteWebhook(accountId: string, webhookId: string): Promise<boolean>;

  claimDeliveries(claim: DeliveryClaim): Promise<StoredDelivery[]>;
  settleDelivery(delivery: StoredDelivery, expectedVersion: number): Promise<boolean>;
  listDeliveries(query: DeliveryQuery): Promise<StoredDelivery[]>;
  /** Forgets delivered and dead deliveries raised before `before` (epoch ms); answers how many. */
  pruneDeliveries(before: number): Promise<number>;
}
