import { describe, expect, it } from 'vitest';
import { fitCalibrationTable } from '../../src/evaluation/calibration-fit.js';
import { crossValidate, evidenceKey } from '../../src/evaluation/cross-validation.js';
import { scoreCorpus, type GroundTruth, type PredictedField } from '../../src/evaluation/scoring.js';

describe('calibration fitted for cross-validation', () => {
  it('gives a key its own curve from 10 values, else its group one, and always * and other', () => {
    const pairs = [
      ...Array.from({ length: 12 }, (_, i) => ({ key: 'amount', evidence: 0.5 + i / 30, ok: i > 3 })),
      ...Array.from({ length: 4 }, () => ({ key: 'amount/ocr', evidence: 0.6, ok: false })),
      ...Array.from({ length: 6 }, () => ({ key: 'date', evidence: 0.9, ok: true })),
      ...Array.from({ length: 6 }, () => ({ key: 'date/ocr', evidence: 0.8, ok: true })),
    ];
    const table = fitCalibrationTable(pairs);
    expect(Object.keys(table).sort()).toEqual(['*', 'amount', 'date', 'other']);
    for (const curve of Object.values(table)) {
      for (let i = 1; i < curve.length; i++) {
        expect(curve[i]![0]).toBeGreaterThanOrEqual(curve[i - 1]![0]);
        expect(curve[i]![1]).toBeGreaterThanOrEqual(curve[i - 1]![1]);
      }
    }
  });
});

describe('leave-one-family-out cross-validation', () => {
  it('gives each family the confidence fitted on the others only, never on its own outcomes', () => {
    // Family A: its totals read with evidence 0.9 are all wrong; family B: all right at the same evidence.
    const truths: GroundTruth[] = [];
    const predictions = new Map<string, PredictedField[]>();
    const evidence = new Map<string, { key: string; evidence: number }>();
    for (const family of ['A', 'B']) {
      for (let i = 0; i < 12; i++) {
        const file = `${family}/${i}.pdf`;
        truths.push({ file, type: 'invoice', family, fields: { total: '10.00' } });
        predictions.set(file, [
          { name: 'invoice.total', value: family === 'A' ? '99.00' : '10.00', confidence: 0.5 },
        ]);
        evidence.set(evidenceKey(file, 'invoice.total'), { key: 'amount', evidence: 0.9 });
      }
    }
    const inSample = scoreCorpus(truths, predictions);
    const cv = crossValidate(truths, predictions, evidence, inSample.rows, (t) => t.family!);
    const confidenceOf = (file: string) => cv.predictions.get(file)![0]!.confidence!;
    // Fitted on B alone (all right), A's values look certain; fitted on A alone, B's look wrong.
    expect(confidenceOf('A/0.pdf')).toBeGreaterThan(0.9);
    expect(confidenceOf('B/0.pdf')).toBeLessThan(0.1);
    // Values are the same; only confidences change, so accuracy is the same and calibration honest:
    const cvReport = scoreCorpus(truths, cv.predictions);
    expect(cvReport.accuracy).toBe(inSample.accuracy);
    expect(cvReport.ece).toBeGreaterThan(0.8);
    expect([...cv.tables.keys()].sort()).toEqual(['A', 'B']);
  });
});
