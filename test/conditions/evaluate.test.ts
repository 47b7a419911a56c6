import { describe, expect, it, vi } from 'vitest';
import { evaluate, toNumber } from '../../src/conditions/evaluate.js';
import { looksLikePath, readPath } from '../../src/conditions/paths.js';
import type { Condition, Operand, Prediction, Variables } from '../../src/conditions/types.js';
import { mulberry32 } from '../helpers/random.js';

const p = (id: string, property?: 'value' | 'value_norm' | 'confidence'): string =>
  `$.predictions['${id}']` + (property ? `.${property}` : '');

const TABLE_EMPTY = { headers: ['description', 'amount'], rows: [] };
const TABLE_FULL = {
  headers: ['description', 'amount'],
  rows: [
    [
      { value: 'Widget', boundingBox: null },
      { value: '10.00', boundingBox: null },
    ],
  ],
};

function prediction(value: unknown, value_norm: string | number | null, confidence = 0.9): Prediction {
  return { value, value_norm, confidence };
}

/** Fixed predictions for the truth tables. */
const VARS: Variables = {
  predictions: {
    'svc.invoice.total': prediction('100.00', 100, 0.9),
    'svc.invoice.tax': prediction('10.00', 10, 0.3),
    'svc.invoice.other': prediction('100.0', 100, 0.9),
    'svc.invoice.negative': prediction('-1234.50', -1234.5, 0.5),
    'svc.document.date': prediction('2024-03-14', '2024-03-14', 0.8),
    'svc.document.due': prediction('2024-12-01', '2024-12-01', 0.8),
    'svc.document.currency': prediction('EUR', 'EUR', 1),
    'svc.document.null': prediction(null, null, 0),
    'svc.document.blank': prediction('   ', '   ', 0.2),
    'svc.document.empty': prediction('', '', 0.2),
    'svc.document.zero': prediction('0', 0, 0.6),
    'svc.document.price': prediction('$100', '$100', 0.6),
    'svc.invoice.lineitems': prediction(TABLE_FULL, null, 0.7),
    'svc.invoice.lineitems2': prediction(structuredClone(TABLE_FULL), null, 0.7),
    'svc.invoice.noitems': prediction(TABLE_EMPTY, null, 0.7),
    'svc.document.text12': prediction('12', '12', 0.5),
    'svc.document.words': prediction('twelve', 'twelve', 0.5),
  },
};

const TOTAL = p('svc.invoice.total', 'value_norm');
const TOTAL_TEXT = p('svc.invoice.total', 'value');
const TAX = p('svc.invoice.tax', 'value_norm');
const DATE = p('svc.document.date', 'value_norm');
const DUE = p('svc.document.due', 'value_norm');
const NULL = p('svc.document.null', 'value_norm');
const MISSING = p('svc.not.extracted', 'value_norm');
const MISSING_PROPERTY_VARS: Variables = {
  predictions: { 'svc.x': { value: '1' } as unknown as Prediction },
};

const T: Condition = { type: 'and', conditions: [] };
const F: Condition = { type: 'or', conditions: [] };

function cmp(
  type: 'greater-than' | 'less-than' | 'equal',
  a: Operand,
  b: Operand,
  numeric = false,
): Condition {
  return numeric ? { type, values: [a, b], compare_as: 'numeric' } : { type, values: [a, b] };
}

describe('logic', () => {
  it('and of nothing holds, or of nothing does not', () => {
    expect(evaluate(T, VARS)).toBe(true);
    expect(evaluate(F, VARS)).toBe(false);
  });

  it.each([
    [[], true, false],
    [[T], true, true],
    [[F], false, false],
    [[T, T], true, true],
    [[T, F], false, true],
    [[F, T], false, true],
    [[F, F], false, false],
    [[T, T, F], false, true],
    [[F, F, T], false, true],
  ] as Array<[Condition[], boolean, boolean]>)('and/or of %j', (conditions, and, or) => {
    expect(evaluate({ type: 'and', conditions }, VARS)).toBe(and);
    expect(evaluate({ type: 'or', conditions }, VARS)).toBe(or);
  });

  it('not inverts', () => {
    expect(evaluate({ type: 'not', condition: T }, VARS)).toBe(false);
    expect(evaluate({ type: 'not', condition: F }, VARS)).toBe(true);
    expect(evaluate({ type: 'not', condition: { type: 'not', condition: T } }, VARS)).toBe(true);
  });

  it('60 nested nots and a 1000-wide and', () => {
    let c: Condition = { type: 'has-value', item: TOTAL };
    for (let i = 0; i < 60; i++) c = { type: 'not', condition: c };
    expect(evaluate(c, VARS)).toBe(true);
    c = { type: 'not', condition: c };
    expect(evaluate(c, VARS)).toBe(false);

    const wide: Condition[] = Array.from({ length: 1000 }, (_, i) => cmp('greater-than', TOTAL, i % 100));
    expect(evaluate({ type: 'and', conditions: wide }, VARS)).toBe(true);
    wide[999] = cmp('greater-than', TOTAL, 1000);
    expect(evaluate({ type: 'and', conditions: wide }, VARS)).toBe(false);
    expect(evaluate({ type: 'or', conditions: wide }, VARS)).toBe(true);

    let mixed: Condition = cmp('equal', DATE, '2024-03-14');
    for (let i = 0; i < 60; i++) {
      mixed =
        i % 3 === 0
          ? { type: 'and', conditions: [T, mixed] }
          : i % 3 === 1
            ? { type: 'or', conditions: [F, mixed] }
            : { type: 'not', condition: { type: 'not', condition: mixed } };
    }
    expect(evaluate(mixed, VARS)).toBe(true);
  });

  it('an unknown condition type does not hold (and never throws)', () => {
    expect(evaluate({ type: 'xor', conditions: [] } as unknown as Condition, VARS)).toBe(false);
  });
});

describe('comparisons', () => {
  // [type, a, b, compare_as numeric?, expected]
  const table: Array<[string, 'greater-than' | 'less-than' | 'equal', Operand, Operand, boolean, boolean]> = [
    // Numbers as numbers.
    ['number > number', 'greater-than', TOTAL, 50, false, true],
    ['number > equal number', 'greater-than', TOTAL, 100, false, false],
    ['number < number', 'less-than', TAX, TOTAL, false, true],
    ['number = number', 'equal', TOTAL, 100, false, true],
    ['number = number (two paths)', 'equal', TOTAL, p('svc.invoice.other', 'value_norm'), false, true],
    ['number != number', 'equal', TOTAL, TAX, false, false],
    ['negative number', 'less-than', p('svc.invoice.negative', 'value_norm'), 0, false, true],
    ['confidence < constant', 'less-than', p('svc.invoice.tax', 'confidence'), 0.5, false, true],
    ['confidence > constant', 'greater-than', p('svc.invoice.total', 'confidence'), 0.5, false, true],
    ['confidence on the bound', 'less-than', p('svc.invoice.total', 'confidence'), 0.9, false, false],
    ['two constants', 'greater-than', 2, 1, false, true],
    // Strings as strings (code-unit order: right for ISO dates).
    ['ISO date > ISO date', 'greater-than', DUE, DATE, false, true],
    ['ISO date < constant', 'less-than', DATE, '2024-04-01', false, true],
    ['ISO date = constant', 'equal', DATE, '2024-03-14', false, true],
    ['ISO date > constant (string order)', 'greater-than', DATE, '2024-03-02', false, true],
    ['string = string', 'equal', p('svc.document.currency', 'value'), 'EUR', false, true],
    ['string case matters', 'equal', p('svc.document.currency', 'value'), 'eur', false, false],
    ['strings compare as strings, not numbers', 'greater-than', '9', '10', false, true],
    [
      'decimal strings compare as strings',
      'equal',
      TOTAL_TEXT,
      p('svc.invoice.other', 'value'),
      false,
      false,
    ],
    // A number and a string are never equal, greater or less (unless numeric).
    ['number = numeric string', 'equal', TOTAL, '100', false, false],
    ['numeric string = number', 'equal', '100', TOTAL, false, false],
    ['number > string', 'greater-than', TOTAL, '50', false, false],
    ['number < string', 'less-than', TOTAL, '500', false, false],
    ['string value = number', 'equal', TOTAL_TEXT, 100, false, false],
    // compare_as numeric: decimals read as numbers.
    ['numeric: string = number', 'equal', TOTAL_TEXT, 100, true, true],
    ['numeric: string = string', 'equal', TOTAL_TEXT, p('svc.invoice.other', 'value'), true, true],
    ['numeric: string > string', 'greater-than', '10', '9', true, true],
    ['numeric: negative decimal string', 'less-than', p('svc.invoice.negative', 'value'), -1000, true, true],
    ['numeric: number > numeric string', 'greater-than', TOTAL, '99.99', true, true],
    ['numeric: word is not a number', 'equal', p('svc.document.words', 'value'), 12, true, false],
    ['numeric: word is not a number (gt)', 'greater-than', p('svc.document.words', 'value'), 12, true, false],
    ['numeric: word is not a number (lt)', 'less-than', p('svc.document.words', 'value'), 12, true, false],
    ['numeric: date is not a number', 'less-than', DATE, 3000, true, false],
    ['numeric: `$100` is not a number', 'equal', '$100', 100, true, false],
    ['numeric: 1e3 is not a plain decimal', 'equal', '1e3', 1000, true, false],
    ['numeric: blank is not a number', 'equal', p('svc.document.blank', 'value'), 0, true, false],
    ['numeric: empty is not a number', 'equal', p('svc.document.empty', 'value'), 0, true, false],
    ['numeric: zero', 'equal', p('svc.document.zero', 'value'), 0, true, true],
    ['numeric: table is not a number', 'greater-than', p('svc.invoice.lineitems', 'value'), 0, true, false],
    ['numeric: whole prediction is not a number', 'greater-than', p('svc.invoice.total'), 0, true, false],
    // `$100` is a constant, not a path.
    ['`$100` constant = value', 'equal', p('svc.document.price', 'value'), '$100', false, true],
    ['`$100` constant vs path', 'equal', '$100', TOTAL_TEXT, false, false],
    ['`$100` constant ordering', 'greater-than', '$200', '$100', false, true],
    // Missing and null: no comparison holds, whatever the operator or compare_as.
    ['missing > number', 'greater-than', MISSING, 0, false, false],
    ['missing < number', 'less-than', MISSING, 0, false, false],
    ['missing = missing', 'equal', MISSING, MISSING, false, false],
    ['missing = missing (numeric)', 'equal', MISSING, MISSING, true, false],
    ['number < missing', 'less-than', 0, MISSING, true, false],
    ['null > number', 'greater-than', NULL, -1, false, false],
    ['null < number', 'less-than', NULL, 1, true, false],
    ['null = null', 'equal', NULL, NULL, false, false],
    [
      'null = null (value)',
      'equal',
      p('svc.document.null', 'value'),
      p('svc.document.null', 'value'),
      false,
      false,
    ],
    ['null = missing', 'equal', NULL, MISSING, false, false],
    [
      'refused path = anything',
      'equal',
      `$.predictions[?(@.confidence>0)]`,
      `$.predictions[?(@.confidence>0)]`,
      false,
      false,
    ],
    ['refused path vs number', 'less-than', `$..value_norm`, 1e9, true, false],
    // Tables and other objects are equal when their JSON is; never ordered.
    [
      'table = same table',
      'equal',
      p('svc.invoice.lineitems', 'value'),
      p('svc.invoice.lineitems2', 'value'),
      false,
      true,
    ],
    [
      'table = other table',
      'equal',
      p('svc.invoice.lineitems', 'value'),
      p('svc.invoice.noitems', 'value'),
      false,
      false,
    ],
    [
      'table > table',
      'greater-than',
      p('svc.invoice.lineitems', 'value'),
      p('svc.invoice.noitems', 'value'),
      false,
      false,
    ],
    ['table = string', 'equal', p('svc.invoice.lineitems', 'value'), 'x', false, false],
    ['prediction = same prediction', 'equal', p('svc.invoice.total'), p('svc.invoice.total'), false, true],
  ];

  it.each(table)('%s', (_name, type, a, b, numeric, expected) => {
    expect(evaluate(cmp(type, a, b, numeric), VARS)).toBe(expected);
    // compare_as: null is the same as no compare_as.
    if (!numeric) expect(evaluate({ type, values: [a, b], compare_as: null }, VARS)).toBe(expected);
  });

  it('a comparison with a missing or null variable does not hold, and not of it does', () => {
    for (const type of ['greater-than', 'less-than', 'equal'] as const) {
      for (const [a, b] of [
        [MISSING, 1],
        [1, MISSING],
        [NULL, 1],
        [1, NULL],
        [NULL, NULL],
      ] as Array<[Operand, Operand]>) {
        for (const numeric of [false, true]) {
          expect(evaluate(cmp(type, a, b, numeric), VARS)).toBe(false);
          expect(evaluate({ type: 'not', condition: cmp(type, a, b, numeric) }, VARS)).toBe(true);
        }
      }
    }
  });

  it('a prediction without the property is a missing variable', () => {
    const conf = `$.predictions['svc.x'].confidence`;
    expect(evaluate(cmp('less-than', conf, 0.5), MISSING_PROPERTY_VARS)).toBe(false);
    expect(evaluate(cmp('greater-than', conf, 0.5), MISSING_PROPERTY_VARS)).toBe(false);
    expect(evaluate(cmp('equal', `$.predictions['svc.x'].value`, 1, true), MISSING_PROPERTY_VARS)).toBe(true);
  });

  it('non-finite numbers in the data: ordered as numbers, never numeric', () => {
    const vars: Variables = {
      predictions: {
        'svc.inf': prediction('x', Infinity, Number.NaN),
        'svc.nan': prediction('x', Number.NaN, 0.5),
      },
    };
    expect(evaluate(cmp('greater-than', p('svc.inf', 'value_norm'), 1e308), vars)).toBe(true);
    expect(evaluate(cmp('greater-than', p('svc.inf', 'value_norm'), 1e308, true), vars)).toBe(false);
    for (const type of ['greater-than', 'less-than', 'equal'] as const) {
      for (const numeric of [false, true]) {
        expect(evaluate(cmp(type, p('svc.nan', 'value_norm'), 0, numeric), vars)).toBe(false);
        expect(
          evaluate(cmp(type, p('svc.nan', 'value_norm'), p('svc.nan', 'value_norm'), numeric), vars),
        ).toBe(false);
        expect(evaluate(cmp(type, p('svc.inf', 'confidence'), 0.5, numeric), vars)).toBe(false);
      }
    }
  });
});

describe('is-set and has-value', () => {
  // [label, path, is-set, has-value]
  const table: Array<[string, string, boolean, boolean]> = [
    ['a string value', TOTAL_TEXT, true, true],
    ['a number value_norm', TOTAL, true, true],
    ['zero', p('svc.document.zero', 'value_norm'), true, true],
    ['the string "0"', p('svc.document.zero', 'value'), true, true],
    ['a confidence of 0', p('svc.document.null', 'confidence'), true, true],
    ['null', p('svc.document.null', 'value'), true, false],
    ['null value_norm', NULL, true, false],
    ['an empty string', p('svc.document.empty', 'value'), true, false],
    ['a blank string', p('svc.document.blank', 'value'), true, false],
    ['a table with rows', p('svc.invoice.lineitems', 'value'), true, true],
    ['a table without rows', p('svc.invoice.noitems', 'value'), true, false],
    ['the whole prediction', p('svc.invoice.total'), true, true],
    ['the whole prediction of a null value', p('svc.document.null'), true, true],
    ['a missing field', p('svc.not.extracted', 'value'), false, false],
    ['a missing field (whole prediction)', p('svc.not.extracted'), false, false],
    ['a refused path', `$.predictions[?(@.confidence>0)]`, false, false],
    ['recursive descent', `$..value`, false, false],
    ['an inherited member', p('constructor'), false, false],
    ['not a path at all', 'hello', false, false],
  ];

  it.each(table)('%s', (_label, path, isSet, hasValue) => {
    expect(evaluate({ type: 'is-set', path }, VARS)).toBe(isSet);
    expect(evaluate({ type: 'has-value', item: path }, VARS)).toBe(hasValue);
    expect(evaluate({ type: 'not', condition: { type: 'has-value', item: path } }, VARS)).toBe(!hasValue);
  });

  it('has-value of non-finite numbers and empty lists is false; of booleans, lists and other objects true', () => {
    const vars: Variables = {
      predictions: {
        nan: prediction(Number.NaN, null),
        inf: prediction(-Infinity, null),
        no: prediction(false, null),
        arr: prediction([], null),
        list: prediction(['x'], null),
        obj: prediction({}, null),
        rowsNotArray: prediction({ headers: [], rows: 'none' }, null),
      },
    };
    const has = (id: string): boolean => evaluate({ type: 'has-value', item: p(id, 'value') }, vars);
    expect(has('nan')).toBe(false);
    expect(has('inf')).toBe(false);
    expect(has('no')).toBe(true);
    expect(has('arr')).toBe(false);
    expect(has('list')).toBe(true);
    expect(has('obj')).toBe(true);
    expect(has('rowsNotArray')).toBe(true);
    expect(evaluate({ type: 'is-set', path: p('nan', 'value') }, vars)).toBe(true);
  });

  it('a prediction without the property: is-set does not hold', () => {
    expect(
      evaluate({ type: 'is-set', path: `$.predictions['svc.x'].confidence` }, MISSING_PROPERTY_VARS),
    ).toBe(false);
    expect(evaluate({ type: 'is-set', path: `$.predictions['svc.x'].value` }, MISSING_PROPERTY_VARS)).toBe(
      true,
    );
  });
});

describe('toNumber', () => {
  it.each([
    [12, 12],
    [-0.5, -0.5],
    [0, 0],
    ['12', 12],
    ['-1234.50', -1234.5],
    ['+5', 5],
    ['5.', 5],
    ['.5', 0.5],
    [' 12 ', 12],
    ['007', 7],
  ])('%j is %j', (input, expected) => {
    expect(toNumber(input)).toBe(expected);
  });

  it.each<unknown>([
    Number.NaN,
    Infinity,
    -Infinity,
    '',
    ' ',
    '.',
    '-',
    '1e3',
    '0x10',
    'Infinity',
    'NaN',
    '1,234.50',
    '1 234',
    '1_000',
    '$100',
    '12abc',
    '١٢',
    '9'.repeat(400),
    null,
    undefined,
    true,
    [],
    [1],
    {},
    { valueOf: () => 1 },
  ])('%j is not a number', (input) => {
    expect(toNumber(input)).toBeUndefined();
  });
});

// ---------------------------------------------------------------------------------------------------
// Property tests on random conditions and data.

interface Gen {
  rand: () => number;
  int(n: number): number;
  pick<T>(items: readonly T[]): T;
}

function gen(seed: number): Gen {
  const rand = mulberry32(seed);
  return {
    rand,
    int: (n) => Math.floor(rand() * n),
    pick: (items) => items[Math.floor(rand() * items.length)]!,
  };
}

const FIELD_IDS = ['svc.a.x', 'svc.a.y', 'svc.b.z', 'svc.b.w', 'svc.c.v'];
const MISSING_IDS = ['svc.none.x', 'constructor', '__proto__', 'toString'];
const WEIRD_STRINGS = [
  '',
  ' ',
  '$100',
  '$',
  '$.',
  '$[',
  '$..value',
  `$.predictions[?(@.confidence>0.5)]`,
  `$..[?(@.constructor.constructor('return process')())]`,
  `$.predictions['svc.a.x'].constructor`,
  `$.predictions[(process.exit())]`,
  `$['predictions']['svc.a.x']`,
  '2024-02-29',
  '2023-12-31',
  '-1234.50',
  '1e3',
  'NaN',
  'Infinity',
  '0',
  '00',
  'null',
  'true',
  '{}',
  '\u0000',
  '\ud83d',
  'é',
  'x'.repeat(1000),
];

function randomJson(g: Gen, depth = 0): unknown {
  switch (g.int(depth > 2 ? 9 : 11)) {
    case 0:
      return null;
    case 1:
      return g.rand() < 0.5;
    case 2:
      return g.pick([
        0,
        -0,
        1,
        -1,
        0.5,
        1e308,
        -1e308,
        Number.NaN,
        Infinity,
        -Infinity,
        Number.MAX_SAFE_INTEGER,
      ]);
    case 3:
      return Math.round((g.rand() - 0.5) * 1e6) / 100;
    case 4:
      return g.pick(WEIRD_STRINGS);
    case 5:
      return String(Math.round(g.rand() * 1e5) / 100);
    case 6:
      return `20${10 + g.int(20)}-0${1 + g.int(9)}-1${g.int(10)}`;
    case 7:
      return { headers: ['a'], rows: g.rand() < 0.5 ? [] : [[{ value: 'x', boundingBox: null }]] };
    case 8:
      return g.rand() < 0.5 ? '' : '   ';
    case 9:
      return Array.from({ length: g.int(3) }, () => randomJson(g, depth + 1));
    default:
      return Object.fromEntries(
        Array.from({ length: g.int(3) }, (_, i) => [`k${i}`, randomJson(g, depth + 1)]),
      );
  }
}

function randomVariables(g: Gen): Variables {
  const predictions: Record<string, Prediction> = {};
  for (const id of FIELD_IDS) {
    const r = g.rand();
    if (r < 0.15) continue; // the field is missing
    if (r < 0.2) {
      // Not even a prediction object: evaluate must still not throw.
      predictions[id] = randomJson(g) as Prediction;
      continue;
    }
    const entry: Record<string, unknown> = {};
    if (g.rand() < 0.9) entry.value = randomJson(g);
    if (g.rand() < 0.9) entry.value_norm = randomJson(g);
    if (g.rand() < 0.9) entry.confidence = g.rand() < 0.8 ? g.rand() : randomJson(g);
    predictions[id] = entry as unknown as Prediction;
  }
  return { predictions };
}

function randomPath(g: Gen): string {
  const id = g.rand() < 0.8 ? g.pick(FIELD_IDS) : g.pick(MISSING_IDS);
  const r = g.rand();
  if (r < 0.1) return g.pick(WEIRD_STRINGS.filter((s) => s.startsWith('$')));
  const property = g.pick(['', '.value', '.value_norm', '.confidence', '.value', '.value_norm']);
  const quoted = r < 0.2 ? `"${id}"` : `'${id}'`;
  return `$.predictions${r < 0.3 ? '.' : ''}[${quoted}]${property}`;
}

function randomOperand(g: Gen): Operand {
  const r = g.rand();
  if (r < 0.5) return randomPath(g);
  if (r < 0.7) return g.pick([0, 1, -1, 0.5, 100, 1e9, -1234.5, 0.1 + 0.2]);
  if (r < 0.85) return g.pick(WEIRD_STRINGS);
  return String(randomJson(g));
}

function randomCondition(g: Gen, depth: number): Condition {
  const leaf = depth >= 8 || g.rand() < 0.35;
  const type = leaf
    ? g.pick(['greater-than', 'less-than', 'equal', 'is-set', 'has-value'] as const)
    : g.pick(['and', 'or', 'not', 'and', 'or', 'not', 'equal', 'has-value'] as const);
  switch (type) {
    case 'and':
    case 'or':
      return { type, conditions: Array.from({ length: g.int(4) }, () => randomCondition(g, depth + 1)) };
    case 'not':
      return { type, condition: randomCondition(g, depth + 1) };
    case 'is-set':
      return { type, path: randomPath(g) };
    case 'has-value':
      return { type, item: randomPath(g) };
    default: {
      const values: [Operand, Operand] = [randomOperand(g), randomOperand(g)];
      const r = g.rand();
      if (r < 0.4) return { type, values, compare_as: 'numeric' };
      if (r < 0.6) return { type, values, compare_as: null };
      return { type, values };
    }
  }
}

describe('properties', () => {
  const g = gen(0x5eed_2024);
  const cases = Array.from({ length: 2000 }, () => ({
    condition: randomCondition(g, 0),
    variables: randomVariables(g),
    other: randomCondition(g, 0),
  }));

  it('2,000 random conditions on random data evaluate to a boolean without throwing', () => {
    let held = 0;
    for (const { condition, variables } of cases) {
      const result = evaluate(condition, variables);
      expect(typeof result).toBe('boolean');
      if (result) held++;
    }
    // The generator is not degenerate: both outcomes occur often.
    expect(held).toBeGreaterThan(200);
    expect(held).toBeLessThan(1800);
  });

  it('metamorphic: not(not c) = c, and[c] = c, or[c] = c, or[c, not c] always, and[c, not c] never', () => {
    for (const { condition: c, variables: v } of cases) {
      const value = evaluate(c, v);
      const not: Condition = { type: 'not', condition: c };
      expect(evaluate({ type: 'not', condition: not }, v)).toBe(value);
      expect(evaluate(not, v)).toBe(!value);
      expect(evaluate({ type: 'and', conditions: [c] }, v)).toBe(value);
      expect(evaluate({ type: 'or', conditions: [c] }, v)).toBe(value);
      expect(evaluate({ type: 'and', conditions: [c, T] }, v)).toBe(value);
      expect(evaluate({ type: 'or', conditions: [c, F] }, v)).toBe(value);
      // Even when c compares a missing variable: c is false there and not(c) true.
      expect(evaluate({ type: 'or', conditions: [c, not] }, v)).toBe(true);
      expect(evaluate({ type: 'and', conditions: [c, not] }, v)).toBe(false);
    }
  });

  it('metamorphic: De Morgan, and/or order does not matter', () => {
    for (const { condition: c, variables: v, other: d } of cases) {
      const notAnd = evaluate({ type: 'not', condition: { type: 'and', conditions: [c, d] } }, v);
      const orNots = evaluate(
        {
          type: 'or',
          conditions: [
            { type: 'not', condition: c },
            { type: 'not', condition: d },
          ],
        },
        v,
      );
      expect(notAnd).toBe(orNots);
      expect(evaluate({ type: 'and', conditions: [c, d] }, v)).toBe(
        evaluate({ type: 'and', conditions: [d, c] }, v),
      );
      expect(evaluate({ type: 'or', conditions: [c, d] }, v)).toBe(
        evaluate({ type: 'or', conditions: [d, c] }, v),
      );
    }
  });

  it('metamorphic: a > b is b < a, equal is symmetric, and numeric comparisons are a trichotomy', () => {
    const h = gen(77);
    let trichotomies = 0;
    for (let i = 0; i < 2000; i++) {
      const v = randomVariables(h);
      const a = randomOperand(h);
      const b = randomOperand(h);
      for (const compare_as of ['numeric', null] as const) {
        const gt = evaluate({ type: 'greater-than', values: [a, b], compare_as }, v);
        const lt = evaluate({ type: 'less-than', values: [b, a], compare_as }, v);
        expect(gt).toBe(lt);
        const eq = evaluate({ type: 'equal', values: [a, b], compare_as }, v);
        expect(evaluate({ type: 'equal', values: [b, a], compare_as }, v)).toBe(eq);
        const reverse = evaluate({ type: 'less-than', values: [a, b], compare_as }, v);
        // At most one of <, =, > holds.
        expect(Number(gt) + Number(eq) + Number(reverse)).toBeLessThanOrEqual(1);
        if (compare_as === 'numeric') {
          const x = toNumber(typeof a === 'string' && looksLikePath(a) ? readPath(a, v) : a);
          const y = toNumber(typeof b === 'string' && looksLikePath(b) ? readPath(b, v) : b);
          if (x !== undefined && y !== undefined) {
            // Both sides are numbers: exactly one holds.
            expect(Number(gt) + Number(eq) + Number(reverse)).toBe(1);
            trichotomies++;
          }
        }
      }
    }
    expect(trichotomies).toBeGreaterThan(100);
  });
});

describe('evaluation runs no code', () => {
  it('paths with call payloads read nothing and call nothing', () => {
    const spy = vi.fn(() => 1);
    const vars = {
      predictions: { x: { value: spy, value_norm: spy, confidence: 1 } },
    } as unknown as Variables;
    const payloads = [
      `$..[?(@.value())]`,
      `$.predictions[(@.x.value())]`,
      `$.predictions['x'].value()`,
      `$.predictions[?(@.value_norm() > 0)]`,
    ];
    for (const path of payloads) {
      expect(evaluate({ type: 'is-set', path }, vars)).toBe(false);
      expect(evaluate({ type: 'has-value', item: path }, vars)).toBe(false);
      expect(evaluate({ type: 'equal', values: [path, path] }, vars)).toBe(false);
      expect(evaluate({ type: 'greater-than', values: [path, 0], compare_as: 'numeric' }, vars)).toBe(false);
    }
    expect(spy).not.toHaveBeenCalled();
  });
});
