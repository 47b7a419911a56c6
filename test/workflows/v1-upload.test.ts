import { describe, expect, it } from 'vitest';
import { DocexError } from '../../src/core/errors.js';
import { parseList, parseWorkflowOptions, v1ProductIds } from '../../src/workflows/v1-upload.js';

function codeOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(DocexError);
    return (error as DocexError).code;
  }
  return undefined;
}

describe('v1 upload parameters', () => {
  it('reads lists as arrays, repeated fields, JSON arrays or comma separated', () => {
    expect(parseList(undefined)).toBeUndefined();
    expect(parseList('invoices:2')).toEqual(['invoices:2']);
    expect(parseList(['invoices:2', 'receipts:1'])).toEqual(['invoices:2', 'receipts:1']);
    expect(parseList('["invoices:2", " receipts:1 "]')).toEqual(['invoices:2', 'receipts:1']);
    expect(parseList('invoices:2, receipts:1,,')).toEqual(['invoices:2', 'receipts:1']);
    expect(parseList(['a,b', '["c"]'])).toEqual(['a', 'b', 'c']);
    expect(codeOf(() => parseList('[1, 2]'))).toBe('INVALID_ARGUMENT');
    expect(codeOf(() => parseList('[oops'))).toBe('INVALID_ARGUMENT');
  });

  it('takes exactly one of products, fieldSets and fieldSet', () => {
    expect(v1ProductIds({ products: 'invoices' })).toEqual(['invoices']);
    expect(v1ProductIds({ fieldSets: ['svc.invoice', 'svc.bank'] })).toEqual(['svc.invoice', 'svc.bank']);
    expect(v1ProductIds({ fieldSet: 'svc.invoice' })).toEqual(['svc.invoice']);
    expect(codeOf(() => v1ProductIds({}))).toBe('INVALID_ARGUMENT');
    expect(codeOf(() => v1ProductIds({ products: 'a', fieldSets: 'b', fieldSet: 'c' }))).toBe(
      'INVALID_ARGUMENT',
    );
    expect(codeOf(() => v1ProductIds({ products: ' , ' }))).toBe('INVALID_ARGUMENT');
    expect(codeOf(() => v1ProductIds({ fieldSet: 'svc.a,svc.b' }))).toBe('INVALID_ARGUMENT');
  });

  it('parses workflowOptions as a JSON object', () => {
    expect(parseWorkflowOptions(undefined)).toBeUndefined();
    expect(parseWorkflowOptions('')).toBeUndefined();
    expect(parseWorkflowOptions('{"a":1}')).toEqual({ a: 1 });
    expect(parseWorkflowOptions({ a: 1 })).toEqual({ a: 1 });
    expect(codeOf(() => parseWorkflowOptions('[1]'))).toBe('INVALID_ARGUMENT');
    expect(codeOf(() => parseWorkflowOptions('{'))).toBe('INVALID_ARGUMENT');
    expect(codeOf(() => parseWorkflowOptions(7))).toBe('INVALID_ARGUMENT');
  });
});
