import { describe, expect, it } from 'vitest';
import { defaultImageBackend } from '../../src/default-adapters.js';
import { recognisePage, resolutionFactor } from '../../src/documents/ocr-page.js';
import type { GreyImage } from '../../src/ports/image-backend.js';
import type { OcrEngine, OcrWord } from '../../src/ports/ocr-engine.js';
import { INVOICE_LINES, makeTextPdf, renderPdfPage } from '../helpers/make-documents.js';

/** An OCR engine that records the images it is given and answers one word in the middle of each. */
function recordingOcr(): OcrEngine & { seen: GreyImage[] } {
  const seen: GreyImage[] = [];
  return {
    seen,
    recognize(image: GreyImage): Promise<OcrWord[]> {
      seen.push(image);
      const word = { text: 'Invoice', confidence: 0.9 };
      const [cx, cy] = [image.width / 2, image.height / 2];
      return Promise.resolve([{ ...word, x0: cx - 40, y0: cy - 10, x1: cx + 40, y1: cy + 10 }]);
    },
    close: () => Promise.resolve(),
  };
}

describe('resolutionFactor: the scale of a page image for recognition, from its text line height', () => {
  it('enlarges small print up to 3x, leaves ordinary print, reduces large print to about 30 px lines', () => {
    expect(resolutionFactor(0, 2000)).toBe(1);
    expect(resolutionFactor(7, 2000)).toBe(3);
    expect(resolutionFactor(14, 2000)).toBeCloseTo(2, 5);
    expect(resolutionFactor(18, 2000)).toBe(1);
    expect(resolutionFactor(28, 2000)).toBe(1);
    expect(resolutionFactor(36, 2000)).toBe(1);
    expect(resolutionFactor(40, 2000)).toBeCloseTo(0.75, 5);
    expect(resolutionFactor(60, 2000)).toBe(0.5);
    expect(resolutionFactor(200, 2000)).toBe(0.5);
  });

  it('does not act on a "line height" too tall to be a line of text (a dark photo measured as one run)', () => {
    expect(resolutionFactor(2031, 807)).toBe(1);
    expect(resolutionFactor(140, 807)).toBe(1);
    expect(resolutionFactor(130, 807)).toBe(0.5);
  });
});

describe('recognisePage: resolution chosen per page', () => {
  const images = defaultImageBackend();

  it('a 400 dpi page is recognised at about 240 dpi, and boxes come back in the given image pixels', async () => {
    const backend = await images;
    const page = await renderPdfPage(await makeTextPdf([{ lines: INVOICE_LINES }]), 400);
    const ocr = recordingOcr();
    const region = await recognisePage(
      page,
      { ocr, images: backend },
      { dpi: 400, detectOrientation: false },
    );
    expect(ocr.seen).toHaveLength(1);
    const scale = ocr.seen[0]!.width / page.width;
    expect(scale).toBeGreaterThan(0.5);
    expect(scale).toBeLessThan(0.85);
    const box = region.blocks[0]!.lines[0]!.words[0]!.box;
    // The word sat in the middle of the reduced image: mapped back, in the middle of the page image.
    expect((box.x0 + box.x1) / 2).toBeCloseTo(page.width / 2, -1);
    expect((box.y0 + box.y1) / 2).toBeCloseTo(page.height / 2, -1);
  });

  it('a 200 dpi page of ordinary print is recognised as it is', async () => {
    const backend = await images;
    const page = await renderPdfPage(await makeTextPdf([{ lines: INVOICE_LINES }]), 200);
    const ocr = recordingOcr();
    await recognisePage(page, { ocr, images: backend }, { dpi: 200, detectOrientation: false });
    expect(ocr.seen[0]!.width).toBe(page.width);
  });
});

describe('recognisePage: the second reading of a colour photo', () => {
  const images = defaultImageBackend();

  /** A page of print with, in the luma image, a dark band across it (a stamp) that the lightest channel lacks. */
  async function stampedPage(): Promise<{ luma: GreyImage; lightest: GreyImage }> {
    const lightest = await renderPdfPage(await makeTextPdf([{ lines: INVOICE_LINES }]), 150);
    const luma = { ...lightest, data: lightest.data.slice() };
    const y0 = Math.round(lightest.height * 0.4);
    for (let y = y0; y < y0 + 40; y++) luma.data.fill(90, y * luma.width, (y + 1) * luma.width);
    return { luma, lightest };
  }

  const band = (image: GreyImage): number => {
    // Share of black pixels in the band's rows (the band is 40 rows from 40 % of the height down).
    const y0 = Math.round(image.height * 0.4) + 5;
    let black = 0;
    for (let i = y0 * image.width; i < (y0 + 30) * image.width; i++) if (image.data[i]! < 128) black++;
    return black / (30 * image.width);
  };

  it('is read from the lightest channel when the caller gives it, only when a second reading is made', async () => {
    const backend = await images;
    const { luma, lightest } = await stampedPage();
    let decoded = 0;
    const source = (): Promise<GreyImage> => {
      decoded++;
      return Promise.resolve(lightest);
    };
    const ocr = recordingOcr();
    const region = await recognisePage(
      luma,
      { ocr, images: backend },
      { detectOrientation: false, secondReadingBelow: 1, lightest: source },
    );
    expect(ocr.seen).toHaveLength(2);
    expect(region.second).toBeDefined();
    // The first reading saw the band; the second, thresholded from the lightest channel, does not.
    expect(band(ocr.seen[0]!)).toBeGreaterThan(0.9);
    expect(band(ocr.seen[1]!)).toBeLessThan(0.2);
    expect([ocr.seen[1]!.width, ocr.seen[1]!.height]).toEqual([ocr.seen[0]!.width, ocr.seen[0]!.height]);
    expect(decoded).toBe(1);

    // No second reading asked for: the lightest image is never decoded.
    const once = recordingOcr();
    await recognisePage(luma, { ocr: once, images: backend }, { detectOrientation: false, lightest: source });
    expect(once.seen).toHaveLength(1);
    expect(decoded).toBe(1);
  });

  it('without the lightest channel, or with one of another size, is read from the page as recognised', async () => {
    const backend = await images;
    const { luma, lightest } = await stampedPage();
    for (const source of [undefined, () => Promise.resolve({ ...lightest, width: lightest.width - 1 })]) {
      const ocr = recordingOcr();
      await recognisePage(
        luma,
        { ocr, images: backend },
        { detectOrientation: false, secondReadingBelow: 1, ...(source ? { lightest: source } : {}) },
      );
      expect(ocr.seen).toHaveLength(2);
      expect(band(ocr.seen[1]!)).toBeGreaterThan(0.5);
    }
  });
});

describe('recognisePage: a lightest channel that cannot be decoded', () => {
  it('leaves the second reading to the page as recognised', async () => {
    const backend = await defaultImageBackend();
    const page = await renderPdfPage(await makeTextPdf([{ lines: INVOICE_LINES }]), 150);
    const ocr = recordingOcr();
    const region = await recognisePage(
      page,
      { ocr, images: backend },
      {
        detectOrientation: false,
        secondReadingBelow: 1,
        lightest: () => Promise.reject(new Error('decoder failed')),
      },
    );
    expect(ocr.seen).toHaveLength(2);
    expect(region.second).toBeDefined();
  });
});

describe('recognisePage: a grey photo turned straight', () => {
  const images = defaultImageBackend();

  /** A page of print on grey paper (the paper 200), turned by 2 degrees as a phone holds it. */
  async function greySkewedPage(): Promise<GreyImage> {
    const backend = await images;
    const page = await renderPdfPage(await makeTextPdf([{ lines: INVOICE_LINES }]), 150);
    const data = page.data.map((v) => Math.round(v * (200 / 255)));
    return backend.rotate({ ...page, data }, 2, 200);
  }

  it("fills the corners its turn adds with the paper's grey, not white (tesseract's threshold then read no words)", async () => {
    const backend = await images;
    const page = await greySkewedPage();
    const ocr = recordingOcr();
    const region = await recognisePage(page, { ocr, images: backend }, { detectOrientation: true });
    expect(region.correction.skew).not.toBe(0);
    const seen = ocr.seen[0]!;
    // The turned image's corners: no white added to a page whose lightest part is 200.
    for (const i of [0, seen.width - 1, (seen.height - 1) * seen.width, seen.data.length - 1])
      expect(seen.data[i]!).toBeLessThan(220);
  });
});

describe('recognisePage: print the first reading left unread', () => {
  const images = defaultImageBackend();

  /**
   * An OCR engine whose one-block reading (mode 6) reads the body of a page but not its heading, and
   * whose own segmentation (mode 3) reads whatever it is given as one word across its top half. It
   * records the modes and the images' heights.
   */
  function headingMissingOcr(
    page: GreyImage,
  ): OcrEngine & { modes: Array<number | undefined>; heights: number[] } {
    const modes: Array<number | undefined> = [];
    const heights: number[] = [];
    const body: OcrWord[] = [];
    // Words over the body of the page: every text row but the first (the heading's), read as a word.
    const rows = inkRows(page);
    for (const [y0, y1] of rows.slice(1))
      body.push({ text: 'body', confidence: 0.9, x0: 0, y0, x1: page.width - 1, y1 });
    return {
      modes,
      heights,
      recognize(image: GreyImage, options?: { pageSegmentationMode?: number }): Promise<OcrWord[]> {
        modes.push(options?.pageSegmentationMode);
        heights.push(image.height);
        if (options?.pageSegmentationMode !== 3) return Promise.resolve(body);
        return Promise.resolve([
          { text: 'HEADING', confidence: 0.95, x0: 0, y0: 0, x1: image.width / 2, y1: image.height / 2 },
          {
            text: '~',
            confidence: 0.9,
            x0: image.width / 2,
            y0: 0,
            x1: image.width - 1,
            y1: image.height / 2,
          },
        ]);
      },
      close: () => Promise.resolve(),
    };
  }

  /** The [top, bottom] pixel rows of each run of rows holding ink. */
  function inkRows(page: GreyImage): Array<[number, number]> {
    const runs: Array<[number, number]> = [];
    let start = -1;
    for (let y = 0; y <= page.height; y++) {
      let dark = false;
      if (y < page.height)
        for (let x = 0; x < page.width && !dark; x++) dark = page.data[y * page.width + x]! < 128;
      if (dark && start < 0) start = y;
      if (!dark && start >= 0) {
        runs.push([start, y - 1]);
        start = -1;
      }
    }
    return runs;
  }

  it('reads the band of print the first reading left unread again in automatic segmentation, adding the words it finds', async () => {
    const backend = await images;
    const page = await renderPdfPage(await makeTextPdf([{ lines: INVOICE_LINES }]), 150);
    const ocr = headingMissingOcr(page);
    const region = await recognisePage(
      page,
      { ocr, images: backend },
      {
        detectOrientation: false,
        pageSegmentationMode: 6,
        completeWith: { pageSegmentationMode: 3, above: 0.02 },
      },
    );
    expect(ocr.modes).toEqual([6, 3]);
    // Only the heading's band is read again: a strip of the page, not the page.
    expect(ocr.heights[1]!).toBeLessThan(page.height / 4);
    const words = region.blocks.flatMap((b) => b.lines.flatMap((l) => l.words));
    const heading = words.find((w) => w.text === 'HEADING');
    // In the page's pixels: above the body's first word.
    const firstBody = Math.min(...words.filter((w) => w.text === 'body').map((w) => w.box.y0));
    expect(heading!.box.y0).toBeLessThan(firstBody);
    // A mark without a letter or digit is not added.
    expect(words.map((w) => w.text)).not.toContain('~');
  });

  it('does not read again when the first reading covers the print', async () => {
    const backend = await images;
    const page = await renderPdfPage(await makeTextPdf([{ lines: INVOICE_LINES }]), 150);
    const ocr = recordingOcr();
    const whole: OcrEngine = {
      recognize: (image) => {
        ocr.seen.push(image);
        return Promise.resolve([
          { text: 'all', confidence: 0.9, x0: 0, y0: 0, x1: page.width, y1: page.height },
        ]);
      },
      close: () => Promise.resolve(),
    };
    await recognisePage(
      page,
      { ocr: whole, images: backend },
      {
        detectOrientation: false,
        pageSegmentationMode: 6,
        completeWith: { pageSegmentationMode: 3, above: 0.02 },
      },
    );
    expect(ocr.seen).toHaveLength(1);
  });
});
