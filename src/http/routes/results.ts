import { DocexError } from '../../core/errors.js';
import { errors, ok, ref } from '../openapi-schemas.js';
import { json } from '../responses.js';
import type { ApiRoute } from '../routing.js';

/** The result of a file, waiting for pending work up to `?timeout=` (at most maxResultWaitMs). */
export const resultRoutes: ApiRoute[] = [
  {
    method: 'GET',
    path: '/result/final/{fileId}',
    aliases: ['/results/{fileId}'],
    label: '/(?:result/final|results)/{}',
    auth: 'bearer',
    doc: {
      summary: 'The result of a file (also /results/{fileId})',
      query: [
        {
          name: 'timeout',
          schema: { type: 'integer', minimum: 0 },
          description: 'ms to wait for pending work',
        },
        { name: 'verbose', schema: { type: 'boolean' } },
      ],
      responses: {
        ...ok({
          type: 'object',
          required: ['fileId', 'status'],
          properties: {
            fileId: { type: 'string' },
            status: { enum: ['FINALISED', 'IN PROGRESS'] },
            results: {
              type: 'object',
              properties: {
                timestamp: { type: 'string' },
                fields: { type: 'array', items: ref('Field') },
              },
            },
          },
        }),
        ...errors(401, 404, 422, 500, 503),
      },
    },
    async handle({ url, engine, params, accountId, maxResultWaitMs }) {
      const timeout = url.searchParams.get('timeout');
      let timeoutMs: number | undefined;
      if (timeout !== null) {
        if (!/^\d{1,9}$/.test(timeout)) {
          throw new DocexError('MALFORMED_REQUEST', 'timeout must be a whole number of milliseconds.', {
            details: [{ path: '/timeout', message: 'must be a whole number' }],
          });
        }
        timeoutMs = Math.min(Number(timeout), maxResultWaitMs);
      }
      const verbose = url.searchParams.get('verbose') === 'true';
      const result = await engine.getResult(params.fileId!, {
        accountId,
        verbose,
        maxWaitMs: maxResultWaitMs,
        ...(timeoutMs !== undefined ? { timeoutMs } : {}),
      });
      return json(result);
    },
  },
];
