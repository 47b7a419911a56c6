import { afterEach, describe, expect, it } from 'vitest';
import { createEngine, DocexError, type Engine, type EngineOptions } from '../src/index.js';
import type { WorkflowDefinition } from '../src/workflows/types.js';
import { INVOICE_LINES, makeTextPdf } from './helpers/make-documents.js';
import { whenJob } from './helpers/when-job.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const MICROS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}$/;
const MILLIS_Z = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

const engines: Engine[] = [];
afterEach(async () => {
  await Promise.all(engines.splice(0).map((e) => e.close()));
});

function newEngine(options: EngineOptions = {}): Engine {
  const engine = createEngine({
    ingest: { ocr: 'never' },
    ...options,
    jobs: { retry: { baseDelayMs: 5, maxDelayMs: 20 }, shutdownGraceMs: 1000, ...options.jobs },
  });
  engines.push(engine);
  return engine;
}

let invoicePdf: Uint8Array | undefined;
async function invoice(): Promise<Uint8Array> {
  invoicePdf ??= await makeTextPdf([{ lines: INVOICE_LINES }]);
  return invoicePdf;
}

function deferred<T = void>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

async function rejection(promise: Promise<unknown>): Promise<DocexError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(DocexError);
  return error as DocexError;
}

/** A workflow that waits for the test to release it, recording its runs. */
function gatedWorkflow(id: string, extra: Partial<WorkflowDefinition> = {}) {
  const gates: Array<ReturnType<typeof deferred<void>>> = [];
  const started: string[] = [];
  let running = 0;
  let peak = 0;
  const definition: WorkflowDefinition = {
    id,
    inputsSchema: {
      type: 'object',
      properties: { file_id: { type: 'string' }, value: { type: 'string' } },
      additionalProperties: false,
    },
    async run({ job, inputs }) {
      started.push(job.id);
      running++;
      peak = Math.max(peak, running);
      const gate = deferred();
      gates.push(gate);
      await gate.promise;
      running--;
      return {
        fields: [
          { name: 'test.value', value: (inputs.value as string) ?? null, confidence: 1, boundingBox: null },
        ],
      };
    },
    ...extra,
  };
  return {
    definition,
    started,
    peak: () => peak,
    /** Releases the oldest waiting run (waits until one has started). */
    async release(): Promise<void> {
      while (gates.length === 0) await new Promise((r) => setTimeout(r, 2));
      gates.shift()!.resolve();
    },
    async waitStarted(n: number): Promise<void> {
      while (started.length < n) await new Promise((r) => setTimeout(r, 2));
    },
  };
}

describe('invoking workflows', () => {
  it('answers the job record of the interface, field by field', async () => {
    const engine = newEngine();
    engine.configureAccount('acme', { locale: 'en-AU' });
    const file = await engine.uploadV2(await invoice(), { accountId: 'acme' });
    const inputs = { file_id: file.fileId, product_ids: ['invoices:2'] };
    const answer = await engine.invoke('svc.extract', { inputs }, { accountId: 'acme' });
    expect(Object.keys(answer).sort()).toEqual(['job', 'message_id']);
    expect(answer.message_id).toMatch(UUID);
    const { job } = answer;
    expect(Object.keys(job)).toEqual([
      'id',
      'company_id',
      'created',
      'workflow_id',
      'inputs',
      'settings',
      'usage',
      'file_id',
      'status',
      'version',
    ]);
    expect(job.id).toMatch(UUID);
    expect(job.id).not.toBe(answer.message_id);
    expect(job.company_id).toMatch(UUID);
    expect(job.created).toMatch(MICROS);
    expect(Math.abs(Date.parse(job.created + 'Z') - Date.now())).toBeLessThan(60_000);
    expect(job.workflow_id).toBe('svc.extract');
    expect(job.inputs).toEqual(inputs);
    expect(job.settings).toEqual({ max_file_bytes: 20 * 1024 * 1024, max_pages: 16, locale: 'en-AU' });
    expect(job.usage).toBeNull();
    expect(job.file_id).toBe(file.fileId);
    expect(job.status).toBe('new');
    expect(job.version).toBe(1);
    // The same account always has the same company id; another account another one.
    const again = await engine.invoke('svc.extract', { inputs }, { accountId: 'acme' });
    expect(again.job.company_id).toBe(job.company_id);
    expect(again.job.created > job.created).toBe(true);
    const other = await engine.uploadV2(await invoice(), { accountId: 'other' });
    const foreign = await engine.invoke(
      'svc.extract',
      { inputs: { file_id: other.fileId, product_ids: ['invoices:2'] } },
      { accountId: 'other' },
    );
    expect(foreign.job.company_id).not.toBe(job.company_id);
  });

  it('runs svc.extract: new, running, succeeded, a version for each change, then the result', async () => {
    const engine = newEngine();
    const seen: Array<[string, number]> = [];
    const results: string[] = [];
    engine.on('job', ({ job }) => seen.push([job.status, job.version]));
    engine.on('result', ({ fileId }) => results.push(fileId));
    const file = await engine.uploadV2(await invoice());
    const { job } = await engine.invoke('svc.extract', {
      inputs: { file_id: file.fileId, product_ids: ['invoices:2'] },
    });
    const done = await whenJob(engine, job.id, ['succeeded', 'failed']);
    expect(done.status).toBe('succeeded');
    expect(seen).toEqual([
      ['new', 1],
      ['running', 2],
      ['succeeded', 3],
    ]);
    expect(results).toEqual([file.fileId]);
    expect(done.usage).toEqual({ pages: 1, ocr_pages: 0, processing_ms: expect.any(Number) });
    expect(await engine.getJob(job.id)).toEqual(done);

    const result = await engine.getResult(file.fileId);
    expect(result.status).toBe('FINALISED');
    if (result.status !== 'FINALISED') return;
    expect(Object.keys(result).sort()).toEqual(['fileId', 'results', 'status']);
    expect(result.fileId).toBe(file.fileId);
    expect(result.results.timestamp).toMatch(MILLIS_Z);
    const names = engine.catalogue
      .resolve(['invoices:2'])
      .fieldsets.flatMap((f) => f.fields.map((d) => d.name));
    expect(result.results.fields.map((f) => f.name)).toEqual(names);
    for (const field of result.results.fields) {
      expect(Object.keys(field).sort()).toEqual(['boundingBox', 'confidence', 'name', 'value']);
    }
    expect(result.results.fields.find((f) => f.name === 'invoice.total')!.value).toBe('150.00');
    const verbose = await engine.getResult(file.fileId, { verbose: true });
    if (verbose.status !== 'FINALISED') throw new Error('expected FINALISED');
    expect(verbose.results.fields.find((f) => f.name === 'invoice.total')).toMatchObject({
      value: '150.00',
      text: '150.00',
      valueNorm: 150,
    });
  });

  it('runs svc.ingest: the token layer is stored and the result has no fields', async () => {
    const engine = newEngine();
    const file = await engine.uploadV2(await invoice());
    const { job } = await engine.invoke('svc.ingest', { inputs: { file_id: file.fileId, ocr: 'never' } });
    expect((await whenJob(engine, job.id, ['succeeded', 'failed'])).status).toBe('succeeded');
    expect((await engine.getTokenLayer(file.fileId))!.tokens.length).toBeGreaterThan(10);
    const result = await engine.getResult(file.fileId);
    expect(result).toMatchObject({ status: 'FINALISED', results: { fields: [] } });
  });

  it('refuses inputs that do not fit the schema, listing every problem with its path', async () => {
    const engine = newEngine();
    const file = await engine.uploadV2(await invoice());
    const error = await rejection(
      engine.invoke('svc.extract', { inputs: { product_ids: 'invoices:2', colour: 'red' } as never }),
    );
    expect(error.code).toBe('INVALID_INPUTS');
    expect(error.httpStatus).toBe(400);
    expect(error.details.map((d) => d.path).sort()).toEqual([
      '/inputs/colour',
      '/inputs/file_id',
      '/inputs/product_ids',
    ]);
    const items = await rejection(
      engine.invoke('svc.extract', { inputs: { file_id: file.fileId, product_ids: ['ok:2', 'bad id!', 7] } }),
    );
    expect(items.details.map((d) => d.path)).toEqual(['/inputs/product_ids/1', '/inputs/product_ids/2']);
    const empty = await rejection(
      engine.invoke('svc.extract', { inputs: { file_id: file.fileId, product_ids: [] } }),
    );
    expect(empty.details).toEqual([{ path: '/inputs/product_ids', message: expect.any(String) }]);
    expect((await rejection(engine.invoke('svc.extract', 'x' as never))).code).toBe('INVALID_INPUTS');
    expect((await rejection(engine.invoke('svc.extract', {} as never))).details[0]!.path).toBe('/inputs');
    const ingest = await rejection(
      engine.invoke('svc.ingest', { inputs: { file_id: file.fileId, ocr: 'sometimes' } }),
    );
    expect(ingest.details).toEqual([
      { path: '/inputs/ocr', message: 'must be one of "auto", "always", "never"' },
    ]);
    expect(await engine.listJobs()).toEqual([]);
  });

  it('refuses an unknown workflow, an unknown file, another account’s file and a product not subscribed', async () => {
    const engine = newEngine();
    engine.configureAccount('limited', { subscriptions: ['receipts'] });
    const mine = await engine.uploadV2(await invoice(), { accountId: 'limited' });
    const theirs = await engine.uploadV2(await invoice(), { accountId: 'someone' });
    const unknown = await rejection(engine.invoke('svc.nothing', { inputs: {} }, { accountId: 'limited' }));
    expect([unknown.code, unknown.httpStatus]).toEqual(['UNKNOWN_WORKFLOW', 404]);
    const extract = (fileId: string, products = ['receipts:1']) =>
      engine.invoke(
        'svc.extract',
        { inputs: { file_id: fileId, product_ids: products } },
        { accountId: 'limited' },
      );
    expect((await rejection(extract('00000000-0000-4000-8000-000000000000'))).code).toBe('FILE_NOT_FOUND');
    expect((await rejection(extract(theirs.fileId))).code).toBe('FILE_NOT_FOUND');
    const forbidden = await rejection(extract(mine.fileId, ['invoices:2']));
    expect([forbidden.code, forbidden.httpStatus]).toEqual(['PRODUCT_NOT_ALLOWED', 403]);
    expect(forbidden.message).toContain('invoices:2');
    expect((await rejection(extract(mine.fileId, ['nope:1']))).code).toBe('UNKNOWN_PRODUCT');
    expect(await engine.listJobs({ accountId: 'limited' })).toEqual([]);
    await extract(mine.fileId);
    expect(await engine.listJobs({ accountId: 'limited' })).toHaveLength(1);
  });

  it('keeps accounts apart: another account’s job and result answer like unknown ones', async () => {
    const engine = newEngine();
    const file = await engine.uploadV2(await invoice(), { accountId: 'a' });
    const { job } = await engine.invoke(
      'svc.extract',
      { inputs: { file_id: file.fileId, product_ids: ['invoices:2'] } },
      { accountId: 'a' },
    );
    expect((await rejection(engine.getJob(job.id, { accountId: 'b' }))).code).toBe('JOB_NOT_FOUND');
    expect((await rejection(engine.cancelJob(job.id, { accountId: 'b' }))).code).toBe('JOB_NOT_FOUND');
    expect((await rejection(engine.getResult(file.fileId, { accountId: 'b' }))).code).toBe('FILE_NOT_FOUND');
    expect(await engine.listJobs({ accountId: 'b' })).toEqual([]);
    expect((await rejection(engine.getJob('not-a-uuid', { accountId: 'a' }))).code).toBe('JOB_NOT_FOUND');
    expect((await engine.getJob(job.id.toUpperCase(), { accountId: 'a' })).id).toBe(job.id);
  });
});

describe('custom workflows', () => {
  it('registers a workflow, validates its inputs and merges its fields into the result', async () => {
    const engine = newEngine();
    engine.registerWorkflow({
      id: 'acme.stamp',
      inputsSchema: {
        type: 'object',
        required: ['file_id', 'stamp'],
        properties: { file_id: { type: 'string' }, stamp: { type: 'string', maxLength: 10 } },
        additionalProperties: false,
      },
      async run({ inputs, fileId, accountId, engine: e }) {
        const record = await e.getFile(fileId!, { accountId });
        return {
          fields: [
            {
              name: 'acme.stamp',
              value: `${inputs.stamp as string}:${record.pageCount}`,
              confidence: 1,
              boundingBox: null,
            },
          ],
        };
      },
    });
    expect(engine.workflowIds()).toEqual([
      'svc.ingest',
      'svc.extract',
      'svc.validate',
      'svc.split',
      'acme.stamp',
    ]);
    const file = await engine.uploadV2(await invoice());
    const bad = await rejection(
      engine.invoke('acme.stamp', { inputs: { file_id: file.fileId, stamp: 'x'.repeat(11) } }),
    );
    expect(bad.details).toEqual([
      { path: '/inputs/stamp', message: 'must NOT have more than 10 characters' },
    ]);
    const { job } = await engine.invoke('acme.stamp', { inputs: { file_id: file.fileId, stamp: 'PAID' } });
    await whenJob(engine, job.id, ['succeeded']);
    const result = await engine.getResult(file.fileId);
    expect(result).toEqual({
      fileId: file.fileId,
      status: 'FINALISED',
      results: {
        timestamp: expect.stringMatching(MILLIS_Z),
        fields: [{ name: 'acme.stamp', value: 'PAID:1', confidence: 1, boundingBox: null }],
      },
    });
  });

  it('refuses bad definitions', () => {
    const engine = newEngine();
    const run = async () => ({});
    const schema = { type: 'object' };
    const codeOf = (fn: () => void): string | undefined => {
      try {
        fn();
      } catch (error) {
        return (error as DocexError).code;
      }
      return undefined;
    };
    expect(codeOf(() => engine.registerWorkflow({ id: 'has space', inputsSchema: schema, run }))).toBe(
      'INVALID_DEFINITION',
    );
    expect(codeOf(() => engine.registerWorkflow({ id: 'svc.extract', inputsSchema: schema, run }))).toBe(
      'INVALID_DEFINITION',
    );
    expect(
      codeOf(() => engine.registerWorkflow({ id: 'a.b', inputsSchema: { type: 'object', colour: 1 }, run })),
    ).toBe('INVALID_DEFINITION');
    expect(codeOf(() => engine.registerWorkflow({ id: 'a.c', inputsSchema: schema } as never))).toBe(
      'INVALID_DEFINITION',
    );
    expect(engine.workflowIds()).toEqual(['svc.ingest', 'svc.extract', 'svc.validate', 'svc.split']);
  });

  it('follows the engine namespace for built-in ids', async () => {
    const engine = newEngine({ namespace: 'acme' });
    expect(engine.workflowIds()).toEqual(['acme.ingest', 'acme.extract', 'acme.validate', 'acme.split']);
    expect((await rejection(engine.invoke('svc.extract', { inputs: {} }))).code).toBe('UNKNOWN_WORKFLOW');
  });

  it('keeps a job without a file as file_id null', async () => {
    const engine = newEngine({
      workflows: [
        { id: 'acme.ping', inputsSchema: { type: 'object' }, run: async () => ({ usage: { pings: 1 } }) },
      ],
    });
    const { job } = await engine.invoke('acme.ping', { inputs: {} });
    expect(job.file_id).toBeNull();
    expect(await whenJob(engine, job.id, ['succeeded'])).toMatchObject({ usage: { pings: 1 }, version: 3 });
  });
});

describe('failures, retries, timeouts', () => {
  it('fails a job with the error code and message, and the result request answers that error', async () => {
    const engine = newEngine({
      workflows: [
        {
          id: 'acme.fail',
          inputsSchema: { type: 'object' },
          run: async () => {
            throw new DocexError('WORKFLOW_FAILED', 'The stamp is missing.');
          },
        },
        {
          id: 'acme.crash',
          inputsSchema: { type: 'object' },
          run: async () => {
            throw new TypeError('secret internal detail at /srv/x.js:12');
          },
        },
      ],
    });
    const file = await engine.uploadV2(await invoice());
    const { job } = await engine.invoke('acme.fail', { inputs: { file_id: file.fileId } });
    const failed = await whenJob(engine, job.id, ['failed', 'succeeded']);
    expect(failed).toMatchObject({
      status: 'failed',
      error: { code: 'WORKFLOW_FAILED', message: 'The stamp is missing.' },
    });
    const error = await rejection(engine.getResult(file.fileId, { timeoutMs: 1000 }));
    expect([error.code, error.message, error.httpStatus]).toEqual([
      'WORKFLOW_FAILED',
      'The stamp is missing.',
      422,
    ]);

    const crash = await engine.invoke('acme.crash', { inputs: { file_id: file.fileId } });
    const crashed = await whenJob(engine, crash.job.id, ['failed']);
    expect(crashed.error!.code).toBe('INTERNAL');
    expect(JSON.stringify(crashed)).not.toContain('secret');

    // A later run that succeeds makes the file's result FINALISED again.
    const ok = await engine.invoke('svc.extract', {
      inputs: { file_id: file.fileId, product_ids: ['receipts:1'] },
    });
    await whenJob(engine, ok.job.id, ['succeeded']);
    expect((await engine.getResult(file.fileId)).status).toBe('FINALISED');
  });

  it('fails a v1 document over the page limit when it is read, not at upload', async () => {
    const engine = newEngine({ limits: { maxPages: 2 } });
    const pdf = await makeTextPdf([
      { lines: INVOICE_LINES },
      { lines: INVOICE_LINES },
      { lines: INVOICE_LINES },
    ]);
    const refused = await rejection(engine.uploadV2(pdf));
    expect([refused.code, refused.httpStatus]).toEqual(['PAGE_LIMIT_EXCEEDED', 422]);
    expect(await engine.listFiles()).toEqual([]);
    const upload = await engine.uploadV1(pdf, { products: 'invoices:2' });
    const error = await rejection(engine.getResult(upload.fileId));
    expect(error.code).toBe('PAGE_LIMIT_EXCEEDED');
    const [job] = await engine.listJobs({ fileId: upload.fileId });
    expect(job).toMatchObject({ status: 'failed', error: { code: 'PAGE_LIMIT_EXCEEDED' } });
  });

  it('retries transient failures with backoff, then succeeds', async () => {
    let runs = 0;
    const engine = newEngine({
      workflows: [
        {
          id: 'acme.flaky',
          inputsSchema: { type: 'object' },
          run: async () => {
            runs++;
            if (runs < 3) throw new DocexError('OCR_TIMEOUT', 'Recognition took too long.');
            return { usage: { runs } };
          },
        },
      ],
    });
    const statuses: string[] = [];
    engine.on('job', ({ job }) => statuses.push(job.status));
    const { job } = await engine.invoke('acme.flaky', { inputs: {} });
    const done = await whenJob(engine, job.id, ['succeeded', 'failed']);
    expect(done.status).toBe('succeeded');
    expect(runs).toBe(3);
    expect(statuses).toEqual(['new', 'running', 'new', 'running', 'new', 'running', 'succeeded']);
    expect(done.version).toBe(7);
    expect(done.error).toBeUndefined();
  });

  it('gives up after the last attempt, and never retries a permanent error', async () => {
    let transientRuns = 0;
    let permanentRuns = 0;
    const engine = newEngine({
      jobs: { retry: { maxAttempts: 2, baseDelayMs: 1, maxDelayMs: 5 } },
      workflows: [
        {
          id: 'acme.down',
          inputsSchema: { type: 'object' },
          run: async () => {
            transientRuns++;
            throw new DocexError('INTERNAL', 'Storage unavailable.', { transient: true });
          },
        },
        {
          id: 'acme.broken',
          inputsSchema: { type: 'object' },
          run: async () => {
            permanentRuns++;
            throw new DocexError('PDF_CORRUPT', 'The PDF is damaged.');
          },
        },
      ],
    });
    const down = await engine.invoke('acme.down', { inputs: {} });
    const broken = await engine.invoke('acme.broken', { inputs: {} });
    expect(await whenJob(engine, down.job.id, ['failed'])).toMatchObject({
      error: { message: 'Storage unavailable.' },
    });
    expect(await whenJob(engine, broken.job.id, ['failed'])).toMatchObject({
      error: { code: 'PDF_CORRUPT' },
    });
    expect([transientRuns, permanentRuns]).toEqual([2, 1]);
  });

  it('fails a job that runs past its time limit and aborts its signal', async () => {
    let aborted: unknown;
    const engine = newEngine({
      workflows: [
        {
          id: 'acme.stuck',
          inputsSchema: { type: 'object' },
          timeoutMs: 50,
          run: ({ signal }) =>
            new Promise((resolve) => {
              signal.addEventListener('abort', () => {
                aborted = signal.reason;
                // Resolving late must not turn the failed job into a success.
                resolve({ usage: { late: true } });
              });
            }),
        },
      ],
    });
    const { job } = await engine.invoke('acme.stuck', { inputs: {} });
    const failed = await whenJob(engine, job.id, ['failed', 'succeeded']);
    expect(failed).toMatchObject({ status: 'failed', error: { code: 'JOB_TIMEOUT' } });
    expect(aborted).toBeInstanceOf(DocexError);
    expect((await engine.getJob(job.id)).status).toBe('failed');
  });
});

describe('the queue', () => {
  it('cancels a queued job; a running or finished one cannot be cancelled', async () => {
    const gate = gatedWorkflow('acme.gate');
    const engine = newEngine({ jobs: { concurrency: 1 }, workflows: [gate.definition] });
    const first = await engine.invoke('acme.gate', { inputs: {} });
    const second = await engine.invoke('acme.gate', { inputs: {} });
    await gate.waitStarted(1);
    const cancelled = await engine.cancelJob(second.job.id);
    expect(cancelled).toMatchObject({ status: 'cancelled', version: 2 });
    expect((await rejection(engine.cancelJob(first.job.id))).code).toBe('JOB_NOT_CANCELLABLE');
    await gate.release();
    await whenJob(engine, first.job.id, ['succeeded']);
    expect((await rejection(engine.cancelJob(first.job.id))).httpStatus).toBe(409);
    expect(gate.started).toEqual([first.job.id]);
    expect((await engine.getJob(second.job.id)).status).toBe('cancelled');
  });

  it('runs at most `concurrency` jobs, and at most `accountConcurrency` of one account', async () => {
    const gate = gatedWorkflow('acme.gate');
    const engine = newEngine({
      jobs: { concurrency: 3, accountConcurrency: 2 },
      workflows: [gate.definition],
    });
    const busy = [];
    for (let i = 0; i < 4; i++)
      busy.push(await engine.invoke('acme.gate', { inputs: {} }, { accountId: 'busy' }));
    const quiet = await engine.invoke('acme.gate', { inputs: {} }, { accountId: 'quiet' });
    // Two of the busy account run; the quiet account's job, queued after all of them, runs beside them.
    await gate.waitStarted(3);
    expect(gate.started).toEqual([busy[0]!.job.id, busy[1]!.job.id, quiet.job.id]);
    for (let i = 0; i < 5; i++) await gate.release();
    await Promise.all(busy.map((b) => whenJob(engine, b.job.id, ['succeeded'], 'busy')));
    expect(gate.peak()).toBe(3);
  });

  it('limits named queues', async () => {
    const slow = gatedWorkflow('acme.slow', { queue: 'slow' });
    const fast = gatedWorkflow('acme.fast');
    const engine = newEngine({
      jobs: { concurrency: 4, queues: { slow: 1 } },
      workflows: [slow.definition, fast.definition],
    });
    const a = await engine.invoke('acme.slow', { inputs: {} });
    const b = await engine.invoke('acme.slow', { inputs: {} });
    const c = await engine.invoke('acme.fast', { inputs: {} });
    await slow.waitStarted(1);
    await fast.waitStarted(1);
    expect(slow.started).toEqual([a.job.id]);
    expect((await engine.getJob(b.job.id)).status).toBe('new');
    await slow.release();
    await slow.release();
    await fast.release();
    await Promise.all([a, b, c].map((x) => whenJob(engine, x.job.id, ['succeeded'])));
    expect(slow.peak()).toBe(1);
  });

  it('refuses new work with QUEUE_FULL instead of growing without bound', async () => {
    const gate = gatedWorkflow('acme.gate');
    const engine = newEngine({ jobs: { concurrency: 1, maxQueued: 2 }, workflows: [gate.definition] });
    const file = await engine.uploadV2(await invoice());
    await engine.invoke('acme.gate', { inputs: {} });
    await gate.waitStarted(1);
    await engine.invoke('acme.gate', { inputs: {} });
    await engine.invoke('acme.gate', { inputs: {} });
    const full = await rejection(engine.invoke('acme.gate', { inputs: {} }));
    expect([full.code, full.httpStatus, full.transient]).toEqual(['QUEUE_FULL', 503, true]);
    // A v1 upload is refused before its file is stored.
    expect((await rejection(engine.uploadV1(await invoice(), { products: ['invoices:2'] }))).code).toBe(
      'QUEUE_FULL',
    );
    expect((await engine.listFiles()).map((f) => f.fileId)).toEqual([file.fileId]);
    expect(await engine.listJobs()).toHaveLength(3);
    for (let i = 0; i < 3; i++) await gate.release();
  });

  it('keeps serving when a listener throws', async () => {
    const engine = newEngine();
    engine.on('job', () => {
      throw new Error('listener bug');
    });
    const file = await engine.uploadV2(await invoice());
    const { job } = await engine.invoke('svc.ingest', { inputs: { file_id: file.fileId } });
    expect((await whenJob(engine, job.id, ['succeeded', 'failed'])).status).toBe('succeeded');
  });

  it('finishes running jobs when closed, then takes no more work', async () => {
    const gate = gatedWorkflow('acme.gate');
    const engine = newEngine({ workflows: [gate.definition] });
    const statuses: string[] = [];
    const { job } = await engine.invoke('acme.gate', { inputs: {} });
    engine.on('job', (e) => statuses.push(e.job.status));
    await gate.waitStarted(1);
    const closing = engine.close();
    await gate.release();
    await closing;
    expect(statuses).toEqual(['succeeded']);
    expect((await rejection(engine.invoke('acme.gate', { inputs: {} }))).code).toBe('ENGINE_CLOSED');
    expect(job.status).toBe('new');
  });
});

describe('results', () => {
  it('waits for pending work without polling, and answers IN PROGRESS when the wait ends first', async () => {
    const gate = gatedWorkflow('acme.gate');
    const engine = newEngine({ workflows: [gate.definition] });
    const file = await engine.uploadV2(await invoice());
    await engine.invoke('acme.gate', { inputs: { file_id: file.fileId, value: 'one' } });
    // v2: answers at once by default.
    expect(await engine.getResult(file.fileId)).toEqual({ fileId: file.fileId, status: 'IN PROGRESS' });
    expect(await engine.getResult(file.fileId, { timeoutMs: 20 })).toEqual({
      fileId: file.fileId,
      status: 'IN PROGRESS',
    });
    const waiting = engine.getResult(file.fileId, { timeoutMs: 20_000 });
    await gate.release();
    const result = await waiting;
    expect(result).toMatchObject({
      status: 'FINALISED',
      results: { fields: [{ name: 'test.value', value: 'one' }] },
    });
  });

  it('merges the results of several runs per field name; the newest invocation wins', async () => {
    const gate = gatedWorkflow('acme.gate');
    const engine = newEngine({ workflows: [gate.definition] });
    const file = await engine.uploadV2(await invoice());
    const extract = await engine.invoke('svc.extract', {
      inputs: { file_id: file.fileId, product_ids: ['receipts:1'] },
    });
    await whenJob(engine, extract.job.id, ['succeeded']);
    const older = await engine.invoke('acme.gate', { inputs: { file_id: file.fileId, value: 'older' } });
    const newer = await engine.invoke('acme.gate', { inputs: { file_id: file.fileId, value: 'newer' } });
    await gate.waitStarted(2);
    // The newer invocation finishes first; the older one must not override it.
    const started = [...gate.started];
    expect(started.sort()).toEqual([older.job.id, newer.job.id].sort());
    await gate.release();
    await gate.release();
    await whenJob(engine, older.job.id, ['succeeded']);
    await whenJob(engine, newer.job.id, ['succeeded']);
    const result = await engine.getResult(file.fileId);
    if (result.status !== 'FINALISED') throw new Error('expected FINALISED');
    const names = result.results.fields.map((f) => f.name);
    expect(names.slice(0, -1)).toEqual(
      engine.catalogue.resolve(['receipts:1']).fieldsets.flatMap((f) => f.fields.map((d) => d.name)),
    );
    expect(result.results.fields.at(-1)).toEqual({
      name: 'test.value',
      value: 'newer',
      confidence: 1,
      boundingBox: null,
    });
  });

  it('answers NO_RESULT for a file no workflow has run on', async () => {
    const engine = newEngine();
    const file = await engine.uploadV2(await invoice());
    const error = await rejection(engine.getResult(file.fileId));
    expect([error.code, error.httpStatus]).toEqual(['NO_RESULT', 404]);
  });
});

describe('deleting a file', () => {
  it('keeps its jobs as a history, or forgets its ended jobs with withJobs', async () => {
    const engine = newEngine({ ingest: { ocr: 'never' } });
    const read = async (): Promise<{ fileId: string; jobId: string }> => {
      const { fileId } = await engine.upload(await invoice(), { name: 'a.pdf' });
      const { job } = await engine.invoke('svc.extract', {
        inputs: { file_id: fileId, product_ids: ['invoices:2'] },
      });
      await whenJob(engine, job.id, ['succeeded']);
      return { fileId, jobId: job.id };
    };
    const kept = await read();
    expect(await engine.deleteFile(kept.fileId)).toBe(true);
    expect((await engine.getJob(kept.jobId)).status).toBe('succeeded');
    const forgotten = await read();
    expect(await engine.deleteFile(forgotten.fileId, { withJobs: true })).toBe(true);
    expect((await rejection(engine.getJob(forgotten.jobId))).code).toBe('JOB_NOT_FOUND');
    expect((await rejection(engine.getResult(forgotten.fileId))).code).toBe('FILE_NOT_FOUND');
  });
});

describe('the v1 and v2 uploads', () => {
  it('answers the v2 upload record', async () => {
    const engine = newEngine();
    const record = await engine.uploadV2(await invoice());
    expect(Object.keys(record)).toEqual(['id', 'fileId', 'uploadedAt', 'status']);
    expect(record.id).toBe(record.fileId);
    expect(record.fileId).toMatch(UUID);
    expect(record.uploadedAt).toMatch(MILLIS_Z);
    expect(record.status).toBe('RECEIVED');
    expect(await engine.listJobs()).toEqual([]);
  });

  it('v1: answers the v1 record, queues the extraction itself, and the result request waits for it', async () => {
    const engine = newEngine();
    const record = await engine.uploadV1(await invoice(), {
      products: ['invoices:2'],
      tags: 'batch-7',
      locale: 'en-AU',
    });
    expect(Object.keys(record)).toEqual(['fileId', 'uploadedAt', 'status']);
    expect(record.uploadedAt).toMatch(MILLIS_Z);
    const [job] = await engine.listJobs({ fileId: record.fileId });
    expect(job).toMatchObject({
      workflow_id: 'svc.extract',
      inputs: { file_id: record.fileId, product_ids: ['invoices:2'] },
    });
    // No timeout given: a v1 file waits for its work.
    const result = await engine.getResult(record.fileId);
    expect(result.status).toBe('FINALISED');
    if (result.status !== 'FINALISED') return;
    expect(result.results.fields.find((f) => f.name === 'invoice.total')!.value).toBe('150.00');
    const file = await engine.getFile(record.fileId);
    expect(file).toMatchObject({ flow: 'v1', tags: ['batch-7'], locale: 'en-AU' });
    expect((await engine.listFiles({ tag: 'batch-7' })).map((f) => f.fileId)).toEqual([record.fileId]);
    expect(await engine.listFiles({ tag: 'other' })).toEqual([]);
  });

  it('v1: takes fieldSets as a list, a JSON array or comma separated, and fieldSet alone', async () => {
    const engine = newEngine();
    const namesOf = async (options: Parameters<Engine['uploadV1']>[1]): Promise<string[]> => {
      const { fileId } = await engine.uploadV1(await invoice(), options);
      const result = await engine.getResult(fileId);
      if (result.status !== 'FINALISED') throw new Error('expected FINALISED');
      return [...new Set(result.results.fields.map((f) => f.name.split('.')[0]!))];
    };
    expect(await namesOf({ fieldSets: ['svc.document', 'svc.bank'] })).toEqual(['document', 'bank']);
    expect(await namesOf({ fieldSets: '["svc.invoice"]' })).toEqual(['invoice']);
    expect(await namesOf({ fieldSets: 'svc.receipt, svc.bpay' })).toEqual(['receipt', 'bpay']);
    expect(await namesOf({ fieldSet: 'svc.bank' })).toEqual(['bank']);
  });

  it('v1: refuses none or several product choices, unknown workflows and products before storing the file', async () => {
    const engine = newEngine();
    engine.configureAccount('limited', { subscriptions: ['receipts'] });
    const pdf = await invoice();
    const codeOf = async (options: Parameters<Engine['uploadV1']>[1]) =>
      (await rejection(engine.uploadV1(pdf, options))).code;
    expect(await codeOf({})).toBe('INVALID_ARGUMENT');
    expect(await codeOf({ products: ['invoices'], fieldSet: 'svc.invoice' })).toBe('INVALID_ARGUMENT');
    // A list of blanks names nothing (an explicitly empty list, [] or "[]", is the account's default).
    expect(await codeOf({ products: ' , ' })).toBe('INVALID_ARGUMENT');
    expect(await codeOf({ fieldSet: 'svc.invoice,svc.bank' })).toBe('INVALID_ARGUMENT');
    expect(await codeOf({ products: ['invoices'], workflowId: 'teleport' })).toBe('UNKNOWN_WORKFLOW');
    expect(await codeOf({ products: ['invoices'], workflowId: 'ingest' })).toBe('INVALID_ARGUMENT');
    expect(await codeOf({ products: ['nothing:9'] })).toBe('UNKNOWN_PRODUCT');
    expect(await codeOf({ products: ['invoices'], accountId: 'limited' })).toBe('PRODUCT_NOT_ALLOWED');
    expect(await codeOf({ products: ['invoices'], workflowOptions: '{not json' })).toBe('INVALID_ARGUMENT');
    expect(await engine.listFiles()).toEqual([]);
    expect(await engine.listFiles({ accountId: 'limited' })).toEqual([]);
  });

  it('v1: a workflowId names a workflow that offers a v1 form, with workflowOptions parsed', async () => {
    const seen: unknown[] = [];
    const engine = newEngine({
      workflows: [
        {
          id: 'svc.review',
          inputsSchema: { type: 'object' },
          fromV1: ({ fileId, productIds, workflowOptions }) => ({
            file_id: fileId,
            products: productIds,
            options: workflowOptions,
          }),
          run: async ({ inputs }) => {
            seen.push(inputs);
            return { fields: [] };
          },
        },
      ],
    });
    const { fileId } = await engine.uploadV1(await invoice(), {
      fieldSets: ['svc.invoice'],
      workflowId: 'review',
      workflowOptions: '{"prediction":{"fieldset":"svc.invoice"}}',
    });
    expect((await engine.getResult(fileId)).status).toBe('FINALISED');
    expect(seen).toEqual([
      { file_id: fileId, products: ['svc.invoice'], options: { prediction: { fieldset: 'svc.invoice' } } },
    ]);
  });
});
