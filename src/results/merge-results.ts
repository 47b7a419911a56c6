import type { StoredResult } from '../core/jobs.js';
import type { ResultField } from '../extraction/types.js';

/**
 * The fields of a file's result from the results of its runs, oldest invocation first: fields merge
 * by name and the newest run wins (re-extracting with another product version replaces the fields
 * both have and keeps the others). A field keeps the place of its first appearance.
 */
export function mergeResults(results: ReadonlyArray<Pick<StoredResult, 'timestamp' | 'fields'>>): {
  timestamp: string;
  fields: ResultField[];
} {
  const byName = new Map<string, ResultField>();
  let timestamp = '';
  for (const result of results) {
    for (const field of result.fields) byName.set(field.name, field);
    if (result.timestamp > timestamp) timestamp = result.timestamp;
  }
  return { timestamp, fields: [...byName.values()] };
}
