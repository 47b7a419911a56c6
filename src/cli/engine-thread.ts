/**
 * An engine thread of a batch (src/cli/engine-threads.ts): makes the batch's engine from the setup in
 * its workerData, then reads the files the main thread sends, answering each with its outcome or its
 * error. A file's failure is that file's answer; the thread goes on.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { describeError } from './batch.js';
import { openBatchEngine, SetupError, type BatchEngine, type BatchSetup } from './batch-engine.js';
import type { FromThread, ToThread } from './engine-threads.js';

const port = parentPort!;
const send = (message: FromThread): void => port.postMessage(message);

function serve({ engine, work }: BatchEngine): void {
  const running = new Set<Promise<void>>();
  port.on('message', (message: ToThread) => {
    if (message.type === 'file') {
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
  serve(await openBatchEngine(workerData as BatchSetup));
} catch (error) {
  send({
    type: 'setup-failed',
    message: error instanceof Error ? error.message : String(error),
    usage: error instanceof SetupError,
  });
  port.close();
}
