import type { EngineEvents } from '../engine-types.js';

export type Emit = <E extends keyof EngineEvents>(event: E, payload: EngineEvents[E]) => void;

export interface EngineEventHub {
  emit: Emit;
  on<E extends keyof EngineEvents>(event: E, listener: (payload: EngineEvents[E]) => void): () => void;
}

/** The engine's events: listeners by event; a listener that throws never breaks the caller. */
export function createEventHub(): EngineEventHub {
  const listeners = new Map<keyof EngineEvents, Set<(payload: never) => void>>();
  return {
    emit(event, payload) {
      const set = listeners.get(event);
      // An error nobody listens to is not lost: one line on stderr, as Node reports unhandled errors.
      if (event === 'error' && (!set || set.size === 0)) {
        const { jobId, error } = payload as EngineEvents['error'];
        const cause = error.cause instanceof Error ? ` (${error.cause.message})` : '';
        process.stderr.write(
          `docex: ${error.code}${jobId ? ` in job ${jobId}` : ''}: ${error.message}${cause}\n`,
        );
        return;
      }
      for (const listener of set ?? []) {
        try {
          (listener as (p: typeof payload) => void)(payload);
        } catch {
          // A host's listener that throws must not break the queue.
        }
      }
    },
    on(event, listener) {
      let set = listeners.get(event);
      if (!set) {
        set = new Set();
        listeners.set(event, set);
      }
      set.add(listener as (payload: never) => void);
      return () => {
        set.delete(listener as (payload: never) => void);
      };
    },
  };
}
