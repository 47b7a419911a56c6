/**
 * A stand-in engine thread for test/cli/engine-thread-pool.test.ts, speaking the same protocol as
 * src/cli/engine-thread-worker.ts: a file whose name starts with "die" ends the thread at once (as a native
 * crash or running out of memory would); "slow" answers after 300 ms; any other file answers at once.
 * "ocr" sends a 3x2 image to the shared OCR workers and answers with what they said.
 * A setup whose products include "refuse" fails to start, as an unknown product does.
 */
import path from 'node:path';
import { parentPort, threadId, workerData } from 'node:worker_threads';
import type { BatchSetup } from '../../src/cli/batch-engine.js';
import type { FromThread, ToThread } from '../../src/cli/engine-thread-pool.js';

const port = parentPort!;
const send = (message: FromThread): void => port.postMessage(message);
const setup = workerData as BatchSetup;
/** OCR request id -> the file request it is for. */
const waitingForOcr = new Map<number, number>();

if (setup.products.includes('refuse')) {
  send({ type: 'setup-failed', message: 'unknown product "refuse"', usage: true });
  port.close();
} else {
  port.on('message', (message: ToThread) => {
    if (message.type === 'close') {
      send({ type: 'closed' });
      port.close();
      return;
    }
    if (message.type === 'ocr-done' || message.type === 'ocr-failed') {
      const fileId = waitingForOcr.get(message.id)!;
      if (message.type === 'ocr-done')
        send({ type: 'done', id: fileId, outcome: { line: { words: message.words.map((w) => w.text) } } });
      else send({ type: 'failed', id: fileId, error: message.error });
      return;
    }
    const name = path.basename(message.file);
    if (name.startsWith('die')) process.exit(3);
    const answer = (): void =>
      send({ type: 'done', id: message.id, outcome: { line: { file: message.file, threadId }, pages: 1 } });
    if (name.startsWith('ocr')) {
      const ocrId = waitingForOcr.size;
      waitingForOcr.set(ocrId, message.id);
      const data = new Uint8Array([0, 255, 0, 255, 0, 255]);
      send({ type: 'ocr', id: ocrId, image: { width: 3, height: 2, data }, options: { dpi: 200 } });
    } else if (name.startsWith('slow')) setTimeout(answer, 300);
    else answer();
  });
  send({ type: 'ready' });
}
