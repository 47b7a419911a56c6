import { PDFDocument, StandardFonts } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { analysePageGeometry } from '../../src/documents/orientation.js';
import { rotateRightAngle } from '../../src/documents/raster.js';
import { renderPdfPage } from '../helpers/make-documents.js';

/** A narrow till receipt in a monospaced font: its columns line up as sharply as its lines. */
async function receipt(): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Courier);
  const page = doc.addPage([230, 600]);
  const rows = [
    '21 LEAF GOURMET SDN BHD',
    'NO 5, JALAN BENDAHARA 18/12',
    'TAX INVOICE',
    'CHECK #: 730291  PAX(S): 0',
  ];
  for (let i = 0; i < 40; i++)
    rows.push(`ITEM ${String(i).padStart(2, '0')} X1       ${(i * 1.25).toFixed(2).padStart(7)}`);
  rows.forEach((text, i) => page.drawText(text, { x: 8, y: 580 - i * 13.5, size: 9, font }));
  return doc.save();
}

describe('analysePageGeometry', () => {
  it('sees the lines of an upright monospaced receipt as running across', async () => {
    const image = await renderPdfPage(await receipt(), 200);
    const geometry = analysePageGeometry(image);
    expect(geometry.sideways).toBe(false);
    expect(geometry.skew).toBe(0);
    expect(geometry.lineHeight).toBeGreaterThan(10);
  });

  it('sees a receipt turned a quarter as sideways', async () => {
    const image = rotateRightAngle(await renderPdfPage(await receipt(), 200), 90);
    expect(analysePageGeometry(image).sideways).toBe(true);
  });

  it('ignores a dark background around the paper', async () => {
    const paper = await renderPdfPage(await receipt(), 150);
    const width = paper.width + 400;
    const height = paper.height + 200;
    const photo = { width, height, data: new Uint8Array(width * height).fill(40) };
    for (let y = 0; y < paper.height; y++)
      photo.data.set(paper.data.subarray(y * paper.width, (y + 1) * paper.width), (y + 100) * width + 200);
    const geometry = analysePageGeometry(photo);
    expect(geometry.sideways).toBe(false);
    expect(Math.abs(geometry.skew)).toBeLessThanOrEqual(0.25);
  });

  it('reports a blank page as having no ink', () => {
    const blank = { width: 500, height: 700, data: new Uint8Array(500 * 700).fill(250) };
    expect(analysePageGeometry(blank)).toMatchObject({ sideways: false, skew: 0, lineHeight: 0 });
  });
});
