import { DocexError, type ErrorDetail } from '../core/errors.js';
import type { SchemaChecker } from '../workflows/schema.js';
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
      let problems: ErrorDetail[] = [];
      try {
        checker.assert(rules, value, 'INVALID_RULES', 'The validation rules are not valid:', base);
      } catch (error) {
        problems = [...(error as DocexError).details];
      }
      // Paths are checked even when the shape is wrong elsewhere, so every problem is reported at once.
      const checks = (value as { data?: { checks?: unknown } } | null)?.data?.checks;
      if (Array.isArray(checks)) {
        checks.forEach((check: unknown, i) =>
          collectPathProblems(
            (check as { condition?: unknown } | null)?.condition,
            `${base}/data/checks/${i}/condition`,
            problems,
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

function collectPathProblems(condition: unknown, at: string, problems: ErrorDetail[]): void {
  if (typeof condition !== 'object' || condition === null) return;
  const c = condition as Record<string, unknown>;
  const add = (path: string): void => {
    if (!problems.some((p) => p.path === path)) problems.push({ path, message: PATH_HINT });
  };
  if ((c.type === 'and' || c.type === 'or') && Array.isArray(c.conditions)) {
    c.conditions.forEach((child: unknown, i) =>
      collectPathProblems(child, `${at}/conditions/${i}`, problems),
    );
  } else if (c.type === 'not') {
    collectPathProblems(c.condition, `${at}/condition`, problems);
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
