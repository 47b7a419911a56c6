/**
 * Business and payment identifiers: ABN, IBAN, BIC, VAT ids, BSB, BPAY biller codes and CRNs.
 * Each returns the canonical form, or undefined (never throws) when the text is not a valid id.
 */
import { isAscii, mayHoldDigits } from './text.js';

/** NFKC, dashes unified, upper case untouched (ASCII text is all that already). */
function prepare(text: string): string {
  return isAscii(text) ? text : text.normalize('NFKC').replace(/[\u2010-\u2013\u2212]/g, '-');
}

/**
 * ASCII text with a character `outside` matches: NFKC and upper case leave such text as it is, so an
 * id of an alphabet without that character cannot be read from it. Most spans fail this quickly.
 */
function asciiBeyond(text: string, outside: RegExp): boolean {
  return isAscii(text) && outside.test(text);
}

function removeSpaces(text: string): string {
  return text.replace(/\s+/g, '');
}

// ---------------------------------------------------------------------------------------------------
// Luhn / BPAY MOD10V1

/** Luhn check over a string of at least two digits; false for anything else. */
export function isLuhnValid(digits: string): boolean {
  if (!/^\d{2,}$/.test(digits)) return false;
  let sum = 0;
  let double = false;
  for (let i = digits.length - 1; i >= 0; i--) {
    let d = digits.charCodeAt(i) - 48;
    if (double) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
    double = !double;
  }
  return sum % 10 === 0;
}

/** BPAY's MOD10V1: the Luhn check over the whole number, check digit included. */
export function isMod10v1Valid(digits: string): boolean {
  return isLuhnValid(digits);
}

export interface BpayNumber {
  value: string;
  /** MOD10V1 (Luhn) passes. Not every real biller code or CRN carries that check digit. */
  checksumValid: boolean;
}

function parseBpayDigits(text: string, min: number, max: number): BpayNumber | undefined {
  if (text.length > 64) return undefined;
  const value = removeSpaces(prepare(text));
  if (value.length < min || value.length > max || !/^\d+$/.test(value)) return undefined;
  return { value, checksumValid: isLuhnValid(value) };
}

/** A BPAY biller code: 3 to 10 digits, spaces ignored. */
export function parseBpayBiller(text: string): BpayNumber | undefined {
  return parseBpayDigits(text, 3, 10);
}

/** A BPAY customer reference number: 2 to 20 digits, spaces ignored. */
export function parseBpayCrn(text: string): BpayNumber | undefined {
  return parseBpayDigits(text, 2, 20);
}

// ---------------------------------------------------------------------------------------------------
// ABN, BSB

const ABN_WEIGHTS = [10, 1, 3, 5, 7, 9, 11, 13, 15, 17, 19] as const;

/** An Australian Business Number: 11 digits (spaces allowed) passing the mod-89 check, as 11 digits. */
export function normaliseAbn(text: string): string | undefined {
  if (text.length > 32 || !mayHoldDigits(text) || asciiBeyond(text, /[^\d\s]/)) return undefined;
  const digits = removeSpaces(prepare(text));
  if (!/^[1-9]\d{10}$/.test(digits)) return undefined;
  let sum = 0;
  for (let i = 0; i < 11; i++) {
    const d = digits.charCodeAt(i) - 48 - (i === 0 ? 1 : 0);
    sum += d * (ABN_WEIGHTS[i] ?? 0);
  }
  return sum % 89 === 0 ? digits : undefined;
}

/** An Australian BSB: `123-456`, `123 456` or `123456`, as `123-456`. */
export function normaliseBsb(text: string): string | undefined {
  const m = /^(\d{3})(?:-| ?)(\d{3})$/.exec(prepare(text).trim());
  return m ? `${m[1]}-${m[2]}` : undefined;
}

// ---------------------------------------------------------------------------------------------------
// IBAN, BIC

/** IBAN length by country (SWIFT IBAN registry). */
export const IBAN_LENGTHS: Readonly<Record<string, number>> = {
  AD: 24,
  AE: 23,
  AL: 28,
  AT: 20,
  AZ: 28,
  BA: 20,
  BE: 16,
  BG: 22,
  BH: 22,
  BI: 27,
  BR: 29,
  BY: 28,
  CH: 21,
  CR: 22,
  CY: 28,
  CZ: 24,
  DE: 22,
  DJ: 27,
  DK: 18,
  DO: 28,
  EE: 20,
  EG: 29,
  ES: 24,
  FI: 18,
  FK: 18,
  FO: 18,
  FR: 27,
  GB: 22,
  GE: 22,
  GI: 23,
  GL: 18,
  GR: 27,
  GT: 28,
  HN: 28,
  HR: 21,
  HU: 28,
  IE: 22,
  IL: 23,
  IQ: 23,
  IS: 26,
  IT: 27,
  JO: 30,
  KW: 30,
  KZ: 20,
  LB: 28,
  LC: 32,
  LI: 21,
  LT: 20,
  LU: 20,
  LV: 21,
  LY: 25,
  MC: 27,
  MD: 24,
  ME: 22,
  MK: 19,
  MN: 20,
  MR: 27,
  MT: 31,
  MU: 30,
  NI: 28,
  NL: 18,
  NO: 15,
  OM: 23,
  PK: 24,
  PL: 28,
  PS: 29,
  PT: 25,
  QA: 29,
  RO: 24,
  RS: 22,
  RU: 33,
  SA: 24,
  SC: 31,
  SD: 18,
  SE: 24,
  SI: 19,
  SK: 24,
  SM: 27,
  SO: 23,
  ST: 25,
  SV: 28,
  TL: 23,
  TN: 24,
  TR: 26,
  UA: 29,
  VA: 22,
  VG: 24,
  XK: 20,
  YE: 30,
};

/** `text` (digits and upper-case letters, A=10 ... Z=35) modulo 97. */
function mod97(text: string): number {
  let remainder = 0;
  for (const char of text) {
    const code = char.charCodeAt(0);
    if (code >= 48 && code <= 57) remainder = (remainder * 10 + (code - 48)) % 97;
    else remainder = (remainder * 100 + (code - 55)) % 97;
  }
  return remainder;
}

/** An IBAN, spaces allowed, any case: upper case without spaces when the length and mod-97 check pass. */
export function normaliseIban(text: string): string | undefined {
  if (text.length > 64 || !mayHoldDigits(text) || asciiBeyond(text, /[^A-Za-z0-9\s]/)) return undefined;
  const iban = removeSpaces(prepare(text)).toUpperCase();
  if (!/^[A-Z]{2}\d{2}[A-Z0-9]+$/.test(iban)) return undefined;
  if (IBAN_LENGTHS[iban.slice(0, 2)] !== iban.length) return undefined;
  return mod97(iban.slice(4) + iban.slice(0, 4)) === 1 ? iban : undefined;
}

/** ISO 3166-1 alpha-2 codes, and XK (Kosovo) as used by banks. */
const COUNTRIES: ReadonlySet<string> = new Set(
  (
    'AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI BJ BL BM BN BO BQ BR BS BT ' +
    'BV BW BY BZ CA CC CD CF CG CH CI CK CL CM CN CO CR CU CV CW CX CY CZ DE DJ DK DM DO DZ EC EE EG EH ' +
    'ER ES ET FI FJ FK FM FO FR GA GB GD GE GF GG GH GI GL GM GN GP GQ GR GS GT GU GW GY HK HM HN HR HT ' +
    'HU ID IE IL IM IN IO IQ IR IS IT JE JM JO JP KE KG KH KI KM KN KP KR KW KY KZ LA LB LC LI LK LR LS ' +
    'LT LU LV LY MA MC MD ME MF MG MH MK ML MM MN MO MP MQ MR MS MT MU MV MW MX MY MZ NA NC NE NF NG NI ' +
    'NL NO NP NR NU NZ OM PA PE PF PG PH PK PL PM PN PR PS PT PW PY QA RE RO RS RU RW SA SB SC SD SE SG ' +
    'SH SI SJ SK SL SM SN SO SR SS ST SV SX SY SZ TC TD TF TG TH TJ TK TL TM TN TO TR TT TV TW TZ UA UG ' +
    'UM US UY UZ VA VC VE VG VI VN VU WF WS YE YT ZA ZM ZW XK'
  ).split(' '),
);

/**
 * A BIC (SWIFT code): `AAAABBCC` or `AAAABBCCDDD`, bank code letters, BB an ISO country code, location
 * and branch letters or digits; spaces allowed. Upper case only: BICs are printed in capitals, and
 * accepting lower case would let ordinary eight- and eleven-letter words through.
 */
export function normaliseBic(text: string): string | undefined {
  if (text.length > 32) return undefined;
  const bic = removeSpaces(prepare(text));
  const m = /^[A-Z]{4}([A-Z]{2})[A-Z0-9]{2}(?:[A-Z0-9]{3})?$/.exec(bic);
  return m && COUNTRIES.has(m[1] ?? '') ? bic : undefined;
}

// ---------------------------------------------------------------------------------------------------
// VAT and tax registration ids

export interface VatId {
  /** ISO 3166-1 alpha-2 country of the id (GR for an `EL` id, GB for `XI`). */
  country: string;
  /** The id with its country prefix, without spaces, dots or dashes except where the format keeps them. */
  value: string;
}

/** Belgium: the last two digits are 97 minus the first eight modulo 97. */
function isBelgianVatValid(body: string): boolean {
  return 97 - (Number(body.slice(0, 8)) % 97) === Number(body.slice(8));
}

/** France: a numeric key is (12 + 3 × (SIREN mod 97)) mod 97; lettered keys are checked for format only. */
function isFrenchVatValid(body: string): boolean {
  const key = body.slice(0, 2);
  if (!/^\d{2}$/.test(key)) return true;
  return Number(key) === (12 + 3 * (Number(body.slice(2)) % 97)) % 97;
}

/** Italy: Luhn over the eleven digits of the partita IVA, which is not all zeros. */
function isItalianVatValid(body: string): boolean {
  return !/^0+$/.test(body) && isLuhnValid(body);
}

/**
 * Netherlands: `123456789B01`. Older ids pass the mod-11 check on the first nine digits; the sole
 * proprietors' ids since 2020 instead pass mod 97 over the whole id with letters as numbers (NL=2321, B=11).
 */
function isDutchVatValid(body: string): boolean {
  let sum = 0;
  for (let i = 0; i < 8; i++) sum += (body.charCodeAt(i) - 48) * (9 - i);
  const check = sum % 11;
  if (check !== 10 && check === body.charCodeAt(8) - 48) return true;
  return mod97(`NL${body}`) === 1;
}

/** Spain: nine characters, first and last letters or digits but not both digits. */
function isSpanishVatFormat(body: string): boolean {
  return /^[A-Z0-9]\d{7}[A-Z0-9]$/.test(body) && !/^\d.*\d$/.test(body);
}

interface VatFormat {
  country: string;
  format: RegExp | ((body: string) => boolean);
  check?: (body: string) => boolean;
}

/** By VAT prefix: the format of the part after the prefix, and a check-digit test where implemented. */
const VAT_FORMATS: Readonly<Record<string, VatFormat>> = {
  AT: { country: 'AT', format: /^U\d{8}$/ },
  BE: { country: 'BE', format: /^[01]\d{9}$/, check: isBelgianVatValid },
  BG: { country: 'BG', format: /^\d{9,10}$/ },
  CY: { country: 'CY', format: /^\d{8}[A-Z]$/ },
  CZ: { country: 'CZ', format: /^\d{8,10}$/ },
  DE: { country: 'DE', format: /^\d{9}$/ },
  DK: { country: 'DK', format: /^\d{8}$/ },
  EE: { country: 'EE', format: /^\d{9}$/ },
  EL: { country: 'GR', format: /^\d{9}$/ },
  ES: { country: 'ES', format: isSpanishVatFormat },
  FI: { country: 'FI', format: /^\d{8}$/ },
  FR: { country: 'FR', format: /^[0-9A-HJ-NP-Z]{2}\d{9}$/, check: isFrenchVatValid },
  HR: { country: 'HR', format: /^\d{11}$/ },
  HU: { country: 'HU', format: /^\d{8}$/ },
  IE: { country: 'IE', format: /^(?:\d{7}[A-W][A-IW]?|\d[A-Z+*]\d{5}[A-W])$/ },
  IT: { country: 'IT', format: /^\d{11}$/, check: isItalianVatValid },
  LT: { country: 'LT', format: /^(?:\d{9}|\d{12})$/ },
  LU: { country: 'LU', format: /^\d{8}$/ },
  LV: { country: 'LV', format: /^\d{11}$/ },
  MT: { country: 'MT', format: /^\d{8}$/ },
  NL: { country: 'NL', format: /^\d{9}B\d{2}$/, check: isDutchVatValid },
  PL: { country: 'PL', format: /^\d{10}$/ },
  PT: { country: 'PT', format: /^\d{9}$/ },
  RO: { country: 'RO', format: /^[1-9]\d{1,9}$/ },
  SE: { country: 'SE', format: /^\d{12}$/ },
  SI: { country: 'SI', format: /^[1-9]\d{7}$/ },
  SK: { country: 'SK', format: /^\d{10}$/ },
  GB: { country: 'GB', format: /^(?:\d{9}|\d{12}|GD[0-4]\d{2}|HA[5-9]\d{2})$/ },
  XI: { country: 'GB', format: /^(?:\d{9}|\d{12}|GD[0-4]\d{2}|HA[5-9]\d{2})$/ },
};

/** India GSTIN: state (01-38, 97, 99), PAN (5 letters, 4 digits, letter), entity, `Z`, check character. */
const GSTIN = /^(?:0[1-9]|[12]\d|3[0-8]|97|99)[A-Z]{5}\d{4}[A-Z][1-9A-Z]Z[0-9A-Z]$/;
const BASE36 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ';

/** The GSTIN's check character: its first 14 characters in base 36, weights 1 and 2, digits summed. */
export function isGstinValid(gstin: string): boolean {
  let sum = 0;
  for (let i = 0; i < 14; i++) {
    const product = BASE36.indexOf(gstin[i]!) * (i % 2 === 0 ? 1 : 2);
    sum += Math.floor(product / 36) + (product % 36);
  }
  return gstin[14] === BASE36[(36 - (sum % 36)) % 36];
}

/**
 * A VAT or tax registration id, spaces, dots and dashes allowed, any case:
 * - EU VAT ids with their country prefix (`DE123456789`, `ATU12345678`, `NL123456789B01`, `EL…`/`GR…`
 *   both read as `EL…`), checked by format, and by check digits for BE, FR (numeric key), IT and NL;
 * - GB and XI (`GB123456789`, `GB123456789012`, `GBGD001`, `GBHA599`);
 * - Switzerland `CHE-123.456.789` with an optional `MWST`/`TVA`/`IVA`, kept in that form;
 * - Norway `NO123456789MVA` (the prefix or the `MVA` suffix must be printed);
 * - India GSTIN (`27AAPFU0939F1ZV`); Malaysia GST (`001234567890`) and SST (`W10-1808-31000123`, dashes kept).
 *
 * Without a country prefix only the self-identifying formats (GSTIN, Malaysian GST/SST, Norwegian with
 * `MVA`) are recognised. Australian ABNs are `normaliseAbn`'s.
 */
export function normaliseVatId(text: string): VatId | undefined {
  // Every format below holds digits.
  if (text.length === 0 || text.length > 40 || !mayHoldDigits(text)) return undefined;
  const s = prepare(text).toUpperCase().trim();

  const swiss = /^CHE[\s.-]*(\d{3})[\s.-]*(\d{3})[\s.-]*(\d{3})(?:[\s.-]*(MWST|TVA|IVA)\.?)?$/.exec(s);
  if (swiss) {
    const uid = `CHE-${swiss[1]}.${swiss[2]}.${swiss[3]}`;
    return { country: 'CH', value: swiss[4] ? `${uid} ${swiss[4]}` : uid };
  }
  const sst = /^([A-Z])\s*-?\s*(\d{2})\s*-?\s*(\d{4})\s*-?\s*(\d{8})$/.exec(s);
  if (sst) return { country: 'MY', value: `${sst[1]}${sst[2]}-${sst[3]}-${sst[4]}` };

  const compact = s.replace(/[\s.-]+/g, '');
  if (!/^[A-Z0-9+*]+$/.test(compact)) return undefined;
  if (GSTIN.test(compact)) return isGstinValid(compact) ? { country: 'IN', value: compact } : undefined;
  // Canada: a business number and its GST/HST program account ("812345676 RT0001").
  if (/^\d{9}RT\d{4}$/.test(compact)) return { country: 'CA', value: compact };
  if (/^00\d{10}$/.test(compact)) return { country: 'MY', value: compact };
  const norway = /^(NO)?(\d{9})(MVA)?$/.exec(compact);
  // "No. 812345676" is a number's label, not Norway's prefix: without "MVA" the prefix is glued on.
  const numberLabel = /^no[.:\s]/i.test(s);
  if (norway)
    return (norway[1] && !numberLabel) || norway[3]
      ? { country: 'NO', value: `NO${norway[2]}MVA` }
      : undefined;

  const prefix = compact.slice(0, 2) === 'GR' ? 'EL' : compact.slice(0, 2);
  const body = compact.slice(2);
  const vat = VAT_FORMATS[prefix];
  if (!vat) return undefined;
  const formatOk = typeof vat.format === 'function' ? vat.format(body) : vat.format.test(body);
  if (!formatOk || (vat.check && !vat.check(body))) return undefined;
  return { country: vat.country, value: prefix + body };
}
