import { errors, ok } from '../openapi-schemas.js';
import { json } from '../responses.js';
import type { ApiRoute } from '../routing.js';

/** The account's usage by UTC day, its totals and page quotas. */
export const usageRoutes: ApiRoute[] = [
  {
    method: 'GET',
    path: '/usage',
    auth: 'bearer',
    doc: {
      summary:
        "The account's usage by UTC day (jobs, failed jobs, pages, pages OCRed, processing ms), totals and page quotas",
      query: [
        {
          name: 'from',
          schema: { type: 'string', format: 'date' },
          description: 'default: first day of this month',
        },
        { name: 'to', schema: { type: 'string', format: 'date' }, description: 'default: today (UTC)' },
      ],
      responses: {
        ...ok({ type: 'object', required: ['from', 'to', 'days', 'total', 'quotas'] }),
        ...errors(400, 401),
      },
    },
    async handle({ url, engine, accountId }) {
      const from = url.searchParams.get('from') ?? undefined;
      const to = url.searchParams.get('to') ?? undefined;
      return json(await engine.getUsage({ accountId, from, to }));
    },
  },
];
