import { describe, expect, it } from 'vitest';
import { findParties } from '../../../src/extraction/finders/parties.js';
import { createView } from '../../../src/extraction/view.js';
import { receiptLayer, TWO_COMPANY_RECEIPT } from '../../helpers/token-layer.js';

const partiesOf = (rows: readonly string[]) => findParties(createView(receiptLayer(rows)));

describe("the supplier's name and address", () => {
  it('takes a name followed by its company number, which is cut off', () => {
    const parties = partiesOf([
      '99 SPEED MART S/B (519537-X)',
      'LOT P.T. 2811, JALAN ANGSA',
      '41150 KLANG, SELANGOR',
      'INVOICE NO : 18311',
      'TOTAL 12.00',
    ]);
    expect(parties.supplierName[0]?.value).toBe('99 SPEED MART S/B');
    expect(parties.supplierAddress[0]?.value).toBe('LOT P.T. 2811, JALAN ANGSA, 41150 KLANG, SELANGOR');
  });

  it('keeps one line OCR garbled between two address lines, not one the address does not go on after', () => {
    const parties = partiesOf([
      'AIK HUAT HARDWARE SDN BHD',
      'NO. 17-G, JALAN SETIA INDAH',
      '(J) UL3/X, SEPIA ALA,',
      'SEKSYEN U13, 40170 SHAH ALAM',
      'TOTAL 12.00',
    ]);
    expect(parties.supplierAddress[0]?.value).toBe(
      'NO. 17-G, JALAN SETIA INDAH, (J) UL3/X, SEPIA ALA, SEKSYEN U13, 40170 SHAH ALAM',
    );
    const ended = partiesOf([
      'AIK HUAT HARDWARE SDN BHD',
      'NO. 17-G, JALAN SETIA INDAH',
      '40170 SHAH ALAM',
      '(J) #2/X 7%',
      'MEMBER POINTS',
      'TOTAL 12.00',
    ]);
    expect(ended.supplierAddress[0]?.value).toBe('NO. 17-G, JALAN SETIA INDAH, 40170 SHAH ALAM');
  });

  it('ends the address at a labelled value, but keeps a first line numbered "Lot No:"', () => {
    const parties = partiesOf([
      'SUNSHINE TRADING SDN BHD',
      'Lot No: G1, Ground Floor',
      'Jalan Kiara, 50480 Kuala Lumpur',
      'Served by: Ann 27/02/2018',
      'TOTAL 12.00',
    ]);
    expect(parties.supplierAddress[0]?.value).toBe(
      'Lot No: G1, Ground Floor, Jalan Kiara, 50480 Kuala Lumpur',
    );
  });

  it("passes the operating company's name under a shop's name before the address", () => {
    const parties = partiesOf([
      'Harvey Norman',
      'Elitetrax Marketing Sdn Bhd (616227-D)',
      'Lot 1F-01, 1st Flr, Paradigm Mall',
      'No. 1 Jalan SS 7/26A, Kelana Jaya',
      'TOTAL 12.00',
    ]);
    const shop = parties.supplierName.find((c) => c.value === 'Harvey Norman');
    expect(shop).toBeDefined();
    expect(parties.addressAfterName(shop!)[0]?.value).toBe(
      'Lot 1F-01, 1st Flr, Paradigm Mall, No. 1 Jalan SS 7/26A, Kelana Jaya',
    );
  });

  it('runs an address on past a stray mark and a place name with an I read as "!"', () => {
    const parties = partiesOf([
      'JIAWEI HOUSE SDN BHD',
      '13, JLN TASIK UTAMA 8',
      '|',
      'MEDAN NIAGA DAMA! SG BESI',
      '57000 KL',
      'TOTAL 12.00',
    ]);
    expect(parties.supplierAddress[0]?.value).toBe(
      '13, JLN TASIK UTAMA 8, MEDAN NIAGA DAMA! SG BESI, 57000 KL',
    );
  });

  it('runs an address on past a place name with an I read as "|", after a misread company number line', () => {
    const parties = partiesOf([
      'WESTERN STATIONERY SDN. BHD',
      'CO KEG NO : 210038-K',
      '13, JLN TASIK UTAMA 8',
      'MEDAN NIAGA DAMA| SG BESI',
      '57000 KL',
      'TOTAL 12.00',
    ]);
    expect(parties.supplierAddress[0]?.value).toBe(
      '13, JLN TASIK UTAMA 8, MEDAN NIAGA DAMA| SG BESI, 57000 KL',
    );
  });

  it('takes the company over a "thank you for shopping" line, its legal form read with the number glued on', () => {
    const parties = partiesOf([
      'TQ FOR SHOPPING WITH myNEWS.com',
      'UNIT 105, BLOCK A, PUSAT DAGANGAN',
      'NO. 8, JALAN 16/11, 46350 PETALING JAYA',
      'MYNEWS RETAIL SB(306295-X) FKA BISON STORES SB',
      'TAX REG ID 000709361664',
      'TOTAL 12.00',
    ]);
    const names = parties.supplierName.map((c) => c.value);
    expect(names[0]).toBe('MYNEWS RETAIL SB');
    expect(parties.supplierName.find((c) => /SHOPPING/.test(c.value))?.score ?? 0).toBeLessThan(
      parties.supplierName[0]!.score,
    );
  });

  it('joins a name broken after its "&" and does not offer the second line alone', () => {
    const parties = partiesOf([
      'HOME MASTER HARDWARE &',
      'ELECTRICAL',
      'NO.113G, JALAN SETIA 40170 SHAH ALAM',
      'TOTAL 12.00',
    ]);
    const names = parties.supplierName.map((c) => c.value);
    expect(names[0]).toBe('HOME MASTER HARDWARE & ELECTRICAL');
    expect(names).not.toContain('ELECTRICAL');
  });

  it('joins a name wrapped over three short lines down to its legal form', () => {
    const parties = partiesOf([
      'AIK HUAT HARDWARE',
      'ENTERPRISE (SETIA',
      'ALAM) SDN BHD',
      'NO. 17-G, JALAN SETIA 40170 SHAH ALAM',
      'TOTAL 12.00',
    ]);
    expect(parties.supplierName[0]?.value).toBe('AIK HUAT HARDWARE ENTERPRISE (SETIA ALAM) SDN BHD');
  });

  it('takes the company a line says the goods are sold by, and never a legal form alone', () => {
    const parties = partiesOf([
      'Invoice',
      'All services are sold by Northwind Services, Inc.',
      'Son Bhd',
      'TOTAL 12.00',
    ]);
    const names = parties.supplierName.map((c) => c.value);
    expect(names[0]).toBe('Northwind Services, Inc.');
    expect(names).not.toContain('Son Bhd');
  });

  it.each([
    ['#000002 BAIFU (M) Sdn Bhd', 'BAIFU (M) Sdn Bhd'],
    ['| THE STORE (MALAYSIA) SDN BHD', 'THE STORE (MALAYSIA) SDN BHD'],
    ['Cash Sale SINNATHAMBY HOLDINGS SDN. BHD.', 'SINNATHAMBY HOLDINGS SDN. BHD.'],
    ['KINGS CONFECTIONERY S/B 273500-U (KI)', 'KINGS CONFECTIONERY S/B'],
    ['Farmasi Maluri S/B(587969-U)', 'Farmasi Maluri S/B'],
  ])('reads the name in %j without the marks, headings and numbers around it', (printed, name) => {
    const parties = partiesOf([printed, 'NO. 17-G, JALAN SETIA 40170 SHAH ALAM', 'TOTAL 12.00']);
    expect(parties.supplierName[0]?.value).toBe(name);
  });

  it('gives the address under any name proposed, for the name a ranking chooses', () => {
    const parties = partiesOf(TWO_COMPANY_RECEIPT);
    expect(parties.supplierName[0]?.value).toBe('NORTH STAR SDN BHD');
    expect(parties.supplierAddress[0]?.value).toBe('12 Jalan Utara, 50000 Kuala Lumpur');
    const south = parties.supplierName.find((c) => c.value === 'SOUTH WIND TRADING');
    expect(south).toBeDefined();
    expect(parties.addressAfterName(south!)[0]?.value).toBe('7 Jalan Selatan, 81100 Johor Bahru');
    expect(parties.addressAfterName({ ...south! })).toEqual([]);
  });
});
