/**
 * Composites of scans: several generated receipts and invoices (documents.ts) one after another in one
 * PDF, every page a picture as a scanner or a phone app delivers it (rendered at `dpi`, turned by a
 * small skew, with a little noise, the page the size of the paper), and where each document truly
 * starts and ends. The split tests and the split benchmark measure svc.split on them.
 */
import { PDFDocument } from 'pdf-lib';
import { draw } from '../../core/random.js';
import type { GreyImage, ImageBackend } from '../../ports/image-backend.js';
import type { PdfReader } from '../../ports/pdf-reader.js';
import { encodeGreyPng } from '../../documents/png.js';
import { renderedPages } from '../rendered-pages.js';
import type { GeneratedDocument } from './documents.js';

export interface ScannedComposite {
  pdf: Uint8Array;
  /** The true segments: each document's [first, last] page (1-based, inclusive). */
  segments: Array<[number, number]>;
  /** The documents in file order: name, type (receipt, invoice, credit_note) and pages. */
  documents: Array<{ name: string; type: string; pages: number }>;
}

export interface ScannedCompositeOptions {
  seed: number;
  /** Documents in the file. */
  documents: number;
  /** Resolution of the scans. Default 200. */
  dpi?: number;
  /** Chance that a document is another of the same template as the one before (the same shop). */
  sameTemplate?: number;
  /** Chance that a document is a receipt (when it is not of the same template as the one before). */
  receipts?: number;
}

/**
 * `options.documents` documents drawn from `pool` (with repeats: the same shop's receipts can follow
 * one another), scanned into one PDF. `reader` renders the born-digital originals; `images` turns them.
 */
export async function makeScannedComposite(
  pool: readonly GeneratedDocument[],
  options: ScannedCompositeOptions,
  deps: { reader: PdfReader; images: ImageBackend },
): Promise<ScannedComposite> {
  const d = draw(options.seed);
  const dpi = options.dpi ?? 200;
  const family = (doc: GeneratedDocument): string => doc.name.replace(/-\d+\.pdf$/, '');
  const receipts = pool.filter((p) => p.truth.type === 'receipt');
  const others = pool.filter((p) => p.truth.type !== 'receipt');
  const chosen: GeneratedDocument[] = [];
  for (let i = 0; i < options.documents; i++) {
    const previous = chosen[i - 1];
    // Never the same file twice in a row (a duplicate scan cannot be told apart from one document).
    let candidates: GeneratedDocument[] = [];
    if (previous && d.chance(options.sameTemplate ?? 0.25))
      candidates = pool.filter((p) => family(p) === family(previous) && p !== previous);
    if (candidates.length === 0) {
      const kind = receipts.length > 0 && (others.length === 0 || d.chance(options.receipts ?? 0.5));
      candidates = (kind ? receipts : others).filter((p) => p !== previous);
    }
    chosen.push(d.pick(candidates));
  }
  const out = await PDFDocument.create({ updateMetadata: false });
  const segments: Array<[number, number]> = [];
  const documents: ScannedComposite['documents'] = [];
  for (const doc of chosen) {
    const first = out.getPageCount() + 1;
    const pages = await renderedPages(deps.reader, doc.pdf, dpi);
    for (const { width, height, image: rendered } of pages) {
      const skew = (d.next() - 0.5) * 2 * 1.2;
      const image = await deps.images.rotate(rendered, skew, 255);
      addNoise(image, d.next);
      const png = await out.embedPng(encodeGreyPng(image));
      out.addPage([width, height]).drawImage(png, { x: 0, y: 0, width, height });
    }
    documents.push({ name: doc.name, type: String(doc.truth.type), pages: pages.length });
    segments.push([first, out.getPageCount()]);
  }
  return { pdf: await out.save(), segments, documents };
}

/**
 * A grey paper tone and dust: a few dark specks and white drop-outs, as a scanner's glass and cheap
 * thermal paper give them (sparse, so the PNG stays small).
 */
function addNoise(image: GreyImage, next: () => number): void {
  const { data } = image;
  for (let i = 0; i < data.length; i++) data[i] = Math.max(0, data[i]! - 10);
  const specks = Math.round(data.length * 0.0005);
  for (let k = 0; k < specks; k++) {
    const i = Math.floor(next() * data.length);
    data[i] = data[i]! > 128 ? 40 : 235;
  }
}
