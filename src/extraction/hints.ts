import { currencyFromLocale } from './normalise/currency.js';
import type { DateOrder } from './normalise/dates.js';
import type { ReadingHints } from './readers.js';
import type { DocumentView } from './view.js';

export interface DocumentHints extends ReadingHints {
  /** The document's language guessed from its words: en, de, fr, nl, ms. */
  language: string;
  /** Whether the numeric date order was seen in the document (a day above 12) or only assumed. */
  dateOrderSeen: boolean;
  /** Currency implied by the locale, used when the document names none. */
  localeCurrency?: string;
}

const LANGUAGE_WORDS: Record<string, string[]> = {
  en: [
    'invoice',
    'total',
    'date',
    'amount',
    'due',
    'tax',
    'the',
    'and',
    'receipt',
    'thank',
    'you',
    'payment',
    'please',
  ],
  de: [
    'rechnung',
    'datum',
    'summe',
    'betrag',
    'und',
    'der',
    'die',
    'das',
    'mit',
    'bitte',
    'zahlbar',
    'netto',
    'ust',
    'mwst',
  ],
  fr: [
    'facture',
    'date',
    'montant',
    'total',
    'et',
    'le',
    'la',
    'les',
    'de',
    'du',
    'des',
    'tva',
    'règlement',
    'paiement',
  ],
  nl: ['factuur', 'datum', 'bedrag', 'totaal', 'en', 'het', 'de', 'van', 'btw', 'betaling', 'voor'],
  ms: ['jumlah', 'tarikh', 'terima', 'kasih', 'jalan', 'taman', 'sdn', 'bhd', 'resit', 'cukai'],
};

/**
 * A US city, state and ZIP code as printed on one line ("Springfield, IL 62704", "SHREWSBURY MA
 * 01545"): an American address. (Not DE: German addresses print "DE 10369 Berlin". Idaho only after a
 * comma: a till's "TERMINAL ID 04103" is no address.)
 */
export const US_CITY_STATE_ZIP =
  /\b(?:[A-Z][a-z]+|[A-Z]{3,})(?:,? (?:AL|AK|AZ|AR|CA|CO|CT|DC|FL|GA|HI|IL|IN|IA|KS|KY|LA|ME|MD|MA|MI|MN|MS|MO|MT|NE|NV|NH|NJ|NM|NY|NC|ND|OH|OK|OR|PA|RI|SC|SD|TN|TX|UT|VT|VA|WA|WV|WI|WY)|, ID) \d{5}(?:-\d{4})?\b/;

/** The document's rows as printed (case kept), for cues that depend on capitals. */
export function printedText(view: DocumentView): string {
  return view.rows.map((row) => row.tokens.map((t) => t.text).join(' ')).join('\n');
}

/** Locales that write dates month first. */
const MONTH_FIRST_LOCALES = /^(en-us|en-ph|fil|es-us|en-ca)/i;

/**
 * Reading hints from the document itself and the locale: the decimal separator its amounts use, the
 * order its numeric dates are printed in, and its language.
 */
export function documentHints(view: DocumentView, locale?: string): DocumentHints {
  const text = view.text;
  const commaDecimals = (text.match(/\d,\d{2}(?!\d)/g) ?? []).length;
  const pointDecimals = (text.match(/\d\.\d{2}(?!\d)/g) ?? []).length;
  const hints: DocumentHints = { language: guessLanguage(text), dateOrderSeen: false };
  if (commaDecimals + pointDecimals >= 2) hints.decimalSeparator = commaDecimals > pointDecimals ? ',' : '.';

  // A numeric date whose first part is over 12 can only be day first, and one whose second part is
  // over 12 only month first.
  let dayFirst = 0;
  let monthFirst = 0;
  for (const m of text.matchAll(/\b(\d{1,2})[/.-](\d{1,2})[/.-](\d{2}|\d{4})\b/g)) {
    // A time printed with dots (`Time 11.14.00`, `11.14.00 AM`) says nothing of the date order.
    if (m[3]!.length === 2 && isTime(text, m.index, m[0].length)) continue;
    const a = Number(m[1]);
    const b = Number(m[2]);
    if (a > 12 && b <= 12) dayFirst++;
    if (b > 12 && a <= 12) monthFirst++;
  }
  let order: DateOrder | undefined;
  if (dayFirst > monthFirst) order = 'DMY';
  else if (monthFirst > dayFirst) order = 'MDY';
  if (order) {
    hints.dateOrder = order;
    hints.dateOrderSeen = true;
  } else if (locale && MONTH_FIRST_LOCALES.test(locale)) {
    hints.dateOrder = 'MDY';
  } else if (
    !locale &&
    hints.language === 'en' &&
    (/\$\s?\d|\busd\b/.test(text) || US_CITY_STATE_ZIP.test(printedText(view))) &&
    !/\b(aud|cad|nzd|sgd|abn|gst|australia|canada|new zealand|singapore)\b|a\$/.test(text)
  ) {
    // English with US dollars or a US address, and no day-first evidence: American dates.
    hints.dateOrder = 'MDY';
  } else {
    hints.dateOrder = 'DMY';
  }
  if (locale) {
    const currency = currencyFromLocale(locale);
    if (currency) hints.localeCurrency = currency;
  }
  return hints;
}

/** Whether the digits at `index` are a time of day: labelled as one, or followed by am/pm. */
function isTime(text: string, index: number, length: number): boolean {
  const before = text.slice(Math.max(0, index - 12), index);
  const after = text.slice(index + length, index + length + 4);
  return /\b(time|zeit|heure|tijd|hora|ora|uhrzeit)\b[^\d]*$/.test(before) || /^\s?[ap]\.?m\b/.test(after);
}

function guessLanguage(text: string): string {
  const words = new Map<string, number>();
  for (const w of text.split(/[^\p{L}]+/u)) if (w) words.set(w, (words.get(w) ?? 0) + 1);
  let best = 'en';
  let bestScore = 0;
  for (const [language, list] of Object.entries(LANGUAGE_WORDS)) {
    const score = list.reduce((s, w) => s + Math.min(3, words.get(w) ?? 0), 0);
    if (score > bestScore) {
      best = language;
      bestScore = score;
    }
  }
  return best;
}
