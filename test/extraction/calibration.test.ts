import { afterAll, describe, expect, it } from 'vitest';
import {
  CALIBRATION,
  calibrate,
  curveFor,
  type CalibrationCurve,
  type CalibrationGroup,
} from '../../src/extraction/calibration.js';
import { extractFields, groupOf } from '../../src/extraction/extract.js';
import { fitIsotonic } from '../../src/evaluation/isotonic.js';
import { fieldsOf, readPages, sheet, textOnlyEngine } from '../helpers/make-invoices.js';
import { mulberry32 } from '../helpers/random.js';

const GROUPS: CalibrationGroup[] = ['amount', 'date', 'reference', 'name', 'address', 'id', 'code', 'other'];

/** A small deterministic generator, so the random cases are the same on every run. */
const random = mulberry32;

function expectNonDecreasing(values: number[]): void {
  for (let i = 1; i < values.length; i++) expect(values[i]!).toBeGreaterThanOrEqual(values[i - 1]!);
}

describe('calibrate', () => {
  const straight: CalibrationCurve = [
    [0, 0.05],
    [1, 0.95],
  ];
  const bent: CalibrationCurve = [
    [0.2, 0.1],
    [0.5, 0.4],
    [0.8, 0.9],
  ];

  it('interpolates linearly between the points', () => {
    expect(calibrate(0.5, straight)).toBeCloseTo(0.5, 12);
    expect(calibrate(0.25, straight)).toBeCloseTo(0.275, 12);
    expect(calibrate(0.35, bent)).toBeCloseTo(0.25, 12);
    expect(calibrate(0.65, bent)).toBeCloseTo(0.65, 12);
    expect(calibrate(0.74, bent)).toBeCloseTo(0.8, 12);
  });

  it('gives the points themselves at their scores', () => {
    expect(calibrate(0, straight)).toBe(0.05);
    expect(calibrate(1, straight)).toBe(0.95);
    expect(calibrate(0.2, bent)).toBe(0.1);
    expect(calibrate(0.5, bent)).toBeCloseTo(0.4, 12);
    expect(calibrate(0.8, bent)).toBeCloseTo(0.9, 12);
  });

  it('holds the end values outside the curve and clamps scores outside [0, 1]', () => {
    expect(calibrate(0.1, bent)).toBe(0.1);
    expect(calibrate(0, bent)).toBe(0.1);
    expect(calibrate(0.95, bent)).toBe(0.9);
    expect(calibrate(-3, straight)).toBe(0.05);
    expect(calibrate(7, straight)).toBe(0.95);
    expect(calibrate(-0.5, bent)).toBe(0.1);
    expect(calibrate(1.5, bent)).toBe(0.9);
  });

  it('copes with a step (two points at one score) without dividing by zero', () => {
    const step: CalibrationCurve = [
      [0, 0],
      [0.5, 0.2],
      [0.5, 0.8],
      [1, 1],
    ];
    expect(calibrate(0.5, step)).toBeCloseTo(0.2, 12);
    expect(calibrate(0.6, step)).toBeCloseTo(0.84, 12);
    for (let s = 0; s <= 1; s += 0.05) expect(Number.isFinite(calibrate(s, step))).toBe(true);
  });

  it('has a built-in curve for every group: scores 0 to 1, rising, probabilities in [0, 1]', () => {
    for (const group of GROUPS) {
      expect(CALIBRATION[group], group).toBeDefined();
      expect(curveFor(CALIBRATION, group, true).curve.length).toBeGreaterThanOrEqual(2);
    }
    for (const [key, curve] of Object.entries(CALIBRATION)) {
      expect(key).toMatch(/^(amount|date|reference|name|address|id|code|other)(\/ocr)?$/);
      expect(curve.length).toBeGreaterThanOrEqual(2);
      expect(curve[0]![0]).toBe(0);
      expect(curve[curve.length - 1]![0]).toBe(1);
      expectNonDecreasing(curve.map((p) => p[0]));
      expectNonDecreasing(curve.map((p) => p[1]));
      for (const [, p] of curve) {
        expect(p).toBeGreaterThanOrEqual(0);
        expect(p).toBeLessThanOrEqual(1);
      }
      const mapped = Array.from({ length: 21 }, (_, i) => calibrate(i / 20, curve));
      expectNonDecreasing(mapped);
    }
  });

  it('groups fields for calibration by their kind, the supplier address on its own', () => {
    expect(groupOf({ name: 'invoice.total', kind: 'amount' })).toBe('amount');
    expect(groupOf({ name: 'document.date', kind: 'date' })).toBe('date');
    expect(groupOf({ name: 'document.referenceNo', kind: 'reference' })).toBe('reference');
    expect(groupOf({ name: 'document.supplierName', kind: 'text' })).toBe('name');
    expect(groupOf({ name: 'document.supplierAddress', kind: 'text' })).toBe('address');
    expect(groupOf({ name: 'bank.iban', kind: 'iban' })).toBe('id');
    expect(groupOf({ name: 'document.currency', kind: 'currency' })).toBe('code');
    expect(groupOf({ name: 'bill.billingPeriodNumberOfDays', kind: 'integer' })).toBe('other');
  });
});

describe('extractFields with calibration curves', () => {
  const engine = textOnlyEngine();
  afterAll(() => engine.close());

  it('maps every found value through the curve of its group', async () => {
    const s = sheet();
    s.put(50, 60, 'ACME Supplies Pty Ltd', 20, true);
    s.put(50, 90, '12 Harbour Street');
    s.put(50, 105, 'Sydney NSW 2000');
    s.put(50, 150, 'Invoice No.');
    s.put(160, 150, 'INV-20931');
    s.put(50, 168, 'Invoice Date:');
    s.put(160, 168, '14 March 2024');
    s.put(350, 536, 'Total');
    s.put(480, 536, '1,100.00');
    const { layer } = await readPages(engine, [{ lines: s.lines }]);
    const flat = (p: number): CalibrationCurve => [
      [0, p],
      [1, p],
    ];
    const curves = Object.fromEntries(GROUPS.map((g, i) => [g, flat(0.1 + 0.1 * i)])) as Record<
      CalibrationGroup,
      CalibrationCurve
    >;
    const fields = fieldsOf(['invoices:2']);
    const results = extractFields(layer, { fields, calibration: curves });
    const found = results.filter((r) => r.value !== null && r.name !== 'invoice.lineitems');
    expect(found.map((r) => r.name)).toEqual(
      expect.arrayContaining([
        'invoice.total',
        'document.date',
        'document.referenceNo',
        'document.supplierName',
        'document.supplierAddress',
        'document.type',
      ]),
    );
    for (const result of found) {
      const field = fields.find((f) => f.name === result.name)!;
      expect(result.confidence, result.name).toBeCloseTo(0.1 + 0.1 * GROUPS.indexOf(groupOf(field)), 3);
    }
    // Fields not found keep confidence 0 whatever the curve says.
    for (const result of results.filter((r) => r.value === null)) expect(result.confidence).toBe(0);
  });
});

describe('fitIsotonic', () => {
  it('answers the default curve without data', () => {
    expect(fitIsotonic([])).toEqual([
      [0, 0.05],
      [1, 0.95],
    ]);
  });

  it('pools the scores of neighbours whose shares fall, and pins the curve at 0 and 1', () => {
    expect(
      fitIsotonic(
        [
          [0.9, true],
          [0.1, false],
          [0.8, true],
          [0.2, false],
        ],
        1,
      ),
    ).toEqual([
      [0, 0.05],
      [0.15, 0.167],
      [0.85, 0.833],
      [1, 0.833],
    ]);
    // A right value below a wrong one is pooled with it.
    expect(
      fitIsotonic(
        [
          [0.1, true],
          [0.2, false],
          [0.3, true],
          [0.4, true],
        ],
        1,
      ),
    ).toEqual([
      [0, 0.05],
      [0.15, 0.5],
      [0.35, 0.833],
      [1, 0.833],
    ]);
  });

  it('pools blocks smaller than the minimum into their neighbours', () => {
    expect(
      fitIsotonic([
        [0.2, true],
        [0.5, true],
        [0.8, false],
      ]),
    ).toEqual([
      [0, 0.05],
      [0.5, 0.625],
      [1, 0.625],
    ]);
  });

  it('keeps points at 0 and 1 that the data already has', () => {
    expect(
      fitIsotonic(
        [
          [0, false],
          [1, true],
        ],
        1,
      ),
    ).toEqual([
      [0, 0.25],
      [1, 0.75],
    ]);
  });

  it('spans scores 0 to 1, in order, with probabilities inside (0, 1), on noisy data of every size', () => {
    const next = random(20240314);
    for (const size of [1, 2, 7, 40, 300, 1500]) {
      for (const minBlock of [1, 5, 20]) {
        const pairs = Array.from({ length: size }, () => {
          const score = Math.round(next() * 100) / 100;
          // Right more often as the score rises, with plenty of noise.
          return [score, next() < 0.2 + 0.6 * score] as const;
        });
        const curve = fitIsotonic(pairs, minBlock);
        const label = `${size} pairs, blocks of ${minBlock}`;
        expect(curve[0]![0], label).toBe(0);
        expect(curve[curve.length - 1]![0], label).toBe(1);
        expectNonDecreasing(curve.map((p) => p[0]));
        for (const [, p] of curve) {
          expect(p, label).toBeGreaterThan(0);
          expect(p, label).toBeLessThan(1);
        }
      }
    }
  });

  it('follows the share of right values: a curve fitted on a well-separated sample rises steeply', () => {
    const next = random(7);
    const pairs = Array.from({ length: 1000 }, () => {
      const score = next();
      return [score, score > 0.5] as const;
    });
    const curve = fitIsotonic(pairs);
    expect(calibrate(0.2, curve)).toBeLessThan(0.1);
    expect(calibrate(0.9, curve)).toBeGreaterThan(0.9);
  });
});
