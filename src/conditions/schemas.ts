/**
 * JSON Schemas of validation rules (v2) and v1 validation options, as the interface describes them.
 * Strict: unknown properties are refused, so a typo in a rule is an error rather than a rule that
 * silently never holds.
 */

const OPERAND = { type: ['number', 'string'], maxLength: 1000 };
const PATH = { type: 'string', minLength: 2, maxLength: 1000 };
const COMPARE_AS = { enum: ['numeric', null] };

const CONDITION = {
  type: 'object',
  required: ['type'],
  properties: {
    type: { enum: ['and', 'or', 'not', 'greater-than', 'less-than', 'equal', 'is-set', 'has-value'] },
  },
  allOf: [
    {
      if: { properties: { type: { enum: ['and', 'or'] } } },
      then: {
        required: ['conditions'],
        additionalProperties: false,
        properties: {
          type: true,
          conditions: { type: 'array', maxItems: 1000, items: { $ref: '#/$defs/condition' } },
        },
      },
    },
    {
      if: { properties: { type: { const: 'not' } } },
      then: {
        required: ['condition'],
        additionalProperties: false,
        properties: { type: true, condition: { $ref: '#/$defs/condition' } },
      },
    },
    {
      if: { properties: { type: { enum: ['greater-than', 'less-than', 'equal'] } } },
      then: {
        required: ['values'],
        additionalProperties: false,
        properties: {
          type: true,
          values: { type: 'array', minItems: 2, maxItems: 2, items: OPERAND },
          compare_as: COMPARE_AS,
        },
      },
    },
    {
      if: { properties: { type: { const: 'is-set' } } },
      then: { required: ['path'], additionalProperties: false, properties: { type: true, path: PATH } },
    },
    {
      if: { properties: { type: { const: 'has-value' } } },
      then: { required: ['item'], additionalProperties: false, properties: { type: true, item: PATH } },
    },
  ],
};

/** `svc.invoice.total`: at least three dot-separated segments (namespace, group, name). */
const FIELD_ID = { type: 'string', maxLength: 200, pattern: '^[A-Za-z0-9_:-]+(\\.[A-Za-z0-9_:-]+){2,}$' };
/** A v1 `field`: a field id, or a result name (`invoice.total`) that gets the namespace. */
const V1_FIELD = { type: 'string', maxLength: 190, pattern: '^[A-Za-z0-9_:-]+(\\.[A-Za-z0-9_:-]+)+$' };

export const RULES_SCHEMA = {
  $defs: { condition: CONDITION },
  type: 'object',
  required: ['data', 'schema'],
  additionalProperties: false,
  properties: {
    schema: { type: 'boolean' },
    data: {
      type: 'object',
      required: ['checks'],
      additionalProperties: false,
      properties: {
        checks: {
          type: 'array',
          maxItems: 1000,
          items: {
            type: 'object',
            required: ['condition', 'note', 'field_ids'],
            additionalProperties: false,
            properties: {
              condition: { $ref: '#/$defs/condition' },
              note: { type: 'string', maxLength: 2000 },
              field_ids: { type: 'array', maxItems: 100, items: FIELD_ID },
              priority: { type: 'number' },
            },
          },
        },
      },
    },
  },
};

const BOUND = { type: ['number', 'string', 'null'] };
const NUMBER_BOUND = { type: ['number', 'null'] };

export const V1_OPTIONS_SCHEMA = {
  type: 'object',
  required: ['prediction'],
  additionalProperties: false,
  properties: {
    prediction: {
      type: 'object',
      required: ['fieldset', 'conditions'],
      additionalProperties: false,
      properties: {
        fieldset: { type: 'string', minLength: 1, maxLength: 200 },
        conditions: {
          type: 'array',
          maxItems: 1000,
          items: {
            type: 'object',
            required: ['type', 'field'],
            additionalProperties: false,
            properties: {
              type: { enum: ['field-confidence-range', 'field-value-range', 'field-present'] },
              field: V1_FIELD,
              min: BOUND,
              max: BOUND,
            },
            // Confidence bounds are numbers; value bounds may be numbers or strings (ISO dates).
            if: { properties: { type: { const: 'field-confidence-range' } } },
            then: { properties: { min: NUMBER_BOUND, max: NUMBER_BOUND } },
          },
        },
        createTask: {
          type: 'object',
          additionalProperties: false,
          properties: { submit: { type: 'boolean' }, priority: { type: 'number' } },
        },
      },
    },
  },
};
