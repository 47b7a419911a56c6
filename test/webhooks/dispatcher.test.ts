/**
 * The dispatcher over real loopback receivers and the memory outbox: signed deliveries, retries with
 * backoff then dead (on a fake clock: no test here depends on how fast the machine is), redirects not
 * followed, timeouts, private targets refused, one slow endpoint not holding up another, a clean stop.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { createNodeWebhookSender, guardedLookup } from '../../src/adapters/http/webhook-sender.js';
import { createMemoryPersistence } from '../../src/adapters/persistence/memory-persistence.js';
import type { EnginePersistence } from '../../src/ports/engine-persistence.js';
import type { StoredDelivery, StoredWebhook } from '../../src/ports/webhook-outbox.js';
import {
  DEFAULT_DISPATCH,
  retryDelay,
  WebhookDispatcher,
  type DispatchSettings,
} from '../../src/webhooks/dispatcher.js';
import { newWebhookSecret } from '../../src/webhooks/signing.js';
import { verifyWebhook } from '../../docs/examples/verify-webhook.mjs';
import { makeJob } from '../ports/engine-persistence.contract.js';
import { startReceiver, until, type Receiver } from './receiver.js';

const A = 'account-a';
let receiver: Receiver;
let outbox: EnginePersistence;
let dispatchers: WebhookDispatcher[] = [];
let clock = 1_800_000_000_000;
let hookSeq = 0;

beforeEach(async () => {
  receiver = await startReceiver();
  outbox = createMemoryPersistence();
  clock = 1_800_000_000_000;
});
afterEach(async () => {
  for (const d of dispatchers) await d.stop();
  dispatchers = [];
  await receiver.close();
  await outbox.close();
});

function dispatcher(settings: Partial<DispatchSettings> = {}, allowPrivateTargets = true): WebhookDispatcher {
  const d = new WebhookDispatcher({
    outbox,
    sender: createNodeWebhookSender(),
    owner: 'test',
    shared: false,
    // Polls only when poked: the test moves the fake clock and pokes.
    settings: { ...DEFAULT_DISPATCH, pollMs: 3_600_000, ...settings },
    allowPrivateTargets,
    now: () => clock,
    random: () => 1,
  });
  dispatchers.push(d);
  return d;
}

async function subscribe(path: string, url = receiver.url(path)): Promise<StoredWebhook> {
  hookSeq++;
  const hook: StoredWebhook = {
    id: `wh_${String(hookSeq).padStart(32, '0')}`,
    accountId: A,
    url,
    events: ['job.failed'],
    secret: newWebhookSecret(),
    createdAt: new Date(clock).toISOString(),
  };
  await outbox.putWebhook(hook);
  return hook;
}

/** Raises `n` job.failed events (one job each) through the port, as a failing job would. */
async function raise(n = 1): Promise<void> {
  for (let i = 0; i < n; i++) {
    const job = makeJob({ status: 'running', accountId: A });
    await outbox.insertJob(job);
    const failed = { ...job, record: { ...job.record, status: 'failed' as const, version: 2 } };
    const id = `msg_${crypto.randomUUID().replace(/-/g, '')}`;
    await outbox.finishJob(failed, 1, undefined, (file) => [
      {
        id,
        accountId: file.accountId,
        type: 'job.failed',
        body: JSON.stringify({ type: 'job.failed', n: i }),
        raisedAt: clock,
      },
    ]);
  }
}

async function deliveries(hook: StoredWebhook): Promise<StoredDelivery[]> {
  return outbox.listDeliveries({ accountId: A, webhookId: hook.id, limit: 1000 });
}

describe('webhook dispatcher', () => {
  it('posts the event signed, once, and marks it delivered', async () => {
    const hook = await subscribe('/ok');
    await raise();
    const d = dispatcher();
    d.poke();
    await until(async () => (await deliveries(hook))[0]!.status === 'delivered', 'delivered');
    expect(receiver.received).toHaveLength(1);
    const [request] = receiver.received;
    const [stored] = await deliveries(hook);
    expect(request!.headers['webhook-id']).toBe(stored!.eventId);
    expect(request!.headers['webhook-timestamp']).toBe(String(Math.floor(clock / 1000)));
    expect(request!.headers['content-type']).toBe('application/json');
    expect(
      verifyWebhook(
        hook.secret,
        request!.headers as Record<string, string>,
        request!.body,
        Math.floor(clock / 1000),
      ),
    ).toEqual(JSON.parse(stored!.body));
    expect(stored).toMatchObject({ attempts: 1, lastStatus: 200, deliveredAt: clock, leaseUntil: 0 });
  });

  it('retries a failing receiver with doubling delays, then marks the delivery dead', async () => {
    const settings = { baseDelayMs: 1000, maxDelayMs: 4000, retryForMs: 10_000 };
    const hook = await subscribe('/down');
    receiver.on('/down', (_r, response) => response.writeHead(503).end('down'));
    await raise();
    const d = dispatcher(settings);
    const created = clock;
    const attemptsAt: number[] = [];
    for (;;) {
      const before = receiver.received.length;
      d.poke();
      await until(async () => {
        const [x] = await deliveries(hook);
        return receiver.received.length > before && x!.leaseUntil === 0;
      }, 'an attempt settled');
      attemptsAt.push(clock - created);
      const [x] = await deliveries(hook);
      if (x!.status === 'dead') break;
      expect(x!.status).toBe('pending');
      expect(x!.lastStatus).toBe(503);
      // Not due yet: a poke before its time sends nothing.
      clock = x!.nextAttemptAt - 1;
      d.poke();
      await d.idle();
      expect(receiver.received.length).toBe(before + 1);
      clock = x!.nextAttemptAt;
    }
    // Delays 1 s, 2 s, 4 s, then 4 s (capped) would pass the 10 s: dead after the fourth attempt.
    expect(attemptsAt).toEqual([0, 1000, 3000, 7000]);
    const [dead] = await deliveries(hook);
    expect(dead).toMatchObject({ status: 'dead', attempts: 4, lastStatus: 503 });
    expect(new Set(receiver.received.map((r) => r.headers['webhook-id'])).size).toBe(1);
    expect((await outbox.listDeliveries({ accountId: A, status: 'dead' })).map((x) => x.id)).toEqual([
      dead!.id,
    ]);
  });

  it('jitter keeps each delay between half and all of the exponential one', () => {
    const s = { ...DEFAULT_DISPATCH, baseDelayMs: 1000, maxDelayMs: 60_000 };
    expect(retryDelay(1, s, 0)).toBe(500);
    expect(retryDelay(1, s, 1)).toBe(1000);
    expect(retryDelay(3, s, 0.5)).toBe(3000);
    expect(retryDelay(30, s, 1)).toBe(60_000);
  });

  it('does not follow a redirect: the 3xx is a failed attempt', async () => {
    const hook = await subscribe('/moved');
    receiver.on('/moved', (_r, response) =>
      response.writeHead(307, { location: receiver.url('/elsewhere') }).end(),
    );
    await raise();
    dispatcher().poke();
    await until(async () => (await deliveries(hook))[0]!.attempts === 1, 'one attempt');
    const [x] = await deliveries(hook);
    expect(x).toMatchObject({ status: 'pending', lastStatus: 307, lastError: 'redirects are not followed' });
    expect(receiver.received.map((r) => r.path)).toEqual(['/moved']);
  });

  it('an answer that does not come within the timeout is a failed attempt', async () => {
    const hook = await subscribe('/silent');
    receiver.on('/silent', () => undefined);
    await raise();
    dispatcher({ timeoutMs: 100 }).poke();
    await until(async () => (await deliveries(hook))[0]!.attempts === 1, 'one attempt');
    expect((await deliveries(hook))[0]).toMatchObject({
      status: 'pending',
      lastError: 'no answer within 100 ms',
    });
  });

  it('refuses loopback targets unless the host allows them, by name and by resolved address', async () => {
    const byAddress = await subscribe('/private');
    const byName = await subscribe('/private', receiver.url('/private').replace('127.0.0.1', 'localhost'));
    await raise();
    dispatcher({}, false).poke();
    await until(
      async () =>
        (await deliveries(byAddress))[0]!.attempts === 1 && (await deliveries(byName))[0]!.attempts === 1,
      'both attempted',
    );
    expect(receiver.received).toEqual([]);
    expect((await deliveries(byAddress))[0]!.lastError).toMatch(/private or loopback/);
    expect((await deliveries(byName))[0]!.lastError).toMatch(/private or loopback/);
    // A name is judged by the addresses the connection would use.
    const refused = await new Promise<NodeJS.ErrnoException | null>((resolve) =>
      guardedLookup('localhost', { all: true }, (error) => resolve(error)),
    );
    expect(refused?.code).toBe('ETARGETREFUSED');
  });

  it('one slow endpoint never holds up another', async () => {
    const slow = await subscribe('/slow');
    const quick = await subscribe('/quick');
    const held: Array<() => void> = [];
    let open = 0;
    let mostOpen = 0;
    receiver.on('/slow', (_r, response) => {
      open++;
      mostOpen = Math.max(mostOpen, open);
      held.push(() => {
        open--;
        response.writeHead(200).end();
      });
    });
    // Five events: each subscription gets five deliveries; the slow one at most two at a time.
    await raise(5);
    const d = dispatcher({ perWebhook: 2, concurrency: 4 });
    d.poke();
    await until(
      async () => (await deliveries(quick)).every((x) => x.status === 'delivered'),
      'quick delivered',
    );
    expect(held.length).toBeLessThanOrEqual(2);
    expect((await deliveries(slow)).some((x) => x.status === 'pending')).toBe(true);
    while ((await deliveries(slow)).some((x) => x.status !== 'delivered')) {
      held.splice(0).forEach((release) => release());
      await new Promise((resolve) => setTimeout(resolve, 10));
      d.poke();
    }
    expect(receiver.received.filter((r) => r.path === '/slow')).toHaveLength(5);
    expect(mostOpen).toBeLessThanOrEqual(2);
  });

  it('stopping cuts an attempt short and hands the delivery back unchanged', async () => {
    const hook = await subscribe('/hang');
    receiver.on('/hang', () => undefined);
    await raise();
    const d = dispatcher();
    d.poke();
    await until(() => receiver.received.length === 1, 'request arrived');
    await d.stop();
    const [x] = await deliveries(hook);
    expect(x).toMatchObject({ status: 'pending', attempts: 0, leaseOwner: null, leaseUntil: 0 });
  });

  it('a deleted subscription gets nothing more', async () => {
    const hook = await subscribe('/gone');
    await raise();
    await outbox.deleteWebhook(A, hook.id);
    const d = dispatcher();
    d.poke();
    await d.idle();
    expect(receiver.received).toEqual([]);
  });
});
