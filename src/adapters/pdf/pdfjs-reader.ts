import { createRequire } from 'node:module';
import path from 'node:path';
import type * as PdfjsModule from 'pdfjs-dist/legacy/build/pdf.mjs';
import type { PDFDocumentProxy, PDFPageProxy } from 'pdfjs-dist/types/src/display/api.js';
import { DocexError } from '../../core/errors.js';
import { greyFromInterleaved } from '../../documents/raster.js';
import { checkPdfBudget, DEFAULT_PDF_BUDGET, type PdfBudget } from './pdf-budget.js';
import { extractScanImage } from './pdfjs-scan-image.js';
import { rawImageVerdict } from './raw-images.js';
import type { ImagePlacement, PdfDocument, PdfPage, PdfReader, TextRun } from '../../ports/pdf-reader.js';

type Pdfjs = typeof PdfjsModule;

let loading: Promise<Pdfjs> | undefined;

/**
 * Loads pdfjs-dist's legacy build (the one that runs on Node 20) and its worker module, then puts back
 * the built-ins its bundled core-js polyfills replace: JSON.parse, JSON.stringify and
 * Array.prototype.push become several times slower for the whole host process otherwise (measured:
 * JSON.stringify of a token layer 8x slower). Polyfills that only add missing methods are left.
 * The import is cached by the module system in any case; this memo only avoids doing the work twice.
 */
export function loadPdfjs(): Promise<Pdfjs> {
  loading ??= (async () => {
    const saved: Array<[object, string, unknown]> = [
      [JSON, 'parse', JSON.parse],
      [JSON, 'stringify', JSON.stringify],
      [Array.prototype, 'push', Array.prototype.push],
    ];
    try {
      const lib = await import('pdfjs-dist/legacy/build/pdf.mjs');
      // Loading the worker module now (pdfjs runs it in this thread) keeps its polyfills inside this window.
      const workerModule = 'pdfjs-dist/legacy/build/pdf.worker.mjs';
      await import(workerModule);
      return lib;
    } finally {
      for (const [owner, key, original] of saved) {
        if ((owner as Record<string, unknown>)[key] !== original) {
          Object.defineProperty(owner, key, {
            value: original,
            writable: true,
            configurable: true,
            enumerable: false,
          });
        }
      }
    }
  })();
  return loading;
}

function imageOps(pdfjs: Pdfjs): Set<number> {
  return new Set<number>([
    pdfjs.OPS.paintImageXObject,
    pdfjs.OPS.paintInlineImageXObject,
    pdfjs.OPS.paintImageXObjectRepeat,
    pdfjs.OPS.paintInlineImageXObjectGroup,
  ]);
}

/** Filesystem folders of pdfjs-dist's fonts, character maps and decoders, each ending in a separator. */
function pdfjsAssetDirs(): { standardFontDataUrl: string; cMapUrl: string; wasmUrl: string } {
  const require = createRequire(import.meta.url);
  const root = path.dirname(require.resolve('pdfjs-dist/package.json'));
  const dir = (name: string): string => path.join(root, name) + path.sep;
  return { standardFontDataUrl: dir('standard_fonts'), cMapUrl: dir('cmaps'), wasmUrl: dir('wasm') };
}

export interface PdfjsReaderOptions {
  /**
   * What a file may declare before pdfjs is given it (pictures, inflated streams): checked on the raw
   * bytes at open (src/adapters/pdf/pdf-budget.ts); pdfjs's own `maxImageSize` is set to the same.
   */
  budget?: Partial<PdfBudget>;
}

/**
 * A PdfReader on pdfjs-dist (legacy build, runs in this thread, no eval, no network, no system fonts).
 * It has no bound on time or memory beyond the budget checks: the engine runs it inside the worker
 * threads of src/adapters/pdf/pdf-worker-pool.ts, which add them.
 */
export function createPdfjsReader(options: PdfjsReaderOptions = {}): PdfReader {
  const assets = pdfjsAssetDirs();
  const budget: PdfBudget = { ...DEFAULT_PDF_BUDGET, ...options.budget };
  return {
    async open(bytes: Uint8Array, options: { transfer?: boolean } = {}): Promise<PdfDocument> {
      await checkPdfBudget(bytes, budget);
      const pdfjs = await loadPdfjs();
      // A document with no image anywhere never needs an operator list to tell whether a page paints
      // one. Its bytes are read before pdfjs takes them over, or else on the first question (an open
      // that only counts pages never asks).
      let verdict = options.transfer ? rawImageVerdict(bytes) !== 'none' : undefined;
      const mayHaveImages = (): boolean => (verdict ??= rawImageVerdict(bytes) !== 'none');
      let task: ReturnType<typeof pdfjs.getDocument>;
      try {
        task = pdfjs.getDocument({
          // pdfjs takes ownership of (and detaches) the buffer it is given: a copy unless handed over.
          // It also refuses Node Buffers, so a Buffer is viewed as a plain Uint8Array.
          data: options.transfer
            ? new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength)
            : new Uint8Array(bytes),
          ...assets,
          cMapPacked: true,
          isEvalSupported: false,
          // Images whose dictionary declares more pixels are left out rather than decoded (the budget
          // check refuses such files first when it can read the dictionary).
          maxImageSize: budget.maxImagePixels,
          isOffscreenCanvasSupported: false,
          isImageDecoderSupported: false,
          useSystemFonts: false,
          disableFontFace: true,
          verbosity: 0,
        });
      } catch (error) {
        throw translatePdfError(error);
      }
      let proxy: PDFDocumentProxy;
      try {
        proxy = await task.promise;
      } catch (error) {
        await task.destroy().catch(() => undefined);
        throw translatePdfError(error);
      }
      return wrapDocument(proxy, pdfjs, mayHaveImages);
    },
  };
}

function translatePdfError(error: unknown): DocexError {
  const name = (error as { name?: string } | null)?.name;
  if (name === 'PasswordException') {
    return new DocexError('PDF_ENCRYPTED', 'The PDF is protected by a password and cannot be read.', {
      cause: error,
    });
  }
  return new DocexError('PDF_CORRUPT', 'The PDF is damaged or not a valid PDF and cannot be read.', {
    cause: error,
  });
}

function wrapDocument(proxy: PDFDocumentProxy, pdfjs: Pdfjs, mayHaveImages: () => boolean): PdfDocument {
  const paintsImage = imageOps(pdfjs);
  return {
    pageCount: proxy.numPages,
    async page(pageNum: number): Promise<PdfPage> {
      let page: PDFPageProxy;
      try {
        page = await proxy.getPage(pageNum);
      } catch (error) {
        throw new DocexError('PDF_CORRUPT', `Page ${pageNum} of the PDF is damaged and cannot be read.`, {
          cause: error,
        });
      }
      return wrapPage(proxy, page, paintsImage, mayHaveImages, pdfjs);
    },
    async close(): Promise<void> {
      await proxy.destroy();
    },
  };
}

function normaliseRotation(rotate: number): 0 | 90 | 180 | 270 {
  const r = (((Math.round(rotate / 90) * 90) % 360) + 360) % 360;
  return r as 0 | 90 | 180 | 270;
}

function wrapPage(
  doc: PDFDocumentProxy,
  page: PDFPageProxy,
  /** The operators that paint an image. */
  paintsImage: Set<number>,
  /** False when the file's bytes hold no image at all. */
  mayHaveImages: () => boolean,
  pdfjs: Pdfjs,
): PdfPage {
  const viewport = page.getViewport({ scale: 1 });
  const rotation = normaliseRotation(page.rotate);
  return {
    width: viewport.width,
    height: viewport.height,
    rotation,
    async textRuns(): Promise<TextRun[]> {
      let content;
      try {
        content = await page.getTextContent({ disableNormalization: false });
      } catch (error) {
        throw new DocexError('PDF_CORRUPT', `The text of page ${page.pageNumber} cannot be read.`, {
          cause: error,
        });
      }
      const runs: TextRun[] = [];
      for (const item of content.items) {
        if (!('str' in item) || item.str.trim() === '') continue;
        const [a, b, c, d, e, f] = item.transform as number[];
        const origin = viewport.convertToViewportPoint(e ?? 0, f ?? 0);
        // Direction of the baseline and of "up" in PDF space, mapped through the viewport (which flips
        // y and applies /Rotate): compare the images of two points.
        const along = viewport.convertToViewportPoint((e ?? 0) + (a ?? 1), (f ?? 0) + (b ?? 0));
        const up = viewport.convertToViewportPoint((e ?? 0) + (c ?? 0), (f ?? 0) + (d ?? 1));
        const ax = along[0] - origin[0];
        const ay = along[1] - origin[1];
        const alongLength = Math.hypot(ax, ay) || 1;
        const height = Math.hypot(up[0] - origin[0], up[1] - origin[1]);
        runs.push({
          text: item.str,
          x: origin[0],
          y: origin[1],
          dx: ax / alongLength,
          dy: ay / alongLength,
          // pdfjs reports the advance of a vertical run in `height` and of a horizontal one in `width`.
          width: item.width > 0 ? item.width : item.height,
          height: height > 0 ? height : item.height,
        });
      }
      return runs;
    },
    release(): void {
      // Drops decoded images and fonts pdfjs caches on the page: a scanned page holds tens of MB.
      page.cleanup();
    },
    async scanImage(maxPixels: number) {
      try {
        return await extractScanImage(pdfjs.OPS, page, viewport, maxPixels);
      } catch (error) {
        throw new DocexError('PDF_CORRUPT', `The picture on page ${page.pageNumber} cannot be read.`, {
          cause: error,
        });
      }
    },
    async hasImages(): Promise<boolean> {
      // The operator list parses the page again and builds glyph outlines of its fonts: as costly as
      // the text itself, so only asked for when the file's bytes leave images possible.
      if (!mayHaveImages()) return false;
      const ops = await page.getOperatorList();
      return ops.fnArray.some((fn) => paintsImage.has(fn));
    },
    async imagePlacements(): Promise<ImagePlacement[]> {
      // pdfjs records where images land only while rendering (once per page): a thumbnail is enough,
      // and the images it decodes stay cached for the full render that usually follows.
      const recorded = () =>
        (page as unknown as { imageCoordinates?: ArrayLike<number> | null }).imageCoordinates;
      if (!recorded()) {
        const thumb = page.getViewport({
          scale: Math.min(1, 200 / Math.max(viewport.width, viewport.height)),
        });
        await renderInto(doc, page, thumb, Math.ceil(thumb.width), Math.ceil(thumb.height), 0, 0, true);
      }
      const coords = recorded();
      const placements: ImagePlacement[] = [];
      for (let i = 0; coords && i + 6 <= coords.length; i += 6) {
        placements.push({
          corners: [0, 1, 2, 3, 4, 5].map((k) => Number(coords[i + k])) as ImagePlacement['corners'],
        });
      }
      return placements;
    },
    async render({ dpi, maxPixels, part }) {
      // `part` (fractions of the displayed page) renders that rectangle alone, at the same scale.
      const share = part ? Math.max(0, part.x1 - part.x0) * Math.max(0, part.y1 - part.y0) : 1;
      let scale = dpi / 72;
      const pixels = viewport.width * viewport.height * scale * scale * share;
      if (pixels > maxPixels) scale *= Math.sqrt(maxPixels / pixels);
      const renderViewport = page.getViewport({ scale });
      const pageWidth = Math.max(1, Math.floor(renderViewport.width));
      const pageHeight = Math.max(1, Math.floor(renderViewport.height));
      const left = part ? clampInt(Math.floor(part.x0 * pageWidth), 0, pageWidth - 1) : 0;
      const top0 = part ? clampInt(Math.floor(part.y0 * pageHeight), 0, pageHeight - 1) : 0;
      const width = part ? clampInt(Math.ceil(part.x1 * pageWidth) - left, 1, pageWidth - left) : pageWidth;
      const height = part
        ? clampInt(Math.ceil(part.y1 * pageHeight) - top0, 1, pageHeight - top0)
        : pageHeight;
      const grey = new Uint8Array(width * height);
      // The page is drawn in horizontal bands: an RGBA canvas (and its pixel copy) of a whole 300 dpi
      // page costs 70 MB, a band a fraction of that.
      const bandRows = Math.max(1, Math.min(height, Math.floor(BAND_PIXELS / width)));
      for (let top = 0; top < height; top += bandRows) {
        const rows = Math.min(bandRows, height - top);
        const band = await renderInto(doc, page, renderViewport, width, rows, left, top0 + top, false);
        grey.set(greyFromInterleaved(band, width, rows, 4).data, top * width);
      }
      return { image: { width, height, data: grey }, dpi: scale * 72 };
    },
  };
}

function clampInt(value: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, Math.round(value)));
}

/** A page's bitmap at 4 million pixels a band: 16 MB of RGBA at a time. */
const BAND_PIXELS = 4_000_000;

/**
 * Renders rows [top, top + rows) and columns [left, left + width) of the page at `viewport` onto a
 * white canvas; returns its RGBA pixels.
 */
async function renderInto(
  doc: PDFDocumentProxy,
  page: PDFPageProxy,
  viewport: ReturnType<PDFPageProxy['getViewport']>,
  width: number,
  rows: number,
  left: number,
  top: number,
  recordImages: boolean,
): Promise<ArrayLike<number>> {
  const factory = (doc as unknown as { canvasFactory: CanvasFactory }).canvasFactory;
  const entry = factory.create(width, rows);
  try {
    entry.context.fillStyle = '#ffffff';
    entry.context.fillRect(0, 0, width, rows);
    const task = page.render({
      canvasContext: entry.context,
      canvas: entry.canvas,
      viewport,
      transform: top === 0 && left === 0 ? null : [1, 0, 0, 1, -left, -top],
      intent: 'print',
      recordImages,
    } as unknown as Parameters<PDFPageProxy['render']>[0]);
    await task.promise;
    return entry.context.getImageData(0, 0, width, rows).data;
  } catch (error) {
    throw new DocexError('PDF_CORRUPT', `Page ${page.pageNumber} of the PDF cannot be rendered.`, {
      cause: error,
    });
  } finally {
    factory.destroy(entry);
  }
}

interface CanvasFactory {
  create(width: number, height: number): { canvas: unknown; context: Canvas2D };
  destroy(entry: { canvas: unknown; context: Canvas2D }): void;
}

interface Canvas2D {
  fillStyle: string;
  fillRect(x: number, y: number, w: number, h: number): void;
  getImageData(x: number, y: number, w: number, h: number): { data: ArrayLike<number> };
}
