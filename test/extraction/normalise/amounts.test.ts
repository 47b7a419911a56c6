import { describe, expect, it } from 'vitest';
import { formatAmount, parseAmount, type ParsedAmount } from '../../../src/extraction/normalise/amounts.js';

/** The parts a test pins down: canonical, currency (or none), ambiguity and printed decimals. */
function summary(text: string, hints?: { decimalSeparator?: '.' | ',' }) {
  const parsed: ParsedAmount | undefined = parseAmount(text, hints);
  if (!parsed) return undefined;
  return {
    canonical: parsed.canonical,
    currency: parsed.currency ?? null,
    ambiguous: parsed.ambiguousSeparator,
    decimals: parsed.hasDecimals,
  };
}

describe('parseAmount', () => {
  it.each([
    ['1.234,56', '1234.56', true],
    ['1,234.56', '1234.56', true],
    ["1'234.56", '1234.56', true],
    ['1\u2019234.56', '1234.56', true],
    ['1 234,56', '1234.56', true],
    ['1\u202F234,56', '1234.56', true],
    ['1\u00A0234,56', '1234.56', true],
    ['1.234.567,89', '1234567.89', true],
    ['1,234,567.89', '1234567.89', true],
    ['12 345 678', '12345678.00', false],
    ['12.5', '12.50', true],
    ['12,5', '12.50', true],
    ['0,50', '0.50', true],
    ['.50', '0.50', true],
    ['0.125', '0.125', true],
    ['1.2345', '1.2345', true],
    ['1234,567', '1234.567', true],
    ['1 234,567', '1234.567', true],
    ['1,23,456.78', '123456.78', true],
    ['1,23', '1.23', true],
    ['1.0', '1.00', true],
  ])('reads the separators of %j as %s', (text, canonical, decimals) => {
    expect(summary(text)).toEqual({ canonical, currency: null, ambiguous: false, decimals });
  });

  it('reads whole numbers without printed decimals', () => {
    expect(parseAmount('1234')).toEqual({
      value: 1234,
      canonical: '1234.00',
      ambiguousSeparator: false,
      hasDecimals: false,
    });
    expect(parseAmount('0')).toEqual({
      value: 0,
      canonical: '0.00',
      ambiguousSeparator: false,
      hasDecimals: false,
    });
    expect(summary('1 234')).toEqual({
      canonical: '1234.00',
      currency: null,
      ambiguous: false,
      decimals: false,
    });
  });

  it('returns the full record with value and currency', () => {
    expect(parseAmount('€1.234,50')).toEqual({
      value: 1234.5,
      canonical: '1234.50',
      currency: 'EUR',
      ambiguousSeparator: false,
      hasDecimals: true,
    });
  });

  it.each([
    ['-12.00', -12, '-12.00'],
    ['12.00-', -12, '-12.00'],
    ['(12.00)', -12, '-12.00'],
    ['- 12.00', -12, '-12.00'],
    ['+12.00', 12, '12.00'],
    ['\u221212,50', -12.5, '-12.50'],
    ['(1,234.56)', -1234.56, '-1234.56'],
    ['-0.00', 0, '0.00'],
  ])('reads the sign of %j', (text, value, canonical) => {
    const parsed = parseAmount(text);
    expect(parsed?.value).toBe(value);
    expect(parsed?.canonical).toBe(canonical);
  });

  it.each([
    ['12,00 €', '12.00', 'EUR'],
    ['€12.00', '12.00', 'EUR'],
    ['€ 12.00', '12.00', 'EUR'],
    ['EUR 12.00', '12.00', 'EUR'],
    ['12.00 EUR', '12.00', 'EUR'],
    ['12.00EUR', '12.00', 'EUR'],
    ['$1,234.56', '1234.56', 'USD'],
    ['RM20.40', '20.40', 'MYR'],
    ['RM 20. 40', '20.40', 'MYR'],
    ['RM 20 .40', '20.40', 'MYR'],
    ['USD1,200.00', '1200.00', 'USD'],
    ['A$ 10', '10.00', 'AUD'],
    ['AU$10.00', '10.00', 'AUD'],
    ['AUD $10.00', '10.00', 'AUD'],
    ['CAD $ 5.00', '5.00', 'CAD'],
    ["CHF 1'000.00", '1000.00', 'CHF'],
    ['£9.99', '9.99', 'GBP'],
    ['¥1,200', '1200.00', 'JPY'],
    ['₹1,23,456.00', '123456.00', 'INR'],
    ['S$ 4.50', '4.50', 'SGD'],
    ['99,00 kr', '99.00', 'SEK'],
    ['99,00 kr NOK', '99.00', 'NOK'],
    ['49,99 zł', '49.99', 'PLN'],
    ['-€12.00', '-12.00', 'EUR'],
    ['€-12.00', '-12.00', 'EUR'],
    ['(€12.00)', '-12.00', 'EUR'],
    ['12,- €', '12.00', 'EUR'],
    ['＄12.00', '12.00', 'USD'],
  ])('reads the currency of %j', (text, canonical, currency) => {
    const parsed = parseAmount(text);
    expect(parsed?.canonical).toBe(canonical);
    expect(parsed?.currency).toBe(currency);
  });

  it('reads the German whole amount 12,- as 12.00 without printed decimals', () => {
    expect(parseAmount('12,-')).toEqual({
      value: 12,
      canonical: '12.00',
      ambiguousSeparator: false,
      hasDecimals: false,
    });
    expect(summary('1.234,-')).toEqual({
      canonical: '1234.00',
      currency: null,
      ambiguous: false,
      decimals: false,
    });
    expect(summary('12,--')).toEqual({
      canonical: '12.00',
      currency: null,
      ambiguous: false,
      decimals: false,
    });
    expect(parseAmount('1,234,-')).toBeUndefined();
  });

  describe('a single separator before exactly three digits', () => {
    it('reads thousands without a hint and reports the ambiguity', () => {
      expect(parseAmount('1,234')).toEqual({
        value: 1234,
        canonical: '1234.00',
        ambiguousSeparator: true,
        hasDecimals: false,
      });
      expect(summary('1.234')).toEqual({
        canonical: '1234.00',
        currency: null,
        ambiguous: true,
        decimals: false,
      });
      expect(summary('€ 12.500')).toEqual({
        canonical: '12500.00',
        currency: 'EUR',
        ambiguous: true,
        decimals: false,
      });
    });

    it('follows the decimal-separator hint', () => {
      expect(parseAmount('1,234', { decimalSeparator: ',' })).toEqual({
        value: 1.234,
        canonical: '1.234',
        ambiguousSeparator: true,
        hasDecimals: true,
      });
      expect(summary('1,234', { decimalSeparator: '.' })).toEqual({
        canonical: '1234.00',
        currency: null,
        ambiguous: true,
        decimals: false,
      });
      expect(summary('1.234', { decimalSeparator: '.' })).toEqual({
        canonical: '1.234',
        currency: null,
        ambiguous: true,
        decimals: true,
      });
    });

    it('is not ambiguous when the structure decides', () => {
      expect(summary('0,125')).toEqual({
        canonical: '0.125',
        currency: null,
        ambiguous: false,
        decimals: true,
      });
      expect(summary('1.234.567')).toEqual({
        canonical: '1234567.00',
        currency: null,
        ambiguous: false,
        decimals: false,
      });
      expect(summary('1 234.567')).toEqual({
        canonical: '1234.567',
        currency: null,
        ambiguous: false,
        decimals: true,
      });
      // A hint never overrides what the text makes certain.
      expect(summary('12,50', { decimalSeparator: '.' })).toEqual({
        canonical: '12.50',
        currency: null,
        ambiguous: false,
        decimals: true,
      });
      expect(summary('1.234,56', { decimalSeparator: '.' })?.canonical).toBe('1234.56');
    });
  });

  it.each([
    [
      'dates',
      ['12.2024', '3.2024', '12.03.2024', '2024-03-12', '12/03/24', '12.03.24', '12-03-2024', '12. 03. 2024'],
    ],
    ['percentages', ['19%', '19 %', '7,5 %']],
    ['times', ['12:30', '12:30:45']],
    [
      'phone numbers',
      [
        '0412 345 678',
        '+61 2 9876 5432',
        '(02) 9876 5432',
        '1300 123 456',
        '555-1234',
        '030 1234567',
        '98765432',
        '0412345678',
      ],
    ],
    ['other letters', ['12 apples', 'No. 12', 'abc', 'Total 12.00', '12.00 EURO', '12.00 eur', 'x12']],
    [
      'bad grouping',
      ['1,234,56', '12 34', '1.234.56', '1,2345,678', '1 234.567.890', '12.34.56', '1,234.56.78'],
    ],
    ['too many decimals', ['1.23456', '0,123456']],
    ['leading zeros', ['007', '00.50', '01,234']],
    ['empty or no digits', ['', ' ', '€', '-', '()', 'EUR']],
    ['broken signs and brackets', ['(12.00', '--12', '(-12.00)', '12.', ',', '12,00,']],
    ['conflicting currencies', ['€ 12.00 USD', 'EUR 12.00 £', 'A$ 10 USD']],
    ['long text', ['1'.repeat(60)]],
  ])('rejects %s', (_kind, texts) => {
    for (const text of texts) expect(parseAmount(text), text).toBeUndefined();
  });

  it('accepts a longer digit run when decimals or a currency mark it as an amount', () => {
    expect(parseAmount('12345678.00')?.canonical).toBe('12345678.00');
    expect(parseAmount('€12345678')?.canonical).toBe('12345678.00');
    expect(parseAmount('€ 12.2024')?.canonical).toBe('12.2024');
  });
});

describe('formatAmount', () => {
  it.each([
    [1234.5, undefined, '1234.50'],
    [-12, undefined, '-12.00'],
    [0, undefined, '0.00'],
    [-0, undefined, '0.00'],
    [-0.001, undefined, '0.00'],
    [1.005, undefined, '1.01'],
    [-1.005, undefined, '-1.01'],
    [0.1 + 0.2, undefined, '0.30'],
    [1234567.891, undefined, '1234567.89'],
    [12.3456, 3, '12.346'],
    [2.5, 0, '3'],
    [1e-7, 2, '0.00'],
  ])('formats %d with %s decimals as %s', (value, decimals, expected) => {
    expect(decimals === undefined ? formatAmount(value) : formatAmount(value, decimals)).toBe(expected);
  });

  it('throws a RangeError for non-finite values and bad decimal counts', () => {
    expect(() => formatAmount(Number.NaN)).toThrow(RangeError);
    expect(() => formatAmount(Number.POSITIVE_INFINITY)).toThrow(RangeError);
    expect(() => formatAmount(1, -1)).toThrow(RangeError);
    expect(() => formatAmount(1, 1.5)).toThrow(RangeError);
  });
});
