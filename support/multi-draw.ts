/**
 * How one generated invoice is laid out on its pages: the header, the parties, the line items (over as
 * many pages as asked), the totals and the printed page numbers. Shared by the split tests
 * (test/helpers/make-multi.ts) and the split and batch benchmarks (bench/lib/multi.ts), so a seed draws
 * the same documents in both.
 */
import { CUSTOMERS, ITEMS, LABELS, type Language, MONTHS, type Random, type Supplier } from './multi-data.js';

/** A line to draw: left edge and baseline in points from the top left of an A4 page. */
export interface DrawnLine {
  text: string;
  x: number;
  y: number;
  size?: number;
  bold?: boolean;
}

export interface DrawnPage {
  lines: DrawnLine[];
}

export type MarkStyle = 'page-of' | 'seite' | 'page-slash' | 'bare-fraction' | 'dashed';

export const MARK_STYLES: readonly MarkStyle[] = [
  'page-of',
  'seite',
  'page-slash',
  'bare-fraction',
  'dashed',
];

/** What a drawn invoice says, for checking what was read from it. */
export interface DrawnDocument {
  supplier: string;
  taxId: string;
  title: string;
  number: string;
  date: string;
  currency: string;
  /** The grand total as printed, and as a number. */
  total: string;
  totalValue: number;
}

const ROW_HEIGHT = 16;

/** The pages of one invoice of `pageCount` pages; its number is new to `usedNumbers` (and added to it). */
export function drawDocument(
  random: Random,
  supplier: Supplier,
  pageCount: number,
  markStyle: MarkStyle | undefined,
  repeatHeader: number,
  usedNumbers: Set<string>,
): { pages: DrawnPage[]; document: DrawnDocument } {
  const labels = LABELS[supplier.language];
  const title = random.pick(supplier.titles);
  let number = supplier.number(random.int(1, 9999));
  while (usedNumbers.has(number)) number = supplier.number(random.int(1, 9999));
  usedNumbers.add(number);
  const day = random.int(1, 28);
  const month = random.int(1, 12);
  const year = random.pick([2023, 2024, 2025]);
  const date =
    supplier.language === 'de'
      ? `${pad(day)}.${pad(month)}.${year}`
      : supplier.language === 'fr'
        ? `${pad(day)}/${pad(month)}/${year}`
        : `${day} ${MONTHS[month - 1]} ${year}`;
  const dueMonth = (month % 12) + 1;
  const due =
    supplier.language === 'en'
      ? `${day} ${MONTHS[dueMonth - 1]} ${dueMonth === 1 ? year + 1 : year}`
      : supplier.language === 'de'
        ? `${pad(day)}.${pad(dueMonth)}.${dueMonth === 1 ? year + 1 : year}`
        : `${pad(day)}/${pad(dueMonth)}/${dueMonth === 1 ? year + 1 : year}`;
  const customer = random.pick(CUSTOMERS);
  const repeat = random.chance(repeatHeader);
  const titleRight = random.chance(0.5);

  // Rows per page: the first page has its header, the last one its totals.
  const capacity = (index: number): number => {
    const top = index === 0 ? 290 : repeat ? 110 : 70;
    const bottom = index === pageCount - 1 ? 660 : 770;
    return Math.floor((bottom - top) / ROW_HEIGHT);
  };
  const rowsPerPage = Array.from({ length: pageCount }, (_, i) => {
    const max = capacity(i);
    return pageCount === 1 ? random.int(2, Math.min(8, max)) : random.int(Math.ceil(max * 0.6), max);
  });

  let subtotal = 0;
  const pages: DrawnPage[] = [];
  for (let index = 0; index < pageCount; index++) {
    const lines: DrawnLine[] = [];
    let y: number;
    if (index === 0) {
      if (titleRight) {
        lines.push({ text: supplier.name, x: 50, y: 60, size: 15, bold: true });
        lines.push({ text: title, x: 400, y: 60, size: 18, bold: true });
      } else {
        lines.push({ text: title, x: 50, y: 55, size: 20, bold: true });
        lines.push({ text: supplier.name, x: 320, y: 55, size: 13, bold: true });
      }
      const left = titleRight ? 50 : 320;
      lines.push({ text: supplier.address[0], x: left, y: 80, size: 10 });
      lines.push({ text: supplier.address[1], x: left, y: 94, size: 10 });
      lines.push({ text: supplier.taxLine, x: left, y: 108, size: 10 });
      lines.push({ text: labels.billTo, x: 50, y: 150, size: 10, bold: true });
      customer.forEach((text, i) => lines.push({ text, x: 50, y: 164 + 13 * i, size: 10 }));
      lines.push({ text: `${labels.number} ${number}`, x: 330, y: 150, size: 11 });
      lines.push({ text: `${labels.date} ${date}`, x: 330, y: 166, size: 11 });
      lines.push({ text: `${labels.due} ${due}`, x: 330, y: 182, size: 11 });
      lines.push({ text: `${labels.currency} ${supplier.currency}`, x: 330, y: 198, size: 11 });
      lines.push({ text: labels.head, x: 50, y: 260, size: 10, bold: true });
      y = 260 + ROW_HEIGHT + 4;
    } else if (repeat) {
      lines.push({
        text: `${supplier.name} - ${labels.number} ${number} (${labels.continued})`,
        x: 50,
        y: 45,
        size: 8,
      });
      lines.push({ text: labels.head, x: 50, y: 80, size: 10, bold: true });
      y = 80 + ROW_HEIGHT + 4;
    } else {
      y = 60;
    }
    for (let r = 0; r < rowsPerPage[index]!; r++) {
      const qty = random.int(1, 12);
      const unit = random.int(150, 45000) / 100;
      const amount = Math.round(qty * unit * 100) / 100;
      subtotal += amount;
      lines.push({ text: random.pick(ITEMS), x: 50, y, size: 10 });
      lines.push({ text: String(qty), x: 300, y, size: 10 });
      lines.push({ text: money(unit, supplier.language), x: 360, y, size: 10 });
      lines.push({ text: money(amount, supplier.language), x: 470, y, size: 10 });
      y += ROW_HEIGHT;
    }
    if (index === pageCount - 1) {
      subtotal = Math.round(subtotal * 100) / 100;
      const rate = supplier.language === 'fr' ? 0.2 : supplier.language === 'de' ? 0.19 : 0.1;
      const tax = Math.round(subtotal * rate * 100) / 100;
      const total = Math.round((subtotal + tax) * 100) / 100;
      y += 20;
      lines.push({ text: labels.subtotal, x: 330, y, size: 10 });
      lines.push({ text: money(subtotal, supplier.language), x: 470, y, size: 10 });
      lines.push({ text: labels.tax, x: 330, y: y + 16, size: 10 });
      lines.push({ text: money(tax, supplier.language), x: 470, y: y + 16, size: 10 });
      lines.push({ text: `${labels.total} ${supplier.currency}`, x: 330, y: y + 36, size: 12, bold: true });
      lines.push({ text: money(total, supplier.language), x: 470, y: y + 36, size: 12, bold: true });
      lines.push({ text: labels.due2, x: 330, y: y + 54, size: 10 });
      lines.push({ text: money(total, supplier.language), x: 470, y: y + 54, size: 10 });
      if (markStyle) lines.push(pageMark(markStyle, index + 1, pageCount));
      pages.push({ lines });
      return {
        pages,
        document: {
          supplier: supplier.name,
          taxId: supplier.taxId,
          title,
          number,
          date,
          currency: supplier.currency,
          total: money(total, supplier.language),
          totalValue: total,
        },
      };
    }
    if (markStyle) lines.push(pageMark(markStyle, index + 1, pageCount));
    pages.push({ lines });
  }
  throw new Error('unreachable');
}

/** A printed page number at the bottom of the page, in the given style. */
export function pageMark(style: MarkStyle, index: number, count: number): DrawnLine {
  switch (style) {
    case 'page-of':
      return { text: `Page ${index} of ${count}`, x: 270, y: 815, size: 9 };
    case 'seite':
      return { text: `Seite ${index}/${count}`, x: 270, y: 815, size: 9 };
    case 'page-slash':
      return { text: `Page ${index} / ${count}`, x: 480, y: 815, size: 9 };
    case 'bare-fraction':
      return { text: `${index}/${count}`, x: 520, y: 815, size: 9 };
    case 'dashed':
      return { text: `- ${index} -`, x: 285, y: 815, size: 9 };
  }
}

function pad(n: number): string {
  return String(n).padStart(2, '0');
}

/** An amount as the supplier's language prints it: 1,234.50 / 1.234,50 / 1 234,50. */
function money(value: number, language: Language): string {
  const [whole, cents] = value.toFixed(2).split('.') as [string, string];
  const group = language === 'en' ? ',' : language === 'de' ? '.' : ' ';
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, group);
  return `${grouped}${language === 'en' ? '.' : ','}${cents}`;
}
