import { parseAmount, type AmountHints } from '../normalise/amounts.js';
import type { ColumnRole, TableValue } from '../types.js';
import { boundingBoxOf, type DocumentView, type Row, type ViewToken } from '../view.js';

type ColumnType = 'description' | 'quantity' | 'unitPrice' | 'amount' | 'tax' | 'code' | 'unit';

// No prototype: a printed "constructor" or "toString" is no column header.
const HEADER_WORDS = Object.create(null) as Record<string, ColumnType>;
const add = (type: ColumnType, words: string[]): void => words.forEach((w) => (HEADER_WORDS[w] = type));
add('description', [
  'description',
  'item',
  'items',
  'article',
  'artikel',
  'product',
  'produkt',
  'service',
  'désignation',
  'designation',
  'libellé',
  'omschrijving',
  'bezeichnung',
  'beschreibung',
  'leistung',
  'particulars',
  'details',
  'produit',
  'descripción',
  'descripcion',
  'concepto',
  'artículo',
  'articulo',
  'producto',
  'descrizione',
  'articolo',
  'prodotto',
  'omschrijving',
  'prestation',
]);
add('quantity', [
  'qty',
  'quantity',
  'menge',
  'anzahl',
  'quantité',
  'qté',
  'aantal',
  'stk',
  'pcs',
  'units',
  'hours',
  'stunden',
  'cantidad',
  'cant',
  'uds',
  'unidades',
  'quantità',
  'quantita',
  'qtà',
  'q.tà',
  'hoeveelheid',
]);
add('unitPrice', [
  'price',
  'rate',
  'einzelpreis',
  'preis',
  'prix',
  'p.u',
  'prijs',
  'u.price',
  'each',
  'unitaire',
  'stückpreis',
  'nettopreis',
  'e-preis',
  'precio',
  'prezzo',
  'stukprijs',
  'pu',
  'cost',
]);
add('amount', [
  'amount',
  'total',
  'betrag',
  'summe',
  'gesamt',
  'gesamtpreis',
  'montant',
  'bedrag',
  'totaal',
  'amt',
  'subtotal',
  'importe',
  'importo',
  'valore',
  'regeltotaal',
]);
add('tax', ['tax', 'vat', 'gst', 'ust', 'mwst', 'tva', 'btw', 'iva', 'aliquota', '%']);
add('code', [
  'code',
  'sku',
  'pos',
  'ref',
  'réf',
  'art.-nr',
  'artikelnummer',
  'artnr',
  'artikelnr',
  'código',
  'codigo',
  'codice',
  'cod',
]);
add('unit', ['unit', 'uom', 'einheit', 'unité', 'eenheid']);

/** The role a column of each type has in the result (`tax` columns print the rate). */
const ROLE: Record<ColumnType, ColumnRole> = {
  description: 'description',
  quantity: 'quantity',
  unitPrice: 'unitPrice',
  amount: 'amount',
  tax: 'taxRate',
  code: 'code',
  unit: 'unit',
};

const STOP =
  /^(total|subtotal|sub|summe|zwischensumme|gesamtbetrag|montant|totaal|subtotaal|net|nett|tax|vat|gst|tva|btw|amount|balance|rounding|grand|taxe|taxes|steuer|umsatzsteuer|mwst|iva|imposta|totale|gesamt|gesamtsumme|positionssumme|rechnungssumme|bruttosumme|nettosumme|zahlbetrag|endbetrag)$/;

/** A subtotal of a group of items: a stop word then amounts only ("Subtotal $ 112.00"). */
function isGroupTotal(row: Row): boolean {
  return (
    STOP.test(row.tokens[0]!.key) &&
    row.tokens
      .slice(1)
      .every((t) => parseAmount(t.text) !== undefined || !/[\p{L}\d]/u.test(t.text) || t.text.length <= 3)
  );
}

/** Rows a table's items may resume after a group's subtotal (a group heading may come between). */
const GROUP_LOOKAHEAD = 2;

interface Column {
  name: string;
  type: ColumnType;
  /** The heading's words told the type (otherwise it was taken for a description by default). */
  known: boolean;
  x0: number;
  x1: number;
}

/** The column type each word of a row names, where it names one. */
function columnWords(row: Row): Array<ColumnType | undefined> {
  return row.tokens.map((t) => HEADER_WORDS[t.key] ?? HEADER_WORDS[t.text.toLowerCase()]);
}

/** A row of column headings: two kinds of column words at least, most of its words such. */
function isHeaderRow(typed: ReadonlyArray<ColumnType | undefined>): boolean {
  const types = new Set(typed.filter((t) => t !== undefined));
  return types.size >= 2 && typed.filter((t) => t === undefined).length <= typed.length * 0.6;
}

/** The header row of a table on a page, with its columns, when there is one. */
function findHeader(view: DocumentView, rows: Row[]): { row: Row; columns: Column[] } | undefined {
  let best: { row: Row; columns: Column[]; score: number } | undefined;
  for (const row of rows) {
    const typed = columnWords(row);
    const types = new Set(typed.filter((t): t is ColumnType => t !== undefined));
    const numeric = ['quantity', 'unitPrice', 'amount'].filter((t) => types.has(t as ColumnType)).length;
    if (!isHeaderRow(typed) || numeric < 1 || row.tokens.length > 14) continue;
    // Adjacent words close together form one column heading ("Unit Price", "Prix HT").
    const columns: Column[] = [];
    row.tokens.forEach((token, i) => {
      const last = columns[columns.length - 1];
      const close = last && token.u.x0 - last.x1 < 0.9 * Math.max(row.height, view.bodyHeight);
      const type = typed[i];
      if (
        last &&
        close &&
        (type === undefined || last.type === type || type === 'unitPrice' || last.type === 'unit')
      ) {
        last.name += ` ${token.text}`;
        last.x1 = token.u.x1;
        if (type === 'unitPrice' || type === 'amount') last.type = type;
        if (type !== undefined) last.known = true;
      } else {
        columns.push({
          name: token.text,
          type: type ?? 'description',
          known: type !== undefined,
          x0: token.u.x0,
          x1: token.u.x1,
        });
      }
    });
    const score = types.size + numeric;
    if (!best || score > best.score) best = { row, columns, score };
  }
  return best;
}

/** Which column a token belongs to: the one whose span (between neighbours' midpoints) holds its centre. */
function columnOf(columns: Column[], token: ViewToken): number {
  const centre = (token.u.x0 + token.u.x1) / 2;
  let best = 0;
  let bestDistance = Infinity;
  columns.forEach((c, i) => {
    const distance = centre < c.x0 ? c.x0 - centre : centre > c.x1 ? centre - c.x1 : 0;
    // Numbers align right under their heading: measure from the right edge too.
    const right = Math.abs(token.u.x1 - c.x1);
    const d = Math.min(distance, c.type === 'description' ? Infinity : right);
    if (d < bestDistance) {
      bestDistance = d;
      best = i;
    }
  });
  return best;
}

/**
 * The line-item table: a header row of known column words, the rows under it up to the totals, a row
 * without numbers joined to the item above (descriptions over several lines), and the table picked up
 * again on a following page that repeats the header.
 */
export function findLineItems(
  view: DocumentView,
  hints: AmountHints = {},
): { value: TableValue; score: number; tokens: ViewToken[] } | undefined {
  let columns: Column[] | undefined;
  const items: ViewToken[][][] = [];
  let amountCells = 0;
  for (let page = 1; page <= view.pageCount; page++) {
    const pageRows = view.rows.filter((r) => r.pageNum === page);
    const header = findHeader(view, pageRows);
    if (!header) continue;
    if (columns && header.columns.length !== columns.length) continue;
    columns ??= header.columns;
    const active = header.columns;
    let previousBottom = header.row.box.y1;
    // Items start at the table's left; the totals under a table stand in its right half ("Net total",
    // "Zwischensumme", "Base imponible": in any language).
    const middle = (header.row.box.x0 + header.row.box.x1) / 2;
    const itemsBefore = items.length;
    const below = pageRows.slice(pageRows.indexOf(header.row) + 1);
    const cellsOf = (row: Row): ViewToken[][] => {
      const cells: ViewToken[][] = active.map(() => []);
      let previous: { token: ViewToken; column: number } | undefined;
      for (const token of row.tokens) {
        let column = columnOf(active, token);
        // A long description runs on under the next heading: a word of letters close after a word of
        // the description is the description's.
        if (
          previous &&
          active[previous.column]!.type === 'description' &&
          /^[^\d]*\p{L}[^\d]*$/u.test(token.text) &&
          token.u.x0 - previous.token.u.x1 < Math.max(row.height, view.bodyHeight)
        )
          column = previous.column;
        cells[column]!.push(token);
        previous = { token, column };
      }
      return cells;
    };
    /** Columns other than descriptions and codes that hold a number in these cells. */
    const numbered = (cells: ViewToken[][]): number =>
      cells.filter(
        (cell, i) =>
          active[i]!.type !== 'description' &&
          active[i]!.type !== 'code' &&
          cell.some((t) => parseAmount(t.text) !== undefined),
      ).length;
    /** An item row: no stop word first, numbers in two columns at least. */
    const isItem = (row: Row): boolean => !STOP.test(row.tokens[0]!.key) && numbered(cellsOf(row)) >= 2;
    /** After a group's subtotal: its heading's words are not the item's above. */
    let newGroup = false;
    for (const [k, row] of below.entries()) {
      if (row.box.y0 - previousBottom > 4 * Math.max(row.height, view.bodyHeight)) break;
      // A group's subtotal inside the table ("Subtotal $ 112.00", then "--- Food ---" and more items):
      // the table goes on when an item follows within a row or two; the subtotal is no item.
      if (
        items.length > itemsBefore &&
        isGroupTotal(row) &&
        below.slice(k + 1, k + 2 + GROUP_LOOKAHEAD).some(isItem)
      ) {
        previousBottom = row.box.y1;
        newGroup = true;
        continue;
      }
      // (Once items have begun: a heading's second line, "unitaire" under "Prix", stands right too.)
      const lead = row.tokens[0]!;
      if (items.length > itemsBefore && lead.box.x0 > middle && /\p{L}/u.test(lead.text)) break;
      if (
        STOP.test(row.tokens[0]!.key) ||
        (row.tokens.length <= 4 && row.tokens.some((t) => STOP.test(t.key) && t.u.x0 > active[0]!.x1))
      )
        break;
      previousBottom = row.box.y1;
      const cells = cellsOf(row);
      const hasNumber = numbered(cells) > 0;
      // The header of another table under this one (a tax summary, charges and allowances): the end.
      if (!hasNumber && items.length > itemsBefore && isHeaderRow(columnWords(row))) break;
      const previous = items[items.length - 1];
      if (!hasNumber && newGroup) continue;
      if (hasNumber) newGroup = false;
      if (!hasNumber && previous) {
        // A continuation line: its words belong to the item above, each run of words (words closer
        // than two letters' height) to the column it starts in: a description's second line may run
        // on under the next columns.
        let column = -1;
        let last: ViewToken | undefined;
        for (const token of row.tokens) {
          if (!last || token.u.x0 - last.u.x1 > 2 * Math.max(row.height, view.bodyHeight))
            column = columnOf(active, token);
          previous[column]!.push(token);
          last = token;
        }
        continue;
      }
      if (!hasNumber) continue;
      const amountColumn = active.findIndex((c) => c.type === 'amount');
      if (amountColumn >= 0 && cells[amountColumn]!.some((t) => parseAmount(t.text))) amountCells++;
      items.push(cells);
    }
  }
  if (!columns || items.length === 0) return undefined;
  const value: TableValue = {
    headers: columns.map((c) => c.name),
    types: columnRoles(columns, items, hints),
    rows: items.map((cells) =>
      cells.map((cell) =>
        cell.length === 0
          ? null
          : { value: cell.map((t) => t.text).join(' '), boundingBox: boundingBoxOf(cell) },
      ),
    ),
  };
  const score = Math.min(
    0.95,
    0.45 + 0.4 * (amountCells / items.length) + 0.05 * Math.min(columns.length, 3),
  );
  return { value, score, tokens: items.flat(2) };
}

/**
 * Each column's role: from the arithmetic of the rows where it holds (a quantity times a unit price is
 * the line's amount, whatever the headings call them, in any language), otherwise from the heading; a
 * column of percentages is the tax rate. A heading no word tells is not taken for a description when
 * its cells are numbers.
 */
function columnRoles(
  columns: Column[],
  items: ViewToken[][][],
  hints: AmountHints,
): Array<ColumnRole | null> {
  const roles: Array<ColumnRole | null> = columns.map((c) => ROLE[c.type]);
  const numbers = columns.map((_, ci) =>
    items.map((row) => {
      const text = row[ci]!.map((t) => t.text).join(' ');
      if (text.includes('%')) return undefined;
      return parseAmount(text, hints)?.value;
    }),
  );
  const percent = columns.map(
    (_, ci) => items.filter((row) => row[ci]!.some((t) => t.text.includes('%'))).length,
  );
  const numeric = columns
    .map((_, ci) => ci)
    .filter((ci) => numbers[ci]!.filter((n) => n !== undefined).length >= Math.max(1, items.length * 0.6));
  let best: { q: number; p: number; a: number; rows: number } | undefined;
  for (const q of numeric)
    for (const p of numeric)
      for (const a of numeric) {
        if (q === p || p === a || q === a) continue;
        let rows = 0;
        for (let r = 0; r < items.length; r++) {
          const [nq, np, na] = [numbers[q]![r], numbers[p]![r], numbers[a]![r]];
          if (nq === undefined || np === undefined || na === undefined) continue;
          const product = Math.abs(nq * np);
          if (Math.abs(product - Math.abs(na)) <= Math.max(0.011, 0.005 * Math.abs(na))) rows++;
        }
        // Ties: the amount rightmost, the quantity left of the price (as tables print them).
        const better =
          !best ||
          rows > best.rows ||
          (rows === best.rows && a > best.a) ||
          (rows === best.rows && a === best.a && q < best.q);
        if (rows > 0 && better) best = { q, p, a, rows };
      }
  if (best && best.rows >= Math.max(1, Math.ceil(items.length * 0.6))) {
    for (const [i, role] of roles.entries()) {
      // The arithmetic settles these three; another column the headings call one of them is not.
      if (role === 'quantity' || role === 'unitPrice' || role === 'amount') roles[i] = null;
    }
    roles[best.q] = 'quantity';
    roles[best.p] = 'unitPrice';
    roles[best.a] = 'amount';
  }
  for (const ci of numeric) if (roles[ci] === 'description') roles[ci] = null;
  // A heading no word told is no description when another column is one.
  if (columns.some((c) => c.known && c.type === 'description')) {
    columns.forEach((c, ci) => {
      if (!c.known && roles[ci] === 'description') roles[ci] = null;
    });
  }
  // Every line has an amount: without one, the rightmost column of numbers is it ("Prix HT").
  if (!roles.includes('amount') && numeric.length > 0) roles[numeric[numeric.length - 1]!] = 'amount';
  for (let ci = 0; ci < columns.length; ci++)
    if (percent[ci]! >= Math.max(1, items.length * 0.6)) roles[ci] = 'taxRate';
  return roles;
}
