/**
 * Invoices and receipts of more trades and countries, from the probe sets `invoices-x` and `receipts-x`
 * (test/probes): a US law firm, a commercial printer, an Indian marketplace seller, a Quebec joiner; a
 * UK fuel station, a US big-box store, a coffee chain, a French bakery, a Swiss cooperative. Each test
 * fails without the rule it names.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { textOnlyEngine } from '../helpers/make-invoices.js';
import { readProbe } from '../helpers/probe-cases.js';

const engine = textOnlyEngine();
afterAll(() => engine.close());

/** One field's value as an x set's document reads. */
async function valueIn(set: 'invoices-x' | 'receipts-x', name: string, field: string): Promise<unknown> {
  return (await readProbe(engine, set, name)).value(field);
}

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
