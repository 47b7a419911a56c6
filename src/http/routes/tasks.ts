import { DocexError } from '../../core/errors.js';
import { readJson } from '../body.js';
import { errors, jsonBody, ok } from '../openapi-schemas.js';
import { json } from '../responses.js';
import type { ApiRoute } from '../routing.js';

/** Review tasks for API clients (people review on the page, src/review/review-routes.ts). */
export const taskRoutes: ApiRoute[] = [
  {
    method: 'GET',
    path: '/tasks',
    auth: 'bearer',
    doc: {
      summary: 'Review tasks of the account',
      query: [
        { name: 'status', schema: { enum: ['open', 'completed'] } },
        { name: 'fileId', schema: { type: 'string' } },
      ],
      responses: {
        ...ok({ type: 'object', properties: { tasks: { type: 'array', items: { type: 'object' } } } }),
        ...errors(401),
      },
    },
    async handle({ url, engine, accountId }) {
      const status = url.searchParams.get('status');
      const fileId = url.searchParams.get('fileId');
      if (status !== null && status !== 'open' && status !== 'completed') {
        throw new DocexError('MALFORMED_REQUEST', 'status must be open or completed.', {
          details: [{ path: '/status', message: 'must be open or completed' }],
        });
      }
      const tasks = await engine.listTasks({
        accountId,
        ...(status ? { status } : {}),
        ...(fileId ? { fileId } : {}),
      });
      return json({ tasks });
    },
  },
  {
    method: 'GET',
    path: '/tasks/{taskId}',
    auth: 'bearer',
    doc: { summary: 'A review task', responses: { ...ok({ type: 'object' }), ...errors(401, 404) } },
    handle: async ({ engine, params, accountId }) =>
      json(await engine.getTask(params.taskId!, { accountId })),
  },
  {
    method: 'POST',
    path: '/tasks/{taskId}/complete',
    auth: 'bearer',
    doc: {
      summary: 'Complete a review task with corrected values',
      requestBody: jsonBody({
        type: 'object',
        required: ['values'],
        properties: {
          values: { type: 'object' },
          tokenIds: {
            type: 'object',
            description: 'for values taken from words of the page: the word ids, which give the box',
            additionalProperties: { type: 'array', items: { type: 'integer' }, maxItems: 200 },
          },
        },
      }),
      responses: { ...ok({ type: 'object' }), ...errors(400, 401, 404, 409, 422) },
    },
    async handle({ request, engine, params, accountId, clientId, maxJsonBytes }) {
      const body = (await readJson(request, maxJsonBytes)) as { values: Record<string, unknown> };
      return json(
        await engine.completeTask(params.taskId!, body, {
          accountId,
          ...(clientId ? { by: { kind: 'client', id: clientId } } : {}),
        }),
      );
    },
  },
];
