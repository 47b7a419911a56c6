import { LABELS } from '../labels.js';
import { isCreditNote, ofOtherDocuments } from './document-cues.js';
import { READERS } from '../readers.js';
import type { DocumentHints } from '../hints.js';
import type { DocumentView } from '../view.js';
import { findLabels, patternValues, valuesNear, type Candidate, type LabelHit } from '../label-search.js';

/** Document date, due date and payment date, found together so one date is not given to two fields. */
export function findDates(
  view: DocumentView,
  hints: DocumentHints,
): { date: Candidate[]; dueDate: Candidate[]; paymentDate: Candidate[] } {
  const read = READERS.date!;
  // An order's number and its date on one line ("PO Reference: NRPL/IT/2024/118 dated 12/03/2024",
  // "Auftrag-Nr. A-24-1177 vom 27.03.2024"): the date a connecting word gives there is the order's; so
  // is it another thing's after that thing's name ("Taxifahrt vom").
  const orderLabels = findLabels(view, LABELS.purchaseOrderNo!);
  const datesAnotherThing = (hit: LabelHit): boolean =>
    CONNECTING.has(hit.phrase) &&
    (orderLabels.some((order) => order.row === hit.row && order.end <= hit.start) ||
      joinsOtherThing(view, hit) ||
      namedByOtherLabel(hit));
  const labelled = (set: string): Candidate[] =>
    findLabels(view, LABELS[set]!).flatMap((hit) => {
      // (Five words: "4 de abril de 2024".)
      const found = valuesNear(view, hit, read, hints, { maxTokens: 5, below: true });
      return set === 'date' && (isQualified(view, hit) || datesAnotherThing(hit))
        ? found.map((c) => ({ ...c, score: c.score * 0.5, source: `${c.source}+qualified` }))
        : found;
    });
  // The last day of an early-payment discount ("Bei Zahlung bis zum 09.09.2024 gewähren wir 2 % Skonto")
  // is not the due date of the whole amount ("Ohne Abzug zahlbar bis zum 25.09.2024").
  // (Not a line that says the amount is due without it: "zahlbar bis 25.09. ohne Skonto".)
  const dueDate = labelled('dueDate').map((c) => {
    const line = view.rows[c.tokens[0]!.row]!.tokens.map((t) => t.text).join(' ');
    return EARLY_PAYMENT_DISCOUNT.test(line) && !WITHOUT.test(line)
      ? { ...c, score: c.score * 0.5, source: `${c.source}+discount` }
      : c;
  });
  const paymentDate = labelled('paymentDate');
  const dueTokens = new Set(dueDate.flatMap((c) => c.tokens.map((t) => t.id)));
  const date = labelled('date').filter((c) => !c.tokens.some((t) => dueTokens.has(t.id)));

  // Any date printed: the first one near the top is most often the document's own date.
  const all = patternValues(view, read, hints, 5, 1).filter(
    (c) => !c.tokens.some((t) => dueTokens.has(t.id)),
  );
  // A date on the line of the document's own number ("FACTURE N° 2024-018834  08/04/2024 11:37",
  // "Receipt #4471  12/03/2024"): the document's, as a label would say.
  // (The number between: "Returns with receipt thru 10/20/2024" dates no receipt.)
  const ownNumberLabels = findLabels(view, LABELS.referenceNo!).filter(
    (hit) => hit.strength === 'strong' && OWN_DOCUMENT.test(hit.phrase),
  );
  const onOwnNumberLine = (c: Candidate): boolean =>
    ownNumberLabels.some(
      (hit) =>
        hit.row.index === c.tokens[0]!.row &&
        hit.row.tokens.slice(hit.end, c.tokens[0]!.col).some((t) => /\d/.test(t.text)),
    );
  all.forEach((c, index) => {
    const top = c.tokens[0]!.box.y0 < 0.4 && c.tokens[0]!.pageNum === 1 ? 1 : 0.7;
    const first = index === 0 ? 1 : 0.85;
    date.push({ ...c, score: 0.4 * top * first * c.quality, source: 'first-date' });
    if (onOwnNumberLine(c)) date.push({ ...c, score: 0.6 * c.quality, source: 'own-number-line' });
  });

  // Payment terms ("30 days", "net 30", "zahlbar innerhalb 14 Tagen", "Pago a 60 días") give a due
  // date from the date.
  const best = [...date].sort((a, b) => b.score - a.score)[0];
  if (dueDate.length === 0 && best) {
    const m =
      /(?:net|within|innerhalb(?: von)?|sous|binnen|payment terms:?|terms:?|zahlungsziel:?|conditions de paiement:?|betalingstermijn:?|(?:pago|pagamento|paiement|payment)\s+[aà]|entro)\s*(\d{1,3})\s*(?:days|tagen|tage|jours|dagen|d[ií]as|giorni)|(\d{1,3})\s*(?:days|tage|tagen|jours|dagen|d[ií]as|giorni)\s*(?:net|netto|neto)/.exec(
        view.text,
      );
    // "Terms: Net 15", "Net 30" (US): the days alone after "net".
    const net = m ? undefined : /\b(?:terms:?\s*)?net\s*(\d{1,3})\b(?!\s*[%.,]\d)/.exec(view.text);
    const days = Number(m?.[1] ?? m?.[2] ?? net?.[1]);
    if (days > 0 && days <= 180) {
      const due = new Date(`${best.value}T00:00:00Z`);
      due.setUTCDate(due.getUTCDate() + days);
      const iso = due.toISOString().slice(0, 10);
      dueDate.push({
        value: iso,
        norm: iso,
        // Worked out from the date: no surer a reading than the date (a day-month order only assumed).
        quality: best.quality,
        tokens: best.tokens,
        score: 0.35 * best.score,
        source: 'payment-terms',
      });
    }
  }
  // Dates read with the order only assumed are less sure.
  const doubt = (list: Candidate[]): Candidate[] =>
    list
      .map((c) => (c.quality < 1 && !hints.dateOrderSeen ? { ...c, score: c.score * 0.85 } : c))
      .sort((a, b) => b.score - a.score);
  // On a credit note, a date on a line that names an invoice is the corrected invoice's.
  const credit = isCreditNote(view);
  const own = (list: Candidate[]): Candidate[] => ofOtherDocuments(view, list, credit);
  // A date under a column's heading with more dates right under it ("Date" over a table's rows of
  // shipments or nights): the rows' dates, not the document's.
  const inColumn = (c: Candidate): boolean => {
    const first = c.tokens[0]!;
    return all.some((o) => {
      const t = o.tokens[0]!;
      return t.row > first.row && t.row <= first.row + 2 && Math.abs(t.box.x0 - first.box.x0) < 0.02;
    });
  };
  const rowsOfDates = (list: Candidate[]): Candidate[] =>
    list.map((c) =>
      c.source.startsWith('label-below') && inColumn(c)
        ? { ...c, score: c.score * 0.5, source: `${c.source}+column` }
        : c,
    );
  return {
    date: mergeDates(doubt(own(rowsOfDates(date)))),
    dueDate: mergeDates(doubt(dueDate)),
    paymentDate: mergeDates(doubt(paymentDate)),
  };
}

/** Words of an early-payment discount on a line of payment terms. */
const EARLY_PAYMENT_DISCOUNT =
  /\b(skonto|escompte|sconto|descuento por pronto pago|korting|cash discount|early payment discount)\b/i;

/** "Without" in the languages of early-payment discounts. */
const WITHOUT = /\b(ohne|without|sans|senza|sin|zonder|net)\b/i;

/** Words of a document's own number's label: an invoice's, a receipt's, a bill's. */
const OWN_DOCUMENT =
  /\b(invoice|receipt|bill|rechnung|beleg|bon|quittung|facture|factura|fattura|factuur|faktura|fatura|recibo|ricevuta|kvitto|kvittering|resit|lasku|kuitti)/;

/** Date labels that join a date to what comes before it: "dated", "vom", "du". */
const CONNECTING = new Set(['dated', 'vom', 'du']);

/** A document's own title, which a connecting word may date ("Rechnung vom", "Facture du", "Invoice dated"). */
const OWN_TITLE =
  /(?:rechnung|gutschrift|quittung|beleg|invoice|receipt|bill|statement|facture|avoir|re[cç]u|factuur|fattura|ricevuta|factura|recibo|nota)$/iu;

/**
 * A connecting word right after a word that names something else than the document ("Rechnung gemäß
 * Taxifahrt vom 29.10.2018", "Lieferung vom", "Période du"): the date of that thing, not the
 * document's. After the document's number or title ("Rechnung Nr. 4711 vom", "Facture du") it is the
 * document's own.
 */
function joinsOtherThing(view: DocumentView, hit: LabelHit): boolean {
  const before = hit.row.tokens[hit.start - 1];
  if (!before) return false;
  // Of the same run of text: a word in the next column is no part of the phrase.
  const height = Math.max(hit.row.height, view.bodyHeight);
  if ((hit.row.tokens[hit.start]!.u.x0 - before.u.x1) / height >= 1.5) return false;
  // (A comma may end the thing's name: "certificate on file for Summit Print LLC, dated 01/15/2024".)
  const word = before.text.replace(/[,;]$/, '');
  return /^\p{L}{3,}$/u.test(word) && !OWN_TITLE.test(word);
}

/** Words of a payment's details (a row of them heads a payment's table). */
const PAYMENT_WORD =
  /^(payment|transaction|zahlung|zahlungsart|paiement|règlement|pago|pagamento|betaling)s?:?$/;

/**
 * A connecting word after a value whose line a word of something else heads ("Retoure   RT-0459 vom
 * 06.03.2025", "Lieferschein LS-2025-02107 vom"): that thing's date. A line the document's own title
 * heads ("Rechnung Nr. 4711 vom", "Invoice No. 123 dated") keeps it.
 */
function namedByOtherLabel(hit: LabelHit): boolean {
  const first = hit.row.tokens[0];
  if (!first || hit.start === 0) return false;
  const word = first.text.replace(/[.:]+$/, '');
  return /^\p{L}{3,}$/u.test(word) && !OWN_TITLE.test(word) && !BARE_DATE.has(word.toLowerCase());
}

/** Words that say "date" alone; printed with another word next to them they name some other date. */
const BARE_DATE = new Set(['date', 'datum', 'data', 'fecha', 'kuupäev', 'kuupaev', 'tarih']);

/**
 * A bare date word with a word of its own right before it or after it, before any colon ("Loading
 * date:", "Booking date", "Datum isporuke:", "Fecha factura original:"): the date of something else
 * than the document. The document's own dates have labels of their own ("Invoice date", "Date of
 * issue", "Datum izdavanja"), so those are no bare words.
 */
function isQualified(view: DocumentView, hit: LabelHit): boolean {
  if (!BARE_DATE.has(hit.phrase)) return false;
  const height = Math.max(hit.row.height, view.bodyHeight);
  const first = hit.row.tokens[hit.start]!;
  const last = hit.row.tokens[hit.end - 1]!;
  const before = hit.row.tokens[hit.start - 1];
  const after = hit.row.tokens[hit.end];
  const near = (a: { u: { x1: number } }, b: { u: { x0: number } }) => (b.u.x0 - a.u.x1) / height < 1.5;
  const word = /^\p{L}{3,}:?$/u;
  if (before && near(before, first) && word.test(before.text) && !before.text.endsWith(':')) return true;
  // A heading in a row of a payment's headings ("Payment Transaction ID:  Date & Time:  Invoice Value:
  // Mode of Payment:"): the payment's date.
  // (Three labels at least: not a receipt's "Date: 05/06/2024  Transaction: 4412".)
  const labels = hit.row.tokens.filter((t) => /\p{L}:$/u.test(t.text)).length;
  if (labels >= 3 && hit.row.tokens.some((t) => PAYMENT_WORD.test(t.key))) return true;
  return (
    !last.text.endsWith(':') &&
    !hit.inline &&
    after !== undefined &&
    near(last, after) &&
    word.test(after.text)
  );
}

function mergeDates(list: Candidate[]): Candidate[] {
  const seen = new Map<string, Candidate>();
  for (const c of list) {
    const previous = seen.get(c.value);
    if (!previous) seen.set(c.value, c);
    else seen.set(c.value, { ...previous, score: Math.min(1, previous.score + 0.05) });
  }
  return [...seen.values()].sort((a, b) => b.score - a.score);
}
