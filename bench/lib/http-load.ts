/**
 * Pieces of the HTTP benchmark (bench/sections/http.ts): the documents uploaded, the bare node:http
 * baselines, the load client (run in bench/http-client.ts, a child process) and the messages between
 * the two processes.
 */
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { deflateSync } from 'node:zlib';
import busboy from 'busboy';
import {
  PDFDocument,
  StandardFonts,
  concatTransformationMatrix,
  drawObject,
  popGraphicsState,
  pushGraphicsState,
} from 'pdf-lib';
import { mulberry32 } from '../../src/core/random.js';
import { invoicePageItems } from './invoice.js';

const PAGE_WIDTH = 612;
const PAGE_HEIGHT = 792;

// ---------------------------------------------------------------------------------------------------
// Documents

/**
 * A scanned-looking PDF of `pages` pages, each a `width` x `height` 8-bit greyscale image of noise
 * (which deflate cannot shrink: about width x height bytes a page) under an invoice's text layer. The
 * image stream is deflated here with node:zlib and written as is (pdf-lib's embedPng would decode and
 * deflate it again, which takes seconds).
 */
export async function makeLargePdf(pages: number, width: number, height: number): Promise<Uint8Array> {
  const rand = mulberry32(424242);
  const pdf = await PDFDocument.create();
  pdf.setCreationDate(new Date(Date.UTC(2024, 0, 1)));
  pdf.setModificationDate(new Date(Date.UTC(2024, 0, 1)));
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  for (let p = 1; p <= pages; p++) {
    const pixels = new Uint8Array(width * height);
    for (let i = 0; i < pixels.length; i++) pixels[i] = 68 + Math.floor(rand() * 120);
    const image = pdf.context.register(
      pdf.context.stream(deflateSync(pixels, { level: 1 }), {
        Type: 'XObject',
        Subtype: 'Image',
        Width: width,
        Height: height,
        ColorSpace: 'DeviceGray',
        BitsPerComponent: 8,
        Filter: 'FlateDecode',
      }),
    );
    const page = pdf.addPage([PAGE_WIDTH, PAGE_HEIGHT]);
    const name = page.node.newXObject('Scan', image);
    page.pushOperators(
      pushGraphicsState(),
      concatTransformationMatrix(PAGE_WIDTH, 0, 0, PAGE_HEIGHT, 0, 0),
      drawObject(name),
      popGraphicsState(),
    );
    for (const item of invoicePageItems(rand, 900, p)) {
      page.drawText(item.text, { x: item.x, y: item.y, size: item.size, font });
    }
  }
  return pdf.save();
}

/**
 * A short one-page invoice whose text is unique to `n` (invoice number, customer number, amounts), for
 * the load test. About 25 text lines: small (a few KiB) and quick to make.
 */
export async function makeLoadPdf(n: number): Promise<Uint8Array> {
  const rand = mulberry32(77_000 + n);
  const pdf = await PDFDocument.create();
  pdf.setCreationDate(new Date(Date.UTC(2024, 0, 1)));
  pdf.setModificationDate(new Date(Date.UTC(2024, 0, 1)));
  const regular = await pdf.embedFont(StandardFonts.Helvetica);
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
  const page = pdf.addPage([PAGE_WIDTH, PAGE_HEIGHT]);
  const line = (text: string, x: number, y: number, size = 10, heavy = false): void =>
    page.drawText(text, { x, y, size, font: heavy ? bold : regular });
  const money = (v: number): string => v.toFixed(2);
  line('Load Test Supplies Pty Ltd', 48, 740, 16, true);
  line('TAX INVOICE', 420, 740, 15, true);
  line('ABN 51 824 753 556', 48, 720);
  line(`Invoice number: LT-${String(100000 + n)}`, 380, 720);
  line(`Invoice date: ${String(1 + (n % 28)).padStart(2, '0')}/03/2025`, 380, 706);
  line(`Due date: ${String(1 + (n % 28)).padStart(2, '0')}/04/2025`, 380, 692);
  line('Bill to:', 48, 680, 10, true);
  line(`Customer ${n} Holdings`, 48, 666);
  line(`Customer no. C-${String(500000 + n * 7)}`, 48, 652);
  line('Description', 48, 610, 10, true);
  line('Qty', 330, 610, 10, true);
  line('Unit price', 390, 610, 10, true);
  line('Amount', 480, 610, 10, true);
  let y = 594;
  let subtotal = 0;
  for (let r = 0; r < 6; r++) {
    const qty = 1 + Math.floor(rand() * 9);
    const unit = Math.round((5 + rand() * 400) * 100) / 100;
    subtotal += qty * unit;
    line(`Item ${r + 1} for order ${n}`, 48, y);
    line(String(qty), 330, y);
    line(money(unit), 390, y);
    line(money(qty * unit), 480, y);
    y -= 16;
  }
  const gst = subtotal * 0.1;
  line('Subtotal', 390, y - 10);
  line(money(subtotal), 480, y - 10);
  line('GST 10%', 390, y - 26);
  line(money(gst), 480, y - 26);
  line('Total (AUD)', 390, y - 42, 11, true);
  line(money(subtotal + gst), 480, y - 42, 11, true);
  line('BSB 062-000  Account 1234 5678', 48, 120);
  line('Payment due within 30 days.', 48, 104);
  return pdf.save();
}

/** A multipart/form-data body with one file part. */
export function multipartBody(
  field: string,
  fileName: string,
  bytes: Uint8Array,
): { body: Buffer; contentType: string } {
  const boundary = `----docexbench${randomUUID().replace(/-/g, '')}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${fileName}"\r\n` +
      'Content-Type: application/pdf\r\n\r\n',
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return {
    body: Buffer.concat([head, bytes, tail]),
    contentType: `multipart/form-data; boundary=${boundary}`,
  };
}

// ---------------------------------------------------------------------------------------------------
// Servers

/** Listens on 127.0.0.1, an ephemeral port; resolves to the port. */
export async function listen(server: http.Server): Promise<number> {
  // As docex serve does: idle sockets stay open longer than the client's pauses between runs.
  server.keepAliveTimeout = 35_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  return (server.address() as AddressInfo).port;
}

export async function closeServer(server: http.Server): Promise<void> {
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeAllConnections();
  await closed;
}

const JSON_TYPE = 'application/json; charset=utf-8';

/** The result baseline: every request answered with the same bytes (what docex's result endpoint sent). */
export function bareJsonServer(body: Uint8Array): http.Server {
  return http.createServer((req, res) => {
    req.resume();
    res.writeHead(200, {
      'content-type': JSON_TYPE,
      'cache-control': 'no-store',
      'content-length': body.byteLength,
    });
    res.end(body);
  });
}

/** An upload record like docex's, a new id each time. */
function uploadRecord(): string {
  const id = randomUUID();
  return JSON.stringify({ id, fileId: id, uploadedAt: new Date().toISOString(), status: 'RECEIVED' });
}

/**
 * An upload baseline: reads the whole request body, keeps nothing, answers with an upload record
 * (`parse: 'none'`); or parses it with busboy, gathering the file part into one buffer as docex's
 * readMultipart does (`parse: 'busboy'`). Counts the file bytes it saw, to check the client.
 */
export function bareUploadServer(parse: 'none' | 'busboy'): { server: http.Server; fileBytes: () => number } {
  let fileBytes = 0;
  const answer = (res: http.ServerResponse, status = 200): void => {
    const body = status === 200 ? uploadRecord() : '{"error":{"code":"MALFORMED_REQUEST"}}';
    res.writeHead(status, { 'content-type': JSON_TYPE, 'content-length': Buffer.byteLength(body) });
    res.end(body);
  };
  const server = http.createServer((req, res) => {
    if (parse === 'none') {
      req.on('data', (chunk: Buffer) => {
        fileBytes += chunk.length;
      });
      req.on('end', () => answer(res));
      return;
    }
    const parser = busboy({ headers: req.headers, limits: { files: 1 } });
    let file: Buffer | undefined;
    parser.on('file', (_name, stream) => {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        file = Buffer.concat(chunks);
        fileBytes += file.length;
      });
    });
    parser.on('close', () => answer(res, file ? 200 : 400));
    parser.on('error', () => answer(res, 400));
    req.pipe(parser);
  });
  return { server, fileBytes: () => fileBytes };
}

// ---------------------------------------------------------------------------------------------------
// The load client

export interface LoadSpec {
  port: number;
  method: 'GET' | 'POST';
  path: string;
  headers: Record<string, string>;
  /** A file holding the request body (read once by the client). */
  bodyFile?: string;
  concurrency: number;
  seconds: number;
  /** Status every answer must have and, when given, its body size; anything else counts as an error. */
  expectStatus: number;
  expectBytes?: number;
}

export interface LatencySummary {
  mean: number;
  p50: number;
  p99: number;
  max: number;
}

export interface LoadResult {
  /** Answers with the expected status (and size). */
  requests: number;
  errors: number;
  firstError?: string;
  /** First request sent to last answer received. */
  seconds: number;
  requestsPerSecond: number;
  requestBodyBytes: number;
  responseBytes: number;
  latencyMs: LatencySummary;
  /** CPU time of the client process over the run (user + system). */
  clientCpuSeconds: number;
}

export function summarize(values: number[]): LatencySummary {
  if (values.length === 0) return { mean: NaN, p50: NaN, p99: NaN, max: NaN };
  const sorted = Float64Array.from(values).sort();
  const at = (q: number): number => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
  const sum = sorted.reduce((a, b) => a + b, 0);
  return { mean: sum / sorted.length, p50: at(0.5), p99: at(0.99), max: sorted[sorted.length - 1]! };
}

export interface Answer {
  status: number;
  body: Buffer;
}

/** One request on `agent`; the whole answer body is read. */
export function send(
  agent: http.Agent,
  port: number,
  method: string,
  path: string,
  headers: Record<string, string | number>,
  body?: Buffer,
  sockets?: Set<unknown>,
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, method, path, headers, agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    if (sockets) req.once('socket', (socket) => sockets.add(socket));
    req.on('error', reject);
    req.end(body);
  });
}

/**
 * `concurrency` loops, each sending the request as soon as its previous answer is in, until `seconds`
 * have passed; answers are read whole and checked (status, size).
 */
export async function runLoad(spec: LoadSpec, agent: http.Agent, body?: Buffer): Promise<LoadResult> {
  const headers: Record<string, string | number> = { ...spec.headers };
  if (body) headers['content-length'] = body.byteLength;
  const latencies: number[] = [];
  let errors = 0;
  let firstError: string | undefined;
  let responseBytes = 0;
  let last = 0;
  const cpuBefore = process.cpuUsage();
  const start = performance.now();
  const end = start + spec.seconds * 1000;
  const lane = async (): Promise<void> => {
    while (performance.now() < end) {
      const before = performance.now();
      try {
        const answer = await send(agent, spec.port, spec.method, spec.path, headers, body);
        last = performance.now();
        responseBytes += answer.body.byteLength;
        const sizeOk = spec.expectBytes === undefined || answer.body.byteLength === spec.expectBytes;
        if (answer.status === spec.expectStatus && sizeOk) {
          latencies.push(last - before);
        } else {
          errors++;
          firstError ??= `HTTP ${answer.status}, ${answer.body.byteLength} bytes: ${answer.body.toString('utf8', 0, 300)}`;
        }
      } catch (error) {
        last = performance.now();
        errors++;
        firstError ??= (error as Error).message;
      }
    }
  };
  await Promise.all(Array.from({ length: spec.concurrency }, lane));
  const cpu = process.cpuUsage(cpuBefore);
  const seconds = (last - start) / 1000;
  const result: LoadResult = {
    requests: latencies.length,
    errors,
    seconds,
    requestsPerSecond: latencies.length / seconds,
    requestBodyBytes: (body?.byteLength ?? 0) * (latencies.length + errors),
    responseBytes,
    latencyMs: summarize(latencies),
    clientCpuSeconds: (cpu.user + cpu.system) / 1e6,
  };
  if (firstError !== undefined) result.firstError = firstError;
  return result;
}

export interface UploadsSpec {
  port: number;
  /** `Bearer ...` of the account the documents go to. */
  authorization: string;
  count: number;
  workflowId: string;
  productIds: string[];
  resultTimeoutMs: number;
}

/** What happened to one document of the load test, as the client saw it. */
export interface UploadOutcome {
  index: number;
  bytes: number;
  fileId?: string;
  jobId?: string;
  uploadStatus?: number;
  invokeStatus?: number;
  resultStatus?: number;
  /** `status` of the result body (FINALISED, IN PROGRESS). */
  resultState?: string;
  fields?: number;
  error?: string;
  /** Milliseconds from the start of the test. */
  uploadedMs?: number;
  invokedMs?: number;
  resultMs?: number;
}

export interface UploadsResult {
  outcomes: UploadOutcome[];
  /** Making the documents, before the test. */
  makeSeconds: number;
  /** First upload sent to last result received. */
  seconds: number;
  lastUploadSeconds: number;
  lastInvokeSeconds: number;
  /** Connections the client opened. */
  sockets: number;
  clientCpuSeconds: number;
}

/**
 * The load test: `count` unique one-page invoices, all uploaded at once (one connection each), each
 * followed as soon as its upload is answered by an invoke of the extraction workflow and a result
 * request that waits for it.
 */
export async function runUploads(spec: UploadsSpec): Promise<UploadsResult> {
  const made = performance.now();
  const docs = await Promise.all(Array.from({ length: spec.count }, (_, i) => makeLoadPdf(i)));
  const makeSeconds = (performance.now() - made) / 1000;
  const agent = new http.Agent({ keepAlive: true, maxSockets: Infinity });
  const sockets = new Set<unknown>();
  const auth = { authorization: spec.authorization };
  const cpuBefore = process.cpuUsage();
  const start = performance.now();
  const since = (): number => performance.now() - start;
  const one = async (index: number): Promise<UploadOutcome> => {
    const pdf = docs[index]!;
    const outcome: UploadOutcome = { index, bytes: pdf.byteLength };
    try {
      const form = multipartBody('file', `load-${index}.pdf`, pdf);
      const uploaded = await send(
        agent,
        spec.port,
        'POST',
        '/fileupload/v2/multipart',
        { ...auth, 'content-type': form.contentType, 'content-length': form.body.byteLength },
        form.body,
        sockets,
      );
      outcome.uploadStatus = uploaded.status;
      outcome.uploadedMs = since();
      if (uploaded.status !== 200) throw new Error(`upload: HTTP ${uploaded.status} ${text(uploaded)}`);
      const record = JSON.parse(uploaded.body.toString('utf8')) as { id?: string; fileId?: string };
      if (!record.fileId || record.id !== record.fileId) throw new Error(`upload: answer ${text(uploaded)}`);
      outcome.fileId = record.fileId;

      const invokeBody = Buffer.from(
        JSON.stringify({ inputs: { file_id: record.fileId, product_ids: spec.productIds } }),
      );
      const invoked = await send(
        agent,
        spec.port,
        'POST',
        `/workflows/${spec.workflowId}/jobs`,
        { ...auth, 'content-type': 'application/json', 'content-length': invokeBody.byteLength },
        invokeBody,
        sockets,
      );
      outcome.invokeStatus = invoked.status;
      outcome.invokedMs = since();
      if (invoked.status !== 200) throw new Error(`invoke: HTTP ${invoked.status} ${text(invoked)}`);
      const jobId = (JSON.parse(invoked.body.toString('utf8')) as { job?: { id?: string } }).job?.id;
      if (jobId === undefined) throw new Error(`invoke: answer ${text(invoked)}`);
      outcome.jobId = jobId;

      const result = await send(
        agent,
        spec.port,
        'GET',
        `/result/final/${record.fileId}?timeout=${spec.resultTimeoutMs}`,
        auth,
        undefined,
        sockets,
      );
      outcome.resultStatus = result.status;
      outcome.resultMs = since();
      if (result.status !== 200) throw new Error(`result: HTTP ${result.status} ${text(result)}`);
      const answer = JSON.parse(result.body.toString('utf8')) as {
        status?: string;
        results?: { fields?: unknown[] };
      };
      if (answer.status !== undefined) outcome.resultState = answer.status;
      if (answer.results?.fields) outcome.fields = answer.results.fields.length;
    } catch (error) {
      outcome.error = (error as Error).message;
    }
    return outcome;
  };
  let outcomes: UploadOutcome[];
  try {
    outcomes = await Promise.all(docs.map((_, i) => one(i)));
  } finally {
    agent.destroy();
  }
  const cpu = process.cpuUsage(cpuBefore);
  const latest = (key: 'uploadedMs' | 'invokedMs' | 'resultMs'): number =>
    Math.max(0, ...outcomes.map((o) => o[key] ?? 0)) / 1000;
  return {
    outcomes,
    makeSeconds,
    seconds: latest('resultMs'),
    lastUploadSeconds: latest('uploadedMs'),
    lastInvokeSeconds: latest('invokedMs'),
    sockets: sockets.size,
    clientCpuSeconds: (cpu.user + cpu.system) / 1e6,
  };
}

function text(answer: Answer): string {
  return answer.body.toString('utf8', 0, 300);
}

// ---------------------------------------------------------------------------------------------------
// Parent <-> client messages

export type ClientTaskBody =
  { kind: 'load'; spec: LoadSpec } | { kind: 'uploads'; spec: UploadsSpec } | { kind: 'exit' };
export type ClientTask = ClientTaskBody & { id: number };

export type ClientMessage =
  | { type: 'ready' }
  | { type: 'done'; id: number; kind: 'load'; result: LoadResult }
  | { type: 'done'; id: number; kind: 'uploads'; result: UploadsResult }
  | { type: 'failed'; id: number; error: string };
