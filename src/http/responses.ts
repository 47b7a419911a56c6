import { DocexError, toDocexError } from '../core/errors.js';

const JSON_HEADERS = { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' };

export function json(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { ...JSON_HEADERS, ...headers } });
}

/**
 * The error body of decisions.md: `{error: {code, message, details}}` with the code's status. Anything
 * that is not a DocexError becomes INTERNAL with a generic message: no stack, no library message.
 */
export function errorResponse(error: unknown): Response {
  const e = error instanceof DocexError ? error : toDocexError(error);
  const headers: Record<string, string> = {};
  if (e.httpStatus === 401) headers['www-authenticate'] = 'Bearer';
  if (e.code === 'QUEUE_FULL') headers['retry-after'] = '5';
  return json({ error: { code: e.code, message: e.message, details: e.details } }, e.httpStatus, headers);
}
