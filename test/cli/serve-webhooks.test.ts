/**
 * Webhooks across a crash: `docex serve` (SQLite) is sent 40 uploads, SIGKILLed once some files were
 * finalised, and started again on the same data directory (private targets allowed by the environment
 * variable this time, by the flag the first time). The loopback receiver must get `file.finalised`
 * for every accepted file, under one event id per file: a delivery cut short by the kill may come
 * again (at least once), with the same `webhook-id`, never as a second event.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

import { verifyWebhook } from '../../docs/examples/verify-webhook.mjs';
import { call, form, token } from '../http/harness.js';
import { startReceiver, until, type Receiver } from '../webhooks/receiver.js';
import { exited, invoicePdf, listeningUrl, REPO, spawnCli } from './cli-helpers.js';

const CLIENT = { id: 'hooks', secret: 'hooks-secret-0123456789abcdef' };
const FILES = 40;
const KILL_AFTER = 8;

type Child = ReturnType<typeof spawnCli>;
const children: Child[] = [];
let receiver: Receiver | undefined;
let dir = '';

function serve(dataDir: string, flag: boolean): Child {
  const child = spawnCli(
    [
      'serve',
      '--port',
      '0',
      '--data-dir',
      dataDir,
      '--client',
      `${CLIENT.id}:${CLIENT.secret}`,
      ...(flag ? ['--webhooks-allow-private'] : []),
    ],
    REPO,
    { env: { DOCEX_WEBHOOKS_ALLOW_PRIVATE: flag ? '' : '1' } },
  );
  children.push(child);
  return child;
}

afterAll(async () => {
  for (const child of children)
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  await Promise.all(children.map((c) => exited(c)));
  await receiver?.close();
  if (dir) await fs.rm(dir, { recursive: true, force: true });
});

describe('docex serve: webhooks across a SIGKILL and a restart', () => {
  it('delivers file.finalised once per accepted file, signed', { timeout: 240_000 }, async () => {
    receiver = await startReceiver();
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'docex-serve-hooks-'));
    const first = serve(dir, true);
    let url = await listeningUrl(first);
    let bearer = await token(url, CLIENT.id, CLIENT.secret);
    const created = await call(url, '/webhooks', {
      token: bearer,
      json: { url: receiver.url('/docex'), events: ['file.finalised'] },
    });
    expect(created.status, created.text).toBe(201);
    const secret = (created.body as { secret: string }).secret;

    // The receiver takes its time, so the kill finds deliveries in flight (they are sent again).
    receiver.on('/docex', (_request, response) => {
      setTimeout(() => response.writeHead(204).end(), 100);
    });
    const pdf = await invoicePdf();
    const accepted: string[] = [];
    for (let batch = 0; batch < FILES / 10; batch++) {
      const answers = await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          call(url, '/fileupload', {
            token: bearer,
            body: form('fileToUpload', pdf, `invoice-${batch * 10 + i}.pdf`, { fieldSets: ['invoices:2'] }),
          }),
        ),
      );
      for (const answer of answers) {
        expect(answer.status, answer.text).toBe(200);
        accepted.push((answer.body as { fileId: string }).fileId);
      }
    }
    await until(() => receiver!.received.length >= KILL_AFTER, 'the first deliveries');
    first.kill('SIGKILL');
    const fileOf = (body: string) => (JSON.parse(body) as { data: { fileId: string } }).data.fileId;
    // The kill came with work left: files neither finalised nor announced yet.
    const announcedBeforeKill = new Set(receiver.received.map((r) => fileOf(r.body))).size;
    expect(announcedBeforeKill).toBeLessThan(accepted.length);
    console.log(`webhooks before the kill: ${announcedBeforeKill} of ${accepted.length} files`);
    expect((await exited(first)).signal).toBe('SIGKILL');

    const second = serve(dir, false);
    url = await listeningUrl(second);
    bearer = await token(url, CLIENT.id, CLIENT.secret);
    await until(
      () => new Set(receiver!.received.map((r) => fileOf(r.body))).size >= accepted.length,
      'every file finalised',
    );

    const idsByFile = new Map<string, Set<string>>();
    for (const request of receiver.received) {
      const event = verifyWebhook(secret, request.headers as Record<string, string>, request.body) as {
        type: string;
        data: { fileId: string; status: string };
      };
      expect(event.type).toBe('file.finalised');
      expect(event.data.status).toBe('FINALISED');
      const ids = idsByFile.get(event.data.fileId) ?? new Set<string>();
      ids.add(request.headers['webhook-id'] as string);
      idsByFile.set(event.data.fileId, ids);
    }
    expect([...idsByFile.keys()].sort()).toEqual([...accepted].sort());
    for (const [fileId, ids] of idsByFile) expect(ids.size, fileId).toBe(1);
    // Repeats are at most the deliveries the kill cut short (the extraction's concurrency, 16 sends).
    console.log(`requests received: ${receiver.received.length} for ${accepted.length} files`);
    expect(receiver.received.length - accepted.length).toBeLessThanOrEqual(16);

    // The results are there, and the subscription's log says every delivery was delivered.
    const result = await call(url, `/result/final/${accepted[0]}`, { token: bearer });
    expect((result.body as { status: string }).status).toBe('FINALISED');
    const hookId = (created.body as { id: string }).id;
    const log = async () =>
      (
        (await call(url, `/webhooks/${hookId}/deliveries?limit=1000`, { token: bearer })).body as {
          deliveries: Array<{ status: string }>;
        }
      ).deliveries;
    expect(await log()).toHaveLength(accepted.length);
    // The last answers take the receiver's 100 ms: settled a moment after they arrived.
    await until(async () => (await log()).every((d) => d.status === 'delivered'), 'all settled');
    second.kill('SIGTERM');
    expect((await exited(second)).code).toBe(0);
  });
});
