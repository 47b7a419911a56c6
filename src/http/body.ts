import { DocexError } from '../core/errors.js';

/** Reads a request body up to `maxBytes`, stopping (and cancelling the stream) as soon as it is exceeded. */
export async function readBody(
  request: Request,
  maxBytes: number,
  tooLarge: () => DocexError,
): Promise<Uint8Array> {
  const declared = Number(request.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > maxBytes) throw tooLarge();
  if (!request.body) return new Uint8Array(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      let chunk: Awaited<ReturnType<typeof reader.read>>;
      try {
        chunk = await reader.read();
      } catch (error) {
        if (error instanceof DocexError) throw error;
        throw new DocexError('MALFORMED_REQUEST', 'The request body could not be read.');
      }
      const { done, value } = chunk;
      if (done) break;
      size += value.byteLength;
      if (size > maxBytes) {
        await reader.cancel().catch(() => undefined);
        throw tooLarge();
      }
      chunks.push(value);
    }
  } finally {
    reader.releaseLock();
  }
  const out = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return out;
}

/** A JSON body, whatever the Content-Type says (docs/decisions.md); `object` requires a JSON object. */
export async function readJson(
  request: Request,
  maxBytes: number,
  shape: 'object' | 'any' = 'object',
  tooLarge: () => DocexError = () =>
    new DocexError('MALFORMED_REQUEST', `The request body is larger than ${maxBytes} bytes.`),
): Promise<unknown> {
  const bytes = await readBody(request, maxBytes, tooLarge);
  let value: unknown;
  try {
    value = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
  } catch {
    throw new DocexError('MALFORMED_REQUEST', 'The request body is not valid JSON.');
  }
  if (shape === 'object' && (typeof value !== 'object' || value === null || Array.isArray(value))) {
    throw new DocexError('MALFORMED_REQUEST', 'The request body must be a JSON object.', {
      details: [{ path: '', message: 'must be an object' }],
    });
  }
  return value;
}

/** A form body (`application/x-www-form-urlencoded`) as its fields. */
export async function readForm(request: Request, maxBytes: number): Promise<URLSearchParams> {
  const bytes = await readBody(
    request,
    maxBytes,
    () => new DocexError('MALFORMED_REQUEST', `The request body is larger than ${maxBytes} bytes.`),
  );
  return new URLSearchParams(new TextDecoder().decode(bytes));
}
