import { describe, expect, it } from 'vitest';
import type { Token, TokenLayer } from '../../src/core/types.js';
import { chooseAcrossReadings, chooseAnswer, readingFeatures } from '../../src/extraction/readings.js';
import type { VerboseFieldResult } from '../../src/extraction/types.js';

function layer(words: Array<[string, number, number]>): TokenLayer {
  const tokens: Token[] = words.map(([text, x, y], id) => ({
    id,
    text,
    pageNum: 1,
    box: { x0: x, y0: y, x1: x + 0.1, y1: y + 0.02 },
    confidence: 0.8,
    source: 'ocr',
    lineId: 0,
  }));
  return {
    formatVersion: 1,
    fileId: 'f',
    mediaType: 'image/jpeg',
    pages: [{ pageNum: 1, width: 100, height: 100, unit: 'px', rotation: 0, source: 'ocr' }],
    tokens,
    lines: [],
    blocks: [],
    createdAt: '2026-11-23T00:00:00.000Z',
  };
}

const box = (x: number, y: number, tokenIds: number[]) => ({
  pageNum: 1,
  topLeft: { x, y },
  bottomRight: { x: x + 0.1, y: y + 0.02 },
  tokenIds,
});

describe('choosing per field across readings', () => {
  // The first reading misread the total (faint print); the second read it, at the same place.
  const first = layer([
    ['TOTAL', 0.1, 0.5],
    ['12.S0', 0.5, 0.5],
    ['2024-01-05', 0.5, 0.1],
  ]);
  const second = layer([
    ['2024-01-05', 0.5, 0.1],
    ['TOTAL', 0.1, 0.5],
    ['12.50', 0.5, 0.5],
  ]);
  const firstFields: VerboseFieldResult[] = [
    { name: 'receipt.total', value: null, confidence: 0, boundingBox: null },
    { name: 'document.date', value: '2024-01-05', confidence: 0.7, boundingBox: box(0.5, 0.1, [2]) },
    { name: 'document.supplierName', value: 'SHOP A', confidence: 0.6, boundingBox: null },
    { name: 'invoice.lineitems', value: { headers: ['Item'], rows: [] }, confidence: 0.5, boundingBox: null },
  ];
  const secondFields: VerboseFieldResult[] = [
    {
      name: 'receipt.total',
      value: '12.50',
      confidence: 0.8,
      boundingBox: box(0.5, 0.5, [2]),
      candidates: [{ value: '12.50', confidence: 0.8, boundingBox: box(0.5, 0.5, [2]), text: '12.50' }],
    },
    { name: 'document.date', value: '2024-01-05', confidence: 0.9, boundingBox: box(0.5, 0.1, [0]) },
    { name: 'document.supplierName', value: 'SH0P A', confidence: 0.4, boundingBox: null },
    {
      name: 'invoice.lineitems',
      value: { headers: ['Item', 'Qty'], rows: [] },
      confidence: 0.9,
      boundingBox: null,
    },
  ];
  const chosen = chooseAcrossReadings(first, firstFields, [{ layer: second, fields: secondFields }]);

  it('takes an answer only the other reading has, its box pointing at the stored layer’s tokens', () => {
    expect(chosen[0]).toMatchObject({ value: '12.50', confidence: 0.8, boundingBox: box(0.5, 0.5, [1]) });
    expect(chosen[0]!.candidates![0]!.boundingBox).toEqual(box(0.5, 0.5, [1]));
  });

  it('an answer both readings give keeps the first one’s box and the higher confidence', () => {
    expect(chosen[1]).toEqual({ ...firstFields[1], confidence: 0.9 });
  });

  it('of two different answers keeps the more confident one; tables stay the first reading’s', () => {
    expect(chosen[2]).toEqual(firstFields[2]);
    expect(chosen[3]).toBe(firstFields[3]);
  });

  it('a value a memory filled in where another reading found nothing printed does not outweigh the first’s', () => {
    const address = (value: string, confidence: number, extra: Partial<VerboseFieldResult> = {}) => ({
      name: 'document.supplierAddress',
      value,
      confidence,
      boundingBox: box(0.1, 0.2, [0]),
      ...extra,
    });
    const printed = address('No. 38, Jalan PKM 23/22', 0.6);
    const filled = address('No. 60, Jalan PKM 23/22', 0.9, {
      boundingBox: null,
      learned: { supplierId: 's', documents: 1, how: 'value' },
    });
    expect(chooseAcrossReadings(first, [printed], [{ layer: second, fields: [filled] }])[0]).toEqual(printed);
    // Where the first reading found nothing, the fill answers.
    const none = address('', 0, { value: null, boundingBox: null });
    expect(chooseAcrossReadings(first, [none], [{ layer: second, fields: [filled] }])[0]!.value).toBe(
      'No. 60, Jalan PKM 23/22',
    );
  });

  it('with one reading, the fields are the first reading’s', () => {
    expect(chooseAcrossReadings(first, firstFields, [])).toEqual(firstFields);
  });
});

describe('amounts and dates chosen by the support of every reading', () => {
  type Alternatives = Array<{ value: string; confidence: number }>;
  const answer = (value: string, confidence: number, candidates?: Alternatives) => ({
    value,
    confidence,
    ...(candidates && { candidates }),
  });

  it('prefers the answer the other reading holds as its runner-up to a more confident one it alone sees', () => {
    // First reading: 32.70 (0.70), 31.05 unseen. Second: 31.05 (0.90), 32.70 its runner-up (0.40).
    const first = answer('32.70', 0.7, [{ value: '32.70', confidence: 0.7 }]);
    const second = answer('31.05', 0.9, [
      { value: '31.05', confidence: 0.9 },
      { value: '32.70', confidence: 0.4 },
    ]);
    expect(chooseAnswer(first, [second], 'amount', undefined).answer.value).toBe('32.70');
    expect(chooseAnswer(first, [second], 'date', undefined).answer.value).toBe('32.70');
    // Names are not pooled (a misread letter makes two readings' names differ): the more confident.
    expect(chooseAnswer(first, [second], 'name', undefined).answer.value).toBe('31.05');
  });

  it('counts the first reading more, and a second reading that sees only its own answer wins when surer', () => {
    expect(chooseAnswer(answer('1.00', 0.6), [answer('7.00', 0.7)], 'amount', undefined).answer.value).toBe(
      '1.00',
    );
    expect(chooseAnswer(answer('1.00', 0.6), [answer('7.00', 0.75)], 'amount', undefined).answer.value).toBe(
      '7.00',
    );
    // Without pooling, the more confident.
    expect(chooseAnswer(answer('1.00', 0.6), [answer('7.00', 0.7)], 'name', undefined).answer.value).toBe(
      '7.00',
    );
  });

  it('adds up the support of several further readings', () => {
    const first = answer('5.00', 0.8, [{ value: '5.00', confidence: 0.8 }]);
    const others = [
      answer('10.00', 0.6, [
        { value: '10.00', confidence: 0.6 },
        { value: '5.00', confidence: 0.1 },
      ]),
      answer('10.00', 0.5),
    ];
    // 10.00: 0.6 + 0.5 = 1.1 against 5.00: 1.2 x 0.8 + 0.1 = 1.06.
    expect(chooseAnswer(first, others, 'amount', undefined)).toMatchObject({
      answer: { value: '10.00' },
      agreement: 'disagree',
    });
  });
});

describe('names: the reading that kept more of the name', () => {
  const answer = (value: string, confidence: number) => ({ value, confidence });

  it('gives the name that holds every word of the other and more, even when less confident', () => {
    // A stamp over the name: the first reading kept its last word only.
    const chosen = chooseAnswer(
      answer('MARKET', 0.92),
      [answer('FUYI MINI MARKET', 0.81)],
      'name',
      undefined,
    );
    expect(chosen).toMatchObject({
      answer: { value: 'FUYI MINI MARKET' },
      confidence: 0.81,
      agreement: 'disagree',
    });
    // And the other way round.
    expect(
      chooseAnswer(answer('Home Master Hardware', 0.6), [answer('Hardware', 0.7)], 'name', undefined).answer
        .value,
    ).toBe('Home Master Hardware');
  });

  it('compares words, not letters or punctuation, and leaves other groups to confidence', () => {
    // A misread word: neither holds the other, the more confident.
    expect(
      chooseAnswer(
        answer('LAN HING SDN BHD', 0.9),
        [answer('LIAN HING STATIONERY SDN BHD', 0.8)],
        'name',
        undefined,
      ).answer.value,
    ).toBe('LAN HING SDN BHD');
    // The same words in other cases and punctuation are no more words.
    expect(
      chooseAnswer(
        answer('Sun Victory Sdn. Bhd.', 0.9),
        [answer('SUN VICTORY SDN BHD', 0.8)],
        'name',
        undefined,
      ).answer.value,
    ).toBe('Sun Victory Sdn. Bhd.');
    // An address is not a name.
    expect(
      chooseAnswer(answer('Jalan 3', 0.9), [answer('No 5, Jalan 3', 0.8)], 'address', undefined).answer.value,
    ).toBe('Jalan 3');
  });
});

describe('the confidence of an answer chosen across readings', () => {
  const answer = (value: string | null, confidence: number) => ({ value, confidence });
  // Weights over readingFeatures (bias, log-odds, date, amount, name, address): agreement adds 3 to
  // the log-odds, disagreement takes 2 off.
  const calibration = { agree: [3, 1, 0, 0, 0, 0], disagree: [-2, 1, 0, 0, 0, 0] };
  const logistic = (z: number) => Math.round((1 / (1 + Math.exp(-z))) * 1000) / 1000;
  const logit = (p: number) => Math.log(p / (1 - p));

  it('tells readings that agree, disagree, or where only one has an answer', () => {
    expect(chooseAnswer(answer('1.00', 0.6), [answer('1.00', 0.7)], 'amount', undefined)).toMatchObject({
      agreement: 'agree',
      confidence: 0.7,
    });
    expect(chooseAnswer(answer('1.00', 0.6), [answer('7.00', 0.8)], 'amount', undefined)).toMatchObject({
      answer: { value: '7.00' },
      agreement: 'disagree',
      confidence: 0.8,
    });
    expect(chooseAnswer(answer(null, 0), [answer('7.00', 0.7)], 'amount', undefined)).toMatchObject({
      agreement: 'alone',
    });
    expect(chooseAnswer(answer(null, 0), [answer(null, 0)], 'amount', undefined).agreement).toBeUndefined();
    // A single reading: nothing to agree with.
    expect(chooseAnswer(answer('1.00', 0.6), [], 'amount', undefined).agreement).toBeUndefined();
  });

  it('turns the chosen answer’s confidence into one that counts the agreement', () => {
    const agreed = chooseAnswer(answer('1.00', 0.6), [answer('1.00', 0.7)], 'amount', calibration);
    expect(agreed.confidence).toBe(logistic(3 + logit(0.7)));
    const differed = chooseAnswer(answer('1.00', 0.6), [answer('7.00', 0.8)], 'amount', calibration);
    expect(differed.confidence).toBe(logistic(-2 + logit(0.8)));
    // No weights for `alone`: the reading's confidence stays.
    expect(chooseAnswer(answer(null, 0), [answer('7.00', 0.7)], 'amount', calibration).confidence).toBe(0.7);
    // The group has a bias of its own.
    expect(readingFeatures(0.5, 'date')).toEqual([1, 0, 1, 0, 0, 0]);
    expect(readingFeatures(0.5, 'reference')).toEqual([1, 0, 0, 0, 0, 0]);
  });

  it('gives extraction’s fields the calibrated confidence, boxes as before', () => {
    const one = layer([['12.50', 0.5, 0.5]]);
    const field = (value: string, confidence: number): VerboseFieldResult => ({
      name: 'receipt.total',
      value,
      confidence,
      calibration: { key: 'amount/ocr', evidence: confidence },
      boundingBox: box(0.5, 0.5, [0]),
    });
    const [same] = chooseAcrossReadings(
      one,
      [field('12.50', 0.6)],
      [{ layer: one, fields: [field('12.50', 0.7)] }],
      calibration,
    );
    expect(same).toEqual({ ...field('12.50', 0.6), confidence: logistic(3 + logit(0.7)) });
    const [other] = chooseAcrossReadings(
      one,
      [field('12.50', 0.6)],
      [{ layer: one, fields: [field('12.80', 0.8)] }],
      calibration,
    );
    expect(other).toMatchObject({
      value: '12.80',
      confidence: logistic(-2 + logit(0.8)),
      boundingBox: box(0.5, 0.5, [0]),
    });
  });
});
