import { DocexError } from '../core/errors.js';

/**
 * Bounds costly work shared by every request (scrypt runs on the libuv thread pool, which file reads
 * and DNS also use): at most `maxRunning` at once, `maxWaiting` more waiting their turn, and beyond
 * that a refusal (429 TOO_MANY_REQUESTS, retry in a second) instead of an ever longer queue.
 */
export class WorkGate {
  readonly #maxRunning: number;
  readonly #maxWaiting: number;
  #running = 0;
  readonly #waiting: Array<() => void> = [];

  constructor(maxRunning: number, maxWaiting: number) {
    this.#maxRunning = Math.max(1, maxRunning);
    this.#maxWaiting = Math.max(0, maxWaiting);
  }

  get running(): number {
    return this.#running;
  }

  get waiting(): number {
    return this.#waiting.length;
  }

  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.#running >= this.#maxRunning) {
      if (this.#waiting.length >= this.#maxWaiting) {
        throw new DocexError('TOO_MANY_REQUESTS', 'Too many sign-ins at once; try again in a second.', {
          retryAfterSeconds: 1,
        });
      }
      await new Promise<void>((resolve) => this.#waiting.push(resolve));
    } else {
      this.#running++;
    }
    try {
      return await work();
    } finally {
      const next = this.#waiting.shift();
      // The slot passes to the next in line, or is given back.
      if (next) next();
      else this.#running--;
    }
  }
}
