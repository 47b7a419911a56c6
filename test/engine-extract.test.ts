import { afterAll, describe, expect, it } from 'vitest';
import { createEngine } from '../src/index.js';
import { INVOICE_LINES, makeTextPdf } from './helpers/make-documents.js';

const engine = createEngine({ ingest: { ocr: 'never' } });
afterAll(() => engine.close());

describe('engine.extract', () => {
  it('answers every field of the selected products as the spec field objects', async () => {
    const record = await engine.upload(await makeTextPdf([{ lines: INVOICE_LINES }]));
    const result = await engine.extract(record.fileId, ['invoices:2']);
    expect(result.timestamp).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    const names = engine.catalogue
      .resolve(['invoices:2'])
      .fieldsets.flatMap((f) => f.fields.map((d) => d.name));
    expect(result.fields.map((f) => f.name)).toEqual(names);
    for (const field of result.fields) {
      expect(Object.keys(field).sort()).toEqual(['boundingBox', 'confidence', 'name', 'value']);
      expect(field.confidence).toBeGreaterThanOrEqual(0);
      expect(field.confidence).toBeLessThanOrEqual(1);
      if (field.value === null) expect(field.boundingBox).toBeNull();
    }
    const byName = Object.fromEntries(result.fields.map((f) => [f.name, f]));
    expect(byName['document.referenceNo']!.value).toBe('INV-20931');
    expect(byName['document.date']!.value).toBe('2024-03-14');
    expect(byName['invoice.total']!.value).toBe('150.00');
    expect(byName['document.supplierName']!.value).toBe('ACME Supplies Pty Ltd');
    const total = byName['invoice.total']!.boundingBox!;
    expect(total.pageNum).toBe(1);
    const layer = (await engine.getTokenLayer(record.fileId))!;
    expect(total.tokenIds.map((id) => layer.tokens[id]!.text)).toEqual(['150.00']);
    expect(total.topLeft.y).toBeCloseTo((320 - 14 * 0.8) / 842, 2);
  });

  it('adds the printed text, the typed value and the alternatives when verbose', async () => {
    const record = await engine.upload(await makeTextPdf([{ lines: INVOICE_LINES }]));
    const result = await engine.extract(record.fileId, ['invoices'], { verbose: true });
    const total = result.fields.find((f) => f.name === 'invoice.total')!;
    expect(total).toMatchObject({ value: '150.00', text: '150.00', valueNorm: 150 });
    expect(total.candidates!.length).toBeGreaterThan(0);
  });

  it('accepts fieldset ids and bare product ids, and refuses unknown ids before reading anything', async () => {
    const record = await engine.upload(await makeTextPdf([{ lines: INVOICE_LINES }]));
    const receipt = await engine.extract(record.fileId, ['svc.receipt']);
    expect(receipt.fields.map((f) => f.name)).toEqual([
      'receipt.total',
      'receipt.tax',
      'receipt.paymentMethod',
    ]);
    await expect(engine.extract(record.fileId, ['nonsense:1'])).rejects.toMatchObject({
      code: 'UNKNOWN_PRODUCT',
      httpStatus: 403,
    });
    expect(await engine.getTokenLayer(record.fileId)).toBeDefined();
  });

  it('lets an account use only the products it subscribes to', async () => {
    engine.configureAccount('receipts-only', { subscriptions: ['receipts'] });
    const record = await engine.upload(await makeTextPdf([{ lines: INVOICE_LINES }]), {
      accountId: 'receipts-only',
    });
    await expect(
      engine.extract(record.fileId, ['invoices:2'], { accountId: 'receipts-only' }),
    ).rejects.toMatchObject({
      code: 'PRODUCT_NOT_ALLOWED',
      httpStatus: 403,
      message: expect.stringContaining('invoices:2'),
    });
    // Refused before anything was read.
    expect(await engine.getTokenLayer(record.fileId, { accountId: 'receipts-only' })).toBeUndefined();
    const ok = await engine.extract(record.fileId, ['receipts:1'], { accountId: 'receipts-only' });
    expect(ok.fields.find((f) => f.name === 'receipt.total')!.value).toBe('150.00');
  });

  it('reads host-defined fields with their own labels', async () => {
    const host = createEngine({
      ingest: { ocr: 'never' },
      products: {
        fieldsets: [
          {
            id: 'shipping',
            fields: [{ name: 'shipping.trackingNo', kind: 'reference', labels: { en: ['tracking number'] } }],
          },
        ],
        products: [{ id: 'shipments', version: 1, fieldsets: ['document', 'shipping'] }],
      },
    });
    try {
      const record = await host.upload(
        await makeTextPdf([
          { lines: [...INVOICE_LINES, { text: 'Tracking number: ZX-99812', x: 50, y: 400 }] },
        ]),
      );
      const result = await host.extract(record.fileId, ['shipments']);
      expect(result.fields.find((f) => f.name === 'shipping.trackingNo')!.value).toBe('ZX-99812');
      // Another engine does not know the host's product.
      await expect(engine.extract(record.fileId, ['shipments'])).rejects.toMatchObject({
        code: 'UNKNOWN_PRODUCT',
      });
    } finally {
      await host.close();
    }
  });

  it('uses the locale of the account for dates the document does not settle', async () => {
    const lines = [
      ...INVOICE_LINES.filter((l) => !l.text.startsWith('Invoice Date')),
      { text: 'Invoice Date: 03/04/2024', x: 50, y: 160 },
    ];
    const pdf = await makeTextPdf([{ lines }]);
    engine.configureAccount('us', { locale: 'en-US' });
    const us = await engine.upload(pdf, { accountId: 'us' });
    const uk = await engine.upload(pdf);
    const date = async (fileId: string, accountId?: string) =>
      (await engine.extract(fileId, ['invoices:2'], accountId ? { accountId } : {})).fields.find(
        (f) => f.name === 'document.date',
      )!;
    const usDate = await date(us.fileId, 'us');
    const ukDate = await date(uk.fileId);
    expect(usDate.value).toBe('2024-03-04');
    expect(ukDate.value).toBe('2024-04-03');
    // Ambiguous either way: less sure than an unambiguous date.
    const clear = await date((await engine.upload(await makeTextPdf([{ lines: INVOICE_LINES }]))).fileId);
    expect(ukDate.confidence).toBeLessThan(clear.confidence);
  });
});
