/**
 * An engine thread of a batch (src/cli/engine-thread-pool.ts): makes the batch's engine from the setup in
 * its workerData, then reads the files the main thread sends, answering each with its outcome or its
 * error. A file's failure is that file's answer; the thread goes on.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { DocexError, type ErrorCode } from '../core/errors.js';
import type { GreyImage } from '../ports/image-backend.js';
import type { OcrEngine, OcrOptions, OcrWord } from '../ports/ocr-engine.js';
import { describeError } from './file-errors.js';
import { openBatchEngine, SetupError, type BatchEngine, type BatchSetup } from './batch-engine.js';
import type { FromThread, ToThread } from './engine-thread-pool.js';

const port = parentPort!;
const send = (message: FromThread, transfer?: ArrayBuffer[]): void => port.postMessage(message, transfer);

/** An OCR engine that sends pages to the main thread, and the handler of its answers. */
interface SharedOcr {
  engine: OcrEngine & { concurrency: number };
  answer(message: Extract<ToThread, { type: 'ocr-done' | 'ocr-failed' }>): void;
}

/**
 * The OCR engine of this thread's engine: each page goes to the OCR workers the main thread shares
 * among all threads. `concurrency` is theirs, so a PDF's pages are read side by side to keep them all busy.
 */
function sharedOcr(size: number): SharedOcr {
  /** Pages sent, by request id. */
  const recognising = new Map<
    number,
    { resolve: (words: OcrWord[]) => void; reject: (e: unknown) => void }
  >();
  let nextId = 0;
  let closed = false;
  const engine = {
    concurrency: size,
    recognize(image: GreyImage, options: OcrOptions = {}): Promise<OcrWord[]> {
      if (closed) return Promise.reject(new DocexError('ENGINE_CLOSED', 'The OCR engine has been closed.'));
      const id = nextId++;
      // A copy travels (its memory moves to the main thread): the caller may use its image again.
      const data = image.data.slice();
      return new Promise<OcrWord[]>((resolve, reject) => {
        recognising.set(id, { resolve, reject });
        send({ type: 'ocr', id, image: { width: image.width, height: image.height, data }, options }, [
          data.buffer,
        ]);
      });
    },
    close(): Promise<void> {
      closed = true;
      for (const pending of recognising.values())
        pending.reject(new DocexError('ENGINE_CLOSED', 'The OCR engine has been closed.'));
      recognising.clear();
      return Promise.resolve();
    },
  };
  return {
    engine,
    answer(message) {
      const pending = recognising.get(message.id);
      recognising.delete(message.id);
      if (message.type === 'ocr-done') pending?.resolve(message.words);
      // The code (OCR_TIMEOUT is transient: the job is retried) and message as the OCR workers gave them;
      // the OcrEngine contract knows three codes, anything else is OCR_FAILED.
      else pending?.reject(new DocexError(ocrCode(message.error.code), message.error.message));
    },
  };
}

const OCR_CODES: ReadonlySet<string> = new Set<ErrorCode>(['OCR_FAILED', 'OCR_TIMEOUT', 'ENGINE_CLOSED']);

function ocrCode(code: string): ErrorCode {
  return OCR_CODES.has(code) ? (code as ErrorCode) : 'OCR_FAILED';
}

function serve({ engine, work }: BatchEngine, ocr: SharedOcr | undefined): void {
  const running = new Set<Promise<void>>();
  port.on('message', (message: ToThread) => {
    if (message.type === 'ocr-done' || message.type === 'ocr-failed') {
      ocr?.answer(message);
    } else if (message.type === 'file') {
      const { id, file } = message;
      const done = work(file).then(
        (outcome) => send({ type: 'done', id, outcome }),
        (error: unknown) => send({ type: 'failed', id, error: describeError(error) }),
      );
      running.add(done);
      void done.finally(() => running.delete(done));
    } else {
      void (async () => {
        await Promise.all(running);
        await engine.close().catch(() => undefined);
        send({ type: 'closed' });
        port.close();
      })();
    }
  });
  send({ type: 'ready' });
}

try {
  const setup = workerData as BatchSetup;
  const ocr = setup.sharedOcrWorkers === undefined ? undefined : sharedOcr(setup.sharedOcrWorkers);
  serve(await openBatchEngine(setup, ocr?.engine), ocr);
} catch (error) {
  send({
    type: 'setup-failed',
    message: error instanceof Error ? error.message : String(error),
    usage: error instanceof SetupError,
  });
  port.close();
}
