import { DocexError } from '../core/errors.js';
import { BUILTIN_FIELDSETS, BUILTIN_PRODUCTS } from './builtin.js';
import type { FieldDefinition, FieldKind, FieldsetDefinition, ProductDefinition } from './types.js';

/**
 * The product catalogue: which products and fieldsets exist, how an upload's `products` list resolves to
 * fieldsets, and whether an account may use them. Each catalogue owns its data (no module-level state);
 * built-ins are always present and hosts register their own on top. Registered definitions are frozen
 * copies, so neither the caller that registered them nor one that reads them can change them.
 */

export interface CatalogueOptions {
  /** Prefix of fieldset and field ids (`svc` gives `svc.invoice`, `svc.invoice.total`). */
  namespace: string;
  /** Host fieldsets, registered after the built-ins and before `products`. */
  fieldsets?: FieldsetDefinition[];
  /** Host products, registered after the built-ins and `fieldsets`. */
  products?: ProductDefinition[];
}

export interface ResolveOptions {
  /**
   * What the account may use; when absent everything is allowed. Entries: `*` (everything), a bare
   * product id (all its versions), `<product>:<version>` (that version), or a namespaced fieldset id
   * (that fieldset alone).
   */
  subscriptions?: readonly string[];
}

export interface ResolvedFieldset {
  /** With the namespace, for example `svc.invoice`. */
  id: string;
  fields: FieldDefinition[];
}

export interface ResolvedSelection {
  /** Products named (a bare id gives its latest version), deduplicated, in request order. */
  products: Array<{ id: string; version: number }>;
  /** Fieldsets of the selection, deduplicated in first-seen order. */
  fieldsets: ResolvedFieldset[];
}

export interface Catalogue {
  readonly namespace: string;
  defineFieldset(def: FieldsetDefinition): void;
  defineProduct(def: ProductDefinition): void;
  resolve(ids: string[], options?: ResolveOptions): ResolvedSelection;
  /** Every product version, in registration order. */
  products(): ProductDefinition[];
  /** Every fieldset with its namespaced id, in registration order. */
  fieldsets(): ResolvedFieldset[];
  /** The field with this result name (`invoice.total`). */
  field(name: string): FieldDefinition | undefined;
  /** The namespaced id of a registered field (`svc.invoice.total` for `invoice.total`). */
  fieldIdOf(name: string): string;
  /** The result name of a field given its namespaced id or its name; undefined when unknown. */
  fieldNameOf(id: string): string | undefined;
}

const ID_PATTERN = /^[a-z][a-z0-9_-]*$/;
const FIELD_NAME_PATTERN = /^[A-Za-z][A-Za-z0-9]*\.[A-Za-z][A-Za-z0-9]*$/;
const VERSION_PATTERN = /^[1-9][0-9]*$/;

const FIELD_KINDS: ReadonlySet<FieldKind> = new Set<FieldKind>([
  'date',
  'amount',
  'integer',
  'text',
  'reference',
  'currency',
  'documentType',
  'abn',
  'taxId',
  'iban',
  'bic',
  'bsb',
  'bankAccount',
  'bpayBiller',
  'bpayCrn',
  'paymentMethod',
  'table',
]);

function invalid(message: string): DocexError {
  return new DocexError('INVALID_DEFINITION', message);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function show(value: unknown): string {
  return typeof value === 'string' ? `'${value}'` : String(value);
}

/** Validates one field and returns a frozen copy holding only the known properties. */
function copyField(raw: unknown, fieldsetId: string, index: number): FieldDefinition {
  const where = `field ${index} of fieldset '${fieldsetId}'`;
  if (!isRecord(raw)) throw invalid(`The ${where} must be an object.`);
  const { name, kind, labels } = raw;
  if (typeof name !== 'string' || !FIELD_NAME_PATTERN.test(name)) {
    throw invalid(
      `Field name ${show(name)} (${where}) must be '<group>.<name>' with letters and digits, for example 'invoice.total'.`,
    );
  }
  if (typeof kind !== 'string' || !FIELD_KINDS.has(kind as FieldKind)) {
    throw invalid(`Field '${name}' in fieldset '${fieldsetId}' has unknown kind ${show(kind)}.`);
  }
  const field: FieldDefinition = { name, kind: kind as FieldKind };
  if (labels !== undefined) {
    if (!isRecord(labels)) {
      throw invalid(`Labels of field '${name}' must map language codes to lists of label words.`);
    }
    const copy: Record<string, string[]> = {};
    for (const [language, words] of Object.entries(labels)) {
      if (!Array.isArray(words) || words.some((word) => typeof word !== 'string' || word.trim() === '')) {
        throw invalid(`Labels '${language}' of field '${name}' must be a list of non-empty strings.`);
      }
      copy[language] = Object.freeze([...(words as string[])]) as string[];
    }
    field.labels = Object.freeze(copy);
  }
  return Object.freeze(field);
}

function parseProductRef(ref: string): { id: string; version?: number } | undefined {
  const colon = ref.indexOf(':');
  if (colon < 0) return { id: ref };
  const versionText = ref.slice(colon + 1);
  if (!VERSION_PATTERN.test(versionText)) return undefined;
  const version = Number(versionText);
  if (!Number.isSafeInteger(version)) return undefined;
  return { id: ref.slice(0, colon), version };
}

export function createCatalogue(options: CatalogueOptions): Catalogue {
  if (!isRecord(options) || typeof options.namespace !== 'string' || !ID_PATTERN.test(options.namespace)) {
    throw new DocexError(
      'INVALID_ARGUMENT',
      `The catalogue namespace must match ${String(ID_PATTERN)} (for example 'svc').`,
    );
  }
  const namespace = options.namespace;
  const prefix = `${namespace}.`;

  /** Fieldsets by bare id, in registration order. */
  const fieldsetsById = new Map<string, Readonly<FieldsetDefinition>>();
  /** Fields by result name. */
  const fieldsByName = new Map<string, { field: FieldDefinition; fieldset: string }>();
  /** Product versions in registration order. */
  const productList: ProductDefinition[] = [];
  /** Versions of each product by product id. */
  const productsById = new Map<string, Map<number, ProductDefinition>>();

  function defineFieldset(def: FieldsetDefinition): void {
    if (!isRecord(def)) throw invalid('A fieldset definition must be an object.');
    const { id, fields } = def as unknown as Record<string, unknown>;
    if (typeof id === 'string' && id.startsWith(prefix)) {
      throw invalid(
        `Fieldset id '${id}' must not carry the namespace '${namespace}': give '${id.slice(prefix.length)}'.`,
      );
    }
    if (typeof id !== 'string' || !ID_PATTERN.test(id)) {
      throw invalid(
        `Fieldset id ${show(id)} must be lower-case letters, digits, '_' or '-', starting with a letter, without dots or namespace.`,
      );
    }
    if (fieldsetsById.has(id)) throw invalid(`Fieldset '${id}' is already defined.`);
    if (!Array.isArray(fields) || fields.length === 0) {
      throw invalid(`Fieldset '${id}' must have a non-empty list of fields.`);
    }
    const copies = fields.map((raw: unknown, index) => copyField(raw, id, index));
    const seen = new Set<string>();
    for (const field of copies) {
      if (seen.has(field.name)) throw invalid(`Field '${field.name}' appears twice in fieldset '${id}'.`);
      seen.add(field.name);
      const existing = fieldsByName.get(field.name);
      if (existing) {
        throw invalid(
          `Field '${field.name}' of fieldset '${id}' is already defined by fieldset '${existing.fieldset}'.`,
        );
      }
    }
    const fieldset: FieldsetDefinition = Object.freeze({
      id,
      fields: Object.freeze(copies) as FieldDefinition[],
    });
    fieldsetsById.set(id, fieldset);
    for (const field of copies) fieldsByName.set(field.name, { field, fieldset: id });
  }

  function defineProduct(def: ProductDefinition): void {
    if (!isRecord(def)) throw invalid('A product definition must be an object.');
    const { id, version, fieldsets } = def as unknown as Record<string, unknown>;
    if (typeof id !== 'string' || !ID_PATTERN.test(id)) {
      throw invalid(
        `Product id ${show(id)} must be lower-case letters, digits, '_' or '-', starting with a letter (no version).`,
      );
    }
    if (typeof version !== 'number' || !Number.isSafeInteger(version) || version < 1) {
      throw invalid(`Version ${show(version)} of product '${id}' must be a positive integer.`);
    }
    if (productsById.get(id)?.has(version)) throw invalid(`Product '${id}:${version}' is already defined.`);
    if (!Array.isArray(fieldsets) || fieldsets.length === 0) {
      throw invalid(`Product '${id}:${version}' must list at least one fieldset.`);
    }
    const seen = new Set<string>();
    for (const fieldset of fieldsets as unknown[]) {
      if (typeof fieldset !== 'string' || !fieldsetsById.has(fieldset)) {
        const hint =
          typeof fieldset === 'string' && fieldset.startsWith(prefix)
            ? ' (give fieldset ids without namespace)'
            : '';
        throw invalid(`Product '${id}:${version}' names unknown fieldset ${show(fieldset)}${hint}.`);
      }
      if (seen.has(fieldset)) throw invalid(`Product '${id}:${version}' names fieldset '${fieldset}' twice.`);
      seen.add(fieldset);
    }
    const product: ProductDefinition = Object.freeze({
      id,
      version,
      fieldsets: Object.freeze([...(fieldsets as string[])]) as string[],
    });
    productList.push(product);
    let versions = productsById.get(id);
    if (!versions) {
      versions = new Map();
      productsById.set(id, versions);
    }
    versions.set(version, product);
  }

  function latest(id: string): ProductDefinition | undefined {
    let best: ProductDefinition | undefined;
    for (const product of productsById.get(id)?.values() ?? []) {
      if (!best || product.version > best.version) best = product;
    }
    return best;
  }

  function describe(fieldsetId: string): ResolvedFieldset {
    const fieldset = fieldsetsById.get(fieldsetId);
    if (!fieldset) throw new DocexError('INTERNAL', `Fieldset '${fieldsetId}' vanished from the catalogue.`);
    return { id: prefix + fieldset.id, fields: fieldset.fields };
  }

  /** What a list of subscriptions grants, computed against the catalogue as it is now. */
  function grants(subscriptions: readonly string[]): {
    isProductAllowed(product: ProductDefinition): boolean;
    isFieldsetAllowed(fieldsetId: string): boolean;
  } {
    if (!Array.isArray(subscriptions)) {
      throw new DocexError('INVALID_ARGUMENT', 'Subscriptions must be a list of product or fieldset ids.');
    }
    let everything = false;
    const wholeProducts = new Set<string>();
    const productVersions = new Set<string>();
    const fieldsets = new Set<string>();
    for (const entry of subscriptions as unknown[]) {
      if (typeof entry !== 'string') {
        throw new DocexError('INVALID_ARGUMENT', `Subscription ${show(entry)} must be a string.`);
      }
      if (entry === '*') {
        everything = true;
      } else if (entry.includes(':')) {
        const ref = parseProductRef(entry);
        if (ref?.version !== undefined) productVersions.add(`${ref.id}:${ref.version}`);
      } else if (entry.startsWith(prefix)) {
        fieldsets.add(entry.slice(prefix.length));
      } else {
        wholeProducts.add(entry);
      }
    }
    const isProductAllowed = (product: ProductDefinition): boolean =>
      everything || wholeProducts.has(product.id) || productVersions.has(`${product.id}:${product.version}`);
    const viaProducts = new Set<string>();
    for (const product of productList) {
      if (isProductAllowed(product)) for (const fieldset of product.fieldsets) viaProducts.add(fieldset);
    }
    return {
      isProductAllowed,
      isFieldsetAllowed: (fieldsetId) =>
        everything || fieldsets.has(fieldsetId) || viaProducts.has(fieldsetId),
    };
  }

  function resolve(ids: string[], resolveOptions: ResolveOptions = {}): ResolvedSelection {
    if (!Array.isArray(ids)) {
      throw new DocexError('INVALID_ARGUMENT', 'Products must be a list of product or fieldset ids.');
    }
    if (ids.length === 0) throw new DocexError('INVALID_ARGUMENT', 'Give at least one product id.');
    const access =
      resolveOptions.subscriptions === undefined ? undefined : grants(resolveOptions.subscriptions);
    const notAllowed = (id: string): DocexError =>
      new DocexError('PRODUCT_NOT_ALLOWED', `The account may not use '${id}'.`);

    const products: Array<{ id: string; version: number }> = [];
    const seenProducts = new Set<string>();
    const fieldsetOrder: string[] = [];
    const seenFieldsets = new Set<string>();
    const addFieldset = (fieldsetId: string): void => {
      if (seenFieldsets.has(fieldsetId)) return;
      seenFieldsets.add(fieldsetId);
      fieldsetOrder.push(fieldsetId);
    };

    for (const id of ids as unknown[]) {
      if (typeof id !== 'string') {
        throw new DocexError('INVALID_ARGUMENT', `Product id ${show(id)} must be a string.`);
      }
      if (id.startsWith(prefix) && !id.includes(':')) {
        const fieldsetId = id.slice(prefix.length);
        if (!fieldsetsById.has(fieldsetId)) {
          throw unknown(id);
        }
        if (access && !access.isFieldsetAllowed(fieldsetId)) throw notAllowed(id);
        addFieldset(fieldsetId);
        continue;
      }
      const ref = parseProductRef(id);
      if (!ref || !productsById.has(ref.id)) {
        throw unknown(id);
      }
      const product = ref.version === undefined ? latest(ref.id) : productsById.get(ref.id)?.get(ref.version);
      if (!product) {
        throw new DocexError(
          'UNKNOWN_PRODUCT',
          `The account does not have permission to use fieldSet '${id}' (no such version of product '${ref.id}').`,
        );
      }
      if (access && !access.isProductAllowed(product)) throw notAllowed(id);
      const key = `${product.id}:${product.version}`;
      if (!seenProducts.has(key)) {
        seenProducts.add(key);
        products.push({ id: product.id, version: product.version });
      }
      for (const fieldsetId of product.fieldsets) addFieldset(fieldsetId);
    }
    return { products, fieldsets: fieldsetOrder.map(describe) };
  }

  function fieldNameOf(id: string): string | undefined {
    if (typeof id !== 'string') return undefined;
    if (fieldsByName.has(id)) return id;
    if (id.startsWith(prefix)) {
      const name = id.slice(prefix.length);
      if (fieldsByName.has(name)) return name;
    }
    return undefined;
  }

  const catalogue: Catalogue = {
    namespace,
    defineFieldset,
    defineProduct,
    resolve,
    products: () => [...productList],
    fieldsets: () => [...fieldsetsById.keys()].map(describe),
    field: (name) => fieldsByName.get(name)?.field,
    fieldIdOf(name) {
      if (!fieldsByName.has(name)) throw new DocexError('INVALID_ARGUMENT', `Unknown field '${name}'.`);
      return prefix + name;
    },
    fieldNameOf,
  };

  for (const key of ['fieldsets', 'products'] as const) {
    if (options[key] !== undefined && !Array.isArray(options[key])) {
      throw new DocexError('INVALID_ARGUMENT', `The catalogue option '${key}' must be a list.`);
    }
  }
  for (const fieldset of BUILTIN_FIELDSETS) defineFieldset(fieldset);
  for (const product of BUILTIN_PRODUCTS) defineProduct(product);
  for (const fieldset of options.fieldsets ?? []) defineFieldset(fieldset);
  for (const product of options.products ?? []) defineProduct(product);
  return Object.freeze(catalogue);
}

/**
 * An id no product or fieldset has. Answered as the original service does (403, "does not have
 * permission to use fieldSet X": it does not tell an unknown id from a forbidden one), with the stable
 * code UNKNOWN_PRODUCT, so a program can still tell them apart.
 */
function unknown(id: string): DocexError {
  return new DocexError(
    'UNKNOWN_PRODUCT',
    `The account does not have permission to use fieldSet '${id}' (unknown product or fieldset).`,
  );
}
