import { describe, expect, it } from 'vitest';
import { findVatTable } from '../../../src/extraction/finders/vat-table.js';
import { createView } from '../../../src/extraction/view.js';
import { layerOfRows } from '../../helpers/token-layer.js';

const read = (rows: string[][], decimalSeparator: ',' | '.' = ',') => {
  const found = findVatTable(createView(layerOfRows(rows, 'text')), { decimalSeparator });
  return {
    tax: found.tax.map((c) => c.value),
    subTotal: found.subTotal.map((c) => c.value),
    words: found.tax.map((c) => c.tokens.map((t) => t.text)),
  };
};

describe('VAT summary tables', () => {
  it('give the tax and the net amount of their total row, its rows adding up', () => {
    const found = read([
      ['SUMME', 'EUR', '5,63'],
      ['Steuer', '%', 'Netto', 'Steuer', 'Brutto'],
      ['A=', '19,0%', '1,64', '0,31', '1,95'],
      ['B=', '7,0%', '3,44', '0,24', '3,68'],
      ['Gesamtbetrag', '5,08', '0,55', '5,63'],
    ]);
    expect(found).toEqual({ tax: ['0.55'], subTotal: ['5.08'], words: [['0,55']] });
  });

  it("read a till's rows of a rate, its gross and the tax that gross holds", () => {
    const found = read(
      [
        ['MWST', 'Satz', 'Brutto', 'MWST'],
        ['A', '2.6%', '38.90', '0.99'],
        ['B', '8.1%', '27.81', '2.08'],
        ['Total', 'MWST', '3.07'],
      ],
      '.',
    );
    expect(found.tax).toEqual(['3.07']);
    expect(found.subTotal).toEqual(['63.64']);
  });

  it('read a rate printed as a number in its own column, left of the base and the tax', () => {
    const found = read([
      ['Esigibilità', '%IVA', 'Totale', 'imponibile', 'Totale', 'imposta'],
      ['I', '22,00', '0,00', '5.140,00', '1.130,80'],
      ['I', '4,00', '0,00', '3.600,00', '144,00'],
    ]);
    expect(found).toEqual({ tax: ['1274.80'], subTotal: ['8740.00'], words: [['1.130,80', '144,00']] });
  });

  it('read a rate in its own column left of the gross and the tax it holds, and a row without tax under it', () => {
    const rows = [
      ['Code', 'MWST', '%', 'Brutto', 'MWST'],
      ['1', '8.10', '177.75', '13.32'],
      ['0', 'Depot', '15.00', '0.00'],
    ];
    expect(read(rows, '.')).toEqual({ tax: ['13.32'], subTotal: ['179.43'], words: [['13.32', '0.00']] });
    // Both rows are parts: neither gross is the document's total.
    const view = createView(layerOfRows(rows, 'text'));
    expect(findVatTable(view, { decimalSeparator: '.' }).partRows.size).toBe(2);
  });

  it('sum their rows where no total row is printed, under a heading or with a rate in each row', () => {
    expect(
      read([
        ['MwSt-Satz', 'Netto', 'MwSt', 'Brutto'],
        ['19', '100,00', '19,00', '119,00'],
        ['7', '50,00', '3,50', '53,50'],
      ]),
    ).toEqual({ tax: ['22.50'], subTotal: ['150.00'], words: [['19,00', '3,50']] });
    expect(read([['5,50%', '10,04', '0,55', '10,59']]).tax).toEqual(['0.55']);
  });

  it('read rows of a rate, its base and its tax alone (a zero rate too), and their total row', () => {
    const found = read([
      ['BTW', 'OVER', 'BTW'],
      ['9%', '9,01', '0,81'],
      ['21%', '11,14', '2,34'],
      ['0%', '0,90', '0,00'],
      ['TOTAAL', '21,05', '3,15'],
    ]);
    expect(found.tax).toEqual(['3.15']);
    expect(found.subTotal).toEqual(['21.05']);
  });

  it('read the gross printed first ("MWST Brutto Netto MWST"), and mark the rows of one rate among several', () => {
    const rows = [
      ['MWST', 'Brutto', 'Netto', 'MWST'],
      ['3.8%', '200.00', '192.68', '7.32'],
      ['8.1%', '100.00', '92.51', '7.49'],
    ];
    expect(read(rows, '.').tax).toEqual(['14.81']);
    const view = createView(layerOfRows(rows, 'text'));
    expect([...findVatTable(view, { decimalSeparator: '.' }).partRows.keys()]).toEqual([1, 2]);
  });

  it("read a tax split in equal halves (India's CGST and SGST) as their sum, the whole rate printed", () => {
    const found = read(
      [
        ['GST', '%', 'Taxable', 'CGST', '6%', 'SGST', '6%'],
        ['12%', '308.17', '18.49', '18.49'],
      ],
      '.',
    );
    expect(found).toEqual({ tax: ['36.98'], subTotal: ['308.17'], words: [['18.49', '18.49']] });
    // Its halves are parts, even in a table of one row: a CGST column's amount is no tax of the document.
    const view = createView(
      layerOfRows(
        [
          ['GST', '%', 'Taxable', 'CGST', '6%', 'SGST', '6%'],
          ['12%', '308.17', '18.49', '18.49'],
        ],
        'text',
      ),
    );
    expect([...findVatTable(view, { decimalSeparator: '.' }).partRows.keys()]).toEqual([1]);
  });

  it('read no split where one rate\'s tax is printed twice on its row ("S 20.00%  350.90  70.18   Total VAT 70.18")', () => {
    const found = read(
      [
        ['Code', 'Rate', 'Net', 'VAT'],
        ['S', '20.00%', '350.90', '70.18', 'Total', 'VAT', '70.18'],
        ['Z', '0.00%', '616.05', '0.00'],
      ],
      '.',
    );
    expect(found.tax).not.toContain('140.36');
  });

  it('sum rows of a rate each whose lines interleave with bank details left of their amounts', () => {
    const found = read(
      [
        ['IBAN:', 'IE84', 'WSTB', 'VAT', '@', '23%', 'on', '5,061.00', '1,164.03'],
        ['BIC:', 'WSTBIE2D'],
        ['VAT', '@', '13.5%', 'on', '1,850.00', '249.75'],
      ],
      '.',
    );
    expect(found.tax).toEqual(['1413.78']);
    expect(found.subTotal).toEqual(['6911.00']);
  });

  it("read halves each with its rate, the row's tax sum beside them, and their total row", () => {
    const rows = [
      ['HSN/SAC', 'Taxable', 'Central', 'Tax', 'State', 'Tax', 'Total'],
      ['72142090', '1,42,000.00', '9%', '12,780.00', '9%', '12,780.00', '25,560.00'],
      ['25232930', '73,000.00', '14%', '10,220.00', '14%', '10,220.00', '20,440.00'],
      ['Total', '2,15,000.00', '23,000.00', '23,000.00', '46,000.00'],
    ];
    const found = read(rows, '.');
    expect(found.tax).toEqual(['46000.00']);
    expect(found.subTotal).toEqual(['215000.00']);
    // The rows' tax sums ("25,560.00") are parts of the table too, not another column's amounts.
    const view = createView(layerOfRows(rows, 'text'));
    const parts = findVatTable(view, { decimalSeparator: '.' }).partRows;
    const sumOfRow = view.rows[1]!.tokens.find((t) => t.text === '25,560.00')!;
    expect(sumOfRow.u.x0).toBeLessThan(parts.get(1)!);
  });

  it('keep the sign of a credit note', () => {
    expect(
      read([
        ['TVA', 'HT', 'TVA', 'TTC'],
        ['20%', '-100,00', '-20,00', '-120,00'],
      ]).tax,
    ).toEqual(['-20.00']);
  });

  it('are not item rows that happen to add up, nor rows whose rate the tax does not match', () => {
    // Quantity 1 and 2.00 make 3.00, but nothing says tax: no heading, no rate.
    expect(read([['Widgets', '1.00', '2.00', '3.00']], '.').tax).toEqual([]);
    // 19 % of 100 is not 25.
    expect(read([['19%', '100,00', '25,00', '125,00']]).tax).toEqual([]);
  });
});

describe("a FatturaPA rendering's VAT summary", () => {
  it('is headed by a long row of headings (thirteen words), its rates in a column of their own', () => {
    const found = read([
      ['RIEPILOGHI', 'IVA', 'E', 'TOTALI'],
      [
        'esigibilità',
        'iva',
        '/',
        'riferimenti',
        'normativi',
        '%IVA',
        'Spese',
        'accessorie',
        'Arr.',
        'Totale',
        'imponibile',
        'Totale',
        'imposta',
      ],
      ['I', '(esigibilità', 'immediata)', '4,00', '1.712,00', '68,48'],
      ['I', '(esigibilità', 'immediata)', '10,00', '735,30', '73,53'],
      ['I', '(esigibilità', 'immediata)', '22,00', '801,00', '176,22'],
    ]);
    expect(found.tax).toEqual(['318.23']);
    expect(found.subTotal).toEqual(['3248.30']);
  });
});
