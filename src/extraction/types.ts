/** A field's location, as in the spec's result record. */
export interface BoundingBox {
  /** 1-based. */
  pageNum: number;
  topLeft: { x: number; y: number };
  bottomRight: { x: number; y: number };
  tokenIds: number[];
}

/** A line-item table: `{headers, rows}`, a cell `{value, boundingBox}` or null. */
export interface TableValue {
  headers: string[];
  rows: Array<Array<{ value: string; boundingBox: BoundingBox | null } | null>>;
}

/** One field of a result, exactly the spec's field object. */
export interface FieldResult {
  name: string;
  value: string | TableValue | null;
  confidence: number;
  boundingBox: BoundingBox | null;
}

/** A field with what `?verbose=true` adds: the printed text and the alternatives considered. */
export interface VerboseFieldResult extends FieldResult {
  text?: string;
  /** Typed value as validation reads it (`value_norm`): a number for amounts, the ISO string for dates. */
  valueNorm?: string | number | null;
  candidates?: Array<{ value: string; confidence: number; boundingBox: BoundingBox | null; text: string }>;
  /** The evidence score before calibration and the curve that mapped it (for fitting curves). */
  calibration?: { key: string; evidence: number };
}

export interface ExtractionResult {
  /** ISO 8601 UTC with milliseconds. */
  timestamp: string;
  fields: VerboseFieldResult[];
}
