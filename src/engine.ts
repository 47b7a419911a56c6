import { randomUUID } from 'node:crypto';
import { AccountDirectory } from './core/accounts.js';
import { assertPlainData } from './core/plain-data.js';
import { DocexError, toDocexError } from './core/errors.js';
import { hashClientSecret, newClientSecret, verifyClientSecret } from './auth/client-secrets.js';
import type { StoredJob, StoredResult } from './core/jobs.js';
import type { FileRecord, MediaType, TokenLayer } from './core/types.js';
import { hasUnreadImageRegions, readImageRegions } from './documents/image-regions.js';
import { ingestDocument, type OcrMode } from './documents/ingest.js';
import { readWithLimit } from './documents/read-limited.js';
import { sniffMediaType } from './documents/sniff.js';
import { isPagedImage, openPagedImage } from './documents/multi-page-images.js';
import { createMemoryFileStore } from './adapters/stores/memory-file-store.js';
import { createMemoryPersistence } from './adapters/persistence/memory-persistence.js';
import { defaultImageBackend, defaultOcrEngine, defaultPdfWorkerPool } from './default-adapters.js';
import { extractFields } from './extraction/extract.js';
import { fieldsPicturesCouldAnswer } from './extraction/picture-fields.js';
import { createCatalogue } from './products/catalogue.js';
import { DEFAULT_PRODUCTS } from './products/builtin.js';
import type { FieldKind } from './products/types.js';
import type { ImageBackend } from './ports/image-backend.js';
import type { OcrEngine } from './ports/ocr-engine.js';
import type { PdfReader } from './ports/pdf-reader.js';
import type { PdfPageCopier } from './ports/pdf-page-copier.js';
import type { PdfWorkerPool } from './adapters/pdf/pdf-worker-pool.js';
import { splitWorkflow } from './workflows/split.js';
import { createJobClock } from './queue/job-clock.js';
import { timedOcr } from './documents/timed-ocr.js';
import { assertWithinQuota, figuresOfJob, utcDay } from './usage/quotas.js';
import { usageReport } from './usage/report.js';
import { FileSignals } from './queue/file-signals.js';
import { JobQueue } from './queue/job-queue.js';
import { plainField, readResult } from './results/read-result.js';
import { newJob } from './queue/new-job.js';
import { extractWorkflow, ingestWorkflow } from './workflows/builtin.js';
import { validateWorkflow } from './workflows/validate.js';
import { createRulesChecker } from './conditions/rules.js';
import type { RulesRecord } from './conditions/types.js';
import { completeTask, lessonOfTask, taskFields, toReviewTask } from './tasks/review-tasks.js';
import { summaryOf, supplierMemories } from './learning/supplier-memories.js';
import { createView } from './extraction/view.js';
import { documentHints } from './extraction/hints.js';
import { reviewerAccounts } from './reviewers/reviewers.js';
import { encodeGreyPng } from './documents/png.js';
import { WorkflowRegistry } from './workflows/registry.js';
import { createSchemaChecker } from './core/schema-checker.js';
import type { WorkflowDefinition } from './workflows/types.js';
import { parseList, parseWorkflowOptions, v1ProductIds } from './workflows/v1-upload.js';
import { createNodeWebhookSender } from './adapters/http/webhook-sender.js';
import { WebhookDispatcher } from './webhooks/dispatcher.js';
import { jobEvents, taskEvents } from './webhooks/events.js';
import { webhookSettings } from './webhooks/settings.js';
import { webhookSubscriptions } from './webhooks/subscriptions.js';

import type { Engine, EngineEvents, EngineOptions } from './engine-types.js';

const DEFAULT_ACCOUNT = 'default';
/** What an upload's metadata may hold: it is stored with the file record. */
const METADATA_LIMITS = { maxDepth: 32, maxBytes: 256 * 1024 };
/** What a job's inputs may hold (the HTTP body is 1 MB at most). */
const INPUTS_LIMITS = { maxDepth: 64, maxBytes: 4 * 1024 * 1024 };
const MAX_RESULT_WAIT_MS = 5 * 60_000;
const DEFAULT_RESULT_WAIT_MS = 30_000;
/** Scans and photos read with an average word confidence below this are read a second time. */
const DEFAULT_SECOND_READING_BELOW = 0.9;
/** Time a document may spend OCRing the pictures of its born-digital pages when a field needs them. */
const DEFAULT_PICTURE_BUDGET_MS = 3000;

export function createEngine(options: EngineOptions = {}): Engine {
  const files = options.files ?? createMemoryFileStore();
  const persistence = options.persistence ?? createMemoryPersistence();
  const accounts = new AccountDirectory(options.limits);
  const now = options.now ?? Date.now;
  const reviewers = reviewerAccounts(persistence, () => new Date(now()));
  const learning = supplierMemories(persistence, { shared: persistence.shared, now });
  /** Refuses work that would pass the account's page quotas (QUOTA_EXCEEDED). */
  const assertQuota = (accountId: string, pages: number): Promise<void> =>
    assertWithinQuota(accounts.get(accountId).limits, pages, now(), (from, to) =>
      persistence.listUsage(accountId, from, to),
    );
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
    secondReadingBelow: options.ingest?.secondReadingBelow ?? DEFAULT_SECOND_READING_BELOW,
    pictureBudgetMs: Math.max(0, options.ingest?.pictureBudgetMs ?? DEFAULT_PICTURE_BUDGET_MS),
  };
  let closed = false;

  // Heavy adapters start on first use and are shared by every call of this engine only.
  let pdf: Promise<PdfReader> | undefined;
  let ocr: Promise<OcrEngine> | undefined;
  let images: Promise<ImageBackend> | undefined;
  // pdf.js and pdf-lib in bounded worker threads, unless the host brings its own reader and copier.
  let pdfPool: Promise<PdfWorkerPool> | undefined;
  const pdfWorkers = (): Promise<PdfWorkerPool> => {
    const settings = isPdfReader(options.pdf) ? {} : (options.pdf ?? {});
    return (pdfPool ??= defaultPdfWorkerPool({
      ...settings,
      budget: { maxImagePixels: ingestSettings.maxPixels, ...settings.budget },
    }));
  };
  const pdfReader = (): Promise<PdfReader> =>
    (pdf ??= isPdfReader(options.pdf) ? Promise.resolve(options.pdf) : pdfWorkers());
  const ocrEngine = (): Promise<OcrEngine> =>
    (ocr ??= isOcrEngine(options.ocr)
      ? Promise.resolve(options.ocr)
      : defaultOcrEngine(options.ocr ?? {}, options.ocrEngine ?? 'auto'));
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
    if (isPagedImage(mediaType)) return openPagedImage(bytes, mediaType).count;
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
    const timed = timedOcr(ocrPort);
    const started = performance.now();
    let layer: TokenLayer;
    try {
      layer = await ingestDocument(
        { fileId: record.fileId, mediaType: record.mediaType, content: stored.content },
        { pdf: pdfPort, ocr: timed.ocr, images: imagePort },
        {
          ocr: mode,
          maxPages: accounts.get(accountId).limits.maxPages,
          maxPixels: ingestSettings.maxPixels,
          dpi: ingestSettings.dpi,
          pageConcurrency: ingestSettings.pageConcurrency ?? ocrWorkers(ocrPort),
          secondReadingBelow: ingestSettings.secondReadingBelow,
          // The store handed us a buffer of our own.
          ownsContent: true,
        },
      );
    } catch (error) {
      throw toDocexError(error, 'INTERNAL', 'The document could not be read.');
    }
    await persistence.putTokenLayer(accountId, record.fileId, layer);
    const ocrPages = layer.pages.filter((p) => p.source !== 'text').length;
    emit('read', {
      accountId,
      fileId: record.fileId,
      textPages: layer.pages.length - ocrPages,
      ocrPages,
      ms: performance.now() - started,
      ocrMs: timed.elapsedMs(),
    });
    return layer;
  }

  /**
   * The layer with its unread pictures read (when a field needs them: src/documents/image-regions.ts),
   * stored in place of the one given. Two callers asking at once share one reading.
   */
  async function readPictures(accountId: string, fileId: string, layer: TokenLayer): Promise<TokenLayer> {
    const key = `${accountId}\u0000${fileId}\u0000pictures`;
    let running = inFlight.get(key);
    if (!running) {
      running = (async () => {
        const stored = await files.get(accountId, fileId);
        if (!stored) throw new DocexError('FILE_NOT_FOUND', `No file with id ${fileId}.`);
        const [pdfPort, ocrPort, imagePort] = await Promise.all([pdfReader(), ocrEngine(), imageBackend()]);
        const timed = timedOcr(ocrPort);
        const started = performance.now();
        const read = await readImageRegions(
          stored.content,
          layer,
          { pdf: pdfPort, ocr: timed.ocr, images: imagePort },
          {
            dpi: ingestSettings.dpi,
            maxPixels: ingestSettings.maxPixels,
            budgetMs: ingestSettings.pictureBudgetMs,
          },
        );
        await persistence.putTokenLayer(accountId, fileId, read);
        // Pictures of pages already counted: OCR time, no pages.
        emit('read', {
          accountId,
          fileId,
          textPages: 0,
          ocrPages: 0,
          ms: performance.now() - started,
          ocrMs: timed.elapsedMs(),
        });
        return read;
      })().finally(() => inFlight.delete(key));
      inFlight.set(key, running);
    }
    return running;
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
  function track(write: Promise<unknown>, what = 'Account settings', jobId = ''): void {
    const tracked = write
      .catch((error: unknown) =>
        emit('error', {
          jobId,
          error: toDocexError(error, 'INTERNAL', `${what} could not be stored.`),
        }),
      )
      .finally(() => writes.delete(tracked));
    writes.add(tracked);
  }
  const rulesChecker = createRulesChecker(schemaChecker);

  // ---- webhooks: events raised in the outbox with the changes, sent by the dispatcher ----
  const hooks = webhookSettings(options.webhooks);
  const eventClock = (): number => Date.now();
  const subscriptions = webhookSubscriptions(persistence, {
    allowPrivateTargets: hooks.allowPrivateTargets,
    maxPerAccount: hooks.maxPerAccount,
    rotationOverlapMs: hooks.rotationOverlapMs,
    now: eventClock,
  });
  const dispatcher = hooks.deliver
    ? new WebhookDispatcher({
        outbox: persistence,
        sender: options.webhooks?.sender ?? createNodeWebhookSender(),
        owner,
        shared: persistence.shared,
        settings: hooks.dispatch,
        allowPrivateTargets: hooks.allowPrivateTargets,
        onError: (error) =>
          emit('error', {
            jobId: '',
            error: toDocexError(error, 'INTERNAL', 'A webhook delivery could not be stored.'),
          }),
      })
    : undefined;

  function emit<E extends keyof EngineEvents>(event: E, payload: EngineEvents[E]): void {
    const set = listeners.get(event);
    // An error nobody listens to is not lost: one line on stderr, as Node reports unhandled errors.
    if (event === 'error' && (!set || set.size === 0)) {
      const { jobId, error } = payload as EngineEvents['error'];
      const cause = error.cause instanceof Error ? ` (${error.cause.message})` : '';
      process.stderr.write(
        `docex: ${error.code}${jobId ? ` in job ${jobId}` : ''}: ${error.message}${cause}\n`,
      );
      return;
    }
    for (const listener of set ?? []) {
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
    raiseOf: (job) => jobEvents(job, eventClock),
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
      // Only the process that ended a job sees this change: its usage is added once.
      const status = job.record.status;
      if (status === 'succeeded' || status === 'failed') {
        const figures = figuresOfJob(status, job.record.usage);
        track(persistence.addUsage(job.accountId, utcDay(now()), figures), 'Usage', job.record.id);
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
      if (job.record.file_id) signals.notify(fileKey(job.accountId, job.record.file_id));
      if (job.record.status !== 'new' && job.record.status !== 'running') dispatcher?.poke();
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
      if (!knownFile && typeof checked.file_id === 'string') {
        const file = await requireFile(accountId, checked.file_id);
        await assertQuota(accountId, file.pageCount);
      } else if (!knownFile) {
        await assertQuota(accountId, 0);
      }
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

  /** Teaches the memory of the file's supplier the reviewed values (by result name). */
  async function learnFrom(
    accountId: string,
    fileId: string,
    values: Record<string, string | null>,
    outcomes?: Record<string, boolean>,
  ) {
    const record = await requireFile(accountId, fileId);
    const layer =
      (await readTokenLayer(accountId, record.fileId)) ?? (await engine.ingest(record.fileId, { accountId }));
    const view = createView(layer);
    const kinds = fieldKinds();
    return learning.learn(accountId, {
      view,
      hints: documentHints(view, record.locale ?? accounts.get(accountId).locale),
      values,
      kindOf: (name) => kinds.get(name),
      ...(outcomes ? { outcomes } : {}),
    });
  }

  const engine: Engine = {
    namespace,
    catalogue,
    ready: Promise.resolve(),
    resumeJobs: () => Promise.resolve(),

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
      let layer = await engine.ingest(fileId, { accountId });
      const record = await requireFile(accountId, fileId);
      const locale = opts.locale ?? record.locale ?? account.locale;
      const extractOptions = {
        fields: selection.fieldsets.flatMap((f) => f.fields),
        ...(locale ? { locale } : {}),
        // What reviews of the account's suppliers taught, for a document of one of them.
        suppliers: await learning.forAccount(accountId),
      };
      let fields = extractFields(layer, extractOptions);
      // Pictures of born-digital pages are read only when the text left a field they could answer.
      if (
        ingestSettings.pictureBudgetMs > 0 &&
        hasUnreadImageRegions(layer) &&
        fieldsPicturesCouldAnswer(fields).length > 0
      ) {
        layer = await readPictures(accountId, record.fileId, layer);
        fields = extractFields(layer, extractOptions);
      }
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
          'The file is not a PDF, PNG, JPEG, TIFF or GIF (judged by its content).',
        );
      }
      // Checked before anything is read or stored: a record that cannot be kept stores nothing.
      if (uploadOptions.metadata !== undefined)
        assertPlainData(uploadOptions.metadata, METADATA_LIMITS, 'metadata');
      const enforce = uploadOptions.enforcePageLimit !== false;
      // Without enforcement (v1 uploads) a PDF that cannot be read is accepted here and fails when read.
      // A split child's pages are known (copied from its parent): no need to open it again to count them.
      const parent = uploadOptions.parent;
      const pageCount = parent
        ? parent.pages[1] - parent.pages[0] + 1
        : enforce
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
      const chosen = v1ProductIds(v1);
      // None chosen (fieldSets=[]): the account's products when it has a list, else the default ones.
      const productIds =
        chosen.length > 0 ? chosen : [...(accounts.get(accountId).subscriptions ?? DEFAULT_PRODUCTS)];
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
      if (v1.metadata !== undefined) assertPlainData(v1.metadata, METADATA_LIMITS, 'metadata');
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
        // The pages are known once the file is read: a file that would pass a quota is not kept.
        await assertQuota(accountId, record.pageCount);
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
      // Before the schema check and the copies a job makes (both recurse): bounded depth and size.
      assertPlainData(body.inputs, INPUTS_LIMITS, 'inputs', 'INVALID_INPUTS');
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
        let state: Awaited<ReturnType<typeof readResult>>;
        try {
          state = await readResult(persistence, accountId, record, {
            verbose: opts.verbose === true,
            namespace,
          });
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

    async deleteValidationRules(rulesId, opts = {}) {
      assertOpen();
      const accountId = opts.accountId ?? DEFAULT_ACCOUNT;
      await engine.getValidationRules(rulesId, { accountId });
      await persistence.putRules(accountId, checkRulesId(rulesId), undefined);
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

    async getTaskView(taskId, opts = {}) {
      const accountId = opts.accountId ?? DEFAULT_ACCOUNT;
      const stored = await requireTask(accountId, taskId);
      const task = toReviewTask(stored);
      const record = await requireFile(accountId, stored.fileId);
      const kinds = fieldKinds();
      const extracted = taskFields(stored);
      const fields = task.field_ids.map((fieldId) => {
        const name = fieldId.startsWith(`${namespace}.`) ? fieldId.slice(namespace.length + 1) : fieldId;
        const field = extracted.find((f) => f.name === name);
        return {
          fieldId,
          name,
          kind: kinds.get(name) ?? 'text',
          value: field?.value ?? null,
          confidence: field?.confidence ?? 0,
          boundingBox: field?.boundingBox ?? null,
          candidates: field?.candidates ?? [],
        };
      });
      const file = {
        fileId: record.fileId,
        mediaType: record.mediaType,
        pageCount: record.pageCount,
        ...(record.name !== undefined ? { name: record.name } : {}),
      };
      return { task, file, fields };
    },

    async pageImage(fileId, pageNum, opts = {}) {
      const accountId = opts.accountId ?? DEFAULT_ACCOUNT;
      const record = await requireFile(accountId, fileId);
      if (!Number.isInteger(pageNum) || pageNum < 1 || pageNum > Math.max(1, record.pageCount)) {
        throw new DocexError('NOT_FOUND', `The file has no page ${String(pageNum).slice(0, 16)}.`);
      }
      if (isPagedImage(record.mediaType)) {
        // A TIFF's page (a GIF's frame) as PNG, as browsers and clients show PNG; kept with the file.
        const artifact = `page-${pageNum}.png`;
        const cached = await files.getArtifact(accountId, record.fileId, artifact);
        if (cached) return { contentType: 'image/png', bytes: cached };
        const paged = openPagedImage(await engine.readFile(record.fileId, { accountId }), record.mediaType);
        const bytes = encodeGreyPng(paged.page(pageNum, ingestSettings.maxPixels));
        await files.putArtifact(accountId, record.fileId, artifact, bytes);
        return { contentType: 'image/png', bytes };
      }
      if (record.mediaType !== 'application/pdf') {
        return { contentType: record.mediaType, bytes: await engine.readFile(record.fileId, { accountId }) };
      }
      const dpi = Math.round(Math.min(200, Math.max(50, opts.dpi ?? 110)));
      const artifact = `page-${pageNum}-${dpi}.png`;
      const cached = await files.getArtifact(accountId, record.fileId, artifact);
      if (cached) return { contentType: 'image/png', bytes: cached };
      const doc = await (
        await pdfReader()
      ).open(await engine.readFile(record.fileId, { accountId }), { transfer: true });
      let bytes: Uint8Array;
      try {
        const page = await doc.page(pageNum);
        const { image } = await page.render({ dpi, maxPixels: 12_000_000 });
        page.release();
        bytes = encodeGreyPng(image);
      } catch (error) {
        throw toDocexError(error, 'PDF_CORRUPT', 'The page could not be rendered.');
      } finally {
        await doc.close();
      }
      await files.putArtifact(accountId, record.fileId, artifact, bytes);
      return { contentType: 'image/png', bytes };
    },

    async completeTask(taskId, body, opts = {}) {
      assertOpen();
      const accountId = opts.accountId ?? DEFAULT_ACCOUNT;
      const task = await requireTask(accountId, taskId);
      const kinds = fieldKinds();
      const given = typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};
      // Values taken from words of the page keep those words' box: the document's words are read then.
      const layer =
        given.tokenIds !== undefined ? await persistence.getTokenLayer(accountId, task.fileId) : undefined;
      const completed = completeTask(
        task,
        given.values,
        {
          namespace,
          kindOf: (name) => kinds.get(name),
          now: new Date().toISOString(),
          ...(opts.by ? { by: opts.by } : {}),
          ...(layer ? { tokens: layer.tokens } : {}),
        },
        given.tokenIds,
      );
      if (opts.dryRun) return toReviewTask(completed);
      if (
        !(await persistence.updateTask(
          completed,
          task.version,
          taskEvents(completed, 'completed', eventClock),
        ))
      ) {
        throw new DocexError('TASK_ALREADY_COMPLETED', `Task ${task.id} was completed meanwhile.`);
      }
      signals.notify(fileKey(accountId, task.fileId));
      dispatcher?.poke();
      // The review teaches the supplier's memory; a failure to store it never fails the completion.
      const lesson = lessonOfTask(completed);
      if (lesson) {
        await learnFrom(accountId, task.fileId, lesson.values, lesson.outcomes).catch((error: unknown) =>
          emit('error', {
            jobId: '',
            error: toDocexError(error, 'INTERNAL', 'What the review taught could not be stored.'),
          }),
        );
      }
      return toReviewTask(completed);
    },

    async learn(fileId, values, opts = {}) {
      assertOpen();
      const accountId = opts.accountId ?? DEFAULT_ACCOUNT;
      if (typeof values !== 'object' || values === null || Array.isArray(values)) {
        throw new DocexError('INVALID_ARGUMENT', 'The values must be an object of field name to value.');
      }
      const byName: Record<string, string | null> = {};
      for (const [key, value] of Object.entries(values)) {
        const name = key.startsWith(`${namespace}.`) ? key.slice(namespace.length + 1) : key;
        if (typeof value === 'string' || value === null) byName[name] = value;
      }
      return summaryOf(await learnFrom(accountId, fileId, byName));
    },

    listSuppliers(opts = {}) {
      return learning.list(opts.accountId ?? DEFAULT_ACCOUNT);
    },
    exportSupplier(supplierId, opts = {}) {
      return learning.export(opts.accountId ?? DEFAULT_ACCOUNT, supplierId);
    },
    importSupplier(memory, opts = {}) {
      assertOpen();
      return learning.import(opts.accountId ?? DEFAULT_ACCOUNT, memory);
    },
    forgetSupplier(supplierId, opts = {}) {
      return learning.forget(opts.accountId ?? DEFAULT_ACCOUNT, supplierId);
    },

    async createWebhook(body, opts = {}) {
      assertOpen();
      return subscriptions.create(opts.accountId ?? DEFAULT_ACCOUNT, body);
    },

    async listWebhooks(opts = {}) {
      return subscriptions.list(opts.accountId ?? DEFAULT_ACCOUNT);
    },

    async getWebhook(webhookId, opts = {}) {
      return subscriptions.get(opts.accountId ?? DEFAULT_ACCOUNT, webhookId);
    },

    async deleteWebhook(webhookId, opts = {}) {
      await subscriptions.delete(opts.accountId ?? DEFAULT_ACCOUNT, webhookId);
    },

    async rotateWebhookSecret(webhookId, opts = {}) {
      assertOpen();
      return subscriptions.rotateSecret(opts.accountId ?? DEFAULT_ACCOUNT, webhookId);
    },

    async listWebhookDeliveries(webhookId, opts = {}) {
      const { accountId, ...query } = opts;
      return subscriptions.deliveries(accountId ?? DEFAULT_ACCOUNT, webhookId, query);
    },

    async health() {
      const persistenceCheck = await probe(() => persistence.listAccounts());
      // A file id no upload has: the store is asked, nothing is found.
      const filesCheck = await probe(() =>
        files.stat('\u0000health', '00000000-0000-4000-8000-000000000000'),
      );
      const ocrCheck = { ok: true, ms: 0, started: ocr !== undefined };
      const ready = !closed && persistenceCheck.ok && filesCheck.ok;
      return { ready, checks: { persistence: persistenceCheck, files: filesCheck, ocr: ocrCheck } };
    },

    async stats() {
      return {
        jobsQueued: queue.queued,
        jobsRunning: queue.running,
        tasksOpen: await persistence.countTasks('open'),
      };
    },

    async getUsage(opts = {}) {
      const accountId = opts.accountId ?? DEFAULT_ACCOUNT;
      return usageReport(persistence, accountId, accounts.get(accountId).limits, now(), opts);
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
      await persistence.deleteFileData(accountId, id, { jobs: opts.withJobs === true });
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
        // An id no client can have (too long, a NUL character that no store keeps) is unknown.
        typeof clientId === 'string' && clientId.length <= 128 && !clientId.includes('\u0000')
          ? await persistence.getClient(clientId)
          : undefined;
      const ok = await verifyClientSecret(String(clientSecret).slice(0, 1024), client?.secretHash);
      return ok && client ? client.accountId : undefined;
    },

    async findClient(clientId, opts = {}) {
      const accountId = opts.accountId ?? DEFAULT_ACCOUNT;
      const client =
        typeof clientId === 'string' && clientId.length <= 128 && !clientId.includes('\u0000')
          ? await persistence.getClient(clientId)
          : undefined;
      if (!client || client.accountId !== accountId) {
        throw new DocexError('NOT_FOUND', `No client with id ${String(clientId).slice(0, 64)}.`);
      }
      return { clientId: client.clientId, accountId: client.accountId, createdAt: client.createdAt };
    },

    getAccount(accountId) {
      return accounts.get(accountId);
    },

    createReviewer(input, opts = {}) {
      assertOpen();
      return reviewers.createReviewer(opts.accountId ?? DEFAULT_ACCOUNT, input);
    },
    listReviewers(opts = {}) {
      return reviewers.listReviewers(opts.accountId ?? DEFAULT_ACCOUNT);
    },
    getReviewer(reviewerId, opts = {}) {
      return reviewers.getReviewer(opts.accountId ?? DEFAULT_ACCOUNT, reviewerId);
    },
    updateReviewer(reviewerId, changes, opts = {}) {
      assertOpen();
      return reviewers.updateReviewer(opts.accountId ?? DEFAULT_ACCOUNT, reviewerId, changes);
    },
    authenticateReviewer(login, password) {
      return reviewers.authenticateReviewer(login, password);
    },
    sessionReviewer(reviewerId, sessionEpoch, opts = {}) {
      return reviewers.sessionReviewer(opts.accountId ?? DEFAULT_ACCOUNT, reviewerId, sessionEpoch);
    },

    async close() {
      if (closed) return;
      closed = true;
      signals.notifyAll();
      await engine.ready.catch(() => undefined);
      await resumed?.catch(() => undefined);
      await queue.stop(jobSettings.shutdownGraceMs);
      await dispatcher?.stop();
      await Promise.allSettled([...writes]);
      await unsubscribe?.().catch(() => undefined);
      if (ocr) await (await ocr).close();
      if (pdfPool) await (await pdfPool).close();
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
          if (!(await persistence.getTask(task.accountId, task.id)))
            await persistence.insertTask(task, taskEvents(task, 'created', eventClock));
        }
        dispatcher?.poke();
      },
      now: () => new Date().toISOString(),
    }),
  );
  let copier: Promise<PdfPageCopier> | undefined;
  let unsubscribe: (() => Promise<void>) | undefined;
  registry.register(
    splitWorkflow({
      namespace,
      copier: () => (copier ??= options.pdfPages ? Promise.resolve(options.pdfPages) : pdfWorkers()),
      putTokenLayer: (accountId, fileId, layer) => persistence.putTokenLayer(accountId, fileId, layer),
      fields: () => catalogue.fieldsets().flatMap((f) => f.fields),
      maxPixels: ingestSettings.maxPixels,
    }),
  );
  for (const definition of options.workflows ?? []) registry.register(definition);

  // The engine starts after the current macrotask, so workflows the host registers right after
  // createEngine are known by then; unfinished jobs of an earlier engine on the same persistence are
  // taken up then too, unless the host asked to say when (a server first listens, then takes them up).
  const started = new Promise<void>((resolve) => setTimeout(resolve, 0)).then(async () => {
    // Closed before it started (createEngine then close at once): nothing to take up.
    if (closed) return;
    // Shared storage: other processes' changes wake result requests waiting here, and new or released
    // jobs wake this process's claims.
    if (persistence.shared && persistence.subscribe) {
      unsubscribe = await persistence.subscribe((change) => {
        if (change.fileId) signals.notify(fileKey(change.accountId, change.fileId));
        if (change.kind === 'job') queue.poke();
        dispatcher?.poke();
      });
    }
    // Accounts stored by an earlier engine, unless this one configured them already.
    for (const { accountId, settings } of await persistence.listAccounts()) {
      if (!accounts.has(accountId)) accounts.configure(accountId, settings);
    }
    // Deliveries an earlier process left (its crash included) are sent from now on.
    if (!closed) dispatcher?.start();
  });
  let resumed: Promise<void> | undefined;
  const startFailed = (error: unknown): void => {
    emit('error', {
      jobId: '',
      error: toDocexError(error, 'INTERNAL', 'Unfinished jobs could not be taken up.'),
    });
  };
  const resumeJobs = (): Promise<void> =>
    (resumed ??= started
      .then(async () => {
        if (!closed) await queue.recover();
      })
      .catch(startFailed));
  (engine as { resumeJobs: () => Promise<void> }).resumeJobs = resumeJobs;
  (engine as { ready: Promise<void> }).ready =
    options.jobs?.resumeOnStart === false ? started.catch(startFailed) : resumeJobs();

  function v1WorkflowId(id: string | undefined): string {
    // `process` is the original service's name for its default workflow: extraction.
    const given = id?.trim();
    const name = !given || given === 'process' ? 'extract' : given;
    if (registry.has(`${namespace}.${name}`)) return `${namespace}.${name}`;
    if (registry.has(name)) return name;
    throw new DocexError('UNKNOWN_WORKFLOW', `No workflow ${name.slice(0, 128)} for v1 uploads.`, {
      details: [{ path: '/workflowId', message: 'unknown workflow' }],
    });
  }

  return engine;
}

/** Runs a check within 2 s: ok, or why not (the error's message, never its stack). */
async function probe(check: () => Promise<unknown>): Promise<{ ok: boolean; ms: number; message?: string }> {
  const started = performance.now();
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    await Promise.race([
      check(),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error('no answer within 2 s')), 2000);
      }),
    ]);
    return { ok: true, ms: Math.round(performance.now() - started) };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return { ok: false, ms: Math.round(performance.now() - started), message: message.slice(0, 200) };
  } finally {
    clearTimeout(timer);
  }
}

function positive(value: number | undefined, fallback: number): number {
  return value !== undefined && Number.isFinite(value) && value >= 1 ? Math.floor(value) : fallback;
}

/** How many pages an OCR engine can work on at once, when it says so (both tesseract adapters do). */
function ocrWorkers(engine: OcrEngine): number {
  const size = engine.concurrency;
  return typeof size === 'number' && size >= 1 ? Math.floor(size) : 1;
}

function isPdfReader(value: unknown): value is PdfReader {
  return typeof (value as PdfReader | undefined)?.open === 'function';
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
