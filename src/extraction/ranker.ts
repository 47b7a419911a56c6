import type { CalibrationTable } from './calibration.js';
import { FEATURE_NAMES } from './candidate-features.js';

/**
 * How the readings of a document answered a field: all with the same value (`agree`), with
 * different values (`disagree`), or only one of them with a value (`alone`).
 */
export type ReadingAgreement = 'agree' | 'disagree' | 'alone';

/**
 * Logistic weights per agreement over readingFeatures() (src/extraction/readings.ts): the confidence
 * of a value chosen across readings, given the calibrated confidence of its reading and whether the
 * readings agreed. Fitted by `npm run train` on out-of-fold confidences (src/evaluation/
 * ranker-training.ts); an agreement without weights keeps the reading's confidence.
 *
 * Why: the curves are fitted on single readings. Across readings, agreement is evidence of its own:
 * on the development corpus's 158 photos read twice, dates both readings gave were right 99 % of the
 * time at a mean confidence of 0.87, and dates they gave differently 47 % at 0.85.
 */
export type ReadingCalibration = Partial<Record<ReadingAgreement, number[]>>;

/**
 * A learned ranking of a field's candidates: per field, a logistic model over the generic candidate
 * features (src/extraction/candidate-features.ts) that gives each candidate the probability of being
 * the printed value the field asks for. Fitted by `npm run train` (src/evaluation/train.ts) and shipped
 * as data (ranker-model.json); fields without a model keep the finders' own order.
 */
export interface RankerModel {
  version: 1;
  /** The feature names the weights go with, in order (a model for other features is not used). */
  features: string[];
  /** Weights by result field name, with the number of documents they were fitted on. */
  fields: Record<string, { weights: number[]; documents: number }>;
  /** Curves for the evidence of every field (ranked or not), fitted on out-of-fold evidence. */
  calibration: CalibrationTable;
  /** The confidence of a value chosen across readings of a photo, by their agreement (readings.ts). */
  readings?: ReadingCalibration;
}

/** The weights of a field, when the model has some for the features of this build. */
export function weightsFor(model: RankerModel | undefined, field: string): number[] | undefined {
  if (!model || model.features.length !== FEATURE_NAMES.length) return undefined;
  if (model.features.some((name, i) => name !== FEATURE_NAMES[i])) return undefined;
  return model.fields[field]?.weights;
}

export function probability(weights: readonly number[], features: readonly number[]): number {
  let z = 0;
  for (let i = 0; i < weights.length; i++) z += weights[i]! * (features[i] ?? 0);
  return 1 / (1 + Math.exp(-z));
}

/**
 * The candidates in the model's order (most probable first, the finders' order breaking ties) and each
 * one's probability.
 */
export function rankCandidates(
  weights: readonly number[],
  features: readonly (readonly number[])[],
): { order: number[]; probabilities: number[]; scores: number[] } {
  const probabilities = features.map((f) => probability(weights, f));
  const order = probabilities.map((_, i) => i).sort((a, b) => probabilities[b]! - probabilities[a]! || a - b);
  // The evidence of a candidate: its probability, lowered when its reading allowed others (a date that
  // reads day-first or month-first), whatever the model learned of such readings elsewhere.
  const scores = probabilities.map((p, i) => p * Math.min(1, features[i]![QUALITY] ?? 1));
  return { order, probabilities, scores };
}

const QUALITY = FEATURE_NAMES.indexOf('quality');

/**
 * The evidence behind the chosen value: its score, less when a runner-up with another value comes
 * close (the same rule for the finders' scores and the model's probabilities).
 */
export function evidenceOf(
  best: { value: string; score: number },
  rival: { score: number } | undefined,
): number {
  if (!rival) return best.score;
  const margin = Math.max(0, best.score - rival.score);
  return best.score * (0.75 + 0.25 * Math.min(1, margin / 0.3));
}
