import { randomBytes } from 'node:crypto';

import { DocexError } from '../core/errors.js';
import {
  WEBHOOK_EVENT_TYPES,
  type DeliveryStatus,
  type StoredDelivery,
  type StoredWebhook,
  type WebhookEventType,
  type WebhookOutbox,
} from '../ports/webhook-outbox.js';
import { newWebhookSecret } from './signing.js';
import { checkTargetUrl } from './targets.js';

/** A subscription as the interface shows it (the secret only when created or rotated). */
export interface WebhookView {
  id: string;
  url: string;
  events: WebhookEventType[];
  createdAt: string;
}

export interface WebhookWithSecret extends WebhookView {
  secret: string;
}

/** A delivery as the interface shows it. */
export interface DeliveryView {
  id: string;
  /** The event's id: the `webhook-id` header of every attempt. */
  eventId: string;
  type: WebhookEventType;
  status: DeliveryStatus;
  attempts: number;
  createdAt: string;
  nextAttemptAt: string | null;
  lastAttemptAt: string | null;
  lastStatus: number | null;
  lastError: string | null;
  deliveredAt: string | null;
  /** The body sent. */
  event: unknown;
}

export interface SubscriptionSettings {
  allowPrivateTargets: boolean;
  /** Subscriptions an account may have. Default 25. */
  maxPerAccount: number;
  /** How long the secret before a rotation is still signed with. Default 24 h. */
  rotationOverlapMs: number;
  now: () => number;
}

const WEBHOOK_ID = /^wh_[0-9a-f]{32}$/;

function view(hook: StoredWebhook): WebhookView {
  return { id: hook.id, url: hook.url, events: [...hook.events], createdAt: hook.createdAt };
}

function iso(ms: number | undefined): string | null {
  return ms === undefined || ms === 0 ? null : new Date(ms).toISOString();
}

export function deliveryView(d: StoredDelivery): DeliveryView {
  return {
    id: d.id,
    eventId: d.eventId,
    type: d.type,
    status: d.status,
    attempts: d.attempts,
    createdAt: new Date(d.createdAt).toISOString(),
    nextAttemptAt: d.status === 'pending' ? iso(d.nextAttemptAt) : null,
    lastAttemptAt: iso(d.lastAttemptAt),
    lastStatus: d.lastStatus ?? null,
    lastError: d.lastError ?? null,
    deliveredAt: iso(d.deliveredAt),
    event: JSON.parse(d.body) as unknown,
  };
}

function checkEvents(raw: unknown): WebhookEventType[] {
  const known = WEBHOOK_EVENT_TYPES as readonly string[];
  const message = `events must be a non-empty list of: ${known.join(', ')}.`;
  if (!Array.isArray(raw) || raw.length === 0 || raw.length > known.length * 4) {
    throw new DocexError('INVALID_ARGUMENT', message, { details: [{ path: '/events', message }] });
  }
  raw.forEach((type, i) => {
    if (typeof type !== 'string' || !known.includes(type)) {
      throw new DocexError('INVALID_ARGUMENT', message, {
        details: [{ path: `/events/${i}`, message: 'unknown event type' }],
      });
    }
  });
  return WEBHOOK_EVENT_TYPES.filter((t) => raw.includes(t));
}

/**
 * The subscriptions of an account: create (answers the signing secret, once), list, read, delete,
 * rotate the secret, and list a subscription's deliveries (dead ones included).
 */
export function webhookSubscriptions(store: WebhookOutbox, settings: SubscriptionSettings) {
  async function require(accountId: string, webhookId: string): Promise<StoredWebhook> {
    const hook =
      typeof webhookId === 'string' && WEBHOOK_ID.test(webhookId)
        ? await store.getWebhook(accountId, webhookId)
        : undefined;
    // Another account's subscription is reported exactly like an unknown one.
    if (!hook) {
      throw new DocexError('WEBHOOK_NOT_FOUND', `No webhook with id ${String(webhookId).slice(0, 64)}.`);
    }
    return hook;
  }

  return {
    async create(accountId: string, body: unknown): Promise<WebhookWithSecret> {
      if (typeof body !== 'object' || body === null || Array.isArray(body)) {
        throw new DocexError('INVALID_ARGUMENT', 'The body must be {"url": ..., "events": [...]}.');
      }
      const { url, events, ...rest } = body as Record<string, unknown>;
      const unknown = Object.keys(rest)[0];
      if (unknown !== undefined) {
        throw new DocexError('INVALID_ARGUMENT', `Unknown property ${unknown.slice(0, 64)}.`, {
          details: [{ path: `/${unknown.slice(0, 64)}`, message: 'unknown property' }],
        });
      }
      const hook: StoredWebhook = {
        id: `wh_${randomBytes(16).toString('hex')}`,
        accountId,
        url: checkTargetUrl(url, settings.allowPrivateTargets),
        events: checkEvents(events),
        secret: newWebhookSecret(),
        createdAt: new Date(settings.now()).toISOString(),
      };
      if ((await store.listWebhooks(accountId)).length >= settings.maxPerAccount) {
        throw new DocexError(
          'INVALID_ARGUMENT',
          `An account may have ${settings.maxPerAccount} webhooks; delete one first.`,
        );
      }
      await store.putWebhook(hook);
      return { ...view(hook), secret: hook.secret };
    },

    async list(accountId: string): Promise<WebhookView[]> {
      return (await store.listWebhooks(accountId)).map(view);
    },

    async get(accountId: string, webhookId: string): Promise<WebhookView> {
      return view(await require(accountId, webhookId));
    },

    async delete(accountId: string, webhookId: string): Promise<void> {
      await require(accountId, webhookId);
      await store.deleteWebhook(accountId, webhookId);
    },

    /** A new secret; the old one keeps signing (as a second signature) for `rotationOverlapMs`. */
    async rotateSecret(accountId: string, webhookId: string): Promise<WebhookWithSecret> {
      const hook = await require(accountId, webhookId);
      const rotated: StoredWebhook = {
        ...hook,
        secret: newWebhookSecret(),
        previousSecret: hook.secret,
        previousSecretUntil: settings.now() + settings.rotationOverlapMs,
      };
      await store.putWebhook(rotated);
      return { ...view(rotated), secret: rotated.secret };
    },

    async deliveries(
      accountId: string,
      webhookId: string,
      query: { status?: DeliveryStatus; limit?: number } = {},
    ): Promise<DeliveryView[]> {
      await require(accountId, webhookId);
      const limit = Math.min(1000, Math.max(1, Math.floor(query.limit ?? 100)));
      const list = await store.listDeliveries({
        accountId,
        webhookId,
        limit,
        ...(query.status ? { status: query.status } : {}),
      });
      return list.map(deliveryView);
    },
  };
}

export type WebhookSubscriptions = ReturnType<typeof webhookSubscriptions>;
