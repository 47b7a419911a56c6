import { createRequire } from 'node:module';
import path from 'node:path';
import type * as PdfjsModule from 'pdfjs-dist/legacy/build/pdf.mjs';
import type { PDFDocumentProxy, PDFPageProxy } from 'pdfjs-dist/types/src/display/api.js';
import { DocexError } from '../../core/errors.js';
import { greyFromInterleaved } from '../../documents/raster.js';
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
function loadPdfjs(): Promise<Pdfjs> {
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

/** A PdfReader on pdfjs-dist (legacy build, runs in this thread, no eval, no network, no system fonts). */
export function createPdfjsReader(): PdfReader {
  const assets = pdfjsAssetDirs();
  return {
    async open(bytes: Uint8Array): Promise<PdfDocument> {
      const pdfjs = await loadPdfjs();
      let task: ReturnType<typeof pdfjs.getDocument>;
      try {
        task = pdfjs.getDocument({
          // pdfjs takes ownership of (and detaches) the buffer it is given: hand it a plain copy.
          data: new Uint8Array(bytes),
          ...assets,
          cMapPacked: true,
          isEvalSupported: false,
          isOffscreenCanvasSupported: false,
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
      return wrapDocument(proxy, imageOps(pdfjs));
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

function wrapDocument(proxy: PDFDocumentProxy, paintsImage: Set<number>): PdfDocument {
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
      return wrapPage(proxy, page, paintsImage);
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

function wrapPage(doc: PDFDocumentProxy, page: PDFPageProxy, paintsImage: Set<number>): PdfPage {
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
    async hasImages(): Promise<boolean> {
      const ops = await page.getOperatorList();
      return ops.fnArray.some((fn) => paintsImage.has(fn));
    },
    async render({ dpi, maxPixels }) {
      let scale = dpi / 72;
      const pixels = viewport.width * viewport.height * scale * scale;
      if (pixels > maxPixels) scale *= Math.sqrt(maxPixels / pixels);
      const renderViewport = page.getViewport({ scale });
      const width = Math.max(1, Math.floor(renderViewport.width));
      const height = Math.max(1, Math.floor(renderViewport.height));
      const factory = (doc as unknown as { canvasFactory: CanvasFactory }).canvasFactory;
      const entry = factory.create(width, height);
      try {
        entry.context.fillStyle = '#ffffff';
        entry.context.fillRect(0, 0, width, height);
        const task = page.render({
          canvasContext: entry.context,
          canvas: entry.canvas,
          viewport: renderViewport,
          intent: 'print',
          recordImages: true,
        } as unknown as Parameters<PDFPageProxy['render']>[0]);
        await task.promise;
        const placements: ImagePlacement[] = [];
        // pdfjs keeps what it recorded on the page object (set once, by the first recording render).
        const coords = (page as unknown as { imageCoordinates?: ArrayLike<number> | null }).imageCoordinates;
        if (coords) {
          for (let i = 0; i + 6 <= coords.length; i += 6) {
            placements.push({
              corners: [0, 1, 2, 3, 4, 5].map((k) => Number(coords[i + k])) as ImagePlacement['corners'],
            });
          }
        }
        const rgba = entry.context.getImageData(0, 0, width, height).data;
        return { image: greyFromInterleaved(rgba, width, height, 4), dpi: scale * 72, images: placements };
      } catch (error) {
        throw new DocexError('PDF_CORRUPT', `Page ${page.pageNumber} of the PDF cannot be rendered.`, {
          cause: error,
        });
      } finally {
        factory.destroy(entry);
      }
    },
  };
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
