import { makeTextPdf, type TextLine } from './make-documents.js';

/** What changes from one invoice of the generated supplier to the next. */
export interface SupplierInvoice {
  reference: string;
  order: string;
  date: string;
  total: string;
  customer: string;
}

export const KESTREL_FIRST: SupplierInvoice = {
  reference: 'XK-4411',
  order: 'BZ 7720-A',
  date: '03.04.2024',
  total: '1.250,00',
  customer: 'Brenner Logistik AG',
};

export const KESTREL_SECOND: SupplierInvoice = {
  reference: 'XK-5120',
  order: 'BZ 8105-C',
  date: '17.05.2024',
  total: '980,40',
  customer: 'Ostwind Handel KG',
};

/**
 * An invoice of one generated supplier whose reference and order number stand under labels no
 * extraction rule knows (`Beleg-Kennung`, `Bestellzeichen`): read wrong or not at all until a review
 * teaches them. The project's own document: no corpus file, no real company.
 */
export function kestrelInvoice(n: SupplierInvoice): Promise<Uint8Array> {
  const lines: TextLine[] = [
    { text: 'Kestrel Instruments GmbH', x: 50, y: 60, size: 16, bold: true },
    { text: 'Werkstrasse 12, 70565 Stuttgart', x: 50, y: 80, size: 10 },
    { text: 'USt-IdNr. DE811907980', x: 50, y: 95, size: 10 },
    { text: 'Kunde', x: 350, y: 130, size: 10 },
    { text: n.customer, x: 350, y: 145, size: 10 },
    { text: 'Beleg-Kennung', x: 50, y: 200, size: 10 },
    { text: n.reference, x: 160, y: 200, size: 10 },
    { text: 'Bestellzeichen', x: 50, y: 215, size: 10 },
    { text: n.order, x: 160, y: 215, size: 10 },
    { text: 'Ausgestellt', x: 50, y: 230, size: 10 },
    { text: n.date, x: 160, y: 230, size: 10 },
    { text: 'Messkopf Typ 4', x: 50, y: 300, size: 10 },
    { text: n.total, x: 450, y: 300, size: 10 },
    { text: 'Zu zahlen', x: 300, y: 400, size: 11, bold: true },
    { text: n.total, x: 450, y: 400, size: 11, bold: true },
  ];
  return makeTextPdf([{ lines }]);
}
