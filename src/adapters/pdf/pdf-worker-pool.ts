import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
import { DocexError, type ErrorCode } from '../../core/errors.js';
import type { GreyImage } from '../../ports/image-backend.js';
import type { PdfPageCopier } from '../../ports/pdf-page-copier.js';
import type { ImagePlacement, PdfDocument, PdfPage, PdfReader, TextRun } from '../../ports/pdf-reader.js';
import type { Box } from '../../core/types.js';
import { siblingModule, workerArgs } from '../threads/worker-module.js';
import { DEFAULT_PDF_BUDGET, type PdfBudget } from './pdf-budget.js';
import type { FromPdfWorker, PdfCall, PdfWorkerData, ToPdfWorker } from './pdf-worker-protocol.js';

/**
 * PDF reading off the host's thread, bounded in time and memory.
 *
 * pdf.js is JavaScript that trusts the file: a 1 KB PDF can make it allocate gigabytes or loop for
 * minutes, synchronously, and nothing on its thread (job timeouts, signals, other requests) runs
 * meanwhile. Here every document is read in a worker thread of a small pool, one document per thread
 * at a time, and the thread is ended when the document passes a bound:
 * - **time**: each call (open, a page's text, a rendering...) has `callTimeoutMs`, and all calls of one
 *   document together `documentTimeoutMs` (time with a call in flight; by default 25 s and 5 s a
 *   page): the document fails with PDF_TOO_COMPLEX;
 * - **JavaScript heap**: the thread's `resourceLimits` (`heapMb`): PDF_RESOURCE_LIMIT;
 * - **all memory** (typed arrays and wasm live outside the heap, so the heap limit misses decoded
 *   images and inflated streams): the process's resident memory is sampled while calls run, and when it
 *   grows more than `memoryBudgetMb` over its low point of the last 30 s, the thread that grew it is
 *   ended (on Linux the one whose thread took the most page faults since its calls began; elsewhere
 *   the longest-running): PDF_RESOURCE_LIMIT. When it cannot be told for sure which of several busy
 *   threads grew, the documents of the ended thread are opened again in a fresh thread once, so a
 *   document that happened to be read beside a hostile one is not failed for it.
 * Before pdf.js sees a file, its bytes are checked against the budget (declared picture sizes, inflated
 * stream sizes: src/adapters/pdf/pdf-budget.ts). An ended thread is replaced on demand; threads are
 * also replaced after `recycleAfterDocuments` documents (pdf.js caches grow).
 */
export interface PdfWorkerPoolOptions {
  /**
   * Threads at most, started when needed. Default 4 (the engine runs 4 jobs at once): a document that
   * takes its whole time limit holds one thread while the others keep reading.
   */
  workers?: number;
  /** Longest a single call (open, a page's text, a rendering...) may take. Default 15 s. */
  callTimeoutMs?: number;
  /** Longest all calls of one document may take together. Default 25 s and 5 s a page. */
  documentTimeoutMs?: number;
  /**
   * JavaScript heap of a thread (old generation), MB. Default 2048: below 2 GB V8 treats the isolate as
   * short of memory and collects far more often (pdf.js read text 1.7x slower at 384 MB, measured). The
   * memory watch bounds the thread well before that.
   */
  heapMb?: number;
  /** Growth of the process's resident memory while PDFs are read, MB, before a thread is ended. Default 768. */
  memoryBudgetMb?: number;
  /** Checks of the file's bytes before it is parsed. Default: 40 million pixels, 64 MB streams. */
  budget?: Partial<PdfBudget>;
  /** A thread is replaced after reading this many documents. Default 1,000. */
  recycleAfterDocuments?: number;
}

export interface PdfWorkerPool extends PdfReader, PdfPageCopier {
  /** Ends every thread; documents still open fail with ENGINE_CLOSED. */
  close(): Promise<void>;
  /** Threads started so far, and threads ended for each reason (for tests and operators). */
  stats(): { started: number; ended: Record<EndReason, number> };
}

type EndReason = 'timeout' | 'memory' | 'heap' | 'crash' | 'recycled' | 'closed';

/** A call's thread was ended under it. `sure`: this thread's document is certainly the cause. */
class ThreadEnded extends Error {
  constructor(
    readonly reason: EndReason,
    readonly sure: boolean,
    readonly slot: object,
  ) {
    super(`The PDF worker ended (${reason}).`);
  }
}

interface Pending {
  resolve(value: unknown): void;
  reject(error: unknown): void;
  timer: NodeJS.Timeout;
}

interface Slot {
  worker: Worker;
  ready: Promise<void>;
  tid?: number;
  leased: boolean;
  documents: number;
  calls: Map<number, Pending>;
  /** Page faults of the thread when its current run of calls began (Linux). */
  faultsAtStart?: number | undefined;
  busySince: number;
  ended?: EndReason;
}

const SAMPLE_MS = 50;
/** Samples of resident memory kept: the low point of the last 30 s is the baseline. */
const SAMPLES = 600;
const PAGE_BYTES = 4096;

export function createPdfWorkerPool(options: PdfWorkerPoolOptions = {}): PdfWorkerPool {
  const maxWorkers = Math.max(1, Math.floor(options.workers ?? 4));
  const callTimeoutMs = options.callTimeoutMs ?? 15_000;
  const documentTimeoutMs = (pages: number): number =>
    options.documentTimeoutMs ?? 25_000 + 5_000 * Math.max(1, pages);
  const heapMb = options.heapMb ?? 2048;
  const memoryBudget = (options.memoryBudgetMb ?? 768) * 1024 * 1024;
  const recycleAfter = options.recycleAfterDocuments ?? 1000;
  const budget: PdfBudget = { ...DEFAULT_PDF_BUDGET, ...options.budget };
  const workerData: PdfWorkerData = {
    budget,
    // A picture at the pixel limit in four channels, and room for a stream at its limit besides.
    maxAllocationBytes: Math.max(256 * 1024 * 1024, budget.maxImagePixels * 5, budget.maxStreamBytes * 2),
  };
  const entry = siblingModule(import.meta.url, 'pdf-worker');

  const slots: Slot[] = [];
  const waiting: Array<() => void> = [];
  let closed = false;
  let nextId = 0;
  let started = 0;
  const ended: Record<EndReason, number> = {
    timeout: 0,
    memory: 0,
    heap: 0,
    crash: 0,
    recycled: 0,
    closed: 0,
  };

  function wakeOne(): void {
    waiting.shift()?.();
  }

  function spawn(): Slot {
    started++;
    const worker = new Worker(
      ...workerArgs(
        entry,
        { workerData, resourceLimits: { maxOldGenerationSizeMb: heapMb }, stdout: false, stderr: false },
        ['pdfjs-dist/legacy/build/pdf.mjs', 'pdfjs-dist/legacy/build/pdf.worker.mjs', 'pdf-lib'],
      ),
    );
    const slot: Slot = {
      worker,
      ready: Promise.resolve(),
      leased: false,
      documents: 0,
      calls: new Map(),
      busySince: 0,
    };
    slot.ready = new Promise<void>((resolve, reject) => {
      worker.on('message', (message: FromPdfWorker) => {
        if (message.type === 'ready') {
          if (message.tid !== undefined) slot.tid = message.tid;
          resolve();
          return;
        }
        const pending = slot.calls.get(message.id);
        if (!pending) return;
        slot.calls.delete(message.id);
        clearTimeout(pending.timer);
        if (message.type === 'done') pending.resolve(message.value);
        else pending.reject(new DocexError(message.error.code as ErrorCode, message.error.message));
      });
      worker.on('error', (error: Error & { code?: string }) => {
        end(slot, error.code === 'ERR_WORKER_OUT_OF_MEMORY' ? 'heap' : 'crash');
        reject(error);
      });
      worker.on('exit', () => {
        end(slot, 'crash');
        reject(new Error('The PDF worker could not start.'));
      });
    });
    // Read only through acquire(), which handles a failed start.
    slot.ready.catch(() => undefined);
    slots.push(slot);
    return slot;
  }

  /** Ends a thread: its calls fail with the reason, and a waiting document may start another. */
  function end(slot: Slot, reason: EndReason, sure = true): void {
    if (slot.ended) return;
    slot.ended = reason;
    ended[reason]++;
    const index = slots.indexOf(slot);
    if (index >= 0) slots.splice(index, 1);
    for (const pending of slot.calls.values()) {
      clearTimeout(pending.timer);
      pending.reject(new ThreadEnded(reason, sure, slot));
    }
    slot.calls.clear();
    void slot.worker.terminate();
    wakeOne();
  }

  /** A thread for one document: an idle one, a new one while under the limit, or the next to free up. */
  async function acquire(): Promise<Slot> {
    for (;;) {
      if (closed) throw new DocexError('ENGINE_CLOSED', 'The PDF reader has been closed.');
      const slot =
        slots.find((s) => !s.leased && !s.ended) ?? (slots.length < maxWorkers ? spawn() : undefined);
      if (!slot) {
        await new Promise<void>((resolve) => waiting.push(resolve));
        continue;
      }
      slot.leased = true;
      try {
        await slot.ready;
        return slot;
      } catch {
        slot.leased = false;
        throw new DocexError('INTERNAL', 'A PDF worker thread could not start.');
      }
    }
  }

  function release(slot: Slot): void {
    slot.leased = false;
    slot.documents++;
    if (!slot.ended && slot.documents >= recycleAfter) end(slot, 'recycled');
    else wakeOne();
  }

  function call(
    slot: Slot,
    request: PdfCall,
    timeoutMs: number,
    transfer: ArrayBuffer[] = [],
  ): Promise<unknown> {
    return new Promise((resolve, reject) => {
      if (slot.ended) {
        reject(new ThreadEnded(slot.ended, false, slot));
        return;
      }
      const id = nextId++;
      if (slot.calls.size === 0) {
        slot.busySince = performance.now();
        // Read by the memory watch at its next sample (not here: a read of /proc on every call costs).
        delete slot.faultsAtStart;
      }
      const timer = setTimeout(() => end(slot, 'timeout'), Math.max(1, timeoutMs));
      timer.unref();
      slot.calls.set(id, { resolve, reject, timer });
      slot.worker.postMessage({ id, call: request } satisfies ToPdfWorker, transfer);
      watch();
    });
  }

  // ---- the memory watch ----
  let sampler: NodeJS.Timeout | undefined;
  const samples: number[] = [];
  /** Threads ended by the watch that have not exited yet: their memory is still counted. */
  const exiting = new Set<Slot>();

  function watch(): void {
    if (sampler) return;
    samples.length = 0;
    samples.push(process.memoryUsage.rss());
    sampler = setInterval(sample, SAMPLE_MS);
    sampler.unref();
  }

  function sample(): void {
    const busy = slots.filter((s) => s.calls.size > 0);
    if (busy.length === 0 && exiting.size === 0) {
      clearInterval(sampler);
      sampler = undefined;
      return;
    }
    for (const slot of busy) slot.faultsAtStart ??= pageFaults(slot.tid);
    const rss = process.memoryUsage.rss();
    samples.push(rss);
    if (samples.length > SAMPLES) samples.shift();
    if (busy.length === 0) return;
    let baseline = Infinity;
    for (const s of samples) baseline = Math.min(baseline, s);
    if (rss - baseline <= memoryBudget) return;
    const chosen = growers(busy, exiting.size > 0);
    for (const { slot, sure } of chosen) {
      exiting.add(slot);
      slot.worker.once('exit', () => {
        exiting.delete(slot);
        // What the ended thread held is given back, or kept by the allocator for reuse: either way the
        // next bound is counted from here.
        if (exiting.size === 0) {
          samples.length = 0;
          samples.push(process.memoryUsage.rss());
        }
      });
      end(slot, 'memory', sure);
    }
  }

  /**
   * The busy threads to end, and for each whether it is certainly the cause. With page faults measured
   * per thread: the one that grew most, and any other that grew a quarter of the budget itself (then
   * none is certain); none when no busy thread grew an eighth (the memory is someone else's, or an
   * ended thread's still being given back). Without the measure: the longest-running, unless an ended
   * thread is still exiting.
   */
  function growers(busy: Slot[], waitingForExit: boolean): Array<{ slot: Slot; sure: boolean }> {
    const grown = busy.map((slot) => {
      const faults = pageFaults(slot.tid);
      const bytes =
        faults !== undefined && slot.faultsAtStart !== undefined
          ? (faults - slot.faultsAtStart) * PAGE_BYTES
          : undefined;
      return { slot, bytes };
    });
    if (grown.every((g) => g.bytes !== undefined)) {
      const suspects = grown.filter((g) => g.bytes! >= memoryBudget / 8).sort((a, b) => b.bytes! - a.bytes!);
      const top = suspects[0];
      if (!top) return [];
      const others = suspects.slice(1).filter((g) => g.bytes! >= memoryBudget / 4);
      const second = Math.max(...grown.filter((g) => g !== top).map((g) => g.bytes!), memoryBudget / 16);
      const sure = others.length === 0 && top.bytes! > 4 * second;
      return [top, ...others].map((g) => ({ slot: g.slot, sure }));
    }
    if (waitingForExit) return [];
    const oldest = [...busy].sort((a, b) => a.busySince - b.busySince)[0]!;
    return [{ slot: oldest, sure: busy.length === 1 }];
  }

  /**
   * Documents read again after their thread was ended without certainty take turns: read alone among
   * themselves, the next bound tells which one it was.
   */
  let retryTurn: Promise<void> = Promise.resolve();
  function takeRetryTurn(): Promise<() => void> {
    let done!: () => void;
    const mine = new Promise<void>((resolve) => (done = resolve));
    const before = retryTurn;
    retryTurn = before.then(() => mine);
    return before.then(() => done);
  }

  /** A document read in a leased thread, opened again in a fresh one when its thread was ended unsure. */
  class LeasedDocument {
    pageCount = 0;
    /** The thread holding the document open (shared by the document's calls in flight). */
    private lease: Promise<Slot> | undefined;
    /** Threads whose end this document has already dealt with (several calls may learn of one end). */
    private readonly seen = new WeakSet<object>();
    private failure: DocexError | undefined;
    private retried = false;
    private inFlight = 0;
    private activeSince = 0;
    private busyMs = 0;
    private closedDoc = false;
    /** Ends this document's turn among documents read again (see takeRetryTurn). */
    private endTurn: (() => void) | undefined;

    constructor(private readonly bytes: Uint8Array) {}

    /** Runs a call on the document (undefined: only open it), again in a new thread when one ended. */
    async run(request: PdfCall | undefined): Promise<unknown> {
      for (;;) {
        if (this.failure) throw this.failure;
        if (this.closedDoc) throw new DocexError('INVALID_ARGUMENT', 'The document has been closed.');
        try {
          const slot = await this.leased();
          return request ? await this.timed(slot, request) : undefined;
        } catch (error) {
          if (!(error instanceof ThreadEnded)) throw error;
          this.ended(error);
        }
      }
    }

    private leased(): Promise<Slot> {
      this.lease ??= (async () => {
        if (this.retried && !this.endTurn) {
          // Waiting for its turn counts against the document's time: a document read again after a
          // memory stop still ends within its time, however many wait before it.
          const waiting = performance.now();
          this.endTurn = await takeRetryTurn();
          this.busyMs += performance.now() - waiting;
        }
        const slot = await acquire();
        try {
          const copy = new Uint8Array(this.bytes);
          this.pageCount = (await this.timed(slot, { op: 'open', bytes: copy }, [copy.buffer])) as number;
          return slot;
        } catch (error) {
          // A file the reader refuses (damaged, encrypted, over the budget) stays refused.
          if (!(error instanceof ThreadEnded)) {
            release(slot);
            this.failure = toError(error);
            this.endTurn?.();
          }
          throw error;
        }
      })();
      return this.lease;
    }

    private ended(error: ThreadEnded): void {
      if (this.seen.has(error.slot)) return;
      this.seen.add(error.slot);
      this.lease = undefined;
      this.failure ??= this.failureFor(error);
      if (this.failure) this.endTurn?.();
      else this.retried = true;
    }

    private failureFor(error: ThreadEnded): DocexError | undefined {
      switch (error.reason) {
        case 'timeout':
          return new DocexError(
            'PDF_TOO_COMPLEX',
            'The PDF takes too long to read (its pages draw too much, or too deeply); it was stopped.',
          );
        case 'heap':
          return new DocexError(
            'PDF_RESOURCE_LIMIT',
            'Reading the PDF needs more memory than it is allowed; it was stopped.',
          );
        case 'memory':
          if (error.sure || this.retried) {
            return new DocexError(
              'PDF_RESOURCE_LIMIT',
              'Reading the PDF needs more memory than it is allowed; it was stopped.',
            );
          }
          return undefined;
        case 'crash':
          return this.retried
            ? new DocexError('INTERNAL', 'The PDF reader stopped unexpectedly.')
            : undefined;
        case 'recycled':
          return undefined;
        case 'closed':
          return new DocexError('ENGINE_CLOSED', 'The PDF reader has been closed.');
      }
    }

    private async timed(slot: Slot, request: PdfCall, transfer?: ArrayBuffer[]): Promise<unknown> {
      const spent = this.busyMs + (this.inFlight > 0 ? performance.now() - this.activeSince : 0);
      const left = documentTimeoutMs(this.pageCount) - spent;
      if (left <= 0) {
        // The document has had its time: its thread (and whatever the document left in it) goes.
        end(slot, 'timeout');
        throw new ThreadEnded('timeout', true, slot);
      }
      if (this.inFlight++ === 0) this.activeSince = performance.now();
      try {
        return await call(slot, request, Math.min(callTimeoutMs, left), transfer);
      } finally {
        if (--this.inFlight === 0) this.busyMs += performance.now() - this.activeSince;
      }
    }

    async close(): Promise<void> {
      if (this.closedDoc) return;
      this.closedDoc = true;
      const lease = this.lease;
      this.lease = undefined;
      const slot = lease ? await lease.catch(() => undefined) : undefined;
      this.endTurn?.();
      if (!slot || slot.ended) return;
      // The caller is done with the document: the thread is given back once it has closed it, without
      // making the caller wait for that.
      call(slot, { op: 'close' }, callTimeoutMs).then(
        () => {
          if (!slot.ended) release(slot);
        },
        () => undefined,
      );
    }
  }

  function wrapPage(
    doc: LeasedDocument,
    pageNum: number,
    size: { width: number; height: number; rotation: 0 | 90 | 180 | 270 },
  ): PdfPage {
    return {
      ...size,
      textRuns: async () => (await doc.run({ op: 'textRuns', page: pageNum })) as TextRun[],
      hasImages: async () => (await doc.run({ op: 'hasImages', page: pageNum })) as boolean,
      imagePlacements: async () =>
        (await doc.run({ op: 'imagePlacements', page: pageNum })) as ImagePlacement[],
      scanImage: async (maxPixels) =>
        (await doc.run({ op: 'scanImage', page: pageNum, maxPixels })) as
          { image: GreyImage; box: Box } | undefined,
      render: async ({ dpi, maxPixels, part }) =>
        (await doc.run({ op: 'render', page: pageNum, dpi, maxPixels, ...(part ? { part } : {}) })) as {
          image: GreyImage;
          dpi: number;
        },
      release(): void {
        doc.run({ op: 'release', page: pageNum }).catch(() => undefined);
      },
    };
  }

  return {
    async open(bytes: Uint8Array, openOptions: { transfer?: boolean } = {}): Promise<PdfDocument> {
      // Kept here to open again in a fresh thread if need be; the thread gets a copy (a Node Buffer's
      // slice() would be a view, so copies are made with the Uint8Array constructor).
      const doc = new LeasedDocument(openOptions.transfer ? bytes : new Uint8Array(bytes));
      try {
        await doc.run(undefined);
      } catch (error) {
        await doc.close();
        throw error;
      }
      return {
        pageCount: doc.pageCount,
        async page(pageNum: number): Promise<PdfPage> {
          const size = (await doc.run({ op: 'page', page: pageNum })) as Parameters<typeof wrapPage>[2];
          return wrapPage(doc, pageNum, size);
        },
        close: () => doc.close(),
      };
    },

    async copyPages(pdf, ranges) {
      let retried = false;
      for (;;) {
        const slot = await acquire();
        try {
          const copy = new Uint8Array(pdf);
          const copies = (await call(
            slot,
            { op: 'copyPages', bytes: copy, ranges: ranges.map(([a, b]) => [a, b] as [number, number]) },
            documentTimeoutMs(ranges.reduce((n, [a, b]) => n + b - a + 1, 0)),
            [copy.buffer],
          )) as Uint8Array[];
          release(slot);
          return copies;
        } catch (error) {
          if (!(error instanceof ThreadEnded)) {
            release(slot);
            throw error;
          }
          if (error.reason === 'timeout') {
            throw new DocexError(
              'PDF_TOO_COMPLEX',
              'The PDF takes too long to copy pages from; it was stopped.',
            );
          }
          if (error.reason === 'heap' || (error.reason === 'memory' && (error.sure || retried))) {
            throw new DocexError(
              'PDF_RESOURCE_LIMIT',
              'Copying pages of the PDF needs more memory than it is allowed.',
            );
          }
          if (error.reason === 'closed')
            throw new DocexError('ENGINE_CLOSED', 'The PDF reader has been closed.');
          if (retried) throw new DocexError('INTERNAL', 'The PDF reader stopped unexpectedly.');
          retried = true;
        }
      }
    },

    async close(): Promise<void> {
      closed = true;
      for (const resolve of waiting.splice(0)) resolve();
      const all = [...slots];
      for (const slot of all) end(slot, 'closed');
      await Promise.all(all.map((s) => s.worker.terminate()));
      if (sampler) clearInterval(sampler);
      sampler = undefined;
    },

    stats: () => ({ started, ended: { ...ended } }),
  };
}

function toError(error: unknown): DocexError {
  return error instanceof DocexError
    ? error
    : new DocexError('INTERNAL', 'The PDF reader failed unexpectedly.');
}

/** Minor page faults of a thread of this process so far (Linux), from /proc. */
function pageFaults(tid: number | undefined): number | undefined {
  if (tid === undefined) return undefined;
  try {
    const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'latin1');
    // Fields after the command name (which may hold spaces), from field 3 (state): minflt is field 10.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const minflt = Number(fields[7]);
    return Number.isFinite(minflt) ? minflt : undefined;
  } catch {
    return undefined;
  }
}
