/** Timing helpers shared by the sections: timed runs, medians, calls per second. */

/** Pages measured in some seconds. */
export type Measured = { seconds: number; pages: number; pagesPerSecond: number };

/** A native baseline's figures, or why it could not be measured. */
export type Baseline = ({ ok: true } & Measured & Record<string, unknown>) | { ok: false; reason: string };

export const measured = (seconds: number, pages: number): Measured => ({
  seconds,
  pages,
  pagesPerSecond: pages / seconds,
});

export async function timed<T>(work: () => Promise<T>): Promise<{ value: T; seconds: number }> {
  const start = performance.now();
  const value = await work();
  return { value, seconds: (performance.now() - start) / 1000 };
}

/** The round with the median throughput (rounds are few and odd in number). */
export function medianRound<T extends Measured>(rounds: T[]): T {
  const sorted = [...rounds].sort((a, b) => a.pagesPerSecond - b.pagesPerSecond);
  return sorted[Math.floor(sorted.length / 2)]!;
}

/** The median of a few numbers. */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

export interface Rate {
  /** Work calls per second in the median round. */
  perSecond: number;
  /** Calls per round and the median round's duration. */
  iterations: number;
  seconds: number;
  /** Calls per second of every round, in order. */
  rounds: number[];
}

/** Kept so no call's result is dead code. */
export let sink = 0;

/**
 * Calls per second of a synchronous `work(i)`: a warm-up of about `warmupSeconds` (which also sizes the
 * rounds), then `rounds` rounds of about `roundSeconds` each; the median round counts.
 */
export function measureRate(
  work: (i: number) => number,
  { roundSeconds = 0.3, rounds = 5, warmupSeconds = 0.3 } = {},
): Rate {
  let calls = 0;
  let batch = 16;
  const warmStart = performance.now();
  while (performance.now() - warmStart < warmupSeconds * 1000) {
    for (let i = 0; i < batch; i++) sink += work(calls++);
    batch = Math.min(batch * 2, 1 << 20);
  }
  // Size from the second half of the warm-up, when the code is optimised.
  const half = Math.floor(calls / 2);
  const start = performance.now();
  for (let i = 0; i < half; i++) sink += work(i);
  const perCallMs = (performance.now() - start) / Math.max(1, half);
  const iterations = Math.max(1, Math.round((roundSeconds * 1000) / Math.max(perCallMs, 1e-6)));
  const times: number[] = [];
  for (let r = 0; r < rounds; r++) {
    const t0 = performance.now();
    for (let i = 0; i < iterations; i++) sink += work(i);
    times.push((performance.now() - t0) / 1000);
  }
  const seconds = [...times].sort((a, b) => a - b)[Math.floor(times.length / 2)]!;
  return { perSecond: iterations / seconds, iterations, seconds, rounds: times.map((s) => iterations / s) };
}

/** In-process timing (no sockets), for where the time goes. */
export interface AsyncRate {
  calls: number;
  seconds: number;
  perSecond: number;
  /** CPU time of this process per call, in microseconds. */
  cpuUsPerCall: number;
}

/**
 * Calls/s of an async `work` kept `concurrency` calls deep, after a warm-up; `onStart` is called when
 * the warm-up is over and the measured part begins.
 */
export async function measureAsync(
  work: (i: number) => Promise<unknown>,
  concurrency: number,
  seconds: number,
  { warmupSeconds = 0.3, onStart }: { warmupSeconds?: number; onStart?: () => void } = {},
): Promise<AsyncRate> {
  let n = 0;
  const loop = async (until: number): Promise<void> => {
    while (performance.now() < until) await work(n++);
  };
  const warmEnd = performance.now() + warmupSeconds * 1000;
  await Promise.all(Array.from({ length: concurrency }, () => loop(warmEnd)));
  const calls0 = n;
  onStart?.();
  const cpuBefore = process.cpuUsage();
  const start = performance.now();
  await Promise.all(Array.from({ length: concurrency }, () => loop(start + seconds * 1000)));
  const took = (performance.now() - start) / 1000;
  const cpu = process.cpuUsage(cpuBefore);
  const calls = n - calls0;
  return { calls, seconds: took, perSecond: calls / took, cpuUsPerCall: (cpu.user + cpu.system) / calls };
}
