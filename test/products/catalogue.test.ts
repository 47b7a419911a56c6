import { describe, expect, it } from 'vitest';
import { DocexError } from '../../src/core/errors.js';
import { BUILTIN_FIELDSETS, BUILTIN_PRODUCTS } from '../../src/products/builtin.js';
import { createCatalogue, type Catalogue } from '../../src/products/catalogue.js';
import type { FieldDefinition, FieldsetDefinition, ProductDefinition } from '../../src/products/types.js';

const svc = (): Catalogue => createCatalogue({ namespace: 'svc' });

/** Runs `action` and returns the DocexError it throws (fails the test when it throws nothing else). */
function failure(action: () => unknown): DocexError {
  try {
    action();
  } catch (error) {
    expect(error).toBeInstanceOf(DocexError);
    return error as DocexError;
  }
  throw new Error('expected a DocexError, nothing was thrown');
}

function expectError(action: () => unknown, code: DocexError['code'], ...fragments: string[]): void {
  const error = failure(action);
  expect(error.code).toBe(code);
  for (const fragment of fragments) expect(error.message).toContain(fragment);
}

const ids = (selection: { fieldsets: Array<{ id: string }> }): string[] =>
  selection.fieldsets.map((f) => f.id);

/** The decisions table, field by field, in order. */
const TABLE: Record<string, Array<[string, FieldDefinition['kind']]>> = {
  document: [
    ['document.date', 'date'],
    ['document.referenceNo', 'reference'],
    ['document.type', 'documentType'],
    ['document.currency', 'currency'],
    ['document.supplierName', 'text'],
    ['document.supplierAddress', 'text'],
    ['document.supplierABN', 'abn'],
    ['document.supplierTaxId', 'taxId'],
    ['document.customerName', 'text'],
  ],
  invoice: [
    ['invoice.total', 'amount'],
    ['invoice.subTotal', 'amount'],
    ['invoice.tax', 'amount'],
    ['invoice.amountDue', 'amount'],
    ['invoice.amountPaid', 'amount'],
    ['invoice.dueDate', 'date'],
    ['invoice.paymentDate', 'date'],
    ['invoice.purchaseOrderNo', 'reference'],
    ['invoice.lineitems', 'table'],
  ],
  bank: [
    ['bank.accountNo', 'bankAccount'],
    ['bank.bsb', 'bsb'],
    ['bank.iban', 'iban'],
    ['bank.bic', 'bic'],
  ],
  bpay: [
    ['bpay.billerCode', 'bpayBiller'],
    ['bpay.crn', 'bpayCrn'],
  ],
  receipt: [
    ['receipt.total', 'amount'],
    ['receipt.tax', 'amount'],
    ['receipt.paymentMethod', 'paymentMethod'],
  ],
  bill: [
    ['bill.billingPeriodFromDate', 'date'],
    ['bill.billingPeriodToDate', 'date'],
    ['bill.billingPeriodNumberOfDays', 'integer'],
  ],
  // Beyond the decisions table: the original service's generic fieldset.
  generic: [['generic.keyValues', 'table']],
};

const PRODUCT_TABLE: Array<[string, number, string[]]> = [
  ['invoices', 1, ['document', 'invoice']],
  ['invoices', 2, ['document', 'invoice', 'bank', 'bpay']],
  ['receipts', 1, ['document', 'receipt']],
  ['bills', 1, ['document', 'invoice', 'bill', 'bpay']],
];

const hostFieldset: FieldsetDefinition = {
  id: 'freight',
  fields: [
    { name: 'freight.consignmentNo', kind: 'reference', labels: { en: ['consignment', 'con note'] } },
    { name: 'freight.weight', kind: 'text' },
  ],
};

describe('built-in data', () => {
  it('holds every fieldset of the decisions table with its fields in order and of the right kind', () => {
    expect(BUILTIN_FIELDSETS.map((f) => f.id)).toEqual(Object.keys(TABLE));
    for (const fieldset of BUILTIN_FIELDSETS) {
      expect(fieldset.fields.map((f) => [f.name, f.kind])).toEqual(TABLE[fieldset.id]);
    }
  });

  it('holds every product of the decisions table', () => {
    expect(BUILTIN_PRODUCTS.map((p) => [p.id, p.version, p.fieldsets])).toEqual(PRODUCT_TABLE);
  });

  it('is frozen', () => {
    expect(Object.isFrozen(BUILTIN_FIELDSETS)).toBe(true);
    expect(Object.isFrozen(BUILTIN_FIELDSETS[0])).toBe(true);
    expect(Object.isFrozen(BUILTIN_FIELDSETS[0]?.fields)).toBe(true);
    expect(Object.isFrozen(BUILTIN_FIELDSETS[0]?.fields[0])).toBe(true);
    expect(Object.isFrozen(BUILTIN_PRODUCTS)).toBe(true);
    expect(Object.isFrozen(BUILTIN_PRODUCTS[0]?.fieldsets)).toBe(true);
    expect(() => BUILTIN_PRODUCTS.push({ id: 'x', version: 1, fieldsets: ['document'] })).toThrow(TypeError);
  });
});

describe('catalogue contents', () => {
  it('lists the built-in products and namespaced fieldsets', () => {
    const catalogue = svc();
    expect(catalogue.namespace).toBe('svc');
    expect(catalogue.products().map((p) => [p.id, p.version, p.fieldsets])).toEqual(PRODUCT_TABLE);
    expect(catalogue.fieldsets().map((f) => [f.id, f.fields.map((x) => [x.name, x.kind])])).toEqual(
      Object.entries(TABLE).map(([id, fields]) => [`svc.${id}`, fields]),
    );
  });

  it('finds every built-in field by result name', () => {
    const catalogue = svc();
    for (const fields of Object.values(TABLE)) {
      for (const [name, kind] of fields) expect(catalogue.field(name)).toEqual({ name, kind });
    }
    expect(catalogue.field('invoice.nope')).toBeUndefined();
    expect(catalogue.field('svc.invoice.total')).toBeUndefined();
  });

  it('returns fresh lists each time', () => {
    const catalogue = svc();
    const list = catalogue.products();
    list.length = 0;
    expect(catalogue.products()).toHaveLength(4);
    const fieldsets = catalogue.fieldsets();
    fieldsets.pop();
    expect(catalogue.fieldsets()).toHaveLength(7);
  });
});

describe('resolve', () => {
  it('resolves a versioned product to its fieldsets in order', () => {
    const selection = svc().resolve(['invoices:1']);
    expect(selection.products).toEqual([{ id: 'invoices', version: 1 }]);
    expect(ids(selection)).toEqual(['svc.document', 'svc.invoice']);
    expect(selection.fieldsets[1]?.fields.map((f) => f.name)).toEqual(TABLE.invoice?.map(([name]) => name));
  });

  it('resolves a bare product id to its latest version', () => {
    const selection = svc().resolve(['invoices']);
    expect(selection.products).toEqual([{ id: 'invoices', version: 2 }]);
    expect(ids(selection)).toEqual(['svc.document', 'svc.invoice', 'svc.bank', 'svc.bpay']);
    expect(svc().resolve(['bills']).products).toEqual([{ id: 'bills', version: 1 }]);
    expect(ids(svc().resolve(['bills']))).toEqual(['svc.document', 'svc.invoice', 'svc.bill', 'svc.bpay']);
    expect(ids(svc().resolve(['receipts:1']))).toEqual(['svc.document', 'svc.receipt']);
  });

  it('resolves a namespaced fieldset id alone, without products', () => {
    const selection = svc().resolve(['svc.bank']);
    expect(selection.products).toEqual([]);
    expect(selection.fieldsets).toEqual([{ id: 'svc.bank', fields: BUILTIN_FIELDSETS[2]?.fields }]);
  });

  it('deduplicates fieldsets in first-seen order', () => {
    const selection = svc().resolve(['invoices:2', 'svc.receipt', 'svc.invoice']);
    expect(selection.products).toEqual([{ id: 'invoices', version: 2 }]);
    expect(ids(selection)).toEqual(['svc.document', 'svc.invoice', 'svc.bank', 'svc.bpay', 'svc.receipt']);
  });

  it('follows the order of the ids: a fieldset first, then a product', () => {
    const selection = svc().resolve(['svc.receipt', 'bills:1', 'receipts:1']);
    expect(selection.products).toEqual([
      { id: 'bills', version: 1 },
      { id: 'receipts', version: 1 },
    ]);
    expect(ids(selection)).toEqual(['svc.receipt', 'svc.document', 'svc.invoice', 'svc.bill', 'svc.bpay']);
  });

  it('deduplicates products named twice (bare and versioned)', () => {
    const selection = svc().resolve(['invoices', 'invoices:2', 'invoices:1']);
    expect(selection.products).toEqual([
      { id: 'invoices', version: 2 },
      { id: 'invoices', version: 1 },
    ]);
    expect(ids(selection)).toEqual(['svc.document', 'svc.invoice', 'svc.bank', 'svc.bpay']);
  });

  it('refuses an empty list', () => {
    expectError(() => svc().resolve([]), 'INVALID_ARGUMENT', 'Give at least one product id.');
  });

  it('refuses ids that are not strings and lists that are not lists', () => {
    expectError(() => svc().resolve([42 as unknown as string]), 'INVALID_ARGUMENT');
    expectError(() => svc().resolve('invoices' as unknown as string[]), 'INVALID_ARGUMENT');
  });

  it.each([
    'nope',
    'nope:1',
    'svc.nope',
    'invoice',
    'document',
    'Invoices',
    ' invoices',
    'invoices:',
    'invoices:x',
    'invoices:0',
    'invoices:01',
    'invoices:-1',
    'invoices:1.5',
    'svc.invoice:1',
    'svc.',
    '',
  ])('refuses unknown id %j with UNKNOWN_PRODUCT naming it', (id) => {
    expectError(() => svc().resolve(['invoices', id]), 'UNKNOWN_PRODUCT', `'${id}'`);
  });

  it.each(['invoices:3', 'receipts:2', 'bills:99'])('refuses unknown version %s', (id) => {
    expectError(() => svc().resolve([id]), 'UNKNOWN_PRODUCT', id);
  });

  it('returns data that cannot change the catalogue', () => {
    const catalogue = svc();
    const selection = catalogue.resolve(['invoices:1']);
    expect(() => selection.fieldsets[0]?.fields.push({ name: 'document.x', kind: 'text' })).toThrow(
      TypeError,
    );
    const first = selection.fieldsets[0]?.fields[0];
    expect(() => {
      if (first) first.kind = 'amount';
    }).toThrow(TypeError);
    selection.products.push({ id: 'bills', version: 1 });
    selection.fieldsets.length = 0;
    expect(catalogue.resolve(['invoices:1']).products).toEqual([{ id: 'invoices', version: 1 }]);
    expect(ids(catalogue.resolve(['invoices:1']))).toEqual(['svc.document', 'svc.invoice']);
    expect(catalogue.field('document.date')?.kind).toBe('date');
  });
});

describe('namespace', () => {
  const acme = (): Catalogue => createCatalogue({ namespace: 'acme' });

  it('prefixes fieldset ids with a custom namespace', () => {
    const catalogue = acme();
    expect(ids(catalogue.resolve(['acme.invoice']))).toEqual(['acme.invoice']);
    expect(ids(catalogue.resolve(['invoices:1']))).toEqual(['acme.document', 'acme.invoice']);
    expect(catalogue.fieldsets().map((f) => f.id)).toEqual(Object.keys(TABLE).map((id) => `acme.${id}`));
  });

  it('does not know the default namespace', () => {
    expectError(() => acme().resolve(['svc.invoice']), 'UNKNOWN_PRODUCT', "'svc.invoice'");
  });

  it('names fields with the namespace in ids, not in names', () => {
    const catalogue = acme();
    expect(catalogue.fieldIdOf('invoice.total')).toBe('acme.invoice.total');
    expect(catalogue.fieldNameOf('acme.invoice.total')).toBe('invoice.total');
    expect(catalogue.fieldNameOf('svc.invoice.total')).toBeUndefined();
  });

  it.each(['', 'Svc', 'svc.x', '1svc', 'a b'])('refuses namespace %j', (namespace) => {
    expectError(() => createCatalogue({ namespace }), 'INVALID_ARGUMENT', 'namespace');
  });

  it('accepts a namespace with digits, dashes and underscores', () => {
    const catalogue = createCatalogue({ namespace: 'my-host_2' });
    expect(ids(catalogue.resolve(['my-host_2.bpay']))).toEqual(['my-host_2.bpay']);
  });
});

describe('subscriptions', () => {
  const resolve = (subscriptions: readonly string[], ...list: string[]) =>
    svc().resolve(list, { subscriptions });
  const refused = (subscriptions: readonly string[], id: string) =>
    expectError(() => resolve(subscriptions, id), 'PRODUCT_NOT_ALLOWED', `'${id}'`);

  it('allows everything without subscriptions, and everything with *', () => {
    expect(ids(svc().resolve(['bills', 'svc.receipt']))).toHaveLength(5);
    expect(ids(resolve(['*'], 'bills', 'receipts:1', 'invoices:1', 'svc.bank'))).toEqual([
      'svc.document',
      'svc.invoice',
      'svc.bill',
      'svc.bpay',
      'svc.receipt',
      'svc.bank',
    ]);
  });

  it('allows nothing with an empty list', () => {
    refused([], 'invoices');
    refused([], 'svc.document');
  });

  it('a bare product subscription allows all its versions, bare or versioned', () => {
    expect(resolve(['invoices'], 'invoices').products).toEqual([{ id: 'invoices', version: 2 }]);
    expect(resolve(['invoices'], 'invoices:1').products).toEqual([{ id: 'invoices', version: 1 }]);
    expect(resolve(['invoices'], 'invoices:2').products).toEqual([{ id: 'invoices', version: 2 }]);
    refused(['invoices'], 'receipts:1');
    refused(['invoices'], 'bills');
  });

  it('a versioned subscription allows that version only', () => {
    expect(resolve(['invoices:1'], 'invoices:1').products).toEqual([{ id: 'invoices', version: 1 }]);
    refused(['invoices:1'], 'invoices:2');
    // A bare id means the latest version, which this subscription does not cover.
    refused(['invoices:1'], 'invoices');
    expect(resolve(['invoices:2'], 'invoices').products).toEqual([{ id: 'invoices', version: 2 }]);
  });

  it('a fieldset subscription allows that fieldset alone', () => {
    expect(ids(resolve(['svc.receipt'], 'svc.receipt'))).toEqual(['svc.receipt']);
    refused(['svc.receipt'], 'svc.document');
    refused(['svc.receipt'], 'receipts:1');
    refused(['svc.receipt'], 'receipts');
  });

  it('a fieldset is allowed when it belongs to a subscribed product', () => {
    expect(ids(resolve(['receipts'], 'svc.receipt', 'svc.document'))).toEqual([
      'svc.receipt',
      'svc.document',
    ]);
    expect(ids(resolve(['receipts:1'], 'svc.receipt'))).toEqual(['svc.receipt']);
    refused(['receipts'], 'svc.invoice');
    // bank belongs to invoices:2 only.
    expect(ids(resolve(['invoices:2'], 'svc.bank'))).toEqual(['svc.bank']);
    expect(ids(resolve(['invoices'], 'svc.bank'))).toEqual(['svc.bank']);
    refused(['invoices:1'], 'svc.bank');
    // bill belongs to bills:1.
    expect(ids(resolve(['bills:1'], 'svc.bill'))).toEqual(['svc.bill']);
  });

  it('combines entries', () => {
    const selection = resolve(
      ['receipts', 'svc.bank', 'invoices:1'],
      'receipts',
      'svc.bank',
      'invoices:1',
      'svc.invoice',
    );
    expect(selection.products).toEqual([
      { id: 'receipts', version: 1 },
      { id: 'invoices', version: 1 },
    ]);
    expect(ids(selection)).toEqual(['svc.document', 'svc.receipt', 'svc.bank', 'svc.invoice']);
  });

  it('refuses the first id not allowed, naming it, even when others are allowed', () => {
    expect(resolve(['receipts'], 'receipts').products).toEqual([{ id: 'receipts', version: 1 }]);
    expectError(() => resolve(['receipts'], 'receipts', 'bills:1'), 'PRODUCT_NOT_ALLOWED', "'bills:1'");
  });

  it('reports unknown ids as unknown, not as not allowed', () => {
    expectError(() => resolve(['receipts'], 'nope'), 'UNKNOWN_PRODUCT', "'nope'");
    expectError(() => resolve(['*'], 'invoices:9'), 'UNKNOWN_PRODUCT', "'invoices:9'");
  });

  it('ignores subscription entries that name nothing known, or another namespace', () => {
    refused(['nope', 'nope:1', 'svc.nope', 'invoices:x', 'acme.invoice'], 'invoices');
    refused(['acme.invoice'], 'svc.invoice');
  });

  it('uses the catalogue namespace for fieldset entries', () => {
    const catalogue = createCatalogue({ namespace: 'acme' });
    expect(ids(catalogue.resolve(['acme.bank'], { subscriptions: ['acme.bank'] }))).toEqual(['acme.bank']);
    expectError(
      () => catalogue.resolve(['acme.bank'], { subscriptions: ['svc.bank'] }),
      'PRODUCT_NOT_ALLOWED',
      "'acme.bank'",
    );
  });

  it('refuses malformed subscriptions', () => {
    expectError(() => resolve('*' as unknown as string[], 'invoices'), 'INVALID_ARGUMENT');
    expectError(() => resolve([1 as unknown as string], 'invoices'), 'INVALID_ARGUMENT');
  });

  it('a bare product subscription covers versions registered later', () => {
    const catalogue = svc();
    catalogue.defineFieldset(hostFieldset);
    catalogue.defineProduct({ id: 'receipts', version: 2, fieldsets: ['document', 'receipt', 'freight'] });
    const selection = catalogue.resolve(['receipts', 'svc.freight'], { subscriptions: ['receipts'] });
    expect(selection.products).toEqual([{ id: 'receipts', version: 2 }]);
    expect(ids(selection)).toEqual(['svc.document', 'svc.receipt', 'svc.freight']);
    expectError(
      () => catalogue.resolve(['svc.freight'], { subscriptions: ['receipts:1'] }),
      'PRODUCT_NOT_ALLOWED',
      "'svc.freight'",
    );
  });
});

describe('host definitions', () => {
  it('registers a host fieldset and product and resolves them', () => {
    const catalogue = svc();
    catalogue.defineFieldset(hostFieldset);
    catalogue.defineProduct({ id: 'freight_bills', version: 1, fieldsets: ['document', 'freight', 'bpay'] });
    const selection = catalogue.resolve(['freight_bills']);
    expect(selection.products).toEqual([{ id: 'freight_bills', version: 1 }]);
    expect(ids(selection)).toEqual(['svc.document', 'svc.freight', 'svc.bpay']);
    expect(selection.fieldsets[1]?.fields).toEqual(hostFieldset.fields);
    expect(ids(catalogue.resolve(['svc.freight']))).toEqual(['svc.freight']);
    expect(catalogue.field('freight.consignmentNo')).toEqual(hostFieldset.fields[0]);
    expect(catalogue.fieldIdOf('freight.weight')).toBe('svc.freight.weight');
    expect(catalogue.products().at(-1)).toEqual({
      id: 'freight_bills',
      version: 1,
      fieldsets: ['document', 'freight', 'bpay'],
    });
    expect(catalogue.fieldsets().at(-1)?.id).toBe('svc.freight');
  });

  it('registers definitions given as options after the built-ins', () => {
    const catalogue = createCatalogue({
      namespace: 'acme',
      fieldsets: [hostFieldset],
      products: [
        { id: 'freight', version: 1, fieldsets: ['freight'] },
        { id: 'invoices', version: 3, fieldsets: ['document', 'invoice', 'freight'] },
      ],
    });
    expect(catalogue.products().map((p) => `${p.id}:${p.version}`)).toEqual([
      'invoices:1',
      'invoices:2',
      'receipts:1',
      'bills:1',
      'freight:1',
      'invoices:3',
    ]);
    expect(ids(catalogue.resolve(['freight']))).toEqual(['acme.freight']);
    expect(catalogue.resolve(['invoices']).products).toEqual([{ id: 'invoices', version: 3 }]);
    expect(catalogue.resolve(['invoices:2']).products).toEqual([{ id: 'invoices', version: 2 }]);
  });

  it('takes the highest version as latest whatever the registration order', () => {
    const catalogue = svc();
    catalogue.defineProduct({ id: 'statements', version: 5, fieldsets: ['document'] });
    catalogue.defineProduct({ id: 'statements', version: 3, fieldsets: ['document', 'bank'] });
    expect(catalogue.resolve(['statements']).products).toEqual([{ id: 'statements', version: 5 }]);
    expect(ids(catalogue.resolve(['statements:3']))).toEqual(['svc.document', 'svc.bank']);
  });

  it('refuses invalid definitions given as options', () => {
    expectError(
      () =>
        createCatalogue({ namespace: 'svc', products: [{ id: 'x', version: 1, fieldsets: ['freight'] }] }),
      'INVALID_DEFINITION',
      "'freight'",
    );
    expectError(
      () => createCatalogue({ namespace: 'svc', fieldsets: {} as unknown as FieldsetDefinition[] }),
      'INVALID_ARGUMENT',
    );
  });

  it('keeps frozen copies: the caller cannot change registered data', () => {
    const catalogue = svc();
    const def: FieldsetDefinition = {
      id: 'freight',
      fields: [{ name: 'freight.weight', kind: 'text', labels: { en: ['weight'] } }],
    };
    catalogue.defineFieldset(def);
    const product: ProductDefinition = { id: 'freight', version: 1, fieldsets: ['freight'] };
    catalogue.defineProduct(product);

    def.id = 'other';
    def.fields.push({ name: 'freight.volume', kind: 'text' });
    const first = def.fields[0];
    if (first) {
      first.kind = 'amount';
      first.labels?.en?.push('kg');
    }
    product.fieldsets.push('bank');
    product.version = 7;

    expect(catalogue.fieldsets().at(-1)).toEqual({
      id: 'svc.freight',
      fields: [{ name: 'freight.weight', kind: 'text', labels: { en: ['weight'] } }],
    });
    expect(catalogue.field('freight.volume')).toBeUndefined();
    expect(ids(catalogue.resolve(['freight:1']))).toEqual(['svc.freight']);

    const registered = catalogue.field('freight.weight');
    expect(Object.isFrozen(registered)).toBe(true);
    expect(Object.isFrozen(registered?.labels)).toBe(true);
    expect(Object.isFrozen(registered?.labels?.en)).toBe(true);
    expect(() => registered?.labels?.en?.push('x')).toThrow(TypeError);
    const listed = catalogue.products().at(-1);
    expect(Object.isFrozen(listed)).toBe(true);
    expect(() => listed?.fieldsets.push('bank')).toThrow(TypeError);
    expect(() => catalogue.fieldsets()[0]?.fields.pop()).toThrow(TypeError);
  });

  it('keeps only the known properties of a field', () => {
    const catalogue = svc();
    catalogue.defineFieldset({
      id: 'extra',
      fields: [{ name: 'extra.one', kind: 'text', secret: 1 } as FieldDefinition],
    });
    expect(catalogue.field('extra.one')).toEqual({ name: 'extra.one', kind: 'text' });
  });
});

describe('definition validation', () => {
  const field = (name: string, kind: string = 'text') => ({ name, kind }) as FieldDefinition;
  const fieldset = (id: string, ...fields: FieldDefinition[]): FieldsetDefinition => ({
    id,
    fields: fields.length ? fields : [field(`${id.replace(/[^a-z]/g, '') || 'x'}.one`)],
  });

  it.each([
    ['', 'must be lower-case'],
    ['Freight', "'Freight'"],
    ['1freight', "'1freight'"],
    ['frei ght', "'frei ght'"],
    ['acme.freight', "'acme.freight'"],
    ['_freight', "'_freight'"],
  ])('refuses fieldset id %j', (id, fragment) => {
    expectError(
      () => svc().defineFieldset(fieldset(id, field('freight.one'))),
      'INVALID_DEFINITION',
      fragment,
    );
  });

  it('refuses a fieldset id that carries the namespace', () => {
    expectError(
      () => svc().defineFieldset(fieldset('svc.freight', field('freight.one'))),
      'INVALID_DEFINITION',
      "'svc.freight'",
      'namespace',
    );
    expectError(
      () =>
        createCatalogue({ namespace: 'acme' }).defineFieldset(fieldset('acme.freight', field('freight.one'))),
      'INVALID_DEFINITION',
      'namespace',
    );
  });

  it('accepts fieldset ids with digits, dashes and underscores', () => {
    const catalogue = svc();
    catalogue.defineFieldset(fieldset('freight-2_b', field('freight2.one')));
    expect(ids(catalogue.resolve(['svc.freight-2_b']))).toEqual(['svc.freight-2_b']);
  });

  it.each([
    'total',
    'invoice.',
    '.total',
    'a.b.c',
    'invoice.total_due',
    'invoice.total-due',
    '1x.total',
    'x.1total',
    'svc.x y',
    '',
  ])('refuses field name %j', (name) => {
    expectError(
      () => svc().defineFieldset(fieldset('freight', field(name))),
      'INVALID_DEFINITION',
      '<group>.<name>',
    );
  });

  it('accepts field names with letters and digits in both parts', () => {
    const catalogue = svc();
    catalogue.defineFieldset(fieldset('freight', field('Freight2.weightKg2')));
    expect(catalogue.field('Freight2.weightKg2')?.kind).toBe('text');
  });

  it.each(['money', 'Amount', '', 'id'])('refuses field kind %j', (kind) => {
    expectError(
      () => svc().defineFieldset(fieldset('freight', field('freight.one', kind))),
      'INVALID_DEFINITION',
      'freight.one',
      'kind',
    );
  });

  it('accepts every FieldKind', () => {
    const kinds = [...new Set(Object.values(TABLE).flatMap((fields) => fields.map(([, kind]) => kind)))];
    expect(kinds).toHaveLength(17);
    const catalogue = svc();
    catalogue.defineFieldset({ id: 'all', fields: kinds.map((kind) => field(`all.${kind}`, kind)) });
    expect(catalogue.resolve(['svc.all']).fieldsets[0]?.fields).toHaveLength(17);
  });

  it('refuses duplicate field names inside a fieldset', () => {
    expectError(
      () => svc().defineFieldset(fieldset('freight', field('freight.one'), field('freight.one', 'amount'))),
      'INVALID_DEFINITION',
      "'freight.one'",
      'twice',
    );
  });

  it('refuses a field name already defined by another fieldset', () => {
    expectError(
      () => svc().defineFieldset(fieldset('myinvoice', field('invoice.total', 'amount'))),
      'INVALID_DEFINITION',
      "'invoice.total'",
      "'invoice'",
    );
  });

  it('refuses empty or missing field lists and malformed fields', () => {
    expectError(() => svc().defineFieldset({ id: 'freight', fields: [] }), 'INVALID_DEFINITION', "'freight'");
    expectError(
      () => svc().defineFieldset({ id: 'freight' } as FieldsetDefinition),
      'INVALID_DEFINITION',
      "'freight'",
    );
    expectError(
      () => svc().defineFieldset({ id: 'freight', fields: [null as unknown as FieldDefinition] }),
      'INVALID_DEFINITION',
      "'freight'",
    );
    expectError(() => svc().defineFieldset(null as unknown as FieldsetDefinition), 'INVALID_DEFINITION');
  });

  it('refuses malformed labels', () => {
    const withLabels = (labels: unknown) =>
      fieldset('freight', { name: 'freight.one', kind: 'text', labels } as FieldDefinition);
    expectError(() => svc().defineFieldset(withLabels(['weight'])), 'INVALID_DEFINITION', 'Labels');
    expectError(() => svc().defineFieldset(withLabels({ en: 'weight' })), 'INVALID_DEFINITION', 'Labels');
    expectError(() => svc().defineFieldset(withLabels({ en: [''] })), 'INVALID_DEFINITION', 'Labels');
    expectError(() => svc().defineFieldset(withLabels({ en: [3] })), 'INVALID_DEFINITION', 'Labels');
  });

  it('refuses redefining a fieldset, built-in or host', () => {
    const catalogue = svc();
    expectError(
      () => catalogue.defineFieldset(fieldset('invoice', field('other.total'))),
      'INVALID_DEFINITION',
      "'invoice'",
      'already defined',
    );
    catalogue.defineFieldset(hostFieldset);
    expectError(
      () => catalogue.defineFieldset(fieldset('freight', field('other.total'))),
      'INVALID_DEFINITION',
      "'freight'",
      'already defined',
    );
  });

  it('registers nothing from a refused fieldset', () => {
    const catalogue = svc();
    expect(() =>
      catalogue.defineFieldset(fieldset('freight', field('freight.one'), field('freight.bad', 'nope'))),
    ).toThrow(DocexError);
    expect(catalogue.field('freight.one')).toBeUndefined();
    expectError(() => catalogue.resolve(['svc.freight']), 'UNKNOWN_PRODUCT');
    catalogue.defineFieldset(fieldset('freight', field('freight.one')));
    expect(catalogue.field('freight.one')).toBeDefined();
  });

  it.each(['', 'Freight', '1freight', 'freight:1', 'svc.freight', 'frei ght'])(
    'refuses product id %j',
    (id) => {
      expectError(
        () => svc().defineProduct({ id, version: 1, fieldsets: ['document'] }),
        'INVALID_DEFINITION',
        'Product id',
      );
    },
  );

  it.each([0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, '1' as unknown as number])(
    'refuses product version %s',
    (version) => {
      expectError(
        () => svc().defineProduct({ id: 'freight', version, fieldsets: ['document'] }),
        'INVALID_DEFINITION',
        'positive integer',
      );
    },
  );

  it('refuses unknown, namespaced, duplicated or missing product fieldsets', () => {
    expectError(
      () => svc().defineProduct({ id: 'freight', version: 1, fieldsets: ['document', 'freight'] }),
      'INVALID_DEFINITION',
      "'freight'",
    );
    expectError(
      () => svc().defineProduct({ id: 'freight', version: 1, fieldsets: ['svc.document'] }),
      'INVALID_DEFINITION',
      "'svc.document'",
      'without namespace',
    );
    expectError(
      () => svc().defineProduct({ id: 'freight', version: 1, fieldsets: ['document', 'document'] }),
      'INVALID_DEFINITION',
      "'document'",
      'twice',
    );
    expectError(
      () => svc().defineProduct({ id: 'freight', version: 1, fieldsets: [] }),
      'INVALID_DEFINITION',
      'at least one',
    );
    expectError(
      () => svc().defineProduct({ id: 'freight', version: 1 } as ProductDefinition),
      'INVALID_DEFINITION',
      'at least one',
    );
    expectError(() => svc().defineProduct(undefined as unknown as ProductDefinition), 'INVALID_DEFINITION');
  });

  it('refuses redefining a product version but accepts a new version', () => {
    const catalogue = svc();
    expectError(
      () => catalogue.defineProduct({ id: 'invoices', version: 2, fieldsets: ['document'] }),
      'INVALID_DEFINITION',
      "'invoices:2'",
      'already defined',
    );
    catalogue.defineProduct({ id: 'invoices', version: 3, fieldsets: ['document'] });
    expectError(
      () => catalogue.defineProduct({ id: 'invoices', version: 3, fieldsets: ['invoice'] }),
      'INVALID_DEFINITION',
      "'invoices:3'",
    );
    expect(ids(catalogue.resolve(['invoices']))).toEqual(['svc.document']);
  });
});

describe('independence', () => {
  it('keeps two catalogues apart', () => {
    const a = svc();
    const b = svc();
    a.defineFieldset(hostFieldset);
    a.defineProduct({ id: 'freight', version: 1, fieldsets: ['freight'] });
    a.defineProduct({ id: 'invoices', version: 3, fieldsets: ['document'] });

    expect(ids(a.resolve(['freight']))).toEqual(['svc.freight']);
    expectError(() => b.resolve(['freight']), 'UNKNOWN_PRODUCT');
    expectError(() => b.resolve(['svc.freight']), 'UNKNOWN_PRODUCT');
    expect(b.resolve(['invoices']).products).toEqual([{ id: 'invoices', version: 2 }]);
    expect(b.field('freight.weight')).toBeUndefined();
    expect(b.products()).toHaveLength(4);
    expect(b.fieldsets()).toHaveLength(7);

    // The same definitions can be registered in the other catalogue too.
    b.defineFieldset(hostFieldset);
    b.defineProduct({ id: 'freight', version: 2, fieldsets: ['freight', 'bank'] });
    expect(ids(b.resolve(['freight']))).toEqual(['svc.freight', 'svc.bank']);
    expect(ids(a.resolve(['freight']))).toEqual(['svc.freight']);
    expect(createCatalogue({ namespace: 'svc' }).products()).toHaveLength(4);
  });

  it('leaves the built-in data untouched', () => {
    const catalogue = svc();
    catalogue.defineProduct({ id: 'invoices', version: 3, fieldsets: ['document'] });
    expect(BUILTIN_PRODUCTS).toHaveLength(4);
    expect(BUILTIN_FIELDSETS).toHaveLength(7);
  });

  it('cannot replace methods of a catalogue', () => {
    const catalogue = svc();
    expect(Object.isFrozen(catalogue)).toBe(true);
  });
});

describe('field ids and names', () => {
  it('maps result names to namespaced ids and back', () => {
    const catalogue = svc();
    expect(catalogue.fieldIdOf('invoice.total')).toBe('svc.invoice.total');
    expect(catalogue.fieldIdOf('document.supplierABN')).toBe('svc.document.supplierABN');
    expect(catalogue.fieldNameOf('svc.invoice.total')).toBe('invoice.total');
    expect(catalogue.fieldNameOf('invoice.total')).toBe('invoice.total');
    expect(catalogue.fieldNameOf('svc.bpay.crn')).toBe('bpay.crn');
  });

  it('round-trips every registered field', () => {
    const catalogue = svc();
    for (const fieldset of catalogue.fieldsets()) {
      for (const { name } of fieldset.fields) {
        expect(catalogue.fieldNameOf(catalogue.fieldIdOf(name))).toBe(name);
      }
    }
  });

  it('gives undefined for unknown ids', () => {
    const catalogue = svc();
    for (const id of [
      'svc.invoice.nope',
      'invoice.nope',
      'acme.invoice.total',
      'svc.invoice',
      'svc',
      '',
      'total',
    ]) {
      expect(catalogue.fieldNameOf(id)).toBeUndefined();
    }
  });

  it('refuses an id for an unknown field name', () => {
    expectError(() => svc().fieldIdOf('invoice.nope'), 'INVALID_ARGUMENT', "'invoice.nope'");
    expectError(() => svc().fieldIdOf('svc.invoice.total'), 'INVALID_ARGUMENT', "'svc.invoice.total'");
  });

  it('covers host fields', () => {
    const catalogue = createCatalogue({ namespace: 'acme', fieldsets: [hostFieldset] });
    expect(catalogue.fieldIdOf('freight.consignmentNo')).toBe('acme.freight.consignmentNo');
    expect(catalogue.fieldNameOf('acme.freight.consignmentNo')).toBe('freight.consignmentNo');
    expect(catalogue.fieldNameOf('freight.consignmentNo')).toBe('freight.consignmentNo');
  });

  it('handles a namespace equal to a field group', () => {
    const catalogue = createCatalogue({ namespace: 'invoice' });
    expect(catalogue.fieldIdOf('invoice.total')).toBe('invoice.invoice.total');
    expect(catalogue.fieldNameOf('invoice.invoice.total')).toBe('invoice.total');
    expect(catalogue.fieldNameOf('invoice.total')).toBe('invoice.total');
    expect(ids(catalogue.resolve(['invoice.invoice']))).toEqual(['invoice.invoice']);
  });
});
