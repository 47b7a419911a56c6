import type { FieldDefinition, FieldKind, FieldsetDefinition, ProductDefinition } from './types.js';

/**
 * The built-in product catalogue (docs/decisions.md, "Products, fieldsets and fields"), as data.
 * Fieldset ids carry no namespace: `invoice` is `svc.invoice` under the default namespace. The arrays
 * and everything in them are frozen, so no caller can change what a later catalogue starts from.
 */

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}

const f = (name: string, kind: FieldKind): FieldDefinition => ({ name, kind });

export const BUILTIN_FIELDSETS: FieldsetDefinition[] = deepFreeze([
  {
    id: 'document',
    fields: [
      f('document.date', 'date'),
      f('document.referenceNo', 'reference'),
      f('document.type', 'documentType'),
      f('document.currency', 'currency'),
      f('document.supplierName', 'text'),
      f('document.supplierAddress', 'text'),
      f('document.supplierABN', 'abn'),
      f('document.supplierTaxId', 'taxId'),
      f('document.customerName', 'text'),
    ],
  },
  {
    id: 'invoice',
    fields: [
      f('invoice.total', 'amount'),
      f('invoice.subTotal', 'amount'),
      f('invoice.tax', 'amount'),
      f('invoice.amountDue', 'amount'),
      f('invoice.amountPaid', 'amount'),
      f('invoice.dueDate', 'date'),
      f('invoice.paymentDate', 'date'),
      f('invoice.purchaseOrderNo', 'reference'),
      f('invoice.lineitems', 'table'),
    ],
  },
  {
    id: 'bank',
    fields: [
      f('bank.accountNo', 'bankAccount'),
      f('bank.bsb', 'bsb'),
      f('bank.iban', 'iban'),
      f('bank.bic', 'bic'),
    ],
  },
  {
    id: 'bpay',
    fields: [f('bpay.billerCode', 'bpayBiller'), f('bpay.crn', 'bpayCrn')],
  },
  {
    id: 'receipt',
    fields: [
      f('receipt.total', 'amount'),
      f('receipt.tax', 'amount'),
      f('receipt.paymentMethod', 'paymentMethod'),
    ],
  },
  {
    id: 'bill',
    fields: [
      f('bill.billingPeriodFromDate', 'date'),
      f('bill.billingPeriodToDate', 'date'),
      f('bill.billingPeriodNumberOfDays', 'integer'),
    ],
  },
  {
    // Not in the decisions table: every label/value pair printed on a document, for any document,
    // as the original service's generic fieldset (docs/extraction.md, docs/compatibility.md).
    id: 'generic',
    fields: [f('generic.keyValues', 'table')],
  },
]);

export const BUILTIN_PRODUCTS: ProductDefinition[] = deepFreeze([
  { id: 'invoices', version: 1, fieldsets: ['document', 'invoice'] },
  { id: 'invoices', version: 2, fieldsets: ['document', 'invoice', 'bank', 'bpay'] },
  { id: 'receipts', version: 1, fieldsets: ['document', 'receipt'] },
  { id: 'bills', version: 1, fieldsets: ['document', 'invoice', 'bill', 'bpay'] },
]);

/** What is extracted when nothing is chosen (`docex extract` without --product, a v1 upload with fieldSets=[]). */
export const DEFAULT_PRODUCTS: readonly string[] = ['invoices:2', 'receipts:1'];
