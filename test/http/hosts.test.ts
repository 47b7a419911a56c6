/**
 * The host examples of docs/http.md, each run on a real server on a loopback port: a token, a v2
 * upload, svc.extract, the result, and an upload over the account's limit (413).
 *
 * The code between `// docs/http.md: <host>` and `// end` is copied exactly from docs/http.md (only the
 * imports differ: the docs import `docex`, `docex/http/node`); the last test checks that it still is.
 */
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import express from 'express';
import Fastify from 'fastify';
import { Hono } from 'hono';
import { afterEach, describe, expect, it } from 'vitest';
import { createNodeListener } from '../../src/adapters/http/node-listener.js';
import { createEngine, createFetchHandler, type Engine } from '../../src/index.js';
import { INVOICE_LINES, makeTextPdf } from '../helpers/make-documents.js';

const tokenSecret = 'a test signing secret of 32 bytes or more';
const cleanups: Array<() => Promise<void>> = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

interface Setup {
  engine: Engine;
  handler: ReturnType<typeof createFetchHandler>;
  clientId: string;
  clientSecret: string;
}

async function setup(): Promise<Setup> {
  const engine = createEngine({ ingest: { ocr: 'never' } });
  cleanups.push(() => engine.close());
  engine.configureAccount('default', { limits: { maxFileBytes: 50_000 } });
  // docs/http.md: setup
  const { clientId, clientSecret } = await engine.createClient('default');
  const handler = createFetchHandler(engine, { basePath: '/docex', tokens: { secret: tokenSecret } });
  // end
  return { engine, handler, clientId, clientSecret };
}

/** Closes a node:http server, its keep-alive connections with it. */
function closer(server: Server): () => Promise<void> {
  return () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
}

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  cleanups.push(closer(server));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** The v2 flow of the interface through a mounted service at `base` (`http://host:port/docex`). */
async function checkService(base: string, { clientId, clientSecret }: Setup): Promise<void> {
  const basic = Buffer.from(`${clientId}:${clientSecret}`).toString('base64');
  const tokenResponse = await fetch(`${base}/oauth2/token`, {
    method: 'POST',
    headers: { authorization: `Basic ${basic}` },
    body: new URLSearchParams({ grant_type: 'client_credentials' }),
  });
  expect(tokenResponse.status).toBe(200);
  const { access_token } = (await tokenResponse.json()) as { access_token: string };
  const auth = { authorization: `Bearer ${access_token}` };

  const form = new FormData();
  const pdf = await makeTextPdf([{ lines: INVOICE_LINES }]);
  form.append('file', new Blob([pdf], { type: 'application/pdf' }), 'invoice.pdf');
  const upload = await fetch(`${base}/fileupload/v2/multipart`, {
    method: 'POST',
    headers: auth,
    body: form,
  });
  expect(upload.status).toBe(200);
  const { fileId } = (await upload.json()) as { fileId: string };

  const invoke = await fetch(`${base}/workflows/svc.extract/jobs`, {
    method: 'POST',
    headers: { ...auth, 'content-type': 'application/json' },
    body: JSON.stringify({ inputs: { file_id: fileId, product_ids: ['invoices:2'] } }),
  });
  expect(invoke.status).toBe(200);

  const result = await fetch(`${base}/result/final/${fileId}?timeout=10000`, { headers: auth });
  expect(result.status).toBe(200);
  const record = (await result.json()) as {
    status: string;
    results: { fields: Array<{ name: string; value: unknown }> };
  };
  expect(record.status).toBe('FINALISED');
  expect(record.results.fields.find((f) => f.name === 'invoice.total')?.value).toBe('150.00');

  // Over the account's limit of 50 000 bytes: refused while the body streams in (80 kB), or from the
  // declared Content-Length before anything is read (2 MB).
  for (const size of [80_000, 2_000_000]) {
    const large = new FormData();
    large.append('file', new Blob([new Uint8Array(size).fill(0x20)]), 'large.pdf');
    const refused = await fetch(`${base}/fileupload/v2/multipart`, {
      method: 'POST',
      headers: auth,
      body: large,
    });
    expect(refused.status).toBe(413);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('FILE_TOO_LARGE');
  }

  // The service goes on answering after the refused uploads.
  const again = await fetch(`${base}/result/final/${fileId}`, { headers: auth });
  expect(again.status).toBe(200);
}

/** The API document names the mount point as its server. */
async function servers(base: string): Promise<unknown> {
  const response = await fetch(`${base}/openapi.json`);
  expect(response.status).toBe(200);
  return ((await response.json()) as { servers: unknown }).servers;
}

describe('mounting the fetch handler (docs/http.md)', () => {
  it('Express: middleware on the prefix', async () => {
    const s = await setup();
    const { handler } = s;
    // docs/http.md: express
    const listener = createNodeListener(handler);
    const app = express();
    // Express takes '/docex' off req.url; the handler (basePath '/docex') reads the whole path.
    app.use('/docex', (req, res) => {
      req.url = req.originalUrl;
      listener(req, res);
    });
    app.use(express.json()); // the host's own parsers and routes come after
    // end
    app.post('/echo', (req, res) => {
      res.json(req.body);
    });
    const origin = await listen(createServer(app));
    await checkService(`${origin}/docex`, s);
    expect(await servers(`${origin}/docex`)).toEqual([{ url: '/docex' }]);
    // The host's own JSON routes still parse their bodies.
    const echo = await fetch(`${origin}/echo`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ ok: true }),
    });
    expect(await echo.json()).toEqual({ ok: true });
  });

  it('Express: app.use alone misses the basePath (404); without basePath it works', async () => {
    const s = await setup();
    const stripped = express();
    stripped.use('/docex', createNodeListener(s.handler));
    const strippedOrigin = await listen(createServer(stripped));
    const missed = await fetch(`${strippedOrigin}/docex/openapi.json`);
    expect(missed.status).toBe(404);

    const withoutBase = createFetchHandler(s.engine, { tokens: { secret: tokenSecret } });
    const app = express();
    app.use('/docex', createNodeListener(withoutBase));
    const origin = await listen(createServer(app));
    await checkService(`${origin}/docex`, s);
    // ...but its API document then names the server '/', not '/docex'.
    expect(await servers(`${origin}/docex`)).toEqual([{ url: '/' }]);
  });

  it('Express, Fastify: a body parser in front of the handler breaks it', async () => {
    const s = await setup();
    const basic = Buffer.from(`${s.clientId}:${s.clientSecret}`).toString('base64');
    const token = (origin: string) =>
      fetch(`${origin}/docex/oauth2/token`, {
        method: 'POST',
        headers: { authorization: `Basic ${basic}` },
        body: new URLSearchParams({ grant_type: 'client_credentials' }),
      });
    const listener = createNodeListener(s.handler);

    const parsedFirst = express();
    parsedFirst.use(express.urlencoded());
    parsedFirst.use('/docex', (req, res) => {
      req.url = req.originalUrl;
      listener(req, res);
    });
    const expressResponse = await token(await listen(createServer(parsedFirst)));
    expect(expressResponse.status).toBe(400);
    expect(
      ((await expressResponse.json()) as { error: { code: string; message: string } }).error,
    ).toMatchObject({
      code: 'MALFORMED_REQUEST',
      message: expect.stringContaining('before any body parser'),
    });

    // Fastify's own parsers: a form (and a multipart upload) has none, so Fastify answers 415.
    const app = Fastify();
    app.all('/docex/*', (request, reply) => {
      reply.hijack();
      listener(request.raw, reply.raw);
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    cleanups.push(() => app.close());
    const fastifyResponse = await token(`http://127.0.0.1:${(app.server.address() as AddressInfo).port}`);
    expect(fastifyResponse.status).toBe(415);
  });

  it('Fastify: a scope without body parsers, the reply hijacked', async () => {
    const s = await setup();
    const { handler } = s;
    // docs/http.md: fastify
    const listener = createNodeListener(handler);
    const app = Fastify();
    await app.register(async (scope) => {
      // No parser of this scope reads the body: the handler reads the raw request stream.
      scope.removeAllContentTypeParsers();
      scope.addContentTypeParser('*', (_request, _payload, done) => done(null));
      scope.all('/docex/*', (request, reply) => {
        reply.hijack();
        listener(request.raw, reply.raw);
      });
    });
    // end
    app.post('/echo', async (request) => request.body);
    await app.listen({ port: 0, host: '127.0.0.1' });
    cleanups.push(() => app.close());
    const origin = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
    await checkService(`${origin}/docex`, s);
    const echo = await fetch(`${origin}/echo`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ ok: true }),
    });
    expect(await echo.json()).toEqual({ ok: true });
  });

  it('Hono: the web Request passed through', async () => {
    const s = await setup();
    const { handler } = s;
    // docs/http.md: hono
    const app = new Hono();
    app.all('/docex/*', (c) => handler(c.req.raw));
    // end
    const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' });
    await new Promise<void>((resolve) => server.once('listening', () => resolve()));
    cleanups.push(closer(server as Server));
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    await checkService(`${origin}/docex`, s);
  });

  it('node:http: createNodeListener', async () => {
    const s = await setup();
    const { handler } = s;
    // docs/http.md: node
    const server = createServer(createNodeListener(handler));
    // end
    const origin = await listen(server);
    await checkService(`${origin}/docex`, s);
    const outside = await fetch(`${origin}/elsewhere`);
    expect(outside.status).toBe(404);
  });

  it('docs/http.md shows the code these tests run', () => {
    const source = readFileSync(new URL(import.meta.url), 'utf8');
    const docs = readFileSync(new URL('../../docs/http.md', import.meta.url), 'utf8');
    const lines = (text: string) =>
      text
        .split('\n')
        .map((line) => line.trim())
        .filter((line) => line !== '');
    const docLines = lines(docs).join('\n');
    const regions = [...source.matchAll(/\/\/ docs\/http\.md: (\w+)\n([\s\S]*?)\/\/ end\n/g)];
    expect(regions.map((r) => r[1])).toEqual(['setup', 'express', 'fastify', 'hono', 'node']);
    for (const [, name, code] of regions) {
      expect(docLines, `the ${name} example`).toContain(lines(code!).join('\n'));
    }
  });
});
