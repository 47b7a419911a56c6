import type { TokenLayer } from '../core/types.js';
import { extractFields } from '../extraction/extract.js';
import { findLabels } from '../extraction/label-search.js';
import { LABELS } from '../extraction/labels.js';
import { createView } from '../extraction/view.js';
import type { BoundingBox } from '../extraction/types.js';
import type { FieldDefinition } from '../products/types.js';
import { findPageMark, type PageMark } from './page-marks.js';
import { sliceTokenLayer } from './slice-layer.js';

/** A value found on one page, with its confidence. */
export interface PageValue {
  value: string;
  confidence: number;
}

/** What one page says about where documents start and end. */
export interface PageFeatures {
  pageNum: number;
  /** Nothing printed: no words, and (for a scan) next to no ink. */
  blank: boolean;
  /** An image page where OCR found no words: still a document (a faint receipt), not a separator. */
  textless: boolean;
  tokens: number;
  scanned: boolean;
  /** The page's size as displayed (points for a PDF page): consecutive pages of a document share it. */
  size: { width: number; height: number };
  mark?: PageMark;
  /** A document title (INVOICE, RECHNUNG, FACTURE, RECEIPT...) in the top part of the page. */
  title: boolean;
  number?: PageValue;
  supplier?: PageValue;
  taxId?: PageValue;
  currency?: PageValue;
  date?: PageValue;
  /** A total or amount-due label with an amount: the page may close a document. */
  total: boolean;
  /** Words of the top quarter of the page, lower-cased, for comparing headers of consecutive pages. */
  header: Set<string>;
}

const TITLE =
  /^(?:tax\s+)?(?:invoice|rechnung|handelsrechnung|facture|factuur|fattura|factura|fatura|faktura|avoir|gutschrift|credit\s*note|creditnota|nota\s+de\s+cr[eé]dito|receipt|official\s+receipt|cash\s+(?:sale|bill)|bill|statement|quittung|kassenbon|kassenbeleg|rekening|proforma|pro-forma)\b/i;

/** Fields read on every page on its own: the cues of a change of document. */
const CUE_FIELDS = [
  'document.referenceNo',
  'document.supplierName',
  'document.supplierTaxId',
  'document.currency',
  'document.date',
  'invoice.total',
  'invoice.amountDue',
  'receipt.total',
] as const;

const FOUND = 0.35;

/** Totals that close a document, and how sure extraction must be of one to say the page closes one. */
const TOTAL_FIELDS = ['invoice.total', 'invoice.amountDue', 'receipt.total'] as const;
const CLOSING_TOTAL = 0.5;

/** A label that closes a document: the total, the amount due (checked on the words of one line). */
const CLOSING_LABEL =
  /(?:^|[^\p{L}])(?:grand\s+total|total(?:\s+(?:due|ttc|amount|incl\.?|eur|usd|gbp|aud|myr|sgd))?|amount\s+(?:due|payable)|balance\s+due|gesamtbetrag|gesamtsumme|rechnungsbetrag|zu\s+zahlen|endbetrag|summe|montant\s+(?:total|ttc|d[uû])|net\s+[àa]\s+payer|totaal|te\s+betalen|importe\s+total|totale)(?![\p{L}])/iu;
const AMOUNT = /\d[\d.,' ]*[.,]\d{2}(?!\d)/;

/** Features of every page of a document (each page read as a document of its own). */
export function pageFeatures(
  layer: TokenLayer,
  fields: readonly FieldDefinition[],
  locale?: string,
): PageFeatures[] {
  const wanted = CUE_FIELDS.map((name) => fields.find((f) => f.name === name)).filter(
    (f): f is FieldDefinition => f !== undefined,
  );
  return layer.pages.map((page) => {
    const single = sliceTokenLayer(layer, page.pageNum, page.pageNum, layer.fileId);
    const lines = single.lines.map((line) => ({
      text: line.tokenIds.map((id) => single.tokens[id]!.text).join(' '),
      y: (line.box.y0 + line.box.y1) / 2,
      x: line.box.x0,
    }));
    const scanned = page.source === 'ocr';
    const tokens = single.tokens.length;
    const inkless = page.ink === undefined || page.ink < 0.002;
    const found = new Map<string, PageValue>();
    const totalBoxes: BoundingBox[] = [];
    if (tokens > 0) {
      for (const field of extractFields(single, { fields: wanted, ...(locale ? { locale } : {}) })) {
        if (typeof field.value === 'string' && field.confidence >= FOUND) {
          found.set(field.name, { value: field.value, confidence: field.confidence });
        }
        const closes = (TOTAL_FIELDS as readonly string[]).includes(field.name);
        if (closes && field.boundingBox && field.confidence >= CLOSING_TOTAL)
          totalBoxes.push(field.boundingBox);
      }
    }
    // A supplier name counts only beside another sign of a header: on a continuation page the first
    // table row is often read as a name.
    const headerSigns =
      found.has('document.referenceNo') ||
      found.has('document.supplierTaxId') ||
      (found.get('document.date')?.confidence ?? 0) >= 0.8;
    // A total found by extraction, or a closing label with an amount on its row or the next (a label
    // above its amount). Rows, not lines: a receipt's label and its amount at the far right are one
    // visual row but often two OCR lines.
    const view = createView(single);
    const rows = view.rows.map((row) => row.tokens.map((t) => t.text).join(' '));
    // A total extraction found counts when a total's or an amount due's label (in any language the
    // extraction reads) is on its row or the row above: an unlabelled amount of a table page is not
    // one, however likely the ranking finds it.
    const labelRows = new Set(
      [...findLabels(view, LABELS.total!), ...findLabels(view, LABELS.amountDue!)].map(
        (hit) => hit.row.index,
      ),
    );
    const labelled = (box: BoundingBox): boolean =>
      box.tokenIds.some((id) => {
        const row = view.tokens[id]?.row;
        return row !== undefined && (labelRows.has(row) || labelRows.has(row - 1));
      });
    const closing =
      totalBoxes.some(labelled) ||
      rows.some((row, i) => {
        if (!CLOSING_LABEL.test(row)) return false;
        return AMOUNT.test(row) || AMOUNT.test(rows[i + 1] ?? '');
      });
    const title = lines.some(
      (l) => l.y < 0.4 && TITLE.test(l.text.trim()) && l.text.split(/\s+/).length <= 8,
    );
    const features: PageFeatures = {
      pageNum: page.pageNum,
      blank: tokens === 0 && inkless,
      textless: tokens === 0 && !inkless,
      tokens,
      scanned,
      size: { width: page.width, height: page.height },
      title,
      total: closing,
      header: new Set(
        lines
          .filter((l) => l.y < 0.25)
          .flatMap((l) => l.text.toLowerCase().split(/\s+/))
          .filter((w) => w.length > 1),
      ),
    };
    const mark = findPageMark(lines);
    if (mark) features.mark = mark;
    const set = (key: 'number' | 'supplier' | 'taxId' | 'currency' | 'date', name: string): void => {
      const value = found.get(name);
      if (value) features[key] = value;
    };
    set('number', 'document.referenceNo');
    if (title || headerSigns) set('supplier', 'document.supplierName');
    set('taxId', 'document.supplierTaxId');
    set('currency', 'document.currency');
    set('date', 'document.date');
    return features;
  });
}
