import { describe, expect, it } from 'vitest';
import { createPdfjsReader } from '../../../src/adapters/pdf/pdfjs-reader.js';
import {
  A4,
  INVOICE_LINES,
  makeEncryptedPdf,
  makeMixedPdf,
  makeTextPdf,
} from '../../helpers/make-documents.js';

describe('pdfjs PdfReader', () => {
  it('gives text runs on the displayed page: baseline start, direction, advance and size', async () => {
    const doc = await createPdfjsReader().open(
      await makeTextPdf([
        { lines: [{ text: 'Hello world', x: 50, y: 100, size: 12 }] },
        { rotate: 90, lines: [{ text: 'Turned', x: 50, y: 100, size: 10 }] },
      ]),
    );
    try {
      expect(doc.pageCount).toBe(2);
      const first = await doc.page(1);
      expect([first.width, first.height, first.rotation]).toEqual([A4.width, A4.height, 0]);
      const [run] = await first.textRuns();
      expect(run).toMatchObject({ text: 'Hello world', dx: 1, dy: 0, height: 12 });
      expect(run!.x).toBeCloseTo(50);
      expect(run!.y).toBeCloseTo(100);
      expect(run!.width).toBeGreaterThan(55);
      const second = await doc.page(2);
      expect([second.width, second.height, second.rotation]).toEqual([A4.height, A4.width, 90]);
      const [turned] = await second.textRuns();
      // /Rotate 90 turns the page clockwise: the text now runs down the page, 100 pt from the right.
      expect(turned).toMatchObject({ text: 'Turned', dx: 0, dy: 1 });
      expect(turned!.x).toBeCloseTo(A4.height - 100);
      expect(turned!.y).toBeCloseTo(50);
    } finally {
      await doc.close();
    }
  });

  it('renders a page in grey and reports where images were painted', async () => {
    const doc = await createPdfjsReader().open(await makeMixedPdf('LOGO', INVOICE_LINES.slice(2)));
    try {
      const page = await doc.page(1);
      expect(await page.hasImages()).toBe(true);
      const { image, dpi, images } = await page.render({ dpi: 100, maxPixels: 50_000_000 });
      expect(dpi).toBeCloseTo(100);
      expect(image.width).toBe(Math.floor((A4.width * 100) / 72));
      expect(images).toHaveLength(1);
      const [x0, y0] = images[0]!.corners;
      // The logo was drawn at (40, 40) from the top left, 300 x 60 pt.
      expect(x0).toBeCloseTo(40 / A4.width, 2);
      expect(y0).toBeCloseTo(40 / A4.height, 2);
      // A dark pixel inside the logo's text, white paper far from anything.
      expect(Math.min(...image.data.subarray(0, image.width * 5))).toBeGreaterThan(250);
      page.release();
      const limited = await page.render({ dpi: 300, maxPixels: 1_000_000 });
      expect(limited.image.width * limited.image.height).toBeLessThanOrEqual(1_000_000);
      expect(limited.dpi).toBeLessThan(300);
    } finally {
      await doc.close();
    }
  });

  it('tells a PDF that needs a password from a damaged one', async () => {
    const reader = createPdfjsReader();
    await expect(reader.open(await makeEncryptedPdf())).rejects.toMatchObject({ code: 'PDF_ENCRYPTED' });
    await expect(reader.open(new TextEncoder().encode('%PDF-1.4\nnonsense'))).rejects.toMatchObject({
      code: 'PDF_CORRUPT',
    });
  });

  it('leaves the host process its own JSON and Array built-ins after loading pdfjs', async () => {
    const doc = await createPdfjsReader().open(await makeTextPdf([{ lines: INVOICE_LINES }]));
    await (await doc.page(1)).textRuns();
    await doc.close();
    expect(Function.prototype.toString.call(JSON.stringify)).toContain('[native code]');
    expect(Function.prototype.toString.call(JSON.parse)).toContain('[native code]');
    expect(Function.prototype.toString.call(Array.prototype.push)).toContain('[native code]');
  });
});
