import type { Box } from '../core/types.js';

/** Where a value was printed: its box (page fractions) and the words just before it, when there were some. */
export interface Placement {
  pageNum: number;
  box: Box;
  /**
   * The label: up to three words left of the value on its row (`left`: the value starts `dx` after the
   * label's end), or the words above it (`above`: `dx` from the label's start); `dy` from its top.
   */
  anchor?: { words: string; side: 'left' | 'above'; dx: number; dy: number };
}

/** What a supplier's reviewed documents said about one field. */
export interface FieldMemory {
  /**
   * The values reviewers gave or confirmed, newest first (a few), with where each was printed.
   * `creditNote`: read on a credit note, whose amounts' labels and places are followed only on credit
   * notes (its amount due is its total, its amounts are negative: an invoice of the same supplier differs).
   */
  seen: Array<{ value: string; placement: Placement | null; at: string; creditNote?: true }>;
  /** Later extractions that used this memory and were then reviewed, and how many of them were right. */
  used: number;
  right: number;
}

/**
 * A supplier as an account's reviews taught docex: how to recognise its documents (tax ids, IBANs, name,
 * the words of its layout) and how each reviewed field was found on them. No document image, no text
 * beyond the reviewed values, their labels and a set of layout words.
 */
export interface SupplierMemory {
  supplierId: string;
  accountId: string;
  name: string | null;
  /** Tax ids (VAT, ABN...) and IBANs of the supplier, spaces removed, upper-case. */
  taxIds: string[];
  ibans: string[];
  /** Words of its documents' first page (lower-case letters, 3 or more), to recognise the layout. */
  fingerprint: string[];
  /** How the supplier prints dates (`DMY`, `MDY`, `YMD`), when a reviewed date told it. */
  dateOrder?: 'DMY' | 'MDY' | 'YMD';
  /** Documents learned from. */
  documents: number;
  fields: Record<string, FieldMemory>;
  /** Bumped by every change: a put is a compare-and-set on it. */
  version: number;
  createdAt: string;
  updatedAt: string;
}

/**
 * The supplier memories of each account (kept by the engine's persistence).
 *
 * Contract (test/ports/supplier-memory-store.contract.ts, run over every adapter):
 * - Everything read is a copy; another account's memory is absent.
 * - `putSupplierMemory(memory, null)` stores a new memory and answers true, false when its id exists;
 *   `putSupplierMemory(memory, v)` replaces the memory whose stored version is `v` (same account) and
 *   says whether it did: two concurrent changes never both win.
 * - `listSupplierMemories` answers an account's memories, the most recently updated first.
 * - `deleteSupplierMemory` says whether there was one.
 */
export interface SupplierMemoryStore {
  putSupplierMemory(memory: SupplierMemory, expectedVersion: number | null): Promise<boolean>;
  getSupplierMemory(accountId: string, supplierId: string): Promise<SupplierMemory | undefined>;
  listSupplierMemories(accountId: string): Promise<SupplierMemory[]>;
  deleteSupplierMemory(accountId: string, supplierId: string): Promise<boolean>;
}

/** The order of `listSupplierMemories`: most recently updated first, then by id. */
export function byRecentUpdate(a: SupplierMemory, b: SupplierMemory): number {
  if (a.updatedAt !== b.updatedAt) return a.updatedAt > b.updatedAt ? -1 : 1;
  return a.supplierId < b.supplierId ? -1 : a.supplierId > b.supplierId ? 1 : 0;
}
