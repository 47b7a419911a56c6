import { randomUUID } from 'node:crypto';
import { AccountDirectory, type AccountLimits, type AccountSettings } from './core/accounts.js';
import { DocexError, toDocexError } from './core/errors.js';
import type { FileRecord, MediaType, TokenLayer } from './core/types.js';
import { ingestDocument, type OcrMode } from './documents/ingest.js';
import { readWithLimit, type UploadInput } from './documents/read-limited.js';
import { sniffMediaType } from './documents/sniff.js';
import { createMemoryFileStore } from './adapters/stores/memory-file-store.js';
import { defaultImageBackend, defaultOcrEngine, defaultPdfReader } from './default-adapters.js';
import type { TesseractOcrOptions } from './adapters/ocr/tesseract-ocr.js';
import { extractFields } from './extraction/extract.js';
import type { ExtractionResult, FieldResult } from './extraction/types.js';
import { createCatalogue, type Catalogue } from './products/catalogue.js';
import type { FieldsetDefinition, ProductDefinition } from './products/types.js';
import type { FileStore } from './ports/file-store.js';
import type { ImageBackend } from './ports/image-backend.js';
import type { OcrEngine } from './ports/ocr-engine.js';
import type { PdfReader } from './ports/pdf-reader.js';

export interface EngineOptions {
  /** Where files and token layers are kept. Default: in memory. */
  files?: FileStore;
  /** PDF reader. Default: pdfjs-dist. */
  pdf?: PdfReader;
  /** OCR engine, or options for the default tesseract.js pool. */
  ocr?: OcrEngine | TesseractOcrOptions;
  /** Image backend. Default: sharp when installed, else jimp. */
  images?: ImageBackend | 'sharp' | 'jimp';
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
  upload(input: UploadInput, options?: UploadOptions): Promise<FileRecord>;
  getFile(fileId: string, options?: { accountId?: string }): Promise<FileRecord>;
  listFiles(options?: { accountId?: string }): Promise<FileRecord[]>;
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
  /** Ends OCR workers and refuses further work. */
  close(): Promise<void>;
}

const DEFAULT_ACCOUNT = 'default';
const TOKEN_LAYER_ARTIFACT = 'tokens.json';

export function createEngine(options: EngineOptions = {}): Engine {
  const files = options.files ?? createMemoryFileStore();
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
    const bytes = await files.getArtifact(accountId, fileId, TOKEN_LAYER_ARTIFACT);
    return bytes ? (JSON.parse(new TextDecoder().decode(bytes)) as TokenLayer) : undefined;
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
    await files.putArtifact(
      accountId,
      record.fileId,
      TOKEN_LAYER_ARTIFACT,
      new TextEncoder().encode(JSON.stringify(layer)),
    );
    return layer;
  }

  const engine: Engine = {
    namespace,
    catalogue,

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
      const locale = opts.locale ?? account.locale;
      const fields = extractFields(layer, {
        fields: selection.fieldsets.flatMap((f) => f.fields),
        ...(locale ? { locale } : {}),
      });
      return {
        timestamp: new Date().toISOString(),
        fields: opts.verbose ? fields : fields.map(plainField),
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
        fileId: randomUUID(),
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
      await files.put(record, bytes);
      return record;
    },

    async getFile(fileId, opts = {}) {
      return requireFile(opts.accountId ?? DEFAULT_ACCOUNT, fileId);
    },

    async listFiles(opts = {}) {
      return files.list(opts.accountId ?? DEFAULT_ACCOUNT);
    },

    async deleteFile(fileId, opts = {}) {
      return files.delete(opts.accountId ?? DEFAULT_ACCOUNT, checkId(fileId));
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
      return accounts.configure(accountId, settings);
    },

    getAccount(accountId) {
      return accounts.get(accountId);
    },

    async close() {
      closed = true;
      if (ocr) await (await ocr).close();
    },
  };
  return engine;
}

/** How many pages an OCR engine can work on at once, when it says so (the tesseract pool does). */
function ocrWorkers(engine: OcrEngine): number {
  const size = (engine as { size?: unknown }).size;
  return typeof size === 'number' && size >= 1 ? size : 1;
}

/** Exactly the spec's field object: name, value, confidence, boundingBox. */
function plainField(field: FieldResult): FieldResult {
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
