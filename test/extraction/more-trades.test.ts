/**
 * Invoices and receipts of more trades and countries, from the probe sets `invoices-x`, `receipts-x`,
 * `invoices-y` and `receipts-y` (test/probes): a US law firm, a commercial printer, an Indian marketplace
 * seller, a Quebec joiner, credit notes of four countries, a German roofer; a UK fuel station, a US
 * big-box store, a coffee chain, a French bakery, a Swiss cooperative, a Malaysian car park. Each test
 * fails without the rule it names.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { extractLines, sheet, textOnlyEngine } from '../helpers/make-invoices.js';
import { probeValue, readProbe } from '../helpers/probe-cases.js';

const engine = textOnlyEngine();
afterAll(() => engine.close());

const valueIn = (set: string, name: string, field: string): Promise<unknown> =>
  probeValue(engine, set, name, field);

describe("a shop's name", () => {
  it('a name in two prints: a big first line over a short line of capitals only a little larger than the body', async () => {
    expect(await valueIn('receipts-x', 'us-carwash-member-discount', 'document.supplierName')).toBe(
      'SUDZ CITY EXPRESS CAR WASH',
    );
    expect(await valueIn('receipts-x', 'my-stationery-photocopy-rounding', 'document.supplierName')).toBe(
      'CAHAYA MAJU STATIONERY & PRINTING',
    );
  });

  it("a line of trades alone ('Boulangerie - Pâtisserie') is no name: the larger line under it is", async () => {
    expect(await valueIn('receipts-x', 'fr-boulangerie-tva-especes', 'document.supplierName')).toBe(
      'LE FOURNIL DE MARGAUX',
    );
  });

  it("a Swiss or German cooperative's 'Genossenschaft' is a legal form", async () => {
    expect(await valueIn('receipts-x', 'ch-supermarket-rappen-rounding', 'document.supplierName')).toBe(
      'Alpenmarkt Genossenschaft',
    );
  });

  it("a card slip's '*** CUSTOMER COPY ***' heads no customer's block: the operator in the footer is the seller", async () => {
    const doc = await readProbe(engine, 'receipts-x', 'uk-fuel-vat-sixth');
    expect(doc.value('document.supplierName')).toBe('Harlow & Pryce Fuels Ltd');
    // Its VAT number, under the same footer, is the seller's: no buyer's id capped low.
    expect(doc.field('document.supplierTaxId').confidence).toBeGreaterThan(0.5);
  });

  it("'Sold By :' with its colon set apart labels the seller's name under it", async () => {
    expect(await valueIn('invoices-x', 'in-marketplace-seller-igst', 'document.supplierName')).toBe(
      'Vardhman Homeware Retail Private Limited',
    );
  });
});

describe('addresses and numbers', () => {
  it("a till's line of numbers ('ST# 03417  OP# 009112  TE# 14') ends the address", async () => {
    expect(await valueIn('receipts-x', 'us-bigbox-upc-debit', 'document.supplierAddress')).toBe(
      '9810 KATY FWY, HOUSTON TX 77055',
    );
  });

  it("a till's 'CHK 614203' at the start of its line labels the receipt's number; a check charged to a hotel room does not", async () => {
    expect(await valueIn('receipts-x', 'us-coffee-chain-rewards-visa', 'document.referenceNo')).toBe(
      '614203',
    );
    // "Harbor Grill  Chk 4471" on a folio whose own number is "Folio No: 88214".
    expect(
      await readProbe(engine, 'receipts-a', 'us-hotel-folio').then((d) => d.value('document.referenceNo')),
    ).toBe('88214');
  });

  it("Quebec's 'No TPS' labels the seller's GST number; 'Votre no de commande', 'Cust PO' and 'inkoopnr.' the buyer's order", async () => {
    const quebec = await readProbe(engine, 'invoices-x', 'ca-quebec-tps-tvq-ebenisterie');
    expect(quebec.value('document.supplierTaxId')).toBe('783164528RT0001');
    expect(quebec.value('invoice.purchaseOrderNo')).toBe('BC-22-118');
    expect(await valueIn('invoices-x', 'us-produce-distributor-route', 'invoice.purchaseOrderNo')).toBe(
      'CO-0415',
    );
    expect(await valueIn('invoices-x', 'nl-installateur-btw-verlegd', 'invoice.purchaseOrderNo')).toBe(
      'HO-23117-08',
    );
  });

  it("'Customer P.O.' is no label of the customer's name (the salesperson's label under it is no customer)", async () => {
    expect(await valueIn('invoices-x', 'us-commercial-printer-resale', 'document.customerName')).toBe(
      'Summit Print Solutions LLC',
    );
  });
});

describe('an invoice with a QR-bill, a Spanish professional', () => {
  it("a Swiss QR-bill's 'Zahlbar durch' labels the debtor: the customer", async () => {
    expect(await valueIn('invoices-x', 'ch-schreinerei-qr-bill', 'document.customerName')).toBe(
      'Praxis Dr. med. Lea Keller',
    );
  });

  it("a member's number after its one word ('Colegiada nº 4.117') is no address; 'TOTAL A PAGAR' after IRPF is the amount due", async () => {
    const doc = await readProbe(engine, 'invoices-x', 'es-arquitecta-irpf-factura');
    expect(doc.value('document.supplierAddress')).toBe('C/ de Cirilo Amorós, 58, 3o 6a, 46004 València');
    expect(doc.value('invoice.total')).toBe('3823.60');
    expect(doc.value('invoice.amountDue')).toBe('3349.60');
  });
});

describe('dates', () => {
  it("'dated' after a comma in a sentence dates another thing ('certificate on file for X LLC, dated 01/15/2024')", async () => {
    expect(await valueIn('invoices-x', 'us-commercial-printer-resale', 'document.date')).toBe('2024-04-09');
  });

  it("a date heading in a row of a payment's headings ('Payment Transaction ID:  Date & Time:') is the payment's", async () => {
    expect(await valueIn('invoices-x', 'in-marketplace-seller-igst', 'document.date')).toBe('2024-03-13');
  });
});

describe('amounts', () => {
  it('the total two section totals above it add up to is the total ("Total Current Charges" over its parts)', async () => {
    expect(await valueIn('invoices-x', 'us-law-firm-time-entries-trust', 'invoice.total')).toBe('6395.30');
  });

  it("a till's 'Net of VAT' under its VAT line is no tax", async () => {
    expect(await valueIn('receipts-x', 'uk-fuel-vat-sixth', 'receipt.tax')).toBe('12.03');
  });
});

describe('credit notes', () => {
  it("on a credit note, the invoice it corrects names its own date and number: the credit note's are others", async () => {
    const memo = await readProbe(engine, 'invoices-y', 'us-medical-credit-memo-rma');
    // "Credit Date 05/16/2025" over "Invoice Date 04/22/2025".
    expect(memo.value('document.date')).toBe('2025-05-16');
    const nl = await readProbe(engine, 'invoices-y', 'nl-creditfactuur-retour');
    // "Creditfactuurnummer CF-2025-0041"; not "creditering van factuur 2025-1187 d.d. 02-06-2025".
    expect(nl.value('document.referenceNo')).toBe('CF-2025-0041');
    expect(nl.value('document.date')).toBe('2025-06-19');
  });

  it("'vom' after another thing's number dates that thing ('Retoure  RT-0459 vom 06.03.2025'); 'Gutschriftsbetrag' is the total", async () => {
    const doc = await readProbe(engine, 'invoices-y', 'de-rechnungskorrektur-retoure');
    expect(doc.value('document.date')).toBe('2025-03-14');
    expect(doc.value('invoice.total')).toBe('-730.10');
  });

  it("India's e-invoice: 'Preceding Doc. No' is the corrected invoice's, 'Recipient :' heads the buyer, '(ORIGINAL FOR RECIPIENT)' heads nothing", async () => {
    const doc = await readProbe(engine, 'invoices-y', 'in-gst-einvoice-credit-note');
    expect(doc.value('document.referenceNo')).toBe('VPPL/CN/24-25/0043');
    expect(doc.value('document.customerName')).toBe('Saurashtra Agro Foods Private Limited');
    expect(
      await readProbe(engine, 'invoices-a', 'in-gst-tally-cgst-sgst').then((d) =>
        d.value('document.customerName'),
      ),
    ).toBe('Kelkar Electricals & Appliances');
  });
});

describe('more numbers, names and addresses', () => {
  it("an amount with its currency is no document's number ('Lost ticket: RM30.00 per entry')", async () => {
    expect(await valueIn('receipts-y', 'my-mall-parking-sst', 'document.referenceNo')).toBe(
      'PK2-240715-000482',
    );
  });

  it('an amount with its currency and four digits or a thousands mark is no number either', async () => {
    for (const amount of ['RM1300.00', 'RM1,300.00']) {
      const s = sheet();
      s.put(20, 30, 'KEDAI MAJU SDN BHD', 12, true);
      s.put(20, 60, `Ticket: ${amount}`, 8);
      s.put(20, 80, 'TOTAL', 8);
      s.put(150, 80, '12.50', 8);
      const doc = await extractLines(engine, s.lines, ['receipts:1']);
      expect(doc.value('document.referenceNo')).not.toBe(amount);
    }
  });

  it("a card slip's 'REF#' under its 'AUTH#' is the card's: the till's 'TRANS#' is the receipt's", async () => {
    expect(await valueIn('receipts-y', 'ca-bc-grocery-gst-pst-deposit', 'document.referenceNo')).toBe('7781');
  });

  it("eight digits alone after 'Fakturanr.' are a number, not a date", async () => {
    expect(await valueIn('invoices-y', 'no-faktura-kid-mva', 'document.referenceNo')).toBe('20250412');
  });

  it('a footer line that starts with the name and a comma gives the address; a page number ends it', async () => {
    expect(await valueIn('receipts-y', 'us-grocery-delivery-email', 'document.supplierAddress')).toBe(
      '4510 Rainier Ave S, Seattle, WA 98118',
    );
    expect(await valueIn('invoices-y', 'us-customs-broker-entry', 'document.supplierAddress')).toBe(
      '1985 W. Anaheim Street, Suite 410, Long Beach, CA 90813',
    );
  });

  it("a telephone's line under its letter ('T 0342 41 77 90') ends an address", async () => {
    expect(await valueIn('invoices-y', 'nl-creditfactuur-retour', 'document.supplierAddress')).toBe(
      'Nijverheidsweg 21, 3771 ME Barneveld',
    );
  });

  it("a logo's one word inside the company's name printed twice (sender line and footer) gives that name", async () => {
    expect(await valueIn('invoices-y', 'de-dachdecker-schlussrechnung-35a', 'document.supplierName')).toBe(
      'Dachdeckerei Wilhelm Brandt GmbH & Co. KG',
    );
  });

  it("Czech 'Celkem bez DPH' is the subtotal, 'Celkem s DPH' a total, not the tax", async () => {
    const doc = await readProbe(engine, 'invoices-y', 'cz-faktura-bez-diakritiky');
    expect(doc.value('invoice.subTotal')).toBe('5538.00');
    expect(doc.value('invoice.tax')).toBe('1162.98');
  });
});

describe("a customer's VAT number's label", () => {
  it("'N° TVA client' labels the customer's VAT number, not the customer: the line under it is no customer", async () => {
    const s = sheet();
    s.put(50, 60, 'Au bon moulin SARL', 16, true);
    s.put(50, 200, 'Date de facture');
    s.put(200, 200, '05/11/2017');
    s.put(50, 214, 'N° TVA client');
    s.put(200, 214, 'FR90343434346');
    s.put(50, 228, 'Incoterms');
    s.put(200, 228, 'RENDU DROITS NON ACQUITTÉS');
    s.put(300, 536, 'Total TTC');
    s.put(470, 536, '1 250,00 €');
    const doc = await extractLines(engine, s.lines);
    expect(doc.value('document.customerName')).not.toBe('Incoterms');
  });
});

describe('a slogan', () => {
  it("a line a word with an exclamation mark ends ('Danke für Ihren Einkauf!') is a slogan, no name", async () => {
    expect(await valueIn('receipts-z', 'at-baeckerei-wels-rksv', 'document.supplierName')).toBe(
      'Bäckerei Pramberger',
    );
  });
});

describe('columns beside the letterhead and under a date heading', () => {
  it("a date under a column's heading with more dates under it is a row's ('Date' over shipments, 'Datum' over nights)", async () => {
    expect(await valueIn('invoices-z', 'in-courier-awb-cgst-sgst', 'document.date')).toBe('2025-02-05');
    expect(await valueIn('invoices-z', 'at-hotel-ortstaxe-two-rates', 'document.date')).toBe('2025-05-18');
  });

  it("another column's words far right on the address's row end it ('… · 10997 Berlin      Rechnungsnummer')", async () => {
    expect(await valueIn('invoices-z', 'de-saas-reverse-charge-nl', 'document.supplierAddress')).toBe(
      'Schlesische Straße 28 10997 Berlin',
    );
    expect(await valueIn('invoices-z', 'us-equipment-rental-contract', 'document.supplierAddress')).toBe(
      '4815 Ed Bluestein Blvd, Austin, TX 78721',
    );
  });

  it("another column's words far right of the name on its row are no address ('No client : 2041')", async () => {
    expect(await valueIn('invoices-p', 'ca-quebec-formation-tps-tvq', 'document.supplierAddress')).toBe(
      '2250, boulevard Hochelaga, bureau 310, Québec (Québec) G1V 4K2',
    );
  });

  it("a register's seat and licence ('Sitz Zell am See · FN …', 'Autorisation d'établissement n° …') are no address", async () => {
    expect(await valueIn('invoices-z', 'at-hotel-ortstaxe-two-rates', 'document.supplierAddress')).toBe(
      'Esplanade 9 5700 Zell am See',
    );
    expect(await valueIn('invoices-z', 'lu-nettoyage-tva17', 'document.supplierAddress')).toBe(
      "14, rue de l'Industrie, L-3895 Foetz",
    );
  });
});

describe('the aa sets: term codes printed bare, a date after a label of numbers', () => {
  it("an XRechnung viewer's bare term codes ('Name BT-44', 'USt-IdNr. BT-31', 'BT-38 / BT-37') are labels, not values", async () => {
    const doc = await readProbe(engine, 'invoices-aa', 'de-xrechnung-viewer-wartung');
    expect(doc.value('document.supplierTaxId')).toBe('DE274183569');
    expect(doc.value('document.customerName')).toBe('Amt Lindenfelde');
    expect(doc.value('invoice.purchaseOrderNo')).toBe('BE-GM-2025-0113');
  });

  it("a word and a date ('RETURNS WITH RECEIPT THRU 06/14/2024') are no receipt's number", async () => {
    expect(await valueIn('receipts-aa', 'us-pharmacy-rx-rewards-coupons', 'document.referenceNo')).toBe(
      '4417',
    );
  });

  it("'Invoice Total (Rs.)' labels a total: the bank's IFSC code under it is no invoice number", async () => {
    expect(await valueIn('invoices-aa', 'in-einvoice-irn-pumps', 'document.referenceNo')).toBe(
      'AHP/2526/1186',
    );
  });

  it("a number on a line deducting a prepayment ('Less: Advance Paid (Rcpt. ADV/2526/7781 …)', 'Anzahlung') is that payment's", async () => {
    expect(await valueIn('invoices-aa', 'in-hospital-ip-final-bill', 'document.referenceNo')).toBe(
      'IPB/2526/04471',
    );
    expect(await valueIn('invoices-c', 'at-tischlerei-anzahlung', 'document.referenceNo')).toBe('2025/0387');
    expect(await valueIn('invoices-e', 'fr-facturx-deposit-two-rates', 'document.referenceNo')).toBe(
      'FA-2025-0312',
    );
  });
});
