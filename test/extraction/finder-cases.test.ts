/**
 * Cases that once went wrong on generated documents, each kept as a test of the fix.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { expectPrinted, extractLines, sheet, textOnlyEngine } from '../helpers/make-invoices.js';

const engine = textOnlyEngine();
afterAll(() => engine.close());

describe('finder cases', () => {
  it('derives the due date from "Payment terms: 30 days"', async () => {
    const s = sheet();
    s.put(50, 60, 'ACME Supplies Pty Ltd', 20, true);
    s.put(50, 150, 'Invoice Date: 14 March 2024');
    s.put(50, 170, 'Payment terms: 30 days');
    const doc = await extractLines(engine, s.lines);
    expect(doc.value('invoice.dueDate')).toBe('2024-04-13');
  });

  it.each([
    ['Fecha de factura: 02/12/2022', 'Pago a 60 días', '2023-01-31'],
    ['Fecha: 2 de diciembre de 2022', 'Pago a 60 días', '2023-01-31'],
    ['Data fattura: 28/06/2022', 'Pagamento a 45 giorni', '2022-08-12'],
  ])('derives the due date from "%s" and "%s"', async (dated, terms, due) => {
    const s = sheet();
    s.put(50, 60, 'Pedorix S.a.s.', 20, true);
    s.put(50, 150, dated);
    s.put(50, 170, terms);
    const doc = await extractLines(engine, s.lines);
    expect(doc.value('invoice.dueDate')).toBe(due);
  });

  it('reads the amount due after an advance payment in Spanish: "A pagar" under "TOTAL A PAGAR"', async () => {
    const s = sheet();
    s.put(50, 60, 'Brekel Consultoría S.L.', 20, true);
    s.put(300, 500, 'Base imponible');
    s.put(470, 500, '560,44');
    s.put(300, 518, 'IVA 21 %');
    s.put(470, 518, '115,08');
    s.put(300, 536, 'TOTAL A PAGAR');
    s.put(470, 536, '675,52 €');
    s.put(300, 554, 'Anticipo');
    s.put(470, 554, '-225,00');
    s.put(300, 572, 'A pagar');
    s.put(470, 572, '450,52 €');
    const doc = await extractLines(engine, s.lines);
    expect(doc.value('invoice.total')).toBe('675.52');
    expect(doc.value('invoice.amountDue')).toBe('450.52');
  });

  it('takes the date of issue over the date of the service printed under it', async () => {
    const s = sheet();
    s.put(50, 60, 'Beispiel GmbH', 20, true);
    s.put(300, 150, 'Ausstellungsdatum');
    s.put(450, 150, '21.01.2022');
    s.put(300, 166, 'Leistungsdatum');
    s.put(450, 166, '13.01.2022');
    s.put(300, 182, 'Zahlbar bis');
    s.put(450, 182, '04.02.2022');
    const doc = await extractLines(engine, s.lines);
    expect(doc.value('document.date')).toBe('2022-01-21');
    expect(doc.value('invoice.dueDate')).toBe('2022-02-04');
  });

  it('reads a bank account after a bare "Account" label', async () => {
    const s = sheet();
    s.put(50, 60, 'ACME Supplies Pty Ltd', 20, true);
    s.put(50, 400, 'Direct deposit: | BSB 062-000 | Account 12345678');
    const doc = await extractLines(engine, s.lines);
    expect(doc.value('bank.accountNo')).toBe('12345678');
    expect(doc.value('bank.bsb')).toBe('062-000');
  });

  it('finds no invoice number where none is printed', async () => {
    const s = sheet();
    s.put(50, 60, 'ACME Supplies Pty Ltd', 20, true);
    s.put(50, 150, 'Invoice Date: 14 March 2024');
    s.put(50, 400, 'BSB: 062-000 | Account No: 12345678');
    s.put(50, 420, 'Account Number | 1234 5678');
    const doc = await extractLines(engine, s.lines);
    expect(doc.value('document.referenceNo')).toBeNull();
  });

  it('keeps a receipt name that begins with a business word whole', async () => {
    const s = sheet();
    const name = s.put(120, 50, 'KEDAI RUNCIT MAJU SDN BHD', 14, true);
    s.put(150, 70, '(1152264-K)');
    s.put(130, 85, 'NO. 12, JALAN BUNGA RAYA');
    s.put(120, 100, 'TAMAN MELATI, 53100 KUALA LUMPUR');
    s.put(140, 115, 'GST ID: 001234567890');
    s.put(60, 200, 'MILO 1KG');
    s.put(300, 200, 'RM 28.90');
    const doc = await extractLines(engine, s.lines, ['receipts:1']);
    await expectPrinted(doc, 'document.supplierName', 'KEDAI RUNCIT MAJU SDN BHD', name);
    expect(doc.value('document.supplierAddress')).toBe(
      'NO. 12, JALAN BUNGA RAYA, TAMAN MELATI, 53100 KUALA LUMPUR',
    );
  });

  it('reads the customer right of "Bill To:" and not the next column of the row', async () => {
    const s = sheet();
    s.put(50, 60, 'ACME Supplies Pty Ltd', 20, true);
    s.put(50, 180, 'Bill To:');
    s.put(350, 180, 'Invoice No.');
    s.put(450, 180, 'INV-20931');
    const customer = s.put(50, 195, 'Globex Corporation');
    const doc = await extractLines(engine, s.lines);
    await expectPrinted(doc, 'document.customerName', 'Globex Corporation', customer);
    expect(doc.value('document.referenceNo')).toBe('INV-20931');
  });

  it('reads an Australian date day first', async () => {
    const s = sheet();
    s.put(50, 60, 'ACME Supplies Pty Ltd', 20, true);
    s.put(50, 80, 'ABN 51 824 753 556');
    s.put(50, 150, 'Invoice Date: 03/05/2024');
    s.put(350, 500, 'Total $220.00');
    const doc = await extractLines(engine, s.lines);
    expect(doc.value('document.date')).toBe('2024-05-03');
    expect(doc.value('document.currency')).toBe('AUD');
  });

  it('ends a receipt address before a phone number printed without its label', async () => {
    const s = sheet();
    s.put(120, 50, 'SIN HUP HARDWARE TRADING', 14, true);
    s.put(130, 70, 'NO 52, JALAN MURNI 4, TAMAN SERAI,');
    s.put(130, 85, '52100 KEPONG, KUALA LUMPUR.');
    s.put(150, 100, '(603) 9274 5816');
    const doc = await extractLines(engine, s.lines, ['receipts:1']);
    expect(doc.value('document.supplierAddress')).toBe(
      'NO 52, JALAN MURNI 4, TAMAN SERAI, 52100 KEPONG, KUALA LUMPUR.',
    );
  });

  it("stops the supplier's address before the recipient's block", async () => {
    const s = sheet();
    s.put(50, 60, 'Beispiel Handels GmbH', 20, true);
    s.put(50, 85, 'Hauptstraße 5');
    s.put(50, 100, '10115 Berlin');
    s.put(50, 150, 'Muster AG');
    s.put(50, 165, 'Industrieweg 12');
    s.put(50, 180, '80331 München');
    const doc = await extractLines(engine, s.lines);
    expect(doc.value('document.supplierName')).toBe('Beispiel Handels GmbH');
    expect(doc.value('document.supplierAddress')).toBe('Hauptstraße 5, 10115 Berlin');
  });
});

describe('degenerate documents', () => {
  it('answers every field as null for a document without words', async () => {
    const { extractFields } = await import('../../src/extraction/extract.js');
    const { fieldsOf } = await import('../helpers/make-invoices.js');
    const empty = {
      formatVersion: 1 as const,
      fileId: '00000000-0000-4000-8000-000000000000',
      mediaType: 'image/png' as const,
      pages: [
        {
          pageNum: 1,
          width: 100,
          height: 100,
          unit: 'px' as const,
          rotation: 0 as const,
          source: 'none' as const,
        },
      ],
      tokens: [],
      lines: [],
      blocks: [],
      createdAt: new Date().toISOString(),
    };
    const fields = extractFields(empty, { fields: fieldsOf(['invoices:2', 'receipts:1', 'bills:1']) });
    for (const field of fields) {
      if (field.name === 'document.type') continue;
      expect(field, field.name).toMatchObject({ value: null, confidence: 0, boundingBox: null });
    }
  });

  it('survives tokens of punctuation, huge numbers and odd scripts', async () => {
    const s = sheet();
    s.put(50, 60, '### --- ::: ||| ...', 20, true);
    s.put(50, 100, 'Total 99999999999999999999.99 Date 99/99/9999 IBAN XX00');
    s.put(50, 120, 'Invoice No. ---- Rechnung # :::');
    const doc = await extractLines(engine, s.lines, ['invoices:2', 'receipts:1', 'bills:1']);
    expect(doc.value('document.date')).toBeNull();
    expect(doc.value('bank.iban')).toBeNull();
    expect(doc.value('document.referenceNo')).toBeNull();
  });
});
