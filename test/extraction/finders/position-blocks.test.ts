import { afterAll, describe, expect, it } from 'vitest';
import type { TableValue } from '../../../src/extraction/types.js';
import { extractLines, sheet, textOnlyEngine } from '../../helpers/make-invoices.js';

const engine = textOnlyEngine();
afterAll(() => engine.close());

/** An e-invoice viewer's page: each item a heading over labelled values, two pairs to a line. */
function viewerPage(
  heading: (n: number) => string,
  labels: { name: string; quantity: string; price: string; amount: string },
  items: ReadonlyArray<readonly [string, string, string, string]>,
) {
  const s = sheet();
  s.put(50, 60, 'Rheinmess Technik GmbH', 16, true);
  s.put(50, 90, 'Rechnungsnummer: RE-2024-0412');
  s.put(50, 300, 'Positionen', 11, true);
  items.forEach(([name, quantity, price, amount], i) => {
    const y = 320 + 52 * i;
    s.put(50, y, heading(i + 1), 9, true);
    s.put(60, y + 13, labels.name, 8.5);
    s.put(165, y + 13, name, 8.5);
    s.put(375, y + 13, labels.price, 8.5);
    s.put(512, y + 13, price, 8.5);
    s.put(60, y + 25, labels.quantity, 8.5);
    s.put(165, y + 25, quantity, 8.5);
    s.put(375, y + 25, labels.amount, 8.5);
    s.put(512, y + 25, amount, 8.5);
  });
  return s.lines;
}

const rowsOf = (table: TableValue) => table.rows.map((r) => r.map((c) => c?.value ?? null));

describe('items printed as blocks of labelled values', () => {
  it('reads each "Position n" block of a German viewer as a row with typed cells', async () => {
    const lines = viewerPage(
      (n) => `Position ${n}`,
      {
        name: 'Artikelname:',
        quantity: 'Menge:',
        price: 'Preis pro Einheit (netto):',
        amount: 'Gesamtpreis (netto):',
      },
      [
        ['Durchflussmessgerät DN100', '2', '2.480,00', '4.960,00'],
        ['Kalibrierung vor Ort', '6', '98,00', '588,00'],
      ],
    );
    const table = (await extractLines(engine, lines)).value('invoice.lineitems') as TableValue;
    expect(table.types).toEqual(['description', 'quantity', 'unitPrice', 'amount']);
    expect(rowsOf(table)).toEqual([
      ['Durchflussmessgerät DN100', '2', '2.480,00', '4.960,00'],
      ['Kalibrierung vor Ort', '6', '98,00', '588,00'],
    ]);
    // Each cell keeps its box on the page.
    expect(table.rows[0]![0]!.boundingBox).not.toBeNull();
  });

  it('reads English labels under "Line n" headings', async () => {
    const lines = viewerPage(
      (n) => `Line ${n}`,
      { name: 'Item name:', quantity: 'Quantity:', price: 'Item net price:', amount: 'Line net amount:' },
      [['Support hours', '3', '10.00', '30.00']],
    );
    const table = (await extractLines(engine, lines)).value('invoice.lineitems') as TableValue;
    expect(rowsOf(table)).toEqual([['Support hours', '3', '10.00', '30.00']]);
  });

  it('takes no block without a name and an amount or quantity for an item', async () => {
    const s = sheet();
    s.put(50, 60, 'Rheinmess Technik GmbH', 16, true);
    s.put(50, 320, 'Position 1', 9, true);
    s.put(60, 333, 'Hinweis:', 8.5);
    s.put(165, 333, 'Lieferung frei Haus', 8.5);
    const doc = await extractLines(engine, s.lines);
    expect(doc.value('invoice.lineitems')).toBeNull();
  });
});
