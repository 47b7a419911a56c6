import { describe, expect, it } from 'vitest';
import { findPageMark } from '../../src/split/page-marks.js';

/** One line of a page at vertical position `y` (0 top, 1 bottom). */
const at = (text: string, y: number): { text: string; y: number } => ({ text, y });
const BOTTOM = 0.96;
const TOP = 0.04;
const MIDDLE = 0.5;

/** A page of ordinary invoice lines, with `extra` added. */
function page(...extra: Array<{ text: string; y: number }>): Array<{ text: string; y: number }> {
  return [
    at('ACME Supplies Pty Ltd', 0.06),
    at('TAX INVOICE', 0.08),
    at('Invoice No: INV-1234', 0.18),
    at('Invoice Date: 1/4/2024', 0.2),
    at('Description Qty Unit Price Amount', 0.3),
    at('Widgets large 4 30.00 120.00', 0.32),
    at('Total 150.00', 0.5),
    ...extra,
  ];
}

describe('findPageMark: marks with a count', () => {
  it.each([
    ['Page 2 of 3', 2, 3],
    ['PAGE 1 OF 2', 1, 2],
    ['page 3 of 3', 3, 3],
    ['Seite 2/2', 2, 2],
    ['Seite 1 von 4', 1, 4],
    ['Seite: 2 von 3', 2, 3],
    ['Blatt 2 von 5', 2, 5],
    ['Page 1 / 1', 1, 1],
    ['Page 1/1', 1, 1],
    ['p. 3/5', 3, 5],
    ['Pag. 2 di 3', 2, 3],
    ['Pagina 2 di 3', 2, 3],
    ['Página 1 de 2', 1, 2],
    ['Page 3 sur 4', 3, 4],
    ['Strona 1 z 2', 1, 2],
    ['Sida 2 av 2', 2, 2],
    ['Blz. 1 van 2', 1, 2],
  ])('"%s" -> %i of %i, at the bottom, the top or mid-page', (text, index, count) => {
    for (const y of [BOTTOM, TOP, MIDDLE]) {
      expect(findPageMark(page(at(text, y))), `${text} at y=${y}`).toEqual({ index, count });
    }
  });

  it('finds a mark inside a longer footer line', () => {
    expect(findPageMark(page(at('ACME Supplies Pty Ltd - Invoice INV-1234 - Page 2 of 3', BOTTOM)))).toEqual({
      index: 2,
      count: 3,
    });
  });

  it.each([
    ['1/4', 1, 4],
    ['2/2', 2, 2],
    ['(2/3)', 2, 3],
    ['3 / 5', 3, 5],
  ])('a bare "%s" alone on a line in the bottom or top margin -> %i of %i', (text, index, count) => {
    expect(findPageMark(page(at(text, BOTTOM)))).toEqual({ index, count });
    expect(findPageMark(page(at(text, TOP)))).toEqual({ index, count });
    expect(findPageMark(page(at(text, 0.9)))).toEqual({ index, count });
  });

  it('prefers a mark with a count to a bare one, whatever their order', () => {
    expect(findPageMark([at('- 1 -', BOTTOM), at('Page 2 of 3', 0.95)])).toEqual({ index: 2, count: 3 });
    expect(findPageMark([at('Page 2 of 3', 0.95), at('- 1 -', BOTTOM)])).toEqual({ index: 2, count: 3 });
    expect(findPageMark([at('1/4', BOTTOM), at('Seite 2/4', TOP)])).toEqual({ index: 2, count: 4 });
  });

  it('refuses impossible counts: index above the count, page 0, counts above 200', () => {
    expect(findPageMark([at('3/2', BOTTOM)])).toBeUndefined();
    expect(findPageMark([at('0/2', BOTTOM)])).toBeUndefined();
    expect(findPageMark([at('Page 0 of 3', BOTTOM)])).toBeUndefined();
    // Not a "3 of 2": at most a page number without a count.
    expect(findPageMark([at('Page 3 of 2', BOTTOM)])?.count).toBeUndefined();
    expect(findPageMark([at('Page 2 of 300', BOTTOM)])?.count).toBeUndefined();
  });
});

describe('findPageMark: marks without a count', () => {
  it.each([
    ['- 2 -', 2],
    ['– 3 –', 3],
    ['—1—', 1],
  ])('"%s" alone in the bottom or top margin -> page %i', (text, index) => {
    expect(findPageMark(page(at(text, BOTTOM)))).toEqual({ index });
    expect(findPageMark(page(at(text, TOP)))).toEqual({ index });
  });

  it.each([
    ['Page 2', 2],
    ['Seite 3', 3],
    ['p. 4', 4],
  ])('"%s" -> page %i', (text, index) => {
    expect(findPageMark(page(at(text, BOTTOM)))).toEqual({ index });
  });
});

describe('findPageMark: what is not a page mark', () => {
  it('an ordinary invoice page has none (its date 1/4/2024 is not one)', () => {
    expect(findPageMark(page())).toBeUndefined();
  });

  it.each(['1/4/2024', '01/04/2024', 'Date: 1/4/2024', 'Due 1/4', '14/03/24'])(
    'a date "%s", even alone at the bottom',
    (text) => {
      expect(findPageMark(page(at(text, MIDDLE)))).toBeUndefined();
      expect(findPageMark(page(at(text, BOTTOM)))).toBeUndefined();
    },
  );

  it.each(['1/4', '2/3', '(1/2)'])('a bare "%s" mid-page (a quantity, a fraction)', (text) => {
    expect(findPageMark(page(at(text, MIDDLE)))).toBeUndefined();
    expect(findPageMark(page(at(text, 0.3)))).toBeUndefined();
    expect(findPageMark(page(at(text, 0.8)))).toBeUndefined();
  });

  it('a "- 2 -" mid-page', () => {
    expect(findPageMark(page(at('- 2 -', MIDDLE)))).toBeUndefined();
  });

  it.each([
    'Paper A4 1/2 ream 4 12.00',
    'Qty 1/4 box',
    'Dimensions 1/4 inch bolts',
    'Unit 1/4, 12 Harbour Lane',
    'Tel. 030/1234567',
    'homepage 1/2',
    'Invoice 1/4/2024 Total 150.00',
  ])('"%s" at the bottom is not a mark', (text) => {
    expect(findPageMark(page(at(text, BOTTOM)))).toBeUndefined();
  });

  it('an empty page has none', () => {
    expect(findPageMark([])).toBeUndefined();
    expect(findPageMark([at('', BOTTOM)])).toBeUndefined();
  });

  // Once a weakness, kept as a regression test: "Pages: 3" (a fax cover or delivery note stating how many pages there are) is taken as
  // "this is page 3": WITHOUT_COUNT accepts the plural "pages" as a page-number word, so the first page
  // of a document gets "-3 marked as page 3" in planSplit.
  it('"Pages: 3" states a count, not the number of this page', () => {
    expect(findPageMark(page(at('Pages: 3', 0.15)))).toBeUndefined();
  });

  // Once a weakness, kept as a regression test: a reference to another page in running text ("see page 2 ...", under 40 characters) is
  // taken as this page's number, anywhere on the page; on a first page that costs -3 in planSplit.
  it('"See page 2 for our terms" mid-page is a reference, not a page number', () => {
    expect(findPageMark(page(at('See page 2 for our terms', 0.55)))).toBeUndefined();
  });
});
