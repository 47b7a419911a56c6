import type { TokenLayer } from '../core/types.js';
import { probability, type ReadingAgreement, type ReadingCalibration } from './ranker.js';
import type { BoundingBox, VerboseFieldResult } from './types.js';

export type { ReadingAgreement, ReadingCalibration };

/** Calibration groups that get a bias of their own in the reading calibration. */
const READING_GROUPS = ['date', 'amount', 'name', 'address'] as const;

/** The features of a value chosen across readings: a bias, its confidence's log-odds, its group. */
export function readingFeatures(confidence: number, group: string | undefined): number[] {
  const c = Math.min(0.999, Math.max(0.001, confidence));
  return [1, Math.log(c / (1 - c)), ...READING_GROUPS.map((g) => (g === group ? 1 : 0))];
}

/** Field `i` of each further reading, where that reading has the same field there (else undefined). */
export function answersAt<T extends { name: string }>(
  readings: ReadonlyArray<ReadonlyArray<T>>,
  i: number,
  name: string,
): Array<T | undefined> {
  return readings.map((fields) => (fields[i]?.name === name ? fields[i] : undefined));
}

/** A field's answer in one reading, as far as choosing needs it. */
interface Answer {
  value: unknown;
  confidence?: number;
  /** The reading's alternatives with their confidences, best first (its answer among them). */
  candidates?: ReadonlyArray<{ value: string; confidence: number }>;
}

/**
 * Groups whose values are compared letter for letter across readings: an amount or a date two
 * readings both see (one as its answer, the other as a runner-up) is better supported than one only
 * a single reading sees. Names and addresses differ by a misread letter between readings, so their
 * answers are not pooled.
 */
const POOLED_GROUPS: ReadonlySet<string> = new Set(['amount', 'date']);

/** How much more the first reading counts when pooling: it is the better one (73 against 66 %). */
const FIRST_READING_WEIGHT = 1.2;

/** A reading's confidence in `value`: its answer's, else its alternative's with that value, else 0. */
function supportIn(answer: Answer, value: unknown): number {
  const alternative = answer.candidates?.find((c) => c.value === value);
  if (alternative) return alternative.confidence;
  return answer.value === value ? (answer.confidence ?? 0) : 0;
}

/**
 * Of one field's answers in several readings (`others` aligned with `first`, undefined where a
 * reading has no such field), the one to give. For amounts and dates, the answer the readings
 * together support most: its confidence summed over the readings, as an answer or as an alternative,
 * the first reading counting 1.2 (measured on the dev corpus's 170 photos: totals +3, dates +2 in
 * sample, against taking the more confident answer). For names, one that holds every word of another
 * and more is the better; otherwise, as for other fields, the more confident of different answers
 * (the first on a tie). An answer several readings give keeps the highest of their
 * confidences. Answers that are not text (tables) stay the first reading's. `calibration` then turns
 * the confidence into one that counts the readings' agreement.
 */
export function chooseAnswer<T extends Answer>(
  first: T,
  others: ReadonlyArray<T | undefined>,
  group: string | undefined,
  calibration: ReadingCalibration | undefined,
): { answer: T; confidence: number; agreement: ReadingAgreement | undefined } {
  const alone = { answer: first, confidence: first.confidence ?? 0, agreement: undefined };
  if (first.value !== null && typeof first.value !== 'string') return alone;
  const answers = others.filter((o): o is T => o !== undefined && typeof o.value === 'string');
  if (answers.length === 0) return alone;
  let best = first;
  let agreed = first.confidence ?? 0;
  const pooled = group !== undefined && POOLED_GROUPS.has(group);
  const support = (value: unknown): number =>
    FIRST_READING_WEIGHT * supportIn(first, value) +
    answers.reduce((sum, other) => sum + supportIn(other, value), 0);
  const better = (other: T, than: T): boolean => {
    if (pooled) return support(other.value) > support(than.value);
    if (group === 'name' && typeof other.value === 'string' && typeof than.value === 'string') {
      if (holdsAllWordsOf(other.value, than.value)) return true;
      if (holdsAllWordsOf(than.value, other.value)) return false;
    }
    return (other.confidence ?? 0) > (than.confidence ?? 0);
  };
  for (const other of answers) {
    if (other.value === first.value) agreed = Math.max(agreed, other.confidence ?? 0);
    else if (best.value === null) best = other;
    else if (better(other, best)) best = other;
  }
  const given = [first, ...answers].filter((a) => a.value !== null);
  if (given.length === 0) return alone;
  const agreement: ReadingAgreement =
    given.length === 1 ? 'alone' : new Set(given.map((a) => a.value)).size === 1 ? 'agree' : 'disagree';
  const confidence = best === first ? agreed : (best.confidence ?? 0);
  const weights = calibration?.[agreement];
  return {
    answer: best,
    confidence: weights
      ? Math.round(probability(weights, readingFeatures(confidence, group)) * 1000) / 1000
      : confidence,
    agreement,
  };
}

/** The words (letters and digits) of a text, lower case. */
function wordsOf(text: string): Set<string> {
  return new Set(text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []);
}

/**
 * Whether `longer` has every word of `shorter` and more: two readings' names where one lost words
 * the other kept (`MARKET` and `FUYI MINI MARKET` under a stamp). OCR drops words far more often than
 * it makes up ones around a name, so the fuller name is given, whichever reading is more confident.
 */
function holdsAllWordsOf(longer: string, shorter: string): boolean {
  const a = wordsOf(longer);
  const b = wordsOf(shorter);
  if (b.size === 0 || a.size <= b.size) return false;
  for (const word of b) if (!a.has(word)) return false;
  return true;
}

/**
 * Fields of a document read more than once (a weak photo OCRed again from a locally thresholded
 * image): per field, the answer chooseAnswer() gives, with its confidence. A field taken from another
 * reading keeps its box (both readings are of the same image) and points at the first reading's
 * tokens under it, so every token id refers to the stored layer.
 *
 * Measured on the 171 photos of the development corpus (docs/extraction.md): the first reading alone
 * 73.3 % of the values, the thresholded one alone 66.4 %, chosen per field 75.8 %.
 */
export function chooseAcrossReadings(
  layer: TokenLayer,
  first: VerboseFieldResult[],
  others: Array<{ layer: TokenLayer; fields: VerboseFieldResult[] }>,
  calibration?: ReadingCalibration,
): VerboseFieldResult[] {
  const readings = others.map((o) => o.fields);
  return first.map((field, i) => {
    // A supplier's value a memory filled in where a reading found nothing printed (no box) does not
    // outweigh what the first reading found printed: that may be another branch's (docs/learning.md).
    const aligned = answersAt(readings, i, field.name).map((answer) =>
      answer?.learned && answer.boundingBox === null && field.value !== null ? undefined : answer,
    );
    const group = [field, ...aligned].find((a) => a?.calibration)?.calibration?.key.split('/')[0];
    const { answer, confidence } = chooseAnswer(field, aligned, group, calibration);
    if (answer === field) return confidence === field.confidence ? field : { ...field, confidence };
    return { ...onLayer(answer, layer), confidence };
  });
}

/** A field of another reading with its boxes pointing at the tokens of `layer` under them. */
function onLayer(field: VerboseFieldResult, layer: TokenLayer): VerboseFieldResult {
  const moved: VerboseFieldResult = { ...field, boundingBox: tokensUnder(field.boundingBox, layer) };
  if (field.candidates) {
    moved.candidates = field.candidates.map((c) => ({
      ...c,
      boundingBox: tokensUnder(c.boundingBox, layer),
    }));
  }
  return moved;
}

/** The box with the ids of the layer's tokens whose centres lie inside it. */
function tokensUnder(box: BoundingBox | null, layer: TokenLayer): BoundingBox | null {
  if (!box) return null;
  const tokenIds = layer.tokens
    .filter((t) => {
      if (t.pageNum !== box.pageNum) return false;
      const x = (t.box.x0 + t.box.x1) / 2;
      const y = (t.box.y0 + t.box.y1) / 2;
      return x >= box.topLeft.x && x <= box.bottomRight.x && y >= box.topLeft.y && y <= box.bottomRight.y;
    })
    .map((t) => t.id);
  return { ...box, tokenIds };
}
