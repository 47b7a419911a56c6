import { describe, expect, it } from 'vitest';
import { CALIBRATION } from '../../src/extraction/calibration.js';
import { FEATURE_NAMES } from '../../src/extraction/candidate-features.js';
import { extractFields } from '../../src/extraction/extract.js';
import type { RankerModel } from '../../src/extraction/ranker.js';
import type { FieldDefinition } from '../../src/products/types.js';
import { receiptLayer, TWO_COMPANY_RECEIPT } from '../helpers/token-layer.js';

const NAME: FieldDefinition = { name: 'document.supplierName', kind: 'text' };
const ADDRESS: FieldDefinition = { name: 'document.supplierAddress', kind: 'text' };

/** A model whose ranking of names prefers the lowest on the page without digits; addresses keep the finder's score. */
function lowestNameModel(): RankerModel {
  const weights = (named: Record<string, number>): number[] => FEATURE_NAMES.map((n) => named[n] ?? 0);
  return {
    version: 1,
    features: [...FEATURE_NAMES],
    fields: {
      [NAME.name]: { weights: weights({ bias: -3, y: 12, digits: -30 }), documents: 1 },
      [ADDRESS.name]: { weights: weights({ score: 4, bias: -1 }), documents: 1 },
    },
    calibration: CALIBRATION,
  };
}

describe('extraction across fields', () => {
  it("reads the supplier's address under the name the ranking chose, not the finder's favourite", () => {
    const layer = receiptLayer(TWO_COMPANY_RECEIPT);
    const [name, address] = extractFields(layer, { fields: [NAME, ADDRESS], ranker: lowestNameModel() });
    expect(name!.value).toBe('SOUTH WIND TRADING');
    expect(address!.value).toBe('7 Jalan Selatan, 81100 Johor Bahru');
    // Without a model, both follow the finder: the name at the top and the address under it.
    const [plainName, plainAddress] = extractFields(layer, { fields: [NAME, ADDRESS], ranker: false });
    expect(plainName!.value).toBe('NORTH STAR SDN BHD');
    expect(plainAddress!.value).toBe('12 Jalan Utara, 50000 Kuala Lumpur');
  });

  it('follows the chosen name when the address alone is asked for', () => {
    const layer = receiptLayer(TWO_COMPANY_RECEIPT);
    const [address] = extractFields(layer, { fields: [ADDRESS], ranker: lowestNameModel() });
    expect(address!.value).toBe('7 Jalan Selatan, 81100 Johor Bahru');
  });
});

describe('amounts grouped by a space on a photographed page', () => {
  const TOTAL: FieldDefinition = { name: 'invoice.total', kind: 'amount' };

  /**
   * `Amount due: 20 456,13 PLN` (a thousands group a space apart: 0.004 of the page, a third of the
   * print's height), OCR's layout having parted the line after `20` (its baseline wavered there).
   */
  function partedLine(source: 'ocr' | 'text') {
    const layer = receiptLayer(['WISLA SP Z OO', 'Poznan', 'Amount due: 20 456,13 PLN']);
    const twenty = layer.tokens.find((t) => t.text === '20')!;
    let x = twenty.box.x1 + 0.004;
    const tokens = layer.tokens.map((t) => {
      if (t.id <= twenty.id) return { ...t, source };
      const width = t.box.x1 - t.box.x0;
      const moved = { ...t, source, lineId: 99, box: { ...t.box, x0: x, x1: x + width } };
      x += width + 0.004;
      return moved;
    });
    return { ...layer, tokens };
  }

  it("are one amount across OCR's line break where no gap parts them", () => {
    const [total] = extractFields(partedLine('ocr'), { fields: [TOTAL], ranker: false });
    expect(total!.value).toBe('20456.13');
  });

  it("in a text layer, whose lines end only at gaps, a line's end still parts two numbers", () => {
    const [total] = extractFields(partedLine('text'), { fields: [TOTAL], ranker: false });
    expect(total!.value).toBe('456.13');
  });
});
