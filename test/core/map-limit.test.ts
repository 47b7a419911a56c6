import { describe, expect, it } from 'vitest';
import { mapLimit } from '../../src/core/map-limit.js';

describe('mapLimit', () => {
  it('keeps order and never runs more than the limit at once', async () => {
    let running = 0;
    let most = 0;
    const results = await mapLimit([30, 10, 20, 5, 15], 2, async (ms, i) => {
      running++;
      most = Math.max(most, running);
      await new Promise((resolve) => setTimeout(resolve, ms));
      running--;
      return i * 10;
    });
    expect(results).toEqual([0, 10, 20, 30, 40]);
    expect(most).toBe(2);
  });

  it('rejects with the first failure after started calls settle, and starts no more', async () => {
    const started: number[] = [];
    let settled = 0;
    const outcome = mapLimit([1, 2, 3, 4, 5], 2, async (n) => {
      started.push(n);
      await new Promise((resolve) => setTimeout(resolve, n === 1 ? 5 : 20));
      settled++;
      if (n === 1) throw new Error('first');
      return n;
    });
    await expect(outcome).rejects.toThrow('first');
    expect(started).toEqual([1, 2]);
    expect(settled).toBe(2);
  });
});
