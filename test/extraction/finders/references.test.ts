import { describe, expect, it } from 'vitest';
import { findReferences } from '../../../src/extraction/finders/references.js';
import { documentHints } from '../../../src/extraction/hints.js';
import { createView } from '../../../src/extraction/view.js';
import { layerOfRows } from '../../helpers/token-layer.js';

/** A row `Invoice Number: 42183017` with the number moved right, `gap` row heights after the label. */
function summaryBox(gap: number) {
  const layer = layerOfRows([
    ['ACME', 'Ltd'],
    ['Invoice', 'Number:', '42183017'],
  ]);
  const label = layer.tokens[3]!;
  const value = layer.tokens[4]!;
  const height = value.box.y1 - value.box.y0;
  const x0 = label.box.x1 + gap * height;
  value.box = { ...value.box, x0, x1: x0 + 0.05 };
  const view = createView(layer);
  return findReferences(view, documentHints(view)).referenceNo.map((c) => c.value);
}

/** What findReferences gives for rows of words laid out as OCR reads them (a row a line). */
function referencesIn(rows: string[][]) {
  const view = createView(layerOfRows(rows));
  return findReferences(view, documentHints(view));
}
const referenceValues = (rows: string[][]) => referencesIn(rows).referenceNo.map((c) => c.value);
const orderValues = (rows: string[][]) => referencesIn(rows).purchaseOrderNo.map((c) => c.value);

describe('invoice numbers', () => {
  it("follow a bare 'N°', not one inside an item's line after a code", () => {
    expect(referenceValues([['FACTURE'], ['N°', 'FA-2024-0412']])).toEqual(['FA-2024-0412']);
    expect(
      referenceValues([
        ['1', 'DZ8', 'MILO', '7.45'],
        ['2', 'RO3', 'N°', 'LEMAK', '35.66'],
        ['N22', 'SPRG', '9.34'],
      ]),
    ).toEqual([]);
  });

  it('are read far right of their label, as in a summary box whose values are right-aligned', () => {
    expect(summaryBox(2)).toEqual(['42183017']);
    expect(summaryBox(35)).toEqual(['42183017']);
  });

  it('are not looked for across the whole width of a page', () => {
    expect(summaryBox(60)).toEqual([]);
  });
});

describe("a receipt's number", () => {
  it("is not a card payment's reference ('AUTH CODE: 08312B   REF #: 412 3307')", () => {
    const view = createView(
      layerOfRows(
        [
          ['AUTH', 'CODE:', '08312B', 'REF', '#:', '412', '3307'],
          ['TRANS', '#:', '07781'],
        ],
        'text',
      ),
    );
    expect(findReferences(view, documentHints(view)).referenceNo.map((c) => c.value)).toEqual(['07781']);
  });
});

describe('purchase order numbers', () => {
  const orders = (rows: string[][]) => {
    const view = createView(layerOfRows(rows, 'text'));
    return findReferences(view, documentHints(view)).purchaseOrderNo.map((c) => c.value);
  };

  it("follow a number's word after their label ('Ihre Bestellung Nr. 24-118 vom 21.03.2024')", () => {
    expect(orders([['Ihre', 'Bestellung', 'Nr.', '24-118', 'vom', '21.03.2024']])[0]).toBe('24-118');
    expect(orders([['Purchase', 'Order', 'No.', 'ZAM/2025/021']])[0]).toBe('ZAM/2025/021');
  });

  it("follow a bilingual label's second language after a slash ('Bon de commande / PO: FLM-7716')", () => {
    expect(orders([['Bon', 'de', 'commande', '/', 'PO:', 'FLM-7716']])[0]).toBe('FLM-7716');
  });

  it("are labelled by Spain's 'Pedido cliente' and Denmark's 'Rekvisition'", () => {
    expect(orders([['Pedido', 'cliente:', 'TA-PED-0457']])[0]).toBe('TA-PED-0457');
    expect(orders([['Rekvisition', 'AJF-0524']])[0]).toBe('AJF-0524');
  });

  it("are labelled by the buyer's or the project owner's PO and by 'Ihr Auftrag Nr.'", () => {
    expect(orders([['Owner', 'PO:', 'HMP-PO-22817']])[0]).toBe('HMP-PO-22817');
    expect(orders([["Owner's", 'PO', 'No.:', 'LMP-PO-2207']])[0]).toBe('LMP-PO-2207');
    expect(orders([['Buyer', 'PO', 'KPS/PUR/24-25/0192']])[0]).toBe('KPS/PUR/24-25/0192');
    expect(orders([['Ihr', 'Auftrag', 'Nr.', 'WB-MB-2024-03']])[0]).toBe('WB-MB-2024-03');
  });
});

describe("a receipt's own number", () => {
  const first = (rows: string[][]) => {
    const view = createView(layerOfRows(rows, 'text'));
    return findReferences(view, documentHints(view)).referenceNo[0]?.value;
  };

  it.each([
    {
      why: "'Receipt no.' over a parking ticket's number",
      rows: [
        ['Ticket', 'no.', '0043318'],
        ['Receipt', 'no.', '03-0271'],
      ],
      want: '03-0271',
    },
    {
      why: "'Receipt #' over a café's order number",
      rows: [
        ['Order', '#147'],
        ['Receipt', '#4TQ9'],
      ],
      want: '4TQ9',
    },
    {
      why: "a refund's own number",
      rows: [
        ['Refund', 'No:', 'RF-0412-00981'],
        ['Trans', '44902'],
      ],
      want: 'RF-0412-00981',
    },
    {
      why: "a US till's 'TR#' beside its store's and operator's",
      rows: [['ST#', '0584', 'OP#', '00231', 'TR#', '06612']],
      want: '06612',
    },
    {
      why: "a till's transaction, not the '#' of a GST/HST number",
      rows: [
        ['GST/HST', '#', '74129', '3807', 'RT0001'],
        ['SITE', '1187', 'TRAN#', '228104'],
      ],
      want: '228104',
    },
    {
      why: "the Bon-Nr., not a German card slip's 'Beleg' beside its terminal's id",
      rows: [
        ['Kasse', '2', 'Bon-Nr.', '4471'],
        ['Terminal-ID', '60318842', 'Beleg', '0917'],
      ],
      want: '4471',
    },
  ])('is $why', ({ rows, want }) => {
    expect(first(rows)).toBe(want);
  });

  it("is never a German card slip's 'Beleg' number beside its terminal's id", () => {
    const view = createView(
      layerOfRows(
        [
          ['Terminal-ID', '60318842', 'Beleg', '0917'],
          ['VU-Nr.:', '455600123'],
        ],
        'text',
      ),
    );
    expect(findReferences(view, documentHints(view)).referenceNo.map((c) => c.value)).not.toContain('0917');
  });
});

describe('order numbers after their label and a number word', () => {
  it("pass 'n.º' and 'ref.' between the label and the number", () => {
    expect(orderValues([['Requisição', 'n.º', 'RQ-2024/017']])).toEqual(['RQ-2024/017']);
    expect(orderValues([['Your', 'order', 'ref.', 'PO/HLV/0392']])).toEqual(['PO/HLV/0392']);
  });

  it("read Italian and Finnish order labels ('RIF. ORDINE ACQUISTO N.', 'Tilausnumeronne')", () => {
    expect(orderValues([['RIF.', 'ORDINE', 'ACQUISTO', 'N.', '77/2024', 'DEL', '15-10-2024']])).toEqual([
      '77/2024',
    ]);
    expect(orderValues([['Tilausnumeronne', '88213']])).toEqual(['88213']);
  });
});

describe("a bare 'N.º' under the document's title", () => {
  it('is the number the page calls its own, before a folio number', () => {
    expect(
      referenceValues([
        ['FATURA-RECIBO'],
        ['N.º', 'FR', '2024/1187'],
        ['Chegada', '10/06/2024'],
        ['Folio', 'n.º:', '33781'],
      ])[0],
    ).toBe('FR2024/1187');
  });

  it("is not when the word above is a sentence's ('keep your receipt')", () => {
    expect(
      referenceValues([
        ['Keep', 'your', 'receipt'],
        ['No.', '04412937'],
        ['Folio', 'n.º:', '33781'],
      ])[0],
    ).toBe('33781');
  });
});

describe("a receipt's own number beside others", () => {
  it('keeps its score however much it looks like a telephone number', () => {
    expect(
      referenceValues([
        ['STR', '0217', 'TRN', '4821'],
        ['Receipt#:', '0217-03-4821-61524'],
      ])[0],
    ).toBe('0217-03-4821-61524');
    expect(
      referenceValues([
        ['Folio:', '88213-1'],
        ['Rechnungs-Nr.:', '2024/018344'],
      ])[0],
    ).toBe('2024/018344');
  });

  it('is not a count of loyalty points', () => {
    expect(
      referenceValues([
        ['N°', 'ticket', ':', '245618'],
        ['Prochain', 'bon', ':', '500', 'pts'],
      ]),
    ).toEqual(['245618']);
  });
});

describe('numbers that are no reference of the document', () => {
  it("a standard's number ('EN 16931') under the title", () => {
    expect(
      referencesIn([
        ['Fournils', 'FACTURE'],
        ['EN', '16931'],
      ]).referenceNo.map((c) => c.value),
    ).toEqual([]);
  });

  it("a code of words after a series' letters is not joined to them ('PO HM-RA-24-0316'), a series' number is", () => {
    expect(
      referencesIn([['Order', 'ref', 'PO', 'HM-RA-24-0316']]).purchaseOrderNo.map((c) => c.value),
    ).not.toContain('POHM-RA-24-0316');
    expect(referencesIn([['Fatura', 'n.º', 'FS', 'A2024/1873']]).referenceNo.map((c) => c.value)).toContain(
      'FSA2024/1873',
    );
  });
});
