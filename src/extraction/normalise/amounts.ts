/**
 * Money amounts as printed on invoices and receipts, read into a number and the canonical string
 * (`.` decimal point, no grouping, two decimals unless more are printed: `1234.50`, `-12.00`).
 */
import { matchCurrencyAffix, resolveCurrencyMarkers, type CurrencyMarker } from './currency.js';
import { isAscii } from './text.js';

export interface ParsedAmount {
  value: number;
  /** Plain decimal: `-` sign, `.` point, no grouping, at least two decimals (`1234.50`). */
  canonical: string;
  /** ISO 4217 code when a currency symbol or code is printed with the amount. */
  currency?: string;
  /**
   * The printed separators allow two readings (`1,234` is 1234 or 1.234). The hint, or else the
   * thousands reading, chose; this stays true either way so callers can lower their confidence.
   */
  ambiguousSeparator: boolean;
  /** Decimals are printed (`12.00`, not `12` or `12,-`). */
  hasDecimals: boolean;
}

export interface AmountHints {
  /** The document's decimal separator, when known: settles `1,234` and `1.234`. */
  decimalSeparator?: '.' | ',';
}

/** Longer text is not an amount. */
const MAX_LENGTH = 48;
/** Most decimals accepted (unit prices print three or four). */
const MAX_DECIMALS = 4;
/** Most integer digits without grouping for a bare number; longer bare runs are ids or phone numbers. */
const MAX_BARE_DIGITS = 7;
/** Most integer digits without grouping when decimals or a currency mark the text as an amount. */
const MAX_UNGROUPED_DIGITS = 12;
/** Most integer digits with grouping (`999,999,999,999,999`). */
const MAX_GROUPED_DIGITS = 15;

/**
 * Reads an amount: `1.234,56`, `1,234.56`, `1'234.56`, `1 234,56`, `1234`, `12.5`, `-12.00`, `12.00-`,
 * `(12.00)`, `12,-` (a German whole amount), with a currency code or symbol before or after
 * (`€12.00`, `12,00 €`, `EUR 12.00`, `USD1,200.00`, `RM 20. 40`, `A$ 10`, `CHF 1'000.00`, `AUD $10`).
 * OCR's space beside the decimal point (`20. 40`, `20 .40`) is accepted. Indian grouping (`1,23,456.00`)
 * is accepted.
 *
 * A single `.` or `,` followed by exactly three digits (`1,234`) is ambiguous: the hint decides, else it
 * reads as thousands; `ambiguousSeparator` is set in both cases.
 *
 * Returns undefined, never throws, for anything else: dates, times, percentages, phone numbers (bare
 * digit runs over seven digits, leading zeros, groups that are not thousands), other letters, several
 * currencies that disagree, more than four decimals, a bare month and year (`12.2024`).
 */
export function parseAmount(text: string, hints: AmountHints = {}): ParsedAmount | undefined {
  if (text.length === 0 || text.length > MAX_LENGTH || !/\d/.test(text)) return undefined;
  let s = (isAscii(text) ? text.replace(/`/g, "'") : unifyMarks(text)).replace(/\s+/g, ' ').trim();

  // Peel signs, brackets, currency marks and a whole-amount dash off both ends, in any order.
  let negative = false;
  let signSeen = false;
  let wholeDash: string | undefined;
  const markers: CurrencyMarker[] = [];
  for (let guard = 0; guard < 8; guard++) {
    s = s.trim();
    const dash = /([.,])(?:-{1,2}|\u2014)$/.exec(s);
    if (dash && !wholeDash) {
      wholeDash = dash[1];
      s = s.slice(0, dash.index);
      continue;
    }
    if (markers.length < 2) {
      const start = matchCurrencyAffix(s, 'start');
      const affix = start ?? matchCurrencyAffix(s, 'end');
      if (affix) {
        markers.push(affix.marker);
        s = start ? s.slice(affix.length) : s.slice(0, -affix.length);
        continue;
      }
    }
    if (!signSeen) {
      if (s.startsWith('(') && s.endsWith(')')) {
        negative = true;
        signSeen = true;
        s = s.slice(1, -1);
        continue;
      }
      if (s.startsWith('-') || s.startsWith('+')) {
        negative = s.startsWith('-');
        signSeen = true;
        s = s.slice(1);
        continue;
      }
      if (s.endsWith('-')) {
        negative = true;
        signSeen = true;
        s = s.slice(0, -1);
        continue;
      }
    }
    break;
  }

  let currency: string | undefined;
  if (markers.length > 0) {
    currency = resolveCurrencyMarkers(markers);
    if (!currency) return undefined;
  }

  // Digits and separators only (tested first: the replacement below only drops spaces, and most
  // text fails here).
  if (!/^[\d.,' ]+$/.test(s)) return undefined;
  // OCR often puts a space beside the decimal point: `20. 40`, `20 .40`.
  s = s.replace(/ ?([.,]) ?(\d{1,2})$/, '$1$2');
  // `12.2024` is a month and year, not an amount with four decimals (unless a currency says otherwise).
  if (!currency && /^(?:0?[1-9]|1[0-2])[.,](?:19|20)\d{2}$/.test(s)) return undefined;

  const number = readNumber(s, wholeDash, hints, markers.length > 0);
  if (!number) return undefined;
  const { integer, decimals, ambiguous } = number;

  const value = Number(decimals ? `${integer}.${decimals}` : integer);
  const isZero = value === 0;
  const canonical = `${negative && !isZero ? '-' : ''}${integer}.${decimals.padEnd(2, '0')}`;
  return {
    value: negative && !isZero ? -value : value,
    canonical,
    ...(currency ? { currency } : {}),
    ambiguousSeparator: ambiguous,
    hasDecimals: decimals.length > 0,
  };
}

/** NFKC, with typographic apostrophes read as `'` and dashes and minus signs as `-`. */
function unifyMarks(text: string): string {
  return text
    .normalize('NFKC')
    .replace(/[\u2018\u2019\u02BC\u00B4`]/g, "'")
    .replace(/[\u2010-\u2013\u2212\uFE63]/g, '-');
}

interface NumberParts {
  integer: string;
  decimals: string;
  ambiguous: boolean;
}

/** Splits `s` (digits and `.`, `,`, `'`, space only) into integer and decimal digits, or undefined. */
function readNumber(
  s: string,
  wholeDash: string | undefined,
  hints: AmountHints,
  hasCurrency: boolean,
): NumberParts | undefined {
  const parts = s.split(/([.,' ])/);
  const groups = parts.filter((_, i) => i % 2 === 0);
  const seps = parts.filter((_, i) => i % 2 === 1);

  // `.50`: a leading decimal point.
  if (groups[0] === '' && seps.length === 1 && seps[0] !== ' ' && seps[0] !== "'" && !wholeDash) {
    const decimals = groups[1] ?? '';
    return /^\d{1,2}$/.test(decimals) ? { integer: '0', decimals, ambiguous: false } : undefined;
  }
  if (groups.some((group) => !/^\d+$/.test(group))) return undefined;

  let decimalIndex = -1; // index into seps of the decimal separator
  let ambiguous = false;
  const last = seps[seps.length - 1];
  if (wholeDash) {
    // `1.234,-`: the dash stands for the decimals, every separator left is grouping.
    if (seps.includes(wholeDash)) return undefined;
  } else if (last === '.' || last === ',') {
    const lastCount = seps.filter((sep) => sep === last).length;
    const kinds = new Set(seps).size;
    if (lastCount > 1) {
      // `1.234.567` or `1,234,567`: grouping only.
    } else if (kinds > 1) {
      decimalIndex = seps.length - 1;
    } else {
      const first = groups[0] ?? '';
      const lastGroup = groups[groups.length - 1] ?? '';
      if (first !== '0' && lastGroup.length === 3 && first.length <= 3) {
        ambiguous = true;
        if (hints.decimalSeparator === last) decimalIndex = 0;
      } else {
        decimalIndex = 0;
      }
    }
  }

  const decimals = decimalIndex >= 0 ? (groups[groups.length - 1] ?? '') : '';
  const integerGroups = decimalIndex >= 0 ? groups.slice(0, -1) : groups;
  const groupSeps = decimalIndex >= 0 ? seps.slice(0, -1) : seps;
  if (decimals.length > MAX_DECIMALS) return undefined;

  const integer = integerGroups.join('');
  if (integer.length > 1 && integer.startsWith('0')) return undefined;
  if (groupSeps.length === 0) {
    const limit = decimals.length > 0 || hasCurrency || wholeDash ? MAX_UNGROUPED_DIGITS : MAX_BARE_DIGITS;
    if (integer.length > limit) return undefined;
  } else {
    if (new Set(groupSeps).size > 1) return undefined;
    if (integer.length > MAX_GROUPED_DIGITS) return undefined;
    if (!isThousandsGrouping(integerGroups) && !(groupSeps[0] === ',' && isIndianGrouping(integerGroups))) {
      return undefined;
    }
  }
  return { integer, decimals, ambiguous };
}

/** `1`, `234`, `567`: a first group of one to three digits, then groups of three. */
function isThousandsGrouping(groups: readonly string[]): boolean {
  return groups.every((group, i) => (i === 0 ? group.length >= 1 && group.length <= 3 : group.length === 3));
}

/** `1`, `23`, `456`: lakh grouping, groups of two then a last group of three. */
function isIndianGrouping(groups: readonly string[]): boolean {
  if (groups.length < 3) return false;
  return groups.every((group, i) =>
    i === 0 ? group.length <= 2 : i === groups.length - 1 ? group.length === 3 : group.length === 2,
  );
}

/**
 * `value` as a plain decimal with `decimals` places, rounded half away from zero on the printed
 * decimal value (`1.005` gives `1.01`), never `-0.00`. Throws a RangeError for a non-finite value or
 * a `decimals` outside 0..20.
 */
export function formatAmount(value: number, decimals = 2): string {
  if (!Number.isFinite(value)) throw new RangeError(`formatAmount: not a finite number: ${value}`);
  if (!Number.isInteger(decimals) || decimals < 0 || decimals > 20) {
    throw new RangeError(`formatAmount: decimals must be an integer 0..20, got ${decimals}`);
  }
  // Round on the shortest decimal form of the number (1.005, not 1.00499999...).
  const magnitude = Math.abs(value);
  const plain = String(Number(magnitude.toPrecision(15)));
  let text: string;
  if (plain.includes('e')) {
    text = magnitude.toFixed(decimals);
  } else {
    const [whole = '0', fraction = ''] = plain.split('.');
    const digits = BigInt(whole + fraction.padEnd(decimals + 1, '0').slice(0, decimals + 1));
    const rounded = (digits + 5n) / 10n;
    const padded = rounded.toString().padStart(decimals + 1, '0');
    text = decimals > 0 ? `${padded.slice(0, -decimals)}.${padded.slice(-decimals)}` : padded;
  }
  const isZero = /^[0.]*$/.test(text);
  return value < 0 && !isZero ? `-${text}` : text;
}
