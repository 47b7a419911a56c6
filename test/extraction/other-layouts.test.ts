/**
 * Layouts of sources the development corpus has few or none of, drawn here from what is known to go
 * wrong on documents nobody tuned for (issue 15's classes of errors): US and Indian invoices, e-invoice
 * renderings with seller and buyer blocks, hotel folios, VAT summary tables, carried totals, several
 * dates on a page; US, German, French and Dutch receipts. Every value is checked; the documents are invented, their ids valid where ids
 * carry a check (GSTIN, German VAT ids).
 */
import { afterAll, describe, expect, it } from 'vitest';
import {
  extractLines,
  extractPages,
  sheet,
  textOnlyEngine,
  type Extracted,
} from '../helpers/make-invoices.js';
import { probePages, probeSet, readProbe as readProbeCase } from '../helpers/probe-cases.js';
import type { TableValue } from '../../src/extraction/types.js';

const engine = textOnlyEngine();
afterAll(() => engine.close());

function expectValues(doc: Extracted, want: Record<string, string>): void {
  const got = Object.fromEntries(Object.keys(want).map((name) => [name, doc.value(name)]));
  expect(got).toEqual(want);
}

describe('layouts of other sources', () => {
  it('a US invoice: the name beside a logo caption, Bill To and Ship To, Balance Due, bank and contact headings', async () => {
    const s = sheet();
    s.put(50, 50, 'LOGO', 10);
    s.put(380, 60, 'Brightline Media LLC', 18, true);
    s.put(380, 80, '1450 Market Street, Suite 300');
    s.put(380, 94, 'San Francisco, CA 94103');
    s.put(50, 140, 'INVOICE', 22, true);
    s.put(50, 180, 'Bill To', 11, true);
    s.put(300, 180, 'Ship To', 11, true);
    s.put(50, 196, 'Harbor Freight Partners Inc.');
    s.put(300, 196, 'Harbor Freight Partners Inc.');
    s.put(50, 210, '77 Pier Avenue');
    s.put(300, 210, 'Dock 4, 77 Pier Avenue');
    s.put(50, 224, 'Seattle, WA 98101');
    s.put(300, 224, 'Seattle, WA 98101');
    s.put(420, 140, 'Invoice #');
    s.put(500, 140, 'BM-10482');
    s.put(420, 154, 'Date');
    s.put(500, 154, '03/14/2024');
    s.put(420, 168, 'P.O. #');
    s.put(500, 168, '4471-A');
    s.put(420, 182, 'Due Date');
    s.put(500, 182, '04/13/2024');
    s.put(50, 270, 'Description', 11, true);
    s.put(330, 270, 'Qty', 11, true);
    s.put(400, 270, 'Rate', 11, true);
    s.put(490, 270, 'Amount', 11, true);
    s.put(50, 290, 'Video production');
    s.put(330, 290, '10');
    s.put(400, 290, '150.00');
    s.put(490, 290, '1,500.00');
    s.put(50, 306, 'Editing');
    s.put(330, 306, '5');
    s.put(400, 306, '90.00');
    s.put(490, 306, '450.00');
    s.put(400, 340, 'Subtotal');
    s.put(490, 340, '1,950.00');
    s.put(400, 356, 'Sales Tax (8.5%)');
    s.put(490, 356, '165.75');
    s.put(400, 372, 'Total');
    s.put(490, 372, '2,115.75');
    s.put(400, 388, 'Balance Due');
    s.put(490, 388, '$2,115.75');
    s.put(50, 440, 'Bank Details', 11, true);
    s.put(50, 456, 'Account Name: Brightline Media LLC');
    s.put(50, 470, 'Routing: 121000248  Account: 4471029384');
    s.put(50, 520, 'Contact us', 11, true);
    s.put(50, 536, 'billing@brightline.example  (415) 555-0134');
    expectValues(await extractLines(engine, s.lines, ['invoices:2']), {
      'document.supplierName': 'Brightline Media LLC',
      'document.customerName': 'Harbor Freight Partners Inc.',
      'document.referenceNo': 'BM-10482',
      'document.date': '2024-03-14',
      'invoice.dueDate': '2024-04-13',
      'invoice.subTotal': '1950.00',
      'invoice.tax': '165.75',
      'invoice.total': '2115.75',
      'invoice.purchaseOrderNo': '4471-A',
      'document.currency': 'USD',
    });
  });

  it("an Indian GST invoice: GSTIN, taxable value, IGST, Grand Total, the buyer's GSTIN in its block", async () => {
    const s = sheet();
    s.put(220, 50, 'TAX INVOICE', 14, true);
    s.put(50, 80, 'Sunrise Textiles Pvt. Ltd.', 16, true);
    s.put(50, 98, 'Plot 14, MIDC Industrial Area, Andheri East');
    s.put(50, 112, 'Mumbai, Maharashtra 400093');
    s.put(50, 126, 'GSTIN: 27AAPFU0939F1ZV');
    s.put(350, 80, 'Invoice No: STL/2024/0193');
    s.put(350, 94, 'Invoice Date: 15-03-2024');
    s.put(350, 108, 'Place of Supply: Karnataka (29)');
    s.put(50, 160, 'Billed To:', 11, true);
    s.put(50, 176, 'Kaveri Retail LLP');
    s.put(50, 190, '12 MG Road, Bengaluru 560001');
    s.put(50, 204, 'GSTIN: 29AAGCR4375J1ZU');
    s.put(50, 240, 'Sl', 10, true);
    s.put(80, 240, 'Description of Goods', 10, true);
    s.put(260, 240, 'HSN/SAC', 10, true);
    s.put(320, 240, 'Qty', 10, true);
    s.put(370, 240, 'Rate', 10, true);
    s.put(470, 240, 'Amount', 10, true);
    s.put(50, 256, '1');
    s.put(80, 256, 'Cotton fabric, 40s');
    s.put(260, 256, '5208');
    s.put(320, 256, '200');
    s.put(370, 256, '250.00');
    s.put(470, 256, '50,000.00');
    s.put(370, 290, 'Taxable Value');
    s.put(470, 290, '50,000.00');
    s.put(370, 306, 'IGST @ 5%');
    s.put(470, 306, '2,500.00');
    s.put(370, 322, 'Grand Total');
    s.put(470, 322, 'Rs. 52,500.00');
    s.put(50, 350, 'Amount in words: Fifty Two Thousand Five Hundred Rupees Only');
    s.put(50, 380, 'For Sunrise Textiles Pvt. Ltd.');
    s.put(50, 410, 'Authorised Signatory');
    expectValues(await extractLines(engine, s.lines, ['invoices:2']), {
      'document.supplierName': 'Sunrise Textiles Pvt. Ltd.',
      'document.supplierTaxId': '27AAPFU0939F1ZV',
      'document.customerName': 'Kaveri Retail LLP',
      'document.referenceNo': 'STL/2024/0193',
      'document.date': '2024-03-15',
      'invoice.subTotal': '50000.00',
      'invoice.tax': '2500.00',
      'invoice.total': '52500.00',
      'document.currency': 'INR',
    });
  });

  it("an Indian invoice with equal CGST and SGST lines and no subtotal line, the buyer's GSTIN printed first", async () => {
    const s = sheet();
    s.put(50, 50, 'Greenleaf Organics Private Limited', 16, true);
    s.put(50, 68, '#45, 3rd Cross, Indiranagar, Bengaluru 560038');
    s.put(400, 50, 'TAX INVOICE', 14, true);
    s.put(50, 110, 'Buyer (Bill to)', 10, true);
    s.put(50, 124, 'Nandi Foods');
    s.put(50, 138, 'GSTIN/UIN: 29AAGCR4375J1ZU');
    s.put(350, 110, 'Invoice No.');
    s.put(450, 110, 'GO-5521');
    s.put(350, 124, 'Dated');
    s.put(450, 124, '2-Apr-2024');
    s.put(50, 180, 'Description', 10, true);
    s.put(300, 180, 'Quantity', 10, true);
    s.put(380, 180, 'Rate', 10, true);
    s.put(470, 180, 'Amount', 10, true);
    s.put(50, 196, 'Organic jaggery 1kg');
    s.put(300, 196, '100');
    s.put(380, 196, '80.00');
    s.put(470, 196, '8,000.00');
    s.put(380, 230, 'CGST 2.5%');
    s.put(470, 230, '200.00');
    s.put(380, 246, 'SGST 2.5%');
    s.put(470, 246, '200.00');
    s.put(380, 262, 'Total');
    s.put(470, 262, '8,400.00');
    s.put(50, 300, "Company's GSTIN/UIN: 29AACCG1234K1ZN");
    s.put(50, 314, "Company's Bank Details");
    s.put(50, 328, 'Bank Name: Canara Bank');
    expectValues(await extractLines(engine, s.lines, ['invoices:2']), {
      'document.supplierName': 'Greenleaf Organics Private Limited',
      'document.supplierTaxId': '29AACCG1234K1ZN',
      'document.customerName': 'Nandi Foods',
      'document.referenceNo': 'GO-5521',
      'document.date': '2024-04-02',
      'invoice.subTotal': '8000.00',
      'invoice.tax': '400.00',
      'invoice.total': '8400.00',
    });
  });

  it('a rendering of e-invoice data: a note above, seller and buyer blocks side by side with labelled names', async () => {
    const s = sheet();
    s.put(50, 40, 'Dies ist eine Darstellung der XRechnung-Daten (keine Originalrechnung)', 8);
    s.put(50, 70, 'Rechnung', 18, true);
    s.put(50, 110, 'Verkäufer', 10, true);
    s.put(320, 110, 'Käufer', 10, true);
    s.put(50, 124, 'Firmenname:');
    s.put(130, 124, 'Holzbau Brenner GmbH');
    s.put(320, 124, 'Firmenname:');
    s.put(400, 124, 'Kunden AG Mitte');
    s.put(50, 138, 'Straße:');
    s.put(130, 138, 'Waldweg 3');
    s.put(320, 138, 'Straße:');
    s.put(400, 138, 'Marktplatz 1');
    s.put(50, 152, 'Ort:');
    s.put(130, 152, '79098 Freiburg');
    s.put(320, 152, 'Ort:');
    s.put(400, 152, '10115 Berlin');
    s.put(50, 166, 'USt-IdNr.:');
    s.put(130, 166, 'DE811907980');
    s.put(320, 166, 'USt-IdNr.:');
    s.put(400, 166, 'DE136695976');
    s.put(50, 200, 'Rechnungsnummer:');
    s.put(170, 200, 'RE-2024-118');
    s.put(50, 214, 'Rechnungsdatum:');
    s.put(170, 214, '05.02.2024');
    s.put(50, 228, 'Lieferdatum:');
    s.put(170, 228, '01.02.2024');
    s.put(320, 270, 'Summe netto');
    s.put(470, 270, '1.000,00');
    s.put(320, 284, 'Umsatzsteuer 19 %');
    s.put(470, 284, '190,00');
    s.put(320, 298, 'Gesamtbetrag');
    s.put(470, 298, '1.190,00');
    expectValues(await extractLines(engine, s.lines, ['invoices:2']), {
      'document.supplierName': 'Holzbau Brenner GmbH',
      'document.supplierTaxId': 'DE811907980',
      'document.customerName': 'Kunden AG Mitte',
      'document.referenceNo': 'RE-2024-118',
      'document.date': '2024-02-05',
      'invoice.subTotal': '1000.00',
      'invoice.tax': '190.00',
      'invoice.total': '1190.00',
    });
  });

  it("a hotel folio: hotel and guest details, the guest's name, check-in and check-out dates", async () => {
    const s = sheet();
    s.put(200, 40, 'Retail Invoice/Bill', 14, true);
    s.put(50, 80, 'Hotel Details', 11, true);
    s.put(50, 96, 'Seaside Grand Hotel Pvt Ltd');
    s.put(50, 110, '21 Beach Road, Panaji, Goa 403001');
    s.put(350, 80, 'Guest Details', 11, true);
    s.put(350, 96, 'Guest Name: John Carter');
    s.put(350, 110, 'Room No: 412');
    s.put(50, 150, 'Bill No:');
    s.put(130, 150, 'SGH/4471');
    s.put(50, 164, 'Bill Date:');
    s.put(130, 164, '12 Jan 2024');
    s.put(50, 178, 'Check-in:');
    s.put(130, 178, '09 Jan 2024');
    s.put(50, 192, 'Check-out:');
    s.put(130, 192, '12 Jan 2024');
    s.put(50, 230, 'Description', 10, true);
    s.put(470, 230, 'Amount', 10, true);
    s.put(50, 246, 'Room charges (3 nights)');
    s.put(470, 246, '9,000.00');
    s.put(350, 280, 'Sub Total');
    s.put(470, 280, '9,000.00');
    s.put(350, 294, 'CGST 6%');
    s.put(470, 294, '540.00');
    s.put(350, 308, 'SGST 6%');
    s.put(470, 308, '540.00');
    s.put(350, 322, 'Grand Total');
    s.put(470, 322, '10,080.00');
    s.put(50, 360, 'Cashier: Priya');
    expectValues(await extractLines(engine, s.lines, ['invoices:2']), {
      'document.supplierName': 'Seaside Grand Hotel Pvt Ltd',
      'document.referenceNo': 'SGH/4471',
      'document.date': '2024-01-12',
      'invoice.subTotal': '9000.00',
      'invoice.tax': '1080.00',
      'invoice.total': '10080.00',
      'document.customerName': 'John Carter',
    });
  });

  it('a German invoice whose tax is printed only in a VAT summary table', async () => {
    const s = sheet();
    s.put(50, 50, 'Nordwind Handels GmbH', 16, true);
    s.put(50, 70, 'Hafenstraße 8, 20457 Hamburg');
    s.put(350, 110, 'Rechnungsnr.:');
    s.put(450, 110, 'NW-88412');
    s.put(350, 124, 'Datum:');
    s.put(450, 124, '14.03.2024');
    s.put(50, 200, 'Bezeichnung', 10, true);
    s.put(300, 200, 'Menge', 10, true);
    s.put(370, 200, 'Einzelpreis', 10, true);
    s.put(470, 200, 'Gesamt', 10, true);
    s.put(50, 216, 'Schrauben M8');
    s.put(300, 216, '100');
    s.put(370, 216, '0,80');
    s.put(470, 216, '80,00');
    s.put(50, 232, 'Muttern M8');
    s.put(300, 232, '100');
    s.put(370, 232, '0,20');
    s.put(470, 232, '20,00');
    s.put(50, 280, 'MwSt-Satz', 10, true);
    s.put(150, 280, 'Netto', 10, true);
    s.put(250, 280, 'MwSt', 10, true);
    s.put(350, 280, 'Brutto', 10, true);
    s.put(50, 296, '19 %');
    s.put(150, 296, '100,00');
    s.put(250, 296, '19,00');
    s.put(350, 296, '119,00');
    s.put(350, 330, 'Rechnungsbetrag');
    s.put(470, 330, '119,00 EUR');
    expectValues(await extractLines(engine, s.lines, ['invoices:2']), {
      'document.supplierName': 'Nordwind Handels GmbH',
      'document.referenceNo': 'NW-88412',
      'document.date': '2024-03-14',
      'invoice.subTotal': '100.00',
      'invoice.tax': '19.00',
      'invoice.total': '119.00',
    });
  });

  it('a two-page invoice with a total carried forward', async () => {
    const one = sheet();
    one.put(50, 50, 'Atlas Office Supplies Ltd', 16, true);
    one.put(350, 100, 'Invoice No: AOS-5521');
    one.put(350, 114, 'Invoice Date: 02/05/2024');
    one.put(50, 200, 'Description', 10, true);
    one.put(300, 200, 'Qty', 10, true);
    one.put(380, 200, 'Price', 10, true);
    one.put(470, 200, 'Amount', 10, true);
    for (let i = 0; i < 5; i++) {
      one.put(50, 216 + 16 * i, `Paper ream ${i + 1}`);
      one.put(300, 216 + 16 * i, '10');
      one.put(380, 216 + 16 * i, '5.00');
      one.put(470, 216 + 16 * i, '50.00');
    }
    one.put(350, 320, 'Carried forward');
    one.put(470, 320, '250.00');
    const two = sheet();
    two.put(350, 60, 'Brought forward');
    two.put(470, 60, '250.00');
    two.put(50, 80, 'Toner');
    two.put(300, 80, '1');
    two.put(380, 80, '100.00');
    two.put(470, 80, '100.00');
    two.put(350, 120, 'Subtotal');
    two.put(470, 120, '350.00');
    two.put(350, 134, 'VAT 20%');
    two.put(470, 134, '70.00');
    two.put(350, 148, 'Total');
    two.put(470, 148, '420.00');
    expectValues(await extractPages(engine, [{ lines: one.lines }, { lines: two.lines }], ['invoices:2']), {
      'invoice.subTotal': '350.00',
      'invoice.tax': '70.00',
      'invoice.total': '420.00',
      'document.date': '2024-05-02',
      'document.referenceNo': 'AOS-5521',
    });
  });

  it('several dates and numbers with letter prefixes, one of them like a date', async () => {
    const s = sheet();
    s.put(50, 50, 'Kestrel Engineering Ltd', 16, true);
    s.put(50, 66, 'Unit 5, Riverside Park, Leeds LS1 4AP');
    s.put(50, 110, 'Order Date: 01/03/2024');
    s.put(50, 124, 'Delivery Date: 08/03/2024');
    s.put(350, 110, 'Invoice Number: INV-000123');
    s.put(350, 124, 'Invoice Date: 11/03/2024');
    s.put(350, 138, 'Customer PO: PO-2024-03-15');
    s.put(350, 152, 'Payment Due: 10/04/2024');
    s.put(350, 300, 'Net');
    s.put(470, 300, '500.00');
    s.put(350, 314, 'VAT @ 20%');
    s.put(470, 314, '100.00');
    s.put(350, 328, 'Total due');
    s.put(470, 328, '£600.00');
    s.put(50, 780, 'Printed on 12/03/2024 09:14');
    expectValues(await extractLines(engine, s.lines, ['invoices:2']), {
      'document.date': '2024-03-11',
      'invoice.dueDate': '2024-04-10',
      'document.referenceNo': 'INV-000123',
      'invoice.purchaseOrderNo': 'PO-2024-03-15',
      'invoice.subTotal': '500.00',
      'invoice.tax': '100.00',
      'invoice.total': '600.00',
      'document.currency': 'GBP',
    });
  });
  it('a rendering of an e-invoice with the EN 16931 terms as labels (Seller name, Seller VAT identifier, Buyer name, Invoice total amount with VAT...)', async () => {
    const s = sheet();
    s.put(50, 40, 'Invoice', 18, true);
    const kv = (x: number, y: number, k: string, v: string) => {
      s.put(x, y, k, 9);
      s.put(x + 150, y, v, 9);
    };
    kv(50, 80, 'Invoice number', '2024-0417');
    kv(50, 94, 'Invoice issue date', '2024-04-17');
    kv(50, 108, 'Payment due date', '2024-05-17');
    kv(50, 122, 'Invoice currency code', 'EUR');
    kv(50, 136, 'Purchase order reference', 'PO-88213');
    s.put(50, 170, 'Seller', 11, true);
    kv(50, 186, 'Seller name', 'Lumen Optik GmbH');
    kv(50, 200, 'Seller address', 'Kantstraße 9, 10623 Berlin, DE');
    kv(50, 214, 'Seller VAT identifier', 'DE136695976');
    s.put(50, 240, 'Buyer', 11, true);
    kv(50, 256, 'Buyer name', 'Weitblick Augenoptik KG');
    kv(50, 270, 'Buyer VAT identifier', 'DE811907980');
    s.put(50, 300, 'Document totals', 11, true);
    kv(50, 316, 'Sum of Invoice line net amount', '1,250.00');
    kv(50, 330, 'Invoice total amount without VAT', '1,250.00');
    kv(50, 344, 'Invoice total VAT amount', '237.50');
    kv(50, 358, 'Invoice total amount with VAT', '1,487.50');
    kv(50, 372, 'Amount due for payment', '1,487.50');
    expectValues(await extractLines(engine, s.lines, ['invoices:2']), {
      'document.referenceNo': '2024-0417',
      'document.date': '2024-04-17',
      'invoice.dueDate': '2024-05-17',
      'invoice.purchaseOrderNo': 'PO-88213',
      'document.supplierName': 'Lumen Optik GmbH',
      'document.supplierTaxId': 'DE136695976',
      'document.customerName': 'Weitblick Augenoptik KG',
      'invoice.subTotal': '1250.00',
      'invoice.tax': '237.50',
      'invoice.total': '1487.50',
      'invoice.amountDue': '1487.50',
      'document.currency': 'EUR',
    });
  });

  it('From: and To: blocks side by side under a large title, Terms: Net 15', async () => {
    const s = sheet();
    s.put(50, 50, 'INVOICE', 28, true);
    s.put(50, 100, 'From:', 10, true);
    s.put(300, 100, 'To:', 10, true);
    s.put(50, 114, 'Pixel & Pine Studio');
    s.put(300, 114, 'Riverbend Dental Group');
    s.put(50, 128, '42 Elm Street');
    s.put(300, 128, '9 Oak Lane');
    s.put(50, 142, 'Portland, OR 97204');
    s.put(300, 142, 'Salem, OR 97301');
    s.put(50, 180, 'Invoice # 1047');
    s.put(300, 180, 'Date: April 2, 2024');
    s.put(50, 194, 'Terms: Net 15');
    s.put(50, 230, 'Item', 10, true);
    s.put(470, 230, 'Amount', 10, true);
    s.put(50, 246, 'Website redesign');
    s.put(470, 246, '$3,200.00');
    s.put(370, 280, 'Total Due');
    s.put(470, 280, '$3,200.00');
    expectValues(await extractLines(engine, s.lines, ['invoices:2']), {
      'document.supplierName': 'Pixel & Pine Studio',
      'document.customerName': 'Riverbend Dental Group',
      'document.referenceNo': '1047',
      'document.date': '2024-04-02',
      'invoice.dueDate': '2024-04-17',
      'invoice.total': '3200.00',
      'document.currency': 'USD',
    });
  });

  it("the supplier's name only in the footer with its registration, the customer under Invoice to:", async () => {
    const s = sheet();
    s.put(400, 60, 'Tax Invoice', 16, true);
    s.put(50, 100, 'Invoice to:', 10, true);
    s.put(50, 114, 'Marlow Property Services');
    s.put(50, 128, '18 High Street, Marlow SL7 1AB');
    s.put(400, 100, 'Invoice no. 58213');
    s.put(400, 114, 'Date 04/03/2024');
    s.put(50, 200, 'Description', 10, true);
    s.put(470, 200, 'Amount', 10, true);
    s.put(50, 216, 'Boiler service');
    s.put(470, 216, '120.00');
    s.put(370, 250, 'Subtotal');
    s.put(470, 250, '120.00');
    s.put(370, 264, 'VAT 20%');
    s.put(470, 264, '24.00');
    s.put(370, 278, 'Total');
    s.put(470, 278, '£144.00');
    s.put(
      60,
      780,
      'Thameside Heating Ltd  |  Registered in England No. 08123456  |  VAT Reg No. GB 123 4567 89',
      8,
    );
    s.put(60, 792, 'Registered office: Unit 3, Quay Road, Reading RG1 8AA', 8);
    expectValues(await extractLines(engine, s.lines, ['invoices:2']), {
      'document.supplierName': 'Thameside Heating Ltd',
      'document.customerName': 'Marlow Property Services',
      'document.referenceNo': '58213',
      'document.date': '2024-03-04',
      'invoice.subTotal': '120.00',
      'invoice.tax': '24.00',
      'invoice.total': '144.00',
      'document.currency': 'GBP',
    });
  });

  it('an e-invoice viewer with term codes after its labels: Invoice number (BT-1), Seller (BG-4), Name (BT-27)', async () => {
    const s = sheet();
    s.put(40, 50, 'Invoice', 20, true);
    s.put(412, 54, 'Visualised by an e-invoice viewer, not a legal original', 6.5);
    const pair = (x: number, y: number, label: string, value: string) => {
      s.put(x, y, label, 7.5);
      s.put(x + 110, y, value, 8);
    };
    pair(40, 100, 'Invoice number (BT-1)', 'LFS-2025-00871');
    pair(320, 100, 'Purchase order (BT-13)', 'PO-24-0613');
    pair(40, 111, 'Issue date (BT-2)', '2025-04-02');
    pair(40, 122, 'Payment due date (BT-9)', '2025-05-02');
    s.put(40, 172, 'Seller (BG-4)', 11, true);
    s.put(320, 172, 'Buyer (BG-7)', 11, true);
    pair(40, 190, 'Name (BT-27)', 'Lumina Facility Services BV');
    pair(320, 190, 'Name (BT-44)', 'Sportcentrum De Nete vzw');
    pair(40, 201, 'VAT identifier (BT-31)', 'BE0673451204');
    pair(320, 201, 'VAT identifier (BT-48)', 'BE0456123791');
    pair(300, 300, 'Total without VAT (BT-109)', '4926.40');
    pair(300, 312, 'Total VAT amount (BT-110)', '1034.54');
    pair(300, 324, 'Total with VAT (BT-112)', '5960.94');
    expectValues(await extractLines(engine, s.lines, ['invoices:2']), {
      'document.referenceNo': 'LFS-2025-00871',
      'invoice.purchaseOrderNo': 'PO-24-0613',
      'document.date': '2025-04-02',
      'invoice.dueDate': '2025-05-02',
      'document.supplierName': 'Lumina Facility Services BV',
      'document.customerName': 'Sportcentrum De Nete vzw',
      'document.supplierTaxId': 'BE0673451204',
      'invoice.subTotal': '4926.40',
      'invoice.tax': '1034.54',
      'invoice.total': '5960.94',
    });
  });

  it('a Swedish invoice: Fakturanummer, Fakturadatum, Förfallodatum, Ert ordernr, the customer under Fakturaadress', async () => {
    const s = sheet();
    s.put(40, 54, 'Tallbacken Trädgårdsservice AB', 15, true);
    s.put(468, 56, 'FAKTURA', 18, true);
    const pair = (y: number, label: string, value: string) => {
      s.put(40, y, label, 8.5, true);
      s.put(130, y, value, 8.5);
    };
    pair(106, 'Fakturanummer', '3318');
    pair(117, 'Fakturadatum', '2025-03-10');
    pair(128, 'Förfallodatum', '2025-04-09');
    pair(139, 'Ert ordernr', '2025-044');
    s.put(330, 106, 'Fakturaadress', 7.5);
    s.put(330, 118, 'Brf Sjöutsikten', 10);
    s.put(330, 130, 'Box 1422', 10);
    s.put(330, 142, '751 44 Uppsala', 10);
    s.put(350, 300, 'Summa exkl. moms', 9);
    s.put(500, 300, '9 555,00', 9);
    s.put(350, 312, 'Moms 25 %', 9);
    s.put(500, 312, '2 388,75', 9);
    s.put(350, 324, 'Att betala', 9, true);
    s.put(500, 324, '11 943,75', 9, true);
    expectValues(await extractLines(engine, s.lines, ['invoices:2']), {
      'document.supplierName': 'Tallbacken Trädgårdsservice AB',
      'document.customerName': 'Brf Sjöutsikten',
      'document.referenceNo': '3318',
      'document.date': '2025-03-10',
      'invoice.dueDate': '2025-04-09',
      'invoice.purchaseOrderNo': '2025-044',
      'invoice.subTotal': '9555.00',
      'invoice.tax': '2388.75',
      'invoice.total': '11943.75',
    });
  });

  it("a credit note: its own number, not the original invoice's; the customer above an Attn: line", async () => {
    const s = sheet();
    s.put(420, 52, 'Hartwell & Finch Ltd', 14, true);
    s.put(40, 60, 'CREDIT NOTE', 20, true);
    s.put(40, 130, 'Credit To', 8.5, true);
    s.put(40, 142, 'Westgate Office Interiors Ltd', 9);
    s.put(40, 153, 'Attn: Purchase Ledger', 9);
    s.put(40, 164, '14 Kirkstall Road', 9);
    s.put(340, 130, 'Credit Note No.', 8.5, true);
    s.put(470, 130, 'CN-00417', 8.5);
    s.put(340, 142, 'Date / Tax Point', 8.5, true);
    s.put(470, 142, '12/03/2025', 8.5);
    s.put(340, 154, 'Original Invoice', 8.5, true);
    s.put(470, 154, 'INV-10988 (24/02/2025)', 8.5);
    s.put(380, 308, 'Net Total', 9);
    s.put(500, 308, '-£664.00', 9);
    s.put(380, 320, 'VAT @ 20%', 9);
    s.put(500, 320, '-£132.80', 9);
    s.put(380, 332, 'Total', 9, true);
    s.put(500, 332, '-£796.80', 9, true);
    expectValues(await extractLines(engine, s.lines, ['invoices:2']), {
      'document.referenceNo': 'CN-00417',
      'document.date': '2025-03-12',
      'document.customerName': 'Westgate Office Interiors Ltd',
      'invoice.total': '-796.80',
      'document.currency': 'GBP',
    });
    // An attention line under an unlabelled recipient: the company above it.
    const t = sheet();
    t.put(40, 64, 'TAX INVOICE', 22, true);
    t.put(420, 100, 'Coastline Plumbing & Gas Pty Ltd', 8, true);
    t.put(40, 100, 'Bayview Strata Management', 8.5);
    t.put(40, 111, 'Attention: Building Manager', 8.5);
    t.put(40, 122, 'Level 2, 18 Bay Street', 8.5);
    t.put(40, 133, 'PORT MELBOURNE VIC 3207', 8.5);
    expectValues(await extractLines(engine, t.lines, ['invoices:2']), {
      'document.customerName': 'Bayview Strata Management',
    });
  });

  it("a letter's recipient without a label: beside another column's label, below a department and a contact, its name holding an address word", async () => {
    // The recipient's name shares its row with "Invoice no." in the column to its right.
    const s = sheet();
    s.put(56, 62, 'Pemberton & Shaw LLP', 18, true);
    s.put(56, 78, 'Chartered Surveyors', 10);
    s.put(466, 56, '9 Minster Yard', 8.5);
    s.put(478, 67, 'York YO1 7HH', 8.5);
    s.put(56, 140, 'Mr Daniel Ashworth', 9.5);
    s.put(56, 152, '41 Heworth Green', 9.5);
    s.put(56, 164, 'York', 9.5);
    s.put(56, 176, 'YO31 7TQ', 9.5);
    s.put(340, 140, 'Invoice no.', 8.5);
    s.put(425, 140, 'PS/INV/5521', 8.5);
    s.put(340, 152, 'Date', 8.5);
    s.put(425, 152, '3 June 2025', 8.5);
    s.put(56, 240, 'INVOICE', 14, true);
    s.put(56, 322, 'Description', 8.5, true);
    s.put(511, 322, 'Total', 8.5, true);
    s.put(56, 340, 'Building survey', 9);
    s.put(504, 340, '1,080.00', 9);
    s.put(380, 380, 'Total', 9, true);
    s.put(504, 380, '1,080.00', 9, true);
    expectValues(await extractLines(engine, s.lines, ['invoices:2']), {
      'document.customerName': 'Mr Daniel Ashworth',
      'document.referenceNo': 'PS/INV/5521',
    });
    // On the right, a department and a contact person between the name and the street; under it a
    // table whose first row (a number, then an amount) is no street of a block starting at its headings.
    const t = sheet();
    t.put(50, 60, 'Manon Girard EI', 14, true);
    t.put(50, 75, 'Traductrice assermentée', 8.5);
    t.put(50, 86, '12 quai de la Fosse, 44000 Nantes', 8.5);
    t.put(330, 140, 'Cabinet Lemoine Avocats SELARL', 9.5);
    t.put(330, 152, 'Service juridique', 9.5);
    t.put(330, 164, 'Me Claire Dubois', 9.5);
    t.put(330, 176, '3 rue Crébillon', 9.5);
    t.put(330, 188, '44000 Nantes', 9.5);
    t.put(222, 262, 'FACTURE N° 2025-031', 14, true);
    t.put(50, 346, 'Désignation', 8.5, true);
    t.put(524, 346, 'Total', 8.5, true);
    t.put(50, 364, '2 Traduction certifiée (contrat)', 9);
    t.put(510, 364, '320,00 €', 9);
    expectValues(await extractLines(engine, t.lines, ['invoices:2']), {
      'document.customerName': 'Cabinet Lemoine Avocats SELARL',
    });
    // A Dutch recipient whose name holds "Kade" (a quay), with "t.a.v." (for the attention of) under it.
    const u = sheet();
    u.put(430, 56, 'Bureau Lotte Smit', 13, true);
    u.put(494, 81, 'Lange Nieuwstraat 8', 8.5);
    u.put(492, 92, '3512 PH Utrecht', 8.5);
    u.put(40, 170, 'Scheepswerf De Kade B.V.', 10);
    u.put(40, 182, 't.a.v. Pieter de Boer', 10);
    u.put(40, 194, 'Havenweg 21', 10);
    u.put(40, 206, '3542 AD Utrecht', 10);
    u.put(40, 260, 'Factuur', 24, true);
    expectValues(await extractLines(engine, u.lines, ['invoices:2']), {
      'document.customerName': 'Scheepswerf De Kade B.V.',
    });
  });

  it('a customer under "Messrs." or a bilingual "Facturer à / Bill to"; an "Attn:" line under the street and town; a "Deliver to" heading is no name', async () => {
    const s = sheet();
    s.put(45, 56, 'Kowloon Bay Signage Company Limited', 14, true);
    s.put(45, 71, 'Unit 5, 8/F, Kai Fuk Building, Kowloon Bay', 8.5);
    s.put(260, 130, 'INVOICE', 18, true);
    s.put(45, 160, 'Messrs.', 8);
    s.put(45, 173, 'Golden Crane Dim Sum Limited', 10);
    s.put(45, 185, 'G/F, 22 Hollywood Road', 10);
    s.put(45, 197, 'Sheung Wan, Hong Kong', 10);
    s.put(45, 209, 'Attn: Ms. Vivian Ho', 10);
    s.put(340, 160, 'Invoice No.', 9);
    s.put(440, 160, 'KB25-0188', 9);
    expectValues(await extractLines(engine, s.lines, ['invoices:2']), {
      'document.customerName': 'Golden Crane Dim Sum Limited',
    });
    // Without "Messrs.": the name over the street and the town an "Attn:" line closes.
    const t = sheet();
    t.put(45, 56, 'Kowloon Bay Signage Company Limited', 14, true);
    t.put(260, 130, 'INVOICE', 18, true);
    t.put(45, 173, 'Golden Crane Dim Sum Limited', 10);
    t.put(45, 185, 'G/F, 22 Hollywood Road', 10);
    t.put(45, 197, 'Sheung Wan, Hong Kong', 10);
    t.put(45, 209, 'Attn: Ms. Vivian Ho', 10);
    t.put(340, 173, 'Invoice No.', 9);
    t.put(440, 173, 'KB25-0188', 9);
    expectValues(await extractLines(engine, t.lines, ['invoices:2']), {
      'document.customerName': 'Golden Crane Dim Sum Limited',
    });
    const u = sheet();
    u.put(209, 56, 'Studio Aurore Design inc.', 16, true);
    u.put(40, 122, 'FACTURE / INVOICE', 14, true);
    u.put(40, 150, 'Facturer à / Bill to', 9, true);
    u.put(40, 164, 'Boulangerie Saint-Viateur inc.', 9);
    u.put(40, 176, '263, rue Saint-Viateur Ouest', 9);
    u.put(40, 188, 'Montréal (Québec)  H2V 1Y1', 9);
    u.put(330, 150, 'No de facture / Invoice No.', 9, true);
    u.put(508, 150, 'F-2025-0114', 9);
    expectValues(await extractLines(engine, u.lines, ['invoices:2']), {
      'document.customerName': 'Boulangerie Saint-Viateur inc.',
    });
    const v = sheet();
    v.put(40, 52, 'Highveld Irrigation (Pty) Ltd', 13, true);
    v.put(40, 66, 'Reg No 2014/118274/07', 8);
    v.put(440, 52, 'TAX INVOICE', 18, true);
    v.put(40, 140, 'Customer', 8, true);
    v.put(220, 140, 'Deliver to', 8, true);
    v.put(40, 152, 'Oranjerivier Citrus CC', 9);
    v.put(220, 152, 'Oranjerivier Citrus', 9);
    v.put(40, 163, 'PO Box 77', 9);
    v.put(220, 163, 'Farm 214, Kakamas Road', 9);
    v.put(40, 174, 'Upington', 9);
    v.put(220, 174, 'Kakamas', 9);
    expectValues(await extractLines(engine, v.lines, ['invoices:2']), {
      'document.customerName': 'Oranjerivier Citrus CC',
    });
  });

  it('seller and buyer blocks, issue and due dates and the order under their names in Romanian, Hungarian, Croatian and Lithuanian', async () => {
    const ro = sheet();
    ro.put(40, 50, 'Furnizor:', 8, true);
    ro.put(40, 64, 'CARPATI LACTATE S.R.L.', 10, true);
    ro.put(40, 76, 'CIF: RO31852045', 8);
    ro.put(320, 50, 'Cumparator:', 8, true);
    ro.put(320, 64, 'BACANIA DE LA COLT S.R.L.', 10, true);
    ro.put(320, 76, 'CIF: RO41277190', 8, true);
    ro.put(240, 178, 'FACTURA', 18, true);
    ro.put(240, 196, 'Nr. factura: CL-2025-0088', 9, true);
    ro.put(200, 209, 'Data emiterii: 05.03.2025', 8);
    ro.put(360, 209, 'Termen de plata: 04.04.2025', 8);
    ro.put(200, 220, 'Comanda nr: BC-5512', 8);
    expectValues(await extractLines(engine, ro.lines, ['invoices:2']), {
      'document.supplierName': 'CARPATI LACTATE S.R.L.',
      'document.customerName': 'BACANIA DE LA COLT S.R.L.',
      'document.date': '2025-03-05',
      'invoice.dueDate': '2025-04-04',
      'invoice.purchaseOrderNo': 'BC-5512',
    });
    const hu = sheet();
    hu.put(40, 60, 'SZÁMLA', 18, true);
    hu.put(40, 100, 'Szállító', 8, true);
    hu.put(300, 100, 'Vevo', 8, true);
    hu.put(40, 114, 'Tisza-Kor Építo Kft.', 10, true);
    hu.put(300, 114, 'Alföldi Malom Zrt.', 10, true);
    hu.put(40, 126, '6720 Szeged, Kárász utca 9.', 8);
    hu.put(300, 126, '6000 Kecskemét, Rákóczi út 3.', 8);
    hu.put(40, 170, 'Számla kelte: 2025.03.14.', 8);
    hu.put(300, 170, 'Fizetesi hatarido: 2025.03.29.', 8);
    expectValues(await extractLines(engine, hu.lines, ['invoices:2']), {
      'document.supplierName': 'Tisza-Kor Építo Kft.',
      'document.customerName': 'Alföldi Malom Zrt.',
      'document.date': '2025-03-14',
      'invoice.dueDate': '2025-03-29',
    });
    const hr = sheet();
    hr.put(40, 60, 'RACUN', 18, true);
    hr.put(40, 100, 'Dobavljac', 8, true);
    hr.put(300, 100, 'Kupac', 8, true);
    hr.put(40, 114, 'Jadran Tisak d.o.o.', 10, true);
    hr.put(300, 114, 'Konoba Stari Mlin j.d.o.o.', 10, true);
    hr.put(40, 170, 'Datum izdavanja: 07.04.2025.', 8);
    hr.put(300, 170, 'Datum dospijeca: 22.04.2025.', 8);
    expectValues(await extractLines(engine, hr.lines, ['invoices:2']), {
      'document.customerName': 'Konoba Stari Mlin j.d.o.o.',
      'document.date': '2025-04-07',
      'invoice.dueDate': '2025-04-22',
    });
    const lt = sheet();
    lt.put(40, 60, 'PVM SASKAITA FAKTURA', 16, true);
    lt.put(40, 100, 'Pirkejas', 8, true);
    lt.put(300, 100, 'Pardavejas', 8, true);
    lt.put(40, 114, 'UAB Silo takas', 10, true);
    lt.put(300, 114, 'UAB Baltijos nuoma', 10, true);
    lt.put(300, 170, 'Apmoketi iki: 2025-04-10', 8);
    expectValues(await extractLines(engine, lt.lines, ['invoices:2']), {
      'document.supplierName': 'UAB Baltijos nuoma',
      'document.customerName': 'UAB Silo takas',
      'invoice.dueDate': '2025-04-10',
    });
  });

  it('another date\'s label ("Loading date", "Datum isporuke") is no issue date; a series\' letters before the order\'s number; an IBAN ending a sentence', async () => {
    const s = sheet();
    s.put(40, 55, 'Daugava Cargo Lines SIA', 14, true);
    s.put(40, 70, 'Krasta iela 52, Riga, LV-1019', 8.5);
    s.put(320, 92, 'Loading date:', 8.5);
    s.put(420, 92, '10.03.2025', 8.5);
    s.put(320, 104, 'Delivery date:', 8.5);
    s.put(420, 104, '12.03.2025', 8.5);
    s.put(320, 130, 'Date:', 8.5);
    s.put(420, 130, '14.03.2025', 8.5);
    s.put(320, 142, 'Your order:', 8.5);
    s.put(420, 142, 'PO 4700023119', 8.5);
    s.put(
      40,
      400,
      'Please pay to IBAN LV80 BANK 0000 4351 9500 1, BIC UNLALV2X, quoting the invoice number.',
      8,
    );
    expectValues(await extractLines(engine, s.lines, ['invoices:2']), {
      'document.date': '2025-03-14',
      'invoice.purchaseOrderNo': 'PO4700023119',
      'bank.iban': 'LV80BANK0000435195001',
    });
    const t = sheet();
    t.put(40, 55, 'Kvadrat Studio d.o.o.', 14, true);
    t.put(40, 224, 'Datum isporuke:', 8.5);
    t.put(160, 224, '31.03.2025.', 8.5);
    t.put(300, 224, 'Datum:', 8.5);
    t.put(400, 224, '07.04.2025.', 8.5);
    expectValues(await extractLines(engine, t.lines, ['invoices:2']), { 'document.date': '2025-04-07' });
  });

  it("a telephone's digits and a grouped amount are no tax id; Peru's R.U.C. N°; Hungary's Számla sorszáma", async () => {
    const s = sheet();
    s.put(40, 50, 'Carmel Workplace Health Ltd', 14, true);
    s.put(40, 107, 'Company No. / VAT Reg.: 514782135', 9, true);
    s.put(40, 118, 'Tel. +972 4 855 2210  |  billing@carmel-health.example', 8.5);
    expectValues(await extractLines(engine, s.lines, ['invoices:2']), {
      'document.supplierTaxId': '514782135',
    });
    const t = sheet();
    t.put(40, 55, 'CONSTRUCTORA ANDES DEL SUR S.A.C.', 13, true);
    t.put(400, 58, 'R.U.C. N° 20604811725', 10, true);
    t.put(40, 200, 'Tax code:', 8.5);
    t.put(380, 338, '15.950.000', 9);
    t.put(40, 260, 'Számla sorszáma: MEK-2025/0087', 9);
    expectValues(await extractLines(engine, t.lines, ['invoices:2']), {
      'document.supplierTaxId': '20604811725',
      'document.referenceNo': 'MEK-2025/0087',
    });
  });

  it("an Indian invoice's number under its label, not the e-way bill's or an amount; a US EIN beside another column's customer number", async () => {
    const s = sheet();
    s.put(40, 56, 'SHREE GANESH POLYMERS', 13, true);
    s.put(40, 70, 'GSTIN/UIN: 27AAPFU0939F1ZV', 8);
    s.put(305, 56, 'Invoice No.', 7);
    s.put(305, 65.5, 'SGP/24-25/1187', 8, true);
    s.put(430, 56, 'Dated', 7);
    s.put(430, 65.5, '14-Mar-2025', 8, true);
    s.put(305, 233.5, 'Door delivery at Chakan; e-Way Bill No.: 3215 4478 9021', 8);
    s.put(40, 300, 'Ack No.', 8);
    s.put(120, 300, '963410.00', 8);
    expectValues(await extractLines(engine, s.lines, ['invoices:2']), {
      'document.referenceNo': 'SGP/24-25/1187',
      'document.date': '2025-03-14',
    });
    const us = sheet();
    us.put(36, 50, 'Blue Ridge Kitchen Supply Co.', 13, true);
    us.put(36, 64, '1650 Industrial Blvd', 8);
    us.put(36, 74.5, 'Chattanooga, TN 37421', 8);
    us.put(36, 95.5, 'Fed. Tax ID: 62-1847305', 8);
    us.put(440, 92, 'Customer No.', 8, true);
    us.put(538, 92, 'SBG-0042', 8);
    us.put(36, 130, 'Northgate Data Consulting LLC  -  EIN 84-2176539', 8);
    expect((await extractLines(engine, us.lines, ['invoices:2'])).value('document.supplierTaxId')).toBe(
      '62-1847305',
    );
  });

  it('a VAT id in groups with its prefix outranks the same number bare; a copy\'s heading is no name; "Nazwa:" names the seller', async () => {
    const dk = sheet();
    dk.put(40, 60, 'Fjordlys Instrumenter ApS', 14, true);
    dk.put(40, 84, 'CVR-nr.: DK 37 45 29 12', 8);
    dk.put(125, 800, 'Fjordlys Instrumenter ApS  -  Tvaervej 14, 5230 Odense M  -  CVR 37452912', 6.5);
    expect((await extractLines(engine, dk.lines, ['invoices:2'])).value('document.supplierTaxId')).toBe(
      'DK37452912',
    );
    const it = sheet();
    it.put(40, 40, 'COPIA DI CORTESIA', 14, true);
    it.put(40, 80, 'Cedente/prestatore (fornitore)', 8, true);
    it.put(40, 94, 'Tipografia Marche S.r.l.', 10, true);
    it.put(40, 106, 'Via Flaminia 12, 60121 Ancona (AN) IT', 8);
    it.put(320, 80, 'Cessionario/committente (cliente)', 8, true);
    it.put(320, 94, 'Osteria del Porto S.n.c.', 10, true);
    expectValues(await extractLines(engine, it.lines, ['invoices:2']), {
      'document.supplierName': 'Tipografia Marche S.r.l.',
      'document.customerName': 'Osteria del Porto S.n.c.',
    });
    const pl = sheet();
    pl.put(40, 40, 'Faktura VAT', 16, true);
    pl.put(40, 80, 'Sprzedawca', 9, true);
    pl.put(40, 94, 'Nazwa:', 8);
    pl.put(90, 94, 'Hurtownia Elektryczna Wisla Sp. z o.o.', 8);
    pl.put(320, 80, 'Nabywca', 9, true);
    pl.put(320, 94, 'Nazwa:', 8);
    pl.put(370, 94, 'Instalbud Kowalski Sp. z o.o.', 8);
    expectValues(await extractLines(engine, pl.lines, ['invoices:2']), {
      'document.supplierName': 'Hurtownia Elektryczna Wisla Sp. z o.o.',
      'document.customerName': 'Instalbud Kowalski Sp. z o.o.',
    });
  });

  it("an e-invoice viewer's labelled address lines and the VAT id under them; orders as Austrian, Flemish and French viewers label them", async () => {
    const de = sheet();
    de.put(40, 40, 'Rechnung', 16, true);
    de.put(40, 80, 'Verkäufer', 9, true);
    de.put(40, 94, 'Firmenname (BT-27): Saxonia Messtechnik GmbH', 8);
    de.put(40, 106, 'Straße (BT-35): Gohliser Straße 41', 8);
    de.put(40, 118, 'PLZ / Ort (BT-38 / BT-37): 04155 Leipzig', 8);
    de.put(40, 130, 'DE811569869', 8);
    de.put(40, 142, 'Handelsregister HRB 11873', 8);
    de.put(320, 80, 'Auftragsreferenz:', 8);
    de.put(420, 80, '4510078852', 8);
    const deDoc = await extractLines(engine, de.lines, ['invoices:2']);
    expect(deDoc.value('invoice.purchaseOrderNo')).toBe('4510078852');
    expect(deDoc.value('document.supplierAddress')).toBe('Gohliser Straße 41, 04155 Leipzig');
    const be = sheet();
    be.put(40, 50, 'Scheldeveer Logistiek BV', 14, true);
    be.put(320, 90, 'Factuurnummer', 8);
    be.put(400, 90, 'F2025-00418', 8);
    be.put(460, 90, 'Bestelreferentie', 8);
    be.put(530, 90, 'PO-88213', 8);
    expect((await extractLines(engine, be.lines, ['invoices:2'])).value('invoice.purchaseOrderNo')).toBe(
      'PO-88213',
    );
    const fr = sheet();
    fr.put(40, 50, 'Menuiserie Alpine SAS', 14, true);
    fr.put(320, 80, 'N° de facture :', 8);
    fr.put(420, 80, 'FA-2025-0312', 8);
    fr.put(320, 92, 'Réf. commande client :', 8);
    fr.put(420, 92, 'BC-TIL-0092', 8);
    expectValues(await extractLines(engine, fr.lines, ['invoices:2']), {
      'document.referenceNo': 'FA-2025-0312',
      'invoice.purchaseOrderNo': 'BC-TIL-0092',
    });
  });

  it('a VAT summary whose amounts set thousands off with a space, beside a totals column that interleaves its rows; "Sum ekskl. MVA", "einschließlich Umsatzsteuer"', async () => {
    const be = sheet();
    be.put(40, 50, 'Brasserie du Canal SRL', 14, true);
    be.put(40, 319, 'Taux TVA', 8, true);
    be.put(131, 319, 'Base', 8, true);
    be.put(204, 319, 'TVA', 8, true);
    be.put(40, 331, '21 %', 8);
    be.put(120, 331, '1 891,20', 8);
    be.put(195, 331, '397,15', 8);
    be.put(40, 343, '6 %', 8);
    be.put(129, 343, '55,80', 8);
    be.put(204, 343, '3,35', 8);
    be.put(40, 355, '0 %', 8);
    be.put(125, 355, '120,00', 8);
    be.put(204, 355, '0,00', 8);
    be.put(40, 369, 'Total', 8, true);
    be.put(119, 369, '2 067,00', 8, true);
    be.put(195, 369, '400,50', 8, true);
    be.put(380, 319, 'Total HTVA', 9.5);
    be.put(505, 319, '2 067,00 €', 9.5);
    be.put(380, 334, 'Total TVA', 9.5);
    be.put(513, 334, '400,50 €', 9.5);
    be.put(380, 349, 'Total à payer', 9.5, true);
    be.put(505, 349, '2 467,50 €', 9.5, true);
    expectValues(await extractLines(engine, be.lines, ['invoices:2']), {
      'invoice.subTotal': '2067.00',
      'invoice.tax': '400.50',
      'invoice.total': '2467.50',
    });
    const no = sheet();
    no.put(40, 50, 'Vestland Kontor AS', 14, true);
    no.put(340, 352, 'Sum ekskl. MVA', 8.5);
    no.put(517, 352, '98 050,00', 8.5);
    no.put(340, 366, 'MVA', 8.5);
    no.put(517, 366, '24 272,50', 8.5);
    no.put(340, 380, 'Sum inkl. MVA', 8.5);
    no.put(512, 380, '122 322,50', 8.5);
    expectValues(await extractLines(engine, no.lines, ['invoices:2']), {
      'invoice.subTotal': '98050.00',
      'invoice.tax': '24272.50',
      'invoice.total': '122322.50',
    });
    const de = sheet();
    de.put(40, 50, 'Elbe Fachbuch GmbH', 14, true);
    de.put(40, 424, 'Summe der Nettobeträge aller Positionen (BT-106):', 7.5);
    de.put(300, 424, '2.144,70', 7.5);
    de.put(40, 445, 'Summe der Zuschläge (BT-108):', 7.5);
    de.put(311, 445, '12,90', 7.5);
    de.put(40, 455.5, 'Gesamtbetrag ohne Umsatzsteuer (BT-109):', 7.5);
    de.put(300, 455.5, '2.157,60', 7.5);
    de.put(40, 466, 'Summe Umsatzsteuer (BT-110):', 7.5);
    de.put(307, 466, '310,59', 7.5);
    de.put(40, 476.5, 'Gesamtbetrag einschließlich Umsatzsteuer (BT-112):', 7.5);
    de.put(300, 476.5, '2.468,19', 7.5);
    expectValues(await extractLines(engine, de.lines, ['invoices:2']), {
      'invoice.subTotal': '2157.60',
      'invoice.tax': '310.59',
      'invoice.total': '2468.19',
    });
  });

  it('GST lines with the rate glued to the tax\'s name ("CGST9 (9%)") add up to the tax; Indian digit grouping', async () => {
    const s = sheet();
    s.put(36, 50, 'Kaveri Cloud Systems Pvt. Ltd.', 14, true);
    s.put(380, 390, 'Sub Total', 8.5);
    s.put(510, 390, '1,36,400.00', 8.5);
    s.put(380, 405.8, 'CGST9 (9%)', 8.5);
    s.put(521, 405.8, '12,276.00', 8.5);
    s.put(380, 421.8, 'SGST9 (9%)', 8.5);
    s.put(521, 421.8, '12,276.00', 8.5);
    s.put(380, 437.8, 'Total', 9, true);
    s.put(497, 437.8, 'Rs.1,60,952.00', 9, true);
    s.put(380, 453.8, 'Payment Made', 8.5);
    s.put(510, 453.8, '(-) 80,000.00', 8.5);
    s.put(380, 471.8, 'Balance Due', 9, true);
    s.put(505, 471.8, 'Rs.80,952.00', 9, true);
    expectValues(await extractLines(engine, s.lines, ['invoices:2']), {
      'invoice.subTotal': '136400.00',
      'invoice.tax': '24552.00',
      'invoice.total': '160952.00',
      'invoice.amountDue': '80952.00',
    });
  });

  it('under a logo, the supplier\'s own name and street are no unlabelled recipient when "BILL TO" names the customer', async () => {
    const s = sheet();
    s.put(40, 62, 'BLUESTEM', 22, true);
    s.put(42, 75, 'TREE  CARE', 7.5);
    s.put(473, 62, 'INVOICE', 24, true);
    s.put(40, 104, 'Bluestem Tree Care LLC', 9, true);
    s.put(40, 116, '2817 Cedar Hollow Dr', 9);
    s.put(40, 128, 'Round Rock, TX 78681', 9);
    s.put(40, 196, 'BILL TO', 8, true);
    s.put(40, 209, 'Lakeview Commons HOA', 9);
    s.put(40, 221, '4400 N Lamar Blvd Ste 210', 9);
    s.put(40, 233, 'Austin, TX 78756', 9);
    s.put(430, 196, 'INVOICE #', 9, true);
    s.put(552, 196, '1047', 9);
    expect((await extractLines(engine, s.lines, ['invoices:2'])).value('document.customerName')).toBe(
      'Lakeview Commons HOA',
    );
  });

  it('a utility bill\'s "SERVICE FOR" and a statement\'s "RESPONSIBLE PARTY" head the customer', async () => {
    const s = sheet();
    s.put(40, 50, 'Tri-County Electric Cooperative', 14, true);
    s.put(40, 120, 'SERVICE FOR', 8, true);
    s.put(40, 132, 'Kettle & Crumb Bakery LLC', 9);
    s.put(40, 144, '418 Main Street', 9);
    s.put(40, 156, 'Lexington, VA 24450', 9);
    expect((await extractLines(engine, s.lines, ['invoices:2'])).value('document.customerName')).toBe(
      'Kettle & Crumb Bakery LLC',
    );
    const t = sheet();
    t.put(40, 50, 'Bright Smile Family Dentistry', 14, true);
    t.put(40, 120, 'RESPONSIBLE PARTY', 8, true);
    t.put(40, 132, 'Jordan A. Whitfield', 9);
    t.put(40, 144, '77 Elm Court', 9);
    expect((await extractLines(engine, t.lines, ['invoices:2'])).value('document.customerName')).toBe(
      'Jordan A. Whitfield',
    );
  });

  it("a Canadian business number with its GST/HST account, not read as Norway's after 'No.'", async () => {
    const s = sheet();
    s.put(40, 50, 'Maple Ridge Millwork Inc.', 14, true);
    s.put(40, 66, 'HST Reg. No. 812345676 RT0001', 8);
    s.put(360, 300, 'Subtotal', 9);
    s.put(500, 300, '$1,000.00', 9);
    s.put(360, 312, 'HST 13% (ON)', 9);
    s.put(500, 312, '$130.00', 9);
    s.put(360, 324, 'Total', 9, true);
    s.put(500, 324, '$1,130.00', 9, true);
    expectValues(await extractLines(engine, s.lines, ['invoices:2']), {
      'document.supplierTaxId': '812345676RT0001',
      'document.currency': 'CAD',
      'invoice.tax': '130.00',
      'invoice.total': '1130.00',
    });
  });

  it("customers under 'Spett.le' (a long name, not the SDI code), 'Exmo(s). Senhor(es)' and 'Patient / Guarantor'", async () => {
    const italian = sheet();
    italian.put(50, 60, 'BERTOLINI', 20, true);
    italian.put(50, 73, 'OFFICINE MECCANICHE', 8.5, true);
    italian.put(50, 92, 'Officine Meccaniche Bertolini S.r.l.', 8);
    italian.put(50, 102, "Via dell'Artigianato 15", 8);
    italian.put(50, 113, '25030 Castel Mella (BS)', 8);
    italian.put(50, 134, 'Partita IVA: IT 03187450170', 8);
    italian.put(350, 150, 'Spett.le', 8.5);
    italian.put(350, 163, 'Ferramenta Gallo S.a.s. di Gallo Piero & C.', 9, true);
    italian.put(350, 175, 'Via Roma 221', 9);
    italian.put(350, 187, '26100 Cremona (CR)', 9);
    italian.put(350, 211, 'Codice destinatario SDI: M5UXCR1', 9);
    italian.put(360, 430, 'Totale documento', 10, true);
    italian.put(490, 430, '1.220,00', 10, true);
    const customerOf = async (lines: typeof italian.lines) =>
      (await extractLines(engine, lines, ['invoices:2'])).value('document.customerName');
    expect(await customerOf(italian.lines)).toBe('Ferramenta Gallo S.a.s. di Gallo Piero & C.');
    const portuguese = sheet();
    portuguese.put(50, 60, 'Cerâmicas Vale do Lis', 17, true);
    portuguese.put(50, 92, 'Cerâmicas Vale do Lis, Lda.', 8);
    portuguese.put(50, 102, 'Rua da Olaria, 45', 8);
    portuguese.put(330, 110, 'Exmo(s). Senhor(es)', 8);
    portuguese.put(50, 113, '2400-123 Leiria', 8);
    portuguese.put(330, 123, 'Casa & Mesa Decorações, Unipessoal Lda.', 9.5);
    portuguese.put(330, 135, 'Av. da Boavista 1420', 9.5);
    portuguese.put(330, 147, '4100-114 Porto', 9.5);
    portuguese.put(360, 428, 'Total (EUR)', 10, true);
    portuguese.put(494, 428, '2.068,37 €', 10, true);
    expect(await customerOf(portuguese.lines)).toBe('Casa & Mesa Decorações, Unipessoal Lda.');
    const clinic = sheet();
    clinic.put(50, 58, 'Willow Creek', 18, true);
    clinic.put(422, 58, 'PATIENT INVOICE', 15, true);
    clinic.put(50, 100, '1840 N Cedar St, Suite 210', 8);
    clinic.put(50, 111, 'Fort Collins, CO 80524', 8);
    clinic.put(50, 165, 'Patient / Guarantor', 8, true);
    clinic.put(330, 165, 'Insurance', 8, true);
    clinic.put(50, 178, 'Daniel R. Whitaker', 9.5);
    clinic.put(330, 178, 'Summit Mutual Health – PPO', 9);
    clinic.put(50, 190, '2604 Sagebrush Dr', 9.5);
    clinic.put(360, 430, 'Balance Due', 10, true);
    clinic.put(500, 430, '$62.40', 10, true);
    expect(await customerOf(clinic.lines)).toBe('Daniel R. Whitaker');
  });

  it("a practice's letterhead address, not its remittance slip's PO box", async () => {
    const s = sheet();
    s.put(50, 58, 'Willow Creek', 18, true);
    s.put(422, 58, 'PATIENT INVOICE', 15, true);
    s.put(50, 72, 'FAMILY MEDICINE', 9, true);
    s.put(50, 90, 'Willow Creek Family Medicine, P.C.', 8);
    s.put(430, 90, 'Invoice Date', 8.5);
    s.put(520, 90, '09/17/2024', 8.5);
    s.put(50, 100, '1840 N Cedar St, Suite 210', 8);
    s.put(50, 111, 'Fort Collins, CO 80524', 8);
    s.put(50, 122, 'Phone (970) 555-0183', 8);
    s.put(360, 430, 'Balance Due', 10, true);
    s.put(500, 430, '$101.00', 10, true);
    s.put(50, 655, 'Please detach and return with payment', 7);
    s.put(50, 675, 'Account #', 8.5);
    s.put(140, 675, '00418823', 8.5);
    s.put(360, 675, 'Remit to:', 8.5, true);
    s.put(360, 687, 'Willow Creek Family Medicine, P.C.', 8.5);
    s.put(50, 688, 'Invoice #', 8.5);
    s.put(140, 688, 'WCFM-240917-06', 8.5);
    s.put(360, 699, 'PO Box 2271', 8.5);
    s.put(360, 711, 'Fort Collins, CO 80522', 8.5);
    expectValues(await extractLines(engine, s.lines, ['invoices:2']), {
      'document.supplierName': 'Willow Creek Family Medicine, P.C.',
      'document.supplierAddress': '1840 N Cedar St, Suite 210, Fort Collins, CO 80524',
    });
    // The whole invoice of the probe set it came from, whose slip's name ranks first ("Remit to:").
    expect(
      (await readProbe('invoices-i', 'us-clinic-patient-balance')).value('document.supplierAddress'),
    ).toBe('1840 N Cedar St, Suite 210, Fort Collins, CO 80524');
  });

  it("a window letter's recipient: under the small sender line, not under the logo's slogan", async () => {
    const s = sheet();
    s.put(400, 48, 'Nordhafen Spedition GmbH', 8);
    s.put(50, 58, 'NORDHAFEN', 20, true);
    s.put(400, 58, 'Reiherstieg Hauptdeich 40', 8);
    s.put(400, 68, '21107 Hamburg', 8);
    s.put(50, 71, 'SPEDITION · SEA · AIR · ROAD', 8);
    s.put(50, 112, 'Nordhafen Spedition GmbH · Reiherstieg Hauptdeich 40 · 21107 Hamburg', 6.5);
    s.put(50, 127, 'Elbtal Maschinenbau GmbH', 9.5);
    s.put(340, 138, 'Invoice No.', 8.5);
    s.put(430, 138, 'NHS-24-07731', 8.5);
    s.put(50, 139, 'Accounts Payable', 9.5);
    s.put(50, 151, 'Industriestraße 12', 9.5);
    s.put(50, 163, '01640 Coswig', 9.5);
    s.put(360, 500, 'Total', 9, true);
    s.put(500, 500, '1.190,00', 9, true);
    expect((await extractLines(engine, s.lines, ['invoices:2'])).value('document.customerName')).toBe(
      'Elbtal Maschinenbau GmbH',
    );
  });

  it("a window letter's recipient under a salutation ('Herrn'), and a customer under 'Facturer à'", async () => {
    const s = sheet();
    s.put(445, 62, 'BRANDL', 22, true);
    s.put(57, 128, 'Brandl Haustechnik GmbH · Lindenweg 14 · 93053 Regensburg', 7);
    s.put(57, 146, 'Herrn', 10);
    s.put(360, 146, 'Rechnungsnummer:', 8);
    s.put(486, 146, 'RE-2025-0412', 8);
    s.put(57, 159, 'Thomas Auer', 10);
    s.put(57, 172, 'Am Kreuzberg 7', 10);
    s.put(57, 185, '93055 Regensburg', 10);
    s.put(360, 500, 'Zahlbetrag', 9, true);
    s.put(500, 500, '4.118,60', 9, true);
    expect((await extractLines(engine, s.lines, ['invoices:2'])).value('document.customerName')).toBe(
      'Thomas Auer',
    );
    const q = sheet();
    q.put(463, 58, 'Atelier Boréal Design inc.', 9);
    q.put(48, 60, 'ATELIER', 20, true);
    q.put(48, 82, 'BORÉAL', 20, true);
    q.put(452, 82, 'Montréal (Québec) H2X 3J6', 9);
    q.put(48, 150, 'FACTURE', 18, true);
    q.put(330, 150, 'Facturer à', 9);
    q.put(330, 166, 'Fromagerie Les Trois Rangs', 9);
    q.put(48, 172, 'No de facture :', 9);
    q.put(135, 172, '2025-0318', 9);
    q.put(330, 202, 'Saint-Hyacinthe (Québec)  J2S 1A2', 9);
    q.put(360, 500, 'Total', 9, true);
    q.put(500, 500, '5 529,27 $', 9, true);
    expect((await extractLines(engine, q.lines, ['invoices:2'])).value('document.customerName')).toBe(
      'Fromagerie Les Trois Rangs',
    );
    // Without a sender line: the recipient's block under its salutation, a title ("Dr.") no street's.
    const r = sheet();
    r.put(442, 58, 'HUBER', 26, true);
    r.put(360, 140, 'Rechnungsnummer:', 8);
    r.put(445, 140, '2024-0391', 8);
    r.put(70, 150, 'Herrn', 10);
    r.put(70, 163, 'Dr. Stefan Brandl', 10);
    r.put(360, 164, 'Kundennummer:', 8);
    r.put(445, 164, 'K-1187', 8);
    r.put(70, 176, 'Kaiserstraße 27', 10);
    r.put(70, 189, '83022 Rosenheim', 10);
    r.put(360, 500, 'Rechnungsbetrag', 9, true);
    r.put(500, 500, '3.347,71', 9, true);
    r.put(56, 790, 'Huber Raumgestaltung GmbH', 6.5);
    expect((await extractLines(engine, r.lines, ['invoices:2'])).value('document.customerName')).toBe(
      'Dr. Stefan Brandl',
    );
  });

  it("a window letter's recipient under a sender line: 'Dr.' a title, not a Drive; a department's line passed", async () => {
    const letter = (lines: Array<[string, number]>) => {
      const s = sheet();
      s.put(428, 56, 'OBERMAIER', 20, true);
      s.put(56, 128, 'Obermaier Haustechnik GmbH · Rosenheimer Landstr. 58 · 85521 Ottobrunn', 6.5);
      lines.forEach(([text, y]) => s.put(56, y, text, 10));
      s.put(395, 176, 'Rechnung Nr.', 8);
      s.put(470, 176, '24-0612', 8);
      s.put(330, 500, 'Rechnungsbetrag', 9, true);
      s.put(500, 500, '13.559,57', 9, true);
      return extractLines(engine, s.lines, ['invoices:2']);
    };
    // "Dr." first on the line is no Drive: the line is the recipient's name, not a street.
    const doctor = await letter([
      ['Herrn', 146],
      ['Dr. Thomas Weigl', 159],
      ['Am Hachinger Bach 9', 172],
      ['81737 München', 185],
    ]);
    expect(doctor.value('document.customerName')).toBe('Dr. Thomas Weigl');
    // A department's line over the company.
    const department = await letter([
      ['The Accounts Department', 146],
      ['Harcourt Lane Veterinary Group Ltd', 159],
      ['45 Harcourt Lane', 172],
      ['Nottingham NG7 2RD', 185],
    ]);
    expect(department.value('document.customerName')).toBe('Harcourt Lane Veterinary Group Ltd');
    // Two such lines in a row.
    const confidential = await letter([
      ['PRIVATE & CONFIDENTIAL', 146],
      ['The Finance Director', 159],
      ['Harcourt Lane Veterinary Group Ltd', 172],
      ['45 Harcourt Lane', 185],
      ['Nottingham NG7 2RD', 198],
    ]);
    expect(confidential.value('document.customerName')).toBe('Harcourt Lane Veterinary Group Ltd');
  });

  it('a company over an attention line is the customer, never the supplier, however large it is printed', async () => {
    // "Eastfield Property Management Pty Ltd" over "Attn: Trust Accounts" on the left, in larger print
    // than the plumber's own name under its logo on the right.
    const doc = await readProbe('invoices-p', 'au-plumber-tax-invoice-property-manager');
    expect(doc.value('document.supplierName')).toBe('Gully & Sons Plumbing Pty Ltd');
    expect(doc.value('document.customerName')).toBe('Eastfield Property Management Pty Ltd');
  });

  it("a logo's word whose full name is printed in the footer, four words before its legal form, not in a sentence", async () => {
    // "KAWARTHA" over "TOOL & EQUIPMENT RENTALS"; "Kawartha Tool & Equipment Rentals Ltd. · Open ..." at the foot.
    expect(
      (await readProbe('invoices-p', 'ca-ontario-equipment-rental-deposit')).value('document.supplierName'),
    ).toBe('Kawartha Tool & Equipment Rentals Ltd.');
    // "The Larkspur Inn is operated by Larkspur Lodging LLC." is a sentence, not the inn's full name.
    expect(
      (await readProbe('receipts-o', 'us-hotel-folio-denver')).value('document.supplierName'),
    ).not.toMatch(/operated/);
  });

  it("another column's 'Customer ID C-2291' on the name's line is no address", async () => {
    expect(
      (await readProbe('invoices-p', 'us-print-shop-taxable-items')).value('document.supplierAddress'),
    ).toBe('4418 Harmon Ave, Suite B, Dayton, OH 45420');
  });

  it('a line saying who runs the shop is no part of the name', async () => {
    // "The Crown & Anchor is operated by" over "Ferrybridge Inns Limited".
    expect((await readProbe('receipts-q', 'uk-pub-optional-service')).value('document.supplierName')).toBe(
      'Ferrybridge Inns Limited',
    );
  });

  it("a recipient's block under 'PRIVATE & CONFIDENTIAL' and a director's line is named by the company", async () => {
    expect(
      (await readProbe('invoices-q', 'sg-law-firm-disbursements-on-account')).value('document.customerName'),
    ).toBe('Brightmere Maritime Pte. Ltd.');
  });

  it('a recipient printed twice side by side (billing and delivery columns) is one name', async () => {
    const s = sheet();
    s.put(40, 52, 'KOIVULAN', 16, true);
    s.put(330, 52, 'LASKU', 16, true);
    s.put(330, 84, 'Laskun numero', 8);
    s.put(440, 84, '241187', 8);
    s.put(190, 146, 'Toimitusosoite', 7, true);
    s.put(52, 158, 'Järvi-Suomen Leipomo Oy', 9.5);
    s.put(190, 158, 'Järvi-Suomen Leipomo Oy', 8);
    s.put(52, 170, 'Ostoreskontra', 9.5);
    s.put(190, 170, 'Leipomontie 3', 8);
    s.put(52, 182, 'PL 118', 9.5);
    s.put(190, 182, '50100 Mikkeli', 8);
    s.put(52, 194, '50101 Mikkeli', 9.5);
    s.put(330, 500, 'Yhteensä', 9, true);
    s.put(500, 500, '1.240,00', 9, true);
    expect((await extractLines(engine, s.lines, ['invoices:2'])).value('document.customerName')).toBe(
      'Järvi-Suomen Leipomo Oy',
    );
  });

  it("an unlabelled recipient whose street stands beside another column's dates", async () => {
    const s = sheet();
    s.put(400, 50, 'Fjellheim Verktøy AS', 8);
    s.put(50, 60, 'FJELLHEIM', 20, true);
    s.put(400, 60, 'Industriveien 9', 8);
    s.put(400, 71, '2069 Jessheim', 8);
    s.put(50, 140, 'Bygg & Tak Romerike AS', 10);
    s.put(380, 140, 'Fakturanr.', 8.5);
    s.put(465, 140, '88021', 8.5);
    s.put(380, 152, 'Fakturadato', 8.5);
    s.put(465, 152, '11.03.2024', 8.5);
    s.put(50, 153, 'Postboks 214', 10);
    s.put(380, 164, 'Forfallsdato', 8.5);
    s.put(465, 164, '25.03.2024', 8.5);
    s.put(50, 166, '2001 Lillestrøm', 10);
    s.put(50, 220, 'FAKTURA', 16, true);
    s.put(360, 500, 'Å betale', 9, true);
    s.put(500, 500, '18 762,50', 9, true);
    expect((await extractLines(engine, s.lines, ['invoices:2'])).value('document.customerName')).toBe(
      'Bygg & Tak Romerike AS',
    );
  });

  it("a totals column beside a VAT table's rows: its amounts are the document's", async () => {
    const s = sheet();
    s.put(50, 60, 'Groothandel Vries B.V.', 14, true);
    s.put(50, 455, 'BTW-specificatie', 9, true);
    s.put(50, 471, 'Tarief', 8.5, true);
    s.put(128, 471, 'Grondslag', 8.5, true);
    s.put(230, 471, 'BTW', 8.5, true);
    s.put(372, 471, 'Totaal excl. BTW', 9);
    s.put(510, 471, '€ 536,22', 9);
    s.put(372, 485, 'Totaal BTW', 9);
    s.put(515, 485, '€ 62,46', 9);
    s.put(50, 486, '0%', 8.5);
    s.put(149, 486, '23,40', 8.5);
    s.put(234, 486, '0,00', 8.5);
    s.put(50, 499, '9%', 8.5);
    s.put(144, 499, '376,97', 8.5);
    s.put(229, 499, '33,93', 8.5);
    s.put(372, 503, 'Totaal incl. BTW', 10, true);
    s.put(503, 503, '€ 598,68', 10, true);
    s.put(50, 512, '21%', 8.5);
    s.put(144, 512, '135,85', 8.5);
    s.put(229, 512, '28,53', 8.5);
    s.put(
      50,
      555,
      'Wij verzoeken u het totaalbedrag vóór 26-04-2024 over te maken op NL41 ZWLB 0417 2639 53',
      8.5,
    );
    expectValues(await extractLines(engine, s.lines, ['invoices:2']), {
      'invoice.subTotal': '536.22',
      'invoice.tax': '62.46',
      'invoice.total': '598.68',
    });
  });

  it('tax lines that add up to the total within a printed round off', async () => {
    const s = sheet();
    s.put(50, 60, 'Sai Kiran Textiles Pvt. Ltd.', 14, true);
    s.put(340, 356, 'Total Taxable Value', 8.5);
    s.put(500, 356, '2,67,117.50', 8.5);
    s.put(340, 369, 'Add: CGST @ 2.5%', 8.5);
    s.put(512, 369, '6,677.94', 8.5);
    s.put(340, 382, 'Add: SGST @ 2.5%', 8.5);
    s.put(512, 382, '6,677.94', 8.5);
    s.put(340, 395, 'Round Off', 8.5);
    s.put(526, 395, '-0.38', 8.5);
    s.put(340, 412, 'Grand Total', 10, true);
    s.put(469, 412, 'Rs. 2,80,473.00', 10, true);
    expectValues(await extractLines(engine, s.lines, ['invoices:2']), {
      'invoice.subTotal': '267117.50',
      'invoice.tax': '13355.88',
      'invoice.total': '280473.00',
    });
  });

  it("an invoice number after a bare 'N°', not a contract's nor the invoice a credit note is about", async () => {
    const facture = sheet();
    facture.put(50, 62, 'Atelier Lumière & Bois', 18, true);
    facture.put(400, 62, 'FACTURE', 18, true);
    facture.put(400, 84, 'N° :', 8.5);
    facture.put(455, 84, 'FA-2024-0412', 8.5);
    facture.put(400, 96, 'Date :', 8.5);
    facture.put(455, 96, '04/11/2024', 8.5);
    facture.put(360, 420, 'Total TTC', 10, true);
    facture.put(480, 420, '1 260,00 €', 10, true);
    facture.put(50, 519, 'Assurance décennale : MAAF Pro, contrat n° 184 227 301, couverture France.', 8);
    expect((await extractLines(engine, facture.lines, ['invoices:2'])).value('document.referenceNo')).toBe(
      'FA-2024-0412',
    );
    const credit = sheet();
    credit.put(50, 60, 'Kantoormeubelen Peeters BV', 14, true);
    credit.put(50, 200, 'CREDITNOTA', 16, true);
    credit.put(50, 225, 'Creditnota nr.', 8.5);
    credit.put(150, 225, 'CN-2024-0042', 8.5);
    credit.put(50, 238, 'Datum', 8.5);
    credit.put(150, 238, '22/05/2024', 8.5);
    credit.put(50, 262, 'Betreft factuur', 8.5);
    credit.put(150, 262, '2024-0718 van 30/04/2024', 8.5);
    credit.put(360, 430, 'Totaal incl. btw', 9, true);
    credit.put(493, 430, '-862,73 EUR', 9, true);
    expect((await extractLines(engine, credit.lines, ['invoices:2'])).value('document.referenceNo')).toBe(
      'CN-2024-0042',
    );
  });

  it("the invoice's date, not its order's ('Ihre Bestellung vom'); a UAE TRN; no amount after 'Excl. VAT' as a VAT number", async () => {
    const austrian = sheet();
    austrian.put(50, 60, 'Alpenblick Gastro-Technik GmbH', 14, true);
    austrian.put(370, 154, 'Datum', 8);
    austrian.put(487, 154, '28. Jänner 2025', 8);
    austrian.put(370, 190, 'Ihre Bestellung', 8);
    austrian.put(488, 190, 'vom 09.01.2025', 8);
    austrian.put(360, 420, 'Gesamtbetrag', 9, true);
    austrian.put(490, 420, 'EUR 12.386,40', 9, true);
    expect((await extractLines(engine, austrian.lines, ['invoices:2'])).value('document.date')).toBe(
      '2025-01-28',
    );
    const emirati = sheet();
    emirati.put(40, 50, 'Dune Crest Hospitality Supplies L.L.C.', 12, true);
    emirati.put(40, 68, 'Warehouse 22, Al Quoz Industrial Area 3', 8);
    emirati.put(40, 100, 'TRN: 100384726150003', 8, true);
    emirati.put(360, 420, 'Total (AED)', 9, true);
    emirati.put(490, 420, '12,915.00', 9, true);
    expect((await extractLines(engine, emirati.lines, ['invoices:2'])).value('document.supplierTaxId')).toBe(
      '100384726150003',
    );
    const southAfrican = sheet();
    southAfrican.put(45, 60, 'Karoo Solar Installations (Pty) Ltd', 12, true);
    southAfrican.put(473, 126, 'VAT No. 4418732659', 8);
    southAfrican.put(320, 373, 'Sub Total (Excl. VAT)', 9);
    southAfrican.put(496, 373, 'R 211 550.00', 9);
    southAfrican.put(320, 387, 'VAT @ 15%', 9);
    southAfrican.put(501, 387, 'R 31 732.50', 9);
    southAfrican.put(320, 401, 'Total', 9, true);
    southAfrican.put(496, 401, 'R 243 282.50', 9, true);
    expect(
      (await extractLines(engine, southAfrican.lines, ['invoices:2'])).value('document.supplierTaxId'),
    ).toBe('4418732659');
  });

  it("a customer's name under 'The Directors' or after Estonian 'Maksja' (the payer) is the company alone", async () => {
    const irish = sheet();
    irish.put(192, 58, 'BREEN WHELAN & CO.', 18, true);
    irish.put(471, 130, 'FEE NOTE', 14, true);
    irish.put(50, 146, 'The Directors', 9.5);
    irish.put(50, 158, 'Mulcair Joinery Limited', 9.5);
    irish.put(50, 171, 'Unit 12, Ballycoolin Business Park', 9.5);
    irish.put(50, 183, 'Dublin 15, D15 R2X8', 9.5);
    irish.put(360, 640, 'Total due', 9, true);
    irish.put(490, 640, '€3,926.80', 9, true);
    expect((await extractLines(engine, irish.lines, ['invoices:2'])).value('document.customerName')).toBe(
      'Mulcair Joinery Limited',
    );
    const estonian = sheet();
    estonian.put(40, 62, 'KALARANNA', 22, true);
    estonian.put(492, 62, 'ARVE', 22, true);
    estonian.put(40, 120, 'Maksja', 8, true);
    estonian.put(40, 134, 'Pilvemets Digital OÜ', 9.5);
    estonian.put(40, 159, 'Tartu mnt 84a-12', 9.5);
    estonian.put(40, 172, '10112 Tallinn', 9.5);
    estonian.put(360, 420, 'Kokku tasuda EUR', 11, true);
    estonian.put(510, 420, '1 524,51', 11, true);
    expect((await extractLines(engine, estonian.lines, ['invoices:2'])).value('document.customerName')).toBe(
      'Pilvemets Digital OÜ',
    );
  });

  it("a Danish telecom bill: the logo's large word starts the company's name in the foot; 'Sidste rettidige betaling'", async () => {
    const s = sheet();
    s.put(50, 58, 'solvang', 24, true);
    s.put(140, 58, 'erhverv', 10);
    s.put(488, 58, 'Faktura', 16, true);
    s.put(330, 142, 'Fakturanummer', 8);
    s.put(440, 142, '812554907', 8);
    s.put(330, 154, 'Fakturadato', 8);
    s.put(440, 154, '05.03.2025', 8);
    s.put(330, 166, 'Sidste rettidige betaling', 8);
    s.put(440, 166, '20.03.2025', 8);
    s.put(330, 511, 'Beløb til betaling DKK', 9.5, true);
    s.put(506, 511, '1.496,50', 9.5, true);
    s.put(
      87,
      800,
      'Solvang Telecom A/S  ·  Havnegade 41, 2. sal  ·  8000 Aarhus C  ·  CVR-nr. 38127462',
      6.8,
    );
    expectValues(await extractLines(engine, s.lines, ['invoices:2']), {
      'document.supplierName': 'Solvang Telecom A/S',
      'invoice.dueDate': '2025-03-20',
    });
    // An Italian professional association's name ends in "Associati": the full name a logo starts.
    const studio = sheet();
    studio.put(50, 60, 'MARCHETTI & SALA', 18, true);
    studio.put(
      50,
      800,
      'Marchetti & Sala Architetti Associati - Via Zamboni 12, 40126 Bologna - P.IVA 03187451202',
      7,
    );
    studio.put(360, 420, 'Totale documento', 9, true);
    studio.put(490, 420, '€ 12.386,40', 9, true);
    expect((await extractLines(engine, studio.lines, ['invoices:2'])).value('document.supplierName')).toBe(
      'Marchetti & Sala Architetti Associati',
    );
  });

  it("the letterhead's address where the name is printed again close under it over a remittance box", async () => {
    const s = sheet();
    s.put(40, 50, 'CARDINAL RIDGE', 17, true);
    s.put(494, 50, 'INVOICE', 18, true);
    s.put(40, 80, 'Cardinal Ridge Technologies, LLC', 8);
    s.put(40, 90, '4400 Easton Commons Way, Suite 210', 8);
    s.put(40, 101, 'Columbus, OH 43219', 8);
    s.put(40, 140, 'SOLD TO', 7.5, true);
    s.put(430, 140, 'REMIT TO', 7.5, true);
    s.put(40, 152, 'Scioto Valley Orthopedics, Inc.', 8.3);
    s.put(430, 152, 'Cardinal Ridge Technologies, LLC', 8.3);
    s.put(40, 163, '1850 W. Fifth Ave', 8.3);
    s.put(430, 163, 'P.O. Box 714392', 8.3);
    s.put(40, 174, 'Columbus, OH 43212', 8.3);
    s.put(430, 174, 'Cincinnati, OH 45271-4392', 8.3);
    s.put(360, 600, 'Total Due', 9, true);
    s.put(490, 600, '$16,233.90', 9, true);
    expectValues(await extractLines(engine, s.lines, ['invoices:2']), {
      'document.supplierName': 'Cardinal Ridge Technologies, LLC',
      'document.supplierAddress': '4400 Easton Commons Way, Suite 210, Columbus, OH 43219',
    });
  });

  it("a Swedish credit note's number and sum to receive ('Kreditfakturanr', 'Att erhålla'), negative as printed", async () => {
    const s = sheet();
    s.put(45, 56, 'Dentalia Norden AB', 16, true);
    s.put(409, 56, 'KREDITFAKTURA', 16, true);
    s.put(360, 76, 'Kreditfakturanr', 8.3);
    s.put(527, 76, '70412', 8.3);
    s.put(360, 88, 'Datum', 8.3);
    s.put(508, 88, '2024-09-18', 8.3);
    s.put(380, 409, 'Netto', 9.5);
    s.put(510, 409, '-4 867,20', 9.5);
    s.put(380, 424, 'Moms 25 %', 9.5);
    s.put(510, 424, '-1 216,80', 9.5);
    s.put(380, 439, 'Att erhålla SEK', 9.5, true);
    s.put(508, 439, '-6 084,00', 9.5, true);
    expectValues(await extractLines(engine, s.lines, ['invoices:2']), {
      'document.referenceNo': '70412',
      'invoice.tax': '-1216.80',
      'invoice.total': '-6084.00',
    });
  });

  it("Czech and Afrikaans numbers: 'c. 250412' and 'Doklad c.:', not a register's 'C 48271'; 'Faktuurnr.', 'Bestelnr.'", async () => {
    const czech = sheet();
    czech.put(40, 50, 'AUTOSERVIS DVORAK', 15, true);
    czech.put(300, 50, 'FAKTURA - DANOVY DOKLAD', 13, true);
    czech.put(504, 66, 'c. 250412', 11, true);
    czech.put(40, 208, 'Zapsano v OR u Krajskeho soudu v Brne, oddil C 48213', 7);
    czech.put(370, 507, 'Celkem k uhrade CZK:', 9.5, true);
    czech.put(510, 507, '11 043,00', 9.5, true);
    expect((await extractLines(engine, czech.lines, ['invoices:2'])).value('document.referenceNo')).toBe(
      '250412',
    );
    const till = receipt([
      [60, 'POTRAVINY U MOSTU', 12],
      [60, 'Doklad c.: 2019/04512   14.06.2019 17:35'],
      [60, 'CELKEM KC        207,10'],
    ]);
    expect((await extractLines(engine, till, ['receipts:1'])).value('document.referenceNo')).toBe(
      '2019/04512',
    );
    const afrikaans = sheet();
    afrikaans.put(40, 54, 'KAROO LANDBOU', 18, true);
    afrikaans.put(390, 74, 'Faktuurnr.', 8.5);
    afrikaans.put(465, 74, 'KLV-188420', 8.5);
    afrikaans.put(390, 110, 'Bestelnr.', 8.5);
    afrikaans.put(465, 110, '3317', 8.5);
    afrikaans.put(340, 392, 'Subtotaal (BTW uitgesluit)', 9.5);
    afrikaans.put(503, 392, 'R 49 927,20', 9.5);
    afrikaans.put(340, 407, 'BTW @ 15%', 9.5);
    afrikaans.put(508, 407, 'R 7 489,08', 9.5);
    afrikaans.put(340, 422, 'TOTAAL BETAALBAAR', 9.5, true);
    afrikaans.put(500, 422, 'R 57 416,28', 9.5, true);
    const doc = await extractLines(engine, afrikaans.lines, ['invoices:2']);
    expectValues(doc, {
      'document.referenceNo': 'KLV-188420',
      'invoice.purchaseOrderNo': '3317',
      // "BTW" inside the subtotal's label is no tax's label.
      'invoice.subTotal': '49927.20',
      'invoice.tax': '7489.08',
    });
  });

  it("a VAT table's tax under its heading whose thousands a space sets off ('1 916,54' under 'DPH')", async () => {
    const s = sheet();
    s.put(40, 50, 'Autoservis Dvorak s.r.o.', 12, true);
    s.put(40, 476, 'Sazba', 8.5);
    s.put(124, 476, 'Zaklad', 8.5);
    s.put(212, 476, 'DPH', 8.5);
    s.put(271, 476, 'Celkem', 8.5);
    s.put(40, 489, '21 %', 8.5);
    s.put(117, 489, '9 126,40', 8.5);
    s.put(197, 489, '1 916,54', 8.5);
    s.put(262, 489, '11 042,94', 8.5);
    s.put(370, 507, 'Celkem k uhrade CZK:', 9.5, true);
    s.put(510, 507, '11 043,00', 9.5, true);
    expect((await extractLines(engine, s.lines, ['invoices:2'])).value('invoice.tax')).toBe('1916.54');
  });

  it("a Finnish insurance premium invoice: two lines that say 'yhteensä', the premium tax between them", async () => {
    const s = sheet();
    s.put(50, 56, 'Vakuutusyhtiö Lumme', 14, true);
    s.put(330, 74, 'Laskun numero', 8.5);
    s.put(430, 74, '9100227741', 8.5);
    s.put(50, 280, 'Liikennevakuutus, pakettiauto', 9);
    s.put(505, 280, '1 214,60', 9);
    s.put(50, 296, 'Kaskovakuutus, pakettiauto', 9);
    s.put(505, 296, '1 842,00', 9);
    s.put(300, 349, 'Vakuutusmaksut yhteensä', 9.5);
    s.put(503, 349, '3 056,60', 9.5);
    s.put(300, 364, 'Vakuutusmaksuvero 24 %', 9.5);
    s.put(511, 364, '733,58', 9.5);
    s.put(300, 379, 'Maksettava yhteensä EUR', 9.5, true);
    s.put(501, 379, '3 790,18', 9.5, true);
    expectValues(await extractLines(engine, s.lines, ['invoices:2']), {
      'invoice.subTotal': '3056.60',
      'invoice.tax': '733.58',
      'invoice.total': '3790.18',
    });
  });

  it("the invoice's date after its number ('Rechnung Nr. … vom'), not a ride's ('Taxifahrt vom'), the day of delivery too", async () => {
    const taxi = sheet();
    taxi.put(50, 50, 'Taxibetrieb Lindner GmbH', 12, true);
    taxi.put(50, 66, 'Am Anger 4, 04109 Leipzig', 8);
    taxi.put(50, 100, 'Handelsrechnung Nr. TX-2291 vom 14.03.2025', 9);
    taxi.put(50, 120, 'Liefer- und Leistungsdatum : 11.03.2025', 9);
    taxi.put(50, 200, 'Rechnung gemäß Taxifahrt vom 11.03.2025', 9);
    taxi.put(360, 420, 'Gesamtbetrag', 9, true);
    taxi.put(490, 420, 'EUR 23,40', 9, true);
    expect((await extractLines(engine, taxi.lines, ['invoices:2'])).value('document.date')).toBe(
      '2025-03-14',
    );
  });

  it("the invoice's date, not the order's ('PO Date'), the e-invoice acknowledgement's or a progress status's", async () => {
    const indian = sheet();
    indian.put(36, 50, 'Meghdoot Polymers Pvt Ltd', 12, true);
    indian.put(36, 134, 'Ack No. 172415884036621   Ack Date 03-06-2024 11:42', 7);
    indian.put(405, 170, 'Invoice Date', 7.5);
    indian.put(472, 170, '03/06/2024', 7.5);
    indian.put(405, 192, 'PO Date', 7.5);
    indian.put(472, 192, '22/05/2024', 7.5);
    indian.put(360, 420, 'Grand Total', 9, true);
    indian.put(480, 420, '1,18,000.00', 9, true);
    const po = await extractLines(engine, indian.lines, ['invoices:2']);
    expect(po.value('document.date')).toBe('2024-06-03');
    const german = sheet();
    german.put(70, 60, 'Zimmerei Holzmann GmbH & Co. KG', 12, true);
    german.put(380, 156, 'Datum', 8.5);
    german.put(470, 156, '12.06.2024', 8.5);
    german.put(
      70,
      305,
      'gemäß Bauvertrag und Leistungsstand vom 07.06.2024 stellen wir Ihnen in Rechnung:',
      9,
    );
    german.put(360, 420, 'Gesamtbetrag', 9, true);
    german.put(490, 420, '12.386,40 €', 9, true);
    const status = await extractLines(engine, german.lines, ['invoices:2']);
    expect(status.value('document.date')).toBe('2024-06-12');
  });

  it("an XRechnung viewer's title is no seller: the seller is under 'Verkäufer'", async () => {
    const s = sheet();
    s.put(40, 46, 'XRechnung', 16, true);
    s.put(514, 46, 'Übersicht', 9, true);
    s.put(40, 84, 'Käufer', 10, true);
    s.put(40, 98, 'Käuferreferenz (Leitweg-ID)', 8);
    s.put(168, 98, '09362-GEB4471-12', 8);
    s.put(40, 109, 'Name', 8);
    s.put(168, 109, 'Stadt Hohenbrück – Amt für Gebäudewirtschaft', 8);
    s.put(40, 120, 'Straße', 8);
    s.put(168, 120, 'Rathausplatz 3', 8);
    s.put(40, 170, 'Verkäufer', 10, true);
    s.put(40, 184, 'Name', 8);
    s.put(168, 184, 'Elektro Brandner GmbH', 8);
    s.put(40, 195, 'Straße', 8);
    s.put(168, 195, 'Friedenstraße 18', 8);
    s.put(300, 458, 'Gesamtbetrag', 8.5);
    s.put(502, 458, '5.236,00 EUR', 8.5);
    const doc = await extractLines(engine, s.lines, ['invoices:2']);
    expect(doc.value('document.supplierName')).toBe('Elektro Brandner GmbH');
  });

  it("a Facturae viewer: the seller's address beside another column's 'Número de factura' and above its register; its taxes and total", async () => {
    const s = sheet();
    s.put(40, 48, 'Factura electrónica', 16, true);
    s.put(40, 92, 'EMISOR', 9, true);
    s.put(340, 92, 'DATOS DE LA FACTURA', 9, true);
    s.put(40, 106, 'Razón social', 8);
    s.put(122, 106, 'Suministros Hidráulicos Levante S.L.', 8);
    s.put(340, 106, 'Número de factura', 8);
    s.put(440, 106, 'FV24-0143', 8);
    s.put(40, 117, 'NIF', 8);
    s.put(122, 117, 'B96318456', 8);
    s.put(40, 128, 'Dirección', 8);
    s.put(122, 128, 'Calle de la Industria 27', 8);
    s.put(40, 139, 'Población', 8);
    s.put(122, 139, '46988 Paterna (Valencia)', 8);
    s.put(40, 161, 'Registro', 8);
    s.put(122, 161, 'R.M. Valencia, T. 9412, F. 77, H. V-144712', 8);
    s.put(320, 402, 'Importe bruto total', 8.5);
    s.put(515, 402, '3.556,70 €', 8.5);
    s.put(320, 426, 'Base imponible', 8.5);
    s.put(515, 426, '3.556,70 €', 8.5);
    s.put(320, 438, 'Total impuestos repercutidos', 8.5);
    s.put(522, 438, '746,91 €', 8.5);
    s.put(320, 462, 'Total factura', 8.5);
    s.put(515, 462, '4.303,61 €', 8.5);
    const doc = await extractLines(engine, s.lines, ['invoices:2']);
    expect(doc.value('document.supplierAddress')).toBe('Calle de la Industria 27, 46988 Paterna (Valencia)');
    expect(doc.value('invoice.tax')).toBe('746.91');
    expect(doc.value('invoice.total')).toBe('4303.61');
  });

  it("a Peppol viewer: the buyer's 'Name (BT-44)' beside the seller's name is no start of the seller's address", async () => {
    const peppol = probeSet('invoices-k').find((c) => c.name === 'eu-peppol-bis-norway')!;
    const doc = await extractPages(engine, probePages(peppol), [peppol.product]);
    expect(doc.value('document.supplierAddress')).toBe('Kokstadflaten 27, 5257 Kokstad, NO');
  });

  it("a tax id after 'Registration No.', no IBAN's first groups, no word of the next column", async () => {
    const canadian = sheet();
    canadian.put(40, 50, 'Cedar Point Supply Ltd.', 14, true);
    canadian.put(360, 324, 'Total', 9, true);
    canadian.put(500, 324, '$1,130.00', 9, true);
    canadian.put(40, 480, 'GST/HST Registration No. 812345676 RT0001', 8);
    expect((await extractLines(engine, canadian.lines, ['invoices:2'])).value('document.supplierTaxId')).toBe(
      '812345676RT0001',
    );
    // A Polish IBAN starts like a Polish VAT id (`PL` and ten digits): the NIP is the seller's tax id.
    const polish = sheet();
    polish.put(50, 115, 'Sprzedawca', 8.5, true);
    polish.put(50, 129, 'Drukarnia Lipowa Sp. z o.o.', 9);
    polish.put(50, 140, 'ul. Lipowa 14', 9);
    polish.put(50, 152, '30-702 Kraków', 9);
    polish.put(50, 164, 'NIP: 677-231-84-55', 9);
    polish.put(50, 377, 'Razem do zaplaty:', 9.5);
    polish.put(170, 377, '4 495,35 PLN', 9.5, true);
    polish.put(50, 456, 'Numer konta:', 8.5);
    polish.put(170, 456, 'PL66 8591 0007 0021 0483 2915 0001', 8.5);
    const read = await extractLines(engine, polish.lines, ['invoices:2']);
    expect(read.value('document.supplierTaxId')).toBe('677-231-84-55');
    expect(read.value('bank.iban')).toBe('PL66859100070021048329150001');
    // The seller's NIF on the row of the buyer's street: the id ends at the column's gap.
    const portuguese = sheet();
    portuguese.put(50, 92, 'Cerâmicas do Lis, Lda.', 8);
    portuguese.put(50, 102, 'Rua da Olaria, 45', 8);
    portuguese.put(50, 113, '2400-123 Leiria', 8);
    portuguese.put(50, 134, 'NIF: 514872039', 8);
    portuguese.put(330, 135, 'Av. da Boavista 1420', 9.5);
    portuguese.put(360, 428, 'Total (EUR)', 10, true);
    portuguese.put(494, 428, '2.068,37 €', 10, true);
    expect(
      (await extractLines(engine, portuguese.lines, ['invoices:2'])).value('document.supplierTaxId'),
    ).toBe('514872039');
  });

  it('a Czech invoice: Dodavatel and Odberatel blocks, cislo faktury, splatnost, zaklad dane, DPH, celkem k uhrade', async () => {
    const s = sheet();
    s.put(40, 50, 'Faktura - danovy doklad', 16, true);
    s.put(40, 90, 'Dodavatel:', 9, true);
    s.put(320, 90, 'Odberatel:', 9, true);
    s.put(40, 104, 'Stavebniny Horak s.r.o.', 9);
    s.put(320, 104, 'Novotny a syn stavby s.r.o.', 9);
    s.put(40, 116, 'Prumyslova 12, 602 00 Brno', 9);
    s.put(320, 116, 'Nadrazni 8, 612 00 Brno', 9);
    s.put(40, 128, 'DIC: CZ27082440', 9);
    s.put(320, 128, 'DIC: CZ25596641', 9);
    const pair = (y: number, label: string, value: string) => {
      s.put(40, y, label, 9);
      s.put(160, y, value, 9);
    };
    pair(160, 'Cislo faktury:', '2025010345');
    pair(172, 'Datum vystaveni:', '17.03.2025');
    pair(184, 'Datum splatnosti:', '31.03.2025');
    pair(196, 'Objednavka:', 'OBJ-0219');
    s.put(320, 300, 'Zaklad dane', 9);
    s.put(480, 300, '43 700,00', 9);
    s.put(320, 312, 'DPH 21 %', 9);
    s.put(480, 312, '9 177,00', 9);
    s.put(320, 324, 'Celkem k uhrade', 9, true);
    s.put(480, 324, '52 877,00 Kc', 9, true);
    expectValues(await extractLines(engine, s.lines, ['invoices:2']), {
      'document.supplierName': 'Stavebniny Horak s.r.o.',
      'document.customerName': 'Novotny a syn stavby s.r.o.',
      'document.referenceNo': '2025010345',
      'document.date': '2025-03-17',
      'invoice.dueDate': '2025-03-31',
      'invoice.purchaseOrderNo': 'OBJ-0219',
      'document.supplierTaxId': 'CZ27082440',
      'invoice.subTotal': '43700.00',
      'invoice.tax': '9177.00',
      'invoice.total': '52877.00',
    });
  });
});

/** A receipt: one line every 14 points, `[x, text]` in 10-point print or `[x, text, size]` in bold. */
function receipt(rows: Array<[number, string] | [number, string, number]>) {
  const s = sheet();
  rows.forEach(([x, text, size], i) => s.put(x, 50 + 14 * i, text, size ?? 10, size !== undefined));
  return s.lines;
}

describe('receipts of other sources', () => {
  it("a US supermarket receipt: a slogan over the name, the manager's name, TAX 1, VISA TEND, a state and ZIP code for the currency", async () => {
    const lines = receipt([
      [160, 'Save money. Live better.'],
      [150, 'SUPERMART', 16],
      [140, '( 555 ) 555 - 0134'],
      [140, 'Mgr: Kevin Doyle'],
      [140, '1200 Commerce Blvd'],
      [140, 'Springfield IL 62704'],
      [100, 'ST# 1234 OP# 00012 TE# 12 TR# 01234'],
      [100, 'BANANAS        0.68 N'],
      [100, 'MILK 1GAL       3.48 N'],
      [100, 'DETERGENT      11.97 X'],
      [250, 'SUBTOTAL        16.13'],
      [250, 'TAX 1 6.250 %    0.75'],
      [250, 'TOTAL           16.88'],
      [250, 'VISA TEND       16.88'],
      [250, 'CHANGE DUE       0.00'],
      [100, '03/14/24      12:34:56'],
      [100, '# ITEMS SOLD 3'],
    ]);
    expectValues(await extractLines(engine, lines, ['receipts:1']), {
      'document.supplierName': 'SUPERMART',
      'document.date': '2024-03-14',
      'receipt.total': '16.88',
      'receipt.tax': '0.75',
      'document.currency': 'USD',
    });
  });

  it('a US cafe receipt with a tip line between tax and total', async () => {
    const lines = receipt([
      [150, 'Harbor Street Coffee', 14],
      [140, '88 Harbor St, Boston, MA 02110'],
      [140, 'Order #4471'],
      [140, 'Server: Anna'],
      [140, 'Mar 14, 2024 8:12 AM'],
      [100, 'Latte                 $5.25'],
      [100, 'Croissant             $3.25'],
      [100, 'Subtotal              $8.50'],
      [100, 'Tax                   $0.76'],
      [100, 'Tip                   $1.50'],
      [100, 'Total                $10.76'],
      [100, 'Visa **** 1234       $10.76'],
      [160, 'Thank you for visiting!'],
    ]);
    expectValues(await extractLines(engine, lines, ['receipts:1']), {
      'document.supplierName': 'Harbor Street Coffee',
      'document.date': '2024-03-14',
      'receipt.total': '10.76',
      'receipt.tax': '0.76',
    });
  });

  it('a German receipt whose tax is only in its VAT summary (Steuer %, Netto, Steuer, Brutto, Gesamtbetrag)', async () => {
    const lines = receipt([
      [150, 'Frischmarkt Lindner oHG', 14],
      [150, 'Bahnhofstr. 12'],
      [150, '04109 Leipzig'],
      [150, 'UID Nr.: DE136695976'],
      [100, 'Vollmilch 1,5%            1,19 B'],
      [100, 'Roggenbrot                2,49 B'],
      [100, 'Spülmittel                1,95 A'],
      [100, '--------------------------------'],
      [100, 'SUMME EUR                 5,63'],
      [100, 'Geg. BAR                 10,00'],
      [100, 'Rückgeld EUR              4,37'],
      [100, 'Steuer  %    Netto   Steuer   Brutto'],
      [100, 'A=  19,0%    1,64     0,31     1,95'],
      [100, 'B=   7,0%    3,44     0,24     3,68'],
      [100, 'Gesamtbetrag 5,08     0,55     5,63'],
      [100, '14.03.2024   10:42   Bon-Nr.: 4471   Kasse: 2'],
    ]);
    expectValues(await extractLines(engine, lines, ['receipts:1']), {
      'document.supplierName': 'Frischmarkt Lindner oHG',
      'document.date': '2024-03-14',
      'receipt.total': '5.63',
      'receipt.tax': '0.55',
      'document.currency': 'EUR',
    });
  });

  it("a French receipt: the operating company under the shop's name, TOTAL A PAYER, a one-row TVA table", async () => {
    const lines = receipt([
      [150, 'HYPER DU LAC', 14],
      [150, 'SAS Distribution Lacroix'],
      [150, '3 avenue de la Gare 74000 Annecy'],
      [150, 'SIRET 73282932000074'],
      [100, 'PAIN CAMPAGNE          1,20'],
      [100, 'FROMAGE COMTE          6,45'],
      [100, 'EAU MINERALE X6        2,94'],
      [100, '3 ARTICLES'],
      [100, 'TOTAL A PAYER         10,59 EUR'],
      [100, 'CB EMV                10,59'],
      [100, 'TVA     HT      TVA     TTC'],
      [100, '5,50%   10,04   0,55   10,59'],
      [100, 'Le 14/03/2024 a 17:05  Caisse 012'],
      [150, 'MERCI DE VOTRE VISITE'],
    ]);
    expectValues(await extractLines(engine, lines, ['receipts:1']), {
      'document.supplierName': 'HYPER DU LAC',
      'document.date': '2024-03-14',
      'receipt.total': '10.59',
      'receipt.tax': '0.55',
      'document.currency': 'EUR',
    });
  });

  it('a Dutch bakery receipt: TOTAAL, PIN, BTW 9% over the net amount', async () => {
    const lines = receipt([
      [150, 'Bakkerij de Molen', 14],
      [150, 'Dorpsstraat 5, 3481 AB Harmelen'],
      [150, 'Kassa 1  Bon 2211'],
      [100, '2 x Krentenbol      1,90'],
      [100, 'Volkoren brood      2,75'],
      [100, 'TOTAAL              4,65'],
      [100, 'PIN                 4,65'],
      [100, 'BTW 9%  over 4,27   0,38'],
      [100, '14-03-2024 09:15'],
      [150, 'Bedankt en tot ziens'],
    ]);
    expectValues(await extractLines(engine, lines, ['receipts:1']), {
      'document.supplierName': 'Bakkerij de Molen',
      'document.date': '2024-03-14',
      'receipt.total': '4.65',
      'receipt.tax': '0.38',
    });
  });

  it("a Finnish kiosk: its company with its Y-tunnus under the shop's address, 'Kuittinro', a rule ending the head", async () => {
    const s = sheet();
    [
      'KULMAKIOSKI KOIVU',
      'Hämeenkatu 22',
      '33200 Tampere',
      'Koivu Kauppa Oy   Y-tunnus 3184422-2',
      '==========================================',
      'Kuittinro 4471   12.10.2024 klo 07:54',
      'Kassa 1   Myyjä: Aino',
      'KAHVI ISO                    3,20',
      'YHTEENSÄ                     3,20',
    ].forEach((text, i) => s.put(10, 24 + 10 * i, text, i === 0 ? 10 : 7.5, i === 0));
    expectValues(await extractPages(engine, [{ width: 226, height: 200, lines: s.lines }], ['receipts:1']), {
      'document.supplierName': 'Koivu Kauppa Oy',
      'document.supplierAddress': 'Hämeenkatu 22, 33200 Tampere',
      'document.referenceNo': '4471',
    });
  });

  it("the company a receipt's foot says the shop is a trading name of ('... is a trading name of' over it)", async () => {
    const s = sheet();
    s.put(40, 24, 'PLATFORM BREW', 12, true);
    s.put(50, 40, 'Concourse Unit 3, Station Road', 7.5);
    s.put(12, 120, 'TOTAL', 10, true);
    s.put(180, 120, '£7.85', 10, true);
    s.put(52, 395, 'Platform Brew is a trading name of', 6.5);
    s.put(52, 404, 'Halden Rail Catering Ltd', 6.5);
    s.put(52, 413, 'Registered in England No. 09182734', 6.5);
    const doc = await extractPages(engine, [{ width: 226, height: 440, lines: s.lines }], ['receipts:1']);
    expect(doc.value('document.supplierName')).toBe('Halden Rail Catering Ltd');
  });

  it("a French pharmacy: the date on the invoice number's line, not the prescription's ('Ordonnance du')", async () => {
    const lines = receipt([
      [50, 'PHARMACIE DU PONT', 11],
      [60, '14 quai Saint-Vincent, 69001 LYON'],
      [10, 'FACTURE N° 2024-018834   08/04/2024 11:37'],
      [10, 'Ordonnance du 05/04/2024 - Dr M. FAVRE'],
      [10, 'TOTAL TTC                 32,06'],
      [10, 'RETURNS WITH RECEIPT THRU 10/05/2024'],
    ]);
    expect((await extractLines(engine, lines, ['receipts:1'])).value('document.date')).toBe('2024-04-08');
  });

  it("amounts in two currencies' columns: the first currency's ('TOTAL 524.00 142.68' under 'AED USD')", async () => {
    const lines = receipt([
      [60, 'DESERT GATE DUTY FREE', 12],
      [10, 'Item                         Qty      AED       USD'],
      [10, 'OUD NOIR EDP 100ML             1   395.00    107.56'],
      [10, 'MEDJOOL DATES GIFT BOX         1   129.00     35.13'],
      [10, 'TOTAL                              524.00    142.69'],
    ]);
    expect((await extractLines(engine, lines, ['receipts:1'])).value('receipt.total')).toBe('524.00');
  });

  it("addresses: a shop's unit in a centre ('Shop 22, ...'), a postcode alone, an Irish county ('Co. Mayo'), no e-mail links", async () => {
    const address = async (rows: string[]) =>
      (
        await extractLines(
          engine,
          receipt([
            [60, rows[0]!, 12],
            ...rows.slice(1).map((r): [number, string] => [60, r]),
            [10, 'TOTAL        R 357.53'],
          ]),
          ['receipts:1'],
        )
      ).value('document.supplierAddress');
    expect(
      await address(['MEDIPLUS PHARMACY', 'Shop 22, Lakeside Junction', 'Kloof Road, Bedfordview', '2008']),
    ).toBe('Shop 22, Lakeside Junction, Kloof Road, Bedfordview, 2008');
    expect(await address(['The Quay Kitchen', '14-16 Quay Road', 'Westport, Co. Mayo', 'F28 X7K2'])).toBe(
      '14-16 Quay Road, Westport, Co. Mayo, F28 X7K2',
    );
    expect(
      await address([
        'Zipwell Technologies, Inc.',
        '500 Harbor Point Blvd, Suite 1200',
        'San Francisco, CA 94111',
        'Unsubscribe  |  Privacy  |  Terms',
      ]),
    ).toBe('500 Harbor Point Blvd, Suite 1200, San Francisco, CA 94111');
  });

  it("a pay station's number and an Irish DAC over an address, a taxi's licence and plate lines beside one", async () => {
    const parking = receipt([
      [40, 'SHORT TERM CAR PARK P1', 10],
      [60, 'Pay Station 07'],
      [40, 'Corrib Parking Services DAC'],
      [50, 'Airport Road, Carnmore'],
      [50, 'Co. Galway H91 F6P3'],
      [10, 'TOTAL PAID       EUR 14.50'],
    ]);
    expect((await extractLines(engine, parking, ['receipts:1'])).value('document.supplierAddress')).toBe(
      'Airport Road, Carnmore, Co. Galway H91 F6P3',
    );
    const taxi = receipt([
      [40, 'TAXI', 12],
      [40, 'Lic. Municipal No 1187'],
      [40, 'Jorge Ibarra Lozano'],
      [40, 'C/ Pintor Sorolla 14, 3 B'],
      [40, '46002 Valencia'],
      [40, 'Matrícula 5821 KTM'],
      [10, 'TOTAL            24,60 EUR'],
    ]);
    expect((await extractLines(engine, taxi, ['receipts:1'])).value('document.supplierAddress')).toBe(
      'C/ Pintor Sorolla 14, 3 B, 46002 Valencia',
    );
  });

  it("a Spanish invoice's 'FACTURAR A' labels its customer", async () => {
    const s = sheet();
    s.put(40, 50, 'Recambios Costa del Sol S.L.', 13, true);
    s.put(40, 140, 'FACTURAR A', 8, true);
    s.put(40, 152, 'Talleres Hermanos Cortés S.L.', 9);
    s.put(40, 164, 'Av. de Velázquez 212, 29004 Málaga', 9);
    s.put(360, 420, 'TOTAL FACTURA', 9, true);
    s.put(490, 420, '1.233,70 €', 9, true);
    expect((await extractLines(engine, s.lines, ['invoices:2'])).value('document.customerName')).toBe(
      'Talleres Hermanos Cortés S.L.',
    );
  });

  it("a branch's name over the shop's address is no line of it ('Shinjuku 3-chome Store')", async () => {
    const lines = receipt([
      [60, 'HANA MART', 12],
      [60, 'Shinjuku 3-chome Store'],
      [60, '3-22-7 Shinjuku, Shinjuku-ku'],
      [60, 'Tokyo 160-0022'],
      [10, 'TOTAL                  JPY 1,240'],
    ]);
    expect((await extractLines(engine, lines, ['receipts:1'])).value('document.supplierAddress')).toBe(
      '3-22-7 Shinjuku, Shinjuku-ku, Tokyo 160-0022',
    );
  });

  it("a company's name over two lines in large print, another column's words beside its first line", async () => {
    const s = sheet();
    s.put(12, 24, 'SEILBAHNEN', 11, true);
    s.put(162, 24, 'Kasse Talstation', 7);
    s.put(12, 38, 'SONNALP AG', 11, true);
    s.put(12, 53, 'Dorfstrasse 12', 7.5);
    s.put(12, 63, '3780 Gstaad', 7.5);
    s.put(12, 96, 'Beleg-Nr. 24-118842   03.02.2024', 7.5);
    s.put(12, 126, 'Tageskarte Erwachsene', 7.5);
    s.put(190, 126, '79.00', 7.5);
    s.put(12, 150, 'Total CHF', 10.5, true);
    s.put(185, 150, '79.00', 10.5, true);
    const doc = await extractPages(engine, [{ width: 226, height: 360, lines: s.lines }], ['receipts:1']);
    expect(doc.value('document.supplierName')).toBe('SEILBAHNEN SONNALP AG');
  });

  it("a shop's address in its head when its company in the foot prints only register, tax and bank numbers", async () => {
    // A till roll's page: 226 points wide, the company printed in its foot.
    const footer = (numbers: string) => {
      const s = sheet();
      s.put(40, 30, 'FAHRRADHAUS WEIDE', 13, true);
      s.put(60, 47, 'Hafenstraße 14', 7.5);
      s.put(60, 57, '26382 Wilhelmshaven', 7.5);
      s.put(12, 90, 'Bon-Nr. 2024-1187   18.05.2024', 7.5);
      s.put(12, 110, '2 x E-Bike Tagesmiete', 7.5);
      s.put(190, 110, '55,00', 7.5);
      s.put(12, 130, 'SUMME EUR', 10, true);
      s.put(180, 130, '55,00', 10, true);
      s.put(12, 150, 'MwSt 19%', 7.5);
      s.put(195, 150, '8,78', 7.5);
      s.put(12, 440, 'Fahrradhaus Weide GmbH', 6.5);
      s.put(12, 450, numbers, 6.5);
      return [{ width: 226, height: 480, lines: s.lines }];
    };
    for (const numbers of [
      'IBAN DE89 3704 0044 0532 0130 00',
      'USt-IdNr. DE274188364  St.-Nr. 232/118/04521',
    ]) {
      const doc = await extractPages(engine, footer(numbers), ['receipts:1']);
      expect(doc.value('document.supplierName')).toBe('Fahrradhaus Weide GmbH');
      expect(doc.value('document.supplierAddress')).toBe('Hafenstraße 14, 26382 Wilhelmshaven');
    }
  });
});

/** A probe set's document, read with the invoices product (receipts too: the fields these tests check). */
function readProbe(set: string, name: string): Promise<Extracted> {
  return readProbeCase(engine, set, name, ['invoices:2']);
}

/** A till receipt in two columns: `[label]` alone or `[label, amount]` with the amount at the right margin. */

function till(rows: Array<[string] | [string, string] | [string, string, number]>) {
  const s = sheet();
  rows.forEach(([text, amount, size], i) => {
    const y = 50 + 13 * i;
    s.put(160, y, text, size ?? 9, size !== undefined);
    if (amount) s.put(390, y, amount, size ?? 9, size !== undefined);
  });
  return s.lines;
}

describe('receipts of other sources, in columns', () => {
  it("reads Singapore's dollar where no sign is printed; a rounding between subtotal and total is no tax", async () => {
    const doc = await extractLines(
      engine,
      till([
        ['PAGES & PAPER PTE LTD', '', 14],
        ['101 Dunearn Arcade #02-33, Singapore 309421'],
        ['Sub Total', '121.43'],
        ['Rounding Adj.', '0.02'],
        ['Nett Total', '121.45', 9],
        ['S = 6%', '85.03   5.10'],
        ['Z = 0%', '31.30   0.00'],
      ]),
      ['receipts:1'],
    );
    expect(doc.value('document.currency')).toBe('SGD');
    expect(doc.value('receipt.tax')).not.toBe('0.02');
  });

  it("which currency a till's sign is: 'Php', '$' in Auckland, 'kr' with Norway's MVA", async () => {
    const currencyOf = async (rows: Array<[string] | [string, string] | [string, string, number]>) =>
      (await extractLines(engine, till(rows), ['receipts:1'])).value('document.currency');
    expect(
      await currencyOf([['GRILL HOUSE', '', 14], ['Marikina Heights Plaza'], ['TOTAL DUE', 'Php 389.00', 9]]),
    ).toBe('PHP');
    expect(
      await currencyOf([
        ['KAURI HARDWARE', '', 14],
        ['27 Carbine Road'],
        ['Mt Wellington, Auckland 1060'],
        ['TOTAL', '$118.32', 9],
        ['GST No: 112-456-783'],
      ]),
    ).toBe('NZD');
    expect(
      await currencyOf([['FJELLHEIM KIOSK', '', 14], ['Org.nr. 987 654 325 MVA'], ['SUM', 'kr 128,50', 9]]),
    ).toBe('NOK');
    // "kr" stays the Swedish krona where nothing says another country.
    expect(
      await currencyOf([
        ['ALMA KIOSK', '', 14],
        ['SUMMA', 'kr 128,50', 9],
      ]),
    ).toBe('SEK');
  });

  it("a pub's bill: its name over the operating company, a service charge, VAT included in the total", async () => {
    const lines = till([
      ['THE OTTER & OAR', '', 14],
      ['Riverside Taverns Ltd'],
      ['12 Mill Lane, Abingdon OX14 5AA'],
      ['VAT No. GB 739 0218 36'],
      ['Server: Tom', 'Check: 55120'],
      ['2 Fish & Chips', '32.00'],
      ['2 Pints Bitter', '11.00'],
      ['Sub Total', '43.00'],
      ['Service charge 10%', '4.30'],
      ['TOTAL', '£47.30', 11],
      ['Card Payment', '£47.30'],
      ['VAT @ 20% included', '7.88'],
      ['21/09/2024 20:14'],
    ]);
    expectValues(await extractLines(engine, lines, ['receipts:1']), {
      'document.supplierName': 'THE OTTER & OAR',
      'document.date': '2024-09-21',
      'receipt.total': '47.30',
      'receipt.tax': '7.88',
      'document.currency': 'GBP',
      'document.referenceNo': '55120',
    });
  });

  it('a Spanish simplified invoice: the total labelled "TOTAL (IVA INCL.)", its base and IVA', async () => {
    const lines = till([
      ['CASA PACO', '', 14],
      ['Calle Mayor 3, 28013 Madrid'],
      ['Ticket: T-0042'],
      ['Fecha: 14/08/2024'],
      ['2 CANAS', '4,00'],
      ['1 TORTILLA', '16,00'],
      ['BASE IMPONIBLE', '18,18'],
      ['IVA 10%', '1,82'],
      ['TOTAL (IVA INCL.)', '20,00 €', 11],
      ['EFECTIVO', '50,00'],
      ['CAMBIO', '30,00'],
    ]);
    expectValues(await extractLines(engine, lines, ['receipts:1']), {
      'document.supplierName': 'CASA PACO',
      'document.date': '2024-08-14',
      'receipt.total': '20.00',
      'receipt.tax': '1.82',
      'document.currency': 'EUR',
      'document.referenceNo': 'T-0042',
    });
  });

  it('a Dutch supermarket receipt whose BTW block prints rate, base and tax per row and their totals', async () => {
    const s = sheet();
    s.put(160, 50, 'VERSHOEK', 14, true);
    s.put(160, 64, 'Marktplein 2, 2611 GV Delft', 9);
    const rows: Array<[number, string, number, string]> = [
      [160, 'MELK 1L', 380, '1,19'],
      [160, 'KAAS 48+', 380, '6,49'],
      [160, 'WIJN ROOD', 380, '7,99'],
      [160, 'TOTAAL', 380, '15,67'],
      [160, 'PIN', 380, '15,67'],
    ];
    rows.forEach(([x, label, ax, amount], i) => {
      s.put(x, 90 + 13 * i, label, 9);
      s.put(ax, 90 + 13 * i, amount, 9);
    });
    s.put(160, 170, 'BTW', 8);
    s.put(240, 170, 'OVER', 8);
    s.put(380, 170, 'BEDRAG', 8);
    const vat: Array<[string, string, string]> = [
      ['9%', '7,05', '0,63'],
      ['21%', '6,60', '1,39'],
      ['TOTAAL', '13,65', '2,02'],
    ];
    vat.forEach(([rate, base, tax], i) => {
      s.put(160, 182 + 12 * i, rate, 8);
      s.put(240, 182 + 12 * i, base, 8);
      s.put(380, 182 + 12 * i, tax, 8);
    });
    s.put(160, 230, 'Bonnr. 5512   21-06-2024 16:05', 8);
    expectValues(await extractLines(engine, s.lines, ['receipts:1']), {
      'document.supplierName': 'VERSHOEK',
      'document.date': '2024-06-21',
      'receipt.total': '15.67',
      'receipt.tax': '2.02',
      'document.referenceNo': '5512',
    });
  });

  it('a US store receipt with no currency sign: its address says dollars and month-first dates', async () => {
    const lines = till([
      ['Everyday low prices.'],
      ['HOMESTEAD HARDWARE', '', 14],
      ['410 MAIN ST'],
      ['SPRINGFIELD IL 62704'],
      ['Receipt #A7-99'],
      ['PAINT ROLLER', '6.49'],
      ['WOOD GLUE', '4.99'],
      ['SUBTOTAL', '11.48'],
      ['TAX 6.25%', '0.72'],
      ['TOTAL', '12.20', 11],
      ['VISA TEND', '12.20'],
      ['04/12/24 10:31 AM'],
    ]);
    expectValues(await extractLines(engine, lines, ['receipts:1']), {
      'document.supplierName': 'HOMESTEAD HARDWARE',
      'document.date': '2024-04-12',
      'receipt.total': '12.20',
      'receipt.tax': '0.72',
      'document.currency': 'USD',
      'document.referenceNo': 'A7-99',
    });
  });

  it("an Austrian café's receipt: its VAT table's rows of one rate are no total nor tax, its sum is", async () => {
    const s = sheet();
    s.put(160, 50, 'CAFE LINDENHOF', 14, true);
    s.put(160, 64, 'Getreidegasse 7, 5020 Salzburg', 8);
    s.put(160, 78, 'Datum: 23.03.2024', 8);
    s.put(160, 100, '2 Melange', 8);
    s.put(380, 100, '8,40', 8);
    s.put(160, 112, '1 Strudel', 8);
    s.put(380, 112, '4,90', 8);
    s.put(160, 130, 'SUMME EUR', 10, true);
    s.put(380, 130, '13,30', 10, true);
    s.put(160, 144, 'Bankomat', 8);
    s.put(380, 144, '13,30', 8);
    const table: Array<[string, string, string, string]> = [
      ['MwSt', 'Netto', 'MwSt', 'Brutto'],
      ['A 20%', '7,00', '1,40', '8,40'],
      ['B 10%', '4,45', '0,45', '4,90'],
    ];
    table.forEach(([a, b, c, d], i) => {
      s.put(160, 166 + 11 * i, a, 8);
      s.put(250, 166 + 11 * i, b, 8);
      s.put(310, 166 + 11 * i, c, 8);
      s.put(380, 166 + 11 * i, d, 8);
    });
    s.put(160, 202, 'MwSt gesamt', 8);
    s.put(310, 202, '1,85', 8);
    expectValues(await extractLines(engine, s.lines, ['receipts:1']), {
      'document.supplierName': 'CAFE LINDENHOF',
      'document.date': '2024-03-23',
      'receipt.total': '13.30',
      'receipt.tax': '1.85',
      'document.currency': 'EUR',
    });
  });

  it('a Swiss hotel bill whose VAT table prints the gross first, then net and tax', async () => {
    const s = sheet();
    s.put(160, 50, 'HOTEL ALPENBLICK', 14, true);
    s.put(160, 64, 'Interlaken, 11.07.2024', 8);
    s.put(160, 90, 'Total CHF', 10, true);
    s.put(380, 90, '300.00', 10, true);
    const table: Array<[string, string, string, string]> = [
      ['MWST', 'Brutto', 'Netto', 'MWST'],
      ['3.8% Beherbergung', '200.00', '192.68', '7.32'],
      ['8.1% Normalsatz', '100.00', '92.51', '7.49'],
    ];
    table.forEach(([a, b, c, d], i) => {
      s.put(160, 110 + 11 * i, a, 8);
      s.put(270, 110 + 11 * i, b, 8);
      s.put(330, 110 + 11 * i, c, 8);
      s.put(390, 110 + 11 * i, d, 8);
    });
    s.put(160, 146, 'Total MWST', 8);
    s.put(390, 146, '14.81', 8);
    expectValues(await extractLines(engine, s.lines, ['receipts:1']), {
      'receipt.total': '300.00',
      'receipt.tax': '14.81',
      'document.currency': 'CHF',
    });
  });

  it('a restaurant bill whose total charged adds the tip to the amount', async () => {
    const lines = till([
      ['Trattoria Fiore', '', 13],
      ['Server: Kelsey   Check #3318'],
      ['Subtotal', '40.00'],
      ['Tax', '3.55'],
      ['Total', '43.55'],
      ['Amount', '$43.55'],
      ['Tip', '$8.00'],
      ['TOTAL CHARGED', '$51.55'],
      ['05/02/2024 8:14 PM'],
    ]);
    expectValues(await extractLines(engine, lines, ['receipts:1']), {
      'document.supplierName': 'Trattoria Fiore',
      'receipt.total': '51.55',
      'receipt.tax': '3.55',
      'document.currency': 'USD',
      'document.referenceNo': '3318',
    });
  });

  it("reads the country's money where '$' or a heading says it, and an ABN as the tax id", async () => {
    const canada = till([
      ['LAKESIDE GARDEN CENTRE', '', 13],
      ['GST/HST Reg# 812345678 RT0001'],
      ['Trans# 7763'],
      ['Subtotal', '$44.93'],
      ['HST 13%', '$5.84'],
      ['TOTAL', '$50.77', 11],
    ]);
    expectValues(await extractLines(engine, canada, ['receipts:1']), {
      'receipt.total': '50.77',
      'receipt.tax': '5.84',
      'document.currency': 'CAD',
      'document.referenceNo': '7763',
    });
    const italy = till([
      ['BAR AURORA', '', 13],
      ['DESCRIZIONE          IVA     Prezzo(€)'],
      ['CAPPUCCINO', '1,50'],
      ['TOTALE COMPLESSIVO', '1,50', 11],
      ['DI CUI IVA', '0,14'],
    ]);
    expectValues(await extractLines(engine, italy, ['receipts:1']), {
      'receipt.total': '1.50',
      'document.currency': 'EUR',
    });
    const australia = till([
      ['BLUEGUM CAFE', '', 13],
      ['ABN 51 824 753 556'],
      ['TOTAL', '$26.62', 11],
      ['GST included in total', '$2.42'],
    ]);
    expectValues(await extractLines(engine, australia, ['receipts:1']), {
      'receipt.total': '26.62',
      'receipt.tax': '2.42',
      'document.currency': 'AUD',
      'document.supplierTaxId': '51824753556',
    });
  });

  it('a Polish receipt: SUMA PLN and SUMA PTU', async () => {
    const lines = till([
      ['SKLEP POD LIPAMI', '', 13],
      ['Sprzedaz opodatk. A', '18,36'],
      ['Kwota PTU A 23%', '3,43'],
      ['SUMA PTU', '3,43'],
      ['SUMA PLN', '18,36', 11],
      ['Gotowka', '20,00 PLN'],
      ['Reszta', '1,64 PLN'],
    ]);
    expectValues(await extractLines(engine, lines, ['receipts:1']), {
      'receipt.total': '18.36',
      'receipt.tax': '3.43',
      'document.currency': 'PLN',
    });
  });

  it('currencies without a symbol of their own: LEI, Ft and KSH alone, the sol, the rand, pesos by their country, a country named', async () => {
    const read = async (rows: Parameters<typeof till>[0]) =>
      (await extractLines(engine, till(rows), ['receipts:1'])).value('document.currency');
    // "TVA" is French and Romanian: the printed "LEI" decides.
    expect(
      await read([
        ['MAGAZIN DACIA', '', 13],
        ['CIF: RO18547', ''],
        ['TOTAL LEI', '76,18'],
        ['TVA A 19%', '8,51'],
      ]),
    ).toBe('RON');
    expect(
      await read([
        ['PEKSEG KFT', '', 13],
        ['Osszesen', '4 440 Ft'],
        ['Keszpenz', '5 000 Ft'],
      ]),
    ).toBe('HUF');
    expect(
      await read([
        ['DUKA MART', '', 13],
        ['TOTAL KSH', '1,250.00'],
      ]),
    ).toBe('KES');
    // The rand's "R" before amounts, over the Dutch-looking "BTW" of an Afrikaans invoice.
    expect(
      await read([
        ['SWARTKOPS KOOPERASIE', '', 13],
        ['BTW @ 15%', 'R 7 489,08'],
        ['TOTAAL BETAALBAAR', 'R 57 416,28'],
      ]),
    ).toBe('ZAR');
    expect(
      await read([
        ['MEDIPLUS PHARMACY', '', 13],
        ['Medipark Pharmacies (Pty) Ltd', ''],
        ['TOTAL', '357.53'],
      ]),
    ).toBe('ZAR');
    expect(
      await read([
        ['FERRETERIA ANDINA SAC', '', 13],
        ['IMPORTE TOTAL', 'S/ 1,607.80'],
      ]),
    ).toBe('PEN');
    expect(await read([['FARMACIA ALAMEDA', '', 13], ['R.U.T.: 76.543.218-9'], ['TOTAL', '$23.050']])).toBe(
      'CLP',
    );
    expect(await read([['FERRETERIA SUR', '', 13], ['CUIT: 30-71482365-1'], ['TOTAL', '$55.459,35']])).toBe(
      'ARS',
    );
    // "pesos" alone would be Mexican; the RUT says Chile.
    expect(
      await read([
        ['FARMACIA ALAMEDA', '', 13],
        ['R.U.T.: 76.543.218-9'],
        ['TOTAL', '$23.050'],
        ['SON VEINTITRES MIL CINCUENTA PESOS'],
      ]),
    ).toBe('CLP');
    expect(
      await read([
        ['SIAM HERB PHARMACY', '', 13],
        ['88 Sukhumvit Road, Bangkok 10110'],
        ['TOTAL', '1,284.00'],
      ]),
    ).toBe('THB');
    // An item code with "NIT" in it says nothing of Colombia.
    expect(
      await read([
        ['HARBOR SUPPLY', '', 13],
        ['GLV-NIT-XL Nitrile gloves', '$18.00'],
        ['TOTAL', '$18.00'],
      ]),
    ).toBe('USD');
  });

  it("tax ids by their countries' names: OIB, AFM, KMKR, RUC, tax code", async () => {
    const taxId = async (line: string) =>
      (
        await extractLines(engine, till([['KIOSK CENTRAL', '', 13], [line], ['TOTAL', '14.90']]), [
          'receipts:1',
        ])
      ).value('document.supplierTaxId');
    expect(await taxId('OIB: 61204589371')).toBe('61204589371');
    expect(await taxId('AFM: 801294765   DOY: Peiraia A')).toBe('801294765');
    expect(await taxId('KMKR nr EE103847526')).toBe('EE103847526');
    expect(await taxId('RUC: 20601473829')).toBe('20601473829');
    expect(await taxId('Tax code: 0312745819')).toBe('0312745819');
  });

  it("two taxes of one word with other words before them ('City Parking Tax', 'County Parking Tax') add up to the tax; a phone line is no address", async () => {
    const doc = await extractLines(
      engine,
      till([
        ['PARKING RECEIPT', '', 11],
        ['Receipt #', '221-20240521-0347'],
        ['Parking Fee', '31.97'],
        ['City Parking Tax', '6.00'],
        ['County Parking Tax', '1.03'],
        ['Amount Paid', '$39.00', 10],
        ['Operated by'],
        ['Lakefront Parking Systems LLC', '', 8],
        ['Questions? (312) 555-0188'],
      ]),
      ['receipts:1'],
    );
    expect(doc.value('receipt.tax')).toBe('7.03');
    expect(doc.value('document.supplierAddress') ?? '').not.toContain('555-0188');
  });

  it("Québec's TPS and TVQ lines add up to the tax", async () => {
    const doc = await extractLines(
      engine,
      till([
        ['PHARMACIE DU VIEUX-MOULIN', '', 11],
        ['1280, boul. des Forges, Trois-Rivières (Québec) G8Z 1T7'],
        ['SOUS-TOTAL', '45,25 $'],
        ['TPS  5 %', '1,64 $'],
        ['TVQ  9,975 %', '3,27 $'],
        ['TOTAL', '50,16 $', 10],
      ]),
      ['receipts:1'],
    );
    expectValues(doc, { 'receipt.tax': '4.91', 'receipt.total': '50.16', 'document.currency': 'CAD' });
  });

  it("a Malaysian bill's number and service tax in Malay ('No. Bil', 'Cukai Perkhidmatan'), its subtotal 'Jumlah Kecil'", async () => {
    const my = await extractLines(
      engine,
      till([
        ['SRI MUTIARA FOOD INDUSTRIES SDN. BHD.', '', 11],
        ['No. 23, Jalan Bunga Raya 4'],
        ['53300 Kuala Lumpur'],
        ['No. Bil: 0012-88413', 'Meja: 15'],
        ['Tarikh: 22/04/2024', 'Masa: 13:28'],
        ['Nasi Kandar Ayam Goreng', '23.00'],
        ['Teh Tarik', '29.40'],
        ['Jumlah Kecil', '52.40'],
        ['Cukai Perkhidmatan 6%', '3.14'],
        ['Pelarasan Bundar', '0.01'],
        ['JUMLAH BESAR', 'RM 55.55', 10],
        ['Tunai', '60.00'],
        ['Baki', '4.45'],
      ]),
      ['receipts:1'],
    );
    expectValues(my, {
      'document.referenceNo': '0012-88413',
      'receipt.tax': '3.14',
      'receipt.total': '55.55',
    });
  });

  it('totals, VAT and receipt numbers under their names in other languages: Hungarian, Slovenian, Croatian, Romanian', async () => {
    // Hungarian: the rounded amount to pay (FIZETENDO) under the total (OSSZESEN), no decimals; AFA per rate.
    const hu = await extractLines(
      engine,
      till([
        ['MORZSA PEKSEG KFT.', '', 12],
        ['Adoszam: 24817367-2-42'],
        ['OSSZESEN:', '4 439 Ft'],
        ['Kerekites:', '+1 Ft'],
        ['FIZETENDO:', '4 440 Ft', 10],
        ['Keszpenz:', '5 000 Ft'],
        ['Visszajaro:', '560 Ft'],
        ['NYUGTASZAM: 0153/04218'],
      ]),
      ['receipts:1'],
    );
    expectValues(hu, {
      'receipt.total': '4440.00',
      'document.currency': 'HUF',
      'document.referenceNo': '0153/04218',
    });
    const sl = await extractLines(
      engine,
      till([
        ['KAVARNA ZRNO', '', 12],
        ['ID za DDV: SI48271632'],
        ['St. racuna: 12-BLG1-4417'],
        ['2 x Espresso', '3,20'],
        ['ZA PLACILO EUR', '14,90', 10],
        ['Gotovina', '20,00'],
        ['Vracilo', '5,10'],
        ['Skupaj DDV', '2,00'],
      ]),
      ['receipts:1'],
    );
    expectValues(sl, {
      'receipt.total': '14.90',
      'receipt.tax': '2.00',
      'document.referenceNo': '12-BLG1-4417',
      'document.supplierTaxId': 'SI48271632',
    });
    const hr = await extractLines(
      engine,
      till([
        ['LJEKARNA SPLIT', '', 12],
        ['Racun br: 2418/PJ3/2'],
        ['UKUPNO EUR', '31,40', 10],
        ['PDV 25%', '2,10'],
      ]),
      ['receipts:1'],
    );
    expectValues(hr, {
      'receipt.total': '31.40',
      'receipt.tax': '2.10',
      'document.referenceNo': '2418/PJ3/2',
    });
    const ro = await extractLines(
      engine,
      till([['MAGAZIN DACIA', '', 12], ['BON FISCAL NR: 4173'], ['TOTAL LEI', '76,18', 10]]),
      ['receipts:1'],
    );
    expectValues(ro, {
      'document.referenceNo': '4173',
      'receipt.total': '76.18',
      'document.currency': 'RON',
    });
  });

  it("a store's number over its address; a server's name is no shop's name; receipt numbers as tills print them", async () => {
    const us = await extractLines(
      engine,
      till([
        ['Server: Dana', ''],
        ['HARBOR LIGHT DINER', '', 13],
        ['Store #0442'],
        ['75 Water Street'],
        ['Portland, ME 04101'],
        ['STR 0442  REG 02  TRN 5512'],
        ['TOTAL', '$24.50', 10],
      ]),
      ['receipts:1'],
    );
    expectValues(us, {
      'document.supplierName': 'HARBOR LIGHT DINER',
      'document.supplierAddress': '75 Water Street, Portland, ME 04101',
      'document.referenceNo': '5512',
    });
    const read = async (line: string) =>
      (
        await extractLines(engine, till([['KIOSK', '', 13], [line], ['TOTAL', '12,40', 10]]), ['receipts:1'])
      ).value('document.referenceNo');
    expect(await read('RECEIPT# 44312')).toBe('44312');
    expect(await read('Note n° 1142')).toBe('1142');
    expect(await read('Filiaal 1187   Kassa 3   Bon 4412')).toBe('4412');
    expect(await read('Beleg 4417   Kasse 12')).toBe('4417');
    expect(await read('Nr paragonu: 00452')).toBe('00452');
    expect(await read('Uctenka c.: 0087123')).toBe('0087123');
    // The receipt a return refers to is another one's.
    const ret = await extractLines(
      engine,
      till([
        ['VOLT ELECTRONICS', '', 13],
        ['Receipt No:', '041203-7781'],
        ['Orig Receipt:', '041201-6642'],
        ['TOTAL', '-49.99', 10],
      ]),
      ['receipts:1'],
    );
    expect(ret.value('document.referenceNo')).toBe('041203-7781');
  });

  it('a VAT id printed in five groups; Czech crowns written "Kc" and the VAT\'s "DPH celkem"; a hotel folio dated on departure; "Suma be PVM" is the amount before VAT', async () => {
    const fr = await extractLines(
      engine,
      till([['BOULANGERIE DU MARCHE', '', 13], ['TVA FR 45 512 345 678'], ['TOTAL', '8,40', 10]]),
      ['receipts:1'],
    );
    expect(fr.value('document.supplierTaxId')).toBe('FR45512345678');
    const cz = await extractLines(
      engine,
      till([
        ['PETRA BENZIN', '', 13],
        ['CELKEM Kc', '1 543,54', 10],
        ['A 21%', '259,38'],
        ['B 12%', '5,25'],
        ['DPH celkem', '264,63'],
      ]),
      ['receipts:1'],
    );
    expectValues(cz, { 'receipt.total': '1543.54', 'receipt.tax': '264.63', 'document.currency': 'CZK' });
    const folio = await extractLines(
      engine,
      till([
        ['LAKEVIEW INN', '', 13],
        ['Arrival:', '06/10/24'],
        ['Departure:', '06/12/24'],
        ['Room 214, 2 nights', '278.00'],
        ['Balance', '$278.00', 10],
      ]),
      ['receipts:1'],
    );
    expect(folio.value('document.date')).toBe('2024-06-12');
    const lt = sheet();
    lt.put(40, 50, 'UAB Neries biurai', 14, true);
    lt.put(370, 378, 'Suma be PVM:', 9);
    lt.put(520, 378, '4 434,40', 9);
    lt.put(370, 392, 'PVM 21 %:', 9);
    lt.put(527, 392, '931,22', 9);
    lt.put(370, 406, 'Bendra suma:', 9);
    lt.put(520, 406, '5 365,62', 9);
    expectValues(await extractLines(engine, lt.lines, ['invoices:2']), {
      'invoice.subTotal': '4434.40',
      'invoice.tax': '931.22',
    });
  });

  it('an item table heading "Item Qty Amt Tax" is no label of the first item\'s amount', async () => {
    const s = sheet();
    s.put(160, 50, 'KEDAI RUNCIT MAJU', 13, true);
    const rows: Array<[number, string, number]> = [
      [70, 'ITEM', 160],
      [70, 'QTY', 300],
      [70, 'AMT(RM)', 340],
      [70, 'TAX', 392],
      [82, 'SERBUK KOKO 1KG', 160],
      [82, '1', 300],
      [82, '24.50', 380],
      [82, 'SR', 410],
      [94, 'ROTI PUTIH', 160],
      [94, '1', 300],
      [94, '3.20', 384],
      [94, 'ZR', 410],
      [112, 'Total Sales (Excluding GST)', 160],
      [112, '26.11', 380],
      [124, 'Total GST', 160],
      [124, '1.59', 384],
      [138, 'TOTAL (INCL GST)', 160],
      [138, 'RM 27.70', 370],
    ];
    for (const [y, text, x] of rows) s.put(x, y, text, 8);
    expectValues(await extractLines(engine, s.lines, ['receipts:1']), {
      'receipt.total': '27.70',
      'receipt.tax': '1.59',
      'document.currency': 'MYR',
    });
  });

  it('a greeting over the name ("Herzlich willkommen im") is no name', async () => {
    const lines = till([
      ['Herzlich willkommen im'],
      ['Gasthaus Zum Goldenen Anker', '', 12],
      ['Hafenstr. 3, 26382 Wilhelmshaven'],
      ['2 Scholle', '37,80'],
      ['SUMME EUR', '37,80', 11],
      ['14.03.2024 20:14'],
    ]);
    expectValues(await extractLines(engine, lines, ['receipts:1']), {
      'document.supplierName': 'Gasthaus Zum Goldenen Anker',
      'receipt.total': '37.80',
    });
  });

  it('a name under "Invoice To:" whose other party\'s heading is far right on its row, the name printed again under that', async () => {
    expect(
      (await readProbe('invoices-m', 'uk-fasteners-two-page-totals-on-p2')).value('document.customerName'),
    ).toBe('Aldwark Engineering Services Ltd');
  });

  it("a Gutschrift's number under 'Gutschrift-Nr.:', not its invoice's after 'zu Rechnung Nr.'; the refund's IBAN 'auf Ihr Konto' is the customer's", async () => {
    const doc = await readProbe('invoices-m', 'de-gutschrift-credit-note-customer-iban-noise');
    expect(doc.value('document.referenceNo')).toBe('GS-24-00087');
    expect(doc.value('bank.iban')).toBe('DE19520604100004418207');
  });

  it("a due date in five words ('Vencimiento: 4 de abril de 2024'); the amount to receive after Spain's IRPF ('Líquido a percibir')", async () => {
    const s = sheet();
    s.put(185, 62, 'LUCÍA ORTEGA BALMASEDA', 15, true);
    s.put(50, 150, 'FACTURA', 13, true);
    s.put(50, 170, 'Nº de factura:', 9.5);
    s.put(130, 170, '24/031', 9.5);
    s.put(50, 184, 'Fecha:', 9.5);
    s.put(130, 184, '5 de marzo de 2024', 9.5);
    s.put(50, 198, 'Vencimiento:', 9.5);
    s.put(130, 198, '4 de abril de 2024', 9.5);
    s.put(330, 372, 'Base imponible', 9.5);
    s.put(508, 372, '604,20 €', 9.5);
    s.put(330, 388, 'IVA 21 %', 9.5);
    s.put(508, 388, '126,88 €', 9.5);
    s.put(330, 404, 'Total factura (IVA incluido)', 9.5, true);
    s.put(506, 404, '731,08 €', 9.5, true);
    s.put(330, 420, 'Retención IRPF 15 %', 9.5);
    s.put(510, 420, '-90,63 €', 9.5);
    s.put(330, 436, 'Líquido a percibir', 9.5, true);
    s.put(506, 436, '640,45 €', 9.5, true);
    expectValues(await extractLines(engine, s.lines, ['invoices:2']), {
      'document.date': '2024-03-05',
      'invoice.dueDate': '2024-04-04',
      'invoice.total': '731.08',
      'invoice.amountDue': '640.45',
    });
  });

  it("a customer's code in a row of headings ('Cód. cliente  Agente') labels no name; the name under 'Cliente'", async () => {
    const doc = await readProbe('invoices-m', 'es-distribuidor-iva-recargo-equivalencia');
    expect(doc.value('document.customerName')).toBe('Josep Ferrer Lloret');
  });

  it("an e-invoice viewer's term code between a label and its value ('Factuurnummer [BT-1]  2024/0419', 'Fälliger Betrag (BT-115)')", async () => {
    const s = sheet();
    s.put(45, 60, 'Bakkerij De Gouden Aar BV', 14, true);
    s.put(45, 214, 'Factuurnummer [BT-1]', 8);
    s.put(160, 214, '2024/0419', 8);
    s.put(45, 262, 'Bestelreferentie [BT-13]', 8);
    s.put(160, 262, 'PO-778', 8);
    s.put(50, 457, 'Gesamtbetrag ohne USt. (BT-109)', 8);
    s.put(299, 457, '4.062,30', 8);
    s.put(50, 470, 'Summe Umsatzsteuer (BT-110)', 8);
    s.put(306, 470, '771,84', 8);
    s.put(50, 483, 'Gesamtbetrag mit USt. (BT-112)', 8);
    s.put(299, 483, '4.834,14', 8);
    s.put(50, 526, 'Fälliger Betrag (BT-115)', 8.5, true);
    s.put(295, 526, '3.334,14', 8.5, true);
    expectValues(await extractLines(engine, s.lines, ['invoices:2']), {
      'document.referenceNo': '2024/0419',
      'invoice.purchaseOrderNo': 'PO-778',
      'invoice.amountDue': '3334.14',
    });
  });

  it("an e-invoice viewer's seller: its name and address lines without their labels and term codes ('Firmenname (BT-27)', 'PLZ / Ort (BT-38/37)')", async () => {
    expectValues(await readProbe('invoices-n', 'de-xrechnung-visualisation-bt-codes'), {
      'document.supplierName': 'Kühne & Sohn Gebäudetechnik GmbH',
      'document.supplierAddress': 'Hafenstraße 31, 28217 Bremen',
    });
  });

  it("a FatturaPA rendering's order under 'Dati ordine d'acquisto - Id documento:', its own number under 'Numero documento'", async () => {
    expectValues(await readProbe('invoices-n', 'it-fatturapa-cassa-ritenuta'), {
      'document.referenceNo': '47/2024',
      'invoice.purchaseOrderNo': 'ODA-2024-0215',
    });
  });

  it("a Portuguese order under 'V/ Encomenda n.º' in a row of headings", async () => {
    const s = sheet();
    s.put(40, 58, 'Tipografia Ribeiro & Filhos, Lda.', 13, true);
    s.put(40, 74, 'Rua do Bonjardim, 612', 8.5);
    s.put(40, 200, 'FATURA FT 2024A/214', 13, true);
    ['Data', 'Vencimento', 'N.º Cliente', 'V/ NIF', 'V/ Encomenda n.º', 'Moeda'].forEach((h, i) =>
      s.put([40, 120, 200, 270, 355, 460][i]!, 238, h, 7.5, true),
    );
    ['2024-03-22', '2024-04-21', 'C-0087', '513029478', 'ENC-118/24', 'EUR'].forEach((v, i) =>
      s.put([40, 120, 200, 270, 355, 460][i]!, 250, v, 8.5),
    );
    s.put(380, 500, 'Total', 9, true);
    s.put(500, 500, '1.230,00 €', 9, true);
    expect((await extractLines(engine, s.lines, ['invoices:2'])).value('invoice.purchaseOrderNo')).toBe(
      'ENC-118/24',
    );
  });

  it("the amount to receive after India's TDS ('Net Amount Receivable') is the amount due", async () => {
    const s = sheet();
    s.put(40, 60, 'Nimbus Analytics LLP', 16, true);
    s.put(340, 340, 'Taxable Value', 9);
    s.put(502, 340, '4,31,000.00', 9);
    s.put(340, 360, 'CGST @ 9%', 9);
    s.put(502, 360, '38,790.00', 9);
    s.put(340, 372, 'SGST @ 9%', 9);
    s.put(502, 372, '38,790.00', 9);
    s.put(340, 382, 'Invoice Total', 9.5, true);
    s.put(502, 382, '5,08,580.00', 9.5, true);
    s.put(250, 402, 'Less: TDS u/s 194J @ 10% on taxable value', 8.5);
    s.put(512, 402, '(43,100.00)', 8.5);
    s.put(340, 420, 'Net Amount Receivable', 9.5, true);
    s.put(502, 420, '4,65,480.00', 9.5, true);
    expectValues(await extractLines(engine, s.lines, ['invoices:2']), {
      'invoice.total': '508580.00',
      'invoice.amountDue': '465480.00',
    });
  });

  it("a window letter's recipient whose legal form ends the line under its name ('Rechtsanwälte OG')", async () => {
    expect(
      (await readProbe('invoices-n', 'at-buerotechnik-seller-right-jaenner')).value('document.customerName'),
    ).toBe('Kanzlei Mag. Reisinger & Partner Rechtsanwälte OG');
  });

  it("a distributor's item table: the shipped quantity billed, 'EXTENSION' the line's amount", async () => {
    const table = (await readProbe('invoices-m', 'us-janitorial-wholesaler-erp-18-rows')).value(
      'invoice.lineitems',
    ) as TableValue;
    expect(table.rows).toHaveLength(18);
    expect(table.types![table.headers.indexOf('SHIPPED')]).toBe('quantity');
    expect(table.types![table.headers.indexOf('EXTENSION')]).toBe('amount');
  });

  it("a Czech item table: its headings, amounts whose thousands a space sets off, 'Celkem bez DPH' one heading, ending at 'Rekapitulace DPH'", async () => {
    const table = (await readProbe('invoices-p', 'cz-security-danovy-doklad-rounding')).value(
      'invoice.lineitems',
    ) as TableValue;
    expect(table.headers).toEqual([
      'Oznacení dodávky',
      'Pocet',
      'MJ',
      'Cena za MJ',
      'DPH %',
      'Celkem bez DPH',
    ]);
    expect(table.types).toEqual(['description', 'quantity', 'unit', 'unitPrice', 'taxRate', 'amount']);
    // (The probe prints its thousands apart with a no-break space.)
    expect(table.rows.map((row) => row[5]?.value.replace(/\s/gu, ' '))).toEqual([
      '182 280,00',
      '1 700,00',
      '1 490,00',
    ]);
    expect(table.rows.map((row) => row[2]?.value)).toEqual(['hod', 'ks', 'ks']);
  });

  it("Afrikaans and Croatian item tables; a note beside 'Subtotaal (BTW uitgesluit) R 49 927,20' ends the items", async () => {
    const afrikaans = (await readProbe('invoices-r', 'za-belastingfaktuur-landbou')).value(
      'invoice.lineitems',
    ) as TableValue;
    expect(afrikaans.types).toEqual([
      'code',
      'description',
      'quantity',
      'unit',
      'unitPrice',
      'taxRate',
      'amount',
    ]);
    expect(afrikaans.rows.map((row) => row[1]?.value)).toEqual([
      'Kunsmis 2:3:2 (22), 50 kg sak',
      'Drupbesproeiingspyp 16 mm x 500 m',
      'Onkruiddoder glifosaat 20 L',
      'Snoeiskêr, professioneel',
      'Afleweringsfooi - Riebeek-Kasteel',
    ]);
    const croatian = (await readProbe('invoices-r', 'hr-najam-strojeva-razdoblje')).value(
      'invoice.lineitems',
    ) as TableValue;
    expect(croatian.rows).toHaveLength(5);
    expect(croatian.types).toEqual(
      expect.arrayContaining(['code', 'description', 'quantity', 'unitPrice', 'amount']),
    );
  });

  it("a courier's statement: the shipments itemised on later pages ('Netto EUR'), not the first page's summary by product", async () => {
    const table = (await readProbe('invoices-s', 'de-courier-summary-multipage')).value(
      'invoice.lineitems',
    ) as TableValue;
    expect(table.headers).toEqual([
      'Datum',
      'Sendungsnummer',
      'Produkt',
      'Empfänger-PLZ',
      'Gewicht kg',
      'Netto EUR',
    ]);
    expect(table.types).toEqual([null, 'code', 'description', null, null, 'amount']);
    expect(table.rows.length).toBeGreaterThanOrEqual(46);
    // "Netto" after another word of its heading qualifies it: "Preis netto" is a price's heading.
    const xrechnung = (await readProbe('invoices-p', 'de-xrechnung-viewer-it-hours')).value(
      'invoice.lineitems',
    ) as TableValue;
    expect(xrechnung.types).toEqual([
      'code',
      'description',
      'quantity',
      'unit',
      'unitPrice',
      'taxRate',
      'amount',
    ]);
  });

  it("a fuel card's transactions ('Litres', '$/L') and an Estonian item table ('Teenus', 'Kogus', 'Hind')", async () => {
    for (const [name, rows] of [
      ['ca-fuel-card-litres', 15],
      ['ee-coworking-footer-only', 6],
    ] as const) {
      const table = (await readProbe('invoices-s', name)).value('invoice.lineitems') as TableValue;
      expect(table.rows).toHaveLength(rows);
      expect(table.types).toEqual(expect.arrayContaining(['description', 'quantity', 'unitPrice', 'amount']));
    }
  });

  it('a work order\'s sections, each under the same headings ("LABOUR" and "MATERIALS" over "QTY / HRS  RATE  AMOUNT"), are one table', async () => {
    const table = (await readProbe('invoices-r', 'ca-on-plumber-hst-workorder')).value(
      'invoice.lineitems',
    ) as TableValue;
    expect(table.rows.map((row) => row[table.types!.indexOf('amount')]?.value)).toEqual([
      '95.00',
      '437.50',
      '227.50',
      '225.00',
      '1,389.00',
      '84.95',
      '62.40',
      '45.00',
    ]);
  });

  it('an item amount whose thousands a space sets off stays whole in its column', async () => {
    // A Polish faktura's VAT amount column ("Kwota VAT"): "4 255,00" printed in two runs, "4" nearer the
    // column before.
    const table = (await readProbe('invoices-h', 'polish-faktura-vat-bilingual')).value(
      'invoice.lineitems',
    ) as TableValue;
    const vat = table.headers.indexOf('VAT');
    expect(table.rows.slice(0, 2).map((row) => row[vat]?.value.replace(/\s/gu, ' '))).toEqual([
      '4 255,00',
      '3 422,40',
    ]);
  });

  it("a law firm's 'Total this invoice' is the total, before its retainer; 'Total hours: 14.5' counts hours", async () => {
    const s = sheet();
    s.put(54, 60, 'WHITCOMBE LANGLEY & ORTIZ LLP', 14, true);
    s.put(140, 369, 'Total hours: 14.5', 8.5);
    s.put(380, 369, 'Total fees', 8.5, true);
    s.put(523, 369, '5,070.50', 8.5, true);
    s.put(380, 444, 'Total disbursements', 8.5, true);
    s.put(530, 444, '473.50', 8.5, true);
    s.put(360, 476, 'Total this invoice', 9);
    s.put(523, 476, '5,544.00', 9);
    s.put(360, 508, 'Less: retainer applied', 9);
    s.put(517, 508, '(2,500.00)', 9);
    s.put(360, 530, 'BALANCE DUE', 10, true);
    s.put(511, 530, '$3,044.00', 10, true);
    const doc = await extractLines(engine, s.lines, ['invoices:2']);
    expectValues(doc, { 'invoice.total': '5544.00', 'invoice.amountDue': '3044.00' });
    expect(doc.field('invoice.total').candidates?.map((c) => c.value)).not.toContain('14.50');
  });

  it("an order's date after its number on one line ('PO Reference: NRPL/IT/2024/118 dated 12/03/2024') is not the invoice's", async () => {
    const s = sheet();
    s.put(40, 60, 'Kaveri Digital Solutions Pvt. Ltd.', 14, true);
    s.put(300, 100, 'Invoice No:', 8.5);
    s.put(375, 100, 'KDS/24-25/0031', 8.5);
    s.put(300, 112, 'Invoice Date:', 8.5);
    s.put(375, 112, '03/04/2024', 8.5);
    s.put(300, 136, 'PO Reference:', 8.5);
    s.put(375, 136, 'NRPL/IT/2024/118 dated 12/03/2024', 8.5);
    s.put(380, 500, 'Total', 9, true);
    s.put(500, 500, '1,18,000.00', 9, true);
    expect((await extractLines(engine, s.lines, ['invoices:2'])).value('document.date')).toBe('2024-04-03');
  });
});
