import type { Box } from '../core/types.js';
import type { GreyImage } from './image-backend.js';

/**
 * A run of text from a PDF text layer, in the coordinates of the page as displayed (after /Rotate):
 * points, origin top left, y down. The run starts at (x, y) on its baseline and advances `width`
 * points along the unit vector (dx, dy); its glyphs rise `height` points perpendicular to that.
 */
export interface TextRun {
  text: string;
  x: number;
  y: number;
  dx: number;
  dy: number;
  width: number;
  height: number;
}

/** A parallelogram an image was painted into, as three corners in fractions of the displayed page. */
export interface ImagePlacement {
  /** Corners: [x0, y0] one corner, [x1, y1] and [x2, y2] its two neighbours. */
  corners: [number, number, number, number, number, number];
}

export interface PdfPage {
  /** Displayed size in points (width and height swap for /Rotate 90 and 270). */
  readonly width: number;
  readonly height: number;
  readonly rotation: 0 | 90 | 180 | 270;
  textRuns(): Promise<TextRun[]>;
  /**
   * Whether the page paints any raster image. Renders nothing; cheap when the file holds no image at
   * all, otherwise it interprets the page's drawing operations (about the cost of reading its text).
   */
  hasImages(): Promise<boolean>;
  /** Frees what the page holds in memory (decoded images, fonts); the page may be used again after. */
  release(): void;
  /**
   * When the page is one scanned picture and nothing else, that picture at its own resolution, turned
   * as displayed, with its extent on the page in fractions; undefined otherwise (render the page).
   */
  scanImage(maxPixels: number): Promise<{ image: GreyImage; box: Box } | undefined>;
  /** Where raster images are painted on the page. */
  imagePlacements(): Promise<ImagePlacement[]>;
  /**
   * Renders the page as displayed, greyscale, at `dpi` (lowered so the bitmap stays under maxPixels);
   * with `part` (fractions of the displayed page), only that rectangle of it, at the same scale.
   */
  render(options: { dpi: number; maxPixels: number; part?: Box }): Promise<{ image: GreyImage; dpi: number }>;
}

export interface PdfDocument {
  readonly pageCount: number;
  /** 1-based. Whoever opens a page is done with it when the promise of its last use settles. */
  page(pageNum: number): Promise<PdfPage>;
  close(): Promise<void>;
}

/**
 * Opens PDFs. Errors: DocexError('PDF_ENCRYPTED') for a document that needs a password,
 * DocexError('PDF_CORRUPT') for one that cannot be parsed. The reader never evaluates code from the
 * document and never reaches the network.
 */
export interface PdfReader {
  /**
   * `transfer: true` hands the buffer over to the reader (no copy is made; the caller must not use it
   * after). By default the reader works on its own copy.
   */
  open(bytes: Uint8Array, options?: { transfer?: boolean }): Promise<PdfDocument>;
}
