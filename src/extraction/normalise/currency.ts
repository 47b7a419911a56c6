/**
 * Currencies: ISO 4217 codes, printed symbols and currency words, and the currency of a locale.
 *
 * Codes are matched in upper case only (`EUR`, not `eur`): lower-case three-letter runs are too often
 * words (`try`, `cad`, `php`). Symbols are matched as printed; words are matched case-insensitively.
 */

/** The ISO 4217 codes accepted as currency codes: the common trading and invoicing currencies. */
export const ISO_CURRENCY_CODES: ReadonlySet<string> = new Set([
  'AED',
  'ARS',
  'AUD',
  'BDT',
  'BGN',
  'BHD',
  'BRL',
  'CAD',
  'CHF',
  'CLP',
  'CNY',
  'COP',
  'CZK',
  'DKK',
  'EGP',
  'EUR',
  'GBP',
  'HKD',
  'HUF',
  'IDR',
  'ILS',
  'INR',
  'ISK',
  'JPY',
  'KES',
  'KRW',
  'KWD',
  'LKR',
  'MXN',
  'MYR',
  'NGN',
  'NOK',
  'NPR',
  'NZD',
  'OMR',
  'PEN',
  'PHP',
  'PKR',
  'PLN',
  'QAR',
  'RON',
  'RSD',
  'RUB',
  'SAR',
  'SEK',
  'SGD',
  'THB',
  'TRY',
  'TWD',
  'UAH',
  'USD',
  'VND',
  'ZAR',
]);

/** Currencies a bare `$` can stand for (dollars and pesos); `$` alone reads USD, a code next to it decides. */
const DOLLARS = ['USD', 'AUD', 'CAD', 'NZD', 'SGD', 'HKD', 'TWD', 'MXN', 'CLP', 'ARS', 'COP'] as const;

interface SymbolInfo {
  /** The ISO code the symbol reads as on its own. */
  code: string;
  /** Other currencies printed with the same symbol: a code next to the symbol may pick one of them. */
  family?: readonly string[];
}

/** Printed symbols and symbol-like abbreviations, matched case-sensitively as printed. */
// Null prototypes (below): a printed "constructor" or "toString" is no currency.
const SYMBOLS: Readonly<Record<string, SymbolInfo>> = withoutPrototype({
  '€': { code: 'EUR' },
  '£': { code: 'GBP' },
  $: { code: 'USD', family: DOLLARS },
  US$: { code: 'USD' },
  A$: { code: 'AUD' },
  AU$: { code: 'AUD' },
  C$: { code: 'CAD' },
  CA$: { code: 'CAD' },
  NZ$: { code: 'NZD' },
  S$: { code: 'SGD' },
  SG$: { code: 'SGD' },
  HK$: { code: 'HKD' },
  NT$: { code: 'TWD' },
  MX$: { code: 'MXN' },
  R$: { code: 'BRL' },
  RM: { code: 'MYR' },
  RMB: { code: 'CNY' },
  'CN¥': { code: 'CNY' },
  '¥': { code: 'JPY', family: ['JPY', 'CNY'] },
  円: { code: 'JPY' },
  '₹': { code: 'INR' },
  Rs: { code: 'INR', family: ['INR', 'PKR', 'LKR', 'NPR'] },
  'Rs.': { code: 'INR', family: ['INR', 'PKR', 'LKR', 'NPR'] },
  Rp: { code: 'IDR' },
  'Rp.': { code: 'IDR' },
  kr: { code: 'SEK', family: ['SEK', 'NOK', 'DKK', 'ISK'] },
  'kr.': { code: 'SEK', family: ['SEK', 'NOK', 'DKK', 'ISK'] },
  Kr: { code: 'SEK', family: ['SEK', 'NOK', 'DKK', 'ISK'] },
  'Kr.': { code: 'SEK', family: ['SEK', 'NOK', 'DKK', 'ISK'] },
  zł: { code: 'PLN' },
  Kč: { code: 'CZK' },
  Kc: { code: 'CZK' },
  Ft: { code: 'HUF' },
  'Fr.': { code: 'CHF' },
  'SFr.': { code: 'CHF' },
  '₩': { code: 'KRW' },
  '₽': { code: 'RUB' },
  '₺': { code: 'TRY' },
  // The Turkish lira as tills and e-Arşiv invoices print it ("814,58 TL").
  TL: { code: 'TRY' },
  '₪': { code: 'ILS' },
  '₫': { code: 'VND' },
  '฿': { code: 'THB' },
  '₱': { code: 'PHP' },
  // The peso as Philippine tills print it without the sign ("TOTAL DUE  Php 389.00").
  Php: { code: 'PHP' },
  '₴': { code: 'UAH' },
  '₦': { code: 'NGN' },
  лв: { code: 'BGN' },
  lei: { code: 'RON' },
  Lei: { code: 'RON' },
  LEI: { code: 'RON' },
  KSh: { code: 'KES' },
  Ksh: { code: 'KES' },
  KSH: { code: 'KES' },
  // The Peruvian sol ("S/ 1,607.80", older "S/. 25.00").
  'S/': { code: 'PEN' },
  'S/.': { code: 'PEN' },
});

/** Currency words and phrases, lower case. */
const WORDS: Readonly<Record<string, string>> = withoutPrototype({
  euro: 'EUR',
  euros: 'EUR',
  dollar: 'USD',
  dollars: 'USD',
  'us dollar': 'USD',
  'us dollars': 'USD',
  'u.s. dollars': 'USD',
  'australian dollar': 'AUD',
  'australian dollars': 'AUD',
  'canadian dollar': 'CAD',
  'canadian dollars': 'CAD',
  'new zealand dollar': 'NZD',
  'new zealand dollars': 'NZD',
  'singapore dollar': 'SGD',
  'singapore dollars': 'SGD',
  'hong kong dollar': 'HKD',
  'hong kong dollars': 'HKD',
  ringgit: 'MYR',
  'ringgit malaysia': 'MYR',
  pound: 'GBP',
  pounds: 'GBP',
  sterling: 'GBP',
  'pound sterling': 'GBP',
  'pounds sterling': 'GBP',
  'british pound': 'GBP',
  'british pounds': 'GBP',
  yen: 'JPY',
  yuan: 'CNY',
  renminbi: 'CNY',
  rupee: 'INR',
  rupees: 'INR',
  'indian rupee': 'INR',
  'indian rupees': 'INR',
  rupiah: 'IDR',
  'swiss franc': 'CHF',
  'swiss francs': 'CHF',
  franken: 'CHF',
  'schweizer franken': 'CHF',
  'franc suisse': 'CHF',
  'francs suisses': 'CHF',
  złoty: 'PLN',
  zloty: 'PLN',
  złotych: 'PLN',
  zlotych: 'PLN',
  krona: 'SEK',
  kronor: 'SEK',
  'swedish krona': 'SEK',
  'swedish kronor': 'SEK',
  'norwegian krone': 'NOK',
  'norwegian kroner': 'NOK',
  'danish krone': 'DKK',
  'danish kroner': 'DKK',
  forint: 'HUF',
  koruna: 'CZK',
  baht: 'THB',
  rand: 'ZAR',
  dirham: 'AED',
  dirhams: 'AED',
  shekel: 'ILS',
  shekels: 'ILS',
  naira: 'NGN',
  soles: 'PEN',
  'kenya shillings': 'KES',
  'pesos chilenos': 'CLP',
  'pesos argentinos': 'ARS',
  'pesos colombianos': 'COP',

  reais: 'BRL',
  hryvnia: 'UAH',
  rubles: 'RUB',
  roubles: 'RUB',
});

/** A currency marker found in text: a code, or a symbol with the currencies it may stand for. */
export interface CurrencyMarker {
  code: string;
  /** True for an ISO code as printed, which outranks a shared symbol next to it (`AUD $`). */
  isCode: boolean;
  family?: readonly string[];
}

/** A lookup table without Object.prototype: only its own keys are found. */
function withoutPrototype<T>(entries: Record<string, T>): Readonly<Record<string, T>> {
  return Object.assign(Object.create(null) as Record<string, T>, entries);
}

function markerFor(token: string): CurrencyMarker | undefined {
  if (ISO_CURRENCY_CODES.has(token)) return { code: token, isCode: true };
  const symbol = SYMBOLS[token];
  if (symbol)
    return { code: symbol.code, isCode: false, ...(symbol.family ? { family: symbol.family } : {}) };
  return undefined;
}

/** All affixes (codes and symbols), longest first so `A$` wins over `$` and `RMB` over `RM`. */
const AFFIXES: readonly string[] = [...ISO_CURRENCY_CODES, ...Object.keys(SYMBOLS)].sort(
  (a, b) => b.length - a.length,
);

/** AFFIXES grouped by a character, each group in AFFIXES order. */
function affixesBy(char: (affix: string) => string): ReadonlyMap<string, readonly string[]> {
  const groups = new Map<string, string[]>();
  for (const affix of AFFIXES) {
    const group = groups.get(char(affix));
    if (group) group.push(affix);
    else groups.set(char(affix), [affix]);
  }
  return groups;
}

/** An affix at the start of a text begins with the text's first character: only those are tried. */
const AFFIXES_BY_FIRST = affixesBy((affix) => affix.charAt(0));
/** And one at its end ends with its last character. */
const AFFIXES_BY_LAST = affixesBy((affix) => affix.charAt(affix.length - 1));

const LETTER = /\p{L}/u;

/**
 * A currency code or symbol at the start (`'start'`) or end (`'end'`) of `text`, as used around amounts.
 * A code or lettered symbol must not run into further letters (`RMX` is not `RM`).
 */
export function matchCurrencyAffix(
  text: string,
  where: 'start' | 'end',
): { marker: CurrencyMarker; length: number } | undefined {
  const candidates =
    where === 'start'
      ? AFFIXES_BY_FIRST.get(text.charAt(0))
      : AFFIXES_BY_LAST.get(text.charAt(text.length - 1));
  for (const affix of candidates ?? []) {
    if (where === 'start') {
      if (!text.startsWith(affix)) continue;
      const next = text.charAt(affix.length);
      if (LETTER.test(affix.charAt(affix.length - 1)) && LETTER.test(next)) continue;
    } else {
      if (!text.endsWith(affix)) continue;
      const previous = text.charAt(text.length - affix.length - 1);
      if (LETTER.test(affix.charAt(0)) && LETTER.test(previous)) continue;
    }
    const marker = markerFor(affix);
    if (marker) return { marker, length: affix.length };
  }
  return undefined;
}

/**
 * One currency from several markers printed together, or undefined when they disagree. A code picks
 * among a shared symbol's currencies (`AUD $` is AUD, `NOK kr` is NOK); otherwise all must agree.
 */
export function resolveCurrencyMarkers(markers: readonly CurrencyMarker[]): string | undefined {
  let result: CurrencyMarker | undefined;
  for (const marker of markers) {
    if (!result || result.code === marker.code) {
      result = result?.isCode ? result : marker;
      continue;
    }
    if (result.isCode && !marker.isCode && marker.family?.includes(result.code)) continue;
    if (marker.isCode && !result.isCode && result.family?.includes(marker.code)) {
      result = marker;
      continue;
    }
    return undefined;
  }
  return result?.code;
}

function lookup(phrase: string): CurrencyMarker | undefined {
  const marker = markerFor(phrase);
  if (marker) return marker;
  const word = WORDS[phrase.toLowerCase()];
  return word ? { code: word, isCode: true } : undefined;
}

/** Most tokens a phrase may have; longer text is not a currency phrase. */
const MAX_PHRASE_TOKENS = 5;

/**
 * The ISO 4217 code of a currency token or short phrase: a code (`EUR`), a symbol (`€`, `A$`, `RM`, `kr`)
 * or words (`euros`, `Australian dollars`, `ringgit`). In a phrase of up to five tokens every currency
 * mentioned must agree (`AUD $` is AUD, `EUR / USD` is undefined).
 */
export function parseCurrency(text: string): string | undefined {
  if (text.length === 0 || text.length > 60) return undefined;
  const phrase = text.normalize('NFKC').replace(/\s+/g, ' ').trim();
  const whole = lookup(phrase) ?? lookup(phrase.replace(/^[([]+|[)\]:,;.]+$/g, ''));
  if (whole) return whole.code;

  const tokens = phrase
    .split(' ')
    .map((token) => token.replace(/^[([]+|[)\]:,;/]+$/g, ''))
    .filter((token) => token.length > 0);
  if (tokens.length < 2 || tokens.length > MAX_PHRASE_TOKENS) return undefined;
  const markers: CurrencyMarker[] = [];
  for (let i = 0; i < tokens.length;) {
    let taken = 0;
    // Longest run of tokens first: `Australian dollars` before `dollars`.
    for (let n = Math.min(3, tokens.length - i); n >= 1 && taken === 0; n--) {
      const marker = lookup(tokens.slice(i, i + n).join(' '));
      if (marker) {
        markers.push(marker);
        taken = n;
      }
    }
    i += taken || 1;
  }
  return markers.length > 0 ? resolveCurrencyMarkers(markers) : undefined;
}

const EURO_AREA = [
  'AT',
  'BE',
  'BG',
  'CY',
  'DE',
  'EE',
  'ES',
  'FI',
  'FR',
  'GR',
  'HR',
  'IE',
  'IT',
  'LT',
  'LU',
  'LV',
  'MT',
  'NL',
  'PT',
  'SI',
  'SK',
  'AD',
  'MC',
  'SM',
  'VA',
  'ME',
  'XK',
];

/** Region (ISO 3166 alpha-2, upper case) to its currency. */
const REGION_CURRENCY: Readonly<Record<string, string>> = {
  ...Object.fromEntries(EURO_AREA.map((region) => [region, 'EUR'])),
  GB: 'GBP',
  IM: 'GBP',
  JE: 'GBP',
  GG: 'GBP',
  US: 'USD',
  PR: 'USD',
  EC: 'USD',
  AU: 'AUD',
  NZ: 'NZD',
  CA: 'CAD',
  CH: 'CHF',
  LI: 'CHF',
  MY: 'MYR',
  SG: 'SGD',
  IN: 'INR',
  HK: 'HKD',
  JP: 'JPY',
  CN: 'CNY',
  KR: 'KRW',
  TW: 'TWD',
  ID: 'IDR',
  TH: 'THB',
  PH: 'PHP',
  VN: 'VND',
  SE: 'SEK',
  NO: 'NOK',
  DK: 'DKK',
  IS: 'ISK',
  PL: 'PLN',
  CZ: 'CZK',
  HU: 'HUF',
  RO: 'RON',
  RS: 'RSD',
  RU: 'RUB',
  UA: 'UAH',
  TR: 'TRY',
  IL: 'ILS',
  AE: 'AED',
  SA: 'SAR',
  QA: 'QAR',
  KW: 'KWD',
  BH: 'BHD',
  OM: 'OMR',
  EG: 'EGP',
  ZA: 'ZAR',
  NG: 'NGN',
  KE: 'KES',
  PK: 'PKR',
  LK: 'LKR',
  BD: 'BDT',
  NP: 'NPR',
  BR: 'BRL',
  MX: 'MXN',
  AR: 'ARS',
  CL: 'CLP',
  CO: 'COP',
  PE: 'PEN',
};

/**
 * The currency of a locale's region: `en-AU` AUD, `de-DE` EUR, `de-CH` CHF, `ms-MY` MYR; also POSIX
 * forms (`en_GB.UTF-8`) and script subtags (`zh-Hant-TW`). A Unicode `-u-cu-` extension wins
 * (`de-CH-u-cu-eur` is EUR). A language without a region (`fr`) is undefined: it spans several currencies.
 */
export function currencyFromLocale(locale: string): string | undefined {
  if (locale.length === 0 || locale.length > 60) return undefined;
  const tag = locale.trim().replace(/[.@].*$/, '');
  const subtags = tag.split(/[-_]/);
  const extension = subtags.findIndex((subtag) => subtag.toLowerCase() === 'u');
  if (extension > 0) {
    const cu = subtags.findIndex((subtag, i) => i > extension && subtag.toLowerCase() === 'cu');
    const code = cu > 0 ? subtags[cu + 1]?.toUpperCase() : undefined;
    if (code && /^[A-Z]{3}$/.test(code)) return code;
  }
  const end = extension > 0 ? extension : subtags.length;
  if (!/^[a-z]{2,3}$/i.test(subtags[0] ?? '')) return undefined;
  for (let i = 1; i < end; i++) {
    const subtag = subtags[i] ?? '';
    if (/^[a-z]{2}$/i.test(subtag)) return REGION_CURRENCY[subtag.toUpperCase()];
  }
  return undefined;
}
