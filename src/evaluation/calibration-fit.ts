import type { CalibrationCurve, CalibrationTable } from '../extraction/calibration.js';
import { fitIsotonic } from './isotonic.js';

/** A predicted value's calibration key (`amount`, `name/ocr`...), its raw evidence, and whether it was right. */
export interface EvidencePair {
  key: string;
  evidence: number;
  ok: boolean;
}

/** Values a key needs before it gets a curve of its own; fewer fall back to their group, then to `*`. */
export const MIN_VALUES_PER_CURVE = 10;

/** The curve of values nothing was fitted for (line-item tables, periods, host fields): evidence as is. */
const OTHER: CalibrationCurve = [
  [0, 0.05],
  [1, 0.95],
];

/**
 * A calibration table fitted by isotonic regression, the same way for the shipped curves (`npm run eval
 * -- DIR --fit`) and for each fold of a cross-validation (`--cv family`): a curve per key with at least
 * MIN_VALUES_PER_CURVE values; a group (`amount`) whose own key has fewer but whose keys together have
 * enough gets one from all of them, so `amount/ocr` and `amount` fall back to it; `*` from every value;
 * `other` as it is.
 */
export function fitCalibrationTable(
  pairs: readonly EvidencePair[],
  minValues = MIN_VALUES_PER_CURVE,
): CalibrationTable {
  const byKey = new Map<string, Array<[number, boolean]>>();
  const byGroup = new Map<string, Array<[number, boolean]>>();
  for (const { key, evidence, ok } of pairs) {
    const group = key.split('/')[0]!;
    (byKey.get(key) ?? byKey.set(key, []).get(key)!).push([evidence, ok]);
    (byGroup.get(group) ?? byGroup.set(group, []).get(group)!).push([evidence, ok]);
  }
  const table: Record<string, CalibrationCurve> = {};
  for (const [key, list] of [...byKey].sort(([a], [b]) => a.localeCompare(b))) {
    if (list.length >= minValues) table[key] = fitIsotonic(list);
  }
  for (const [group, list] of [...byGroup].sort(([a], [b]) => a.localeCompare(b))) {
    if (!table[group] && list.length >= minValues) table[group] = fitIsotonic(list);
  }
  if (pairs.length > 0) table['*'] = fitIsotonic(pairs.map((p) => [p.evidence, p.ok] as [number, boolean]));
  table.other = OTHER;
  return table;
}
