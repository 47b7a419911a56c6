import type { ErrorCode, ErrorDetail } from './errors.js';
import type { ResultField } from '../extraction/types.js';

/**
 * Status of a job: `new` (queued, also while it waits for a retry), `running`, then `succeeded` or
 * `failed`; `cancelled` when it was cancelled while still queued.
 */
export type JobStatus = 'new' | 'running' | 'succeeded' | 'failed' | 'cancelled';

export const PENDING_STATUSES: readonly JobStatus[] = ['new', 'running'];

/** Error of a failed job: the same stable code and message a direct call would have thrown. */
export interface JobError {
  code: ErrorCode;
  message: string;
  details?: ErrorDetail[];
}

/**
 * The job record of the interface (`job` in the answer of a workflow invocation), field by field.
 * `error` is present only on a failed job; `usage` is null until the job succeeded.
 */
export interface JobRecord {
  id: string;
  company_id: string;
  /** ISO 8601 with microseconds and no zone suffix (UTC). */
  created: string;
  workflow_id: string;
  inputs: Record<string, unknown>;
  settings: Record<string, unknown>;
  usage: Record<string, unknown> | null;
  file_id: string | null;
  status: JobStatus;
  /** Starts at 1 and is bumped on every change of the record. */
  version: number;
  error?: JobError;
}

/** A job as persisted: the record plus what the queue needs to run it, retry it and recover it. */
export interface StoredJob {
  record: JobRecord;
  accountId: string;
  messageId: string;
  /** Name of the queue whose concurrency limit applies. */
  queue: string;
  /** Runs started so far (a run cut short by a crash counts). */
  attempts: number;
  /** Epoch ms before which the job is not started (retry backoff). */
  runAfter: number;
  /** Engine process that holds the job while it runs, and until when (epoch ms); null/0 otherwise. */
  leaseOwner: string | null;
  leaseUntil: number;
  /**
   * For operators: what an INTERNAL failure came from (the thrown error's name, message and stack).
   * Kept with the job, never in the job record a client reads.
   */
  cause?: { name: string; message: string; stack?: string };
}

/** What a finished job left for the file's result: fields (verbose form) of one run. */
export interface StoredResult {
  jobId: string;
  accountId: string;
  fileId: string;
  workflowId: string;
  /** `created` of the job: results merge by it, newest invocation last. */
  jobCreated: string;
  /** ISO 8601 UTC with milliseconds. */
  timestamp: string;
  fields: ResultField[];
}

/** A review task as persisted: indexed columns plus the task itself as JSON. */
export interface StoredTask {
  id: string;
  accountId: string;
  fileId: string;
  status: 'open' | 'completed';
  /** Bumped on every change (completion is a compare-and-set on it). */
  version: number;
  /** ISO 8601 UTC with milliseconds. */
  createdAt: string;
  data: Record<string, unknown>;
}

/** An API client of an account (OAuth 2.0 client credentials): the secret is kept only as a hash. */
export interface StoredClient {
  clientId: string;
  accountId: string;
  /** `scrypt$<N>$<salt base64url>$<hash base64url>`. */
  secretHash: string;
  /** ISO 8601 UTC with milliseconds. */
  createdAt: string;
}
