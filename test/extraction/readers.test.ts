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
