import { describe, expect, it } from 'vitest';
import { compactId, normaliseText } from '../../../src/extraction/normalise/text.js';

describe('normaliseText', () => {
  it.each([
    ['  Invoice   Number: ', 'Invoice Number'],
    ['Invoice No.:', 'Invoice No.'],
    ['Total,', 'Total'],
    ['Total :,', 'Total'],
    ['Due\n\tDate', 'Due Date'],
    ['Rechnungs\u00A0Nr.', 'Rechnungs Nr.'],
    ['１２３ＡＢＣ', '123ABC'],
    ['ﬁnal total', 'final total'],
    ['a: b, c', 'a: b, c'],
    ['', ''],
    [' : ', ''],
  ])('normalises %j to %j', (text, expected) => {
    expect(normaliseText(text)).toBe(expected);
  });
});

describe('compactId', () => {
  it.each([
    ['INV-2024 / 001', 'INV-2024/001'],
    [' AB 12 34 ', 'AB1234'],
    ['No. 12_3', 'No.12_3'],
    ['#12345', '12345'],
    ['(A1):', 'A1'],
    ['Ｎｏ１２', 'No12'],
    ['Rechnung\u00A0Ä-7', 'RechnungÄ-7'],
    ['', ''],
  ])('compacts %j to %j', (text, expected) => {
    expect(compactId(text)).toBe(expected);
  });
});
