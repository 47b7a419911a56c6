/**
 * Several machines for real, on one: three `docex serve` processes share one PostgreSQL database and
 * one S3-API server (s3rver on loopback), each with a data directory of its own (nothing shared on
 * disk), one token secret. 300 v1 uploads (extraction) are sent round-robin; one process is SIGKILLed
 * mid-run and later started again. Every accepted file must come out FINALISED, its job run to one
 * result (exactly once in effect), and its result be readable from every process, the restarted one
 * included.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

import pg from 'pg';
import { afterAll, describe, expect, inject, it } from 'vitest';

import { startS3Server, S3_CREDENTIALS, type S3Server } from '../../support/throwaway-s3.js';
import { call, form, token } from '../http/harness.js';
import { exited, invoicePdf, listeningUrl, REPO, spawnCli } from './cli-helpers.js';

const url = inject('pgUrl');
if (!url) console.warn(`serve scale-out test skipped: ${inject('pgSkipReason')}`);

const CLIENT = { id: 'scale', secret: 'scale-secret-0123456789abcdef' };
const UPLOADS = 300;
const KILL_AFTER = 90;
const IN_FLIGHT = 6;
const NAMES = ['a', 'b', 'c'] as const;
const VICTIM = 'b';

type Child = ReturnType<typeof spawnCli>;

describe.skipIf(!url)('three docex serve processes on PostgreSQL and S3, one SIGKILLed', () => {
  const schema = `t_${randomBytes(6).toString('hex')}`;
  const children: Child[] = [];
  let s3: S3Server | undefined;
  let root = '';

  afterAll(async () => {
    for (const child of children)
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await Promise.all(children.map((c) => exited(c)));
    await s3?.stop();
    const db = new pg.Client({ connectionString: url });
    await db.connect();
    await db.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await db.end();
    if (root) await fs.rm(root, { recursive: true, force: true });
  });

  it('finalises every accepted file once, readable from every process', { timeout: 300_000 }, async () => {
    root = await fs.mkdtemp(path.join(os.tmpdir(), 'docex-scale-out-'));
    s3 = await startS3Server();
    const tokenSecret = randomBytes(32).toString('hex');
    const env: Record<string, string> = {
      DOCEX_DATABASE_URL: url,
      DOCEX_DATABASE_SCHEMA: schema,
      DOCEX_FILES: `s3://${s3.bucket}/scale-out?endpoint=${encodeURIComponent(s3.endpoint)}&path-style=1`,
      DOCEX_TOKEN_SECRET: tokenSecret,
      AWS_ACCESS_KEY_ID: S3_CREDENTIALS.accessKeyId,
      AWS_SECRET_ACCESS_KEY: S3_CREDENTIALS.secretAccessKey,
      AWS_REGION: 'us-east-1',
    };
    async function start(name: string): Promise<{ child: Child; base: string }> {
      const child = spawnCli(
        [
          'serve',
          '--port',
          '0',
          '--data-dir',
          path.join(root, name),
          '--client',
          `${CLIENT.id}:${CLIENT.secret}`,
        ],
        REPO,
        { env },
      );
      children.push(child);
      const base = await listeningUrl(child);
      expect(child.output.stdout).toContain(
        `PostgreSQL (schema ${schema}), files in s3://${s3!.bucket}/scale-out`,
      );
      return { child, base };
    }

    const nodes = new Map<string, { child: Child; base: string }>();
    for (const name of NAMES) nodes.set(name, await start(name));
    // One token, from one process, good at all of them (one secret, clients in the shared database).
    const bearer = await token(nodes.get('a')!.base, CLIENT.id, CLIENT.secret);
    const pdf = await invoicePdf();

    // ---- 300 uploads round-robin, the victim killed after KILL_AFTER were accepted ----
    const accepted: string[] = [];
    let killed = false;
    let next = 0;
    async function lane(): Promise<void> {
      while (next < UPLOADS) {
        const n = next++;
        const live = NAMES.filter((name) => !(killed && name === VICTIM));
        const target = nodes.get(live[n % live.length]!)!;
        const answer = await call(target.base, '/fileupload', {
          token: bearer,
          body: form('fileToUpload', pdf, `invoice-${n}.pdf`, { fieldSets: ['invoices:2'] }),
        }).catch(() => undefined); // the victim's connections break when it is killed
        if (answer?.status === 200) accepted.push((answer.body as { fileId: string }).fileId);
        if (!killed && accepted.length >= KILL_AFTER) {
          killed = true;
          nodes.get(VICTIM)!.child.kill('SIGKILL');
        }
      }
    }
    await Promise.all(Array.from({ length: IN_FLIGHT }, lane));
    expect((await exited(nodes.get(VICTIM)!.child)).signal).toBe('SIGKILL');
    expect(accepted.length).toBeGreaterThan(UPLOADS - 2 * IN_FLIGHT);

    // ---- every accepted file FINALISED, from each survivor (the victim's jobs once their lease ended) ----
    const survivors = NAMES.filter((n) => n !== VICTIM).map((n) => nodes.get(n)!.base);
    async function finalised(base: string, fileId: string): Promise<Record<string, unknown>> {
      for (;;) {
        const answer = await call(base, `/result/final/${fileId}?timeout=10000`, { token: bearer });
        expect(answer.status, answer.text).toBe(200);
        if ((answer.body as { status: string }).status === 'FINALISED')
          return answer.body as Record<string, unknown>;
      }
    }
    const results = new Map<string, string>();
    for (const fileId of accepted) {
      const first = await finalised(survivors[0]!, fileId);
      results.set(fileId, JSON.stringify(first));
      expect(JSON.stringify(await finalised(survivors[1]!, fileId))).toBe(results.get(fileId));
    }
    const total = (
      JSON.parse(results.get(accepted[0]!)!) as {
        results: { fields: Array<{ name: string; value: unknown }> };
      }
    ).results.fields.find((f) => f.name === 'invoice.total');
    expect(total?.value).toBe('150.00');

    // ---- the victim started again reads the same results ----
    const again = await start(VICTIM);
    for (const fileId of accepted.slice(0, 40)) {
      expect(JSON.stringify(await finalised(again.base, fileId))).toBe(results.get(fileId));
    }

    // ---- the review page works from any process: a reviewer made by `docex reviewers` in the shared
    // database signs in at one, and reads a page image from the others ----
    const add = spawnCli(
      ['reviewers', 'add', '--login', 'pat@example.com', '--name', 'Pat', '--password-stdin'],
      REPO,
      { env, stdin: 'pat-password-0123\n' },
    );
    expect((await exited(add)).code, add.output.stderr).toBe(0);
    expect(JSON.parse(add.output.stdout)).toMatchObject({ login: 'pat@example.com', accountId: 'default' });
    const login = await fetch(`${nodes.get('a')!.base}/review/api/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ login: 'Pat@example.com', password: 'pat-password-0123' }),
    });
    expect(login.status).toBe(200);
    const session = login.headers.get('set-cookie')!.split(';')[0]!;
    for (const base of [nodes.get('c')!.base, again.base]) {
      const page = await fetch(`${base}/review/api/files/${accepted[1]}/pages/1`, {
        headers: { cookie: session },
      });
      expect(page.status).toBe(200);
      expect(page.headers.get('content-type')).toBe('image/png');
      expect(
        Buffer.from(await page.arrayBuffer())
          .subarray(1, 4)
          .toString(),
      ).toBe('PNG');
    }

    // ---- the database: one job and one result per accepted file, all succeeded ----
    const db = new pg.Client({ connectionString: url });
    await db.connect();
    try {
      const jobs = await db.query<{ file_id: string; status: string; id: string }>(
        `SELECT file_id, status, id FROM "${schema}".jobs`,
      );
      const byFile = new Map<string, string[]>();
      for (const job of jobs.rows) byFile.set(job.file_id, [...(byFile.get(job.file_id) ?? []), job.status]);
      for (const fileId of accepted) expect(byFile.get(fileId), fileId).toEqual(['succeeded']);
      const perJob = await db.query<{ job_id: string; n: string }>(
        `SELECT job_id, count(*) AS n FROM "${schema}".results GROUP BY job_id`,
      );
      expect(perJob.rows.filter((r) => r.n !== '1')).toEqual([]);
      const withResult = new Set(perJob.rows.map((r) => r.job_id));
      for (const job of jobs.rows.filter((j) => accepted.includes(j.file_id)))
        expect(withResult.has(job.id)).toBe(true);
    } finally {
      await db.end();
    }
    for (const node of [nodes.get('a')!, nodes.get('c')!, again]) node.child.kill('SIGTERM');
    for (const node of [nodes.get('a')!, nodes.get('c')!, again])
      expect((await exited(node.child)).code).toBe(0);
  });
});
