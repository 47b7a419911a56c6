import { afterEach, describe, expect, it } from 'vitest';

import { createEngine, type Engine } from '../../src/index.js';
import type { VerboseFieldResult } from '../../src/extraction/types.js';
import { KESTREL_FIRST, KESTREL_SECOND, kestrelInvoice } from '../helpers/supplier-documents.js';

const engines: Engine[] = [];
afterEach(async () => {
  for (const e of engines.splice(0)) await e.close();
});

function engine(): Engine {
  const e = createEngine({ ingest: { ocr: 'never' } });
  engines.push(e);
  return e;
}

async function fieldsOf(
  e: Engine,
  fileId: string,
  accountId: string,
): Promise<Map<string, VerboseFieldResult>> {
  const result = await e.extract(fileId, ['invoices:2'], { verbose: true, accountId });
  return new Map(result.fields.map((f) => [f.name, f]));
}

describe('learning from a reviewed document (engine.learn)', () => {
  it('reads the next document of the supplier with what the review taught, in that account only', async () => {
    const e = engine();
    const first = await e.uploadV2(await kestrelInvoice(KESTREL_FIRST), { accountId: 'acme' });
    const second = await e.uploadV2(await kestrelInvoice(KESTREL_SECOND), { accountId: 'acme' });
    // Before: the unusual labels are not understood.
    const before = await fieldsOf(e, second.fileId, 'acme');
    expect(before.get('document.referenceNo')?.value).not.toBe('XK-5120');
    expect(before.get('invoice.purchaseOrderNo')?.value).not.toBe('BZ 8105-C');

    const learned = await e.learn(
      first.fileId,
      {
        'svc.document.referenceNo': 'XK-4411',
        'invoice.purchaseOrderNo': 'BZ 7720-A',
        'document.supplierName': 'Kestrel Instruments GmbH',
        'document.supplierTaxId': 'DE811907980',
        'invoice.total': '1250.00',
        'document.dueDate': null,
      },
      { accountId: 'acme' },
    );
    expect(learned).toMatchObject({
      name: 'Kestrel Instruments GmbH',
      taxIds: ['DE811907980'],
      documents: 1,
      fields: [
        'document.referenceNo',
        'document.supplierName',
        'document.supplierTaxId',
        'invoice.purchaseOrderNo',
        'invoice.total',
      ],
    });

    const after = await fieldsOf(e, second.fileId, 'acme');
    for (const [name, value] of [
      ['document.referenceNo', 'XK-5120'],
      ['invoice.purchaseOrderNo', 'BZ8105-C'], // references are read without spaces,
    ] as const) {
      const field = after.get(name)!;
      expect(field.value, name).toBe(value);
      expect(field.confidence, name).toBeGreaterThanOrEqual(0.9);
      expect(field.learned, name).toEqual({ supplierId: learned.supplierId, documents: 1, how: 'label' });
      // The box is where the new value is printed.
      expect(field.boundingBox?.pageNum).toBe(1);
    }
    // Amounts that were right stay right; the plain result has the spec's keys only.
    expect(after.get('invoice.total')?.value).toBe('980.40');
    const plain = await e.extract(second.fileId, ['invoices:2'], { accountId: 'acme' });
    expect(Object.keys(plain.fields[0]!).sort()).toEqual(['boundingBox', 'confidence', 'name', 'value']);

    // Another account with the same document learned nothing.
    const other = await e.uploadV2(await kestrelInvoice(KESTREL_SECOND), { accountId: 'globex' });
    const theirs = await fieldsOf(e, other.fileId, 'globex');
    expect(theirs.get('document.referenceNo')?.value).toBe(before.get('document.referenceNo')?.value ?? null);
    expect([...theirs.values()].some((f) => f.learned)).toBe(false);
    expect(await e.listSuppliers({ accountId: 'globex' })).toEqual([]);
  });

  it('exports, imports into another account, and forgets a supplier memory', async () => {
    const e = engine();
    const first = await e.uploadV2(await kestrelInvoice(KESTREL_FIRST), { accountId: 'acme' });
    const { supplierId } = await e.learn(
      first.fileId,
      { 'document.referenceNo': 'XK-4411' },
      { accountId: 'acme' },
    );
    const exported = await e.exportSupplier(supplierId, { accountId: 'acme' });
    // What is kept: reviewed values, their labels and places, and single lower-case layout words; no
    // other text of the document (the customer was not reviewed), no image.
    expect(JSON.stringify(exported)).not.toContain('Brenner Logistik AG');
    expect(exported.fingerprint.every((w) => /^\p{Ll}{3,}$/u.test(w))).toBe(true);
    expect(exported.fields['document.referenceNo']!.seen[0]).toMatchObject({
      value: 'XK-4411',
      placement: { pageNum: 1, anchor: { words: 'beleg kennung', side: 'left' } },
    });
    await expect(e.exportSupplier(supplierId, { accountId: 'globex' })).rejects.toMatchObject({
      code: 'SUPPLIER_NOT_FOUND',
    });

    const imported = await e.importSupplier(exported, { accountId: 'globex' });
    expect(imported).toMatchObject({ supplierId, documents: 1 });
    const second = await e.uploadV2(await kestrelInvoice(KESTREL_SECOND), { accountId: 'globex' });
    expect((await fieldsOf(e, second.fileId, 'globex')).get('document.referenceNo')?.value).toBe('XK-5120');

    await e.forgetSupplier(supplierId, { accountId: 'globex' });
    expect(await e.listSuppliers({ accountId: 'globex' })).toEqual([]);
    expect((await fieldsOf(e, second.fileId, 'globex')).get('document.referenceNo')?.value).not.toBe(
      'XK-5120',
    );
    // acme's memory is its own and still there.
    expect((await e.listSuppliers({ accountId: 'acme' })).map((s) => s.supplierId)).toEqual([supplierId]);
    await expect(e.forgetSupplier(supplierId, { accountId: 'globex' })).rejects.toMatchObject({
      code: 'SUPPLIER_NOT_FOUND',
    });

    // An import is checked: wrong shapes and sizes are refused with the path.
    for (const bad of [
      null,
      { ...exported, fields: { x: { seen: 'no', used: 0, right: 0 } } },
      { ...exported, taxIds: Array(9).fill('DE1') },
      { ...exported, supplierId: '../x' },
      { ...exported, dateOrder: 'XYZ' },
      { ...exported, fields: { 'not a field!': { seen: [], used: 0, right: 0 } } },
    ]) {
      await expect(e.importSupplier(bad, { accountId: 'globex' })).rejects.toMatchObject({
        code: 'INVALID_ARGUMENT',
      });
    }
  });
});
