import { describe, expect, it } from 'vitest';
import { documentHints, US_CITY_STATE_ZIP } from '../../src/extraction/hints.js';
import { createView } from '../../src/extraction/view.js';
import { layerOfRows } from '../helpers/token-layer.js';

const hintsOf = (rows: string[][]) => documentHints(createView(layerOfRows(rows)));

describe('the date order a document prints', () => {
  it('is told by a date whose day or month is over 12', () => {
    expect(hintsOf([['Date', '14/03/2018']])).toMatchObject({ dateOrder: 'DMY', dateOrderSeen: true });
    expect(hintsOf([['Date', '03/14/2018']])).toMatchObject({ dateOrder: 'MDY', dateOrderSeen: true });
  });

  it('is not told by a time printed with dots, labelled or followed by am/pm', () => {
    // `Time 11.14.00` read as a date would say month first; the receipt's date is day first.
    expect(
      hintsOf([
        ['Date', '05/02/2018'],
        ['Time.', '11.14.00'],
      ]),
    ).toMatchObject({
      dateOrder: 'DMY',
      dateOrderSeen: false,
    });
    expect(hintsOf([['Date', '06/01/18', '12.17.26', 'PM']])).toMatchObject({ dateOrderSeen: false });
    // A date with dots and a two-digit year still tells, unlabelled as a time.
    expect(hintsOf([['Datum', '24.12.19']])).toMatchObject({ dateOrder: 'DMY', dateOrderSeen: true });
    expect(hintsOf([['Date', '12.24.19']])).toMatchObject({ dateOrder: 'MDY', dateOrderSeen: true });
  });
});

describe('a US city, state and ZIP code', () => {
  it("is an address's line, not a till's terminal id (Idaho only after a comma)", () => {
    expect(US_CITY_STATE_ZIP.test('Springfield, IL 62704')).toBe(true);
    expect(US_CITY_STATE_ZIP.test('SHREWSBURY MA 01545')).toBe(true);
    expect(US_CITY_STATE_ZIP.test('Boise, ID 83702')).toBe(true);
    expect(US_CITY_STATE_ZIP.test('AUTH# 382991   TERMINAL ID 04103')).toBe(false);
  });
});
