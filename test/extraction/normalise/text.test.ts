import { describe, expect, it } from 'vitest';
import { compactId, isAscii, mayHoldDigits, normaliseText } from '../../../src/extraction/normalise/text.js';

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

describe('isAscii', () => {
  it.each([
    ['Invoice No. 12/34-5', true],
    ['', true],
    ['\t\n~', true],
    ['Straße', false],
    ['１２', false],
    ['12\u00A0000', false],
    ['\u{1F600}', false],
  ])('%j is ASCII: %j', (text, expected) => {
    expect(isAscii(text)).toBe(expected);
    // What the fast paths rely on: NFKC leaves ASCII text unchanged.
    if (expected) expect(text.normalize('NFKC')).toBe(text);
  });
});

describe('mayHoldDigits', () => {
  it.each([
    ['ABN 51 824 753 556', true],
    ['Invoice', false],
    ['', false],
    ['１２３', true],
    ['²', true],
    ['Straße', true],
  ])('%j may hold digits: %j', (text, expected) => {
    expect(mayHoldDigits(text)).toBe(expected);
  });
});
