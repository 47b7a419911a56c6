/**
 * Documents of countries and trades the probe sets `invoices-t` and `receipts-t` brought (test/probes):
 * Turkish, Argentinian, Icelandic, Moroccan and other prints, read from those probe documents and from
 * sheets drawn here. Each test fails without the rule it names.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { extractLines, sheet, textOnlyEngine, type Extracted } from '../helpers/make-invoices.js';
import { probeSet, readProbe as readProbeCase } from '../helpers/probe-cases.js';
import { scoreLineItems } from '../../src/evaluation/line-item-scoring.js';

const engine = textOnlyEngine();
afterAll(() => engine.close());

const readProbe = (set: string, name: string): Promise<Extracted> => readProbeCase(engine, set, name);

function values(doc: Extracted, names: string[]): Record<string, unknown> {
  return Object.fromEntries(names.map((name) => [name, doc.value(name)]));
}

describe('receipts of other countries', () => {
  it("a Turkish till: 'TL', amounts marked with an asterisk, the KDV table's rates printed '%20', the tax office's 'V.D.'", async () => {
    const doc = await readProbe('receipts-t', 'tr-market-fis-kdv-three-rates');
    expect(
      values(doc, ['document.currency', 'receipt.total', 'receipt.tax', 'document.supplierTaxId']),
    ).toEqual({
      'document.currency': 'TRY',
      'receipt.total': '814.58',
      // The sum of the KDV table's three rates (3,17 + 26,35 + 34,07), as its TOPKDV line prints it.
      'receipt.tax': '63.59',
      // Not the card slip's merchant number ("UYE ISYERI NO: 000000412873"), which reads as a
      // Malaysian GST number once its "NO:" is taken for a country prefix.
      'document.supplierTaxId': '1680432153',
    });
  });

  it("an Argentinian ticket: 'C.U.I.T.' labels the tax id and says pesos; the company over it is the supplier", async () => {
    const doc = await readProbe('receipts-t', 'ar-kiosco-tique-factura-b');
    expect(values(doc, ['document.currency', 'document.supplierTaxId', 'document.supplierName'])).toEqual({
      'document.currency': 'ARS',
      'document.supplierTaxId': '30-71234569-8',
      'document.supplierName': 'GOLOSINAS DEL PUENTE S.R.L.',
    });
  });

  it("an Icelandic receipt: 'Samtals' totals, 'Þar af VSK' is the tax, 'Kt.' the kennitala, 'ehf.' a legal form", async () => {
    const doc = await readProbe('receipts-t', 'is-petrol-station-kvittun-vsk24');
    expect(
      values(doc, [
        'document.currency',
        'receipt.total',
        'receipt.tax',
        'document.supplierTaxId',
        'document.supplierName',
        'document.supplierAddress',
      ]),
    ).toEqual({
      'document.currency': 'ISK',
      'receipt.total': '16771.00',
      'receipt.tax': '3246.00',
      'document.supplierTaxId': '540312-0790',
      // The logo's word starts the company's full name.
      'document.supplierName': 'Hraðorka ehf.',
      // The address ends at the kennitala's line.
      'document.supplierAddress': 'Þverholt 2, 270 Mosfellsbær',
    });
  });
});

describe('receipts of Central Europe', () => {
  it("a Czech pub: 'Provozovatel:' names the operating company, the DPH table's 'Celkem' row totals it, the payable is rounded to the crown", async () => {
    const doc = await readProbe('receipts-t', 'cz-pub-uctenka-dph-rounding');
    expect(values(doc, ['document.supplierName', 'receipt.tax', 'receipt.total'])).toEqual({
      'document.supplierName': 'Pivnice Kohout s.r.o.',
      // Not the rates' taxes and their total row added together (280.48).
      'receipt.tax': '140.24',
      // "Celkem 1 023,30", "Zaokrouhleni -0,30", "K UHRADE 1 023,00 Kc".
      'receipt.total': '1023.00',
    });
  });

  it('a Hungarian receipt in whole forints: its ÁFA table of whole numbers gives the tax, the payable is rounded to 5 Ft', async () => {
    const doc = await readProbe('receipts-t', 'hu-abc-nyugta-afa-5-27');
    expect(doc.value('receipt.tax')).toBe('632.00');
    const bakery = await readProbe('receipts-d', 'hu-bakery-cash-rounding-huf');
    expect(values(bakery, ['receipt.tax', 'receipt.total'])).toEqual({
      'receipt.tax': '428.00',
      // "ÖSSZESEN 4 439 Ft", "Kerekítés: +1 Ft", "FIZETENDO 4 440 Ft".
      'receipt.total': '4440.00',
    });
  });

  it("a VAT table in whole units reads numbers whose thousands spaces set off ('6 002 000 Ft')", async () => {
    const s = sheet();
    s.put(40, 60, 'Példa Építö Kft.', 14, true);
    s.put(40, 300, 'ÁFA kulcs', 8, true);
    s.put(160, 300, 'Nettó', 8, true);
    s.put(245, 300, 'ÁFA', 8, true);
    s.put(317, 300, 'Bruttó', 8, true);
    s.put(40, 312, '27%', 8);
    s.put(135, 312, '6 002 000 Ft', 8);
    s.put(215, 312, '1 620 540 Ft', 8);
    s.put(295, 312, '7 622 540 Ft', 8);
    s.put(380, 340, 'Bruttó végösszeg:', 11, true);
    s.put(492, 340, '7 622 540 Ft', 11, true);
    const doc = await extractLines(engine, s.lines, ['invoices:2']);
    expect(values(doc, ['invoice.subTotal', 'invoice.tax'])).toEqual({
      'invoice.subTotal': '6002000.00',
      'invoice.tax': '1620540.00',
    });
  });

  it("a Czech till's exempt row ('C  mimo DPH  9,00  0,00') is no tax line", async () => {
    const doc = await readProbe('receipts-c', 'cz-potraviny-dph');
    expect(doc.value('receipt.tax')).toBe('28.65');
  });
});

describe('invoices of other countries', () => {
  it("a Turkish e-Arşiv invoice: 'SAYIN' heads the buyer's block, the lira is TRY", async () => {
    const doc = await readProbe('invoices-t', 'tr-earsiv-stationery');
    expect(values(doc, ['document.customerName', 'document.currency'])).toEqual({
      'document.customerName': 'DEFNE MIMARLIK TASARIM LIMITED SIRKETI',
      'document.currency': 'TRY',
    });
  });

  it("a Moroccan facture: a cheque's number is not the invoice's, the company under its short logo is not the buyer, the BIC's label is no part of the IBAN", async () => {
    const doc = await readProbe('invoices-t', 'ma-caterer-two-rates-advance');
    expect(values(doc, ['document.referenceNo', 'document.customerName', 'bank.iban'])).toEqual({
      // Not "Avance reçue (chèque n° 4471203 du 02/04/2024)".
      'document.referenceNo': 'F-2024/0312',
      // Not "Dar Zitoun Traiteur SARL" under the logo "DAR ZITOUN".
      'document.customerName': 'HOTEL ATLAS MENARA SA',
      'bank.iban': 'MA64230450211458721001230008',
    });
  });

  it("a ZATCA invoice's 'Payment Terms' heading is no buyer; a Turkish address's door number ('No:14 D:3') is an address line", async () => {
    const zatca = await readProbe('invoices-t', 'sa-zatca-office-furniture');
    expect(zatca.value('document.customerName')).toBe('Masar Engineering Consultants Co.');
    const turkish = await readProbe('invoices-t', 'tr-earsiv-stationery');
    expect(turkish.value('document.supplierAddress')).toBe(
      'Kazimdirik Mah. 372/8 Sok. No:14 D:3, 35100 Bornova / IZMIR',
    );
  });

  it("a Moroccan facture: the footer's 'IF' is the tax id, Marrakech says dirhams", async () => {
    const doc = await readProbe('invoices-t', 'ma-caterer-two-rates-advance');
    expect(values(doc, ['document.supplierTaxId', 'document.currency'])).toEqual({
      'document.supplierTaxId': '40218735',
      'document.currency': 'MAD',
    });
  });

  it('a Turkish VAT table with the sign before its rates and asterisks before its amounts gives the tax', async () => {
    const s = sheet();
    s.put(40, 60, 'ANADOLU GIDA LTD. STI.', 14, true);
    s.put(40, 300, 'KDV ORANI', 8, true);
    s.put(200, 300, 'TUTAR', 8, true);
    s.put(400, 300, 'KDV', 8, true);
    s.put(40, 312, '%10', 8);
    s.put(200, 312, '*110,00', 8);
    s.put(400, 312, '*10,00', 8);
    s.put(40, 324, '%20', 8);
    s.put(200, 324, '*240,00', 8);
    s.put(400, 324, '*40,00', 8);
    s.put(40, 350, 'TOPLAM', 10, true);
    s.put(400, 350, '*350,00', 10, true);
    const doc = await extractLines(engine, s.lines, ['receipts:1']);
    expect(values(doc, ['receipt.total', 'receipt.tax'])).toEqual({
      'receipt.total': '350.00',
      'receipt.tax': '50.00',
    });
  });
});

describe('taxes printed in parts and then summed', () => {
  it("a hotel folio's 'Total Taxes' is the sum of its state, city and occupancy taxes, and the tax", async () => {
    const doc = await readProbe('receipts-u', 'us-tn-hotel-folio');
    expect(doc.value('receipt.tax')).toBe('55.10');
  });

  it("a VAT table's last row that its rates add up to is their total row, whatever heads it ('TOTALES')", async () => {
    const doc = await readProbe('receipts-u', 'es-supermercado-iva-4-10-21');
    expect(doc.value('receipt.tax')).toBe('4.48');
  });
});

describe('amounts and ids of invoices of other countries', () => {
  it("a Nigerian invoice: 'NET AMOUNT PAYABLE' after the withholding is the amount due, not a sentence's 'due within 15 days'", async () => {
    const doc = await readProbe('invoices-t', 'ng-facility-mgmt-wht');
    expect(doc.value('invoice.amountDue')).toBe('4151250.00');
  });

  it("a Kenyan invoice: 'LPO No' labels the order, a 'P.O. Box' none", async () => {
    const doc = await readProbe('invoices-t', 'ke-etims-office-supplies');
    expect(doc.value('invoice.purchaseOrderNo')).toBe('TPL/LPO/2024/2231');
  });

  it("an Italian parcella: 'Imponibile IVA' is the base, the ritenuta's row no VAT row, the C.F. after a dash no part of the P.IVA", async () => {
    const doc = await readProbe('invoices-t', 'it-engineer-parcella-cassa-ritenuta');
    expect(
      values(doc, ['invoice.subTotal', 'invoice.tax', 'invoice.total', 'document.supplierTaxId']),
    ).toEqual({
      'invoice.subTotal': '4108.00',
      'invoice.tax': '903.76',
      'invoice.total': '5011.76',
      'document.supplierTaxId': '06284310486',
    });
  });

  it("an Indian e-invoice: the buyer's GSTIN printed again in the consignee's block is still the buyer's", async () => {
    const doc = await readProbe('invoices-t', 'in-gst-einvoice-irn-hsn-summary');
    expect(doc.value('document.supplierTaxId')).toBe('29AAKCS4821M1ZS');
  });
});

describe("the buyer's side of the page", () => {
  it("a consignee's block (ship to) holds the buyer's name, not the seller's", async () => {
    const doc = await readProbe('invoices-m', 'in-gst-tally-cgst-sgst-hsn-roundoff');
    expect(doc.value('document.supplierName')).toBe('SHREE GANESH HARDWARE & SANITARY TRADERS');
  });

  it("a German e-invoice view: the company under 'Käufer/Leistungsempfänger:' and under 'Abweichender Warenempfänger:' is the buyer", async () => {
    const s = sheet();
    s.put(40, 60, 'Stylesheet zur Lesbarmachung der XML-Daten', 9);
    s.put(40, 90, 'Handelsrechnung Nr. 4711 vom 31.10.2018', 11, true);
    s.put(40, 130, 'Verkäufer:', 9);
    s.put(40, 142, 'Nummer        : 12345676', 9);
    s.put(40, 154, 'Rohstoffhandel Nord AG', 9);
    s.put(40, 166, 'Marktstr. 153', 9);
    s.put(40, 178, 'DE 38226 Salzgitter', 9);
    s.put(40, 210, 'Käufer/Leistungsempfänger:', 9);
    s.put(40, 222, 'Nummer        : 75969813', 9);
    s.put(40, 234, 'Stahlbau Mitte GmbH & Co. KG', 9);
    s.put(40, 246, 'Pappelallee 15', 9);
    s.put(40, 258, 'DE 12345 Leipzig', 9);
    s.put(40, 290, 'Abweichender Warenempfänger:', 9);
    s.put(40, 302, 'Nummer        : 75969815', 9);
    s.put(40, 314, 'Stahlbau Mitte GmbH & Co. KG', 9);
    s.put(40, 326, 'Hafenstraße 3', 9);
    s.put(40, 338, 'DE 04155 Leipzig', 9);
    s.put(380, 500, 'Gesamtbetrag', 9, true);
    s.put(500, 500, '1.190,00', 9, true);
    const doc = await extractLines(engine, s.lines, ['invoices:2']);
    expect(doc.field('document.supplierName').candidates?.map((c) => c.value)).not.toContain(
      'Stahlbau Mitte GmbH & Co. KG',
    );
  });

  it("a marketplace invoice: the seller's block beside 'Delivery address' is not the buyer's", async () => {
    const doc = await readProbe('invoices-g', 'marketplace-seller-invoice-uk');
    expect(doc.value('document.supplierName')).toBe('Thornbury Home & Garden Ltd');
  });

  it("a Portuguese fatura: the number under 'V/ NIF' in a row of headings is the buyer's", async () => {
    const doc = await readProbe('invoices-n', 'pt-fatura-atcud-iso-dates');
    expect(doc.value('document.supplierTaxId')).toBe('508731240');
  });
});

describe("the company's full name beside its logo", () => {
  it("'Sp. z o.o.' ends a Polish company's name, which a logo's words start", async () => {
    const doc = await readProbe('invoices-t', 'pl-garden-wholesale-two-pages');
    expect(doc.value('document.supplierName')).toBe('Zielony Ogród Hurtownia Ogrodnicza Sp. z o.o.');
  });

  it("a logo's words written as one ('nimbusgrid') start the company's name", async () => {
    const doc = await readProbe('invoices-u', 'in-export-services-lut-usd');
    expect(doc.value('document.supplierName')).toBe('Nimbus Grid Technologies Private Limited');
  });

  it("a spa is no S.p.A. ('Coastline Pool & Spa Supplies Pty Ltd')", async () => {
    const doc = await readProbe('invoices-t', 'au-myob-pool-supplies-bpay');
    expect(doc.value('document.supplierName')).toBe('Coastline Pool & Spa Supplies Pty Ltd');
  });

  it("the logo's words, a dash and the rest of the company's name on one line ('Douro Verde - Comércio ..., Lda.')", async () => {
    const doc = await readProbe('invoices-u', 'pt-fatura-atcud-qr-iva6-23');
    expect(doc.value('document.supplierName')).toBe('Douro Verde Comércio de Frutas e Mercearia, Lda.');
  });

  it("a logo's word that a word of the company's name under it starts ('AGROANDINA' over 'DISTRIBUCIONES AGROANDINAS S.A.S.'); not the software maker's NIT", async () => {
    const doc = await readProbe('invoices-u', 'co-factura-electronica-retefuente');
    expect(values(doc, ['document.supplierName', 'document.supplierTaxId'])).toEqual({
      'document.supplierName': 'DISTRIBUCIONES AGROANDINAS S.A.S.',
      'document.supplierTaxId': '901.234.567-7',
    });
  });
});

describe('other parties than the seller', () => {
  it("a seller's tax representative is not the seller", async () => {
    const s = sheet();
    s.put(40, 60, 'Handelsrechnung Nr. 4711 vom 31.10.2018', 11, true);
    s.put(40, 100, 'Verkäufer:', 9);
    s.put(40, 112, 'Rohstoffhandel Nord AG', 9);
    s.put(40, 124, 'Marktstr. 153', 9);
    s.put(40, 136, 'DE 38226 Salzgitter', 9);
    s.put(40, 180, 'Steuerbevollmächtigter des Verkäufers:', 9);
    s.put(40, 192, 'Kanzlei Steuerrat Weber GmbH', 9);
    s.put(40, 204, 'Lindenstraße 20', 9);
    s.put(40, 216, 'DE 12345 Berlin', 9);
    s.put(380, 500, 'Gesamtbetrag', 9, true);
    s.put(500, 500, '1.190,00', 9, true);
    const doc = await extractLines(engine, s.lines, ['invoices:2']);
    expect(doc.field('document.supplierName').candidates?.map((c) => c.value)).not.toContain(
      'Kanzlei Steuerrat Weber GmbH',
    );
  });
});

describe('labels of Southeast Asia and prose', () => {
  it("a Vietnamese café bill: 'TONG THANH TOAN' totals, 'So HD' numbers it", async () => {
    const doc = await readProbe('receipts-t', 'vn-cafe-hoa-don-thanh-toan-vat8');
    expect(values(doc, ['receipt.total', 'document.referenceNo'])).toEqual({
      'receipt.total': '319680.00',
      'document.referenceNo': '000412',
    });
  });

  it("an Indonesian struk: 'NON PPN (*)' is the exempt goods' amount, not the tax", async () => {
    const doc = await readProbe('receipts-t', 'id-minimarket-struk-ppn11');
    expect(doc.value('receipt.tax')).toBe('6005.00');
  });

  it("a tax word in a sentence ('All prices include GST.') labels no amount past another label's colon ('Freight:  $35.00')", async () => {
    const doc = await readProbe('invoices-t', 'au-myob-pool-supplies-bpay');
    expect(doc.value('invoice.tax')).toBe('194.84');
  });
});

describe('labels in prose', () => {
  it("a corrective invoice's own number, not the corrected one named in its reason ('... en la factura F24/0412')", async () => {
    const doc = await readProbe('invoices-t', 'es-factura-rectificativa-abono');
    expect(doc.value('document.referenceNo')).toBe('R24/0007');
  });
});

describe('the v sets: legal forms first, order labels', () => {
  it("a legal form before the logo's words ('SARL Moreau Plomberie Chauffage' under 'MOREAU') is the seller's name, not a recipient", async () => {
    const doc = await readProbe('invoices-v', 'fr-plombier-tva10-20-acompte');
    expect(values(doc, ['document.supplierName', 'document.customerName'])).toEqual({
      'document.supplierName': 'SARL Moreau Plomberie Chauffage',
      'document.customerName': 'M. Jean-Pierre Lefèvre',
    });
  });

  it("'Your P/O No.' and Italy's 'Rif. Ordine NSO n.' label the order", async () => {
    const sg = await readProbe('invoices-v', 'sg-fnb-supplier-gst9');
    expect(sg.value('invoice.purchaseOrderNo')).toBe('HC-PO-0931');
    const it = await readProbe('invoices-v', 'it-grossista-pa-split-payment');
    expect(it.value('invoice.purchaseOrderNo')).toBe('2024/0183');
  });

  it('a line of a legal form alone under a logo (an OCR fragment, "BHD") reads without error', async () => {
    const s = sheet();
    s.put(200, 60, 'KFA', 20, true);
    s.put(210, 80, 'BHD', 9);
    s.put(180, 92, '125A JALAN MALINJA, 45400 SEKINCHAN', 9);
    s.put(60, 200, 'TOTAL', 10, true);
    s.put(300, 200, '11.60', 10, true);
    const doc = await extractLines(engine, s.lines, ['receipts:1']);
    expect(doc.value('receipt.total')).toBe('11.60');
  });
});

describe('item tables of other countries', () => {
  const rowF1 = async (set: string, name: string): Promise<number> => {
    const probe = probeSet(set).find((c) => c.name === name)!;
    const doc = await readProbe(set, name);
    return scoreLineItems([{ truth: probe.line_items!, table: doc.value('invoice.lineitems') }]).f1;
  };

  it("a Polish faktura's headings of sixteen words ('Nazwa towaru lub uslugi ... Wartosc brutto') head its table", async () => {
    expect(await rowF1('invoices-v', 'pl-biuro-rachunkowe-faktura-vat')).toBe(1);
  });

  it("a tax code under the table's own 'TAX' heading ('GST' on every line) ends no table", async () => {
    expect(await rowF1('invoices-t', 'ca-bc-landscaper-gst-pst-part')).toBe(1);
    expect(await rowF1('invoices-t', 'au-myob-pool-supplies-bpay')).toBeGreaterThan(0.9);
  });

  it("a Turkish e-Arşiv table's headings ('Mal Hizmet', 'Miktar', 'Birim Fiyat', 'Tutari')", async () => {
    expect(await rowF1('invoices-t', 'tr-earsiv-stationery')).toBe(1);
  });
});

describe('payment terms', () => {
  it('the last day of a Skonto is no due date; the day to pay without it is', async () => {
    const doc = await readProbe('invoices-u', 'de-elektriker-35a-skonto-abschlag');
    expect(doc.value('invoice.dueDate')).toBe('2024-09-25');
  });
});

describe('house numbers', () => {
  it("'No. 5, Jalan ...' of an address labels no receipt number (not the postcode under it)", async () => {
    const doc = await readProbe('receipts-v', 'my-stationery-enterprise-cash');
    expect(doc.value('document.referenceNo')).toBe('CR-0021478');
  });
});
