/** What kind of value a field holds: decides its normaliser, its finders and its `value_norm`. */
export type FieldKind =
  | 'date'
  | 'amount'
  | 'integer'
  | 'text'
  | 'reference'
  | 'currency'
  | 'documentType'
  | 'abn'
  | 'taxId'
  | 'iban'
  | 'bic'
  | 'bsb'
  | 'bankAccount'
  | 'bpayBiller'
  | 'bpayCrn'
  | 'paymentMethod'
  | 'table';

export interface FieldDefinition {
  /** Result name, `<group>.<name>` (for example `invoice.total`); never carries the namespace. */
  name: string;
  kind: FieldKind;
  /** Label words that announce the field, by language code, for host-defined fields. */
  labels?: Record<string, string[]>;
}

export interface FieldsetDefinition {
  /** Without the namespace: `invoice` is `svc.invoice` under the default namespace. */
  id: string;
  fields: FieldDefinition[];
}

export interface ProductDefinition {
  /** Product id without version, for example `invoices`. */
  id: string;
  version: number;
  /** Fieldset ids without the namespace, in result order. */
  fieldsets: string[];
}
