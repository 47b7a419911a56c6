import { JSONPath } from 'jsonpath-plus';

/**
 * Variable paths of conditions. Only the forms the interface shows are accepted:
 *   $.predictions['<field id>']            the whole prediction
 *   $.predictions['<field id>'].<property>  confidence, value or value_norm
 * also written `$.predictions.['<field id>']...` and with double quotes. Anything else (filters,
 * recursive descent, scripts) is refused when rules are stored, and jsonpath-plus runs with script
 * evaluation turned off, so even a path that slipped through could not run code.
 */
/** Field ids: dot-separated segments of letters, digits and `_ : -`; no empty segment (`..` is JSONPath syntax). */
const FIELD_ID = String.raw`[A-Za-z0-9_:-]+(?:\.[A-Za-z0-9_:-]+)*`;
const PATH = new RegExp(
  String.raw`^\$\.predictions\.?\[(?:'(${FIELD_ID})'|"(${FIELD_ID})")\](?:\.(confidence|value|value_norm))?$`,
);
const MAX_FIELD_ID = 200;

export const PREDICTION_PROPERTIES = ['confidence', 'value', 'value_norm'] as const;

export interface ParsedPath {
  fieldId: string;
  property?: (typeof PREDICTION_PROPERTIES)[number];
}

/** The field and property a path names, or undefined when the path is not one of the accepted forms. */
export function parsePath(path: string): ParsedPath | undefined {
  if (typeof path !== 'string' || path.length > MAX_FIELD_ID + 40) return undefined;
  const match = PATH.exec(path);
  if (!match) return undefined;
  const fieldId = (match[1] ?? match[2])!;
  if (fieldId.length > MAX_FIELD_ID) return undefined;
  return match[3] ? { fieldId, property: match[3] as ParsedPath['property'] & string } : { fieldId };
}

/** A string operand is a path when it starts like one; `$100` stays a constant. */
export function looksLikePath(value: string): boolean {
  return value.startsWith('$.') || value.startsWith('$[');
}

/**
 * The value at a (parsed and accepted) path, or undefined when nothing is there. The canonical form
 * of the path is handed to jsonpath-plus with `eval: false`.
 */
export function readPath(path: string, variables: object): unknown {
  const parsed = parsePath(path);
  if (!parsed) return undefined;
  // Field ids are segments of letters, digits and `_:-` joined by single dots: nothing jsonpath-plus
  // could read as syntax.
  const canonical = `$.predictions['${parsed.fieldId}']` + (parsed.property ? `.${parsed.property}` : '');
  const cache = (JSONPath as unknown as { cache?: Record<string, unknown> }).cache;
  const cached = cache === undefined || Object.hasOwn(cache, canonical);
  const found = JSONPath({ path: canonical, json: variables, eval: false, wrap: true }) as unknown[];
  if (!cached) keepBounded(cache, canonical);
  return found.length > 0 ? found[0] : undefined;
}

/**
 * jsonpath-plus caches every path it parses in a process-wide table that never shrinks, and paths come
 * from users' rules. The entries made here are kept (re-parsing a path costs 4x the evaluation) but at
 * most MAX_CACHED of them: the oldest go first. This bookkeeping is process-wide because that table is.
 */
const MAX_CACHED = 2000;
const added: string[] = [];

function keepBounded(cache: Record<string, unknown>, key: string): void {
  added.push(key);
  while (added.length > MAX_CACHED) delete cache[added.shift()!];
}
