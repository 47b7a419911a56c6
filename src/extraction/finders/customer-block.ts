import { LABELS, WEAK_CUSTOMER_LABELS, type LabelSet } from '../labels.js';
import { keyOf, type DocumentView } from '../view.js';
import { findLabels } from '../label-search.js';

/** Labels that announce a block of the customer's lines ("to" and "attention" may stand in a sentence). */
const CUSTOMER_BLOCK: LabelSet = {
  strong: [
    ...LABELS.customerName!.strong.filter((l) => !WEAK_CUSTOMER_LABELS.has(l)),
    // The buyer's side's other block: where the goods go ("Ship to", "Consignee", "Abweichender
    // Warenempfänger"), the buyer's name or another of its sites, never the seller's.
    ...['ship to', 'shipping to', 'deliver to', 'delivery address', 'delivered to', 'consignee'],
    ...['consignee (ship to)', 'warenempfänger', 'abweichender warenempfänger', 'lieferanschrift'],
    ...['lieferadresse', 'adresse de livraison', 'livré à', 'afleveradres', 'dirección de envío'],
    ...['indirizzo di consegna'],
    // Nor are a seller's tax representative and a payee other than the seller (a factoring company)
    // the seller: their blocks' names and ids are another party's.
    ...['steuerbevollmächtigter des verkäufers', 'steuerbevollmächtigter', 'abweichender zahlungsempfänger'],
    ...["seller's tax representative", 'seller tax representative', 'tax representative'],
  ],
  // Not a copy's mark or a customer's number: "*** CUSTOMER COPY ***" over a card slip, "Customer No.".
  not: LABELS.customerName!.not ?? [],
};

const blocks = new WeakMap<DocumentView, Set<number>>();

/**
 * Tokens of the block announced by "Bill to", "Customer", "Kunde", "Acheteur"...: the buyer's lines,
 * so what is printed there (a name, a VAT id) is the buyer's, not the supplier's. The layout block of
 * the label, and the lines right under a label that stands alone on its line. Found once per document.
 */
export function customerBlockTokens(view: DocumentView): Set<number> {
  const known = blocks.get(view);
  if (known) return known;
  const ids = new Set<number>();
  for (const hit of findLabels(view, CUSTOMER_BLOCK)) {
    // A heading of one word is taken as printed: a word one letter off it is another word ("Klang").
    // (One of two headings a slash joins is as printed: "Käufer/Leistungsempfänger:".)
    if (hit.end - hit.start === 1 && !hit.row.tokens[hit.start]!.key.split('/').includes(keyOf(hit.phrase)))
      continue;
    const labelToken = hit.row.tokens[hit.start]!;
    const block = view.layer.lines[labelToken.lineId]?.blockId;
    const blockLines = new Set(view.layer.lines.filter((l) => l.blockId === block).map((l) => l.id));
    // The label announces what follows it: lines of its layout block above it (a receipt's whole head,
    // when OCR made one block of it) are not the customer's.
    const top = labelToken.box.y0 - labelToken.height / 2;
    for (const t of view.tokens) if (blockLines.has(t.lineId) && t.box.y0 >= top) ids.add(t.id);
    // (Up to the next heading on the label's row: "Billing address   Delivery address   Sold by".)
    // (Another column's heading stands far from the label; the label's own value, "Sold to:  ACME
    // Corp", close to it, with the buyer's lines under it.)
    const nextHeading = hit.row.tokens
      .slice(hit.end)
      .find((t) => t.u.x0 - hit.box.x1 > 3 * Math.max(hit.row.height, t.height));
    const right = Math.min(hit.box.x1 + 0.2, (nextHeading?.u.x0 ?? Infinity) - 0.005);
    for (const row of view.rows.slice(hit.row.index + 1, hit.row.index + 4)) {
      for (const t of row.tokens) if (t.u.x0 >= hit.box.x0 - 0.05 && t.u.x0 <= right) ids.add(t.id);
    }
  }
  blocks.set(view, ids);
  return ids;
}
