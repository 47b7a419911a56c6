import { createHash } from 'node:crypto';

import type { StoredJob, StoredTask } from '../core/jobs.js';
import { fileOutcome } from '../results/file-outcome.js';
import type { FileState, OutboxEvent, RaiseEvents, WebhookEventType } from '../ports/webhook-outbox.js';

/** What a webhook's body says about the event: ids and a status, never document content. */
export interface WebhookEventData {
  fileId: string | null;
  jobId?: string;
  taskId?: string;
  status: string;
}

/** The body of every delivery: `{type, timestamp, data}`. */
export interface WebhookBody {
  type: WebhookEventType;
  /** ISO 8601 UTC: when the event was raised. */
  timestamp: string;
  data: WebhookEventData;
}

/**
 * The id of an event: the same (account, type, key) always gives the same id, so a change seen twice
 * (two processes, a retry after a crash) raises one event, and receivers can use it to drop repeats.
 */
export function eventId(accountId: string, type: WebhookEventType, key: string): string {
  const digest = createHash('sha256').update(`${accountId}\u0000${type}\u0000${key}`).digest('hex');
  return `msg_${digest.slice(0, 32)}`;
}

function event(
  accountId: string,
  type: WebhookEventType,
  key: string,
  data: WebhookEventData,
  now: number,
): OutboxEvent {
  const body: WebhookBody = { type, timestamp: new Date(now).toISOString(), data };
  return { id: eventId(accountId, type, key), accountId, type, body: JSON.stringify(body), raisedAt: now };
}

/**
 * `file.finalised` when the file's work has come to a result (no job pending, no task open, the newest
 * job succeeded). Keyed by that newest job: the file is finalised once per invocation that ends its
 * work, whichever change (the last job, the last task) got it there.
 */
function finalisation(file: FileState, now: number): OutboxEvent[] {
  if (file.fileId === null) return [];
  const outcome = fileOutcome(file.jobs, file.tasks);
  if (outcome.state !== 'finalised') return [];
  const jobId = outcome.newest.record.id;
  return [
    event(file.accountId, 'file.finalised', jobId, { fileId: file.fileId, jobId, status: 'FINALISED' }, now),
  ];
}

/** Events of a job's change to `job` (finished, failed, cancelled): `job.failed`, `file.finalised`. */
export function jobEvents(job: StoredJob, now: () => number): RaiseEvents | undefined {
  const status = job.record.status;
  if (status !== 'succeeded' && status !== 'failed' && status !== 'cancelled') return undefined;
  return (file) => {
    const at = now();
    const raised: OutboxEvent[] = [];
    if (status === 'failed') {
      raised.push(
        event(
          job.accountId,
          'job.failed',
          job.record.id,
          { fileId: job.record.file_id, jobId: job.record.id, status: 'failed' },
          at,
        ),
      );
    }
    return [...raised, ...finalisation(file, at)];
  };
}

/** Events of a task stored as `task`: `task.created` when it is new, `task.completed` (and perhaps `file.finalised`) when it was completed. */
export function taskEvents(
  task: StoredTask,
  change: 'created' | 'completed',
  now: () => number,
): RaiseEvents {
  return (file) => {
    const at = now();
    const jobId = typeof task.data.jobId === 'string' ? { jobId: task.data.jobId } : {};
    const data = { fileId: task.fileId, ...jobId, taskId: task.id, status: task.status };
    if (change === 'created') return [event(task.accountId, 'task.created', task.id, data, at)];
    return [event(task.accountId, 'task.completed', task.id, data, at), ...finalisation(file, at)];
  };
}
