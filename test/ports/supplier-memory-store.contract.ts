import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';

import type { EnginePersistence } from '../../src/ports/engine-persistence.js';
import type { SupplierMemory } from '../../src/ports/supplier-memory-store.js';
import { persistenceUnderTest, type MakePersistence } from './engine-persistence.contract.js';

const A = 'account-a';
const B = 'account-b';

export function supplierMemory(overrides: Partial<SupplierMemory> = {}): SupplierMemory {
  return {
    supplierId: randomUUID(),
    accountId: A,
    name: 'Acme Supplies',
    taxIds: ['DE123456789'],
    ibans: [],
    fingerprint: ['acme', 'invoice', 'total'],
    documents: 1,
    fields: {
      'document.supplierName': {
        seen: [
          {
            value: 'Acme Supplies',
            placement: {
              pageNum: 1,
              box: { x0: 0.1, y0: 0.05, x1: 0.4, y1: 0.08 },
              anchor: { words: 'from', side: 'left', dx: 0.01, dy: 0 },
            },
            at: '2026-11-23T10:00:00.000Z',
          },
        ],
        used: 0,
        right: 0,
      },
    },
    version: 1,
    createdAt: '2026-11-23T10:00:00.000Z',
    updatedAt: '2026-11-23T10:00:00.000Z',
    ...overrides,
  };
}

/** The supplier-memory half of the persistence contract: every EnginePersistence adapter passes it. */
export function describeSupplierMemoryStore(name: string, make: MakePersistence): void {
  describe(`SupplierMemoryStore contract: ${name}`, () => {
    const under = persistenceUnderTest(make);
    const open = (): Promise<EnginePersistence> => under.open();

    it('stores a new memory once, reads copies in its account only, deletes it', async () => {
      const p = await open();
      const m = supplierMemory();
      expect(await p.putSupplierMemory(m, null)).toBe(true);
      expect(await p.putSupplierMemory({ ...m, name: 'again' }, null)).toBe(false);
      expect(await p.getSupplierMemory(A, m.supplierId)).toEqual(m);
      expect(await p.getSupplierMemory(B, m.supplierId)).toBeUndefined();
      const read = (await p.getSupplierMemory(A, m.supplierId))!;
      read.fields['document.supplierName']!.seen.length = 0;
      expect(await p.getSupplierMemory(A, m.supplierId)).toEqual(m);
      expect(await p.deleteSupplierMemory(B, m.supplierId)).toBe(false);
      expect(await p.deleteSupplierMemory(A, m.supplierId)).toBe(true);
      expect(await p.deleteSupplierMemory(A, m.supplierId)).toBe(false);
      expect(await p.getSupplierMemory(A, m.supplierId)).toBeUndefined();
    });

    it('replaces by compare-and-set on the version: of two concurrent changes one wins', async () => {
      const p = await open();
      const m = supplierMemory();
      await p.putSupplierMemory(m, null);
      const next = { ...m, documents: 2, version: 2, updatedAt: '2026-11-23T11:00:00.000Z' };
      expect(await p.putSupplierMemory(next, 1)).toBe(true);
      expect(await p.putSupplierMemory({ ...m, documents: 9, version: 2 }, 1)).toBe(false);
      expect(await p.putSupplierMemory({ ...next, accountId: B, version: 3 }, 2)).toBe(false);
      expect(await p.getSupplierMemory(A, m.supplierId)).toEqual(next);
      const both = await Promise.all([
        p.putSupplierMemory({ ...next, documents: 3, version: 3 }, 2),
        p.putSupplierMemory({ ...next, documents: 4, version: 3 }, 2),
      ]);
      expect(both.filter(Boolean)).toHaveLength(1);
    });

    it("lists an account's memories, the most recently updated first", async () => {
      const p = await open();
      const old = supplierMemory({ updatedAt: '2026-11-20T10:00:00.000Z' });
      const recent = supplierMemory({ updatedAt: '2026-11-23T10:00:00.000Z' });
      const middle = supplierMemory({ updatedAt: '2026-11-21T10:00:00.000Z' });
      for (const m of [old, recent, middle]) await p.putSupplierMemory(m, null);
      await p.putSupplierMemory(supplierMemory({ accountId: B }), null);
      expect((await p.listSupplierMemories(A)).map((m) => m.supplierId)).toEqual([
        recent.supplierId,
        middle.supplierId,
        old.supplierId,
      ]);
      expect(await p.listSupplierMemories('nobody')).toEqual([]);
    });

    it('keeps memories when the storage is opened again', async () => {
      const p = await open();
      if (!under.durable) return expect(p.shared).toBe(false);
      const m = supplierMemory();
      await p.putSupplierMemory(m, null);
      const again = await under.reopen();
      expect(await again.getSupplierMemory(A, m.supplierId)).toEqual(m);
    });
  });
}
