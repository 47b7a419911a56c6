/**
 * Section `webhooks` (13), on the embedded durable default (SQLite):
 * - what the outbox costs the queue: jobs finished per second (a workflow that does nothing, one file
 *   each) with no subscription, then with one subscription to `file.finalised` whose deliveries are
 *   written in each job's finishing transaction and sent to a loopback receiver;
 *   (measured until every job ended);
 * - how fast deliveries go out: from the first job submitted to the last delivery received, deliveries
 *   a second, beside a plain node:http client posting the same number of bodies of the same size to the
 *   same receiver, as many at a time as the dispatcher sends to one subscription (4), one connection
 *   each (as the dispatcher does).
 */
import { createServer, request } from 'node:http';
import { mkdtemp, rm } from 'node:fs/promises';
import path from 'node:path';

import { createSqlitePersistence } from '../../src/adapters/persistence/sqlite-persistence.js';
import { createEngine } from '../../src/index.js';
import { DEFAULT_DISPATCH } from '../../src/webhooks/dispatcher.js';
import type { SectionContext } from '../lib/section.js';
import type { SummaryRow } from '../lib/summary-row.js';

const JOBS = 1000;
/** The dispatcher's default per subscription (DEFAULT_DISPATCH.perWebhook). */
const PARALLEL_POSTS = DEFAULT_DISPATCH.perWebhook;
/** A 1x1 greyscale PNG: the workflow never reads it. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAAAAAA6fptVAAAACklEQVR4nGP4DwABAQEAsTj2FAAAAABJRU5ErkJggg==',
  'base64',
);

export interface WebhookSection {
  jobs: number;
  jobsPerSecondWithout: number;
  jobsPerSecondWith: number;
  deliveriesPerSecond: number;
  parallelPosts: number;
  postsPerSecond: number;
  bodyBytes: number;
}

interface Receiver {
  url: string;
  count: () => number;
  reached: (n: number) => Promise<void>;
  close: () => Promise<void>;
}

async function startReceiver(): Promise<Receiver> {
  let received = 0;
  const waiting: Array<{ n: number; resolve: () => void }> = [];
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      received++;
      res.writeHead(204).end();
      for (const w of waiting.filter((x) => received >= x.n)) {
        waiting.splice(waiting.indexOf(w), 1);
        w.resolve();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    count: () => received,
    reached: (n) =>
      received >= n ? Promise.resolve() : new Promise((resolve) => waiting.push({ n, resolve })),
    close: () =>
      new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))),
  };
}

/** Runs JOBS jobs (one file each) on a fresh SQLite engine; answers seconds until all ended, and until all were announced. */
async function runJobs(
  dir: string,
  receiver: Receiver | undefined,
): Promise<{ jobsSeconds: number; deliveredSeconds: number }> {
  const engine = createEngine({
    persistence: createSqlitePersistence({
      path: path.join(dir, `jobs-${receiver ? 'with' : 'without'}.db`),
    }),
    ingest: { ocr: 'never' },
    jobs: { concurrency: 4, maxQueued: JOBS * 2 },
    webhooks: { allowPrivateTargets: true },
    workflows: [
      {
        id: 'bench.noop',
        inputsSchema: { type: 'object', properties: { file_id: { type: 'string' } } },
        async run() {
          return {};
        },
      },
    ],
  });
  try {
    if (receiver) await engine.createWebhook({ url: receiver.url, events: ['file.finalised'] });
    const files: string[] = [];
    for (let i = 0; i < JOBS; i++) files.push((await engine.upload(PNG)).fileId);
    let ended = 0;
    const allEnded = new Promise<void>((resolve) => {
      engine.on('job', ({ job }) => {
        if (job.status === 'succeeded' || job.status === 'failed') {
          ended++;
          if (ended === JOBS) resolve();
        }
      });
    });
    const started = performance.now();
    for (const fileId of files) await engine.invoke('bench.noop', { inputs: { file_id: fileId } });
    await allEnded;
    const jobsSeconds = (performance.now() - started) / 1000;
    if (receiver) await receiver.reached(JOBS);
    return { jobsSeconds, deliveredSeconds: (performance.now() - started) / 1000 };
  } finally {
    await engine.close();
  }
}

/** The baseline: JOBS plain POSTs of `body` to the receiver, PARALLEL_POSTS at a time; seconds. */
async function plainPosts(url: string, body: string): Promise<number> {
  const started = performance.now();
  let next = 0;
  const post = (): Promise<void> =>
    new Promise<void>((resolve, reject) => {
      const req = request(url, {
        method: 'POST',
        agent: false,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      });
      req.on('response', (res) => {
        res.resume();
        res.on('end', resolve);
      });
      req.on('error', reject);
      req.end(body);
    });
  await Promise.all(
    Array.from({ length: PARALLEL_POSTS }, async () => {
      while (next < JOBS) {
        next++;
        await post();
      }
    }),
  );
  return (performance.now() - started) / 1000;
}

export async function benchWebhooks({ tmp, log }: SectionContext): Promise<WebhookSection> {
  log('\n== 13. Webhooks (SQLite outbox, loopback receiver) ==');
  const dir = await mkdtemp(path.join(tmp, 'webhooks-'));
  const receiver = await startReceiver();
  try {
    const without = await runJobs(dir, undefined);
    const withHook = await runJobs(dir, receiver);
    const body = JSON.stringify({
      type: 'file.finalised',
      timestamp: new Date().toISOString(),
      data: { fileId: crypto.randomUUID(), jobId: crypto.randomUUID(), status: 'FINALISED' },
    });
    const baseline = await plainPosts(receiver.url, body);
    const section: WebhookSection = {
      jobs: JOBS,
      jobsPerSecondWithout: JOBS / without.jobsSeconds,
      jobsPerSecondWith: JOBS / withHook.jobsSeconds,
      deliveriesPerSecond: JOBS / withHook.deliveredSeconds,
      parallelPosts: PARALLEL_POSTS,
      postsPerSecond: JOBS / baseline,
      bodyBytes: Buffer.byteLength(body),
    };
    log(
      `   ${JOBS} jobs: ${section.jobsPerSecondWithout.toFixed(0)} jobs/s without a subscription, ` +
        `${section.jobsPerSecondWith.toFixed(0)} jobs/s with one; ` +
        `${section.deliveriesPerSecond.toFixed(0)} deliveries/s (submit to received, signed)`,
    );
    log(
      `   plain node:http POSTs of ${section.bodyBytes} bytes, ${PARALLEL_POSTS} at a time: ${section.postsPerSecond.toFixed(0)}/s`,
    );
    return section;
  } finally {
    await receiver.close();
    await rm(dir, { recursive: true, force: true });
  }
}

export function webhooksSummaryRows(section: WebhookSection): SummaryRow[] {
  const cost = section.jobsPerSecondWith / section.jobsPerSecondWithout;
  const send = section.deliveriesPerSecond / section.postsPerSecond;
  return [
    {
      metric: `Jobs/s on SQLite with a webhook subscription, ${section.jobs} jobs (vs no subscription)`,
      docex: section.jobsPerSecondWith.toFixed(0),
      baseline: section.jobsPerSecondWithout.toFixed(0),
      ratio: cost.toFixed(3),
      target: '>= 0.5',
      met: cost >= 0.5 ? 'yes' : 'no',
    },
    {
      metric: `  webhooks delivered/s to one subscription, submit to received (vs plain node:http POSTs, ${section.parallelPosts} at a time)`,
      docex: section.deliveriesPerSecond.toFixed(0),
      baseline: section.postsPerSecond.toFixed(0),
      ratio: send.toFixed(3),
      target: '-',
      met: '-',
    },
  ];
}
