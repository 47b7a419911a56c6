import type { FieldKind } from '../products/types.js';
import { parseAmount } from './normalise/amounts.js';
import { parseCurrency } from './normalise/currency.js';
import { parseDate, type DateOrder } from './normalise/dates.js';
import {
  normaliseAbn,
  normaliseBic,
  normaliseBsb,
  normaliseIban,
  normaliseVatId,
  parseBpayBiller,
  parseBpayCrn,
} from './normalise/ids.js';
import { mayHoldDigits, normaliseText } from './normalise/text.js';

/** What a finder learned about the document that decides how to read values. */
export interface ReadingHints {
  dateOrder?: DateOrder;
  /** The date order was seen in the document (a day above 12), not assumed. */
  dateOrderSeen?: boolean;
  decimalSeparator?: '.' | ',';
}

/** A value read from printed text: canonical string, typed value, and how clean the reading was (0..1). */
export interface ReadValue {
  value: string;
  norm: string | number;
  /** 1 for an unambiguous, complete reading; lower when the text allowed other readings. */
  quality: number;
  /** The currency printed with an amount, if any. */
  currency?: string;
}

export type Reader = (text: string, hints: ReadingHints) => ReadValue | undefined;

const amount: Reader = (printed, hints) => {
  const options = hints.decimalSeparator ? { decimalSeparator: hints.decimalSeparator } : {};
  // The end of a parenthesis opened before the amount ("(10% tax ¥1,486)") is not the amount's.
  const closed = /\)\s*$/.test(printed) && !printed.includes('(') ? printed.replace(/\)\s*$/, '') : printed;
  // Turkish tills mark every amount with an asterisk before it ("TOPKDV *63,59").
  const text = closed.replace(/^\*(?=\d)/, '');
  let parsed = parseAmount(text, options);
  let repaired = false;
  // One printed word with a letter OCR confused for a digit ("RMO.00", "2l.50").
  if (!parsed && !/\s/.test(text.trim()) && /\d[.,]|[.,]\d/.test(text)) {
    const fixed = text.replace(
      /^([A-Za-z$€£]{0,3})(.*)$/,
      (_, prefix: string, rest: string) =>
        prefix +
        rest
          .replace(/[OoDQ]/g, '0')
          .replace(/[lI|]/g, '1')
          .replace(/[Ss]/g, '5'),
    );
    if (fixed !== text) {
      parsed = parseAmount(fixed, options);
      repaired = parsed !== undefined;
    }
  }
  if (!parsed) return undefined;
  let quality = parsed.hasDecimals ? (repaired ? 0.8 : 1) : 0.6;
  // ".30" or ",50" without the units: a misread amount more often than a price under one unit. (Not
  // a currency's abbreviation with its dot: "Rs.1,921.00".)
  if (/^[^\d\p{L}]*[.,]\d/u.test(text.trim())) quality *= 0.5;
  if (parsed.ambiguousSeparator && !hints.decimalSeparator) quality *= 0.8;
  return {
    value: parsed.canonical,
    norm: parsed.value,
    quality,
    ...(parsed.currency ? { currency: parsed.currency } : {}),
  };
};

/** Letters OCR confuses with digits, read back as the digits they stand for in a numeric field. */
const DIGIT_LOOKALIKES: Record<string, string> = {
  O: '0',
  o: '0',
  D: '0',
  Q: '0',
  l: '1',
  I: '1',
  '|': '1',
  i: '1',
  S: '5',
  s: '5',
  B: '8',
  Z: '2',
  z: '2',
  g: '9',
};

/** The text with look-alike letters read as digits, when it is mostly digits already; else undefined. */
function digitsFromLookalikes(text: string): string | undefined {
  // Counted in one pass without arrays: this runs on nearly every word a date is looked for in.
  let digits = 0;
  let lookalikes = 0;
  for (const c of text) {
    if (c >= '0' && c <= '9') digits++;
    else if (c in DIGIT_LOOKALIKES) lookalikes++;
  }
  if (lookalikes === 0 || lookalikes > 2 || digits < 4) return undefined;
  return [...text].map((c) => DIGIT_LOOKALIKES[c] ?? c).join('');
}

/** A numeric date inside longer text (`Date:21/05/2018Time: 11:12`). */
const EMBEDDED_DATE = /(?<!\d)(\d{1,2}[/.-]\d{1,2}[/.-](?:\d{4}|\d{2})|\d{4}[/.-]\d{1,2}[/.-]\d{1,2})(?!\d)/;

const date: Reader = (text, hints) => {
  const order = hints.dateOrder ? { order: hints.dateOrder } : {};
  let parsed = parseDate(text, order);
  let quality = 1;
  // Repairs apply to one printed word only: across words they would swallow neighbours.
  if (!parsed && !/\s/.test(text.trim())) {
    const embedded = EMBEDDED_DATE.exec(text)?.[1];
    const fixed = digitsFromLookalikes(text);
    parsed =
      (embedded ? parseDate(embedded, order) : undefined) ?? (fixed ? parseDate(fixed, order) : undefined);
    quality = 0.85;
  }
  if (!parsed) return undefined;
  const year = Number(parsed.iso.slice(0, 4));
  // Documents are dated within a plausible window; far years are misreadings.
  if (year < 1990 || year > 2100) return undefined;
  return {
    value: parsed.iso,
    norm: parsed.iso,
    quality: quality * (parsed.ambiguous ? (hints.dateOrderSeen ? 0.95 : 0.6) : 1),
  };
};

/** An amount with a currency's sign or code before it ("RM30.00", "S$12.50", "EUR1,234.00"). */
const MONEY =
  /^(?:rm|rs\.?|s\$|us\$|a\$|c\$|\$|€|£|eur|usd|gbp|chf|inr|myr|sgd|aud|cad)(?:\d{1,3}(?:[.,]\d{3})+|\d+)[.,]\d{2}$/i;

/** References: invoice, receipt and order numbers. Must hold a digit, no spaces once joined. */
const reference: Reader = (text) => {
  const compact = text.replace(/\s+/g, '').replace(/^[#:.\-–]+|[.,;:]+$/g, '');
  if (compact.length < 3 || compact.length > 30 || !/\d/.test(compact)) return undefined;
  if (!/^[\p{L}\p{N}][\p{L}\p{N}\-/._#_]*$/u.test(compact)) return undefined;
  // A date or a money amount is not a reference. (Eight digits alone are a number that reads as a
  // date, "Fakturanr. 20250412", not a date printed so.)
  // (Amounts printed without thousands separators too: "963410.00"; with their currency, "RM30.00"
  // in "Lost ticket: RM30.00 per entry".) Nor is a word and a date: "THRU 06/14/2024", the last day
  // of returns after a receipt's "RETURNS WITH RECEIPT".
  const words = text.trim().split(/\s+/);
  if (
    (parseDate(text) && !/^\d{8}$/.test(compact)) ||
    /^\d{1,3}([.,]\d{3})*[.,]\d{2}$/.test(compact) ||
    /^\d+[.,]\d{2}$/.test(compact) ||
    MONEY.test(compact) ||
    (words.length > 1 && words.some((w) => /\d/.test(w) && parseDate(w) && !/^\d{8}$/.test(w)))
  )
    return undefined;
  const letters = (compact.match(/\p{L}/gu) ?? []).length;
  const quality = letters > compact.length * 0.7 ? 0.4 : 1;
  return { value: compact, norm: compact, quality };
};

const integer: Reader = (text) => {
  const m = /^\s*(\d{1,4})\s*(days?|tage|jours|dagen)?\s*$/i.exec(text);
  if (!m) return undefined;
  return { value: String(Number(m[1])), norm: Number(m[1]), quality: 1 };
};

const currency: Reader = (text) => {
  const code = parseCurrency(text.trim());
  return code ? { value: code, norm: code, quality: 1 } : undefined;
};

const abn: Reader = (text) => {
  const value = normaliseAbn(text);
  return value ? { value, norm: value, quality: 1 } : undefined;
};

const taxId: Reader = (whole) => {
  // VAT ids, ABNs and registration numbers all hold digits.
  if (!mayHoldDigits(whole)) return undefined;
  // A number's label before it is no part of it ("No. 812345676 RT0001", "Nr.: 143/220/50187"); nor is
  // another label's abbreviation a spaced dash sets off after it ("06284310486  -  C.F. BLLMRC78C14D612X").
  const text = whole
    .replace(/^\s*(?:no|nr|n°|nº|#)\s*[.:]\s*(?=\d)/i, '')
    .replace(/\s+[-–]\s+\p{L}+\..*$/su, '');
  const vat = normaliseVatId(text);
  if (vat) return { value: vat.value, norm: vat.value, quality: 1 };
  const abnValue = normaliseAbn(text);
  if (abnValue) return { value: abnValue, norm: abnValue, quality: 0.9 };
  // Registration numbers without a recognisable format (older GST numbers and the like); a word
  // before a number is no part of it ("identifier DE123...").
  if (text.split(/\s+/).some((w) => /\p{L}{3}/u.test(w) && !/\d/.test(w))) return undefined;
  // An amount with its thousands grouped ("15.950.000", "1,234,567.00"), or with its currency ("R 211
  // 550.00", beside "Sub Total (Excl. VAT)"), is no id.
  if (/^\d{1,3}([.,]\d{3})+([.,]\d{2})?$/.test(text.trim())) return undefined;
  if (
    /^(?:(?:[A-Z]{1,3}\$?|[€£$¥])\s?\d{1,3}(?:[\s.,]\d{3})*|\d{1,3}(?:[\s.,]\d{3})+)[.,]\d{2}$/.test(
      text.trim(),
    )
  )
    return undefined;
  // Words of another label before the number ("P.IVA e C.F. 02184060024": "e C.F."), an abbreviation
  // with its dots or a lower-case word, are no part of it.
  const words = text.trim().split(/\s+/);
  const firstNumber = words.findIndex((w) => /\d/.test(w));
  const lead = words.slice(0, Math.max(0, firstNumber));
  const own = lead.some((w) => /\./.test(w) || /^\p{Ll}/u.test(w))
    ? words.slice(firstNumber).join(' ')
    : text;
  // Dots between a number's digit groups stay, as printed, where a dash or slash sets off its check
  // digits or branch too (`23.456.789/0001-95`, `76.321.458-3`): such ids are known by that form.
  const dotted = /\d\.\d{3}.*[-/]\d/.test(own);
  const compact = own.replace(dotted ? /\s|\.(?!\d)/g : /[\s.]/g, '').replace(/[-/]+$/, '');
  if (/^[A-Z0-9][A-Z0-9\-/.]{6,22}$/i.test(compact) && (compact.match(/\d/g) ?? []).length >= 6) {
    return { value: compact.toUpperCase(), norm: compact.toUpperCase(), quality: 0.5 };
  }
  return undefined;
};

/** India's PAN: five letters, four digits, a check letter ("BQRPR4417K"). */
export const pan: Reader = (text) => {
  const compact = text.replace(/\s+/g, '').toUpperCase();
  return /^[A-Z]{3}[ABCFGHLJPT][A-Z]\d{4}[A-Z]$/.test(compact)
    ? { value: compact, norm: compact, quality: 1 }
    : undefined;
};

const iban: Reader = (text) => {
  // The punctuation of the sentence it ends ("... IBAN SI56 0702 1000 1284 796, BIC ...") is no part.
  const value = normaliseIban(text.replace(/[.,;:]+$/, ''));
  return value ? { value, norm: value, quality: 1 } : undefined;
};

const bic: Reader = (text) => {
  const value = normaliseBic(text.trim().toUpperCase());
  return value ? { value, norm: value, quality: 1 } : undefined;
};

const bsb: Reader = (text) => {
  const value = normaliseBsb(text);
  return value ? { value, norm: value, quality: 1 } : undefined;
};

const bankAccount: Reader = (text) => {
  const compact = text.replace(/[\s-]/g, '');
  if (!/^\d{6,12}$/.test(compact)) return undefined;
  return { value: compact, norm: compact, quality: 0.9 };
};

const bpayBiller: Reader = (text) => {
  const parsed = parseBpayBiller(text);
  return parsed
    ? { value: parsed.value, norm: parsed.value, quality: parsed.checksumValid ? 1 : 0.7 }
    : undefined;
};

const bpayCrn: Reader = (text) => {
  const parsed = parseBpayCrn(text);
  return parsed
    ? { value: parsed.value, norm: parsed.value, quality: parsed.checksumValid ? 1 : 0.7 }
    : undefined;
};

const plainText: Reader = (text) => {
  const value = normaliseText(text);
  return value.length >= 2 ? { value, norm: value, quality: 1 } : undefined;
};

export const READERS: Partial<Record<FieldKind, Reader>> = {
  amount,
  date,
  reference,
  integer,
  currency,
  abn,
  taxId,
  iban,
  bic,
  bsb,
  bankAccount,
  bpayBiller,
  bpayCrn,
  text: plainText,
};
