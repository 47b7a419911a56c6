/**
 * The engine process of test/queue/crash-recovery.test.ts, run as
 * `node --import tsx test/queue/crash-child.ts <dataDir> <submit|resume>`.
 *
 * Both modes open an engine on `<dataDir>` (files in `<dataDir>/files`, jobs in `<dataDir>/docex.db`)
 * with a custom workflow `test.slow` that appends its job id to `<dataDir>/runs.log` when a run starts
 * (so the log counts runs, a run cut short by a crash included), waits, and returns one field `test.n`.
 *
 * Every line on stdout is one JSON object with an `event`:
 * - submit: uploads FILE_COUNT invoices, invokes svc.extract and test.slow jobs on each and prints
 *   `file` and `accepted` lines as soon as each call returns, then `submitted`; prints `job` for each
 *   job change and `start` when a test.slow run starts. Once every job is accepted and MIN_SUCCEEDED
 *   jobs succeeded the process is `armed`: test.slow runs started from then on never finish by
 *   themselves, so the parent's SIGKILL (sent on the first armed `start`) lands in the middle of a run.
 *   The process never exits by itself.
 * - resume: takes up the unfinished jobs, waits until none is new or running, prints one `summary`
 *   line (jobs, results per file, files, jobs taken up again), closes the engine and exits 0.
 */
import { appendFileSync } from 'node:fs';
import { join } from 'node:path';

import { createFsFileStore } from '../../src/adapters/stores/fs-file-store.js';
import { createSqlitePersistence } from '../../src/adapters/persistence/sqlite-persistence.js';
import { DocexError } from '../../src/core/errors.js';
import type { JobRecord } from '../../src/core/jobs.js';
import { createEngine, type Engine } from '../../src/index.js';
import type { OcrEngine } from '../../src/ports/ocr-engine.js';
import type { WorkflowDefinition } from '../../src/workflows/types.js';
import { INVOICE_LINES, makeTextPdf } from '../helpers/make-documents.js';

const FILE_COUNT = 6;
/** test.slow jobs per file (plus one svc.extract each). */
const SLOW_PER_FILE = 4;
/** Jobs that succeed before the submitting process arms its kill point. */
const MIN_SUCCEEDED = 5;
/** Length of a normal test.slow run. */
const SLOW_MS = 150;
/** An armed run's wait: far longer than the parent needs to kill the process. */
const ARMED_MS = 120_000;
/** How long the resuming process waits for the jobs before it reports what it has. */
const WAIT_LIMIT_MS = 20_000;

/** The invoice of file `i`: the reference number tells the files apart. */
function referenceOf(i: number): string {
  return `INV-2093${i}`;
}

/** `n` of the k-th test.slow job on file i: not increasing, so "newest wins" is not "largest wins". */
function slowN(i: number, k: number): number {
  return 100 * (i + 1) + [3, 1, 4, 2][k % SLOW_PER_FILE]!;
}

function print(line: Record<string, unknown>): void {
  // stdout to a pipe is synchronous on Linux: a line printed before a SIGKILL reaches the parent.
  process.stdout.write(`${JSON.stringify(line)}\n`);
}

const TERMINAL: readonly JobRecord['status'][] = ['succeeded', 'failed', 'cancelled'];

/** OCR must never be needed here: the documents are born-digital and ingest runs with ocr 'never'. */
const noOcr: OcrEngine = {
  recognize: () => Promise.reject(new DocexError('OCR_FAILED', 'OCR is not used in this test.')),
  close: () => Promise.resolve(),
};

function openEngine(dataDir: string, mode: 'submit' | 'resume', isArmed: () => boolean): Engine {
  const slow: WorkflowDefinition = {
    id: 'test.slow',
    inputsSchema: {
      type: 'object',
      required: ['file_id', 'n'],
      additionalProperties: false,
      properties: { file_id: { type: 'string' }, n: { type: 'integer' } },
    },
    async run({ job, inputs, signal }) {
      appendFileSync(join(dataDir, 'runs.log'), `${job.id}\n`);
      const armed = mode === 'submit' && isArmed();
      if (mode === 'submit') print({ event: 'start', id: job.id, armed });
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(resolve, armed ? ARMED_MS : SLOW_MS);
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
  return createEngine({
    files: createFsFileStore({ dir: join(dataDir, 'files') }),
    persistence: createSqlitePersistence({ path: join(dataDir, 'docex.db') }),
    ocr: noOcr,
    ingest: { ocr: 'never' },
    jobs: { concurrency: 2 },
    workflows: [slow],
  });
}

async function submit(dataDir: string): Promise<void> {
  let submitted = false;
  let succeeded = 0;
  const engine = openEngine(dataDir, 'submit', () => submitted && succeeded >= MIN_SUCCEEDED);
  engine.on('job', ({ job }) => {
    if (job.status === 'succeeded') succeeded++;
    print({ event: 'job', id: job.id, status: job.status, workflowId: job.workflow_id });
  });
  // Stays alive until killed, whatever the queue does.
  setInterval(() => undefined, 60_000);
  await engine.ready;

  const fileIds: string[] = [];
  for (let i = 0; i < FILE_COUNT; i++) {
    const lines = INVOICE_LINES.map((line) =>
      line.text.startsWith('Invoice Number:') ? { ...line, text: `Invoice Number: ${referenceOf(i)}` } : line,
    );
    const upload = await engine.uploadV2(await makeTextPdf([{ lines }]), { name: `invoice-${i}.pdf` });
    fileIds.push(upload.fileId);
    print({ event: 'file', fileId: upload.fileId, index: i, reference: referenceOf(i) });
  }

  let count = 0;
  const accept = async (workflowId: string, inputs: Record<string, unknown>, file: number): Promise<void> => {
    const { job } = await engine.invoke(workflowId, { inputs });
    count++;
    print({ event: 'accepted', id: job.id, fileId: job.file_id, file, workflowId, n: inputs.n ?? null });
  };
  // File by file, the extraction second among the file's jobs: extractions are spread over the batch.
  for (let i = 0; i < FILE_COUNT; i++) {
    const fileId = fileIds[i]!;
    for (let k = 0; k < SLOW_PER_FILE; k++) {
      await accept('test.slow', { file_id: fileId, n: slowN(i, k) }, i);
      if (k === 0) await accept('svc.extract', { file_id: fileId, product_ids: ['invoices:2'] }, i);
    }
  }
  submitted = true;
  print({ event: 'submitted', count });
}

async function resume(dataDir: string): Promise<void> {
  const engine = openEngine(dataDir, 'resume', () => false);
  // Recovery runs after the current macrotask: a job stored as running comes back as `new` (taken up
  // again), one whose runs were all cut short fails with JOB_INTERRUPTED.
  const takenUp: string[] = [];
  let recovering = true;
  engine.on('job', ({ job }) => {
    if (recovering && job.status === 'new') takenUp.push(job.id);
  });
  await engine.ready;
  recovering = false;

  // Until no job is new or running: checked at each finished job, with a slow fallback. A job that
  // never finishes shows up in the summary after WAIT_LIMIT_MS instead of hanging the test.
  const settled = await new Promise<boolean>((resolve, reject) => {
    let done = false;
    const finish = (value: boolean): void => {
      if (done) return;
      done = true;
      clearInterval(fallback);
      clearTimeout(limit);
      unsubscribe();
      resolve(value);
    };
    const check = (): void => {
      engine.listJobs().then((jobs) => {
        if (!jobs.some((j) => j.status === 'new' || j.status === 'running')) finish(true);
      }, reject);
    };
    const unsubscribe = engine.on('job', ({ job }) => {
      if (TERMINAL.includes(job.status)) check();
    });
    const fallback = setInterval(check, 500);
    const limit = setTimeout(() => finish(false), WAIT_LIMIT_MS);
    check();
  });

  const jobs = (await engine.listJobs()).map((j) => ({
    id: j.id,
    workflowId: j.workflow_id,
    fileId: j.file_id,
    created: j.created,
    status: j.status,
    version: j.version,
    error: j.error ?? null,
  }));
  const files = (await engine.listFiles()).map((f) => ({ fileId: f.fileId, name: f.name ?? null }));
  const results: Record<string, unknown> = {};
  for (const { fileId } of files) {
    try {
      const result = await engine.getResult(fileId, { timeoutMs: 0 });
      results[fileId] =
        result.status === 'FINALISED'
          ? {
              status: result.status,
              fields: result.results.fields.map((f) => ({ name: f.name, value: f.value })),
            }
          : { status: result.status };
    } catch (error) {
      results[fileId] = { error: error instanceof DocexError ? error.code : String(error) };
    }
  }
  print({ event: 'summary', settled, jobs, files, results, takenUp });
  await engine.close();
}

const [dataDir, mode] = process.argv.slice(2);
if (!dataDir || (mode !== 'submit' && mode !== 'resume')) {
  process.stderr.write('usage: crash-child.ts <dataDir> <submit|resume>\n');
  process.exit(2);
}
(mode === 'submit' ? submit(dataDir) : resume(dataDir)).then(
  () => {
    if (mode === 'resume') process.exit(0);
  },
  (error: unknown) => {
    process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  },
);
