import type { AccountLimits, AccountSettings } from './core/accounts.js';
import type { DocexError } from './core/errors.js';
import type { JobRecord } from './core/jobs.js';
import type { FileRecord, TokenLayer } from './core/types.js';
import type { RulesRecord } from './conditions/types.js';
import type { OcrMode } from './documents/ingest.js';
import type { UploadInput } from './documents/read-limited.js';
import type { DefaultOcrOptions, OcrEngineChoice } from './default-adapters.js';
import type { ExtractionResult, VerboseFieldResult } from './extraction/types.js';
import type { Catalogue, ResolvedSelection } from './products/catalogue.js';
import type { FieldsetDefinition, ProductDefinition } from './products/types.js';
import type { FileStore } from './ports/file-store.js';
import type { ImageBackend } from './ports/image-backend.js';
import type { EnginePersistence } from './ports/engine-persistence.js';
import type { OcrEngine } from './ports/ocr-engine.js';
import type { PdfPageCopier } from './ports/pdf-page-copier.js';
import type { PdfReader } from './ports/pdf-reader.js';
import type { PdfWorkerPoolOptions } from './adapters/pdf/pdf-worker-pool.js';
import type { RetryPolicy } from './queue/job-queue.js';
import type { ReviewTask, TaskActor } from './tasks/review-tasks.js';
import type { NewReviewer, Reviewer, ReviewerChanges, SignedInReviewer } from './reviewers/reviewers.js';
import type { SupplierSummary } from './learning/supplier-memories.js';
import type { SupplierMemory } from './ports/supplier-memory-store.js';
import type { WorkflowDefinition } from './workflows/types.js';
import type { DeliveryStatus } from './ports/webhook-outbox.js';
import type { WebhookSender } from './ports/webhook-sender.js';
import type { DeliveryView, WebhookView, WebhookWithSecret } from './webhooks/subscriptions.js';
import type { V1Selection } from './workflows/v1-upload.js';
import type { UsageDay, UsageFigures } from './ports/usage-ledger.js';

/** The public shape of an engine: its options, its methods and what they answer (see engine.ts). */
export interface EngineOptions {
  /** Where files and token layers are kept. Default: in memory. */
  files?: FileStore;
  /**
   * PDF reader, or options of the default: pdfjs-dist in worker threads bounded in time and memory
   * (`workers`, `callTimeoutMs`, `documentTimeoutMs`, `heapMb`, `memoryBudgetMb`, `budget`; see
   * src/adapters/pdf/pdf-worker-pool.ts).
   */
  pdf?: PdfReader | PdfWorkerPoolOptions;
  /** Copies PDF pages into new PDFs (split children). Default: pdf-lib, in the same worker threads. */
  pdfPages?: PdfPageCopier;
  /**
   * OCR engine, or options of the default ones (tesseract.js's pool: `workers`, `pageTimeoutMs`,
   * `languages`...; the native adapter: `binary`, and the same `workers`, `pageTimeoutMs`, `languages`).
   */
  ocr?: OcrEngine | DefaultOcrOptions;
  /**
   * Which default OCR engine: `auto` (default) the host's tesseract program (5.x) when it runs, else
   * tesseract.js; `native` the program only; `wasm` tesseract.js only. Ignored when `ocr` is an engine.
   */
  ocrEngine?: OcrEngineChoice;
  /** Image backend. Default: sharp when installed, else jimp. */
  images?: ImageBackend | 'sharp' | 'jimp';
  /** Jobs, results, token layers, rules and tasks. Default: in memory (nothing survives the process). */
  persistence?: EnginePersistence;
  /** Custom workflows, registered before unfinished jobs found in `persistence` are taken up. */
  workflows?: WorkflowDefinition<Engine>[];
  /** The job queue. */
  jobs?: JobOptions;
  /** Prefix of built-in workflow and fieldset ids. Default `svc`. */
  namespace?: string;
  /** Limits of accounts that were not configured otherwise (sizes, page quotas). */
  limits?: Partial<AccountLimits>;
  /** The clock of usage days and quotas (epoch ms). Default `Date.now`. */
  now?: () => number;
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
    /**
     * Scanned pages and photos whose first OCR reading averages a word confidence below this are read
     * again from a locally thresholded image, and extraction chooses per field between the two
     * readings. Default 0.9; 0: never.
     */
    secondReadingBelow?: number;
    /**
     * Milliseconds a document may spend OCRing the pictures of its born-digital pages (logos, pasted
     * scans), which are read only when extraction leaves the supplier's name unresolved; smallest
     * pictures first, the first always. Default 3000; 0: never.
     */
    pictureBudgetMs?: number;
  };
  /** Signed webhooks to the accounts' subscribers (docs/webhooks.md). */
  webhooks?: WebhookOptions;
}

export interface HealthCheck {
  ok: boolean;
  ms: number;
  /** Why it failed, for an operator (no secrets, no stack). */
  message?: string;
}

export interface EngineHealth {
  ready: boolean;
  checks: { persistence: HealthCheck; files: HealthCheck; ocr: HealthCheck & { started: boolean } };
}

export interface WebhookOptions {
  /**
   * Whether subscriptions may target loopback, private and link-local addresses (refused by default:
   * a subscriber must not make the service call into its own network). Default false.
   */
  allowPrivateTargets?: boolean;
  /** Whether this engine sends deliveries (false: it only records them, another process sends). Default true. */
  deliver?: boolean;
  /** Time one attempt may take. Default 10 s. */
  timeoutMs?: number;
  /** Retries: first after `baseDelayMs` (default 5 s), doubling up to `maxDelayMs` (1 h), for `retryForMs` (24 h). */
  retry?: { baseDelayMs?: number; maxDelayMs?: number; retryForMs?: number };
  /** How often to look for due deliveries besides the engine's own changes. Default 2 s. */
  pollMs?: number;
  /** Attempts in flight at once (default 32), and to one subscription (default 4). */
  concurrency?: number;
  perWebhook?: number;
  /** Subscriptions an account may have. Default 25. */
  maxPerAccount?: number;
  /** How long the secret before a rotation still signs (as a second signature). Default 24 h. */
  rotationOverlapMs?: number;
  /** Sends the requests (default: node:http and node:https, adapters/http/webhook-sender.ts). */
  sender?: WebhookSender;
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
  /**
   * Take up unfinished jobs of an earlier engine on the same persistence as soon as the engine starts
   * (default true). False: when the host calls `engine.resumeJobs()` (a server, once it listens).
   */
  resumeOnStart?: boolean;
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

import type { ResultRecord } from './results/read-result.js';

export type { ResultRecord };

export interface TaskView {
  task: ReviewTask;
  file: { fileId: string; name?: string; mediaType: string; pageCount: number };
  fields: Array<{
    fieldId: string;
    name: string;
    kind: string;
    value: unknown;
    confidence: number;
    boundingBox: VerboseFieldResult['boundingBox'];
    candidates: NonNullable<VerboseFieldResult['candidates']>;
  }>;
}

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
  /**
   * A fault for the operator: storing a change failed (the job is taken up again when the engine
   * restarts), a webhook delivery could not be stored, or a job failed INTERNAL (`error.cause` is what
   * was thrown, with its stack; the client sees only the code and a generic message). With no listener
   * the engine writes one line to stderr instead.
   */
  error: { jobId: string; error: DocexError };
  /**
   * A document was read into its token layer (not answered from the stored one): pages read from the
   * PDF's text, pages read by OCR, the time it took and the OCR time in it (ms, OCR summed over pages
   * read at once). Reading the pictures of born-digital pages later adds OCR time and no pages.
   */
  read: { accountId: string; fileId: string; textPages: number; ocrPages: number; ms: number; ocrMs: number };
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
  /**
   * Deletes a file, its token layer and results; with `withJobs`, also the records of its ended jobs
   * (otherwise they stay as a history). Answers whether the file was there.
   */
  deleteFile(fileId: string, options?: { accountId?: string; withJobs?: boolean }): Promise<boolean>;
  /** The svc.ingest work: reads the file into its token layer and stores it with the file. */
  ingest(fileId: string, options?: IngestCallOptions): Promise<TokenLayer>;
  /**
   * The stored token layer, or undefined when the file has not been ingested. Read-only: with the
   * in-memory persistence it is a frozen object shared by every reader (copy it to change it).
   */
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
  /** An API client of the account (never its secret); another account's is NOT_FOUND like an unknown one. */
  findClient(
    clientId: string,
    options?: { accountId?: string },
  ): Promise<{ clientId: string; accountId: string; createdAt: string }>;
  /**
   * Creates a reviewer of an account: a person who signs in to the review page with their own login
   * and password (stored as an scrypt hash). Logins are unique over every account: LOGIN_TAKEN.
   */
  createReviewer(input: NewReviewer, options?: { accountId?: string }): Promise<Reviewer>;
  /** The account's reviewers, oldest first. */
  listReviewers(options?: { accountId?: string }): Promise<Reviewer[]>;
  /** A reviewer of the account; another account's is REVIEWER_NOT_FOUND like an unknown one. */
  getReviewer(reviewerId: string, options?: { accountId?: string }): Promise<Reviewer>;
  /** Renames, changes the role or password of, disables or enables a reviewer; a new password, role or state ends their sessions. */
  updateReviewer(
    reviewerId: string,
    changes: ReviewerChanges,
    options?: { accountId?: string },
  ): Promise<Reviewer>;
  /** The enabled reviewer with this login and password (compared in constant time), or undefined. */
  authenticateReviewer(login: string, password: string): Promise<SignedInReviewer | undefined>;
  /** The reviewer of a review-page session while it is still valid (same session epoch, not disabled). */
  sessionReviewer(
    reviewerId: string,
    sessionEpoch: number,
    options?: { accountId?: string },
  ): Promise<SignedInReviewer | undefined>;
  /**
   * Teaches the memory of the file's supplier the values of a reviewed document (result names or field
   * ids to values; null: the document has none): later documents of that supplier are read with them
   * (docs/learning.md). Completing a review task does this with the task's values.
   */
  learn(
    fileId: string,
    values: Record<string, string | null>,
    options?: { accountId?: string },
  ): Promise<SupplierSummary>;
  /** The account's supplier memories, the most recently updated first. */
  listSuppliers(options?: { accountId?: string }): Promise<SupplierSummary[]>;
  /** A supplier memory whole, as `importSupplier` takes it back. */
  exportSupplier(supplierId: string, options?: { accountId?: string }): Promise<SupplierMemory>;
  /** Stores an exported supplier memory in the account (replacing one with its id), checked first. */
  importSupplier(memory: unknown, options?: { accountId?: string }): Promise<SupplierSummary>;
  /** Forgets what the account learned about a supplier. */
  forgetSupplier(supplierId: string, options?: { accountId?: string }): Promise<void>;
  /** Registers a custom workflow, invoked by its id like the built-in ones. */
  registerWorkflow(definition: WorkflowDefinition<Engine>): void;
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
  /** Forgets validation rules; RULES_NOT_FOUND when there were none under the id. */
  deleteValidationRules(rulesId: string, options?: { accountId?: string }): Promise<void>;
  /** Review tasks of the account, oldest first, by status and file. */
  listTasks(options?: {
    accountId?: string;
    status?: 'open' | 'completed';
    fileId?: string;
  }): Promise<ReviewTask[]>;
  getTask(taskId: string, options?: { accountId?: string }): Promise<ReviewTask>;
  /**
   * What a reviewer needs for a task: the task, its file (pages, type, name), and each field of the task
   * with its kind, value, confidence, box and the alternatives considered.
   */
  getTaskView(taskId: string, options?: { accountId?: string }): Promise<TaskView>;
  /**
   * A page of a file as an image: an uploaded PNG or JPEG as it is, a PDF page rendered (greyscale PNG,
   * at `dpi`, default 110) and kept with the file, so the next request does not render it again.
   */
  pageImage(
    fileId: string,
    pageNum: number,
    options?: { accountId?: string; dpi?: number },
  ): Promise<{ contentType: string; bytes: Uint8Array }>;
  /**
   * Completes a task with the reviewer's values (keys: the task's field ids or their result names);
   * the file's result then carries them. A completed task, or another account's, is an error.
   * `tokenIds` says, for values taken from words of the page, which words (ids of the token layer, one
   * page): the value's box is theirs. A typed value has no box; a value confirmed unchanged keeps its.
   */
  completeTask(
    taskId: string,
    body: { values: Record<string, unknown>; tokenIds?: Record<string, number[]> },
    options?: {
      accountId?: string;
      /** Who completes it, for the task's history. */
      by?: TaskActor;
      /** Checks the values and answers the task as it would be, without completing it. */
      dryRun?: boolean;
    },
  ): Promise<ReviewTask>;
  /**
   * Subscribes a URL to events of the account (`file.finalised`, `job.failed`, `task.created`,
   * `task.completed`); answers the subscription with its signing secret (shown only here and on rotation).
   */
  createWebhook(
    body: { url: string; events: string[] },
    options?: { accountId?: string },
  ): Promise<WebhookWithSecret>;
  listWebhooks(options?: { accountId?: string }): Promise<WebhookView[]>;
  getWebhook(webhookId: string, options?: { accountId?: string }): Promise<WebhookView>;
  /** Deletes the subscription; its deliveries not yet sent are dropped. */
  deleteWebhook(webhookId: string, options?: { accountId?: string }): Promise<void>;
  /** A new signing secret; the old one still signs beside it for `webhooks.rotationOverlapMs`. */
  rotateWebhookSecret(webhookId: string, options?: { accountId?: string }): Promise<WebhookWithSecret>;
  /** The subscription's deliveries, newest first: pending, delivered, and dead ones (retries exhausted). */
  listWebhookDeliveries(
    webhookId: string,
    options?: { accountId?: string; status?: DeliveryStatus; limit?: number },
  ): Promise<DeliveryView[]>;
  /**
   * Whether the engine can do its work now: its persistence and its file store answer (each within
   * 2 s), it is not closed; and whether the OCR workers have started (they start on first use, so not
   * started is not a failure). For a readiness probe (`GET /readyz`).
   */
  health(): Promise<EngineHealth>;
  /**
   * An account's usage by UTC day (jobs ended, failed, pages, pages OCRed, processing ms) from `from` to
   * `to` (`YYYY-MM-DD`, both included; default the current month), with totals and its page quotas.
   */
  /** What this process holds now (for metrics): jobs queued and running here, review tasks open in all accounts. */
  stats(): Promise<{ jobsQueued: number; jobsRunning: number; tasksOpen: number }>;
  getUsage(options?: {
    accountId?: string;
    from?: string | undefined;
    to?: string | undefined;
  }): Promise<UsageReport>;
  /** Subscribes to an event; returns the function that unsubscribes. */
  on<E extends keyof EngineEvents>(event: E, listener: (payload: EngineEvents[E]) => void): () => void;
  /**
   * Resolves when the engine has started: accounts stored by an earlier engine known, and unfinished
   * jobs found in persistence taken up (unless `jobs.resumeOnStart` is false: then by `resumeJobs()`).
   */
  readonly ready: Promise<void>;
  /**
   * Takes up the unfinished jobs found in persistence (queued again; running ones of a process that
   * ended run again, or fail JOB_INTERRUPTED after their attempts). Done at start unless
   * `jobs.resumeOnStart` is false; calling it again does nothing more.
   */
  resumeJobs(): Promise<void>;
  /**
   * Stops taking work, waits for running jobs (jobs.shutdownGraceMs; those still running are taken up by
   * the next engine on the same persistence), ends OCR workers and closes the persistence.
   */
  close(): Promise<void>;
}

/** An account's usage over a range of days (`engine.getUsage`, `GET /usage`). */
export interface UsageReport {
  from: string;
  to: string;
  days: UsageDay[];
  total: UsageFigures;
  quotas: {
    pagesPerDay: number | null;
    pagesPerMonth: number | null;
    /** Pages processed today and this month (UTC), whatever the range asked. */
    usedToday: number;
    usedThisMonth: number;
  };
}
