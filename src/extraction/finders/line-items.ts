import { parseAmount, type AmountHints } from '../normalise/amounts.js';
import type { ColumnRole, TableValue } from '../types.js';
import { boundingBoxOf, type DocumentView, type Row, type ViewToken } from '../view.js';

type ColumnType = 'description' | 'quantity' | 'unitPrice' | 'amount' | 'tax' | 'code' | 'unit';

// No prototype: a printed "constructor" or "toString" is no column header.
const HEADER_WORDS = Object.create(null) as Record<string, ColumnType>;
const add = (type: ColumnType, words: string[]): void => words.forEach((w) => (HEADER_WORDS[w] = type));
add('description', [
  // Turkish: goods/service, description.
  'mal hizmet',
  'hizmet',
  'açıklama',
  'aciklama',
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
  // Portuguese, Polish and the Nordic languages.
  'descrição',
  'descricao',
  'designação',
  'nazwa',
  'opis',
  'beskrivelse',
  'beskrivning',
  'varebeskrivelse',
  'tekst',
  'benämning',
  'kuvaus',
  'tuote',
  // Czech and Slovak, Hungarian, Romanian.
  'označení',
  'oznacení',
  'oznaceni',
  'název',
  'nazev',
  'popis',
  'položka',
  'polozka',
  'megnevezés',
  'megnevezes',
  'denumire',
  'denumirea',
  // Estonian, Latvian, Lithuanian.
  'teenus',
  'kirjeldus',
  'nimetus',
  'apraksts',
  'pavadinimas',
  // Croatian, Slovene, Serbian; Afrikaans.
  'naziv',
  'beskrywing',
]);
add('quantity', [
  // Turkish.
  'miktar',
  'miktarı',
  'miktari',
  'qty',
  // A distributor's shipped quantity, billed ("ORDERED  SHIPPED  B/O").
  'shipped',
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
  'qtd',
  'quantidade',
  'ilość',
  'ilosc',
  'antal',
  'määrä',
  'kpl',
  'počet',
  'pocet',
  'množství',
  'mnozstvi',
  'mennyiség',
  'mennyiseg',
  'cantitate',
  'cant.',
  'kol',
  'kol.',
  'količina',
  'kolicina',
  'hoev',
  'hoev.',
  'kogus',
  'daudzums',
  'kiekis',
  // Fuel by the litre.
  'litres',
  'liters',
  'litre',
  'liter',
]);
add('unitPrice', [
  // Turkish.
  'birim fiyat',
  'fiyat',
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
  'preço',
  'preco',
  'cena',
  'pris',
  'á-pris',
  'à-pris',
  'a-pris',
  'styckpris',
  'enhedspris',
  'enhetspris',
  'yksikköhinta',
  'egységár',
  'egysegar',
  'preț',
  'pret',
  'cijena',
  'eenheidsprys',
  'prys',
  'hind',
  'kaina',
  // A fuel's price per litre.
  '$/l',
  '€/l',
  'price/l',
]);
add('amount', [
  // Turkish.
  'tutar',
  'tutarı',
  'tutari',
  'amount',
  // A statement's or a utility's: "Charges", the line's amount before what insurers paid.
  'charges',
  // A distributor's line amount ("UNIT PRICE  EXTENSION").
  'extension',
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
  'valor',
  'wartość',
  'wartosc',
  'beløb',
  'belopp',
  'beløp',
  'summa',
  'yhteensä',
  'celkem',
  'összeg',
  'osszeg',
  'valoare',
  'iznos',
  'znesek',
  // A line's net amount ("Nettobetrag"; "Netto" alone, see columnWords).
  'nettobetrag',
]);
add('tax', ['tax', 'vat', 'gst', 'ust', 'mwst', 'tva', 'btw', 'iva', 'aliquota', 'dph', 'áfa', 'afa', '%']);
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
  'šifra',
  'sifra',
  'kode',
  // India's goods and services codes, a medicine's batch (pharmacy invoices print both).
  'hsn',
  'hsn/sac',
  'sac',
  'batch',
  // A shipment's number on a courier's statement.
  'sendungsnummer',
  'tracking',
  'trackingnummer',
]);
add('unit', ['unit', 'uom', 'einheit', 'unité', 'eenheid', 'mj', 'm.j.', 'um', 'eenh', 'eenh.']);

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
  /^(riepilogo|récapitulatif|recapitulatif|rekapitulace|rekapitulácia|zusammenfassung|resumen|total|subtotal|sub|summe|zwischensumme|gesamtbetrag|montant|totaal|subtotaal|net|nett|tax|vat|gst|tva|btw|amount|balance|rounding|grand|taxe|taxes|steuer|umsatzsteuer|mwst|iva|imposta|totale|gesamt|gesamtsumme|positionssumme|rechnungssumme|bruttosumme|nettosumme|zahlbetrag|endbetrag)$/;

/** The first word of a page's carried total: "Übertrag", "Brought forward", "Carried forward", "Report". */
const CARRIED =
  /^(übertrag|uebertrag|vortrag|brought|carried|carry|report|transport|riporto|suma anterior|a transportar)$/;

/** Two header rows name the same columns other than the description's ("LABOUR" and "MATERIALS" over "QTY  RATE  AMOUNT"). */
function sameHeadings(
  a: ReadonlyArray<ColumnType | undefined>,
  b: ReadonlyArray<ColumnType | undefined>,
): boolean {
  const kinds = (typed: ReadonlyArray<ColumnType | undefined>): string =>
    typed.filter((t): t is ColumnType => t !== undefined && t !== 'description').join(' ');
  return kinds(a).length > 0 && kinds(a) === kinds(b);
}

/** A subtotal of a group of items: a stop word then amounts only ("Subtotal $ 112.00"). */
function isGroupTotal(row: Row): boolean {
  const amountsOnly = (tokens: readonly ViewToken[]): boolean =>
    tokens.every(
      (t) => parseAmount(t.text) !== undefined || !/[\p{L}\d]/u.test(t.text) || t.text.length <= 3,
    );
  if (STOP.test(row.tokens[0]!.key) && amountsOnly(row.tokens.slice(1))) return true;
  // Or the group's name then its total ("Compute Engine total  723.80", "Material Zwischensumme").
  const lastWord = row.tokens.findLastIndex((t) => /\p{L}{2}/u.test(t.text));
  return (
    lastWord > 0 &&
    lastWord <= 4 &&
    /^(total|subtotal|summe|zwischensumme|totaal|subtotaal|totale|subtotale)$/.test(
      row.tokens[lastWord]!.key,
    ) &&
    row.tokens.slice(lastWord + 1).some((t) => parseAmount(t.text) !== undefined) &&
    amountsOnly(row.tokens.slice(lastWord + 1))
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

/** An article or item number heading: "Art-Nr-Kunde", "Art.-Nr.", "Item No", "Part #", "Artikelnr". */
const CODE_HEADING = /^(art|artikel|item|prod|product|part|mat|material)[-.\s]*(nr|no|num|number|#)\b/;

/** The column type a heading word names, where it names one. */
function columnWord(token: ViewToken): ColumnType | undefined {
  const type = HEADER_WORDS[token.key] ?? HEADER_WORDS[token.text.toLowerCase()];
  if (type) return type;
  if (CODE_HEADING.test(token.key)) return 'code';
  // A bilingual heading names its column in each language: "Qté/Qty", "Montant/Amount".
  if (token.key.includes('/')) {
    const named = token.key
      .split('/')
      .map((part) => HEADER_WORDS[part])
      .find((t) => t !== undefined);
    if (named) return named;
  }
  // A heading hyphenated over two lines reads whole ("Positions-" over "betrag"): its last part.
  const last = /-(\p{L}+)$/u.exec(token.key)?.[1];
  return last ? HEADER_WORDS[last] : undefined;
}

/** The column type each word of a row names, where it names one. */
function columnWords(row: Row): Array<ColumnType | undefined> {
  return row.tokens.map((token, i) => {
    // "Netto" first in its heading is a line's net amount ("Netto EUR"); after another word of its
    // heading it qualifies that word ("Preis netto", "Gesamt netto").
    if (token.key === 'netto') {
      const before = row.tokens[i - 1];
      return before && token.u.x0 - before.u.x1 < row.height ? undefined : 'amount';
    }
    return columnWord(token);
  });
}

/**
 * A row of an item table's column headings ("Item  Qty  Amt  Tax"): the words over its columns, not
 * labels of the values under them (the first item's amount under "Tax" is no tax of the document).
 * A tax summary's headings ("Code  %  Amount  GST") are not: its one row may be the document's tax.
 */
export function isItemHeadingRow(row: Row): boolean {
  const typed = columnWords(row);
  return (
    row.tokens.length >= 3 &&
    isHeaderRow(typed, row) &&
    typed.some((t) => t === 'description' || t === 'quantity')
  );
}

/**
 * A row of column headings: two kinds of column words at least, most of its words such; or, counted
 * by headings (words close together, "Associate – Position (Pay Type)" one of them), three headings
 * at least, most of them naming their column.
 */
function isHeaderRow(typed: ReadonlyArray<ColumnType | undefined>, row?: Row): boolean {
  const types = new Set(typed.filter((t) => t !== undefined));
  if (types.size < 2) return false;
  if (typed.filter((t) => t === undefined).length <= typed.length * 0.6) return true;
  if (!row) return false;
  const headings: boolean[] = [];
  row.tokens.forEach((token, i) => {
    const before = row.tokens[i - 1];
    if (before && token.u.x0 - before.u.x1 < 0.9 * row.height) headings[headings.length - 1] ||= !!typed[i];
    else headings.push(!!typed[i]);
  });
  return headings.length >= 3 && headings.filter((known) => !known).length <= headings.length * 0.6;
}

/** The header row of a table on a page, with its columns, when there is one. */
function findHeader(view: DocumentView, rows: Row[]): { row: Row; columns: Column[] } | undefined {
  let best: { row: Row; columns: Column[]; score: number } | undefined;
  for (const row of rows) {
    const typed = columnWords(row);
    const types = new Set(typed.filter((t): t is ColumnType => t !== undefined));
    const numeric = ['quantity', 'unitPrice', 'amount'].filter((t) => types.has(t as ColumnType)).length;
    if (!isHeaderRow(typed, row) || numeric < 1 || row.tokens.length > 18) continue;
    // Headings print no money: "Menge: 2   Gesamtpreis (netto): 4.960,00" is a block's labelled values.
    if (row.tokens.some((t) => /\d[.,]\d{2}$/.test(t.text))) continue;
    // Adjacent words close together form one column heading ("Unit Price", "Prix HT").
    const columns: Column[] = [];
    row.tokens.forEach((token, i) => {
      const last = columns[columns.length - 1];
      const close = last && token.u.x0 - last.x1 < 0.9 * Math.max(row.height, view.bodyHeight);
      const type = typed[i];
      if (
        last &&
        close &&
        (type === undefined ||
          last.type === type ||
          (type === 'unitPrice' && !(last.known && last.type === 'quantity')) ||
          // "Prezzo unit.", "Prix unit.": the price's, not a unit of measure's column.
          (type === 'unit' && last.type === 'unitPrice') ||
          // "Celkem bez DPH", "Total excl. VAT": the amount's, the tax word part of its heading.
          (type === 'tax' && last.type === 'amount') ||
          last.type === 'unit')
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
  if (!best) return undefined;
  return { row: best.row, columns: withHeadingBand(view, rows, best.row, best.columns) };
}

/** Rows a heading may run over above or below its middle row (each line of it a row of the view). */
const BAND_ROWS = 3;

/**
 * The columns of a heading printed over several lines: "Prix" over "unitaire", "Positions-" / "betrag"
 * / "ohne" / "USt." stacked in one cell, "Art-Nr-Kunde" / "Art-Nr-Lief." beside a one-line "Pos". The
 * rows right above and below the heading row (closer than a line's height, no amounts in them) are
 * lines of the same headings: each word joins the column it stands over or under, or starts a column
 * of its own where no heading of the middle row stands.
 */
function withHeadingBand(view: DocumentView, rows: Row[], header: Row, columns: Column[]): Column[] {
  const height = Math.max(header.height, view.bodyHeight);
  const at = rows.indexOf(header);
  // Words of headings, few on a line, no numbers (a column the middle row lacks may stand beyond it).
  const headingLine = (row: Row): boolean =>
    row.tokens.length <= columns.length + 2 &&
    row.tokens.every((t) => /\p{L}/u.test(t.text) && !/\d/.test(t.text));
  const band: Row[] = [];
  for (const step of [-1, 1]) {
    let edge = header;
    for (let i = at + step, n = 0; i >= 0 && i < rows.length && n < BAND_ROWS; i += step, n++) {
      const row = rows[i]!;
      const gap = step < 0 ? edge.box.y0 - row.box.y1 : row.box.y0 - edge.box.y1;
      if (gap > 0.4 * height || !headingLine(row)) break;
      band.push(row);
      edge = row;
    }
  }
  if (band.length === 0) return columns;
  const out = columns.map((c) => ({ ...c, words: [] as ViewToken[] }));
  const tokens = band.flatMap((row) => row.tokens).sort((a, b) => a.u.y0 - b.u.y0 || a.u.x0 - b.u.x0);
  for (const token of tokens) {
    const over = out.find((c) => token.u.x0 < c.x1 && token.u.x1 > c.x0);
    if (over) {
      over.words.push(token);
      over.x0 = Math.min(over.x0, token.u.x0);
      over.x1 = Math.max(over.x1, token.u.x1);
    } else {
      // Words of one new heading, side by side on a line ("Art-Nr" "(Art)"), start one column.
      const near = out.find(
        (c) => !columns.some((k) => k.name === c.name) && Math.abs(token.u.x0 - c.x1) < height,
      );
      if (near) {
        near.words.push(token);
        near.x1 = Math.max(near.x1, token.u.x1);
      } else
        out.push({
          name: '',
          type: 'description',
          known: false,
          x0: token.u.x0,
          x1: token.u.x1,
          words: [token],
        });
    }
  }
  return out
    .map((c) => {
      // The heading read top to bottom; its type from any of its words, an amount or price first.
      const words = [...c.words, ...header.tokens.filter((t) => t.u.x0 >= c.x0 && t.u.x1 <= c.x1)].sort(
        (a, b) => a.u.y0 - b.u.y0 || a.u.x0 - b.u.x0,
      );
      const types = words.map(columnWord).filter((t): t is ColumnType => t !== undefined);
      const type =
        types.find((t) => t === 'amount' || t === 'unitPrice') ?? (c.known ? c.type : types[0]) ?? c.type;
      return {
        name: words.map((t) => t.text).join(' ') || c.name,
        type,
        known: c.known || types.length > 0,
        x0: c.x0,
        x1: c.x1,
      };
    })
    .sort((a, b) => a.x0 - b.x0);
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
  let best = tableFrom(view, hints, 1);
  // A summary on the first page and the items itemised on the next ones under other headings (a
  // courier's shipments, a fuel card's transactions): the table of more rows, the first on a tie.
  // (A page whose headings have the first table's columns continues that table: read already.)
  for (let page = 2; page <= Math.min(view.pageCount, 4); page++) {
    const header = findHeader(
      view,
      view.rows.filter((r) => r.pageNum === page),
    );
    if (!header || header.columns.length === best?.value.headers.length) continue;
    const later = tableFrom(view, hints, page);
    if (later && (!best || later.value.rows.length > best.value.rows.length)) best = later;
  }
  return best;
}

/** The item table whose header is the first one found from page `firstPage` on, with its continuations. */
function tableFrom(
  view: DocumentView,
  hints: AmountHints,
  firstPage: number,
): { value: TableValue; score: number; tokens: ViewToken[] } | undefined {
  let columns: Column[] | undefined;
  const items: ViewToken[][][] = [];
  let amountCells = 0;
  for (let page = firstPage; page <= view.pageCount; page++) {
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
      for (const [i, token] of row.tokens.entries()) {
        let column = columnOf(active, token);
        // Thousands set off by a space ("182 280,00"): the digits before go with the amount's column.
        const next = row.tokens[i + 1];
        if (
          next !== undefined &&
          /^-?\d{1,3}$/.test(token.text) &&
          /^\d{3}[.,]\d{2}$/.test(next.text) &&
          next.u.x0 - token.u.x1 < 0.6 * next.height
        )
          column = columnOf(active, next);
        // A long description runs on under the next heading: a word of letters close after a word of
        // the description is the description's.
        else if (
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
    const amountColumn = active.findIndex((c) => c.type === 'amount');
    /**
     * Cells that start an item: numbers in two columns, the line's amount, or a number on a line with
     * its first column filled; and, where every item so far filled the first column (a position
     * number, an article code), that column filled too. Other lines with a number are an item's
     * details ("Preisbasis: 1 Stk", "Bruttopreis : 100,00").
     */
    const startsItem = (cells: ViewToken[][]): boolean => {
      const count = numbered(cells);
      if (count === 0) return false;
      // A labelled note under the table ("Terms: 30 days from invoice date") is no item.
      const first = cells.find((cell) => cell.length > 0)?.[0];
      if (first && /^\p{L}{3,}:$/u.test(first.text)) return false;
      const own = items.slice(itemsBefore);
      if (own.length > 0 && cells[0]!.length === 0 && own.every((item) => item[0]!.length > 0)) return false;
      if (count >= 2 || amountColumn < 0) return true;
      // One number: the line's amount, or a number on a line that starts like an item.
      return cells[amountColumn]!.some((t) => parseAmount(t.text)) || cells[0]!.length > 0;
    };
    /** Where the last line of the current item ends, and whether its lines have ended (a gap came). */
    let itemBottom = 0;
    let itemClosed = false;
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
      // The same headings again over the next section's items ("LABOUR  QTY  RATE  AMOUNT", then
      // "MATERIALS  QTY  RATE  AMOUNT"): the table goes on.
      if (
        items.length > itemsBefore &&
        isHeaderRow(columnWords(row), row) &&
        sameHeadings(columnWords(row), columnWords(header.row))
      ) {
        previousBottom = row.box.y1;
        newGroup = true;
        continue;
      }
      // (Once items have begun: a heading's second line, "unitaire" under "Prix", stands right too.)
      const lead = row.tokens[0]!;
      if (items.length > itemsBefore && lead.box.x0 > middle && /\p{L}/u.test(lead.text)) break;
      // (A heading's second line, "(excl. VAT)" under "Unit price", holds a stop word and ends nothing;
      // nor does a note beside the totals, "Thank you ... taxable   SUBTOTAL   1,371.00", begin an item.)
      // (Nor does a tax code in the table's own tax column, "GST" under "TAX" on every item's line.)
      const stopAt = row.tokens.findIndex(
        (t, i) =>
          STOP.test(t.key) &&
          t.u.x0 > active[0]!.x1 &&
          !/^\(/.test(row.tokens[i - 1]?.text ?? t.text) &&
          !(
            active[columnOf(active, t)]?.type === 'tax' &&
            lead.box.x0 < middle &&
            numbered(cellsOf(row)) >= 2
          ),
      );
      // (After the stop word: amounts, its qualifier in parentheses, "(BTW uitgesluit)", a currency's sign.)
      let inParentheses = false;
      const totalsAfter =
        stopAt > 0 &&
        row.tokens[stopAt]!.box.x0 > middle &&
        row.tokens.slice(stopAt + 1).every((t) => {
          const qualified = inParentheses || t.text.startsWith('(');
          inParentheses = qualified && !t.text.endsWith(')');
          return (
            qualified ||
            parseAmount(t.text) !== undefined ||
            !/\p{L}/u.test(t.text) ||
            STOP.test(t.key) ||
            /^\p{Lu}{1,3}\$?$/u.test(t.text)
          );
        });
      if (
        STOP.test(row.tokens[0]!.key) ||
        (items.length > itemsBefore && stopAt >= 0 && (row.tokens.length <= 4 || totalsAfter))
      )
        break;
      // A page's carried total ("Übertrag 7.959,74", "Brought forward 2,054.34") is no item.
      if (
        CARRIED.test(row.tokens[0]!.key) ||
        CARRIED.test(row.tokens.find((t) => /\p{L}/u.test(t.text))?.key ?? '')
      ) {
        previousBottom = row.box.y1;
        continue;
      }
      previousBottom = row.box.y1;
      const cells = cellsOf(row);
      const hasNumber = numbered(cells) > 0;
      // The header of another table under this one (a tax summary, charges and allowances): the end.
      if (!hasNumber && items.length > itemsBefore && isHeaderRow(columnWords(row), row)) break;
      const previous = items.length > itemsBefore ? items[items.length - 1] : undefined;
      const item = startsItem(cells);
      if (!item && newGroup) continue;
      if (hasNumber) newGroup = false;
      if (!item && previous) {
        // An item's lines follow each other closely; after a wider gap come notes about it
        // ("Our olive oil is delivered in...", a certificate, its charges), which are not its cells.
        const rowHeight = Math.max(row.height, view.bodyHeight);
        if (itemClosed || row.box.y0 - itemBottom > rowHeight) {
          itemClosed = true;
          continue;
        }
        itemBottom = row.box.y1;
        // A continuation line: its words belong to the item above, each run of words (words closer
        // than two letters' height) to the column it starts in: a description's second line may run
        // on under the next columns. A labelled detail ("Bruttopreis : 100,00") is no description.
        const runs: Array<{ column: number; tokens: ViewToken[] }> = [];
        for (const token of row.tokens) {
          const last = runs[runs.length - 1];
          const lastToken = last?.tokens[last.tokens.length - 1];
          if (!last || token.u.x0 - lastToken!.u.x1 > 2 * rowHeight)
            runs.push({ column: columnOf(active, token), tokens: [token] });
          else last.tokens.push(token);
        }
        for (const run of runs) {
          const labelled = run.tokens.some((t) => /:$|^:/.test(t.text));
          if (labelled && active[run.column]!.type === 'description') continue;
          previous[run.column]!.push(...run.tokens);
        }
        continue;
      }
      if (!item) continue;
      if (amountColumn >= 0 && cells[amountColumn]!.some((t) => parseAmount(t.text))) amountCells++;
      items.push(cells);
      itemBottom = row.box.y1;
      itemClosed = false;
    }
  }
  if (!columns || items.length === 0) return undefined;
  const value: TableValue = {
    headers: columns.map((c) => c.name),
    types: columnRoles(columns, items, hints),
    rows: items.map((cells) =>
      cells.map((cell) =>
        cell.length === 0 ? null : { value: cellText(cell), boundingBox: boundingBoxOf(cell) },
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
 * A cell's words joined by spaces, but the groups of one number joined by a no-break space, as a
 * number grouped by spaces is printed ("1 829,64"): a reader of the value sees one number, not two.
 */
function cellText(cell: readonly ViewToken[]): string {
  let text = cell[0]!.text;
  for (let i = 1; i < cell.length; i++) {
    const [before, token] = [cell[i - 1]!, cell[i]!];
    const grouped =
      /(^|[^\d.,])\d{1,3}$/.test(before.text) &&
      /^\d{3}([.,]\d+)?$/.test(token.text) &&
      token.lineId === before.lineId &&
      token.u.x0 - before.u.x1 < 0.5 * before.height;
    text += (grouped ? '\u00a0' : ' ') + token.text;
  }
  return text;
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
      // The cell's number, with or without its unit ("6,5 Stk", "1.00 kg").
      const whole = parseAmount(text, hints)?.value;
      if (whole !== undefined) return whole;
      const first = row[ci]![0];
      return first && /\p{L}/u.test(text) ? parseAmount(first.text, hints)?.value : undefined;
    }),
  );
  const percent = columns.map(
    (_, ci) => items.filter((row) => row[ci]!.some((t) => t.text.includes('%'))).length,
  );
  const numeric = columns
    .map((_, ci) => ci)
    .filter((ci) => numbers[ci]!.filter((n) => n !== undefined).length >= Math.max(1, items.length * 0.6));
  let best: { q: number; p: number; a: number; rows: number; said: number } | undefined;
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
        // Ties: the amount rightmost; then the quantity and the price where their headings say (a
        // product reads both ways), else the quantity left of the price (as tables print them).
        const said = (columns[q]!.type === 'quantity' ? 1 : 0) + (columns[p]!.type === 'unitPrice' ? 1 : 0);
        const better =
          !best ||
          rows > best.rows ||
          (rows === best.rows && a > best.a) ||
          (rows === best.rows && a === best.a && said > best.said) ||
          (rows === best.rows && a === best.a && said === best.said && q < best.q);
        if (rows > 0 && better) best = { q, p, a, rows, said };
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
