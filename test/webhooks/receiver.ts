import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';

export interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** How the receiver answers a request to a path: a status, or it holds the answer until released. */
export type Behaviour = (request: Received, response: ServerResponse) => void;

/** A webhook receiver on a loopback port that records every request. */
export interface Receiver {
  url: (path: string) => string;
  received: Received[];
  on(path: string, behaviour: Behaviour): void;
  close(): Promise<void>;
}

export async function startReceiver(): Promise<Receiver> {
  const received: Received[] = [];
  const behaviours = new Map<string, Behaviour>();
  const server: Server = createServer((request, response) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => (body += chunk));
    request.on('end', () => {
      const path = request.url ?? '/';
      const entry = { path, headers: request.headers, body };
      received.push(entry);
      const behaviour = behaviours.get(path);
      if (behaviour) behaviour(entry, response);
      else response.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: (path) => `http://127.0.0.1:${port}${path}`,
    received,
    on: (path, behaviour) => behaviours.set(path, behaviour),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Polls `check` until it holds (no time assertion: the suite's own timeout bounds it). */
export async function until(check: () => boolean | Promise<boolean>, what = 'condition'): Promise<void> {
  for (let i = 0; ; i++) {
    if (await check()) return;
    if (i > 20_000) throw new Error(`never happened: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
