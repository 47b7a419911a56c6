/**
 * Maps a finder's evidence score (0..1) to the probability that the value is right, per group of
 * fields. The points are fitted on the development corpus (`npm run eval -- --fit`) by isotonic
 * regression over score bins and interpolated linearly between them.
 */
export type CalibrationGroup = 'amount' | 'date' | 'reference' | 'name' | 'address' | 'id' | 'code' | 'other';

export type CalibrationCurve = ReadonlyArray<readonly [score: number, probability: number]>;

/**
 * Curves by key: a group (`amount`), or a group for values read by OCR (`amount/ocr`), which earn less
 * trust for the same evidence. Lookup falls back from `group/ocr` to `group` to `*`.
 */
export type CalibrationTable = Readonly<Record<string, CalibrationCurve>>;

export function curveFor(
  table: CalibrationTable,
  group: CalibrationGroup,
  ocr: boolean,
): { key: string; curve: CalibrationCurve } {
  // The key names the value's kind whichever curve stands in for it, so curves can be fitted per key.
  const key = ocr ? `${group}/ocr` : group;
  const curve = table[key] ??
    table[group] ??
    table['*'] ?? [
      [0, 0.05],
      [1, 0.95],
    ];
  return { key, curve };
}

// Fitted on the development corpus (67 documents, 347 predicted values) with `npm run eval -- DIR --fit`;
// keys with fewer than 10 values there (code/ocr, reference/ocr) fall back to their group.
export const CALIBRATION: CalibrationTable = {
  amount: [
    [0, 0.05],
    [0.62, 0.75],
    [0.867, 0.879],
    [0.927, 0.938],
    [1, 0.938],
  ],
  'amount/ocr': [
    [0, 0.05],
    [0.29, 0.25],
    [0.433, 0.5],
    [0.592, 0.633],
    [0.762, 0.75],
    [0.878, 0.977],
    [1, 0.977],
  ],
  date: [
    [0, 0.05],
    [0.792, 0.906],
    [0.979, 0.938],
    [1, 0.938],
  ],
  'date/ocr': [
    [0, 0.05],
    [0.155, 0.75],
    [0.26, 0.821],
    [0.632, 0.938],
    [1, 0.944],
  ],
  reference: [
    [0, 0.05],
    [0.922, 0.972],
    [1, 0.972],
  ],
  name: [
    [0, 0.05],
    [0.629, 0.188],
    [0.874, 0.625],
    [1, 0.625],
  ],
  'name/ocr': [
    [0, 0.05],
    [0.304, 0.214],
    [0.531, 0.618],
    [0.81, 0.843],
    [1, 0.843],
  ],
  address: [
    [0, 0.05],
    [0.838, 0.944],
    [1, 0.944],
  ],
  'address/ocr': [
    [0, 0.05],
    [0.601, 0.417],
    [0.698, 0.65],
    [0.779, 0.7],
    [0.834, 0.75],
    [0.908, 0.864],
    [1, 0.864],
  ],
  id: [
    [0, 0.05],
    [0.833, 0.974],
    [1, 0.974],
  ],
  code: [
    [0, 0.05],
    [0.945, 0.967],
    [1, 0.967],
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
