import { describe, expect, it } from 'vitest';
import { DocexError } from '../../src/core/errors.js';
import { evaluate } from '../../src/conditions/evaluate.js';
import { createRulesChecker } from '../../src/conditions/rules.js';
import type { Prediction, V1Condition, V1WorkflowOptions, Variables } from '../../src/conditions/types.js';
import { checksFromV1, translateV1Condition } from '../../src/conditions/v1-translate.js';
import { createSchemaChecker } from '../../src/core/schema-checker.js';
import { mulberry32 } from '../helpers/random.js';

const ID = 'svc.invoice.total';
const CONFIDENCE = `$.predictions['${ID}'].confidence`;
const VALUE = `$.predictions['${ID}'].value`;
const VALUE_NORM = `$.predictions['${ID}'].value_norm`;

/** How the validate workflow qualifies v1 field names (src/workflows/validate.ts). */
const qualify = (field: string): string => (field.startsWith('svc.') ? field : `svc.${field}`);

function picker(seed: number): { rand: () => number; pick: <T>(items: readonly T[]) => T } {
  const rand = mulberry32(seed);
  return { rand, pick: (items) => items[Math.floor(rand() * items.length)]! };
}

describe('translateV1Condition: the v2 conditions', () => {
  it('field-confidence-range with min is a less-than on confidence (as the interface says)', () => {
    expect(
      translateV1Condition({ type: 'field-confidence-range', field: 'invoice.total', min: 0.5 }, ID),
    ).toEqual({
      type: 'or',
      conditions: [{ type: 'less-than', values: [CONFIDENCE, 0.5], compare_as: 'numeric' }],
    });
  });

  it('field-confidence-range with both bounds, and with none', () => {
    expect(
      translateV1Condition({ type: 'field-confidence-range', field: 'x', min: 0.2, max: 0.9 }, ID),
    ).toEqual({
      type: 'or',
      conditions: [
        { type: 'less-than', values: [CONFIDENCE, 0.2], compare_as: 'numeric' },
        { type: 'greater-than', values: [CONFIDENCE, 0.9], compare_as: 'numeric' },
      ],
    });
    expect(
      translateV1Condition({ type: 'field-confidence-range', field: 'x', min: null, max: null }, ID),
    ).toEqual({ type: 'or', conditions: [] });
    expect(translateV1Condition({ type: 'field-confidence-range', field: 'x' }, ID)).toEqual({
      type: 'or',
      conditions: [],
    });
  });

  it('field-value-range: numbers compare as numbers, strings as strings', () => {
    expect(
      translateV1Condition({ type: 'field-value-range', field: 'x', min: 0, max: '2024-12-31' }, ID),
    ).toEqual({
      type: 'or',
      conditions: [
        { type: 'less-than', values: [VALUE_NORM, 0], compare_as: 'numeric' },
        { type: 'greater-than', values: [VALUE_NORM, '2024-12-31'], compare_as: null },
      ],
    });
  });

  it('field-present is not has-value of the value', () => {
    expect(translateV1Condition({ type: 'field-present', field: 'x' }, ID)).toEqual({
      type: 'not',
      condition: { type: 'has-value', item: VALUE },
    });
  });
});

// ---------------------------------------------------------------------------------------------------
// Property tests: the translated condition, run by `evaluate`, agrees with a reference written here
// from the interface's wording ("Triggers validation of the field when ...").

type Bound = number | string | null | undefined;

/** A plain decimal (what a numeric range can read from a string value). */
function decimal(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (typeof value === 'string' && /^[+-]?(?:\d+\.?\d*|\.\d+)$/.test(value)) return Number(value);
  return undefined;
}

/**
 * The field is outside [min, max], both inclusive, a null or absent bound being no bound.
 * Decisions of the reference where the interface is silent:
 * - No value (no prediction, no such property, null) is never outside a range: the module's doc
 *   comment says so for field-value-range ("use field-present for that"), and the same holds for a
 *   missing confidence.
 * - A number bound reads the value as a number (a number, or a string that is a plain decimal); a
 *   value that is not a number (a word, an ISO date) is not outside a number range.
 * - A string bound (an ISO date) compares with string values in code-unit order; a number value is
 *   not outside a string range (a number and a string do not compare).
 */
function outsideReference(value: unknown, min: Bound, max: Bound): boolean {
  if (value === undefined || value === null) return false;
  const beyond = (bound: Bound, below: boolean): boolean => {
    if (bound === null || bound === undefined) return false;
    if (typeof bound === 'number') {
      const x = decimal(value);
      return x !== undefined && (below ? x < bound : x > bound);
    }
    return typeof value === 'string' && (below ? value < bound : value > bound);
  };
  return beyond(min, true) || beyond(max, false);
}

/** The document has no value for the field: no prediction, no value, null, a blank string or an empty table. */
function absentReference(prediction: Record<string, unknown> | undefined): boolean {
  if (prediction === undefined || !('value' in prediction)) return true;
  const value = prediction.value;
  if (value === null || value === undefined) return true;
  if (typeof value === 'string') return value.trim() === '';
  if (typeof value === 'object' && Array.isArray((value as { rows?: unknown }).rows)) {
    return (value as { rows: unknown[] }).rows.length === 0;
  }
  return false;
}

function withBounds(type: V1Condition['type'], min: Bound, max: Bound): V1Condition {
  const condition: V1Condition = { type, field: 'invoice.total' };
  if (min !== undefined) condition.min = min;
  if (max !== undefined) condition.max = max;
  return condition;
}

function variablesOf(prediction: Record<string, unknown> | undefined): Variables {
  const predictions: Record<string, Prediction> = {
    // Another field, so a wrong field id in the translation would show.
    'svc.invoice.tax': { value: '5.00', value_norm: 5, confidence: 0.01 },
  };
  if (prediction) predictions[ID] = prediction as unknown as Prediction;
  return { predictions };
}

const RUNS = 3000;

describe('field-confidence-range agrees with the reference', () => {
  it(`on ${RUNS} generated predictions`, () => {
    const { rand, pick } = picker(1);
    const BOUNDS = [0, 0.25, 0.5, 0.75, 0.9, 1];
    let triggered = 0;
    let onBound = 0;
    for (let i = 0; i < RUNS; i++) {
      const bound = (): Bound =>
        rand() < 0.25 ? pick([null, undefined]) : rand() < 0.6 ? pick(BOUNDS) : rand();
      const min = bound();
      const max = bound();
      const r = rand();
      // Confidence: random, exactly a bound, 0 or 1; sometimes no confidence or no prediction at all.
      const confidence =
        r < 0.35
          ? rand()
          : r < 0.7
            ? (pick([min, max, 0, 1].filter((b) => typeof b === 'number')) ?? 0.5)
            : r < 0.85
              ? pick(BOUNDS)
              : undefined;
      const prediction: Record<string, unknown> | undefined =
        r > 0.95
          ? undefined
          : { value: '12.00', value_norm: 12, ...(confidence !== undefined ? { confidence } : {}) };
      if (confidence !== undefined && (confidence === min || confidence === max)) onBound++;

      const condition = translateV1Condition(withBounds('field-confidence-range', min, max), ID);
      const expected = outsideReference(prediction?.confidence, min, max);
      const actual = evaluate(condition, variablesOf(prediction));
      if (actual !== expected) {
        throw new Error(
          `run ${i}: ${JSON.stringify({ min, max, prediction })} gave ${actual}, expected ${expected}`,
        );
      }
      if (actual) triggered++;
    }
    expect(triggered).toBeGreaterThan(RUNS / 10);
    expect(triggered).toBeLessThan(RUNS * 0.9);
    // Bound values occur often: on the bound is inside.
    expect(onBound).toBeGreaterThan(RUNS / 10);
  });

  it('bounds are inclusive', () => {
    const c = translateV1Condition(withBounds('field-confidence-range', 0.5, 0.8), ID);
    const at = (confidence: number): boolean =>
      evaluate(c, variablesOf({ value: 'x', value_norm: 'x', confidence }));
    expect([0.49, 0.5, 0.65, 0.8, 0.81].map(at)).toEqual([true, false, false, false, true]);
    expect(evaluate(c, variablesOf(undefined))).toBe(false);
  });

  it('the interface example: min 0.5 produces a task when confidence is below 0.5', () => {
    const c = translateV1Condition({ type: 'field-confidence-range', field: 'invoice.total', min: 0.5 }, ID);
    expect(evaluate(c, variablesOf({ value: '1', value_norm: 1, confidence: 0.4999 }))).toBe(true);
    expect(evaluate(c, variablesOf({ value: '1', value_norm: 1, confidence: 0.5 }))).toBe(false);
    expect(evaluate(c, variablesOf({ value: '1', value_norm: 1, confidence: 1 }))).toBe(false);
  });
});

describe('field-value-range agrees with the reference', () => {
  const NUMBER_BOUNDS = [0, 100, -50, 1234.5, 0.01];
  const DATE_BOUNDS = ['2024-01-01', '2024-02-29', '2024-12-31', '2023-06-15'];

  it(`on ${RUNS} generated predictions (number and ISO date bounds)`, () => {
    const { rand, pick } = picker(2);
    let triggered = 0;
    let comparedAsNumbers = 0;
    let comparedAsStrings = 0;
    for (let i = 0; i < RUNS; i++) {
      const dates = rand() < 0.4;
      const bound = (): Bound =>
        rand() < 0.25
          ? pick([null, undefined])
          : dates
            ? pick(DATE_BOUNDS)
            : rand() < 0.5
              ? pick(NUMBER_BOUNDS)
              : Math.round((rand() - 0.3) * 2000) / 10;
      const min = bound();
      const max = rand() < 0.05 ? pick([...NUMBER_BOUNDS, ...DATE_BOUNDS]) : bound();
      const r = rand();
      // value_norm: numbers (some exactly on a bound), decimal strings, ISO dates, words, null, missing.
      let valueNorm: unknown;
      if (r < 0.25) valueNorm = Math.round((rand() - 0.3) * 2000) / 10;
      else if (r < 0.4)
        valueNorm = pick([min, max, ...NUMBER_BOUNDS].filter((b) => typeof b === 'number')) ?? 0;
      else if (r < 0.5) valueNorm = String(pick(NUMBER_BOUNDS)) + pick(['', '0']);
      else if (r < 0.65) valueNorm = pick([...DATE_BOUNDS, '2024-03-14', '2019-12-31', '2025-01-01']);
      else if (r < 0.72) valueNorm = pick(['abc', '', '1e3', '$100', '12,50', 'EUR']);
      else if (r < 0.82) valueNorm = null;
      else valueNorm = undefined;
      const prediction: Record<string, unknown> | undefined =
        r > 0.97
          ? undefined
          : {
              value: 'printed',
              confidence: rand(),
              ...(valueNorm !== undefined ? { value_norm: valueNorm } : {}),
            };

      const condition = translateV1Condition(withBounds('field-value-range', min, max), ID);
      const expected = outsideReference(prediction?.value_norm, min, max);
      const actual = evaluate(condition, variablesOf(prediction));
      if (actual !== expected) {
        throw new Error(
          `run ${i}: ${JSON.stringify({ min, max, prediction })} gave ${actual}, expected ${expected}`,
        );
      }
      if (actual) triggered++;
      if (typeof min === 'number' && decimal(valueNorm) !== undefined) comparedAsNumbers++;
      if (typeof min === 'string' && typeof valueNorm === 'string') comparedAsStrings++;
    }
    expect(triggered).toBeGreaterThan(RUNS / 10);
    expect(triggered).toBeLessThan(RUNS * 0.9);
    expect(comparedAsNumbers).toBeGreaterThan(RUNS / 20);
    expect(comparedAsStrings).toBeGreaterThan(RUNS / 20);
  });

  it('ISO dates compare as dates, bounds inclusive', () => {
    const c = translateV1Condition(withBounds('field-value-range', '2024-01-01', '2024-12-31'), ID);
    const at = (value_norm: string | number | null): boolean =>
      evaluate(c, variablesOf({ value: 'x', value_norm, confidence: 1 }));
    expect(['2023-12-31', '2024-01-01', '2024-02-29', '2024-12-31', '2025-01-01'].map(at)).toEqual([
      true,
      false,
      false,
      false,
      true,
    ]);
  });

  it('a field without a value is not out of range (field-present is for that)', () => {
    const c = translateV1Condition(withBounds('field-value-range', 10, 20), ID);
    expect(evaluate(c, variablesOf(undefined))).toBe(false);
    expect(evaluate(c, variablesOf({ value: null, value_norm: null, confidence: 0 }))).toBe(false);
    expect(evaluate(c, variablesOf({ value: 'x', confidence: 0 }))).toBe(false);
  });

  it('numbers and decimal strings compare as numbers, bounds inclusive', () => {
    const c = translateV1Condition(withBounds('field-value-range', 10, 20), ID);
    const at = (value_norm: string | number | null): boolean =>
      evaluate(c, variablesOf({ value: 'x', value_norm, confidence: 1 }));
    expect([9.99, 10, 15, 20, 20.01, '9', '10.00', '100', 'abc'].map(at)).toEqual([
      true,
      false,
      false,
      false,
      true,
      true,
      false,
      true,
      false,
    ]);
  });
});

describe('field-present agrees with the reference', () => {
  const VALUES: unknown[] = [
    '1234.50',
    'x',
    '0',
    ' a ',
    '',
    ' ',
    '\t\n',
    null,
    0,
    { headers: ['a'], rows: [] },
    { headers: ['a'], rows: [[{ value: 'x', boundingBox: null }]] },
  ];

  it(`on ${RUNS} generated predictions`, () => {
    const { rand, pick } = picker(3);
    let triggered = 0;
    for (let i = 0; i < RUNS; i++) {
      const r = rand();
      let prediction: Record<string, unknown> | undefined;
      if (r < 0.1) prediction = undefined;
      else if (r < 0.2) prediction = { value_norm: pick(['x', 1, null]), confidence: rand() };
      // value and value_norm independent: field-present reads the value.
      else prediction = { value: pick(VALUES), value_norm: pick(['x', 1, null, '']), confidence: rand() };

      const condition = translateV1Condition({ type: 'field-present', field: 'invoice.total' }, ID);
      const expected = absentReference(prediction);
      const actual = evaluate(condition, variablesOf(prediction));
      if (actual !== expected) {
        throw new Error(`run ${i}: ${JSON.stringify(prediction)} gave ${actual}, expected ${expected}`);
      }
      if (actual) triggered++;
    }
    expect(triggered).toBeGreaterThan(RUNS / 10);
    expect(triggered).toBeLessThan(RUNS * 0.9);
  });

  // A v1 `field` must be a name the translated path can read: the options are refused otherwise.
  it('refuses a v1 field that is not a field id or result name (a space, too long)', () => {
    const checker = createRulesChecker(createSchemaChecker());
    for (const field of ['invoice total', 'total', `invoice.${'x'.repeat(190)}`]) {
      expect(() =>
        checker.checkV1Options({
          prediction: { fieldset: 'svc.invoice', conditions: [{ type: 'field-present', field }] },
        }),
      ).toThrow(DocexError);
    }
  });
});

describe('checksFromV1', () => {
  const options: V1WorkflowOptions = {
    prediction: {
      fieldset: 'svc.invoice',
      conditions: [
        { type: 'field-confidence-range', field: 'invoice.total', min: 0.5 },
        { type: 'field-value-range', field: 'svc.invoice.total', min: 0, max: 10000 },
        { type: 'field-value-range', field: 'document.date', min: '2024-01-01', max: null },
        { type: 'field-present', field: 'svc.document.date' },
        { type: 'field-confidence-range', field: 'invoice.tax' },
      ],
      createTask: { submit: true, priority: 3 },
    },
  };

  it('one check per condition, field ids qualified (already qualified kept), priority carried', () => {
    const checks = checksFromV1(options, qualify);
    expect(checks).toHaveLength(5);
    expect(checks.map((c) => c.field_ids)).toEqual([
      ['svc.invoice.total'],
      ['svc.invoice.total'],
      ['svc.document.date'],
      ['svc.document.date'],
      ['svc.invoice.tax'],
    ]);
    expect(checks.map((c) => c.priority)).toEqual([3, 3, 3, 3, 3]);
    expect(checks.map((c) => c.condition)).toEqual(
      options.prediction.conditions.map((c) => translateV1Condition(c, qualify(c.field))),
    );
  });

  it('notes name the qualified field and the range', () => {
    expect(checksFromV1(options, qualify).map((c) => c.note)).toEqual([
      'svc.invoice.total: confidence outside [0.5, -].',
      'svc.invoice.total: value outside [0, 10000].',
      'svc.document.date: value outside [2024-01-01, -].',
      'svc.document.date: no value was found.',
      'svc.invoice.tax: confidence outside [-, -].',
    ]);
  });

  it('no priority without createTask.priority', () => {
    const checks = checksFromV1(
      { prediction: { fieldset: 'svc.invoice', conditions: options.prediction.conditions } },
      qualify,
    );
    for (const check of checks) expect(check).not.toHaveProperty('priority');
    const submitOnly = checksFromV1(
      { prediction: { ...options.prediction, createTask: { submit: false } } },
      qualify,
    );
    for (const check of submitOnly) expect(check).not.toHaveProperty('priority');
    expect(checksFromV1({ prediction: { fieldset: 'svc.x', conditions: [] } }, qualify)).toEqual([]);
  });

  it('uses the qualify function given', () => {
    const checks = checksFromV1(options, (field) => `acme.${field.replace(/^svc\./, '')}`);
    expect(checks[0]!.field_ids).toEqual(['acme.invoice.total']);
    expect(checks[1]!.condition).toEqual(
      translateV1Condition(options.prediction.conditions[1]!, 'acme.invoice.total'),
    );
  });

  it('produces rules that pass checkRules', () => {
    const checker = createRulesChecker(createSchemaChecker());
    const rules = { data: { checks: checksFromV1(options, qualify) }, schema: true };
    expect(checker.checkRules(rules)).toBe(rules);
  });

  it('the translated checks trigger as their v1 conditions say', () => {
    const checks = checksFromV1(options, qualify);
    const vars: Variables = {
      predictions: {
        'svc.invoice.total': { value: '20000.00', value_norm: 20000, confidence: 0.4 },
        'svc.document.date': { value: '2023-12-31', value_norm: '2023-12-31', confidence: 0.9 },
        'svc.invoice.tax': { value: '1.00', value_norm: 1, confidence: 0 },
      },
    };
    expect(checks.map((c) => evaluate(c.condition, vars))).toEqual([true, true, true, false, false]);
  });
});
