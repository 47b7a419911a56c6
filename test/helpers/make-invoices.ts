/**
 * Invoices and receipts the extraction tests make themselves: born-digital PDFs drawn with pdf-lib
 * (Helvetica), read into a token layer by an engine that never OCRs, and the places where each piece of
 * text was drawn, so a test can check that a field's box lies where its value is printed.
 */
import { PDFDocument, StandardFonts, type PDFFont } from 'pdf-lib';
import { expect } from 'vitest';
import { createEngine, type Engine } from '../../src/index.js';
import type { Box, TokenLayer } from '../../src/core/types.js';
import { extractFields } from '../../src/extraction/extract.js';
import type { BoundingBox, VerboseFieldResult } from '../../src/extraction/types.js';
import { createCatalogue } from '../../src/products/catalogue.js';
import type { FieldDefinition } from '../../src/products/types.js';
import { A4, makeTextPdf, type TextLine, type TextPage } from './make-documents.js';

/** A page being drawn: `put` adds a piece of text (a separate text run) and hands it back for later checks. */
export interface Sheet {
  lines: TextLine[];
  put(x: number, y: number, text: string, size?: number, bold?: boolean): TextLine;
}

export function sheet(): Sheet {
  const lines: TextLine[] = [];
  return {
    lines,
    put(x, y, text, size = 11, bold = false) {
      const line = { text, x, y, size, bold };
      lines.push(line);
      return line;
    },
  };
}

/** The built-in fields of some products, as `engine.extract` would select them. */
export function fieldsOf(products: string[]): FieldDefinition[] {
  return createCatalogue({ namespace: 'svc' })
    .resolve(products)
    .fieldsets.flatMap((f) => f.fields);
}

export interface ReadDocument {
  layer: TokenLayer;
  fileId: string;
  /** The page sizes the document was drawn with, for turning drawn positions into page fractions. */
  pages: Array<{ width: number; height: number }>;
}

/** An engine that reads the PDF text layer only: no OCR worker ever starts. */
export function textOnlyEngine(): Engine {
  return createEngine({ ingest: { ocr: 'never' } });
}

/** Draws the pages, uploads and ingests them: the token layer every finder reads. */
export async function readPages(engine: Engine, pages: TextPage[]): Promise<ReadDocument> {
  const pdf = await makeTextPdf(pages);
  const record = await engine.upload(pdf);
  const layer = await engine.ingest(record.fileId);
  return {
    layer,
    fileId: record.fileId,
    pages: pages.map((p) => ({ width: p.width ?? A4.width, height: p.height ?? A4.height })),
  };
}

export interface Extracted extends ReadDocument {
  fields: VerboseFieldResult[];
  /** The field of this name; throws when the selection has no such field. */
  field(name: string): VerboseFieldResult;
  /** The value of a field (null when not found). */
  value(name: string): VerboseFieldResult['value'];
}

export function extracted(doc: ReadDocument, fields: VerboseFieldResult[]): Extracted {
  const byName = new Map(fields.map((f) => [f.name, f]));
  const field = (name: string): VerboseFieldResult => {
    const f = byName.get(name);
    if (!f) throw new Error(`No field ${name} in the result`);
    return f;
  };
  return { ...doc, fields, field, value: (name) => field(name).value };
}

/** Reads one-page (or multi-page) documents and extracts the fields of `products` with `extractFields`. */
export async function extractPages(
  engine: Engine,
  pages: TextPage[],
  products: string[] = ['invoices:2'],
  options: { locale?: string } = {},
): Promise<Extracted> {
  const doc = await readPages(engine, pages);
  return extracted(doc, extractFields(doc.layer, { fields: fieldsOf(products), ...options }));
}

/** `extractPages` for a single A4 page. */
export function extractLines(
  engine: Engine,
  lines: TextLine[],
  products: string[] = ['invoices:2'],
  options: { locale?: string } = {},
): Promise<Extracted> {
  return extractPages(engine, [{ lines }], products, options);
}

let helvetica: Promise<{ regular: PDFFont; bold: PDFFont }> | undefined;

function fonts(): Promise<{ regular: PDFFont; bold: PDFFont }> {
  helvetica ??= (async () => {
    const doc = await PDFDocument.create();
    return {
      regular: await doc.embedFont(StandardFonts.Helvetica),
      bold: await doc.embedFont(StandardFonts.HelveticaBold),
    };
  })();
  return helvetica;
}

/**
 * Where `part` of a drawn line is printed, in fractions of the page (origin top left): from its left
 * edge to its right edge by the font's advance widths, and from the cap height above the baseline to
 * the baseline. `part` defaults to the whole line; when given, it must occur in the line's text.
 */
export async function drawnBox(
  line: TextLine,
  part: string = line.text,
  page: { width: number; height: number } = A4,
): Promise<Box> {
  const at = line.text.indexOf(part);
  if (at < 0) throw new Error(`"${part}" is not part of "${line.text}"`);
  const { regular, bold } = await fonts();
  const font = line.bold ? bold : regular;
  const size = line.size ?? 12;
  const left = line.x + font.widthOfTextAtSize(line.text.slice(0, at), size);
  const right = left + font.widthOfTextAtSize(part, size);
  return {
    x0: left / page.width,
    x1: right / page.width,
    y0: (line.y - 0.7 * size) / page.height,
    y1: line.y / page.height,
  };
}

/** The texts of the tokens a bounding box points at, in order. */
export function tokenTexts(layer: TokenLayer, box: BoundingBox | null): string[] {
  if (!box) return [];
  return box.tokenIds.map((id) => {
    const token = layer.tokens[id];
    if (!token || token.id !== id) throw new Error(`Token id ${id} is not the token at that index`);
    return token.text;
  });
}

/** A drawn piece of text, or part of one (`{ line, part }`: a word inside a longer run). */
export type Drawn = TextLine | { line: TextLine; part: string };

function unionOf(boxes: Box[]): Box {
  return boxes.reduce((a, b) => ({
    x0: Math.min(a.x0, b.x0),
    y0: Math.min(a.y0, b.y0),
    x1: Math.max(a.x1, b.x1),
    y1: Math.max(a.y1, b.y1),
  }));
}

/** Where some drawn pieces are printed together, in page fractions. */
export async function drawnUnion(
  drawn: Drawn | Drawn[],
  page: { width: number; height: number } = A4,
): Promise<Box> {
  const list = Array.isArray(drawn) ? drawn : [drawn];
  return unionOf(
    await Promise.all(
      list.map((d) => ('line' in d ? drawnBox(d.line, d.part, page) : drawnBox(d, d.text, page))),
    ),
  );
}

/**
 * A field's box covers the drawn text: each side within `slack` of the drawn one across (word extents
 * inside one drawn run are estimated by the reader from character counts), and vertically it spans the
 * middle of the glyphs without reaching a neighbouring line.
 */
export function expectBoxOver(
  box: BoundingBox | null,
  drawn: Box,
  pageNum = 1,
  label = 'box',
  slack = 0.02,
): void {
  expect(box, `${label}: a bounding box`).not.toBeNull();
  const b = box!;
  const middle = (drawn.y0 + drawn.y1) / 2;
  const height = drawn.y1 - drawn.y0;
  expect(b.pageNum, `${label}: page`).toBe(pageNum);
  expect(
    Math.abs(b.topLeft.x - drawn.x0),
    `${label}: left edge ${b.topLeft.x} vs ${drawn.x0}`,
  ).toBeLessThanOrEqual(slack);
  expect(
    Math.abs(b.bottomRight.x - drawn.x1),
    `${label}: right edge ${b.bottomRight.x} vs ${drawn.x1}`,
  ).toBeLessThanOrEqual(slack);
  expect(b.topLeft.y, `${label}: top`).toBeLessThanOrEqual(middle);
  expect(b.topLeft.y, `${label}: top`).toBeGreaterThan(drawn.y0 - height);
  expect(b.bottomRight.y, `${label}: bottom`).toBeGreaterThanOrEqual(middle);
  expect(b.bottomRight.y, `${label}: bottom`).toBeLessThan(drawn.y1 + height);
}

/**
 * The field has this value, read from exactly the tokens of the drawn text (`tokens`, by default the
 * drawn words), with a box where that text was drawn and a confidence in (0, 1].
 */
export async function expectPrinted(
  doc: Extracted,
  name: string,
  value: string,
  drawn: Drawn | Drawn[],
  options: { tokens?: string[]; pageNum?: number } = {},
): Promise<void> {
  const field = doc.field(name);
  expect(field.value, `${name}: value`).toBe(value);
  const list = Array.isArray(drawn) ? drawn : [drawn];
  const words = list.flatMap((d) => ('line' in d ? d.part : d.text).split(' '));
  expect(tokenTexts(doc.layer, field.boundingBox), `${name}: tokens`).toEqual(options.tokens ?? words);
  const pageNum = options.pageNum ?? 1;
  expectBoxOver(field.boundingBox, await drawnUnion(list, doc.pages[pageNum - 1]), pageNum, name);
  expect(field.confidence, `${name}: confidence`).toBeGreaterThan(0);
  expect(field.confidence, `${name}: confidence`).toBeLessThanOrEqual(1);
}
