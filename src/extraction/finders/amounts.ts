import { LABELS } from '../labels.js';
import { READERS } from '../readers.js';
import type { DocumentHints } from '../hints.js';
import type { DocumentView, ViewToken } from '../view.js';
import {
  findLabels,
  isRate,
  patternValues,
  valuesNear,
  wordsRunUpTo,
  type Candidate,
} from '../label-search.js';
import { findVatTable } from './vat-table.js';
import { parseCurrency } from '../normalise/currency.js';
import { isItemHeadingRow } from './line-items.js';

export type AmountRole = 'total' | 'subTotal' | 'tax' | 'amountDue' | 'amountPaid';

const ROLES: AmountRole[] = ['total', 'subTotal', 'tax', 'amountDue', 'amountPaid'];

/**
 * Candidates for the money fields of a document, found together: each by its labels, then the sums
 * that hold (subtotal + tax = total) raise the candidates that take part, and the largest amount near
 * the end of the document stands in for a total nobody labelled.
 */
export function findAmounts(view: DocumentView, hints: DocumentHints): Record<AmountRole, Candidate[]> {
  const read = READERS.amount!;
  const out = {} as Record<AmountRole, Candidate[]>;
  const found = new Map(ROLES.map((role) => [role, findLabels(view, LABELS[role]!)]));
  // A tax label after a total's word and "incl." (before or after it) names the total that includes
  // it: "TOTAL (IVA INCL.)", "Total inc GST", "Summe inkl. MwSt" (but "GST included 1.54" is the tax).
  // One after "without", "excl.", "ohne", "hors", "bez", "be" names the amount before tax: "Invoice total
  // amount without VAT", "Summe ohne MwSt", "Suma be PVM" (and one before "nélkül": "ÁFA nélkül").
  // ("of" between them is skipped: "Total inclusive of GST", "Total excl. of GST".)
  const taxHits = found.get('tax')!;
  // (The tax "incl. in" something is the tax: "Total GST (incl. in MRP) 36.98".)
  const including = taxHits.filter(
    (hit) =>
      ((INCLUDED.test(hit.row.tokens[hit.end]?.key ?? '') &&
        !INCLUDED_IN.test(hit.row.tokens[hit.end + 1]?.key ?? '')) ||
        INCLUDED.test(wordBefore(hit))) &&
      hit.row.tokens.slice(0, hit.end).some((t) => TOTAL_WORDS.test(t.key)),
  );
  const excluding = taxHits.filter(
    (hit) => EXCLUDED.test(wordBefore(hit)) || EXCLUDED_AFTER.test(hit.row.tokens[hit.end]?.key ?? ''),
  );
  found.set(
    'tax',
    taxHits.filter((hit) => !including.includes(hit) && !excluding.includes(hit)),
  );
  // A total's word followed by "excl.", "before", "ohne" names the amount before tax whatever the tax's
  // word is, or however OCR misread it ("TOTAL EXCL.G5T 28.11").
  const totalHits = found.get('total')!;
  const totalExcluding = totalHits.filter((hit) =>
    EXCLUDED.test((hit.row.tokens[hit.end]?.key ?? '').split('.')[0]!),
  );
  found.set(
    'total',
    totalHits.filter((hit) => !totalExcluding.includes(hit)),
  );
  // (Added only to rows without a label of that field already: "Total Sales (Inclusive GST)" has one.)
  const added = (role: AmountRole, hits: typeof taxHits) =>
    hits.filter((hit) => !found.get(role)!.some((other) => other.row === hit.row));
  found.set('total', [...found.get('total')!, ...added('total', including)]);
  found.set('subTotal', [...found.get('subTotal')!, ...added('subTotal', [...excluding, ...totalExcluding])]);
  // "Tax Total" holds "Total": a label inside a longer label of another field is that field's,
  // "Accepted total" (a parking machine's cash tendered) is the money given, not the total, and
  // "Balance after" (a stored-value card's) no balance due.
  const everyHit = [
    ...[...found.entries()].flatMap(([role, hits]) => hits.map((hit) => ({ role: role as string, hit }))),
    ...(['cashTendered', 'change', 'cardBalance'] as const).flatMap((set) =>
      findLabels(view, LABELS[set]!).map((hit) => ({ role: set as string, hit })),
    ),
  ];
  const hitsByRole = new Map(
    ROLES.map((role) => [
      role,
      found
        .get(role)!
        .filter(
          (hit) =>
            !everyHit.some(
              (other) =>
                other.role !== role &&
                other.hit.row === hit.row &&
                other.hit.start <= hit.start &&
                other.hit.end >= hit.end &&
                other.hit.end - other.hit.start > hit.end - hit.start,
            ),
        )
        .filter((hit) => !includedIn(hit.row.tokens, hit.start))
        // A loyalty scheme's line ("Points added 44 / Balance 612") counts points, not money.
        .filter(
          (hit) =>
            !(
              (role === 'total' || role === 'amountDue') &&
              POINTS_ROW.test(hit.row.tokens.map((t) => t.text).join(' '))
            ),
        )
        // A weak word right after another label ends that label ("Invoice total VAT amount"): no
        // label of its own.
        .filter(
          (hit) =>
            hit.strength !== 'weak' ||
            !everyHit.some((other) => other.hit.row === hit.row && other.hit.end === hit.start),
        ),
    ]),
  );
  // A row may hold several label-value pairs ("Excl. BTW 593,36 Subtotaal 717,97"): a value is
  // looked for up to the next label.
  const labelStarts = new Set([...hitsByRole.values()].flat().map((h) => h.row.tokens[h.start]!.id));
  for (const role of ROLES) {
    const candidates: Candidate[] = [];
    for (const hit of hitsByRole.get(role)!) {
      for (const c of valuesNear(view, hit, read, hints, {
        maxTokens: 4,
        below: !isItemHeadingRow(hit.row),
        pick: 'last',
        stopAt: labelStarts,
      })) {
        // Totals sit low on the page; a "total" at the top is usually a column heading.
        const rowY = hit.row.box.y0;
        const low = role === 'tax' ? 1 : rowY > 0.35 || view.pageCount > 1 ? 1 : 0.8;
        // Percentages and counts next to a tax label are not the tax amount; "6.00 %" is no amount.
        if (role === 'tax' && c.tokens.some((t) => /%/.test(t.text))) continue;
        if (isRate(view, c)) continue;
        // Amounts in two currencies side by side ("TOTAL  524.00  142.68" under "AED  USD"): the first
        // currency's is the document's; the other an equivalent.
        const value = firstCurrencyColumn(view, c, hints) ?? c;
        candidates.push({ ...value, score: c.score * low * (inProse(hit) ? PROSE : 1) });
      }
    }
    out[role] = candidates;
  }

  // A VAT summary table's tax and net amount (its rows add up: net + tax = gross). The amounts of its
  // rows of one rate among several are parts: read under the table's headings ("MwSt", "Brutto",
  // "Totaal"), they are no candidates.
  // (A totals column beside the table shares its rows, "9%  376,97  33,93      Totaal incl. BTW  €
  // 598,68": amounts right of the table's are that column's.)
  const vatTable = findVatTable(view, hints);
  for (const role of ROLES)
    out[role] = out[role].filter(
      (c) => !c.tokens.some((t) => t.u.x0 <= (vatTable.partRows.get(t.row) ?? -Infinity)),
    );
  // The table's own total row ("Total  1,783.74  68.63  68.63  137.26") labels its net amount and its
  // tax: the numbers read as those are no total of the document (a gross column's is).
  const tableParts = new Set(
    [...vatTable.tax, ...vatTable.subTotal].flatMap((c) => c.tokens.map((t) => t.id)),
  );
  out.total = out.total.filter((c) => !c.tokens.some((t) => tableParts.has(t.id)));
  out.tax.push(...vatTable.tax);
  out.subTotal.push(...vatTable.subTotal);

  // The amount due is the total more often than not (receipts print "Due" for it).
  for (const due of out.amountDue)
    out.total.push({ ...due, score: due.score * 0.75, source: `${due.source}+due` });
  // Money is printed with two decimals; three or more are quantities and unit prices.
  const all = patternValues(view, read, hints, 4, 0.25).filter(
    (c) => c.quality >= 1 && /^-?\d+\.\d{2}$/.test(c.value) && !isRate(view, c),
  );
  // Without a total's label, what a receipt says was paid ("AMOUNT PAID S$9.20") is its total.
  if (out.total.length === 0)
    for (const paid of out.amountPaid)
      out.total.push({ ...paid, score: paid.score * 0.7, source: `${paid.source}+paid` });
  // A total nobody labelled: the largest amount with decimals in the lower part of the document, not
  // one beside the cash tendered, the change or a card's balance (the cash is more than the total).
  const paymentRows = new Set(
    everyHit
      .filter(({ role }) => role === 'cashTendered' || role === 'change' || role === 'cardBalance')
      .map(({ hit }) => hit.row.index),
  );
  if (out.total.length === 0 && all.length > 0) {
    const unpaid = all.filter((c) => !paymentRows.has(c.tokens[0]!.row));
    const lower = unpaid.filter((c) => c.tokens[0]!.box.y0 > 0.3 || view.pageCount > 1);
    const pool = lower.length > 0 ? lower : unpaid.length > 0 ? unpaid : all;
    const largest = pool.reduce((a, b) => ((b.norm as number) > (a.norm as number) ? b : a));
    out.total.push({ ...largest, score: 0.3, source: 'largest-amount' });
  }

  // A total of zero is a surcharge or discount line that says "total", when other amounts exist.
  out.total = out.total.map((c) => ((c.norm as number) === 0 ? { ...c, score: c.score * 0.3 } : c));
  // A negative total is a credit note's; elsewhere it is a discount or an adjustment line.
  const credit = /\b(credit note|gutschrift|avoir|creditnota|refund)\b/.test(view.text);
  if (!credit)
    out.total = out.total.map((c) => ((c.norm as number) < 0 ? { ...c, score: c.score * 0.6 } : c));
  // Labels are never the whole story: leave room for the checks below to tell candidates apart,
  // and between equals prefer the one printed last (the final total sits at the end).
  for (const role of ROLES) {
    const ys = out[role].map((c) => c.tokens[0]!.pageNum * 10 + c.tokens[0]!.box.y0);
    const low = Math.min(...ys);
    const high = Math.max(...ys);
    out[role] = out[role].map((c, i) => ({
      ...c,
      score: c.score * 0.9 + (role === 'total' && high > low ? (0.02 * (ys[i]! - low)) / (high - low) : 0),
    }));
  }
  // Each tax line as printed: taxes per rate may be equal ("CGST 2.5 % 200.00", "SGST 2.5 % 200.00").
  const taxLines = [...out.tax].sort((a, b) => b.score - a.score);
  // Label candidates agreeing on a value reinforce each other (totals are often printed twice).
  for (const role of ROLES) out[role] = mergeSameValue(out[role]);
  applyTaxParts(out);
  applyTotalParts(out);

  // A "total" equal to the tax, with a larger total beside it, is the tax's own total ("TAX TOTAL:
  // 0.69" misread "TAS TOTAL", a tax summary's total row).
  const taxValues = new Set(taxLines.filter((t) => (t.norm as number) > 0).map((t) => t.value));
  out.total = out.total.map((c) =>
    taxValues.has(c.value) && out.total.some((other) => (other.norm as number) > (c.norm as number))
      ? { ...c, score: c.score * 0.5 }
      : c,
  );
  if (!applyArithmetic(view, out, all, taxLines, roundingAmounts(view, hints), surchargeAmounts(view, hints)))
    applyTaxPerRate(view, out, taxLines);
  const payment = paymentLines(view, hints, all);
  applyCashAndChange(payment, out);
  applyRounding(payment, out);
  applyAgreement(payment, out);
  applyTip(view, hints, all, out);
  applyDiscountBelow(view, hints, out);

  // An amount due read as the total, with a smaller one printed under it and the deduction between
  // them ("TOTAL A PAGAR 675,52", "Anticipo -225,00", "A pagar 450,52"): what is left to pay is the
  // one under it.
  const [due, total] = [out.amountDue[0], out.total[0]];
  if (due && total && due.value === total.value && due.tokens.length > 0) {
    const d = due.norm as number;
    const below = out.amountDue.find((c) => {
      if (c.tokens.length === 0 || placeOf(c) <= placeOf(due)) return false;
      const left = c.norm as number;
      return (
        left > 0 &&
        left < d &&
        all.some(
          (x) =>
            placeOf(x) > placeOf(due) &&
            placeOf(x) < placeOf(c) &&
            Math.abs(Math.abs(x.norm as number) - (d - left)) < 0.011,
        )
      );
    });
    if (below) out.amountDue = liftToFront(out.amountDue, below, 'after-total');
  }
  // With nothing paid, the amount due is the total.
  if (out.amountDue.length === 0 && out.amountPaid.length === 0 && out.total[0]) {
    const total = out.total[0];
    out.amountDue.push({ ...total, score: total.score * 0.6, source: 'total-as-due' });
  }
  return out;
}

/**
 * How much an amount counts whose label stands deep in a sentence ("Im Rechnungsbetrag enthaltene
 * Arbeitskosten gem. § 35a EStG: netto 5.104,00 €, MwSt. 969,76 €, brutto 6.073,76 €"): a note about
 * a part of the invoice, not its totals, whose labels stand alone in their column.
 */
const PROSE = 0.7;
/** Words of a sentence before a label that make it one inside the sentence. */
const PROSE_WORDS = 6;

/** Whether at least PROSE_WORDS words run up to the label on its line, each a space from the next. */
function inProse(hit: { row: { tokens: readonly ViewToken[] }; start: number }): boolean {
  return wordsRunUpTo(hit, PROSE_WORDS) >= PROSE_WORDS;
}

/**
 * Words of a row between the subtotal and the total that is no tax: charges, discounts, tips, and
 * withholdings (Spain's IRPF, Italy's ritenuta: deducted, not added).
 */
const NOT_TAX_ROW =
  /\b(service|svc|charge|chg|surcharge|fee|tip|gratuity|discount|saving|savings|coupon|deposit|shipping|delivery|freight|rounding|round|voucher|irpf|retención|retencion|withholding|ritenuta|tds)\b/i;

/**
 * The amounts of the rows between a subtotal and the total below it, two at least, when every such
 * row ends with an amount and is a tax line (one of `taxLines`) or carries a rate (`2.9%`) without a
 * charge's, discount's or tip's word, and at least one is a tax line; else undefined.
 */
function stackedTaxRows(
  view: DocumentView,
  sub: Candidate,
  total: Candidate,
  all: readonly Candidate[],
  taxLines: readonly Candidate[],
): Candidate[] | undefined {
  const from = sub.tokens[0]!.row;
  const to = total.tokens[0]!.row;
  if (to - from < 3 || to - from > 8 || view.rows[from]!.pageNum !== view.rows[to]!.pageNum) return undefined;
  const taxTokens = new Set(taxLines.flatMap((c) => c.tokens.map((t) => t.id)));
  const amounts: Candidate[] = [];
  let labelled = false;
  for (let r = from + 1; r < to; r++) {
    const row = view.rows[r]!;
    const last = row.tokens[row.tokens.length - 1]!;
    const amount = all.find((c) => c.tokens[c.tokens.length - 1] === last);
    const text = row.tokens.map((t) => t.text).join(' ');
    if (!amount || (amount.norm as number) <= 0 || NOT_TAX_ROW.test(text)) return undefined;
    const taxLine = amount.tokens.some((t) => taxTokens.has(t.id));
    if (!taxLine && !text.includes('%')) return undefined;
    labelled ||= taxLine;
    amounts.push(amount);
  }
  return labelled ? amounts : undefined;
}

/** A loyalty scheme's words: a row holding one counts points. */
const POINTS_ROW = /\b(points?|pts|punkte|punten|bonuspunkte|miles)\b/i;

/** What follows "incl." when the tax is included in something ("incl. in MRP", "inclus dans le prix"). */
const INCLUDED_IN = /^(in|im|into|dans|en|nel|nello|nella|op)$/;

/** Words after a tax label that make it the total's: the amount includes the tax. */
const INCLUDED =
  /^(inc|incl|inkl|inclusive|included|including|incluido|incluida|incluidos|inclus|incluse|compris|comprise|compreso|inbegriffen|inclusief|inklusive|inkludert|inklusiv|včetně|vcetne|vrátane|vratane|einschließlich|einschliesslich)$/;

/**
 * A discount printed under the total and an amount to pay under it that is the total less the
 * discount ("Valor total R$ 56,32", "Desconto R$ 1,32", "Valor a Pagar R$ 55,00"): what is paid is the
 * total.
 */
function applyDiscountBelow(
  view: DocumentView,
  hints: DocumentHints,
  out: Record<AmountRole, Candidate[]>,
): void {
  const top = out.total[0];
  if (!top) return;
  const t = top.norm as number;
  const topRow = top.tokens[0]!.row;
  for (const due of out.amountDue) {
    const dueRow = due.tokens[0]!.row;
    const d = due.norm as number;
    if (dueRow <= topRow || d <= 0 || d >= t) continue;
    const discounts = findLabels(view, LABELS.discount!)
      .filter((hit) => hit.row.index > topRow && hit.row.index < dueRow)
      .flatMap((hit) => valuesNear(view, hit, READERS.amount!, hints, { maxTokens: 4, maxRightGap: 30 }))
      .map((c) => Math.abs(c.norm as number));
    if (!discounts.some((x) => Math.abs(t - x - d) < 0.011)) continue;
    const paid = out.total.find((c) => c.value === due.value) ?? { ...due, source: `${due.source}+due` };
    out.total = [
      { ...paid, score: raise(top.score, 0.1), source: `${paid.source}+discount` },
      ...out.total.filter((c) => c !== paid),
    ];
    return;
  }
}

/**
 * A tip written on a restaurant's receipt is charged with the total: when the total plus the printed
 * tip is printed below it ("Amount $100.05", "Tip $18.00", "TOTAL CHARGED $118.05"), that is the
 * total paid.
 */
function applyTip(
  view: DocumentView,
  hints: DocumentHints,
  all: readonly Candidate[],
  out: Record<AmountRole, Candidate[]>,
): void {
  const top = out.total[0];
  if (!top) return;
  const tips = findLabels(view, LABELS.tip!)
    .flatMap((hit) => valuesNear(view, hit, READERS.amount!, hints, { maxTokens: 2, maxRightGap: 30 }))
    .filter((c) => c.quality >= 1 && (c.norm as number) > 0 && (c.norm as number) < (top.norm as number));
  for (const tip of tips) {
    const value = (top.norm as number) + (tip.norm as number);
    const charged = all.find(
      (c) => Math.abs((c.norm as number) - value) < 0.005 && c.tokens[0]!.row > tip.tokens[0]!.row,
    );
    if (!charged) continue;
    const printed = out.total.find((c) => c.value === charged.value);
    const lifted: Candidate = {
      ...(printed ?? charged),
      score: raise(Math.max(top.score, printed?.score ?? 0), 0.1),
      source: `${(printed ?? charged).source}+tip`,
    };
    out.total = [lifted, ...out.total.filter((c) => c !== printed)];
    return;
  }
}

/** Words of a total's label. */
const TOTAL_WORDS = /^(total|totaal|totale|summe|gesamt|gesamtbetrag|montant|importe|grand)$/;

/** Words before a tax label that make it the subtotal's: the amount before tax. */
const EXCLUDED =
  /^(ex|without|excl|excluding|exclusive|excluded|before|ohne|exkl|hors|sans|exclusief|zonder|sin|senza|esclusa|escluso|sem|bez|be|fara|fără|uten|utan|ilman|ekskl|eksklusive|exklusive)$/;

/** Words after a tax label that make it the subtotal's ("ÁFA nélkül", Hungarian "without VAT"). */
const EXCLUDED_AFTER = /^(nélkül|nelkul)$/;

/** Pairs and triples of candidates printed on different rows. */
function groupsOf(candidates: readonly Candidate[]): Candidate[][] {
  const row = (c: Candidate): number => c.tokens[0]!.row;
  const groups: Candidate[][] = [];
  for (let i = 0; i < candidates.length; i++)
    for (let j = i + 1; j < candidates.length; j++) {
      const [a, b] = [candidates[i]!, candidates[j]!];
      if (row(a) === row(b)) continue;
      groups.push([a, b]);
      for (let k = j + 1; k < candidates.length; k++) {
        const c = candidates[k]!;
        if (row(c) !== row(a) && row(c) !== row(b)) groups.push([a, b, c]);
      }
    }
  return groups;
}

/** Where a candidate is printed, in reading order: its page, then its row. */
function placeOf(c: Candidate): number {
  return c.tokens[0]!.pageNum * 1e6 + c.tokens[0]!.row;
}

/**
 * Of a field's positive candidates, the first that two or three others (those `isPart` admits) add
 * up to: a whole printed with its parts.
 */
function wholeOfParts(
  list: readonly Candidate[],
  isPart: (part: Candidate, whole: Candidate) => boolean,
): Candidate | undefined {
  const positive = list.filter((c) => (c.norm as number) > 0 && c.tokens.length > 0).slice(0, 8);
  return positive.find((whole) => {
    const w = whole.norm as number;
    const parts = positive.filter((c) => c !== whole && (c.norm as number) < w && isPart(c, whole));
    return groupsOf(parts).some(
      (group) => Math.abs(group.reduce((a, c) => a + (c.norm as number), 0) - w) < 0.011,
    );
  });
}

/**
 * Taxes printed one by one and then their sum ("State Sales Tax 28.70", "City Tax 11.28", "Occupancy
 * Tax 15.12", "Total Taxes 55.10"): the tax candidate that two or three others on rows of their own add
 * up to is the document's tax, ahead of its parts.
 */
function applyTaxParts(out: Record<AmountRole, Candidate[]>): void {
  const whole = wholeOfParts(out.tax, (part, of) => part.tokens[0]!.row !== of.tokens[0]!.row);
  if (whole) out.tax = liftToFront(out.tax, whole, 'sum');
}

/**
 * Totals of parts printed above the whole's total ("Total Professional Services 5,850.00", "Total
 * Expenses 545.30", "Total Current Charges 6,395.30"): the total candidate that two or three others,
 * each on a row of its own above it, add up to is the document's total, ahead of its parts.
 */
function applyTotalParts(out: Record<AmountRole, Candidate[]>): void {
  const whole = wholeOfParts(out.total, (part, of) => placeOf(part) < placeOf(of));
  if (whole) out.total = liftToFront(out.total, whole, 'parts');
}

/** The word before a label, "of" skipped ("exclusive of GST"). */
function wordBefore(hit: { row: { tokens: readonly { key: string }[] }; start: number }): string {
  const before = hit.row.tokens[hit.start - 1]?.key ?? '';
  return before === 'of' ? (hit.row.tokens[hit.start - 2]?.key ?? '') : before;
}

/** "GST 6% included in total 0.19": the label after "included in" names what the amount is part of. */
function includedIn(tokens: readonly { key: string }[], start: number): boolean {
  const before = tokens[start - 1]?.key;
  const twoBefore = tokens[start - 2]?.key ?? '';
  return (
    (before === 'in' || before === 'dans' || before === 'im') &&
    /^(incl|inkl|inclus|included|including|enthalten|inbegriffen|inclusive)/.test(twoBefore)
  );
}

/** Adds evidence without reaching certainty: a sure candidate stays ahead of a merely boosted one. */
function raise(score: number, by: number): number {
  return score + by * (1 - score) * 0.9;
}

/** `candidate` at the head of `list`, raised over the best there, its source marked with what it agrees with. */
function liftToFront(list: readonly Candidate[], candidate: Candidate, agreement: string): Candidate[] {
  const lifted: Candidate = {
    ...candidate,
    score: raise(Math.max(candidate.score, list[0]?.score ?? 0), 0.1),
    source: `${candidate.source}+${agreement}`,
  };
  return [lifted, ...list.filter((c) => c !== candidate)];
}

/** Keeps the best candidate of each value, raised a little for every further place it was read. */
function mergeSameValue(candidates: Candidate[]): Candidate[] {
  const byValue = new Map<string, Candidate[]>();
  for (const c of candidates) {
    const list = byValue.get(c.value);
    if (list) list.push(c);
    else byValue.set(c.value, [c]);
  }
  const merged: Candidate[] = [];
  for (const list of byValue.values()) {
    list.sort((a, b) => b.score - a.score);
    const best = list[0]!;
    const extra = Math.min(0.15, 0.05 * (list.length - 1));
    merged.push({ ...best, score: raise(best.score, extra) });
  }
  return merged.sort((a, b) => b.score - a.score);
}

/** Raises the subtotal, tax and total candidates that add up; prefers such a triple. */
function applyArithmetic(
  view: DocumentView,
  out: Record<AmountRole, Candidate[]>,
  all: Candidate[],
  taxLines: readonly Candidate[],
  roundings: readonly number[],
  surcharges: readonly number[],
): boolean {
  let bestTriple: { sub: Candidate; tax: Candidate; total: Candidate; score: number } | undefined;
  for (const total of out.total.slice(0, 5)) {
    for (const sub of out.subTotal.slice(0, 5)) {
      for (const tax of out.tax.slice(0, 5)) {
        const t = total.norm as number;
        const s = sub.norm as number;
        const x = tax.norm as number;
        if (Math.abs(s + x - t) < 0.011 && t !== 0) {
          const score = total.score + sub.score + tax.score;
          if (!bestTriple || score > bestTriple.score) bestTriple = { sub, tax, total, score };
        }
      }
    }
  }
  if (!bestTriple) bestTriple = deriveMissingPart(view, out, all, taxLines, roundings, surcharges);
  if (bestTriple) {
    const lift = (list: Candidate[], chosen: Candidate): Candidate[] =>
      list
        // The amounts that add up win; others of another value lose some trust.
        .map((c) =>
          c === chosen
            ? { ...c, score: raise(c.score, 0.25), source: `${c.source}+sum` }
            : c.value === chosen.value
              ? c
              : { ...c, score: c.score * 0.75 },
        )
        .sort((a, b) => b.score - a.score);
    out.total = lift(out.total, bestTriple.total);
    out.subTotal = lift(out.subTotal, bestTriple.sub);
    out.tax = lift(out.tax, bestTriple.tax);
    return true;
  }
  // A total below a subtotal is a tax or a count line that says "total".
  const biggestSub = Math.max(
    -Infinity,
    ...out.subTotal.filter((c) => c.score >= 0.5).map((c) => c.norm as number),
  );
  if (Number.isFinite(biggestSub)) {
    out.total = out.total
      .map((c) => ((c.norm as number) < biggestSub - 0.011 ? { ...c, score: c.score * 0.5 } : c))
      .sort((a, b) => b.score - a.score);
  }
  // Without a tax line, a subtotal equal to the total is consistent too (no tax charged).
  const total = out.total[0];
  const sub = out.subTotal.find(
    (s) => total && Math.abs((s.norm as number) - (total.norm as number)) < 0.011,
  );
  if (total && sub) out.total[0] = { ...total, score: raise(total.score, 0.1) };
  // A subtotal above the total is not one.
  if (total) out.subTotal = out.subTotal.filter((s) => (s.norm as number) <= (total.norm as number) + 0.011);
  if (total) out.tax = out.tax.filter((s) => Math.abs(s.norm as number) < Math.abs(total.norm as number));
  return false;
}

/** A tax rate printed on a tax line's row before its amount ("(10% tax ¥1,486)"): the rate, else undefined. */
function rateBefore(view: DocumentView, c: Candidate): number | undefined {
  const first = c.tokens[0]!;
  const text = view.rows[first.row]!.tokens.filter((t) => t.col < first.col)
    .map((t) => t.text)
    .join(' ');
  const m = /(\d{1,2}(?:[.,]\d{1,2})?)\s?%/.exec(text);
  return m ? Number(m[1]!.replace(',', '.')) : undefined;
}

/**
 * Taxes printed per rate, and no sum that adds up with a subtotal to the total (taxes included in the
 * prices: "(10% tax ¥1,486)", "(8% tax ¥11)"): the tax is their sum, when they are tax lines of
 * different rates, each rate printed, the sum below the total; a line printing that sum ("Total tax
 * ¥177") is then the tax.
 */
function applyTaxPerRate(
  view: DocumentView,
  out: Record<AmountRole, Candidate[]>,
  taxLines: readonly Candidate[],
): void {
  const total = out.total[0];
  if (!total) return;
  // (Each beside its label: what stands under a tax line's label is the next line's base, "¥770".)
  const lines = taxLines.filter(
    (c) => c.source.startsWith('label-right') && (c.norm as number) > 0 && rateBefore(view, c) !== undefined,
  );
  const rates = new Set(lines.map((c) => rateBefore(view, c)));
  const rows = new Set(lines.map((c) => c.tokens[0]!.row));
  if (lines.length < 2 || lines.length > 4 || rates.size !== lines.length || rows.size !== lines.length)
    return;
  const sum = lines.reduce((a, c) => a + (c.norm as number), 0);
  if (sum >= (total.norm as number)) return;
  // Their sum printed as such ("Total tax ¥177") is the tax.
  const printed = out.tax.findIndex((c) => Math.abs((c.norm as number) - sum) < 0.005);
  if (printed >= 0) {
    const [sumLine] = out.tax.splice(printed, 1);
    out.tax.unshift({
      ...sumLine!,
      score: raise(Math.max(...out.tax.map((c) => c.score), sumLine!.score), 0.1),
    });
    return;
  }
  out.tax.push({
    value: sum.toFixed(2),
    norm: Math.round(sum * 100) / 100,
    quality: 1,
    tokens: lines.flatMap((c) => c.tokens),
    score: Math.min(1, Math.max(...lines.map((c) => c.score)) + 0.1),
    source: 'tax-rates-sum',
  });
  out.tax.sort((a, b) => b.score - a.score);
}

/** The amounts beside a surcharge's label ("Service Charge @ 5%  82.50"): added before the total. */
function surchargeAmounts(view: DocumentView, hints: DocumentHints): number[] {
  return findLabels(view, LABELS.surcharge!)
    .flatMap((hit) => valuesNear(view, hit, READERS.amount!, hints, { maxTokens: 4, maxRightGap: 30 }))
    .map((c) => c.norm as number)
    .filter((v) => v > 0);
}

/** The amounts beside a rounding's label ("Round Off -0.38"), less than one either way. */
function roundingAmounts(view: DocumentView, hints: DocumentHints): number[] {
  return findLabels(view, LABELS.rounding!)
    .flatMap((hit) => valuesNear(view, hit, READERS.amount!, hints, { maxTokens: 4, maxRightGap: 30 }))
    .map((c) => c.norm as number)
    .filter((v) => v !== 0 && Math.abs(v) < 1);
}

/** What a receipt says of its payment: the cash tendered, the change, a rounding to the coin. */
interface PaymentLines {
  /** The likeliest amount beside a cash-tendered label, and every amount beside one. */
  cash: Candidate | undefined;
  cashLines: Candidate[];
  change: Candidate | undefined;
  /** The cash less the change, when both are printed and it is more than nothing: what was paid. */
  paid: { value: number; tokens: Candidate['tokens'] } | undefined;
  /** A small non-zero rounding adjustment (`Rounding Adj -0.02`). */
  adjustment: Candidate | undefined;
}

function paymentLines(view: DocumentView, hints: DocumentHints, printed: readonly Candidate[]): PaymentLines {
  const read = READERS.amount!;
  const near = (set: string, quality = 1): Candidate[] =>
    findLabels(view, LABELS[set]!)
      // Below the label too: OCR splits a receipt's `CASH :` from its `40.00` on the next line.
      .flatMap((hit) => valuesNear(view, hit, read, hints, { maxTokens: 4, maxRightGap: 30, below: true }))
      .filter((c) => c.quality >= quality);
  const best = (list: Candidate[]): Candidate | undefined => [...list].sort((a, b) => b.score - a.score)[0];
  const cashLines = near('cashTendered');
  const change = best(near('change'));
  // The money tendered printed right above the change under a label OCR misread ("Fay 20.00" over
  // "Change 0.80"): taken only when it less the change is an amount printed elsewhere (the total).
  const cash = best(cashLines) ?? (change ? tenderedAbove(view, change, printed) : undefined);
  const paid =
    cash && change && (change.norm as number) >= 0 && (cash.norm as number) > (change.norm as number)
      ? { value: (cash.norm as number) - (change.norm as number), tokens: [...cash.tokens, ...change.tokens] }
      : undefined;
  return {
    cash,
    cashLines,
    change,
    paid,
    // A rounding is cents: printed without its zero (`RM .01`) it is read all the same. Or tens of
    // cents, to the whole crown (`Zaokrouhleni -0,30`), or a unit or two, to the five forints (`+1 Ft`).
    adjustment: near('rounding', 0.5).find((c) => isCoinRounding(c.norm as number)),
  };
}

/**
 * The amount at the end of the row right above the change's, when it less the change is another
 * amount printed on the document: the money tendered under a label nobody could read.
 */
function tenderedAbove(
  view: DocumentView,
  change: Candidate,
  printed: readonly Candidate[],
): Candidate | undefined {
  const changeRow = change.tokens[0]!.row;
  const above = view.rows[changeRow - 1];
  if (!above || above.pageNum !== view.rows[changeRow]!.pageNum) return undefined;
  const onRow = printed.filter((c) => c.tokens[0]!.row === above.index);
  const tendered = onRow[onRow.length - 1];
  if (!tendered || (tendered.norm as number) <= (change.norm as number)) return undefined;
  const rest = (tendered.norm as number) - (change.norm as number);
  const total = printed.find(
    (c) => c.tokens[0]!.row < above.index && Math.abs((c.norm as number) - rest) < 0.005,
  );
  return total ? { ...tendered, source: 'tendered-above-change' } : undefined;
}

/**
 * On receipts the amount tendered less the change given is the total: a check on the total that
 * survives a misread total line, and a total when its line was not read at all.
 */
function applyCashAndChange(payment: PaymentLines, out: Record<AmountRole, Candidate[]>): void {
  const { cash, change } = payment;
  if (cash && !change) {
    // Paid exactly, no change: a total equal to the cash is confirmed.
    out.total = out.total
      .map((c) =>
        Math.abs((c.norm as number) - (cash.norm as number)) < 0.005 && !cash.tokens.includes(c.tokens[0]!)
          ? { ...c, score: raise(c.score, 0.15), source: `${c.source}+cash` }
          : c,
      )
      .sort((a, b) => b.score - a.score);
    return;
  }
  if (!payment.paid) return;
  const { value: paid, tokens } = payment.paid;
  const match = out.total.find((c) => Math.abs((c.norm as number) - paid) < 0.005);
  // Totals far below what was paid are tax or rounding lines.
  out.total = out.total
    .map((c) => (c !== match && (c.norm as number) < paid * 0.5 ? { ...c, score: c.score * 0.5 } : c))
    .sort((a, b) => b.score - a.score);
  if (match) {
    out.total = out.total
      .map((c) => (c === match ? { ...c, score: raise(c.score, 0.3), source: `${c.source}+change` } : c))
      .sort((a, b) => b.score - a.score);
  } else {
    out.total.push({
      value: paid.toFixed(2),
      norm: paid,
      quality: 1,
      tokens,
      score: 0.55,
      source: 'cash-less-change',
    });
    out.total.sort((a, b) => b.score - a.score);
  }
}

/** A cash rounding's size: cents, tens of cents below half a unit, or one or two whole units. */
function isCoinRounding(value: number): boolean {
  const size = Math.abs(value);
  if (size === 0) return false;
  if (size < 0.1) return true;
  const cents = Math.round(size * 100);
  return (size < 0.5 && cents % 10 === 0) || cents === 100 || cents === 200;
}

/**
 * A receipt rounded to the coin (`Rounding Adj -0.02`) is paid at the rounded amount: when a total
 * candidate plus the printed rounding is another amount printed as a total or tendered as cash, that
 * one is the total (what was paid), even where the unrounded one adds up with the tax.
 */
function applyRounding(payment: PaymentLines, out: Record<AmountRole, Candidate[]>): void {
  const { adjustment } = payment;
  if (adjustment === undefined) return;
  const rounding = adjustment.norm as number;
  const unrounded = out.total.slice(0, 3);
  const paid = [...out.total, ...payment.cashLines];
  for (const total of unrounded) {
    const value = (total.norm as number) + rounding;
    const rounded = paid.find((c) => c !== total && Math.abs((c.norm as number) - value) < 0.005);
    if (!rounded) continue;
    out.total = liftToFront(out.total, rounded, 'rounding');
    return;
  }
  // The rounded amount not printed: the favourite total plus the adjustment, when that lands on a coin
  // (a multiple of 0.05), is what was paid. Read from the total's and the adjustment's words. (Only for
  // cents: a larger rounding, "Round Off 0.20" under a rounded favourite, lands on a coin as well.)
  const total = out.total[0];
  if (!total || Math.abs(rounding) >= 0.1) return;
  const cents = Math.round(((total.norm as number) + rounding) * 100);
  if (cents <= 0 || cents % 5 !== 0) return;
  out.total.unshift({
    value: (cents / 100).toFixed(2),
    norm: cents / 100,
    quality: 1,
    tokens: [...total.tokens, ...adjustment.tokens],
    score: raise(total.score, 0.05),
    source: 'total-rounded+rounding',
  });
}

/**
 * A misread total line is a receipt's commonest miss, and two other lines seldom agree by chance. The
 * cash tendered less the change is what was paid: when the subtotal plus the tax (with a printed
 * rounding) or a total plus the rounding come to the same amount, that amount is the total, printed as
 * one or not. And where a rounding to the coin is printed, what was paid is a multiple of 0.05: a
 * favourite total off the coin gives way to the amount paid or summed that is on it, within a rounding.
 */
function applyAgreement(payment: PaymentLines, out: Record<AmountRole, Candidate[]>): void {
  const top = out.total[0];
  const { paid, adjustment } = payment;
  const rounding = adjustment ? (adjustment.norm as number) : 0;
  const roundingTokens = adjustment ? adjustment.tokens : [];
  const sums: Array<{ value: number; tokens: Candidate['tokens'] }> = [];
  const sub = out.subTotal[0];
  const tax = out.tax[0];
  if (
    sub &&
    tax &&
    sub.quality >= 1 &&
    tax.quality >= 1 &&
    (sub.norm as number) > 0 &&
    (tax.norm as number) > 0
  ) {
    const value = (sub.norm as number) + (tax.norm as number);
    sums.push({ value: value + rounding, tokens: [...sub.tokens, ...tax.tokens, ...roundingTokens] });
    if (rounding !== 0) sums.push({ value, tokens: [...sub.tokens, ...tax.tokens] });
  }
  if (rounding !== 0)
    for (const total of out.total.slice(0, 3))
      if (!total.source.startsWith('cash-less'))
        sums.push({ value: (total.norm as number) + rounding, tokens: [...total.tokens, ...roundingTokens] });
  /** The amount to the top: the printed total of that value marked, or one worked out from `tokens`. */
  const promote = (
    value: number,
    tokens: Candidate['tokens'],
    by: number,
    marks: { printed: string; derived: string },
  ): void => {
    const printed = out.total.find((c) => Math.abs((c.norm as number) - value) < 0.005);
    const best = Math.max(...out.total.map((c) => c.score), 0.5);
    const lifted: Candidate = printed
      ? { ...printed, score: raise(best, by), source: `${printed.source}${marks.printed}` }
      : {
          value: value.toFixed(2),
          norm: Math.round(value * 100) / 100,
          quality: 1,
          tokens,
          score: raise(best, by),
          source: marks.derived,
        };
    out.total = [lifted, ...out.total.filter((c) => c !== printed)];
  };
  const agreeing = paid && sums.find((s) => Math.abs(s.value - paid.value) < 0.005);
  if (paid && agreeing) {
    promote(paid.value, [...paid.tokens, ...agreeing.tokens], 0.2, {
      printed: '+change',
      derived: 'cash-less-change+sum',
    });
    return;
  }
  if (rounding === 0 || !top || onCoin(top.norm as number)) return;
  const t = top.norm as number;
  const coin = [...(paid ? [paid] : []), ...sums.slice(0, 1)].find(
    (s) => onCoin(s.value) && Math.abs(s.value - t) < 0.045,
  );
  if (coin)
    promote(coin.value, coin.tokens, 0.1, { printed: '+rounding', derived: 'total-rounded+rounding' });
}

/** A multiple of 0.05: what a receipt rounded to the coin is paid at. */
function onCoin(value: number): boolean {
  return Math.round(value * 100) % 5 === 0;
}

/**
 * A total and a subtotal that are both labelled leave the tax as their difference (and a total and
 * a tax the subtotal): when that amount is printed somewhere, it is taken, with the labels' trust.
 */
function deriveMissingPart(
  view: DocumentView,
  out: Record<AmountRole, Candidate[]>,
  all: Candidate[],
  taxLines: readonly Candidate[],
  roundings: readonly number[],
  surcharges: readonly number[],
): { sub: Candidate; tax: Candidate; total: Candidate; score: number } | undefined {
  // The total as found, or one found about as surely: two lines that say "total" ("Vakuutusmaksut yhteensä",
  // "Maksettava yhteensä") are told apart by which one the other amounts add up to.
  const best = out.total[0];
  if (!best) return undefined;
  for (const total of out.total.slice(0, 3).filter((c) => c.score >= best.score - 0.05)) {
    const found = derivedWith(view, out, all, taxLines, roundings, surcharges, total);
    if (found) return found;
  }
  return undefined;
}

/** deriveMissingPart() for one total: the part its subtotal, tax lines or tax leave to be worked out. */
function derivedWith(
  view: DocumentView,
  out: Record<AmountRole, Candidate[]>,
  all: Candidate[],
  taxLines: readonly Candidate[],
  roundings: readonly number[],
  surcharges: readonly number[],
  total: Candidate,
): { sub: Candidate; tax: Candidate; total: Candidate; score: number } | undefined {
  const t = total.norm as number;
  const printed = (value: number): Candidate | undefined =>
    all.find((c) => Math.abs((c.norm as number) - value) < 0.005);
  // A tax printed beside its own label that does not add up is a tax included in the total ("VAT @
  // 20% included 17.11" under a service charge): the difference is then another line, not the tax.
  const labelledTax = out.tax.some((c) => c.source.startsWith('label') && c.score >= 0.45);
  // (Nor is a difference the rounding printed as such: "Sub Total 121.43", "Rounding Adj. 0.02",
  // "Nett Total 121.45".)
  for (const sub of labelledTax ? [] : out.subTotal.slice(0, 3)) {
    const tax = printed(t - (sub.norm as number));
    const rounding =
      tax !== undefined && roundings.some((r) => Math.abs(Math.abs(r) - (tax.norm as number)) < 0.005);
    if (tax && !rounding && (tax.norm as number) > 0 && (tax.norm as number) < t) {
      const derived = {
        ...tax,
        score: Math.min(total.score, sub.score) * 0.8,
        source: 'total-less-subtotal',
      };
      out.tax.push(derived);
      return { sub, tax: derived, total, score: total.score + sub.score };
    }
  }
  // Tax printed per rate ("USt 19 % 1.310,13", "USt 7 % 200,74") and no line for its sum: the lines
  // that add up with the subtotal to the total are the tax, their sum the value.
  // Exactly, else within a rounding printed as such: a total rounded to the unit ("Round Off -0.38",
  // "Grand Total 2,80,473.00"). A surcharge printed between ("Service Charge @ 5%") is added too.
  const lines = taxLines.slice(0, 6);
  const surcharge = surcharges.reduce((a, v) => a + v, 0);
  for (const within of [false, true])
    for (const [sub, added] of out.subTotal
      .slice(0, 3)
      .flatMap((sub) =>
        surcharge > 0 ? [[sub, 0] as const, [sub, surcharge] as const] : [[sub, 0] as const],
      )) {
      const wanted = t - (sub.norm as number) - added;
      for (const group of groupsOf(lines)) {
        const sum = group.reduce((a, c) => a + (c.norm as number), 0);
        const off = wanted - sum;
        // (Its sign as printed or not: Tally's "(-)0.40".)
        const fits =
          Math.abs(off) < 0.011 ||
          (within && roundings.some((r) => Math.abs(Math.abs(r) - Math.abs(off)) < 0.005));
        if (!fits || sum === 0) continue;
        const derived: Candidate = {
          value: sum.toFixed(2),
          norm: Math.round(sum * 100) / 100,
          quality: 1,
          tokens: group.flatMap((c) => c.tokens),
          score: Math.min(total.score, sub.score, ...group.map((c) => c.score)) * 0.9,
          source: 'tax-lines-sum',
        };
        out.tax.push(derived);
        return { sub, tax: derived, total, score: total.score + sub.score };
      }
    }
  // Taxes stacked between the subtotal and the total, some named by their place only with a rate
  // ("CO STATE TAX 2.9% 2.61", "ARAPAHOE CNTY 0.25% 0.22", "AURORA CITY 3.75% 3.37"): the rows between
  // add up to the difference, each a tax's or a rate's, none a charge's or a discount's.
  for (const sub of out.subTotal.slice(0, 3)) {
    const rows = stackedTaxRows(view, sub, total, all, taxLines);
    if (!rows) continue;
    const sum = rows.reduce((a, c) => a + (c.norm as number), 0);
    if (Math.abs(t - (sub.norm as number) - sum) >= 0.011) continue;
    const derived: Candidate = {
      value: sum.toFixed(2),
      norm: Math.round(sum * 100) / 100,
      quality: 1,
      tokens: rows.flatMap((c) => c.tokens),
      score: Math.min(total.score, sub.score) * 0.8,
      source: 'tax-rows-sum',
    };
    out.tax.push(derived);
    return { sub, tax: derived, total, score: total.score + sub.score };
  }
  // No subtotal line either ("CGST 2.5 % 200.00", "SGST 2.5 % 200.00", "Total 8,400.00"): tax lines of
  // different labels whose sum leaves an amount printed elsewhere (the items' sum) are the tax, and
  // that amount the subtotal.
  if (out.subTotal.length === 0) {
    // (Lines of different labels, or of one label with other words before it and other amounts:
    // "City Parking Tax 6.00", "County Parking Tax 1.03". Not one tax printed twice.)
    const wordsBefore = (c: Candidate): string => {
      const first = c.tokens[0]!;
      return view.rows[first.row]!.tokens.filter((t) => t.col < first.col)
        .map((t) => t.key)
        .join(' ');
    };
    const distinct = (group: Candidate[], key: (c: Candidate) => unknown): boolean =>
      new Set(group.map(key)).size === group.length;
    for (const group of groupsOf(lines)) {
      if (
        !distinct(group, (c) => c.label) &&
        !(distinct(group, wordsBefore) && distinct(group, (c) => c.value))
      )
        continue;
      const sum = group.reduce((a, c) => a + (c.norm as number), 0);
      const sub = printed(t - sum);
      if (!sub || sum <= 0 || (sub.norm as number) <= 0 || group.some((c) => c.tokens[0] === sub.tokens[0]))
        continue;
      const score = Math.min(total.score, ...group.map((c) => c.score)) * 0.7;
      const tax: Candidate = {
        value: sum.toFixed(2),
        norm: Math.round(sum * 100) / 100,
        quality: 1,
        tokens: group.flatMap((c) => c.tokens),
        score,
        source: 'tax-lines-sum',
      };
      const derived = { ...sub, score, source: 'total-less-tax' };
      out.tax.push(tax);
      out.subTotal.push(derived);
      return { sub: derived, tax, total, score: total.score + score };
    }
  }
  for (const tax of out.tax.slice(0, 3)) {
    const sub = printed(t - (tax.norm as number));
    if (sub && (sub.norm as number) > 0 && (sub.norm as number) < t) {
      const derived = { ...sub, score: Math.min(total.score, tax.score) * 0.8, source: 'total-less-tax' };
      out.subTotal.push(derived);
      return { sub: derived, tax, total, score: total.score + tax.score };
    }
  }
  return undefined;
}

/**
 * The amount in the first of two or more currency columns on a candidate's row, when the candidate is
 * in a later one: columns headed by currency codes ("Qty  AED  USD", "USD  AED" over a totals block),
 * each code over an amount of the row. Undefined where the row has no such columns or the candidate is
 * the first's.
 */
function firstCurrencyColumn(view: DocumentView, c: Candidate, hints: DocumentHints): Candidate | undefined {
  const last = c.tokens[c.tokens.length - 1]!;
  const row = view.rows[last.row]!;
  const amounts = row.tokens.filter((t) => /\d[.,]\d{2}$/.test(t.text));
  if (amounts.length < 2) return undefined;
  for (let r = row.index - 1; r >= Math.max(0, row.index - 15); r--) {
    const heading = view.rows[r]!;
    if (heading.pageNum !== row.pageNum) break;
    const codes = heading.tokens.filter(
      (t) => /^[A-Z]{3}$/.test(t.text) && parseCurrency(t.text) !== undefined,
    );
    if (codes.length < 2) continue;
    const under = (code: ViewToken): ViewToken | undefined =>
      amounts.find((a) => a.u.x1 >= code.u.x0 - code.height && a.u.x0 <= code.u.x1 + code.height);
    const columns = codes.map(under);
    if (columns.some((a) => a === undefined) || new Set(columns).size !== columns.length) continue;
    const first = columns[0]!;
    if (first === last || !columns.includes(last)) return undefined;
    const read = READERS.amount!(first.text, hints);
    return read ? { ...c, ...read, tokens: [first] } : undefined;
  }
  return undefined;
}
