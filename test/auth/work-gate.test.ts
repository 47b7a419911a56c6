/**
 * The gate in front of scrypt: never more than its bound at once, waiting work runs in turn, work past
 * the queue is refused 429 at once, and a failure frees its slot.
 */
import { describe, expect, it } from 'vitest';

import { hashClientSecret, verifyClientSecret } from '../../src/auth/client-secrets.js';
import { WorkGate } from '../../src/auth/work-gate.js';

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

describe('WorkGate', () => {
  it('runs at most maxRunning at once, queues maxWaiting, refuses the rest with 429', async () => {
    const gate = new WorkGate(2, 3);
    let now = 0;
    let peak = 0;
    const blockers = Array.from({ length: 5 }, deferred);
    const runs = blockers.map((b, i) =>
      gate.run(async () => {
        now++;
        peak = Math.max(peak, now);
        await b.promise;
        now--;
        return i;
      }),
    );
    expect(gate.running).toBe(2);
    expect(gate.waiting).toBe(3);
    await expect(gate.run(async () => 'late')).rejects.toMatchObject({
      code: 'TOO_MANY_REQUESTS',
      httpStatus: 429,
      retryAfterSeconds: 1,
    });
    for (const b of blockers) b.resolve();
    expect(await Promise.all(runs)).toEqual([0, 1, 2, 3, 4]);
    expect(peak).toBe(2);
    expect(gate.running).toBe(0);
    expect(await gate.run(async () => 'again')).toBe('again');
  });

  it('a failed run gives its slot to the next', async () => {
    const gate = new WorkGate(1, 1);
    const failing = gate.run(async () => {
      throw new Error('broken');
    });
    const next = gate.run(async () => 'next');
    await expect(failing).rejects.toThrow('broken');
    expect(await next).toBe('next');
    expect(gate.running).toBe(0);
  });
});

describe('client secrets', () => {
  it('verify the right secret only, and refuse a stored cost that is out of bounds or not a power of two', async () => {
    const stored = await hashClientSecret('a-secret-of-some-length');
    expect(await verifyClientSecret('a-secret-of-some-length', stored)).toBe(true);
    expect(await verifyClientSecret('another-secret-entirely', stored)).toBe(false);
    expect(await verifyClientSecret('a-secret-of-some-length', undefined)).toBe(false);
    const [, , salt, hash] = stored.split('$');
    for (const cost of ['1048576', '16000', '2'])
      expect(await verifyClientSecret('a-secret-of-some-length', `scrypt$${cost}$${salt}$${hash}`)).toBe(
        false,
      );
  });
});
