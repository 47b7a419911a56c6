/**
 * The calls the original service's own clients make beyond the written interface (issue 18's table),
 * sent exactly as those clients send them, to the fetch handler, on `namespace: 'sypht'`: page
 * images, token requests as JSON and at /oauth/token, v1 uploads with `fieldSets=[]` and
 * `workflowId=process`, the company of a client, rules under a company, synchronous invocations, file
 * records, downloads and tags, the top-level `code` and `message` of errors, and 403 for an unknown
 * fieldset. Every call is behind the same authentication and account isolation.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { companyIdOf } from '../../src/core/company-id.js';
import {
  encodeGif,
  encodeTiff,
  INVOICE_LINES,
  makeTextPdf,
  renderPdfPage,
} from '../helpers/make-documents.js';
import { request } from '../helpers/request.js';
import {
  call,
  form,
  invoicePdf,
  result,
  SECOND_INVOICE_LINES,
  startHarness,
  UUID,
  type Harness,
} from './harness.js';

let h: Harness;
let acme: string;
let other: string;
const CLIENT = { id: 'acme-python', secret: 'acme-python-secret-0123456789' };

beforeAll(async () => {
  h = await startHarness({ engine: { namespace: 'sypht' } });
  await h.engine.createClient('acme', { clientId: CLIENT.id, clientSecret: CLIENT.secret });
  acme = await h.login('acme');
  other = await h.login('other');
});
afterAll(() => h.close());

async function uploadV2(token = acme, name = 'invoice.pdf'): Promise<string> {
  const answer = await call(h.handler, '/fileupload/v2/multipart', {
    token,
    body: form('file', await invoicePdf(), name),
  });
  expect(answer.status, answer.text).toBe(200);
  return answer.body.fileId as string;
}

async function finalised(fileId: string, token = acme): Promise<Record<string, unknown>> {
  for (;;) {
    const answer = await result(h.handler, token, fileId);
    expect(answer.status, answer.text).toBe(200);
    if (answer.body.status === 'FINALISED') return answer.body as Record<string, unknown>;
  }
}

describe('token requests the original clients send', () => {
  for (const path of ['/oauth/token', '/oauth2/token']) {
    it(`a JSON body {client_id, client_secret, grant_type, audience} at ${path}`, async () => {
      const answer = await call(h.handler, path, {
        json: {
          client_id: CLIENT.id,
          client_secret: CLIENT.secret,
          grant_type: 'client_credentials',
          audience: 'https://api.sypht.com',
        },
      });
      expect(answer.status, answer.text).toBe(200);
      expect(answer.body).toEqual({
        access_token: expect.any(String),
        token_type: 'Bearer',
        expires_in: 3600,
      });
      const works = await call(h.handler, '/tasks', { token: answer.body.access_token as string });
      expect(works.status).toBe(200);
    });
  }

  it('a JSON body with a wrong secret: 401 INVALID_CLIENT, code and message at the top level', async () => {
    const answer = await call(h.handler, '/oauth/token', {
      json: { client_id: CLIENT.id, client_secret: 'wrong', grant_type: 'client_credentials', audience: 'x' },
    });
    expect(answer.status).toBe(401);
    expect(answer.body).toMatchObject({ code: 'INVALID_CLIENT', message: expect.any(String) });
  });
});

describe('page images: GET /result/image/{fileId}?page=N', () => {
  it('answers the page as a PNG, for the file`s account only, and 404 past the last page', async () => {
    const fileId = await uploadV2();
    const image = await request(h.handler, `/result/image/${fileId}?page=1`, {
      headers: { authorization: `Bearer ${acme}` },
    });
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toBe('image/png');
    const bytes = Buffer.from(await image.arrayBuffer());
    expect(bytes.subarray(1, 4).toString()).toBe('PNG');
    // The same rendering as the review page's, cached with the file: the second answer is the same bytes.
    const again = await request(h.handler, `/result/image/${fileId}`, {
      headers: { authorization: `Bearer ${acme}` },
    });
    expect(Buffer.from(await again.arrayBuffer()).equals(bytes)).toBe(true);
    expect((await call(h.handler, `/result/image/${fileId}?page=2`, { token: acme })).status).toBe(404);
    expect((await call(h.handler, `/result/image/${fileId}?page=1`, { token: other })).status).toBe(404);
    expect((await call(h.handler, `/result/image/${fileId}?page=x`, { token: acme })).status).toBe(400);
    expect((await call(h.handler, `/result/image/${fileId}?page=1`)).status).toBe(401);
  });
});

describe('TIFF (multi-page) and GIF uploads', () => {
  it('takes a two-page TIFF and a GIF; their pages come out as PNG page images', async () => {
    const pdf = await makeTextPdf([{ lines: INVOICE_LINES }, { lines: SECOND_INVOICE_LINES }]);
    const pages = [await renderPdfPage(pdf, 100, 1), await renderPdfPage(pdf, 100, 2)];
    const tiff = await call(h.handler, '/fileupload/v2/multipart', {
      token: acme,
      body: form('file', encodeTiff(pages), 'fax.tif'),
    });
    expect(tiff.status, tiff.text).toBe(200);
    const record = await call(h.handler, `/app/docs/${tiff.body.fileId}`, { token: acme });
    expect(record.body).toMatchObject({ mediaType: 'image/tiff', pageCount: 2 });
    const page2 = await request(h.handler, `/result/image/${tiff.body.fileId}?page=2`, {
      headers: { authorization: `Bearer ${acme}` },
    });
    expect(page2.status).toBe(200);
    expect(page2.headers.get('content-type')).toBe('image/png');
    const gif = await call(h.handler, '/fileupload', {
      token: acme,
      body: form('fileToUpload', encodeGif(pages[0]!), 'scan.gif', { fieldSets: ['invoices:2'] }),
    });
    expect(gif.status, gif.text).toBe(200);
    expect((await call(h.handler, `/app/docs/${gif.body.fileId}`, { token: acme })).body).toMatchObject({
      mediaType: 'image/gif',
      pageCount: 1,
    });
  });
});

describe('v1 upload with fieldSets=[] and workflowId=process (the released command line)', () => {
  it('extracts with the default products', async () => {
    const answer = await call(h.handler, '/fileupload', {
      token: acme,
      body: form('fileToUpload', await invoicePdf(), 'invoice.pdf', {
        fieldSets: '[]',
        workflowId: 'process',
      }),
    });
    expect(answer.status, answer.text).toBe(200);
    const done = await finalised(answer.body.fileId as string);
    const names = (done.results as { fields: Array<{ name: string }> }).fields.map((f) => f.name);
    expect(names).toContain('invoice.total');
    expect(names.some((n) => n.startsWith('receipt.'))).toBe(true);
  });
});

describe('the generic fieldset (sypht.generic): every label/value pair', () => {
  const pairsOf = (body: Record<string, unknown>) => {
    const fields = (
      body.results as {
        fields: Array<{ name: string; value: { headers: string[]; rows: Array<Array<{ value: string }>> } }>;
      }
    ).fields;
    const table = fields.find((f) => f.name === 'generic.keyValues')!.value;
    expect(table.headers).toEqual(['key', 'value', 'type', 'normalised', 'confidence']);
    return new Map(table.rows.map((row) => [row[0]!.value, row[1]!.value]));
  };

  it('in a v1 upload (fieldSets) and in a v2 extraction (product_ids)', async () => {
    const v1 = await call(h.handler, '/fileupload', {
      token: acme,
      body: form('fileToUpload', await invoicePdf(), 'invoice.pdf', { fieldSets: ['sypht.generic'] }),
    });
    expect(v1.status, v1.text).toBe(200);
    const pairs = pairsOf(await finalised(v1.body.fileId as string));
    expect(pairs.get('Invoice Number')).toBe('INV-20931');
    expect(pairs.get('Invoice Date')).toBe('14 March 2024');
    const fileId = await uploadV2();
    const job = await call(h.handler, '/workflows/sypht.extract/jobs', {
      token: acme,
      json: { inputs: { file_id: fileId, product_ids: ['sypht.generic'] } },
    });
    expect(job.status, job.text).toBe(200);
    expect(pairsOf(await finalised(fileId)).get('Invoice Number')).toBe('INV-20931');
  });
});

describe('the company of a client: GET /app/company/byclientid/{clientId}', () => {
  it('answers the company id of the caller`s own client, and 404 for another account`s', async () => {
    const answer = await call(h.handler, `/app/company/byclientid/${CLIENT.id}`, { token: acme });
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body).toEqual({ id: companyIdOf('acme'), name: 'acme', clientId: CLIENT.id });
    expect(answer.body.id).toMatch(UUID);
    const foreign = await call(h.handler, `/app/company/byclientid/${CLIENT.id}`, { token: other });
    expect(foreign.status).toBe(404);
    expect((await call(h.handler, '/app/company/byclientid/nobody', { token: acme })).status).toBe(404);
  });
});

describe('rules under a company: PUT/GET/DELETE /workflows/{companyId}/rules/{rulesId}', () => {
  const RULES = {
    data: {
      checks: [
        {
          condition: { type: 'has-value', item: "$.predictions['sypht.invoice.total'].value" },
          note: 'check',
          field_ids: ['sypht.invoice.total'],
        },
      ],
    },
    schema: true,
  };

  it('stores, reads and deletes rules of the caller`s company; another company is unknown', async () => {
    const company = companyIdOf('acme');
    const put = await call(h.handler, `/workflows/${company}/rules/high-totals`, {
      method: 'PUT',
      token: acme,
      json: RULES,
    });
    expect(put.status, put.text).toBe(200);
    expect((await call(h.handler, `/workflows/${company}/rules/high-totals`, { token: acme })).body).toEqual(
      RULES,
    );
    // The same rules through the written interface's path.
    expect((await call(h.handler, '/workflows/validation_rules/high-totals', { token: acme })).body).toEqual(
      RULES,
    );
    const elsewhere = await call(h.handler, `/workflows/${companyIdOf('other')}/rules/high-totals`, {
      token: acme,
    });
    expect(elsewhere.status).toBe(404);
    const theirs = await call(h.handler, `/workflows/${company}/rules/high-totals`, { token: other });
    expect(theirs.status).toBe(404);
    const gone = await call(h.handler, `/workflows/${company}/rules/high-totals`, {
      method: 'DELETE',
      token: acme,
    });
    expect(gone.status).toBe(204);
    expect(
      (await call(h.handler, `/workflows/${company}/rules/high-totals`, { token: acme })).body,
    ).toMatchObject({
      code: 'RULES_NOT_FOUND',
    });
    expect(
      (await call(h.handler, `/workflows/${company}/rules/high-totals`, { method: 'DELETE', token: acme }))
        .status,
    ).toBe(404);
  });
});

describe('synchronous invocation: POST /workflows/{id}/invoke', () => {
  it('answers the job once it has ended', async () => {
    const fileId = await uploadV2();
    const answer = await call(h.handler, '/workflows/sypht.extract/invoke', {
      token: acme,
      json: { inputs: { file_id: fileId, product_ids: ['invoices:2'] } },
    });
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body).toMatchObject({
      job: { workflow_id: 'sypht.extract', status: 'succeeded', file_id: fileId },
    });
    expect(answer.body.message_id).toMatch(UUID);
    // Its result is there at once.
    expect((await call(h.handler, `/result/final/${fileId}`, { token: acme })).body.status).toBe('FINALISED');
    expect(
      (await call(h.handler, '/workflows/sypht.extract/invoke', { token: acme, json: { inputs: 3 } })).status,
    ).toBe(400);
    expect(
      (
        await call(h.handler, '/workflows/sypht.extract/invoke', {
          token: other,
          json: { inputs: { file_id: fileId, product_ids: ['invoices:2'] } },
        })
      ).status,
    ).toBe(404);
  });
});

describe('file records: GET /app/docs/{fileId}, /download, /tags', () => {
  it('answers the record, the original bytes and the tags, to the file`s account only', async () => {
    const pdf = await invoicePdf();
    const uploaded = await call(h.handler, '/fileupload', {
      token: acme,
      body: form('fileToUpload', pdf, 'march invoice.pdf', { fieldSets: ['invoices:2'], tags: 'march,paid' }),
    });
    const fileId = uploaded.body.fileId as string;
    const record = await call(h.handler, `/app/docs/${fileId}`, { token: acme });
    expect(record.status).toBe(200);
    expect(record.body).toMatchObject({
      id: fileId,
      fileId,
      fileName: 'march invoice.pdf',
      mediaType: 'application/pdf',
      size: pdf.byteLength,
      pageCount: 1,
      tags: ['march', 'paid'],
    });
    const download = await request(h.handler, `/app/docs/${fileId}/download`, {
      headers: { authorization: `Bearer ${acme}` },
    });
    expect(download.status).toBe(200);
    expect(download.headers.get('content-type')).toBe('application/pdf');
    expect(download.headers.get('content-disposition')).toBe('attachment; filename="march_invoice.pdf"');
    expect(Buffer.from(await download.arrayBuffer()).equals(Buffer.from(pdf))).toBe(true);
    expect((await call(h.handler, `/app/docs/${fileId}/tags`, { token: acme })).body).toEqual({
      fileId,
      tags: ['march', 'paid'],
    });
    for (const path of [`/app/docs/${fileId}`, `/app/docs/${fileId}/download`, `/app/docs/${fileId}/tags`]) {
      const answer = await call(h.handler, path, { token: other });
      expect(answer.status, path).toBe(404);
      expect(answer.body, path).toMatchObject({ code: 'FILE_NOT_FOUND', message: expect.any(String) });
    }
  });
});

describe('errors as the original clients read them', () => {
  it('an unknown fieldset: 403 "does not have permission to use fieldSet X", code and message on top', async () => {
    const answer = await call(h.handler, '/fileupload', {
      token: acme,
      body: form('fileToUpload', await invoicePdf(), 'invoice.pdf', { fieldSets: ['sypht.nosuch'] }),
    });
    expect(answer.status).toBe(403);
    expect(answer.body.code).toBe('UNKNOWN_PRODUCT');
    expect(answer.body.message).toContain("does not have permission to use fieldSet 'sypht.nosuch'");
    expect(answer.body.error).toEqual({ code: 'UNKNOWN_PRODUCT', message: answer.body.message, details: [] });
  });

  it('every route of the table is in the OpenAPI document', async () => {
    const doc = (await call(h.handler, '/openapi.json')).body as {
      paths: Record<string, Record<string, unknown>>;
    };
    for (const [path, method] of [
      ['/oauth/token', 'post'],
      ['/result/image/{fileId}', 'get'],
      ['/app/company/byclientid/{clientId}', 'get'],
      ['/workflows/{companyId}/rules/{rulesId}', 'put'],
      ['/workflows/{companyId}/rules/{rulesId}', 'get'],
      ['/workflows/{companyId}/rules/{rulesId}', 'delete'],
      ['/workflows/{workflowId}/invoke', 'post'],
      ['/app/docs/{fileId}', 'get'],
      ['/app/docs/{fileId}/download', 'get'],
      ['/app/docs/{fileId}/tags', 'get'],
    ] as const) {
      expect(doc.paths[path]?.[method], `${method} ${path}`).toBeDefined();
    }
  });
});
