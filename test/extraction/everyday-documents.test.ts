/**
 * Invoices and receipts of the kinds businesses in the US, India and Europe receive most, from the probe
 * sets `invoices-w` and `receipts-w` (test/probes): e-invoice renderings with a column of labels, an
 * Indian freelancer without a GSTIN, an Australian invoice with its company number in the footer,
 * Malaysian, Spanish and Italian till receipts. Each test fails without the rule it names.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { textOnlyEngine, type Extracted } from '../helpers/make-invoices.js';
import { probeSet, probeValue, readProbe as readProbeCase } from '../helpers/probe-cases.js';
import { scoreLineItems } from '../../src/evaluation/line-item-scoring.js';

const engine = textOnlyEngine();
afterAll(() => engine.close());

const readProbe = (name: string): Promise<Extracted> => readProbeCase(engine, 'invoices-w', name);

const valueIn = (set: string, name: string, field: string): Promise<unknown> =>
  probeValue(engine, set, name, field);

describe('tax ids', () => {
  it("an Australian invoice's ABN is its tax id, not the company number its footer prints ('ACN 824 753 559')", async () => {
    expect(await valueIn('invoices-w', 'au-it-consultancy-xero', 'document.supplierTaxId')).toBe(
      '83824753559',
    );
  });

  it("an Indian freelancer without a GSTIN: the seller's PAN, not the buyer's GSTIN under 'Bill To'", async () => {
    expect(await valueIn('invoices-w', 'in-freelancer-no-gst', 'document.supplierTaxId')).toBe('BQRPR4417K');
  });
});

describe("a logo's words over the company's full name", () => {
  it("a US professional corporation's 'PC' and the Gulf's 'Trading Est.' end full names", async () => {
    expect(await valueIn('invoices-w', 'us-architect-phase-billing', 'document.supplierName')).toBe(
      'Aldana Whitcomb Architects, PC',
    );
    expect(await valueIn('invoices-w', 'sa-simplified-vat-pos', 'document.supplierName')).toBe(
      'Rawabi Al Nakheel Trading Est.',
    );
  });
});

describe('parties in columns of labels', () => {
  it("a label after a gap starts another column's part of a row: the buyer's 'Denominazione:' beside the seller's name", async () => {
    // Not the seller's "Regime fiscale: RF01 (ordinario)", taken for a window's address.
    expect(await valueIn('invoices-w', 'it-fatturapa-cortesia-bollo', 'document.customerName')).toBe(
      'VALSERIANA MOTORI S.P.A.',
    );
  });

  it("the seller's address ends where its column of labels names another thing ('Endpoint ID')", async () => {
    expect(await valueIn('invoices-w', 'be-peppol-bis-view', 'document.supplierAddress')).toBe(
      'Nijverheidslaan 42, 8540 Deerlijk, BE',
    );
  });

  it("an address line's own label ('PLZ und Ort:') is no labelled number; the seller's labels are the nearest the name's", async () => {
    // Not "Hafenstraße 18" alone, nor on through "Kontakt: Jonas Brandt" (the buyer's "Name:" left of
    // the seller's is no label of the seller's column).
    expect(await valueIn('invoices-w', 'de-xrechnung-view-it-service', 'document.supplierAddress')).toBe(
      'Hafenstraße 18, 28217 Bremen, DE',
    );
  });
});

describe('item tables', () => {
  it("an Indian pharmacy distributor's thirteen columns: 'HSN' and 'Batch' head code columns, so the heading row is one", async () => {
    const name = 'in-pharma-distributor-igst';
    const doc = await readProbe(name);
    const table = doc.value('invoice.lineitems') as { types: Array<string | null> };
    expect(table.types.filter((t) => t === 'code')).toHaveLength(2);
    const truth = probeSet('invoices-w').find((c) => c.name === name)!.line_items!;
    expect(scoreLineItems([{ truth, table }]).f1).toBe(1);
  });
});

describe('receipts', () => {
  it("a line of opening hours over the company's name is no first line of it ('Open 8am-4pm, closed Mondays')", async () => {
    for (const [set, name, sentence, company] of [
      ['receipts-j', 'uk-cafe-eat-in-take-away', 'Open 8am', 'Little Acorn Kitchens Ltd'],
      [
        'receipts-m',
        'uk-hotel-bath-minibar-room-charge',
        'Breakfast served',
        'Ashcombe Hotels (Bath) Limited',
      ],
      ['receipts-j', 'dk-parking-garage-moms', 'Udkørsel', 'Nordpark ApS'],
    ] as const) {
      const doc = await readProbeCase(engine, set, name);
      const names = (doc.field('document.supplierName').candidates ?? []).map((c) => c.value);
      expect(names.length).toBeGreaterThan(0);
      expect(names.filter((n) => n.includes(sentence) && n.includes(company))).toEqual([]);
    }
  });

  it("Malaysia's 'Sdn Bhd' is no Bahraini dinar: a receipt that prints no 'RM' is in ringgit", async () => {
    expect(await valueIn('receipts-w', 'my-minimarket-total-qty', 'document.currency')).toBe('MYR');
  });

  it("a store's number after its name ('QUIKSTOP FUEL #2217') is no address: the lines under it are", async () => {
    expect(await valueIn('receipts-w', 'us-gas-pay-at-pump', 'document.supplierAddress')).toBe(
      '1480 ROUTE 9, CLIFTON PARK, NY 12065',
    );
  });

  it("a Spanish till's 'FACTURA SIMPLIFICADA:' labels its number", async () => {
    expect(await valueIn('receipts-w', 'es-supermarket-factura-simplificada', 'document.referenceNo')).toBe(
      '2831-014-614312',
    );
  });

  it("'P. IVA' with a space labels an Italian tax id", async () => {
    expect(await valueIn('receipts-w', 'it-motorway-documento-commerciale', 'document.supplierTaxId')).toBe(
      '04183560152',
    );
  });
});
