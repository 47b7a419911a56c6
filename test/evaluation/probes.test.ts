import { mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createPdfjsReader } from '../../src/adapters/pdf/pdfjs-reader.js';
import { probeGroundTruth, writeProbeCorpus, type ProbeCase } from '../../src/evaluation/probes.js';
import { readGroundTruthFiles } from '../../src/evaluation/corpus.js';
import { defaultImageBackend } from '../../src/default-adapters.js';

const INVOICE: ProbeCase = {
  name: 'uk-joinery',
  product: 'invoices:2',
  want: {
    'document.supplierName': 'Oakbeam Joinery Ltd',
    'invoice.total': '1200.00',
    'bank.iban': 'GB33BUKB20201555555555',
  },
  line_items: [{ description: 'Oak door', quantity: '2', unit_price: '500.00', amount: '1000.00' }],
  pages: [
    {
      lines: [
        ['Oakbeam Joinery Ltd', 50, 60, 18, 1],
        ['Total  1,200.00', 400, 700, 11, 0],
      ],
    },
  ],
};

const RECEIPT: ProbeCase = {
  name: 'my-kedai',
  product: 'receipts:1',
  want: { 'receipt.total': '12.50', 'document.referenceNo': 'B-0042' },
  pages: [{ width: 220, height: 400, lines: [['TOTAL RM 12.50', 20, 300, 9, 1]] }],
};

const dir = mkdtempSync(path.join(tmpdir(), 'docex-probes-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('probe documents as a corpus', () => {
  it("maps a probe's fields to the reference scorer's keys, its set the family", () => {
    expect(probeGroundTruth('invoices-x', INVOICE)).toEqual({
      file: 'invoices-x/uk-joinery.pdf',
      type: 'invoice',
      format: 'pdf-text',
      pages: 1,
      source: 'probe',
      family: 'probe-invoices-x',
      fields: { issuer: 'Oakbeam Joinery Ltd', total: '1200.00', iban: 'GB33BUKB20201555555555' },
      line_items: INVOICE.line_items,
    });
    // A receipt's total is the receipt vocabulary's.
    expect(probeGroundTruth('receipts-x', RECEIPT)).toMatchObject({
      type: 'receipt',
      fields: { total: '12.50', invoice_number: 'B-0042' },
    });
  });

  it('writes every set as PDFs with their text layer beside ground truths the corpus reader reads', async () => {
    const probes = path.join(dir, 'probes');
    mkdirSync(probes);
    writeFileSync(path.join(probes, 'invoices-x.json'), JSON.stringify([INVOICE]));
    writeFileSync(path.join(probes, 'receipts-x.json'), JSON.stringify([RECEIPT]));
    const out = path.join(dir, 'corpus');
    expect(await writeProbeCorpus(probes, out)).toEqual({ sets: 2, documents: 2 });
    const truths = readGroundTruthFiles(out);
    expect(truths.map((t) => t.file)).toEqual(['invoices-x/uk-joinery.pdf', 'receipts-x/my-kedai.pdf']);

    const pdf = await createPdfjsReader().open(
      new Uint8Array(readFileSync(path.join(out, 'receipts-x/my-kedai.pdf'))),
    );
    try {
      const page = await pdf.page(1);
      expect((await page.textRuns()).map((r) => r.text).join(' ')).toContain('TOTAL RM 12.50');
    } finally {
      await pdf.close();
    }
  });

  it('photographed: writes each one-page document as a grey picture to be read by OCR, the same for the same seed', async () => {
    const probes = path.join(dir, 'probes-photo');
    mkdirSync(probes);
    writeFileSync(path.join(probes, 'receipts-x.json'), JSON.stringify([RECEIPT]));
    const deps = { reader: createPdfjsReader(), images: await defaultImageBackend() };
    const [one, two, other] = [path.join(dir, 'p1'), path.join(dir, 'p2'), path.join(dir, 'p3')];
    await writeProbeCorpus(probes, one, { seed: 1, ...deps });
    await writeProbeCorpus(probes, two, { seed: 1, ...deps });
    await writeProbeCorpus(probes, other, { seed: 2, ...deps });
    const [truth] = readGroundTruthFiles(one);
    expect(truth).toMatchObject({
      file: 'receipts-x/my-kedai.png',
      format: 'image',
      family: 'probe-receipts-x',
    });
    const bytes = (root: string): Buffer => readFileSync(path.join(root, 'receipts-x/my-kedai.png'));
    expect(bytes(one).equals(bytes(two))).toBe(true);
    expect(bytes(one).equals(bytes(other))).toBe(false);
    // A picture: no white paper and no black ink left, the page turned a little.
    const image = await deps.images.decode(new Uint8Array(bytes(one)), { maxPixels: 1e8 });
    let [lightest, darkest] = [0, 255];
    for (const v of image.data) [lightest, darkest] = [Math.max(lightest, v), Math.min(darkest, v)];
    expect(lightest).toBeLessThan(255);
    expect(darkest).toBeGreaterThan(0);
  });
});
