/**
 * The field finders on born-digital documents the tests draw themselves: each value is checked
 * exactly, with the tokens it was read from and the place on the page where it was drawn.
 */
import { afterAll, describe, expect, it } from 'vitest';
import type { TableValue } from '../../src/extraction/types.js';
import {
  drawnUnion,
  expectBoxOver,
  expectPrinted,
  extractLines,
  extractPages,
  fieldsOf,
  readPages,
  sheet,
  textOnlyEngine,
  tokenTexts,
} from '../helpers/make-invoices.js';
import { A4 } from '../helpers/make-documents.js';

const engine = textOnlyEngine();
afterAll(() => engine.close());

describe('amounts', () => {
  it('reads subtotal, tax and total printed to the right of English labels', async () => {
    const s = sheet();
    s.put(50, 60, 'ACME Supplies Pty Ltd', 20, true);
    s.put(50, 150, 'Invoice No.');
    s.put(160, 150, 'INV-20931');
    s.put(350, 500, 'Subtotal');
    const sub = s.put(480, 500, '1,000.00');
    s.put(350, 518, 'Tax');
    const tax = s.put(480, 518, '100.00');
    s.put(350, 536, 'Total');
    const total = s.put(480, 536, '1,100.00');
    const doc = await extractLines(engine, s.lines);
    await expectPrinted(doc, 'invoice.subTotal', '1000.00', sub);
    await expectPrinted(doc, 'invoice.tax', '100.00', tax);
    await expectPrinted(doc, 'invoice.total', '1100.00', total);
    // Nothing paid: the amount due is the total.
    await expectPrinted(doc, 'invoice.amountDue', '1100.00', total);
    expect(doc.field('invoice.amountDue').valueNorm).toBe(1100);
    expect(doc.value('invoice.amountPaid')).toBeNull();
  });

  it('reads amounts printed below their labels', async () => {
    const s = sheet();
    s.put(50, 60, 'ACME Supplies Pty Ltd', 20, true);
    s.put(250, 500, 'Subtotal');
    s.put(350, 500, 'Tax');
    s.put(450, 500, 'Total');
    const sub = s.put(250, 516, '1,000.00');
    const tax = s.put(350, 516, '100.00');
    const total = s.put(450, 516, '1,100.00');
    const doc = await extractLines(engine, s.lines);
    await expectPrinted(doc, 'invoice.subTotal', '1000.00', sub);
    await expectPrinted(doc, 'invoice.tax', '100.00', tax);
    await expectPrinted(doc, 'invoice.total', '1100.00', total);
  });

  it('reads German labels and comma decimals, not the tax rate', async () => {
    const s = sheet();
    s.put(50, 60, 'Beispiel GmbH', 20, true);
    s.put(50, 150, 'Rechnungsnummer');
    s.put(200, 150, 'RE-2014-117');
    s.put(300, 500, 'Summe netto');
    const sub = s.put(470, 500, '1.234,56 EUR');
    s.put(300, 518, 'Zuzügl. USt 19%');
    const tax = s.put(470, 518, '234,57 EUR');
    s.put(300, 536, 'Gesamtbetrag');
    const total = s.put(470, 536, '1.469,13 EUR');
    const doc = await extractLines(engine, s.lines);
    await expectPrinted(doc, 'invoice.subTotal', '1234.56', sub);
    await expectPrinted(doc, 'invoice.tax', '234.57', tax);
    await expectPrinted(doc, 'invoice.total', '1469.13', total);
    expect(doc.field('invoice.total').valueNorm).toBe(1469.13);
  });

  it('adds up tax printed per rate when no line gives its sum, as subtotal + tax = total says', async () => {
    const s = sheet();
    s.put(50, 60, 'Beispiel GmbH', 20, true);
    s.put(300, 500, 'Gesamt netto');
    const sub = s.put(470, 500, '9.763,18');
    s.put(300, 518, 'Umsatzsteuer 19 %');
    const high = s.put(470, 518, '1.310,13');
    s.put(300, 536, 'Umsatzsteuer 7 %');
    const low = s.put(470, 536, '200,74');
    s.put(300, 554, 'Rechnungsbetrag');
    const total = s.put(470, 554, '11.274,05');
    const doc = await extractLines(engine, s.lines);
    await expectPrinted(doc, 'invoice.subTotal', '9763.18', sub);
    await expectPrinted(doc, 'invoice.tax', '1510.87', [high, low]);
    await expectPrinted(doc, 'invoice.total', '11274.05', total);
  });

  it('reads French labels: Total HT, TVA, Total TTC, and the amount due from "Net à payer"', async () => {
    const s = sheet();
    s.put(50, 60, 'Exemple SARL', 20, true);
    s.put(50, 150, 'Facture n°');
    s.put(200, 150, 'F-2017-0042');
    s.put(300, 500, 'Total HT');
    const sub = s.put(470, 500, '1 000,00 €');
    s.put(300, 518, 'TVA 20%');
    const tax = s.put(470, 518, '200,00 €');
    s.put(300, 536, 'Total TTC');
    const total = s.put(470, 536, '1 200,00 €');
    s.put(300, 560, 'Net à payer');
    const due = s.put(470, 560, '1 200,00 €');
    const doc = await extractLines(engine, s.lines);
    await expectPrinted(doc, 'invoice.subTotal', '1000.00', sub);
    await expectPrinted(doc, 'invoice.tax', '200.00', tax);
    await expectPrinted(doc, 'invoice.total', '1200.00', total);
    await expectPrinted(doc, 'invoice.amountDue', '1200.00', due);
  });

  it('reads Dutch labels: Subtotaal, BTW, Totaal', async () => {
    const s = sheet();
    s.put(50, 60, 'Voorbeeld B.V.', 20, true);
    s.put(50, 150, 'Factuurnummer');
    s.put(200, 150, '2023-0815');
    s.put(300, 500, 'Subtotaal');
    const sub = s.put(470, 500, '€ 500,00');
    s.put(300, 518, 'BTW 21%');
    const tax = s.put(470, 518, '€ 105,00');
    s.put(300, 536, 'Totaal');
    const total = s.put(470, 536, '€ 605,00');
    const doc = await extractLines(engine, s.lines);
    await expectPrinted(doc, 'invoice.subTotal', '500.00', sub);
    await expectPrinted(doc, 'invoice.tax', '105.00', tax);
    await expectPrinted(doc, 'invoice.total', '605.00', total);
  });

  it('prefers the total that subtotal + tax add up to over a bigger, better placed one', async () => {
    const s = sheet();
    s.put(50, 60, 'ACME Supplies Pty Ltd', 20, true);
    s.put(50, 400, 'Account summary');
    // Label and value closer together than on the totals block: without the sum this one would win.
    s.put(50, 420, 'Total');
    s.put(200, 420, '4,950.00');
    s.put(300, 500, 'Subtotal');
    const sub = s.put(470, 500, '300.00');
    s.put(300, 518, 'Tax');
    const tax = s.put(470, 518, '30.00');
    s.put(300, 536, 'Total');
    const total = s.put(470, 536, '330.00');
    const doc = await extractLines(engine, s.lines);
    await expectPrinted(doc, 'invoice.total', '330.00', total);
    await expectPrinted(doc, 'invoice.subTotal', '300.00', sub);
    await expectPrinted(doc, 'invoice.tax', '30.00', tax);
    // The other total was a candidate, and lost.
    const others = (doc.field('invoice.total').candidates ?? []).map((c) => c.value);
    expect(others).toContain('4950.00');
  });

  it('takes the total of a receipt without a total line as cash less change', async () => {
    const s = sheet();
    s.put(200, 60, 'CORNER CAFE', 16, true);
    s.put(150, 100, 'Flat White');
    s.put(400, 100, '4.50');
    s.put(150, 116, 'Banana Bread');
    s.put(400, 116, '5.95');
    s.put(150, 132, 'Orange Juice');
    s.put(400, 132, '32.00');
    s.put(150, 170, 'CASH');
    const cash = s.put(400, 170, '50.00');
    s.put(150, 186, 'CHANGE');
    const change = s.put(400, 186, '7.55');
    const doc = await extractLines(engine, s.lines, ['receipts:1']);
    await expectPrinted(doc, 'receipt.total', '42.45', [cash, change]);
    expect(doc.field('receipt.total').valueNorm).toBe(42.45);
    expect(doc.value('receipt.tax')).toBeNull();
    expect(doc.value('receipt.paymentMethod')).toBe('cash');
  });

  it('reads cash given and change in German, French, Dutch, Spanish and Italian', async () => {
    const total = async (given: string, back: string) => {
      const s = sheet();
      s.put(200, 60, 'CAFE ROMA', 16, true);
      s.put(150, 100, 'Cappuccino');
      s.put(400, 100, '3,50');
      s.put(150, 116, 'Croissant');
      s.put(400, 116, '2,20');
      s.put(150, 170, given);
      s.put(400, 170, '10,00');
      s.put(150, 186, back);
      s.put(400, 186, '4,30');
      const doc = await extractLines(engine, s.lines, ['receipts:1']);
      return doc.value('receipt.total');
    };
    expect(await total('Gegeben', 'Rückgeld')).toBe('5.70');
    expect(await total('Espèces', 'Rendu monnaie')).toBe('5.70');
    expect(await total('Contant', 'Wisselgeld')).toBe('5.70');
    expect(await total('Efectivo', 'Cambio')).toBe('5.70');
    expect(await total('Contanti', 'Cambio')).toBe('5.70');
  });

  it('takes the amount a receipt rounded to the coin was paid at, over the unrounded one that adds up', async () => {
    const receipt = (paid: 'TOTAL' | 'CASH') => {
      const s = sheet();
      s.put(200, 60, 'CORNER CAFE SDN BHD', 16, true);
      s.put(150, 100, 'Total (Excluding GST):');
      s.put(400, 100, '62.00');
      s.put(150, 116, 'GST 6%');
      s.put(400, 116, '3.72');
      s.put(150, 132, 'Total (Inclusive of GST):');
      const unrounded = s.put(400, 132, '65.72');
      s.put(150, 148, 'Rounding Adj');
      s.put(400, 148, '-0.02');
      s.put(150, 170, paid);
      const rounded = s.put(400, 170, '65.70');
      return { lines: s.lines, unrounded, rounded };
    };
    // The rounded total printed as the total, and only as the cash tendered.
    for (const paid of ['TOTAL', 'CASH'] as const) {
      const { lines, rounded } = receipt(paid);
      const doc = await extractLines(engine, lines, ['receipts:1']);
      await expectPrinted(doc, 'receipt.total', '65.70', rounded);
      expect((doc.field('receipt.total').candidates ?? []).map((c) => c.value)).toContain('65.72');
    }
  });

  it('takes the total the cash tendered confirms over a tax line that says "included in total"', async () => {
    const s = sheet();
    s.put(200, 60, 'CORNER CAFE SDN BHD', 16, true);
    s.put(150, 132, 'Total Incl. GST@6%');
    const total = s.put(400, 132, 'RM 3.30');
    s.put(150, 148, 'CASH');
    s.put(400, 148, 'RM 3.30');
    s.put(150, 164, 'GST @6% included in total');
    s.put(400, 164, 'RM 0.19');
    const doc = await extractLines(engine, s.lines, ['receipts:1']);
    await expectPrinted(doc, 'receipt.total', '3.30', total);
  });

  it('derives the rounded amount paid when only the unrounded total and the adjustment are printed', async () => {
    const receipt = (adjustment: string) => {
      const s = sheet();
      s.put(200, 60, 'CORNER CAFE SDN BHD', 16, true);
      s.put(150, 132, 'TOTAL AMT');
      const total = s.put(400, 132, '60.31');
      s.put(150, 148, 'ROUNDING ADJ');
      const rounding = s.put(400, 148, adjustment);
      return { lines: s.lines, total, rounding };
    };
    const { lines, total, rounding } = receipt('-0.01');
    const doc = await extractLines(engine, lines, ['receipts:1']);
    await expectPrinted(doc, 'receipt.total', '60.30', [total, rounding]);
    // An adjustment that does not land on a coin (a misread) leaves the printed total.
    const odd = receipt('-0.02');
    const oddDoc = await extractLines(engine, odd.lines, ['receipts:1']);
    await expectPrinted(oddDoc, 'receipt.total', '60.31', odd.total);
  });
});

describe('amounts that other lines of a receipt check', () => {
  const receipt = (rows: Array<[string, string]>) => {
    const s = sheet();
    s.put(200, 60, 'CORNER CAFE SDN BHD', 16, true);
    const values = new Map<string, ReturnType<typeof s.put>>();
    rows.forEach(([label, value], i) => {
      s.put(150, 100 + 16 * i, label);
      values.set(label, s.put(400, 100 + 16 * i, value));
    });
    return { lines: s.lines, values };
  };

  it('takes the amount the subtotal and tax and the cash less change agree on over a misread total', async () => {
    const rows: Array<[string, string]> = [
      ['SUB TOTAL', '64.00'],
      ['GST 6%', '3.84'],
      ['ROUNDING ADJ', '0.01'],
      ['NET TOTAL', '67.35'],
      ['CASH', '100.00'],
      ['CHANGE', '32.15'],
    ];
    const { lines, values } = receipt(rows);
    const doc = await extractLines(engine, lines, ['receipts:1']);
    expect(doc.value('receipt.total')).toBe('67.85');
    // Read from the cash and the change it was worked out from.
    expect(doc.field('receipt.total').text).toBe(`${values.get('CASH')!.text} ${values.get('CHANGE')!.text}`);
    // One relation alone (no change printed) does not overrule the printed total.
    const alone = receipt(rows.slice(0, 5));
    expect((await extractLines(engine, alone.lines, ['receipts:1'])).value('receipt.total')).toBe('67.35');
  });

  it("takes the amount paid, without a total's label, and no card's balance before or after", async () => {
    const { lines, values } = receipt([
      ['Parking Fee', '9.20'],
      ['AMOUNT PAID', '9.20'],
      ['Paid by: CashCard', ''],
      ['Balance before', '32.65'],
      ['Balance after', '23.45'],
    ]);
    const doc = await extractLines(
      engine,
      lines.filter((l) => l.text !== ''),
      ['receipts:1'],
    );
    expect(doc.value('receipt.total')).toBe('9.20');
    expect(doc.field('receipt.total').text).toBe(values.get('AMOUNT PAID')!.text);
  });

  it('takes the coin amount a sum gives over a total off the coin when a rounding is printed', async () => {
    const rows: Array<[string, string]> = [
      ['Sub Total', '106.10'],
      ['GST 6%', '6.37'],
      ['Rounding', '-0.02'],
      ['Total', '112.46'],
    ];
    const { lines } = receipt(rows);
    expect((await extractLines(engine, lines, ['receipts:1'])).value('receipt.total')).toBe('112.45');
    // Without a rounding line nothing says the total is paid to the coin: the printed one stays.
    const plain = receipt(rows.filter(([label]) => label !== 'Rounding'));
    expect((await extractLines(engine, plain.lines, ['receipts:1'])).value('receipt.total')).toBe('112.46');
  });

  it('reads a total wrapped onto the next line at the right margin, and cash and change under their labels', async () => {
    const s = sheet();
    s.put(200, 60, 'CORNER CAFE SDN BHD', 16, true);
    s.put(150, 100, 'Total Sales (Excluding GST)');
    s.put(400, 100, '31.03');
    s.put(150, 116, 'Total GST');
    s.put(400, 116, '1.65');
    s.put(150, 132, 'Total Sales (Inclusive of GST)');
    // The value alone on the next line, right of where the long label ends.
    const total = s.put(400, 148, '32.70');
    s.put(150, 164, 'CASH');
    s.put(150, 180, '40.00');
    s.put(150, 196, 'CHANGE');
    s.put(150, 212, '7.30');
    const doc = await extractLines(engine, s.lines, ['receipts:1']);
    await expectPrinted(doc, 'receipt.total', '32.70', total);
    // Without the total's line, the cash less the change (each under its label) is the total.
    const unlabelled = s.lines.filter((l) => !l.text.includes('Inclusive') && l !== total);
    const paid = await extractLines(engine, unlabelled, ['receipts:1']);
    expect(paid.value('receipt.total')).toBe('32.70');
    expect(paid.field('receipt.total').text).toBe('40.00 7.30');
  });

  it("takes a parking machine's accepted money for the cash tendered, not for the total", async () => {
    const rows: Array<[string, string]> = [
      ['Total amount', '1.50'],
      ['Accepted total', '2.00'],
      ['Change', '0.50'],
      ['GST 0%', '0.00'],
    ];
    const { lines, values } = receipt(rows);
    const doc = await extractLines(engine, lines, ['receipts:1']);
    await expectPrinted(doc, 'receipt.total', '1.50', values.get('Total amount')!);
  });

  it('does not join digits across a wide gap into one grouped amount', async () => {
    const s = sheet();
    s.put(200, 60, 'CORNER CAFE SDN BHD', 16, true);
    s.put(150, 100, 'Total Sales (Inclusive 1');
    const total = s.put(400, 100, '101.76');
    const doc = await extractLines(engine, s.lines, ['receipts:1']);
    await expectPrinted(doc, 'receipt.total', '101.76', total);
  });

  it("does not join an item's quantity and price on one line into one grouped amount", async () => {
    const s = sheet();
    s.put(200, 60, 'CORNER MART', 16, true);
    s.put(50, 300, 'TOOR DAL 1KG', 9);
    s.put(250, 300, '2', 9);
    s.put(270, 300, '175.00', 9);
    const amount = s.put(450, 300, '350.00', 9);
    const doc = await extractLines(engine, s.lines, ['receipts:1']);
    await expectPrinted(doc, 'receipt.total', '350.00', amount);
  });

  it("takes no VAT summary's total row for the document's total: its last number is the tax", async () => {
    const s = sheet();
    s.put(200, 60, 'CORNER MART', 16, true);
    s.put(50, 300, 'Items: 9', 9);
    const total = s.put(400, 300, 'Rs.1,921.00', 9);
    s.put(50, 340, 'GST %', 8);
    s.put(120, 340, 'Taxable', 8);
    s.put(220, 340, 'CGST', 8);
    s.put(320, 340, 'SGST', 8);
    s.put(420, 340, 'Total GST', 8);
    [
      ['0%', '132.00', '0.00', '0.00', '0.00'],
      ['5%', '1,095.24', '27.38', '27.38', '54.76'],
      ['12%', '294.64', '17.68', '17.68', '35.36'],
      ['18%', '261.86', '23.57', '23.57', '47.14'],
      ['Total', '1,783.74', '68.63', '68.63', '137.26'],
    ].forEach((row, r) =>
      row.forEach((text, c) => s.put([50, 120, 220, 320, 420][c]!, 355 + 14 * r, text, 8)),
    );
    const doc = await extractLines(engine, s.lines, ['receipts:1']);
    await expectPrinted(doc, 'receipt.total', '1921.00', total);
    expect(doc.value('receipt.tax')).toBe('137.26');
  });
});

describe('dates', () => {
  it('reads "Invoice Date: 14 March 2024" and a "Due Date"', async () => {
    const s = sheet();
    s.put(50, 60, 'ACME Supplies Pty Ltd', 20, true);
    s.put(50, 150, 'Invoice No.');
    s.put(160, 150, 'INV-20931');
    s.put(50, 168, 'Invoice Date:');
    const date = s.put(160, 168, '14 March 2024');
    s.put(50, 186, 'Due Date:');
    const due = s.put(160, 186, '13 April 2024');
    const doc = await extractLines(engine, s.lines);
    await expectPrinted(doc, 'document.date', '2024-03-14', date);
    await expectPrinted(doc, 'invoice.dueDate', '2024-04-13', due);
    expect(doc.field('document.date').valueNorm).toBe('2024-03-14');
  });

  it('reads German dates day first: Rechnungsdatum and Fälligkeitsdatum', async () => {
    const s = sheet();
    s.put(50, 60, 'Beispiel GmbH', 20, true);
    s.put(50, 168, 'Rechnungsdatum:');
    const date = s.put(200, 168, '03.07.2014');
    s.put(50, 186, 'Fälligkeitsdatum:');
    const due = s.put(200, 186, '17.07.2014');
    const doc = await extractLines(engine, s.lines);
    await expectPrinted(doc, 'document.date', '2014-07-03', date);
    await expectPrinted(doc, 'invoice.dueDate', '2014-07-17', due);
  });

  it("reads French dates: Date de facture and Date d'échéance", async () => {
    const s = sheet();
    s.put(50, 60, 'Exemple SARL', 20, true);
    s.put(50, 168, 'Date de facture');
    const date = s.put(200, 168, '13/11/2017');
    s.put(50, 186, "Date d'échéance");
    const due = s.put(200, 186, '13/12/2017');
    const doc = await extractLines(engine, s.lines);
    await expectPrinted(doc, 'document.date', '2017-11-13', date);
    await expectPrinted(doc, 'invoice.dueDate', '2017-12-13', due);
  });

  it('reads a numeric date month first when another date of the document has its day second', async () => {
    const lines = (withEvidence: boolean) => {
      const s = sheet();
      s.put(50, 60, 'Globex Inc.', 20, true);
      s.put(50, 150, 'Invoice Date:');
      const date = s.put(160, 150, '03/05/2024');
      if (withEvidence) {
        s.put(50, 168, 'Order Date:');
        s.put(160, 168, '02/21/2024');
      }
      return { lines: s.lines, date };
    };
    const us = lines(true);
    const doc = await extractLines(engine, us.lines);
    await expectPrinted(doc, 'document.date', '2024-03-05', us.date);
    // The same date without the evidence is read day first (no locale, no dollars).
    const plain = lines(false);
    expect((await extractLines(engine, plain.lines)).value('document.date')).toBe('2024-05-03');
  });

  it('derives a due date from payment terms and the document date', async () => {
    const dueFrom = async (terms: string, date = '14 March 2024', label = 'Invoice Date:') => {
      const s = sheet();
      s.put(50, 60, 'ACME Supplies Pty Ltd', 20, true);
      s.put(50, 150, label);
      s.put(200, 150, date);
      s.put(50, 168, terms);
      const doc = await extractLines(engine, s.lines);
      const due = doc.field('invoice.dueDate');
      expect(due.confidence).toBeGreaterThan(0);
      // Worked out, not printed: no surer than the date it is worked out from.
      expect(due.confidence).toBeLessThanOrEqual(doc.field('document.date').confidence);
      return due.value;
    };
    expect(await dueFrom('Payment terms: net 30 days')).toBe('2024-04-13');
    expect(await dueFrom('Please pay within 14 days.')).toBe('2024-03-28');
    expect(await dueFrom('Zahlbar innerhalb von 14 Tagen ohne Abzug.', '03.07.2014', 'Rechnungsdatum:')).toBe(
      '2014-07-17',
    );
  });
});

describe('references', () => {
  it('reads "Invoice No." and "PO Number" values to the right', async () => {
    const s = sheet();
    s.put(50, 60, 'ACME Supplies Pty Ltd', 20, true);
    s.put(50, 150, 'Invoice No.');
    const number = s.put(160, 150, 'INV-20931');
    s.put(50, 168, 'PO Number');
    const po = s.put(160, 168, 'PO-4471');
    s.put(50, 186, 'Invoice Date');
    s.put(160, 186, '14 March 2024');
    const doc = await extractLines(engine, s.lines);
    await expectPrinted(doc, 'document.referenceNo', 'INV-20931', number);
    await expectPrinted(doc, 'invoice.purchaseOrderNo', 'PO-4471', po);
  });

  it.each([
    ['Factura n.º:', 'R83357', 'Pedido:', '600198'],
    ['Numero fattura', 'INV-70334', 'N. ordine:', '532171'],
    ['N. documento', '2024-21800', 'Ordine', 'ORD125984'],
    ['Nummer', 'N81901', 'Inkoopordernr.', 'B603828'],
    ['Rechnung Nr.:', '2024-10932', 'Bestell-Nr.:', 'B226880'],
    ['Facture n°', 'F18701', 'Réf. commande', 'PO618350'],
    ['Invoice', 'ACC-SINV-0042', "Customer's PO:", 'KFB/PO/2324/1187'],
    ['Invoice Number:', '207', 'P.O./S.O. Number:', '5521'],
    ['Posted Sales Invoice', '103318', 'External Document No.', 'PO-88-4410'],
    ['Rechnung Nr.', 'RE-2024-0311', 'Ihre Bestellnr.:', '45-2024-0088'],
    ['Factuurnummer', 'F2024-118', 'Uw bestelbon:', 'BB-118'],
  ])('reads "%s" %s and "%s" %s', async (label, number, poLabel, poNumber) => {
    const s = sheet();
    s.put(50, 60, 'Pedorix S.a.s.', 20, true);
    s.put(50, 150, label);
    const value = s.put(160, 150, number);
    s.put(50, 168, 'BTW nr.: NL827746167B01');
    s.put(50, 186, poLabel);
    const po = s.put(160, 186, poNumber);
    const doc = await extractLines(engine, s.lines);
    await expectPrinted(doc, 'document.referenceNo', number, value);
    await expectPrinted(doc, 'invoice.purchaseOrderNo', poNumber, po);
  });

  it("takes an e-invoice's order reference over its buyer reference (a routing id)", async () => {
    const s = sheet();
    s.put(50, 60, 'Fjordlys Elektro AS', 20, true);
    s.put(50, 150, 'Invoice number:');
    s.put(160, 150, 'FL-20931');
    s.put(50, 168, 'Buyer reference:');
    s.put(160, 168, 'HH-ANSK-0912');
    s.put(50, 186, 'Order reference:');
    const po = s.put(160, 186, '4500087712');
    const doc = await extractLines(engine, s.lines);
    await expectPrinted(doc, 'invoice.purchaseOrderNo', '4500087712', po);
  });

  it('reads a number glued to its label in one run ("Invoice No.: INV-20931")', async () => {
    const s = sheet();
    s.put(50, 60, 'ACME Supplies Pty Ltd', 20, true);
    const number = s.put(50, 150, 'Invoice No.: INV-20931');
    const po = s.put(50, 168, 'PO Number: 4500012345');
    const doc = await extractLines(engine, s.lines);
    await expectPrinted(doc, 'document.referenceNo', 'INV-20931', { line: number, part: 'INV-20931' });
    await expectPrinted(doc, 'invoice.purchaseOrderNo', '4500012345', { line: po, part: '4500012345' });
  });

  it('reads "Rechnungsnummer" with the number to the right and below the label', async () => {
    const right = sheet();
    right.put(50, 60, 'Beispiel GmbH', 20, true);
    right.put(50, 150, 'Rechnungsnummer');
    const r = right.put(200, 150, 'RE-2014-117');
    await expectPrinted(await extractLines(engine, right.lines), 'document.referenceNo', 'RE-2014-117', r);

    const below = sheet();
    below.put(50, 60, 'Beispiel GmbH', 20, true);
    below.put(50, 150, 'Rechnungsnummer');
    below.put(200, 150, 'Rechnungsdatum');
    const b = below.put(50, 166, '2014-117');
    const date = below.put(200, 166, '03.07.2014');
    const doc = await extractLines(engine, below.lines);
    await expectPrinted(doc, 'document.referenceNo', '2014-117', b);
    await expectPrinted(doc, 'document.date', '2014-07-03', date);
  });

  it('reads "Facture n°" and "Factuurnummer"', async () => {
    const fr = sheet();
    fr.put(50, 60, 'Exemple SARL', 20, true);
    fr.put(50, 150, 'Facture n°');
    const f = fr.put(200, 150, 'F-2017-0042');
    await expectPrinted(await extractLines(engine, fr.lines), 'document.referenceNo', 'F-2017-0042', f);

    const nl = sheet();
    nl.put(50, 60, 'Voorbeeld B.V.', 20, true);
    nl.put(50, 150, 'Factuurnummer:');
    const n = nl.put(200, 150, 'F2023-118');
    nl.put(50, 168, 'Factuurdatum:');
    const d = nl.put(200, 168, '21-06-2023');
    nl.put(50, 186, 'Vervaldatum:');
    const v = nl.put(200, 186, '21-07-2023');
    const doc = await extractLines(engine, nl.lines);
    await expectPrinted(doc, 'document.referenceNo', 'F2023-118', n);
    await expectPrinted(doc, 'document.date', '2023-06-21', d);
    await expectPrinted(doc, 'invoice.dueDate', '2023-07-21', v);
  });
});

describe('receipt numbers and ids of tills', () => {
  const till = (rows: string[]) => {
    const s = sheet();
    s.put(60, 40, 'HARVEST VALLEY MARKET', 12, true);
    s.put(60, 56, '2150 Orchard Grove Blvd, Fresno, CA 93711', 8);
    const put = rows.map((row, i) => s.put(60, 80 + 14 * i, row, 8));
    return { lines: s.lines, put };
  };

  it.each([
    ['RECEIPT # 0142-0305521', 'REG 03   TRANS 5521   CASHIER LUIS', '0142-0305521'],
    ['Receipt # 212-0412873', 'Tran ID 661739', '212-0412873'],
    ['Rcpt#: 0023-118902', 'POS: 02', '0023-118902'],
    ['Belegnr.: 45120', 'Kassen-ID: KASSE-01', '45120'],
  ])('takes "%s" over a transaction number on the line under it', async (first, second, want) => {
    const { lines } = till([first, second, 'TOTAL  $34.73']);
    const doc = await extractLines(engine, lines, ['receipts:1']);
    expect(doc.value('document.referenceNo')).toBe(want);
  });

  it('takes no value under a label word inside a sentence', async () => {
    const { lines } = till([
      'ST# 1142  OP# 004512  REG# 07  TRANS# 08843',
      'TOTAL  $149.33',
      'Most items can be returned within 90 days',
      'with receipt. See store for details.',
      '1142 07 08843 4512 0314',
    ]);
    const doc = await extractLines(engine, lines, ['receipts:1']);
    expect(doc.value('document.referenceNo')).toBe('08843');
  });

  it("reads a Canadian HST number and a German Steuernummer as the supplier's tax id", async () => {
    const hst = till(['HST# 81234 5676 RT0001', 'Receipt: 118273', 'HST 13%  4.19', 'TOTAL  $44.90']);
    const canadian = await extractLines(engine, hst.lines, ['receipts:1']);
    expect(canadian.value('document.supplierTaxId')).toBe('812345676RT0001');
    expect(canadian.value('receipt.tax')).toBe('4.19');
    const steuer = till(['Steuer-Nr.: 231/118/04567', 'Bon-Nr. 4471', 'SUMME EUR 12,40']);
    const german = await extractLines(engine, steuer.lines, ['receipts:1']);
    expect(german.value('document.supplierTaxId')).toBe('231/118/04567');
  });

  it('reads "$" as US dollars on a receipt with a US address, whatever country a product names', async () => {
    const { lines } = till(['Bean of the month: Huila, Colombia', 'Total  $13.00']);
    const doc = await extractLines(engine, lines, ['receipts:1']);
    expect(doc.value('document.currency')).toBe('USD');
  });
});

describe('identifiers', () => {
  it('reads an IBAN printed in groups of four, the BIC and a German VAT id', async () => {
    const s = sheet();
    s.put(50, 60, 'Beispiel GmbH', 20, true);
    s.put(50, 700, 'IBAN:');
    const iban = s.put(120, 700, 'DE89 3704 0044 0532 0130 00');
    s.put(50, 716, 'BIC:');
    const bic = s.put(120, 716, 'COBADEFFXXX');
    const vat = s.put(50, 732, 'USt-IdNr.: DE136695976');
    const doc = await extractLines(engine, s.lines);
    await expectPrinted(doc, 'bank.iban', 'DE89370400440532013000', iban);
    await expectPrinted(doc, 'bank.bic', 'COBADEFFXXX', bic);
    await expectPrinted(doc, 'document.supplierTaxId', 'DE136695976', { line: vat, part: 'DE136695976' });
  });

  it("takes the supplier's VAT id from its footer over the buyer's, printed in the buyer's block", async () => {
    const s = sheet();
    s.put(50, 60, 'Beispiel GmbH', 20, true);
    s.put(50, 130, 'Rechnung an:');
    s.put(50, 146, 'Kunden AG Mitte');
    s.put(50, 162, 'Hauptstrasse 5, 10115 Berlin');
    s.put(50, 178, 'USt-IdNr.: DE123456788');
    s.put(350, 130, 'Rechnungsnummer: R-2024-17');
    s.put(350, 500, 'Gesamtbetrag 119,00 EUR');
    const vat = s.put(50, 780, 'Beispiel GmbH - Amtsgericht Köln - USt-IdNr.: DE136695976', 8);
    const doc = await extractLines(engine, s.lines);
    await expectPrinted(doc, 'document.supplierTaxId', 'DE136695976', { line: vat, part: 'DE136695976' });
    // Alone, the buyer's id is answered only with doubt.
    const alone = sheet();
    alone.put(50, 60, 'Beispiel GmbH', 20, true);
    alone.put(50, 130, 'Rechnung an:');
    alone.put(50, 146, 'Kunden AG Mitte');
    alone.put(50, 162, 'USt-IdNr.: DE136695976');
    alone.put(350, 500, 'Gesamtbetrag 119,00 EUR');
    const onlyBuyer = await extractLines(engine, alone.lines);
    expect(onlyBuyer.field('document.supplierTaxId').confidence).toBeLessThan(0.5);
  });

  it("takes the supplier's French VAT id, never the customer's", async () => {
    const s = sheet();
    s.put(50, 60, 'Exemple SARL', 20, true);
    s.put(50, 150, 'Facture n°');
    s.put(200, 150, 'F-2017-0042');
    s.put(300, 200, 'N° TVA client : FR40303265045');
    const vat = s.put(50, 700, 'TVA : FR11999999998');
    const iban = s.put(50, 716, 'IBAN FR76 3000 6000 0112 3456 7890 189');
    const doc = await extractLines(engine, s.lines);
    await expectPrinted(doc, 'document.supplierTaxId', 'FR11999999998', { line: vat, part: 'FR11999999998' });
    const considered = (doc.field('document.supplierTaxId').candidates ?? []).map((c) => c.value);
    expect(considered).not.toContain('FR40303265045');
    await expectPrinted(doc, 'bank.iban', 'FR7630006000011234567890189', {
      line: iban,
      part: 'FR76 3000 6000 0112 3456 7890 189',
    });

    // With only the customer's id printed, the supplier's is unknown.
    const customerOnly = sheet();
    customerOnly.put(50, 60, 'Exemple SARL', 20, true);
    customerOnly.put(300, 200, 'N° TVA client : FR40303265045');
    const other = await extractLines(engine, customerOnly.lines);
    expect(other.value('document.supplierTaxId')).toBeNull();
    expect(other.field('document.supplierTaxId').confidence).toBe(0);
  });

  it('reads an Australian invoice: ABN, GST, BSB, account number, BPAY biller code and reference', async () => {
    const s = sheet();
    s.put(50, 60, 'ACME Supplies Pty Ltd', 20, true);
    const abn = s.put(50, 90, 'ABN 51 824 753 556');
    s.put(400, 60, 'TAX INVOICE', 16, true);
    s.put(50, 150, 'Invoice Number:');
    s.put(160, 150, 'INV-20931');
    s.put(300, 500, 'Subtotal');
    s.put(470, 500, '$200.00');
    s.put(300, 518, 'GST');
    const gst = s.put(470, 518, '$20.00');
    s.put(300, 536, 'Total');
    const total = s.put(470, 536, '$220.00');
    s.put(50, 620, 'Direct deposit:');
    const bsb = s.put(160, 620, 'BSB 062-000');
    const account = s.put(260, 620, 'Account No: 12345678');
    s.put(50, 650, 'BPAY');
    const biller = s.put(160, 650, 'Biller Code: 23796');
    const ref = s.put(300, 650, 'Ref: 1234 5678 90');
    const doc = await extractLines(engine, s.lines);
    await expectPrinted(doc, 'document.supplierABN', '51824753556', { line: abn, part: '51 824 753 556' });
    await expectPrinted(doc, 'invoice.tax', '20.00', gst);
    await expectPrinted(doc, 'invoice.total', '220.00', total);
    await expectPrinted(doc, 'bank.bsb', '062-000', { line: bsb, part: '062-000' });
    await expectPrinted(doc, 'bank.accountNo', '12345678', { line: account, part: '12345678' });
    await expectPrinted(doc, 'bpay.billerCode', '23796', { line: biller, part: '23796' });
    await expectPrinted(doc, 'bpay.crn', '1234567890', { line: ref, part: '1234 5678 90' });
    expect(doc.value('document.currency')).toBe('AUD');
    expect(doc.value('bank.iban')).toBeNull();
  });
});

describe('parties', () => {
  it('reads the supplier from the large name with a legal form at the top, its address and the customer', async () => {
    const s = sheet();
    const name = s.put(50, 60, 'ACME Supplies Pty Ltd', 20, true);
    const street = s.put(50, 90, '12 Harbour Street');
    const city = s.put(50, 105, 'Sydney NSW 2000');
    s.put(420, 60, 'INVOICE', 18, true);
    s.put(50, 150, 'Invoice No.');
    s.put(160, 150, 'INV-20931');
    s.put(50, 240, 'Bill To:');
    const customer = s.put(160, 240, 'Globex Corporation');
    s.put(350, 536, 'Total');
    s.put(480, 536, '1,100.00');
    const doc = await extractLines(engine, s.lines);
    await expectPrinted(doc, 'document.supplierName', 'ACME Supplies Pty Ltd', name);
    await expectPrinted(doc, 'document.supplierAddress', '12 Harbour Street, Sydney NSW 2000', [
      street,
      city,
    ]);
    await expectPrinted(doc, 'document.customerName', 'Globex Corporation', customer);
  });

  it.each([
    ['BILL TO', 'SHIP TO', 'Blue Ridge Family Dental, PLLC', 'Blue Ridge Family Dental'],
    ['Billing address', 'Delivery address', 'Eleanor Whitcombe', 'Sam Whitcombe'],
  ])(
    'reads the name under "%s" beside "%s", not the other heading nor the other block',
    async (bill, ship, name, other) => {
      const s = sheet();
      s.put(50, 60, 'Cedar Ridge Landscaping LLC', 16, true);
      s.put(50, 80, '4471 Old Mill Rd, Asheville, NC 28806');
      s.put(50, 192, bill, 8, true);
      s.put(210, 192, ship, 8, true);
      const customer = s.put(50, 205, name, 9);
      s.put(210, 205, other, 9);
      s.put(50, 217, '1290 Hendersonville Rd', 9);
      s.put(210, 217, '15 Sweeten Creek Rd', 9);
      s.put(350, 536, 'Total');
      s.put(480, 536, '1,100.00');
      const doc = await extractLines(engine, s.lines);
      await expectPrinted(doc, 'document.customerName', name, customer);
    },
  );

  it('reads the name under "Adressé à" beside the issuer\'s heading, a name holding "Hôtel" no contact line', async () => {
    const s = sheet();
    s.put(50, 60, 'Atelier Numérique Vercors', 16, true);
    s.put(50, 140, 'Émetteur', 8);
    s.put(310, 140, 'Adressé à', 8);
    s.put(54, 158, 'Atelier Numérique Vercors SARL', 9, true);
    const customer = s.put(314, 158, 'Hôtel Les Quatre Saisons SAS', 9, true);
    s.put(54, 170, '14 rue Paul Bert', 9);
    s.put(314, 170, '2 place du Marché', 9);
    s.put(54, 182, '69003 Lyon', 9);
    s.put(314, 182, '74000 Annecy', 9);
    s.put(350, 536, 'Total TTC');
    s.put(480, 536, '1 100,00');
    const doc = await extractLines(engine, s.lines);
    await expectPrinted(doc, 'document.customerName', 'Hôtel Les Quatre Saisons SAS', customer);
  });

  it('reads the recipient under a sender line whose parts commas set off', async () => {
    const s = sheet();
    s.put(57, 62, 'Eventtechnik Brandt & Söhne GmbH', 14, true);
    s.put(57, 78, 'Wandsbeker Chaussee 204', 8.5);
    s.put(57, 89, '22089 Hamburg', 8.5);
    s.put(57, 136, 'Eventtechnik Brandt & Söhne GmbH, Wandsbeker Chaussee 204, 22089 Hamburg', 6.5);
    const customer = s.put(57, 154, 'Hanseatische Ärztekammer-Akademie e.V.', 9.5);
    s.put(380, 154, 'Rechnungs-Nr.', 8.5);
    s.put(504, 154, '2024-0087', 8.5);
    s.put(57, 166, 'Veranstaltungsbüro', 9.5);
    s.put(57, 178, 'Weidestraße 122', 9.5);
    s.put(57, 190, '22083 Hamburg', 9.5);
    s.put(350, 536, 'Gesamtbetrag');
    s.put(480, 536, '1.100,00');
    const doc = await extractLines(engine, s.lines);
    await expectPrinted(doc, 'document.customerName', 'Hanseatische Ärztekammer-Akademie e.V.', customer);
  });

  it('reads a customer name printed under a "Bill To:" label that stands alone', async () => {
    const s = sheet();
    s.put(50, 60, 'ACME Supplies Pty Ltd', 20, true);
    s.put(50, 85, 'Level 3, 100 George Street');
    s.put(50, 100, 'Sydney NSW 2000');
    s.put(50, 180, 'Bill To:');
    const customer = s.put(50, 195, 'Globex Corporation');
    s.put(50, 210, '1 Example Road');
    s.put(50, 225, 'Melbourne VIC 3000');
    const doc = await extractLines(engine, s.lines);
    await expectPrinted(doc, 'document.customerName', 'Globex Corporation', customer);
    // The customer's address is not the supplier's.
    expect(doc.value('document.supplierName')).toBe('ACME Supplies Pty Ltd');
    expect(doc.value('document.supplierAddress')).toBe('Level 3, 100 George Street, Sydney NSW 2000');
  });

  it("reads the name under a customer label whose row holds another column's labelled value", async () => {
    const s = sheet();
    s.put(300, 40, 'Montertec N.V.', 14, true);
    s.put(300, 56, 'Narvenplein 221');
    s.put(300, 70, '3244 AB Varlin');
    s.put(50, 150, 'Klant:');
    const customer = s.put(50, 164, 'Fiselia B.V.');
    s.put(350, 164, 'Factuurnummer: FA-82068');
    s.put(50, 178, 'Mibleplein 151');
    s.put(350, 178, 'Factuurdatum: 14 februari 2024');
    s.put(350, 500, 'Totaalbedrag');
    s.put(480, 500, '912,36');
    const doc = await extractLines(engine, s.lines);
    await expectPrinted(doc, 'document.customerName', 'Fiselia B.V.', customer);
  });

  it.each([
    ['Intestatario:', 'Blebrezania S.r.l.'],
    ['Spett.le:', 'Varble Bledor Forniture'],
    ['Aan:', 'Lena Moreau'],
  ])('reads the customer under "%s"', async (label, name) => {
    const s = sheet();
    s.put(300, 40, 'Pedorix S.a.s.', 14, true);
    s.put(300, 56, 'Via Salin 221');
    s.put(50, 150, label);
    const customer = s.put(50, 164, name);
    s.put(50, 178, 'Via Zannar 110');
    s.put(50, 192, '27369 Ixselbre');
    const doc = await extractLines(engine, s.lines);
    await expectPrinted(doc, 'document.customerName', name, customer);
  });

  it('reads the recipient of a letter, printed without a label under the supplier', async () => {
    const s = sheet();
    s.put(320, 40, 'Garcia & Jansen Pty Ltd', 14, true);
    s.put(320, 56, '118 Loel Avenue');
    s.put(320, 70, 'Bleel LN1 9XY');
    s.put(50, 120, 'Credit Memo', 16, true);
    const customer = s.put(320, 150, 'Moreau & Dubois Ltd');
    s.put(320, 164, 'Alexandre Payet');
    s.put(320, 178, '170 Salo Street');
    s.put(320, 192, 'Ulan EF5 1XY');
    s.put(350, 500, 'Total');
    s.put(480, 500, '912.36');
    const doc = await extractLines(engine, s.lines);
    await expectPrinted(doc, 'document.customerName', 'Moreau & Dubois Ltd', customer);
    expect(doc.value('document.supplierName')).toBe('Garcia & Jansen Pty Ltd');
  });

  it('reads an address over a British postcode line, ending before a phone printed "Tél."', async () => {
    const s = sheet();
    s.put(320, 40, 'Garcia & Jansen Pty Ltd', 14, true);
    const street = s.put(320, 56, '118 Loel Avenue');
    const town = s.put(320, 70, 'Bleel LN1 9XY');
    s.put(320, 84, 'Tél. +46 493 78722');
    s.put(50, 150, 'Invoice No.: INV-1');
    s.put(350, 500, 'Total');
    s.put(480, 500, '912.36');
    const doc = await extractLines(engine, s.lines);
    await expectPrinted(doc, 'document.supplierAddress', '118 Loel Avenue, Bleel LN1 9XY', [street, town]);
  });

  it("reads the supplier's address from the footer line that repeats its name", async () => {
    const s = sheet();
    s.put(250, 40, 'Distor Druck GmbH & Co. KG', 14, true);
    s.put(330, 56, 'USt-ID: DE423554837');
    s.put(50, 150, 'Rechnung Nr.: INV-96502');
    s.put(350, 500, 'Endbetrag');
    s.put(480, 500, '6751,99');
    const footer = s.put(
      50,
      800,
      'Distor Druck GmbH & Co. KG - Seldelallee 208 - 49873 Olelul - USt-ID: DE423554837',
      8,
    );
    const doc = await extractLines(engine, s.lines);
    expect(doc.value('document.supplierName')).toBe('Distor Druck GmbH & Co. KG');
    await expectPrinted(doc, 'document.supplierAddress', 'Seldelallee 208 49873 Olelul', [
      { line: footer, part: 'Seldelallee 208' },
      { line: footer, part: '49873 Olelul' },
    ]);
  });

  it('reads a receipt header: name, registration number, address lines and GST id', async () => {
    const s = sheet();
    const name = s.put(150, 50, 'SYARIKAT MAJU JAYA SDN BHD', 14, true);
    s.put(150, 70, '(1152264-K)');
    const street = s.put(150, 85, 'NO. 12, JALAN BUNGA RAYA');
    const town = s.put(150, 100, 'TAMAN MELATI, 53100 KUALA LUMPUR');
    const gst = s.put(150, 115, 'GST ID: 001234567890');
    s.put(150, 160, 'Receipt No: CS00012345');
    s.put(350, 160, 'Date: 21/05/2018');
    s.put(150, 200, 'MILO 1KG');
    s.put(400, 200, 'RM 28.90');
    s.put(150, 216, 'ROTI GARDENIA');
    s.put(400, 216, 'RM 3.60');
    s.put(150, 250, 'TOTAL (RM)');
    const total = s.put(400, 250, '32.50');
    s.put(150, 266, 'GST 6%');
    const tax = s.put(400, 266, '1.84');
    const visa = s.put(150, 282, 'VISA');
    s.put(400, 282, '32.50');
    const doc = await extractLines(engine, s.lines, ['receipts:1']);
    await expectPrinted(doc, 'document.supplierName', 'SYARIKAT MAJU JAYA SDN BHD', name);
    await expectPrinted(
      doc,
      'document.supplierAddress',
      'NO. 12, JALAN BUNGA RAYA, TAMAN MELATI, 53100 KUALA LUMPUR',
      [street, town],
    );
    await expectPrinted(doc, 'document.supplierTaxId', '001234567890', { line: gst, part: '001234567890' });
    await expectPrinted(doc, 'receipt.total', '32.50', total);
    await expectPrinted(doc, 'receipt.tax', '1.84', tax);
    await expectPrinted(doc, 'receipt.paymentMethod', 'visa', visa);
    expect(doc.value('document.currency')).toBe('MYR');
    expect(doc.value('document.type')).toBe('receipt');
    expect(doc.value('document.date')).toBe('2018-05-21');
    expect(doc.value('document.referenceNo')).toBe('CS00012345');
  });
});

describe('document cues', () => {
  const currencyOf = async (amount: string, extra: string[] = []) => {
    const s = sheet();
    s.put(50, 60, 'Example Supplies Ltd', 20, true);
    extra.forEach((text, i) => s.put(50, 90 + 15 * i, text));
    s.put(300, 536, 'Total');
    s.put(470, 536, amount);
    const doc = await extractLines(engine, s.lines);
    const field = doc.field('document.currency');
    return {
      value: field.value,
      tokens: tokenTexts(doc.layer, field.boundingBox),
      confidence: field.confidence,
    };
  };

  it('reads the currency from codes and symbols printed with amounts', async () => {
    const eur = await currencyOf('1.469,13 EUR');
    expect(eur.value).toBe('EUR');
    expect(eur.tokens).toContain('EUR');
    const euro = await currencyOf('€ 605,00');
    expect(euro.value).toBe('EUR');
    expect(euro.tokens).toContain('€');
    const ringgit = await currencyOf('RM 32.50');
    expect(ringgit.value).toBe('MYR');
    expect(ringgit.tokens).toContain('RM');
    for (const c of [eur, euro, ringgit]) {
      expect(c.confidence).toBeGreaterThan(0.5);
      expect(c.confidence).toBeLessThanOrEqual(1);
    }
  });

  it("takes a currency's word that is also a word of text ('Fr.' Frau, 'Lei') only beside a number", async () => {
    // "Fr. Ing. Sandra Brunnbauer" is a person; the amounts are in euros.
    const frau = await currencyOf('605,00', ['Fr. Ing. Sandra Brunnbauer', 'USt-IdNr. DE811907980']);
    expect(frau.value).toBe('EUR');
    const lei = await currencyOf('1.712,00', ['Partita IVA 01234560789', "da Lei fornito all'indirizzo"]);
    expect(lei.value).toBe('EUR');
    // Beside an amount it is the currency.
    expect((await currencyOf('Fr. 120.00')).value).toBe('CHF');
    expect((await currencyOf('45,00 lei')).value).toBe('RON');
  });

  it('reads "$" as Australian dollars on a document with an ABN, US dollars otherwise', async () => {
    const aud = await currencyOf('$220.00', ['ABN 51 824 753 556']);
    expect(aud.value).toBe('AUD');
    expect(aud.tokens).toEqual(['$220.00']);
    expect((await currencyOf('$220.00')).value).toBe('USD');
  });

  it("reads euros from Spain's and Italy's tax numbers where no currency is printed", async () => {
    expect((await currencyOf('35,74', ['C.I.F. B46218830'])).value).toBe('EUR');
    expect((await currencyOf('25,60', ['C.F. e P.IVA 05882140824'])).value).toBe('EUR');
  });

  it('tells a credit note from an invoice and a receipt', async () => {
    const typeOf = async (title: string, products = ['invoices:2']) => {
      const s = sheet();
      s.put(50, 60, 'ACME Supplies Pty Ltd', 20, true);
      s.put(400, 60, title, 16, true);
      s.put(300, 536, 'Total');
      s.put(470, 536, '-150.00');
      return (await extractLines(engine, s.lines, products)).value('document.type');
    };
    expect(await typeOf('CREDIT NOTE')).toBe('credit_note');
    expect(await typeOf('Gutschrift')).toBe('credit_note');
    expect(await typeOf('TAX INVOICE')).toBe('invoice');
    expect(await typeOf('RECEIPT', ['receipts:1'])).toBe('receipt');
  });

  it('types a document by its own words and shape when both invoices and receipts are asked for', async () => {
    const both = ['invoices:2', 'receipts:1'];
    const typeOf = async (lines: string[], width = A4.width, height = A4.height) => {
      const s = sheet();
      lines.forEach((text, i) => s.put(20, 40 + 16 * i, text, i === 0 ? 14 : 9, i === 0));
      return (await extractPages(engine, [{ width, height, lines: s.lines }], both)).value('document.type');
    };
    // A German invoice (its words: "Rechnung"), not a receipt because receipts were asked for too.
    expect(await typeOf(['Taxiunternehmen TX GmbH', 'Rechnung Nr. TX-471102', 'Bruttosumme 18,08'])).toBe(
      'invoice',
    );
    // A till roll whose header says "TAX INVOICE" and whose foot says "CHANGE": a receipt by its shape.
    const till = ['KEDAI MAJU SDN BHD', 'TAX INVOICE', 'TOTAL 12.50', 'CASH 20.00', 'CHANGE 7.50'];
    expect(await typeOf(till, 220, 600)).toBe('receipt');
    // The same words on an A4 page: the invoice it says it is.
    expect(await typeOf(till)).toBe('invoice');
    // Neither word, on a till roll: a receipt; on A4: other.
    expect(await typeOf(['KEDAI MAJU', 'TOTAL 12.50'], 220, 600)).toBe('receipt');
    expect(await typeOf(['KEDAI MAJU', 'TOTAL 12.50'])).toBe('other');
  });

  it('keeps the sign of a credit note total', async () => {
    const s = sheet();
    s.put(50, 60, 'ACME Supplies Pty Ltd', 20, true);
    s.put(400, 60, 'CREDIT NOTE', 16, true);
    s.put(50, 150, 'Credit Note No.');
    const number = s.put(160, 150, 'CN-0042');
    s.put(300, 536, 'Total');
    const total = s.put(470, 536, '-150.00');
    const doc = await extractLines(engine, s.lines);
    await expectPrinted(doc, 'invoice.total', '-150.00', total);
    await expectPrinted(doc, 'document.referenceNo', 'CN-0042', number);
    expect(doc.field('invoice.total').valueNorm).toBe(-150);
  });

  it('reads a billing period: from, to and its number of days (bills:1)', async () => {
    const s = sheet();
    s.put(50, 60, 'Stadtwerke Musterstadt GmbH', 20, true);
    s.put(50, 150, 'Rechnungsdatum:');
    s.put(220, 150, '05.02.2024');
    const period = s.put(50, 168, 'Billing period: 01.01.2024 - 31.01.2024');
    s.put(300, 536, 'Gesamtbetrag');
    s.put(470, 536, '84,20 EUR');
    const doc = await extractLines(engine, s.lines, ['bills:1']);
    await expectPrinted(doc, 'bill.billingPeriodFromDate', '2024-01-01', {
      line: period,
      part: '01.01.2024',
    });
    await expectPrinted(doc, 'bill.billingPeriodToDate', '2024-01-31', { line: period, part: '31.01.2024' });
    await expectPrinted(
      doc,
      'bill.billingPeriodNumberOfDays',
      '31',
      { line: period, part: '01.01.2024 - 31.01.2024' },
      {
        tokens: ['01.01.2024', '31.01.2024'],
      },
    );
    expect(doc.field('bill.billingPeriodNumberOfDays').valueNorm).toBe(31);
    expect(doc.value('document.date')).toBe('2024-02-05');
    expect(doc.value('document.type')).toBe('bill');
  });
});

describe('line items', () => {
  const header: Array<[number, string]> = [
    [50, 'Description'],
    [300, 'Qty'],
    [360, 'Unit Price'],
    [470, 'Amount'],
  ];
  const cellValues = (table: TableValue) => table.rows.map((r) => r.map((c) => c?.value ?? null));
  /** A sheet with the supplier's name and a heading row of `columns` ([x, text]) in bold at y 200. */
  const tableSheet = (columns: ReadonlyArray<readonly [number, string]>) => {
    const s = sheet();
    s.put(50, 60, 'ACME Supplies Pty Ltd', 20, true);
    for (const [x, text] of columns) s.put(x, 200, text, 11, true);
    return s;
  };

  /** Items at y 220, 236, ...: [description, qty, price, amount]. */
  const putItems = (s: ReturnType<typeof sheet>, items: ReadonlyArray<readonly string[]>, y = 220) =>
    items.forEach(([d, q, p, a], i) => {
      s.put(50, y + 16 * i, d!);
      s.put(300, y + 16 * i, q!);
      s.put(360, y + 16 * i, p!);
      s.put(470, y + 16 * i, a!);
    });
  const descriptions = (doc: Awaited<ReturnType<typeof extractLines>>) =>
    cellValues(doc.value('invoice.lineitems') as TableValue).map((r) => r[0]);

  it.each([
    [['Beskrivelse', 'Antal', 'Enhedspris', 'Beløb'], 'Danish'],
    [['Benämning', 'Antal', 'Á-pris', 'Belopp'], 'Swedish'],
    [['Descrição', 'Qtd.', 'Preço', 'Valor'], 'Portuguese'],
    [['Nazwa', 'Ilosc', 'Cena', 'Wartosc'], 'Polish, printed without its accents'],
  ])('types the columns of %j (%s)', async (headings) => {
    const s = tableSheet(headings.map((h, i) => [[50, 300, 360, 470][i]!, h] as const));
    putItems(s, [['Projektering', '12', '950,00', '11.400,00']]);
    const doc = await extractLines(engine, s.lines);
    const table = doc.value('invoice.lineitems') as TableValue;
    expect(table.types).toEqual(['description', 'quantity', 'unitPrice', 'amount']);
    expect(descriptions(doc)).toEqual(['Projektering']);
  });

  it('reads on past a group total at the right ("Compute total  48.00") to the next group', async () => {
    const s = tableSheet(header);
    putItems(s, [
      ['VM standard-4', '10', '2.40', '24.00'],
      ['VM standard-8', '5', '4.80', '24.00'],
    ]);
    s.put(330, 252, 'Compute total', 10, true);
    s.put(470, 252, '48.00', 10, true);
    s.put(50, 270, 'Storage', 11, true);
    putItems(s, [['SSD disk', '100', '0.12', '12.00']], 286);
    s.put(360, 330, 'Total');
    s.put(470, 330, '60.00');
    const doc = await extractLines(engine, s.lines);
    expect(descriptions(doc)).toEqual(['VM standard-4', 'VM standard-8', 'SSD disk']);
  });

  it("takes a page's carried total, a labelled note and a note beside the totals for no item", async () => {
    const s = tableSheet(header);
    s.put(300, 214, 'Brought forward', 10, true);
    s.put(470, 214, '2,054.34', 10, true);
    putItems(s, [['Masonry drill bit', '50', '2.45', '122.50']], 232);
    s.put(50, 262, 'Terms: 30 days from invoice date.', 8);
    s.put(50, 290, 'Thank you for your business! Plants are taxable', 8);
    s.put(330, 290, 'SUBTOTAL');
    s.put(470, 290, '2,176.84');
    const doc = await extractLines(engine, s.lines);
    expect(descriptions(doc)).toEqual(['Masonry drill bit']);
  });

  it('reads items under a heading with a second line holding a stop word ("(excl. VAT)")', async () => {
    const s = tableSheet(header);
    s.put(360, 212, '(excl. VAT)', 8);
    s.put(470, 212, '(excl. VAT)', 8);
    putItems(s, [['Garden bench', '1', '124.99', '124.99']], 228);
    const doc = await extractLines(engine, s.lines);
    expect(descriptions(doc)).toEqual(['Garden bench']);
  });

  it('reads "Prezzo unit." as one price column and ends the table at "Riepilogo IVA"', async () => {
    const s = tableSheet([
      [50, 'Descrizione'],
      [300, 'Quantità'],
      [360, 'Prezzo unit.'],
      [470, 'Importo'],
    ]);
    putItems(s, [
      ['Flangia inox DN80', '24,00', '46,80', '1.123,20'],
      ['Spese di trasporto', '1,00', '55,00', '55,00'],
    ]);
    s.put(50, 270, 'Riepilogo IVA', 9, true);
    s.put(360, 270, 'Totale imponibile');
    s.put(470, 270, '1.178,20');
    const doc = await extractLines(engine, s.lines);
    const table = doc.value('invoice.lineitems') as TableValue;
    expect(table.headers).toContain('Prezzo unit.');
    expect(table.types![table.headers.indexOf('Prezzo unit.')]).toBe('unitPrice');
    expect(descriptions(doc)).toEqual(['Flangia inox DN80', 'Spese di trasporto']);
  });

  it('counts a heading of several words as one ("Associate – Position (Pay Type)"), and "Charges" as the amount', async () => {
    const staffing = tableSheet([
      [40, 'Emp ID'],
      [88, 'Associate – Position (Pay Type)'],
      [405, 'Hours'],
      [462, 'Bill Rate'],
      [540, 'Amount'],
    ]);
    staffing.put(40, 228, '10482');
    staffing.put(88, 228, 'Ortiz, Daniel – Forklift Operator (REG)');
    staffing.put(408, 228, '40.00');
    staffing.put(474, 228, '24.75');
    staffing.put(540, 228, '990.00');
    const timesheet = (await extractLines(engine, staffing.lines)).value('invoice.lineitems') as TableValue;
    expect(timesheet.rows).toHaveLength(1);
    expect(timesheet.types).toEqual([null, 'description', 'quantity', 'unitPrice', 'amount']);
    const statement = tableSheet([
      [40, 'Date'],
      [102, 'Code'],
      [140, 'Description of Service'],
      [340, 'Charges'],
      [415, 'Ins. Paid'],
      [480, 'Adjust.'],
      [530, 'Patient Resp.'],
    ]);
    for (const [x, text] of [
      [40, '02/12/2024'],
      [102, '99214'],
      [140, 'Office visit, est. patient'],
      [346, '245.00'],
      [419, '-156.80'],
      [483, '-48.20'],
      [551, '40.00'],
    ] as const)
      statement.put(x, 228, text);
    const charges = (await extractLines(engine, statement.lines)).value('invoice.lineitems') as TableValue;
    expect(charges.rows).toHaveLength(1);
    expect(charges.types![charges.headers.indexOf('Charges')]).toBe('amount');
  });

  it('reads the headings of a bilingual table ("Qté/Qty", "Prix/Rate", "Montant/Amount")', async () => {
    const s = tableSheet([
      [40, 'Description'],
      [364, 'Qté/Qty'],
      [443, 'Prix/Rate'],
      [506, 'Montant/Amount'],
    ]);
    putItems(s, [['Refonte d’identité visuelle / Brand identity refresh', '1', '7,500.00', '7,500.00']]);
    const table = (await extractLines(engine, s.lines)).value('invoice.lineitems') as TableValue;
    expect(table.types).toEqual(['description', 'quantity', 'unitPrice', 'amount']);
    expect(table.rows).toHaveLength(1);
  });

  it("takes no row of JavaScript's object prototype names for a header", async () => {
    const s = sheet();
    s.put(50, 60, 'ACME Supplies Pty Ltd', 20, true);
    s.put(50, 200, 'constructor', 11, true);
    s.put(300, 200, '__proto__', 11, true);
    s.put(470, 200, 'Qty', 11, true);
    s.put(50, 220, 'Widgets, large');
    s.put(300, 220, '4');
    s.put(470, 220, '120.00');
    const doc = await extractLines(engine, s.lines);
    expect(doc.value('invoice.lineitems')).toBeNull();
  });

  it('reads the header and rows, joining a description printed over two lines', async () => {
    const s = sheet();
    s.put(50, 60, 'ACME Supplies Pty Ltd', 20, true);
    for (const [x, text] of header) s.put(x, 200, text, 11, true);
    s.put(50, 220, 'Widgets, large');
    s.put(300, 220, '4');
    s.put(360, 220, '30.00');
    s.put(470, 220, '120.00');
    const first = s.put(50, 238, 'Installation and setup');
    s.put(300, 238, '2');
    s.put(360, 238, '45.00');
    const amount = s.put(470, 238, '90.00');
    const second = s.put(50, 252, 'on customer premises');
    s.put(50, 270, 'Delivery');
    s.put(300, 270, '1');
    s.put(360, 270, '30.00');
    s.put(470, 270, '30.00');
    s.put(360, 320, 'Subtotal');
    s.put(470, 320, '240.00');
    s.put(360, 338, 'Total');
    s.put(470, 338, '240.00');
    const doc = await extractLines(engine, s.lines);
    const field = doc.field('invoice.lineitems');
    const table = field.value as TableValue;
    expect(table.headers).toEqual(['Description', 'Qty', 'Unit Price', 'Amount']);
    // Each column's role, whatever its heading says it in words.
    expect(table.types).toEqual(['description', 'quantity', 'unitPrice', 'amount']);
    expect(cellValues(table)).toEqual([
      ['Widgets, large', '4', '30.00', '120.00'],
      ['Installation and setup on customer premises', '2', '45.00', '90.00'],
      ['Delivery', '1', '30.00', '30.00'],
    ]);
    // A cell's box points at its own tokens, where they were drawn.
    const amountCell = table.rows[1]![3]!;
    expect(tokenTexts(doc.layer, amountCell.boundingBox)).toEqual(['90.00']);
    expectBoxOver(amountCell.boundingBox, await drawnUnion(amount), 1, 'amount cell');
    const description = table.rows[1]![0]!;
    expect(tokenTexts(doc.layer, description.boundingBox)).toEqual([
      'Installation',
      'and',
      'setup',
      'on',
      'customer',
      'premises',
    ]);
    expectBoxOver(description.boundingBox, await drawnUnion([first, second]), 1, 'description cell');
    expect(field.confidence).toBeGreaterThan(0.5);
    expect(field.confidence).toBeLessThanOrEqual(1);
    // The totals under the table are not items.
    expect(doc.value('invoice.total')).toBe('240.00');
  });

  it('continues a table on the next page under a repeated header', async () => {
    const one = sheet();
    one.put(50, 60, 'ACME Supplies Pty Ltd', 20, true);
    for (const [x, text] of header) one.put(x, 200, text, 11, true);
    one.put(50, 220, 'Widgets, large');
    one.put(300, 220, '4');
    one.put(360, 220, '30.00');
    one.put(470, 220, '120.00');
    one.put(50, 238, 'Gadgets, small');
    one.put(300, 238, '10');
    one.put(360, 238, '2.50');
    one.put(470, 238, '25.00');
    one.put(250, 800, 'Continued on page 2');
    const two = sheet();
    for (const [x, text] of header) two.put(x, 60, text, 11, true);
    two.put(50, 80, 'Delivery');
    two.put(300, 80, '1');
    two.put(360, 80, '30.00');
    const delivery = two.put(470, 80, '30.00');
    two.put(360, 140, 'Total');
    const total = two.put(470, 140, '175.00');
    const doc = await extractPages(engine, [{ lines: one.lines }, { lines: two.lines }]);
    const table = doc.value('invoice.lineitems') as TableValue;
    expect(table.headers).toEqual(['Description', 'Qty', 'Unit Price', 'Amount']);
    expect(cellValues(table)).toEqual([
      ['Widgets, large', '4', '30.00', '120.00'],
      ['Gadgets, small', '10', '2.50', '25.00'],
      ['Delivery', '1', '30.00', '30.00'],
    ]);
    const cell = table.rows[2]![3]!;
    expect(tokenTexts(doc.layer, cell.boundingBox)).toEqual(['30.00']);
    expectBoxOver(cell.boundingBox, await drawnUnion(delivery), 2, 'page 2 cell');
    await expectPrinted(doc, 'invoice.total', '175.00', total, { pageNum: 2 });
  });

  it('tells the columns by their arithmetic, not by what their headings say', async () => {
    // "Feld" (a word no list knows) prints the quantity; "Price" prints the amount; "Total" the unit
    // price: only quantity x unit price = amount tells them apart.
    const s = tableSheet([
      [50, 'Item'],
      [250, 'Feld'],
      [310, 'Total'],
      [380, 'VAT'],
      [470, 'Price'],
    ]);
    s.put(50, 220, 'Widgets, large');
    s.put(250, 220, '4');
    s.put(310, 220, '30.00');
    s.put(380, 220, '20%');
    s.put(470, 220, '120.00');
    s.put(50, 238, 'Gadgets');
    s.put(250, 238, '3');
    s.put(310, 238, '2.50');
    s.put(380, 238, '20%');
    s.put(470, 238, '7.50');
    // A totals line in the table's right half, in words no list knows, ends the items.
    s.put(300, 262, 'Somme nette');
    s.put(470, 262, '127.50');
    s.put(300, 280, 'Total');
    s.put(470, 280, '153.00');
    const doc = await extractLines(engine, s.lines);
    const table = doc.value('invoice.lineitems') as TableValue;
    expect(table.headers).toEqual(['Item', 'Feld', 'Total', 'VAT', 'Price']);
    expect(table.types).toEqual(['description', 'quantity', 'unitPrice', 'taxRate', 'amount']);
    expect(cellValues(table)).toEqual([
      ['Widgets, large', '4', '30.00', '20%', '120.00'],
      ['Gadgets', '3', '2.50', '20%', '7.50'],
    ]);
  });

  it('reads on past a group subtotal, and ends at a tax summary line or another table’s headings', async () => {
    const s = tableSheet([
      [50, 'Description'],
      [300, 'Qty'],
      [380, 'Price'],
      [470, 'Amount'],
    ]);
    const item = (y: number, name: string, qty: string, price: string, amount: string) => {
      s.put(50, y, name);
      s.put(300, y, qty);
      s.put(380, y, price);
      s.put(470, y, amount);
    };
    s.put(50, 218, '--- Furniture ---');
    item(236, 'Office Chair', '1', '70.00', '70.00');
    item(254, 'Desk Lamp', '2', '21.00', '42.00');
    // The group's subtotal stands right, under the amounts; a heading and more items follow.
    s.put(400, 272, 'Subtotal');
    s.put(470, 272, '112.00');
    s.put(50, 290, '--- Food ---');
    item(308, 'Olive Oil', '3', '5.00', '15.00');
    // A French tax summary under the table: its first word ends the items.
    s.put(50, 330, 'Taxe');
    s.put(150, 330, 'Base');
    s.put(250, 330, 'Montant');
    s.put(400, 330, 'Total HT');
    s.put(470, 330, '127.00');
    const doc = await extractLines(engine, s.lines);
    expect(cellValues(doc.value('invoice.lineitems') as TableValue)).toEqual([
      ['Office Chair', '1', '70.00', '70.00'],
      ['Desk Lamp', '2', '21.00', '42.00'],
      ['Olive Oil', '3', '5.00', '15.00'],
    ]);

    // A second table's headings under the items (charges and allowances): not the last item's words.
    const t = tableSheet([
      [50, 'Description'],
      [300, 'Qty'],
      [380, 'Price'],
      [470, 'Amount'],
    ]);
    t.put(50, 218, 'Steel coil');
    t.put(300, 218, '10');
    t.put(380, 218, '85.00');
    t.put(470, 218, '850.00');
    t.put(50, 236, 'Allowance reason');
    t.put(300, 236, 'Qty');
    t.put(380, 236, 'Price');
    t.put(470, 236, 'Value');
    t.put(50, 254, 'Allowance for stock');
    t.put(300, 254, '10');
    t.put(470, 254, '-100.00');
    const other = await extractLines(engine, t.lines);
    expect(cellValues(other.value('invoice.lineitems') as TableValue)).toEqual([
      ['Steel coil', '10', '85.00', '850.00'],
    ]);
  });

  it('keeps a description that runs on under the next heading in the description', async () => {
    const s = tableSheet([
      [50, 'Qty'],
      [110, 'Product'],
      [250, 'VAT'],
      [330, 'Price'],
      [470, 'Total'],
    ]);
    s.put(50, 218, '2');
    // "invoice" lies under the VAT heading, close after the description's other words.
    s.put(110, 218, 'Design work for the');
    s.put(206, 218, 'invoice');
    s.put(262, 218, '7%');
    s.put(330, 218, '80.00');
    s.put(470, 218, '160.00');
    // Its second line runs on under the next columns.
    s.put(110, 234, 'and the letterhead of the');
    s.put(235, 234, 'company');
    const doc = await extractLines(engine, s.lines);
    expect(cellValues(doc.value('invoice.lineitems') as TableValue)).toEqual([
      ['2', 'Design work for the invoice and the letterhead of the company', '7%', '80.00', '160.00'],
    ]);
  });

  it('reads headings printed over several lines as one column each', async () => {
    const s = sheet();
    s.put(50, 60, 'ACME Supplies GmbH', 20, true);
    // The middle line of the headings, and headings stacked in their cells above and below it: an
    // article number over four lines, a unit price over two, the line's amount over four lines and
    // beyond the middle line's last heading.
    s.put(40, 206, 'Pos', 10, true);
    s.put(70, 190, 'Art-Nr-Kunde', 10, true);
    s.put(70, 201, 'Art-Nr-Lief.', 10, true);
    s.put(70, 212, 'Art-Nr', 10, true);
    s.put(70, 223, '(Art)', 10, true);
    s.put(160, 206, 'Beschreibung', 10, true);
    s.put(270, 201, 'Einzel-', 10, true);
    s.put(270, 212, 'preis', 10, true);
    s.put(350, 206, 'Menge', 10, true);
    s.put(480, 190, 'Positions-', 10, true);
    s.put(480, 201, 'betrag', 10, true);
    s.put(480, 212, 'ohne', 10, true);
    s.put(480, 223, 'USt.', 10, true);
    s.put(40, 245, '1', 10);
    s.put(70, 245, 'CO-123', 10);
    s.put(160, 245, 'Stahlcoil', 10);
    s.put(270, 245, '85,00', 10);
    s.put(350, 245, '10', 10);
    s.put(480, 245, '850,00', 10);
    s.put(350, 300, 'Gesamtbetrag', 10);
    s.put(480, 300, '850,00', 10);
    const doc = await extractLines(engine, s.lines);
    const table = doc.value('invoice.lineitems') as TableValue;
    expect(table.headers).toEqual([
      'Pos',
      'Art-Nr-Kunde Art-Nr-Lief. Art-Nr (Art)',
      'Beschreibung',
      'Einzel- preis',
      'Menge',
      'Positions- betrag ohne USt.',
    ]);
    expect(table.types).toEqual(['code', 'code', 'description', 'unitPrice', 'quantity', 'amount']);
    expect(cellValues(table)).toEqual([['1', 'CO-123', 'Stahlcoil', '85,00', '10', '850,00']]);
  });

  it('keeps a quantity heading apart from a price heading printed close to it, and a number grouped by spaces whole', async () => {
    const s = tableSheet([
      [50, 'Descripción'],
      [300, 'Cant.'],
      [332, 'Precio unitario'],
      [470, 'Importe'],
    ]);
    s.put(50, 220, 'Instalación');
    s.put(306, 220, '12');
    s.put(350, 220, '152,47');
    s.put(470, 220, '1');
    s.put(478, 220, '829,64');
    const doc = await extractLines(engine, s.lines);
    const table = doc.value('invoice.lineitems') as TableValue;
    expect(table.headers).toEqual(['Descripción', 'Cant.', 'Precio unitario', 'Importe']);
    expect(table.types).toEqual(['description', 'quantity', 'unitPrice', 'amount']);
    expect(cellValues(table)).toEqual([['Instalación', '12', '152,47', '1\u00a0829,64']]);
  });

  it("keeps an item's details, notes and charges out of its description and out of the rows", async () => {
    const s = tableSheet([
      [40, 'Pos'],
      [80, 'Description'],
      [300, 'Qty'],
      [380, 'Price'],
      [470, 'Amount'],
    ]);
    s.put(40, 220, '1');
    s.put(80, 220, 'Steel coil');
    s.put(300, 220, '10');
    s.put(380, 220, '85.00');
    s.put(470, 220, '850.00');
    // Details right under it: its article number, a number in one column, a labelled value.
    s.put(80, 232, 'Art. 4711');
    s.put(380, 232, 'per 1 pc');
    s.put(80, 244, 'Gross price :');
    s.put(380, 244, '90.00');
    // After a gap: a note, and the item's charges (numbers, but no position of their own).
    s.put(80, 270, 'Material certificate X-234 to ISO 9001');
    s.put(80, 290, 'Allowance stock goods');
    s.put(300, 290, '10');
    s.put(470, 290, '-100.00');
    s.put(40, 310, '2');
    s.put(80, 310, 'Steel sheet');
    s.put(300, 310, '2');
    s.put(380, 310, '50.00');
    s.put(470, 310, '100.00');
    s.put(80, 322, 'galvanised');
    s.put(380, 360, 'Total');
    s.put(470, 360, '850.00');
    const doc = await extractLines(engine, s.lines);
    expect(cellValues(doc.value('invoice.lineitems') as TableValue)).toEqual([
      ['1', 'Steel coil Art. 4711', '10', '85.00 per 1 pc 90.00', '850.00'],
      ['2', 'Steel sheet galvanised', '2', '50.00', '100.00'],
    ]);
  });

  it('gives no table when no header of known column words is printed', async () => {
    const s = sheet();
    s.put(50, 60, 'ACME Supplies Pty Ltd', 20, true);
    s.put(50, 220, 'Widgets, large');
    s.put(470, 220, '120.00');
    const doc = await extractLines(engine, s.lines);
    expect(doc.field('invoice.lineitems')).toMatchObject({ value: null, confidence: 0, boundingBox: null });
  });
});

describe('the result', () => {
  const invoice = () => {
    const s = sheet();
    s.put(50, 60, 'ACME Supplies Pty Ltd', 20, true);
    s.put(50, 150, 'Invoice No.');
    s.put(160, 150, 'INV-20931');
    s.put(50, 168, 'Invoice Date:');
    s.put(160, 168, '14 March 2024');
    s.put(350, 536, 'Total');
    s.put(480, 536, '1,100.00');
    return s.lines;
  };

  it('has every field of every selected fieldset, in catalogue order, each exactly the spec object', async () => {
    const { fileId } = await readPages(engine, [{ lines: invoice() }]);
    for (const product of ['invoices:1', 'invoices:2', 'receipts:1', 'bills:1']) {
      const result = await engine.extract(fileId, [product]);
      expect(result.fields.map((f) => f.name)).toEqual(fieldsOf([product]).map((f) => f.name));
      for (const field of result.fields) {
        expect(Object.keys(field).sort()).toEqual(['boundingBox', 'confidence', 'name', 'value']);
        expect(field.confidence).toBeGreaterThanOrEqual(0);
        expect(field.confidence).toBeLessThanOrEqual(1);
        if (field.value === null) expect(field).toMatchObject({ confidence: 0, boundingBox: null });
        else expect(field.confidence).toBeGreaterThan(0);
      }
    }
    expect(fieldsOf(['bills:1']).map((f) => f.name)).toContain('bill.billingPeriodNumberOfDays');
  });

  it('gives null with confidence 0 for fields not printed, and the printed ones through engine.extract', async () => {
    const { fileId, layer } = await readPages(engine, [{ lines: invoice() }]);
    const result = await engine.extract(fileId, ['invoices:2']);
    const byName = new Map(result.fields.map((f) => [f.name, f]));
    for (const name of [
      'bank.iban',
      'bank.bic',
      'bank.bsb',
      'bank.accountNo',
      'bpay.billerCode',
      'bpay.crn',
      'document.supplierABN',
      'document.supplierTaxId',
      'invoice.purchaseOrderNo',
      'invoice.amountPaid',
      'invoice.paymentDate',
      'invoice.lineitems',
    ]) {
      expect(byName.get(name), name).toEqual({ name, value: null, confidence: 0, boundingBox: null });
    }
    expect(byName.get('document.referenceNo')?.value).toBe('INV-20931');
    expect(byName.get('document.date')?.value).toBe('2024-03-14');
    expect(byName.get('invoice.total')?.value).toBe('1100.00');
    expect(tokenTexts(layer, byName.get('invoice.total')!.boundingBox)).toEqual(['1,100.00']);
    // The same as extracting from the token layer directly.
    const verbose = await engine.extract(fileId, ['invoices:2'], { verbose: true });
    expect(verbose.fields.map((f) => [f.name, f.value])).toEqual(result.fields.map((f) => [f.name, f.value]));
    expect(verbose.fields.find((f) => f.name === 'invoice.total')?.text).toBe('1,100.00');
  });
});
