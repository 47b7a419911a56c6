import { randomUUID } from 'node:crypto';

import { DocexError } from '../core/errors.js';
import type { SupplierMemory, SupplierMemoryStore } from '../ports/supplier-memory-store.js';
import { learnFromDocument, MAX_SEEN, type ReviewedDocument } from './learn.js';

/** Suppliers an account's memory keeps; the one updated longest ago goes first when more are learned. */
export const MAX_SUPPLIERS = 2000;
/** How long a process reads an account's memories from its cache when other processes share the storage. */
const SHARED_CACHE_MS = 10_000;
/** Accounts whose memories a process keeps read at once. */
const CACHED_ACCOUNTS = 32;
/** How often a compare-and-set lost to another change is tried again. */
const RETRIES = 5;

/** A supplier memory as lists show it: who, from how many documents, which fields. */
export interface SupplierSummary {
  supplierId: string;
  name: string | null;
  taxIds: string[];
  ibans: string[];
  documents: number;
  fields: string[];
  createdAt: string;
  updatedAt: string;
}

export function summaryOf(memory: SupplierMemory): SupplierSummary {
  const { supplierId, name, taxIds, ibans, documents, createdAt, updatedAt } = memory;
  return {
    supplierId,
    name,
    taxIds,
    ibans,
    documents,
    fields: Object.keys(memory.fields).sort(),
    createdAt,
    updatedAt,
  };
}

/**
 * The supplier memories of every account, over the persistence port: learn from a reviewed document,
 * read an account's memories for extraction (cached in the process: read again after a change here,
 * and after 10 s when other processes share the storage), list, export, import and forget.
 */
export function supplierMemories(
  store: SupplierMemoryStore,
  settings: { shared: boolean; now: () => number },
) {
  const cache = new Map<string, { memories: SupplierMemory[]; readAt: number }>();

  async function forAccount(accountId: string): Promise<SupplierMemory[]> {
    const cached = cache.get(accountId);
    if (cached && !(settings.shared && settings.now() - cached.readAt > SHARED_CACHE_MS))
      return cached.memories;
    const memories = await store.listSupplierMemories(accountId);
    // The accounts read most recently, a few: an engine serving many accounts keeps a bounded cache.
    cache.delete(accountId);
    if (cache.size >= CACHED_ACCOUNTS) cache.delete(cache.keys().next().value!);
    cache.set(accountId, { memories, readAt: settings.now() });
    return memories;
  }

  async function require(accountId: string, supplierId: string): Promise<SupplierMemory> {
    const memory =
      typeof supplierId === 'string' && supplierId.length <= 64
        ? await store.getSupplierMemory(accountId, supplierId)
        : undefined;
    if (!memory)
      throw new DocexError(
        'SUPPLIER_NOT_FOUND',
        `No supplier memory with id ${String(supplierId).slice(0, 64)}.`,
      );
    return memory;
  }

  /** Makes room for one more: the memories updated longest ago are forgotten. */
  async function makeRoom(accountId: string): Promise<void> {
    const all = await store.listSupplierMemories(accountId);
    for (const old of all.slice(MAX_SUPPLIERS - 1))
      await store.deleteSupplierMemory(accountId, old.supplierId);
  }

  return {
    forAccount,

    async learn(accountId: string, document: ReviewedDocument): Promise<SupplierMemory> {
      for (let attempt = 0; attempt < RETRIES; attempt++) {
        const memories = await store.listSupplierMemories(accountId);
        const { memory, isNew } = learnFromDocument(document, memories, {
          accountId,
          now: new Date(settings.now()).toISOString(),
          newId: randomUUID,
        });
        if (isNew && memories.length >= MAX_SUPPLIERS) await makeRoom(accountId);
        if (await store.putSupplierMemory(memory, isNew ? null : memory.version - 1)) {
          cache.delete(accountId);
          return memory;
        }
      }
      throw new DocexError('INTERNAL', 'The supplier memory kept changing; try again.');
    },

    async list(accountId: string): Promise<SupplierSummary[]> {
      return (await store.listSupplierMemories(accountId)).map(summaryOf);
    },

    /** The whole memory: what `import` takes back (in this account or another). */
    async export(accountId: string, supplierId: string): Promise<SupplierMemory> {
      return require(accountId, supplierId);
    },

    async import(accountId: string, memory: unknown): Promise<SupplierSummary> {
      const checked = checkImported(memory);
      const at = new Date(settings.now()).toISOString();
      const existing = await store.getSupplierMemory(accountId, checked.supplierId);
      const next: SupplierMemory = {
        ...checked,
        accountId,
        version: (existing?.version ?? 0) + 1,
        createdAt: existing?.createdAt ?? at,
        updatedAt: at,
      };
      if (!existing && (await store.listSupplierMemories(accountId)).length >= MAX_SUPPLIERS)
        await makeRoom(accountId);
      if (!(await store.putSupplierMemory(next, existing ? existing.version : null))) {
        throw new DocexError('INTERNAL', 'The supplier memory changed meanwhile; try again.');
      }
      cache.delete(accountId);
      return summaryOf(next);
    },

    async forget(accountId: string, supplierId: string): Promise<void> {
      await require(accountId, supplierId);
      await store.deleteSupplierMemory(accountId, supplierId);
      cache.delete(accountId);
    },
  };
}

export type SupplierMemories = ReturnType<typeof supplierMemories>;

const problem = (path: string, message: string) =>
  new DocexError('INVALID_ARGUMENT', `The supplier memory is not valid: ${path} ${message}.`, {
    details: [{ path, message }],
  });

const isString = (v: unknown): v is string => typeof v === 'string';
const strings = (v: unknown, max: number): v is string[] =>
  Array.isArray(v) && v.length <= max && v.every((x) => isString(x) && x.length <= 500);

/** An exported memory, checked before it is stored (shapes, sizes): an import cannot store anything else. */
function checkImported(
  value: unknown,
): Omit<SupplierMemory, 'accountId' | 'version' | 'createdAt' | 'updatedAt'> {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw problem('/', 'must be an object');
  const m = value as Record<string, unknown>;
  const supplierId = m.supplierId ?? randomUUID();
  if (!isString(supplierId) || !/^[A-Za-z0-9_-]{1,64}$/.test(supplierId))
    throw problem('/supplierId', 'must be 1 to 64 letters, digits, _ or -');
  if (m.name !== null && m.name !== undefined && (!isString(m.name) || m.name.length > 500))
    throw problem('/name', 'must be a string');
  for (const key of ['taxIds', 'ibans'] as const)
    if (!strings(m[key], 8)) throw problem(`/${key}`, 'must be at most 8 strings');
  if (!strings(m.fingerprint, 400)) throw problem('/fingerprint', 'must be at most 400 strings');
  if (!Number.isInteger(m.documents) || (m.documents as number) < 0)
    throw problem('/documents', 'must be a whole number');
  if (m.dateOrder !== undefined && m.dateOrder !== 'DMY' && m.dateOrder !== 'MDY' && m.dateOrder !== 'YMD') {
    throw problem('/dateOrder', 'must be DMY, MDY or YMD');
  }
  const fields = m.fields;
  if (
    typeof fields !== 'object' ||
    fields === null ||
    Array.isArray(fields) ||
    Object.keys(fields).length > 64
  ) {
    throw problem('/fields', 'must be an object of at most 64 fields');
  }
  for (const [name, f] of Object.entries(fields as Record<string, unknown>)) {
    const path = `/fields/${name}`;
    if (!/^[A-Za-z][A-Za-z0-9_.]{0,99}$/.test(name)) throw problem(path, 'is not a field name');
    const field = f as Record<string, unknown>;
    if (typeof f !== 'object' || f === null || !Array.isArray(field.seen) || field.seen.length > MAX_SEEN) {
      throw problem(path, `must have at most ${MAX_SEEN} values seen`);
    }
    if (
      !Number.isInteger(field.used) ||
      !Number.isInteger(field.right) ||
      (field.right as number) > (field.used as number)
    ) {
      throw problem(path, 'must count its uses');
    }
    for (const seen of field.seen as unknown[]) {
      const s = seen as Record<string, unknown>;
      if (
        typeof seen !== 'object' ||
        seen === null ||
        !isString(s.value) ||
        s.value.length > 500 ||
        !isString(s.at)
      ) {
        throw problem(path, 'has a value seen that is not valid');
      }
      if (s.placement !== null && !validPlacement(s.placement))
        throw problem(path, 'has a placement that is not valid');
      if (s.creditNote !== undefined && s.creditNote !== true)
        throw problem(path, 'has a value seen whose creditNote is not true');
    }
  }
  return {
    supplierId,
    name: (m.name as string | null | undefined) ?? null,
    taxIds: m.taxIds as string[],
    ibans: m.ibans as string[],
    fingerprint: m.fingerprint as string[],
    ...(m.dateOrder ? { dateOrder: m.dateOrder as 'DMY' | 'MDY' | 'YMD' } : {}),
    documents: m.documents as number,
    fields: structuredClone(fields) as SupplierMemory['fields'],
  };
}

function validPlacement(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return false;
  const p = value as Record<string, unknown>;
  const box = p.box as Record<string, unknown> | undefined;
  const finite = (v: unknown) => typeof v === 'number' && Number.isFinite(v);
  if (!Number.isInteger(p.pageNum) || !box || !['x0', 'y0', 'x1', 'y1'].every((k) => finite(box[k])))
    return false;
  if (p.anchor === undefined) return true;
  const a = p.anchor as Record<string, unknown>;
  return (
    typeof a === 'object' &&
    a !== null &&
    isString(a.words) &&
    a.words.length <= 60 &&
    (a.side === 'left' || a.side === 'above') &&
    finite(a.dx) &&
    finite(a.dy)
  );
}
