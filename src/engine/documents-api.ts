import { randomUUID } from 'node:crypto';
import { DocexError, toDocexError } from '../core/errors.js';
import { assertPlainData } from '../core/plain-data.js';
import type { FileRecord, MediaType, TokenLayer } from '../core/types.js';
import { hasUnreadImageRegions, readImageRegions } from '../documents/image-regions.js';
import { ingestDocument, type OcrMode } from '../documents/ingest.js';
import { isPagedImage, openPagedImage } from '../documents/multi-page-images.js';
import { readWithLimit } from '../documents/read-limited.js';
import { sniffMediaType } from '../documents/sniff.js';
import { timedOcr } from '../documents/timed-ocr.js';
import type { Engine, IngestCallOptions } from '../engine-types.js';
import { extractFields } from '../extraction/extract.js';
import { fieldsPicturesCouldAnswer } from '../extraction/picture-fields.js';
import { plainField } from '../results/read-result.js';
import { checkFileId, type EngineContext } from './context.js';
import { ocrWorkers } from './lazy-adapters.js';
import { METADATA_LIMITS } from './settings.js';

export type DocumentsApi = Pick<
  Engine,
  | 'upload'
  | 'uploadV2'
  | 'getFile'
  | 'readFile'
  | 'listFiles'
  | 'deleteFile'
  | 'ingest'
  | 'getTokenLayer'
  | 'extract'
>;

/** Files and their reading: upload, the token layer (text layer or OCR), extraction. */
export function documentsApi(ctx: EngineContext): DocumentsApi {
  const { files, persistence, adapters, settings, accounts, emit } = ctx;
  /** Readings under way, by account, file and mode: two callers asking at once share one. */
  const inFlight = new Map<string, Promise<TokenLayer>>();

  async function countPages(mediaType: MediaType, bytes: Uint8Array): Promise<number> {
    if (isPagedImage(mediaType)) return openPagedImage(bytes, mediaType).count;
    if (mediaType !== 'application/pdf') return 1;
    const doc = await (await adapters.pdfReader()).open(bytes);
    try {
      return doc.pageCount;
    } finally {
      await doc.close();
    }
  }

  /** A stored file's bytes; FILE_NOT_FOUND when it is gone. */
  async function contentOf(accountId: string, fileId: string): Promise<Uint8Array> {
    const stored = await files.get(accountId, fileId);
    if (!stored) throw new DocexError('FILE_NOT_FOUND', `No file with id ${fileId}.`);
    return stored.content;
  }

  /** What reading a document takes: the file's bytes and the adapters, its OCR timed, the start. */
  async function readingOf(accountId: string, fileId: string) {
    const content = await contentOf(accountId, fileId);
    const [pdf, ocr, images] = await Promise.all([
      adapters.pdfReader(),
      adapters.ocrEngine(),
      adapters.imageBackend(),
    ]);
    const timed = timedOcr(ocr);
    return {
      content,
      ports: { pdf, ocr: timed.ocr, images },
      ocrWorkers: ocrWorkers(ocr),
      ocrMs: timed.elapsedMs,
      started: performance.now(),
    };
  }

  /** The reading under way for `key`, or `work` started and shared until it ends. */
  function shared(key: string, work: () => Promise<TokenLayer>): Promise<TokenLayer> {
    let running = inFlight.get(key);
    if (!running) {
      running = work().finally(() => inFlight.delete(key));
      inFlight.set(key, running);
    }
    return running;
  }

  async function runIngest(accountId: string, record: FileRecord, mode: OcrMode): Promise<TokenLayer> {
    const reading = await readingOf(accountId, record.fileId);
    let layer: TokenLayer;
    try {
      layer = await ingestDocument(
        { fileId: record.fileId, mediaType: record.mediaType, content: reading.content },
        reading.ports,
        {
          ocr: mode,
          maxPages: accounts.get(accountId).limits.maxPages,
          maxPixels: settings.ingest.maxPixels,
          dpi: settings.ingest.dpi,
          pageConcurrency: settings.ingest.pageConcurrency ?? reading.ocrWorkers,
          secondReadingBelow: settings.ingest.secondReadingBelow,
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
      ms: performance.now() - reading.started,
      ocrMs: reading.ocrMs(),
    });
    return layer;
  }

  /**
   * The layer with its unread pictures read (when a field needs them: src/documents/image-regions.ts),
   * stored in place of the one given. Two callers asking at once share one reading.
   */
  function readPictures(accountId: string, fileId: string, layer: TokenLayer): Promise<TokenLayer> {
    return shared(`${accountId}\u0000${fileId}\u0000pictures`, async () => {
      const reading = await readingOf(accountId, fileId);
      const read = await readImageRegions(reading.content, layer, reading.ports, {
        dpi: settings.ingest.dpi,
        maxPixels: settings.ingest.maxPixels,
        budgetMs: settings.ingest.pictureBudgetMs,
      });
      await persistence.putTokenLayer(accountId, fileId, read);
      // Pictures of pages already counted: OCR time, no pages.
      emit('read', {
        accountId,
        fileId,
        textPages: 0,
        ocrPages: 0,
        ms: performance.now() - reading.started,
        ocrMs: reading.ocrMs(),
      });
      return read;
    });
  }

  async function ingest(fileId: string, opts: IngestCallOptions = {}): Promise<TokenLayer> {
    ctx.assertOpen();
    const accountId = ctx.accountOf(opts);
    const record = await ctx.requireFile(accountId, fileId);
    if (!opts.force) {
      const stored = await persistence.getTokenLayer(accountId, record.fileId);
      if (stored) return stored;
    }
    const mode = opts.ocr ?? settings.ingest.ocr;
    // Two callers asking for the same document share one reading.
    return shared(`${accountId}\u0000${record.fileId}\u0000${mode}`, () =>
      runIngest(accountId, record, mode),
    );
  }

  const upload: Engine['upload'] = async (input, uploadOptions = {}) => {
    ctx.assertOpen();
    const accountId = ctx.accountOf(uploadOptions);
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
  };

  return {
    upload,

    async uploadV2(input, uploadOptions = {}) {
      const record = await upload(input, { ...uploadOptions, enforcePageLimit: true, flow: 'v2' });
      return {
        id: record.fileId,
        fileId: record.fileId,
        uploadedAt: record.uploadedAt,
        status: record.status,
      };
    },

    async getFile(fileId, opts = {}) {
      return ctx.requireFile(ctx.accountOf(opts), fileId);
    },

    async readFile(fileId, opts = {}) {
      const stored = await files.get(ctx.accountOf(opts), checkFileId(fileId));
      if (!stored) throw new DocexError('FILE_NOT_FOUND', `No file with id ${fileId}.`);
      return stored.content;
    },

    async listFiles(opts = {}) {
      const list = await files.list(ctx.accountOf(opts));
      const tag = opts.tag;
      return tag === undefined ? list : list.filter((f) => f.tags?.includes(tag));
    },

    async deleteFile(fileId, opts = {}) {
      const accountId = ctx.accountOf(opts);
      const id = checkFileId(fileId);
      const deleted = await files.delete(accountId, id);
      await persistence.deleteFileData(accountId, id, { jobs: opts.withJobs === true });
      return deleted;
    },

    ingest,

    async getTokenLayer(fileId, opts = {}) {
      const accountId = ctx.accountOf(opts);
      return persistence.getTokenLayer(accountId, (await ctx.requireFile(accountId, fileId)).fileId);
    },

    async extract(fileId, productIds, opts = {}) {
      ctx.assertOpen();
      const accountId = ctx.accountOf(opts);
      // Refused before any work: an id the account may not use, or one that does not exist.
      const selection = ctx.resolveProducts(accountId, productIds);
      let layer = await ingest(fileId, { accountId });
      const record = await ctx.requireFile(accountId, fileId);
      const locale = opts.locale ?? record.locale ?? accounts.get(accountId).locale;
      const extractOptions = {
        fields: selection.fieldsets.flatMap((f) => f.fields),
        ...(locale ? { locale } : {}),
        // What reviews of the account's suppliers taught, for a document of one of them.
        suppliers: await ctx.learning.forAccount(accountId),
      };
      let fields = extractFields(layer, extractOptions);
      // Pictures of born-digital pages are read only when the text left a field they could answer.
      if (
        settings.ingest.pictureBudgetMs > 0 &&
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
  };
}
