import type { CalibrationCurve } from '../extraction/calibration.js';

/**
 * Fits a calibration curve by isotonic regression (pool adjacent violators) over (score, correct)
 * pairs: a non-decreasing map from evidence to the share of correct values. Points are the pooled
 * blocks' mean scores; the ends are pinned to 0 and 1 so every score maps somewhere.
 */
export function fitIsotonic(
  pairs: ReadonlyArray<readonly [score: number, correct: boolean]>,
  minBlock = 5,
): CalibrationCurve {
  if (pairs.length === 0)
    return [
      [0, 0.05],
      [1, 0.95],
    ];
  const sorted = [...pairs].sort((a, b) => a[0] - b[0]);
  const blocks: Array<{ sum: number; correct: number; n: number }> = sorted.map(([s, ok]) => ({
    sum: s,
    correct: ok ? 1 : 0,
    n: 1,
  }));
  // Pool adjacent violators until the shares rise, and small blocks into their neighbours.
  let changed = true;
  while (changed) {
    changed = false;
    for (let i = 0; i + 1 < blocks.length; i++) {
      const a = blocks[i]!;
      const b = blocks[i + 1]!;
      if (
        a.correct / a.n >= b.correct / b.n ||
        a.n < minBlock ||
        (i + 2 === blocks.length && b.n < minBlock)
      ) {
        blocks.splice(i, 2, { sum: a.sum + b.sum, correct: a.correct + b.correct, n: a.n + b.n });
        changed = true;
        i = Math.max(-1, i - 2);
      }
    }
  }
  // Shares are shrunk a little towards the middle: a bin of 12 right values is not certainty.
  // Shrinking can reorder blocks of different sizes: keep the curve non-decreasing after it.
  let floor = 0;
  const points = blocks.map((b) => {
    floor = Math.max(floor, round((b.correct + 0.5) / (b.n + 1)));
    return [round(b.sum / b.n), floor] as const;
  });
  const first = points[0]!;
  const last = points[points.length - 1]!;
  const curve: Array<readonly [number, number]> = [];
  if (first[0] > 0) curve.push([0, Math.min(first[1], 0.05)]);
  curve.push(...points);
  if (last[0] < 1) curve.push([1, last[1]]);
  return curve;
}

function round(v: number): number {
  return Math.round(v * 1000) / 1000;
}
