import {
  calibrate,
  curveFor,
  type CalibrationGroup,
  type CalibrationTable,
} from '../extraction/calibration.js';
import { fitCalibrationTable, type EvidencePair } from './calibration-fit.js';
import { fieldMapFor, type GroundTruth, type PredictedField, type ScoreRow } from './scoring.js';

/** A predicted field's calibration key and raw evidence, by `file \0 field name`. */
export type EvidenceByField = ReadonlyMap<string, { key: string; evidence: number }>;

export function evidenceKey(file: string, field: string): string {
  return `${file}\u0000${field}`;
}

/**
 * Confidences as a held-out family would get them: for each fold (a template family, by default), the
 * calibration is fitted on the values of every other fold only, then applied to the fold's own values.
 * Answers the predictions with those out-of-fold confidences (values unchanged), and the tables fitted.
 *
 * Only what is fitted from data is refitted here: the calibration curves. The finders' rules and
 * vocabularies are not fitted, so they are the same in every fold (and were written with this corpus
 * in view: the accuracy a held-out family gets is not lowered by this, only the confidence is honest).
 */
export function crossValidate(
  truths: readonly GroundTruth[],
  predictions: ReadonlyMap<string, PredictedField[] | undefined>,
  evidence: EvidenceByField,
  rows: readonly ScoreRow[],
  foldOf: (truth: GroundTruth) => string,
): { predictions: Map<string, PredictedField[] | undefined>; tables: Map<string, CalibrationTable> } {
  const truthOf = new Map(truths.map((t) => [t.file, t]));
  const pairs: Array<EvidencePair & { fold: string }> = [];
  for (const row of rows) {
    if (row.got === null) continue;
    const truth = truthOf.get(row.file)!;
    const name = fieldMapFor(truth.type)[row.field];
    const found = name ? evidence.get(evidenceKey(row.file, name)) : undefined;
    if (found) pairs.push({ ...found, ok: row.ok, fold: foldOf(truth) });
  }
  const tables = new Map<string, CalibrationTable>();
  const out = new Map<string, PredictedField[] | undefined>();
  for (const truth of truths) {
    const fold = foldOf(truth);
    let table = tables.get(fold);
    if (!table) {
      table = fitCalibrationTable(pairs.filter((p) => p.fold !== fold));
      tables.set(fold, table);
    }
    const fields = predictions.get(truth.file);
    out.set(
      truth.file,
      fields?.map((f) => {
        const found = evidence.get(evidenceKey(truth.file, f.name));
        if (!found || f.value === null) return f;
        const [group, ocr] = found.key.split('/');
        const { curve } = curveFor(table!, group as CalibrationGroup, ocr === 'ocr');
        return { ...f, confidence: round3(calibrate(found.evidence, curve)) };
      }),
    );
  }
  return { predictions: out, tables };
}

/** As extraction rounds confidences. */
function round3(v: number): number {
  return Math.round(v * 1000) / 1000;
}
