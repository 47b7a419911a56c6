import { setMaxListeners } from 'node:events';

import type { StoredDelivery, StoredWebhook, WebhookOutbox } from '../ports/webhook-outbox.js';
import type { WebhookAnswer, WebhookSender } from '../ports/webhook-sender.js';
import { signedHeaders } from './signing.js';

export interface DispatchSettings {
  /** Time an attempt may take. Default 10 s. */
  timeoutMs: number;
  /** Delay before the first retry, doubled on each further one up to `maxDelayMs`, with jitter. */
  baseDelayMs: number;
  maxDelayMs: number;
  /** How long after an event its delivery is retried before it is marked dead. Default 24 h. */
  retryForMs: number;
  /** How often to look for due deliveries besides the pokes. Default 2 s. */
  pollMs: number;
  /** Attempts in flight in this process at once, and to one subscription at once. */
  concurrency: number;
  perWebhook: number;
  /** Delivered and dead deliveries are forgotten this long after their event. Default 7 days. */
  keepForMs: number;
}

export const DEFAULT_DISPATCH: DispatchSettings = {
  timeoutMs: 10_000,
  baseDelayMs: 5_000,
  maxDelayMs: 60 * 60_000,
  retryForMs: 24 * 60 * 60_000,
  pollMs: 2_000,
  concurrency: 32,
  perWebhook: 4,
  keepForMs: 7 * 24 * 60 * 60_000,
};

export interface DispatcherOptions {
  outbox: WebhookOutbox;
  sender: WebhookSender;
  /** Id of this process (holder of the leases of the deliveries it sends). */
  owner: string;
  settings: DispatchSettings;
  allowPrivateTargets: boolean;
  /** Epoch ms. Default Date.now. */
  now?: () => number;
  /**
   * Whether other processes share the outbox. When not, deliveries an earlier process left leased
   * (it died while sending) are taken at once on start instead of when their lease ends.
   */
  shared: boolean;
  /** In [0, 1): the jitter of retry delays. Default Math.random. */
  random?: () => number;
  /** Called after each settled attempt (delivered, to be retried or dead). */
  onSettled?: (delivery: StoredDelivery) => void;
  /** Called when the outbox could not be read or written (the delivery is tried again later). */
  onError?: (error: unknown) => void;
}

/** The delay before retry number `attempts` (1 = the first retry): exponential, capped, with jitter in [1/2, 1]. */
export function retryDelay(attempts: number, settings: DispatchSettings, random: number): number {
  const exponential = settings.baseDelayMs * 2 ** Math.min(30, Math.max(0, attempts - 1));
  return Math.round(Math.min(settings.maxDelayMs, exponential) * (0.5 + random / 2));
}

/** What an attempt's answer makes of a delivery: delivered, pending again later, or dead. */
export function settle(
  delivery: StoredDelivery,
  answer: WebhookAnswer,
  at: number,
  settings: DispatchSettings,
  random: number,
): StoredDelivery {
  const attempts = delivery.attempts + 1;
  const base: StoredDelivery = {
    ...delivery,
    attempts,
    lastAttemptAt: at,
    leaseOwner: null,
    leaseUntil: 0,
    version: delivery.version + 1,
  };
  delete base.lastError;
  delete base.lastStatus;
  if ('status' in answer) base.lastStatus = answer.status;
  else base.lastError = answer.error;
  if ('status' in answer && answer.status >= 200 && answer.status < 300) {
    return { ...base, status: 'delivered', deliveredAt: at };
  }
  if ('status' in answer && answer.status >= 300 && answer.status < 400) {
    base.lastError = 'redirects are not followed';
  }
  const next = at + retryDelay(attempts, settings, random);
  if (next > delivery.createdAt + settings.retryForMs) return { ...base, status: 'dead' };
  return { ...base, status: 'pending', nextAttemptAt: next };
}

/**
 * Sends the outbox's due deliveries: claims them with a lease (one process sends a delivery at a
 * time; a process that dies leaves it to another once the lease ends), signs and posts each, and
 * settles it. Attempts run side by side, at most `perWebhook` to one subscription, so one slow or
 * dead endpoint never holds up the others. At least once: a process that dies after the receiver
 * answered but before settling sends the same event (same `webhook-id`) again.
 */
export class WebhookDispatcher {
  readonly #o: DispatcherOptions;
  readonly #now: () => number;
  readonly #random: () => number;
  readonly #inFlight = new Map<string, { webhookId: string; done: Promise<void> }>();
  readonly #controller = new AbortController();
  #timer: ReturnType<typeof setInterval> | undefined;
  #claiming = false;
  #again = false;
  #stopped = false;
  #lastPrune = 0;
  #firstClaim = true;
  readonly #wakeups = new Set<ReturnType<typeof setTimeout>>();

  constructor(options: DispatcherOptions) {
    this.#o = options;
    // Every attempt in flight listens to the one signal that cuts them short on stop.
    setMaxListeners(0, this.#controller.signal);
    this.#now = options.now ?? Date.now;
    this.#random = options.random ?? Math.random;
  }

  start(): void {
    if (this.#timer || this.#stopped) return;
    this.#timer = setInterval(() => this.poke(), this.#o.settings.pollMs);
    this.#timer.unref?.();
    this.poke();
  }

  /** Looks for due deliveries now (a change may have raised some). */
  poke(): void {
    if (this.#stopped) return;
    if (this.#claiming) {
      this.#again = true;
      return;
    }
    this.#claiming = true;
    void this.#claim()
      .catch((error: unknown) => this.#o.onError?.(error))
      .finally(() => {
        this.#claiming = false;
        if (this.#again) {
          this.#again = false;
          this.poke();
        }
      });
  }

  /** Resolves when no attempt is in flight (for tests and for a clean stop). */
  async idle(): Promise<void> {
    while (this.#inFlight.size > 0 || this.#claiming) {
      await Promise.all([...this.#inFlight.values()].map((f) => f.done));
      if (this.#claiming) await new Promise((resolve) => setTimeout(resolve, 5));
    }
  }

  /** Stops claiming, cuts attempts in flight short and hands their deliveries back. */
  async stop(): Promise<void> {
    if (this.#stopped) return;
    this.#stopped = true;
    if (this.#timer) clearInterval(this.#timer);
    for (const wakeup of this.#wakeups) clearTimeout(wakeup);
    this.#controller.abort();
    await Promise.all([...this.#inFlight.values()].map((f) => f.done));
  }

  async #claim(): Promise<void> {
    const { settings } = this.#o;
    const now = this.#now();
    if (now - this.#lastPrune > 60 * 60_000) {
      this.#lastPrune = now;
      await this.#o.outbox.pruneDeliveries(now - settings.keepForMs);
    }
    const room = settings.concurrency - this.#inFlight.size;
    if (room <= 0) return;
    const perHook = new Map<string, number>();
    for (const { webhookId } of this.#inFlight.values())
      perHook.set(webhookId, (perHook.get(webhookId) ?? 0) + 1);
    const busy = [...perHook].filter(([, n]) => n >= settings.perWebhook).map(([id]) => id);
    const due = await this.#o.outbox.claimDeliveries({
      owner: this.#o.owner,
      now,
      leaseUntil: now + settings.timeoutMs + 10_000,
      limit: room,
      excludeWebhooks: busy,
      perWebhook: settings.perWebhook,
      inFlight: Object.fromEntries(perHook),
      ...(this.#firstClaim && !this.#o.shared ? { includeLeased: true } : {}),
    });
    this.#firstClaim = false;
    for (const delivery of due) {
      if (this.#stopped) {
        await this.#release(delivery);
        continue;
      }
      const done = this.#attempt(delivery)
        .catch((error: unknown) => this.#o.onError?.(error))
        .finally(() => {
          this.#inFlight.delete(delivery.id);
          this.poke();
        });
      this.#inFlight.set(delivery.id, { webhookId: delivery.webhookId, done });
    }
  }

  async #attempt(delivery: StoredDelivery): Promise<void> {
    const hook = await this.#o.outbox.getWebhook(delivery.accountId, delivery.webhookId);
    // Deleted meanwhile: its deliveries went with it; nothing to send or settle.
    if (!hook) return;
    const sentAt = this.#now();
    const answer = await this.#o.sender.send(
      {
        url: hook.url,
        headers: {
          ...signedHeaders(
            secretsOf(hook, sentAt),
            delivery.eventId,
            Math.floor(sentAt / 1000),
            delivery.body,
          ),
          'user-agent': 'docex-webhooks/1',
        },
        body: delivery.body,
        timeoutMs: this.#o.settings.timeoutMs,
        allowPrivateTargets: this.#o.allowPrivateTargets,
      },
      this.#controller.signal,
    );
    if (this.#controller.signal.aborted) {
      await this.#release(delivery);
      return;
    }
    const settled = settle(delivery, answer, this.#now(), this.#o.settings, this.#random());
    if (!(await this.#o.outbox.settleDelivery(settled, delivery.version))) return;
    this.#o.onSettled?.(settled);
    if (settled.status === 'pending') this.#wakeAt(settled.nextAttemptAt);
  }

  /** Hands a claimed delivery back unchanged but for its lease (the engine is closing). */
  async #release(delivery: StoredDelivery): Promise<void> {
    await this.#o.outbox
      .settleDelivery(
        { ...delivery, leaseOwner: null, leaseUntil: 0, version: delivery.version + 1 },
        delivery.version,
      )
      .catch(() => undefined);
  }

  /** A retry due before the next poll is looked for when it is due. */
  #wakeAt(at: number): void {
    const delay = at - this.#now();
    if (this.#stopped || delay >= this.#o.settings.pollMs) return;
    const wakeup = setTimeout(
      () => {
        this.#wakeups.delete(wakeup);
        this.poke();
      },
      Math.max(0, delay),
    );
    wakeup.unref?.();
    this.#wakeups.add(wakeup);
  }
}

/** The secrets an attempt is signed with: the current one, and the one before a rotation while it lasts. */
function secretsOf(hook: StoredWebhook, now: number): string[] {
  return hook.previousSecret && (hook.previousSecretUntil ?? 0) > now
    ? [hook.secret, hook.previousSecret]
    : [hook.secret];
}
