import { describe, expect, it } from 'vitest';
import {
  lineItemNumbers,
  matchLineItems,
  predictedLineItems,
  scoreLineItems,
  type TrueLineItem,
} from '../../src/evaluation/line-item-scoring.js';

/**
 * Four documents whose figures the reference scorer gives as
 * `line items: docs=4 rows_true=8 rows_pred=8 P=0.875 R=0.875 F1=0.875 cells: description 0.71 (5/7)
 * quantity 1.00 (6/6) unit_price 1.00 (6/6) amount 0.86 (6/7)` (score.py run on the same tables).
 */
const DOCS: Array<{ truth: TrueLineItem[]; table: unknown }> = [
  {
    // Headings only, French, with accents Python's \b reads as letters (`Qté`), and a row too many.
    truth: [
      { description: "Nougat de l'Abbaye 250g", quantity: '20', unit_price: '4.55', amount: '81.90' },
      { description: 'Biscuits aux raisins 300g', quantity: '15', unit_price: '3.20', amount: '48.00' },
      { description: "Huile d'olive", quantity: '25', unit_price: '19.80', amount: '1495.00' },
    ],
    table: {
      headers: ['Désignation', 'Qté', 'Prix unitaire', 'Montant HT'],
      rows: [
        ["Nougat de l'Abbaye 250 g", '20', '4,55 €', '81,90 €'],
        ['Biscuits aux raisins', '15', '3,20', '48,00'],
        ["Huile d'olive", '25', '19,80', '1.495,00'],
        ['Frais de port', '1', '9,90', '9,90'],
      ],
    },
  },
  {
    // docex's own form: cells with values, columns by their types; a number grouped by a no-break space.
    truth: [
      { description: 'Consulting hours', quantity: '10', unit_price: '85.00', amount: '850.00' },
      { description: 'Travel', amount: '1829.64' },
    ],
    table: {
      headers: ['Item', 'Hours', 'Rate', 'Amount'],
      types: ['description', 'quantity', 'unitPrice', 'amount'],
      rows: [
        [{ value: 'Consulting hours' }, { value: '10' }, { value: '85.00' }, { value: '850.00' }],
        [{ value: 'Travel expenses (flights)' }, { value: '' }, { value: '' }, { value: '1\u00a0829,64' }],
      ],
    },
  },
  {
    // Row objects under any of the scorer's key spellings; the second pairs on quantity and price alone.
    truth: [
      { description: 'Widget', quantity: '2', unit_price: '5.00', amount: '10.00' },
      { description: 'Gadget', quantity: '1', unit_price: '7.50', amount: '7.50' },
    ],
    table: [
      { Description: 'Widget', Qty: '2', 'Unit Price': '5.00', 'Line Total': '10.00' },
      { desc: 'Gizmo', qty: '1', price: '7.50', total: '8.50' },
    ],
  },
  { truth: [{ description: 'Menge Test', quantity: '3', amount: '30.00' }], table: null },
];

describe('line items scored as the reference scorer scores them', () => {
  it('gives the reference scorer’s figures on the same tables', () => {
    const report = scoreLineItems(DOCS);
    expect(report).toMatchObject({ docs: 4, rowsTrue: 8, rowsPredicted: 8, rowsMatched: 7 });
    expect(report.f1).toBeCloseTo(0.875, 6);
    expect(report.cells).toEqual({
      description: { n: 7, correct: 5, accuracy: 5 / 7 },
      quantity: { n: 6, correct: 6, accuracy: 1 },
      unit_price: { n: 6, correct: 6, accuracy: 1 },
      amount: { n: 7, correct: 6, accuracy: 6 / 7 },
    });
  });

  it('takes columns from headings in the scorer’s order of rules', () => {
    const rows = predictedLineItems({
      headers: ['Pos', 'Art.-Nr.', 'Bezeichnung', 'Menge', 'Einzelpreis', 'USt %', 'Gesamt'],
      rows: [['1', 'A-100', 'Schrauben', '4', '2,50', '19', '10,00']],
    });
    expect(rows).toEqual([{ description: 'Schrauben', quantity: '4', unit_price: '2,50', amount: '10,00' }]);
  });

  it('reads every value a printed number can mean, as score.py does', () => {
    expect(lineItemNumbers('1.234,56')).toEqual([1234.56]);
    expect(lineItemNumbers('1,234')).toEqual([1.234, 1234]);
    expect(lineItemNumbers('-12.50 EUR')).toEqual([12.5]);
    expect(lineItemNumbers("1'250.00")).toEqual([1250]);
  });

  it('pairs rows one to one, best first', () => {
    const pairs = matchLineItems(
      [
        { description: 'Alpha', amount: '5.00' },
        { description: 'Beta', amount: '5.00' },
      ],
      predictedLineItems([
        { description: 'Beta', amount: '5.00' },
        { description: 'Alpha', amount: '5.00' },
      ]),
    );
    expect(pairs).toEqual([
      { true: 0, pred: 1, cells: { description: true, amount: true } },
      { true: 1, pred: 0, cells: { description: true, amount: true } },
    ]);
  });
});
