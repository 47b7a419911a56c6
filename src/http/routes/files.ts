import { DocexError } from '../../core/errors.js';
import type { FileRecord } from '../../core/types.js';
import { binary, errors, ok } from '../openapi-schemas.js';
import { json } from '../responses.js';
import type { ApiRoute } from '../routing.js';

/** Uploaded files: their pages as images, their records, bytes and tags (docs/compatibility.md). */
export const fileRoutes: ApiRoute[] = [
  {
    method: 'GET',
    path: '/result/image/{fileId}',
    auth: 'bearer',
    doc: {
      summary: 'A page of the file as an image (a PDF page rendered as PNG; an uploaded image as it is)',
      query: [{ name: 'page', schema: { type: 'integer', minimum: 1, default: 1 } }],
      responses: { ...binary('image/png'), ...errors(400, 401, 404, 422) },
    },
    async handle({ url, engine, params, accountId }) {
      const page = url.searchParams.get('page') ?? '1';
      if (!/^\d{1,4}$/.test(page)) {
        throw new DocexError('MALFORMED_REQUEST', 'page must be a page number.', {
          details: [{ path: '/page', message: 'must be a page number' }],
        });
      }
      const image = await engine.pageImage(params.fileId!, Number(page), { accountId });
      return new Response(image.bytes, {
        headers: { 'content-type': image.contentType, 'cache-control': 'private, max-age=3600' },
      });
    },
  },
  {
    method: 'GET',
    path: '/app/docs/{fileId}',
    auth: 'bearer',
    doc: {
      summary: 'The file record',
      responses: { ...ok({ type: 'object', required: ['id', 'fileId'] }), ...errors(401, 404) },
    },
    async handle({ engine, params, accountId }) {
      return json(fileDocument(await engine.getFile(params.fileId!, { accountId })));
    },
  },
  {
    method: 'GET',
    path: '/app/docs/{fileId}/download',
    auth: 'bearer',
    doc: {
      summary: 'The file as uploaded',
      responses: { ...binary('application/octet-stream'), ...errors(401, 404) },
    },
    async handle({ engine, params, accountId }) {
      const record = await engine.getFile(params.fileId!, { accountId });
      const bytes = await engine.readFile(record.fileId, { accountId });
      const name = (record.name ?? record.fileId).replace(/[^\w.-]+/g, '_');
      return new Response(bytes, {
        headers: {
          'content-type': record.mediaType,
          'content-disposition': `attachment; filename="${name}"`,
          'cache-control': 'private, no-store',
        },
      });
    },
  },
  {
    method: 'GET',
    path: '/app/docs/{fileId}/tags',
    auth: 'bearer',
    doc: {
      summary: 'The tags of the file',
      responses: {
        ...ok({
          type: 'object',
          properties: { fileId: { type: 'string' }, tags: { type: 'array', items: { type: 'string' } } },
        }),
        ...errors(401, 404),
      },
    },
    async handle({ engine, params, accountId }) {
      const record = await engine.getFile(params.fileId!, { accountId });
      return json({ fileId: record.fileId, tags: record.tags ?? [] });
    },
  },
];

/** A file record as `GET /app/docs/{fileId}` answers it (the original service's field names). */
function fileDocument(record: FileRecord): Record<string, unknown> {
  return {
    id: record.fileId,
    fileId: record.fileId,
    fileName: record.name ?? null,
    mediaType: record.mediaType,
    size: record.size,
    pageCount: record.pageCount,
    uploadedAt: record.uploadedAt,
    status: record.status,
    tags: record.tags ?? [],
    metadata: record.metadata ?? {},
  };
}
