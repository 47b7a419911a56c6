import { describe, expect, it } from 'vitest';
import type { StoredResult } from '../../src/core/jobs.js';
import { companyIdOf } from '../../src/core/company-id.js';
import { FileSignals } from '../../src/queue/file-signals.js';
import { createJobClock } from '../../src/queue/job-clock.js';
import { mergeResults } from '../../src/results/merge-results.js';

describe('job clock', () => {
  it('prints microseconds without a zone and never repeats or goes back', () => {
    const times = [
      1_700_000_000_123_456, 1_700_000_000_123_456, 1_700_000_000_000_000, 1_700_000_001_000_001,
    ];
    const clock = createJobClock(() => times.shift()!);
    expect([clock(), clock(), clock(), clock()]).toEqual([
      '2023-11-14T22:13:20.123456',
      '2023-11-14T22:13:20.123457',
      '2023-11-14T22:13:20.123458',
      '2023-11-14T22:13:21.000001',
    ]);
  });

  it('reads the real time by default', () => {
    const stamp = createJobClock()();
    expect(stamp).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}$/);
    expect(Math.abs(Date.parse(stamp.slice(0, 23) + 'Z') - Date.now())).toBeLessThan(5000);
  });
});

describe('company ids', () => {
  it('keeps a UUID account id and makes a stable version-5 UUID of any other', () => {
    expect(companyIdOf('8E4C1C9A-5B7D-4F3E-9A1B-2C3D4E5F6A7B')).toBe('8e4c1c9a-5b7d-4f3e-9a1b-2c3d4e5f6a7b');
    const id = companyIdOf('acme');
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(companyIdOf('acme')).toBe(id);
    expect(companyIdOf('acme2')).not.toBe(id);
  });
});

describe('merging results', () => {
  const result = (jobCreated: string, timestamp: string, fields: Array<[string, string]>): StoredResult => ({
    jobId: jobCreated,
    accountId: 'a',
    fileId: 'f',
    workflowId: 'w',
    jobCreated,
    timestamp,
    fields: fields.map(([name, value]) => ({ name, value, confidence: 0.5, boundingBox: null })),
  });

  it('lets later runs replace fields by name, keeping first positions and the newest timestamp', () => {
    const merged = mergeResults([
      result('1', '2026-01-01T00:00:02.000Z', [
        ['a', 'a1'],
        ['b', 'b1'],
      ]),
      result('2', '2026-01-01T00:00:01.000Z', [
        ['c', 'c2'],
        ['a', 'a2'],
      ]),
    ]);
    expect(merged.fields.map((f) => [f.name, f.value])).toEqual([
      ['a', 'a2'],
      ['b', 'b1'],
      ['c', 'c2'],
    ]);
    expect(merged.timestamp).toBe('2026-01-01T00:00:02.000Z');
    expect(mergeResults([])).toEqual({ timestamp: '', fields: [] });
  });
});

describe('file signals', () => {
  it('wakes a waiter armed before the change, even when the change comes before the wait', async () => {
    const signals = new FileSignals();
    const waiter = signals.arm('k');
    signals.notify('k');
    let woke = false;
    await waiter.wait(60_000).then(() => (woke = true));
    expect(woke).toBe(true);
  });

  it('wakes on notify of its key only, and returns at the timeout otherwise', async () => {
    const signals = new FileSignals();
    const a = signals.arm('a');
    const b = signals.arm('b');
    const order: string[] = [];
    const waits = [a.wait(60_000).then(() => order.push('a')), b.wait(30).then(() => order.push('b'))];
    signals.notify('a');
    await Promise.all(waits);
    expect(order).toEqual(['a', 'b']);
    signals.notify('a'); // nobody armed: nothing happens
  });
});
