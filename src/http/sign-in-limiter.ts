import { DocexError } from '../core/errors.js';
import { errorResponse } from './responses.js';

/**
 * Failed sign-ins counted per client id and per address (the token endpoint and the review page's
 * sign-in): after `maxFailures` within `windowMs` for a client id (`maxFailuresPerAddress` for an
 * address), further attempts under it are refused
 * with 429 until the oldest failure leaves the window, before any secret is checked. A guess therefore
 * costs no scrypt run once refused, and one client's guesses cannot slow down another's sign-in.
 * A success clears the client's count (not the address's). At most `maxKeys` keys are kept (the
 * oldest forgotten first), so a flood of made-up ids cannot grow it without bound.
 */
export interface SignInLimits {
  /** Failures allowed per client id in the window. */
  maxFailures: number;
  /**
   * Failures allowed per address in the window: higher, since many people may share one address (an
   * office, a proxy the host does not say it trusts) and must not lock each other out.
   */
  maxFailuresPerAddress: number;
  windowMs: number;
  maxKeys: number;
  /** Epoch ms. Default Date.now (tests give a clock of their own). */
  now?: () => number;
}

export const DEFAULT_SIGN_IN_LIMITS: SignInLimits = {
  maxFailures: 10,
  maxFailuresPerAddress: 100,
  windowMs: 60_000,
  maxKeys: 10_000,
};

export class SignInLimiter {
  readonly #limits: SignInLimits;
  readonly #now: () => number;
  /** Key -> times of its failures in the window, oldest first (insertion order = least recent key first). */
  readonly #failures = new Map<string, number[]>();

  constructor(limits: Partial<SignInLimits> = {}) {
    this.#limits = { ...DEFAULT_SIGN_IN_LIMITS, ...limits };
    this.#now = limits.now ?? Date.now;
  }

  /** Seconds to wait when any of the keys is over its limit; undefined when an attempt may go ahead. */
  retryAfter(keys: readonly string[]): number | undefined {
    const now = this.#now();
    let wait = 0;
    for (const key of keys) {
      const times = this.#recent(key, now);
      const limit = key.startsWith('address:')
        ? this.#limits.maxFailuresPerAddress
        : this.#limits.maxFailures;
      if (times.length >= limit) {
        wait = Math.max(wait, times[0]! + this.#limits.windowMs - now);
      }
    }
    return wait > 0 ? Math.max(1, Math.ceil(wait / 1000)) : undefined;
  }

  failed(keys: readonly string[]): void {
    const now = this.#now();
    for (const key of keys) {
      const times = this.#recent(key, now);
      times.push(now);
      this.#failures.delete(key);
      this.#failures.set(key, times);
    }
    while (this.#failures.size > this.#limits.maxKeys) {
      const oldest = this.#failures.keys().next().value as string;
      this.#failures.delete(oldest);
    }
  }

  succeeded(key: string): void {
    this.#failures.delete(key);
  }

  #recent(key: string, now: number): number[] {
    const times = (this.#failures.get(key) ?? []).filter((t) => t > now - this.#limits.windowMs);
    if (times.length === 0) this.#failures.delete(key);
    return times;
  }
}

/**
 * The keys of one attempt: who signs in (a client id, or `reviewer:<login>` on the review page), and
 * the address when the host told it.
 */
export function signInKeys(who: string | null | undefined, address: string | undefined): string[] {
  return [...(who ? [`client:${who.slice(0, 256)}`] : []), ...(address ? [`address:${address}`] : [])];
}

/** 429 with `retry-after`: too many failed sign-ins under this client id or address. */
export function tooManySignIns(seconds: number): Response {
  const answer = errorResponse(
    new DocexError('TOO_MANY_REQUESTS', `Too many failed sign-ins; try again in ${seconds} s.`),
  );
  answer.headers.set('retry-after', String(seconds));
  return answer;
}
