import { DocexError } from '../../core/errors.js';
import { ok } from '../openapi-schemas.js';
import { errorResponse, json } from '../responses.js';
import type { ApiRoute } from '../routing.js';

/**
 * What hosts, load balancers and monitoring read, without an access token: the probes, the API
 * document and the metrics. Nothing about the accounts.
 */
export const probeRoutes: ApiRoute[] = [
  {
    method: 'GET',
    path: '/healthz',
    auth: 'none',
    doc: {
      summary: 'Alive (no token)',
      responses: ok({ type: 'object', properties: { status: { const: 'ok' } } }),
    },
    handle: async () => json({ status: 'ok' }),
  },
  {
    method: 'GET',
    path: '/readyz',
    auth: 'none',
    doc: {
      summary: 'Ready: persistence and file store answer (no token); 503 naming the failed check otherwise',
      responses: {
        ...ok({ type: 'object', properties: { status: { type: 'string' }, checks: { type: 'object' } } }),
        '503': { description: 'not ready', content: { 'application/json': { schema: { type: 'object' } } } },
      },
    },
    async handle({ engine }) {
      const health = await engine.health();
      return json(
        { status: health.ready ? 'ready' : 'not ready', checks: health.checks },
        health.ready ? 200 : 503,
      );
    },
  },
  // The document itself is not one of its operations.
  {
    method: 'GET',
    path: '/openapi.json',
    auth: 'none',
    doc: false,
    handle: async (c) => json(c.apiDocument()),
  },
  // Prometheus' text format, when the host gives a metrics source; with its token, only for
  // `Authorization: Bearer <token>` (not an access token of the API). Not in the API document.
  {
    method: 'GET',
    path: '/metrics',
    auth: 'none',
    doc: false,
    enabled: ({ metrics }) => metrics !== undefined,
    async handle({ request, metrics }) {
      const { source, token } = metrics!;
      if (token !== undefined && !sameSecret(request.headers.get('authorization') ?? '', `Bearer ${token}`)) {
        return errorResponse(new DocexError('UNAUTHORIZED', 'The metrics need their token.'));
      }
      const { contentType, body } = await source.render();
      return new Response(body, { headers: { 'content-type': contentType, 'cache-control': 'no-store' } });
    },
  },
];

/** Compares two strings in time that does not depend on where they differ. */
function sameSecret(given: string, expected: string): boolean {
  const a = new TextEncoder().encode(given);
  const b = new TextEncoder().encode(expected);
  if (a.length !== b.length) return false;
  let difference = 0;
  for (let i = 0; i < a.length; i++) difference |= a[i]! ^ b[i]!;
  return difference === 0;
}
