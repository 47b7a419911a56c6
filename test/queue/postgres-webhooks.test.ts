/**
 * Webhooks on PostgreSQL across three engine processes (test/queue/postgres-webhooks-child.ts), one of
 * them SIGKILLed mid-run: up to 300 files, one job each. The loopback receiver must get `file.finalised`
 * for every file that has a job in the database (what the processes reported, and what the killed one
 * stored but could not report), under one event id per file (repeats of a delivery the kill cut
 * short carry the same `webhook-id`), signed with the subscription's secret.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath, pathToFileURL } from 'node:url';

import pg from 'pg';
import { afterAll, describe, expect, inject, it } from 'vitest';

import { verifyWebhook } from '../../docs/examples/verify-webhook.mjs';
import { createPostgresPersistence } from '../../src/adapters/persistence/postgres-persistence.js';
import { createEngine } from '../../src/index.js';
import { startReceiver, until, type Receiver } from '../webhooks/receiver.js';

const url = inject('pgUrl');
if (!url) console.warn(`PostgreSQL webhook test skipped: ${inject('pgSkipReason')}`);

const here = dirname(fileURLToPath(import.meta.url));
const ROOT = resolve(here, '../..');
const CHILD = join(here, 'postgres-webhooks-child.ts');
const TSX_LOADER = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
const NAMES = ['a', 'b', 'c'] as const;
const VICTIM = 'b';
const FILES_PER_PROCESS = 100;
/** Deliveries received after which the victim is killed. */
const KILL_AFTER = 60;

interface Child {
  process: ChildProcess;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  stderr: () => string;
}

describe.skipIf(!url)(
  'webhooks from three engine processes on one PostgreSQL database, one SIGKILLed',
  () => {
    const schema = `t_${randomBytes(6).toString('hex')}`;
    const children = new Map<string, Child>();
    let dir = '';
    let receiver: Receiver | undefined;

    afterAll(async () => {
      for (const child of children.values()) {
        if (child.process.exitCode === null && child.process.signalCode === null)
          child.process.kill('SIGKILL');
      }
      await Promise.all([...children.values()].map((c) => c.exited));
      await receiver?.close();
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      await client.end();
      if (dir) rmSync(dir, { recursive: true, force: true });
    });

    it(
      'announces every finalised file once, the killed process’s included',
      { timeout: 180_000 },
      async () => {
        dir = mkdtempSync(join(tmpdir(), 'docex-pg-hooks-'));
        receiver = await startReceiver();
        // Answers take a little while, so the kill finds deliveries in flight.
        receiver.on('/docex', (_request, response) => {
          setTimeout(() => response.writeHead(200).end(), 20);
        });
        // The subscription, made through an engine on the same database that sends nothing itself.
        const admin = createEngine({
          persistence: createPostgresPersistence({ connectionString: url, schema, maxConnections: 2 }),
          webhooks: { allowPrivateTargets: true, deliver: false },
        });
        const hook = await admin.createWebhook({ url: receiver.url('/docex'), events: ['file.finalised'] });
        await admin.close();

        const accepted = new Map<string, string>();
        const submitted = new Set<string>();
        const errors: string[] = [];
        for (const name of NAMES) {
          const child = spawn(
            process.execPath,
            ['--import', TSX_LOADER, CHILD, url, schema, dir, name, String(FILES_PER_PROCESS)],
            { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
          );
          let stderr = '';
          child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
          const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((done) =>
            child.on('close', (code, signal) => done({ code, signal })),
          );
          createInterface({ input: child.stdout!, crlfDelay: Infinity }).on('line', (raw) => {
            const line = JSON.parse(raw) as {
              event: string;
              fileId?: string;
              jobId?: string;
              message?: string;
            };
            if (line.event === 'accepted') accepted.set(line.fileId!, line.jobId!);
            else if (line.event === 'submitted') submitted.add(name);
            else if (line.event === 'error') errors.push(`${name}: ${raw}`);
          });
          children.set(name, { process: child, exited, stderr: () => stderr });
        }

        await until(() => receiver!.received.length >= KILL_AFTER, 'the first deliveries');
        children.get(VICTIM)!.process.kill('SIGKILL');
        expect((await children.get(VICTIM)!.exited).signal).toBe('SIGKILL');
        const survivors = NAMES.filter((n) => n !== VICTIM);
        await until(() => survivors.every((n) => submitted.has(n)), 'the survivors submitted their files');

        const fileOf = (body: string) => (JSON.parse(body) as { data: { fileId: string } }).data.fileId;
        const db = new pg.Client({ connectionString: url });
        await db.connect();
        // The database is the truth: the victim may have stored a job it was killed before reporting.
        const jobs = new Map<string, string>();
        try {
          await until(async () => {
            const { rows } = await db.query<{ n: string }>(
              `SELECT count(*) AS n FROM "${schema}".jobs WHERE status IN ('new', 'running')`,
            );
            return rows[0]!.n === '0';
          }, 'every job ended (the killed process’s after their lease)');
          const { rows } = await db.query<{ id: string; file_id: string; status: string }>(
            `SELECT id, file_id, status FROM "${schema}".jobs`,
          );
          expect(rows.filter((r) => r.status !== 'succeeded')).toEqual([]);
          for (const row of rows) jobs.set(row.file_id, row.id);
          for (const [fileId, jobId] of accepted) expect(jobs.get(fileId)).toBe(jobId);
          await until(
            () => new Set(receiver!.received.map((r) => fileOf(r.body))).size >= jobs.size,
            'every file with a job announced',
          );
          const statuses = async () =>
            (
              await db.query<{ status: string; n: string }>(
                `SELECT status, count(*) AS n FROM "${schema}".deliveries GROUP BY status ORDER BY status`,
              )
            ).rows;
          // The last answers settle a moment after they arrived; then the outbox says: one delivery a
          // file, all delivered.
          await until(async () => (await statuses()).every((r) => r.status === 'delivered'), 'all settled');
          expect(await statuses()).toEqual([{ status: 'delivered', n: String(jobs.size) }]);
        } finally {
          await db.end();
        }
        for (const name of survivors) children.get(name)!.process.kill('SIGTERM');
        for (const name of survivors) {
          expect(await children.get(name)!.exited, children.get(name)!.stderr()).toEqual({
            code: 0,
            signal: null,
          });
        }
        expect(errors).toEqual([]);

        const idsByFile = new Map<string, Set<string>>();
        for (const request of receiver.received) {
          const event = verifyWebhook(
            hook.secret,
            request.headers as Record<string, string>,
            request.body,
          ) as {
            type: string;
            data: { fileId: string; jobId: string };
          };
          expect(event.type).toBe('file.finalised');
          // A file the victim uploaded but never invoked a job on has no job and no event.
          expect(jobs.get(event.data.fileId), 'an event for a file without a job').toBe(event.data.jobId);
          const ids = idsByFile.get(event.data.fileId) ?? new Set<string>();
          ids.add(request.headers['webhook-id'] as string);
          idsByFile.set(event.data.fileId, ids);
        }
        expect(jobs.size).toBeGreaterThanOrEqual(2 * FILES_PER_PROCESS);
        expect([...idsByFile.keys()].sort()).toEqual([...jobs.keys()].sort());
        expect([...idsByFile].filter(([, ids]) => ids.size !== 1)).toEqual([]);
        console.log(`${receiver.received.length} requests for ${jobs.size} files`);
      },
    );
  },
);
