import { DocexError, toDocexError } from '../core/errors.js';
import type { StoredJob, StoredResult } from '../core/jobs.js';
import { JobQueue } from '../queue/job-queue.js';
import { figuresOfJob, utcDay } from '../usage/quotas.js';
import { jobEvents } from '../webhooks/events.js';
import type { WorkflowDefinition, WorkflowEngine } from '../workflows/types.js';
import type { EngineContext } from './context.js';

/**
 * The engine's job queue: runs each job's workflow with the engine the workflow may call, and turns
 * every change of a job into the engine's events, its usage, its webhooks and the wake-up of the
 * result requests waiting on its file.
 */
export function createJobQueue(ctx: EngineContext, workflowEngine: () => WorkflowEngine): JobQueue {
  const { persistence, registry, settings, emit } = ctx;
  const workflowOf = (job: StoredJob): WorkflowDefinition | undefined =>
    registry.has(job.record.workflow_id) ? registry.get(job.record.workflow_id) : undefined;
  return new JobQueue({
    persistence,
    owner: ctx.owner,
    concurrency: settings.jobs.concurrency,
    accountConcurrency: settings.jobs.accountConcurrency,
    queueConcurrency: settings.jobs.queueConcurrency,
    maxQueued: settings.jobs.maxQueued,
    leaseMs: settings.jobs.leaseMs,
    pollMs: settings.jobs.pollMs,
    retry: settings.jobs.retry,
    timeoutOf: (job) => workflowOf(job)?.timeoutMs ?? settings.jobs.timeoutMs,
    maxAttemptsOf: (job) => workflowOf(job)?.maxAttempts ?? settings.jobs.retry.maxAttempts,
    raiseOf: (job) => jobEvents(job, ctx.eventClock),
    async execute(job, signal) {
      const definition = registry.get(job.record.workflow_id);
      const output = await definition.run({
        inputs: structuredClone(job.record.inputs),
        job: structuredClone(job.record),
        accountId: job.accountId,
        fileId: job.record.file_id,
        signal,
        engine: workflowEngine(),
      });
      return output ?? {};
    },
    onChange(job: StoredJob, result?: StoredResult) {
      emit('job', { accountId: job.accountId, job: structuredClone(job.record) });
      // Only the process that ended a job sees this change: its usage is added once.
      const status = job.record.status;
      if (status === 'succeeded' || status === 'failed') {
        const figures = figuresOfJob(status, job.record.usage);
        ctx.track(persistence.addUsage(job.accountId, utcDay(ctx.now()), figures), 'Usage', job.record.id);
      }
      // An INTERNAL failure is a fault of the service: its cause goes to the operator (never to the client).
      if (job.record.status === 'failed' && job.cause) {
        const cause = Object.assign(new Error(job.cause.message), job.cause);
        emit('error', {
          jobId: job.record.id,
          error: new DocexError('INTERNAL', `Job ${job.record.id} failed: ${job.cause.message}`, { cause }),
        });
      }
      if (result) {
        emit('result', {
          accountId: job.accountId,
          fileId: result.fileId,
          jobId: result.jobId,
          workflowId: result.workflowId,
        });
      }
      if (job.record.file_id) ctx.signals.notify(fileKey(job.accountId, job.record.file_id));
      if (job.record.status !== 'new' && job.record.status !== 'running') ctx.dispatcher?.poke();
    },
    onError(error, job) {
      emit('error', {
        jobId: job?.record.id ?? '',
        error: toDocexError(error, 'INTERNAL', 'A job change could not be stored.'),
      });
    },
  });
}

/** The key result requests wait on for a file. */
export const fileKey = (accountId: string, fileId: string): string => `${accountId}\u0000${fileId}`;
