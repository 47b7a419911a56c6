import { describe, expect, it } from 'vitest';
import { customerBlockTokens } from '../../../src/extraction/finders/customer-block.js';
import { createView } from '../../../src/extraction/view.js';
import { receiptLayer } from '../../helpers/token-layer.js';

const texts = (rows: string[]): string[] => {
  const view = createView(receiptLayer(rows));
  const ids = customerBlockTokens(view);
  return view.tokens.filter((t) => ids.has(t.id)).map((t) => t.text);
};

describe("the customer's block", () => {
  it('is announced by a heading printed as such, not by a word one letter off it', () => {
    // "KLANG" is one letter off the Dutch "klant": a town in the shop's address, not a heading.
    expect(
      texts(['QUICK MART SDN BHD', 'LOT 4736, JALAN MERAK', '41200 KLANG, SELANGOR', 'TOTAL 12.00']),
    ).toEqual([]);
  });

  it('holds the lines after its heading, not those of its layout block above it', () => {
    // OCR made one block of the whole receipt: the shop's head above "Bill To" is not the buyer's.
    const rows = [
      'ALPINE BROTHERS HARDWARE',
      'LOT 2-0-5, JLN 3/48',
      '53200 KUALA LUMPUR',
      'Bill To',
      'Cash Customer',
      'TOTAL 12.00',
    ];
    const found = texts(rows);
    expect(found).toEqual(expect.arrayContaining(['Bill', 'To', 'Cash', 'Customer']));
    expect(found).not.toContain('ALPINE');
    expect(found).not.toContain('KUALA');
  });
});
