import { describe, expect, it } from 'vitest';
import { DocexError, type ErrorDetail } from '../../src/core/errors.js';
import { createRulesChecker, MAX_DEPTH } from '../../src/conditions/rules.js';
import type { Condition } from '../../src/conditions/types.js';
import { createSchemaChecker } from '../../src/core/schema-checker.js';

const checker = createRulesChecker(createSchemaChecker());

const TOTAL = `$.predictions['svc.invoice.total'].value_norm`;
const PATH_HINT =
  "is not an accepted variable path: $.predictions['<field id>'] with .confidence, .value or .value_norm";

function record(...conditions: unknown[]): Record<string, unknown> {
  return {
    schema: true,
    data: { checks: conditions.map((condition, i) => ({ condition, note: `check ${i}`, field_ids: [] })) },
  };
}

/** The DocexError a call throws (fails the test when it does not throw one). */
function errorOf(fn: () => unknown): DocexError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(DocexError);
    return error as DocexError;
  }
  throw new Error('expected a DocexError, nothing was thrown');
}

function rulesProblems(value: unknown, base?: string): ErrorDetail[] {
  const error = errorOf(() => checker.checkRules(value, base));
  expect(error.code).toBe('INVALID_RULES');
  expect(error.httpStatus).toBe(422);
  return error.details;
}

function nestedNots(depth: number): Condition {
  let c: Condition = { type: 'has-value', item: TOTAL };
  for (let i = 0; i < depth; i++) c = { type: 'not', condition: c };
  return c;
}

function nestedAnds(depth: number): Condition {
  let c: Condition = { type: 'has-value', item: TOTAL };
  for (let i = 0; i < depth; i++) c = { type: 'and', conditions: [c] };
  return c;
}

describe('checkRules: valid rules', () => {
  const valid = {
    schema: true,
    data: {
      checks: [
        {
          condition: {
            type: 'and',
            conditions: [
              { type: 'less-than', values: [`$.predictions['svc.invoice.total'].confidence`, 0.5] },
              { type: 'greater-than', values: [TOTAL, 1000], compare_as: 'numeric' },
              {
                type: 'equal',
                values: [`$.predictions.['svc.document.currency'].value`, 'EUR'],
                compare_as: null,
              },
              { type: 'is-set', path: `$.predictions['svc.document.date']` },
              { type: 'has-value', item: `$.predictions["svc.document.date"].value` },
            ],
          },
          note: 'Large total read with low confidence',
          field_ids: ['svc.invoice.total', 'svc.document.currency'],
        },
        {
          condition: {
            type: 'or',
            conditions: [
              {
                type: 'not',
                condition: { type: 'has-value', item: `$.predictions['svc.invoice.total'].value` },
              },
              { type: 'equal', values: ['$100', `$.predictions['svc.invoice.total'].value`] },
              { type: 'equal', values: [1, 2] },
              { type: 'or', conditions: [] },
              { type: 'and', conditions: [] },
            ],
          },
          note: '',
          field_ids: [],
          priority: 3,
        },
        {
          condition: {
            type: 'less-than',
            values: ['2024-01-01', `$.predictions['svc.document.date'].value_norm`],
          },
          note: 'A constant that is not a path: $ 100, $100, $, @.x and text',
          field_ids: ['svc.document.date'],
          priority: -1.5,
        },
        {
          condition: { type: 'equal', values: ['$', '@.predictions'] },
          note: 'n',
          field_ids: [],
        },
      ],
    },
  };

  it('returns every condition type unchanged', () => {
    const before = structuredClone(valid);
    expect(checker.checkRules(valid)).toBe(valid);
    expect(valid).toEqual(before);
  });

  it('accepts no checks, schema false, and MAX_DEPTH nested conditions', () => {
    expect(checker.checkRules({ schema: true, data: { checks: [] } })).toEqual({
      schema: true,
      data: { checks: [] },
    });
    expect(checker.checkRules({ schema: false, data: { checks: [] } })).toBeTruthy();
    expect(MAX_DEPTH).toBe(64);
    expect(() => checker.checkRules(record(nestedNots(MAX_DEPTH)))).not.toThrow();
    expect(() => checker.checkRules(record(nestedAnds(MAX_DEPTH)))).not.toThrow();
  });

  it('accepts 1000 checks and a 1000-wide and', () => {
    const wide: Condition = {
      type: 'and',
      conditions: Array.from({ length: 1000 }, () => ({ type: 'is-set', path: TOTAL })),
    };
    expect(() => checker.checkRules(record(wide))).not.toThrow();
    expect(() =>
      checker.checkRules(record(...Array.from({ length: 1000 }, () => ({ type: 'is-set', path: TOTAL })))),
    ).not.toThrow();
  });

  it('accepts `$100` and other constants that do not start like a path', () => {
    for (const constant of [
      '$100',
      '$',
      '$ .predictions',
      '@.x',
      ' $.predictions[?(@)]',
      '',
      'x'.repeat(1000),
    ]) {
      expect(() => checker.checkRules(record({ type: 'equal', values: [constant, TOTAL] }))).not.toThrow();
    }
  });
});

describe('checkRules: every problem with its path', () => {
  it('reports at least six problems of one record, each at its JSON pointer', () => {
    const value = {
      schema: true,
      data: {
        checks: [
          { condition: { type: 'and', conditions: [] }, note: 'fine', field_ids: [] },
          { condition: { type: 'bogus' }, field_ids: 'svc.invoice.total' },
          {
            condition: { type: 'equal', values: [1], compare_as: 'text' },
            note: 'b',
            field_ids: [],
            extra: 1,
          },
          { condition: { type: 'less-than', values: [1, 2, 3] }, note: 1, field_ids: [3] },
          {
            condition: { type: 'is-set', path: `$..[?(@.constructor.constructor('return process')())]` },
            note: '',
            field_ids: [],
          },
          {
            condition: { type: 'has-value', item: `$.predictions[?(@.confidence>0.5)]` },
            note: '',
            field_ids: [],
          },
          {
            condition: {
              type: 'or',
              conditions: [
                { type: 'greater-than', values: [`$.predictions['x'].constructor`, '$100'] },
                { type: 'not', condition: { type: 'equal', values: [1, '$[0]'] } },
              ],
            },
            note: '',
            field_ids: [],
          },
        ],
      },
    };
    const details = rulesProblems(value);
    expect(details).toEqual(
      expect.arrayContaining([
        { path: '/data/checks/1/note', message: 'is required' },
        {
          path: '/data/checks/1/condition/type',
          message: expect.stringMatching(/^must be one of "and", "or", "not"/),
        },
        { path: '/data/checks/1/field_ids', message: 'must be array' },
        { path: '/data/checks/2/extra', message: 'is not an allowed property' },
        { path: '/data/checks/2/condition/values', message: 'must NOT have fewer than 2 items' },
        { path: '/data/checks/2/condition/compare_as', message: 'must be one of "numeric", null' },
        { path: '/data/checks/3/condition/values', message: 'must NOT have more than 2 items' },
        { path: '/data/checks/3/note', message: 'must be string' },
        { path: '/data/checks/3/field_ids/0', message: 'must be string' },
        { path: '/data/checks/4/condition/path', message: PATH_HINT },
        { path: '/data/checks/5/condition/item', message: PATH_HINT },
        { path: '/data/checks/6/condition/conditions/0/values/0', message: PATH_HINT },
        { path: '/data/checks/6/condition/conditions/1/condition/values/1', message: PATH_HINT },
      ]),
    );
    expect(details).toHaveLength(13);
    // Nothing about the valid check 0 nor about the `$100` constant.
    expect(details.some((d) => d.path?.startsWith('/data/checks/0'))).toBe(false);
    expect(details.some((d) => d.path === '/data/checks/6/condition/conditions/0/values/1')).toBe(false);
  });

  it('summarises the first problem and the count in the message', () => {
    const error = errorOf(() => checker.checkRules({ schema: 'yes', data: { checks: [{}] } }));
    expect(error.code).toBe('INVALID_RULES');
    expect(error.message).toMatch(/^The validation rules are not valid: \/\S+: .+ \(and \d+ more\)\.$/);
  });

  it.each([
    [
      'missing note',
      { condition: { type: 'and', conditions: [] }, field_ids: [] },
      '/data/checks/0/note',
      'is required',
    ],
    ['missing condition', { note: '', field_ids: [] }, '/data/checks/0/condition', 'is required'],
    [
      'missing field_ids',
      { condition: { type: 'and', conditions: [] }, note: '' },
      '/data/checks/0/field_ids',
      'is required',
    ],
    [
      'field_ids not an array',
      { condition: { type: 'and', conditions: [] }, note: '', field_ids: 'svc.x' },
      '/data/checks/0/field_ids',
      'must be array',
    ],
    [
      'empty field id',
      { condition: { type: 'and', conditions: [] }, note: '', field_ids: [''] },
      '/data/checks/0/field_ids/0',
      'must match pattern "^[A-Za-z0-9_:-]+(\\.[A-Za-z0-9_:-]+){2,}$"',
    ],
    [
      'priority not a number',
      { condition: { type: 'and', conditions: [] }, note: '', field_ids: [], priority: '1' },
      '/data/checks/0/priority',
      'must be number',
    ],
    [
      'extra property on a check',
      { condition: { type: 'and', conditions: [] }, note: '', field_ids: [], severity: 1 },
      '/data/checks/0/severity',
      'is not an allowed property',
    ],
    [
      'bad type',
      { condition: { type: 'greater' }, note: '', field_ids: [] },
      '/data/checks/0/condition/type',
      expect.stringContaining('must be one of'),
    ],
    [
      'no type',
      { condition: { values: [1, 2] }, note: '', field_ids: [] },
      '/data/checks/0/condition/type',
      'is required',
    ],
    [
      'condition not an object',
      { condition: 'x > 1', note: '', field_ids: [] },
      '/data/checks/0/condition',
      'must be object',
    ],
    [
      'values of one item',
      { condition: { type: 'equal', values: [1] }, note: '', field_ids: [] },
      '/data/checks/0/condition/values',
      'must NOT have fewer than 2 items',
    ],
    [
      'values of three items',
      { condition: { type: 'equal', values: [1, 2, 3] }, note: '', field_ids: [] },
      '/data/checks/0/condition/values',
      'must NOT have more than 2 items',
    ],
    [
      'values not an array',
      { condition: { type: 'equal', values: '1,2' }, note: '', field_ids: [] },
      '/data/checks/0/condition/values',
      'must be array',
    ],
    [
      'null operand',
      { condition: { type: 'less-than', values: [null, 2] }, note: '', field_ids: [] },
      '/data/checks/0/condition/values/0',
      'must be number,string',
    ],
    [
      'boolean operand',
      { condition: { type: 'less-than', values: [1, true] }, note: '', field_ids: [] },
      '/data/checks/0/condition/values/1',
      'must be number,string',
    ],
    [
      'overlong operand',
      { condition: { type: 'less-than', values: [1, 'x'.repeat(1001)] }, note: '', field_ids: [] },
      '/data/checks/0/condition/values/1',
      'must NOT have more than 1000 characters',
    ],
    [
      'wrong compare_as',
      { condition: { type: 'equal', values: [1, 2], compare_as: 'number' }, note: '', field_ids: [] },
      '/data/checks/0/condition/compare_as',
      'must be one of "numeric", null',
    ],
    [
      'extra property on a comparison',
      { condition: { type: 'equal', values: [1, 2], path: TOTAL }, note: '', field_ids: [] },
      '/data/checks/0/condition/path',
      'is not an allowed property',
    ],
    [
      'and without conditions',
      { condition: { type: 'and' }, note: '', field_ids: [] },
      '/data/checks/0/condition/conditions',
      'is required',
    ],
    [
      'or with an object for conditions',
      { condition: { type: 'or', conditions: {} }, note: '', field_ids: [] },
      '/data/checks/0/condition/conditions',
      'must be array',
    ],
    [
      'and with `condition`',
      { condition: { type: 'and', conditions: [], condition: {} }, note: '', field_ids: [] },
      '/data/checks/0/condition/condition',
      'is not an allowed property',
    ],
    [
      'not without condition',
      { condition: { type: 'not' }, note: '', field_ids: [] },
      '/data/checks/0/condition/condition',
      'is required',
    ],
    [
      'not with an array',
      { condition: { type: 'not', condition: [] }, note: '', field_ids: [] },
      '/data/checks/0/condition/condition',
      'must be object',
    ],
    [
      'not with conditions',
      { condition: { type: 'not', conditions: [] }, note: '', field_ids: [] },
      '/data/checks/0/condition/conditions',
      'is not an allowed property',
    ],
    [
      'is-set with item',
      { condition: { type: 'is-set', item: TOTAL }, note: '', field_ids: [] },
      '/data/checks/0/condition/path',
      'is required',
    ],
    [
      'has-value with path',
      { condition: { type: 'has-value', path: TOTAL }, note: '', field_ids: [] },
      '/data/checks/0/condition/item',
      'is required',
    ],
    [
      'is-set with a number',
      { condition: { type: 'is-set', path: 5 }, note: '', field_ids: [] },
      '/data/checks/0/condition/path',
      'must be string',
    ],
    [
      'nested problem',
      {
        condition: {
          type: 'and',
          conditions: [
            { type: 'or', conditions: [{ type: 'not', condition: { type: 'equal', values: [1] } }] },
          ],
        },
        note: '',
        field_ids: [],
      },
      '/data/checks/0/condition/conditions/0/conditions/0/condition/values',
      'must NOT have fewer than 2 items',
    ],
  ])('%s', (_label, check, path, message) => {
    const details = rulesProblems({ schema: true, data: { checks: [check] } });
    expect(details).toContainEqual({ path, message });
  });

  it('reports problems of the record itself', () => {
    expect(rulesProblems({})).toEqual([
      { path: '/data', message: 'is required' },
      { path: '/schema', message: 'is required' },
    ]);
    expect(rulesProblems({ data: { checks: [] } })).toEqual([{ path: '/schema', message: 'is required' }]);
    expect(rulesProblems({ schema: 'true', data: { checks: [] } })).toEqual([
      { path: '/schema', message: 'must be boolean' },
    ]);
    expect(rulesProblems({ schema: true, data: {} })).toEqual([
      { path: '/data/checks', message: 'is required' },
    ]);
    expect(rulesProblems({ schema: true, data: { checks: {} } })).toEqual([
      { path: '/data/checks', message: 'must be array' },
    ]);
    expect(rulesProblems({ schema: true, data: { checks: [], extra: 1 }, id: 'x' })).toEqual(
      expect.arrayContaining([
        { path: '/id', message: 'is not an allowed property' },
        { path: '/data/extra', message: 'is not an allowed property' },
      ]),
    );
    expect(rulesProblems({ schema: true, data: { checks: [null, 1] } })).toEqual([
      { path: '/data/checks/0', message: 'must be object' },
      { path: '/data/checks/1', message: 'must be object' },
    ]);
  });

  it('refuses more than 1000 checks or 1000 conditions in one and', () => {
    const leaf = { type: 'is-set', path: TOTAL };
    expect(rulesProblems(record(...Array.from({ length: 1001 }, () => leaf)))).toContainEqual({
      path: '/data/checks',
      message: 'must NOT have more than 1000 items',
    });
    expect(
      rulesProblems(record({ type: 'or', conditions: Array.from({ length: 1001 }, () => leaf) })),
    ).toContainEqual({
      path: '/data/checks/0/condition/conditions',
      message: 'must NOT have more than 1000 items',
    });
  });

  it.each([
    ['null', null],
    ['an array', []],
    ['an array of a record', [record()]],
    ['a string', '{"schema": true, "data": {"checks": []}}'],
    ['a number', 42],
    ['undefined', undefined],
  ])('refuses %s as the record', (_label, value) => {
    expect(rulesProblems(value)).toEqual([{ path: '', message: 'must be object' }]);
  });

  it('puts problems under the base given', () => {
    const details = rulesProblems(
      record({ type: 'equal', values: [1] }, { type: 'is-set', path: '$..x' }),
      '/inputs/rules',
    );
    expect(details).toEqual([
      { path: '/inputs/rules/data/checks/0/condition/values', message: 'must NOT have fewer than 2 items' },
      { path: '/inputs/rules/data/checks/1/condition/path', message: PATH_HINT },
    ]);
    expect(rulesProblems(null, '/inputs/rules')).toEqual([
      { path: '/inputs/rules', message: 'must be object' },
    ]);
  });

  it('reports one problem per path (a refused path that is also too short)', () => {
    expect(rulesProblems(record({ type: 'is-set', path: '$' }))).toEqual([
      { path: '/data/checks/0/condition/path', message: 'must NOT have fewer than 2 characters' },
    ]);
  });
});

describe('checkRules: variable paths', () => {
  const hostile = [
    `$..[?(@.constructor.constructor('return process')())]`,
    `$.predictions[?(@.confidence>0.5)]`,
    `$.predictions['x'].constructor`,
    `$.predictions['x'].__proto__`,
    `$.predictions[(process.exit())]`,
    `$..value`,
    `$.predictions.*`,
    `$['predictions']['x']`,
    `$[?(@)]`,
    `$.predictions['x y'].value`,
    `$.predictions['${'a'.repeat(201)}'].value`,
    `$.predictions['x'].value.length`,
    `$.predictions.x.value`,
  ];

  it.each(hostile)('refuses %s in path, item and values (either side, any depth)', (path) => {
    const details = rulesProblems(
      record(
        { type: 'is-set', path },
        { type: 'has-value', item: path },
        { type: 'equal', values: [path, 1] },
        { type: 'less-than', values: ['$100', path], compare_as: 'numeric' },
        {
          type: 'and',
          conditions: [
            { type: 'is-set', path: TOTAL },
            {
              type: 'not',
              condition: { type: 'or', conditions: [{ type: 'greater-than', values: [path, path] }] },
            },
          ],
        },
      ),
    );
    expect(details).toEqual([
      { path: '/data/checks/0/condition/path', message: PATH_HINT },
      { path: '/data/checks/1/condition/item', message: PATH_HINT },
      { path: '/data/checks/2/condition/values/0', message: PATH_HINT },
      { path: '/data/checks/3/condition/values/1', message: PATH_HINT },
      { path: '/data/checks/4/condition/conditions/1/condition/conditions/0/values/0', message: PATH_HINT },
      { path: '/data/checks/4/condition/conditions/1/condition/conditions/0/values/1', message: PATH_HINT },
    ]);
  });

  it('refuses non-paths in path and item (they are always paths)', () => {
    expect(
      rulesProblems(record({ type: 'is-set', path: '$100' }, { type: 'has-value', item: 'svc.x' })),
    ).toEqual([
      { path: '/data/checks/0/condition/path', message: PATH_HINT },
      { path: '/data/checks/1/condition/item', message: PATH_HINT },
    ]);
  });

  it('checks paths even when the shape is wrong elsewhere', () => {
    const details = rulesProblems({
      schema: 'no',
      data: {
        checks: [
          { condition: { type: 'is-set', path: '$..x' } },
          { condition: { type: 'equal', values: ['$..y', 1], extra: true }, note: '', field_ids: [] },
        ],
      },
    });
    expect(details).toEqual(
      expect.arrayContaining([
        { path: '/schema', message: 'must be boolean' },
        { path: '/data/checks/0/note', message: 'is required' },
        { path: '/data/checks/0/condition/path', message: PATH_HINT },
        { path: '/data/checks/1/condition/extra', message: 'is not an allowed property' },
        { path: '/data/checks/1/condition/values/0', message: PATH_HINT },
      ]),
    );
  });
});

describe('checkRules: depth', () => {
  // MAX_DEPTH counts and/or/not levels around the deepest leaf.
  it('refuses MAX_DEPTH + 1 nested nots', () => {
    expect(rulesProblems(record(nestedNots(MAX_DEPTH + 1)))).toHaveLength(1);
  });

  it('refuses MAX_DEPTH + 1 nested ands', () => {
    expect(rulesProblems(record(nestedAnds(MAX_DEPTH + 1)))).toHaveLength(1);
  });

  it.each([
    ['nots', nestedNots, 4 * MAX_DEPTH],
    ['ands', nestedAnds, 2 * MAX_DEPTH],
    ['nots', nestedNots, 1000],
    ['ands', nestedAnds, 1000],
  ] as const)('refuses deep nesting (%s, %i levels)', (_label, nest, depth) => {
    const error = errorOf(() => checker.checkRules(record(nest(depth))));
    expect(error.code).toBe('INVALID_RULES');
    expect(error.message).toBe(`The validation rules nest deeper than ${MAX_DEPTH} conditions.`);
    // The path of the whole record: '/' today, while schema problems of the whole record use '' (reported).
    expect(error.details).toEqual([
      { path: expect.stringMatching(/^\/?$/), message: `nests deeper than ${MAX_DEPTH} conditions` },
    ]);
  });

  it('refuses 100,000 nested conditions without overflowing the stack', () => {
    const error = errorOf(() => checker.checkRules(record(nestedNots(100_000))));
    expect(error.code).toBe('INVALID_RULES');
    const wide = errorOf(() => checker.checkRules(record(nestedAnds(100_000))));
    expect(wide.code).toBe('INVALID_RULES');
  });

  it('refuses deep nesting outside conditions too (any deep JSON)', () => {
    let deep: unknown = 'x';
    for (let i = 0; i < 100_000; i++) deep = [deep];
    const error = errorOf(() => checker.checkRules({ schema: true, data: { checks: [], deep } }));
    expect(error.code).toBe('INVALID_RULES');
    expect(errorOf(() => checker.checkRules(deep)).code).toBe('INVALID_RULES');
  });

  it('refuses a cyclic record instead of looping', () => {
    const condition: Record<string, unknown> = { type: 'not' };
    condition.condition = condition;
    const error = errorOf(() => checker.checkRules(record(condition)));
    expect(error.code).toBe('INVALID_RULES');
  });
});

describe('checkV1Options', () => {
  const valid = {
    prediction: {
      fieldset: 'svc.invoice',
      conditions: [
        { type: 'field-confidence-range', field: 'invoice.total', min: 0.5, max: null },
        { type: 'field-value-range', field: 'svc.invoice.total', min: 0, max: 10000 },
        { type: 'field-value-range', field: 'document.date', min: '2020-01-01' },
        { type: 'field-present', field: 'invoice.total' },
      ],
      createTask: { submit: true, priority: 1 },
    },
  };

  function v1Problems(value: unknown, base?: string): ErrorDetail[] {
    const error = errorOf(() => checker.checkV1Options(value, base));
    expect(error.code).toBe('INVALID_RULES');
    return error.details;
  }

  it('returns a valid shape unchanged', () => {
    const before = structuredClone(valid);
    expect(checker.checkV1Options(valid)).toBe(valid);
    expect(valid).toEqual(before);
    expect(checker.checkV1Options({ prediction: { fieldset: 'svc.invoice', conditions: [] } })).toBeTruthy();
    expect(
      checker.checkV1Options({ prediction: { fieldset: 'x', conditions: [], createTask: {} } }),
    ).toBeTruthy();
  });

  it('reports every problem under the base', () => {
    const details = v1Problems(
      {
        prediction: {
          fieldset: '',
          conditions: [
            { type: 'field-range', field: 'invoice.total', min: true, extra: 1 },
            { type: 'field-present' },
            { type: 'field-value-range', field: 'x', max: {} },
          ],
          createTask: { submit: 'yes', priority: '1', queue: 'a' },
          x: 1,
        },
      },
      '/workflowOptions',
    );
    expect(details).toEqual(
      expect.arrayContaining([
        { path: '/workflowOptions/prediction/x', message: 'is not an allowed property' },
        { path: '/workflowOptions/prediction/fieldset', message: 'must NOT have fewer than 1 characters' },
        { path: '/workflowOptions/prediction/conditions/0/extra', message: 'is not an allowed property' },
        {
          path: '/workflowOptions/prediction/conditions/0/type',
          message: 'must be one of "field-confidence-range", "field-value-range", "field-present"',
        },
        { path: '/workflowOptions/prediction/conditions/0/min', message: 'must be number,string,null' },
        { path: '/workflowOptions/prediction/conditions/1/field', message: 'is required' },
        { path: '/workflowOptions/prediction/conditions/2/max', message: 'must be number,string,null' },
        {
          path: '/workflowOptions/prediction/conditions/2/field',
          message: 'must match pattern "^[A-Za-z0-9_:-]+(\\.[A-Za-z0-9_:-]+)+$"',
        },
        { path: '/workflowOptions/prediction/createTask/queue', message: 'is not an allowed property' },
        { path: '/workflowOptions/prediction/createTask/submit', message: 'must be boolean' },
        { path: '/workflowOptions/prediction/createTask/priority', message: 'must be number' },
      ]),
    );
    expect(details).toHaveLength(11);
  });

  it.each([
    ['null', null, '', 'must be object'],
    ['a string', 'x', '', 'must be object'],
    ['an array', [valid], '', 'must be object'],
    ['no prediction', {}, '/prediction', 'is required'],
    ['prediction an array', { prediction: [] }, '/prediction', 'must be object'],
    ['no fieldset', { prediction: { conditions: [] } }, '/prediction/fieldset', 'is required'],
    ['no conditions', { prediction: { fieldset: 'svc.invoice' } }, '/prediction/conditions', 'is required'],
    [
      'conditions an object',
      { prediction: { fieldset: 'a', conditions: {} } },
      '/prediction/conditions',
      'must be array',
    ],
    [
      'fieldset a number',
      { prediction: { fieldset: 1, conditions: [] } },
      '/prediction/fieldset',
      'must be string',
    ],
    [
      'non-number priority',
      { prediction: { fieldset: 'a', conditions: [], createTask: { priority: 'high' } } },
      '/prediction/createTask/priority',
      'must be number',
    ],
    [
      'extra property inside prediction',
      { prediction: { fieldset: 'a', conditions: [], rules: [] } },
      '/prediction/rules',
      'is not an allowed property',
    ],
    [
      'a field that is not a string',
      { prediction: { fieldset: 'a', conditions: [{ type: 'field-present', field: 3 }] } },
      '/prediction/conditions/0/field',
      'must be string',
    ],
  ])('refuses %s', (_label, value, path, message) => {
    expect(v1Problems(value)).toContainEqual({ path, message });
  });
});
