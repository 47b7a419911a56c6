/**
 * Dates as printed on documents, read into ISO `YYYY-MM-DD`.
 */
import { isAscii } from './text.js';

export type DateOrder = 'DMY' | 'MDY' | 'YMD';

export interface ParsedDate {
  /** `YYYY-MM-DD`. */
  iso: string;
  /** Another reading of the digits is also a valid, different date (`03/04/2024`). */
  ambiguous: boolean;
  /** How the date was read: a numeric order, or `TEXT` for a month name. */
  order: DateOrder | 'TEXT';
}

export interface DateHints {
  /** The document's numeric date order, when known; day-first (`DMY`) otherwise. */
  order?: DateOrder;
}

const MONTH_NAMES: ReadonlyArray<readonly string[]> = [
  // English, German, French, Dutch, Spanish, Italian, Portuguese, Danish, Norwegian, Swedish, Malay,
  // Indonesian; lower case without diacritics.
  [
    'january',
    'jan',
    'januar',
    'janner',
    'janvier',
    'janv',
    'januari',
    'enero',
    'ene',
    'gennaio',
    'gen',
    'janeiro',
  ],
  [
    'february',
    'feb',
    'febr',
    'februar',
    'feber',
    'fevrier',
    'fevr',
    'fev',
    'februari',
    'febrero',
    'febbraio',
    'fevereiro',
  ],
  ['march', 'mar', 'marz', 'mrz', 'mars', 'maart', 'mrt', 'marzo', 'mac', 'maret', 'marts', 'marco'],
  ['april', 'apr', 'avril', 'avr', 'abril', 'abr', 'aprile'],
  ['may', 'mai', 'mei', 'mayo', 'maggio', 'mag', 'maj', 'maio'],
  ['june', 'jun', 'juni', 'juin', 'junio', 'giugno', 'giu', 'junho'],
  ['july', 'jul', 'juli', 'juillet', 'juil', 'julio', 'luglio', 'lug', 'julai', 'julho'],
  ['august', 'aug', 'aout', 'augustus', 'agosto', 'ago', 'ogos', 'ogo', 'agustus', 'agu', 'agt', 'augusti'],
  ['september', 'sep', 'sept', 'septembre', 'septiembre', 'setiembre', 'set', 'settembre', 'setembro'],
  ['october', 'oct', 'oktober', 'okt', 'octobre', 'octubre', 'ottobre', 'ott', 'outubro'],
  ['november', 'nov', 'novembre', 'noviembre', 'nop', 'novembro'],
  [
    'december',
    'dec',
    'dezember',
    'dez',
    'decembre',
    'diciembre',
    'dic',
    'dicembre',
    'disember',
    'dis',
    'desember',
    'des',
    'dezembro',
  ],
];

/**
 * Month names and abbreviations (lower case, diacritics removed: `marz`, `fevr`, `aout`) to 1..12,
 * in English, German, French, Dutch, Spanish, Italian, Portuguese, the Nordic languages, Malay and
 * Indonesian.
 */
export const MONTHS: Readonly<Record<string, number>> = Object.assign(
  // No prototype: "constructor" or "toString" printed where a month could be is no month.
  Object.create(null) as Record<string, number>,
  Object.fromEntries(MONTH_NAMES.flatMap((names, i) => names.map((name) => [name, i + 1] as const))),
);

/** Day names and their abbreviations in the same languages, lower case without diacritics. */
const DAY_NAMES: ReadonlySet<string> = new Set([
  ...['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'],
  ...['mon', 'tue', 'tues', 'wed', 'thu', 'thur', 'thurs', 'fri', 'sat', 'sun'],
  ...['montag', 'dienstag', 'mittwoch', 'donnerstag', 'freitag', 'samstag', 'sonnabend', 'sonntag'],
  ...['mo', 'di', 'mi', 'do', 'fr', 'sa', 'so'],
  ...['lundi', 'mardi', 'mercredi', 'jeudi', 'vendredi', 'samedi', 'dimanche'],
  ...['lun', 'mar', 'mer', 'jeu', 'ven', 'sam', 'dim'],
  ...['maandag', 'dinsdag', 'woensdag', 'donderdag', 'vrijdag', 'zaterdag', 'zondag'],
  ...['ma', 'wo', 'vr', 'za', 'zo'],
  ...['lunes', 'martes', 'miercoles', 'jueves', 'viernes', 'sabado', 'domingo'],
  ...['lunedi', 'martedi', 'mercoledi', 'giovedi', 'venerdi', 'domenica'],
  ...['isnin', 'selasa', 'rabu', 'khamis', 'jumaat', 'sabtu', 'ahad'],
  ...['senin', 'kamis', 'jumat', 'minggu'],
]);

/** Words that may sit between day, month and year: `14 de marzo de 2024`, `14th of March`. */
const FILLERS: ReadonlySet<string> = new Set(['de', 'del', 'of', 'the']);

/** Longer text is not a date. */
const MAX_LENGTH = 64;
const MIN_YEAR = 1900;
const MAX_YEAR = 2099;

/**
 * A trailing time, ignored: `1:22:56PM`, `T10:00:00Z`, ` 10:00 +01:00`, `, 14:30 Uhr`, ` at 9:15 am`.
 * Applied to lower-case text.
 */
const TRAILING_TIME =
  /(?:t|,? +|,? *(?:at|um|a|om|alle|pukul|jam) +)\d{1,2}:\d{2}(?::\d{2}(?:[.,]\d{1,9})?)? *(?:[ap]\.? ?m\.?)? *(?:z|utc|gmt|[+-]\d{2}(?::?\d{2})?)? *(?:uhr|h)?$/;

/**
 * Reads a date:
 * - numeric `25/01/2018`, `25-01-2018`, `25.01.2018`, `25.01.18`, `14. 3. 2024`, `2018-01-25`,
 *   `2018/01/25`, `01/25/2018`, and `20180125` (an eight-digit run only as YYYYMMDD);
 * - with a month name in English, German, French, Dutch, Spanish, Italian, Malay or Indonesian:
 *   `14 March 2024`, `March 14, 2024`, `14-Mar-2024`, `14. März 2024`, `1er janvier 2024`,
 *   `14 de marzo de 2024`, `14MAR24`;
 * - after a day name (`Monday, 14 March 2024`, `Mo. 14.03.2024`) and before a time, both ignored.
 *
 * Two-digit years 00-69 are 20xx, 70-99 19xx; four-digit years must be 1900-2099; the date must exist.
 * When day-first and month-first readings are both valid and differ (`03/04/2024`) the hint's order
 * (default day-first) decides and `ambiguous` is set. With the `YMD` hint, `24/03/12` may read year-first.
 * Returns undefined, never throws, for anything else.
 */
export function parseDate(text: string, hints: DateHints = {}): ParsedDate | undefined {
  if (text.length === 0 || text.length > MAX_LENGTH || !/\d/.test(text)) return undefined;
  const s = (isAscii(text) ? text.toLowerCase() : foldUnicode(text)).replace(/\s+/g, ' ').trim();
  const direct = parseWithoutDayName(s, hints);
  if (direct) return direct;
  const day = /^([a-z]+)\.?,? */.exec(s);
  if (!day || !DAY_NAMES.has(day[1] ?? '') || day[0].length === s.length) return undefined;
  return parseWithoutDayName(s.slice(day[0].length), hints);
}

/** Lower case without accents (`März` reads `marz`), typographic apostrophes and dashes unified. */
function foldUnicode(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[\u2018\u2019\u02BC]/g, "'")
    .replace(/[\u2010-\u2013\u2212]/g, '-');
}

function parseWithoutDayName(s: string, hints: DateHints): ParsedDate | undefined {
  // A time holds a colon: without one there is nothing to strip (and the pattern is costly).
  const t = (s.includes(':') ? s.replace(TRAILING_TIME, '') : s).trim();
  if (t.length === 0) return undefined;
  return parseNumeric(t, hints) ?? parseCompact(t, hints) ?? parseTextual(t);
}

function parseNumeric(t: string, hints: DateHints): ParsedDate | undefined {
  // Digits and separators only (the spaces dropped next are all the difference): most text is not.
  if (!/^[\d./ -]+$/.test(t)) return undefined;
  const u = t.replace(/ *([./-]) */g, '$1');
  const ymd = /^(\d{4})([./-])(\d{1,2})\2(\d{1,2})$/.exec(u);
  if (ymd) {
    const iso = isoDate(Number(ymd[1]), Number(ymd[3]), Number(ymd[4]));
    return iso ? { iso, ambiguous: false, order: 'YMD' } : undefined;
  }
  const m = /^(\d{1,2})([./-])(\d{1,2})\2(\d{2}|\d{4})$/.exec(u);
  if (!m) return undefined;
  const a = Number(m[1]);
  const b = Number(m[3]);
  const last = m[4] ?? '';
  const year = expandYear(last);

  const readings: Record<DateOrder, string | undefined> = {
    DMY: isoDate(year, b, a),
    MDY: isoDate(year, a, b),
    // Year-first with a two-digit year (`24/03/12`), only when the document is known to be year-first.
    YMD:
      hints.order === 'YMD' && last.length === 2
        ? isoDate(expandYear(m[1] ?? ''), b, Number(last))
        : undefined,
  };
  return preferredReading(readings, hints);
}

/** The reading the hinted order prefers among those that are dates, ambiguous when another differs. */
function preferredReading(
  readings: Record<DateOrder, string | undefined>,
  hints: DateHints,
): ParsedDate | undefined {
  const preference: readonly DateOrder[] =
    hints.order === 'MDY' ? ['MDY', 'DMY'] : hints.order === 'YMD' ? ['YMD', 'DMY', 'MDY'] : ['DMY', 'MDY'];
  const order = preference.find((candidate) => readings[candidate] !== undefined);
  if (!order) return undefined;
  const iso = readings[order] ?? '';
  const ambiguous = preference.some((other) => {
    const reading = readings[other];
    return reading !== undefined && reading !== iso;
  });
  return { iso, ambiguous, order };
}

function parseCompact(t: string, hints: DateHints): ParsedDate | undefined {
  if (!/^\d{8}$/.test(t)) return undefined;
  const iso = isoDate(Number(t.slice(0, 4)), Number(t.slice(4, 6)), Number(t.slice(6, 8)));
  if (iso) return { iso, ambiguous: false, order: 'YMD' };
  // Day and month first, as tills print them (`27032018`): a year of this century or the last only.
  if (!/^(19|20)$/.test(t.slice(4, 6))) return undefined;
  const [a, b, year] = [Number(t.slice(0, 2)), Number(t.slice(2, 4)), Number(t.slice(4))];
  return preferredReading({ DMY: isoDate(year, b, a), MDY: isoDate(year, a, b), YMD: undefined }, hints);
}

function parseTextual(t: string): ParsedDate | undefined {
  if (!hasMonthWord(t)) return undefined;
  const tokens = t
    .replace(/(\d)(?:st|nd|rd|th|er|e)\b/g, '$1')
    .replace(/[.,/'-]/g, ' ')
    .replace(/(\d)([a-z])/g, '$1 $2')
    .replace(/([a-z])(\d)/g, '$1 $2')
    .split(' ')
    .filter((token) => token.length > 0 && !FILLERS.has(token));
  if (tokens.length !== 3) return undefined;
  const [first = '', second = '', third = ''] = tokens;
  const isDay = (token: string): boolean => /^\d{1,2}$/.test(token);
  const isYear = (token: string): boolean => /^(?:\d{2}|\d{4})$/.test(token);

  let day: string | undefined;
  let month: number | undefined;
  let year: string | undefined;
  if (isDay(first) && MONTHS[second] && isYear(third)) {
    [day, month, year] = [first, MONTHS[second], third];
  } else if (MONTHS[first] && isDay(second) && isYear(third)) {
    [day, month, year] = [second, MONTHS[first], third];
  } else if (/^\d{4}$/.test(first) && MONTHS[second] && isDay(third)) {
    [day, month, year] = [third, MONTHS[second], first];
  } else {
    return undefined;
  }
  const iso = isoDate(expandYear(year), month, Number(day));
  return iso ? { iso, ambiguous: false, order: 'TEXT' } : undefined;
}

/**
 * Whether a run of letters in `t` is a month name: the splitting below never joins or cuts such runs,
 * so a text without one has no textual date, and most text is rejected before that work.
 */
function hasMonthWord(t: string): boolean {
  let start = -1;
  // One step past the end, where charCodeAt gives NaN (not a letter), to close the last run.
  for (let i = 0; i <= t.length; i++) {
    const code = t.charCodeAt(i);
    const letter = code >= 97 && code <= 122;
    if (letter && start < 0) start = i;
    else if (!letter && start >= 0) {
      if (MONTHS[t.slice(start, i)]) return true;
      start = -1;
    }
  }
  return false;
}

/** Two-digit years: 00-69 are 20xx, 70-99 19xx. */
function expandYear(digits: string): number {
  const n = Number(digits);
  if (digits.length !== 2) return n;
  return n < 70 ? 2000 + n : 1900 + n;
}

function isoDate(year: number, month: number, day: number): string | undefined {
  if (!Number.isInteger(year) || year < MIN_YEAR || year > MAX_YEAR) return undefined;
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return undefined;
  return `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}
