import { curveFor, type CalibrationGroup, type CalibrationTable } from '../extraction/calibration.js';
import { FEATURE_NAMES } from '../extraction/candidate-features.js';
import { evidenceOf, rankCandidates, type RankerModel } from '../extraction/ranker.js';
import { calibrate } from '../extraction/calibration.js';
import {
  answersAt,
  chooseAnswer,
  readingFeatures,
  type ReadingAgreement,
  type ReadingCalibration,
} from '../extraction/readings.js';
import { fitCalibrationTable, type EvidencePair } from './calibration-fit.js';
import { trainLogistic } from './logistic.js';
import { fieldMapFor, KIND, sameValue, type GroundTruth, type PredictedField } from './scoring.js';

/** A candidate as training sees it: its value, its features, whether it was read by OCR. */
export interface CandidateRecord {
  value: string;
  features: number[];
  ocr: boolean;
  /** A reading of the field's kind no finder proposed. */
  broad?: boolean;
}

/** A field of one document: its candidates (the finders' order) and what the finders chose. */
export interface FieldRecord {
  name: string;
  group: CalibrationGroup;
  candidates: CandidateRecord[];
  /** The finders' choice: its value and evidence (the field's result without a model). */
  hand: { value: string | null; key: string | null; evidence: number };
}

export interface DocumentRecord {
  truth: GroundTruth;
  fields: FieldRecord[];
  /**
   * The fields of each further reading of the document (a weak photo read again from a thresholded
   * image), in the order of `fields`. Nothing is fitted on them; cross-validation predicts them with
   * the fold's model and chooses per field as extraction does (src/extraction/readings.ts).
   */
  readings?: FieldRecord[][];
}

/**
 * Whether a document's outcomes shape the calibration: real ones do, generated ones (src/evaluation/
 * generator) only teach the ranking. Generated documents are cleaner than real ones (a text layer,
 * regular layouts): curves fitted on them were over-sure on real invoices (measured: supplier names
 * 0.70 confidence, 0.33 right, cross-validated on the development corpus).
 */
export function calibratesConfidence(document: DocumentRecord): boolean {
  return document.truth.source !== 'generated';
}

/** A field gets a model of its own once this many documents teach it (a right candidate among theirs). */
export const MIN_DOCUMENTS = 40;
const L2 = 1;
/**
 * How much a generated document's examples count beside a real one's in fitting the ranking: 0.3 was
 * best of 1, 0.3 and 0.1 cross-validated on the development corpus (72.8 / 72.9 / 73.0 %, ECE 0.057 /
 * 0.036 / 0.049) while the generated layouts held out gained nearly as much (83.8 / 83.7 / 82.6 %).
 */
export const GENERATED_WEIGHT = 0.3;

/**
 * How much a probe document's examples count in fitting the ranking (test/probes: layouts of other
 * sources written apart from the code, made documents as the generated ones are): 0.1 was best of 0,
 * 0.1, 0.3 and 1 cross-validated on the development corpus by family (83.6 / 83.7 / 83.3 / 83.1 %, ECE
 * 0.042 / 0.029 / 0.027 / 0.028; its born-digital invoices 91.0 / 92.6 / 92.6 / 92.6 %, its photographed
 * receipts 82.6 / 82.5 / 81.9 / 81.8 %), the probe sets each held out gaining about as much at any
 * weight (94.9 / 95.0 / 95.1 / 95.2 %).
 */
export const PROBE_WEIGHT = 0.1;

/**
 * How much a document's candidates count in fitting the ranking: a generated one's `generatedWeight`,
 * a probe document's PROBE_WEIGHT, a development document's 1. (Probe documents also calibrate the
 * confidences, as development ones do: theirs are the outcomes nearest those on documents of other
 * sources.)
 */
export function rankingWeight(truth: GroundTruth, generatedWeight = GENERATED_WEIGHT): number {
  if (truth.source === 'generated') return generatedWeight;
  return truth.source === 'probe' ? PROBE_WEIGHT : 1;
}

/** The ground-truth values a field's candidates are compared with, or undefined when it has none. */
function wanted(truth: GroundTruth, name: string): { key: string; values: string[] } | undefined {
  const map = fieldMapFor(truth.type);
  const key = Object.keys(map).find((k) => map[k] === name);
  const want = key ? truth.fields[key] : undefined;
  if (!key || want === undefined || want === null || want === '') return undefined;
  return { key, values: [want, ...(truth.accept?.[key] ?? [])] };
}

/**
 * The vocabulary key of a field and whether each candidate is right; undefined when the document cannot
 * tell. A generated document's ground truth is complete: a field it does not give is not printed, so
 * every candidate of it is wrong. A real document's ground truth may leave a field out unannotated.
 */
function labelsOf(truth: GroundTruth, field: FieldRecord): { key: string; labels: boolean[] } | undefined {
  const want = wanted(truth, field.name);
  if (!want) {
    const map = fieldMapFor(truth.type);
    const key = Object.keys(map).find((k) => map[k] === field.name);
    if (truth.source !== 'generated' || !key || !KIND[key]) return undefined;
    return { key, labels: field.candidates.map(() => false) };
  }
  const kind = KIND[want.key]!;
  return {
    key: want.key,
    labels: field.candidates.map((c) => want.values.some((v) => sameValue(kind, c.value, v))),
  };
}

/**
 * Fits a model per field over the documents given: a field's examples are the candidates of every
 * document whose ground truth tells which are right (see labelsOf); fields of documents of several types that mean the same
 * (invoice.total, receipt.total: `total`) learn together. Deterministic.
 */
export function trainRanker(
  documents: readonly DocumentRecord[],
  generatedWeight = GENERATED_WEIGHT,
): RankerModel['fields'] {
  const byKey = new Map<
    string,
    { names: Set<string>; x: number[][]; y: boolean[]; w: number[]; documents: number }
  >();
  for (const { truth, fields } of documents) {
    for (const field of fields) {
      const labelled = labelsOf(truth, field);
      if (!labelled || field.candidates.length === 0) continue;
      const { key, labels } = labelled;
      const entry = byKey.get(key) ?? { names: new Set(), x: [], y: [], w: [], documents: 0 };
      const weight = rankingWeight(truth, generatedWeight);
      if (weight === 0) continue;
      byKey.set(key, entry);
      entry.names.add(field.name);
      if (labels.some(Boolean)) entry.documents++;
      field.candidates.forEach((c, i) => {
        entry.x.push(c.features);
        entry.y.push(labels[i]!);
        entry.w.push(weight);
      });
    }
  }
  const fields: RankerModel['fields'] = {};
  for (const [, entry] of [...byKey].sort(([a], [b]) => a.localeCompare(b))) {
    if (entry.documents < MIN_DOCUMENTS) continue;
    const weights = trainLogistic(entry.x, entry.y, { l2: L2, weights: entry.w });
    for (const name of [...entry.names].sort()) fields[name] = { weights, documents: entry.documents };
  }
  return fields;
}

/** A field's predicted value with its calibration key and evidence. */
export interface Prediction {
  name: string;
  value: string | null;
  key: string | null;
  evidence: number;
  /** The model's probability of each of the five best candidates' values, best first (as extraction lists them). */
  alternatives?: Array<{ value: string; score: number }>;
}

/** What the engine would answer for a document's fields with these per-field weights. */
export function predict(document: DocumentRecord, fields: RankerModel['fields']): Prediction[] {
  return document.fields.map((field) => {
    const weights = fields[field.name]?.weights;
    if (!weights || field.candidates.length === 0) return { name: field.name, ...field.hand };
    const { order, scores } = rankCandidates(
      weights,
      field.candidates.map((c) => c.features),
    );
    const ranked = order.map((i) => ({ ...field.candidates[i]!, score: scores[i]! }));
    const best = ranked[0]!;
    // As extraction does (src/extraction/extract.ts): with no candidate of the finder's own, a broad
    // reading answers only when more likely right than not.
    if (!field.candidates.some((c) => !c.broad) && best.score < 0.5)
      return { name: field.name, value: null, key: null, evidence: 0 };
    const evidence = evidenceOf(
      best,
      ranked.find((c) => c.value !== best.value),
    );
    const { key } = curveFor({}, field.group, best.ocr);
    const alternatives = ranked.slice(0, 5).map((c) => ({ value: c.value, score: c.score }));
    return { name: field.name, value: best.value, key, evidence, alternatives };
  });
}

/** Pairs of evidence and rightness for fitting calibration, from predictions of scored fields. */
export function evidencePairs(
  documents: readonly DocumentRecord[],
  predictions: ReadonlyMap<string, Prediction[]>,
): Array<EvidencePair & { file: string }> {
  const pairs: Array<EvidencePair & { file: string }> = [];
  for (const { truth } of documents) {
    for (const p of predictions.get(truth.file) ?? []) {
      const want = wanted(truth, p.name);
      if (!want || p.value === null || p.key === null) continue;
      const kind = KIND[want.key]!;
      pairs.push({
        file: truth.file,
        key: p.key,
        evidence: p.evidence,
        ok: want.values.some((v) => sameValue(kind, p.value, v)),
      });
    }
  }
  return pairs;
}

/**
 * Leave-one-fold-out: for each fold, the models are fitted on the other folds' documents and predict
 * the fold's. Answers every document's out-of-fold predictions (the models never saw its family).
 */
export function outOfFold(
  documents: readonly DocumentRecord[],
  foldOf: (truth: GroundTruth) => string,
): Map<string, Prediction[]> {
  const folds = new Map<string, DocumentRecord[]>();
  for (const doc of documents) {
    const fold = foldOf(doc.truth);
    (folds.get(fold) ?? folds.set(fold, []).get(fold)!).push(doc);
  }
  const out = new Map<string, Prediction[]>();
  for (const [fold, held] of folds) {
    const fields = trainRanker(documents.filter((d) => foldOf(d.truth) !== fold));
    for (const doc of held) {
      out.set(doc.truth.file, predict(doc, fields));
      doc.readings?.forEach((reading, k) =>
        out.set(readingKey(doc.truth.file, k), predict({ ...doc, fields: reading }, fields)),
      );
    }
  }
  return out;
}

/** Where out-of-fold predictions of a document's further reading `k` are kept. */
function readingKey(file: string, k: number): string {
  return `${file}\u0000reading ${k}`;
}

/**
 * Per field, the answer src/extraction/readings.ts gives across readings (chooseAnswer): the more
 * confident of different answers, agreement keeping the highest confidence, and `calibration` turning
 * the confidence into one that counts the agreement. `groups` are the fields' calibration groups.
 */
export function chooseReadings(
  first: PredictedField[],
  others: PredictedField[][],
  groups: ReadonlyArray<string | undefined> = [],
  calibration?: ReadingCalibration,
): PredictedField[] {
  return first.map((field, i) => {
    const { answer, confidence } = chooseAnswer(
      field,
      answersAt(others, i, field.name),
      groups[i],
      calibration,
    );
    return { ...answer, confidence };
  });
}

/** A value chosen across readings with its reading's confidence, how the readings agreed, and whether it was right. */
export interface ReadingPair {
  file: string;
  agreement: ReadingAgreement;
  confidence: number;
  group: string;
  ok: boolean;
}

/** Values of an agreement the reading calibration needs before it gets weights of its own. */
export const MIN_READING_PAIRS = 30;

/**
 * The reading calibration (src/extraction/readings.ts): per agreement with enough values, a logistic
 * model of rightness over the reading's confidence and group. Deterministic.
 */
export function fitReadingCalibration(pairs: readonly ReadingPair[]): ReadingCalibration {
  const calibration: ReadingCalibration = {};
  for (const agreement of ['agree', 'disagree', 'alone'] as const) {
    const list = pairs.filter((p) => p.agreement === agreement);
    if (list.length < MIN_READING_PAIRS) continue;
    calibration[agreement] = trainLogistic(
      list.map((p) => readingFeatures(p.confidence, p.group)),
      list.map((p) => p.ok),
      { l2: L2 },
    );
  }
  return calibration;
}

/**
 * Every document's predictions per reading as result fields, each with confidences from curves fitted
 * without its family (on the other families' out-of-fold evidence), and those curves by family.
 */
function heldOutConfidences(
  documents: readonly DocumentRecord[],
  foldOf: (truth: GroundTruth) => string,
  outOfFoldPredictions: ReadonlyMap<string, Prediction[]>,
): Map<string, { first: PredictedField[]; others: PredictedField[][] }> {
  const pairs = evidencePairs(documents.filter(calibratesConfidence), outOfFoldPredictions);
  const foldOfFile = new Map(documents.map((d) => [d.truth.file, foldOf(d.truth)]));
  const tables = new Map<string, CalibrationTable>();
  const out = new Map<string, { first: PredictedField[]; others: PredictedField[][] }>();
  for (const doc of documents) {
    const fold = foldOf(doc.truth);
    let table = tables.get(fold);
    if (!table) {
      table = fitCalibrationTable(pairs.filter((p) => foldOfFile.get(p.file) !== fold));
      tables.set(fold, table);
    }
    out.set(doc.truth.file, {
      first: asResultFields(outOfFoldPredictions.get(doc.truth.file) ?? [], table),
      others: (doc.readings ?? []).map((_, k) =>
        asResultFields(outOfFoldPredictions.get(readingKey(doc.truth.file, k)) ?? [], table),
      ),
    });
  }
  return out;
}

/** The values of documents read more than once, chosen across readings without reading calibration, for fitting it. */
function readingPairs(
  documents: readonly DocumentRecord[],
  held: ReadonlyMap<string, { first: PredictedField[]; others: PredictedField[][] }>,
): ReadingPair[] {
  const pairs: ReadingPair[] = [];
  for (const doc of documents) {
    const readings = held.get(doc.truth.file);
    if (!readings || readings.others.length === 0) continue;
    readings.first.forEach((field, i) => {
      const want = wanted(doc.truth, field.name);
      const group = doc.fields[i]?.group;
      if (!want || !group) return;
      const aligned = answersAt(readings.others, i, field.name);
      const { answer, confidence, agreement } = chooseAnswer(field, aligned, group, undefined);
      if (!agreement || answer.value === null) return;
      const kind = KIND[want.key]!;
      const ok = want.values.some((v) => sameValue(kind, answer.value, v));
      pairs.push({ file: doc.truth.file, agreement, confidence, group, ok });
    });
  }
  return pairs;
}

/** Predictions as result fields, with confidences from `table` (by key, falling back per group). */
export function asResultFields(
  predictions: readonly Prediction[],
  table: CalibrationTable,
): PredictedField[] {
  return predictions.map((p) => {
    if (p.value === null || p.key === null) return { name: p.name, value: p.value, confidence: 0 };
    const [group, ocr] = p.key.split('/');
    const { curve } = curveFor(table, group as CalibrationGroup, ocr === 'ocr');
    const confidence = (score: number) => Math.round(calibrate(score, curve) * 1000) / 1000;
    return {
      name: p.name,
      value: p.value,
      confidence: confidence(p.evidence),
      ...(p.alternatives && {
        candidates: p.alternatives.map((a) => ({ value: a.value, confidence: confidence(a.score) })),
      }),
    };
  });
}

/**
 * The model to ship: weights fitted on every document, and calibration fitted on out-of-fold evidence
 * (what a model's confidence must mean is how often it is right on documents it did not learn from).
 */
export function fitModel(
  documents: readonly DocumentRecord[],
  foldOf: (truth: GroundTruth) => string,
): {
  model: RankerModel;
  outOfFold: Map<string, Prediction[]>;
} {
  const oof = outOfFold(documents, foldOf);
  const real = documents.filter(calibratesConfidence);
  const calibration = fitCalibrationTable(evidencePairs(real, oof));
  const readings = fitReadingCalibration(readingPairs(real, heldOutConfidences(documents, foldOf, oof)));
  return {
    model: {
      version: 1,
      features: [...FEATURE_NAMES],
      fields: trainRanker(documents),
      calibration,
      ...(Object.keys(readings).length > 0 ? { readings } : {}),
    },
    outOfFold: oof,
  };
}

/**
 * Leave-one-family-out figures of the whole extraction: values chosen by models fitted without the
 * family, confidences from curves fitted without it (on the other families' out-of-fold evidence),
 * and for photos read twice the reading calibration fitted on the other families' values (whose
 * confidences come from curves fitted without their own family, so the held-out family's outcomes
 * reach it only through those curves, one family among over a hundred). Answers the held-out
 * predictions as result fields, ready to score.
 */
export function crossValidatedFields(
  documents: readonly DocumentRecord[],
  foldOf: (truth: GroundTruth) => string,
  outOfFoldPredictions: ReadonlyMap<string, Prediction[]> = outOfFold(documents, foldOf),
): Map<string, PredictedField[]> {
  const held = heldOutConfidences(documents, foldOf, outOfFoldPredictions);
  const pairs = readingPairs(documents.filter(calibratesConfidence), held);
  const foldOfFile = new Map(documents.map((d) => [d.truth.file, foldOf(d.truth)]));
  const readingTables = new Map<string, ReadingCalibration>();
  const out = new Map<string, PredictedField[]>();
  for (const doc of documents) {
    const { first, others } = held.get(doc.truth.file)!;
    if (others.length === 0) {
      out.set(doc.truth.file, first);
      continue;
    }
    const fold = foldOf(doc.truth);
    let readings = readingTables.get(fold);
    if (!readings) {
      readings = fitReadingCalibration(pairs.filter((p) => foldOfFile.get(p.file) !== fold));
      readingTables.set(fold, readings);
    }
    const groups = doc.fields.map((f) => f.group);
    out.set(doc.truth.file, chooseReadings(first, others, groups, readings));
  }
  return out;
}
