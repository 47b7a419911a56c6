/** An operand: a constant (number or string) or a variable path such as `$.predictions['svc.invoice.total'].value`. */
export type Operand = number | string;

export type Condition =
  | { type: 'and' | 'or'; conditions: Condition[] }
  | { type: 'not'; condition: Condition }
  | {
      type: 'greater-than' | 'less-than' | 'equal';
      values: [Operand, Operand];
      compare_as?: 'numeric' | null;
    }
  | { type: 'is-set'; path: string }
  | { type: 'has-value'; item: string };

export interface Check {
  condition: Condition;
  note: string;
  field_ids: string[];
  /** Extension: priority of the task this check creates (default 1). */
  priority?: number;
}

/** The stored validation rules record of the interface. */
export interface RulesRecord {
  data: { checks: Check[] };
  schema: boolean;
}

/** What validation reads of a field: the result value, its typed form and its confidence. */
export interface Prediction {
  value: unknown;
  value_norm: string | number | null;
  confidence: number;
}

/** The variables conditions read: `$.predictions` keyed by fully qualified field id. */
export interface Variables {
  predictions: Record<string, Prediction>;
}

export type V1ConditionType = 'field-confidence-range' | 'field-value-range' | 'field-present';

export interface V1Condition {
  type: V1ConditionType;
  field: string;
  min?: number | string | null;
  max?: number | string | null;
}

/** `workflowOptions` of a v1 validation upload. */
export interface V1WorkflowOptions {
  prediction: {
    fieldset: string;
    conditions: V1Condition[];
    createTask?: { submit?: boolean; priority?: number };
  };
}
