import { DocexError } from '../core/errors.js';
import type { StoredResult } from '../core/jobs.js';
import type { FileRecord } from '../core/types.js';
import type { FieldResult, ResultField } from '../extraction/types.js';
import type { EnginePersistence } from '../ports/engine-persistence.js';
import { mergeResults } from './merge-results.js';
import { correctionRun } from '../tasks/review-tasks.js';
import { fileOutcome } from './file-outcome.js';

/** The result record of a file. */
export type ResultRecord =
  | { fileId: string; status: 'FINALISED'; results: { timestamp: string; fields: ResultField[] } }
  | { fileId: string; status: 'IN PROGRESS' };

/**
 * The answer for a file now: the result, or none while work is pending (and whether review tasks are
 * what it waits for). Throws the error of the newest job when it failed, NO_RESULT when nothing ran.
 */
export async function readResult(
  persistence: EnginePersistence,
  accountId: string,
  record: FileRecord,
  options: { verbose: boolean; namespace: string },
): Promise<{ answer?: ResultRecord; openTasks: boolean }> {
  const jobs = await persistence.listJobs({ accountId, fileId: record.fileId });
  const tasks = await persistence.listTasks({ accountId, fileId: record.fileId });
  const outcome = fileOutcome(jobs, tasks);
  if (outcome.state === 'pending') return { openTasks: outcome.openTasks };
  if (outcome.state === 'none') {
    throw new DocexError(
      'NO_RESULT',
      `No workflow has run on file ${record.fileId}; invoke one (${options.namespace}.extract) first.`,
    );
  }
  const newest = outcome.newest;
  if (outcome.state === 'failed' && newest.record.error) {
    const { code, message, details } = newest.record.error;
    throw new DocexError(code, message, details ? { details } : {});
  }
  // Reviewers' corrections merge as runs just after their validation job: a later run replaces them.
  const runs: Array<Pick<StoredResult, 'jobCreated' | 'timestamp' | 'fields'>> = [
    ...(await persistence.listResults(accountId, record.fileId)),
    ...tasks.flatMap((t) => correctionRun(t) ?? []),
  ].sort((a, b) => (a.jobCreated < b.jobCreated ? -1 : a.jobCreated > b.jobCreated ? 1 : 0));
  const merged = mergeResults(runs);
  return {
    openTasks: false,
    answer: {
      fileId: record.fileId,
      status: 'FINALISED',
      results: {
        timestamp: merged.timestamp || newest.record.created.slice(0, 23) + 'Z',
        fields: options.verbose ? merged.fields : merged.fields.map(plainField),
      },
    },
  };
}

/** Exactly the spec's field object: name, value, confidence, boundingBox (a split field: no confidence). */
export function plainField(field: FieldResult): FieldResult;
export function plainField(field: ResultField): ResultField;
export function plainField(field: ResultField): ResultField {
  if (!('confidence' in field)) return { name: field.name, value: field.value, boundingBox: null };
  return {
    name: field.name,
    value: field.value,
    confidence: field.confidence,
    boundingBox: field.boundingBox,
  };
}
