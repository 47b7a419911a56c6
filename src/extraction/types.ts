/** A field's location, as in the spec's result record. */
export interface BoundingBox {
  /** 1-based. */
  pageNum: number;
  topLeft: { x: number; y: number };
  bottomRight: { x: number; y: number };
  tokenIds: number[];
}

/** What a line-item column holds, told from its heading. */
export type ColumnRole = 'description' | 'quantity' | 'unitPrice' | 'amount' | 'taxRate' | 'code' | 'unit';

/**
 * A line-item table: `{headers, rows}`, a cell `{value, boundingBox}` or null; `types` gives each
 * column's role in the order of `headers` (null when the heading tells none), so a program knows which
 * cell is the quantity whatever the document calls it.
 */
export interface TableValue {
  headers: string[];
  rows: Array<Array<{ value: string; boundingBox: BoundingBox | null } | null>>;
  types?: Array<ColumnRole | null>;
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
  /**
   * The value came from (or was confirmed by) what reviews of this supplier's documents taught: the
   * supplier's memory, how many documents it learned from, and which cue answered (docs/learning.md).
   */
  learned?: { supplierId: string; documents: number; how: 'value' | 'label' | 'place' };
}

export interface ExtractionResult {
  /** ISO 8601 UTC with milliseconds. */
  timestamp: string;
  fields: VerboseFieldResult[];
}

/** The field of a split result (`components.children`): the children's ids; no confidence, as the interface says. */
export interface SplitFieldResult {
  name: string;
  value: Array<{ file_id: string }>;
  boundingBox: null;
  /** Verbose: each child's pages and how sure the boundaries around it are. */
  children?: Array<{ file_id: string; pages: [number, number]; confidence: number }>;
  /** Verbose: the decision at each page and its evidence. */
  decisions?: Array<{ pageNum: number; start: boolean; confidence: number; reasons: string[] }>;
}

/** A field of a file's result: an extracted field or the split's children. */
export type ResultField = VerboseFieldResult | SplitFieldResult;
