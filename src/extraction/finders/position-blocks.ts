import type { ColumnRole, TableValue } from '../types.js';
import { boundingBoxOf, type DocumentView, type Row, type ViewToken } from '../view.js';

/**
 * Item lines printed as blocks of labelled values, not as a table: an e-invoice viewer's positions
 * ("Position 1" / "Artikelname: ...  Preis pro Einheit (netto): 2.480,00" / "Menge: 2  Gesamtpreis
 * (netto): 4.960,00"). Each block is an item; its labels say which value is which. Read where no item
 * table is found.
 */

/** A block's heading: "Position 1", "Pos. 2", "Line 3", "Item [4]", "Posten 5", "Ligne 6". */
const HEADING =
  /^(position|pos\.?|posten|line|item|ligne|riga|regel|línea|linea)\s*(nr\.?|no\.?|#)?\s*\[?\d{1,3}\]?:?$/iu;

/** Which item column a label names (the unit price before the amount: "Preis pro Einheit" holds "Preis"). */
const LABELS: ReadonlyArray<readonly [ColumnRole, RegExp]> = [
  [
    'unitPrice',
    /preis pro einheit|einzelpreis|stückpreis|unit price|item (net )?price|price per unit|prix unitaire|prezzo unitario|precio unitario|stuksprijs|eenheidsprijs/iu,
  ],
  [
    'amount',
    /gesamtpreis|gesamtbetrag|positionsbetrag|nettobetrag|line (net )?(amount|total)|net amount|amount|total|montant|importo|importe|bedrag|betrag/iu,
  ],
  ['quantity', /^(menge|anzahl|quantity|qty|quantité|quantità|cantidad|aantal|hoeveelheid)\b/iu],
  [
    'description',
    /artikelname|artikelbezeichnung|bezeichnung|beschreibung|item name|description|designation|désignation|descrizione|descripción|omschrijving|^name\b/iu,
  ],
];

const COLUMNS: ReadonlyArray<{ role: ColumnRole; header: string }> = [
  { role: 'description', header: 'Description' },
  { role: 'quantity', header: 'Quantity' },
  { role: 'unitPrice', header: 'Unit price' },
  { role: 'amount', header: 'Amount' },
];

/** The label/value pairs of a row: runs of words apart by wide gaps, a run ending in ":" a label. */
function pairsOf(view: DocumentView, row: Row): Array<{ label: string; value: ViewToken[] }> {
  const height = Math.max(row.height, view.bodyHeight);
  const runs: ViewToken[][] = [];
  for (const token of row.tokens) {
    const last = runs[runs.length - 1];
    const previous = last?.[last.length - 1];
    if (!last || token.u.x0 - previous!.u.x1 > 1.5 * height) runs.push([token]);
    else last.push(token);
  }
  const pairs: Array<{ label: string; value: ViewToken[] }> = [];
  let label: string | undefined;
  for (const run of runs) {
    const colon = run.findIndex((t) => t.text.endsWith(':'));
    if (colon >= 0) {
      label = run
        .slice(0, colon + 1)
        .map((t) => t.text)
        .join(' ');
      const rest = run.slice(colon + 1);
      if (rest.length > 0) {
        pairs.push({ label, value: rest });
        label = undefined;
      }
    } else if (label !== undefined) {
      pairs.push({ label, value: run });
      label = undefined;
    }
  }
  return pairs;
}

function roleOf(label: string): ColumnRole | undefined {
  const text = label.replace(/:$/u, '').trim();
  return LABELS.find(([, pattern]) => pattern.test(text))?.[0];
}

export function findPositionBlocks(
  view: DocumentView,
): { value: TableValue; score: number; tokens: ViewToken[] } | undefined {
  const rows = view.rows;
  const items: Array<Map<ColumnRole, ViewToken[]>> = [];
  let current: Map<ColumnRole, ViewToken[]> | undefined;
  let last: Row | undefined;
  for (const row of rows) {
    const text = row.tokens.map((t) => t.text).join(' ');
    if (HEADING.test(text)) {
      current = new Map();
      items.push(current);
      last = row;
      continue;
    }
    if (!current || !last) continue;
    // A block's lines follow its heading closely; a wider gap, or another page, ends it.
    const height = Math.max(row.height, view.bodyHeight);
    if (row.pageNum !== last.pageNum || row.box.y0 - last.box.y1 > 2.5 * height) {
      current = undefined;
      continue;
    }
    last = row;
    for (const { label, value } of pairsOf(view, row)) {
      const role = roleOf(label);
      if (role && !current.has(role)) current.set(role, value);
    }
  }
  const rowsRead = items.filter(
    (item) => item.has('description') && (item.has('amount') || item.has('quantity')),
  );
  if (rowsRead.length === 0) return undefined;
  const value: TableValue = {
    headers: COLUMNS.map((c) => c.header),
    types: COLUMNS.map((c) => c.role),
    rows: rowsRead.map((item) =>
      COLUMNS.map(({ role }) => {
        const cell = item.get(role);
        return cell ? { value: cell.map((t) => t.text).join(' '), boundingBox: boundingBoxOf(cell) } : null;
      }),
    ),
  };
  return { value, score: 0.6, tokens: rowsRead.flatMap((item) => [...item.values()].flat()) };
}
