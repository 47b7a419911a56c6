import { describe, expect, it } from 'vitest';
import { MONTHS, parseDate } from '../../../src/extraction/normalise/dates.js';

describe('parseDate', () => {
  it.each([
    ['25/01/2018', '2018-01-25', 'DMY'],
    ['25-01-2018', '2018-01-25', 'DMY'],
    ['25.01.2018', '2018-01-25', 'DMY'],
    ['25.01.18', '2018-01-25', 'DMY'],
    ['25/01/18', '2018-01-25', 'DMY'],
    ['25.1.2018', '2018-01-25', 'DMY'],
    ['14. 3. 2024', '2024-03-14', 'DMY'],
    ['31/12/99', '1999-12-31', 'DMY'],
    ['01/25/2018', '2018-01-25', 'MDY'],
    ['12/31/2024', '2024-12-31', 'MDY'],
    ['2018-01-25', '2018-01-25', 'YMD'],
    ['2018/01/25', '2018-01-25', 'YMD'],
    ['2018.1.5', '2018-01-05', 'YMD'],
    ['20180125', '2018-01-25', 'YMD'],
    ['27032018', '2018-03-27', 'DMY'],
    ['12312024', '2024-12-31', 'MDY'],
    ['29/02/2024', '2024-02-29', 'DMY'],
    ['29.02.2000', '2000-02-29', 'DMY'],
  ])('reads numeric %j as %s (%s)', (text, iso, order) => {
    expect(parseDate(text)).toEqual({ iso, ambiguous: false, order });
  });

  it.each([
    ['14 March 2024', '2024-03-14'],
    ['March 14, 2024', '2024-03-14'],
    ['March 14th, 2024', '2024-03-14'],
    ['14th of March 2024', '2024-03-14'],
    ['14-Mar-2024', '2024-03-14'],
    ['14-Mar-24', '2024-03-14'],
    ['14/Mar/2024', '2024-03-14'],
    ['14 Mär 2024', '2024-03-14'],
    ['14. März 2024', '2024-03-14'],
    ['3. Jänner 2024', '2024-01-03'],
    ['1er janvier 2024', '2024-01-01'],
    ['14 janv. 2024', '2024-01-14'],
    ['14 févr. 2024', '2024-02-14'],
    ['15 août 2024', '2024-08-15'],
    ['14 maart 2024', '2024-03-14'],
    ['14 mrt 2024', '2024-03-14'],
    ['14 de marzo de 2024', '2024-03-14'],
    ['14 dic 2024', '2024-12-14'],
    ['14 settembre 2024', '2024-09-14'],
    ['14 Mac 2024', '2024-03-14'],
    ['14 Ogos 2024', '2024-08-14'],
    ['14 Disember 2024', '2024-12-14'],
    ['17 Agustus 2024', '2024-08-17'],
    // Danish, Swedish and Portuguese months.
    ['3. maj 2024', '2024-05-03'],
    ['14 marts 2024', '2024-03-14'],
    ['5 augusti 2024', '2024-08-05'],
    ['3 de maio de 2024', '2024-05-03'],
    ['12 de outubro de 2024', '2024-10-12'],
    ['1 de dezembro de 2024', '2024-12-01'],
    ['14 Desember 2024', '2024-12-14'],
    ['Mar 14 2024', '2024-03-14'],
    ['DEC 1 99', '1999-12-01'],
    ['14MAR24', '2024-03-14'],
    ['14MAR2024', '2024-03-14'],
    ['2024 Mar 14', '2024-03-14'],
    ['Monday, 14 March 2024', '2024-03-14'],
    ['Thursday 29 February 2024', '2024-02-29'],
    ['mardi 12 mars 2024', '2024-03-12'],
    ['Selasa, 12 Mac 2024', '2024-03-12'],
    ['14 March 2024 10:00', '2024-03-14'],
  ])('reads textual %j as %s', (text, iso) => {
    expect(parseDate(text)).toEqual({ iso, ambiguous: false, order: 'TEXT' });
  });

  it.each([
    ['Mo. 14.03.2024', '2024-03-14', 'DMY'],
    ['Di, 19.03.2024', '2024-03-19', 'DMY'],
    ['Mar. 19/03/2024', '2024-03-19', 'DMY'],
    ['25/01/2018 1:22:56PM', '2018-01-25', 'DMY'],
    ['25/01/2018 1:22 p.m.', '2018-01-25', 'DMY'],
    ['2024-03-12T10:00:00', '2024-03-12', 'YMD'],
    ['2024-03-12T10:00:00.123Z', '2024-03-12', 'YMD'],
    ['2024-03-12 10:00:00+01:00', '2024-03-12', 'YMD'],
    ['25.01.2018, 14:30 Uhr', '2018-01-25', 'DMY'],
    ['25.01.2018 um 14:30', '2018-01-25', 'DMY'],
  ])('ignores a day name or time around %j', (text, iso, order) => {
    expect(parseDate(text)).toEqual({ iso, ambiguous: false, order });
  });

  describe('day-first against month-first', () => {
    it('reads day-first by default and reports the ambiguity', () => {
      expect(parseDate('03/04/2024')).toEqual({ iso: '2024-04-03', ambiguous: true, order: 'DMY' });
      expect(parseDate('03/04/2024', { order: 'DMY' })).toEqual({
        iso: '2024-04-03',
        ambiguous: true,
        order: 'DMY',
      });
    });

    it('follows the order hint', () => {
      expect(parseDate('03/04/2024', { order: 'MDY' })).toEqual({
        iso: '2024-03-04',
        ambiguous: true,
        order: 'MDY',
      });
      expect(parseDate('3.4.24', { order: 'MDY' })).toEqual({
        iso: '2024-03-04',
        ambiguous: true,
        order: 'MDY',
      });
    });

    it('takes the only valid reading against the hint, unambiguously', () => {
      expect(parseDate('25/01/2018', { order: 'MDY' })).toEqual({
        iso: '2018-01-25',
        ambiguous: false,
        order: 'DMY',
      });
      expect(parseDate('01/25/2018', { order: 'DMY' })).toEqual({
        iso: '2018-01-25',
        ambiguous: false,
        order: 'MDY',
      });
    });

    it('is not ambiguous when day and month are equal', () => {
      expect(parseDate('04/04/2024')).toEqual({ iso: '2024-04-04', ambiguous: false, order: 'DMY' });
      expect(parseDate('04/04/2024', { order: 'MDY' })).toEqual({
        iso: '2024-04-04',
        ambiguous: false,
        order: 'MDY',
      });
    });

    it('reads a two-digit year first only with the YMD hint', () => {
      expect(parseDate('24/03/12', { order: 'YMD' })).toEqual({
        iso: '2024-03-12',
        ambiguous: true,
        order: 'YMD',
      });
      expect(parseDate('24/03/12')).toEqual({ iso: '2012-03-24', ambiguous: false, order: 'DMY' });
      // Year-first is impossible here (month 25), so the hint falls back to day-first.
      expect(parseDate('24/25/12', { order: 'YMD' })).toBeUndefined();
      expect(parseDate('12/03/2024', { order: 'YMD' })).toEqual({
        iso: '2024-03-12',
        ambiguous: true,
        order: 'DMY',
      });
    });

    it('is never ambiguous for textual months or four-digit years first', () => {
      expect(parseDate('2024-03-04', { order: 'MDY' })).toEqual({
        iso: '2024-03-04',
        ambiguous: false,
        order: 'YMD',
      });
      expect(parseDate('3 Apr 2024', { order: 'MDY' })).toEqual({
        iso: '2024-04-03',
        ambiguous: false,
        order: 'TEXT',
      });
    });
  });

  it('reads eight digits day first as a till prints them, only with a year of 19xx or 20xx', () => {
    expect(parseDate('04032018')).toEqual({ iso: '2018-03-04', ambiguous: true, order: 'DMY' });
    expect(parseDate('04032018', { order: 'MDY' })).toEqual({
      iso: '2018-04-03',
      ambiguous: true,
      order: 'MDY',
    });
    // Year first wins where both read: 2011-12-20, not 20 November 1220.
    expect(parseDate('20111220')?.iso).toBe('2011-12-20');
    expect(parseDate('27031818')).toBeUndefined();
    expect(parseDate('32032018')).toBeUndefined();
  });

  it('expands two-digit years: 00-69 to 20xx, 70-99 to 19xx', () => {
    expect(parseDate('01.01.00')?.iso).toBe('2000-01-01');
    expect(parseDate('01.01.69')?.iso).toBe('2069-01-01');
    expect(parseDate('01.01.70')?.iso).toBe('1970-01-01');
    expect(parseDate('1 Jan 85')?.iso).toBe('1985-01-01');
  });

  it.each([
    [
      'impossible dates',
      [
        '31/02/2024',
        '29/02/2023',
        '29.02.1900',
        '31.04.2024',
        '00/01/2024',
        '13/13/2024',
        '2024-13-01',
        '2024-02-30',
        '32 March 2024',
        '0 Jan 2024',
      ],
    ],
    [
      'digit runs that are no date of eight digits',
      ['250118', '20181325', '32132018', '2018012', '201801250'],
    ],
    ['years out of range', ['01.01.1899', '01.01.2100', '2200-01-01', '12.03.3024']],
    [
      'mixed or odd separators',
      ['25/01-2018', '25.01/2018', '25 01 2018', '25/01/201', '25/01', '2018-01', '1/2/3/4'],
    ],
    ['amounts, times and numbers', ['12.5', '1.234,56', '1,234.56', '12:30', '12', '€12.03.24', '19%']],
    [
      'incomplete or extra text',
      [
        'March 2024',
        '14 March',
        'Date 14 March 2024',
        '14 March 2024 total',
        'Marchy 14 2024',
        '14 Foo 2024',
        'Monday',
        'Monday 14',
      ],
    ],
    ['empty text', ['', '   ']],
    [
      "names of JavaScript's object prototype where the month goes",
      [
        '14 constructor 2024',
        'constructor 14 2024',
        '2024 toString 14',
        '14 __proto__ 2024',
        '1 valueOf 2020',
      ],
    ],
  ])('rejects %s', (_kind, texts) => {
    for (const text of texts) expect(parseDate(text), text).toBeUndefined();
  });

  it('exports the month lookup in lower case without diacritics', () => {
    expect(MONTHS['march']).toBe(3);
    expect(MONTHS['marz']).toBe(3);
    expect(MONTHS['ogos']).toBe(8);
    expect(MONTHS['dezember']).toBe(12);
    expect(MONTHS['märz']).toBeUndefined();
  });
});
