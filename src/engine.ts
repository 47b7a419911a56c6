import type { Engine, EngineOptions } from './engine-types.js';
import { accountsApi } from './engine/accounts-api.js';
import { registerWorkflows } from './engine/builtin-workflows.js';
import { createContext } from './engine/context.js';
import { documentsApi } from './engine/documents-api.js';
import { guarded } from './engine/guarded.js';
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
