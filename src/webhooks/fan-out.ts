import { createHash } from 'node:crypto';

import type { DeliveryClaim, OutboxEvent, StoredDelivery, StoredWebhook } from '../ports/webhook-outbox.js';

/** A delivery's id: one per (subscription, event), so storing it twice is a key conflict, ignored. */
export function deliveryId(webhookId: string, eventId: string): string {
  return `dlv_${createHash('sha256').update(`${webhookId}\u0000${eventId}`).digest('hex').slice(0, 32)}`;
}

/**
 * The deliveries raised events make: one per event and subscription of the event's account that asked
 * for its type, due at once. Used by every persistence adapter inside the raising change's transaction.
 */
export function deliveriesFor(
  events: readonly OutboxEvent[],
  webhooks: readonly StoredWebhook[],
): StoredDelivery[] {
  const made: StoredDelivery[] = [];
  for (const event of events) {
    for (const hook of webhooks) {
      if (hook.accountId !== event.accountId || !hook.events.includes(event.type)) continue;
      made.push({
        id: deliveryId(hook.id, event.id),
        accountId: event.accountId,
        webhookId: hook.id,
        eventId: event.id,
        type: event.type,
        body: event.body,
        status: 'pending',
        attempts: 0,
        createdAt: event.raisedAt,
        nextAttemptAt: event.raisedAt,
        leaseOwner: null,
        leaseUntil: 0,
        version: 1,
      });
    }
  }
  return made;
}

/** Newest first (by raise time, then id), as listings answer. */
export function newestFirst(a: StoredDelivery, b: StoredDelivery): number {
  if (a.createdAt !== b.createdAt) return b.createdAt - a.createdAt;
  return a.id < b.id ? 1 : a.id > b.id ? -1 : 0;
}

/**
 * Of the due deliveries (oldest first), the ones a claim may take: at most `limit`, and at most
 * `perWebhook` of one subscription counting those the claimer has in flight.
 */
export function withinCaps<T extends { webhookId: string }>(due: readonly T[], claim: DeliveryClaim): T[] {
  const cap = claim.perWebhook ?? Number.POSITIVE_INFINITY;
  const counts = new Map<string, number>(Object.entries(claim.inFlight ?? {}));
  const taken: T[] = [];
  for (const delivery of due) {
    if (taken.length >= claim.limit) break;
    const n = counts.get(delivery.webhookId) ?? 0;
    if (n >= cap) continue;
    counts.set(delivery.webhookId, n + 1);
    taken.push(delivery);
  }
  return taken;
}

/** How many due rows a claim reads to choose from: more than it takes, when caps may skip some. */
export function candidates(claim: DeliveryClaim): number {
  const limit = Math.max(0, claim.limit);
  return claim.perWebhook === undefined ? limit : limit * 4;
}

/** The claimed form of a due delivery. */
export function claimed(delivery: StoredDelivery, owner: string, leaseUntil: number): StoredDelivery {
  return { ...delivery, leaseOwner: owner, leaseUntil, version: delivery.version + 1 };
}
