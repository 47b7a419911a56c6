import type { Block, Box, ImageRegion, Line, Page, Token, TokenLayer } from '../core/types.js';
import type { GreyImage, ImageBackend } from '../ports/image-backend.js';
import type { OcrEngine } from '../ports/ocr-engine.js';
import type { ImagePlacement, PdfDocument, PdfReader } from '../ports/pdf-reader.js';
import { sequenceRatio } from '../core/sequence-ratio.js';
import { area, clampBox01, intersection } from './geometry.js';
import { recognisePage } from './ocr-page.js';
import { appendPageBlocks, regionBlocks, roundBox, wordsNotInText, type PageWord } from './page-words.js';

/**
 * Pictures on born-digital pages, found and read when a field needs them.
 *
 * Ingestion leaves the pictures of a page that has a text layer alone (`Page.pictures`, not examined):
 * a logo beside the supplier's name in text, a stamp or a background adds nothing, finding where
 * pictures lie costs about as much as reading the text, and OCR a second or more a picture. When
 * extraction leaves a field unresolved that a picture could answer (the supplier's name printed only
 * in a logo), the pages are examined here and their pictures read, smallest first, until the
 * document's time budget is spent; their words join the layer after all others (token ids given out
 * never change) and each region records whether it was read.
 */

export interface ImageRegionDeps {
  pdf: PdfReader;
  ocr: OcrEngine;
  images: ImageBackend;
}

export interface ReadImageRegionsOptions {
  /** Resolution pages are rendered at. */
  dpi: number;
  maxPixels: number;
  /** Milliseconds the document may spend on its pictures; checked before each one (the first is read). */
  budgetMs: number;
  /** The clock the budget is counted on (tests give their own). */
  now?: () => number;
}

/** A picture holding this many text-layer words or more is a background: the text says it all. */
const FEW_WORDS = 8;
/** Pictures smaller than this share of the page (icons, rules) are never read. */
const MIN_IMAGE_AREA = 0.002;

/** Whether some page of the layer may have pictures not read yet (not examined, or regions unread). */
export function hasUnreadImageRegions(layer: TokenLayer): boolean {
  return layer.pages.some(
    (p) =>
      p.pictures !== undefined &&
      (!p.pictures.examined || p.pictures.regions.some((r) => r.state === 'unread')),
  );
}

/**
 * Finds and reads the unread pictures of a PDF's token layer (`content` is the PDF it was made from)
 * and answers the layer with their words added. A picture that cannot be read (a rendering or OCR
 * error) is marked `skipped`: it was only ever a chance of more words; the text layer stands alone.
 */
export async function readImageRegions(
  content: Uint8Array,
  layer: TokenLayer,
  deps: ImageRegionDeps,
  options: ReadImageRegionsOptions,
): Promise<TokenLayer> {
  if (!hasUnreadImageRegions(layer)) return layer;
  const now = options.now ?? (() => performance.now());
  const pages: Page[] = layer.pages.map((p) =>
    p.pictures
      ? { ...p, pictures: { ...p.pictures, regions: p.pictures.regions.map((r) => ({ ...r })) } }
      : { ...p },
  );
  const added = new Map<number, PageWord[][][]>();
  const start = now();
  let doc: PdfDocument;
  try {
    doc = await deps.pdf.open(content);
  } catch {
    // The file read once already; if it cannot be opened again (a resource limit), its text stands.
    for (const page of pages) {
      if (!page.pictures) continue;
      page.pictures = page.pictures.examined
        ? {
            ...page.pictures,
            regions: page.pictures.regions.map((r) =>
              r.state === 'unread' ? { ...r, state: 'skipped' as const } : r,
            ),
          }
        : { examined: true, regions: [], skipped: true };
    }
    return { ...layer, pages };
  }
  try {
    let looked = 0;
    for (const page of pages) {
      if (!page.pictures || page.pictures.examined) continue;
      // Pages in order (a logo is on the first), the first always; a long document may spend the
      // budget looking, and the pages left are marked so that no later call looks again.
      if (looked++ > 0 && now() - start >= options.budgetMs) {
        page.pictures = { examined: true, regions: [], skipped: true };
        continue;
      }
      const textBoxes = layer.tokens
        .filter((t) => t.pageNum === page.pageNum && t.source === 'text')
        .map((t) => t.box);
      try {
        const pdfPage = await doc.page(page.pageNum);
        try {
          const placements = (await pdfPage.hasImages()) ? await pdfPage.imagePlacements() : [];
          page.pictures = { examined: true, regions: pictureRegions(placements, textBoxes) };
        } finally {
          pdfPage.release();
        }
      } catch {
        // A page whose pictures cannot be looked at has none to read.
        page.pictures = { examined: true, regions: [] };
      }
    }
    const wanted = pages
      .flatMap((page) => (page.pictures?.regions ?? []).map((region) => ({ page, region })))
      .filter(({ region }) => region.state === 'unread')
      .sort((a, b) => area(a.region.box) - area(b.region.box));
    let first = true;
    for (const { page, region } of wanted) {
      if (!first && now() - start >= options.budgetMs) {
        region.state = 'skipped';
        continue;
      }
      first = false;
      try {
        const words = await readRegion(doc, page.pageNum, region, deps, options);
        const textBoxes = layer.tokens.filter((t) => t.pageNum === page.pageNum).map((t) => t.box);
        const fresh = withoutRepeats(wordsNotInText(words, textBoxes), layer, page.pageNum);
        if (fresh.length > 0) added.set(page.pageNum, [...(added.get(page.pageNum) ?? []), ...fresh]);
        region.state = 'read';
      } catch {
        region.state = 'skipped';
      }
    }
  } finally {
    await closeQuietly(doc);
  }
  return appendWords({ ...layer, pages }, added);
}

/**
 * The pictures of a page worth reading: not icons or rules (under 0.2 % of the page), not pictures the
 * text layer covers with words (a background behind the text), each once, smallest first.
 */
function pictureRegions(placements: readonly ImagePlacement[], textBoxes: readonly Box[]): ImageRegion[] {
  const regions: ImageRegion[] = [];
  for (const placement of placements) {
    const [ax, ay, bx, by, cx, cy] = placement.corners;
    const dx = bx + cx - ax;
    const dy = by + cy - ay;
    const box = clampBox01({
      x0: Math.min(ax, bx, cx, dx),
      y0: Math.min(ay, by, cy, dy),
      x1: Math.max(ax, bx, cx, dx),
      y1: Math.max(ay, by, cy, dy),
    });
    if (area(box) < MIN_IMAGE_AREA) continue;
    const inside = textBoxes.filter((t) => {
      const x = (t.x0 + t.x1) / 2;
      const y = (t.y0 + t.y1) / 2;
      return x >= box.x0 && x <= box.x1 && y >= box.y0 && y <= box.y1;
    }).length;
    if (inside >= FEW_WORDS) continue;
    // The same picture painted twice (a logo and its shadow) is one region.
    if (regions.some((r) => intersection(r.box, box) > 0.9 * Math.max(area(r.box), area(box)))) continue;
    regions.push({ box: roundBox(box), state: 'unread' });
  }
  return regions.sort((a, b) => area(a.box) - area(b.box));
}

/**
 * The words of a picture that add to the page's text layer. A picture that says what a line of the
 * text layer says (a logo beside the same name in text) adds nothing, and a second copy of the name
 * above the first, with OCR's misreadings, would take its place as the letterhead: it is left out, as
 * is each of its lines that repeats a text line. So are doubtful marks of a letter or two (a logo's
 * emblem read as "[]" or "Bl"), and lines left without a word of three letters or digits. A single
 * word that also occurs in the text ("Harbour" of a logo, "14 Harbour Lane" in the address) stays.
 */
function withoutRepeats(blocks: PageWord[][][], layer: TokenLayer, pageNum: number): PageWord[][][] {
  const textLines = layer.lines
    .filter((l) => l.pageNum === pageNum)
    .map((l) => simple(l.tokenIds.map((id) => layer.tokens[id]!.text).join(' ')))
    .filter((t) => t.length > 0);
  const repeats = (text: string): boolean =>
    text.length > 0 && textLines.some((line) => sequenceRatio(text, line) >= SAME_TEXT);
  const lines = blocks.map((block) =>
    block
      .map((line) => line.filter((w) => !isMark(w)))
      .filter((line) => line.some((w) => wordKey(w.text).length >= 3)),
  );
  const whole = simple(
    lines
      .flat(2)
      .map((w) => w.text)
      .join(' '),
  );
  if (repeats(whole) || textLines.some((line) => whole.length > 0 && line.includes(whole))) return [];
  return lines
    .map((block) => block.filter((line) => !repeats(simple(line.map((w) => w.text).join(' ')))))
    .filter((block) => block.length > 0);
}

/** Two texts this alike (difflib's ratio) say the same, OCR's misreadings aside. */
const SAME_TEXT = 0.8;

function simple(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

/**
 * A logo's emblem read as a letter or two ("[]", "PB", "J" beside the name), which OCR itself doubts;
 * words of a picture are read at 0.8 and more.
 */
function isMark(word: PageWord): boolean {
  return word.confidence < 0.5 && wordKey(word.text).length <= 2;
}

function wordKey(text: string): string {
  return text.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '');
}

/** A little white around a picture helps the recogniser find the edges of its letters. */
const MARGIN = 0.004;

/** The words of one picture: that part of the page rendered alone, recognised, boxes in page fractions. */
async function readRegion(
  doc: PdfDocument,
  pageNum: number,
  region: ImageRegion,
  deps: ImageRegionDeps,
  options: ReadImageRegionsOptions,
): Promise<PageWord[][][]> {
  const part = clampBox01({
    x0: region.box.x0 - MARGIN,
    y0: region.box.y0 - MARGIN,
    x1: region.box.x1 + MARGIN,
    y1: region.box.y1 + MARGIN,
  });
  const pdfPage = await doc.page(pageNum);
  let rendered: { image: GreyImage; dpi: number };
  try {
    rendered = await pdfPage.render({ dpi: options.dpi, maxPixels: options.maxPixels, part });
  } finally {
    pdfPage.release();
  }
  const { image, dpi } = rendered;
  if (image.width < 8 || image.height < 8) return [];
  const recognised = await recognisePage(image, deps, { dpi, detectOrientation: false });
  const width = part.x1 - part.x0;
  const height = part.y1 - part.y0;
  return regionBlocks(recognised.blocks, (px, py) => [
    part.x0 + (px / image.width) * width,
    part.y0 + (py / image.height) * height,
  ]);
}

/** The layer with new blocks of words on some pages, numbered after everything it holds. */
function appendWords(layer: TokenLayer, added: ReadonlyMap<number, PageWord[][][]>): TokenLayer {
  const tokens: Token[] = [...layer.tokens];
  const lines: Line[] = [...layer.lines];
  const blocks: Block[] = [...layer.blocks];
  for (const pageNum of [...added.keys()].sort((a, b) => a - b))
    appendPageBlocks({ tokens, lines, blocks }, pageNum, added.get(pageNum)!);
  const pages = layer.pages.map((p) =>
    added.has(p.pageNum) && p.source === 'text' ? { ...p, source: 'text+ocr' as const } : p,
  );
  return { ...layer, pages, tokens, lines, blocks };
}

async function closeQuietly(doc: PdfDocument): Promise<void> {
  try {
    await doc.close();
  } catch {
    // Closing frees memory; a failure here changes nothing the caller keeps.
  }
}
