import { describe, expect, it } from 'vitest';
import { findAmounts } from '../../../src/extraction/finders/amounts.js';
import { isItemHeadingRow } from '../../../src/extraction/finders/line-items.js';
import { extractFields } from '../../../src/extraction/extract.js';
import { isRate } from '../../../src/extraction/label-search.js';
import { documentHints } from '../../../src/extraction/hints.js';
import { createView } from '../../../src/extraction/view.js';
import { layerOfRows } from '../../helpers/token-layer.js';

const amounts = (rows: string[][]) => {
  const view = createView(layerOfRows(rows, 'text'));
  return findAmounts(view, documentHints(view));
};

describe('amount labels', () => {
  it("are not an item table's column headings: the first item's amount under 'Tax' is no tax", () => {
    const found = amounts([
      ['ITEM', 'QTY', 'AMT', 'TAX'],
      ['KOKO', '1', 'x', '24.50'],
      ['ROTI', '1', 'x', '3.20'],
    ]);
    expect(found.tax.map((c) => c.value)).not.toContain('24.50');
  });

  it("tell an item table's headings from a tax summary's, whose one row may be the document's tax", () => {
    const row = (words: string[]) => createView(layerOfRows([words], 'text')).rows[0]!;
    expect(isItemHeadingRow(row(['ITEM', 'QTY', 'AMT', 'TAX']))).toBe(true);
    expect(isItemHeadingRow(row(['Description', 'Quantity', 'Amount']))).toBe(true);
    expect(isItemHeadingRow(row(['CODE', '%', 'AMOUNT', 'GST']))).toBe(false);
    expect(isItemHeadingRow(row(['TOTAL', '16.95']))).toBe(false);
  });

  it('read a total and a subtotal from tax labels with "incl." and "ex"', () => {
    const found = amounts([
      ['Subtotal', '(ex', 'GST)', '886.80'],
      ['Total', 'GST', '10%', '88.68'],
      ['Total', 'inc', 'GST', '975.48'],
    ]);
    expect(found.subTotal[0]?.value).toBe('886.80');
    expect(found.tax[0]?.value).toBe('88.68');
    expect(found.total[0]?.value).toBe('975.48');
    // Without a total's word, "GST included" is the tax.
    const included = amounts([
      ['TOTAL', '16.95'],
      ['GST', 'included', '1.54'],
    ]);
    expect(included.tax[0]?.value).toBe('1.54');
    expect(included.total[0]?.value).toBe('16.95');
  });
});

describe('a total label followed by "excl."', () => {
  it('"Net payable" is the total, and "Total GST (incl. in MRP)" the tax included in it', () => {
    const rows = [
      ['Gross', 'Amount', '383.50'],
      ['Less:', 'Discount', '@', '10%', '38.35'],
      ['Net', 'Amount', '345.15'],
      ['Round', 'Off', '-0.15'],
      ['NET', 'PAYABLE', 'Rs.', '345.00'],
      ['Total', 'GST', '(incl.', 'in', 'MRP)', '36.98'],
    ];
    const found = amounts(rows);
    expect(found.total.find((c) => c.value === '345.00')?.source).toMatch(/^label-right/);
    expect(found.total.map((c) => c.value)).not.toContain('36.98');
    expect(found.tax.find((c) => c.value === '36.98')?.source).toMatch(/^label-right/);
  });

  it('take the amount to pay under a discount under the total, the total less the discount, for the total', () => {
    const found = amounts([
      ['Qtde.', 'total', 'de', 'itens', '4'],
      ['Valor', 'total', 'R$', '56,32'],
      ['Desconto', 'R$', '1,32'],
      ['Valor', 'a', 'Pagar', 'R$', '55,00'],
    ]);
    expect(found.total[0]?.value).toBe('55.00');
    // Without the discount between, the amount to pay is no total over the labelled one.
    const plain = amounts([
      ['Valor', 'total', 'R$', '56,32'],
      ['Valor', 'a', 'Pagar', 'R$', '55,00'],
    ]);
    expect(plain.total[0]?.value).toBe('56.32');
  });

  it("take no group's 'Section total' inside an item table for the document's total", () => {
    const found = amounts([
      ['Managed', 'services', '3,751.00'],
      ['Section', 'total', '3,751.00'],
      ['Hardware', '3,111.00'],
      ['Section', 'total', '3,111.00'],
      ['Subtotal', '6,862.00'],
      ['Sales', 'Tax', '7.5%', '200.70'],
      ['Total', 'Due', '(USD)', '$7,062.70'],
    ]);
    expect(found.total.map((c) => c.value)).not.toContain('3111.00');
    expect(found.total[0]?.value).toBe('7062.70');
  });

  it("take no loyalty scheme's balance of points for an amount due or a total", () => {
    const found = amounts([
      ['TOTAL', '4,400.00'],
      ['Cash', '5,000.00'],
      ['Change', '600.00'],
      ['Points', 'added', '44', '/', 'Balance', '612'],
    ]);
    expect(found.amountDue.map((c) => c.value)).not.toContain('612.00');
    expect(found.total.map((c) => c.value)).not.toContain('612.00');
  });

  it('add a service charge printed between the subtotal and the tax lines when the tax lines make the total', () => {
    const found = amounts([
      ['Sub', 'Total', '1,650.00'],
      ['Service', 'Charge', '@', '5%', '82.50'],
      ['CGST', '@', '2.5%', '43.31'],
      ['SGST', '@', '2.5%', '43.31'],
      ['Round', 'Off', '-0.12'],
      ['Grand', 'Total', 'Rs.', '1,819.00'],
    ]);
    expect(found.tax[0]?.value).toBe('86.62');
    expect(found.total[0]?.value).toBe('1819.00');
  });

  it("keep a total beside a VAT summary's rows that an item table above reaches further right than", () => {
    const found = amounts([
      ['11/03', 'Room', 'Tariff', 'Deluxe', 'Sea', 'View', '12%', '6,800.00', '816.00', '7,616.00'],
      ['12/03', 'Restaurant', 'Spice', 'Route', 'Bill', 'R-4471', '5%', '1,840.00', '92.00', '1,932.00'],
      ['GST', 'Summary', 'Total', 'Taxable', 'Value', '8,640.00'],
      ['Rate', 'Taxable', 'CGST', 'Amount', 'SGST', 'Amount'],
      ['5%', '1,840.00', '2.5%', '46.00', '2.5%', '46.00', 'Total', 'SGST', '454.00'],
      ['12%', '6,800.00', '6%', '408.00', '6%', '408.00', 'Grand', 'Total', '9,548.00'],
    ]);
    expect(found.total[0]?.value).toBe('9548.00');
    expect(found.tax[0]?.value).toBe('908.00');
  });

  it('names the amount before tax, whatever OCR made of the tax word', () => {
    const found = amounts([
      ['Total', 'Qty', '2'],
      ['TOTAL', 'EXCL.G5T', '28.11'],
      ['ADD:', 'GST', '@', '6%', 'On', '1.69'],
      ['29.80'],
      ['CASH', '50.00'],
      ['CHANGE', '20.20'],
    ]);
    expect(found.total.map((c) => c.value)).not.toContain('28.11');
    expect(found.total[0]?.value).toBe('29.80');
    expect(found.subTotal[0]?.value).toBe('28.11');
  });

  it('and a tax label after "excl. of" or "incl. of" names the subtotal or the total', () => {
    const found = amounts([
      ['Told', 'Excl', 'of', 'GST', '15.00'],
      ['GST', '6%', '0.90'],
      ['Total', 'Incl.', 'of', 'GST', '15.90'],
    ]);
    expect(found.subTotal[0]?.value).toBe('15.00');
    expect(found.tax.map((c) => c.value)).toEqual(['0.90']);
    expect(found.total[0]?.value).toBe('15.90');
  });
});

describe('amounts that are no total', () => {
  it('a number with a per cent sign after it is a rate ("GST 6.00 %"), never an amount', () => {
    const rows = [
      ['Parking', 'Fee', 'Rate', 'A', 'RM4.00'],
      ['GST', '6.00', '%', 'RM0.00'],
      ['Total', 'RM4.00'],
      ['Paid', 'RM4.00'],
    ];
    const view = createView(layerOfRows(rows));
    const rate = view.rows[1]!.tokens[1]!;
    expect(isRate(view, { tokens: [rate] })).toBe(true);
    expect(isRate(view, { tokens: [view.rows[2]!.tokens[1]!] })).toBe(false);
    // Neither the finders nor the readings anywhere (which the learned ranking chooses among) offer it.
    const [total] = extractFields(layerOfRows(rows), { fields: [{ name: 'receipt.total', kind: 'amount' }] });
    expect(total!.value).toBe('4.00');
    expect(total!.candidates!.map((c) => c.value)).not.toContain('6.00');
  });

  it("a total equal to a tax line's amount, with a larger total beside it, is the tax's total", () => {
    // "TAX TOTAL" misread "TAS TOTAL": only its "TOTAL" is read, and it comes last.
    const found = amounts([
      ['SUB-TOTAL', '12.19'],
      ['GST', '0.69'],
      ['ROUNDING', '-0.04'],
      ['TOTAL', '12.15'],
      ['GST', 'SUMMARY'],
      ['TAS', 'TOTAL:', '0.69'],
    ]);
    expect(found.total[0]?.value).toBe('12.15');
  });
});

describe('the money tendered under a label OCR misread', () => {
  it('is the amount right above the change when it less the change is printed above it', () => {
    const found = amounts([
      ['French', 'Loaf', '8', '2.40', '19.20'],
      ['Hue', '19.20'],
      ['Fay', '20.00'],
      ['Change', '0.80'],
    ]);
    expect(found.total[0]).toMatchObject({ value: '19.20', source: 'cash-less-change' });
  });

  it('is not guessed when nothing printed above makes the sum', () => {
    const found = amounts([
      ['French', 'Loaf', '7', '2.60', '18.20'],
      ['Hue', '18.20'],
      ['Fay', '20.00'],
      ['Change', '0.80'],
    ]);
    expect(found.total.map((c) => c.source)).not.toContain('cash-less-change');
  });
});

describe('a rounding adjustment', () => {
  it('printed without its zero ("RM .01") still puts the total on the coin', () => {
    const found = amounts([
      ['Total', 'Sales', '(Inclusive', 'GST)', 'RM', '45.34'],
      ['Rounding', 'Adjustment', 'RM', '.01'],
      ['CASH', 'RM', '45.35'],
      ['CHANGE', 'RM', '.00'],
    ]);
    expect(found.total[0]?.value).toBe('45.35');
  });
});

describe('amounts in a sentence', () => {
  it("count less when their label stands deep in the sentence: a note on a part, not the invoice's totals", () => {
    const found = amounts([
      ['Summe', 'netto', '11.394,60'],
      ['zzgl.', '19', '%', 'MwSt.', '2.164,97'],
      ['Rechnungsbetrag', 'brutto', '13.559,57'],
      // (German invoices state the labour costs within them: a sentence of its own sums.)
      [
        'Im',
        'Rechnungsbetrag',
        'enthaltene',
        'Arbeitskosten',
        'gem.',
        '§',
        '35a',
        'EStG:',
        'netto',
        '5.104,00',
        '€,',
      ],
      ['davon', 'MwSt.', '969,76', '€,', 'brutto', '6.073,76', '€.'],
    ]);
    expect(found.total[0]!.value).toBe('13559.57');
    expect(found.subTotal[0]!.value).toBe('11394.60');
    expect(found.tax[0]!.value).toBe('2164.97');
  });
});

describe('taxes on several lines', () => {
  it('stacked between the subtotal and the total, some named by their place and rate only, add up', () => {
    const found = amounts([
      ['WIRELESS', 'MOUSE', '29.99'],
      ['SUBTOTAL', '89.97'],
      ['CO', 'STATE', 'TAX', '2.9%', '2.61'],
      ['RTD/CD', 'TAX', '1.0%', '0.90'],
      ['ARAPAHOE', 'CNTY', '0.25%', '0.22'],
      ['AURORA', 'CITY', '3.75%', '3.37'],
      ['TOTAL', '97.07'],
    ]);
    expect(found.tax[0]!.value).toBe('7.10');
    expect(found.total[0]!.value).toBe('97.07');
  });

  it('not when a row between is a charge or a withholding (deducted, not added)', () => {
    const withheld = amounts([
      ['Base', 'imponible', '2.341,00'],
      ['IVA', '21%', '491,61'],
      ['Retención', 'IRPF', '15%', '351,15'],
      ['TOTAL', '2.481,46'],
    ]);
    expect(withheld.tax[0]!.value).not.toBe('842.76');
    const charged = amounts([
      ['Subtotal', '100.00'],
      ['SVC', 'CHG', '10%', '10.00'],
      ['GST', '9%', '9.90'],
      ['TOTAL', '119.90'],
    ]);
    expect(charged.tax[0]!.value).toBe('9.90');
  });

  it('included in the prices, per rate in parentheses: their sum, or the line printing it', () => {
    const perRate = amounts([
      ['Subtotal', '¥16,510'],
      ['(10%', 'target', '¥16,350)'],
      ['(10%', 'tax', '¥1,486)'],
      ['(8%', 'target', '¥160)'],
      ['(8%', 'tax', '¥11)'],
      ['TOTAL', '¥16,510'],
    ]);
    expect(perRate.tax[0]!.value).toBe('1497.00');
    const printedSum = amounts([
      ['Subtotal', '¥2,096'],
      ['(Consumption', 'tax', '10%', '¥118)'],
      ['(Consumption', 'tax', '8%', '¥59)'],
      ['Total', 'tax', '¥177'],
      ['TOTAL', '¥2,096'],
    ]);
    expect(printedSum.tax[0]!.value).toBe('177.00');
    // Target and tax on one line each: the next line's base under a tax's label is no tax line.
    const oneLineEach = amounts([
      ['Subtotal', '(5', 'items)', '¥1,518'],
      ['Total', '¥1,518'],
      ['(8%', 'target', '¥748', 'tax', '¥55)'],
      ['(10%', 'target', 'of', '¥770', 'tax', '¥70)'],
    ]);
    expect(oneLineEach.tax[0]!.value).toBe('125.00');
  });
});
