import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { checkPdfBudget, DEFAULT_PDF_BUDGET, jpegSize } from '../../../src/adapters/pdf/pdf-budget.js';
import {
  deflatedRun,
  flateContentBomb,
  flateImageBomb,
  jpegDeclaring,
  jpegHeaderBomb,
  writePdf,
} from '../../../support/hostile-pdfs.js';
import {
  encodeImage,
  makeEncryptedPdf,
  makeImagePdf,
  makeMixedPdf,
  INVOICE_LINES,
} from '../../helpers/make-documents.js';

const budget = DEFAULT_PDF_BUDGET;

describe('PDF budget (checks of the raw bytes before parsing)', () => {
  it('reads the size a JPEG frame header declares', () => {
    expect(jpegSize(jpegDeclaring(65_000, 65_000))).toEqual({ width: 65_000, height: 65_000 });
    expect(jpegSize(jpegDeclaring(640, 480))).toEqual({ width: 640, height: 480 });
    expect(jpegSize(new Uint8Array([1, 2, 3]))).toBeUndefined();
  });

  it('refuses a picture whose JPEG header declares more pixels than the limit, whatever its dictionary says', async () => {
    await expect(checkPdfBudget(jpegHeaderBomb(65_000), budget)).rejects.toMatchObject({
      code: 'PDF_RESOURCE_LIMIT',
      message: expect.stringContaining('holds a JPEG picture of 65000 x 65000 pixels'),
    });
    await expect(checkPdfBudget(jpegHeaderBomb(6000), budget)).resolves.toBeUndefined();
  });

  it('refuses a picture whose dictionary declares more pixels than the limit', async () => {
    await expect(checkPdfBudget(flateImageBomb(60_000, 1), budget)).rejects.toMatchObject({
      code: 'PDF_RESOURCE_LIMIT',
      message: expect.stringContaining('declares 60000 x 60000 pixels'),
    });
    await expect(checkPdfBudget(flateImageBomb(6000, 1), budget)).resolves.toBeUndefined();
  });

  it('refuses a stream that inflates past the limit, counting without keeping what it inflates', async () => {
    await expect(checkPdfBudget(flateContentBomb(80), budget)).rejects.toMatchObject({
      code: 'PDF_RESOURCE_LIMIT',
    });
    await expect(checkPdfBudget(flateContentBomb(32), budget)).resolves.toBeUndefined();
    await expect(
      checkPdfBudget(flateContentBomb(32), { ...budget, maxStreamBytes: 8 * 1024 * 1024 }),
    ).rejects.toMatchObject({
      code: 'PDF_RESOURCE_LIMIT',
      message: expect.stringContaining('8 MB'),
    });
  });

  it('finds the stream by its /Length even when the data holds the word endstream, and ignores a /Length by reference', async () => {
    const data = Buffer.concat([Buffer.from(deflatedRun(16 * 1024 * 1024)), Buffer.from('endstream')]);
    const direct = writePdf([
      '<< /Type /Catalog /Pages 2 0 R >>',
      '<< /Type /Pages /Kids [] /Count 0 >>',
      Buffer.concat([
        Buffer.from(`<< /Filter /FlateDecode /Length ${data.length} >>\nstream\n`),
        data,
        Buffer.from('\nendstream'),
      ]),
    ]);
    await expect(checkPdfBudget(direct, { ...budget, maxStreamBytes: 1024 * 1024 })).rejects.toMatchObject({
      code: 'PDF_RESOURCE_LIMIT',
    });
    const byReference = writePdf([
      '<< /Type /Catalog /Pages 2 0 R >>',
      '<< /Type /Pages /Kids [] /Count 0 >>',
      Buffer.concat([
        Buffer.from(`<< /Filter /FlateDecode /Length 15 0 R >>\nstream\n`),
        data,
        Buffer.from('\nendstream'),
      ]),
    ]);
    await expect(
      checkPdfBudget(byReference, { ...budget, maxStreamBytes: 1024 * 1024 }),
    ).rejects.toMatchObject({
      code: 'PDF_RESOURCE_LIMIT',
    });
  });

  it('passes ordinary documents: born-digital, scanned, with a logo, encrypted (left to the parser)', async () => {
    const picture = { width: 300, height: 400, data: new Uint8Array(300 * 400).fill(200) };
    const docs = [
      await readFile(new URL('../../../fixtures/invoice2data/AzureInterior.pdf', import.meta.url)),
      await makeImagePdf([await encodeImage(picture, 'jpeg'), await encodeImage(picture, 'png')]),
      await makeMixedPdf('LOGO', INVOICE_LINES),
      await makeEncryptedPdf(),
    ];
    for (const doc of docs) await expect(checkPdfBudget(doc, budget)).resolves.toBeUndefined();
  });
});
