/**
 * One engine process of test/queue/postgres-processes.test.ts, run as
 * `node --import tsx test/queue/postgres-child.ts <pgUrl> <schema> <dataDir> <name> <firstN> <count>`.
 *
 * Opens an engine on the PostgreSQL schema `<schema>` (files in the shared `<dataDir>/files`) with a
 * custom workflow `test.work` ({file_id, n}) that appends its job id to `<dataDir>/runs-<name>.log`
 * when a run starts (so the logs count runs, a run cut short by a SIGKILL included), waits 20-60 ms and
 * returns one field `test.n`. It uploads FILE_COUNT small files, invokes `test.work` for n = firstN ..
 * firstN + count - 1 (JOBS_PER_FILE jobs a file) and keeps running: it claims and runs jobs of every
 * process until it is killed, or until SIGTERM, on which it closes the engine and exits 0.
 *
 * Every line on stdout is one JSON object with an `event`: `ready`; `file` and `accepted` as soon as
 * each call returns, then `submitted`; `job` for each job change this process made; `start` when a
 * `test.work` run starts here. A line `arm` on stdin arms the process: runs started from then on never
 * finish by themselves (`start` says `armed: true`), so a SIGKILL sent on such a line lands in the
 * middle of a run.
 */
import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

import { createPostgresPersistence } from '../../src/adapters/persistence/postgres-persistence.js';
import { createFsFileStore } from '../../src/adapters/stores/fs-file-store.js';
import { DocexError } from '../../src/core/errors.js';
import { createEngine } from '../../src/index.js';
import type { OcrEngine } from '../../src/ports/ocr-engine.js';
import type { WorkflowDefinition } from '../../src/workflows/types.js';

const JOBS_PER_FILE = 10;
/** An armed run's wait: far longer than the parent needs to kill the process. */
const ARMED_MS = 120_000;
/** A 1x1 greyscale PNG: uploads only sniff the type, and `test.work` never reads its file. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAAAAAA6fptVAAAACklEQVR4nGP4DwABAQEAsTj2FAAAAABJRU5ErkJggg==',
  'base64',
);

function print(line: Record<string, unknown>): void {
  // stdout to a pipe is synchronous on Linux: a line printed before a SIGKILL reaches the parent.
  process.stdout.write(`${JSON.stringify(line)}\n`);
}

const noOcr: OcrEngine = {
  recognize: () => Promise.reject(new DocexError('OCR_FAILED', 'OCR is not used in this test.')),
  close: () => Promise.resolve(),
};

async function main(args: string[]): Promise<void> {
  const [url, schema, dataDir, name, first, countText] = args;
  const firstN = Number(first);
  const count = Number(countText);
  if (!url || !schema || !dataDir || !name || !Number.isInteger(firstN) || !Number.isInteger(count)) {
    process.stderr.write('usage: postgres-child.ts <pgUrl> <schema> <dataDir> <name> <firstN> <count>\n');
    process.exit(2);
  }

  let armed = false;
  createInterface({ input: process.stdin }).on('line', (line) => {
    if (line.trim() === 'arm') armed = true;
  });

  const work: WorkflowDefinition = {
    id: 'test.work',
    inputsSchema: {
      type: 'object',
      required: ['file_id', 'n'],
      additionalProperties: false,
      properties: { file_id: { type: 'string' }, n: { type: 'integer' } },
    },
    async run({ job, inputs, signal }) {
      appendFileSync(join(dataDir, `runs-${name}.log`), `${job.id}\n`);
      const holding = armed;
      print({ event: 'start', id: job.id, armed: holding });
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(resolve, holding ? ARMED_MS : 20 + Math.random() * 40);
        signal.addEventListener(
          'abort',
          () => {
            clearTimeout(timer);
            reject(signal.reason as Error);
          },
          { once: true },
        );
      });
      return {
        fields: [{ name: 'test.n', value: String(inputs.n), confidence: 1, boundingBox: null }],
      };
    },
  };

  const engine = createEngine({
    files: createFsFileStore({ dir: join(dataDir, 'files') }),
    persistence: createPostgresPersistence({ connectionString: url, schema, maxConnections: 4 }),
    ocr: noOcr,
    ingest: { ocr: 'never' },
    jobs: { concurrency: 2, leaseMs: 1500, pollMs: 200 },
    workflows: [work],
  });
  engine.on('job', ({ job }) => print({ event: 'job', id: job.id, status: job.status }));
  engine.on('error', ({ jobId, error }) =>
    print({ event: 'error', jobId, code: error.code, message: error.message }),
  );
  process.once('SIGTERM', () => {
    engine.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  });
  // Stays alive until killed or told to stop, whatever the queue does.
  setInterval(() => undefined, 60_000);
  await engine.ready;
  print({ event: 'ready' });

  const fileIds: string[] = [];
  for (let i = 0; i < Math.ceil(count / JOBS_PER_FILE); i++) {
    const { fileId } = await engine.uploadV2(PNG, { name: `${name}-${i}.png` });
    fileIds.push(fileId);
    print({ event: 'file', fileId });
  }
  for (let k = 0; k < count; k++) {
    const n = firstN + k;
    const fileId = fileIds[Math.floor(k / JOBS_PER_FILE)]!;
    const { job } = await engine.invoke('test.work', { inputs: { file_id: fileId, n } });
    print({ event: 'accepted', id: job.id, fileId, n });
  }
  print({ event: 'submitted', count });
}

main(process.argv.slice(2)).catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
