import type { StoredJob, StoredTask } from '../core/jobs.js';

/**
 * Where a file's work stands, from its jobs (oldest first) and review tasks: the one reading of
 * "FINALISED" shared by result requests (read-result.ts) and the `file.finalised` webhook event.
 * - `pending`: a job is queued or running, or a review task is open;
 * - `none`: no job ran (or all were cancelled);
 * - `failed`: the newest job that was not cancelled failed;
 * - `finalised`: it succeeded, and the result is the merge of the file's runs.
 */
export type FileOutcome =
  | { state: 'pending'; openTasks: boolean }
  | { state: 'none' }
  | { state: 'failed' | 'finalised'; newest: StoredJob };

export function fileOutcome(jobs: readonly StoredJob[], tasks: readonly StoredTask[]): FileOutcome {
  const openTasks = tasks.some((t) => t.status === 'open');
  if (openTasks || jobs.some((j) => j.record.status === 'new' || j.record.status === 'running')) {
    return { state: 'pending', openTasks };
  }
  const newest = jobs.filter((j) => j.record.status !== 'cancelled').at(-1);
  if (!newest) return { state: 'none' };
  return { state: newest.record.status === 'failed' ? 'failed' : 'finalised', newest };
}
