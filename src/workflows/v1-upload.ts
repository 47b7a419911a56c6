import { DocexError } from '../core/errors.js';

/** The product choice of a v1 upload: exactly one of the three ways the interface allows. */
export interface V1Selection {
  products?: string | string[];
  fieldSets?: string | string[];
  fieldSet?: string;
}

/**
 * A list given as an array, as repeated form fields, as a JSON array string or comma separated
 * (`invoices:2,receipts:1`); blanks are dropped.
 */
export function parseList(value: string | readonly string[] | undefined): string[] | undefined {
  if (value === undefined) return undefined;
  const parts = typeof value === 'string' ? [value] : [...value];
  const out: string[] = [];
  for (const part of parts) {
    if (typeof part !== 'string') throw new DocexError('INVALID_ARGUMENT', 'A list entry is not a string.');
    const trimmed = part.trim();
    if (trimmed.startsWith('[')) {
      let parsed: unknown;
      try {
        parsed = JSON.parse(trimmed);
      } catch {
        throw new DocexError('INVALID_ARGUMENT', `Not a JSON array: ${trimmed.slice(0, 80)}`);
      }
      if (!Array.isArray(parsed) || parsed.some((p) => typeof p !== 'string')) {
        throw new DocexError('INVALID_ARGUMENT', 'A JSON list must be an array of strings.');
      }
      out.push(...(parsed as string[]).map((p) => p.trim()));
    } else {
      out.push(...trimmed.split(','));
    }
  }
  return out.map((p) => p.trim()).filter(Boolean);
}

/**
 * The products or fieldsets of a v1 upload; refuses none, two or three of the ways at once. An empty
 * list of `fieldSets` or `products` (`fieldSets=[]`, as the original service's command line sends it)
 * answers [] and means the account's default products.
 */
export function v1ProductIds(selection: V1Selection): string[] {
  const given = (['products', 'fieldSets', 'fieldSet'] as const).filter((k) => selection[k] !== undefined);
  if (given.length !== 1) {
    throw new DocexError(
      'INVALID_ARGUMENT',
      given.length === 0
        ? 'Give one of products, fieldSets or fieldSet.'
        : `Give exactly one of products, fieldSets or fieldSet (got ${given.join(' and ')}).`,
      {
        details: given.map((k) => ({ path: `/${k}`, message: 'only one of products, fieldSets, fieldSet' })),
      },
    );
  }
  const key = given[0]!;
  const ids = key === 'fieldSet' ? parseList(selection.fieldSet) : parseList(selection[key]);
  if (key !== 'fieldSet' && ids && ids.length === 0 && isEmptyList(selection[key])) return [];
  if (!ids || ids.length === 0) {
    throw new DocexError('INVALID_ARGUMENT', `${key} is empty.`, {
      details: [{ path: `/${key}`, message: 'is empty' }],
    });
  }
  if (key === 'fieldSet' && ids.length > 1) {
    throw new DocexError('INVALID_ARGUMENT', 'fieldSet names a single fieldset; use fieldSets for several.', {
      details: [{ path: '/fieldSet', message: 'a single fieldset id' }],
    });
  }
  return ids;
}

/** An explicitly empty list: `[]` (a JSON array) or an array given with nothing in it. */
function isEmptyList(value: string | readonly string[] | undefined): boolean {
  if (value === undefined) return false;
  const parts = typeof value === 'string' ? [value] : [...value];
  return parts.length === 0 || parts.every((p) => typeof p === 'string' && /^\s*\[\s*\]\s*$/.test(p));
}

/** `workflowOptions`: a JSON object, given as a string (as v1 sends it) or already parsed. */
export function parseWorkflowOptions(value: unknown): Record<string, unknown> | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  let parsed = value;
  if (typeof value === 'string') {
    try {
      parsed = JSON.parse(value);
    } catch {
      throw new DocexError('INVALID_ARGUMENT', 'workflowOptions is not valid JSON.', {
        details: [{ path: '/workflowOptions', message: 'is not valid JSON' }],
      });
    }
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new DocexError('INVALID_ARGUMENT', 'workflowOptions must be a JSON object.', {
      details: [{ path: '/workflowOptions', message: 'must be an object' }],
    });
  }
  return parsed as Record<string, unknown>;
}
