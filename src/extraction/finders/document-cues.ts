import { parseCurrency } from '../normalise/currency.js';
import { printedText, US_CITY_STATE_ZIP, type DocumentHints } from '../hints.js';
import type { DocumentView, ViewToken } from '../view.js';
import type { Candidate } from '../label-search.js';

/**
 * The document's currency: codes and symbols printed with amounts or alone vote; without any, cues of
 * the country (a VAT id's prefix, Malaysian company forms, an ABN) or the account's locale decide.
 */
export function findCurrency(
  view: DocumentView,
  hints: DocumentHints,
  amountCurrencies: Array<{ code: string; tokens: ViewToken[] }>,
): Candidate[] {
  const votes = new Map<string, { count: number; tokens: ViewToken[] }>();
  const vote = (code: string, tokens: ViewToken[], weight: number): void => {
    const entry = votes.get(code);
    if (entry) entry.count += weight;
    else votes.set(code, { count: weight, tokens });
  };
  for (const a of amountCurrencies) vote(a.code, a.tokens, 1);
  for (const token of view.tokens) {
    // A currency in a column heading: "Prezzo(€)", "Amount (USD)", "AMT(RM)".
    const headed = /\((€|£|¥|[A-Z]{2,3})\)/.exec(token.text)?.[1];
    const headedCode = headed ? parseCurrency(headed) : undefined;
    if (headedCode) vote(headedCode, [token], 0.7);
    // Codes and unambiguous symbols standing alone ("EUR", "€", "RM").
    if (token.text.length > 4 || /\d/.test(token.text)) continue;
    const code = parseCurrency(token.text);
    if (
      code &&
      (token.text.length >= 3 || /[€£¥₹₩₪₫฿₱₦₴₽₺]/.test(token.text) || SHORT_SYMBOLS.has(token.text)) &&
      (!isWordLike(token.text) || besideNumber(view, token)) &&
      // (An abbreviation's period: Turkish "BAGDAT CAD." is a street, not Canadian dollars.)
      (!/^[A-Z]{3}\.$/.test(token.text) || besideNumber(view, token, AMOUNT_TEXT)) &&
      !inLegalForm(view, token)
    )
      vote(code, [token], 0.7);
  }
  const out: Candidate[] = [];
  const total = [...votes.values()].reduce((s, v) => s + v.count, 0);
  for (const [code, v] of votes) {
    const share = v.count / total;
    const score = Math.min(1, 0.5 + 0.5 * share) * Math.min(1, 0.6 + 0.1 * v.count);
    out.push({ value: code, norm: code, quality: 1, tokens: v.tokens, score, source: 'printed' });
  }
  // "$" alone is read as USD; other cues may say which dollar.
  const text = view.text;
  const cue = (code: string, re: RegExp, score: number): void => {
    if (re.test(text) && !votes.has(code))
      out.push({ value: code, norm: code, quality: 1, tokens: [], score, source: 'country-cue' });
  };
  cue('MYR', /\b(sdn\.? ?bhd|berhad|malaysia|selangor|kuala lumpur|johor)\b/, 0.55);
  cue('AUD', /\babn\b|\bgst\b.*\baustralia|\baustralia\b/, 0.4);
  cue(
    'EUR',
    // (Spain's and Italy's tax numbers too: "C.I.F.", "N.I.F.", "P.IVA", "Partita IVA".)
    /\b(de|fr|nl|be|at|it|es|pt|ie|fi|lu|el|cy|mt|si|sk|ee|lv|lt|hr)\d{8,12}\b|\bust-?id|\btva\b|\bbtw\b|\bmwst\b|\bc\.i\.f\.|\bn\.i\.f\.|\bp\. ?iva\b|\bpartita iva\b/,
    0.45,
  );
  // A country named, its capital or a large city, its tax office or tax id's name: a little more
  // specific than a tax word several countries share ("TVA" is French and Romanian).
  for (const [code, re] of COUNTRY_CUES) cue(code, re, 0.5);
  cue('INR', /\bgstin\b|\brupees\b|\bcgst\b|\bsgst\b|\bigst\b/, 0.5);
  // Addresses tell the country (in the print's own case): a US city, state and ZIP code
  // ("Springfield, IL 62704"), a British postcode ("LS1 4AP"), a Canadian one ("K1A 0B1").
  const printed = printedText(view);
  const printedCue = (code: string, re: RegExp, score: number): void => {
    if (re.test(printed) && !votes.has(code) && !out.some((c) => c.value === code))
      out.push({ value: code, norm: code, quality: 1, tokens: [], score, source: 'country-cue' });
  };
  printedCue('USD', US_CITY_STATE_ZIP, 0.45);
  printedCue('GBP', /\b[A-Z]{1,2}\d[A-Z\d]? \d[ABD-HJLNP-UW-Z]{2}\b|\bGB ?\d{9}\b/, 0.4);
  printedCue('CAD', /\b[ABCEGHJ-NPRSTVXY]\d[ABCEGHJ-NPRSTV-Z] ?\d[ABCEGHJ-NPRSTV-Z]\d\b/, 0.4);
  if (out.length === 0 && hints.localeCurrency)
    out.push({
      value: hints.localeCurrency,
      norm: hints.localeCurrency,
      quality: 1,
      tokens: [],
      score: 0.4,
      source: 'locale',
    });
  // Which dollar, peso or krone a shared sign is: another country's, when the document shows its cues
  // and not the sign's own country's.
  for (const sign of SHARED_SIGNS) {
    const vote = out.find((c) => c.value === sign.read && c.source === 'printed');
    if (!vote || sign.home(text, printed)) continue;
    const other = sign.cues.find(([, re]) => re.test(text))?.[0];
    if (other) vote.value = vote.norm = other;
  }
  return out.sort((a, b) => b.score - a.score);
}

/** Countries whose "kr" is not the Swedish krona, and what in the text says it is theirs. */
const KRONE_CUES: ReadonlyArray<readonly [string, RegExp]> = [
  ['NOK', /\bnok\b|\bmva\b|\bnorge\b|\bnorway\b|\bforetaksregisteret\b/],
  ['DKK', /\bdkk\b|\bcvr\b|\bdanmark\b|\bdenmark\b/],
  ['ISK', /\bisk\b|\bkennitala\b|\biceland\b|\b[ií]sland\b/],
];

/** Symbols of two characters that stand alone for their currency ("4 440 Ft", "TOTAL RM"). */
/**
 * A currency's word that is also a word of running text ("Fr." is Frau, "Lei" the Italian "you"): letters
 * not all capitals. Such a word is a currency only beside a number ("Fr. 120.00", "45,00 lei").
 */
function isWordLike(text: string): boolean {
  return /^\p{L}+\.?$/u.test(text) && text !== text.toUpperCase();
}

/** Malaysia's "Sdn Bhd" (Sendirian Berhad): its "BHD" is no Bahraini dinar. */
function inLegalForm(view: DocumentView, token: ViewToken): boolean {
  const before = view.rows[token.row]!.tokens[token.col - 1];
  return /^bhd\.?$/i.test(token.text) && before !== undefined && /^(sdn|sendirian)\.?$/i.test(before.text);
}

/** An amount printed beside a code ("CAD. 120.00"), or a bare number. */
const AMOUNT_TEXT = /^-?[\d.,' ]*\d[.,]\d{2}$|^\d+$/;

/** Whether the token next to `token` on its row, either side, matches `text` (a digit, unless told). */
function besideNumber(view: DocumentView, token: ViewToken, text = /\d/): boolean {
  const row = view.rows[token.row]!.tokens;
  return [row[token.col - 1], row[token.col + 1]].some((t) => t !== undefined && text.test(t.text));
}

const SHORT_SYMBOLS: ReadonlySet<string> = new Set([
  'RM',
  'Rm',
  'Ft',
  'Rp',
  'S/',
  'zł',
  'Kč',
  'Kc',
  'R$',
  'TL',
]);

/**
 * Countries whose currency has no symbol of its own in print (or shares "$"), and what in the text
 * says the document is theirs: the country's name, its capital or largest cities, the name of its tax
 * id or tax office. Generic geography, not any supplier's words.
 */
const COUNTRY_CUES: ReadonlyArray<readonly [string, RegExp]> = [
  ['RON', /\bromania\b|\bbucure[sș]ti\b|\bcluj\b|\bcod fiscal\b|\bcif:? ?ro\d|\bro\d{2,10}\b/],
  ['HUF', /\bhungary\b|\bmagyarorsz[aá]g\b|\bbudapest\b|\bad[oó]sz[aá]m\b/],
  ['KES', /\bkenya\b|\bnairobi\b|\bmombasa\b|\bkra pin\b|\bm-?pesa\b/],
  ['PHP', /\bphilippines\b|\bmanila\b|\bquezon city\b|\bmakati\b|\bcebu\b|\bbir\b/],
  ['IDR', /\bindonesia\b|\bjakarta\b|\bsurabaya\b|\bnpwp\b/],
  ['THB', /\bthailand\b|\bbangkok\b|\bchiang mai\b/],
  ['VND', /\bviet ?nam\b|\bha ?noi\b|\bho chi minh\b/],
  ['JPY', /\bjapan\b|\btokyo\b|\bosaka\b/],
  ['SGD', /\bsingapore\b|\bpte\.? ?ltd\b/],
  ['KRW', /\bkorea\b|\bseoul\b|\bbusan\b/],
  ['NGN', /\bnigeria\b|\blagos\b|\babuja\b/],
  ['ILS', /\bisrael\b|\btel aviv\b|\bjerusalem\b/],
  ['PEN', /\bper[uú]\b|\blima\b|\bsoles\b/],
  ['CLP', /\bchile\b|\brut\b|\br\.u\.t\b/],
  ['ARS', /\bargentina\b|\bbuenos aires\b|\bcuit\b|\bc\.u\.i\.t\.|\bc\.a\.b\.a\.|\bingresos brutos\b/],
  ['TRY', /\bt[uü]rkiye\b|\bturkey\b|\bistanbul\b|\bankara\b|\bizmir\b|\bvergi dairesi\b|\bkdv\b|\bvkn\b/],
  ['MAD', /\bmaroc\b|\bmorocco\b|\bcasablanca\b|\brabat\b|\bmarrakech\b|\btanger\b|\bagadir\b/],
  ['COP', /\bcolombia\b|\bbogot[aá]\b|\bmedell[ií]n\b/],
  // South Africa: its companies' forms ("(Pty) Ltd", Afrikaans "(Edms) Bpk") and the rand's "R"
  // before an amount ("R 357.53", "R 49 927,20").
  [
    'ZAR',
    /\bsouth africa\b|\bsuid-afrika\b|\bjohannesburg\b|\bcape town\b|\bpretoria\b|\bdurban\b|\(pty\) ltd\b|\(edms\.?\) bpk\b|(?:^|[\s:(])-?r ?\d{1,3}(?:[ ,.]?\d{3})*[.,]\d{2}(?![\d.,])/,
  ],
];

/** Countries whose "$" is not the US dollar, and what in the text says it is theirs. */
const DOLLAR_CUES: ReadonlyArray<readonly [string, RegExp]> = [
  ['AUD', /\babn\b|\baustralia\b/],
  ['CAD', /\bcad\b|\bgst\/hst\b|\bhst\b|\bqst\b|\btvq\b|\brt ?0001\b|\bcanada\b/],
  ['SGD', /\bsgd\b|\bs\$|\bsingapore\b/],
  // (New Zealand's cities, and its GST numbers, eight or nine digits in groups: "GST No: 112-456-783".)
  [
    'NZD',
    /\bnzd\b|\bnew zealand\b|\bauckland\b|\bwellington\b|\bchristchurch\b|\bgst no\.?:? ?\d{2,3}-\d{3}-\d{3}\b/,
  ],
  ['CLP', /\bclp\b|\bchile\b|\brut\b|\br\.u\.t\b|\bboleta\b/],
  ['ARS', /\bars\b|\bargentina\b|\bcuit\b|\bc\.u\.i\.t\.|\bc\.a\.b\.a\.|\bingresos brutos\b/],
  ['COP', /\bcop\b|\bcolombia\b|\bbogot[aá]\b|\bnit[.:]? ?\d{3}\.?\d{3}\.?\d{3}/],
  // Last: "pesos" is Chilean, Argentinian and Colombian too.
  ['MXN', /\bmxn\b|\bm\.n\.|\bpesos\b|\brfc\b|\bm[eé]xico\b/],
];

/**
 * Signs several countries print, the currency each is read as, what says the document is of that
 * currency's own country after all, and the other countries' cues: "$" is USD unless another country's
 * cues show and no US city, state and ZIP code does (a coffee's origin, "Huila, Colombia", on a Portland
 * receipt); "kr" is SEK unless Norway's MVA, Denmark's CVR or Iceland's kennitala shows and Sweden does not.
 */
const SHARED_SIGNS: ReadonlyArray<{
  read: string;
  home: (text: string, printed: string) => boolean;
  cues: ReadonlyArray<readonly [string, RegExp]>;
}> = [
  { read: 'USD', home: (_, printed) => US_CITY_STATE_ZIP.test(printed), cues: DOLLAR_CUES },
  { read: 'SEK', home: (text) => /\bsek\b|\bsverige\b|\bsweden\b|\bse\d{12}\b/.test(text), cues: KRONE_CUES },
];

const CREDIT =
  /\b(credit note|credit memo|gutschrift|rechnungskorrektur|avoir|note de crédit|creditnota|creditfactuur|nota de crédito)\b/;
const STATEMENT = /\b(statement of account|account statement|kontoauszug|relevé de compte)\b/;
const BILL =
  /\b(billing period|supply period|your bill|electricity|gas bill|water bill|abrechnungszeitraum)\b/;
const RECEIPT =
  /\b(receipt|resit|kassenbon|quittung|reçu|ticket de caisse|bon|kassabon|cash bill|change|cashier|tunai)\b/;
const INVOICE = /\b(invoice|rechnung|facture|factuur|fattura|factura)\b/;

/** Whether the document says it is a credit note (in any of the languages of CREDIT). */
export function isCreditNote(view: DocumentView): boolean {
  return CREDIT.test(view.text);
}

/** An invoice's own word, whole ("Rechnung", not "Rechnungskorrektur"). */
const INVOICE_WORD =
  /(?<![\p{L}-])(invoice|rechnung|factuur|facture|factura|fattura|faktura|fatura)(?![\p{L}-])/iu;

/**
 * On a credit note, whether a value's line names the invoice it corrects ("Invoice Date 04/22/2025",
 * "Rechnung Nr. 2025-0218 vom 24.02.2025", "creditering van factuur 2025-1187 d.d. 02-06-2025"): that
 * line's number and date are the original invoice's, not the credit note's.
 */
export function namesOriginalInvoice(view: DocumentView, candidate: Candidate): boolean {
  const first = candidate.tokens[0];
  if (!first) return false;
  const row = view.rows[first.row]!.tokens.map((t) => t.text).join(' ');
  return INVOICE_WORD.test(row) && !CREDIT.test(row.toLowerCase());
}

/** Words of a prepayment deducted on a line ("Less: Advance Paid (Rcpt. ADV/2526/7781 dt. 14-07-2025)"). */
const PREPAYMENT =
  /(?<![\p{L}])(advance|deposit|anzahlung|abschlagszahlung|acompte|anticipo|adiantamento|aanbetaling|voorschot)(?![\p{L}])/iu;

/**
 * Numbers and dates of other documents, their scores halved and their source marked: on a credit
 * note, those of a line naming the invoice it corrects (namesOriginalInvoice, `+original`); on any
 * document, those of a line deducting a prepayment, whose receipt they are (`+prepayment`).
 */
export function ofOtherDocuments(view: DocumentView, candidates: Candidate[], credit: boolean): Candidate[] {
  return candidates.map((c) => {
    if (credit && namesOriginalInvoice(view, c))
      return { ...c, score: c.score * 0.5, source: `${c.source}+original` };
    const first = c.tokens[0];
    if (first && PREPAYMENT.test(view.rows[first.row]!.tokens.map((t) => t.text).join(' ')))
      return { ...c, score: c.score * 0.5, source: `${c.source}+prepayment` };
    return c;
  });
}

/** Which products a request asked for: only receipts, only invoices (or neither), or both. */
export type ExpectedKind = 'receipt' | 'invoice' | 'either';

/** A till roll's shape: a first page much taller than wide. */
function tillShaped(view: DocumentView): boolean {
  const first = view.layer.pages[0];
  return first !== undefined && first.width / first.height < 0.6;
}

/**
 * One of invoice, credit_note, receipt, bill, statement, other. A request for receipts alone reads a
 * receipt unless the page says otherwise; a request for both products goes by the page's own words,
 * and where it says both (a Malaysian till's "TAX INVOICE" above its "CHANGE") or neither, by its shape.
 */
export function findDocumentType(view: DocumentView, expected: ExpectedKind): Candidate[] {
  const text = view.text;
  const make = (value: string, score: number): Candidate => ({
    value,
    norm: value,
    quality: 1,
    tokens: [],
    score,
    source: 'keywords',
  });
  if (CREDIT.test(text)) return [make('credit_note', 0.9)];
  if (STATEMENT.test(text)) return [make('statement', 0.8)];
  if (BILL.test(text)) return [make('bill', 0.7)];
  const saysReceipt = RECEIPT.test(text);
  const saysInvoice = INVOICE.test(text);
  const till = expected === 'either' && tillShaped(view);
  if (expected === 'receipt' || (saysReceipt && (!saysInvoice || till)))
    return [make('receipt', saysReceipt ? 0.85 : 0.7)];
  if (saysInvoice) return [make('invoice', 0.9)];
  return [till ? make('receipt', 0.6) : make('other', 0.4)];
}

const METHODS: Array<[RegExp, string]> = [
  [/\b(visa)\b/, 'visa'],
  [/\b(master ?card|mastercard|mc)\b/, 'mastercard'],
  [/\b(amex|american express)\b/, 'amex'],
  [/\b(eftpos)\b/, 'eftpos'],
  [/\b(debit card|debit)\b/, 'debit card'],
  [/\b(credit card|card)\b/, 'card'],
  [
    /\b(touch ?n ?go|tng|grabpay|boost|e-?wallet|alipay|wechat pay|paypal|apple pay|google pay)\b/,
    'e-wallet',
  ],
  [/\b(cheque)\b/, 'cheque'],
  [/\b(bank transfer|transfer|überweisung|virement)\b/, 'bank transfer'],
  [/\b(cash|tunai|barzahlung|bar bezahlt|espèces|contant)\b/, 'cash'],
];

/** How a receipt was paid, from the tender lines. */
export function findPaymentMethod(view: DocumentView): Candidate[] {
  const out: Candidate[] = [];
  for (const [re, value] of METHODS) {
    const row = view.rows.find((r) => re.test(r.tokens.map((t) => t.key).join(' ')));
    if (row)
      out.push({
        value,
        norm: value,
        quality: 1,
        tokens: row.tokens.filter((t) => re.test(t.key)),
        score: 0.75 - out.length * 0.1,
        source: 'keywords',
      });
  }
  return out;
}
