import { randomUUID } from 'node:crypto';
import { AccountDirectory, type AccountLimits, type AccountSettings } from './core/accounts.js';
import { DocexError, toDocexError } from './core/errors.js';
import { hashClientSecret, newClientSecret, verifyClientSecret } from './auth/client-secrets.js';
import type { JobRecord, StoredJob, StoredResult } from './core/jobs.js';
import type { FileRecord, MediaType, TokenLayer } from './core/types.js';
import { ingestDocument, type OcrMode } from './documents/ingest.js';
import { readWithLimit, type UploadInput } from './documents/read-limited.js';
import { sniffMediaType } from './documents/sniff.js';
import { createMemoryFileStore } from './adapters/stores/memory-file-store.js';
import { createMemoryPersistence } from './adapters/persistence/memory-persistence.js';
import {
  defaultImageBackend,
  defaultOcrEngine,
  defaultPdfPageCopier,
  defaultPdfReader,
} from './default-adapters.js';
import type { TesseractOcrOptions } from './adapters/ocr/tesseract-ocr.js';
import { extractFields } from './extraction/extract.js';
import type { ExtractionResult, FieldResult, ResultField } from './extraction/types.js';
import { createCatalogue, type Catalogue, type ResolvedSelection } from './products/catalogue.js';
import type { FieldKind, FieldsetDefinition, ProductDefinition } from './products/types.js';
import type { FileStore } from './ports/file-store.js';
import type { ImageBackend } from './ports/image-backend.js';
import type { OcrEngine } from './ports/ocr-engine.js';
import type { PdfReader } from './ports/pdf-reader.js';
import type { PdfPageCopier } from './ports/pdf-page-copier.js';
import { splitWorkflow } from './workflows/split.js';
import type { JobPersistence } from './ports/job-persistence.js';
import { createJobClock } from './queue/job-clock.js';
import { FileSignals } from './queue/file-signals.js';
import { JobQueue, type RetryPolicy } from './queue/job-queue.js';
import { mergeResults } from './queue/merge-results.js';
import { newJob } from './queue/new-job.js';
import { extractWorkflow, ingestWorkflow } from './workflows/builtin.js';
import { validateWorkflow } from './workflows/validate.js';
import { createRulesChecker } from './conditions/rules.js';
import type { RulesRecord } from './conditions/types.js';
import { completeTask, correctionRun, toReviewTask, type ReviewTask } from './tasks/review-tasks.js';
import { WorkflowRegistry } from './workflows/registry.js';
import { createSchemaChecker } from './workflows/schema.js';
import type { WorkflowDefinition } from './workflows/types.js';
import { parseList, parseWorkflowOptions, v1ProductIds, type V1Selection } from './workflows/v1-upload.js';

export interface EngineOptions {
  /** Where files and token layers are kept. Default: in memory. */
  files?: FileStore;
  /** PDF reader. Default: pdfjs-dist. */
  pdf?: PdfReader;
  /** Copies PDF pages into new PDFs (split children). Default: pdf-lib. */
  pdfPages?: PdfPageCopier;
  /** OCR engine, or options for the default tesseract.js pool. */
  ocr?: OcrEngine | TesseractOcrOptions;
  /** Image backend. Default: sharp when installed, else jimp. */
  images?: ImageBackend | 'sharp' | 'jimp';
  /** Jobs, results, token layers, rules and tasks. Default: in memory (nothing survives the process). */
  persistence?: JobPersistence;
  /** Custom workflows, registered before unfinished jobs found in `persistence` are taken up. */
  workflows?: WorkflowDefinition[];
  /** The job queue. */
  jobs?: JobOptions;
  /** Prefix of built-in workflow and fieldset ids. Default `svc`. */
  namespace?: string;
  /** Limits of accounts that were not configured otherwise. */
  limits?: Partial<AccountLimits>;
  /** Host products and fieldsets, registered on top of the built-in catalogue. */
  products?: { fieldsets?: FieldsetDefinition[]; products?: ProductDefinition[] };
  ingest?: {
    /** Resolution PDF pages are rendered at for OCR. Default 300. */
    dpi?: number;
    /** Largest image decoded or page rendered, in pixels. Default 40 million. */
    maxPixels?: number;
    /** Default OCR mode. */
    ocr?: OcrMode;
    /** Pages of one document read at the same time. Default: the number of OCR workers. */
    pageConcurrency?: number;
  };
}

export interface JobOptions {
  /** Jobs running at once. Default 4. */
  concurrency?: number;
  /** Jobs of one account running at once. Default: `concurrency`. */
  accountConcurrency?: number;
  /** Limits of named queues (a workflow's `queue`), e.g. `{ ocr: 2 }`. */
  queues?: Record<string, number>;
  /** Jobs waiting beyond which invocations are refused with QUEUE_FULL. Default 10,000. */
  maxQueued?: number;
  /** Time limit of one run of a job, unless its workflow says otherwise. Default 10 minutes. */
  timeoutMs?: number;
  /** Retries of runs that failed with a transient error. Default 3 runs, 1 s doubling, at most 60 s. */
  retry?: Partial<RetryPolicy>;
  /** Lease of a running job in shared storage. Default 30 s. */
  leaseMs?: number;
  /** Shared storage: how often to look for work besides change notifications. Default 1 s. */
  pollMs?: number;
  /** How long `close()` waits for running jobs before leaving them to the next engine. Default 10 s. */
  shutdownGraceMs?: number;
}

/** The upload record of a v2 upload: `id` equals `fileId`. */
export interface UploadRecordV2 {
  id: string;
  fileId: string;
  uploadedAt: string;
  status: 'RECEIVED';
}

/** The upload record of a v1 upload (no `id`). */
export interface UploadRecordV1 {
  fileId: string;
  uploadedAt: string;
  status: 'RECEIVED';
}

export interface UploadV1Options
  extends
    Omit<UploadOptions, 'enforcePageLimit' | 'parent' | 'tags' | 'locale' | 'flow' | 'fileId'>,
    V1Selection {
  /** A tag, or several, to group documents (`listFiles({tag})`). */
  tags?: string | string[];
  /** `validate` (or another workflow offered to v1); default: extraction. */
  workflowId?: string;
  /** A JSON object (string or parsed) for the chosen workflow. */
  workflowOptions?: string | Record<string, unknown>;
  /** Locale of this document (how its dates are read). */
  locale?: string;
}

/** The answer of a workflow invocation: the job record and the id of the queued message. */
export interface Invocation {
  job: JobRecord;
  message_id: string;
}

/** The result record of a file. */
export type ResultRecord =
  | { fileId: string; status: 'FINALISED'; results: { timestamp: string; fields: ResultField[] } }
  | { fileId: string; status: 'IN PROGRESS' };

export interface ResultOptions {
  accountId?: string;
  /**
   * How long to wait for pending work, in ms (0 answers at once). Default: 30 s for a v1 upload,
   * 0 for a v2 one. At most 5 minutes.
   */
  timeoutMs?: number;
  /** Caps the wait, the default one included (an HTTP host's limit). */
  maxWaitMs?: number;
  verbose?: boolean;
}

/** Events a host can subscribe to with `engine.on`. */
export interface EngineEvents {
  /** A job was created or changed (status, version). */
  job: { accountId: string; job: JobRecord };
  /** A job stored fields for a file's result. */
  result: { accountId: string; fileId: string; jobId: string; workflowId: string };
  /** Storing a change of a job failed; the job is taken up again when the engine restarts. */
  error: { jobId: string; error: DocexError };
}

export interface UploadOptions {
  /** Owner of the file. Default `default`. */
  accountId?: string;
  /** The client's file name: kept as information, never used as a path. */
  name?: string;
  /** Unknown upload fields, kept with the file. */
  metadata?: Record<string, unknown>;
  /** Refuse a PDF over the account's page limit at upload (v2). Default true. */
  enforcePageLimit?: boolean;
  /** For a split child: the parent file and page range. */
  parent?: FileRecord['parent'];
  /** Id for the new file (a UUID); made by the engine when absent. */
  fileId?: string;
  /** Tags to group documents. */
  tags?: string[];
  /** Locale of this document. */
  locale?: string;
  /** Which upload flow made the file (see FileRecord.flow). */
  flow?: FileRecord['flow'];
}

export interface IngestCallOptions {
  accountId?: string;
  ocr?: OcrMode;
  /** Read the document again even when a token layer is stored. */
  force?: boolean;
}

export interface ExtractOptions {
  accountId?: string;
  /** Locale of this document; the account's locale otherwise. */
  locale?: string;
  /** Add the printed text, the typed value and the alternatives considered to each field. */
  verbose?: boolean;
}

export interface Engine {
  readonly namespace: string;
  /** The product catalogue of this engine (built-ins plus the host's). */
  readonly catalogue: Catalogue;
  defineFieldset(definition: FieldsetDefinition): void;
  defineProduct(definition: ProductDefinition): void;
  /**
   * Reads the fields of the given products (`invoices:2`, `invoices`, `svc.invoice`) from a file,
   * ingesting it first when it has no token layer. Every field of every selected fieldset is present.
   */
  extract(fileId: string, productIds: string[], options?: ExtractOptions): Promise<ExtractionResult>;
  /** Resolves product and fieldset ids for an account (throws UNKNOWN_PRODUCT or PRODUCT_NOT_ALLOWED). */
  resolveProducts(productIds: string[], options?: { accountId?: string }): ResolvedSelection;
  /** Stores a file (the low-level upload both flows use). */
  upload(input: UploadInput, options?: UploadOptions): Promise<FileRecord>;
  /** The v2 upload: the page limit is enforced here; then invoke workflows on the file. */
  uploadV2(
    input: UploadInput,
    options?: Omit<UploadOptions, 'enforcePageLimit' | 'flow'>,
  ): Promise<UploadRecordV2>;
  /**
   * The v1 upload: chooses what to extract (exactly one of products, fieldSets, fieldSet) and queues
   * the extraction (or the workflow named by `workflowId`) itself. The page limit is not checked here:
   * a longer document's job fails with PAGE_LIMIT_EXCEEDED, as the interface describes.
   */
  uploadV1(input: UploadInput, options: UploadV1Options): Promise<UploadRecordV1>;
  getFile(fileId: string, options?: { accountId?: string }): Promise<FileRecord>;
  /** The bytes of a file, as uploaded. */
  readFile(fileId: string, options?: { accountId?: string }): Promise<Uint8Array>;
  listFiles(options?: { accountId?: string; tag?: string }): Promise<FileRecord[]>;
  deleteFile(fileId: string, options?: { accountId?: string }): Promise<boolean>;
  /** The svc.ingest work: reads the file into its token layer and stores it with the file. */
  ingest(fileId: string, options?: IngestCallOptions): Promise<TokenLayer>;
  /** The stored token layer, or undefined when the file has not been ingested. */
  getTokenLayer(fileId: string, options?: { accountId?: string }): Promise<TokenLayer | undefined>;
  /** Limits, locale and product subscriptions of an account (unset ones keep their value). */
  configureAccount(
    accountId: string,
    settings: { limits?: Partial<AccountLimits>; locale?: string; subscriptions?: string[] },
  ): AccountSettings;
  getAccount(accountId: string): AccountSettings;
  /**
   * Creates an API client of an account (OAuth 2.0 client credentials). The secret is returned once
   * and stored only as a hash. A given client id replaces that client.
   */
  createClient(
    accountId: string,
    options?: { clientId?: string; clientSecret?: string },
  ): Promise<{ clientId: string; clientSecret: string }>;
  /** The account of a client whose secret matches (compared in constant time), or undefined. */
  authenticateClient(clientId: string, clientSecret: string): Promise<string | undefined>;
  /** Registers a custom workflow, invoked by its id like the built-in ones. */
  registerWorkflow(definition: WorkflowDefinition): void;
  /** Ids of the registered workflows. */
  workflowIds(): string[];
  /** The registered workflows with their input schemas (for API documents). */
  describeWorkflows(): Array<{ id: string; inputsSchema: object }>;
  /**
   * Queues a job of a workflow. Refused before anything is stored: an unknown workflow, inputs that do
   * not fit its schema (every problem listed), an unknown file, a product the account may not use, a
   * full queue.
   */
  invoke(
    workflowId: string,
    body: { inputs: Record<string, unknown> },
    options?: { accountId?: string },
  ): Promise<Invocation>;
  getJob(jobId: string, options?: { accountId?: string }): Promise<JobRecord>;
  /** The job as the invocation answered it, `{job, message_id}`, with its current status. */
  getInvocation(jobId: string, options?: { accountId?: string }): Promise<Invocation>;
  listJobs(options?: { accountId?: string; fileId?: string }): Promise<JobRecord[]>;
  /** Cancels a queued job (JOB_NOT_CANCELLABLE once it runs). */
  cancelJob(jobId: string, options?: { accountId?: string }): Promise<JobRecord>;
  /**
   * The file's result: FINALISED with the merged fields of its finished runs, or IN PROGRESS while work
   * is pending after the wait. When the newest job on the file failed, throws that job's error.
   */
  getResult(fileId: string, options?: ResultOptions): Promise<ResultRecord>;
  /**
   * Stores validation rules under an id of the caller's choice (any string of 1 to 256 characters),
   * replacing rules of that id. Refused with INVALID_RULES (422) listing every problem and its path.
   */
  putValidationRules(rulesId: string, rules: unknown, options?: { accountId?: string }): Promise<RulesRecord>;
  getValidationRules(rulesId: string, options?: { accountId?: string }): Promise<RulesRecord>;
  /** Review tasks of the account, oldest first, by status and file. */
  listTasks(options?: {
    accountId?: string;
    status?: 'open' | 'completed';
    fileId?: string;
  }): Promise<ReviewTask[]>;
  getTask(taskId: string, options?: { accountId?: string }): Promise<ReviewTask>;
  /**
   * Completes a task with the reviewer's values (keys: the task's field ids or their result names);
   * the file's result then carries them. A completed task, or another account's, is an error.
   */
  completeTask(
    taskId: string,
    body: { values: Record<string, unknown> },
    options?: { accountId?: string },
  ): Promise<ReviewTask>;
  /** Subscribes to an event; returns the function that unsubscribes. */
  on<E extends keyof EngineEvents>(event: E, listener: (payload: EngineEvents[E]) => void): () => void;
  /** Resolves when unfinished jobs found in persistence have been taken up. */
  readonly ready: Promise<void>;
  /**
   * Stops taking work, waits for running jobs (jobs.shutdownGraceMs; those still running are taken up by
   * the next engine on the same persistence), ends OCR workers and closes the persistence.
   */
  close(): Promise<void>;
}

const DEFAULT_ACCOUNT = 'default';
const MAX_RESULT_WAIT_MS = 5 * 60_000;
const DEFAULT_RESULT_WAIT_MS = 30_000;

export function createEngine(options: EngineOptions = {}): Engine {
  const files = options.files ?? createMemoryFileStore();
  const persistence = options.persistence ?? createMemoryPersistence();
  const accounts = new AccountDirectory(options.limits);
  const namespace = options.namespace ?? 'svc';
  if (!/^[a-z][a-z0-9_-]{0,31}$/.test(namespace)) {
    throw new DocexError(
      'INVALID_ARGUMENT',
      'The namespace must be lower-case letters, digits, _ or -, starting with a letter.',
    );
  }
  const catalogue = createCatalogue({
    namespace,
    ...(options.products?.fieldsets ? { fieldsets: options.products.fieldsets } : {}),
    ...(options.products?.products ? { products: options.products.products } : {}),
  });
  const ingestSettings = {
    dpi: options.ingest?.dpi ?? 300,
    maxPixels: options.ingest?.maxPixels ?? 40_000_000,
    ocr: options.ingest?.ocr ?? 'auto',
    pageConcurrency: options.ingest?.pageConcurrency,
  };
  let closed = false;

  // Heavy adapters start on first use and are shared by every call of this engine only.
  let pdf: Promise<PdfReader> | undefined;
  let ocr: Promise<OcrEngine> | undefined;
  let images: Promise<ImageBackend> | undefined;
  const pdfReader = (): Promise<PdfReader> =>
    (pdf ??= options.pdf ? Promise.resolve(options.pdf) : defaultPdfReader());
  const ocrEngine = (): Promise<OcrEngine> =>
    (ocr ??= isOcrEngine(options.ocr) ? Promise.resolve(options.ocr) : defaultOcrEngine(options.ocr ?? {}));
  const imageBackend = (): Promise<ImageBackend> =>
    (images ??=
      typeof options.images === 'object'
        ? Promise.resolve(options.images)
        : defaultImageBackend(options.images ?? 'auto'));

  const inFlight = new Map<string, Promise<TokenLayer>>();

  function assertOpen(): void {
    if (closed) throw new DocexError('ENGINE_CLOSED', 'The engine has been closed.');
  }

  async function requireFile(accountId: string, fileId: string): Promise<FileRecord> {
    const record = await files.stat(accountId, checkId(fileId));
    if (!record) throw new DocexError('FILE_NOT_FOUND', `No file with id ${fileId}.`);
    return record;
  }

  async function countPages(mediaType: MediaType, bytes: Uint8Array): Promise<number> {
    if (mediaType !== 'application/pdf') return 1;
    const doc = await (await pdfReader()).open(bytes);
    try {
      return doc.pageCount;
    } finally {
      await doc.close();
    }
  }

  async function readTokenLayer(accountId: string, fileId: string): Promise<TokenLayer | undefined> {
    return persistence.getTokenLayer(accountId, fileId);
  }

  async function runIngest(accountId: string, record: FileRecord, mode: OcrMode): Promise<TokenLayer> {
    const stored = await files.get(accountId, record.fileId);
    if (!stored) throw new DocexError('FILE_NOT_FOUND', `No file with id ${record.fileId}.`);
    const [pdfPort, ocrPort, imagePort] = await Promise.all([pdfReader(), ocrEngine(), imageBackend()]);
    let layer: TokenLayer;
    try {
      layer = await ingestDocument(
        { fileId: record.fileId, mediaType: record.mediaType, content: stored.content },
        { pdf: pdfPort, ocr: ocrPort, images: imagePort },
        {
          ocr: mode,
          maxPages: accounts.get(accountId).limits.maxPages,
          maxPixels: ingestSettings.maxPixels,
          dpi: ingestSettings.dpi,
          pageConcurrency: ingestSettings.pageConcurrency ?? ocrWorkers(ocrPort),
          // The store handed us a buffer of our own.
          ownsContent: true,
        },
      );
    } catch (error) {
      throw toDocexError(error, 'INTERNAL', 'The document could not be read.');
    }
    await persistence.putTokenLayer(accountId, record.fileId, layer);
    return layer;
  }

  // ---- jobs ----
  const owner = randomUUID();
  const jobClock = createJobClock();
  const signals = new FileSignals();
  const listeners = new Map<keyof EngineEvents, Set<(payload: never) => void>>();
  const jobSettings = {
    concurrency: positive(options.jobs?.concurrency, 4),
    timeoutMs: positive(options.jobs?.timeoutMs, 10 * 60_000),
    shutdownGraceMs: Math.max(0, options.jobs?.shutdownGraceMs ?? 10_000),
    retry: {
      maxAttempts: positive(options.jobs?.retry?.maxAttempts, 3),
      baseDelayMs: Math.max(0, options.jobs?.retry?.baseDelayMs ?? 1000),
      maxDelayMs: Math.max(0, options.jobs?.retry?.maxDelayMs ?? 60_000),
    },
  };
  const schemaChecker = createSchemaChecker();
  const registry = new WorkflowRegistry(schemaChecker);
  /** Writes not awaited by their caller (account settings), awaited before the persistence closes. */
  const writes = new Set<Promise<unknown>>();
  function track(write: Promise<unknown>): void {
    const tracked = write
      .catch((error: unknown) =>
        emit('error', {
          jobId: '',
          error: toDocexError(error, 'INTERNAL', 'Account settings could not be stored.'),
        }),
      )
      .finally(() => writes.delete(tracked));
    writes.add(tracked);
  }
  const rulesChecker = createRulesChecker(schemaChecker);

  function emit<E extends keyof EngineEvents>(event: E, payload: EngineEvents[E]): void {
    for (const listener of listeners.get(event) ?? []) {
      try {
        (listener as (p: EngineEvents[E]) => void)(payload);
      } catch {
        // A host's listener that throws must not break the queue.
      }
    }
  }

  const fileKey = (accountId: string, fileId: string): string => `${accountId}\u0000${fileId}`;

  function workflowOf(job: StoredJob): WorkflowDefinition | undefined {
    return registry.has(job.record.workflow_id) ? registry.get(job.record.workflow_id) : undefined;
  }

  const queue = new JobQueue({
    persistence,
    owner,
    concurrency: jobSettings.concurrency,
    accountConcurrency: positive(options.jobs?.accountConcurrency, jobSettings.concurrency),
    queueConcurrency: { ...options.jobs?.queues },
    maxQueued: positive(options.jobs?.maxQueued, 10_000),
    leaseMs: positive(options.jobs?.leaseMs, 30_000),
    pollMs: positive(options.jobs?.pollMs, 1000),
    retry: jobSettings.retry,
    timeoutOf: (job) => workflowOf(job)?.timeoutMs ?? jobSettings.timeoutMs,
    maxAttemptsOf: (job) => workflowOf(job)?.maxAttempts ?? jobSettings.retry.maxAttempts,
    async execute(job, signal) {
      const definition = registry.get(job.record.workflow_id);
      const output = await definition.run({
        inputs: structuredClone(job.record.inputs),
        job: structuredClone(job.record),
        accountId: job.accountId,
        fileId: job.record.file_id,
        signal,
        engine,
      });
      return output ?? {};
    },
    onChange(job: StoredJob, result?: StoredResult) {
      emit('job', { accountId: job.accountId, job: structuredClone(job.record) });
      if (result) {
        emit('result', {
          accountId: job.accountId,
          fileId: result.fileId,
          jobId: result.jobId,
          workflowId: result.workflowId,
        });
      }
      if (job.record.file_id) signals.notify(fileKey(job.accountId, job.record.file_id));
    },
    onError(error, job) {
      emit('error', {
        jobId: job?.record.id ?? '',
        error: toDocexError(error, 'INTERNAL', 'A job change could not be stored.'),
      });
    },
  });

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
  async function queueJob(
    accountId: string,
    workflowId: string,
    inputs: unknown,
    knownFile = false,
  ): Promise<{ stored: StoredJob; check: () => Promise<void> }> {
    const definition = registry.get(workflowId);
    registry.checkInputs(workflowId, inputs);
    const checked = inputs as Record<string, unknown>;
    const prepare = async (): Promise<void> => {
      if (!knownFile && typeof checked.file_id === 'string') await requireFile(accountId, checked.file_id);
      await definition.accept?.(checked, { accountId, engine });
      queue.assertAccepting();
    };
    const stored = newJob({
      id: randomUUID(),
      messageId: randomUUID(),
      created: jobClock(),
      accountId,
      account: accounts.get(accountId),
      workflowId,
      inputs: checked,
      queue: definition.queue ?? 'default',
    });
    return { stored, check: prepare };
  }

  /** The answer for a file now: the result, or undefined while work is pending (and why). */
  async function resultState(
    accountId: string,
    record: FileRecord,
    verbose: boolean,
  ): Promise<{ answer?: ResultRecord; openTasks: boolean }> {
    const jobs = await persistence.listJobs({ accountId, fileId: record.fileId });
    const tasks = await persistence.listTasks({ accountId, fileId: record.fileId });
    const openTasks = tasks.some((t) => t.status === 'open');
    if (openTasks || jobs.some((j) => j.record.status === 'new' || j.record.status === 'running')) {
      return { openTasks };
    }
    const newest = jobs.filter((j) => j.record.status !== 'cancelled').at(-1);
    if (!newest) {
      throw new DocexError(
        'NO_RESULT',
        `No workflow has run on file ${record.fileId}; invoke one (${namespace}.extract) first.`,
      );
    }
    if (newest.record.status === 'failed' && newest.record.error) {
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
          fields: verbose ? merged.fields : merged.fields.map(plainField),
        },
      },
    };
  }

  function checkRulesId(rulesId: string): string {
    if (typeof rulesId !== 'string' || rulesId.length === 0 || rulesId.length > 256) {
      throw new DocexError('INVALID_ARGUMENT', 'A rules id is a string of 1 to 256 characters.');
    }
    return rulesId;
  }

  async function requireTask(accountId: string, taskId: string) {
    const task =
      typeof taskId === 'string' && UUID_LIKE.test(taskId)
        ? await persistence.getTask(accountId, taskId.toLowerCase())
        : undefined;
    if (!task) throw new DocexError('TASK_NOT_FOUND', `No task with id ${String(taskId).slice(0, 64)}.`);
    return task;
  }

  const fieldKinds = (): Map<string, FieldKind> =>
    new Map(catalogue.fieldsets().flatMap((f) => f.fields.map((d) => [d.name, d.kind] as const)));

  const engine: Engine = {
    namespace,
    catalogue,
    ready: Promise.resolve(),

    defineFieldset(definition) {
      catalogue.defineFieldset(definition);
    },

    defineProduct(definition) {
      catalogue.defineProduct(definition);
    },

    async extract(fileId, productIds, opts = {}) {
      assertOpen();
      const accountId = opts.accountId ?? DEFAULT_ACCOUNT;
      const account = accounts.get(accountId);
      // Refused before any work: an id the account may not use, or one that does not exist.
      const selection = catalogue.resolve(
        productIds,
        account.subscriptions ? { subscriptions: account.subscriptions } : {},
      );
      const layer = await engine.ingest(fileId, { accountId });
      const locale = opts.locale ?? (await requireFile(accountId, fileId)).locale ?? account.locale;
      const fields = extractFields(layer, {
        fields: selection.fieldsets.flatMap((f) => f.fields),
        ...(locale ? { locale } : {}),
      });
      return {
        timestamp: new Date().toISOString(),
        fields: opts.verbose ? fields : fields.map((f) => plainField(f)),
      };
    },

    async upload(input, uploadOptions = {}) {
      assertOpen();
      const accountId = uploadOptions.accountId ?? DEFAULT_ACCOUNT;
      const { limits } = accounts.get(accountId);
      const bytes = await readWithLimit(input, limits.maxFileBytes);
      if (bytes.byteLength === 0) throw new DocexError('EMPTY_FILE', 'The file is empty.');
      const mediaType = sniffMediaType(bytes.subarray(0, 1024));
      if (!mediaType) {
        throw new DocexError(
          'UNSUPPORTED_FILE_TYPE',
          'The file is not a PDF, PNG or JPEG (judged by its content).',
        );
      }
      const enforce = uploadOptions.enforcePageLimit !== false;
      // Without enforcement (v1 uploads) a PDF that cannot be read is accepted here and fails when read.
      const pageCount = enforce
        ? await countPages(mediaType, bytes)
        : await countPages(mediaType, bytes).catch(() => 0);
      if (enforce && pageCount > limits.maxPages) {
        throw new DocexError(
          'PAGE_LIMIT_EXCEEDED',
          `The document has ${pageCount} pages; the limit is ${limits.maxPages}.`,
        );
      }
      const record: FileRecord = {
        fileId: uploadOptions.fileId ?? randomUUID(),
        accountId,
        mediaType,
        size: bytes.byteLength,
        pageCount,
        uploadedAt: new Date().toISOString(),
        status: 'RECEIVED',
        metadata: { ...uploadOptions.metadata },
      };
      if (uploadOptions.name !== undefined) record.name = uploadOptions.name;
      if (uploadOptions.parent !== undefined) record.parent = uploadOptions.parent;
      if (uploadOptions.flow !== undefined) record.flow = uploadOptions.flow;
      if (uploadOptions.tags !== undefined && uploadOptions.tags.length > 0)
        record.tags = [...uploadOptions.tags];
      if (uploadOptions.locale !== undefined) record.locale = uploadOptions.locale;
      await files.put(record, bytes);
      return record;
    },

    async uploadV2(input, uploadOptions = {}) {
      const record = await engine.upload(input, { ...uploadOptions, enforcePageLimit: true, flow: 'v2' });
      return {
        id: record.fileId,
        fileId: record.fileId,
        uploadedAt: record.uploadedAt,
        status: record.status,
      };
    },

    async uploadV1(input, v1) {
      assertOpen();
      await engine.ready;
      const accountId = v1.accountId ?? DEFAULT_ACCOUNT;
      const productIds = v1ProductIds(v1);
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
      const fieldsets = engine.resolveProducts(productIds, { accountId }).fieldsets.map((f) => f.id);
      const inputs = definition.fromV1({
        fieldsets,
        fileId,
        productIds,
        workflowOptions: parseWorkflowOptions(v1.workflowOptions),
      });
      // Everything that can be refused is refused before the file is stored.
      const { stored, check } = await queueJob(accountId, workflowId, inputs, true);
      await check();
      const tags = parseList(v1.tags);
      const record = await engine.upload(input, {
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
        await queue.submit(stored);
      } catch (error) {
        await files.delete(accountId, fileId).catch(() => undefined);
        throw error;
      }
      return { fileId: record.fileId, uploadedAt: record.uploadedAt, status: record.status };
    },

    resolveProducts(productIds, opts = {}) {
      const account = accounts.get(opts.accountId ?? DEFAULT_ACCOUNT);
      return catalogue.resolve(
        productIds,
        account.subscriptions ? { subscriptions: account.subscriptions } : {},
      );
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
      assertOpen();
      await engine.ready;
      const accountId = opts.accountId ?? DEFAULT_ACCOUNT;
      if (typeof body !== 'object' || body === null || Array.isArray(body)) {
        throw new DocexError('INVALID_INPUTS', 'The request body must be an object {inputs: {...}}.', {
          details: [{ path: '', message: 'must be an object' }],
        });
      }
      const { stored, check } = await queueJob(accountId, workflowId, body.inputs);
      await check();
      await queue.submit(stored);
      return { job: structuredClone(stored.record), message_id: stored.messageId };
    },

    async getJob(jobId, opts = {}) {
      return structuredClone((await requireJob(opts.accountId ?? DEFAULT_ACCOUNT, jobId)).record);
    },

    async getInvocation(jobId, opts = {}) {
      const stored = await requireJob(opts.accountId ?? DEFAULT_ACCOUNT, jobId);
      return { job: structuredClone(stored.record), message_id: stored.messageId };
    },

    async listJobs(opts = {}) {
      const accountId = opts.accountId ?? DEFAULT_ACCOUNT;
      const query = opts.fileId === undefined ? { accountId } : { accountId, fileId: checkId(opts.fileId) };
      return (await persistence.listJobs(query)).map((j) => j.record);
    },

    async cancelJob(jobId, opts = {}) {
      const job = await requireJob(opts.accountId ?? DEFAULT_ACCOUNT, jobId);
      return structuredClone((await queue.cancel(job)).record);
    },

    async getResult(fileId, opts = {}) {
      const accountId = opts.accountId ?? DEFAULT_ACCOUNT;
      const record = await requireFile(accountId, fileId);
      const started = Date.now();
      const key = fileKey(accountId, record.fileId);
      for (;;) {
        // Armed before reading, so a change between the read and the wait wakes us.
        const waiter = signals.arm(key);
        let state: Awaited<ReturnType<typeof resultState>>;
        try {
          state = await resultState(accountId, record, opts.verbose === true);
        } catch (error) {
          waiter.disarm();
          throw error;
        }
        // Default wait: 30 s for a v1 file's work or for open review tasks, none for a v2 file's work.
        const requested =
          opts.timeoutMs ?? (record.flow === 'v1' || state.openTasks ? DEFAULT_RESULT_WAIT_MS : 0);
        const cap = Math.min(MAX_RESULT_WAIT_MS, opts.maxWaitMs ?? MAX_RESULT_WAIT_MS);
        const wait = Math.min(cap, Math.max(0, Number.isFinite(requested) ? requested : 0));
        const remaining = started + wait - Date.now();
        if (state.answer || remaining <= 0 || closed) {
          waiter.disarm();
          return state.answer ?? { fileId: record.fileId, status: 'IN PROGRESS' };
        }
        // With shared storage a notification can be lost (a dropped connection): look again every second.
        await waiter.wait(persistence.shared ? Math.min(remaining, 1000) : remaining);
      }
    },

    async putValidationRules(rulesId, rules, opts = {}) {
      assertOpen();
      const accountId = opts.accountId ?? DEFAULT_ACCOUNT;
      const checked = rulesChecker.checkRules(rules);
      await persistence.putRules(accountId, checkRulesId(rulesId), checked);
      return structuredClone(checked);
    },

    async getValidationRules(rulesId, opts = {}) {
      const rules = await persistence.getRules(opts.accountId ?? DEFAULT_ACCOUNT, checkRulesId(rulesId));
      if (rules === undefined) {
        throw new DocexError('RULES_NOT_FOUND', `No validation rules with id ${rulesId.slice(0, 256)}.`);
      }
      return rules as RulesRecord;
    },

    async listTasks(opts = {}) {
      const query = {
        accountId: opts.accountId ?? DEFAULT_ACCOUNT,
        ...(opts.status !== undefined ? { status: opts.status } : {}),
        ...(opts.fileId !== undefined ? { fileId: checkId(opts.fileId) } : {}),
      };
      return (await persistence.listTasks(query)).map(toReviewTask);
    },

    async getTask(taskId, opts = {}) {
      return toReviewTask(await requireTask(opts.accountId ?? DEFAULT_ACCOUNT, taskId));
    },

    async completeTask(taskId, body, opts = {}) {
      assertOpen();
      const accountId = opts.accountId ?? DEFAULT_ACCOUNT;
      const task = await requireTask(accountId, taskId);
      const kinds = fieldKinds();
      const values =
        typeof body === 'object' && body !== null ? (body as { values?: unknown }).values : undefined;
      const completed = completeTask(task, values, {
        namespace,
        kindOf: (name) => kinds.get(name),
        now: new Date().toISOString(),
      });
      if (!(await persistence.updateTask(completed, task.version))) {
        throw new DocexError('TASK_ALREADY_COMPLETED', `Task ${task.id} was completed meanwhile.`);
      }
      signals.notify(fileKey(accountId, task.fileId));
      return toReviewTask(completed);
    },

    on(event, listener) {
      let set = listeners.get(event);
      if (!set) {
        set = new Set();
        listeners.set(event, set);
      }
      set.add(listener as (payload: never) => void);
      return () => {
        set.delete(listener as (payload: never) => void);
      };
    },

    async getFile(fileId, opts = {}) {
      return requireFile(opts.accountId ?? DEFAULT_ACCOUNT, fileId);
    },

    async readFile(fileId, opts = {}) {
      const stored = await files.get(opts.accountId ?? DEFAULT_ACCOUNT, checkId(fileId));
      if (!stored) throw new DocexError('FILE_NOT_FOUND', `No file with id ${fileId}.`);
      return stored.content;
    },

    async listFiles(opts = {}) {
      const list = await files.list(opts.accountId ?? DEFAULT_ACCOUNT);
      const tag = opts.tag;
      return tag === undefined ? list : list.filter((f) => f.tags?.includes(tag));
    },

    async deleteFile(fileId, opts = {}) {
      const accountId = opts.accountId ?? DEFAULT_ACCOUNT;
      const id = checkId(fileId);
      const deleted = await files.delete(accountId, id);
      await persistence.deleteFileData(accountId, id);
      return deleted;
    },

    async ingest(fileId, opts = {}) {
      assertOpen();
      const accountId = opts.accountId ?? DEFAULT_ACCOUNT;
      const record = await requireFile(accountId, fileId);
      if (!opts.force) {
        const stored = await readTokenLayer(accountId, record.fileId);
        if (stored) return stored;
      }
      const mode = opts.ocr ?? ingestSettings.ocr;
      // Two callers asking for the same document share one reading.
      const key = `${accountId}\u0000${record.fileId}\u0000${mode}`;
      let running = inFlight.get(key);
      if (!running) {
        running = runIngest(accountId, record, mode).finally(() => inFlight.delete(key));
        inFlight.set(key, running);
      }
      return running;
    },

    async getTokenLayer(fileId, opts = {}) {
      const accountId = opts.accountId ?? DEFAULT_ACCOUNT;
      return readTokenLayer(accountId, (await requireFile(accountId, fileId)).fileId);
    },

    configureAccount(accountId, settings) {
      const next = accounts.configure(accountId, settings);
      track(persistence.putAccount(accountId, next));
      return next;
    },

    async createClient(accountId, opts = {}) {
      assertOpen();
      const clientId = opts.clientId ?? `dx_${randomUUID().replace(/-/g, '')}`;
      if (!/^[A-Za-z0-9._~-]{1,128}$/.test(clientId) || !accountId) {
        throw new DocexError(
          'INVALID_ARGUMENT',
          'A client id is 1 to 128 letters, digits, ".", "_", "~" or "-".',
        );
      }
      const clientSecret = opts.clientSecret ?? newClientSecret();
      if (clientSecret.length < 16) {
        throw new DocexError('INVALID_ARGUMENT', 'A client secret has at least 16 characters.');
      }
      await persistence.putClient({
        clientId,
        accountId,
        secretHash: await hashClientSecret(clientSecret),
        createdAt: new Date().toISOString(),
      });
      return { clientId, clientSecret };
    },

    async authenticateClient(clientId, clientSecret) {
      const client =
        typeof clientId === 'string' && clientId.length <= 128
          ? await persistence.getClient(clientId)
          : undefined;
      const ok = await verifyClientSecret(String(clientSecret).slice(0, 1024), client?.secretHash);
      return ok && client ? client.accountId : undefined;
    },

    getAccount(accountId) {
      return accounts.get(accountId);
    },

    async close() {
      if (closed) return;
      closed = true;
      signals.notifyAll();
      await engine.ready.catch(() => undefined);
      await queue.stop(jobSettings.shutdownGraceMs);
      await Promise.allSettled([...writes]);
      await unsubscribe?.().catch(() => undefined);
      if (ocr) await (await ocr).close();
      await persistence.close();
    },
  };

  registry.register(ingestWorkflow(namespace));
  registry.register(extractWorkflow(namespace));
  registry.register(
    validateWorkflow({
      namespace,
      rules: rulesChecker,
      getRules: async (accountId, rulesId) =>
        (await persistence.getRules(accountId, rulesId)) as RulesRecord | undefined,
      async insertTasks(tasks) {
        for (const task of tasks) {
          if (!(await persistence.getTask(task.accountId, task.id))) await persistence.insertTask(task);
        }
      },
      now: () => new Date().toISOString(),
    }),
  );
  let copier: Promise<PdfPageCopier> | undefined;
  let unsubscribe: (() => Promise<void>) | undefined;
  registry.register(
    splitWorkflow({
      namespace,
      copier: () =>
        (copier ??= options.pdfPages ? Promise.resolve(options.pdfPages) : defaultPdfPageCopier()),
      putTokenLayer: (accountId, fileId, layer) => persistence.putTokenLayer(accountId, fileId, layer),
      fields: () => catalogue.fieldsets().flatMap((f) => f.fields),
    }),
  );
  for (const definition of options.workflows ?? []) registry.register(definition);

  // Unfinished jobs of an earlier engine on the same persistence are taken up after the current
  // macrotask, so workflows the host registers right after createEngine are known by then.
  (engine as { ready: Promise<void> }).ready = new Promise<void>((resolve) => setTimeout(resolve, 0))
    .then(async () => {
      // Shared storage: other processes' changes wake result requests waiting here, and new or released
      // jobs wake this process's claims.
      if (persistence.shared && persistence.subscribe) {
        unsubscribe = await persistence.subscribe((change) => {
          if (change.fileId) signals.notify(fileKey(change.accountId, change.fileId));
          if (change.kind === 'job') queue.poke();
        });
      }
      // Accounts stored by an earlier engine, unless this one configured them already.
      for (const { accountId, settings } of await persistence.listAccounts()) {
        if (!accounts.has(accountId)) accounts.configure(accountId, settings);
      }
      await queue.recover();
    })
    .then(
      () => undefined,
      (error: unknown) => {
        emit('error', {
          jobId: '',
          error: toDocexError(error, 'INTERNAL', 'Unfinished jobs could not be taken up.'),
        });
      },
    );

  function v1WorkflowId(id: string | undefined): string {
    const name = id?.trim() || 'extract';
    if (registry.has(`${namespace}.${name}`)) return `${namespace}.${name}`;
    if (registry.has(name)) return name;
    throw new DocexError('UNKNOWN_WORKFLOW', `No workflow ${name.slice(0, 128)} for v1 uploads.`, {
      details: [{ path: '/workflowId', message: 'unknown workflow' }],
    });
  }

  return engine;
}

function positive(value: number | undefined, fallback: number): number {
  return value !== undefined && Number.isFinite(value) && value >= 1 ? Math.floor(value) : fallback;
}

/** How many pages an OCR engine can work on at once, when it says so (the tesseract pool does). */
function ocrWorkers(engine: OcrEngine): number {
  const size = (engine as { size?: unknown }).size;
  return typeof size === 'number' && size >= 1 ? size : 1;
}

/** Exactly the spec's field object: name, value, confidence, boundingBox. */
function plainField(field: FieldResult): FieldResult;
function plainField(field: ResultField): ResultField;
function plainField(field: ResultField): ResultField {
  if (!('confidence' in field)) return { name: field.name, value: field.value, boundingBox: null };
  return {
    name: field.name,
    value: field.value,
    confidence: field.confidence,
    boundingBox: field.boundingBox,
  };
}

function isOcrEngine(value: unknown): value is OcrEngine {
  return typeof (value as OcrEngine | undefined)?.recognize === 'function';
}

const UUID_LIKE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** File ids are UUIDs; anything else is unknown (never passed on to a store as a path). */
function checkId(fileId: string): string {
  if (!UUID_LIKE.test(fileId))
    throw new DocexError('FILE_NOT_FOUND', `No file with id ${String(fileId).slice(0, 64)}.`);
  return fileId.toLowerCase();
}
