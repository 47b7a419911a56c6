/**
 * Whole documents through `engine.extract`: a German invoice and an Australian tax invoice as
 * born-digital PDFs, and a receipt photographed as a PNG, read by OCR.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { createEngine } from '../../src/index.js';
import type { FieldResult, TableValue } from '../../src/extraction/types.js';
import { encodeImage, makeTextPdf, renderPdfPage } from '../helpers/make-documents.js';
import { drawnUnion, expectBoxOver, sheet, textOnlyEngine, tokenTexts } from '../helpers/make-invoices.js';

const engine = textOnlyEngine();
afterAll(() => engine.close());

function byName(fields: FieldResult[]): (name: string) => FieldResult {
  const map = new Map(fields.map((f) => [f.name, f]));
  return (name) => {
    const field = map.get(name);
    if (!field) throw new Error(`No field ${name}`);
    return field;
  };
}

const values = (fields: FieldResult[], names: string[]) =>
  Object.fromEntries(names.map((n) => [n, fields.find((f) => f.name === n)?.value]));

describe('a German invoice', () => {
  it('gives its parties, numbers, dates, amounts, line items and bank details', async () => {
    const s = sheet();
    s.put(50, 60, 'Beispiel Handels GmbH', 20, true);
    s.put(50, 85, 'Hauptstraße 5');
    s.put(50, 100, '10115 Berlin');
    s.put(50, 115, 'Tel. 030 1234567');
    // The window of the envelope: sender line, then the recipient.
    s.put(50, 150, 'Beispiel Handels GmbH · Hauptstraße 5 · 10115 Berlin', 7);
    s.put(50, 165, 'Muster AG');
    s.put(50, 180, 'Industrieweg 12');
    s.put(50, 195, '80331 München');
    s.put(50, 250, 'Rechnung', 16, true);
    s.put(330, 250, 'Rechnungsnummer:');
    s.put(450, 250, 'RE-2024-0042');
    s.put(330, 266, 'Rechnungsdatum:');
    const date = s.put(450, 266, '15.03.2024');
    s.put(330, 282, 'Fälligkeitsdatum:');
    s.put(450, 282, '29.03.2024');
    s.put(330, 298, 'Bestellnummer:');
    s.put(450, 298, 'B-7781');
    for (const [x, text] of [
      [50, 'Pos'],
      [80, 'Beschreibung'],
      [300, 'Menge'],
      [360, 'Einzelpreis'],
      [470, 'Gesamt'],
    ] as const)
      s.put(x, 340, text, 11, true);
    for (const [y, cells] of [
      [358, ['1', 'Beratung', '8', '100,00', '800,00']],
      [374, ['2', 'Reisekosten', '1', '200,00', '200,00']],
    ] as const)
      cells.forEach((text, i) => s.put([50, 80, 300, 360, 470][i]!, y, text));
    s.put(330, 420, 'Summe netto');
    s.put(470, 420, '1.000,00 €');
    s.put(330, 436, 'zzgl. 19% USt');
    s.put(470, 436, '190,00 €');
    s.put(330, 452, 'Gesamtbetrag', 11, true);
    const total = s.put(470, 452, '1.190,00 €', 11, true);
    s.put(50, 500, 'Zahlbar innerhalb von 14 Tagen ohne Abzug.');
    const iban = s.put(50, 780, 'IBAN: DE89 3704 0044 0532 0130 00', 8);
    s.put(300, 780, 'BIC: COBADEFFXXX', 8);
    s.put(50, 792, 'USt-IdNr.: DE136695976', 8);
    s.put(300, 792, 'Amtsgericht Berlin HRB 12345', 8);

    const record = await engine.upload(await makeTextPdf([{ lines: s.lines }]), { name: 'rechnung.pdf' });
    const result = await engine.extract(record.fileId, ['invoices:2']);
    expect(result.timestamp).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    expect(
      values(result.fields, [
        'document.supplierName',
        'document.supplierAddress',
        'document.customerName',
        'document.referenceNo',
        'document.date',
        'document.type',
        'document.currency',
        'document.supplierTaxId',
        'invoice.dueDate',
        'invoice.purchaseOrderNo',
        'invoice.subTotal',
        'invoice.tax',
        'invoice.total',
        'invoice.amountDue',
        'bank.iban',
        'bank.bic',
        'document.supplierABN',
        'bank.bsb',
        'bpay.billerCode',
      ]),
    ).toEqual({
      'document.supplierName': 'Beispiel Handels GmbH',
      'document.supplierAddress': 'Hauptstraße 5, 10115 Berlin',
      'document.customerName': 'Muster AG',
      'document.referenceNo': 'RE-2024-0042',
      'document.date': '2024-03-15',
      'document.type': 'invoice',
      'document.currency': 'EUR',
      'document.supplierTaxId': 'DE136695976',
      'invoice.dueDate': '2024-03-29',
      'invoice.purchaseOrderNo': 'B-7781',
      'invoice.subTotal': '1000.00',
      'invoice.tax': '190.00',
      'invoice.total': '1190.00',
      'invoice.amountDue': '1190.00',
      'bank.iban': 'DE89370400440532013000',
      'bank.bic': 'COBADEFFXXX',
      'document.supplierABN': null,
      'bank.bsb': null,
      'bpay.billerCode': null,
    });
    const field = byName(result.fields);
    const layer = (await engine.getTokenLayer(record.fileId))!;
    expect(tokenTexts(layer, field('invoice.total').boundingBox)).toEqual(['1.190,00', '€']);
    expectBoxOver(field('invoice.total').boundingBox, await drawnUnion(total), 1, 'total');
    expectBoxOver(field('document.date').boundingBox, await drawnUnion(date), 1, 'date');
    expect(tokenTexts(layer, field('bank.iban').boundingBox)).toEqual([
      'DE89',
      '3704',
      '0044',
      '0532',
      '0130',
      '00',
    ]);
    expectBoxOver(
      field('bank.iban').boundingBox,
      await drawnUnion({ line: iban, part: 'DE89 3704 0044 0532 0130 00' }),
      1,
      'iban',
    );
    const table = field('invoice.lineitems').value as TableValue;
    expect(table.headers).toEqual(['Pos', 'Beschreibung', 'Menge', 'Einzelpreis', 'Gesamt']);
    expect(table.rows.map((r) => r.map((c) => c?.value ?? null))).toEqual([
      ['1', 'Beratung', '8', '100,00', '800,00'],
      ['2', 'Reisekosten', '1', '200,00', '200,00'],
    ]);
  });
});

describe('an Australian tax invoice', () => {
  it('gives ABN, GST, totals, dates, the customer and the BSB and BPAY payment details', async () => {
    const s = sheet();
    s.put(50, 60, 'ACME Supplies Pty Ltd', 20, true);
    s.put(50, 85, '12 Harbour Street');
    s.put(50, 100, 'Sydney NSW 2000');
    s.put(50, 115, 'ABN 51 824 753 556');
    s.put(400, 60, 'TAX INVOICE', 16, true);
    s.put(350, 130, 'Invoice Number:');
    s.put(460, 130, 'INV-20931');
    s.put(350, 146, 'Invoice Date:');
    s.put(460, 146, '14/03/2024');
    s.put(350, 162, 'Due Date:');
    s.put(460, 162, '13/04/2024');
    s.put(350, 178, 'PO Number:');
    s.put(460, 178, 'PO-4471');
    s.put(50, 200, 'Bill To:');
    s.put(50, 215, 'Globex Corporation');
    s.put(50, 230, '1 Example Road');
    s.put(50, 245, 'Melbourne VIC 3000');
    for (const [x, text] of [
      [50, 'Description'],
      [300, 'Qty'],
      [360, 'Unit Price'],
      [470, 'Amount'],
    ] as const)
      s.put(x, 290, text, 11, true);
    for (const [y, cells] of [
      [308, ['Widgets, large', '4', '30.00', '120.00']],
      [326, ['Delivery', '1', '80.00', '80.00']],
    ] as const)
      cells.forEach((text, i) => s.put([50, 300, 360, 470][i]!, y, text));
    s.put(350, 370, 'Subtotal');
    s.put(470, 370, '$200.00');
    s.put(350, 386, 'GST');
    const gst = s.put(470, 386, '$20.00');
    s.put(350, 402, 'Total (incl. GST)', 11, true);
    s.put(470, 402, '$220.00', 11, true);
    s.put(50, 460, 'How to pay', 11, true);
    s.put(50, 476, 'Direct deposit:');
    s.put(160, 476, 'BSB 062-000');
    s.put(260, 476, 'Account No: 12345678');
    s.put(50, 492, 'BPAY');
    s.put(160, 492, 'Biller Code: 23796');
    const ref = s.put(300, 492, 'Ref: 1234 5678 90');

    const record = await engine.upload(await makeTextPdf([{ lines: s.lines }]));
    const result = await engine.extract(record.fileId, ['invoices:2']);
    expect(
      values(result.fields, [
        'document.supplierName',
        'document.supplierAddress',
        'document.supplierABN',
        'document.customerName',
        'document.referenceNo',
        'document.date',
        'document.type',
        'document.currency',
        'invoice.dueDate',
        'invoice.purchaseOrderNo',
        'invoice.subTotal',
        'invoice.tax',
        'invoice.total',
        'bank.bsb',
        'bank.accountNo',
        'bpay.billerCode',
        'bpay.crn',
        'bank.iban',
      ]),
    ).toEqual({
      'document.supplierName': 'ACME Supplies Pty Ltd',
      'document.supplierAddress': '12 Harbour Street, Sydney NSW 2000',
      'document.supplierABN': '51824753556',
      'document.customerName': 'Globex Corporation',
      'document.referenceNo': 'INV-20931',
      'document.date': '2024-03-14',
      'document.type': 'invoice',
      'document.currency': 'AUD',
      'invoice.dueDate': '2024-04-13',
      'invoice.purchaseOrderNo': 'PO-4471',
      'invoice.subTotal': '200.00',
      'invoice.tax': '20.00',
      'invoice.total': '220.00',
      'bank.bsb': '062-000',
      'bank.accountNo': '12345678',
      'bpay.billerCode': '23796',
      'bpay.crn': '1234567890',
      'bank.iban': null,
    });
    const field = byName(result.fields);
    const layer = (await engine.getTokenLayer(record.fileId))!;
    expect(tokenTexts(layer, field('invoice.tax').boundingBox)).toEqual(['$20.00']);
    expectBoxOver(field('invoice.tax').boundingBox, await drawnUnion(gst), 1, 'GST');
    expect(tokenTexts(layer, field('bpay.crn').boundingBox)).toEqual(['1234', '5678', '90']);
    expectBoxOver(
      field('bpay.crn').boundingBox,
      await drawnUnion({ line: ref, part: '1234 5678 90' }),
      1,
      'CRN',
    );
    const table = field('invoice.lineitems').value as TableValue;
    expect(table.rows.map((r) => r.map((c) => c?.value ?? null))).toEqual([
      ['Widgets, large', '4', '30.00', '120.00'],
      ['Delivery', '1', '80.00', '80.00'],
    ]);
    // The bills product reads the same document with its own fieldsets.
    const bill = await engine.extract(record.fileId, ['bills:1']);
    expect(values(bill.fields, ['invoice.total', 'bpay.billerCode', 'bill.billingPeriodFromDate'])).toEqual({
      'invoice.total': '220.00',
      'bpay.billerCode': '23796',
      'bill.billingPeriodFromDate': null,
    });
  });
});

describe('a receipt photographed as a PNG', () => {
  const ocr = createEngine({ ocr: { workers: 1 } });
  afterAll(() => ocr.close());

  it('is read by OCR and gives the receipt fields', async () => {
    const page = { width: 300, height: 340 };
    const s = sheet();
    const name = s.put(40, 50, 'CORNER CAFE PTY LTD', 16, true);
    s.put(40, 72, '12 Harbour Street');
    s.put(40, 87, 'Sydney NSW 2000');
    s.put(40, 102, 'ABN 51 824 753 556');
    s.put(40, 140, 'TAX INVOICE / RECEIPT', 11, true);
    s.put(40, 160, 'Receipt No: R-10482');
    s.put(190, 160, '14/03/2024');
    s.put(40, 190, 'Flat White');
    s.put(230, 190, '4.50');
    s.put(40, 206, 'Banana Bread');
    s.put(230, 206, '5.95');
    s.put(40, 222, 'Orange Juice');
    s.put(230, 222, '6.50');
    s.put(40, 252, 'TOTAL', 12, true);
    const total = s.put(230, 252, '$16.95', 12, true);
    s.put(40, 270, 'GST included');
    s.put(230, 270, '1.54');
    s.put(40, 290, 'VISA');
    s.put(230, 290, '16.95');
    const pdf = await makeTextPdf([{ lines: s.lines, ...page }]);
    const png = await encodeImage(await renderPdfPage(pdf, 200), 'png');

    const record = await ocr.upload(png, { name: 'receipt.png' });
    expect(record.mediaType).toBe('image/png');
    const result = await ocr.extract(record.fileId, ['receipts:1']);
    expect(
      values(result.fields, [
        'document.supplierName',
        'document.supplierAddress',
        'document.supplierABN',
        'document.referenceNo',
        'document.date',
        'document.type',
        'document.currency',
        'receipt.total',
        'receipt.tax',
        'receipt.paymentMethod',
        'document.customerName',
      ]),
    ).toEqual({
      'document.supplierName': 'CORNER CAFE PTY LTD',
      'document.supplierAddress': '12 Harbour Street, Sydney NSW 2000',
      'document.supplierABN': '51824753556',
      'document.referenceNo': 'R-10482',
      'document.date': '2024-03-14',
      'document.type': 'receipt',
      'document.currency': 'AUD',
      'receipt.total': '16.95',
      'receipt.tax': '1.54',
      'receipt.paymentMethod': 'visa',
      'document.customerName': null,
    });
    const layer = (await ocr.getTokenLayer(record.fileId))!;
    expect(layer.tokens.every((t) => t.source === 'ocr')).toBe(true);
    const field = byName(result.fields);
    expect(tokenTexts(layer, field('receipt.total').boundingBox)).toEqual(['$16.95']);
    // OCR boxes are measured on the bitmap: a little looser than the PDF's.
    expectBoxOver(field('receipt.total').boundingBox, await drawnUnion(total, page), 1, 'total', 0.03);
    expect(tokenTexts(layer, field('document.supplierName').boundingBox)).toEqual([
      'CORNER',
      'CAFE',
      'PTY',
      'LTD',
    ]);
    expectBoxOver(field('document.supplierName').boundingBox, await drawnUnion(name, page), 1, 'name', 0.03);
    for (const f of result.fields) {
      expect(f.confidence).toBeGreaterThanOrEqual(0);
      expect(f.confidence).toBeLessThanOrEqual(1);
    }
  });
});
