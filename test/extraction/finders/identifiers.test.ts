import { afterAll, describe, expect, it } from 'vitest';
import { findIdentifiers } from '../../../src/extraction/finders/identifiers.js';
import { documentHints } from '../../../src/extraction/hints.js';
import { createView } from '../../../src/extraction/view.js';
import { readPages, textOnlyEngine } from '../../helpers/make-invoices.js';

const engine = textOnlyEngine();
afterAll(() => engine.close());

/** A narrow till receipt's lines, each [text, x, y]: the supplier's tax id candidates, best first. */
async function taxIds(lines: Array<[string, number, number]>): Promise<string[]> {
  const page = { width: 226, height: 300, lines: lines.map(([text, x, y]) => ({ text, x, y, size: 7 })) };
  const { layer } = await readPages(engine, [page]);
  const view = createView(layer);
  return findIdentifiers(view, documentHints(view)).supplierTaxId.map((c) => c.value);
}

describe("the supplier's tax id", () => {
  it.each([
    {
      why: 'is not the number under a label whose id stands beside it',
      lines: [
        ['GOLDEN WHEAT CONFECTIONERY PTE LTD', 18, 35],
        ['GST Reg No: 201534567K', 68, 81],
        ['TAX INVOICE', 81, 95],
        ['Receipt No : R012-190112-0087', 9, 105],
        ['TOTAL 12.00', 9, 150],
      ] as Array<[string, number, number]>,
      id: '201534567K',
      under: 'R012-190112-0087',
    },
    {
      why: 'is not read under a title that holds a tax word ("GST INVOICE - CASH MEMO")',
      lines: [
        ['SHREE GANESH MEDICALS', 48, 28],
        ['GSTIN: 27AAAPG1234K1Z2', 81, 74],
        ['GST INVOICE - CASH MEMO', 69, 96],
        ['Bill No: SGM/23-24/08812', 8, 105],
        ['TOTAL 345.00', 8, 150],
      ] as Array<[string, number, number]>,
      id: '27AAAPG1234K1Z2',
      under: 'SGM/23-24/08812',
    },
    {
      why: 'is read after Spain\'s dotted "C.I.F." beside the address',
      lines: [
        ['FERRETERIA HNOS. OCANA', 10, 21],
        ['C/ Sueca, 58', 10, 58],
        ['46006 Valencia', 10, 68],
        ['C.I.F. B46218830', 120, 68],
        ['Ticket No 2-017734', 10, 81],
        ['TOTAL 35,74', 10, 150],
      ] as Array<[string, number, number]>,
      id: 'B46218830',
      under: '2-017734',
    },
    {
      why: 'is no street and postcode read as a VAT id ("Via Emilia Est 318 - 41122" holds no ES prefix)',
      lines: [
        ['Borgoverde Distribuzione S.r.l.', 40, 46],
        ['Via Emilia Est 318 - 41122 Modena', 40, 56],
        ['P.IVA 03412880365', 60, 65],
        ['DOCUMENTO N. 0412-0087', 40, 81],
        ['TOTALE 25,05', 10, 150],
      ] as Array<[string, number, number]>,
      id: '03412880365',
      under: 'EST31841122',
    },
  ])('$why', async ({ lines, id, under }) => {
    const ids = await taxIds(lines);
    expect(ids[0]).toBe(id);
    expect(ids).not.toContain(under);
  });
});

describe("Portugal's taxpayer number", () => {
  it("is read under its label 'Contribuinte n.º'", async () => {
    expect(
      await taxIds([
        ['Marta Sofia Coutinho Ramalho', 10, 30],
        ['Rua Dr. Alves da Veiga, 148', 10, 42],
        ['4000-071 Porto', 10, 54],
        ['Contribuinte n.º 231864078', 10, 66],
      ]),
    ).toEqual(['231864078']);
  });
});
