/**
 * Section `scale` (14): `docex serve` scaled out, 1, 2 and 3 `serve` processes on one
 * PostgreSQL database and one S3-API server (s3rver on loopback), fed the same v1 uploads with
 * extraction round-robin over HTTP, 8 in flight; files FINALISED a second, from the first upload to
 * the last result. Baseline: one `serve` on the embedded defaults (SQLite and files on disk), same
 * uploads. On a machine of two cores a third process has no core of its own; the figure says what
 * sharing costs there, not what a third machine would add.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import path from 'node:path';

import pg from 'pg';

import { startPostgres } from '../../support/throwaway-postgres.js';
import { S3_CREDENTIALS, startS3Server } from '../../support/throwaway-s3.js';
import { docexBin } from '../lib/paths.js';
import { na } from '../lib/report.js';
import type { SectionContext } from '../lib/section.js';
import type { SummaryRow } from '../lib/summary-row.js';

const FILES = 120;
const IN_FLIGHT = 8;
const CLIENT = { id: 'bench', secret: 'bench-secret-0123456789abcdef' };

export interface ServeScaleRun {
  processes: number;
  storage: 'sqlite+disk' | 'postgres+s3';
  seconds: number;
  filesPerSecond: number;
}

export type ServeScaleSection =
  { runs: ServeScaleRun[]; files: number; document: string } | { reason: string };

interface Node {
  child: ChildProcess;
  base: string;
}

function startServe(bin: string, dataDir: string, env: NodeJS.ProcessEnv): Promise<Node> {
  const child = spawn(
    process.execPath,
    [bin, 'serve', '--port', '0', '--data-dir', dataDir, '--client', `${CLIENT.id}:${CLIENT.secret}`],
    { stdio: ['ignore', 'pipe', 'pipe'], env },
  );
  let out = '';
  let err = '';
  child.stderr!.setEncoding('utf8').on('data', (t: string) => (err += t));
  return new Promise<Node>((resolve, reject) => {
    child.stdout!.setEncoding('utf8').on('data', (t: string) => {
      out += t;
      const found = /listening on (http:\/\/\S+)/.exec(out);
      if (found) resolve({ child, base: found[1]! });
    });
    child.once('exit', () => reject(new Error(`serve ended: ${err.slice(-500)}`)));
  });
}

async function stop(nodes: Node[]): Promise<void> {
  await Promise.all(
    nodes.map(
      (n) =>
        new Promise<void>((resolve) => {
          if (n.child.exitCode !== null) return resolve();
          n.child.once('exit', () => resolve());
          n.child.kill('SIGTERM');
        }),
    ),
  );
}

async function tokenAt(base: string): Promise<string> {
  const answer = await fetch(`${base}/oauth2/token`, {
    method: 'POST',
    headers: { authorization: `Basic ${Buffer.from(`${CLIENT.id}:${CLIENT.secret}`).toString('base64')}` },
    body: new URLSearchParams({ grant_type: 'client_credentials' }),
  });
  return ((await answer.json()) as { access_token: string }).access_token;
}

/** Uploads FILES copies round-robin and waits for each result; seconds from the first upload to the last result. */
async function feed(nodes: Node[], pdf: Uint8Array): Promise<number> {
  const bearer = await tokenAt(nodes[0]!.base);
  const started = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: IN_FLIGHT }, async () => {
      while (next < FILES) {
        const n = next++;
        const base = nodes[n % nodes.length]!.base;
        const form = new FormData();
        form.append('fileToUpload', new Blob([pdf], { type: 'application/pdf' }), `invoice-${n}.pdf`);
        form.append('fieldSets', 'invoices:2');
        const uploaded = await fetch(`${base}/fileupload`, {
          method: 'POST',
          headers: { authorization: `Bearer ${bearer}` },
          body: form,
        });
        if (uploaded.status !== 200) throw new Error(`upload: ${uploaded.status} ${await uploaded.text()}`);
        const { fileId } = (await uploaded.json()) as { fileId: string };
        for (;;) {
          const answer = await fetch(`${base}/result/final/${fileId}?timeout=10000`, {
            headers: { authorization: `Bearer ${bearer}` },
          });
          const body = (await answer.json()) as { status?: string };
          if (answer.status !== 200) throw new Error(`result: ${answer.status} ${JSON.stringify(body)}`);
          if (body.status === 'FINALISED') break;
        }
      }
    }),
  );
  return (performance.now() - started) / 1000;
}

/** The section: `n/a` without the docex command (dist/src compiled). */
export async function benchScale({ tmp, log }: SectionContext): Promise<ServeScaleSection> {
  const found = docexBin();
  const scale = 'reason' in found ? { reason: found.reason } : await measureServeScale(found.bin, tmp, log);
  if ('reason' in scale) log(`   ${na(scale.reason)}`);
  return scale;
}

async function measureServeScale(
  bin: string,
  tmp: string,
  log: (line: string) => void,
): Promise<ServeScaleSection> {
  log('\n== 14. docex serve scaled out: PostgreSQL + S3 (1, 2, 3 processes) vs SQLite + disk ==');
  const server = await startPostgres();
  if ('reason' in server) return { reason: server.reason };
  const s3 = await startS3Server('docex-bench');
  const dir = await mkdtemp(path.join(tmp, 'serve-scale-'));
  const document = 'fixtures/invoice2data/AzureInterior.pdf';
  const pdf = new Uint8Array(await readFile(path.join(path.dirname(bin), '..', document)));
  const runs: ServeScaleRun[] = [];
  const record = (run: Omit<ServeScaleRun, 'filesPerSecond'>): void => {
    const full = { ...run, filesPerSecond: FILES / run.seconds };
    runs.push(full);
    log(
      `   ${run.storage}, ${run.processes} process${run.processes > 1 ? 'es' : ''}: ${FILES} files in ` +
        `${run.seconds.toFixed(1)} s, ${full.filesPerSecond.toFixed(1)} files/s`,
    );
  };
  const base = { ...process.env, FORCE_COLOR: '0', DOCEX_TOKEN_SECRET: randomBytes(32).toString('hex') };
  try {
    const alone = [await startServe(bin, path.join(dir, 'sqlite'), base)];
    try {
      record({ processes: 1, storage: 'sqlite+disk', seconds: await feed(alone, pdf) });
    } finally {
      await stop(alone);
    }
    for (const processes of [1, 2, 3]) {
      const schema = `bench_${randomBytes(4).toString('hex')}`;
      const env = {
        ...base,
        DOCEX_DATABASE_URL: server.url,
        DOCEX_DATABASE_SCHEMA: schema,
        DOCEX_FILES: `s3://${s3.bucket}/run-${processes}?endpoint=${encodeURIComponent(s3.endpoint)}&path-style=1`,
        AWS_ACCESS_KEY_ID: S3_CREDENTIALS.accessKeyId,
        AWS_SECRET_ACCESS_KEY: S3_CREDENTIALS.secretAccessKey,
        AWS_REGION: 'us-east-1',
      };
      const nodes: Node[] = [];
      try {
        for (let i = 0; i < processes; i++)
          nodes.push(await startServe(bin, path.join(dir, `${schema}-${i}`), env));
        record({ processes, storage: 'postgres+s3', seconds: await feed(nodes, pdf) });
      } finally {
        await stop(nodes);
        const db = new pg.Client({ connectionString: server.url });
        await db.connect();
        await db.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
        await db.end();
      }
    }
    return { runs, files: FILES, document };
  } finally {
    await s3.stop();
    server.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

export function scaleSummaryRows(section: ServeScaleSection): SummaryRow[] {
  if ('reason' in section) {
    return [
      {
        metric: 'docex serve on PostgreSQL + S3',
        docex: `n/a (${section.reason})`,
        baseline: '-',
        ratio: '-',
        target: '-',
        met: '-',
      },
    ];
  }
  const baseline = section.runs.find((r) => r.storage === 'sqlite+disk')!;
  return section.runs
    .filter((r) => r.storage === 'postgres+s3')
    .map((r) => ({
      metric: `docex serve on PostgreSQL + S3, ${r.processes} process${r.processes > 1 ? 'es' : ''}: files finalised/s (vs 1 on SQLite + disk)`,
      docex: r.filesPerSecond.toFixed(1),
      baseline: baseline.filesPerSecond.toFixed(1),
      ratio: (r.filesPerSecond / baseline.filesPerSecond).toFixed(3),
      target: '-',
      met: '-',
    }));
}
