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
