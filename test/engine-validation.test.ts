import { afterEach, describe, expect, it } from 'vitest';
import { createEngine, DocexError, type Engine, type FieldResult, type ResultRecord } from '../src/index.js';
import { INVOICE_LINES, makeTextPdf } from './helpers/make-documents.js';

const engines: Engine[] = [];
afterEach(async () => {
  await Promise.all(engines.splice(0).map((e) => e.close()));
});

function newEngine(): Engine {
  const engine = createEngine({ ingest: { ocr: 'never' } });
  engines.push(engine);
  return engine;
}

let invoicePdf: Uint8Array | undefined;
async function invoice(): Promise<Uint8Array> {
  invoicePdf ??= await makeTextPdf([{ lines: INVOICE_LINES }]);
  return invoicePdf;
}

async function rejection(promise: Promise<unknown>): Promise<DocexError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(DocexError);
  return error as DocexError;
}

function fieldsOf(
  result: ResultRecord,
): Record<string, { value: unknown; confidence: number; boundingBox: unknown }> {
  if (result.status !== 'FINALISED') throw new Error(`expected FINALISED, got ${result.status}`);
  return Object.fromEntries(result.results.fields.map((f) => [f.name, f as FieldResult]));
}

/** Waits for the file's jobs to end (the result request answers IN PROGRESS at once while tasks are open). */
async function jobsDone(engine: Engine, fileId: string, accountId = 'default'): Promise<void> {
  for (;;) {
    const jobs = await engine.listJobs({ fileId, accountId });
    if (jobs.every((j) => j.status !== 'new' && j.status !== 'running')) return;
    await new Promise<void>((resolve) => {
      const off = engine.on('job', () => {
        off();
        resolve();
      });
    });
  }
}

const TOTAL = "$.predictions['svc.invoice.total']";

/** Rules whose first check holds on the generated invoice (total 150.00) and whose second does not. */
const RULES = {
  data: {
    checks: [
      {
        condition: { type: 'greater-than', values: [`${TOTAL}.value_norm`, 100], compare_as: 'numeric' },
        note: 'Totals above 100 need a second look',
        field_ids: ['svc.invoice.total', 'svc.document.date'],
      },
      {
        condition: {
          type: 'not',
          condition: { type: 'has-value', item: "$.predictions.['svc.document.referenceNo'].value" },
        },
        note: 'No invoice number',
        field_ids: ['svc.document.referenceNo'],
      },
    ],
  },
  schema: true,
};

describe('validation rules', () => {
  it('stores rules per account and gives them back', async () => {
    const engine = newEngine();
    expect(await engine.putValidationRules('high totals / v1', RULES)).toEqual(RULES);
    expect(await engine.getValidationRules('high totals / v1')).toEqual(RULES);
    expect(
      (await rejection(engine.getValidationRules('high totals / v1', { accountId: 'other' }))).code,
    ).toBe('RULES_NOT_FOUND');
    const replaced = { data: { checks: [] }, schema: true };
    await engine.putValidationRules('high totals / v1', replaced);
    expect(await engine.getValidationRules('high totals / v1')).toEqual(replaced);
    expect((await rejection(engine.putValidationRules('', RULES))).code).toBe('INVALID_ARGUMENT');
  });

  it('refuses invalid rules with every problem and its path, and a path carrying code', async () => {
    const engine = newEngine();
    const error = await rejection(
      engine.putValidationRules('bad', {
        data: {
          checks: [
            {
              condition: { type: 'is-set', path: "$..[?(@.constructor.constructor('return process')())]" },
              note: 'x',
              field_ids: [],
            },
            { condition: { type: 'equal', values: [1] }, field_ids: [] },
            {
              condition: { type: 'less-than', values: ['$.predictions[(process.exit())]', 1] },
              note: 'x',
              field_ids: ['svc.invoice.total'],
            },
          ],
        },
        schema: true,
      }),
    );
    expect([error.code, error.httpStatus]).toEqual(['INVALID_RULES', 422]);
    expect(error.details.map((d) => d.path).sort()).toEqual([
      '/data/checks/0/condition/path',
      '/data/checks/1/condition/values',
      '/data/checks/1/note',
      '/data/checks/2/condition/values/0',
    ]);
    expect((await rejection(engine.getValidationRules('bad'))).code).toBe('RULES_NOT_FOUND');
  });
});

describe('svc.validate (v2)', () => {
  it('opens a task for each check that holds; the result waits, then carries the reviewer’s values', async () => {
    const engine = newEngine();
    await engine.putValidationRules('high-totals', RULES);
    const file = await engine.uploadV2(await invoice());
    const { job } = await engine.invoke('svc.validate', {
      inputs: { file_id: file.fileId, product_id: 'invoices:2', rules_id: 'high-totals' },
    });
    expect(job).toMatchObject({ workflow_id: 'svc.validate', status: 'new' });
    await jobsDone(engine, file.fileId);
    expect(await engine.getJob(job.id)).toMatchObject({
      status: 'succeeded',
      usage: { checks: 2, tasks: 1 },
    });

    const [task] = await engine.listTasks({ status: 'open' });
    expect(Object.keys(task!)).toEqual([
      'id',
      'fileId',
      'status',
      'note',
      'field_ids',
      'priority',
      'createdAt',
      'predictions',
      'corrections',
      'completedAt',
      'history',
    ]);
    expect(task).toMatchObject({
      fileId: file.fileId,
      status: 'open',
      note: 'Totals above 100 need a second look',
      field_ids: ['svc.invoice.total', 'svc.document.date'],
      priority: 1,
      corrections: null,
      completedAt: null,
    });
    expect(task!.predictions['svc.invoice.total']).toEqual({
      value: '150.00',
      value_norm: 150,
      confidence: expect.any(Number),
    });
    expect(task!.predictions['svc.document.date']).toMatchObject({
      value: '2024-03-14',
      value_norm: '2024-03-14',
    });
    expect(await engine.getTask(task!.id)).toEqual(task);
    expect(await engine.listTasks({ fileId: file.fileId })).toEqual([task]);
    expect(await engine.listTasks({ status: 'completed' })).toEqual([]);

    // Open task: IN PROGRESS after the wait; a request waiting with the default 30 s returns when the task closes.
    expect(await engine.getResult(file.fileId, { timeoutMs: 30 })).toEqual({
      fileId: file.fileId,
      status: 'IN PROGRESS',
    });
    const waiting = engine.getResult(file.fileId);
    const done = await engine.completeTask(task!.id, {
      values: { 'svc.invoice.total': '155.5', 'document.date': '2024-03-14' },
    });
    expect(done).toMatchObject({
      status: 'completed',
      corrections: { 'svc.invoice.total': '155.50', 'svc.document.date': '2024-03-14' },
    });
    expect(done.history.map((h) => h.action)).toEqual(['created', 'completed']);
    const fields = fieldsOf(await waiting);
    expect(fields['invoice.total']).toEqual({
      name: 'invoice.total',
      value: '155.50',
      confidence: 1,
      boundingBox: null,
    });
    // A confirmed value keeps the box it was read from.
    expect(fields['document.date']).toMatchObject({ value: '2024-03-14', confidence: 1 });
    expect(fields['document.date']!.boundingBox).not.toBeNull();
    expect(fields['document.referenceNo']!.value).toBe('INV-20931');

    expect((await rejection(engine.completeTask(task!.id, { values: {} }))).code).toBe(
      'TASK_ALREADY_COMPLETED',
    );
    // A later extraction replaces the corrected values (the newest run wins).
    const again = await engine.invoke('svc.extract', {
      inputs: { file_id: file.fileId, product_ids: ['invoices:2'] },
    });
    await jobsDone(engine, file.fileId);
    expect((await engine.getJob(again.job.id)).status).toBe('succeeded');
    expect(fieldsOf(await engine.getResult(file.fileId))['invoice.total']!.value).toBe('150.00');
  });

  it('is FINALISED at once when no check holds', async () => {
    const engine = newEngine();
    const file = await engine.uploadV2(await invoice());
    await engine.putValidationRules('quiet', {
      data: {
        checks: [
          {
            condition: { type: 'less-than', values: [`${TOTAL}.value_norm`, 10], compare_as: 'numeric' },
            note: 'tiny',
            field_ids: [],
          },
        ],
      },
      schema: true,
    });
    await engine.invoke('svc.validate', {
      inputs: { file_id: file.fileId, product_id: 'invoices', rules_id: 'quiet' },
    });
    const result = await engine.getResult(file.fileId, { timeoutMs: 20_000 });
    expect(fieldsOf(result)['invoice.total']!.value).toBe('150.00');
    expect(await engine.listTasks()).toEqual([]);
  });

  it('refuses bad invocations before queueing', async () => {
    const engine = newEngine();
    const file = await engine.uploadV2(await invoice());
    await engine.putValidationRules('r', RULES);
    const invoke = (inputs: Record<string, unknown>) => rejection(engine.invoke('svc.validate', { inputs }));
    expect((await invoke({ file_id: file.fileId, product_id: 'invoices:2', rules_id: 'nope' })).code).toBe(
      'RULES_NOT_FOUND',
    );
    const none = await invoke({ file_id: file.fileId, product_id: 'invoices:2' });
    expect([none.code, none.details[0]!.path]).toEqual(['INVALID_INPUTS', '/inputs/rules_id']);
    expect(
      (await invoke({ file_id: file.fileId, product_id: 'invoices:2', rules_id: 'r', rules: RULES })).code,
    ).toBe('INVALID_INPUTS');
    const several = await invoke({
      file_id: file.fileId,
      product_id: ['invoices:2', 'receipts:1'],
      rules_id: 'r',
    });
    expect(several.details[0]!.path).toBe('/inputs/product_id');
    const inline = await invoke({
      file_id: file.fileId,
      product_id: 'invoices:2',
      rules: { data: { checks: [{}] }, schema: true },
    });
    expect([inline.code, inline.details.map((d) => d.path)]).toEqual([
      'INVALID_RULES',
      [
        '/inputs/rules/data/checks/0/condition',
        '/inputs/rules/data/checks/0/note',
        '/inputs/rules/data/checks/0/field_ids',
      ],
    ]);
    // Rules are per account: another account's id is unknown here.
    await engine.putValidationRules('theirs', RULES, { accountId: 'other' });
    expect((await invoke({ file_id: file.fileId, product_id: 'invoices:2', rules_id: 'theirs' })).code).toBe(
      'RULES_NOT_FOUND',
    );
    expect(await engine.listJobs()).toEqual([]);
  });

  it('keeps tasks per account and checks corrected values against the field types', async () => {
    const engine = newEngine();
    await engine.putValidationRules('r', RULES, { accountId: 'a' });
    const file = await engine.uploadV2(await invoice(), { accountId: 'a' });
    await engine.invoke(
      'svc.validate',
      { inputs: { file_id: file.fileId, product_id: 'invoices:2', rules_id: 'r' } },
      { accountId: 'a' },
    );
    await jobsDone(engine, file.fileId, 'a');
    const [task] = await engine.listTasks({ accountId: 'a' });
    expect(await engine.listTasks({ accountId: 'b' })).toEqual([]);
    expect((await rejection(engine.getTask(task!.id, { accountId: 'b' }))).code).toBe('TASK_NOT_FOUND');
    expect((await rejection(engine.completeTask(task!.id, { values: {} }, { accountId: 'b' }))).code).toBe(
      'TASK_NOT_FOUND',
    );
    const bad = await rejection(
      engine.completeTask(
        task!.id,
        { values: { 'invoice.total': 'a lot', 'svc.document.date': '31/02/2024', 'svc.bank.iban': 'x' } },
        { accountId: 'a' },
      ),
    );
    expect([bad.code, bad.httpStatus]).toEqual(['INVALID_CORRECTION', 422]);
    expect(bad.details.map((d) => d.path)).toEqual([
      '/values/invoice.total',
      '/values/svc.document.date',
      '/values/svc.bank.iban',
    ]);
    expect((await engine.getTask(task!.id, { accountId: 'a' })).status).toBe('open');
    // No value is a correction too.
    await engine.completeTask(task!.id, { values: { 'invoice.total': null } }, { accountId: 'a' });
    expect(
      fieldsOf(await engine.getResult(file.fileId, { accountId: 'a' }))['invoice.total']!.value,
    ).toBeNull();
  });
});

describe('v1 validation uploads', () => {
  const options = (conditions: unknown[], extra: Record<string, unknown> = {}) =>
    JSON.stringify({
      prediction: {
        fieldset: 'svc.invoice',
        conditions,
        createTask: { submit: true, priority: 3 },
        ...extra,
      },
    });

  it('runs v1 conditions through the same evaluator and opens tasks with their priority', async () => {
    const engine = newEngine();
    const upload = await engine.uploadV1(await invoice(), {
      fieldSets: ['svc.document', 'svc.invoice'],
      workflowId: 'validate',
      workflowOptions: options([
        { type: 'field-value-range', field: 'svc.invoice.total', min: 0, max: 100 },
        { type: 'field-present', field: 'invoice.purchaseOrderNo' },
        { type: 'field-confidence-range', field: 'svc.invoice.total', min: 0, max: null },
      ]),
    });
    await jobsDone(engine, upload.fileId);
    const [job] = await engine.listJobs({ fileId: upload.fileId });
    expect(job).toMatchObject({
      workflow_id: 'svc.validate',
      status: 'succeeded',
      inputs: { product_id: 'svc.invoice' },
    });
    const tasks = await engine.listTasks({ fileId: upload.fileId });
    expect(tasks.map((t) => [t.field_ids, t.priority])).toEqual([
      [['svc.invoice.total'], 3],
      [['svc.invoice.purchaseOrderNo'], 3],
    ]);
    expect(tasks[0]!.note).toBe('svc.invoice.total: value outside [0, 100].');
    // v1: the result request waits by default; with a short timeout it answers IN PROGRESS.
    expect((await engine.getResult(upload.fileId, { timeoutMs: 10 })).status).toBe('IN PROGRESS');
    await engine.completeTask(tasks[0]!.id, { values: { 'invoice.total': '99.00' } });
    expect((await engine.getResult(upload.fileId, { timeoutMs: 10 })).status).toBe('IN PROGRESS');
    await engine.completeTask(tasks[1]!.id, { values: { 'svc.invoice.purchaseOrderNo': 'PO-7' } });
    const fields = fieldsOf(await engine.getResult(upload.fileId));
    expect(fields['invoice.total']!.value).toBe('99.00');
    expect(fields['invoice.purchaseOrderNo']!.value).toBe('PO-7');
    // Every requested fieldset is in the result.
    expect(Object.keys(fields).some((n) => n.startsWith('document.'))).toBe(true);
  });

  it('evaluates without opening tasks when createTask.submit is false', async () => {
    const engine = newEngine();
    const upload = await engine.uploadV1(await invoice(), {
      fieldSet: 'svc.invoice',
      workflowId: 'validate',
      workflowOptions: JSON.stringify({
        prediction: {
          fieldset: 'svc.invoice',
          conditions: [{ type: 'field-present', field: 'svc.invoice.purchaseOrderNo' }],
          createTask: { submit: false },
        },
      }),
    });
    expect(fieldsOf(await engine.getResult(upload.fileId))['invoice.total']!.value).toBe('150.00');
    expect(await engine.listTasks()).toEqual([]);
  });

  it('refuses a fieldset that is not among the upload’s, and invalid options, before storing the file', async () => {
    const engine = newEngine();
    const pdf = await invoice();
    const wrong = await rejection(
      engine.uploadV1(pdf, {
        fieldSets: ['svc.document'],
        workflowId: 'validate',
        workflowOptions: options([]),
      }),
    );
    expect([wrong.code, wrong.details[0]!.path]).toEqual([
      'INVALID_ARGUMENT',
      '/workflowOptions/prediction/fieldset',
    ]);
    const invalid = await rejection(
      engine.uploadV1(pdf, {
        fieldSet: 'svc.invoice',
        workflowId: 'validate',
        workflowOptions: options([
          { type: 'field-range', field: 'invoice.total' },
          { type: 'field-present' },
        ]),
      }),
    );
    expect([invalid.code, invalid.details.map((d) => d.path)]).toEqual([
      'INVALID_RULES',
      ['/workflowOptions/prediction/conditions/0/type', '/workflowOptions/prediction/conditions/1/field'],
    ]);
    const missing = await rejection(
      engine.uploadV1(pdf, { fieldSet: 'svc.invoice', workflowId: 'validate' }),
    );
    expect(missing.code).toBe('INVALID_ARGUMENT');
    expect(await engine.listFiles()).toEqual([]);
  });
});
