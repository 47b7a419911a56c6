import { PDFDocument, degrees, rgb } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PdfReader } from '../../src/ports/pdf-reader.js';
import {
  A4,
  INVOICE_LINES,
  encodeImage,
  makeEncryptedPdf,
  makeImagePdf,
  makeMixedPdf,
  makeTextPdf,
} from '../helpers/make-documents.js';

export type MakePdfReader = () => Promise<{ reader: PdfReader; close?: () => Promise<void> }>;

/**
 * The PdfReader contract (src/ports/pdf-reader.ts): every implementation (pdf.js in this thread, pdf.js
 * in the bounded worker pool) passes these.
 */
export function pdfReaderContract(name: string, make: MakePdfReader): void {
  describe(`PdfReader contract: ${name}`, () => {
    let reader: PdfReader;
    let close: (() => Promise<void>) | undefined;
    beforeAll(async () => {
      ({ reader, close } = await make());
    });
    afterAll(async () => {
      await close?.();
    });

    it('gives text runs on the displayed page: baseline start, direction, advance and size', async () => {
      const doc = await reader.open(
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
      const doc = await reader.open(await makeMixedPdf('LOGO', INVOICE_LINES.slice(2)));
      try {
        const page = await doc.page(1);
        expect(await page.hasImages()).toBe(true);
        const images = await page.imagePlacements();
        const { image, dpi } = await page.render({ dpi: 100, maxPixels: 50_000_000 });
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

    it('renders a large page band by band without seams or shifts', async () => {
      const pdf = await PDFDocument.create();
      const page = pdf.addPage([A4.width, A4.height]);
      // A black bar from 100 pt to 700 pt down the page, 200 pt wide: it crosses every band boundary.
      page.drawRectangle({ x: 100, y: A4.height - 700, width: 200, height: 600, color: rgb(0, 0, 0) });
      const doc = await reader.open(await pdf.save());
      try {
        const { image, dpi } = await (await doc.page(1)).render({ dpi: 300, maxPixels: 50_000_000 });
        expect(image.width * image.height).toBeGreaterThan(8_000_000);
        const px = (pt: number) => Math.round((pt * dpi) / 72);
        const at = (xPt: number, yPt: number) => image.data[px(yPt) * image.width + px(xPt)]!;
        for (let y = 102; y < 698; y += 1) expect(at(200, y), `row at ${y} pt`).toBeLessThan(50);
        expect(at(200, 98)).toBeGreaterThan(200);
        expect(at(200, 702)).toBeGreaterThan(200);
        expect(at(90, 400)).toBeGreaterThan(200);
        expect(at(310, 400)).toBeGreaterThan(200);
      } finally {
        await doc.close();
      }
    });

    it('renders a part of a page alone, at the scale of the whole', async () => {
      const pdf = await PDFDocument.create();
      const page = pdf.addPage([A4.width, A4.height]);
      // A black square from (100, 100) to (200, 200) pt from the top left.
      page.drawRectangle({ x: 100, y: A4.height - 200, width: 100, height: 100, color: rgb(0, 0, 0) });
      const doc = await reader.open(await pdf.save());
      try {
        // The part from (50, 50) to (250, 150) pt: the square's upper half, 50 pt in from the part's left.
        const part = { x0: 50 / A4.width, y0: 50 / A4.height, x1: 250 / A4.width, y1: 150 / A4.height };
        const { image, dpi } = await (await doc.page(1)).render({ dpi: 144, maxPixels: 50_000_000, part });
        expect(dpi).toBeCloseTo(144);
        // 200 x 100 pt at 2 pixels a point.
        expect(Math.abs(image.width - 400)).toBeLessThanOrEqual(2);
        expect(Math.abs(image.height - 200)).toBeLessThanOrEqual(2);
        const at = (xPt: number, yPt: number) =>
          image.data[Math.round(yPt * 2) * image.width + Math.round(xPt * 2)]!;
        expect(at(60, 60)).toBeLessThan(50); // inside the square: (110, 110) on the page
        expect(at(40, 60)).toBeGreaterThan(200); // left of it: (90, 110)
        expect(at(60, 40)).toBeGreaterThan(200); // above it: (110, 90)
        expect(at(160, 60)).toBeGreaterThan(200); // right of it: (210, 110)
      } finally {
        await doc.close();
      }
    });

    it('takes the picture of a scanned page as stored, turned as displayed, instead of rendering it', async () => {
      // A 400 x 600 picture, white with a black square in its top-left quarter.
      const picture = { width: 400, height: 600, data: new Uint8Array(400 * 600).fill(255) };
      for (let y = 20; y < 120; y++) for (let x = 20; x < 120; x++) picture.data[y * 400 + x] = 0;
      const png = await encodeImage(picture, 'png');
      const upright = await makeImagePdf([png]);
      const doc = await reader.open(upright);
      try {
        const scan = (await (await doc.page(1)).scanImage(50_000_000))!;
        expect(scan.image.width).toBe(400);
        expect(scan.image.height).toBe(600);
        expect(scan.box).toEqual({ x0: 0, y0: 0, x1: 1, y1: 1 });
        expect(scan.image.data[50 * 400 + 50]).toBeLessThan(10);
        expect(scan.image.data[50 * 400 + 300]).toBeGreaterThan(245);
      } finally {
        await doc.close();
      }

      // The same page shown with /Rotate 90: the square is now top right.
      const turnedPdf = await PDFDocument.load(upright);
      turnedPdf.getPage(0).setRotation(degrees(90));
      const turned = await reader.open(await turnedPdf.save());
      try {
        const scan = (await (await turned.page(1)).scanImage(50_000_000))!;
        expect([scan.image.width, scan.image.height]).toEqual([600, 400]);
        expect(scan.image.data[50 * 600 + 600 - 50]).toBeLessThan(10);
        expect(scan.image.data[50 * 600 + 50]).toBeGreaterThan(245);
      } finally {
        await turned.close();
      }
    });

    it('does not take a picture for the page when the page also draws text or shapes', async () => {
      const doc = await reader.open(await makeMixedPdf('LOGO', INVOICE_LINES.slice(2)));
      try {
        expect(await (await doc.page(1)).scanImage(50_000_000)).toBeUndefined();
      } finally {
        await doc.close();
      }
    });

    it('tells a PDF that needs a password from a damaged one', async () => {
      await expect(reader.open(await makeEncryptedPdf())).rejects.toMatchObject({ code: 'PDF_ENCRYPTED' });
      await expect(reader.open(new TextEncoder().encode('%PDF-1.4\nnonsense'))).rejects.toMatchObject({
        code: 'PDF_CORRUPT',
      });
    });

    it('reads a document while another is open, and a page again after it was released', async () => {
      const a = await reader.open(await makeTextPdf([{ lines: [{ text: 'First', x: 50, y: 100 }] }]));
      const b = await reader.open(await makeTextPdf([{ lines: [{ text: 'Second', x: 50, y: 100 }] }]));
      try {
        const [pageA, pageB] = await Promise.all([a.page(1), b.page(1)]);
        expect((await pageB.textRuns())[0]!.text).toBe('Second');
        pageA.release();
        expect((await pageA.textRuns())[0]!.text).toBe('First');
      } finally {
        await Promise.all([a.close(), b.close()]);
      }
    });

    it('leaves the bytes it was given untouched unless they were handed over', async () => {
      const pdf = await makeTextPdf([{ lines: INVOICE_LINES }]);
      const before = Buffer.from(pdf).toString('base64');
      const doc = await reader.open(pdf);
      await (await doc.page(1)).textRuns();
      await doc.close();
      expect(Buffer.from(pdf).toString('base64')).toBe(before);
      // A Node Buffer (whose slice() is a view) is read as well.
      const buffered = await reader.open(Buffer.from(pdf), { transfer: true });
      expect(buffered.pageCount).toBe(1);
      await buffered.close();
    });
  });
}
