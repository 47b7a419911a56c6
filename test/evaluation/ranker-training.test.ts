import { describe, expect, it } from 'vitest';
import { calibrate, curveFor } from '../../src/extraction/calibration.js';
import { FEATURE_NAMES } from '../../src/extraction/candidate-features.js';
import { fitCalibrationTable } from '../../src/evaluation/calibration-fit.js';
import { trainLogistic } from '../../src/evaluation/logistic.js';
import {
  chooseReadings,
  crossValidatedFields,
  fitModel,
  fitReadingCalibration,
  MIN_READING_PAIRS,
  outOfFold,
  predict,
  PROBE_WEIGHT,
  trainRanker,
  type DocumentRecord,
} from '../../src/evaluation/ranker-training.js';
import { scoreCorpus } from '../../src/evaluation/scoring.js';

/** A feature vector with `on` set to 1 (and the bias). */
function features(on: Partial<Record<(typeof FEATURE_NAMES)[number], number>>): number[] {
  return FEATURE_NAMES.map((name) => (name === 'bias' ? 1 : (on[name] ?? 0)));
}

/**
 * Receipts whose right total is the largest amount printed at the bottom, while the finders put
 * another amount first. `family` names the template family; `flip` makes a family where the rule is
 * the other way round (the smallest amount at the top).
 */
function receipts(family: string, count: number, flip = false): DocumentRecord[] {
  return Array.from({ length: count }, (_, i) => {
    const right = {
      value: `${100 + i}.00`,
      features: features({ 'largest-value': 1, 'bottom-third': 1, score: 0.5 }),
      ocr: true,
    };
    const wrong = {
      value: `${i}.50`,
      features: features({ 'smallest-value': 1, 'top-quarter': 1, score: 0.7 }),
      ocr: true,
    };
    const [first, second] = flip ? [right, wrong] : [wrong, right];
    return {
      truth: {
        file: `${family}/${i}.jpg`,
        type: 'receipt',
        family,
        fields: { total: flip ? `${i}.50` : `${100 + i}.00` },
      },
      fields: [
        {
          name: 'receipt.total',
          group: 'amount',
          candidates: [first, second],
          hand: { value: first.value, key: 'amount/ocr', evidence: 0.7 },
        },
      ],
    };
  });
}

describe('logistic regression', () => {
  it('separates what one feature tells apart, deterministically', () => {
    const x = [
      features({ score: 1 }),
      features({ score: 0 }),
      features({ score: 1 }),
      features({ score: 0 }),
    ];
    const y = [true, false, true, false];
    const w = trainLogistic(x, y, { l2: 0.1 });
    expect(w[FEATURE_NAMES.indexOf('score')]).toBeGreaterThan(2);
    expect(trainLogistic(x, y, { l2: 0.1 })).toEqual(w);
  });
});

describe('learned ranking of candidates', () => {
  it('learns which candidate is right from enough documents, and chooses it over the finders', () => {
    const documents = receipts('shop-a', 30).concat(receipts('shop-b', 30));
    const fields = trainRanker(documents);
    expect(Object.keys(fields)).toEqual(['receipt.total']);
    const [prediction] = predict(documents[0]!, fields);
    expect(prediction).toMatchObject({ name: 'receipt.total', value: '100.00', key: 'amount/ocr' });
    // Too few documents for a field: no model (the finders' order stays).
    expect(trainRanker(receipts('shop-a', 10))).toEqual({});
  });

  it('learns from probe documents at a weight of their own; unlike generated ones, how often it is right on them calibrates it', () => {
    const family = (t: { family?: string }) => t.family!;
    const real = [...receipts('a', 25), ...receipts('b', 25), ...receipts('c', 25)];
    // A probe set printed the other way round: the ranking learned from the others reads it wrong.
    const odd = receipts('probe-odd', 40, true);
    const as = (source: string) => odd.map((d) => ({ ...d, truth: { ...d.truth, source } }));
    const probes = as('probe');
    // They count PROBE_WEIGHT of a development document in the ranking (as generated ones weighted so)...
    expect(PROBE_WEIGHT).toBeGreaterThan(0);
    expect(PROBE_WEIGHT).toBeLessThan(1);
    expect(trainRanker([...real, ...probes])).toEqual(
      trainRanker([...real, ...as('generated')], PROBE_WEIGHT),
    );
    expect(trainRanker([...real, ...probes])).not.toEqual(trainRanker(real));
    // ...and, unlike those, their outcomes calibrate: the same evidence is trusted less.
    const sure = (calibration: ReturnType<typeof fitModel>['model']['calibration']) =>
      calibrate(0.95, curveFor(calibration, 'amount', true).curve);
    const generated = sure(fitModel([...real, ...as('generated')], family).model.calibration);
    const withProbes = sure(fitModel([...real, ...probes], family).model.calibration);
    expect(generated).toBeGreaterThan(0.9);
    expect(withProbes).toBeLessThan(generated - 0.2);
  });

  it('cross-validates by family: a family unlike the others is predicted by models that never saw it', () => {
    const documents = [
      ...receipts('a', 25),
      ...receipts('b', 25),
      ...receipts('c', 25),
      ...receipts('odd', 25, true),
    ];
    const family = (t: { family?: string }) => t.family!;
    const held = outOfFold(documents, family);
    // Learned on a, b and c only, the odd family's totals are read the way they print them: wrong.
    expect(held.get('odd/0.jpg')![0]!.value).toBe('100.00');
    expect(held.get('a/0.jpg')![0]!.value).toBe('100.00');
    const fields = crossValidatedFields(documents, family, held);
    const report = scoreCorpus(
      documents.map((d) => d.truth),
      fields,
    );
    expect(report.accuracy).toBeCloseTo(75 / 100);
    // Calibration fitted without the odd family still believes in the reading: over-sure, as a held-out
    // family shows.
    expect(fields.get('odd/0.jpg')![0]!.confidence).toBeGreaterThan(0.5);
  });

  it("predicts a document's further reading with the fold's model and chooses per field by confidence", () => {
    const family = (t: { family?: string }) => t.family!;
    // Readings of full quality (unambiguous amounts), so that the model's probabilities are evidence.
    const quality = FEATURE_NAMES.indexOf('quality');
    const sure = (docs: DocumentRecord[]): DocumentRecord[] =>
      docs.map((d) => ({
        ...d,
        fields: d.fields.map((f) => ({
          ...f,
          candidates: f.candidates.map((c) => ({
            ...c,
            features: c.features.map((v, k) => (k === quality ? 1 : v)),
          })),
        })),
      }));
    const documents = sure([...receipts('a', 25), ...receipts('b', 25), ...receipts('c', 25)]);
    // A photo whose first reading misread its total (two small amounts at the top, neither right),
    // read again: the second reading has the total at the bottom, as the model learned.
    const photo = sure(receipts('d', 1))[0]!;
    const [total] = photo.fields;
    const [wrong] = total!.candidates;
    photo.fields = [{ ...total!, candidates: [wrong!, { ...wrong!, value: '1.50' }] }];
    photo.readings = [[total!]];
    documents.push(photo);
    const held = outOfFold(documents, family);
    const fields = crossValidatedFields(documents, family, held);
    expect(fields.get('d/0.jpg')![0]!.value).toBe('100.00');
    // Without the second reading the photo's total is the first reading's wrong one.
    const alone = crossValidatedFields(
      documents.map((d) => (d === photo ? { ...d, readings: [] } : d)),
      family,
    );
    expect(alone.get('d/0.jpg')![0]!.value).toBe('0.50');
  });

  it('chooses across readings as extraction does: the more confident answer, agreement keeps the highest', () => {
    const first = [
      { name: 'receipt.total', value: '12.50', confidence: 0.4 },
      { name: 'document.date', value: '2024-03-14', confidence: 0.6 },
      { name: 'document.supplierName', value: null, confidence: 0 },
    ];
    const second = [
      { name: 'receipt.total', value: '12.60', confidence: 0.7 },
      { name: 'document.date', value: '2024-03-14', confidence: 0.9 },
      { name: 'document.supplierName', value: 'CORNER SHOP', confidence: 0.3 },
    ];
    expect(chooseReadings(first, [second])).toEqual([
      { name: 'receipt.total', value: '12.60', confidence: 0.7 },
      { name: 'document.date', value: '2024-03-14', confidence: 0.9 },
      { name: 'document.supplierName', value: 'CORNER SHOP', confidence: 0.3 },
    ]);
    expect(chooseReadings(first, [])).toEqual(first);
  });

  it('fits the confidence of answers chosen across readings by whether the readings agreed', () => {
    const pair = (agreement: 'agree' | 'disagree' | 'alone', ok: boolean) => ({
      file: 'f',
      agreement,
      confidence: 0.8,
      group: 'date',
      ok,
    });
    // At the same reading confidence, agreeing readings were right 38 times in 40, disagreeing ones 16.
    const pairs = [
      ...Array.from({ length: 40 }, (_, i) => pair('agree', i >= 2)),
      ...Array.from({ length: 40 }, (_, i) => pair('disagree', i < 16)),
      ...Array.from({ length: MIN_READING_PAIRS - 1 }, () => pair('alone', true)),
    ];
    const calibration = fitReadingCalibration(pairs);
    expect(Object.keys(calibration).sort()).toEqual(['agree', 'disagree']);
    expect(fitReadingCalibration(pairs)).toEqual(calibration);
    const first = [
      { name: 'document.date', value: '2024-03-14', confidence: 0.8 },
      { name: 'receipt.total', value: '12.50', confidence: 0.8 },
    ];
    const second = [
      { name: 'document.date', value: '2024-03-14', confidence: 0.8 },
      { name: 'receipt.total', value: '12.80', confidence: 0.8 },
    ];
    const [date, total] = chooseReadings(first, [second], ['date', 'amount'], calibration);
    expect(date!.confidence).toBeGreaterThan(0.9);
    expect(total!.confidence).toBeLessThan(0.5);
  });

  it('ships a reading calibration fitted on photos read twice, and cross-validates it by family', () => {
    const family = (t: { family?: string }) => t.family!;
    const twice = (docs: DocumentRecord[]): DocumentRecord[] =>
      docs.map((d) => ({ ...d, readings: [d.fields] }));
    const documents = twice([...receipts('a', 25), ...receipts('b', 25), ...receipts('c', 25)]);
    const { model } = fitModel(documents, family);
    // Every photo's readings agreed on its total, rightly: agreement is fitted, nothing else is.
    expect(Object.keys(model.readings!)).toEqual(['agree']);
    const withReadings = crossValidatedFields(documents, family).get('a/0.jpg')![0]!;
    const without = crossValidatedFields(
      documents.map((d) => ({ ...d, readings: [] })),
      family,
    ).get('a/0.jpg')![0]!;
    expect(withReadings.value).toBe(without.value);
    expect(withReadings.confidence).toBeGreaterThan(without.confidence!);
  });

  it('fits calibration curves per key with fallbacks', () => {
    const table = fitCalibrationTable(
      Array.from({ length: 20 }, (_, i) => ({ key: 'amount/ocr', evidence: i / 20, ok: i > 8 })),
    );
    expect(Object.keys(table).sort()).toEqual(['*', 'amount', 'amount/ocr', 'other']);
  });
});
