import { LABELS } from '../labels.js';
import { READERS } from '../readers.js';
import type { DocumentHints } from '../hints.js';
import type { DocumentView, Row, ViewToken } from '../view.js';
import { findLabels, valuesNear, type Candidate, type LabelHit } from '../label-search.js';
import { isCreditNote, ofOtherDocuments } from './document-cues.js';

/** Words before a bare "No." that make it another number's label (`Account No.`, `Tel No.`). */
const OTHER_NUMBER =
  /^(account|acc|a\/c|tel|telephone|phone|fax|mobile|hp|reg|registration|gst|gst\/hst|hst|qst|pst|tps|tvq|gstin|ein|tin|vat|sst|tax|btw|tva|ust|mwst|iva|p\.iva|nif|cif|customer|cust|klant|kunde|kunden|client|cliente|codice|member|card|order|po|abn|bsb|kvk|siret|siren|company|co|id|table|pax|serial|item|page|seite|contrat|contract|contrato|vertrag|cae|cai|ruc|r\.u\.c|rut|policy|police|licence|license|permit)$/i;

/** A card payment's line ("AUTH CODE: 08312B   REF #: 412 3307"): its "REF #" is the card's. */
const CARD_SLIP =
  /\b(auth|authorization|authorisation|approval|appr|aid|rrn|stan|trace|terminal-id|ta-nr|vu-nr|genehmigungs-nr)(?![\p{L}\p{N}])/iu;

/** Words that follow a label but are not the value (`Invoice Date`, `Rechnung vom`). */
const NOT_A_REFERENCE =
  /^(date|datum|vom|du|le|van|of|to|page|seite|tel|fax|phone|total|tva|vat|btw|iva|ust|mwst|gst|siret|siren|rcs)$/i;

/** Invoice or receipt number, and purchase order number. */
export function findReferences(
  view: DocumentView,
  hints: DocumentHints,
): { referenceNo: Candidate[]; purchaseOrderNo: Candidate[] } {
  const read = READERS.reference!;
  /** Values of a bare number label ("N.º") under the document's title: the number the page calls its own. */
  const titled = new Set<string>();
  const collect = (set: string): Candidate[] =>
    findLabels(view, LABELS[set]!)
      // A weak label ("No", "#") after another number's word is that number's; a "N°" after a code with
      // digits is a word of an item's line ("2 RO3 N° LEMAK").
      .filter((hit) => {
        // On a card payment's line only a receipt's own label names the receipt's number.
        // So on the lines about it: a card slip's "REF#: 0031877" under its "AUTH#: 443910".
        const ownLabel = /receipt|invoice|bill|trans|ticket|bon|rechnung|facture|factura/.test(hit.phrase);
        if (CARD_SLIP.test(hit.row.tokens.map((t) => t.text).join(' ')) && !ownLabel) return false;
        if (
          !ownLabel &&
          /^ref/.test(hit.phrase) &&
          view.rows
            .slice(Math.max(0, hit.row.index - 2), hit.row.index + 3)
            .some(
              (r) => r.pageNum === hit.row.pageNum && CARD_SLIP.test(r.tokens.map((t) => t.text).join(' ')),
            )
        )
          return false;
        // A till's "CHK 614203" starts its line; after an item's words it is a check charged to a
        // hotel's room ("Harbor Grill  Chk 4471"), not the document's number.
        if (/^chk\b/.test(hit.phrase) && hit.start > 0) return false;
        // A document's word followed by another field's ("Invoice Total (Rs.)", "Bill Amount",
        // "Rechnungsbetrag" aside) labels that field: the number below it is no reference.
        if (/^(invoice|bill|receipt|rechnung|facture|factura|fattura)$/.test(hit.phrase)) {
          const next = hit.row.tokens[hit.end]?.key ?? '';
          if (/^(total|amount|value|date|summe|betrag|datum|montant|importe|importo)$/.test(next))
            return false;
        }
        if (hit.strength === 'strong') return true;
        // Czech "č." written as a lower-case "c." ("c. 250412"): not a capital letter of a register's
        // section ("Spisová značka C 48271").
        if (hit.phrase.startsWith('c') && !/^(c\.|č\.?):?$/.test(hit.row.tokens[hit.start]!.text))
          return false;
        const before = hit.row.tokens[hit.start - 1];
        if (OTHER_NUMBER.test(before?.key ?? '')) return false;
        return !(hit.row.tokens[hit.start]!.key === 'nº' && /\d/.test(before?.text ?? ''));
      })
      // The value next to its label, up to 40 row heights right of it: summary boxes print labels on
      // the left and values right-aligned (`Invoice Number:` ... `42183017`).
      .flatMap((hit) => {
        const found = valuesNear(view, hit, read, hints, {
          maxTokens: 1,
          below: true,
          maxRightGap: 40,
          adjacent: true,
        });
        // A series' letters before the number ("PO 4700023119", "FS 2025A3/18734", "FT 2025/312").
        found.push(
          ...valuesNear(view, hit, read, hints, {
            maxTokens: 2,
            below: true,
            maxRightGap: 40,
            adjacent: true,
          }).filter(
            (c) =>
              c.tokens.length === 2 && isSeriesPrefix(c.tokens[0]!.text) && isSeriesNumber(c.tokens[1]!.text),
          ),
        );
        if (isUnderOwnTitle(view, hit)) for (const c of found) titled.add(c.value);
        return found;
      })
      .filter((c) => !c.tokens.some((t) => NOT_A_REFERENCE.test(t.key)))
      // A standard's number ("Factur-X – profil EN 16931", "ISO 9001") is no document's.
      .filter((c) => !STANDARD.test(wordBefore(view, c)))
      // A count of points ("Prochain bon : 500 pts") is no number of the document.
      .filter((c) => !POINTS.test(nextWord(view, c)))
      // (A number the page calls its own keeps its score however much it looks like a telephone's:
      // "Receipt#: 0217-03-4821-61524", "Rechnungs-Nr.: 2024/018344".)
      .map((c) => (OWN_NUMBER.test(c.label ?? '') ? c : { ...c, score: c.score * plausibility(c.value) }));
  const purchaseOrderNo = rank(collect('purchaseOrderNo'));
  const poTokens = new Set(purchaseOrderNo.flatMap((c) => c.tokens.map((t) => t.id)));
  // On a credit note, a number on a line that names an invoice is the corrected invoice's.
  const credit = isCreditNote(view);
  const references = ofOtherDocuments(
    view,
    collect('referenceNo').filter((c) => !c.tokens.some((t) => poTokens.has(t.id))),
    credit,
  );
  // A number the page calls its own ("Receipt no.", "Invoice #", "Refund No") comes before a ticket's,
  // an order's or a transaction's printed beside it ("Ticket no. 0043318", "Order #147").
  const isOwn = (c: Candidate): boolean => OWN_NUMBER.test(c.label ?? '') || titled.has(c.value);
  const own = references.some(isOwn);
  const referenceNo = rank(
    own ? references.map((c) => (isOwn(c) ? c : { ...c, score: c.score * 0.8 })) : references,
  );
  return { referenceNo, purchaseOrderNo };
}

/** Labels that name the document's own number: a receipt's, an invoice's, a bill's, a refund's. */
const OWN_NUMBER =
  /\b(receipt|invoice|bill|refund|rechnung|beleg|bon|quittung|facture|factura|fattura|factuur|faktura|fatura|recibo|ricevuta|kvitto|kvittering|resit|apodeix)/;

/** Names of standards bodies, whose numbers are a standard's: "EN 16931", "ISO 9001", "DIN 4991". */
const STANDARD = /^(en|iso|din|iec|bs|nf|ansi|astm)$/;

/** The word right before a candidate on its row (its key), or ''. */
function wordBefore(view: DocumentView, c: Candidate): string {
  const first = c.tokens[0]!;
  return view.rows[first.row]!.tokens[first.col - 1]?.key ?? '';
}

/** Words of a count of loyalty points after a number. */
const POINTS = /^(pts?|points?|punkte|punten|poäng|pont)$/;

/** The word right after a candidate on its row (its key), or ''. */
function nextWord(view: DocumentView, c: Candidate): string {
  const last = c.tokens[c.tokens.length - 1]!;
  return view.rows[last.row]!.tokens[last.col + 1]?.key ?? '';
}

/**
 * A series' number: digits, maybe after one letter ("2025/312", "A2024/1873", "A/1234"), not a code of
 * words ("HM-RA-24-0316").
 */
function isSeriesNumber(text: string): boolean {
  return /\d/.test(text) && !/^\p{L}{2}/u.test(text);
}

/** A label that is only a number's word ("N.º", "No.", "Nr", Czech "č."). */
const BARE_NUMBER_LABEL = /^(n\.?º|n°|no|nr|num|č|c)\.?:?$/;

/**
 * Whether a bare number label stands under the document's title ("FATURA-RECIBO" over "N.º FR
 * 2024/1187"): a title word the page calls its own number by (OWN_NUMBER), first on its line,
 * within three rows above, over the label's left edge.
 */
function isUnderOwnTitle(view: DocumentView, hit: LabelHit): boolean {
  if (!BARE_NUMBER_LABEL.test(hit.phrase)) return false;
  const x = hit.box.x0; // (label boxes and tokens' `u` boxes: x in page-height units)
  for (let r = hit.row.index - 1; r >= Math.max(0, hit.row.index - 3); r--) {
    const row = view.rows[r]!;
    if (row.pageNum !== hit.row.pageNum) break;
    if (
      row.tokens.some((t) => t.u.x0 <= x + 0.01 && t.u.x1 >= x && OWN_NUMBER.test(t.key) && opensLine(row, t))
    )
      return true;
  }
  return false;
}

/** Whether a token is the first word of its line: a title's, not a sentence's ("keep your receipt"). */
function opensLine(row: Row, token: ViewToken): boolean {
  const before = row.tokens[token.col - 1];
  return !before || token.u.x0 - before.u.x1 > 1.5 * token.height;
}

/** Letters of a document series before its number: capitals, not a number's own label ("No", "Nr"). */
function isSeriesPrefix(text: string): boolean {
  return (
    /^[A-Z]{1,4}$/.test(text) && !/^(NO|NR|N|NUM|REF|DATE)$/.test(text) && !STANDARD.test(text.toLowerCase())
  );
}

/** Phone numbers, long pure digit runs and words with a single digit are poorer references. */
function plausibility(value: string): number {
  if (/^\+?\d[\d\-/ ]{9,}$/.test(value) && value.replace(/\D/g, '').length >= 10) return 0.7;
  const digits = value.replace(/\D/g, '').length;
  if (digits === 1 && value.length > 4) return 0.6;
  return 1;
}

function rank(list: Candidate[]): Candidate[] {
  const seen = new Map<string, Candidate>();
  for (const c of list) {
    const key = c.value.toUpperCase();
    const previous = seen.get(key);
    if (!previous || c.score > previous.score)
      seen.set(key, previous ? { ...c, score: Math.min(1, c.score + 0.05) } : c);
  }
  return [...seen.values()].sort((a, b) => b.score - a.score);
}
