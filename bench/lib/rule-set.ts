/**
 * The validation rules benchmark's rule set (section rules): 50 checks over the fields of invoices:2,
 * the predictions they run on, the same checks as a hand-written function, and readPath in parts.
 */
import { JSONPath } from 'jsonpath-plus';
import { evaluate } from '../../src/conditions/evaluate.js';
import { looksLikePath, parsePath, readPath, type ParsedPath } from '../../src/conditions/paths.js';
import type {
  Check,
  Condition,
  Operand,
  Prediction,
  RulesRecord,
  Variables,
} from '../../src/conditions/types.js';
import { createCatalogue } from '../../src/products/catalogue.js';
import { mulberry32 } from '../../src/core/random.js';

/** The product whose fields the rule set checks. */
export const RULES_PRODUCT = 'invoices:2';
const NS = 'svc';

/** Fully qualified ids of the product's fields (`svc.invoice.total`), in catalogue order. */
export function productFieldIds(): string[] {
  const selection = createCatalogue({ namespace: NS }).resolve([RULES_PRODUCT]);
  return selection.fieldsets.flatMap((fs) => fs.fields.map((f) => `${NS}.${f.name}`));
}

// ---------------------------------------------------------------------------------------------------
// The rule set: 50 checks as a host would write them

type Prop = 'confidence' | 'value' | 'value_norm';

/**
 * A realistic 50-check v2 rule set over the fields of `invoices:2`. Paths alternate between the two
 * written forms, `$.predictions['id']...` and `$.predictions.['id']...`. Throws when a field it names
 * is not one of `fieldIds` (the catalogue changed: the rules and the hand-written baseline must follow).
 */
export function buildRuleSet(fieldIds: readonly string[]): RulesRecord {
  let written = 0;
  const id = (name: string): string => {
    const full = `${NS}.${name}`;
    if (!fieldIds.includes(full)) throw new Error(`bench rules: ${full} is not a field of ${RULES_PRODUCT}`);
    return full;
  };
  const path = (name: string, prop?: Prop): string =>
    `$.predictions${written++ % 2 === 0 ? '' : '.'}['${id(name)}']${prop ? `.${prop}` : ''}`;
  const conf = (name: string): string => path(name, 'confidence');
  const norm = (name: string): string => path(name, 'value_norm');

  const and = (...conditions: Condition[]): Condition => ({ type: 'and', conditions });
  const or = (...conditions: Condition[]): Condition => ({ type: 'or', conditions });
  const not = (condition: Condition): Condition => ({ type: 'not', condition });
  const num = (type: 'greater-than' | 'less-than' | 'equal', a: Operand, b: Operand): Condition => ({
    type,
    values: [a, b],
    compare_as: 'numeric',
  });
  const cmp = (type: 'greater-than' | 'less-than' | 'equal', a: Operand, b: Operand): Condition =>
    // compare_as null (as written by some hosts) or absent: the same plain comparison.
    written % 3 === 0 ? { type, values: [a, b], compare_as: null } : { type, values: [a, b] };
  const hasValue = (name: string): Condition => ({ type: 'has-value', item: path(name, 'value') });
  const isSet = (name: string): Condition => ({ type: 'is-set', path: path(name) });
  const lowConfidence = (name: string, min = 0.8): Condition => num('less-than', conf(name), min);

  const checks: Check[] = [];
  const check = (note: string, names: string[], condition: Condition): void => {
    checks.push({ condition, note, field_ids: names.map(id) });
  };

  // 1-14: confidence below the threshold on fields every invoice has.
  for (const [name, min] of [
    ['document.date', 0.8],
    ['document.referenceNo', 0.8],
    ['document.type', 0.8],
    ['document.currency', 0.8],
    ['document.supplierName', 0.8],
    ['document.supplierABN', 0.8],
    ['document.customerName', 0.8],
    ['invoice.total', 0.9],
    ['invoice.subTotal', 0.8],
    ['invoice.tax', 0.8],
    ['invoice.amountDue', 0.9],
    ['invoice.dueDate', 0.8],
    ['invoice.lineitems', 0.7],
    ['document.supplierTaxId', 0.8],
  ] as const) {
    check(`Check ${name}: low confidence`, [name], lowConfidence(name, min));
  }
  // 15-21: low confidence on optional fields, only when they were found.
  for (const [name, min] of [
    ['invoice.purchaseOrderNo', 0.8],
    ['invoice.paymentDate', 0.8],
    ['bank.accountNo', 0.9],
    ['bank.bsb', 0.9],
    ['bank.iban', 0.8],
    ['bank.bic', 0.8],
    ['document.supplierAddress', 0.7],
  ] as const) {
    check(`Check ${name}: found with low confidence`, [name], and(hasValue(name), lowConfidence(name, min)));
  }
  // 22-26: required fields missing.
  check('No invoice date', ['document.date'], not(hasValue('document.date')));
  check('No total', ['invoice.total'], not(hasValue('invoice.total')));
  check('No supplier', ['document.supplierName'], not(hasValue('document.supplierName')));
  check('No amount due', ['invoice.amountDue'], not(hasValue('invoice.amountDue')));
  check('No line items read', ['invoice.lineitems'], not(isSet('invoice.lineitems')));
  // 27-38: single comparisons on value_norm.
  check('Total above 10,000', ['invoice.total'], num('greater-than', norm('invoice.total'), 10000));
  check('Negative total', ['invoice.total'], num('less-than', norm('invoice.total'), 0));
  check('Zero total', ['invoice.total'], num('equal', norm('invoice.total'), 0));
  check(
    'Subtotal above total',
    ['invoice.subTotal', 'invoice.total'],
    num('greater-than', norm('invoice.subTotal'), norm('invoice.total')),
  );
  check(
    'Tax above total',
    ['invoice.tax', 'invoice.total'],
    num('greater-than', norm('invoice.tax'), norm('invoice.total')),
  );
  check(
    'Paid more than the total',
    ['invoice.amountPaid', 'invoice.total'],
    num('greater-than', norm('invoice.amountPaid'), norm('invoice.total')),
  );
  check(
    'Due before issued',
    ['invoice.dueDate', 'document.date'],
    cmp('less-than', norm('invoice.dueDate'), norm('document.date')),
  );
  check(
    'Paid before issued',
    ['invoice.paymentDate', 'document.date'],
    cmp('less-than', norm('invoice.paymentDate'), norm('document.date')),
  );
  check('Dated in the future', ['document.date'], cmp('greater-than', norm('document.date'), '2030-12-31'));
  check('Dated before 2015', ['document.date'], cmp('less-than', norm('document.date'), '2015-01-01'));
  check('Not in AUD', ['document.currency'], not(cmp('equal', norm('document.currency'), 'AUD')));
  check('Credit note', ['document.type'], cmp('equal', norm('document.type'), 'credit-note'));
  // 39-50: and/or/not combinations, two and three levels deep.
  check(
    'Amount due but no way to pay',
    ['invoice.amountDue', 'bank.accountNo', 'bpay.billerCode'],
    and(
      hasValue('invoice.amountDue'),
      num('greater-than', norm('invoice.amountDue'), 0),
      not(hasValue('bank.accountNo')),
      not(hasValue('bpay.billerCode')),
    ),
  );
  check(
    'Incomplete bank details',
    ['bank.bsb', 'bank.accountNo'],
    or(
      and(hasValue('bank.bsb'), not(hasValue('bank.accountNo'))),
      and(hasValue('bank.accountNo'), not(hasValue('bank.bsb'))),
    ),
  );
  check(
    'BPAY reference missing or unsure',
    ['bpay.billerCode', 'bpay.crn'],
    and(
      isSet('bpay.billerCode'),
      hasValue('bpay.billerCode'),
      or(not(hasValue('bpay.crn')), lowConfidence('bpay.crn')),
    ),
  );
  check(
    'Large total read with less than 0.95 confidence',
    ['invoice.total'],
    and(num('greater-than', norm('invoice.total'), 5000), lowConfidence('invoice.total', 0.95)),
  );
  check(
    'Australian invoice without ABN',
    ['document.currency', 'document.supplierABN'],
    and(cmp('equal', norm('document.currency'), 'AUD'), not(hasValue('document.supplierABN'))),
  );
  check('IBAN without BIC', ['bank.iban', 'bank.bic'], and(hasValue('bank.iban'), not(hasValue('bank.bic'))));
  check(
    'Tax charged but no tax id',
    ['invoice.tax', 'document.supplierTaxId', 'document.supplierABN'],
    and(
      num('greater-than', norm('invoice.tax'), 0),
      not(or(hasValue('document.supplierTaxId'), hasValue('document.supplierABN'))),
    ),
  );
  check(
    'Paid in full but no payment date',
    ['invoice.amountDue', 'invoice.paymentDate'],
    and(num('equal', norm('invoice.amountDue'), 0), not(hasValue('invoice.paymentDate'))),
  );
  check(
    'Amount due is neither the total nor zero, nothing paid',
    ['invoice.amountDue', 'invoice.total', 'invoice.amountPaid'],
    not(
      or(
        num('equal', norm('invoice.total'), norm('invoice.amountDue')),
        num('equal', norm('invoice.amountDue'), 0),
        hasValue('invoice.amountPaid'),
      ),
    ),
  );
  check(
    'Customer missing or unsure',
    ['document.customerName'],
    or(not(hasValue('document.customerName')), lowConfidence('document.customerName', 0.6)),
  );
  check(
    'Bank details do not match the currency',
    ['document.currency', 'bank.iban', 'bank.bsb'],
    or(
      and(cmp('equal', norm('document.currency'), 'AUD'), hasValue('bank.iban')),
      and(not(cmp('equal', norm('document.currency'), 'AUD')), hasValue('bank.bsb')),
    ),
  );
  check(
    'Reference and PO both missing',
    ['document.referenceNo', 'invoice.purchaseOrderNo'],
    and(not(hasValue('document.referenceNo')), not(hasValue('invoice.purchaseOrderNo'))),
  );
  return { data: { checks }, schema: true };
}

/** Deepest nesting of conditions (a leaf alone is 1). */
export function conditionDepth(c: Condition): number {
  if (c.type === 'and' || c.type === 'or') return 1 + Math.max(0, ...c.conditions.map(conditionDepth));
  if (c.type === 'not') return 1 + conditionDepth(c.condition);
  return 1;
}

/** Every variable path a condition names, whether or not evaluation reaches it. */
export function conditionPaths(c: Condition): string[] {
  switch (c.type) {
    case 'and':
    case 'or':
      return c.conditions.flatMap(conditionPaths);
    case 'not':
      return conditionPaths(c.condition);
    case 'is-set':
      return [c.path];
    case 'has-value':
      return [c.item];
    default:
      return c.values.filter((v): v is string => typeof v === 'string' && looksLikePath(v));
  }
}

// ---------------------------------------------------------------------------------------------------
// Predictions of a few documents

const SUPPLIERS = [
  'Northwind Traders Ltd',
  'Blue Harbor Logistics',
  'Acme Industrial Supply',
  'Summit Ridge',
];

/**
 * `count` documents' `$.predictions`, every field of the product present, values varied and some not
 * found (value and value_norm null, confidence 0), so different checks hold and different branches
 * short-circuit from one document to the next.
 */
export function makePredictions(fieldIds: readonly string[], count: number): Variables[] {
  const docs: Variables[] = [];
  for (let d = 0; d < count; d++) {
    const rand = mulberry32(7919 + d * 104729);
    const pick = <T>(items: readonly T[]): T => items[Math.floor(rand() * items.length)]!;
    const money = (n: number): string => n.toFixed(2);
    const date = (year: number, month: number, day: number): string =>
      `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
    const total = d === 3 ? 0 : Math.round((50 + rand() * (d % 4 === 1 ? 20000 : 4000)) * 100) / 100;
    const subTotal = Math.round((total / 1.1) * 100) / 100;
    const tax = Math.round((total - subTotal) * 100) / 100;
    const paid = d % 3 === 0 ? total : 0;
    const year = 2014 + ((d * 3) % 12);
    const issued = date(year, 1 + (d % 12), 1 + ((d * 7) % 28));
    const due = d === 5 ? date(year - 1, 12, 1) : date(year, 1 + ((d + 1) % 12), 15);
    const currency = d % 4 === 2 ? 'NZD' : 'AUD';
    const hasBank = d % 4 !== 3;
    const hasBpay = d % 2 === 0;
    const table = { headers: ['description', 'amount'], rows: d === 6 ? [] : [[null, null]] };
    const raw: Record<string, { value: unknown; value_norm: string | number | null } | null> = {
      'document.date': { value: issued, value_norm: issued },
      'document.referenceNo': { value: `INV-${1000 + d * 37}`, value_norm: `INV-${1000 + d * 37}` },
      'document.type':
        d === 4
          ? { value: 'Credit note', value_norm: 'credit-note' }
          : { value: 'Tax invoice', value_norm: 'invoice' },
      'document.currency': { value: currency, value_norm: currency },
      'document.supplierName': d === 7 ? null : { value: pick(SUPPLIERS), value_norm: null },
      'document.supplierAddress': { value: `${10 + d} Harbour St, Sydney NSW 2000`, value_norm: null },
      'document.supplierABN': d % 4 === 1 ? null : { value: '51 824 753 556', value_norm: '51824753556' },
      'document.supplierTaxId': d % 2 === 1 ? null : { value: 'GB123456789', value_norm: 'GB123456789' },
      'document.customerName':
        d === 2 ? { value: '  ', value_norm: null } : { value: 'Contoso Pty Ltd', value_norm: null },
      'invoice.total': { value: money(total), value_norm: total },
      'invoice.subTotal': { value: money(subTotal), value_norm: subTotal },
      'invoice.tax': d === 6 ? null : { value: money(tax), value_norm: tax },
      'invoice.amountDue': d === 7 ? null : { value: money(total - paid), value_norm: total - paid },
      'invoice.amountPaid': paid > 0 ? { value: money(paid), value_norm: paid } : null,
      'invoice.dueDate': { value: due, value_norm: due },
      'invoice.paymentDate': paid > 0 && d !== 0 ? { value: issued, value_norm: issued } : null,
      'invoice.purchaseOrderNo':
        d % 3 === 1 ? { value: `PO-${4400 + d}`, value_norm: `PO-${4400 + d}` } : null,
      'invoice.lineitems': d === 1 ? null : { value: table, value_norm: null },
      'bank.accountNo': hasBank && d !== 5 ? { value: '1234 5678', value_norm: '12345678' } : null,
      'bank.bsb': hasBank ? { value: '062-000', value_norm: '062000' } : null,
      'bank.iban':
        currency === 'NZD' || d === 0
          ? { value: 'GB82 WEST 1234 5698 7654 32', value_norm: 'GB82WEST12345698765432' }
          : null,
      'bank.bic': currency === 'NZD' ? { value: 'WESTGB2L', value_norm: 'WESTGB2L' } : null,
      'bpay.billerCode': hasBpay ? { value: '123456', value_norm: '123456' } : null,
      'bpay.crn': hasBpay && d !== 4 ? { value: `9876${d}`, value_norm: `9876${d}` } : null,
    };
    const predictions: Record<string, Prediction> = {};
    for (const full of fieldIds) {
      const name = full.slice(NS.length + 1);
      if (!(name in raw)) throw new Error(`bench rules: no prediction written for ${full}`);
      const found = raw[name];
      // Not found: the extractor still reports the field, with a null value and confidence 0.
      predictions[full] = found
        ? {
            value: found.value,
            value_norm: found.value_norm,
            confidence: Math.round((0.55 + rand() * 0.44) * 1000) / 1000,
          }
        : { value: null, value_norm: null, confidence: 0 };
    }
    docs.push({ predictions });
  }
  return docs;
}

// ---------------------------------------------------------------------------------------------------
// What is measured

/** docex: every check of the set on one document's predictions, as svc.validate does; returns how many hold. */
export function evaluateRuleSet(checks: readonly Check[], variables: Variables, out: Uint8Array): number {
  let held = 0;
  for (let i = 0; i < checks.length; i++) {
    const holds = evaluate(checks[i]!.condition, variables);
    out[i] = holds ? 1 : 0;
    if (holds) held++;
  }
  return held;
}

type P = Prediction | undefined;

const num = (x: unknown): number => (typeof x === 'number' ? x : NaN);
const str = (x: unknown): string | undefined => (typeof x === 'string' ? x : undefined);
const slt = (a: unknown, b: unknown): boolean => {
  const x = str(a);
  const y = str(b);
  return x !== undefined && y !== undefined && x < y;
};
const filled = (p: P): boolean => {
  const v = p?.value;
  if (v === null || v === undefined) return false;
  if (typeof v === 'string') return v.trim() !== '';
  if (typeof v === 'object' && Array.isArray((v as { rows?: unknown }).rows)) {
    return (v as { rows: unknown[] }).rows.length > 0;
  }
  return true;
};
const low = (p: P, min: number): boolean => p !== undefined && p.confidence < min;

/**
 * The baseline: the same 50 checks, in the same order, written by hand as plain JavaScript (direct
 * property reads and comparisons) for predictions shaped as the engine makes them (amounts as numbers,
 * dates and codes as strings). Checked against `evaluate` on every benchmark document before timing.
 */
export function handWrittenRuleSet(variables: Variables, out: Uint8Array): number {
  const p = variables.predictions;
  const date = p['svc.document.date'];
  const referenceNo = p['svc.document.referenceNo'];
  const type = p['svc.document.type'];
  const currency = p['svc.document.currency'];
  const supplierName = p['svc.document.supplierName'];
  const supplierAddress = p['svc.document.supplierAddress'];
  const supplierABN = p['svc.document.supplierABN'];
  const supplierTaxId = p['svc.document.supplierTaxId'];
  const customerName = p['svc.document.customerName'];
  const total = p['svc.invoice.total'];
  const subTotal = p['svc.invoice.subTotal'];
  const tax = p['svc.invoice.tax'];
  const amountDue = p['svc.invoice.amountDue'];
  const amountPaid = p['svc.invoice.amountPaid'];
  const dueDate = p['svc.invoice.dueDate'];
  const paymentDate = p['svc.invoice.paymentDate'];
  const purchaseOrderNo = p['svc.invoice.purchaseOrderNo'];
  const lineitems = p['svc.invoice.lineitems'];
  const accountNo = p['svc.bank.accountNo'];
  const bsb = p['svc.bank.bsb'];
  const iban = p['svc.bank.iban'];
  const bic = p['svc.bank.bic'];
  const billerCode = p['svc.bpay.billerCode'];
  const crn = p['svc.bpay.crn'];
  const totalN = num(total?.value_norm);
  const dueN = num(amountDue?.value_norm);
  const aud = currency?.value_norm === 'AUD';
  let i = 0;
  // 1-14
  out[i++] = +low(date, 0.8);
  out[i++] = +low(referenceNo, 0.8);
  out[i++] = +low(type, 0.8);
  out[i++] = +low(currency, 0.8);
  out[i++] = +low(supplierName, 0.8);
  out[i++] = +low(supplierABN, 0.8);
  out[i++] = +low(customerName, 0.8);
  out[i++] = +low(total, 0.9);
  out[i++] = +low(subTotal, 0.8);
  out[i++] = +low(tax, 0.8);
  out[i++] = +low(amountDue, 0.9);
  out[i++] = +low(dueDate, 0.8);
  out[i++] = +low(lineitems, 0.7);
  out[i++] = +low(supplierTaxId, 0.8);
  // 15-21
  out[i++] = +(filled(purchaseOrderNo) && low(purchaseOrderNo, 0.8));
  out[i++] = +(filled(paymentDate) && low(paymentDate, 0.8));
  out[i++] = +(filled(accountNo) && low(accountNo, 0.9));
  out[i++] = +(filled(bsb) && low(bsb, 0.9));
  out[i++] = +(filled(iban) && low(iban, 0.8));
  out[i++] = +(filled(bic) && low(bic, 0.8));
  out[i++] = +(filled(supplierAddress) && low(supplierAddress, 0.7));
  // 22-26
  out[i++] = +!filled(date);
  out[i++] = +!filled(total);
  out[i++] = +!filled(supplierName);
  out[i++] = +!filled(amountDue);
  out[i++] = +(lineitems === undefined);
  // 27-38
  out[i++] = +(totalN > 10000);
  out[i++] = +(totalN < 0);
  out[i++] = +(totalN === 0);
  out[i++] = +(num(subTotal?.value_norm) > totalN);
  out[i++] = +(num(tax?.value_norm) > totalN);
  out[i++] = +(num(amountPaid?.value_norm) > totalN);
  out[i++] = +slt(dueDate?.value_norm, date?.value_norm);
  out[i++] = +slt(paymentDate?.value_norm, date?.value_norm);
  out[i++] = +slt('2030-12-31', date?.value_norm);
  out[i++] = +slt(date?.value_norm, '2015-01-01');
  out[i++] = +!aud;
  out[i++] = +(type?.value_norm === 'credit-note');
  // 39-50
  out[i++] = +(filled(amountDue) && dueN > 0 && !filled(accountNo) && !filled(billerCode));
  out[i++] = +((filled(bsb) && !filled(accountNo)) || (filled(accountNo) && !filled(bsb)));
  out[i++] = +(billerCode !== undefined && filled(billerCode) && (!filled(crn) || low(crn, 0.8)));
  out[i++] = +(totalN > 5000 && low(total, 0.95));
  out[i++] = +(aud && !filled(supplierABN));
  out[i++] = +(filled(iban) && !filled(bic));
  out[i++] = +(num(tax?.value_norm) > 0 && !(filled(supplierTaxId) || filled(supplierABN)));
  out[i++] = +(dueN === 0 && !filled(paymentDate));
  out[i++] = +!(totalN === dueN || dueN === 0 || filled(amountPaid));
  out[i++] = +(!filled(customerName) || low(customerName, 0.6));
  out[i++] = +((aud && filled(iban)) || (!aud && filled(bsb)));
  out[i++] = +(!filled(referenceNo) && !filled(purchaseOrderNo));
  let held = 0;
  for (let k = 0; k < i; k++) held += out[k]!;
  return held;
}

// ---------------------------------------------------------------------------------------------------
// Where evaluation spends its time

/**
 * The variable paths `evaluate` reads for a condition on these variables, in order, following its
 * short-circuits (`and` stops at the first that does not hold, `or` at the first that does).
 */
export function pathsRead(condition: Condition, variables: Variables, into: string[] = []): string[] {
  switch (condition.type) {
    case 'and':
    case 'or':
      for (const c of condition.conditions) {
        pathsRead(c, variables, into);
        if (evaluate(c, variables) === (condition.type === 'or')) break;
      }
      return into;
    case 'not':
      return pathsRead(condition.condition, variables, into);
    default:
      into.push(...conditionPaths(condition));
      return into;
  }
}

/**
 * What readPath does, in parts, for timing: the path regex alone, and the jsonpath-plus query alone on
 * an already parsed path (its canonical string built per call, as readPath does: a string jsonpath-plus
 * has to hash afresh on every call, not one constant it could find at once).
 */
export const pathParts = {
  readPath: (path: string, variables: Variables): unknown => readPath(path, variables),
  parse: (path: string): unknown => parsePath(path),
  parsed: (path: string): ParsedPath => parsePath(path)!,
  jsonpath(parsed: ParsedPath, variables: Variables): unknown {
    const canonical = `$.predictions['${parsed.fieldId}']` + (parsed.property ? `.${parsed.property}` : '');
    return (JSONPath({ path: canonical, json: variables, eval: false, wrap: true }) as unknown[])[0];
  },
  /** readPath's regex followed by a plain property read in place of jsonpath-plus. */
  direct(path: string, variables: Variables): unknown {
    const parsed = parsePath(path);
    if (!parsed) return undefined;
    const prediction = variables.predictions[parsed.fieldId];
    return parsed.property ? prediction?.[parsed.property] : prediction;
  },
};
