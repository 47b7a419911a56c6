import { DocexError, toDocexError } from '../core/errors.js';

const JSON_HEADERS = { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' };

export function json(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { ...JSON_HEADERS, ...headers } });
}

/**
 * The one error body: `{code, message, error: {code, message, details}}`. The `error` object is the
 * interface's (docs/decisions.md); `code` and `message` at the top level are what the original service's
 * own clients read (docs/compatibility.md).
 */
export function errorBody(code: string, message: string, details: unknown[] = []): object {
  return { code, message, error: { code, message, details } };
}

/**
 * The error answer with the code's status. Anything that is not a DocexError becomes INTERNAL with a
 * generic message: no stack, no library message.
 */
export function errorResponse(error: unknown): Response {
  const e = error instanceof DocexError ? error : toDocexError(error);
  const headers: Record<string, string> = {};
  if (e.httpStatus === 401) headers['www-authenticate'] = 'Bearer';
  if (e.retryAfterSeconds !== undefined) headers['retry-after'] = String(Math.ceil(e.retryAfterSeconds));
  return json(errorBody(e.code, e.message, e.details), e.httpStatus, headers);
}
