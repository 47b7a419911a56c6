import type { EnginePersistence } from '../../src/ports/engine-persistence.js';

/** Calls and summed milliseconds of each persistence method. */
export type PersistenceTimes = Record<string, { calls: number; ms: number }>;

/**
 * The persistence with every method timed. Both adapters do their work synchronously before their
 * promise is returned (Map operations; better-sqlite3 is synchronous), so call-to-return is the
 * whole cost of the call; no extra await is added.
 */
export function timedPersistence(inner: EnginePersistence): {
  persistence: EnginePersistence;
  times: PersistenceTimes;
} {
  const times: PersistenceTimes = {};
  const wrapped: Record<string, unknown> = { shared: inner.shared };
  for (const [name, value] of Object.entries(inner)) {
    if (typeof value !== 'function') continue;
    const method = value as (...args: unknown[]) => unknown;
    const entry = (times[name] = { calls: 0, ms: 0 });
    wrapped[name] = (...args: unknown[]): unknown => {
      const start = performance.now();
      try {
        return method.apply(inner, args);
      } finally {
        entry.ms += performance.now() - start;
        entry.calls++;
      }
    };
  }
  return { persistence: wrapped as unknown as EnginePersistence, times };
}
