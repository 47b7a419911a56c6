import { describe, expect, it } from 'vitest';
import { DocexError } from '../../src/core/errors.js';
import { createSchemaChecker } from '../../src/core/schema-checker.js';

describe('schema problems', () => {
  const checker = createSchemaChecker();
  const validate = checker.compile({
    type: 'object',
    required: ['a', 'b/c'],
    additionalProperties: false,
    properties: {
      a: { type: 'array', items: { type: 'integer' } },
      'b/c': { enum: ['x', 'y'] },
    },
  });

  it('reports every problem with the JSON pointer of the value it concerns', () => {
    let error: DocexError | undefined;
    try {
      checker.assert(validate, { a: [1, 'two', 3.5], extra: true }, 'INVALID_INPUTS', 'Inputs:', '/inputs');
    } catch (e) {
      error = e as DocexError;
    }
    expect(error?.code).toBe('INVALID_INPUTS');
    expect(error?.details).toEqual([
      { path: '/inputs/b~1c', message: 'is required' },
      { path: '/inputs/extra', message: 'is not an allowed property' },
      { path: '/inputs/a/1', message: 'must be integer' },
      { path: '/inputs/a/2', message: 'must be integer' },
    ]);
    expect(error?.message).toBe('Inputs: /inputs/b~1c: is required (and 3 more problems).');
  });

  it('passes a matching value and refuses a schema Ajv cannot compile', () => {
    expect(() => checker.assert(validate, { a: [], 'b/c': 'x' }, 'INVALID_INPUTS', 'Inputs:')).not.toThrow();
    expect(() => checker.compile({ type: 'nonsense' })).toThrow(DocexError);
  });
});
