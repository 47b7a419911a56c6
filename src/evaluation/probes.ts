import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fieldMapFor, type GroundTruth, type TrueLineItem } from './scoring.js';
import { drawTextPdf, type TextLine, type TextPage } from './text-pdf.js';
import { photographDocument } from './photographed.js';
import type { ImageBackend } from '../ports/image-backend.js';
import type { PdfReader } from '../ports/pdf-reader.js';

/**
 * A probe document (test/probes/README.md): a born-digital page written as text runs by someone who had
 * not read the code, imitating a source the development corpus lacks, and what it should read.
 */
export interface ProbeCase {
  name: string;
  product: 'invoices:2' | 'receipts:1';
  /** The value of every field the page prints unambiguously, by docex's field names. */
  want: Record<string, string>;
  /** The item table's rows, for the sets that print one (scored as score.py scores line items). */
  line_items?: TrueLineItem[];
  pages: Array<{ width?: number; height?: number; lines: Array<[string, number, number, number, 0 | 1]> }>;
}

/** The cases of the probe set in `file` (a JSON array). */
export function readProbeSet(file: string): ProbeCase[] {
  return JSON.parse(readFileSync(file, 'utf8')) as ProbeCase[];
}

/** A case's pages as text runs to draw. */
export function probePages(c: ProbeCase): TextPage[] {
  return c.pages.map((p) => ({
    ...(p.width ? { width: p.width } : {}),
    ...(p.height ? { height: p.height } : {}),
    lines: p.lines.map(([text, x, y, size, bold]): TextLine => ({ text, x, y, size, bold: bold === 1 })),
  }));
}

/**
 * A case's ground truth in the corpus format (the reference scorer's field keys), the set its family:
 * folds by family hold a whole set out, as it was written apart from the others.
 */
export function probeGroundTruth(set: string, c: ProbeCase): GroundTruth & { pages: number } {
  const type = c.product === 'receipts:1' ? 'receipt' : 'invoice';
  const keyOf = new Map(Object.entries(fieldMapFor(type)).map(([key, name]) => [name, key]));
  const fields: Record<string, string> = {};
  for (const [name, value] of Object.entries(c.want)) {
    const key = keyOf.get(name);
    if (key) fields[key] = value;
  }
  return {
    file: `${set}/${c.name}.pdf`,
    type,
    format: 'pdf-text',
    pages: c.pages.length,
    source: 'probe',
    family: `probe-${set}`,
    fields,
    ...(c.line_items ? { line_items: c.line_items } : {}),
  };
}

/**
 * Writes every probe set of `probesDir` (`<set>.json`) as a corpus under `outDir`: `<set>/<name>.pdf`
 * beside its ground truth `.json`. With `photographed`, every document is written as the pictures a
 * phone or scanner would give of its pages (photographed.ts: a `.png` for one page, else a `.pdf` of
 * pictures), to be read by OCR. The same sets (and seed) write the same files.
 */
export async function writeProbeCorpus(
  probesDir: string,
  outDir: string,
  photographed?: { seed: number; reader: PdfReader; images: ImageBackend },
): Promise<{ sets: number; documents: number }> {
  const sets = readdirSync(probesDir)
    .filter((f) => f.endsWith('.json'))
    .map((f) => f.replace(/\.json$/, ''))
    .sort();
  let documents = 0;
  for (const set of sets) {
    mkdirSync(path.join(outDir, set), { recursive: true });
    for (const c of readProbeSet(path.join(probesDir, `${set}.json`))) {
      let truth = probeGroundTruth(set, c);
      let bytes = await drawTextPdf(probePages(c));
      if (photographed) {
        const seed = (photographed.seed * 7919 + stringHash(truth.file)) >>> 0;
        const picture = await photographDocument(bytes, seed, photographed);
        bytes = picture.bytes;
        truth =
          picture.kind === 'png'
            ? { ...truth, file: truth.file.replace(/\.pdf$/, '.png'), format: 'image' }
            : { ...truth, format: 'pdf-image' };
      }
      writeFileSync(path.join(outDir, truth.file), bytes);
      writeFileSync(
        path.join(outDir, truth.file.replace(/\.(pdf|png)$/, '.json')),
        JSON.stringify(truth, null, 1) + '\n',
      );
      documents++;
    }
  }
  return { sets: sets.length, documents };
}

/** A 32-bit FNV-1a hash of `text`: a document's own seed from its name. */
function stringHash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}
