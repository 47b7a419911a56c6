/**
 * The HTTP tests' harness: an engine behind `createFetchHandler`, called in the process with `Request`s
 * (test/helpers/request.ts; no socket), and small clients that take either that handler or the URL of
 * a real server. `listen` puts a handler on `node:http` (port 0) for the tests that need a socket, and
 * `raw` sends over one what fetch will not send (any headers, bodies cut off).
 */
import { createServer, request as httpRequest, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createNodeListener } from '../../src/adapters/http/node-listener.js';
import {
  createFetchHandler,
  type FetchHandler,
  type FetchHandlerOptions,
} from '../../src/http/fetch-handler.js';
import { createEngine, type Engine, type EngineOptions } from '../../src/index.js';
import { INVOICE_LINES, makeTextPdf, type TextLine } from '../helpers/make-documents.js';
import { request } from '../helpers/request.js';

/** A parsed JSON answer: the tests read it freely and let the assertions say what is wrong. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Json = any;

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
/** ISO 8601 UTC with milliseconds and a trailing Z. */
export const ISO_MS_Z = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
/** ISO 8601 with microseconds and no zone suffix (the job record's `created`). */
export const ISO_US = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}$/;

export interface Listening {
  server: Server;
  url: string;
  port: number;
  /** Closes every connection (long polls included) and the server. */
  close(): Promise<void>;
}

/** A node:http server around a fetch handler on 127.0.0.1, port 0. */
export async function listen(
  handler: FetchHandler,
  options: { trustProxy?: boolean } = {},
): Promise<Listening> {
  const server = createServer(createNodeListener(handler, options));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    server,
    port,
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

export interface Harness {
  engine: Engine;
  /** The fetch handler: `call(h.handler, '/tasks', ...)` calls it in the process, without a socket. */
  handler: FetchHandler;
  /** Creates a client of `accountId` and answers a bearer token for it. */
  login(accountId: string, clientId?: string): Promise<string>;
  close(): Promise<void>;
}

export const TOKEN_SECRET = 'docex-http-tests-token-secret-0123456789';

/** An engine (text layer only, no OCR: fast) behind the HTTP surface, called in the process. */
export async function startHarness(
  options: { engine?: EngineOptions; http?: FetchHandlerOptions } = {},
): Promise<Harness> {
  const engine = createEngine({ ingest: { ocr: 'never' }, ...options.engine });
  const handler = createFetchHandler(engine, { tokens: { secret: TOKEN_SECRET }, ...options.http });
  let clients = 0;
  return {
    engine,
    handler,
    async login(accountId, clientId = `${accountId}-client-${++clients}`) {
      const secret = `${clientId}-secret-0123456789`;
      await engine.createClient(accountId, { clientId, clientSecret: secret });
      return token(handler, clientId, secret);
    },
    close: () => engine.close(),
  };
}

/** Where a test's requests go: a fetch handler (called in the process) or a server's URL (over a socket). */
export type Target = FetchHandler | string;

export interface Answer {
  status: number;
  headers: Headers;
  text: string;
  /** The body parsed as JSON (undefined when it is not JSON). */
  body: Json;
}

export interface CallOptions {
  method?: string;
  token?: string;
  /** Sent as JSON (with Content-Type: application/json). */
  json?: unknown;
  body?: RequestInit['body'];
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

/** A request to the handler (or with global fetch to a URL); the answer's body read and parsed. */
export async function call(to: Target, path: string, options: CallOptions = {}): Promise<Answer> {
  const headers: Record<string, string> = { accept: 'application/json', ...options.headers };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  let body = options.body;
  if (options.json !== undefined) {
    body = JSON.stringify(options.json);
    headers['content-type'] ??= 'application/json';
  }
  const init: RequestInit = {
    method: options.method ?? (body === undefined ? 'GET' : 'POST'),
    headers,
    ...(body !== undefined ? { body } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
  };
  const response = typeof to === 'string' ? await fetch(to + path, init) : await request(to, path, init);
  const text = await response.text();
  return { status: response.status, headers: response.headers, text, body: parse(text) };
}

function parse(text: string): Json {
  try {
    return JSON.parse(text) as Json;
  } catch {
    return undefined;
  }
}

/** An access token by HTTP Basic client authentication. */
export async function token(to: Target, clientId: string, secret: string): Promise<string> {
  const answer = await call(to, '/oauth2/token', {
    body: new URLSearchParams({ grant_type: 'client_credentials' }),
    headers: { authorization: `Basic ${Buffer.from(`${clientId}:${secret}`).toString('base64')}` },
  });
  if (answer.status !== 200) throw new Error(`token: ${answer.status} ${answer.text}`);
  return (answer.body as { access_token: string }).access_token;
}

/** A multipart/form-data upload of `bytes` in part `field`, with text fields (repeated when a list). */
export function form(
  field: string,
  bytes: Uint8Array | undefined,
  fileName = 'document.pdf',
  fields: Record<string, string | string[]> = {},
): FormData {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) {
    for (const v of Array.isArray(value) ? value : [value]) data.append(name, v);
  }
  if (bytes) data.append(field, new Blob([bytes], { type: 'application/octet-stream' }), fileName);
  return data;
}

export const BOUNDARY = '----docex-test-boundary-7MA4YWxkTrZu0gW';

export type Part = { name: string; value: string } | { name: string; filename: string; content: Uint8Array };

/** A multipart body written by hand (for bodies FormData cannot make). */
export function multipartBody(parts: Part[], boundary = BOUNDARY, close = true): Buffer {
  const chunks: Buffer[] = [];
  for (const part of parts) {
    if ('filename' in part) {
      chunks.push(
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="${part.name}"; filename="${part.filename}"\r\n` +
            'Content-Type: application/octet-stream\r\n\r\n',
        ),
        Buffer.from(part.content),
        Buffer.from('\r\n'),
      );
    } else {
      chunks.push(
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="${part.name}"\r\n\r\n${part.value}\r\n`,
        ),
      );
    }
  }
  if (close) chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return Buffer.concat(chunks);
}

export interface RawAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
  body: Json;
}

/** A request with node:http to a server, body sent as given (any headers, any bytes). */
export function raw(
  url: string,
  path: string,
  options: { method?: string; headers?: Record<string, string | number>; body?: Uint8Array | string } = {},
): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url + path, { method: options.method ?? 'POST', headers: options.headers ?? {} });
    req.on('error', reject);
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('error', reject);
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text, body: parse(text) });
      });
    });
    req.end(options.body);
  });
}

/** A result, waiting for pending work up to `timeoutMs` (`?timeout=`). */
export async function result(
  to: Target,
  token: string,
  fileId: string,
  query = 'timeout=20000',
): Promise<Answer> {
  return call(to, `/result/final/${fileId}${query ? `?${query}` : ''}`, { token });
}

/** Polls until `check` gives a value (at most `ms`). */
export async function eventually<T>(check: () => Promise<T | undefined>, ms = 15_000): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > until) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** Result fields by name. */
export function fieldsByName(body: Json): Record<string, Json> {
  return Object.fromEntries((body.results.fields as Json[]).map((f: Json) => [f.name as string, f]));
}

let invoice: Promise<Uint8Array> | undefined;
/** The generated one-page invoice: ACME Supplies Pty Ltd, INV-20931, 14 March 2024, total 150.00. */
export function invoicePdf(): Promise<Uint8Array> {
  invoice ??= makeTextPdf([{ lines: INVOICE_LINES }]);
  return invoice;
}

/** A second invoice: Bluegum Timber Co, BT-77120, 2 May 2024, total 480.00. */
export const SECOND_INVOICE_LINES: TextLine[] = [
  { text: 'Bluegum Timber Co', x: 50, y: 70, size: 20, bold: true },
  { text: 'TAX INVOICE', x: 400, y: 70, size: 16, bold: true },
  { text: 'Invoice Number: BT-77120', x: 50, y: 140, size: 12 },
  { text: 'Invoice Date: 2 May 2024', x: 50, y: 160, size: 12 },
  { text: 'Description Quantity Amount', x: 50, y: 230, size: 12, bold: true },
  { text: 'Hardwood planks 10 480.00', x: 50, y: 250, size: 12 },
  { text: 'Total 480.00', x: 50, y: 320, size: 14, bold: true },
];

/** Two invoices in one file, one page each. */
export function twoInvoicesPdf(): Promise<Uint8Array> {
  return makeTextPdf([{ lines: INVOICE_LINES }, { lines: SECOND_INVOICE_LINES }]);
}

/** A PDF of `pages` pages of the first invoice. */
export function pagesPdf(pages: number): Promise<Uint8Array> {
  return makeTextPdf(Array.from({ length: pages }, () => ({ lines: INVOICE_LINES })));
}

/** Field names of each built-in fieldset, in catalogue order (docs/decisions.md). */
export const FIELDSET_FIELDS = {
  document: [
    'document.date',
    'document.referenceNo',
    'document.type',
    'document.currency',
    'document.supplierName',
    'document.supplierAddress',
    'document.supplierABN',
    'document.supplierTaxId',
    'document.customerName',
  ],
  invoice: [
    'invoice.total',
    'invoice.subTotal',
    'invoice.tax',
    'invoice.amountDue',
    'invoice.amountPaid',
    'invoice.dueDate',
    'invoice.paymentDate',
    'invoice.purchaseOrderNo',
    'invoice.lineitems',
  ],
  bank: ['bank.accountNo', 'bank.bsb', 'bank.iban', 'bank.bic'],
  bpay: ['bpay.billerCode', 'bpay.crn'],
  receipt: ['receipt.total', 'receipt.tax', 'receipt.paymentMethod'],
} as const;
