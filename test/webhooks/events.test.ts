import { describe, expect, it } from 'vitest';

import type { StoredTask } from '../../src/core/jobs.js';
import type { FileState } from '../../src/ports/webhook-outbox.js';
import { eventId, jobEvents, taskEvents } from '../../src/webhooks/events.js';
import { makeJob } from '../ports/engine-persistence.contract.js';

const at = 1_800_000_000_000;
const now = () => at;

function state(fileId: string | null, jobs: FileState['jobs'], tasks: StoredTask[] = []): FileState {
  return { accountId: 'account-a', fileId, jobs, tasks };
}

function task(fileId: string, status: StoredTask['status']): StoredTask {
  return {
    id: crypto.randomUUID(),
    accountId: 'account-a',
    fileId,
    status,
    version: 1,
    createdAt: '2026-11-23T10:00:00.000Z',
    data: { jobId: 'job-1' },
  };
}

const bodies = (events: { body: string }[]) =>
  events.map((e) => JSON.parse(e.body) as Record<string, unknown>);

describe('webhook events raised by changes', () => {
  it('a succeeded job that leaves nothing pending finalises its file, keyed by that job', () => {
    const fileId = crypto.randomUUID();
    const done = makeJob({ status: 'succeeded', fileId });
    const events = jobEvents(done, now)!(state(fileId, [done]));
    expect(bodies(events)).toEqual([
      {
        type: 'file.finalised',
        timestamp: new Date(at).toISOString(),
        data: { fileId, jobId: done.record.id, status: 'FINALISED' },
      },
    ]);
    expect(events[0]!.id).toBe(eventId('account-a', 'file.finalised', done.record.id));
    expect(events[0]!.id).toMatch(/^msg_[0-9a-f]{32}$/);
    expect(events[0]!.raisedAt).toBe(at);
  });

  it('no finalisation while another job is pending or a task is open', () => {
    const fileId = crypto.randomUUID();
    const done = makeJob({ status: 'succeeded', fileId });
    const running = makeJob({ status: 'running', fileId });
    expect(jobEvents(done, now)!(state(fileId, [done, running]))).toEqual([]);
    expect(jobEvents(done, now)!(state(fileId, [done], [task(fileId, 'open')]))).toEqual([]);
  });

  it('a failed job raises job.failed, and no finalisation (its result is the error)', () => {
    const fileId = crypto.randomUUID();
    const failed = makeJob({ status: 'failed', fileId });
    const events = jobEvents(failed, now)!(state(fileId, [failed]));
    expect(bodies(events)).toEqual([
      {
        type: 'job.failed',
        timestamp: new Date(at).toISOString(),
        data: { fileId, jobId: failed.record.id, status: 'failed' },
      },
    ]);
  });

  it('a job without a file fails without a file id; jobs that did not end raise nothing', () => {
    const failed = makeJob({ status: 'failed', fileId: null });
    expect(bodies(jobEvents(failed, now)!(state(null, [failed])))).toEqual([
      expect.objectContaining({ type: 'job.failed', data: expect.objectContaining({ fileId: null }) }),
    ]);
    expect(jobEvents(makeJob({ status: 'running' }), now)).toBeUndefined();
    expect(jobEvents(makeJob({ status: 'new' }), now)).toBeUndefined();
  });

  it('cancelling the last pending job finalises the file when an earlier job succeeded', () => {
    const fileId = crypto.randomUUID();
    const done = makeJob({ status: 'succeeded', fileId });
    const cancelled = makeJob({ status: 'cancelled', fileId });
    const events = jobEvents(cancelled, now)!(state(fileId, [done, cancelled]));
    expect(bodies(events).map((b) => b.type)).toEqual(['file.finalised']);
    expect(events[0]!.id).toBe(eventId('account-a', 'file.finalised', done.record.id));
  });

  it('tasks: created, completed, and the last completion finalises the file once per invocation', () => {
    const fileId = crypto.randomUUID();
    const validation = makeJob({ status: 'succeeded', fileId });
    const first = task(fileId, 'completed');
    const second = task(fileId, 'open');
    expect(bodies(taskEvents(second, 'created', now)(state(fileId, [validation], [first, second])))).toEqual([
      {
        type: 'task.created',
        timestamp: new Date(at).toISOString(),
        data: { fileId, jobId: 'job-1', taskId: second.id, status: 'open' },
      },
    ]);
    // The first of two tasks completed: the other is still open.
    expect(
      bodies(taskEvents(first, 'completed', now)(state(fileId, [validation], [first, second]))).map(
        (b) => b.type,
      ),
    ).toEqual(['task.completed']);
    const closed = { ...second, status: 'completed' as const };
    const last = taskEvents(closed, 'completed', now)(state(fileId, [validation], [first, closed]));
    expect(bodies(last).map((b) => b.type)).toEqual(['task.completed', 'file.finalised']);
    // The same finalisation as the validation job's own would have been: one event id.
    expect(last[1]!.id).toBe(eventId('account-a', 'file.finalised', validation.record.id));
  });

  it('event ids differ by account, type and key, and never carry document content', () => {
    expect(eventId('a', 'job.failed', 'k')).not.toBe(eventId('b', 'job.failed', 'k'));
    expect(eventId('a', 'job.failed', 'k')).not.toBe(eventId('a', 'file.finalised', 'k'));
    const fileId = crypto.randomUUID();
    const done = makeJob({ status: 'succeeded', fileId });
    const [event] = jobEvents(done, now)!(state(fileId, [done]));
    expect(Object.keys(JSON.parse(event!.body).data as object).sort()).toEqual(['fileId', 'jobId', 'status']);
  });
});
