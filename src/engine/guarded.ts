import { toDocexError } from '../core/errors.js';
import type { Engine } from '../engine-types.js';

/**
 * The engine with every method's failure a DocexError: a store or an adapter that fails with a plain
 * Error (a lost connection, a worker that would not start) is reported as INTERNAL with its cause,
 * so a host always gets a stable code and never a stack trace to show.
 */
export function guarded(engine: Engine): Engine {
  const wrapped: Record<string, unknown> = {};
  for (const [name, member] of Object.entries(engine)) {
    if (typeof member !== 'function' || name === 'on') {
      wrapped[name] = member;
      continue;
    }
    const method = member as (...args: unknown[]) => unknown;
    wrapped[name] = (...args: unknown[]) => {
      let answer: unknown;
      try {
        answer = method(...args);
      } catch (error) {
        throw toDocexError(error, 'INTERNAL', `Internal error in ${name}.`);
      }
      return answer instanceof Promise
        ? answer.catch((error: unknown) =>
            Promise.reject(toDocexError(error, 'INTERNAL', `Internal error in ${name}.`)),
          )
        : answer;
    };
  }
  return wrapped as unknown as Engine;
}
