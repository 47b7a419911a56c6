import { looksLikePath, readPath } from './paths.js';
import type { Condition, Operand, Variables } from './types.js';

/**
 * Whether a condition holds for the variables. Never throws for any data: what cannot be compared
 * does not hold. The rules, decided here because the interface is silent:
 * - `and` of nothing holds, `or` of nothing does not; `not` inverts.
 * - A string operand starting with `$.` or `$[` is a path; anything else is a constant.
 * - A comparison with a missing variable (a field the document's product does not have, a path that
 *   names nothing) or a null does not hold, whatever the operator: `not` of it does.
 * - `compare_as: numeric`: both sides are read as numbers (a number, or a string holding a plain
 *   decimal like `-1234.50`); when either is not a number the comparison does not hold.
 * - Otherwise two numbers compare as numbers and two strings as strings (code-unit order, right for
 *   ISO dates); a number and a string are never equal, and never greater or less than each other.
 *   Two booleans are equal when they are the same. Two tables or other objects are equal when their
 *   JSON is.
 * - `is-set` holds when the path names a variable, even one whose value is null; `has-value` holds
 *   when it names a value that is not null, not an empty or blank string, not an empty list and not a table without rows.
 */
export function evaluate(condition: Condition, variables: Variables): boolean {
  switch (condition.type) {
    case 'and':
      return condition.conditions.every((c) => evaluate(c, variables));
    case 'or':
      return condition.conditions.some((c) => evaluate(c, variables));
    case 'not':
      return !evaluate(condition.condition, variables);
    case 'is-set':
      return readPath(condition.path, variables) !== undefined;
    case 'has-value':
      return hasValue(readPath(condition.item, variables));
    case 'greater-than':
    case 'less-than':
    case 'equal': {
      const a = operand(condition.values[0], variables);
      const b = operand(condition.values[1], variables);
      return compare(condition.type, a, b, condition.compare_as === 'numeric');
    }
    default:
      return false;
  }
}

function operand(value: Operand, variables: Variables): unknown {
  return typeof value === 'string' && looksLikePath(value) ? readPath(value, variables) : value;
}

function compare(
  type: 'greater-than' | 'less-than' | 'equal',
  a: unknown,
  b: unknown,
  numeric: boolean,
): boolean {
  if (a === undefined || a === null || b === undefined || b === null) return false;
  if (numeric) {
    const x = toNumber(a);
    const y = toNumber(b);
    if (x === undefined || y === undefined) return false;
    return type === 'equal' ? x === y : type === 'greater-than' ? x > y : x < y;
  }
  if (typeof a === 'number' && typeof b === 'number') {
    return type === 'equal' ? a === b : type === 'greater-than' ? a > b : a < b;
  }
  if (typeof a === 'string' && typeof b === 'string') {
    return type === 'equal' ? a === b : type === 'greater-than' ? a > b : a < b;
  }
  if (typeof a === 'boolean' && typeof b === 'boolean') return type === 'equal' && a === b;
  if (type === 'equal' && typeof a === 'object' && typeof b === 'object') {
    return JSON.stringify(a) === JSON.stringify(b);
  }
  return false;
}

const DECIMAL = /^[+-]?(?:\d+\.?\d*|\.\d+)$/;

/** A finite number, or a string holding a plain decimal (spaces around it ignored); anything else is not a number. */
export function toNumber(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (typeof value !== 'string') return undefined;
  const trimmed = value.trim();
  if (!DECIMAL.test(trimmed)) return undefined;
  const n = Number(trimmed);
  return Number.isFinite(n) ? n : undefined;
}

function hasValue(value: unknown): boolean {
  if (value === undefined || value === null) return false;
  if (typeof value === 'string') return value.trim() !== '';
  if (typeof value === 'number') return Number.isFinite(value);
  if (Array.isArray(value)) return value.length > 0;
  if (typeof value === 'object' && 'rows' in value && Array.isArray((value as { rows: unknown }).rows)) {
    return (value as { rows: unknown[] }).rows.length > 0;
  }
  return true;
}
