import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import { DocexError, type ErrorCode, type ErrorDetail } from '../core/errors.js';

/**
 * JSON Schema checks with every problem reported, each with the JSON Pointer of the offending value
 * (`/inputs/product_ids/0`). One Ajv instance per engine: compiled schemas are not shared between engines.
 */
export interface SchemaChecker {
  compile(schema: object): ValidateFunction;
  /** Throws `code` with every problem as details when `value` does not match. */
  assert(validate: ValidateFunction, value: unknown, code: ErrorCode, what: string, base?: string): void;
}

export function createSchemaChecker(): SchemaChecker {
  const ajv = new Ajv({ allErrors: true, strict: true, allowUnionTypes: true });
  return {
    compile(schema) {
      try {
        return ajv.compile(schema);
      } catch (error) {
        throw new DocexError('INVALID_DEFINITION', `The schema is not valid: ${(error as Error).message}`);
      }
    },
    assert(validate, value, code, what, base = '') {
      if (validate(value)) return;
      const details = problemsOf(validate.errors ?? [], base);
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
