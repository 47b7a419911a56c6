/**
 * Calls a fetch handler directly with a `Request`, without a socket (like hono's `app.request`):
 * `await request(handler, '/tasks', { headers: { authorization: 'Bearer ...' } })`. The path is taken
 * on a made-up origin; a body of known length is sent with its `Content-Length`, as an HTTP client
 * would send it; `remoteAddress` is the address the node listener would have recorded (none by
 * default). Keep a socket only for what needs one: a body cut off or sent slowly, the node listener
 * itself, a browser.
 */
import type { FetchHandler } from '../../src/http/fetch-handler.js';
import { setRemoteAddress } from '../../src/http/remote-address.js';

export const TEST_ORIGIN = 'http://docex.test';

export interface TestRequestInit extends RequestInit {
  /** The client's address, as a host would tell it (`setRemoteAddress`). */
  remoteAddress?: string;
}

export async function request(
  handler: FetchHandler,
  path: string,
  init: TestRequestInit = {},
): Promise<Response> {
  const { remoteAddress, ...rest } = init;
  const url = new URL(path, TEST_ORIGIN);
  let req = new Request(url, rest);
  if (rest.body !== undefined && rest.body !== null && !(rest.body instanceof ReadableStream)) {
    // The body as the bytes a client would send, with their length (and the multipart boundary the
    // Request chose, in its Content-Type).
    const bytes = new Uint8Array(await req.arrayBuffer());
    const headers = new Headers(req.headers);
    if (!headers.has('content-length')) headers.set('content-length', String(bytes.byteLength));
    req = new Request(url, { ...rest, headers, body: bytes });
  } else if (rest.body instanceof ReadableStream) {
    req = new Request(url, { ...rest, duplex: 'half' } as RequestInit);
  }
  setRemoteAddress(req, remoteAddress);
  return handler(req);
}

/** `request` bound to one handler: `(path, init) => Promise<Response>`. */
export function requester(
  handler: FetchHandler,
): (path: string, init?: TestRequestInit) => Promise<Response> {
  return (path, init) => request(handler, path, init);
}
