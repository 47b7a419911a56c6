import { describe, expect, it, vi } from 'vitest';
import { DocexError, type ErrorDetail } from '../../src/core/errors.js';
import type { StoredTask } from '../../src/core/jobs.js';
import type { Token } from '../../src/core/types.js';
import type { BoundingBox, TableValue, VerboseFieldResult } from '../../src/extraction/types.js';
import type { FieldKind } from '../../src/products/types.js';
import {
  completeTask,
  correctionRun,
  newTaskData,
  toReviewTask,
  type CompletionContext,
} from '../../src/tasks/review-tasks.js';

const CREATED = '2024-05-01T10:00:00.000Z';
const NOW = '2024-05-02T09:30:00.123Z';
const JOB_CREATED = '2024-05-01T09:59:59.000Z';

const KINDS: Record<string, FieldKind> = {
  'invoice.total': 'amount',
  'document.date': 'date',
  'document.currency': 'currency',
  'document.type': 'documentType',
  'invoice.lineitems': 'table',
  'invoice.days': 'integer',
  'document.note': 'text',
};

const FIELD_IDS = Object.keys(KINDS).map((name) => `svc.${name}`);

function box(pageNum: number, x: number): BoundingBox {
  return { pageNum, topLeft: { x, y: 10 }, bottomRight: { x: x + 50, y: 20 }, tokenIds: [x] };
}

const TABLE: TableValue = {
  headers: ['description', 'amount'],
  rows: [
    [
      { value: 'Widget', boundingBox: box(1, 5) },
      { value: '10.00', boundingBox: null },
    ],
  ],
};

/** The fields as extracted (no `invoice.days` nor `document.note`: the extraction did not have them). */
const FIELDS: VerboseFieldResult[] = [
  { name: 'invoice.total', value: '1234.50', confidence: 0.62, boundingBox: box(1, 100) },
  { name: 'document.date', value: '2024-03-14', confidence: 0.91, boundingBox: box(1, 200) },
  { name: 'document.currency', value: 'EUR', confidence: 0.4, boundingBox: box(1, 300) },
  { name: 'document.type', value: 'invoice', confidence: 0.99, boundingBox: null },
  { name: 'invoice.lineitems', value: TABLE, confidence: 0.7, boundingBox: box(2, 1) },
];

function storedTask(fieldIds: string[] = FIELD_IDS): StoredTask {
  const data = newTaskData(
    {
      note: 'Check the total',
      field_ids: fieldIds,
      priority: 2,
      predictions: {
        'svc.invoice.total': { value: '1234.50', value_norm: 1234.5, confidence: 0.62 },
        'svc.document.date': { value: '2024-03-14', value_norm: '2024-03-14', confidence: 0.91 },
      },
      jobId: 'job-1',
      jobCreated: JOB_CREATED,
      rulesId: 'rules-1',
      condition: {
        type: 'less-than',
        values: [`$.predictions['svc.invoice.total'].confidence`, 0.7],
        compare_as: 'numeric',
      },
      fields: structuredClone(FIELDS),
    },
    CREATED,
  );
  return {
    id: 'task-1',
    accountId: 'acct-1',
    fileId: 'file-1',
    status: 'open',
    version: 1,
    createdAt: CREATED,
    data: data as unknown as Record<string, unknown>,
  };
}

const CONTEXT: CompletionContext = { namespace: 'svc', kindOf: (name) => KINDS[name], now: NOW };

/** What the stored data of a task holds (the parts these tests read). */
interface Data {
  corrections: Record<string, unknown> | null;
  completedAt: string | null;
  history: Array<{ at: string; action: string; values?: Record<string, unknown> }>;
  correctedFields?: VerboseFieldResult[];
  fields: VerboseFieldResult[];
}

const dataOf = (task: StoredTask): Data => task.data as unknown as Data;

function errorOf(fn: () => unknown): DocexError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(DocexError);
    return error as DocexError;
  }
  throw new Error('expected a DocexError, nothing was thrown');
}

function problems(values: unknown, task = storedTask()): ErrorDetail[] {
  const error = errorOf(() => completeTask(task, values, CONTEXT));
  expect(error.code).toBe('INVALID_CORRECTION');
  expect(error.httpStatus).toBe(422);
  return error.details;
}

/** The corrections stored for one value of one field (given by result name). */
function corrected(name: string, value: unknown): unknown {
  const done = completeTask(storedTask(), { [name]: value }, CONTEXT);
  return dataOf(done).corrections?.[`svc.${name}`];
}

describe('newTaskData', () => {
  it('starts open: no corrections, not completed, a created entry in the history', () => {
    const data = dataOf(storedTask());
    expect(data.corrections).toBeNull();
    expect(data.completedAt).toBeNull();
    expect(data.history).toEqual([{ at: CREATED, action: 'created' }]);
    expect(data.correctedFields).toBeUndefined();
  });
});

describe('completeTask: values by kind', () => {
  it.each([
    ['invoice.total', '1234.5', '1234.50'],
    ['invoice.total', 1234.5, '1234.50'],
    ['invoice.total', 12, '12.00'],
    ['invoice.total', 0, '0.00'],
    ['invoice.total', '-5', '-5.00'],
    ['invoice.total', ' 99.99 ', '99.99'],
    ['invoice.total', '0.125', '0.125'],
    ['invoice.total', '1234.50', '1234.50'],
    ['document.date', '2024-02-29', '2024-02-29'],
    ['document.date', ' 2024-12-31 ', '2024-12-31'],
    ['document.currency', 'EUR', 'EUR'],
    ['document.currency', 'USD', 'USD'],
    ['document.currency', '€', 'EUR'],
    ['document.type', 'invoice', 'invoice'],
    ['document.type', 'credit_note', 'credit_note'],
    ['document.type', 'receipt', 'receipt'],
    ['document.type', 'bill', 'bill'],
    ['document.type', 'statement', 'statement'],
    ['document.type', 'other', 'other'],
    ['invoice.days', 12, '12'],
    ['invoice.days', '30', '30'],
    ['invoice.days', '007', '7'],
    ['document.note', '  Paid by card  ', 'Paid by card'],
    ['invoice.lineitems', TABLE, TABLE],
    ['invoice.lineitems', { headers: [], rows: [] }, { headers: [], rows: [] }],
    [
      'invoice.lineitems',
      { headers: ['Item', 'Qty'], rows: [], types: ['description', 'quantity'] },
      { headers: ['Item', 'Qty'], rows: [], types: ['description', 'quantity'] },
    ],
  ] as Array<[string, unknown, unknown]>)('%s: %j is stored as %j', (name, value, expected) => {
    expect(corrected(name, value)).toEqual(expected);
  });

  it.each(Object.keys(KINDS))('%s: null says the document has no value', (name) => {
    const done = completeTask(storedTask(), { [name]: null }, CONTEXT);
    expect(dataOf(done).corrections).toEqual({ [`svc.${name}`]: null });
  });

  it.each([
    ['invoice.total', '1,234.50', 'must be an amount like 1234.50'],
    ['invoice.total', '€12', 'must be an amount like 1234.50'],
    ['invoice.total', '1e3', 'must be an amount like 1234.50'],
    ['invoice.total', '12.1234567', 'must be an amount like 1234.50'],
    ['invoice.total', Number.NaN, 'must be a finite number'],
    ['invoice.total', Infinity, 'must be a finite number'],
    ['invoice.total', 1e21, 'must be an amount like 1234.50'],
    ['invoice.total', true, 'must be a string or null'],
    ['invoice.total', { value: '1' }, 'must be a string or null'],
    ['document.date', '2023-02-29', 'must be a date YYYY-MM-DD'],
    ['document.date', '2024-04-31', 'must be a date YYYY-MM-DD'],
    ['document.date', '14/03/2024', 'must be a date YYYY-MM-DD'],
    ['document.date', '2024-3-14', 'must be a date YYYY-MM-DD'],
    ['document.date', '2024-03-14T00:00:00Z', 'must be a date YYYY-MM-DD'],
    ['document.date', 'March 14, 2024', 'must be a date YYYY-MM-DD'],
    ['document.date', 20240314, 'must be a string or null'],
    ['document.currency', 'XYZ', 'is not a valid currency'],
    ['document.currency', 'not a currency', 'is not a valid currency'],
    ['document.type', 'Invoice', 'must be one of invoice, credit_note, receipt, bill, statement, other'],
    ['document.type', 'quote', 'must be one of invoice, credit_note, receipt, bill, statement, other'],
    ['invoice.days', '1.5', 'must be a whole number'],
    ['invoice.days', -3, 'must be a whole number'],
    ['invoice.days', '1234567890', 'must be a whole number'],
    ['invoice.lineitems', 'Widget 10.00', 'must be a table {headers, rows}'],
    ['invoice.lineitems', [], 'must be a table {headers, rows}'],
    ['invoice.lineitems', { headers: ['a'] }, 'must be a table {headers, rows}'],
    ['invoice.lineitems', { rows: [] }, 'must be a table {headers, rows}'],
    ['invoice.lineitems', { headers: 'a', rows: [] }, 'must be a table {headers, rows}'],
    [
      'invoice.lineitems',
      { headers: ['Item'], rows: [], types: ['weight'] },
      'must have types, one per heading: null or one of description, quantity, unitPrice, amount, taxRate, code, unit',
    ],
    ['document.note', '', 'must not be empty (send null for no value)'],
    ['document.note', '   ', 'must not be empty (send null for no value)'],
    ['document.note', 'x'.repeat(2001), 'is longer than 2000 characters'],
    ['document.note', 42, 'must be a string or null'],
    ['document.note', ['a'], 'must be a string or null'],
  ] as Array<[string, unknown, string]>)('%s: %j is refused', (name, value, message) => {
    expect(problems({ [name]: value })).toEqual([{ path: `/values/${name}`, message }]);
  });

  it('passes the result name (without namespace) to kindOf', () => {
    const kindOf = vi.fn((name: string) => KINDS[name]);
    completeTask(
      storedTask(),
      { 'svc.invoice.total': '1', 'document.date': '2024-01-02' },
      { ...CONTEXT, kindOf },
    );
    expect(kindOf.mock.calls.map((c) => c[0]).sort()).toEqual(['document.date', 'invoice.total']);
  });

  it('takes any non-empty string for a field of unknown kind', () => {
    const done = completeTask(
      storedTask(),
      { 'invoice.total': ' anything ' },
      { ...CONTEXT, kindOf: () => undefined },
    );
    expect(dataOf(done).corrections).toEqual({ 'svc.invoice.total': 'anything' });
  });

  // A date of the right shape with a month above 12 or a day above 31 is a problem, not a RangeError.
  it.each(['2024-13-01', '2024-02-32', '2024-00-10', '2024-01-00'])(
    'refuses %s as INVALID_CORRECTION',
    (date) => {
      expect(problems({ 'document.date': date })).toEqual([
        { path: '/values/document.date', message: 'must be a date YYYY-MM-DD' },
      ]);
    },
  );

  // A table carrying a `problem` property is a table (the caller never controls the error message).
  it('a table with a `problem` property is not mistaken for a problem', () => {
    const table = { headers: ['a'], rows: [], problem: 'boom' };
    expect(() => completeTask(storedTask(), { 'invoice.lineitems': table }, CONTEXT)).not.toThrow();
  });
});

describe('completeTask: keys and problems', () => {
  it('takes keys as result names or field ids', () => {
    const done = completeTask(
      storedTask(),
      { 'invoice.total': '10', 'svc.document.date': '2024-01-31', 'svc.document.type': 'bill' },
      CONTEXT,
    );
    expect(dataOf(done).corrections).toEqual({
      'svc.invoice.total': '10.00',
      'svc.document.date': '2024-01-31',
      'svc.document.type': 'bill',
    });
  });

  it('refuses a key that is not a field of the task', () => {
    const task = storedTask(['svc.invoice.total']);
    expect(problems({ 'document.date': '2024-01-01', 'svc.invoice.total': '1' }, task)).toEqual([
      { path: '/values/document.date', message: 'is not a field of this task (svc.invoice.total)' },
    ]);
    expect(problems({ 'other.invoice.total': '1' }, task)).toEqual([
      { path: '/values/other.invoice.total', message: 'is not a field of this task (svc.invoice.total)' },
    ]);
    expect(problems({ total: '1' }, task)[0]!.path).toBe('/values/total');
  });

  it('refuses inherited names and escapes keys as JSON pointers', () => {
    const task = storedTask(['svc.invoice.total']);
    const hostile = JSON.parse('{"__proto__": "x", "constructor": "y", "a/b~c": "z"}') as unknown;
    expect(problems(hostile, task).map((p) => p.path)).toEqual([
      '/values/__proto__',
      '/values/constructor',
      '/values/a~1b~0c',
    ]);
  });

  it('reports every bad value at once, each with its path', () => {
    const details = problems({
      'invoice.total': '12,50',
      'svc.document.date': '2023-02-29',
      'document.currency': 'XYZ',
      'document.type': 'Invoice',
      'invoice.lineitems': 'rows',
      'invoice.days': 'ten',
      'document.note': '',
      'svc.unknown.field': '1',
      // A valid value among the bad ones is not reported.
      'svc.invoice.total': '12.50',
    });
    expect(details).toEqual([
      { path: '/values/invoice.total', message: 'must be an amount like 1234.50' },
      { path: '/values/svc.document.date', message: 'must be a date YYYY-MM-DD' },
      { path: '/values/document.currency', message: 'is not a valid currency' },
      {
        path: '/values/document.type',
        message: 'must be one of invoice, credit_note, receipt, bill, statement, other',
      },
      { path: '/values/invoice.lineitems', message: 'must be a table {headers, rows}' },
      { path: '/values/invoice.days', message: 'must be a whole number' },
      { path: '/values/document.note', message: 'must not be empty (send null for no value)' },
      { path: '/values/svc.unknown.field', message: expect.stringMatching(/^is not a field of this task/) },
    ]);
    const error = errorOf(() =>
      completeTask(storedTask(), { 'invoice.total': 'x', 'document.date': 'y' }, CONTEXT),
    );
    expect(error.message).toBe(
      'The corrected values are not valid: /values/invoice.total: must be an amount like 1234.50.',
    );
  });

  it.each([
    ['null', null],
    ['an array', [{ 'invoice.total': '1' }]],
    ['a string', '{"invoice.total": "1"}'],
    ['a number', 1],
    ['undefined', undefined],
  ])('refuses %s as the values', (_label, values) => {
    expect(problems(values)).toEqual([{ path: '/values', message: 'must be an object' }]);
  });

  it('leaves the task as it was when refusing', () => {
    const task = storedTask();
    const before = structuredClone(task);
    problems({ 'invoice.total': 'x' }, task);
    expect(task).toEqual(before);
  });

  it('refuses to complete a completed task (whatever the values)', () => {
    const done = completeTask(storedTask(), { 'invoice.total': '1' }, CONTEXT);
    for (const values of [{ 'invoice.total': '2' }, {}, null, { 'invoice.total': 'bad' }]) {
      const error = errorOf(() =>
        completeTask(done, values, { ...CONTEXT, now: '2024-06-01T00:00:00.000Z' }),
      );
      expect(error.code).toBe('TASK_ALREADY_COMPLETED');
      expect(error.httpStatus).toBe(409);
      expect(error.message).toContain('task-1');
    }
  });
});

describe('completeTask: the completed task', () => {
  const task = storedTask();
  const before = structuredClone(task);
  const values = {
    'invoice.total': 1234.5, // the same value as extracted, written differently
    'svc.document.date': '2024-03-15', // changed
    'document.currency': null, // the document has no currency
    'invoice.lineitems': structuredClone(TABLE), // confirmed
    'invoice.days': 30, // a field the extraction did not have
  };
  const done = completeTask(task, values, CONTEXT);
  const data = dataOf(done);

  it('is completed, one version on, the rest of the record kept', () => {
    expect(done.status).toBe('completed');
    expect(done.version).toBe(2);
    expect(done).toMatchObject({ id: 'task-1', accountId: 'acct-1', fileId: 'file-1', createdAt: CREATED });
    expect(data.completedAt).toBe(NOW);
  });

  it('does not change the task it was given', () => {
    expect(task).toEqual(before);
    expect(done).not.toBe(task);
  });

  it('keeps the corrections in canonical form by field id, and a completed entry in the history', () => {
    const corrections = {
      'svc.invoice.total': '1234.50',
      'svc.document.date': '2024-03-15',
      'svc.document.currency': null,
      'svc.invoice.lineitems': TABLE,
      'svc.invoice.days': '30',
    };
    expect(data.corrections).toEqual(corrections);
    expect(data.history).toEqual([
      { at: CREATED, action: 'created' },
      { at: NOW, action: 'completed', values: corrections },
    ]);
  });

  it('builds corrected fields: a confirmed value keeps its box, a changed one has none; confidence 1', () => {
    const byName = new Map(data.correctedFields!.map((f) => [f.name, f]));
    expect(byName.get('invoice.total')).toEqual({
      name: 'invoice.total',
      value: '1234.50',
      confidence: 1,
      boundingBox: box(1, 100),
    });
    expect(byName.get('document.date')).toEqual({
      name: 'document.date',
      value: '2024-03-15',
      confidence: 1,
      boundingBox: null,
    });
    expect(byName.get('document.currency')).toEqual({
      name: 'document.currency',
      value: null,
      confidence: 1,
      boundingBox: null,
    });
    expect(byName.get('invoice.lineitems')).toEqual({
      name: 'invoice.lineitems',
      value: TABLE,
      confidence: 1,
      boundingBox: box(2, 1),
    });
    // Not corrected: as extracted.
    expect(byName.get('document.type')).toEqual(FIELDS[3]);
    // Not extracted: added as corrected.
    expect(byName.get('invoice.days')).toEqual({
      name: 'invoice.days',
      value: '30',
      confidence: 1,
      boundingBox: null,
    });
    expect(data.correctedFields!.map((f) => f.name)).toEqual([...FIELDS.map((f) => f.name), 'invoice.days']);
    // The extracted fields themselves are kept.
    expect(data.fields).toEqual(FIELDS);
  });

  it('completes with no values: nothing corrected', () => {
    const empty = completeTask(storedTask(), {}, CONTEXT);
    expect(empty.status).toBe('completed');
    expect(dataOf(empty).corrections).toEqual({});
    expect(dataOf(empty).correctedFields).toEqual(FIELDS);
    expect(dataOf(empty).history[1]).toEqual({ at: NOW, action: 'completed', values: {} });
  });

  it('toReviewTask shows exactly the task record', () => {
    const open = toReviewTask(task);
    expect(Object.keys(open).sort()).toEqual(
      [
        'id',
        'fileId',
        'status',
        'note',
        'field_ids',
        'priority',
        'createdAt',
        'predictions',
        'corrections',
        'completedAt',
        'history',
      ].sort(),
    );
    expect(open).toEqual({
      id: 'task-1',
      fileId: 'file-1',
      status: 'open',
      note: 'Check the total',
      field_ids: FIELD_IDS,
      priority: 2,
      createdAt: CREATED,
      predictions: {
        'svc.invoice.total': { value: '1234.50', value_norm: 1234.5, confidence: 0.62 },
        'svc.document.date': { value: '2024-03-14', value_norm: '2024-03-14', confidence: 0.91 },
      },
      corrections: null,
      completedAt: null,
      history: [{ at: CREATED, action: 'created' }],
    });
    const closed = toReviewTask(done);
    expect(Object.keys(closed).sort()).toEqual(Object.keys(open).sort());
    expect(closed).toMatchObject({ status: 'completed', completedAt: NOW, corrections: data.corrections });
    expect(closed.history).toHaveLength(2);
    // Nothing internal leaks: no account, job, rules, condition or fields.
    for (const key of [
      'accountId',
      'version',
      'jobId',
      'jobCreated',
      'rulesId',
      'condition',
      'fields',
      'correctedFields',
    ])
      expect(closed).not.toHaveProperty(key);
  });

  it('correctionRun: none while open, the corrected fields as a run after the job once completed', () => {
    expect(correctionRun(task)).toBeUndefined();
    expect(correctionRun(done)).toEqual({
      jobCreated: `${JOB_CREATED}~${NOW}`,
      timestamp: NOW,
      fields: data.correctedFields,
    });
    // The run sorts after its validation job's `created` and before a later job's.
    const run = correctionRun(done)!;
    expect(run.jobCreated > JOB_CREATED).toBe(true);
    expect(run.jobCreated < '2024-05-01T10:00:00.000Z').toBe(true);
  });
});

describe('completeTask: values taken from words of the page (tokenIds)', () => {
  const word = (id: number, pageNum: number, x0: number, text: string): Token => ({
    id,
    text,
    pageNum,
    box: { x0, y0: 0.5, x1: x0 + 0.05, y1: 0.52 },
    confidence: 1,
    source: 'text',
    lineId: id,
  });
  const tokens = [word(0, 1, 0.1, '999.00'), word(1, 2, 0.2, '30'), word(2, 2, 0.3, 'days')];
  const context = { ...CONTEXT, tokens };

  it('gives a taken value the box of its words, keeps a confirmed one, leaves a typed one without', () => {
    const done = completeTask(
      storedTask(),
      { 'invoice.total': '30', 'document.date': '2024-03-14', 'document.currency': 'USD' },
      context,
      { 'svc.invoice.total': [1, 2], 'document.date': [0] },
    );
    const byName = new Map(dataOf(done).correctedFields!.map((f) => [f.name, f]));
    expect(byName.get('invoice.total')!.boundingBox).toEqual({
      pageNum: 2,
      topLeft: { x: 0.2, y: 0.5 },
      bottomRight: { x: 0.35, y: 0.52 },
      tokenIds: [1, 2],
    });
    // Confirmed, and pointed at other words: the words win.
    expect(byName.get('document.date')!.boundingBox!.tokenIds).toEqual([0]);
    expect(byName.get('document.currency')!.boundingBox).toBeNull();
  });

  it('refuses word ids that are not a list, unknown, of two pages, or for a field without a value', () => {
    const error = errorOf(() =>
      completeTask(
        storedTask(),
        {
          'invoice.total': '30',
          'document.date': '2024-03-14',
          'document.currency': null,
          'document.type': 'bill',
        },
        context,
        {
          'invoice.total': [0, 1],
          'document.date': [7],
          'document.currency': [1],
          'document.type': 'all',
          'invoice.lineitems': [1],
        },
      ),
    );
    expect(error.code).toBe('INVALID_CORRECTION');
    expect(error.details).toEqual([
      { path: '/tokenIds/invoice.total', message: 'names words of more than one page' },
      { path: '/tokenIds/document.date', message: 'names a word the document does not have' },
      { path: '/tokenIds/document.currency', message: 'names a field without a value in values' },
      { path: '/tokenIds/document.type', message: 'must be a list of 1 to 200 word ids' },
      { path: '/tokenIds/invoice.lineitems', message: 'names a field without a value in values' },
    ]);
    expect(errorOf(() => completeTask(storedTask(), {}, context, [1])).details).toEqual([
      { path: '/tokenIds', message: 'must be an object of field id to word ids' },
    ]);
  });
});

describe('completing with values confirmed as extracted', () => {
  /** One field of every kind, each in a form extraction may give (not always the checks' canonical form). */
  const EVERY_KIND: Array<[FieldKind, string | TableValue]> = [
    ['date', '2024-03-14'],
    ['amount', '1234.5'],
    ['integer', '030'],
    ['text', '  Kunden AG  Mitte '],
    ['reference', 'inv-0042/a'],
    ['currency', 'eur'],
    ['documentType', 'Rechnung'],
    ['abn', '51 824 753 556'],
    ['taxId', 'DE 123 456 789'],
    ['iban', 'DE89 3704 0044 0532 0130 00'],
    ['bic', 'cobadeffxxx'],
    ['bsb', '062 000'],
    ['bankAccount', '1234 5678'],
    ['bpayBiller', '012345'],
    ['bpayCrn', '1234 5678 90'],
    ['paymentMethod', 'Visa ****1234'],
    ['table', TABLE],
  ];
  const kinds = Object.fromEntries(EVERY_KIND.map(([kind]) => [`all.${kind}`, kind])) as Record<
    string,
    FieldKind
  >;
  const fields: VerboseFieldResult[] = EVERY_KIND.map(([kind, value], i) => ({
    name: `all.${kind}`,
    value,
    confidence: 0.5,
    boundingBox: box(1, 10 * (i + 1)),
  }));
  const task = (): StoredTask => ({
    ...storedTask(fields.map((f) => `svc.${f.name}`)),
    data: newTaskData(
      {
        note: 'Every kind',
        field_ids: fields.map((f) => `svc.${f.name}`),
        priority: 1,
        predictions: {},
        jobId: 'job-1',
        jobCreated: JOB_CREATED,
        rulesId: null,
        condition: { type: 'exists', values: ['$.predictions'] } as never,
        fields: structuredClone(fields),
      },
      CREATED,
    ) as unknown as Record<string, unknown>,
  });
  const context: CompletionContext = { namespace: 'svc', kindOf: (name) => kinds[name], now: NOW };

  it('leaves every field of every kind exactly as extracted, with its box (what the review page sends untouched)', () => {
    const values = Object.fromEntries(fields.map((f) => [`svc.${f.name}`, f.value]));
    const done = dataOf(completeTask(task(), values, context));
    expect(done.correctedFields).toEqual(fields.map((f) => ({ ...f, confidence: 1 })));
    expect(done.corrections).toEqual(values);
  });

  it('still checks a value that differs from the extraction, in any kind', () => {
    expect(() => completeTask(task(), { 'svc.all.integer': '3.5' }, context)).toThrow(DocexError);
    const changed = dataOf(completeTask(task(), { 'svc.all.amount': '1234.50' }, context));
    expect(changed.corrections!['svc.all.amount']).toBe('1234.50');
    expect(changed.correctedFields!.find((f) => f.name === 'all.amount')!.boundingBox).toBeNull();
  });
});
