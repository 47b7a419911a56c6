import { parseAmount, type AmountHints } from '../normalise/amounts.js';
import type { Candidate } from '../label-search.js';
import type { DocumentView, Row, ViewToken } from '../view.js';

/** Words that head a VAT summary table's columns or name its tax (any of the corpus languages). */
const TAX_HEADING =
  /^(tax|vat|gst|hst|pst|tva|btw|iva|igv|ust|mwst|steuer|mwst-betrag|ust-betrag|steuerbetrag|imposta|impuesto|moms|mva|alv|ptu|dph|áfa|afa|cgst|sgst|igst|sst|kdv|fpa|vsk|ppn|pdv|ddv)$/;
/** Words that start a VAT table's total row. */
const TOTAL_WORD =
  /^(total|totals|totalt|totaal|totale|summe|gesamt|gesamtbetrag|gesamtsumme|somme|suma|sum|summa|totaux|tot|razem|yhteensä|celkem|spolu|összesen|osszesen|ukupno|skupaj|kokku|samtals|toplam|jumlah)$/;
/** Words of a tax withheld from the amount paid, not charged on it. */
const WITHHOLDING =
  /\b(ritenuta|retenci[oó]n|retefuente|withholding|wht|irpf|tds|quellensteuer|reten[cç][aã]o)\b/i;
/** A rate printed in a row ("19,0%", "A= 19%", "5.5 %"; Turkish tills put the sign first, "%20"). */
const RATE = /(\d{1,2}(?:[.,]\d{1,2})?)\s*%|%\s?(\d{1,2}(?:[.,]\d{1,2})?)\b/;

interface TaxRow {
  row: Row;
  net: ViewToken;
  /** The tax's amount (the right one of a tax split in halves). */
  tax: ViewToken;
  /** Every amount the tax is read from: two for a tax split in halves (India's CGST and SGST). */
  taxTokens: ViewToken[];
  values: { net: number; tax: number; gross: number };
  total: boolean;
}

type RowAmount = { token: ViewToken; value: number };

function taxRow(row: Row, net: RowAmount, tax: RowAmount, gross: number, total: boolean): TaxRow {
  return {
    row,
    net: net.token,
    tax: tax.token,
    taxTokens: [tax.token],
    values: { net: net.value, tax: tax.value, gross },
    total,
  };
}

/** A row whose tax is printed in two halves side by side, the tax their sum. */
function splitTaxRow(row: Row, net: RowAmount, halves: readonly [RowAmount, RowAmount]): TaxRow {
  const tax = Math.round((halves[0].value + halves[1].value) * 100) / 100;
  return {
    ...taxRow(row, net, { token: halves[1].token, value: tax }, net.value + tax, false),
    taxTokens: halves.map((h) => h.token),
  };
}

/** A row whose tax is split in halves (its total row's amounts are then the halves' sums). */
const isSplit = (r: TaxRow): boolean => r.taxTokens.length > 1;

/**
 * A base followed by a tax split in two equal halves (India's CGST and SGST): "12%  308.17  18.49
 * 18.49" (the whole rate printed) or "1,42,000.00  9%  12,780.00  9%  12,780.00  25,560.00" (each
 * half's).
 */
function splitTaxOf(
  amounts: readonly RowAmount[],
  rate: number,
  /** Two rates printed on the row: each half's own ("9%" and "9%"). */
  ratePerHalf: boolean,
): [RowAmount, [RowAmount, RowAmount]] | undefined {
  for (let i = 0; i + 2 < amounts.length; i++) {
    const [n, a, b] = [amounts[i]!, amounts[i + 1]!, amounts[i + 2]!];
    if (a.value <= 0 || a.value >= n.value || Math.abs(a.value - b.value) > 0.011) continue;
    const sum = a.value + b.value;
    if (
      Math.abs(n.value * rate - sum) <= 0.011 + 0.01 * sum ||
      // (One rate and its tax printed twice, "S 20.00%  350.90  70.18   Total VAT 70.18", is no split.)
      (ratePerHalf && Math.abs(n.value * rate - a.value) <= 0.011 + 0.01 * a.value)
    )
      return [n, [a, b]];
  }
  return undefined;
}

/** Amount hints, and whether the document prints its amounts in whole units (forints, krónur, rupiah). */
type TableHints = AmountHints & { whole?: boolean };

/** An amount with decimals as printed ("1 234,50", "€12.00"), not a date's digits ("2024.03.14."). */
const WITH_DECIMALS = /^[^\d]*\d{1,3}(?:[ .,']?\d{3})*[.,]\d{2}[^\d.,]*$/;

/**
 * Whether a document prints no amount with decimals: its currency has no minor units in use (HUF, ISK,
 * IDR, VND, CLP...), so a VAT table's amounts are whole numbers ("A00  5%  2 726  130").
 */
function printsWholeUnits(view: DocumentView): boolean {
  return !view.tokens.some((t) => WITH_DECIMALS.test(t.text));
}

/** The amounts of a row (a rate's "19 %" and counts without decimals aside), left to right. */
function rowAmounts(row: Row, hints: TableHints): RowAmount[] {
  const out: RowAmount[] = [];
  const { tokens } = row;
  const close = (a: ViewToken, b: ViewToken): boolean => b.u.x0 - a.u.x1 < 0.6 * b.height;
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]!;
    if (token.text.includes('%')) continue;
    // (An asterisk before an amount marks it on Turkish tills: "*320,28".)
    const printed = token.text.replace(/^\*(?=\d)/, '');
    if (hints.whole && /^-?\d{1,3}(?:[.,]\d{3})*$/.test(printed)) {
      // In whole units, each run of three digits after a space is the thousands of the number before
      // ("6 002 000 Ft"): the number ends at its last group.
      let text = printed;
      let last = token;
      for (
        let next = tokens[i + 1];
        /^-?\d{1,3}$/.test(printed) && next !== undefined;
        next = tokens[i + 1]
      ) {
        if (!/^\d{3}$/.test(next.text) || !close(last, next)) break;
        text += next.text;
        last = next;
        i++;
      }
      const parsed = parseAmount(text, hints);
      if (parsed) out.push({ token: last, value: parsed.value });
      continue;
    }
    if (!/\d[.,]\d{2}\b/.test(printed)) continue;
    // Thousands set off by a space split an amount in two tokens ("11 852,00"): joined again when the
    // part before is one to three digits right beside it.
    const before = tokens[i - 1];
    const joined =
      before !== undefined &&
      /^-?\d{1,3}$/.test(before.text) &&
      /^\d{3}[.,]\d{2}$/.test(printed) &&
      close(before, token);
    const parsed = parseAmount(joined ? `${before.text}${printed}` : printed, hints);
    if (parsed) out.push({ token, value: parsed.value });
  }
  return out;
}

/**
 * A row of a VAT summary: net + tax = gross among its amounts, the tax smaller than the net, and (where
 * a rate is printed) the tax that rate of the net.
 */
function taxRowOf(row: Row, hints: TableHints): TaxRow | undefined {
  // A withholding's rate, base and amount ("Ritenuta d'acconto 20% su € 3.950,00  - € 790,00") are no
  // VAT row.
  if (WITHHOLDING.test(row.tokens.map((t) => t.text).join(' '))) return undefined;
  const amounts = rowAmounts(row, hints);
  const rateMatch = RATE.exec(row.tokens.map((t) => t.text).join(' '));
  const rateText = rateMatch?.[1] ?? rateMatch?.[2];
  const rate = rateText ? Number(rateText.replace(',', '.')) / 100 : undefined;
  // A rate, the base and the tax alone ("9%  11,94  1,07", "BTW over bedrag"): the tax is the rate
  // of the base.
  if (amounts.length === 2 && rate !== undefined) {
    const [n, t] = amounts as [(typeof amounts)[0], (typeof amounts)[0]];
    const sign = n.value < 0 ? -1 : 1;
    const [net, tax] = [n.value * sign, t.value * sign];
    if (tax >= 0 && tax < net && Math.abs(net * rate - tax) <= 0.011 + 0.01 * tax)
      return taxRow(row, n, t, n.value + t.value, false);
    // Or the gross and the tax it holds, as tills print them ("A  2.6%  38.90  0.99": 38.90 with tax).
    if (tax >= 0 && tax < net && Math.abs((net * rate) / (1 + rate) - tax) <= 0.011 + 0.01 * tax)
      return taxRow(row, { token: n.token, value: n.value - t.value }, t, n.value, false);
  }
  // The rate printed as a number in its own column ("%IVA | ... | Imponibile | Imposta": "22,00 ...
  // 5.140,00  1.130,80"): left of a base and a tax that are that rate of it.
  if (rate === undefined) {
    for (let r = 0; r < amounts.length; r++) {
      const percent = amounts[r]!.value;
      if (percent < 1 || percent > 30) continue;
      for (let i = r + 1; i < amounts.length; i++)
        for (let j = i + 1; j < amounts.length; j++) {
          const [n, t] = [amounts[i]!, amounts[j]!];
          if (t.value <= 0 || t.value >= n.value) continue;
          if (Math.abs((n.value * percent) / 100 - t.value) <= 0.011 + 0.001 * t.value)
            return taxRow(row, n, t, n.value + t.value, false);
          // Or the gross and the tax it holds ("MWST % | Brutto | MWST": "8.10  177.75  13.32").
          if (Math.abs((n.value * percent) / (100 + percent) - t.value) <= 0.011 + 0.001 * t.value)
            return taxRow(row, { token: n.token, value: n.value - t.value }, t, n.value, false);
        }
    }
  }
  if (amounts.length < 3) return undefined;
  const rates = row.tokens.filter((t) => /\d\s*%$|^%$/.test(t.text)).length;
  const split = rate !== undefined ? splitTaxOf(amounts, rate, rates >= 2) : undefined;
  if (split) return splitTaxRow(row, split[0], split[1]);
  // Three of the row's amounts where two add up to the third (the gross, printed last or first:
  // "Netto Steuer Brutto", "Brutto Netto MWST"), the tax smaller than the net.
  for (let i = 0; i < amounts.length; i++)
    for (let j = 0; j < amounts.length; j++)
      for (let k = 0; k < amounts.length; k++) {
        if (i === j || j === k || i === k) continue;
        const [n, t, g] = [amounts[i]!, amounts[j]!, amounts[k]!];
        // A credit note's table is negative throughout: its sizes compare as a positive one's.
        const sign = g.value < 0 ? -1 : 1;
        const [net, tax] = [n.value * sign, t.value * sign];
        if (Math.abs(n.value + t.value - g.value) > 0.011 || tax <= 0 || net <= 0 || tax >= net) continue;
        if (rate !== undefined && Math.abs(net * rate - tax) > 0.011 + 0.01 * tax) continue;
        return taxRow(row, n, t, g.value, TOTAL_WORD.test(row.tokens[0]!.key));
      }
  // A rate, its base and its tax beside another column's amount on the same row ("12 %  2 762,50
  // 331,50        Total TVAC  5 657,99").
  if (rate !== undefined)
    for (let i = 0; i + 1 < amounts.length; i++) {
      const [n, t] = [amounts[i]!, amounts[i + 1]!];
      if (t.value >= 0 && t.value < n.value && Math.abs(n.value * rate - t.value) <= 0.011 + 0.01 * t.value)
        return taxRow(row, n, t, n.value + t.value, false);
    }
  return undefined;
}

/**
 * A row of a rate without tax under a table's taxed rows ("0  Depot  15.00  0.00", "E  Exempt  7,00
 * 0,00"): an amount and a zero tax, the amount its net and its gross.
 */
function zeroTaxRow(row: Row, hints: TableHints): TaxRow | undefined {
  const amounts = rowAmounts(row, hints);
  if (amounts.length !== 2 || TOTAL_WORD.test(row.tokens[0]!.key)) return undefined;
  const [n, t] = amounts as [RowAmount, RowAmount];
  return t.value === 0 && n.value > 0 ? taxRow(row, n, t, n.value, false) : undefined;
}

/**
 * A total row of two amounts under rows of a table ("TOTAAL  20,44  2,85"): the sums of their bases and
 * taxes.
 */
function totalOf(rows: readonly TaxRow[], row: Row, hints: TableHints): TaxRow | undefined {
  const amounts = rowAmounts(row, hints);
  if (rows.length < 2 || !TOTAL_WORD.test(row.tokens[0]!.key)) return undefined;
  const sum = (key: 'net' | 'tax'): number => rows.reduce((s, r) => s + r.values[key], 0);
  if (amounts.length === 2) {
    const [n, t] = amounts as [(typeof amounts)[0], (typeof amounts)[0]];
    if (Math.abs(n.value - sum('net')) > 0.011 || Math.abs(t.value - sum('tax')) > 0.011) return undefined;
    return taxRow(row, n, t, n.value + t.value, true);
  }
  // Rows of a tax split in halves total each half and then the tax ("Total  3,07,452.50  29,292.73
  // 29,292.73  58,585.46"): the first amount the nets' sum, the last the taxes'.
  if (!rows.some(isSplit)) return undefined;
  const n = amounts[0];
  const t = amounts[amounts.length - 1];
  if (!n || !t || Math.abs(n.value - sum('net')) > 0.011 || Math.abs(t.value - sum('tax')) > 0.011)
    return undefined;
  return taxRow(row, n, t, n.value + t.value, true);
}

/**
 * The tax and the net amount a VAT summary table gives ("Steuer % | Netto | Steuer | Brutto", one row a
 * rate, maybe a total row): rows where net + tax = gross, under a heading that names the tax or each
 * with its rate; the total row's amounts when printed, else the sum of the rows'. Empty when the
 * document prints no such table. `partRows`: the rows of a table of several rates (by row index),
 * whose amounts are parts, not the document's tax, net amount or total, each with the right edge of
 * its table's amounts (another column's total may share their rows, right of it; each table its own
 * edge: an item table's gross column is no edge of the VAT summary under it).
 */
export function findVatTable(
  view: DocumentView,
  amountHints: AmountHints,
): { tax: Candidate[]; subTotal: Candidate[]; partRows: Map<number, number> } {
  const hints: TableHints = { ...amountHints, whole: printsWholeUnits(view) };
  const tables: TaxRow[][] = [];
  let current: TaxRow[] = [];
  let headed = false;
  for (const row of view.rows) {
    const taxRow =
      taxRowOf(row, hints) ??
      totalOf(current, row, hints) ??
      (current.length > 0 ? zeroTaxRow(row, hints) : undefined);
    if (taxRow && (headed || RATE.test(row.tokens.map((t) => t.text).join(' ')) || current.length > 0)) {
      current.push(taxRow);
      continue;
    }
    // A row of another column only, right of the table ("Total à payer  1.257,50" between two rates'
    // rows): the table goes on under it.
    // So does a row of words left of its amounts ("BIC: WSTBIE2D" of bank details beside "VAT @ 23% on
    // 5,061.00  1,164.03").
    if (current.length > 0) {
      const right = Math.max(...current.map((r) => r.tax.u.x1));
      if (row.tokens.every((t) => t.u.x0 > right)) continue;
      const left = Math.min(...current.map((r) => r.net.u.x0));
      if (rowAmounts(row, hints).length === 0 && row.tokens.every((t) => t.u.x1 < left)) continue;
    }
    if (current.length > 0) tables.push(current);
    current = [];
    // A heading row: words only (up to sixteen: a FatturaPA summary heads six columns in thirteen), one
    // of them the tax's.
    headed =
      row.tokens.length <= 16 &&
      row.tokens.some((t) => TAX_HEADING.test(t.key)) &&
      rowAmounts(row, hints).length === 0;
  }
  if (current.length > 0) tables.push(current);
  const out = {
    tax: [] as Candidate[],
    subTotal: [] as Candidate[],
    partRows: new Map<number, number>(),
  };
  for (const rows of tables) {
    // A last row whose base and tax are the sums of the rows above is their total, whatever word heads
    // it ("TOTALES", "Gesamt MwSt").
    const last = rows[rows.length - 1]!;
    const above = rows.slice(0, -1);
    if (
      above.length >= 2 &&
      !rows.some((r) => r.total) &&
      (['net', 'tax'] as const).every(
        (key) => Math.abs(last.values[key] - above.reduce((sum, r) => sum + r.values[key], 0)) < 0.011,
      )
    )
      last.total = true;
    const totalRow = rows.find((r) => r.total);
    const parts = rows.filter((r) => !r.total);
    // Rows of one rate among several: each a part of the document's amounts, none of them the whole.
    // So are the halves of a split tax, however many rows (a CGST column's amount is half the tax).
    if (parts.length >= 2 || parts.some(isSplit)) {
      let right = -Infinity;
      for (const part of parts) {
        // Its gross where printed ("A 21%  61,74  12,96  74,70") is the table's too, and so is the sum
        // of a tax split in halves ("9%  6,412.50  9%  6,412.50  12,825.00").
        const beyond = rowAmounts(part.row, hints).filter(
          (a) =>
            a.token.u.x0 > part.tax.u.x1 &&
            (Math.abs(a.value - part.values.gross) < 0.011 ||
              (isSplit(part) && Math.abs(a.value - part.values.tax) < 0.011)),
        );
        right = Math.max(right, part.net.u.x1, part.tax.u.x1, ...beyond.map((a) => a.token.u.x1));
      }
      for (const part of parts) out.partRows.set(part.row.index, right);
    }
    const sum = (key: 'net' | 'tax'): number =>
      Math.round(parts.reduce((s, r) => s + r.values[key], 0) * 100) / 100;
    const make = (key: 'net' | 'tax'): Candidate => {
      const value = totalRow ? totalRow.values[key] : sum(key);
      const tokens = totalRow
        ? [totalRow[key]]
        : parts.flatMap((r) => (key === 'tax' ? r.taxTokens : [r.net]));
      return {
        value: value.toFixed(2),
        norm: value,
        quality: 1,
        tokens,
        // A total row that its parts add up to is surer than parts alone.
        score: totalRow && parts.length > 0 && Math.abs(sum(key) - value) < 0.011 ? 0.85 : 0.75,
        source: 'vat-table',
      };
    };
    out.tax.push(make('tax'));
    out.subTotal.push(make('net'));
  }
  return out;
}
