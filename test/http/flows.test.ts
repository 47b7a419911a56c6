/**
 * Every flow of the interface (v1 and v2), on the fetch handler called with Requests as a client sends
 * them: token, upload, invoke, poll, split, validate with review tasks, v1 uploads in every form.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { createFetchHandler } from '../../src/http/fetch-handler.js';
import {
  call,
  eventually,
  FIELDSET_FIELDS,
  fieldsByName,
  form,
  invoicePdf,
  ISO_MS_Z,
  ISO_US,
  result,
  startHarness,
  TOKEN_SECRET,
  twoInvoicesPdf,
  UUID,
  type Harness,
  type Json,
} from './harness.js';

const ACCOUNT = 'acme';
let h: Harness;
let auth: string;

beforeAll(async () => {
  h = await startHarness();
  auth = await h.login(ACCOUNT);
});
afterAll(() => h.close());

const INVOICES_2 = [
  ...FIELDSET_FIELDS.document,
  ...FIELDSET_FIELDS.invoice,
  ...FIELDSET_FIELDS.bank,
  ...FIELDSET_FIELDS.bpay,
];

async function uploadV2(bytes: Uint8Array, fields: Record<string, string> = {}): Promise<string> {
  const answer = await call(h.handler, '/fileupload/v2/multipart', {
    token: auth,
    body: form('file', bytes, 'invoice.pdf', fields),
  });
  expect(answer.status, answer.text).toBe(200);
  return (answer.body as { fileId: string }).fileId;
}

async function invoke(workflowId: string, inputs: Record<string, unknown>): Promise<Json> {
  const answer = await call(h.handler, `/workflows/${workflowId}/jobs`, { token: auth, json: { inputs } });
  expect(answer.status, answer.text).toBe(200);
  return answer.body;
}

/** The result once FINALISED, by polling the v2 way: each request answers at once. */
async function poll(fileId: string, query = ''): Promise<Json> {
  return eventually(async () => {
    const answer = await call(h.handler, `/result/final/${fileId}${query}`, { token: auth });
    expect(answer.status, answer.text).toBe(200);
    if (answer.body.status === 'FINALISED') return answer.body as Json;
    expect(answer.body).toEqual({ fileId, status: 'IN PROGRESS' });
    return undefined;
  });
}

function groupsOf(body: Json): string[] {
  return [...new Set((body.results.fields as Json[]).map((f: Json) => (f.name as string).split('.')[0]!))];
}

/** A v1 multipart upload; the answer checked to be the v1 upload record. */
async function uploadV1(
  path: string,
  fields: Record<string, string | string[]>,
  bytes?: Uint8Array,
): Promise<string> {
  const answer = await call(h.handler, path, {
    token: auth,
    body: form('fileToUpload', bytes ?? (await invoicePdf()), 'invoice.pdf', fields),
  });
  expect(answer.status, answer.text).toBe(200);
  expect(Object.keys(answer.body).sort()).toEqual(['fileId', 'status', 'uploadedAt']);
  expect(answer.body.fileId).toMatch(UUID);
  expect(answer.body.uploadedAt).toMatch(ISO_MS_Z);
  expect(answer.body.status).toBe('RECEIVED');
  return answer.body.fileId as string;
}

describe('token', () => {
  it('is issued for a client authenticated by HTTP Basic', async () => {
    const clientId = 'basic-client';
    const secret = 'basic-client-secret-0123456789';
    await h.engine.createClient(ACCOUNT, { clientId, clientSecret: secret });
    const answer = await call(h.handler, '/oauth2/token', {
      body: new URLSearchParams({ grant_type: 'client_credentials' }),
      headers: { authorization: `Basic ${Buffer.from(`${clientId}:${secret}`).toString('base64')}` },
    });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ access_token: expect.any(String), token_type: 'Bearer', expires_in: 3600 });
    expect(answer.headers.get('cache-control')).toBe('no-store');
    const tasks = await call(h.handler, '/tasks', { token: answer.body.access_token as string });
    expect(tasks.status).toBe(200);
  });

  it('is issued for a client authenticated by client_id and client_secret in the form body', async () => {
    const clientId = 'form-client';
    const secret = 'form-client-secret-0123456789';
    await h.engine.createClient(ACCOUNT, { clientId, clientSecret: secret });
    const answer = await call(h.handler, '/oauth2/token', {
      body: new URLSearchParams({
        grant_type: 'client_credentials',
        client_id: clientId,
        client_secret: secret,
      }),
    });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ access_token: expect.any(String), token_type: 'Bearer', expires_in: 3600 });
    const tasks = await call(h.handler, '/tasks', { token: answer.body.access_token as string });
    expect(tasks.status).toBe(200);
  });
});

describe('v2 extract: upload, invoke svc.extract, poll the result', () => {
  let fileId: string;
  let invocation: Json;

  beforeAll(async () => {
    const answer = await call(h.handler, '/fileupload/v2/multipart', {
      token: auth,
      body: form('file', await invoicePdf(), 'invoice.pdf'),
    });
    expect(answer.status, answer.text).toBe(200);
    fileId = answer.body.fileId as string;
    invocation = await invoke('svc.extract', { file_id: fileId, product_ids: ['invoices:2'] });
  });

  it('answers the upload with the v2 upload record', async () => {
    const answer = await call(h.handler, '/fileupload/v2/multipart', {
      token: auth,
      body: form('file', await invoicePdf(), 'invoice.pdf'),
    });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toMatch(/^application\/json/);
    expect(Object.keys(answer.body).sort()).toEqual(['fileId', 'id', 'status', 'uploadedAt']);
    expect(answer.body.fileId).toMatch(UUID);
    expect(answer.body.id).toBe(answer.body.fileId);
    expect(answer.body.uploadedAt).toMatch(ISO_MS_Z);
    expect(answer.body.status).toBe('RECEIVED');
  });

  it('answers the invocation with the job record, field by field', () => {
    expect(Object.keys(invocation).sort()).toEqual(['job', 'message_id']);
    expect(invocation.message_id).toMatch(UUID);
    const job = invocation.job as Json;
    expect(Object.keys(job).sort()).toEqual(
      [
        'company_id',
        'created',
        'file_id',
        'id',
        'inputs',
        'settings',
        'status',
        'usage',
        'version',
        'workflow_id',
      ].sort(),
    );
    expect(job.id).toMatch(UUID);
    expect(job.id).not.toBe(invocation.message_id);
    expect(job.company_id).toMatch(UUID);
    expect(job.created).toMatch(ISO_US);
    expect(Math.abs(Date.parse(`${job.created as string}Z`) - Date.now())).toBeLessThan(60_000);
    expect(job.workflow_id).toBe('svc.extract');
    expect(job.inputs).toEqual({ file_id: fileId, product_ids: ['invoices:2'] });
    expect(job.settings).toEqual(expect.any(Object));
    expect(Array.isArray(job.settings)).toBe(false);
    expect(job.usage).toBeNull();
    expect(job.file_id).toBe(fileId);
    expect(job.status).toBe('new');
    expect(job.version).toBe(1);
  });

  it('gives the same company_id to every job of the account', async () => {
    const other = await invoke('svc.ingest', { file_id: fileId, ocr: 'never' });
    expect(other.job.company_id).toBe(invocation.job.company_id);
    expect(other.job.workflow_id).toBe('svc.ingest');
    expect(other.job.inputs).toEqual({ file_id: fileId, ocr: 'never' });
    expect(other.job.created > invocation.job.created).toBe(true);
    await poll(fileId);
  });

  it('polls to FINALISED with exactly the spec field objects of the product', async () => {
    const body = await poll(fileId);
    expect(Object.keys(body).sort()).toEqual(['fileId', 'results', 'status']);
    expect(body.fileId).toBe(fileId);
    expect(Object.keys(body.results).sort()).toEqual(['fields', 'timestamp']);
    expect(body.results.timestamp).toMatch(ISO_MS_Z);
    const fields = body.results.fields as Json[];
    expect(fields.map((f: Json) => f.name)).toEqual(INVOICES_2);
    for (const field of fields) {
      expect(Object.keys(field).sort(), field.name as string).toEqual([
        'boundingBox',
        'confidence',
        'name',
        'value',
      ]);
      expect(field.confidence).toBeGreaterThanOrEqual(0);
      expect(field.confidence).toBeLessThanOrEqual(1);
      if (field.value === null) {
        expect(field.boundingBox).toBeNull();
        continue;
      }
      if (field.boundingBox === null) continue;
      const box = field.boundingBox as Json;
      expect(Object.keys(box).sort()).toEqual(['bottomRight', 'pageNum', 'tokenIds', 'topLeft']);
      expect(box.pageNum).toBe(1);
      for (const corner of [box.topLeft, box.bottomRight]) {
        expect(Object.keys(corner).sort()).toEqual(['x', 'y']);
        expect(corner.x).toBeGreaterThanOrEqual(0);
        expect(corner.x).toBeLessThanOrEqual(1);
        expect(corner.y).toBeGreaterThanOrEqual(0);
        expect(corner.y).toBeLessThanOrEqual(1);
      }
      expect(box.topLeft.x).toBeLessThanOrEqual(box.bottomRight.x);
      expect(box.topLeft.y).toBeLessThanOrEqual(box.bottomRight.y);
      expect((box.tokenIds as unknown[]).length).toBeGreaterThan(0);
      for (const id of box.tokenIds as unknown[]) expect(Number.isInteger(id)).toBe(true);
    }
    const byName = fieldsByName(body);
    expect(byName['invoice.total'].value).toBe('150.00');
    expect(byName['document.referenceNo'].value).toBe('INV-20931');
    expect(byName['document.date'].value).toBe('2024-03-14');
    expect(byName['document.supplierName'].value).toBe('ACME Supplies Pty Ltd');
    expect(byName['invoice.total'].boundingBox).not.toBeNull();
  });

  it('GET /workflows/jobs/{id} answers {job, message_id} with the current status', async () => {
    await poll(fileId);
    const answer = await call(h.handler, `/workflows/jobs/${invocation.job.id as string}`, { token: auth });
    expect(answer.status).toBe(200);
    expect(Object.keys(answer.body).sort()).toEqual(['job', 'message_id']);
    expect(answer.body.message_id).toBe(invocation.message_id);
    const job = answer.body.job as Json;
    expect(job.status).toBe('succeeded');
    expect(job.version).toBeGreaterThan(1);
    expect(Number.isInteger(job.version)).toBe(true);
    expect(job.usage).toEqual(expect.any(Object));
    for (const key of [
      'id',
      'company_id',
      'created',
      'workflow_id',
      'inputs',
      'settings',
      'file_id',
    ] as const) {
      expect(job[key], key).toEqual(invocation.job[key]);
    }
    // An upper-case id names the same job.
    const upper = await call(h.handler, `/workflows/jobs/${(invocation.job.id as string).toUpperCase()}`, {
      token: auth,
    });
    expect(upper.status).toBe(200);
    expect(upper.body.job.id).toBe(invocation.job.id);
  });

  it('parses an invocation body as JSON whatever its Content-Type says', async () => {
    for (const contentType of ['text/plain', 'application/x-www-form-urlencoded', undefined]) {
      const answer = await call(h.handler, '/workflows/svc.ingest/jobs', {
        token: auth,
        body: JSON.stringify({ inputs: { file_id: fileId } }),
        ...(contentType ? { headers: { 'content-type': contentType } } : {}),
      });
      expect(answer.status, `${String(contentType)}: ${answer.text}`).toBe(200);
      expect(answer.body.job.inputs).toEqual({ file_id: fileId });
    }
    await poll(fileId);
  });

  it('answers the alias /results/{fileId} exactly like /result/final/{fileId}', async () => {
    await poll(fileId);
    const a = await call(h.handler, `/result/final/${fileId}`, { token: auth });
    const b = await call(h.handler, `/results/${fileId}`, { token: auth });
    expect(b.status).toBe(200);
    expect(b.body).toEqual(a.body);
  });

  it('?verbose=true adds properties to the field objects, and only then', async () => {
    await poll(fileId);
    const plain = fieldsByName((await call(h.handler, `/result/final/${fileId}`, { token: auth })).body);
    const verbose = fieldsByName(
      (await call(h.handler, `/result/final/${fileId}?verbose=true`, { token: auth })).body,
    );
    expect(Object.keys(verbose)).toEqual(Object.keys(plain));
    const total = verbose['invoice.total'] as Json;
    expect(Object.keys(total).length).toBeGreaterThan(4);
    expect(total).toMatchObject(plain['invoice.total'] as object);
    for (const name of Object.keys(plain)) {
      expect(Object.keys(plain[name]).sort()).toEqual(['boundingBox', 'confidence', 'name', 'value']);
      expect(verbose[name]).toMatchObject({
        name,
        value: plain[name].value,
        confidence: plain[name].confidence,
      });
    }
    const notVerbose = await call(h.handler, `/result/final/${fileId}?verbose=false`, { token: auth });
    expect(Object.keys(fieldsByName(notVerbose.body)['invoice.total']).sort()).toEqual([
      'boundingBox',
      'confidence',
      'name',
      'value',
    ]);
  });

  it(
    'answers a v2 file with pending work at once with exactly {fileId, status: IN PROGRESS}',
    { timeout: 20_000 },
    async () => {
      const id = await uploadV2(await invoicePdf());
      // svc.ingest then svc.extract: the second waits behind nothing, but the first answer comes at once.
      await invoke('svc.extract', { file_id: id, product_ids: ['invoices:1'] });
      // A wait of the default 30 s here would outlast the test's 20 s.
      const first = await call(h.handler, `/result/final/${id}`, { token: auth });
      expect(first.status).toBe(200);
      if (first.body.status === 'IN PROGRESS')
        expect(first.body).toEqual({ fileId: id, status: 'IN PROGRESS' });
      const done = await poll(id);
      expect(groupsOf(done)).toEqual(['document', 'invoice']);
    },
  );
});

describe('v2 split: split, then extract each child', () => {
  it('splits two invoices into two children, each usable in svc.extract and results', async () => {
    const parent = await uploadV2(await twoInvoicesPdf());
    const job = await invoke('svc.split', { file_id: parent });
    expect(job.job).toMatchObject({ workflow_id: 'svc.split', inputs: { file_id: parent }, status: 'new' });
    const split = await poll(parent);
    expect(split.results.fields).toHaveLength(1);
    const field = split.results.fields[0] as Json;
    expect(Object.keys(field).sort()).toEqual(['boundingBox', 'name', 'value']);
    expect(field.name).toBe('components.children');
    expect(field.boundingBox).toBeNull();
    const children = field.value as Json[];
    expect(children).toHaveLength(2);
    for (const child of children) {
      expect(Object.keys(child)).toEqual(['file_id']);
      expect(child.file_id).toMatch(UUID);
      expect(child.file_id).not.toBe(parent);
    }

    const verbose = await call(h.handler, `/result/final/${parent}?verbose=true`, { token: auth });
    expect(verbose.body.results.fields[0].children.map((c: Json) => c.pages)).toEqual([
      [1, 1],
      [2, 2],
    ]);

    const expected = [
      { ref: 'INV-20931', supplier: 'ACME Supplies Pty Ltd', total: '150.00', date: '2024-03-14' },
      { ref: 'BT-77120', supplier: 'Bluegum Timber Co', total: '480.00', date: '2024-05-02' },
    ];
    await Promise.all(
      children.map((c: Json) => invoke('svc.extract', { file_id: c.file_id, product_ids: ['invoices:2'] })),
    );
    for (const [index, child] of children.entries()) {
      const body = await poll(child.file_id as string);
      expect(body.fileId).toBe(child.file_id);
      expect(body.results.fields.map((f: Json) => f.name)).toEqual(INVOICES_2);
      const byName = fieldsByName(body);
      expect(byName['document.referenceNo'].value).toBe(expected[index]!.ref);
      expect(byName['document.supplierName'].value).toBe(expected[index]!.supplier);
      expect(byName['invoice.total'].value).toBe(expected[index]!.total);
      expect(byName['document.date'].value).toBe(expected[index]!.date);
      // Boxes are on the child's own pages.
      expect(byName['invoice.total'].boundingBox.pageNum).toBe(1);
    }
    // The parent's result is still the split.
    const again = await call(h.handler, `/results/${parent}`, { token: auth });
    expect(again.body.results.fields.map((f: Json) => f.name)).toEqual(['components.children']);
    // A child is a file of the account, with its parent and page range kept.
    const record = await h.engine.getFile(children[1].file_id as string, { accountId: ACCOUNT });
    expect(record.parent).toMatchObject({ fileId: parent, pages: [2, 2] });
  });
});

const TOTAL = "$.predictions['svc.invoice.total']";
const RULES = {
  data: {
    checks: [
      {
        condition: { type: 'greater-than', values: [`${TOTAL}.value_norm`, 100], compare_as: 'numeric' },
        note: 'Totals above 100 need a second look',
        field_ids: ['svc.invoice.total'],
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

describe('v2 validate: rules, invoke, review task, corrected result', () => {
  it('runs the whole flow', async () => {
    const put = await call(h.handler, '/workflows/validation_rules/high%20totals', {
      method: 'PUT',
      token: auth,
      json: RULES,
    });
    expect(put.status, put.text).toBe(200);
    expect(put.body).toEqual(RULES);
    const got = await call(h.handler, '/workflows/validation_rules/high%20totals', { token: auth });
    expect(got.status).toBe(200);
    expect(got.body).toEqual(RULES);

    const fileId = await uploadV2(await invoicePdf());
    const job = await invoke('svc.validate', {
      file_id: fileId,
      product_id: 'invoices:2',
      rules_id: 'high totals',
    });
    expect(job.job).toMatchObject({
      workflow_id: 'svc.validate',
      status: 'new',
      inputs: { file_id: fileId, product_id: 'invoices:2', rules_id: 'high totals' },
    });

    const pending = await call(h.handler, `/result/final/${fileId}?timeout=50`, { token: auth });
    expect(pending.status).toBe(200);
    expect(pending.body).toEqual({ fileId, status: 'IN PROGRESS' });

    const task = await eventually(async () => {
      const list = await call(h.handler, `/tasks?fileId=${fileId}&status=open`, { token: auth });
      expect(list.status).toBe(200);
      return (list.body.tasks as Json[])[0] as Json | undefined;
    });
    // The job ended; the result stays IN PROGRESS while the task is open.
    const jobNow = await call(h.handler, `/workflows/jobs/${job.job.id as string}`, { token: auth });
    expect(jobNow.body.job.status).toBe('succeeded');
    expect(jobNow.body.job.usage).toMatchObject({ checks: 2, tasks: 1 });
    expect((await call(h.handler, `/result/final/${fileId}?timeout=50`, { token: auth })).body).toEqual({
      fileId,
      status: 'IN PROGRESS',
    });

    const all = await call(h.handler, '/tasks', { token: auth });
    expect(Object.keys(all.body)).toEqual(['tasks']);
    expect((all.body.tasks as Json[]).map((t: Json) => t.id)).toContain(task.id);
    const one = await call(h.handler, `/tasks/${task.id as string}`, { token: auth });
    expect(one.status).toBe(200);
    expect(one.body).toEqual(task);
    for (const key of [
      'id',
      'fileId',
      'status',
      'note',
      'field_ids',
      'priority',
      'createdAt',
      'predictions',
      'corrections',
    ]) {
      expect(task, key).toHaveProperty(key);
    }
    expect(task.id).toMatch(UUID);
    expect(task).toMatchObject({
      fileId,
      status: 'open',
      note: 'Totals above 100 need a second look',
      field_ids: ['svc.invoice.total'],
      priority: 1,
      corrections: null,
    });
    expect(task.createdAt).toMatch(ISO_MS_Z);
    expect(task.predictions).toEqual({
      'svc.invoice.total': { value: '150.00', value_norm: 150, confidence: expect.any(Number) },
    });

    // A result request without timeout waits while the task is open and answers when it is completed.
    const waiting = call(h.handler, `/result/final/${fileId}`, { token: auth });
    await new Promise((r) => setTimeout(r, 150));
    const completed = await call(h.handler, `/tasks/${task.id as string}/complete`, {
      token: auth,
      json: { values: { 'svc.invoice.total': '155.5' } },
    });
    expect(completed.status, completed.text).toBe(200);
    expect(completed.body).toMatchObject({
      id: task.id,
      status: 'completed',
      corrections: { 'svc.invoice.total': '155.50' },
    });
    // The history says who completed it: the API client the token was issued to.
    expect(completed.body.history).toEqual([
      { at: task.createdAt, action: 'created' },
      {
        at: expect.stringMatching(ISO_MS_Z),
        action: 'completed',
        values: { 'svc.invoice.total': '155.50' },
        by: { kind: 'client', id: expect.stringMatching(/-client-\d+$/) },
      },
    ]);
    const final = await waiting;
    expect(final.status).toBe(200);
    expect(final.body.status).toBe('FINALISED');
    const byName = fieldsByName(final.body);
    expect(byName['invoice.total']).toEqual({
      name: 'invoice.total',
      value: '155.50',
      confidence: 1,
      boundingBox: null,
    });
    expect(byName['document.referenceNo'].value).toBe('INV-20931');
    expect(final.body.results.fields.map((f: Json) => f.name)).toEqual(INVOICES_2);

    const completedList = await call(h.handler, `/tasks?status=completed&fileId=${fileId}`, { token: auth });
    expect((completedList.body.tasks as Json[]).map((t: Json) => t.id)).toEqual([task.id]);
    const openList = await call(h.handler, `/tasks?status=open&fileId=${fileId}`, { token: auth });
    expect(openList.body.tasks).toEqual([]);

    const twice = await call(h.handler, `/tasks/${task.id as string}/complete`, {
      token: auth,
      json: { values: { 'invoice.total': '1.00' } },
    });
    expect(twice.status).toBe(409);
    expect(twice.body.error.code).toBe('TASK_ALREADY_COMPLETED');
  });

  it('finalises at once when no check holds', async () => {
    const rules = {
      data: {
        checks: [
          {
            condition: { type: 'less-than', values: [`${TOTAL}.value_norm`, 10], compare_as: 'numeric' },
            note: 'Tiny total',
            field_ids: ['svc.invoice.total'],
          },
        ],
      },
      schema: true,
    };
    expect(
      (await call(h.handler, '/workflows/validation_rules/tiny', { method: 'PUT', token: auth, json: rules }))
        .status,
    ).toBe(200);
    const fileId = await uploadV2(await invoicePdf());
    await invoke('svc.validate', { file_id: fileId, product_id: 'invoices:1', rules_id: 'tiny' });
    const body = await poll(fileId);
    expect(fieldsByName(body)['invoice.total'].value).toBe('150.00');
    expect((await call(h.handler, `/tasks?fileId=${fileId}`, { token: auth })).body.tasks).toEqual([]);
  });
});

describe('v1 uploads', () => {
  it('/fileupload and /fileupload/ are the same endpoint; the result waits for the work by default', async () => {
    for (const path of ['/fileupload', '/fileupload/']) {
      const fileId = await uploadV1(path, { products: 'invoices:1' });
      const answer = await call(h.handler, `/result/final/${fileId}`, { token: auth });
      expect(answer.status).toBe(200);
      expect(answer.body.status).toBe('FINALISED');
      expect(answer.body.results.fields.map((f: Json) => f.name)).toEqual([
        ...FIELDSET_FIELDS.document,
        ...FIELDSET_FIELDS.invoice,
      ]);
      expect(fieldsByName(answer.body)['invoice.total'].value).toBe('150.00');
    }
  });

  it('takes products as repeated fields, a JSON array string or comma separated', async () => {
    for (const products of [
      ['invoices:1', 'receipts:1'],
      '["invoices:1", "receipts:1"]',
      'invoices:1, receipts:1',
    ]) {
      const fileId = await uploadV1('/fileupload', { products });
      const answer = await result(h.handler, auth, fileId, '');
      expect(answer.body.status, JSON.stringify(products)).toBe('FINALISED');
      expect(groupsOf(answer.body), JSON.stringify(products)).toEqual(['document', 'invoice', 'receipt']);
    }
  });

  it('takes products[] as the repeated field name too', async () => {
    const fileId = await uploadV1('/fileupload', { 'products[]': ['receipts:1'] });
    const answer = await result(h.handler, auth, fileId, '');
    expect(groupsOf(answer.body)).toEqual(['document', 'receipt']);
  });

  it('takes fieldSets (repeated, JSON, comma separated) and a single fieldSet', async () => {
    for (const fieldSets of [
      ['svc.invoice', 'svc.bank'],
      '["svc.invoice","svc.bank"]',
      'svc.invoice,svc.bank',
    ]) {
      const fileId = await uploadV1('/fileupload/', { fieldSets });
      const answer = await result(h.handler, auth, fileId, '');
      expect(groupsOf(answer.body), JSON.stringify(fieldSets)).toEqual(['invoice', 'bank']);
    }
    const fileId = await uploadV1('/fileupload', { fieldSet: 'svc.invoice' });
    const answer = await result(h.handler, auth, fileId, '');
    expect(answer.body.results.fields.map((f: Json) => f.name)).toEqual(FIELDSET_FIELDS.invoice);
  });

  it('/fileupload/json takes the file as base64, the lists as arrays or strings', async () => {
    const base64 = Buffer.from(await invoicePdf()).toString('base64');
    for (const selection of [
      { products: ['invoices:1'] },
      { products: 'invoices:1' },
      { fieldSets: ['svc.document', 'svc.invoice'] },
      { fieldSet: 'svc.invoice' },
    ]) {
      const answer = await call(h.handler, '/fileupload/json', {
        token: auth,
        json: { fileToUpload: base64, ...selection },
      });
      expect(answer.status, answer.text).toBe(200);
      expect(Object.keys(answer.body).sort()).toEqual(['fileId', 'status', 'uploadedAt']);
      expect(answer.body.status).toBe('RECEIVED');
      const res = await result(h.handler, auth, answer.body.fileId as string, '');
      expect(res.body.status).toBe('FINALISED');
      expect(fieldsByName(res.body)['invoice.total'].value).toBe('150.00');
    }
  });

  it('/fileupload/json parses the body as JSON whatever its Content-Type says, and takes a data: URL', async () => {
    const base64 = Buffer.from(await invoicePdf()).toString('base64');
    const answer = await call(h.handler, '/fileupload/json', {
      token: auth,
      body: JSON.stringify({
        fileToUpload: `data:application/pdf;base64,${base64}`,
        fieldSet: 'svc.invoice',
      }),
      headers: { 'content-type': 'text/plain' },
    });
    expect(answer.status, answer.text).toBe(200);
    const res = await result(h.handler, auth, answer.body.fileId as string, '');
    expect(fieldsByName(res.body)['invoice.total'].value).toBe('150.00');
  });

  const WORKFLOW_OPTIONS = {
    prediction: {
      fieldset: 'svc.invoice',
      conditions: [
        { type: 'field-value-range', field: 'invoice.total', max: 100 },
        { type: 'field-present', field: 'document.referenceNo' },
      ],
      createTask: { submit: true, priority: 1 },
    },
  };

  /** The v1 validation flow after an upload: IN PROGRESS, one task, completed, FINALISED. */
  async function v1Validation(fileId: string): Promise<void> {
    const pending = await call(h.handler, `/result/final/${fileId}?timeout=50`, { token: auth });
    expect(pending.body).toEqual({ fileId, status: 'IN PROGRESS' });
    const task = await eventually(async () => {
      const list = await call(h.handler, `/tasks?fileId=${fileId}`, { token: auth });
      return (list.body.tasks as Json[])[0] as Json | undefined;
    });
    expect(task).toMatchObject({ fileId, status: 'open', field_ids: ['svc.invoice.total'], priority: 1 });
    expect(task.note).toMatch(/svc\.invoice\.total/);
    expect((await call(h.handler, `/tasks?fileId=${fileId}`, { token: auth })).body.tasks).toHaveLength(1);

    const completed = await call(h.handler, `/tasks/${task.id as string}/complete`, {
      token: auth,
      json: { values: { 'invoice.total': '150.00' } },
    });
    expect(completed.status, completed.text).toBe(200);
    const final = await result(h.handler, auth, fileId, '');
    expect(final.body.status).toBe('FINALISED');
    expect(final.body.results.fields.map((f: Json) => f.name)).toEqual([
      ...FIELDSET_FIELDS.document,
      ...FIELDSET_FIELDS.invoice,
    ]);
    const total = fieldsByName(final.body)['invoice.total'];
    expect(total.value).toBe('150.00');
    expect(total.confidence).toBe(1);
    // A confirmed value keeps its box.
    expect(total.boundingBox).not.toBeNull();
  }

  // Was a bug (fixed): a multipart v1 upload with workflowId=validate is refused with 400 INVALID_ARGUMENT "The
  // validation workflow needs workflowOptions." although the form has a workflowOptions field:
  // readMultipart gives every text field as a string[] and uploadV1 (fetch-handler.ts) only takes
  // `fields.workflowOptions` when it is a string or a non-array object, so the form value is dropped.
  // Expected: 200 RECEIVED and the validation flow; actual: 400 INVALID_ARGUMENT, path /workflowOptions.
  it('workflowId=validate with workflowOptions (multipart form) opens a task; completing it finalises the result', async () => {
    const fileId = await uploadV1('/fileupload', {
      fieldSets: 'svc.document,svc.invoice',
      workflowId: 'validate',
      workflowOptions: JSON.stringify(WORKFLOW_OPTIONS),
    });
    await v1Validation(fileId);
  });

  it('workflowId=validate with workflowOptions (/fileupload/json, as a string and as an object)', async () => {
    for (const workflowOptions of [JSON.stringify(WORKFLOW_OPTIONS), WORKFLOW_OPTIONS]) {
      const answer = await call(h.handler, '/fileupload/json', {
        token: auth,
        json: {
          fileToUpload: Buffer.from(await invoicePdf()).toString('base64'),
          fieldSets: ['svc.document', 'svc.invoice'],
          workflowId: 'validate',
          workflowOptions,
        },
      });
      expect(answer.status, answer.text).toBe(200);
      expect(Object.keys(answer.body).sort()).toEqual(['fileId', 'status', 'uploadedAt']);
      await v1Validation(answer.body.fileId as string);
    }
  });

  it("refuses workflowId=validate whose fieldset is not among the upload's, before storing the file", async () => {
    const before = (await h.engine.listFiles({ accountId: ACCOUNT })).length;
    const answer = await call(h.handler, '/fileupload/json', {
      token: auth,
      json: {
        fileToUpload: Buffer.from(await invoicePdf()).toString('base64'),
        fieldSet: 'svc.document',
        workflowId: 'validate',
        workflowOptions: WORKFLOW_OPTIONS,
      },
    });
    expect(answer.status).toBe(400);
    expect(answer.body.error.code).toBe('INVALID_ARGUMENT');
    expect(answer.body.error.details).toEqual([
      { path: '/workflowOptions/prediction/fieldset', message: expect.any(String) },
    ]);
    expect((await h.engine.listFiles({ accountId: ACCOUNT })).length).toBe(before);
  });

  it('keeps tags, locale and the file name of a multipart v1 upload with the file', async () => {
    const fileId = await uploadV1('/fileupload', {
      products: 'invoices:1',
      tags: 'batch-7',
      customerRef: 'PO-4471',
      locale: 'en-AU',
    });
    const record = await h.engine.getFile(fileId, { accountId: ACCOUNT });
    expect(record.tags).toEqual(['batch-7']);
    expect(record.locale).toBe('en-AU');
    expect(record.name).toBe('invoice.pdf');
    const keys = Object.keys(record.metadata ?? {});
    expect(keys).toContain('customerRef');
    for (const known of ['products', 'tags', 'locale', 'fileToUpload']) expect(keys).not.toContain(known);
    expect((await h.engine.listFiles({ accountId: ACCOUNT, tag: 'batch-7' })).map((f) => f.fileId)).toEqual([
      fileId,
    ]);
    expect((await result(h.handler, auth, fileId, '')).body.status).toBe('FINALISED');
  });

  // Was a bug (fixed): unknown fields of a multipart v1 upload are kept as one-element lists
  // ({customerRef: ['PO-4471']}) while the v2 upload keeps the same form field as a string
  // ({customerRef: 'PO-9'}, `flatten` in fetch-handler.ts: "a field sent once is a string, a repeated
  // one a list"). uploadV1 copies the raw string[] of readMultipart into the metadata.
  it('keeps unknown form fields of a multipart v1 upload as sent (once: a string; repeated: a list)', async () => {
    const fileId = await uploadV1('/fileupload', {
      products: 'invoices:1',
      customerRef: 'PO-4471',
      'x-new-option': 'yes',
      labels: ['a', 'b'],
    });
    const record = await h.engine.getFile(fileId, { accountId: ACCOUNT });
    expect(record.metadata).toEqual({ customerRef: 'PO-4471', 'x-new-option': 'yes', labels: ['a', 'b'] });
  });

  it('keeps unknown properties of a /fileupload/json request with the file', async () => {
    const answer = await call(h.handler, '/fileupload/json', {
      token: auth,
      json: {
        fileToUpload: Buffer.from(await invoicePdf()).toString('base64'),
        fileName: 'march.pdf',
        products: ['invoices:1'],
        tags: 'json-batch',
        source: { system: 'erp', id: 42 },
      },
    });
    expect(answer.status, answer.text).toBe(200);
    const record = await h.engine.getFile(answer.body.fileId as string, { accountId: ACCOUNT });
    expect(record.name).toBe('march.pdf');
    expect(record.tags).toEqual(['json-batch']);
    expect(record.metadata).toMatchObject({ source: { system: 'erp', id: 42 } });
  });

  it('keeps unknown form fields of a v2 upload with the file', async () => {
    const fileId = await uploadV2(await invoicePdf(), { customerRef: 'PO-9', channel: 'email' });
    const record = await h.engine.getFile(fileId, { accountId: ACCOUNT });
    expect(record.metadata).toEqual({ customerRef: 'PO-9', channel: 'email' });
    expect(record.name).toBe('invoice.pdf');
  });
});

describe('how long a result request waits', () => {
  let w: Harness;
  let wAuth: string;
  let release: () => void = () => undefined;
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });

  beforeAll(async () => {
    w = await startHarness({
      http: { maxResultWaitMs: 300 },
      engine: {
        workflows: [
          {
            id: 'acme.hold',
            inputsSchema: {
              type: 'object',
              required: ['file_id'],
              additionalProperties: false,
              properties: { file_id: { type: 'string' } },
            },
            async run({ signal }) {
              await Promise.race([gate, new Promise((resolve) => signal.addEventListener('abort', resolve))]);
              return {};
            },
            fromV1: ({ fileId }) => ({ file_id: fileId }),
          },
        ],
      },
    });
    wAuth = await w.login('waiter');
  });
  afterAll(async () => {
    release();
    await w.close();
  });

  async function heldV1Upload(): Promise<string> {
    const answer = await call(w.handler, '/fileupload', {
      token: wAuth,
      body: form('fileToUpload', await invoicePdf(), 'a.pdf', {
        products: 'invoices:1',
        workflowId: 'acme.hold',
      }),
    });
    expect(answer.status, answer.text).toBe(200);
    const fileId = answer.body.fileId as string;
    // Running before any clock is faked: the job's own timers are real ones.
    await new Promise<void>((resolve) => {
      const off = w.engine.on('job', ({ job }) => {
        if (job.file_id === fileId && job.status === 'running') done();
      });
      function done(): void {
        off();
        resolve();
      }
      void w.engine.listJobs({ accountId: 'waiter', fileId }).then((jobs) => {
        if (jobs.some((j) => j.status === 'running')) done();
      });
    });
    return fileId;
  }

  // The waits are bounded by the tests' own timeouts, never by a measured time: an uncapped wait (60 s,
  // 30 s) outlasts the test's 20 s and fails it, a capped one (300 ms) ends far within it, busy or not.
  it('caps ?timeout at maxResultWaitMs, and ?timeout=0 answers at once', { timeout: 20_000 }, async () => {
    const fileId = await heldV1Upload();
    const capped = await call(w.handler, `/result/final/${fileId}?timeout=60000`, { token: wAuth });
    expect(capped.body).toEqual({ fileId, status: 'IN PROGRESS' });
    // ?timeout=0 on a handler that would let it wait a minute: a wait of the v1 default (30 s) would
    // outlast the test.
    const patient = createFetchHandler(w.engine, {
      tokens: { secret: TOKEN_SECRET },
      maxResultWaitMs: 60_000,
    });
    const now = await patient(
      new Request(`http://docex.test/results/${fileId}?timeout=0`, {
        headers: { authorization: `Bearer ${wAuth}` },
      }),
    );
    expect(await now.json()).toEqual({ fileId, status: 'IN PROGRESS' });
  });

  // Was a bug (fixed): maxResultWaitMs ("Longest wait of a result request") caps only an explicit ?timeout. Without
  // it, fetch-handler.ts passes no timeoutMs and the engine's default applies: 30 s for a v1 file (and
  // for a file with open review tasks), whatever the host configured.
  // Request: handler with maxResultWaitMs 300; v1 upload whose workflow is still running; GET
  // /result/final/{fileId} without ?timeout. Expected: IN PROGRESS after about 300 ms; actual: the
  // answer came after 30 s.
  it('bounds a result request without ?timeout by maxResultWaitMs too', { timeout: 20_000 }, async () => {
    const fileId = await heldV1Upload();
    const answer = await call(w.handler, `/result/final/${fileId}`, { token: wAuth });
    expect(answer.body).toEqual({ fileId, status: 'IN PROGRESS' });
  });
});
