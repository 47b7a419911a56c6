import { toDocexError } from './core/errors.js';
import type { Engine, EngineOptions } from './engine-types.js';
import { accountsApi } from './engine/accounts-api.js';
import { registerWorkflows } from './engine/builtin-workflows.js';
import { createContext } from './engine/context.js';
import { documentsApi } from './engine/documents-api.js';
import { createJobQueue } from './engine/job-queue.js';
import { jobsApi } from './engine/jobs-api.js';
import { startEngine } from './engine/lifecycle.js';
import { operationsApi } from './engine/operations-api.js';
import { pageImageApi } from './engine/page-images.js';
import { resultsApi } from './engine/results-api.js';
import { tasksApi } from './engine/tasks-api.js';
import { webhooksApi } from './engine/webhooks-api.js';

/**
 * An engine: one context (settings resolved once, stores, accounts, lazy adapters, events) shared by
 * parts that each own a concern (src/engine/). This function only wires them; it holds no behaviour.
 */
export function createEngine(options: EngineOptions = {}): Engine {
  const ctx = createContext(options);
  // Workflows run with the engine they were given to (a host's workflow may call any of its methods).
  const workflowEngine = (): Engine => self;
  const queue = createJobQueue(ctx, workflowEngine);
  registerWorkflows(ctx);
  const lifecycle = startEngine(ctx, queue);

  const documents = documentsApi(ctx);
  const engine: Engine = {
    namespace: ctx.namespace,
    catalogue: ctx.catalogue,
    ready: lifecycle.ready,
    resumeJobs: lifecycle.resumeJobs,
    close: lifecycle.close,
    defineFieldset: (definition) => ctx.catalogue.defineFieldset(definition),
    defineProduct: (definition) => ctx.catalogue.defineProduct(definition),
    ...documents,
    ...pageImageApi(ctx, documents.readFile),
    ...jobsApi(ctx, { queue, upload: documents.upload, workflowEngine, ready: () => lifecycle.ready }),
    ...resultsApi(ctx),
    ...tasksApi(ctx, documents.ingest),
    ...accountsApi(ctx),
    ...webhooksApi(ctx),
    ...operationsApi(ctx, queue),
  };
  const self = guarded(engine);
  return self;
}

/**
 * The engine with every method's failure a DocexError: a store or an adapter that fails with a plain
 * Error (a lost connection, a worker that would not start) is reported as INTERNAL with its cause,
 * so a host always gets a stable code and never a stack trace to show.
 */
function guarded(engine: Engine): Engine {
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
