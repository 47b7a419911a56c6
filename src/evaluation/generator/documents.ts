import { PDFDocument, StandardFonts, type PDFFont, type PDFImage, type PDFPage } from 'pdf-lib';
import { draw as seeded, type Draw } from '../../core/random.js';
import { encodeGreyPng } from '../../documents/png.js';
import {
  FIRST_NAMES,
  ITEMS,
  LANGUAGES,
  LAST_NAMES,
  SYLLABLES,
  type Language,
  type LanguageCode,
} from './vocabulary.js';

/**
 * Invoices, credit notes and receipts drawn from seeded templates, with their ground truth in the format
 * of the development corpus (docs/extraction.md). A template is a family: one invented supplier with its layout (where its name
 * and address stand, the buyer's block, how the reference, dates and totals are labelled and placed,
 * the table's columns, the tax summary, the footer, the fonts, the date and number formats, the
 * language); each document of a template varies the buyer, the numbers, the dates and the items. So a
 * model fitted on some templates and measured on others meets layouts it has never seen.
 */

export interface GeneratedDocument {
  /** File name (without folder), `.pdf`. */
  name: string;
  pdf: Uint8Array;
  truth: Record<string, unknown>;
}

interface Party {
  name: string;
  street: string;
  city: string;
  country: string;
  vatId?: string;
}

type DateStyle = 'dmy-dot' | 'dmy-slash' | 'dmy-dash' | 'iso' | 'long' | 'mdy-slash';

interface Template {
  id: string;
  kind: 'invoice' | 'receipt';
  lang: Language;
  currency: string;
  fontName: StandardFonts;
  boldName: StandardFonts;
  dateStyle: DateStyle;
  thousands: string;
  supplier: Party;
  iban?: string;
  letterhead: 'left' | 'right' | 'center';
  addressWhere: 'under-name' | 'footer';
  vatWhere: 'header' | 'footer' | 'none';
  logo: boolean;
  customerSide: 'left' | 'right';
  customerLabel: boolean;
  metaStyle: 'inline' | 'columns' | 'row';
  columns: Array<'code' | 'description' | 'quantity' | 'unitPrice' | 'rate' | 'amount'>;
  taxTable: boolean;
  showDue: boolean;
  currencyInAmounts: boolean;
  labels: Record<string, string>;
  numberPrefix: string;
  orderNumber: boolean;
  deliveryDate: boolean;
  customerNumber: boolean;
  rates: number[];
}

const RATES: Record<LanguageCode, number[]> = {
  en: [20, 5, 0],
  de: [19, 7],
  fr: [20, 10, 5.5],
  nl: [21, 9],
  es: [21, 10, 4],
  it: [22, 10, 4],
};

function word(d: Draw, syllables = d.int(2, 3)): string {
  const w = Array.from({ length: syllables }, () => d.pick(SYLLABLES)).join('');
  return w[0]!.toUpperCase() + w.slice(1);
}

function digits(d: Draw, n: number): string {
  return Array.from({ length: n }, () => String(d.int(0, 9))).join('');
}

function luhnComplete(body: string): string {
  for (let c = 0; c <= 9; c++) {
    const s = body + c;
    let sum = 0;
    for (let i = 0; i < s.length; i++) {
      let v = Number(s[s.length - 1 - i]);
      if (i % 2 === 1) v = v * 2 > 9 ? v * 2 - 9 : v * 2;
      sum += v;
    }
    if (sum % 10 === 0) return s;
  }
  return body + '0';
}

/** A VAT id of the country that passes its check. */
function vatId(d: Draw, country: string): string {
  switch (country) {
    case 'DE':
      return `DE${d.int(1, 9)}${digits(d, 8)}`;
    case 'FR': {
      const siren = `${d.int(1, 9)}${digits(d, 8)}`;
      const key = (12 + 3 * (Number(siren) % 97)) % 97;
      return `FR${String(key).padStart(2, '0')}${siren}`;
    }
    case 'IT':
      return `IT${luhnComplete(`0${digits(d, 9)}`)}`;
    case 'NL': {
      for (;;) {
        const body = `${d.int(1, 9)}${digits(d, 7)}`;
        let sum = 0;
        for (let i = 0; i < 8; i++) sum += Number(body[i]) * (9 - i);
        const check = sum % 11;
        if (check < 10) return `NL${body}${check}B01`;
      }
    }
    case 'ES':
      return `ES${d.pick(['A', 'B', 'X'])}${digits(d, 7)}${d.pick(['A', 'K', 'Z'])}`;
    default:
      return `GB${d.int(1, 9)}${digits(d, 8)}`;
  }
}

/** An IBAN of the country with valid check digits. */
function iban(d: Draw, country: string): string {
  const length: Record<string, number> = { DE: 18, FR: 23, IT: 23, NL: 14, ES: 20, GB: 18 };
  let bban = digits(d, length[country] ?? 18);
  if (country === 'NL' || country === 'GB')
    bban = `${d.pick(['ABNA', 'RABO', 'BARC', 'LOYD'])}${bban.slice(4)}`;
  const numeric = (bban + country + '00').replace(/[A-Z]/g, (ch) => String(ch.charCodeAt(0) - 55));
  let rest = 0;
  for (const ch of numeric) rest = (rest * 10 + Number(ch)) % 97;
  return `${country}${String(98 - rest).padStart(2, '0')}${bban}`;
}

function companyName(d: Draw, lang: Language): string {
  const form = d.pick(lang.legalForms);
  switch (d.int(0, 3)) {
    case 0:
      return `${word(d)} ${d.pick(lang.business)} ${form}`;
    case 1:
      return `${word(d)}${d.pick(['tec', 'ex', 'on', 'ia', 'ix'])} ${form}`;
    case 2:
      return `${d.pick(LAST_NAMES)} & ${d.pick(LAST_NAMES)} ${form}`;
    default:
      return `${word(d, 2)} ${word(d, 2)} ${d.pick(lang.business)}`;
  }
}

function party(d: Draw, lang: Language, company: boolean, withVat: boolean): Party {
  const name = company ? companyName(d, lang) : `${d.pick(FIRST_NAMES)} ${d.pick(LAST_NAMES)}`;
  const streetWord = d.pick(lang.streets);
  const number = d.int(1, 240);
  const street =
    lang.code === 'de' || lang.code === 'nl'
      ? `${word(d, 2)}${streetWord} ${number}`
      : lang.code === 'en'
        ? `${number} ${word(d, 2)} ${streetWord}`
        : lang.code === 'fr'
          ? `${number} ${streetWord} ${word(d, 2)}`
          : `${streetWord} ${word(d, 2)} ${number}`;
  const postcode =
    lang.code === 'en'
      ? `${d.pick(['AB', 'CD', 'EF', 'GH', 'LN', 'SW'])}${d.int(1, 19)} ${d.int(1, 9)}${d.pick(['AB', 'XY', 'QT'])}`
      : lang.code === 'nl'
        ? `${d.int(1000, 9999)} ${d.pick(['AB', 'KL', 'XZ'])}`
        : String(d.int(10000, 98999));
  const cityName = word(d, d.int(2, 3));
  const city = lang.code === 'en' ? `${cityName} ${postcode}` : `${postcode} ${cityName}`;
  return { name, street, city, country: lang.country, ...(withVat ? { vatId: vatId(d, lang.country) } : {}) };
}

function template(d: Draw, id: string, kind: 'invoice' | 'receipt'): Template {
  const lang = LANGUAGES[d.pick(Object.keys(LANGUAGES) as LanguageCode[])];
  const currency = d.pick(lang.currencies);
  const fonts: Array<[StandardFonts, StandardFonts]> = [
    [StandardFonts.Helvetica, StandardFonts.HelveticaBold],
    [StandardFonts.TimesRoman, StandardFonts.TimesRomanBold],
    [StandardFonts.Courier, StandardFonts.CourierBold],
  ];
  const [fontName, boldName] = kind === 'receipt' ? fonts[2]! : d.pick(fonts);
  const styles: DateStyle[] =
    lang.code === 'en'
      ? currency === 'USD'
        ? ['mdy-slash', 'long', 'iso']
        : ['dmy-slash', 'long', 'iso']
      : lang.code === 'de'
        ? ['dmy-dot', 'long']
        : lang.code === 'nl'
          ? ['dmy-dash', 'long']
          : ['dmy-slash', 'long'];
  const columns: Template['columns'] = ['description', 'quantity', 'unitPrice', 'amount'];
  if (d.chance(0.4)) columns.unshift('code');
  if (d.chance(0.3)) columns.splice(columns.length - 1, 0, 'rate');
  const labels: Record<string, string> = {};
  for (const key of [
    'number',
    'date',
    'dueDate',
    'orderNumber',
    'deliveryDate',
    'customerNumber',
    'billTo',
    'subtotal',
    'tax',
    'total',
    'amountDue',
    'paid',
    'discount',
    'shipping',
    'vatId',
    'bank',
  ] as const) {
    labels[key] = d.pick(lang[key]);
  }
  for (const key of ['description', 'quantity', 'unitPrice', 'amount', 'code', 'rate'] as const)
    labels[`col-${key}`] = d.pick(lang.columns[key]);
  for (const key of ['base', 'rate', 'tax'] as const) labels[`tt-${key}`] = d.pick(lang.taxTable[key]);
  labels.title = d.pick(lang.invoiceTitle);
  labels.credit = d.pick(lang.creditNoteTitle);
  labels.cashier = d.pick(lang.cashier);
  labels.cash = d.pick(lang.cash);
  labels.change = d.pick(lang.change);
  labels.thanks = d.pick(lang.thanks);
  return {
    id,
    kind,
    lang,
    currency,
    fontName,
    boldName,
    dateStyle: d.pick(styles),
    thousands: d.pick(lang.thousands),
    supplier: party(d, lang, true, true),
    ...(d.chance(0.7) ? { iban: iban(d, lang.country) } : {}),
    letterhead: d.pick(['left', 'right', 'center']),
    addressWhere: d.chance(0.75) ? 'under-name' : 'footer',
    vatWhere: d.pick(['header', 'footer', 'footer', 'none']),
    logo: d.chance(0.35),
    customerSide: d.pick(['left', 'right']),
    customerLabel: d.chance(0.7),
    metaStyle: d.pick(['inline', 'columns', 'row']),
    columns,
    taxTable: d.chance(0.35),
    showDue: d.chance(0.3),
    currencyInAmounts: d.chance(0.3),
    labels,
    numberPrefix: d.pick(['INV-', 'R', 'F', '', 'FA-', 'RE-', '2024-', 'N']),
    orderNumber: d.chance(0.4),
    deliveryDate: d.chance(0.35),
    customerNumber: d.chance(0.4),
    rates: RATES[lang.code],
  };
}

const SYMBOL: Record<string, string> = { EUR: '€', GBP: '£', USD: '$', AUD: 'A$' };

function money(t: Template, value: number, withCurrency = t.currencyInAmounts): string {
  const negative = value < 0;
  const [int, frac] = Math.abs(value).toFixed(2).split('.') as [string, string];
  const grouped = int.replace(/\B(?=(\d{3})+(?!\d))/g, t.thousands);
  const text = `${grouped}${t.lang.decimal}${frac}`;
  const sign = negative ? '-' : '';
  if (!withCurrency) return `${sign}${text}`;
  const symbol = SYMBOL[t.currency] ?? t.currency;
  return t.lang.code === 'en' ? `${sign}${symbol}${text}` : `${sign}${text} ${symbol}`;
}

function dateText(t: Template, date: Date): string {
  const dd = String(date.getUTCDate()).padStart(2, '0');
  const mm = String(date.getUTCMonth() + 1).padStart(2, '0');
  const yyyy = String(date.getUTCFullYear());
  switch (t.dateStyle) {
    case 'dmy-dot':
      return `${dd}.${mm}.${yyyy}`;
    case 'dmy-slash':
      return `${dd}/${mm}/${yyyy}`;
    case 'dmy-dash':
      return `${dd}-${mm}-${yyyy}`;
    case 'iso':
      return `${yyyy}-${mm}-${dd}`;
    case 'mdy-slash':
      return `${mm}/${dd}/${yyyy}`;
    case 'long': {
      const month = t.lang.months[date.getUTCMonth()]!;
      const day = date.getUTCDate();
      if (t.lang.code === 'en')
        return t.currency === 'USD' ? `${month} ${day}, ${yyyy}` : `${day} ${month} ${yyyy}`;
      if (t.lang.code === 'de') return `${day}. ${month} ${yyyy}`;
      if (t.lang.code === 'es') return `${day} de ${month} de ${yyyy}`;
      return `${day} ${month} ${yyyy}`;
    }
  }
}

function iso(date: Date): string {
  return date.toISOString().slice(0, 10);
}

function addDays(date: Date, days: number): Date {
  return new Date(date.getTime() + days * 86_400_000);
}

/** A page being drawn, top-down coordinates. */
class Canvas {
  constructor(
    readonly page: PDFPage,
    readonly font: PDFFont,
    readonly bold: PDFFont,
  ) {}
  get width(): number {
    return this.page.getWidth();
  }
  text(x: number, y: number, text: string, size = 9, strong = false): void {
    this.page.drawText(text, { x, y: this.page.getHeight() - y, size, font: strong ? this.bold : this.font });
  }
  right(xRight: number, y: number, text: string, size = 9, strong = false): void {
    const w = (strong ? this.bold : this.font).widthOfTextAtSize(text, size);
    this.text(xRight - w, y, text, size, strong);
  }
  centre(y: number, text: string, size = 9, strong = false): void {
    const w = (strong ? this.bold : this.font).widthOfTextAtSize(text, size);
    this.text((this.width - w) / 2, y, text, size, strong);
  }
}

/** A logo without words: a few grey shapes (an image, as logos are). */
function logoPng(d: Draw): Uint8Array {
  const width = 120;
  const height = 48;
  const data = new Uint8Array(width * height).fill(255);
  for (let s = 0; s < 3; s++) {
    const x0 = d.int(0, 80);
    const y0 = d.int(0, 30);
    const w = d.int(10, 40);
    const h = d.int(8, 18);
    const shade = d.int(20, 160);
    for (let y = y0; y < Math.min(height, y0 + h); y++)
      for (let x = x0; x < Math.min(width, x0 + w); x++) data[y * width + x] = shade;
  }
  return encodeGreyPng({ width, height, data });
}

interface Line {
  description: string;
  code: string;
  quantity: number;
  unitPrice: number;
  amount: number;
  rate: number;
}

function hash(text: string): number {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
  return h >>> 0;
}

function round2(v: number): number {
  return Math.round(v * 100) / 100;
}

async function drawInvoice(t: Template, d: Draw, index: number): Promise<GeneratedDocument> {
  const L = t.labels;
  const credit = d.chance(0.12);
  const sign = credit ? -1 : 1;
  const customer = party(d, t.lang, d.chance(0.8), d.chance(0.35));
  const date = new Date(Date.UTC(d.int(2022, 2025), d.int(0, 11), d.int(1, 28)));
  const termsDays = d.pick([14, 30, 45, 60]);
  const due = addDays(date, termsDays);
  const number = `${t.numberPrefix}${d.int(1000, 99999)}`;
  const order = `${d.pick(['PO', 'B', 'ORD', ''])}${d.int(10000, 999999)}`;
  const manyLines = d.chance(0.12);
  const lines: Line[] = Array.from({ length: manyLines ? d.int(24, 34) : d.int(1, 7) }, () => {
    const quantity = d.pick([1, 1, 2, 3, 5, 10, 12, 25]);
    const unitPrice = round2(d.int(150, 250_00) / 100);
    return {
      description: d.pick(ITEMS),
      code: `${d.pick(['A', 'P', 'X', ''])}${d.int(100, 9999)}`,
      quantity,
      unitPrice,
      amount: round2(quantity * unitPrice) * sign,
      rate: t.rates.length > 1 && d.chance(0.25) ? t.rates[1]! : t.rates[0]!,
    };
  });
  // Signed like the lines: it lowers what is charged (or credited).
  const discount = d.chance(0.15) ? round2(lines.reduce((s, l) => s + l.amount, 0) * 0.05) : 0;
  const shipping = d.chance(0.15) ? round2(d.int(5_00, 40_00) / 100) * sign : 0;
  const net = round2(lines.reduce((s, l) => s + l.amount, 0) - discount + shipping);
  // Tax per rate (discount and shipping taxed at the main rate).
  const byRate = new Map<number, number>();
  for (const l of lines) byRate.set(l.rate, round2((byRate.get(l.rate) ?? 0) + l.amount));
  byRate.set(t.rates[0]!, round2((byRate.get(t.rates[0]!) ?? 0) - discount + shipping));
  const taxes = [...byRate]
    .filter(([, base]) => base !== 0)
    .map(([rate, base]) => ({ rate, base, tax: round2((base * rate) / 100) }));
  const tax = round2(taxes.reduce((s, x) => s + x.tax, 0));
  const total = round2(net + tax);
  const paid = t.showDue && !credit && d.chance(0.5) ? round2(Math.floor(total / 3)) : 0;
  const amountDue = round2(total - paid);

  const doc = await PDFDocument.create({ updateMetadata: false });
  const font = await doc.embedFont(t.fontName);
  const bold = await doc.embedFont(t.boldName);
  const logo: PDFImage | undefined = t.logo ? await doc.embedPng(logoPng(seeded(hash(t.id)))) : undefined;
  const pages: Canvas[] = [];
  const newPage = (): Canvas => {
    const c = new Canvas(doc.addPage([595, 842]), font, bold);
    pages.push(c);
    return c;
  };
  let c = newPage();
  const W = 595;
  const margin = 50;
  const rightEdge = W - margin;

  // Letterhead.
  const nameSize = 16;
  const headX = t.letterhead === 'right' ? rightEdge : margin;
  let y = 60;
  if (logo) {
    const at = t.letterhead === 'right' ? margin : rightEdge - 120;
    c.page.drawImage(logo, { x: at, y: 842 - 40 - 48, width: 120, height: 48 });
  }
  const head = (text: string, size: number, strong = false): void => {
    if (t.letterhead === 'center') c.centre(y, text, size, strong);
    else if (t.letterhead === 'right') c.right(headX, y, text, size, strong);
    else c.text(headX, y, text, size, strong);
  };
  head(t.supplier.name, nameSize, true);
  y += 16;
  const addressLines = [t.supplier.street, t.supplier.city];
  if (t.addressWhere === 'under-name') {
    for (const line of addressLines) {
      head(line, 9);
      y += 12;
    }
  }
  if (t.vatWhere === 'header') {
    head(`${L.vatId}: ${t.supplier.vatId}`, 8);
    y += 12;
  }
  head(`${t.lang.phone} +${d.int(30, 49)} ${d.int(100, 999)} ${d.int(1000, 99999)}`, 8);

  // The buyer's block.
  const customerX = t.customerSide === 'left' ? margin : 330;
  let cy = 150;
  if (t.customerLabel) {
    c.text(customerX, cy, `${L.billTo}:`, 8, true);
    cy += 13;
  }
  c.text(customerX, cy, customer.name, 10);
  cy += 12;
  c.text(customerX, cy, customer.street, 9);
  cy += 12;
  c.text(customerX, cy, customer.city, 9);
  cy += 12;
  if (customer.vatId) c.text(customerX, cy, `${L.vatId}: ${customer.vatId}`, 8);

  // Title and the document's references.
  const metaX = t.customerSide === 'left' ? 330 : margin;
  c.text(metaX, 140, credit ? L.credit! : L.title!, 15, true);
  const meta: Array<[string, string]> = [
    [L.number!, number],
    [L.date!, dateText(t, date)],
  ];
  if (t.deliveryDate) meta.push([L.deliveryDate!, dateText(t, addDays(date, -d.int(1, 10)))]);
  if (t.customerNumber) meta.push([L.customerNumber!, String(d.int(10000, 99999))]);
  if (t.orderNumber) meta.push([L.orderNumber!, order]);
  const dueShown = d.chance(0.7);
  if (dueShown) meta.push([L.dueDate!, dateText(t, due)]);
  let my = 162;
  if (t.metaStyle === 'row') {
    // Labels in one row, values under them.
    const colW = (rightEdge - margin) / meta.length;
    my = 250;
    meta.forEach(([label, value], i) => {
      c.text(margin + i * colW, my, label, 7.5, true);
      c.text(margin + i * colW, my + 12, value, 9);
    });
    my += 30;
  } else {
    for (const [label, value] of meta) {
      if (t.metaStyle === 'inline') c.text(metaX, my, `${label}: ${value}`, 9);
      else {
        c.text(metaX, my, label, 9);
        c.text(metaX + 110, my, value, 9);
      }
      my += 13;
    }
  }

  // The table.
  let ty = Math.max(my, cy) + 40;
  const colX: Record<string, number> = {};
  const widths: Record<string, number> = {
    code: 50,
    description: 190,
    quantity: 45,
    unitPrice: 70,
    rate: 45,
    amount: 80,
  };
  let x = margin;
  for (const col of t.columns) {
    colX[col] = x;
    x += widths[col]!;
  }
  const scale = (rightEdge - margin) / (x - margin);
  for (const col of t.columns) colX[col] = margin + (colX[col]! - margin) * scale;
  const colRight = (col: string): number => colX[col]! + widths[col]! * scale - 4;
  const header = (canvas: Canvas, at: number): void => {
    for (const col of t.columns) {
      const label = L[`col-${col}`]!;
      if (col === 'description' || col === 'code') canvas.text(colX[col]!, at, label, 8.5, true);
      else canvas.right(colRight(col), at, label, 8.5, true);
    }
  };
  header(c, ty);
  ty += 16;
  let carried = 0;
  for (const line of lines) {
    if (ty > 740) {
      // A page full: the running total is carried over (a sum that is not the total).
      c.right(
        rightEdge,
        ty + 6,
        `${t.lang.code === 'de' ? 'Übertrag' : t.lang.code === 'fr' ? 'Report' : 'Carried forward'} ${money(t, carried, false)}`,
        8.5,
        true,
      );
      c = newPage();
      c.text(margin, 50, `${t.supplier.name} - ${L.number} ${number}`, 8);
      ty = 90;
      header(c, ty);
      ty += 16;
    }
    const cells: Record<string, string> = {
      code: line.code,
      description: line.description,
      quantity: String(line.quantity),
      unitPrice: money(t, line.unitPrice, false),
      rate: `${String(line.rate).replace('.', t.lang.decimal)} %`,
      amount: money(t, line.amount, false),
    };
    for (const col of t.columns) {
      if (col === 'description' || col === 'code') c.text(colX[col]!, ty, cells[col]!, 9);
      else c.right(colRight(col), ty, cells[col]!, 9);
    }
    carried = round2(carried + line.amount);
    ty += 14;
  }

  // Totals.
  ty += 12;
  const labelX = rightEdge - 200;
  const totalLine = (label: string, value: string, strong = false): void => {
    c.text(labelX, ty, label, strong ? 10 : 9, strong);
    c.right(rightEdge, ty, value, strong ? 10 : 9, strong);
    ty += strong ? 16 : 13;
  };
  if (ty > 700) {
    c = newPage();
    ty = 80;
  }
  if (discount) totalLine(L.discount!, money(t, -discount));
  if (shipping) totalLine(L.shipping!, money(t, shipping));
  totalLine(L.subtotal!, money(t, net));
  if (t.taxTable) {
    c.text(labelX - 120, ty, L['tt-base']!, 8, true);
    c.text(labelX, ty, L['tt-rate']!, 8, true);
    c.right(rightEdge, ty, L['tt-tax']!, 8, true);
    ty += 12;
    for (const x of taxes) {
      c.text(labelX - 120, ty, money(t, x.base, false), 8.5);
      c.text(labelX, ty, `${String(x.rate).replace('.', t.lang.decimal)} %`, 8.5);
      c.right(rightEdge, ty, money(t, x.tax, false), 8.5);
      ty += 12;
    }
    ty += 2;
    if (taxes.length > 1 || d.chance(0.5)) totalLine(L.tax!, money(t, tax));
  } else {
    for (const x of taxes)
      totalLine(`${L.tax} ${String(x.rate).replace('.', t.lang.decimal)} %`, money(t, x.tax));
  }
  totalLine(L.total!, money(t, total, true), true);
  if (paid) totalLine(L.paid!, money(t, -paid));
  const dueLine = t.showDue || paid !== 0;
  if (dueLine) totalLine(L.amountDue!, money(t, amountDue, true), true);

  // Payment terms and bank details.
  ty += 16;
  if (ty > 760) {
    c = newPage();
    ty = 80;
  }
  c.text(
    margin,
    ty,
    dueShown ? t.lang.terms(termsDays) : `${t.lang.terms(termsDays)} (${dateText(t, due)})`,
    8.5,
  );
  ty += 13;
  if (t.iban) {
    c.text(
      margin,
      ty,
      `${L.bank}: IBAN ${t.iban.replace(/(.{4})/g, '$1 ').trim()}  BIC ${word(d, 2).toUpperCase().slice(0, 4)}${t.lang.country}${d.pick(['2X', 'FF', 'MM'])}`,
      8,
    );
    ty += 12;
  }
  c.text(margin, ty, L.thanks!, 8);

  // Footer on every page.
  pages.forEach((p, i) => {
    const parts = [t.supplier.name];
    if (t.addressWhere === 'footer') parts.push(t.supplier.street, t.supplier.city);
    if (t.vatWhere === 'footer') parts.push(`${L.vatId}: ${t.supplier.vatId}`);
    p.text(margin, 805, parts.join(' - '), 7);
    if (pages.length > 1) p.right(rightEdge, 820, `${t.lang.page} ${i + 1}/${pages.length}`, 7);
  });

  const fields: Record<string, string> = {
    invoice_number: number,
    date: iso(date),
    total: total.toFixed(2),
    subtotal: net.toFixed(2),
    tax: tax.toFixed(2),
    currency: t.currency,
    issuer: t.supplier.name,
    issuer_address: `${t.supplier.street}, ${t.supplier.city}`,
    customer_name: customer.name,
  };
  // Printed either among the references or in the payment terms.
  fields.due_date = iso(due);
  if (dueLine) fields.amount_due = amountDue.toFixed(2);
  if (t.vatWhere !== 'none') fields.issuer_tax_id = t.supplier.vatId!;
  if (t.orderNumber) fields.order_number = order;
  if (t.iban) fields.iban = t.iban;
  const name = `${t.id}-${String(index).padStart(2, '0')}.pdf`;
  return {
    name,
    pdf: await doc.save({ useObjectStreams: d.chance(0.5) }),
    truth: {
      file: `generated/${name}`,
      type: credit ? 'credit_note' : 'invoice',
      format: 'pdf-text',
      pages: pages.length,
      language: t.lang.code,
      fields,
      line_items: lines.map((l) => ({
        description: l.description,
        quantity: String(l.quantity),
        unit_price: l.unitPrice.toFixed(2),
        amount: l.amount.toFixed(2),
      })),
      family: t.id,
      source: 'generated',
    },
  };
}

async function drawReceipt(t: Template, d: Draw, index: number): Promise<GeneratedDocument> {
  const L = t.labels;
  const items = Array.from({ length: d.int(1, 9) }, () => ({
    name: d.pick(ITEMS).slice(0, 18).toUpperCase(),
    quantity: d.pick([1, 1, 1, 2, 3]),
    price: round2(d.int(50, 45_00) / 100),
  }));
  const total = round2(items.reduce((s, i) => s + i.quantity * i.price, 0));
  const rate = t.rates[0]!;
  // Receipts print prices with tax included; the tax is the part of the total.
  const tax = round2(total - total / (1 + rate / 100));
  const cash = Math.ceil(total / 10) * 10 + (d.chance(0.5) ? 10 : 0);
  const date = new Date(Date.UTC(d.int(2022, 2025), d.int(0, 11), d.int(1, 28)));
  const height = 300 + items.length * 14 + 120;
  const doc = await PDFDocument.create({ updateMetadata: false });
  const font = await doc.embedFont(t.fontName);
  const bold = await doc.embedFont(t.boldName);
  const c = new Canvas(doc.addPage([226, height]), font, bold);
  let y = 30;
  c.centre(y, t.supplier.name.toUpperCase(), 10, true);
  y += 14;
  for (const line of [t.supplier.street, t.supplier.city]) {
    c.centre(y, line, 7.5);
    y += 10;
  }
  if (t.vatWhere !== 'none') {
    c.centre(y, `${L.vatId}: ${t.supplier.vatId}`, 7.5);
    y += 10;
  }
  y += 8;
  c.text(
    12,
    y,
    `${dateText(t, date)}  ${String(d.int(8, 21)).padStart(2, '0')}:${String(d.int(0, 59)).padStart(2, '0')}`,
    7.5,
  );
  c.right(214, y, `#${d.int(1000, 99999)}`, 7.5);
  y += 10;
  c.text(12, y, `${L.cashier}: ${d.pick(FIRST_NAMES)} ${d.pick(LAST_NAMES)}`, 7.5);
  y += 16;
  for (const item of items) {
    c.text(12, y, `${item.quantity} ${item.name}`, 7.5);
    c.right(214, y, money(t, item.quantity * item.price, false), 7.5);
    y += 12;
  }
  y += 6;
  c.text(12, y, `${L.tax} ${String(rate).replace('.', t.lang.decimal)}%`, 7.5);
  c.right(214, y, money(t, tax, false), 7.5);
  y += 12;
  c.text(12, y, L.total!.toUpperCase(), 9, true);
  c.right(214, y, money(t, total, false), 9, true);
  y += 14;
  c.text(12, y, L.cash!, 7.5);
  c.right(214, y, money(t, cash, false), 7.5);
  y += 10;
  c.text(12, y, L.change!, 7.5);
  c.right(214, y, money(t, round2(cash - total), false), 7.5);
  y += 20;
  c.centre(y, L.thanks!, 7);
  const name = `${t.id}-${String(index).padStart(2, '0')}.pdf`;
  const fields: Record<string, string> = {
    date: iso(date),
    total: total.toFixed(2),
    issuer: t.supplier.name.toUpperCase(),
    issuer_address: `${t.supplier.street}, ${t.supplier.city}`,
  };
  return {
    name,
    pdf: await doc.save(),
    truth: {
      file: `generated/${name}`,
      type: 'receipt',
      format: 'pdf-text',
      pages: 1,
      language: t.lang.code,
      fields,
      family: t.id,
      source: 'generated',
    },
  };
}

/**
 * `templates` families of `perTemplate` documents each (about a fifth of them receipts), all drawn from
 * `seed`: the same seed gives the same documents.
 */
export async function generateCorpus(
  seed: number,
  templates: number,
  perTemplate: number,
): Promise<GeneratedDocument[]> {
  const out: GeneratedDocument[] = [];
  for (let i = 0; i < templates; i++) {
    const d = seeded(seed * 100_003 + i);
    const kind = d.chance(0.2) ? 'receipt' : 'invoice';
    const t = template(d, `gen-${String(i).padStart(3, '0')}`, kind);
    for (let k = 0; k < perTemplate; k++) {
      const dd = seeded(seed * 100_003 + i * 1009 + k * 7 + 1);
      out.push(kind === 'receipt' ? await drawReceipt(t, dd, k) : await drawInvoice(t, dd, k));
    }
  }
  return out;
}
