/**
 * What the generated multi-document files are made of: invented suppliers, line items, labels by
 * language, and the seeded generator that draws them. Shared by the split tests
 * (test/helpers/make-multi.ts) and the split benchmark (bench/lib/multi.ts), so both draw the same
 * documents from the same seed.
 */

import { draw, type Draw } from '../src/core/random.js';

/** A small seeded generator (src/core/random.ts): the same seed draws the same numbers. */
export type Random = Draw;

/** The generator of a seed (0 and other seeds that are 0 as a 32-bit integer draw as 0x9e3779b9). */
export function seeded(seed: number): Random {
  return draw(seed >>> 0 || 0x9e3779b9);
}

export type Language = 'en' | 'de' | 'fr';

export interface Supplier {
  name: string;
  address: [string, string];
  /** The tax id line as printed ("VAT No: GB123456789"), and the id itself. */
  taxLine: string;
  taxId: string;
  currency: string;
  language: Language;
  /** Titles this supplier prints at the top of an invoice. */
  titles: readonly string[];
  /** How its invoice numbers look, from a running number. */
  number(n: number): string;
}

export const SUPPLIERS: readonly Supplier[] = [
  {
    name: 'Nordwind Maschinenbau GmbH',
    address: ['Hafenstraße 12', '20457 Hamburg, Deutschland'],
    taxLine: 'USt-IdNr.: DE123456789',
    taxId: 'DE123456789',
    currency: 'EUR',
    language: 'de',
    titles: ['RECHNUNG', 'Rechnung'],
    number: (n) => `RE-2024-${String(n).padStart(4, '0')}`,
  },
  {
    name: 'Harbour Lane Stationers Ltd',
    address: ['14 Harbour Lane', 'Bristol BS1 4QA, United Kingdom'],
    taxLine: 'VAT Registration No: GB294718365',
    taxId: 'GB294718365',
    currency: 'GBP',
    language: 'en',
    titles: ['INVOICE', 'VAT INVOICE', 'Invoice'],
    number: (n) => `HLS-${10000 + n}`,
  },
  {
    name: 'Kookaburra Cleaning Pty Ltd',
    address: ['88 Wattle Street', 'Brisbane QLD 4000, Australia'],
    taxLine: 'ABN: 51 824 753 556',
    taxId: '51824753556',
    currency: 'AUD',
    language: 'en',
    titles: ['TAX INVOICE', 'Tax Invoice'],
    number: (n) => `INV-${1000 + n}`,
  },
  {
    name: 'Atelier Lumière SARL',
    address: ['27 rue des Lilas', '69003 Lyon, France'],
    taxLine: 'N° TVA intracommunautaire : FR40303265045',
    taxId: 'FR40303265045',
    currency: 'EUR',
    language: 'fr',
    titles: ['FACTURE', 'Facture'],
    number: (n) => `F2024-${String(n).padStart(5, '0')}`,
  },
  {
    name: 'Bergmann & Söhne KG',
    address: ['Lindenweg 3', '04109 Leipzig'],
    taxLine: 'USt-ID: DE811569869',
    taxId: 'DE811569869',
    currency: 'EUR',
    language: 'de',
    titles: ['RECHNUNG'],
    number: (n) => `${24000 + n}`,
  },
  {
    name: 'Silverline Software Inc.',
    address: ['500 Market Street, Suite 210', 'San Francisco, CA 94105, USA'],
    taxLine: 'EIN: 94-3218877',
    taxId: '94-3218877',
    currency: 'USD',
    language: 'en',
    titles: ['INVOICE'],
    number: (n) => `SL-${2024}${String(n).padStart(4, '0')}`,
  },
  {
    name: 'Greenfield Garden Supplies Ltd',
    address: ['Unit 7, Meadow Business Park', 'Leeds LS11 5DR'],
    taxLine: 'VAT No: GB587204193',
    taxId: 'GB587204193',
    currency: 'GBP',
    language: 'en',
    titles: ['INVOICE', 'TAX INVOICE'],
    number: (n) => `GGS/${n}/24`,
  },
  {
    name: 'Southern Cross Freight Pty Ltd',
    address: ['2 Dock Road', 'Fremantle WA 6160'],
    taxLine: 'ABN 33 102 417 032',
    taxId: '33102417032',
    currency: 'AUD',
    language: 'en',
    titles: ['TAX INVOICE'],
    number: (n) => `SCF${700000 + n}`,
  },
];

export const CUSTOMERS = [
  ['Meridian Hotels Group', '1 Park Avenue', 'Manchester M1 2AB'],
  ['Blue River Dental Clinic', '45 River Road', 'Perth WA 6000'],
  ['Stadtwerke Neustadt', 'Bahnhofplatz 1', '67433 Neustadt'],
  ['Café de la Gare', '3 place de la Gare', '75010 Paris'],
  ['Oakridge Primary School', 'School Lane', 'Oxford OX2 6JE'],
] as const;

export const ITEMS = [
  'Office chairs, ergonomic',
  'A4 copy paper, 80gsm (box)',
  'Window cleaning, ground floor',
  'Consulting services (hours)',
  'Steel brackets M8',
  'Delivery and handling',
  'Software licence, annual',
  'Printer toner cartridge',
  'Garden hose 25 m',
  'Freight Sydney to Perth (pallet)',
  'Installation labour (hours)',
  'Maintenance contract, quarterly',
  'Safety gloves (pair)',
  'LED panel 60x60',
  'Training session, half day',
] as const;

export const LABELS: Record<
  Language,
  {
    number: string;
    date: string;
    due: string;
    currency: string;
    billTo: string;
    head: string;
    subtotal: string;
    tax: string;
    total: string;
    due2: string;
    continued: string;
  }
> = {
  en: {
    number: 'Invoice No:',
    date: 'Invoice Date:',
    due: 'Due Date:',
    currency: 'Currency:',
    billTo: 'Bill To:',
    head: 'Description   Qty   Unit Price   Amount',
    subtotal: 'Subtotal',
    tax: 'VAT',
    total: 'Total',
    due2: 'Amount Due',
    continued: 'continued',
  },
  de: {
    number: 'Rechnungsnummer:',
    date: 'Rechnungsdatum:',
    due: 'Fällig am:',
    currency: 'Währung:',
    billTo: 'Rechnungsempfänger:',
    head: 'Beschreibung   Menge   Einzelpreis   Betrag',
    subtotal: 'Zwischensumme',
    tax: 'USt. 19%',
    total: 'Gesamtbetrag',
    due2: 'Zu zahlen',
    continued: 'Fortsetzung',
  },
  fr: {
    number: 'Numéro de facture :',
    date: 'Date de facture :',
    due: "Date d'échéance :",
    currency: 'Devise :',
    billTo: 'Facturé à :',
    head: 'Désignation   Qté   Prix unitaire   Montant',
    subtotal: 'Total HT',
    tax: 'TVA 20%',
    total: 'Total TTC',
    due2: 'Net à payer',
    continued: 'suite',
  },
};

export const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

/** How a document numbers its pages. */
