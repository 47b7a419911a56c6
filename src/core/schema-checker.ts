import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import { DocexError, type ErrorCode, type ErrorDetail } from './errors.js';
import { exceededLimit } from './plain-data.js';

/**
 * JSON Schema checks with the problems reported, each with the JSON Pointer of the offending value
 * (`/inputs/product_ids/0`). One pair of Ajv instances per engine: compiled schemas are not shared
 * between engines.
 *
 * Every schema is compiled twice: a validator that stops at the first problem decides, and one that
 * finds every problem explains, but only for values of a modest size (64 KB): Ajv's every-problem mode
 * walks every item of an array even past its `maxItems`, so a hostile megabyte of items would cost
 * seconds and a response of its own size. A large invalid value is answered with its first problem.
 * At most 100 problems are listed.
 */
export interface CompiledSchema {
  readonly first: ValidateFunction;
  readonly all: ValidateFunction;
}

export interface SchemaChecker {
  compile(schema: object): CompiledSchema;
  /** Throws `code` with the problems as details when `value` does not match. */
  assert(schema: CompiledSchema, value: unknown, code: ErrorCode, what: string, base?: string): void;
}

const EXPLAINED_BYTES = 64 * 1024;
const MAX_DETAILS = 100;

export function createSchemaChecker(): SchemaChecker {
  const first = new Ajv({ allErrors: false, strict: true, allowUnionTypes: true });
  const all = new Ajv({ allErrors: true, strict: true, allowUnionTypes: true });
  return {
    compile(schema) {
      try {
        return { first: first.compile(schema), all: all.compile(schema) };
      } catch (error) {
        throw new DocexError('INVALID_DEFINITION', `The schema is not valid: ${(error as Error).message}`);
      }
    },
    assert(schema, value, code, what, base = '') {
      if (schema.first(value)) return;
      const explained =
        exceededLimit(value, { maxDepth: 256, maxBytes: EXPLAINED_BYTES }) === undefined &&
        !schema.all(value);
      const details = problemsOf((explained ? schema.all.errors : schema.first.errors) ?? [], base).slice(
        0,
        MAX_DETAILS,
      );
      const first = details[0];
      const summary = first ? `${first.path || '/'}: ${first.message}` : 'invalid';
      const more =
        details.length > 1 ? ` (and ${details.length - 1} more problem${details.length > 2 ? 's' : ''})` : '';
      throw new DocexError(code, `${what} ${summary}${more}.`, { details });
    },
  };
}

/** Ajv's errors as `{path, message}`, the path naming the property itself for missing or extra ones. */
export function problemsOf(errors: readonly ErrorObject[], base = ''): ErrorDetail[] {
  const seen = new Set<string>();
  const details: ErrorDetail[] = [];
  for (const error of errors) {
    // `if` only says a `then` failed; the failing `then` keywords are reported themselves.
    if (error.keyword === 'if') continue;
    let path = base + error.instancePath;
    let message = error.message ?? 'is not valid';
    const params = error.params as Record<string, unknown>;
    if (error.keyword === 'required' && typeof params.missingProperty === 'string') {
      path += `/${escapePointer(params.missingProperty)}`;
      message = 'is required';
    } else if (error.keyword === 'additionalProperties' && typeof params.additionalProperty === 'string') {
      path += `/${escapePointer(params.additionalProperty)}`;
      message = 'is not an allowed property';
    } else if (error.keyword === 'enum' && Array.isArray(params.allowedValues)) {
      message = `must be one of ${params.allowedValues.map((v) => JSON.stringify(v)).join(', ')}`;
    }
    const key = `${path}\u0000${message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    details.push({ path, message });
  }
  return details;
}

function escapePointer(segment: string): string {
  return segment.replace(/~/g, '~0').replace(/\//g, '~1');
}
