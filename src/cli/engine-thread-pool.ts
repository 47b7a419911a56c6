import { Worker } from 'node:worker_threads';
import { siblingModule, workerArgs } from '../adapters/threads/worker-module.js';
import type { GreyImage } from '../ports/image-backend.js';
import type { OcrEngine, OcrOptions, OcrWord } from '../ports/ocr-engine.js';
import type { BatchSetup } from './batch-engine.js';
import { SetupError } from './batch-engine.js';
import { describeError, ThreadFileError } from './file-errors.js';
import type { FileOutcome, FileWork } from './file-work.js';

/**
 * A batch spread over engine threads: each worker thread runs a whole engine of its own (PDF reading,
 * OCR workers, extraction, in memory) and takes files from the main thread, which only lists files,
 * writes lines and draws progress. JavaScript work on a document (pdf.js parsing, layout, extraction)
 * then runs on every core instead of one.
 */

/** Main thread to engine thread. */
export type ToThread =
  | { type: 'file'; id: number; file: string }
  | { type: 'close' }
  | { type: 'ocr-done'; id: number; words: OcrWord[] }
  | { type: 'ocr-failed'; id: number; error: { code: string; message: string } };

/** Engine thread to main thread. */
export type FromThread =
  | { type: 'ready' }
  | { type: 'setup-failed'; message: string; usage: boolean }
  | { type: 'done'; id: number; outcome: FileOutcome }
  | { type: 'failed'; id: number; error: { code: string; message: string } }
  | { type: 'ocr'; id: number; image: GreyImage; options: OcrOptions }
  | { type: 'closed' };

export interface EngineThreads {
  work: FileWork;
  /** Lets each thread finish its files in flight and close its engine; ends them all. */
  close(): Promise<void>;
  /** Ends every thread at once (files in flight get no answer). */
  terminate(): Promise<void>;
  /** Threads started so far (replacements of crashed threads included). */
  readonly started: number;
}

export interface EngineThreadsOptions {
  threads: number;
  /** The engine each thread makes (its concurrency is per thread). */
  setup: BatchSetup;
  /**
   * The OCR workers every thread's engine shares (made at the first page to recognise): the pages of
   * all threads queue for the same workers, so none idles while another thread has pages waiting.
   */
  ocr?: () => Promise<OcrEngine>;
  /** The thread's module; default src/cli/engine-thread-worker.ts (tests give one that misbehaves). */
  entry?: URL;
  /** How long `close()` waits for a thread to close its engine before ending it. Default 10 s. */
  closeTimeoutMs?: number;
}

interface Slot {
  worker: Worker;
  ready: boolean;
  closing: boolean;
  inFlight: Map<number, { resolve: (o: FileOutcome) => void; reject: (e: unknown) => void }>;
}

/**
 * Starts `threads` engine threads and resolves once every one has made its engine (so an unknown
 * product or invalid rules are a SetupError before any file is read). A thread that dies (a native
 * crash, out of memory) fails only its files in flight, with INTERNAL, and is replaced.
 */
export async function startEngineThreads(options: EngineThreadsOptions): Promise<EngineThreads> {
  const entry = options.entry ?? siblingModule(import.meta.url, 'engine-thread-worker');
  const closeTimeoutMs = options.closeTimeoutMs ?? 10_000;
  const slots: Slot[] = [];
  const waiting: Array<() => void> = [];
  let nextId = 0;
  let started = 0;
  let closed = false;
  let ocr: Promise<OcrEngine> | undefined;

  /** Wakes the files waiting for a ready thread (there are some only while no thread is ready). */
  function wake(): void {
    for (const resolve of waiting.splice(0)) resolve();
  }

  /** Starts a thread; resolves when its engine is ready, rejects with the reason it could not start. */
  function spawn(): Promise<Slot> {
    started++;
    const worker = new Worker(
      ...workerArgs(entry, { workerData: options.setup, stdout: false, stderr: false }),
    );
    const slot: Slot = { worker, ready: false, closing: false, inFlight: new Map() };
    slots.push(slot);
    return new Promise<Slot>((resolve, reject) => {
      worker.on('message', (message: FromThread) => {
        switch (message.type) {
          case 'ready':
            slot.ready = true;
            resolve(slot);
            wake();
            return;
          case 'setup-failed':
            reject(message.usage ? new SetupError(message.message) : new Error(message.message));
            return;
          case 'done':
          case 'failed': {
            const pending = slot.inFlight.get(message.id);
            slot.inFlight.delete(message.id);
            if (message.type === 'done') pending?.resolve(message.outcome);
            else pending?.reject(new ThreadFileError(message.error));
            return;
          }
          case 'ocr':
            recognizeFor(worker, message);
            return;
          case 'closed':
            return;
        }
      });
      // Once per thread, whichever of 'error' and 'exit' comes first.
      const gone = (reason: string): void => {
        if (!slots.includes(slot)) return;
        const wasReady = slot.ready;
        slot.ready = false;
        slots.splice(slots.indexOf(slot), 1);
        for (const pending of slot.inFlight.values()) {
          pending.reject(
            new ThreadFileError({
              code: 'INTERNAL',
              message: `The engine thread reading this file stopped (${reason}).`,
            }),
          );
        }
        slot.inFlight.clear();
        if (!wasReady) reject(new Error(`An engine thread could not start (${reason}).`));
        // A replacement, unless the batch is closing or the thread never started (that would loop).
        if (wasReady && !closed && !slot.closing) spawn().catch(() => wake());
        else wake();
      };
      worker.on('error', (error) => gone(error.message));
      worker.on('exit', (code) => gone(`exit code ${code}`));
    });
  }

  /** A thread's page recognised by the shared OCR workers; the answer goes back to that thread. */
  function recognizeFor(
    worker: Worker,
    request: { id: number; image: GreyImage; options: OcrOptions },
  ): void {
    const answer = (message: ToThread): void => {
      if (slots.some((s) => s.worker === worker)) worker.postMessage(message);
    };
    if (!options.ocr) {
      answer({ type: 'ocr-failed', id: request.id, error: { code: 'OCR_FAILED', message: 'No OCR here.' } });
      return;
    }
    ocr ??= options.ocr();
    ocr
      .then((engine) => engine.recognize(request.image, request.options))
      .then(
        (words) => answer({ type: 'ocr-done', id: request.id, words }),
        (error: unknown) => answer({ type: 'ocr-failed', id: request.id, error: describeError(error) }),
      );
  }

  async function closeOcr(): Promise<void> {
    if (ocr) await (await ocr.catch(() => undefined))?.close();
  }

  try {
    await Promise.all(Array.from({ length: Math.max(1, options.threads) }, () => spawn()));
  } catch (error) {
    closed = true;
    await Promise.all(slots.map((s) => s.worker.terminate()));
    await closeOcr();
    throw error;
  }

  /** The ready thread with the fewest files in flight, if any. */
  function leastBusy(): Slot | undefined {
    let best: Slot | undefined;
    for (const slot of slots) {
      if (slot.ready && !slot.closing && (!best || slot.inFlight.size < best.inFlight.size)) best = slot;
    }
    return best;
  }

  /** Sends the file to the least busy thread, waiting for one when none is ready. */
  async function dispatch(file: string): Promise<FileOutcome> {
    // Chosen and counted in the same turn, so files sent together spread over the threads.
    let slot = leastBusy();
    while (!slot) {
      if (slots.length === 0)
        throw new ThreadFileError({ code: 'INTERNAL', message: 'No engine thread is left to read files.' });
      if (closed) throw new ThreadFileError({ code: 'ENGINE_CLOSED', message: 'The batch is closing.' });
      await new Promise<void>((resolve) => waiting.push(resolve));
      slot = leastBusy();
    }
    const chosen = slot;
    const id = nextId++;
    return new Promise<FileOutcome>((resolve, reject) => {
      chosen.inFlight.set(id, { resolve, reject });
      chosen.worker.postMessage({ type: 'file', id, file } satisfies ToThread);
    });
  }

  async function endSlot(slot: Slot): Promise<void> {
    slot.closing = true;
    const exited = new Promise<void>((resolve) => slot.worker.once('exit', () => resolve()));
    slot.worker.postMessage({ type: 'close' } satisfies ToThread);
    const timer = setTimeout(() => void slot.worker.terminate(), closeTimeoutMs);
    await exited;
    clearTimeout(timer);
  }

  return {
    get started() {
      return started;
    },
    work: dispatch,
    async close(): Promise<void> {
      closed = true;
      wake();
      await Promise.all([...slots].map(endSlot));
      await closeOcr();
    },
    async terminate(): Promise<void> {
      closed = true;
      wake();
      await Promise.all([...slots].map((s) => s.worker.terminate()));
      await closeOcr();
    },
  };
}
