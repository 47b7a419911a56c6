/**
 * Candidate features and the learned ranking on documents the tests draw: each feature says what it
 * claims about the candidate (where it is, how it was found, what it reads), and a model's weights
 * reorder the candidates.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { FEATURE_NAMES } from '../../src/extraction/candidate-features.js';
import { extractFields } from '../../src/extraction/extract.js';
import type { RankerModel } from '../../src/extraction/ranker.js';
import { fieldsOf, readPages, sheet, textOnlyEngine } from '../helpers/make-invoices.js';

const engine = textOnlyEngine();
afterAll(() => engine.close());

const index = (name: (typeof FEATURE_NAMES)[number]) => FEATURE_NAMES.indexOf(name);

async function receipt() {
  const s = sheet();
  s.put(50, 60, 'Corner Grocer Ltd', 22, true);
  s.put(50, 90, 'Cashier: Jane Doe');
  s.put(50, 120, 'Date 14/03/2024');
  s.put(50, 600, 'Subtotal');
  s.put(400, 600, '10.00');
  s.put(50, 620, 'Tax');
  s.put(400, 620, '1.00');
  s.put(50, 640, 'Total');
  s.put(400, 640, '11.00');
  return readPages(engine, [{ lines: s.lines }]);
}

/** The supplier-name candidates of a drawn receipt, each with its features (the finders' order). */
async function nameCandidates(lines: ReturnType<typeof sheet>['lines']) {
  const doc = await readPages(engine, [{ lines }]);
  let names: Array<{ value: string; features: number[] }> = [];
  extractFields(doc.layer, {
    fields: fieldsOf(['receipts:1']),
    ranker: false,
    collect: (field, candidates, features) => {
      if (field.name === 'document.supplierName')
        names = candidates.map((c, i) => ({ value: c.value, features: features[i]! }));
    },
  });
  return names;
}

describe('candidate features', () => {
  it('count a total the cash tendered equals, no change given, as agreeing with other fields', async () => {
    const agreement = async (cash: string) => {
      const s = sheet();
      s.put(50, 60, 'Corner Grocer Ltd', 22, true);
      s.put(50, 600, 'Total');
      s.put(400, 600, '11.00');
      s.put(50, 620, 'Cash');
      s.put(400, 620, cash);
      const doc = await readPages(engine, [{ lines: s.lines }]);
      let agrees: number | undefined;
      extractFields(doc.layer, {
        fields: fieldsOf(['receipts:1']),
        ranker: false,
        collect: (field, candidates, features) => {
          const at = candidates.findIndex((c) => c.value === '11.00');
          if (field.name === 'receipt.total') agrees = features[at]![index('agrees-with-other-fields')];
        },
      });
      return agrees;
    };
    expect(await agreement('11.00')).toBe(1);
    expect(await agreement('20.00')).toBe(0);
  });

  it('describe where a candidate is, how it was found and what it reads', async () => {
    const doc = await receipt();
    const seen = new Map<string, Array<{ value: string; features: number[] }>>();
    extractFields(doc.layer, {
      fields: fieldsOf(['receipts:1']),
      ranker: false,
      collect: (field, candidates, features) =>
        seen.set(
          field.name,
          candidates.map((c, i) => ({ value: c.value, features: features[i]! })),
        ),
    });
    const total = seen.get('receipt.total')!.find((c) => c.value === '11.00')!;
    expect(total.features).toHaveLength(FEATURE_NAMES.length);
    expect(total.features[index('bias')]).toBe(1);
    expect(total.features[index('has-label')]).toBe(1);
    expect(total.features[index('bottom-third')]).toBe(1);
    expect(total.features[index('y')]).toBeGreaterThan(0.7);
    expect(total.features[index('ocr')]).toBe(0);
    expect(total.features[index('ocr-confidence')]).toBe(1);
    const name = seen.get('document.supplierName')!.find((c) => c.value === 'Corner Grocer Ltd')!;
    expect(name.features[index('legal-form')]).toBe(1);
    expect(name.features[index('top-quarter')]).toBe(1);
    expect(name.features[index('largest-print')]).toBe(1);
    expect(name.features[index('print-size')]).toBeGreaterThan(0.3);
    expect(name.features[index('label-words')]).toBe(0);
    for (const list of seen.values())
      for (const c of list) for (const f of c.features) expect(Math.abs(f)).toBeLessThanOrEqual(1);
  });

  it('tell a line of a sentence and a line of OCR fragments from a name', async () => {
    const s = sheet();
    s.put(50, 60, 'Corner Grocer Ltd', 22, true);
    s.put(50, 120, 'av iT');
    s.put(50, 400, 'Prices are not always lower', 14, true);
    s.put(50, 640, 'Total');
    s.put(400, 640, '11.00');
    const names = await nameCandidates(s.lines);
    const of = (value: string) => names.find((c) => c.value === value)!.features;
    // "are" and "not" of five words; no word of "Corner Grocer Ltd". (A shop's notice, "Goods sold
    // are not returnable", is no candidate at all.)
    expect(of('Prices are not always lower')[index('sentence-words')]).toBe(2 / 5);
    expect(of('Corner Grocer Ltd')[index('sentence-words')]).toBe(0);
    // "Ltd" is a legal form, not a fragment.
    expect(of('Corner Grocer Ltd')[index('fragments')]).toBe(0);
    expect(of('av iT')[index('fragments')]).toBe(1);
  });

  it("mark a letterhead's name printed over its registration, not a brand above it or a footer's name", async () => {
    const s = sheet();
    s.put(50, 50, 'SOLSTICE', 20, true);
    s.put(50, 80, 'BRIGHT SUN TRADING SDN BHD');
    s.put(50, 92, '(Co. No. 123456-M)');
    s.put(50, 104, '12 Jalan Dutamas 1, 50480 Kuala Lumpur');
    s.put(50, 640, 'Total');
    s.put(400, 640, '11.00');
    s.put(50, 780, 'Harbour Print Ltd');
    s.put(50, 792, 'VAT Reg No: GB123456789');
    const names = await nameCandidates(s.lines);
    const of = (value: string) => names.find((c) => c.value === value)?.features[index('registration-next')];
    expect(of('BRIGHT SUN TRADING SDN BHD')).toBe(1);
    expect(of('SOLSTICE')).toBe(0);
    // In the footer, a registration follows whatever it names: no sign of the supplier there.
    expect(of('Harbour Print Ltd')).toBe(0);
  });

  it("count no label above a name where the label's word is a sentence's ('op de vervaldag is ...')", async () => {
    const above = async (sentence: string) => {
      const s = sheet();
      s.put(50, 60, 'De Lindeboom', 20, true);
      s.put(50, 700, sentence, 7.5);
      s.put(50, 712, 'Zaal De Lindeboom BV', 7.5);
      const names = await nameCandidates(s.lines);
      return names.find((n) => n.value === 'Zaal De Lindeboom BV')?.features[index('other-label-above')];
    };
    expect(await above('Bij niet-betaling op de vervaldag is een intrest verschuldigd.')).toBe(0);
    expect(await above('Vervaldag: 30 dagen')).toBeGreaterThan(0);
  });

  it('lets a model reorder candidates, and keeps the finders order without one', async () => {
    const doc = await receipt();
    const fields = fieldsOf(['receipts:1']);
    const name = (r: ReturnType<typeof extractFields>) => r.find((f) => f.name === 'document.supplierName')!;
    const plain = name(extractFields(doc.layer, { fields, ranker: false }));
    expect(plain.value).toBe('Corner Grocer Ltd');
    // A model that holds names with a legal form in the largest print against them picks another one.
    const weights = FEATURE_NAMES.map((f) => (f === 'legal-form' ? -20 : f === 'largest-print' ? -20 : 0));
    const model: RankerModel = {
      version: 1,
      features: [...FEATURE_NAMES],
      fields: { 'document.supplierName': { weights, documents: 100 } },
      calibration: {
        '*': [
          [0, 0],
          [1, 1],
        ],
      },
    };
    const ranked = name(extractFields(doc.layer, { fields, ranker: model }));
    expect(plain.candidates!.map((c) => c.value)).toContain('Jane Doe');
    expect(ranked.value).not.toBe('Corner Grocer Ltd');
    expect(ranked.candidates!.map((c) => c.value)).toContain('Corner Grocer Ltd');
    // A model for other features than this build's is not used.
    const stale = { ...model, features: ['bias', 'score'] };
    expect(name(extractFields(doc.layer, { fields, ranker: stale })).value).toBe('Corner Grocer Ltd');
  });
});
