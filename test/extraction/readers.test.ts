/** The readers that turn a span of printed text into a field's value. */
import { describe, expect, it } from 'vitest';
import { READERS } from '../../src/extraction/readers.js';

describe('the tax id reader', () => {
  const read = (text: string) => READERS.taxId!(text, {})?.value;

  it("drops another label's words before a registration number ('e C.F.' after 'P.IVA')", () => {
    expect(read('e C.F. 02184060024')).toBe('02184060024');
    expect(read('e c.f. 03187451202')).toBe('03187451202');
  });

  it('keeps a number with its own letters and a VAT id with its prefix', () => {
    expect(read('27AAXCS4817K1ZP')).toBe('27AAXCS4817K1ZP');
    expect(read('DE 123 456 788')).toBe('DE123456788');
    expect(read('No. 143/220/50187')).toBe('143/220/50187');
  });
});

describe('national tax ids printed with dots', () => {
  const read = (text: string) => READERS.taxId!(text, {})?.value;

  it('keeps the dots of an id whose check digits or branch a dash or slash sets off (CNPJ, RUT, NPWP)', () => {
    expect(read('23.456.789/0001-95')).toBe('23.456.789/0001-95');
    expect(read('76.321.458-3')).toBe('76.321.458-3');
    expect(read('02.418.736.1-054.000')).toBe('02.418.736.1-054.000');
  });

  it('still drops the dots of a number without such a part, and a full stop after an id', () => {
    expect(read('BE 0417.497.106')).toBe('BE0417497106');
    expect(read('143.220.50187')).toBe('14322050187');
    expect(read('76.321.458-3.')).toBe('76.321.458-3');
  });
});
