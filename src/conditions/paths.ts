import { JSONPath } from 'jsonpath-plus';

/**
 * Variable paths of conditions. Only the forms the interface shows are accepted:
 *   $.predictions['<field id>']            the whole prediction
 *   $.predictions['<field id>'].<property>  confidence, value or value_norm
 * also written `$.predictions.['<field id>']...` and with double quotes. Anything else (filters,
 * recursive descent, scripts) is refused when rules are stored, and jsonpath-plus runs with script
 * evaluation turned off, so even a path that slipped through could not run code.
 */
const PATH =
  /^\$\.predictions\.?\[(?:'([A-Za-z0-9_.:-]{1,200})'|"([A-Za-z0-9_.:-]{1,200})")\](?:\.(confidence|value|value_norm))?$/;

export const PREDICTION_PROPERTIES = ['confidence', 'value', 'value_norm'] as const;

export interface ParsedPath {
  fieldId: string;
  property?: (typeof PREDICTION_PROPERTIES)[number];
}

/** The field and property a path names, or undefined when the path is not one of the accepted forms. */
export function parsePath(path: string): ParsedPath | undefined {
  const match = PATH.exec(path);
  if (!match) return undefined;
  const fieldId = (match[1] ?? match[2])!;
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
  // Field ids are letters, digits and `_.:-` only: nothing jsonpath-plus could read as syntax.
  const canonical = `$.predictions['${parsed.fieldId}']` + (parsed.property ? `.${parsed.property}` : '');
  const found = JSONPath({ path: canonical, json: variables, eval: false, wrap: true }) as unknown[];
  return found.length > 0 ? found[0] : undefined;
}
