import { describe, expect, it } from 'vitest';
import {
  ISO_CURRENCY_CODES,
  currencyFromLocale,
  matchCurrencyAffix,
  parseCurrency,
  resolveCurrencyMarkers,
} from '../../../src/extraction/normalise/currency.js';

describe('parseCurrency', () => {
  it("finds no currency in JavaScript's object prototype names", () => {
    for (const text of ['constructor', 'toString', 'valueOf', 'hasOwnProperty', '__proto__', 'Constructor'])
      expect(parseCurrency(text), text).toBeUndefined();
  });

  it.each([
    'EUR',
    'USD',
    'GBP',
    'AUD',
    'NZD',
    'CAD',
    'MYR',
    'CHF',
    'JPY',
    'CNY',
    'SGD',
    'INR',
    'SEK',
    'NOK',
    'PLN',
  ])('reads the ISO code %s', (code) => {
    expect(parseCurrency(code)).toBe(code);
  });

  it('knows about forty common codes', () => {
    expect(ISO_CURRENCY_CODES.size).toBeGreaterThanOrEqual(40);
  });

  it.each([
    ['€', 'EUR'],
    ['£', 'GBP'],
    ['$', 'USD'],
    ['US$', 'USD'],
    ['A$', 'AUD'],
    ['AU$', 'AUD'],
    ['C$', 'CAD'],
    ['NZ$', 'NZD'],
    ['S$', 'SGD'],
    ['HK$', 'HKD'],
    ['RM', 'MYR'],
    ['¥', 'JPY'],
    ['￥', 'JPY'],
    ['₹', 'INR'],
    ['Rs.', 'INR'],
    ['kr', 'SEK'],
    ['zł', 'PLN'],
    ['Kč', 'CZK'],
    ['Ft', 'HUF'],
    ['R$', 'BRL'],
    ['₩', 'KRW'],
  ])('reads the symbol %s as %s', (symbol, code) => {
    expect(parseCurrency(symbol)).toBe(code);
  });

  it.each([
    ['euro', 'EUR'],
    ['Euros', 'EUR'],
    ['dollars', 'USD'],
    ['Australian Dollars', 'AUD'],
    ['ringgit', 'MYR'],
    ['Ringgit Malaysia', 'MYR'],
    ['pounds', 'GBP'],
    ['Pounds Sterling', 'GBP'],
    ['Swiss francs', 'CHF'],
    ['yen', 'JPY'],
  ])('reads the words %j as %s', (words, code) => {
    expect(parseCurrency(words)).toBe(code);
  });

  it.each([
    ['(EUR)', 'EUR'],
    ['EUR:', 'EUR'],
    [' EUR ', 'EUR'],
    ['in EUR', 'EUR'],
    ['Amount (AUD)', 'AUD'],
    ['AUD $', 'AUD'],
    ['$ CAD', 'CAD'],
    ['NOK kr', 'NOK'],
    ['€ EUR', 'EUR'],
    ['amounts in euros', 'EUR'],
  ])('reads the short phrase %j as %s', (phrase, code) => {
    expect(parseCurrency(phrase)).toBe(code);
  });

  it.each([
    '',
    'eur',
    'try',
    'Invoice total due',
    'XYZ',
    'EURO2',
    'EUR / USD',
    '€ $',
    'A$ USD',
    'Total amount',
    'one two three four five six EUR',
    'RMX',
    'R',
  ])('rejects %j', (text) => {
    expect(parseCurrency(text)).toBeUndefined();
  });
});

describe('matchCurrencyAffix', () => {
  it('prefers the longest symbol and respects word boundaries', () => {
    expect(matchCurrencyAffix('A$10', 'start')).toEqual({
      marker: { code: 'AUD', isCode: false },
      length: 2,
    });
    expect(matchCurrencyAffix('RMB 10', 'start')?.marker.code).toBe('CNY');
    expect(matchCurrencyAffix('RM10', 'start')?.marker.code).toBe('MYR');
    expect(matchCurrencyAffix('10 EUR', 'end')).toEqual({ marker: { code: 'EUR', isCode: true }, length: 3 });
    expect(matchCurrencyAffix('EURO 10', 'start')).toBeUndefined();
    expect(matchCurrencyAffix('10 XEUR', 'end')).toBeUndefined();
  });
});

describe('resolveCurrencyMarkers', () => {
  it('lets a code choose among a shared symbol and rejects disagreement', () => {
    const dollar = { code: 'USD', isCode: false, family: ['USD', 'AUD', 'CAD'] };
    expect(resolveCurrencyMarkers([dollar])).toBe('USD');
    expect(resolveCurrencyMarkers([dollar, { code: 'AUD', isCode: true }])).toBe('AUD');
    expect(resolveCurrencyMarkers([{ code: 'AUD', isCode: true }, dollar])).toBe('AUD');
    expect(resolveCurrencyMarkers([{ code: 'EUR', isCode: true }, dollar])).toBeUndefined();
    expect(
      resolveCurrencyMarkers([
        { code: 'EUR', isCode: false },
        { code: 'EUR', isCode: true },
      ]),
    ).toBe('EUR');
    expect(resolveCurrencyMarkers([])).toBeUndefined();
  });
});

describe('currencyFromLocale', () => {
  it.each([
    ['en-AU', 'AUD'],
    ['de-DE', 'EUR'],
    ['fr-FR', 'EUR'],
    ['nl-NL', 'EUR'],
    ['de-AT', 'EUR'],
    ['fr-BE', 'EUR'],
    ['hr-HR', 'EUR'],
    ['bg-BG', 'EUR'],
    ['en-GB', 'GBP'],
    ['en-US', 'USD'],
    ['ms-MY', 'MYR'],
    ['en-MY', 'MYR'],
    ['de-CH', 'CHF'],
    ['fr-CH', 'CHF'],
    ['en-IN', 'INR'],
    ['en-SG', 'SGD'],
    ['en-NZ', 'NZD'],
    ['en-CA', 'CAD'],
    ['fr-CA', 'CAD'],
    ['ja-JP', 'JPY'],
    ['sv-SE', 'SEK'],
    ['nb-NO', 'NOK'],
    ['pl-PL', 'PLN'],
    ['en_AU', 'AUD'],
    ['en_GB.UTF-8', 'GBP'],
    ['EN-au', 'AUD'],
    ['zh-Hant-TW', 'TWD'],
    ['de-CH-u-cu-eur', 'EUR'],
  ])('maps %s to %s', (locale, code) => {
    expect(currencyFromLocale(locale)).toBe(code);
  });

  it.each(['', 'fr', 'en', 'xx-ZZ', 'english', '123', 'en-419'])('has no currency for %j', (locale) => {
    expect(currencyFromLocale(locale)).toBeUndefined();
  });
});
