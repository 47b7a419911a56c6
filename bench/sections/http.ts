/**
 * Section `http` (6): the HTTP surface, createFetchHandler through createNodeListener on node:http
 * (the client a child process, bench/http-client.ts). Result endpoint requests/s against a bare
 * node:http server sending the same bytes; v2 upload MB/s of a 3-page scanned-like PDF against bare
 * node:http reading the body (and parsing it with busboy); where the server's time goes; and a load
 * test of 200 concurrent v2 uploads, each invoking svc.extract, checked for anything lost (the run
 * fails if so, after the results are written).
 */
import { randomBytes } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { createNodeListener } from '../../src/adapters/http/node-listener.js';
import { createMemoryPersistence } from '../../src/adapters/persistence/memory-persistence.js';
import { createPdfjsReader } from '../../src/adapters/pdf/pdfjs-reader.js';
import { createFetchHandler } from '../../src/http/fetch-handler.js';
import { readMultipart } from '../../src/http/multipart.js';
import { TokenService } from '../../src/http/tokens.js';
import { createEngine, type Engine, type ResultRecord } from '../../src/index.js';
import {
  bareJsonServer,
  bareUploadServer,
  closeServer,
  listen,
  makeLargePdf,
  multipartBody,
  summarize,
  type LoadResult,
  type LoadSpec,
  type UploadOutcome,
  type UploadsResult,
} from '../lib/http-load.js';
import { startHttpClient, type HttpClientProcess } from '../lib/http-client-process.js';
import { INVOICE_PAGES, makeInvoicePdf } from '../lib/invoice.js';
import { measureAsync, measureRate } from '../lib/measure.js';
import { fmt, yesNo } from '../lib/report.js';
import type { SectionContext } from '../lib/section.js';
import { info, type SummaryRow } from '../lib/summary-row.js';
import { timedPersistence } from '../lib/timed-persistence.js';

// HTTP: each figure a warm-up, then the median of 3 rounds of 1 s, the cases taking turns.
const HTTP_ROUNDS = 3;
const HTTP_ROUND_SECONDS = 1;
const HTTP_WARMUP_SECONDS = 0.5;
const HTTP_LAYER_SECONDS = 0.5;
const HTTP_RESULT_CONCURRENCY = 50;
const HTTP_UPLOAD_CONCURRENCY = 8;
// About 1.1 MB of image a page: a 3.3 MB PDF, under the default limits (20 MB, 16 pages).
const HTTP_UPLOAD_PAGES = 3;
const HTTP_UPLOAD_PX = [1100, 1000] as const;
const HTTP_LOAD_UPLOADS = 200;
const HTTP_LOAD_TIMEOUT_MS = 180_000;
const HTTP_PRODUCTS = ['invoices:2'];

type HttpRun = LoadResult & { serverCpuSeconds: number };

interface HttpCase {
  name: string;
  spec: LoadSpec;
  /** Run after each run of the case, untimed (clearing what the uploads stored). */
  after?: () => Promise<void>;
}

/** Sums and the median round of one case. */
function httpSummary(runs: HttpRun[], fileBytes?: number) {
  const sorted = [...runs].sort((a, b) => a.requestsPerSecond - b.requestsPerSecond);
  const median = sorted[Math.floor(sorted.length / 2)]!;
  const sum = (pick: (r: HttpRun) => number): number => runs.reduce((a, r) => a + pick(r), 0);
  const requests = sum((r) => r.requests);
  const seconds = sum((r) => r.seconds);
  return {
    requestsPerSecond: median.requestsPerSecond,
    ...(fileBytes === undefined ? {} : { mbPerSecond: (median.requestsPerSecond * fileBytes) / 1e6 }),
    rounds: runs.map((r) => r.requestsPerSecond),
    requests,
    errors: sum((r) => r.errors),
    firstError: runs.find((r) => r.firstError !== undefined)?.firstError,
    seconds,
    latencyMs: median.latencyMs,
    /** CPU time per answered request, in microseconds, of the server process and of the client process. */
    serverCpuUsPerRequest: (sum((r) => r.serverCpuSeconds) * 1e6) / requests,
    clientCpuUsPerRequest: (sum((r) => r.clientCpuSeconds) * 1e6) / requests,
    /** Share of one core each process used while measured. */
    serverCpuShare: sum((r) => r.serverCpuSeconds) / seconds,
    clientCpuShare: sum((r) => r.clientCpuSeconds) / seconds,
  };
}
type HttpSummary = ReturnType<typeof httpSummary>;

/** A warm-up run of each case, then rounds of each in turn (so drift hits every case alike). */
async function httpRounds(client: HttpClientProcess, cases: HttpCase[]): Promise<Map<string, HttpRun[]>> {
  const runs = new Map<string, HttpRun[]>(cases.map((c) => [c.name, []]));
  for (const c of cases) {
    await client.load({ ...c.spec, seconds: HTTP_WARMUP_SECONDS });
    await c.after?.();
  }
  for (let round = 0; round < HTTP_ROUNDS; round++) {
    for (const c of cases) {
      runs.get(c.name)!.push(await client.load(c.spec));
      await c.after?.();
    }
  }
  return runs;
}

async function fetchOk(url: string, init: RequestInit, what: string): Promise<Response> {
  const response = await fetch(url, init);
  if (!response.ok) throw new Error(`bench http: ${what}: HTTP ${response.status} ${await response.text()}`);
  return response;
}

/** An access token of the token endpoint (client credentials, HTTP Basic), as `Bearer ...`. */
async function accessToken(base: string, clientId: string, clientSecret: string): Promise<string> {
  const response = await fetchOk(
    `${base}/oauth2/token`,
    {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString('base64')}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: 'grant_type=client_credentials',
    },
    'token',
  );
  return `Bearer ${((await response.json()) as { access_token: string }).access_token}`;
}

const httpLine = (label: string, s: HttpSummary, unit: string, value: number, extra = ''): string =>
  `   ${label.padEnd(10)}: ${fmt(value, unit)} (rounds: ${s.rounds.map((v) => fmt(v)).join(', ')} req/s;` +
  ` ${s.requests} answers, ${s.errors} errors; latency p50 ${fmt(s.latencyMs.p50, 'ms')}, p99 ${fmt(s.latencyMs.p99, 'ms')})` +
  `\n               CPU per request: server ${fmt(s.serverCpuUsPerRequest, 'us')}, client ${fmt(s.clientCpuUsPerRequest, 'us')};` +
  ` cores busy: server ${fmt(s.serverCpuShare)}, client ${fmt(s.clientCpuShare)}${extra}` +
  (s.firstError ? `\n               first error: ${s.firstError}` : '');

export type HttpSection = Awaited<ReturnType<typeof benchHttp>>;

export async function benchHttp({ tmp, log }: SectionContext) {
  log(
    `\n== 6. HTTP surface: createFetchHandler + createNodeListener on node:http (127.0.0.1), vs bare node:http handlers ==`,
  );
  const dir = path.join(tmp, 'http');
  await mkdir(dir);
  const secret = randomBytes(32);
  // Persistence calls timed (as in section 4), to say how much of a result request they take.
  const timed = timedPersistence(createMemoryPersistence());
  const engine = createEngine({ ingest: { ocr: 'never' }, persistence: timed.persistence });
  const accounts = { result: 'default', upload: 'bench-upload', load: 'bench-load' } as const;
  const servers: http.Server[] = [];
  let client: HttpClientProcess | undefined;
  try {
    await engine.ready;
    const credentials = await Promise.all(
      (Object.keys(accounts) as Array<keyof typeof accounts>).map((name) =>
        engine.createClient(accounts[name], {
          clientId: `bench-${name}`,
          clientSecret: `bench-${name}-secret-${randomBytes(8).toString('hex')}`,
        }),
      ),
    );
    const handler = createFetchHandler(engine, {
      tokens: { secret },
      maxResultWaitMs: HTTP_LOAD_TIMEOUT_MS,
    });
    const server = http.createServer(createNodeListener(handler));
    servers.push(server);
    const port = await listen(server);
    const base = `http://127.0.0.1:${port}`;
    const [resultAuth, uploadAuth, loadAuth] = await Promise.all(
      credentials.map((c) => accessToken(base, c.clientId, c.clientSecret)),
    );
    log(
      `   server: one process, engine createEngine({ ingest: { ocr: 'never' } }) (memory store and persistence),` +
        ` tokens from POST /oauth2/token; client: a child process (node:http, keep-alive agent, one socket per` +
        ` concurrent request); both share the machine's ${os.availableParallelism()} cores` +
        ` (load average ${fmt(os.loadavg()[0])} as the section starts: other work on the machine skews the figures)`,
    );
    log(
      `   each figure: a ${HTTP_WARMUP_SECONDS} s warm-up, then median of ${HTTP_ROUNDS} rounds of ${HTTP_ROUND_SECONDS} s,` +
        ` the cases taking turns; "CPU per request" is process CPU time / answers over the rounds`,
    );
    client = await startHttpClient();

    // --- Result endpoint ---
    const invoice = (await makeInvoicePdf(0, INVOICE_PAGES)).bytes;
    const form = new FormData();
    form.append('file', new Blob([invoice], { type: 'application/pdf' }), 'invoice.pdf');
    const uploaded = (await (
      await fetchOk(
        `${base}/fileupload/v2/multipart`,
        { method: 'POST', headers: { authorization: resultAuth! }, body: form },
        'upload',
      )
    ).json()) as { fileId: string };
    await fetchOk(
      `${base}/workflows/svc.extract/jobs`,
      {
        method: 'POST',
        headers: { authorization: resultAuth!, 'content-type': 'application/json' },
        body: JSON.stringify({ inputs: { file_id: uploaded.fileId, product_ids: HTTP_PRODUCTS } }),
      },
      'invoke',
    );
    const resultPath = `/result/final/${uploaded.fileId}`;
    const waited = (await (
      await fetchOk(
        `${base}${resultPath}?timeout=60000`,
        { headers: { authorization: resultAuth! } },
        'result',
      )
    ).json()) as { status: string };
    if (waited.status !== 'FINALISED') throw new Error(`bench http: the result is ${waited.status}`);
    const resultBytes = new Uint8Array(
      await (
        await fetchOk(`${base}${resultPath}`, { headers: { authorization: resultAuth! } }, 'result')
      ).arrayBuffer(),
    );
    const resultFields = (
      JSON.parse(new TextDecoder().decode(resultBytes)) as ResultRecord & {
        results: { fields: unknown[] };
      }
    ).results.fields.length;
    const bareResult = bareJsonServer(resultBytes);
    servers.push(bareResult);
    const barePort = await listen(bareResult);
    log(
      `\n   result endpoint: GET ${resultPath.replace(uploaded.fileId, '{fileId}')} of a ${INVOICE_PAGES}-page invoice,` +
        ` extracted once (${HTTP_PRODUCTS.join(', ')}: ${resultFields} fields, FINALISED), ${resultBytes.byteLength} bytes of JSON;` +
        ` ${HTTP_RESULT_CONCURRENCY} concurrent requests; bare: node:http answering those bytes (no token check)`,
    );
    const resultSpec = (p: number, headers: Record<string, string>): LoadSpec => ({
      port: p,
      method: 'GET',
      path: resultPath,
      headers,
      concurrency: HTTP_RESULT_CONCURRENCY,
      seconds: HTTP_ROUND_SECONDS,
      expectStatus: 200,
      expectBytes: resultBytes.byteLength,
    });
    const resultRuns = await httpRounds(client, [
      { name: 'docex', spec: resultSpec(port, { authorization: resultAuth! }) },
      { name: 'bare', spec: resultSpec(barePort, { authorization: resultAuth! }) },
    ]);
    const resultOurs = httpSummary(resultRuns.get('docex')!);
    const resultBare = httpSummary(resultRuns.get('bare')!);

    // Where a result request's server time goes: the layers called in this process, no sockets.
    const verifier = new TokenService({ secret });
    const resultUrl = `${base}${resultPath}`;
    const getResult = await measureAsync(
      () => engine.getResult(uploaded.fileId, { accountId: accounts.result }),
      HTTP_RESULT_CONCURRENCY,
      HTTP_LAYER_SECONDS,
      { onStart: () => Object.values(timed.times).forEach((t) => Object.assign(t, { calls: 0, ms: 0 })) },
    );
    // Share of the thread's time in each persistence call while getResult ran (the memory persistence
    // does its work before returning its promise, so call-to-return is its cost).
    const persistenceShare = Object.fromEntries(
      Object.entries(timed.times)
        .filter(([, t]) => t.calls > 0)
        .map(([name, t]) => [name, t.ms / 1000 / getResult.seconds]),
    );
    const resultObject = JSON.parse(new TextDecoder().decode(resultBytes)) as unknown;
    const stringify = measureRate(() => JSON.stringify(resultObject).length, {
      roundSeconds: 0.1,
      rounds: 3,
      warmupSeconds: 0.1,
    });
    const layers = {
      getResult,
      verifyToken: await measureAsync(
        () => verifier.verify(resultAuth!),
        HTTP_RESULT_CONCURRENCY,
        HTTP_LAYER_SECONDS,
      ),
      handler: await measureAsync(
        async () => {
          const response = await handler(new Request(resultUrl, { headers: { authorization: resultAuth! } }));
          return response.arrayBuffer();
        },
        HTTP_RESULT_CONCURRENCY,
        HTTP_LAYER_SECONDS,
      ),
    };
    const resultRatio = resultOurs.requestsPerSecond / resultBare.requestsPerSecond;
    log(httpLine('docex', resultOurs, 'req/s', resultOurs.requestsPerSecond));
    log(httpLine('bare', resultBare, 'req/s', resultBare.requestsPerSecond));
    log(`   ratio docex/bare = ${fmt(resultRatio)}`);
    const adapterUs = resultOurs.serverCpuUsPerRequest - layers.handler.cpuUsPerCall;
    const persistenceText = Object.entries(persistenceShare)
      .map(([name, share]) => `${name} ${fmt(share * 100, '%')}`)
      .join(', ');
    log(
      `   where the server's time goes (CPU per request; the layers timed alone in this process, ${HTTP_RESULT_CONCURRENCY} deep):` +
        ` engine.getResult ${fmt(layers.getResult.cpuUsPerCall, 'us')} (its time in persistence calls: ${persistenceText});` +
        ` token check (jose HS256) ${fmt(layers.verifyToken.cpuUsPerCall, 'us')}; JSON.stringify of the answer ${fmt(1e6 / stringify.perSecond, 'us')};` +
        ` whole fetch handler ${fmt(layers.handler.cpuUsPerCall, 'us')}; node listener + node:http + sockets ${fmt(adapterUs, 'us')}` +
        ` (bare node:http in all: ${fmt(resultBare.serverCpuUsPerRequest, 'us')})`,
    );

    // --- Upload throughput ---
    const bigPdf = await makeLargePdf(HTTP_UPLOAD_PAGES, HTTP_UPLOAD_PX[0], HTTP_UPLOAD_PX[1]);
    const bigForm = multipartBody('file', 'scanned.pdf', bigPdf);
    const bodyFile = path.join(dir, 'upload.multipart');
    await writeFile(bodyFile, bigForm.body);
    const limits = engine.getAccount(accounts.upload).limits;
    if (bigPdf.byteLength > limits.maxFileBytes || HTTP_UPLOAD_PAGES > limits.maxPages) {
      throw new Error('bench http: the upload PDF is over the account limits');
    }
    const discard = bareUploadServer('none');
    const parsing = bareUploadServer('busboy');
    servers.push(discard.server, parsing.server);
    const discardPort = await listen(discard.server);
    const parsingPort = await listen(parsing.server);
    const clearUploads = async (): Promise<void> => {
      for (const f of await engine.listFiles({ accountId: accounts.upload })) {
        await engine.deleteFile(f.fileId, { accountId: accounts.upload });
      }
    };
    log(
      `\n   upload: POST /fileupload/v2/multipart of a ${HTTP_UPLOAD_PAGES}-page PDF, ${fmt(bigPdf.byteLength / 1e6, 'MB')}` +
        ` (each page a ${HTTP_UPLOAD_PX[0]} x ${HTTP_UPLOAD_PX[1]} greyscale noise image under an invoice's text),` +
        ` ${bigForm.body.byteLength} bytes a request; ${HTTP_UPLOAD_CONCURRENCY} concurrent uploads; MB/s = 10^6 bytes of PDF/s;` +
        ` bare: node:http reading the body and dropping it, and node:http + busboy gathering the file part`,
    );
    const uploadSpec = (p: number, headers: Record<string, string>): LoadSpec => ({
      port: p,
      method: 'POST',
      path: '/fileupload/v2/multipart',
      headers: { ...headers, 'content-type': bigForm.contentType },
      bodyFile,
      concurrency: HTTP_UPLOAD_CONCURRENCY,
      seconds: HTTP_ROUND_SECONDS,
      expectStatus: 200,
    });
    const uploadRuns = await httpRounds(client, [
      { name: 'docex', spec: uploadSpec(port, { authorization: uploadAuth! }), after: clearUploads },
      { name: 'bare', spec: uploadSpec(discardPort, {}) },
      { name: 'busboy', spec: uploadSpec(parsingPort, {}) },
    ]);
    const uploadOurs = httpSummary(uploadRuns.get('docex')!, bigPdf.byteLength);
    const uploadBare = httpSummary(uploadRuns.get('bare')!, bigPdf.byteLength);
    const uploadBusboy = httpSummary(uploadRuns.get('busboy')!, bigPdf.byteLength);
    const pdfReader = createPdfjsReader();
    const uploadLayers = {
      uploadV2: await measureAsync(
        () => engine.uploadV2(bigPdf, { accountId: accounts.upload }),
        HTTP_UPLOAD_CONCURRENCY,
        HTTP_LAYER_SECONDS,
      ),
      pageCount: await measureAsync(
        async () => {
          const doc = await pdfReader.open(bigPdf);
          const pages = doc.pageCount;
          await doc.close();
          return pages;
        },
        HTTP_UPLOAD_CONCURRENCY,
        HTTP_LAYER_SECONDS,
      ),
      multipart: await measureAsync(
        () =>
          readMultipart(
            new Request(`${base}/fileupload/v2/multipart`, {
              method: 'POST',
              headers: { 'content-type': bigForm.contentType },
              body: bigForm.body,
            }),
            { fileFields: ['file'], maxFileBytes: limits.maxFileBytes },
          ),
        HTTP_UPLOAD_CONCURRENCY,
        HTTP_LAYER_SECONDS,
      ),
    };
    await clearUploads();
    const uploadUrl = `${base}/fileupload/v2/multipart`;
    const uploadHandler = await measureAsync(
      async () => {
        const response = await handler(
          new Request(uploadUrl, {
            method: 'POST',
            headers: { authorization: uploadAuth!, 'content-type': bigForm.contentType },
            body: bigForm.body,
          }),
        );
        if (response.status !== 200) throw new Error(`bench http: handler upload: ${await response.text()}`);
        return response.arrayBuffer();
      },
      HTTP_UPLOAD_CONCURRENCY,
      HTTP_LAYER_SECONDS,
    );
    await clearUploads();
    const uploadRatio = uploadOurs.mbPerSecond! / uploadBare.mbPerSecond!;
    const busboyRatio = uploadOurs.mbPerSecond! / uploadBusboy.mbPerSecond!;
    const perSecond = (s: HttpSummary): string => `, ${fmt(s.requestsPerSecond, 'uploads/s')}`;
    log(httpLine('docex', uploadOurs, 'MB/s', uploadOurs.mbPerSecond!, perSecond(uploadOurs)));
    log(httpLine('bare', uploadBare, 'MB/s', uploadBare.mbPerSecond!, perSecond(uploadBare)));
    log(httpLine('busboy', uploadBusboy, 'MB/s', uploadBusboy.mbPerSecond!, perSecond(uploadBusboy)));
    log(`   ratio docex/bare = ${fmt(uploadRatio)}, docex/busboy = ${fmt(busboyRatio)}`);
    log(
      `   where the server's time goes (CPU per upload; timed alone in this process, ${HTTP_UPLOAD_CONCURRENCY} deep):` +
        ` readMultipart (busboy) ${fmt(uploadLayers.multipart.cpuUsPerCall, 'us')};` +
        ` engine.uploadV2 ${fmt(uploadLayers.uploadV2.cpuUsPerCall, 'us')} (of which the page count with pdf.js ${fmt(uploadLayers.pageCount.cpuUsPerCall, 'us')});` +
        ` whole fetch handler (token, both) ${fmt(uploadHandler.cpuUsPerCall, 'us')};` +
        ` over HTTP ${fmt(uploadOurs.serverCpuUsPerRequest, 'us')} (bare ${fmt(uploadBare.serverCpuUsPerRequest, 'us')},` +
        ` busboy ${fmt(uploadBusboy.serverCpuUsPerRequest, 'us')})`,
    );

    // --- Load test ---
    log(
      `\n   load test: ${HTTP_LOAD_UPLOADS} unique one-page invoices uploaded at once (one connection each), each then` +
        ` POST /workflows/svc.extract/jobs and GET /result/final/{fileId}?timeout=${HTTP_LOAD_TIMEOUT_MS}` +
        ` (jobs: { concurrency: 4 }, the default)`,
    );
    const finalStatus = new Map<string, string>();
    const unsubscribe = engine.on('job', ({ accountId, job }) => {
      if (accountId === accounts.load && job.workflow_id === 'svc.extract')
        finalStatus.set(job.id, job.status);
    });
    let load: UploadsResult;
    try {
      load = await client.uploads(
        {
          port,
          authorization: loadAuth!,
          count: HTTP_LOAD_UPLOADS,
          workflowId: 'svc.extract',
          productIds: HTTP_PRODUCTS,
          resultTimeoutMs: HTTP_LOAD_TIMEOUT_MS,
        },
        HTTP_LOAD_TIMEOUT_MS + 60_000,
      );
    } finally {
      unsubscribe();
    }
    const loadTest = await checkLoadTest(engine, accounts.load, load, finalStatus);
    log(
      `   ${loadTest.ok ? 'nothing lost' : 'FAILED'}: ${loadTest.uploadsOk}/${HTTP_LOAD_UPLOADS} uploads answered 200,` +
        ` ${loadTest.distinctFileIds} distinct fileIds, ${loadTest.storedFiles} files in engine.listFiles() (${loadTest.sizesMatching} of the sent size),` +
        ` ${loadTest.invokesOk} invokes 200, ${loadTest.jobsSucceeded} jobs succeeded (${loadTest.jobsFailed} failed, events: ${loadTest.succeededEvents} succeeded),` +
        ` ${loadTest.finalised} results FINALISED, ${loadTest.httpErrors} HTTP errors`,
    );
    log(
      `   time: ${fmt(load.seconds, 's')} from the first upload to the last result = ${fmt(HTTP_LOAD_UPLOADS / load.seconds, 'documents/s')};` +
        ` last upload answered at ${fmt(load.lastUploadSeconds, 's')}, last invoke at ${fmt(load.lastInvokeSeconds, 's')};` +
        ` ${load.sockets} connections; ${fmt(loadTest.meanKib, 'KiB')} a PDF (made in ${fmt(load.makeSeconds, 's')} beforehand);` +
        ` fields per result ${loadTest.fieldsRange}; upload latency p50 ${fmt(loadTest.uploadLatencyMs.p50, 'ms')},` +
        ` p99 ${fmt(loadTest.uploadLatencyMs.p99, 'ms')}`,
    );
    for (const problem of loadTest.problems.slice(0, 10)) log(`     problem: ${problem}`);
    return {
      server: 'createFetchHandler + createNodeListener, node:http, 127.0.0.1',
      client: 'child process, node:http keep-alive agent, one socket per concurrent request',
      rounds: HTTP_ROUNDS,
      roundSeconds: HTTP_ROUND_SECONDS,
      warmupSeconds: HTTP_WARMUP_SECONDS,
      result: {
        concurrency: HTTP_RESULT_CONCURRENCY,
        bodyBytes: resultBytes.byteLength,
        fields: resultFields,
        docex: resultOurs,
        baseline: { kind: 'bare node:http, the same bytes', ...resultBare },
        ratio: resultRatio,
        inProcessCpuUsPerCall: {
          getResult: layers.getResult.cpuUsPerCall,
          verifyToken: layers.verifyToken.cpuUsPerCall,
          fetchHandler: layers.handler.cpuUsPerCall,
          nodeListenerAndHttp: adapterUs,
          jsonStringify: 1e6 / stringify.perSecond,
          getResultPersistenceShare: persistenceShare,
        },
        inProcessCallsPerSecond: {
          getResult: layers.getResult.perSecond,
          verifyToken: layers.verifyToken.perSecond,
          fetchHandler: layers.handler.perSecond,
        },
      },
      upload: {
        concurrency: HTTP_UPLOAD_CONCURRENCY,
        pdfBytes: bigPdf.byteLength,
        pages: HTTP_UPLOAD_PAGES,
        requestBytes: bigForm.body.byteLength,
        docex: uploadOurs,
        baseline: { kind: 'bare node:http reading the body', ...uploadBare },
        busboyBaseline: { kind: 'bare node:http + busboy', ...uploadBusboy },
        ratio: uploadRatio,
        busboyRatio,
        inProcessCpuUsPerCall: {
          readMultipart: uploadLayers.multipart.cpuUsPerCall,
          uploadV2: uploadLayers.uploadV2.cpuUsPerCall,
          pageCount: uploadLayers.pageCount.cpuUsPerCall,
          fetchHandler: uploadHandler.cpuUsPerCall,
        },
        inProcessMbPerSecond: {
          uploadV2: (uploadLayers.uploadV2.perSecond * bigPdf.byteLength) / 1e6,
          fetchHandler: (uploadHandler.perSecond * bigPdf.byteLength) / 1e6,
        },
      },
      loadTest: {
        ...loadTest,
        uploads: HTTP_LOAD_UPLOADS,
        seconds: load.seconds,
        documentsPerSecond: HTTP_LOAD_UPLOADS / load.seconds,
        lastUploadSeconds: load.lastUploadSeconds,
        lastInvokeSeconds: load.lastInvokeSeconds,
        connections: load.sockets,
        makeSeconds: load.makeSeconds,
        clientCpuSeconds: load.clientCpuSeconds,
      },
    };
  } finally {
    await client?.close();
    await Promise.all(servers.map(closeServer));
    await engine.close();
  }
}

/** Everything the load test must show: each document uploaded, stored, extracted and answered once. */
async function checkLoadTest(
  engine: Engine,
  accountId: string,
  load: UploadsResult,
  finalStatus: Map<string, string>,
) {
  const problems: string[] = [];
  const outcomes = load.outcomes;
  for (const o of outcomes) if (o.error) problems.push(`document ${o.index}: ${o.error}`);
  const fileIds = new Set(outcomes.flatMap((o) => (o.fileId ? [o.fileId] : [])));
  const jobIds = new Set(outcomes.flatMap((o) => (o.jobId ? [o.jobId] : [])));
  const stored = await engine.listFiles({ accountId });
  const storedById = new Map(stored.map((f) => [f.fileId, f]));
  const sizesMatching = outcomes.filter((o) => o.fileId && storedById.get(o.fileId)?.size === o.bytes).length;
  const jobs = await engine.listJobs({ accountId });
  const succeeded = jobs.filter((j) => j.status === 'succeeded' && jobIds.has(j.id)).length;
  const failed = jobs.filter((j) => j.status === 'failed').length;
  const succeededEvents = [...finalStatus.values()].filter((s) => s === 'succeeded').length;
  const count = (pick: (o: UploadOutcome) => boolean): number => outcomes.filter(pick).length;
  const check = {
    uploadsOk: count((o) => o.uploadStatus === 200),
    distinctFileIds: fileIds.size,
    storedFiles: stored.length,
    sizesMatching,
    invokesOk: count((o) => o.invokeStatus === 200),
    distinctJobIds: jobIds.size,
    jobsSucceeded: succeeded,
    jobsFailed: failed,
    jobsOther: jobs.length - succeeded - failed,
    succeededEvents,
    finalised: count((o) => o.resultState === 'FINALISED'),
    httpErrors: count(
      (o) =>
        (o.uploadStatus ?? 200) !== 200 || (o.invokeStatus ?? 200) !== 200 || (o.resultStatus ?? 200) !== 200,
    ),
  };
  const want = HTTP_LOAD_UPLOADS;
  const expectations: Array<[keyof typeof check, number]> = [
    ['uploadsOk', want],
    ['distinctFileIds', want],
    ['storedFiles', want],
    ['sizesMatching', want],
    ['invokesOk', want],
    ['distinctJobIds', want],
    ['jobsSucceeded', want],
    ['jobsFailed', 0],
    ['jobsOther', 0],
    ['succeededEvents', want],
    ['finalised', want],
    ['httpErrors', 0],
  ];
  for (const [key, value] of expectations) {
    if (check[key] !== value) problems.push(`${key} is ${check[key]}, expected ${value}`);
  }
  const missing = [...fileIds].filter((id) => !storedById.has(id));
  if (missing.length > 0) problems.push(`${missing.length} uploaded fileIds not in listFiles()`);
  const fields = outcomes.map((o) => o.fields ?? 0);
  return {
    ok: problems.length === 0,
    ...check,
    problems,
    meanKib: outcomes.reduce((a, o) => a + o.bytes, 0) / outcomes.length / 1024,
    fieldsRange: `${Math.min(...fields)}-${Math.max(...fields)}`,
    uploadLatencyMs: summarize(outcomes.flatMap((o) => (o.uploadedMs === undefined ? [] : [o.uploadedMs]))),
  };
}

export function httpSummaryRows({ result, upload, loadTest }: HttpSection): SummaryRow[] {
  return [
    {
      metric: `HTTP result endpoint, req/s at ${result.concurrency} concurrent (vs bare node:http, same bytes)`,
      docex: fmt(result.docex.requestsPerSecond),
      baseline: fmt(result.baseline.requestsPerSecond),
      ratio: fmt(result.ratio),
      target: '-',
      met: '-',
    },
    {
      metric: `HTTP v2 upload, ${fmt(upload.pdfBytes / 1e6, 'MB')} PDF, MB/s at ${upload.concurrency} concurrent (vs bare node:http reading the body)`,
      docex: fmt(upload.docex.mbPerSecond),
      baseline: fmt(upload.baseline.mbPerSecond),
      ratio: fmt(upload.ratio),
      target: '-',
      met: '-',
    },
    {
      metric: '  same, vs bare node:http + busboy',
      docex: fmt(upload.docex.mbPerSecond),
      baseline: fmt(upload.busboyBaseline.mbPerSecond),
      ratio: fmt(upload.busboyRatio),
      target: '-',
      met: '-',
    },
    {
      metric: `HTTP load test: ${loadTest.uploads} concurrent uploads + svc.extract, all stored and succeeded`,
      docex: `${Math.min(loadTest.storedFiles, loadTest.jobsSucceeded, loadTest.finalised)}/${loadTest.uploads}`,
      baseline: '-',
      ratio: '-',
      target: `${loadTest.uploads}/${loadTest.uploads}`,
      met: yesNo(loadTest.ok),
    },
    info('HTTP load test: first upload to last result', fmt(loadTest.seconds, 's')),
    info(
      '  info: result endpoint, server CPU per request (bare node:http)',
      `${fmt(result.docex.serverCpuUsPerRequest, 'us')} (${fmt(result.baseline.serverCpuUsPerRequest, 'us')})`,
    ),
  ];
}

/** Why the run must fail: the load test lost documents. */
export function httpFailure(section: HttpSection): string | undefined {
  if (section.loadTest.ok) return undefined;
  return `bench http: the load test lost documents:\n  ${section.loadTest.problems.slice(0, 20).join('\n  ')}`;
}
