import { isCreditNote } from '../extraction/finders/document-cues.js';
import { READERS, type ReadingHints } from '../extraction/readers.js';
import type { DocumentView } from '../extraction/view.js';
import type { FieldKind } from '../products/types.js';
import type { FieldMemory, SupplierMemory } from '../ports/supplier-memory-store.js';
import { compactText, locateValue, placementOf, plainWords, similarity } from './locate.js';
import { FINGERPRINT_WORDS, fingerprintOf, NAME_MATCH, recogniseSupplier } from './recognise.js';

/** A reviewed value in the form extraction gives it, or undefined when its kind cannot read it. */
function canonical(kind: FieldKind, value: string, hints: ReadingHints): string | undefined {
  const text = value.trim();
  const read = kind === 'text' ? undefined : READERS[kind];
  if (!read) return text === '' ? undefined : text;
  // An ISO date is what completions store: read as such whatever the document's order.
  if (kind === 'date' && /^\d{4}-\d{2}-\d{2}$/.test(text)) return text;
  return read(text, hints)?.value;
}

/** Values kept per field, newest first. */
export const MAX_SEEN = 4;
/** Fields a memory keeps, at most. */
const MAX_FIELDS = 64;
/** The longest value a memory keeps. */
const MAX_VALUE = 500;

/** Fields whose value is the supplier's own: the same on every document of it, learned from one. */
export const SUPPLIER_FIELDS: ReadonlySet<string> = new Set([
  'document.supplierName',
  'document.supplierAddress',
  'document.supplierTaxId',
  'document.supplierABN',
  'document.currency',
  'bank.iban',
  'bank.bic',
  'bank.bsb',
  'bank.accountNo',
  'bpay.billerCode',
]);

export interface ReviewedDocument {
  view: DocumentView;
  hints: ReadingHints;
  /** The reviewed values by result name (corrected or confirmed); null: the document has none. */
  values: Record<string, string | null>;
  kindOf: (name: string) => FieldKind | undefined;
  /** Fields whose extraction used this supplier's memory, and whether the reviewer kept their value. */
  outcomes?: Record<string, boolean>;
}

/**
 * The supplier memory after one more reviewed document: the memory of the supplier the document is
 * recognised as (by tax id, IBAN, name, address or layout, the reviewed tax ids and IBANs counting; by
 * address or layout only when the reviewed name is alike), or a new one. Each
 * reviewed value is kept with where it was printed and the label before it; null values teach nothing.
 */
export function learnFromDocument(
  document: ReviewedDocument,
  memories: readonly SupplierMemory[],
  make: { accountId: string; now: string; newId: () => string },
): { memory: SupplierMemory; isNew: boolean } {
  const { view, hints, values, kindOf } = document;
  const fingerprint = fingerprintOf(view);
  const taxIds = ['document.supplierTaxId', 'document.supplierABN']
    .map((name) => values[name])
    .filter((v): v is string => typeof v === 'string')
    .map(compactText)
    .filter((v) => v.length >= 6);
  const ibans = [values['bank.iban']]
    .filter((v): v is string => typeof v === 'string')
    .map(compactText)
    .filter((v) => v.length >= 12);
  const reviewedName = values['document.supplierName'];
  // A supplier recognised by its address or layout whose name the reviewer wrote otherwise is a
  // neighbour (a shop in the same estate) or a look-alike: a supplier of its own.
  const alike = (memory: SupplierMemory): boolean =>
    typeof reviewedName !== 'string' ||
    !memory.name ||
    similarity(plainWords(reviewedName), plainWords(memory.name)) >= NAME_MATCH;
  const byIds = memories.find(
    (m) => m.taxIds.some((id) => taxIds.includes(id)) || m.ibans.some((i) => ibans.includes(i)),
  );
  const recognised = byIds ? undefined : recogniseSupplier(view, memories, fingerprint)?.memory;
  const known = byIds ?? (recognised && alike(recognised) ? recognised : undefined);
  const base: SupplierMemory = known ?? {
    supplierId: make.newId(),
    accountId: make.accountId,
    name: null,
    taxIds: [],
    ibans: [],
    fingerprint: [],
    documents: 0,
    fields: {},
    version: 0,
    createdAt: make.now,
    updatedAt: make.now,
  };
  const fields: Record<string, FieldMemory> = structuredClone(base.fields);
  const creditNote = isCreditNote(view);
  for (const [name, value] of Object.entries(values)) {
    const kind = kindOf(name);
    if (typeof value !== 'string' || value === '' || !kind || kind === 'table') continue;
    if (!(name in fields) && Object.keys(fields).length >= MAX_FIELDS) continue;
    // Kept in the form extraction gives (amounts `1250.00`, ids without spaces): a host's `1.250,00`
    // is read as the document reads it; a value its kind cannot read teaches nothing.
    const kept = canonical(kind, value, hints)?.slice(0, MAX_VALUE);
    if (kept === undefined) continue;
    const tokens = locateValue(view, hints, kind, kept);
    const field = fields[name] ?? { seen: [], used: 0, right: 0 };
    field.seen = [
      {
        value: kept,
        placement: tokens ? placementOf(view, tokens) : null,
        at: make.now,
        ...(creditNote ? { creditNote: true as const } : {}),
      },
      ...field.seen,
    ].slice(0, MAX_SEEN);
    fields[name] = field;
  }
  for (const [name, right] of Object.entries(document.outcomes ?? {})) {
    const field = fields[name];
    if (!field) continue;
    field.used += 1;
    if (right) field.right += 1;
  }
  const name = values['document.supplierName'];
  const dateOrder = printedDateOrder(document) ?? base.dateOrder;
  return {
    isNew: known === undefined,
    memory: {
      ...base,
      name: typeof name === 'string' && name !== '' ? name.slice(0, MAX_VALUE) : base.name,
      taxIds: [...new Set([...base.taxIds, ...taxIds])].slice(0, 8),
      ibans: [...new Set([...base.ibans, ...ibans])].slice(0, 8),
      // The latest document's words first: a layout that changes is followed.
      fingerprint: [...new Set([...fingerprint, ...base.fingerprint])].slice(0, FINGERPRINT_WORDS),
      ...(dateOrder ? { dateOrder } : {}),
      documents: base.documents + 1,
      fields,
      version: base.version + 1,
      updatedAt: make.now,
    },
  };
}

/**
 * How the document prints dates, told by a reviewed date printed in numbers: `14/03/2018` for
 * 2018-03-14 is day first. None when the printed form cannot tell (`05/05/2018`, `14 March 2018`).
 */
function printedDateOrder(document: ReviewedDocument): 'DMY' | 'MDY' | 'YMD' | undefined {
  for (const [name, value] of Object.entries(document.values)) {
    if (document.kindOf(name) !== 'date' || typeof value !== 'string') continue;
    const [year, month, day] = value.split('-').map(Number) as [number, number, number];
    const tokens = locateValue(document.view, document.hints, 'date', value);
    const printed = /(\d{1,4})[./-](\d{1,2})[./-](\d{1,4})/.exec(tokens?.map((t) => t.text).join('') ?? '');
    if (!printed) continue;
    const [a, b, c] = [Number(printed[1]), Number(printed[2]), Number(printed[3])];
    if (a === year || a === year % 100) {
      if (b === month && c === day) return 'YMD';
    } else if (c === year || c === year % 100) {
      if (a === day && b === month && a !== b) return 'DMY';
      if (a === month && b === day && a !== b) return 'MDY';
    }
  }
  return undefined;
}
