import { DocexError, type ErrorDetail } from '../core/errors.js';
import type { SchemaChecker } from '../core/schema-checker.js';
import { looksLikePath, parsePath } from './paths.js';
import { RULES_SCHEMA, V1_OPTIONS_SCHEMA } from './schemas.js';
import type { RulesRecord, V1WorkflowOptions } from './types.js';

/** Deepest nesting of conditions accepted (deeper rules are refused before any recursive code sees them). */
export const MAX_DEPTH = 64;

const PATH_HINT =
  "is not an accepted variable path: $.predictions['<field id>'] with .confidence, .value or .value_norm";

export interface RulesChecker {
  /** The rules record when valid; otherwise INVALID_RULES with every problem and its path. */
  checkRules(value: unknown, base?: string): RulesRecord;
  /** v1 `workflowOptions` when valid; otherwise INVALID_RULES with every problem under `base`. */
  checkV1Options(value: unknown, base?: string): V1WorkflowOptions;
}

export function createRulesChecker(checker: SchemaChecker): RulesChecker {
  const rules = checker.compile(RULES_SCHEMA);
  const v1 = checker.compile(V1_OPTIONS_SCHEMA);
  return {
    checkRules(value, base = '') {
      assertShallow(value, base);
      assertFewChecks(value, base);
      let problems: ErrorDetail[] = [];
      try {
        checker.assert(rules, value, 'INVALID_RULES', 'The validation rules are not valid:', base);
      } catch (error) {
        problems = [...(error as DocexError).details];
      }
      // Paths are checked even when the shape is wrong elsewhere, so every problem is reported at once.
      const checks = (value as { data?: { checks?: unknown } } | null)?.data?.checks;
      if (Array.isArray(checks)) {
        const seen = new Set(problems.map((p) => p.path ?? ''));
        checks.forEach((check: unknown, i) =>
          collectPathProblems(
            (check as { condition?: unknown } | null)?.condition,
            `${base}/data/checks/${i}/condition`,
            problems,
            seen,
          ),
        );
      }
      if (Array.isArray(checks)) {
        checks.forEach((check: unknown, i) => {
          const at = `${base}/data/checks/${i}/condition`;
          if (conditionDepth((check as { condition?: unknown } | null)?.condition) > MAX_DEPTH) {
            problems.push({ path: at, message: `nests deeper than ${MAX_DEPTH} conditions` });
          }
        });
      }
      if (problems.length > 0) {
        problems = problems.slice(0, MAX_PROBLEMS);
        const first = problems[0]!;
        const more = problems.length > 1 ? ` (and ${problems.length - 1} more)` : '';
        throw new DocexError(
          'INVALID_RULES',
          `The validation rules are not valid: ${first.path}: ${first.message}${more}.`,
          {
            details: problems,
          },
        );
      }
      return value as RulesRecord;
    },
    checkV1Options(value, base = '') {
      checker.assert(v1, value, 'INVALID_RULES', 'The validation options are not valid:', base);
      return value as V1WorkflowOptions;
    },
  };
}

/** Problems listed at most (the message says how many more there are only up to this). */
const MAX_PROBLEMS = 100;
/** Checks of one rules record, and conditions under one and/or, at most (as the schema says). */
const MAX_CHECKS = 1000;
/** Conditions of a rules record in all, at most. */
const MAX_CONDITIONS = 20_000;

/**
 * Refuses a record with more checks, or more conditions, than a rules record may hold, before any
 * work proportional to them (schema checks, path parsing).
 */
function assertFewChecks(value: unknown, base: string): void {
  const checks = (value as { data?: { checks?: unknown } } | null)?.data?.checks;
  const refuse = (path: string, message: string): never => {
    throw new DocexError('INVALID_RULES', `The validation rules are not valid: ${path}: ${message}.`, {
      details: [{ path, message }],
    });
  };
  if (!Array.isArray(checks)) return;
  const tooMany = `must NOT have more than ${MAX_CHECKS} items`;
  if (checks.length > MAX_CHECKS) refuse(`${base}/data/checks`, tooMany);
  let conditions = 0;
  const stack: Array<[unknown, string]> = checks.map((check, i) => [
    (check as { condition?: unknown } | null)?.condition,
    `${base}/data/checks/${i}/condition`,
  ]);
  while (stack.length > 0) {
    const [node, at] = stack.pop()!;
    if (typeof node !== 'object' || node === null) continue;
    if (++conditions > MAX_CONDITIONS) {
      refuse(`${base}/data/checks`, `must NOT hold more than ${MAX_CONDITIONS} conditions in all`);
    }
    const c = node as { conditions?: unknown; condition?: unknown };
    if (Array.isArray(c.conditions)) {
      if (c.conditions.length > MAX_CHECKS) refuse(`${at}/conditions`, tooMany);
      c.conditions.forEach((child: unknown, i) => stack.push([child, `${at}/conditions/${i}`]));
    }
    if (c.condition !== undefined) stack.push([c.condition, `${at}/condition`]);
  }
}

/** How many and/or/not levels wrap the deepest condition (a single leaf: 0), counted without recursion. */
function conditionDepth(root: unknown): number {
  let deepest = 0;
  const stack: Array<[unknown, number]> = [[root, 0]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    if (typeof node !== 'object' || node === null) continue;
    deepest = Math.max(deepest, depth);
    const c = node as { conditions?: unknown; condition?: unknown };
    if (Array.isArray(c.conditions)) for (const child of c.conditions) stack.push([child, depth + 1]);
    if (c.condition !== undefined) stack.push([c.condition, depth + 1]);
  }
  return deepest;
}

/**
 * Refuses structures far deeper than MAX_DEPTH conditions before Ajv (which recurses) sees them,
 * walking without recursion so a hostile depth cannot overflow the stack.
 */
function assertShallow(value: unknown, base: string): void {
  const stack: Array<[unknown, number]> = [[value, 0]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    if (typeof node !== 'object' || node === null) continue;
    if (depth > MAX_DEPTH * 3 + 8) {
      throw new DocexError(
        'INVALID_RULES',
        `The validation rules nest deeper than ${MAX_DEPTH} conditions.`,
        {
          details: [{ path: base, message: `nests deeper than ${MAX_DEPTH} conditions` }],
        },
      );
    }
    for (const child of Object.values(node)) stack.push([child, depth + 1]);
  }
}

function collectPathProblems(
  condition: unknown,
  at: string,
  problems: ErrorDetail[],
  seen: Set<string>,
): void {
  if (typeof condition !== 'object' || condition === null || problems.length >= MAX_PROBLEMS) return;
  const c = condition as Record<string, unknown>;
  const add = (path: string): void => {
    if (seen.has(path)) return;
    seen.add(path);
    problems.push({ path, message: PATH_HINT });
  };
  if ((c.type === 'and' || c.type === 'or') && Array.isArray(c.conditions)) {
    c.conditions.forEach((child: unknown, i) =>
      collectPathProblems(child, `${at}/conditions/${i}`, problems, seen),
    );
  } else if (c.type === 'not') {
    collectPathProblems(c.condition, `${at}/condition`, problems, seen);
  } else if (c.type === 'is-set' || c.type === 'has-value') {
    const key = c.type === 'is-set' ? 'path' : 'item';
    if (typeof c[key] === 'string' && !parsePath(c[key])) add(`${at}/${key}`);
  } else if (Array.isArray(c.values)) {
    // A string starting like a JSONPath (`$.`, `$[`) is a path and must be an accepted one; `$100` is a constant.
    c.values.forEach((operand: unknown, i) => {
      if (typeof operand === 'string' && looksLikePath(operand) && !parsePath(operand))
        add(`${at}/values/${i}`);
    });
  }
}
