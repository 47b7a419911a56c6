import { DocexError } from '../core/errors.js';
import { mapLimit } from '../core/map-limit.js';
import type { Block, Line, MediaType, Page, Token, TokenLayer } from '../core/types.js';
import type { GreyImage, ImageBackend } from '../ports/image-backend.js';
import type { OcrEngine } from '../ports/ocr-engine.js';
import type { PdfPage, PdfReader } from '../ports/pdf-reader.js';
import { clampBox01, mapBox, turnRightAngle, undoRightAngle, type PointMap } from './geometry.js';
import { layoutWords } from './layout.js';
import { isPagedImage, openPagedImage, type PagedImageType } from './multi-page-images.js';
import { recognisePage } from './ocr-page.js';
import { appendPageBlocks, regionBlocks, wordsNotInText, type PageWord } from './page-words.js';
import { isUsableText, wordsFromRuns, type TextWord } from './text-layer.js';

export type OcrMode = 'auto' | 'always' | 'never';

export interface IngestDeps {
  pdf: PdfReader;
  ocr: OcrEngine;
  images: ImageBackend;
}

export interface IngestOptions {
  ocr: OcrMode;
  maxPages: number;
  /** Largest image (pixels) decoded, and largest bitmap a PDF page is rendered to. */
  maxPixels: number;
  /** Resolution PDF pages are rendered at for OCR. */
  dpi: number;
  /** The content given to ingestDocument is the caller's to give away (no copy is needed). */
  ownsContent?: boolean;
  /** Pages of one document read at the same time (at least 1). */
  pageConcurrency: number;
  /**
   * Scans and photos whose first reading averages a word confidence below this are read a second time
   * from a locally thresholded image and the readings merged (src/documents/second-reading.ts); 0 never.
   */
  secondReadingBelow?: number;
}

/** Words of a page grouped into blocks of lines, boxes in page fractions. */
interface PageContent {
  page: Page;
  blocks: PageWord[][][];
  /** The words of a second reading of the page (a weak photo or scan read again), when there is one. */
  second?: PageWord[][][];
}

/** Reads a stored file into its token layer. The caller stores the result. */
export async function ingestDocument(
  file: { fileId: string; mediaType: MediaType; content: Uint8Array },
  deps: IngestDeps,
  options: IngestOptions,
): Promise<TokenLayer> {
  const pages =
    file.mediaType === 'application/pdf'
      ? await ingestPdf(file.content, deps, options)
      : isPagedImage(file.mediaType)
        ? await ingestPagedImage(file.content, file.mediaType, deps, options)
        : [
            await ingestImage(
              await deps.images.decode(file.content, { maxPixels: options.maxPixels }),
              1,
              deps,
              options,
              () => deps.images.decode(file.content, { maxPixels: options.maxPixels, channel: 'lightest' }),
            ),
          ];
  const layer = assembleTokenLayer(file.fileId, file.mediaType, pages);
  // A photo read twice: the second reading is a layer of its own (its own token ids), which extraction
  // reads beside the first, choosing per field.
  if (pages.length === 1 && pages[0]!.second) {
    const [{ page, second }] = pages as [PageContent & { second: PageWord[][][] }];
    layer.readings = [
      assembleTokenLayer(file.fileId, file.mediaType, [{ page: { ...page }, blocks: second }]),
    ];
  }
  return layer;
}

/**
 * A TIFF's pages (a GIF's one), each read as a photo or scan is; the page limit applies as to a PDF.
 * Pages are decoded one at a time as they are read, side by side up to the OCR workers.
 */
async function ingestPagedImage(
  bytes: Uint8Array,
  mediaType: PagedImageType,
  deps: IngestDeps,
  options: IngestOptions,
): Promise<PageContent[]> {
  const paged = openPagedImage(bytes, mediaType);
  if (paged.count > options.maxPages) {
    throw new DocexError(
      'PAGE_LIMIT_EXCEEDED',
      `The document has ${paged.count} pages; the limit is ${options.maxPages}.`,
    );
  }
  const pageNums = Array.from({ length: paged.count }, (_, i) => i + 1);
  return mapLimit(pageNums, options.pageConcurrency, (n) =>
    ingestImage(paged.page(n, options.maxPixels), n, deps, options),
  );
}

async function ingestImage(
  image: GreyImage,
  pageNum: number,
  deps: IngestDeps,
  options: IngestOptions,
  /** The image decoded from its lightest channel, for a second reading (a photo's own colours). */
  lightest?: () => Promise<GreyImage>,
): Promise<PageContent> {
  const page: Page = {
    pageNum,
    width: image.width,
    height: image.height,
    unit: 'px',
    rotation: 0,
    source: 'none',
  };
  if (options.ocr === 'never') return { page, blocks: [] };
  // Photos and scans sent as images are mostly receipts and single pages: reading them as one block
  // of text (tesseract's mode 6) keeps a receipt's label and amount on one line. Measured on the 53
  // images of the development corpus: 0.68 field accuracy against 0.62 with automatic segmentation.
  const region = await recognisePage(image, deps, {
    detectOrientation: true,
    pageSegmentationMode: IMAGE_SEGMENTATION,
    secondReadingBelow: options.secondReadingBelow ?? 0,
    // One block of text passes over print of another size (a letterhead's name in large bold): where
    // it leaves more than UNREAD_PRINT of the page's print uncovered, the bands holding that print are
    // read again in tesseract's own segmentation, their words filling those places (unread-print.ts).
    completeWith: { pageSegmentationMode: 3, above: UNREAD_PRINT },
    ...(lightest ? { lightest } : {}),
  });
  page.source = 'ocr';
  page.ocrCorrection = { ...region.correction, dpi: 0 };
  page.ink = round4(region.ink);
  const toPage: PointMap = (x, y) => [x / image.width, y / image.height];
  return {
    page,
    blocks: regionBlocks(region.blocks, toPage),
    ...(region.second ? { second: regionBlocks(region.second, toPage) } : {}),
  };
}

async function ingestPdf(
  bytes: Uint8Array,
  deps: IngestDeps,
  options: IngestOptions,
): Promise<PageContent[]> {
  const doc = await deps.pdf.open(bytes, { transfer: options.ownsContent === true });
  try {
    if (doc.pageCount > options.maxPages) {
      throw new DocexError(
        'PAGE_LIMIT_EXCEEDED',
        `The document has ${doc.pageCount} pages; the limit is ${options.maxPages}.`,
      );
    }
    if (doc.pageCount < 1) throw new DocexError('PDF_CORRUPT', 'The PDF has no pages.');
    const pageNums = Array.from({ length: doc.pageCount }, (_, i) => i + 1);
    // Pages are read side by side so every OCR worker has work; each page frees its bitmaps when done.
    return await mapLimit(pageNums, options.pageConcurrency, async (n) => {
      const page = await doc.page(n);
      try {
        return await ingestPdfPage(page, n, deps, options);
      } finally {
        page.release();
      }
    });
  } finally {
    await doc.close();
  }
}

/**
 * Share of an image's print the first reading may leave uncovered before it is read again in automatic
 * segmentation. Measured on photographed probe invoices (evaluation/photographed.ts), pages whose
 * letterhead went unread left 0.04-0.09 uncovered; receipts of the development corpus 0.00-0.17 (their
 * backgrounds and logos count too). At 0.05 the development corpus read one name more and none less
 * (in sample, 84.2 -> 84.3 %), the photographed z sets 85.1 -> 85.6 % of invoice values.
 */
const UNREAD_PRINT = 0.05;

/** Tesseract page segmentation for image files: one uniform block of text. */
const IMAGE_SEGMENTATION = 6;
/** A scanned PDF page this many times taller than wide (A4 is 1.41) is a receipt's. */
const RECEIPT_SHAPE = 1.8;

async function ingestPdfPage(
  pdfPage: PdfPage,
  pageNum: number,
  deps: IngestDeps,
  options: IngestOptions,
): Promise<PageContent> {
  const page: Page = {
    pageNum,
    width: pdfPage.width,
    height: pdfPage.height,
    unit: 'pt',
    rotation: pdfPage.rotation,
    source: 'none',
  };
  const words = wordsFromRuns(await pdfPage.textRuns());
  const usable = isUsableText(words);
  const keepText = usable || (options.ocr === 'never' && words.length > 0);
  const textBlocks = keepText ? textLayerBlocks(words, page.width, page.height) : [];
  const textBoxes = textBlocks.flat(2).map((w) => w.box);
  if (keepText) page.source = 'text';

  const fullPage = options.ocr === 'always' || (options.ocr === 'auto' && !usable);
  if (!fullPage) {
    // Pictures on a page with a text layer are not even looked for here: finding them costs about as
    // much as reading the text, and most (logos beside the name in text, stamps, backgrounds) add
    // nothing. Extraction has them found and read when a field they could answer is left unresolved.
    if (options.ocr === 'auto' && usable) page.pictures = { examined: false, regions: [] };
    return { page, blocks: textBlocks };
  }

  const { image, dpi, toPage } = await fullPageImage(pdfPage, page, deps, options);
  const region = await recognisePage(image, deps, {
    dpi,
    detectOrientation: true,
    // A page much taller than wide is a receipt: read as one block, as photos are (ingestImage).
    ...(page.height > RECEIPT_SHAPE * page.width ? { pageSegmentationMode: IMAGE_SEGMENTATION } : {}),
  });
  page.ocrCorrection = { ...region.correction, dpi: Math.round(dpi) };
  page.ink = round4(region.ink);
  const extra = wordsNotInText(regionBlocks(region.blocks, toPage), textBoxes);
  if (extra.length > 0) page.source = keepText ? 'text+ocr' : 'ocr';
  return { page, blocks: [...textBlocks, ...extra] };
}

/** Scans above this resolution are scaled down to `dpi` before OCR: more pixels only cost time. */
const MAX_SCAN_DPI = 400;

/**
 * The picture of a page to OCR: a scanned page's own image at its own resolution when the page is
 * just that, otherwise a rendering at `options.dpi`.
 */
async function fullPageImage(
  pdfPage: PdfPage,
  page: Page,
  deps: IngestDeps,
  options: IngestOptions,
): Promise<{ image: GreyImage; dpi: number; toPage: PointMap }> {
  const scan = await pdfPage.scanImage(options.maxPixels);
  if (scan) {
    const { box } = scan;
    let image = scan.image;
    let dpi = image.width / (((box.x1 - box.x0) * page.width) / 72);
    if (dpi > MAX_SCAN_DPI) {
      const factor = options.dpi / dpi;
      image = await deps.images.resize(
        image,
        Math.round(image.width * factor),
        Math.round(image.height * factor),
      );
      dpi = options.dpi;
    }
    const { width, height } = image;
    return {
      image,
      dpi,
      toPage: (x, y) => [box.x0 + (x / width) * (box.x1 - box.x0), box.y0 + (y / height) * (box.y1 - box.y0)],
    };
  }
  const rendered = await pdfPage.render({ dpi: options.dpi, maxPixels: options.maxPixels });
  const { image } = rendered;
  return { image, dpi: rendered.dpi, toPage: (x, y) => [x / image.width, y / image.height] };
}

/** Lays out text-layer words by reading direction, so sideways text forms its own lines. */
function textLayerBlocks(words: TextWord[], width: number, height: number): PageWord[][][] {
  const blocks: PageWord[][][] = [];
  for (const direction of [0, 90, 180, 270] as const) {
    const group = words.filter((w) => w.direction === direction);
    if (group.length === 0) continue;
    // Turning the page back by the text's direction makes the text read left to right.
    const back = ((360 - direction) % 360) as 0 | 90 | 180 | 270;
    const toFrame = turnRightAngle(back, width, height);
    const fromFrame = undoRightAngle(back, width, height);
    const frameBoxes = group.map((w) => mapBox(w.box, toFrame));
    const toPage: PointMap = (x, y) => {
      const [px, py] = fromFrame(x, y);
      return [px / width, py / height];
    };
    for (const block of layoutWords(frameBoxes)) {
      blocks.push(
        block.lines.map((line) =>
          line.words.map((i) => ({
            text: group[i]!.text,
            box: clampBox01(mapBox(frameBoxes[i]!, toPage)),
            confidence: 1,
            source: 'text' as const,
          })),
        ),
      );
    }
  }
  return blocks;
}

/** Numbers tokens, lines and blocks in reading order: page, block (top to bottom), line, word. */
function assembleTokenLayer(fileId: string, mediaType: MediaType, pages: PageContent[]): TokenLayer {
  const tokens: Token[] = [];
  const lines: Line[] = [];
  const blocks: Block[] = [];
  for (const { page, blocks: pageBlocks } of pages) {
    appendPageBlocks({ tokens, lines, blocks }, page.pageNum, pageBlocks);
  }
  return {
    formatVersion: 1,
    fileId,
    mediaType,
    pages: pages.map((p) => p.page),
    tokens,
    lines,
    blocks,
    createdAt: new Date().toISOString(),
  };
}

function round4(v: number): number {
  return Math.round(v * 10_000) / 10_000;
}
