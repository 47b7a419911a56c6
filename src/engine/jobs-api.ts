import { randomUUID } from 'node:crypto';
import { DocexError } from '../core/errors.js';
import type { StoredJob } from '../core/jobs.js';
import { assertPlainData } from '../core/plain-data.js';
import type { Engine } from '../engine-types.js';
import { DEFAULT_PRODUCTS } from '../products/builtin.js';
import type { JobQueue } from '../queue/job-queue.js';
import { newJob } from '../queue/new-job.js';
import type { WorkflowEngine } from '../workflows/types.js';
import { parseList, parseWorkflowOptions, v1ProductIds } from '../workflows/v1-upload.js';
import { checkFileId, UUID_LIKE, type EngineContext } from './context.js';
import { INPUTS_LIMITS, METADATA_LIMITS } from './settings.js';

export type JobsApi = Pick<
  Engine,
  | 'uploadV1'
  | 'resolveProducts'
  | 'registerWorkflow'
  | 'workflowIds'
  | 'describeWorkflows'
  | 'invoke'
  | 'getJob'
  | 'getInvocation'
  | 'listJobs'
  | 'cancelJob'
>;

export interface JobsDependencies {
  queue: JobQueue;
  upload: Engine['upload'];
  /** What a workflow's `accept` may call. */
  workflowEngine: () => WorkflowEngine;
  /** Settles when the engine has started (workflows registered, accounts loaded). */
  ready: () => Promise<void>;
}

/** Workflows and their jobs: invocations (v1 uploads included), job records, cancelling. */
export function jobsApi(ctx: EngineContext, deps: JobsDependencies): JobsApi {
  const { registry, persistence, namespace, accounts } = ctx;
  const { queue } = deps;

  async function requireJob(accountId: string, jobId: string): Promise<StoredJob> {
    const job =
      typeof jobId === 'string' && UUID_LIKE.test(jobId)
        ? await persistence.getJob(jobId.toLowerCase())
        : undefined;
    // Another account's job is reported exactly like an unknown one.
    if (!job || job.accountId !== accountId) {
      throw new DocexError('JOB_NOT_FOUND', `No job with id ${String(jobId).slice(0, 64)}.`);
    }
    return job;
  }

  /** Validates and queues a job; `knownFile` skips the file check (the caller just stored it). */
  function queueJob(
    accountId: string,
    workflowId: string,
    inputs: unknown,
    knownFile = false,
  ): { stored: StoredJob; check: () => Promise<void> } {
    const definition = registry.get(workflowId);
    registry.checkInputs(workflowId, inputs);
    const checked = inputs as Record<string, unknown>;
    const check = async (): Promise<void> => {
      if (!knownFile && typeof checked.file_id === 'string') {
        const file = await ctx.requireFile(accountId, checked.file_id);
        await ctx.assertQuota(accountId, file.pageCount);
      } else if (!knownFile) {
        await ctx.assertQuota(accountId, 0);
      }
      await definition.accept?.(checked, { accountId, engine: deps.workflowEngine() });
      queue.assertAccepting();
    };
    const stored = newJob({
      id: randomUUID(),
      messageId: randomUUID(),
      created: ctx.jobClock(),
      accountId,
      account: accounts.get(accountId),
      workflowId,
      inputs: checked,
      queue: definition.queue ?? 'default',
    });
    return { stored, check };
  }

  function v1WorkflowId(id: string | undefined): string {
    // `process` is the original service's name for its default workflow: extraction.
    const given = id?.trim();
    const name = !given || given === 'process' ? 'extract' : given;
    if (registry.has(`${namespace}.${name}`)) return `${namespace}.${name}`;
    if (registry.has(name)) return name;
    throw new DocexError('UNKNOWN_WORKFLOW', `No workflow ${name.slice(0, 128)} for v1 uploads.`, {
      details: [{ path: '/workflowId', message: 'unknown workflow' }],
    });
  }

  return {
    async uploadV1(input, v1) {
      ctx.assertOpen();
      await deps.ready();
      const accountId = ctx.accountOf(v1);
      const chosen = v1ProductIds(v1);
      // None chosen (fieldSets=[]): the account's products when it has a list, else the default ones.
      const productIds =
        chosen.length > 0 ? chosen : [...(accounts.get(accountId).subscriptions ?? DEFAULT_PRODUCTS)];
      const workflowId = v1WorkflowId(v1.workflowId);
      const definition = registry.get(workflowId);
      if (!definition.fromV1) {
        throw new DocexError(
          'INVALID_ARGUMENT',
          `The workflow ${workflowId} cannot be chosen in a v1 upload.`,
          {
            details: [{ path: '/workflowId', message: 'not offered in v1 uploads' }],
          },
        );
      }
      const fileId = randomUUID();
      const fieldsets = ctx.resolveProducts(accountId, productIds).fieldsets.map((f) => f.id);
      const inputs = definition.fromV1({
        fieldsets,
        fileId,
        productIds,
        workflowOptions: parseWorkflowOptions(v1.workflowOptions),
      });
      // Everything that can be refused is refused before the file is stored.
      if (v1.metadata !== undefined) assertPlainData(v1.metadata, METADATA_LIMITS, 'metadata');
      const { stored, check } = queueJob(accountId, workflowId, inputs, true);
      await check();
      const tags = parseList(v1.tags);
      const record = await deps.upload(input, {
        accountId,
        fileId,
        enforcePageLimit: false,
        flow: 'v1',
        ...(v1.name !== undefined ? { name: v1.name } : {}),
        ...(v1.metadata !== undefined ? { metadata: v1.metadata } : {}),
        ...(tags ? { tags } : {}),
        ...(v1.locale ? { locale: v1.locale } : {}),
      });
      try {
        // The pages are known once the file is read: a file that would pass a quota is not kept.
        await ctx.assertQuota(accountId, record.pageCount);
        await queue.submit(stored);
      } catch (error) {
        await ctx.files.delete(accountId, fileId).catch(() => undefined);
        throw error;
      }
      return { fileId: record.fileId, uploadedAt: record.uploadedAt, status: record.status };
    },

    resolveProducts(productIds, opts = {}) {
      return ctx.resolveProducts(ctx.accountOf(opts), productIds);
    },

    registerWorkflow(definition) {
      registry.register(definition);
    },

    workflowIds() {
      return registry.ids();
    },

    describeWorkflows() {
      return registry
        .ids()
        .map((id) => ({ id, inputsSchema: structuredClone(registry.get(id).inputsSchema) }));
    },

    async invoke(workflowId, body, opts = {}) {
      ctx.assertOpen();
      await deps.ready();
      const accountId = ctx.accountOf(opts);
      if (typeof body !== 'object' || body === null || Array.isArray(body)) {
        throw new DocexError('INVALID_INPUTS', 'The request body must be an object {inputs: {...}}.', {
          details: [{ path: '', message: 'must be an object' }],
        });
      }
      // Before the schema check and the copies a job makes (both recurse): bounded depth and size.
      assertPlainData(body.inputs, INPUTS_LIMITS, 'inputs', 'INVALID_INPUTS');
      const { stored, check } = queueJob(accountId, workflowId, body.inputs);
      await check();
      await queue.submit(stored);
      return { job: structuredClone(stored.record), message_id: stored.messageId };
    },

    async getJob(jobId, opts = {}) {
      return structuredClone((await requireJob(ctx.accountOf(opts), jobId)).record);
    },

    async getInvocation(jobId, opts = {}) {
      const stored = await requireJob(ctx.accountOf(opts), jobId);
      return { job: structuredClone(stored.record), message_id: stored.messageId };
    },

    async listJobs(opts = {}) {
      const accountId = ctx.accountOf(opts);
      const query =
        opts.fileId === undefined ? { accountId } : { accountId, fileId: checkFileId(opts.fileId) };
      return (await persistence.listJobs(query)).map((j) => j.record);
    },

    async cancelJob(jobId, opts = {}) {
      const job = await requireJob(ctx.accountOf(opts), jobId);
      return structuredClone((await queue.cancel(job)).record);
    },
  };
}
