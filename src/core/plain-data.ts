import { DocexError, type ErrorCode } from './errors.js';

export interface PlainDataLimits {
  /** Deepest nesting of objects and arrays (a plain value is depth 0, `{a: 1}` depth 1). */
  maxDepth: number;
  /** Largest size of its JSON text, in bytes (estimated from the characters, stopping at the limit). */
  maxBytes: number;
}

/**
 * The first limit the data passes, or undefined when it keeps within both. It walks the data with a
 * stack of its own and stops at the first excess, so data nested 100,000 deep costs no more than the
 * limits allow and never reaches a recursive step (JSON.stringify, a structured clone, a schema
 * validator) that would overflow the call stack. Values JSON cannot hold count as null.
 */
export function exceededLimit(value: unknown, limits: PlainDataLimits): 'depth' | 'size' | undefined {
  const stack: Array<{ value: unknown; depth: number }> = [{ value, depth: 0 }];
  let bytes = 0;
  while (stack.length > 0) {
    const { value: item, depth } = stack.pop()!;
    if (typeof item === 'string') bytes += item.length + 2;
    else if (typeof item === 'number' || typeof item === 'boolean' || typeof item === 'bigint') bytes += 24;
    else if (item === null || typeof item !== 'object') bytes += 4;
    else {
      if (depth >= limits.maxDepth) return 'depth';
      bytes += 2;
      if (Array.isArray(item)) {
        for (const element of item) {
          bytes += 1;
          if (bytes > limits.maxBytes) return 'size';
          stack.push({ value: element, depth: depth + 1 });
        }
      } else {
        for (const key of Object.keys(item)) {
          bytes += key.length + 4;
          if (bytes > limits.maxBytes) return 'size';
          stack.push({ value: (item as Record<string, unknown>)[key], depth: depth + 1 });
        }
      }
    }
    if (bytes > limits.maxBytes) return 'size';
  }
  return undefined;
}

/**
 * Refuses data a client sent (upload metadata, workflow inputs) that nests deeper or weighs more than
 * the limits, with a DocexError (`code`, INVALID_ARGUMENT by default) naming `what`, before any other
 * work on it.
 */
export function assertPlainData(
  value: unknown,
  limits: PlainDataLimits,
  what: string,
  code: ErrorCode = 'INVALID_ARGUMENT',
): void {
  const exceeded = exceededLimit(value, limits);
  if (exceeded === 'depth') {
    throw new DocexError(code, `The ${what} nests deeper than ${limits.maxDepth} levels.`, {
      details: [{ path: `/${what}`, message: `nests deeper than ${limits.maxDepth} levels` }],
    });
  }
  if (exceeded === 'size') {
    throw new DocexError(code, `The ${what} is larger than ${limits.maxBytes} bytes.`, {
      details: [{ path: `/${what}`, message: `larger than ${limits.maxBytes} bytes` }],
    });
  }
}
