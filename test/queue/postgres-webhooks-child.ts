/**
 * One engine process of test/queue/postgres-webhooks.test.ts, run as
 * `node --import tsx test/queue/postgres-webhooks-child.ts <pgUrl> <schema> <dataDir> <name> <count>`.
 *
 * Opens an engine on the PostgreSQL schema (files in the shared `<dataDir>/files`) that sends webhooks
 * to loopback receivers, with a workflow `test.work` ({file_id}) that waits 20-60 ms and returns one
 * field. It uploads `<count>` files and invokes `test.work` once on each, then keeps running jobs and
 * sending deliveries of every process until it is killed, or until SIGTERM (closes the engine, exits 0).
 * Prints one JSON object a line: `ready`, `accepted` ({fileId, jobId}) per invocation, `submitted`,
 * `error` for engine errors.
 */
import { join } from 'node:path';

import { createPostgresPersistence } from '../../src/adapters/persistence/postgres-persistence.js';
import { createFsFileStore } from '../../src/adapters/stores/fs-file-store.js';
import { DocexError } from '../../src/core/errors.js';
import { createEngine } from '../../src/index.js';
import type { OcrEngine } from '../../src/ports/ocr-engine.js';
import type { WorkflowDefinition } from '../../src/workflows/types.js';

/** A 1x1 greyscale PNG: uploads only sniff the type, and `test.work` never reads its file. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAAAAAA6fptVAAAACklEQVR4nGP4DwABAQEAsTj2FAAAAABJRU5ErkJggg==',
  'base64',
);

function print(line: Record<string, unknown>): void {
  process.stdout.write(`${JSON.stringify(line)}\n`);
}

const noOcr: OcrEngine = {
  recognize: () => Promise.reject(new DocexError('OCR_FAILED', 'OCR is not used in this test.')),
  close: () => Promise.resolve(),
};

async function main(args: string[]): Promise<void> {
  const [url, schema, dataDir, name, countText] = args;
  const count = Number(countText);
  if (!url || !schema || !dataDir || !name || !Number.isInteger(count)) {
    process.stderr.write('usage: postgres-webhooks-child.ts <pgUrl> <schema> <dataDir> <name> <count>\n');
    process.exit(2);
  }
  const work: WorkflowDefinition = {
    id: 'test.work',
    inputsSchema: {
      type: 'object',
      required: ['file_id'],
      additionalProperties: false,
      properties: { file_id: { type: 'string' } },
    },
    async run({ signal }) {
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(resolve, 20 + Math.random() * 40);
        signal.addEventListener('abort', () => (clearTimeout(timer), reject(signal.reason as Error)), {
          once: true,
        });
      });
      return { fields: [{ name: 'test.done', value: 'yes', confidence: 1, boundingBox: null }] };
    },
  };
  const engine = createEngine({
    files: createFsFileStore({ dir: join(dataDir, 'files') }),
    persistence: createPostgresPersistence({ connectionString: url, schema, maxConnections: 4 }),
    ocr: noOcr,
    ingest: { ocr: 'never' },
    jobs: { concurrency: 2, leaseMs: 1500, pollMs: 200 },
    // Attempts of 1 s at most: a delivery the killed process held is taken over 11 s later.
    webhooks: { allowPrivateTargets: true, pollMs: 200, timeoutMs: 1000 },
    workflows: [work],
  });
  engine.on('error', ({ jobId, error }) =>
    print({ event: 'error', jobId, code: error.code, message: error.message }),
  );
  process.once('SIGTERM', () => {
    engine.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  });
  setInterval(() => undefined, 60_000);
  await engine.ready;
  print({ event: 'ready' });
  for (let i = 0; i < count; i++) {
    const { fileId } = await engine.uploadV2(PNG, { name: `${name}-${i}.png` });
    const { job } = await engine.invoke('test.work', { inputs: { file_id: fileId } });
    print({ event: 'accepted', fileId, jobId: job.id });
  }
  print({ event: 'submitted', count });
}

main(process.argv.slice(2)).catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
