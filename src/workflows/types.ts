import type { AccountSettings } from '../core/accounts.js';
import type { JobRecord } from '../core/jobs.js';
import type { FileRecord, TokenLayer } from '../core/types.js';
import type { OcrMode } from '../documents/ingest.js';
import type { ExtractionResult, ResultField } from '../extraction/types.js';
import type { ResolvedSelection } from '../products/catalogue.js';

/**
 * What of the engine a workflow may call (the engine itself is passed: a host's workflow may call
 * any of its methods, typed by `WorkflowDefinition<Engine>`). Declared here, not imported, so that
 * workflows never depend on the engine that runs them.
 */
export interface WorkflowEngine {
  ingest(fileId: string, options: { accountId: string; ocr?: OcrMode; force?: boolean }): Promise<TokenLayer>;
  extract(
    fileId: string,
    productIds: string[],
    options: { accountId: string; verbose?: boolean },
  ): Promise<ExtractionResult>;
  resolveProducts(productIds: string[], options: { accountId: string }): ResolvedSelection;
  getFile(fileId: string, options: { accountId: string }): Promise<FileRecord>;
  readFile(fileId: string, options: { accountId: string }): Promise<Uint8Array>;
  getAccount(accountId: string): AccountSettings;
  upload(
    input: Uint8Array,
    options: {
      accountId: string;
      fileId: string;
      enforcePageLimit: boolean;
      parent: NonNullable<FileRecord['parent']>;
      flow?: FileRecord['flow'];
      name?: string;
    },
  ): Promise<FileRecord>;
}

/** What a workflow's `run` receives. */
export interface WorkflowContext<E extends WorkflowEngine = WorkflowEngine> {
  /** The inputs as validated against the workflow's schema. */
  inputs: Record<string, unknown>;
  /** The job record as it is while running. */
  job: JobRecord;
  accountId: string;
  /** `inputs.file_id`, checked to be a file of the account, or null. */
  fileId: string | null;
  /** Aborted when the job times out or the engine shuts down: stop early when you can. */
  signal: AbortSignal;
  engine: E;
}

/** What a run leaves: fields for the file's result (verbose form is fine) and usage figures. */
export interface WorkflowOutput {
  fields?: ResultField[];
  usage?: Record<string, unknown>;
}

/** The parameters of a v1 upload, for workflows that can be chosen by `workflowId` there. */
export interface V1Invocation {
  fileId: string;
  /** Products and fieldsets the upload asked for, as given. */
  productIds: string[];
  /** The fieldset ids (`svc.invoice`) those select. */
  fieldsets: string[];
  /** `workflowOptions`, parsed (undefined when absent). */
  workflowOptions: unknown;
}

export interface WorkflowDefinition<E extends WorkflowEngine = WorkflowEngine> {
  /** The id used to invoke it (`acme.reconcile`): letters, digits, `.`, `_`, `-`. */
  id: string;
  /** JSON Schema of `inputs` (validated with Ajv, strict, every problem reported). */
  inputsSchema: object;
  run(context: WorkflowContext<E>): Promise<WorkflowOutput | void>;
  /** Checks done at invocation, before anything is queued (e.g. products the account may use). */
  accept?(inputs: Record<string, unknown>, context: { accountId: string; engine: E }): void | Promise<void>;
  /** How a v1 upload naming this workflow in `workflowId` maps to inputs; absent: not offered in v1. */
  fromV1?(invocation: V1Invocation): Record<string, unknown>;
  /** Queue whose concurrency limit applies (engine option `queues`). Default `default`. */
  queue?: string;
  /** Time limit of one run. Default: the engine's `jobs.timeoutMs`. */
  timeoutMs?: number;
  /** Runs at most (first included) when runs fail with a transient error. Default: the engine's. */
  maxAttempts?: number;
}
