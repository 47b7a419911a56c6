import { describe, expect, it } from 'vitest';
import { findParties } from '../../../src/extraction/finders/parties.js';
import { createView } from '../../../src/extraction/view.js';
import { receiptLayer, TWO_COMPANY_RECEIPT } from '../../helpers/token-layer.js';

const partiesOf = (rows: readonly string[]) => findParties(createView(receiptLayer(rows)));

describe("the supplier's name and address", () => {
  it('takes a name followed by its company number, which is cut off', () => {
    const parties = partiesOf([
      '77 QUICK MART S/B (428164-X)',
      'LOT P.T. 4736, JALAN MERAK',
      '41200 KLANG, SELANGOR',
      'INVOICE NO : 27405',
      'TOTAL 12.00',
    ]);
    expect(parties.supplierName[0]?.value).toBe('77 QUICK MART S/B');
    expect(parties.supplierAddress[0]?.value).toBe('LOT P.T. 4736, JALAN MERAK, 41200 KLANG, SELANGOR');
  });

  it('keeps one line OCR garbled between two address lines, not one the address does not go on after', () => {
    const parties = partiesOf([
      'LIM SENG HARDWARE SDN BHD',
      'NO. 24-G, JALAN BUKIT INDAH',
      '(J) UL2/X, BUPIT JALI,',
      'SEKSYEN U12, 40150 SHAH ALAM',
      'TOTAL 12.00',
    ]);
    expect(parties.supplierAddress[0]?.value).toBe(
      'NO. 24-G, JALAN BUKIT INDAH, (J) UL2/X, BUPIT JALI, SEKSYEN U12, 40150 SHAH ALAM',
    );
    const ended = partiesOf([
      'LIM SENG HARDWARE SDN BHD',
      'NO. 24-G, JALAN BUKIT INDAH',
      '40150 SHAH ALAM',
      '(J) #2/X 7%',
      'MEMBER POINTS',
      'TOTAL 12.00',
    ]);
    expect(ended.supplierAddress[0]?.value).toBe('NO. 24-G, JALAN BUKIT INDAH, 40150 SHAH ALAM');
  });

  it('ends the address at a labelled value, but keeps a first line numbered "Lot No:"', () => {
    const parties = partiesOf([
      'GOLDLEAF TRADING SDN BHD',
      'Lot No: G7, Ground Floor',
      'Jalan Cempaka, 50560 Kuala Lumpur',
      'Served by: Mei 27/02/2018',
      'TOTAL 12.00',
    ]);
    expect(parties.supplierAddress[0]?.value).toBe(
      'Lot No: G7, Ground Floor, Jalan Cempaka, 50560 Kuala Lumpur',
    );
  });

  it("passes the operating company's name under a shop's name before the address", () => {
    const parties = partiesOf([
      'Hudson Barton',
      'Goldwave Marketing Sdn Bhd (735418-D)',
      'Lot 1F-07, 1st Flr, Meridian Mall',
      'No. 3 Jalan SS 9/14B, Kelana Jaya',
      'TOTAL 12.00',
    ]);
    const shop = parties.supplierName.find((c) => c.value === 'Hudson Barton');
    expect(shop).toBeDefined();
    expect(parties.addressAfterName(shop!)[0]?.value).toBe(
      'Lot 1F-07, 1st Flr, Meridian Mall, No. 3 Jalan SS 9/14B, Kelana Jaya',
    );
  });

  it('runs an address on past a stray mark and a place name with an I read as "!"', () => {
    const parties = partiesOf([
      'HUALONG HOUSE SDN BHD',
      '27, JLN DESA PERMAI 4',
      '|',
      'MEDAN NIAGA MURN! SG BULOH',
      '52100 KL',
      'TOTAL 12.00',
    ]);
    expect(parties.supplierAddress[0]?.value).toBe(
      '27, JLN DESA PERMAI 4, MEDAN NIAGA MURN! SG BULOH, 52100 KL',
    );
  });

  it('runs an address on past a place name with an I read as "|", after a misread company number line', () => {
    const parties = partiesOf([
      'PELANGI STATIONERY SDN. BHD',
      'CO KEG NO : 347162-K',
      '27, JLN DESA PERMAI 4',
      'MEDAN NIAGA MURN| SG BULOH',
      '52100 KL',
      'TOTAL 12.00',
    ]);
    expect(parties.supplierAddress[0]?.value).toBe(
      '27, JLN DESA PERMAI 4, MEDAN NIAGA MURN| SG BULOH, 52100 KL',
    );
  });

  it('takes the company over a "thank you for shopping" line, its legal form read with the number glued on', () => {
    const parties = partiesOf([
      'TQ FOR SHOPPING WITH newSPOT.com',
      'UNIT 208, BLOCK C, PUSAT DAGANGAN',
      'NO. 6, JALAN 19/13, 46300 PETALING JAYA',
      'NEWSPOT RETAIL SB(417382-X) FKA RHINO STORES SB',
      'TAX REG ID 000815274390',
      'TOTAL 12.00',
    ]);
    const names = parties.supplierName.map((c) => c.value);
    expect(names[0]).toBe('NEWSPOT RETAIL SB');
    expect(parties.supplierName.find((c) => /SHOPPING/.test(c.value))?.score ?? 0).toBeLessThan(
      parties.supplierName[0]!.score,
    );
  });

  it('joins a name broken after its "&" and does not offer the second line alone', () => {
    const parties = partiesOf([
      'BEST CHOICE HARDWARE &',
      'ELECTRICAL',
      'NO.128G, JALAN BUKIT 40150 SHAH ALAM',
      'TOTAL 12.00',
    ]);
    const names = parties.supplierName.map((c) => c.value);
    expect(names[0]).toBe('BEST CHOICE HARDWARE & ELECTRICAL');
    expect(names).not.toContain('ELECTRICAL');
  });

  it('joins a name after its "&" past a stray mark OCR read between, its letters boxed taller', () => {
    const layer = receiptLayer([
      'HOME MASTER HARDWARE & !',
      '!',
      'ELECTRICAL :',
      'NO.113G, JALAN SETIA GEMBILANG 40170 SHAH ALAM',
      'TOTAL 12.00',
    ]);
    // As OCR read it: the mark overlaps both lines, and the second line's letters are boxed half as
    // tall again as the first's.
    const row = (r: number) => layer.tokens.filter((t) => t.lineId === r);
    const top = row(0)[0]!.box;
    for (const t of row(1)) t.box = { ...t.box, y0: top.y0 + 0.004, y1: top.y1 + 0.014 };
    for (const t of row(2)) t.box = { ...t.box, y0: top.y1 + 0.006, y1: top.y1 + 0.024 };
    const names = findParties(createView(layer)).supplierName.map((c) => c.value);
    expect(names[0]).toBe('HOME MASTER HARDWARE & ELECTRICAL');
    expect(names).not.toContain('ELECTRICAL');
  });

  it('ends a name with the line of business words alone under it, and does not offer that line alone', () => {
    const parties = partiesOf([
      'TSH POWER HARDWARE',
      'TRADING',
      '002458685-T',
      '13-1, JALAN PJU 5/10, 47810 PETALING JAYA',
      'TOTAL 12.00',
    ]);
    const names = parties.supplierName.map((c) => c.value);
    expect(names[0]).toBe('TSH POWER HARDWARE TRADING');
    expect(names).not.toContain('TRADING');
    expect(parties.supplierAddress[0]?.value).toBe('13-1, JALAN PJU 5/10, 47810 PETALING JAYA');
  });

  it('joins a letterhead name printed in two sizes, the second line still above the body print, not a slogan', () => {
    const letterhead = (second: string) => {
      const layer = receiptLayer([
        "MABEL'S",
        second,
        '1407 Barrow Creek Rd',
        'Austin, TX 78704',
        'Server: Kayla R. Check #4471',
        'Chicken Fried Steak 17.95',
        'Fish Tacos 14.50',
        'TOTAL 32.45',
      ]);
      // The first line twice the body's height and more, the second a third above it.
      for (const t of layer.tokens.filter((x) => x.lineId === 0)) t.box = { ...t.box, y0: 0, y1: 0.03 };
      for (const t of layer.tokens.filter((x) => x.lineId === 1)) t.box = { ...t.box, y0: 0.036, y1: 0.052 };
      return findParties(createView(layer)).supplierName.map((c) => c.value);
    };
    const names = letterhead('KITCHEN & TAP');
    expect(names[0]).toBe("MABEL'S KITCHEN & TAP");
    expect(names).not.toContain('KITCHEN & TAP');
    expect(letterhead('Save money. Live better.')[0]).toBe("MABEL'S");
    // The full name its first line starts takes its place, as a one-line logo's would.
    const layer = receiptLayer([
      'HOCK SENG',
      'ZI CHAR',
      '(Hock Seng Eating House Pte. Ltd.)',
      'Blk 217 Tampines Loop #01-42',
      'Singapore 521217',
      'Fried Rice 8.00',
      'TOTAL 8.00',
    ]);
    for (const t of layer.tokens.filter((x) => x.lineId === 0)) t.box = { ...t.box, y0: 0, y1: 0.03 };
    for (const t of layer.tokens.filter((x) => x.lineId === 1)) t.box = { ...t.box, y0: 0.036, y1: 0.052 };
    expect(findParties(createView(layer)).supplierName[0]?.value).toBe('Hock Seng Eating House Pte. Ltd.');
  });

  it("finds the address past a name's second line, a slogan of three parts and two lines of numbers, and ends it before the ticket's number", () => {
    const parties = partiesOf([
      'FERRETERIA HNOS. OCANA SL',
      'Herramienta · Menaje · Llaves al momento',
      'C/ Sueca, 58',
      '46006 Valencia',
      'Ticket No 2-017734',
      'TOTAL 35,74',
    ]);
    expect(parties.supplierAddress[0]?.value).toBe('C/ Sueca, 58, 46006 Valencia');
    const layer = receiptLayer([
      'FERRETERIA',
      'HNOS. OCANA',
      'Herramienta · Menaje · Llaves al momento',
      'Tel. 963 41 72 05',
      'C.I.F. B46218830',
      'C/ Sueca, 58',
      '46006 Valencia',
      'Ticket No 2-017734',
      'TOTAL 35,74',
    ]);
    for (const t of layer.tokens.filter((x) => x.lineId === 0)) t.box = { ...t.box, y0: 0, y1: 0.03 };
    for (const t of layer.tokens.filter((x) => x.lineId === 1)) t.box = { ...t.box, y0: 0.036, y1: 0.052 };
    const twoLines = findParties(createView(layer));
    expect(twoLines.supplierName[0]?.value).toBe('FERRETERIA HNOS. OCANA');
    expect(twoLines.supplierAddress[0]?.value).toBe('C/ Sueca, 58, 46006 Valencia');
  });

  it('takes no item line, its price printed apart or its price and amount on it, for an address', () => {
    const layer = receiptLayer([
      "Watson's Personal Care Stores Sdn Bhd",
      'Company Reg No. 269892-V',
      'USJ Summit, Subang (SS)',
      '22241 WS CUT SCISSORS 18.00 $',
      '64542 OVS TEMPO TWEEZER 17.90 $',
      'TOTAL 35.90',
    ]);
    // The prices at the right edge, far from their items.
    for (const line of [3, 4]) {
      const [price, mark] = layer.tokens.filter((t) => t.lineId === line).slice(-2);
      price!.box = { ...price!.box, x0: 0.85, x1: 0.91 };
      mark!.box = { ...mark!.box, x0: 0.92, x1: 0.93 };
    }
    const apart = findParties(createView(layer));
    expect(apart.supplierAddress.map((c) => c.value).join(' ')).not.toMatch(/SCISSORS|TWEEZER/);
    const inline = partiesOf([
      'ROTI BAKERY SDN BHD',
      '181010 French Loaf 8 2.40 0 19.20 8',
      'NO. 20-A1, JALAN SS6/3, KELANA JAYA',
      '47301 PETALING JAYA',
      'TOTAL 19.20',
    ]);
    expect(inline.supplierAddress[0]?.value).toBe('NO. 20-A1, JALAN SS6/3, KELANA JAYA, 47301 PETALING JAYA');
    // An address's units with decimals, listed with commas, stay.
    const units = partiesOf([
      'KEDAI MAJU SDN BHD',
      'G.23 & G.22, PLAZA SETIA, NO.1 JALAN SS 9/1,',
      'TOTAL 1.00',
    ]);
    expect(units.supplierAddress[0]?.value).toBe('G.23 & G.22, PLAZA SETIA, NO.1 JALAN SS 9/1');
  });

  it('keeps a company\'s name whole about a dash before its trade and legal form ("Quinta do Vale Escuro - Vinhos, Lda.")', () => {
    const parties = partiesOf([
      'Quinta do Vale Escuro - Vinhos, Lda.',
      'Lugar de Vale Escuro',
      '5050-301 Peso da Régua',
      'TOTAL 12,00',
    ]);
    expect(parties.supplierName[0]?.value).toBe('Quinta do Vale Escuro - Vinhos, Lda.');
  });

  it("ends an address on its name's line before a telephone number of bare digit groups", () => {
    const parties = partiesOf([
      'Datalijn Vlaanderen BV · Kortrijksesteenweg 1044, 9051 Gent · 09 298 44 10 · www.datalijn.be',
      'TOTAAL 12,00',
    ]);
    expect(parties.supplierAddress[0]?.value).toBe('Kortrijksesteenweg 1044, 9051 Gent');
  });

  it("keeps an airport's 'Terminal 2' in an address, and no card terminal's number", () => {
    const airport = partiesOf([
      'SKYSIDE NEWS LTD',
      'Unit 14, Airside Departures, Terminal 2',
      'Manchester Airport, Manchester M90 1QX',
      'TOTAL 10.28',
    ]);
    expect(airport.supplierAddress[0]?.value).toBe(
      'Unit 14, Airside Departures, Terminal 2, Manchester Airport, Manchester M90 1QX',
    );
    const till = partiesOf([
      'KIOSK PLUS LTD',
      '14 Station Road, Leeds LS1 4DY',
      'TERMINAL # SC010584',
      'TOTAL 4.20',
    ]);
    expect(till.supplierAddress[0]?.value).toBe('14 Station Road, Leeds LS1 4DY');
  });

  it("ends an address before Italy's P.IVA line and a shop's 'Punto vendita n.' line", () => {
    const parties = partiesOf([
      'Borgoverde Distribuzione S.r.l.',
      'Via Emilia Est 318 - 41122 Modena',
      'P.IVA 03412880365',
      'Punto vendita n. 0412',
      'TOTALE 25,05',
    ]);
    expect(parties.supplierAddress[0]?.value).toBe('Via Emilia Est 318, 41122 Modena');
    const store = partiesOf([
      'Borgoverde Distribuzione S.r.l.',
      'Punto vendita n. 0412',
      'Via Emilia Est 318',
      '41122 Modena',
      'TOTALE 25,05',
    ]);
    expect(store.supplierAddress[0]?.value).toBe('Via Emilia Est 318, 41122 Modena');
  });

  it("ends an address before India's GSTIN line, a carrier's USDOT number and a branch's number ('Allentown Branch #14')", () => {
    const indian = partiesOf([
      'MEGHDOOT POLYMERS PVT LTD',
      'Plot 1187, Phase IV, GIDC Estate',
      'Vapi, Gujarat 396195',
      'GSTIN 24AAGCM2217R1Z8 | State Code 24',
      'TOTAL 12.00',
    ]);
    expect(indian.supplierAddress[0]?.value).toBe('Plot 1187, Phase IV, GIDC Estate, Vapi, Gujarat 396195');
    const carrier = partiesOf([
      'IRONCLAD PRAIRIE FREIGHT LINES, INC.',
      '4300 Depot Road',
      'Salina, KS 67401',
      'USDOT 3188207',
      'MC-904412',
      'TOTAL 12.00',
    ]);
    expect(carrier.supplierAddress[0]?.value).toBe('4300 Depot Road, Salina, KS 67401');
    const branch = partiesOf([
      'KEYSTONE WORKFORCE SOLUTIONS LLC',
      '1840 Hamilton Blvd',
      'Allentown, PA 18104',
      'Allentown Branch #14',
      'TOTAL 12.00',
    ]);
    expect(branch.supplierAddress[0]?.value).toBe('1840 Hamilton Blvd, Allentown, PA 18104');
  });

  it("takes a town with a business word ('Market Harborough') into an address when its postcode follows", () => {
    const town = partiesOf([
      'Thistle & Thorn',
      'Mill Lane, Little Bowden',
      'Market Harborough',
      'LE16 8AB',
      'Tel: 01858 462 019',
      'TOTAL 12.00',
    ]);
    expect(town.supplierAddress[0]?.value).toBe('Mill Lane, Little Bowden, Market Harborough, LE16 8AB');
    const stall = partiesOf([
      'HILLSIDE ORCHARD',
      '2170 County Road J',
      'Viroqua, WI 54665',
      'at Riverside Saturday Market',
      'Stall 14',
      'TOTAL 12.00',
    ]);
    expect(stall.supplierAddress[0]?.value).toBe('2170 County Road J, Viroqua, WI 54665');
  });

  it("never takes a registration number's line for an address ('Registration No. T5020001084127')", () => {
    const parties = partiesOf([
      'TOTAL 4,400',
      'Suzukaze Shobo Co., Ltd.',
      'Registration No. T5020001084127',
      'Returns within 7 days with this receipt.',
    ]);
    expect(parties.supplierAddress.map((c) => c.value).join(' ')).not.toMatch(/Registration/);
  });

  it('reads "Sdn Bhd" as OCR misread it ("S11 BHD", "SON BHO") as the legal form it is', () => {
    const names = (first: string) =>
      partiesOf([first, 'LOT 2, JALAN MERAK, 41200 KLANG', 'TOTAL 12.00']).supplierName.map((c) => c.value);
    expect(names('RAPID RAIL S11 BHD')[0]).toBe('RAPID RAIL SDN BHD');
    expect(names('Lim Seng Trading Son Bho')[0]).toBe('Lim Seng Trading Sdn Bhd');
    expect(names('AIK HUAT HARDWARE SDN BHD')[0]).toBe('AIK HUAT HARDWARE SDN BHD');
  });

  it('starts an address at a building and floor with words OCR glued by commas ("GK101,GND FLR,ONE UTAMA")', () => {
    const parties = partiesOf([
      'NADEJE PLATINUM SDN BHD',
      'GK101,GND FLR,ONE UTAMA SHOPPING CENTRE',
      'NO.1,LEBUH BANDAR UTAMA,',
      '47800 PETALING JAYA, SELANGOR.',
      'Tel:03-7710 0302',
      'TOTAL 12.00',
    ]);
    expect(parties.supplierAddress[0]?.value).toBe(
      'GK101,GND FLR,ONE UTAMA SHOPPING CENTRE, NO.1,LEBUH BANDAR UTAMA, 47800 PETALING JAYA, SELANGOR.',
    );
  });

  it("takes no telephone under a letter ('T 030 555 0917') nor a till's transaction line for an address", () => {
    const dutch = partiesOf([
      'TOTAL 12.00',
      'De Zoete Linde Catering B.V.',
      'T 030 555 0917',
      'info@dezoetelinde.example',
    ]);
    expect(dutch.supplierAddress.map((c) => c.value)).not.toContain('T 030 555 0917');
    const petrol = partiesOf([
      'HARBOURSIDE FUEL PTY LTD',
      'Trans No: 118764',
      'Pump 4 Unleaded 91',
      'TOTAL 12.00',
    ]);
    expect(petrol.supplierAddress.map((c) => c.value).join(' ')).not.toMatch(/Trans No/);
  });

  it('passes a notice over the name ("goods sold are not returnable"): it is neither a name nor its first line', () => {
    const parties = partiesOf([
      'GOODS SOLD ARE NOT RETURNABLE, THANK YOU',
      'SLF CASH & CARRY',
      '(002107265-V)',
      'NO. 15, JLN TSJ2, TMN SUBANG JASA',
      'TOTAL 12.00',
    ]);
    const names = parties.supplierName.map((c) => c.value);
    expect(names[0]).toBe('SLF CASH & CARRY');
    expect(names.some((n) => /RETURNABLE/.test(n))).toBe(false);
  });

  it('cuts a company number of nine digits and its check letter off a name without a legal form', () => {
    const parties = partiesOf([
      'Cash Sale',
      'KT WONG TRADING (001904043-H)',
      '22, Jalan Perindustrian Hijau 5,',
      'TOTAL 12.00',
    ]);
    expect(parties.supplierName.map((c) => c.value)).toContain('KT WONG TRADING');
  });

  it('joins a name wrapped over three short lines down to its legal form', () => {
    const parties = partiesOf([
      'LIM SENG HARDWARE',
      'ENTERPRISE (BUKIT',
      'JALIL) SDN BHD',
      'NO. 24-G, JALAN BUKIT 40150 SHAH ALAM',
      'TOTAL 12.00',
    ]);
    expect(parties.supplierName[0]?.value).toBe('LIM SENG HARDWARE ENTERPRISE (BUKIT JALIL) SDN BHD');
  });

  it('takes the company a line says the goods are sold by or to contact, and never a legal form alone', () => {
    const parties = partiesOf([
      'Invoice',
      'All services are sold by Northwind Services, Inc.',
      'Son Bhd',
      'TOTAL 12.00',
    ]);
    const names = parties.supplierName.map((c) => c.value);
    expect(names[0]).toBe('Northwind Services, Inc.');
    expect(names).not.toContain('Son Bhd');
    const contact = partiesOf([
      'Invoice',
      'TOTAL 12.00',
      'Questions? Contact Cloudmoor, Inc. at billing@cloudmoor.io',
    ]);
    expect(contact.supplierName.map((c) => c.value)).toContain('Cloudmoor, Inc.');
    expect(contact.supplierName.map((c) => c.value)).not.toContain('Questions? Contact Cloudmoor, Inc.');
  });

  it.each([
    ['#000002 JINFA (M) Sdn Bhd', 'JINFA (M) Sdn Bhd'],
    ['| THE BAZAAR (MALAYSIA) SDN BHD', 'THE BAZAAR (MALAYSIA) SDN BHD'],
    ['Cash Sale KRISHNASAMY HOLDINGS SDN. BHD.', 'KRISHNASAMY HOLDINGS SDN. BHD.'],
    ['DUKES CONFECTIONERY S/B 815264-U (PJ)', 'DUKES CONFECTIONERY S/B'],
    ['Farmasi Kenari S/B(462831-U)', 'Farmasi Kenari S/B'],
  ])('reads the name in %j without the marks, headings and numbers around it', (printed, name) => {
    const parties = partiesOf([printed, 'NO. 24-G, JALAN BUKIT 40150 SHAH ALAM', 'TOTAL 12.00']);
    expect(parties.supplierName[0]?.value).toBe(name);
  });

  it("takes a logo's word as the start of the full name printed below, and that name's address", () => {
    const parties = partiesOf([
      'QUILLSTACK',
      'Invoice',
      'Invoice number: 2024-118',
      'Date: 03/04/2024',
      'Bill to: Harbor Dental',
      '18 Main Street',
      'TOTAL 12.00',
      'Quillstack Software, Inc.',
      '1501 4th Ave, Suite 900',
      'Seattle, WA 98101',
    ]);
    expect(parties.supplierName[0]?.value).toBe('Quillstack Software, Inc.');
    expect(parties.supplierName.map((c) => c.value)).toContain('QUILLSTACK');
    expect(parties.supplierAddress[0]?.value).toBe('1501 4th Ave, Suite 900, Seattle, WA 98101');
  });

  it('finds the full name a logo starts in a long footer line, its address up to the capital and register', () => {
    const parties = partiesOf([
      'hexaline',
      'Votre facture',
      'Facture n° F24031288417',
      'Total TTC 118,10',
      'Hexaline Télécom SAS - 38 boulevard Vauban, 59800 Lille - SAS au capital de 2 000 000 € - RCS Lille 842133779',
    ]);
    expect(parties.supplierName[0]?.value).toBe('Hexaline Télécom SAS');
    expect(parties.supplierAddress[0]?.value).toBe('38 boulevard Vauban, 59800 Lille');
  });

  it('ends an address printed on the name’s line at a telephone number without its label', () => {
    const parties = partiesOf([
      'Foundry Hall Events, LLC · 401 River Street · Troy, NY 12180 · (518) 555-0125',
      'Invoice FH-1043',
      'TOTAL 12.00',
    ]);
    expect(parties.supplierName[0]?.value).toBe('Foundry Hall Events, LLC');
    expect(parties.supplierAddress[0]?.value).toBe('401 River Street Troy, NY 12180');
  });

  it.each([
    ['a history line', ['Family owned since 1962', '7 Depot Street', 'Brattleboro, VT 05301']],
    ['a branch', ['Filiale Lindenplatz', 'Lindenplatz 4', '79098 Freiburg']],
  ])('starts the address after %s', (_, lines) => {
    const parties = partiesOf(['MAPLE & IRON HARDWARE', ...lines, 'Receipt 4471', 'TOTAL 12.00']);
    expect(parties.supplierAddress[0]?.value).toBe(lines.slice(1).join(', '));
  });

  it('ends the address before an order number and a sentence, and runs it on to an Irish postcode', () => {
    const ordered = partiesOf([
      'ALDER COFFEE CO',
      '55 Alder St',
      'Portland, OR 97205',
      'Order #47',
      'TOTAL 4.50',
    ]);
    expect(ordered.supplierAddress[0]?.value).toBe('55 Alder St, Portland, OR 97205');
    const footer = partiesOf([
      'ZIPRIDE INC',
      '1455 Market St',
      'San Francisco, CA 94103',
      'Report a lost item',
    ]);
    expect(footer.supplierAddress[0]?.value).toBe('1455 Market St, San Francisco, CA 94103');
    const irish = partiesOf(['CORRIB FOODHALL LTD', '14 Shop Street', 'Galway H91 XK27', 'VAT IE6388047V']);
    expect(irish.supplierAddress[0]?.value).toBe('14 Shop Street, Galway H91 XK27');
    // A shop's unit number before its street is an address, not a store's number.
    const unit = partiesOf([
      'SALTBUSH PANTRY PTY LTD',
      'Shop 3, 88 Beach Road',
      'Noosa Heads QLD 4567',
      'TOTAL 9.00',
    ]);
    expect(unit.supplierAddress[0]?.value).toBe('Shop 3, 88 Beach Road, Noosa Heads QLD 4567');
  });

  it('offers no slogan as a name: a line going on under it, or a history', () => {
    const names = partiesOf([
      'Save more. Live better at',
      'MAXWELL HOME & GOODS',
      'Your neighbourhood store since 1994',
      '8800 Ridgeline Pkwy',
      'Plano, TX 75024',
      'TOTAL 12.00',
    ]).supplierName.map((c) => c.value);
    expect(names[0]).toBe('MAXWELL HOME & GOODS');
    expect(names).not.toContain('Save more. Live better at');
    expect(names).not.toContain('Your neighbourhood store since 1994');
  });

  it('takes the address under the name printed again when none is under the letterhead', () => {
    const parties = partiesOf([
      'Bramblewood Outfitters',
      'Thanks for your order, Jordan!',
      "We've received your payment. Your order is on its way.",
      'Order date: March 4, 2024',
      'Shipped: March 6, 2024',
      'Estimated delivery: March 11, 2024',
      'Bramblewood Outfitters',
      '2600 Walnut Street, Suite 300',
      'Denver, CO 80205',
      'TOTAL 175.41',
    ]);
    expect(parties.supplierAddress[0]?.value).toBe('2600 Walnut Street, Suite 300, Denver, CO 80205');
  });

  it("takes the company printed over its registration under a shop's trading name", () => {
    const parties = partiesOf([
      'SAKURA MART',
      'Shinjuku 3-chome Store',
      'Sakura Retail Co., Ltd.',
      'Registration No. T3011101023456',
      '3-14-7 Shinjuku, Shinjuku-ku',
      'Tokyo 160-0022',
      'TOTAL 2,096',
    ]);
    expect(parties.supplierName[0]?.value).toBe('Sakura Retail Co., Ltd.');
    expect(parties.supplierName.map((c) => c.value)).toContain('SAKURA MART');
    // A trading name alone, with no company printed under it, stays the supplier.
    const alone = partiesOf(['SAKURA MART', '3-14-7 Shinjuku, Shinjuku-ku', 'Tokyo 160-0022', 'TOTAL 2,096']);
    expect(alone.supplierName[0]?.value).toBe('SAKURA MART');
    // "A unit of" a company names that company.
    const unit = partiesOf([
      'SAFFRON TABLE',
      '(A unit of Spice Route Hospitality Pvt. Ltd.)',
      'GSTIN 29AAKCS4821M1ZS',
    ]);
    expect(unit.supplierName.map((c) => c.value)).toContain('Spice Route Hospitality Pvt. Ltd.');
  });

  it("ends an address at a telephone in other languages, and at a web address without 'www.'", () => {
    const german = partiesOf([
      'Brandt Elektro GmbH',
      'Gutenbergstraße 41',
      '70176 Stuttgart',
      'Telefon 0711 459870-0',
      'Rechnung 2024-11873',
    ]);
    expect(german.supplierAddress[0]?.value).toBe('Gutenbergstraße 41, 70176 Stuttgart');
    const footer = partiesOf([
      'INVOICE 20417',
      'TOTAL 4,293.49',
      'Cedar Coast Supply Ltd. · 7781 Fraserview Road, Burnaby, BC V5J 2K9 · cedarcoastsupply.ca',
    ]);
    expect(footer.supplierAddress[0]?.value).toBe('7781 Fraserview Road, Burnaby, BC V5J 2K9');
  });

  it("takes the address under a shop's logo when its company is printed in the foot over a registration", () => {
    const items = Array.from({ length: 12 }, (_, i) => `ITEM ${i + 1}  ${i + 1}.50`);
    const parties = partiesOf([
      'GREENFIELD',
      'Fresh food, fair prices',
      'Harbour Road, Portishead',
      'Bristol BS20 7QE',
      'Tel 01275 555 812',
      ...items,
      'TOTAL 9.85',
      'Greenfield Stores Ltd',
      'Registered in England No. 04512873',
    ]);
    expect(parties.supplierName[0]?.value).toBe('Greenfield Stores Ltd');
    expect(parties.supplierAddress[0]?.value).toBe('Harbour Road, Portishead, Bristol BS20 7QE');
  });

  it("takes a practice's full name with 'P.C.', and its letterhead's address over its remittance slip's", () => {
    const lines = Array.from({ length: 12 }, (_, i) => `09/05/2024 Office visit ${i + 1} $185.00`);
    const parties = partiesOf([
      'Willow Creek',
      'FAMILY MEDICINE',
      'Willow Creek Family Medicine, P.C.',
      '1840 N Cedar St, Suite 210',
      'Fort Collins, CO 80524',
      'Phone (970) 555-0183',
      ...lines,
      'Please detach and return with payment',
      'Remit to:',
      'Willow Creek Family Medicine, P.C.',
      'PO Box 2271',
      'Fort Collins, CO 80522',
    ]);
    expect(parties.supplierName[0]?.value).toBe('Willow Creek Family Medicine, P.C.');
    expect(parties.supplierAddress[0]?.value).toBe('1840 N Cedar St, Suite 210, Fort Collins, CO 80524');
  });

  it("keeps legal forms of Mexico ('S.A. de C.V.'), South Africa ('(Edms) Bpk') and the UAE's free zones ('FZE'); no province's 'AB'", () => {
    const first = (rows: string[]) => partiesOf(rows).supplierName[0]?.value;
    expect(first(['AUTOPISTAS DEL VALLE, S.A. DE C.V.', 'RFC: AVA110823RT9', 'TOTAL 147.00'])).toBe(
      'AUTOPISTAS DEL VALLE, S.A. DE C.V.',
    );
    expect(first(['Karoo Landbou-Voorrade (Edms) Bpk', 'Voortrekkerweg 44', 'TOTAAL 57 416,28'])).toBe(
      'Karoo Landbou-Voorrade (Edms) Bpk',
    );
    expect(first(['Falcon Aero Parts FZE', 'Jebel Ali Free Zone, Dubai', 'TOTAL 25,015.41'])).toBe(
      'Falcon Aero Parts FZE',
    );
    // A Canadian province after a town is no Swedish "AB".
    expect(first(['PRAIRIEFLEET', 'fuel card services', 'Calgary, AB T2P 0M9', 'TOTAL 1,817.73'])).toBe(
      'PRAIRIEFLEET',
    );
    // A name over two lines whose legal form of several words ends the second ...
    expect(
      first(['CONCESIONARIA NORTE', 'VALLE ALTO, S.A. DE C.V.', 'RFC: CVA110823RT9', 'TOTAL 147.00']),
    ).toBe('CONCESIONARIA NORTE VALLE ALTO, S.A. DE C.V.');
    // ... but not a branch's line over the company and its number.
    expect(first(['Desa Park City', 'Golden Scoop Sdn Bhd (169609-A)', 'TOTAL 26.80'])).toBe(
      'Golden Scoop Sdn Bhd',
    );
  });

  it("ends an address at an international phone number ('T +353 1 661 4820'); a Maltese postcode ('MST 1018') is no Vietnamese tax code", () => {
    const address = (rows: string[]) => partiesOf([...rows, 'TOTAL 12.00']).supplierAddress[0]?.value;
    expect(
      address([
        'Breen Whelan & Co.',
        '3 Lower Hatch Street, Dublin 2, D02 XK61   ·   T +353 1 661 4820   ·   www.bw.ie',
      ]),
    ).toBe('3 Lower Hatch Street, Dublin 2, D02 XK61');
    expect(address(['Melita Diagnostics Ltd', 'Triq il-Kbira 112', 'Mosta MST 1018'])).toBe(
      'Triq il-Kbira 112, Mosta MST 1018',
    );
  });

  it("starts an address at an estate's, a park's or a motorway area's name before the street", () => {
    const address = (rows: string[]) => partiesOf([...rows, 'TOTAL 12.00']).supplierAddress[0]?.value;
    expect(
      address([
        'Désinsectisation Girondine SARL',
        'Zone artisanale du Haut-Vigneau',
        '12 rue Gustave Eiffel',
        '33600 Pessac',
      ]),
    ).toBe('Zone artisanale du Haut-Vigneau, 12 rue Gustave Eiffel, 33600 Pessac');
    expect(
      address([
        'Recambios Costa del Sol S.L.',
        'Pol. Ind. Santa Teresa',
        'C/ Tomás Bretón, 14',
        '29004 Málaga',
      ]),
    ).toBe('Pol. Ind. Santa Teresa, C/ Tomás Bretón, 14, 29004 Málaga');
  });

  it("proposes no document's title, copy's mark or party's heading alone ('FAKTÚRA', 'ORYGINAŁ', 'RECIPIENT')", () => {
    for (const title of ['FAKTÚRA', 'INVOICE', 'ORYGINAŁ', 'RECIPIENT', 'Tax Invoice']) {
      const names = partiesOf([
        title,
        'Auto-Komponent Zvolen s.r.o.',
        'Hlavná 12, 960 01 Zvolen',
        'TOTAL 1,487.50',
      ]).supplierName.map((c) => c.value);
      expect(names).not.toContain(title);
      expect(names[0]).toBe('Auto-Komponent Zvolen s.r.o.');
    }
  });

  it("takes no weight's 'Kg' for a German KG ('Cement OPC 53 Grade (50 Kg)')", () => {
    const names = partiesOf([
      'Tax Invoice',
      'Ganpati Hardware Traders',
      'Shop No. 14-15, Market Yard Road',
      '1 Cement OPC 53 Grade (50 Kg)',
      'TOTAL 7,300.00',
    ]).supplierName.map((c) => c.value);
    expect(names[0]).toBe('Ganpati Hardware Traders');
  });

  it("proposes no party's heading as a name ('Seller', 'Buyer')", () => {
    const names = partiesOf([
      'Seller',
      'Lumen Optik GmbH',
      'Kantstraße 9, 10623 Berlin',
      'Buyer',
      'Weitblick Augenoptik KG',
      'TOTAL 1,487.50',
    ]).supplierName.map((c) => c.value);
    expect(names[0]).toBe('Lumen Optik GmbH');
    expect(names).not.toContain('Seller');
    expect(names).not.toContain('Buyer');
  });

  it('takes the company the page says owns the shop: "a unit of", "operated by" on its line or the one above', () => {
    const unit = partiesOf([
      'SAFFRON TABLE',
      'Family Restaurant - Pure Veg',
      '(A unit of Spice Route Hospitality Pvt. Ltd.)',
      'No. 42, 80 Feet Road, Indiranagar',
      'Bengaluru - 560038',
      'TOTAL 1,470.00',
    ]);
    expect(unit.supplierName[0]?.value).toBe('Spice Route Hospitality Pvt. Ltd.');
    const operated = partiesOf([
      'GRILL HOUSE',
      'Eastwood Branch',
      'Owned & Operated by:',
      'MORNINGSTAR FOODS CORP.',
      'G/F Unit 4, Eastwood Plaza',
      'TOTAL 389.00',
    ]);
    expect(operated.supplierName[0]?.value).toBe('MORNINGSTAR FOODS CORP.');
    expect(operated.supplierName.map((c) => c.value)).toContain('GRILL HOUSE');
  });

  it.each([
    'Fjordlys Arkitekter ApS',
    'Kvadrant komunikacije d.o.o.',
    'Tecnovale Solucoes em TI Ltda',
    'Harbor Dental, PLLC',
  ])('knows the legal form of %j: the full name a logo starts', (full) => {
    const logo = full.split(/[\s,]/)[0]!.toUpperCase();
    const parties = partiesOf([
      logo,
      'Invoice 20417',
      'TOTAL 1,200.00',
      `${full} · Nørre Allé 33 · 8000 Aarhus C`,
    ]);
    expect(parties.supplierName[0]?.value).toBe(full);
  });

  it("ends an address at the company's registration or licence", () => {
    const irish = partiesOf([
      'Corrib Design Ltd',
      'Unit 7, Ballybrit Business Park',
      'Galway H91 X2Y7',
      'Registered in Ireland No. 641872',
      'TOTAL 12.00',
    ]);
    expect(irish.supplierAddress[0]?.value).toBe('Unit 7, Ballybrit Business Park, Galway H91 X2Y7');
    const licensed = partiesOf([
      'Summit Builders LLC',
      '7650 E. Evans Avenue, Suite 200',
      'Denver, CO 80231',
      'Colorado GC License #GC-118274',
      'TOTAL 12.00',
    ]);
    expect(licensed.supplierAddress[0]?.value).toBe('7650 E. Evans Avenue, Suite 200, Denver, CO 80231');
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

describe('a line saying who runs the shop', () => {
  it('is no first line of the company named under it', () => {
    const parties = partiesOf([
      'THE CROWN & ANCHOR',
      '27 WHARF LANE',
      'LONDON SE16 4QT',
      'TOTAL 12.00',
      'The Crown is operated by',
      'Ferrybridge Ltd',
    ]);
    expect(parties.supplierName.map((c) => c.value)).not.toContainEqual(expect.stringMatching(/operated/));
    expect(parties.supplierName.map((c) => c.value)).toContain('Ferrybridge Ltd');
  });
});
