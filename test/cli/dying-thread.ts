/**
 * A stand-in engine thread for test/cli/engine-threads.test.ts, speaking the same protocol as
 * src/cli/engine-thread.ts: a file whose name starts with "die" ends the thread at once (as a native
 * crash or running out of memory would); "slow" answers after 300 ms; any other file answers at once.
 * A setup whose products include "refuse" fails to start, as an unknown product does.
 */
import path from 'node:path';
import { parentPort, threadId, workerData } from 'node:worker_threads';
import type { BatchSetup } from '../../src/cli/batch-engine.js';
import type { FromThread, ToThread } from '../../src/cli/engine-threads.js';

const port = parentPort!;
const send = (message: FromThread): void => port.postMessage(message);
const setup = workerData as BatchSetup;

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
    const name = path.basename(message.file);
    if (name.startsWith('die')) process.exit(3);
    const answer = (): void =>
      send({ type: 'done', id: message.id, outcome: { line: { file: message.file, threadId }, pages: 1 } });
    if (name.startsWith('slow')) setTimeout(answer, 300);
    else answer();
  });
  send({ type: 'ready' });
}
