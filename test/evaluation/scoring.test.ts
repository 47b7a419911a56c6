import { describe, expect, it } from 'vitest';
import {
  fieldMapFor,
  normText,
  productFor,
  sameValue,
  scoreCorpus,
  type GroundTruth,
  type PredictedField,
} from '../../src/evaluation/scoring.js';
import { sequenceRatio } from '../../src/core/sequence-ratio.js';

const LONG_A = 'the quick brown fox jumps over the lazy dog '.repeat(6).trim();
const LONG_B = 'the quick brown fox jumped over the lazy dogs '.repeat(6).trim();

describe('sequenceRatio', () => {
  // Expected values from Python 3: difflib.SequenceMatcher(None, a, b).ratio().
  it.each([
    ['', '', 1.0],
    ['abc', '', 0.0],
    ['abc', 'abc', 1.0],
    ['abcd', 'bcde', 0.75],
    ['kitten', 'sitting', 0.6153846153846154],
    ['acme supplies pty ltd', 'acme supplies pty limited', 0.9130434782608695],
    ['beispiel gmbh', 'beispiel handels gmbh', 0.7647058823529411],
    ['12 harbour street sydney nsw 2000', '12 harbor st sydney nsw 2000', 0.9180327868852459],
    ['hauptstraße 5 10115 berlin', 'hauptstrasse 5 10115 berlin', 0.9433962264150944],
    ['abxcd', 'abcd', 0.8888888888888888],
    ['private thread', 'private threat', 0.9285714285714286],
    ['aaaa', 'aaab', 0.75],
    ['tide', 'diet', 0.25],
    ['Straße', 'Strasse', 0.7692307692307693],
    // Characters outside the BMP count once, as Python's str does.
    ['a\u{1F600}b c', 'a\u{1F600}b d', 0.8],
  ])('ratio(%j, %j) = %d', (a, b, want) => {
    expect(sequenceRatio(a, b)).toBeCloseTo(want, 12);
  });

  // With 200 characters or more in b, characters seen in over 1% of b are "popular" and only matched
  // by extending a match (difflib's autojunk): the ratios fall far below what the edits suggest.
  it.each([
    [LONG_A, LONG_B, 0.08921933085501858],
    ['x' + 'ab'.repeat(120), 'ab'.repeat(120) + 'y', 0.0],
    ['abc'.repeat(70) + 'zzz', 'abc'.repeat(70), 0.9929078014184397],
    [
      'lorem ipsum 2024-03-14 dolor sit amet '.repeat(6),
      'lorem ipsum 2024-03-15 dolor sit amet '.repeat(6),
      0.09210526315789473,
    ],
  ])('applies autojunk to long sequences (%#)', (a, b, want) => {
    expect(b.length).toBeGreaterThanOrEqual(200);
    expect(sequenceRatio(a, b)).toBeCloseTo(want, 12);
  });

  it('is symmetric in length and lies in [0, 1] on short strings', () => {
    for (const [a, b] of [
      ['invoice', 'invoices'],
      ['acme', 'acne'],
      ['x', 'yyyy'],
    ] as const) {
      const r = sequenceRatio(a, b);
      expect(r).toBeGreaterThanOrEqual(0);
      expect(r).toBeLessThanOrEqual(1);
      expect(sequenceRatio(b, a)).toBeCloseTo(r, 12);
    }
  });
});

describe('normText', () => {
  it('lower-cases, folds compatibility forms and keeps only letters, digits and _ as words', () => {
    expect(normText('ACME Supplies Pty. Ltd.')).toBe('acme supplies pty ltd');
    expect(normText('  Hauptstraße 5,\n10115  Berlin ')).toBe('hauptstraße 5 10115 berlin');
    expect(normText('ＡＢＣ－１２３')).toBe('abc 123');
    expect(normText('snake_case & co')).toBe('snake_case co');
    expect(normText('—')).toBe('');
  });
});

describe('sameValue', () => {
  it('compares amounts as numbers, within half a cent', () => {
    expect(sameValue('amount', '1234.50', '1,234.5')).toBe(true);
    expect(sameValue('amount', 1234.5, '1234.50')).toBe(true);
    expect(sameValue('amount', '-150.00', '-150')).toBe(true);
    expect(sameValue('amount', '12.344', '12.34')).toBe(true);
    expect(sameValue('amount', '12.35', '12.34')).toBe(false);
    expect(sameValue('amount', 'abc', '1.00')).toBe(false);
    expect(sameValue('amount', '', '0')).toBe(false);
    expect(sameValue('amount', '1.234,56', '1234.56')).toBe(false);
  });

  it('compares dates as trimmed strings', () => {
    expect(sameValue('date', ' 2024-03-14 ', '2024-03-14')).toBe(true);
    expect(sameValue('date', '2024-3-14', '2024-03-14')).toBe(false);
    expect(sameValue('date', '2024-03-14', '2024-03-15')).toBe(false);
  });

  it('compares codes without case, ids without case and spaces', () => {
    expect(sameValue('code', 'eur', ' EUR')).toBe(true);
    expect(sameValue('code', 'EUR', 'USD')).toBe(false);
    expect(sameValue('id', 'de 136 695 976', 'DE136695976')).toBe(true);
    expect(sameValue('id', 'inv001', 'INV 001')).toBe(true);
    expect(sameValue('id', 'INV-001', 'INV001')).toBe(false);
  });

  it('compares texts normalised, equal or with a ratio of at least 0.9', () => {
    expect(sameValue('text', 'ACME Supplies Pty. Ltd.', 'acme supplies pty ltd')).toBe(true);
    // ratio 0.913
    expect(sameValue('text', 'ACME Supplies Pty Ltd', 'ACME Supplies Pty Limited')).toBe(true);
    // ratio 0.765
    expect(sameValue('text', 'Beispiel GmbH', 'Beispiel Handels GmbH')).toBe(false);
    expect(sameValue('text', '...', '...')).toBe(false);
  });

  it('never accepts a missing value', () => {
    for (const kind of ['date', 'amount', 'code', 'id', 'text'] as const) {
      expect(sameValue(kind, null, 'x')).toBe(false);
      expect(sameValue(kind, undefined, '0')).toBe(false);
    }
  });
});

describe('the corpus vocabulary', () => {
  it('scores receipts with receipts:1 and everything else with invoices:2', () => {
    expect(productFor('receipt')).toBe('receipts:1');
    expect(productFor('invoice')).toBe('invoices:2');
    expect(productFor('credit_note')).toBe('invoices:2');
    expect(fieldMapFor('receipt').total).toBe('receipt.total');
    expect(fieldMapFor('invoice').total).toBe('invoice.total');
    expect(fieldMapFor('receipt').due_date).toBeUndefined();
  });
});

describe('scoreCorpus', () => {
  const truths: GroundTruth[] = [
    {
      file: 'a.pdf',
      type: 'invoice',
      format: 'pdf',
      fields: {
        total: '1,234.50',
        date: '2024-03-14',
        issuer: 'ACME Supplies Pty Ltd',
        invoice_number: 'INV 001',
        currency: 'eur',
        // Not scored: no value, or no kind.
        tax: null,
        notes: 'x',
      },
    },
    {
      file: 'b.png',
      type: 'receipt',
      format: 'png',
      // due_date is not a receipt field.
      fields: { total: '16.95', tax: '1.54', issuer: 'Corner Cafe', due_date: '2024-01-01' },
      accept: { total: ['17.00'] },
    },
    { file: 'c.pdf', type: 'invoice', fields: { total: '10.00', subtotal: '' } },
    { file: 'm.pdf', type: 'multi', fields: { total: '5.00' } },
  ];
  const predictions = new Map<string, PredictedField[] | undefined>([
    [
      'a.pdf',
      [
        { name: 'invoice.total', value: '1234.5', confidence: 0.95 },
        { name: 'document.date', value: '2024-03-14', confidence: 0.92 },
        { name: 'document.supplierName', value: 'ACME Supplies Pty. Ltd.', confidence: 0.85 },
        { name: 'document.referenceNo', value: 'inv001', confidence: 0.97 },
        { name: 'document.currency', value: 'EUR', confidence: 0.5 },
      ],
    ],
    [
      'b.png',
      [
        { name: 'receipt.total', value: '17.00', confidence: 0.91 },
        { name: 'receipt.tax', value: '1.45', confidence: 0.93 },
        { name: 'document.supplierName', value: null, confidence: 0 },
      ],
    ],
  ]);
  // The figures below were worked out by hand and agree with the reference scorer score.py on the same data.
  const report = scoreCorpus(truths, predictions);

  it('counts the scored fields, the right ones and the files without a result', () => {
    expect(report.fields).toBe(9);
    expect(report.correct).toBe(6);
    expect(report.accuracy).toBeCloseTo(6 / 9, 12);
    expect(report.filesMissing).toBe(1);
    expect(report.rows.map((r) => `${r.file}:${r.field}:${r.ok}`)).toEqual([
      'a.pdf:total:true',
      'a.pdf:date:true',
      'a.pdf:issuer:true',
      'a.pdf:invoice_number:true',
      'a.pdf:currency:true',
      'b.png:total:true',
      'b.png:tax:false',
      'b.png:issuer:false',
      'c.pdf:total:false',
    ]);
    expect(report.rows.find((r) => r.file === 'c.pdf')).toMatchObject({ got: null, confidence: null });
  });

  it('gives precision and recall per field', () => {
    expect(report.perField).toEqual({
      currency: { n: 1, correct: 1, predicted: 1, accuracy: 1, precision: 1, recall: 1 },
      date: { n: 1, correct: 1, predicted: 1, accuracy: 1, precision: 1, recall: 1 },
      invoice_number: { n: 1, correct: 1, predicted: 1, accuracy: 1, precision: 1, recall: 1 },
      issuer: { n: 2, correct: 1, predicted: 1, accuracy: 0.5, precision: 1, recall: 0.5 },
      tax: { n: 1, correct: 0, predicted: 1, accuracy: 0, precision: 0, recall: 0 },
      total: { n: 3, correct: 2, predicted: 2, accuracy: 2 / 3, precision: 1, recall: 2 / 3 },
    });
    expect(Object.keys(report.perField)).toEqual([
      'currency',
      'date',
      'invoice_number',
      'issuer',
      'tax',
      'total',
    ]);
  });

  it('gives accuracy per document type and format', () => {
    expect(report.byType).toEqual({
      'invoice/?': { n: 1, correct: 0, accuracy: 0 },
      'invoice/pdf': { n: 5, correct: 5, accuracy: 1 },
      'receipt/png': { n: 3, correct: 1, accuracy: 1 / 3 },
    });
  });

  it('measures calibration over the predicted values: reliability bins, ECE, precision at 0.9 and above', () => {
    // Pairs: 0.95 T, 0.92 T, 0.85 T, 0.97 T, 0.5 T, 0.91 T, 0.93 F (a null prediction gives none).
    const bins = Object.fromEntries(report.reliability.filter((b) => b.n > 0).map((b) => [b.bin, b]));
    expect(Object.keys(bins)).toEqual(['0.5-0.6', '0.8-0.9', '0.9-1.0']);
    expect(bins['0.5-0.6']).toMatchObject({ n: 1, shareCorrect: 1 });
    expect(bins['0.5-0.6']!.meanConfidence).toBeCloseTo(0.5, 12);
    expect(bins['0.8-0.9']).toMatchObject({ n: 1, shareCorrect: 1 });
    expect(bins['0.9-1.0']).toMatchObject({ n: 5, shareCorrect: 0.8 });
    expect(bins['0.9-1.0']!.meanConfidence).toBeCloseTo(0.936, 12);
    expect(report.reliability).toHaveLength(10);
    expect(report.reliability[0]).toEqual({ bin: '0.0-0.1', n: 0, meanConfidence: null, shareCorrect: null });
    // (|1 - 0.5| * 1 + |1 - 0.85| * 1 + |0.8 - 0.936| * 5) / 7
    expect(report.ece).toBeCloseTo(1.33 / 7, 12);
    expect(report.highConfidence).toEqual({ n: 5, precision: 0.8 });
  });

  it('answers zeros and nulls for an empty corpus', () => {
    const empty = scoreCorpus([], new Map());
    expect(empty).toMatchObject({
      accuracy: 0,
      fields: 0,
      correct: 0,
      filesMissing: 0,
      ece: 0,
      highConfidence: { n: 0, precision: null },
    });
  });
});
