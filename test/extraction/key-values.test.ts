/**
 * The generic fieldset (`svc.generic`): every label/value pair printed on a document, on a generated
 * form whose pairs are known: `Label: value`, `Label:` with its value past a gap, `Label:` with its
 * value below, `Label     value`, and a header table (labels over one row of values); typed dates and
 * amounts; boxes on the right words; no pairs made of a table's rows.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { createEngine, type Engine } from '../../src/index.js';
import type { TableValue } from '../../src/extraction/types.js';
import { makeTextPdf, type TextLine } from '../helpers/make-documents.js';

const FORM: TextLine[] = [
  { text: 'Application for a parking permit', x: 50, y: 60, size: 16, bold: true },
  { text: 'Applicant: Jane Citizen', x: 50, y: 110, size: 11 },
  { text: 'Date of birth: 02/09/1987', x: 50, y: 130, size: 11 },
  { text: 'Permit number:', x: 50, y: 150, size: 11 },
  { text: 'PK-88213', x: 260, y: 150, size: 11 },
  { text: 'Postal address:', x: 50, y: 180, size: 11 },
  { text: '12 Harbour Street, Fremantle WA 6160', x: 50, y: 195, size: 11 },
  { text: 'Fee paid', x: 50, y: 230, size: 11 },
  { text: '$ 85.50', x: 300, y: 230, size: 11 },
  // A table: rows of three or more runs are not pairs.
  { text: 'Zone', x: 50, y: 280, size: 11, bold: true },
  { text: 'Days', x: 200, y: 280, size: 11, bold: true },
  { text: 'Price', x: 350, y: 280, size: 11, bold: true },
  { text: 'Central', x: 50, y: 300, size: 11 },
  { text: '30', x: 200, y: 300, size: 11 },
  { text: '85.50', x: 350, y: 300, size: 11 },
  { text: 'Harbour', x: 50, y: 320, size: 11 },
  { text: '90', x: 200, y: 320, size: 11 },
  { text: '120.00', x: 350, y: 320, size: 11 },
  // A header table: a row of labels over one row of values.
  { text: 'Issue date', x: 50, y: 370, size: 11, bold: true },
  { text: 'Expiry date', x: 250, y: 370, size: 11, bold: true },
  { text: '01/07/2026', x: 50, y: 388, size: 11 },
  { text: '30/06/2027', x: 250, y: 388, size: 11 },
];

let engine: Engine;
let table: TableValue;
let confidence = 0;

beforeAll(async () => {
  engine = createEngine({ ingest: { ocr: 'never' } });
  const file = await engine.upload(await makeTextPdf([{ lines: FORM }]));
  const result = await engine.extract(file.fileId, ['svc.generic']);
  expect(result.fields.map((f) => f.name)).toEqual(['generic.keyValues']);
  table = result.fields[0]!.value as TableValue;
  confidence = result.fields[0]!.confidence;
});
afterAll(() => engine.close());

const rows = () =>
  table.rows.map((row) => ({
    key: row[0]!.value,
    value: row[1]!.value,
    type: row[2]!.value,
    normalised: row[3]!.value,
    confidence: Number(row[4]!.value),
  }));

describe('svc.generic: label/value pairs', () => {
  it('answers a table of key, value, type, normalised value and confidence', () => {
    expect(table.headers).toEqual(['key', 'value', 'type', 'normalised', 'confidence']);
    expect(confidence).toBeGreaterThan(0);
    expect(confidence).toBeLessThanOrEqual(1);
  });

  it('finds the pairs of each layout, typed when the value is a date or an amount', () => {
    expect(rows().map(({ key, value, type, normalised }) => ({ key, value, type, normalised }))).toEqual([
      { key: 'Applicant', value: 'Jane Citizen', type: 'text', normalised: 'Jane Citizen' },
      {
        key: 'Date of birth',
        value: '02/09/1987',
        type: 'date',
        normalised: expect.stringMatching(/^1987-/),
      },
      { key: 'Permit number', value: 'PK-88213', type: 'text', normalised: 'PK-88213' },
      {
        key: 'Postal address',
        value: '12 Harbour Street, Fremantle WA 6160',
        type: 'text',
        normalised: '12 Harbour Street, Fremantle WA 6160',
      },
      { key: 'Fee paid', value: '$ 85.50', type: 'amount', normalised: '85.5' },
      { key: 'Issue date', value: '01/07/2026', type: 'date', normalised: expect.stringMatching(/^2026-/) },
      { key: 'Expiry date', value: '30/06/2027', type: 'date', normalised: '2027-06-30' },
    ]);
    for (const row of rows()) {
      expect(row.confidence).toBeGreaterThan(0);
      expect(row.confidence).toBeLessThan(1);
    }
    // A colon on the same line is the surest layout; a value found below the surest of none.
    const byKey = new Map(rows().map((r) => [r.key, r.confidence]));
    expect(byKey.get('Applicant')!).toBeGreaterThan(byKey.get('Postal address')!);
  });

  it('gives the key and the value their own boxes on the page', () => {
    const permit = table.rows.find((r) => r[0]!.value === 'Permit number')!;
    const key = permit[0]!.boundingBox!;
    const value = permit[1]!.boundingBox!;
    expect(key.pageNum).toBe(1);
    expect(value.pageNum).toBe(1);
    expect(value.topLeft.x).toBeGreaterThan(key.bottomRight.x);
    expect(value.tokenIds.length).toBe(1);
    const address = table.rows.find((r) => r[0]!.value === 'Postal address')!;
    expect(address[1]!.boundingBox!.topLeft.y).toBeGreaterThan(address[0]!.boundingBox!.bottomRight.y);
  });

  it('works on any document and beside other fieldsets', async () => {
    const file = await engine.upload(await makeTextPdf([{ lines: FORM }]));
    const result = await engine.extract(file.fileId, ['invoices:2', 'svc.generic']);
    expect(result.fields.some((f) => f.name === 'invoice.total')).toBe(true);
    expect(result.fields.find((f) => f.name === 'generic.keyValues')?.value).toEqual(table);
  });
});
