/**
 * Learning from review through the HTTP interface, calling the fetch handler with Requests (no socket
 * matters here): a reviewer corrects two fields of a task, the next document of that supplier comes out
 * with both right, another account does not benefit; the account lists, exports, imports and forgets.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { createEngine, createFetchHandler, type Engine } from '../../src/index.js';
import { totalAbove100 } from '../helpers/rules.js';
import { whenJob } from '../helpers/when-job.js';
import { KESTREL_FIRST, KESTREL_SECOND, kestrelInvoice } from '../helpers/supplier-documents.js';
import type { Json } from './harness.js';

const ORIGIN = 'http://docex.test';
let engine: Engine;
let handler: (request: Request) => Promise<Response>;
const tokens = new Map<string, string>();

async function send(
  account: string,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; body: Json }> {
  const init: RequestInit = { method, headers: { authorization: `Bearer ${tokens.get(account)!}` } };
  if (body instanceof FormData) init.body = body;
  else if (body !== undefined) init.body = JSON.stringify(body);
  const answer = await handler(new Request(ORIGIN + path, init));
  const text = await answer.text();
  return { status: answer.status, body: text ? JSON.parse(text) : null };
}

async function upload(account: string, bytes: Uint8Array): Promise<string> {
  const form = new FormData();
  form.append('file', new Blob([bytes], { type: 'application/pdf' }), 'invoice.pdf');
  const answer = await send(account, 'POST', '/fileupload/v2/multipart', form);
  expect(answer.status).toBe(200);
  return answer.body.fileId as string;
}

/** The FINALISED fields of an extraction of the file, by name. */
async function extracted(account: string, fileId: string): Promise<Record<string, Json>> {
  const job = await send(account, 'POST', '/workflows/svc.extract/jobs', {
    inputs: { file_id: fileId, product_ids: ['invoices:2'] },
  });
  expect(job.status).toBe(200);
  await whenJob(engine, job.body.job.id, ['succeeded'], account);
  const result = await send(account, 'GET', `/result/final/${fileId}?timeout=5000`);
  expect(result.body.status).toBe('FINALISED');
  return Object.fromEntries((result.body.results.fields as Json[]).map((f: Json) => [f.name, f]));
}

beforeAll(async () => {
  engine = createEngine({ ingest: { ocr: 'never' } });
  handler = createFetchHandler(engine, { tokens: { secret: 'learning-tests-secret-0123456789abcdef' } });
  for (const account of ['acme', 'globex']) {
    const client = await engine.createClient(account, { clientId: `${account}-client` });
    const answer = await handler(
      new Request(`${ORIGIN}/oauth2/token`, {
        method: 'POST',
        body: new URLSearchParams({
          grant_type: 'client_credentials',
          client_id: client.clientId,
          client_secret: client.clientSecret,
        }),
      }),
    );
    tokens.set(account, ((await answer.json()) as { access_token: string }).access_token);
  }
});
afterAll(() => engine.close());

describe('learning from review over HTTP', () => {
  it("a reviewer's two corrections make the supplier's next document right, in that account only", async () => {
    const rules = totalAbove100('Check the references', [
      'svc.document.referenceNo',
      'svc.invoice.purchaseOrderNo',
      'svc.document.supplierName',
    ]);
    expect((await send('acme', 'PUT', '/workflows/validation_rules/refs', rules)).status).toBe(200);
    const first = await upload('acme', await kestrelInvoice(KESTREL_FIRST));
    const job = await send('acme', 'POST', '/workflows/svc.validate/jobs', {
      inputs: { file_id: first, product_id: 'invoices:2', rules_id: 'refs' },
    });
    await whenJob(engine, job.body.job.id, ['succeeded'], 'acme');
    const [task] = (await send('acme', 'GET', `/tasks?fileId=${first}&status=open`)).body.tasks as Json[];
    // The reviewer corrects the two references and confirms the supplier's name as extracted.
    const completed = await send('acme', 'POST', `/tasks/${task.id as string}/complete`, {
      values: {
        'svc.document.referenceNo': 'XK-4411',
        'svc.invoice.purchaseOrderNo': 'BZ 7720-A',
        'svc.document.supplierName': task.predictions['svc.document.supplierName'].value,
      },
    });
    expect(completed.status).toBe(200);

    const listed = await send('acme', 'GET', '/suppliers');
    expect(listed.status).toBe(200);
    expect(listed.body.suppliers).toHaveLength(1);
    expect(listed.body.suppliers[0]).toMatchObject({
      name: 'Kestrel Instruments GmbH',
      documents: 1,
      fields: ['document.referenceNo', 'document.supplierName', 'invoice.purchaseOrderNo'],
    });

    const second = await upload('acme', await kestrelInvoice(KESTREL_SECOND));
    const fields = await extracted('acme', second);
    expect(fields['document.referenceNo']).toMatchObject({ value: 'XK-5120' });
    expect(fields['invoice.purchaseOrderNo']).toMatchObject({ value: 'BZ8105-C' });
    for (const name of ['document.referenceNo', 'invoice.purchaseOrderNo'])
      expect(fields[name].confidence, name).toBeGreaterThanOrEqual(0.9);

    // Reviewing the second document confirms what the memory answered: it counts as right.
    const again = await send('acme', 'POST', '/workflows/svc.validate/jobs', {
      inputs: { file_id: second, product_id: 'invoices:2', rules_id: 'refs' },
    });
    await whenJob(engine, again.body.job.id, ['succeeded'], 'acme');
    const [next] = (await send('acme', 'GET', `/tasks?fileId=${second}&status=open`)).body.tasks as Json[];
    expect(next.predictions['svc.document.referenceNo'].value).toBe('XK-5120');
    const confirm = Object.fromEntries(
      Object.entries(next.predictions as Record<string, Json>).map(([id, p]) => [id, p.value]),
    );
    expect(
      (await send('acme', 'POST', `/tasks/${next.id as string}/complete`, { values: confirm })).status,
    ).toBe(200);
    const memory = (
      await send(
        'acme',
        'GET',
        `/suppliers/${(await send('acme', 'GET', '/suppliers')).body.suppliers[0].supplierId as string}`,
      )
    ).body;
    expect(memory.documents).toBe(2);
    expect(memory.fields['document.referenceNo']).toMatchObject({ used: 1, right: 1 });
    expect(memory.fields['document.referenceNo'].seen.map((v: Json) => v.value)).toEqual([
      'XK-5120',
      'XK-4411',
    ]);

    // Another account, the same document: nothing learned there.
    const theirs = await extracted('globex', await upload('globex', await kestrelInvoice(KESTREL_SECOND)));
    expect(theirs['document.referenceNo'].value).not.toBe('XK-5120');
    expect(theirs['invoice.purchaseOrderNo'].value).not.toBe('BZ8105-C');
    expect((await send('globex', 'GET', '/suppliers')).body).toEqual({ suppliers: [] });

    // Export from one account, import into the other (201), forget (204); ids of another account are 404.
    const supplierId = listed.body.suppliers[0].supplierId as string;
    expect((await send('globex', 'GET', `/suppliers/${supplierId}`)).status).toBe(404);
    const exported = await send('acme', 'GET', `/suppliers/${supplierId}`);
    expect(exported.status).toBe(200);
    expect(exported.body).toMatchObject({ supplierId, name: 'Kestrel Instruments GmbH', taxIds: [] });
    const imported = await send('globex', 'POST', '/suppliers', exported.body);
    expect(imported.status).toBe(201);
    expect(imported.body).toMatchObject({ supplierId, documents: 2 });
    const refused = await send('globex', 'POST', '/suppliers', { ...exported.body, fields: 'none' });
    expect(refused.status).toBe(400);
    expect(refused.body.error.code).toBe('INVALID_ARGUMENT');
    expect((await send('globex', 'DELETE', `/suppliers/${supplierId}`)).status).toBe(204);
    expect((await send('globex', 'DELETE', `/suppliers/${supplierId}`)).status).toBe(404);
    expect((await send('acme', 'GET', '/suppliers')).body.suppliers).toHaveLength(1);
  });
});
