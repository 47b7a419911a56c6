import type { IncomingMessage, ServerResponse } from 'node:http';
import { DocexError } from '../../core/errors.js';
import { errorBody } from '../../http/responses.js';
import { setRemoteAddress } from '../../http/remote-address.js';
import type { FetchHandler } from '../../http/fetch-handler.js';

/**
 * A `node:http` request listener around a fetch handler: the host's request becomes a web `Request`
 * (body streamed, not buffered), the `Response` is written back with backpressure. A client that
 * goes away aborts the request's signal.
 */
export function createNodeListener(
  handler: FetchHandler,
  options: { trustProxy?: boolean } = {},
): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    void serve(handler, req, res, options.trustProxy === true).catch(() => {
      if (!res.headersSent) {
        res.writeHead(500, { 'content-type': 'application/json; charset=utf-8' });
        res.end(JSON.stringify(errorBody('INTERNAL', 'Internal error.')));
      } else {
        res.destroy();
      }
    });
  };
}

async function serve(
  handler: FetchHandler,
  req: IncomingMessage,
  res: ServerResponse,
  trustProxy: boolean,
): Promise<void> {
  const controller = new AbortController();
  res.on('close', () => {
    if (!res.writableFinished) controller.abort();
  });
  const forwarded = trustProxy
    ? String(req.headers['x-forwarded-proto'] ?? '')
        .split(',')[0]
        ?.trim()
    : undefined;
  const protocol = forwarded || ('encrypted' in req.socket && req.socket.encrypted ? 'https' : 'http');
  const host = req.headers.host ?? 'localhost';
  const url = new URL(req.url ?? '/', `${protocol}://${host}`);
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    for (const v of Array.isArray(value) ? value : [value]) headers.append(name, v);
  }
  const hasBody = req.method !== 'GET' && req.method !== 'HEAD';
  const request = new Request(url, {
    method: req.method ?? 'GET',
    headers,
    signal: controller.signal,
    ...(hasBody ? { body: bodyOf(req), duplex: 'half' } : {}),
  } as RequestInit);
  // Behind a trusted proxy every request comes from the proxy: the client is the first address it names.
  const forwardedFor = trustProxy
    ? String(req.headers['x-forwarded-for'] ?? '')
        .split(',')[0]
        ?.trim()
    : undefined;
  setRemoteAddress(request, forwardedFor || req.socket.remoteAddress);
  const response = await handler(request);
  const outHeaders: Record<string, string | string[]> = {};
  response.headers.forEach((value, name) => {
    outHeaders[name] = value;
  });
  // Headers joins repeated Set-Cookie values; they must stay separate header lines.
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) outHeaders['set-cookie'] = cookies;
  // A body the handler refused before reading it all (too large, unauthorised) is not read on: the
  // connection closes after the answer instead.
  if (hasBody && !req.complete) outHeaders.connection = 'close';
  res.writeHead(response.status, outHeaders);
  if (!response.body || req.method === 'HEAD') {
    res.end();
    return;
  }
  const reader = response.body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (!res.write(value) && !(await drained(res))) {
        // The client went away: stop producing the body.
        await reader.cancel().catch(() => undefined);
        return;
      }
    }
    res.end();
  } finally {
    reader.releaseLock();
  }
}

/** Resolves true when the response can take more, false when the connection closed first. */
function drained(res: ServerResponse): Promise<boolean> {
  if (res.destroyed) return Promise.resolve(false);
  return new Promise((resolve) => {
    const onDrain = (): void => {
      res.off('close', onClose);
      resolve(true);
    };
    const onClose = (): void => {
      res.off('drain', onDrain);
      resolve(false);
    };
    res.once('drain', onDrain);
    res.once('close', onClose);
  });
}

/**
 * The request body as a web stream, read as the handler pulls it. Cancelling it stops reading without
 * destroying the socket, so the handler's answer (a 413, say) still reaches the client.
 */
function bodyOf(req: IncomingMessage): ReadableStream<Uint8Array> {
  let finished = false;
  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        if (req.readableEnded) {
          // A host body parser (express.json(), Fastify's) read the body before docex could.
          finished = true;
          controller.error(
            new DocexError(
              'MALFORMED_REQUEST',
              'The request body was read before docex got it: mount docex before any body parser.',
            ),
          );
          return;
        }
        req.on('data', (chunk: Buffer) => {
          if (finished) return;
          controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
          if ((controller.desiredSize ?? 0) <= 0) req.pause();
        });
        req.on('end', () => {
          if (finished) return;
          finished = true;
          controller.close();
        });
        req.on('close', () => {
          if (finished) return;
          finished = true;
          controller.error(new Error('The client closed the connection.'));
        });
        req.pause();
      },
      pull() {
        req.resume();
      },
      cancel() {
        finished = true;
        req.pause();
      },
    },
    { highWaterMark: 4 },
  );
}
