/**
 * Maps a finder's evidence score (0..1) to the probability that the value is right, per group of
 * fields. The points are fitted on the development corpus (`npm run eval -- --fit`) by isotonic
 * regression over score bins and interpolated linearly between them.
 */
export type CalibrationGroup = 'amount' | 'date' | 'reference' | 'name' | 'address' | 'id' | 'code' | 'other';

export type CalibrationCurve = ReadonlyArray<readonly [score: number, probability: number]>;

// Fitted on shared/corpus/dev (67 documents, 343 predicted values) with `npm run eval -- --fit`.
export const CALIBRATION: Record<CalibrationGroup, CalibrationCurve> = {
  amount: [
    [0, 0.05],
    [0.293, 0.214],
    [0.646, 0.551],
    [0.878, 0.786],
    [0.989, 0.924],
    [1, 0.95],
  ],
  date: [
    [0, 0.05],
    [0.155, 0.75],
    [0.26, 0.821],
    [0.723, 0.919],
    [1, 0.95],
  ],
  reference: [
    [0, 0.05],
    [0.358, 0.583],
    [0.901, 0.969],
    [1, 0.969],
  ],
  name: [
    [0, 0.05],
    [0.21, 0.083],
    [0.436, 0.375],
    [0.566, 0.458],
    [0.672, 0.611],
    [0.853, 0.75],
    [1, 0.75],
  ],
  address: [
    [0, 0.05],
    [0.578, 0.227],
    [0.709, 0.55],
    [0.785, 0.679],
    [0.836, 0.781],
    [0.908, 0.85],
    [1, 0.85],
  ],
  id: [
    [0, 0.05],
    [0.833, 0.974],
    [1, 0.974],
  ],
  code: [
    [0, 0.05],
    [0.925, 0.972],
    [1, 0.972],
  ],
  // Too few values in the corpus to fit (line-item tables, periods, host fields): evidence as is.
  other: [
    [0, 0.05],
    [1, 0.95],
  ],
};

export function calibrate(score: number, curve: CalibrationCurve): number {
  const s = Number.isFinite(score) ? Math.max(0, Math.min(1, score)) : 0;
  const first = curve[0]!;
  if (s <= first[0]) return first[1];
  for (let i = 1; i < curve.length; i++) {
    const [x1, y1] = curve[i]!;
    const [x0, y0] = curve[i - 1]!;
    if (s <= x1) return y0 + ((s - x0) / Math.max(1e-9, x1 - x0)) * (y1 - y0);
  }
  return curve[curve.length - 1]![1];
}
