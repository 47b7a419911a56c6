/**
 * Wake-ups by key (an account's file): a waiter arms before it reads the state it waits on, so a
 * change between the read and the wait is never missed; `notify` wakes every armed waiter of the key.
 */
export class FileSignals {
  readonly #waiters = new Map<string, Set<() => void>>();

  /** Arms a waiter; `wait(ms)` resolves at the next notify of `key` (since arming) or after `ms`. */
  arm(key: string): { wait(ms: number): Promise<void>; disarm(): void } {
    let fired = false;
    let wake: (() => void) | undefined;
    const listener = (): void => {
      fired = true;
      wake?.();
    };
    let set = this.#waiters.get(key);
    if (!set) {
      set = new Set();
      this.#waiters.set(key, set);
    }
    set.add(listener);
    const disarm = (): void => {
      const current = this.#waiters.get(key);
      current?.delete(listener);
      if (current?.size === 0) this.#waiters.delete(key);
    };
    return {
      wait: (ms) =>
        new Promise<void>((resolve) => {
          if (fired) {
            disarm();
            resolve();
            return;
          }
          const timer = setTimeout(finish, ms);
          function finish(): void {
            clearTimeout(timer);
            disarm();
            resolve();
          }
          wake = finish;
        }),
      disarm,
    };
  }

  notify(key: string): void {
    const set = this.#waiters.get(key);
    if (set) for (const listener of [...set]) listener();
  }

  /** Wakes every waiter (at shutdown). */
  notifyAll(): void {
    for (const key of [...this.#waiters.keys()]) this.notify(key);
  }
}
