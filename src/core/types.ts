/** Media types the engine accepts, sniffed from the bytes (never from a name). */
export type MediaType = 'application/pdf' | 'image/png' | 'image/jpeg' | 'image/tiff' | 'image/gif';

/**
 * An axis-aligned box in fractions of the page as the user sees it: origin top left, x to the right,
 * y down, all values in [0, 1].
 */
export interface Box {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/** Where the words of a page came from. */
export type PageSource = 'text' | 'ocr' | 'text+ocr' | 'none';

export interface Page {
  /** 1-based page number. */
  pageNum: number;
  /** Page size as displayed (after /Rotate), in PDF points for PDFs and pixels for images. */
  width: number;
  height: number;
  unit: 'pt' | 'px';
  /** The PDF's /Rotate of the page (0, 90, 180, 270); 0 for images. Boxes already account for it. */
  rotation: 0 | 90 | 180 | 270;
  source: PageSource;
  /**
   * Correction applied before OCR, in degrees clockwise: a right angle for pages printed sideways or
   * upside down, plus the measured skew of a scan. Absent when the page was not OCRed.
   */
  ocrCorrection?: { rightAngle: 0 | 90 | 180 | 270; skew: number; dpi: number };
  /** Share of dark pixels of the page image, when the whole page was OCRed (a blank scan: near 0). */
  ink?: number;
  /**
   * Pictures on a page with a text layer, which may hold words the text layer lacks (a logo with the
   * supplier's name, a pasted scan). Looked for and OCRed only when extraction leaves a field they
   * could answer unresolved (src/documents/image-regions.ts). Absent where pictures are never read
   * (pages OCRed in full, OCR off, image files).
   */
  pictures?: PagePictures;
}

/** What is known of the pictures of a page with a text layer. */
export interface PagePictures {
  /**
   * Whether the page has been looked at for pictures: until then `regions` is empty (finding where
   * pictures lie costs about as much as reading the page's text, so it waits until a field needs it).
   */
  examined: boolean;
  /** The pictures worth reading (not icons, not backgrounds under text), smallest first. */
  regions: ImageRegion[];
  /** The page was not examined: the document's time budget for pictures ran out first. */
  skipped?: true;
}

/** A picture on a page with a text layer, and whether its words have been read. */
export interface ImageRegion {
  box: Box;
  /**
   * `unread`: not OCRed (yet); `read`: OCRed, its new words are tokens of the layer; `skipped`:
   * needed, but the document's time budget for pictures ran out first, or it could not be read.
   */
  state: 'unread' | 'read' | 'skipped';
}

export interface Token {
  /**
   * Integer unique within the document, in reading order: page, then line, then word. Words read
   * later from a page's pictures (`imageRegions`) follow all others, so ids given out never change.
   */
  id: number;
  text: string;
  pageNum: number;
  box: Box;
  /** 0..1: 1 for the PDF text layer, the OCR word confidence otherwise. */
  confidence: number;
  source: 'text' | 'ocr';
  lineId: number;
}

export interface Line {
  id: number;
  pageNum: number;
  box: Box;
  tokenIds: number[];
  blockId: number;
}

export interface Block {
  id: number;
  pageNum: number;
  box: Box;
  lineIds: number[];
}

/** The document as every later workflow reads it. Stored with the file; a document is read once. */
export interface TokenLayer {
  formatVersion: 1;
  fileId: string;
  mediaType: MediaType;
  pages: Page[];
  tokens: Token[];
  lines: Line[];
  blocks: Block[];
  /** ISO 8601 UTC with milliseconds. */
  createdAt: string;
  /**
   * Other readings of the same document (a weak photo OCRed again from a locally thresholded image):
   * each a layer of its own, with its own token ids. Extraction reads them beside this one and chooses
   * per field; field boxes always point at this layer's tokens.
   */
  readings?: TokenLayer[];
}

/** The record of an uploaded file. */
export interface FileRecord {
  fileId: string;
  accountId: string;
  mediaType: MediaType;
  size: number;
  /** Number of pages (PDF page count; 1 for an image). */
  pageCount: number;
  /** ISO 8601 UTC with milliseconds and a trailing Z. */
  uploadedAt: string;
  status: 'RECEIVED';
  /** The client's file name, kept as information only; never used as a path. */
  name?: string;
  /** Unknown upload fields a client sent, kept as they came. */
  metadata: Record<string, unknown>;
  /** For a child document made by a split: the parent file and its page range (1-based, inclusive). */
  parent?: { fileId: string; pages: [number, number]; confidence?: number };
  /** Which upload made it: a v1 file's result request waits for its work by default, a v2 file's not. */
  flow?: 'v1' | 'v2';
  /** Tags given at upload (v1 `tags`), to group and list documents. */
  tags?: string[];
  /** Locale given at upload: how this document's dates are read (before the account's locale). */
  locale?: string;
}
