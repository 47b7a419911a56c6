/**
 * Section `hostile` (10): `docex serve` with its defaults (a child process, a fresh data directory for each
 * case) fed the hostile corpus over HTTP, one file at a time and four at once. For each case: how it
 * ended (the error code, or FINALISED), how long until it ended, the server's peak resident memory
 * (VmHWM, Linux) and the worst wait of another client meanwhile (an authenticated request every 100 ms
 * from another account). The baseline, measured the same way in the same run: an ordinary invoice.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import path from 'node:path';
import { deflateSync } from 'node:zlib';
import {
  flateContentBomb,
  flateImageBomb,
  jpegHeaderBomb,
  longString,
  manyImages,
  manyShapes,
  manyWords,
  nestedSaves,
  writePdf,
} from '../../support/hostile-pdfs.js';
import { docexBin } from '../lib/paths.js';
import { fmt, na, yesNo } from '../lib/report.js';
import type { SectionContext } from '../lib/section.js';
import { info, type SummaryRow } from '../lib/summary-row.js';

/** A parsed JSON answer, read freely. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

export interface HostileCase {
  name: string;
  files: Uint8Array[];
}

export interface HostileRow {
  name: string;
  bytes: number;
  outcomes: string[];
  seconds: number;
  peakMb: number;
  worstWaitMs: number;
}

const A = { id: 'bench-a', secret: 'bench-a-secret-0123456789', account: 'a' };
const B = { id: 'bench-b', secret: 'bench-b-secret-0123456789', account: 'b' };

/** An ordinary one-page invoice in a few lines of text. */
function ordinaryInvoice(): Uint8Array {
  const lines = [
    'ACME Supplies Pty Ltd',
    'TAX INVOICE',
    'Invoice Number: INV-20931',
    'Invoice Date: 14 March 2024',
    'Total 150.00',
  ];
  const content = lines.map((l, i) => `BT /F1 12 Tf 50 ${780 - i * 20} Td (${l}) Tj ET`).join('\n');
  const stream = deflateSync(Buffer.from(content));
  return writePdf([
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
    Buffer.concat([
      Buffer.from(`<< /Filter /FlateDecode /Length ${stream.length} >>\nstream\n`),
      stream,
      Buffer.from('\nendstream'),
    ]),
  ]);
}

export function hostileCases(): HostileCase[] {
  const one = (name: string, bytes: Uint8Array): HostileCase => ({ name, files: [bytes] });
  const four = (name: string, make: () => Uint8Array): HostileCase => ({
    name: `4 at once: ${name}`,
    files: Array.from({ length: 4 }, make),
  });
  return [
    one('baseline: ordinary invoice', ordinaryInvoice()),
    one('JPEG 16x16 declaring 65000x65000', jpegHeaderBomb(65_000)),
    one('same, filter by reference', jpegHeaderBomb(65_000, 16, { hidden: true })),
    one('content stream 1 MB -> 1 GiB', flateContentBomb(1024)),
    one('Flate picture 60000x60000', flateImageBomb(60_000, 1024)),
    one('q nested 20,000 deep', nestedSaves(20_000)),
    one('q nested 300,000 deep', nestedSaves(300_000)),
    one('200,000 words', manyWords(200_000)),
    one('one string of 20M characters', longString(20_000_000)),
    one('1,000,000 coloured rectangles', manyShapes(1_000_000)),
    one('40 pictures of 36M pixels', manyImages(40, 6000)),
    four('40 pictures of 36M pixels', () => manyImages(40, 6000)),
    four('one string of 20M characters', () => longString(20_000_000)),
    four('q nested 300,000 deep', () => nestedSaves(300_000)),
  ];
}

async function call(
  url: string,
  route: string,
  init: { token?: string; body?: RequestInit['body']; json?: unknown; method?: string } = {},
): Promise<{ status: number; body: Json }> {
  const headers: Record<string, string> = {};
  if (init.token) headers.authorization = `Bearer ${init.token}`;
  let body = init.body;
  if (init.json !== undefined) {
    body = JSON.stringify(init.json);
    headers['content-type'] = 'application/json';
  }
  const response = await fetch(url + route, {
    method: init.method ?? (body === undefined ? 'GET' : 'POST'),
    headers,
    ...(body !== undefined ? { body } : {}),
  });
  const text = await response.text();
  let parsed: Json;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  return { status: response.status, body: parsed };
}

async function bearer(url: string, client: { id: string; secret: string }): Promise<string> {
  const answer = await call(url, '/oauth2/token', {
    body: new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: client.id,
      client_secret: client.secret,
    }),
  });
  return answer.body.access_token as string;
}

async function startServe(bin: string, dataDir: string): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(
    process.execPath,
    [
      bin,
      'serve',
      '--port',
      '0',
      '--data-dir',
      dataDir,
      '--client',
      `${A.id}:${A.secret}:${A.account}`,
      '--client',
      `${B.id}:${B.secret}:${B.account}`,
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let out = '';
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout!.setEncoding('utf8').on('data', (text: string) => {
      out += text;
      const found = /listening on (http:\/\/\S+)/.exec(out);
      if (found) resolve(found[1]!);
    });
    child.once('exit', () => reject(new Error('docex serve ended before it listened')));
  });
  return { child, url };
}

function peakMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmHWM:\s+(\d+) kB/.exec(status)?.[1] ?? NaN) / 1024;
}

/** One case on a fresh server: upload and extract every file at once, wait for each end. */
async function runCase(bin: string, tmp: string, hostile: HostileCase): Promise<HostileRow> {
  const dataDir = await mkdtemp(path.join(tmp, 'hostile-'));
  const { child, url } = await startServe(bin, dataDir);
  try {
    const [tokenA, tokenB] = await Promise.all([bearer(url, A), bearer(url, B)]);
    // Another client, meanwhile: one authenticated request every 100 ms, its wait recorded.
    let worst = 0;
    let probing = true;
    const probe = (async () => {
      while (probing) {
        const start = performance.now();
        await call(url, '/tasks', { token: tokenB });
        worst = Math.max(worst, performance.now() - start);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    })();
    const start = performance.now();
    const outcomes = await Promise.all(
      hostile.files.map(async (bytes) => {
        const data = new FormData();
        data.append('file', new Blob([bytes]), 'hostile.pdf');
        const uploaded = await call(url, '/fileupload/v2/multipart', { token: tokenA, body: data });
        if (uploaded.status !== 200) return `upload ${uploaded.status} ${uploaded.body?.error?.code ?? ''}`;
        const fileId = uploaded.body.fileId as string;
        await call(url, '/workflows/svc.extract/jobs', {
          token: tokenA,
          json: { inputs: { file_id: fileId, product_ids: ['invoices:2'] } },
        });
        for (;;) {
          const answer = await call(url, `/result/final/${fileId}?timeout=10000`, { token: tokenA });
          if (answer.status !== 200) return `${answer.status} ${answer.body?.error?.code ?? ''}`;
          if (answer.body.status === 'FINALISED') return 'FINALISED';
        }
      }),
    );
    const seconds = (performance.now() - start) / 1000;
    probing = false;
    await probe;
    return {
      name: hostile.name,
      bytes: hostile.files.reduce((n, f) => n + f.length, 0),
      outcomes,
      seconds,
      peakMb: peakMb(child.pid!),
      worstWaitMs: worst,
    };
  } finally {
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
    await rm(dataDir, { recursive: true, force: true });
  }
}

export type HostileSection = { rows: HostileRow[] } | { ok: false; reason: string };

/** The section: `n/a` without the docex command (dist/src compiled). */
export async function benchHostile({ tmp, log }: SectionContext): Promise<HostileSection> {
  const found = docexBin();
  return 'reason' in found ? { ok: false, reason: found.reason } : await measureHostile(found.bin, tmp, log);
}

async function measureHostile(
  bin: string,
  tmp: string,
  log: (text: string) => void,
): Promise<{ rows: HostileRow[] }> {
  log('\n== 10. Hostile PDFs: docex serve (defaults) as a child process, a fresh server per case ==');
  if (process.platform !== 'linux') {
    log('   n/a (peak memory is read from /proc: Linux only)');
    return { rows: [] };
  }
  const rows: HostileRow[] = [];
  log(
    `   ${'case'.padEnd(42)} ${'KB'.padStart(7)}  ${'ended'.padEnd(34)} ${'s'.padStart(6)} ${'peak MB'.padStart(8)} ${'worst wait ms'.padStart(14)}`,
  );
  for (const hostile of hostileCases()) {
    const row = await runCase(bin, tmp, hostile);
    rows.push(row);
    const ended = [...new Set(row.outcomes)]
      .map((o) => `${row.outcomes.filter((x) => x === o).length}x ${o}`)
      .join(', ');
    log(
      `   ${row.name.padEnd(42)} ${String(Math.round(row.bytes / 1024)).padStart(7)}  ${ended.padEnd(34)} ` +
        `${row.seconds.toFixed(1).padStart(6)} ${row.peakMb.toFixed(0).padStart(8)} ${row.worstWaitMs.toFixed(0).padStart(14)}`,
    );
  }
  return { rows };
}

export function hostileSummaryRows(hostile: HostileSection): SummaryRow[] {
  if ('reason' in hostile) return [info('Hostile PDFs (docex serve)', na(hostile.reason))];
  const single = hostile.rows.filter((r) => r.name.startsWith('4 at once') === false);
  const four = hostile.rows.filter((r) => r.name.startsWith('4 at once'));
  const worst = (list: typeof single, key: 'peakMb' | 'worstWaitMs' | 'seconds') =>
    Math.max(...list.map((r) => r[key]));
  return [
    {
      metric:
        'Hostile PDFs, one at a time: worst peak RSS of docex serve, MB (baseline: an ordinary invoice)',
      docex: fmt(worst(single, 'peakMb'), 'MB'),
      baseline: fmt(single[0]?.peakMb, 'MB'),
      ratio: '-',
      target: '< 1536 MB',
      met: yesNo(worst(single, 'peakMb') < 1536),
    },
    {
      metric: 'Hostile PDFs, four at once: worst peak RSS, MB',
      docex: fmt(worst(four, 'peakMb'), 'MB'),
      baseline: '-',
      ratio: '-',
      target: '< 2048 MB',
      met: yesNo(worst(four, 'peakMb') < 2048),
    },
    {
      metric: "Hostile PDFs: another client's worst wait, ms (baseline: an ordinary invoice)",
      docex: fmt(worst(hostile.rows, 'worstWaitMs')),
      baseline: fmt(single[0]?.worstWaitMs),
      ratio: '-',
      target: '< 2000 ms',
      met: yesNo(worst(hostile.rows, 'worstWaitMs') < 2000),
    },
    {
      metric: 'Hostile PDFs: longest time until a case ended, s',
      docex: fmt(worst(hostile.rows, 'seconds')),
      baseline: fmt(single[0]?.seconds),
      ratio: '-',
      target: '<= 60 s',
      met: yesNo(worst(hostile.rows, 'seconds') <= 60),
    },
  ];
}
