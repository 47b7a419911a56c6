import type { WebhookOptions } from '../engine-types.js';
import { DEFAULT_DISPATCH, type DispatchSettings } from './dispatcher.js';

export interface WebhookSettings {
  allowPrivateTargets: boolean;
  deliver: boolean;
  dispatch: DispatchSettings;
  maxPerAccount: number;
  rotationOverlapMs: number;
}

function atLeast(value: number | undefined, min: number, fallback: number): number {
  return value !== undefined && Number.isFinite(value) && value >= min ? Math.floor(value) : fallback;
}

/** The engine's `webhooks` options with their defaults. */
export function webhookSettings(options: WebhookOptions = {}): WebhookSettings {
  const d = DEFAULT_DISPATCH;
  return {
    allowPrivateTargets: options.allowPrivateTargets === true,
    deliver: options.deliver !== false,
    dispatch: {
      timeoutMs: atLeast(options.timeoutMs, 1, d.timeoutMs),
      baseDelayMs: atLeast(options.retry?.baseDelayMs, 0, d.baseDelayMs),
      maxDelayMs: atLeast(options.retry?.maxDelayMs, 0, d.maxDelayMs),
      retryForMs: atLeast(options.retry?.retryForMs, 0, d.retryForMs),
      pollMs: atLeast(options.pollMs, 1, d.pollMs),
      concurrency: atLeast(options.concurrency, 1, d.concurrency),
      perWebhook: atLeast(options.perWebhook, 1, d.perWebhook),
      keepForMs: d.keepForMs,
    },
    maxPerAccount: atLeast(options.maxPerAccount, 1, 25),
    rotationOverlapMs: atLeast(options.rotationOverlapMs, 0, 24 * 60 * 60_000),
  };
}
