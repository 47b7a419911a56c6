/**
 * `docex serve` with its defaults, as a child process, fed the hostile corpus over HTTP: each file ends
 * with a clear error, another account's requests are answered while hostile files are read, the
 * process's peak resident memory (VmHWM, Linux) stays under 1.5 GB with one hostile file at a time and
 * under 2 GB with four at once, and the server keeps serving afterwards.
 */
import { readFileSync } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { flateContentBomb, jpegHeaderBomb, manyImages, nestedSaves } from '../../support/hostile-pdfs.js';
import { call, form, token, type Json } from '../http/harness.js';
import { exited, invoicePdf, listeningUrl, spawnCli } from './cli-helpers.js';

/** The codes of a file that needs too much memory: memory's, or time's when a busy machine gets there first. */
const RESOURCE = /^PDF_(RESOURCE_LIMIT|TOO_COMPLEX)$/;

const A = { id: 'client-a', secret: 'client-a-secret-0123456789', account: 'acct-a' };
const B = { id: 'client-b', secret: 'client-b-secret-0123456789', account: 'acct-b' };

let dir: string;
let server: ReturnType<typeof spawnCli>;
let url: string;
let tokenA: string;
let tokenB: string;

/** Peak resident memory of the server process so far, MB (the kernel's high-water mark). */
function peakMb(): number {
  const status = readFileSync(`/proc/${server.pid}/status`, 'utf8');
  return Number(/VmHWM:\s+(\d+) kB/.exec(status)![1]) / 1024;
}

async function upload(bearer: string, pdf: Uint8Array): Promise<{ status: number; body: Json }> {
  return call(url, '/fileupload/v2/multipart', { token: bearer, body: form('file', pdf, 'doc.pdf') });
}

/** Uploads and starts an extraction; answers the file and job ids. */
async function extract(bearer: string, pdf: Uint8Array): Promise<{ fileId: string; jobId: string }> {
  const uploaded = await upload(bearer, pdf);
  expect(uploaded.status, JSON.stringify(uploaded.body)).toBe(200);
  const fileId = uploaded.body.fileId as string;
  const job = await call(url, '/workflows/svc.extract/jobs', {
    token: bearer,
    json: { inputs: { file_id: fileId, product_ids: ['invoices:2'] } },
  });
  expect(job.status).toBe(200);
  return { fileId, jobId: job.body.job.id as string };
}

/** The file's final answer, waiting for its job (long polls of 10 s). */
async function finalAnswer(bearer: string, fileId: string): Promise<{ status: number; body: Json }> {
  for (;;) {
    const answer = await call(url, `/result/final/${fileId}?timeout=10000`, { token: bearer });
    if (answer.status !== 200 || answer.body.status === 'FINALISED') return answer;
  }
}

beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'docex-hostile-serve-'));
  server = spawnCli([
    'serve',
    '--port',
    '0',
    '--data-dir',
    dir,
    '--client',
    `${A.id}:${A.secret}:${A.account}`,
    '--client',
    `${B.id}:${B.secret}:${B.account}`,
  ]);
  url = await listeningUrl(server);
  [tokenA, tokenB] = await Promise.all([token(url, A.id, A.secret), token(url, B.id, B.secret)]);
});

afterAll(async () => {
  server.kill('SIGTERM');
  await exited(server);
  await fs.rm(dir, { recursive: true, force: true });
});

describe('docex serve on hostile files', () => {
  it('refuses files whose pictures or streams are over the limits at upload (422 PDF_RESOURCE_LIMIT)', async () => {
    for (const pdf of [jpegHeaderBomb(65_000), flateContentBomb(1024)]) {
      const answer = await upload(tokenA, pdf);
      expect(answer.status).toBe(422);
      expect(answer.body.error.code).toBe('PDF_RESOURCE_LIMIT');
    }
  });

  it(
    "ends hostile reads with their errors while another account's documents are read and answered",
    { timeout: 180_000 },
    async () => {
      const endless = await extract(tokenA, nestedSaves(300_000));
      const hungry = await extract(tokenA, manyImages(40, 6000));
      // Another client, meanwhile: its document is read and answered while the endless one is still read.
      const ordinary = await extract(tokenB, await invoicePdf());
      const answer = await finalAnswer(tokenB, ordinary.fileId);
      expect(answer.body.status).toBe('FINALISED');
      const endlessJob = await call(url, `/workflows/jobs/${endless.jobId}`, { token: tokenA });
      expect(endlessJob.body.job.status).toBe('running');

      const [endlessAnswer, hungryAnswer] = await Promise.all([
        finalAnswer(tokenA, endless.fileId),
        finalAnswer(tokenA, hungry.fileId),
      ]);
      expect([endlessAnswer.status, endlessAnswer.body.error?.code]).toEqual([422, 'PDF_TOO_COMPLEX']);
      // Memory or time, whichever a busy machine reaches first: the memory is bounded either way (below).
      expect(hungryAnswer.status).toBe(422);
      expect(hungryAnswer.body.error?.code).toMatch(RESOURCE);
      expect(peakMb()).toBeLessThan(1536);
    },
  );

  // No timing is asserted: a loaded machine may take minutes over four such files.
  it('reads four hostile files at once within 2 GB, and keeps serving', { timeout: 300_000 }, async () => {
    const files = await Promise.all(Array.from({ length: 4 }, () => extract(tokenA, manyImages(40, 6000))));
    const answers = await Promise.all(files.map((f) => finalAnswer(tokenA, f.fileId)));
    for (const answer of answers) {
      expect(answer.status).toBe(422);
      expect(answer.body.error?.code).toMatch(RESOURCE);
    }
    expect(peakMb()).toBeLessThan(2048);
    const after = await extract(tokenB, await invoicePdf());
    expect((await finalAnswer(tokenB, after.fileId)).body.status).toBe('FINALISED');
  });
});
