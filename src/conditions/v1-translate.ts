import type { Check, Condition, V1Condition, V1WorkflowOptions } from './types.js';

/**
 * v1 conditions as v2 conditions, run by the same evaluator. Each holds when the v1 condition
 * "triggers validation of the field":
 * - field-confidence-range: confidence < min or confidence > max (bounds inclusive: on the bound is
 *   inside; a null or absent bound is no bound);
 * - field-value-range: the same on `value_norm` (numbers compare as numbers, strings such as ISO
 *   dates as strings; a field without a value is not out of range: use field-present for that);
 * - field-present: the field has no value.
 */
export function translateV1Condition(condition: V1Condition, fieldId: string): Condition {
  switch (condition.type) {
    case 'field-present':
      return { type: 'not', condition: { type: 'has-value', item: path(fieldId, 'value') } };
    case 'field-confidence-range':
      return outside(path(fieldId, 'confidence'), condition.min, condition.max, true);
    case 'field-value-range':
      return outside(path(fieldId, 'value_norm'), condition.min, condition.max, false);
  }
}

function outside(
  variable: string,
  min: V1Condition['min'],
  max: V1Condition['max'],
  numeric: boolean,
): Condition {
  const conditions: Condition[] = [];
  for (const [type, bound] of [
    ['less-than', min],
    ['greater-than', max],
  ] as const) {
    if (bound === null || bound === undefined) continue;
    conditions.push({
      type,
      values: [variable, bound],
      compare_as: numeric || typeof bound === 'number' ? 'numeric' : null,
    });
  }
  return { type: 'or', conditions };
}

function path(fieldId: string, property: string): string {
  return `$.predictions['${fieldId}'].${property}`;
}

/** The checks of a v1 validation: one per condition, its task highlighting the condition's field. */
export function checksFromV1(options: V1WorkflowOptions, qualify: (field: string) => string): Check[] {
  const priority = options.prediction.createTask?.priority;
  return options.prediction.conditions.map((condition) => {
    const fieldId = qualify(condition.field);
    return {
      condition: translateV1Condition(condition, fieldId),
      note: noteOf(condition, fieldId),
      field_ids: [fieldId],
      ...(priority !== undefined ? { priority } : {}),
    };
  });
}

function noteOf(condition: V1Condition, fieldId: string): string {
  const range = `[${condition.min ?? '-'}, ${condition.max ?? '-'}]`;
  switch (condition.type) {
    case 'field-present':
      return `${fieldId}: no value was found.`;
    case 'field-confidence-range':
      return `${fieldId}: confidence outside ${range}.`;
    case 'field-value-range':
      return `${fieldId}: value outside ${range}.`;
  }
}
