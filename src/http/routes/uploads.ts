import { DocexError } from '../../core/errors.js';
import { assertPlainData } from '../../core/plain-data.js';
import type { UploadV1Options } from '../../engine-types.js';
import { readJson } from '../body.js';
import { readMultipart } from '../multipart.js';
import { errors, ok, V1_FORM } from '../openapi-schemas.js';
import { json } from '../responses.js';
import type { ApiRoute, RouteContext } from '../routing.js';

/** Uploads: v2 (the file only) and v1 (the file and what to extract: the upload queues the work). */
export const uploadRoutes: ApiRoute[] = [
  {
    method: 'POST',
    path: '/fileupload/v2/multipart',
    auth: 'bearer',
    doc: {
      summary: 'Upload a document (v2)',
      requestBody: {
        content: {
          'multipart/form-data': {
            schema: {
              type: 'object',
              required: ['file'],
              properties: { file: { type: 'string', contentMediaType: 'application/octet-stream' } },
            },
          },
        },
      },
      responses: {
        ...ok({
          type: 'object',
          required: ['id', 'fileId', 'uploadedAt', 'status'],
          properties: {
            id: { type: 'string' },
            fileId: { type: 'string' },
            uploadedAt: { type: 'string' },
            status: { const: 'RECEIVED' },
          },
        }),
        ...errors(400, 401, 403, 413, 415, 422, 503),
      },
    },
    async handle({ request, engine, accountId }) {
      const { maxFileBytes } = engine.getAccount(accountId).limits;
      const body = await readMultipart(request, { fileFields: ['file'], maxFileBytes });
      if (!body.file) throw missingFile('file');
      const record = await engine.uploadV2(body.file.bytes, {
        accountId,
        name: body.file.name,
        metadata: flatten(body.fields),
      });
      return json(record);
    },
  },
  {
    method: 'POST',
    path: '/fileupload',
    aliases: ['/fileupload/'],
    label: '/fileupload/?',
    auth: 'bearer',
    doc: {
      summary: 'Upload a document and choose what to extract (v1; also /fileupload/)',
      requestBody: { content: { 'multipart/form-data': { schema: V1_FORM } } },
      responses: {
        ...ok({ type: 'object', required: ['fileId', 'uploadedAt', 'status'] }),
        ...errors(400, 401, 403, 404, 413, 415, 422, 503),
      },
    },
    async handle(c) {
      const { maxFileBytes } = c.engine.getAccount(c.accountId).limits;
      const body = await readMultipart(c.request, { fileFields: ['fileToUpload'], maxFileBytes });
      if (!body.file) throw missingFile('fileToUpload');
      return uploadV1(c, body.file.bytes, body.file.name, body.fields);
    },
  },
  {
    method: 'POST',
    path: '/fileupload/json',
    auth: 'bearer',
    doc: {
      summary: 'Upload a document as base64 (v1)',
      requestBody: {
        content: {
          'application/json': {
            schema: {
              ...V1_FORM,
              properties: {
                ...V1_FORM.properties,
                fileToUpload: { type: 'string', contentEncoding: 'base64' },
              },
            },
          },
        },
      },
      responses: { ...ok({ type: 'object' }), ...errors(400, 401, 403, 404, 413, 415, 422, 503) },
    },
    async handle(c) {
      const { maxFileBytes } = c.engine.getAccount(c.accountId).limits;
      const tooLarge = () =>
        new DocexError('FILE_TOO_LARGE', `The file is larger than the limit of ${maxFileBytes} bytes.`);
      // Base64 is 4/3 of the bytes; the limit applies to the decoded file as well.
      const body = (await readJson(
        c.request,
        Math.ceil((maxFileBytes * 4) / 3) + c.maxJsonBytes,
        'object',
        tooLarge,
      )) as Record<string, unknown>;
      const encoded = body.fileToUpload;
      if (typeof encoded !== 'string' || encoded.length === 0) throw missingFile('fileToUpload');
      const bytes = decodeBase64(encoded);
      if (bytes.byteLength > maxFileBytes) throw tooLarge();
      const name = typeof body.fileName === 'string' ? body.fileName : undefined;
      const { fileToUpload: _file, ...fields } = body;
      // Besides the file, the body holds what any other JSON request may: the same limit.
      assertPlainData(fields, { maxDepth: 64, maxBytes: c.maxJsonBytes }, 'request', 'MALFORMED_REQUEST');
      return uploadV1(c, bytes, name, fields);
    },
  },
];

/** The fields of a v1 upload that say what to do; any other is kept with the file. */
const V1_KEYS = new Set([
  'products',
  'products[]',
  'fieldSets',
  'fieldSets[]',
  'fieldSet',
  'tags',
  'workflowId',
  'workflowOptions',
  'locale',
]);

/** A v1 upload (multipart or JSON): its fields become the upload's options. */
async function uploadV1(
  { engine, accountId }: RouteContext,
  bytes: Uint8Array,
  fileName: string | undefined,
  fields: Record<string, unknown>,
): Promise<Response> {
  const list = (key: string): string[] | undefined => {
    const values = [fields[key], fields[`${key}[]`]].flat().filter((v): v is string => typeof v === 'string');
    return values.length > 0 ? values : undefined;
  };
  const single = (key: string): string | undefined => {
    const value = fields[key];
    const first = Array.isArray(value) ? value[0] : value;
    return typeof first === 'string' ? first : undefined;
  };
  const options: UploadV1Options = { accountId };
  const products = list('products');
  const fieldSets = list('fieldSets');
  const fieldSet = single('fieldSet');
  if (products) options.products = products;
  if (fieldSets) options.fieldSets = fieldSets;
  if (fieldSet !== undefined) options.fieldSet = fieldSet;
  const tags = list('tags');
  if (tags) options.tags = tags;
  const workflowId = single('workflowId');
  if (workflowId) options.workflowId = workflowId;
  // A form field comes as a list of strings (the first counts); the JSON upload may send an object.
  const workflowOptions = Array.isArray(fields.workflowOptions)
    ? (fields.workflowOptions as unknown[])[0]
    : fields.workflowOptions;
  if (
    typeof workflowOptions === 'string' ||
    (typeof workflowOptions === 'object' && workflowOptions !== null && !Array.isArray(workflowOptions))
  ) {
    options.workflowOptions = workflowOptions as string | Record<string, unknown>;
  }
  const locale = single('locale');
  if (locale) options.locale = locale;
  if (fileName) options.name = fileName;
  // Unknown fields are kept with the file, so newer clients keep working.
  options.metadata = Object.fromEntries(
    Object.entries(fields)
      .filter(([k]) => !V1_KEYS.has(k) && k !== 'fileToUpload')
      .map(([k, v]) => [k, Array.isArray(v) && v.length === 1 ? (v as unknown[])[0] : v]),
  );
  return json(await engine.uploadV1(bytes, options));
}

function missingFile(field: string): DocexError {
  return new DocexError('MALFORMED_REQUEST', `The request has no file in the field "${field}".`, {
    details: [{ path: `/${field}`, message: 'is required' }],
  });
}

function decodeBase64(text: string): Uint8Array {
  const compact = text.replace(/^data:[^,]*;base64,/, '').replace(/\s+/g, '');
  if (!/^[A-Za-z0-9+/_-]*={0,2}$/.test(compact)) {
    throw new DocexError('MALFORMED_REQUEST', 'fileToUpload is not base64.', {
      details: [{ path: '/fileToUpload', message: 'is not base64' }],
    });
  }
  return new Uint8Array(
    Buffer.from(compact, compact.includes('-') || compact.includes('_') ? 'base64url' : 'base64'),
  );
}

/** Form fields for metadata: a field sent once is a string, a repeated one a list. */
function flatten(fields: Record<string, string[]>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, v.length === 1 ? v[0] : v]));
}
