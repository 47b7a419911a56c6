import { describe, expect, it } from 'vitest';
import {
  IBAN_LENGTHS,
  isLuhnValid,
  isMod10v1Valid,
  normaliseAbn,
  normaliseBic,
  normaliseBsb,
  normaliseIban,
  normaliseVatId,
  parseBpayBiller,
  parseBpayCrn,
} from '../../../src/extraction/normalise/ids.js';

describe('normaliseAbn', () => {
  it.each([
    ['51 824 753 556', '51824753556'],
    ['51824753556', '51824753556'],
    ['33 051 775 556', '33051775556'],
    ['53 004 085 616', '53004085616'],
    ['83\u00A0914\u00A0571\u00A0673', '83914571673'],
  ])('accepts %j as %s', (text, abn) => {
    expect(normaliseAbn(text)).toBe(abn);
  });

  it.each([
    '51 824 753 557',
    '12 345 678 901',
    '01 824 753 556',
    '5182475355',
    '518247535560',
    '51-824-753-556',
    'ABN 51 824 753 556',
    '',
  ])('rejects %j', (text) => {
    expect(normaliseAbn(text)).toBeUndefined();
  });
});

describe('normaliseBsb', () => {
  it.each([
    ['123-456', '123-456'],
    ['123 456', '123-456'],
    ['123456', '123-456'],
    [' 062-000 ', '062-000'],
    ['123\u2013456', '123-456'],
  ])('reads %j as %s', (text, bsb) => {
    expect(normaliseBsb(text)).toBe(bsb);
  });

  it.each(['12-3456', '1234567', '12345', '123--456', '123 - 456', '123.456', 'abc-def', ''])(
    'rejects %j',
    (text) => {
      expect(normaliseBsb(text)).toBeUndefined();
    },
  );
});

describe('normaliseIban', () => {
  it.each([
    ['DE89 3704 0044 0532 0130 00', 'DE89370400440532013000'],
    ['GB82 WEST 1234 5698 7654 32', 'GB82WEST12345698765432'],
    ['gb82 west 1234 5698 7654 32', 'GB82WEST12345698765432'],
    ['FR14 2004 1010 0505 0001 3M02 606', 'FR1420041010050500013M02606'],
    ['NL91 ABNA 0417 1643 00', 'NL91ABNA0417164300'],
    ['BE68 5390 0754 7034', 'BE68539007547034'],
    ['CH93 0076 2011 6238 5295 7', 'CH9300762011623852957'],
    ['NO93 8601 1117 947', 'NO9386011117947'],
    ['AT61 1904 3002 3457 3201', 'AT611904300234573201'],
    ['ES91 2100 0418 4502 0005 1332', 'ES9121000418450200051332'],
    ['IT60 X054 2811 1010 0000 0123 456', 'IT60X0542811101000000123456'],
    ['MT84 MALT 0110 0001 2345 MTLC AST0 01S', 'MT84MALT011000012345MTLCAST001S'],
  ])('accepts %j', (text, iban) => {
    expect(normaliseIban(text)).toBe(iban);
  });

  it.each([
    ['a wrong check', 'DE89 3704 0044 0532 0130 01'],
    ['a wrong check', 'GB82 WEST 1234 5698 7654 33'],
    ['swapped digits', 'DE98 3704 0044 0532 0130 00'],
    ['a short length', 'DE89 3704 0044 0532 0130 0'],
    ['a long length', 'DE89 3704 0044 0532 0130 000'],
    ['an unknown country', 'XX89 3704 0044 0532 0130 00'],
    ['no check digits', 'DEAB 3704 0044 0532 0130 00'],
    ['punctuation', 'DE89-3704-0044-0532-0130-00'],
    ['empty text', ''],
  ])('rejects %s: %j', (_why, text) => {
    expect(normaliseIban(text)).toBeUndefined();
  });

  it('has the registry lengths', () => {
    expect(IBAN_LENGTHS['DE']).toBe(22);
    expect(IBAN_LENGTHS['NO']).toBe(15);
    expect(IBAN_LENGTHS['LC']).toBe(32);
    expect(Object.keys(IBAN_LENGTHS).length).toBeGreaterThanOrEqual(85);
  });
});

describe('normaliseBic', () => {
  it.each([
    ['DEUTDEFF', 'DEUTDEFF'],
    ['DEUTDEFF500', 'DEUTDEFF500'],
    ['DEUT DE FF 500', 'DEUTDEFF500'],
    ['NWBKGB2L', 'NWBKGB2L'],
    ['BNPAFRPPXXX', 'BNPAFRPPXXX'],
    ['MBBEMYKL', 'MBBEMYKL'],
  ])('accepts %j', (text, bic) => {
    expect(normaliseBic(text)).toBe(bic);
  });

  it.each([
    'DEUTXXFF',
    'DEUTDEF',
    'DEUTDEFF50',
    'DEUTDEFF5000',
    '1EUTDEFF',
    'DEUT1EFF',
    'deutdeff',
    'INVOICES',
    'DEUT-DE-FF',
    '',
  ])('rejects %j', (text) => {
    expect(normaliseBic(text)).toBeUndefined();
  });
});

describe('normaliseVatId', () => {
  it.each([
    ['ATU12345678', 'AT', 'ATU12345678'],
    ['BE0403170701', 'BE', 'BE0403170701'],
    ['BE 0403.170.701', 'BE', 'BE0403170701'],
    ['BE0417497106', 'BE', 'BE0417497106'],
    ['BG123456789', 'BG', 'BG123456789'],
    ['BG1234567890', 'BG', 'BG1234567890'],
    ['CY12345678X', 'CY', 'CY12345678X'],
    ['CZ12345678', 'CZ', 'CZ12345678'],
    ['CZ1234567890', 'CZ', 'CZ1234567890'],
    ['DE 123 456 789', 'DE', 'DE123456789'],
    ['de123456789', 'DE', 'DE123456789'],
    ['DK12345678', 'DK', 'DK12345678'],
    ['EE123456789', 'EE', 'EE123456789'],
    ['EL123456789', 'GR', 'EL123456789'],
    ['GR 123 456 789', 'GR', 'EL123456789'],
    ['ESA12345678', 'ES', 'ESA12345678'],
    ['ES12345678Z', 'ES', 'ES12345678Z'],
    ['ESX1234567L', 'ES', 'ESX1234567L'],
    ['FI12345678', 'FI', 'FI12345678'],
    ['FR40303265045', 'FR', 'FR40303265045'],
    ['FR 40 303 265 045', 'FR', 'FR40303265045'],
    ['FR44732829320', 'FR', 'FR44732829320'],
    ['FRK7303265045', 'FR', 'FRK7303265045'],
    ['HR12345678901', 'HR', 'HR12345678901'],
    ['HU12345678', 'HU', 'HU12345678'],
    ['IE1234567T', 'IE', 'IE1234567T'],
    ['IE1234567TW', 'IE', 'IE1234567TW'],
    ['IE1A23456T', 'IE', 'IE1A23456T'],
    ['IT00743110157', 'IT', 'IT00743110157'],
    ['IT 07643520567', 'IT', 'IT07643520567'],
    ['LT123456789', 'LT', 'LT123456789'],
    ['LT123456789012', 'LT', 'LT123456789012'],
    ['LU12345678', 'LU', 'LU12345678'],
    ['LV12345678901', 'LV', 'LV12345678901'],
    ['MT12345678', 'MT', 'MT12345678'],
    ['NL004495445B01', 'NL', 'NL004495445B01'],
    ['NL 0044.95.445.B.01', 'NL', 'NL004495445B01'],
    ['NL000099998B57', 'NL', 'NL000099998B57'],
    ['PL1234567890', 'PL', 'PL1234567890'],
    ['PL 123-456-78-90', 'PL', 'PL1234567890'],
    ['PT123456789', 'PT', 'PT123456789'],
    ['RO12', 'RO', 'RO12'],
    ['RO1234567890', 'RO', 'RO1234567890'],
    ['SE123456789001', 'SE', 'SE123456789001'],
    ['SI12345678', 'SI', 'SI12345678'],
    ['SK1234567890', 'SK', 'SK1234567890'],
    ['GB123456789', 'GB', 'GB123456789'],
    ['GB 123 4567 89', 'GB', 'GB123456789'],
    ['GB123456789012', 'GB', 'GB123456789012'],
    ['GBGD001', 'GB', 'GBGD001'],
    ['GBHA599', 'GB', 'GBHA599'],
    ['XI123456789', 'GB', 'XI123456789'],
    ['CHE-123.456.789', 'CH', 'CHE-123.456.789'],
    ['CHE-123.456.789 MWST', 'CH', 'CHE-123.456.789 MWST'],
    ['CHE 123 456 789 TVA', 'CH', 'CHE-123.456.789 TVA'],
    ['CHE123456789IVA', 'CH', 'CHE-123.456.789 IVA'],
    ['NO 123 456 789 MVA', 'NO', 'NO123456789MVA'],
    ['123456789MVA', 'NO', 'NO123456789MVA'],
    ['NO123456789', 'NO', 'NO123456789MVA'],
    ['27AAPFU0939F1ZV', 'IN', '27AAPFU0939F1ZV'],
    ['27aapfu0939f1zv', 'IN', '27AAPFU0939F1ZV'],
    ['001234567890', 'MY', '001234567890'],
    ['0012 3456 7890', 'MY', '001234567890'],
    ['W10-1808-31000123', 'MY', 'W10-1808-31000123'],
    ['W10 1808 31000123', 'MY', 'W10-1808-31000123'],
    ['W10180831000123', 'MY', 'W10-1808-31000123'],
  ])('reads %j', (text, country, value) => {
    expect(normaliseVatId(text)).toEqual({ country, value });
  });

  it.each([
    ['a BE check failure', 'BE0403170702'],
    ['a BE leading digit', 'BE2403170701'],
    ['a FR key failure', 'FR40303265046'],
    ['a FR key with I or O', 'FRIO303265045'],
    ['an IT check failure', 'IT00743110158'],
    ['an all-zero IT id', 'IT00000000000'],
    ['an NL check failure', 'NL123456789B01'],
    ['an NL id without B', 'NL004495445001'],
    ['AT without U', 'AT12345678'],
    ['a short DE id', 'DE12345678'],
    ['a long DE id', 'DE1234567890'],
    ['ES with digits at both ends', 'ES123456789'],
    ['IE without a letter', 'IE12345678'],
    ['RO with a leading zero', 'RO0123'],
    ['SI with a leading zero', 'SI01234567'],
    ['GB GD over 499', 'GBGD500'],
    ['GB HA under 500', 'GBHA499'],
    ['a short CHE id', 'CHE-123.456.78'],
    ['CHE with another suffix', 'CHE-123.456.789 VAT'],
    ['Norwegian digits alone', '123456789'],
    ['an ABN', '51 824 753 556'],
    ['GSTIN state 00', '00AAPFU0939F1ZV'],
    ['GSTIN without Z', '27AAPFU0939F1XV'],
    ['GSTIN with a wrong check character', '27AAPFU0939F1ZW'],
    ['12 digits without 00', '123456789012'],
    ['a short SST id', 'W10-1808-3100012'],
    ['an unknown prefix', 'US123456789'],
    ['trailing text', 'DE123456789X'],
    ['other punctuation', 'DE123456789/'],
    ['empty text', ''],
  ])('rejects %s: %j', (_why, text) => {
    expect(normaliseVatId(text)).toBeUndefined();
  });
});

describe('Luhn and MOD10V1', () => {
  it.each([
    ['79927398713', true],
    ['79927398710', false],
    ['4111111111111111', true],
    ['18', true],
    ['12345678903', true],
    ['1234567890', false],
    ['', false],
    ['7', false],
    ['12a4', false],
    ['1234 5678', false],
  ])('checks %j: %s', (digits, valid) => {
    expect(isLuhnValid(digits)).toBe(valid);
    expect(isMod10v1Valid(digits)).toBe(valid);
  });
});

describe('BPAY', () => {
  it('reads biller codes of 3 to 10 digits and reports the check digit', () => {
    expect(parseBpayBiller('75556')).toEqual({ value: '75556', checksumValid: true });
    expect(parseBpayBiller('23796')).toEqual({ value: '23796', checksumValid: true });
    expect(parseBpayBiller('123')).toEqual({ value: '123', checksumValid: false });
    expect(parseBpayBiller('1234567890')).toEqual({ value: '1234567890', checksumValid: false });
    expect(parseBpayBiller(' 130 112 ')).toEqual({ value: '130112', checksumValid: true });
  });

  it.each(['12', '12345678901', '12a45', '12-345', ''])('rejects the biller code %j', (text) => {
    expect(parseBpayBiller(text)).toBeUndefined();
  });

  it('reads CRNs of 2 to 20 digits with spaces ignored and reports the check digit', () => {
    expect(parseBpayCrn('18')).toEqual({ value: '18', checksumValid: true });
    expect(parseBpayCrn('21')).toEqual({ value: '21', checksumValid: false });
    expect(parseBpayCrn('1234 5678 9012 3456 7894')).toEqual({
      value: '12345678901234567894',
      checksumValid: true,
    });
    expect(parseBpayCrn('1234 5678 9012 3456 7897')).toEqual({
      value: '12345678901234567897',
      checksumValid: false,
    });
  });

  it.each(['1', '123456789012345678901', '1234-5678', 'CRN 1234', ''])('rejects the CRN %j', (text) => {
    expect(parseBpayCrn(text)).toBeUndefined();
  });
});
