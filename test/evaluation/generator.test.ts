import { describe, expect, it } from 'vitest';
import { generateCorpus } from '../../src/evaluation/generator/documents.js';
import { normaliseIban, normaliseVatId } from '../../src/extraction/normalise/ids.js';
import { createEngine } from '../../src/index.js';

describe('generated corpus', () => {
  it('draws the same documents from the same seed, and others from another', async () => {
    const a = await generateCorpus(7, 3, 2);
    const b = await generateCorpus(7, 3, 2);
    const c = await generateCorpus(8, 3, 2);
    expect(a.map((d) => d.name)).toEqual(b.map((d) => d.name));
    expect(a.map((d) => Buffer.from(d.pdf).toString('base64'))).toEqual(
      b.map((d) => Buffer.from(d.pdf).toString('base64')),
    );
    expect(a.map((d) => JSON.stringify(d.truth))).not.toEqual(c.map((d) => JSON.stringify(d.truth)));
  });

  it('writes ground truth that holds together: families, sums, valid ids, ISO dates', async () => {
    const documents = await generateCorpus(3, 12, 3);
    const families = new Set(documents.map((d) => d.truth.family));
    expect(families.size).toBe(12);
    for (const { truth } of documents) {
      const fields = truth.fields as Record<string, string>;
      expect(fields.date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      if (truth.type !== 'receipt') {
        expect(Number(fields.subtotal) + Number(fields.tax)).toBeCloseTo(Number(fields.total), 2);
        expect(fields.due_date! >= fields.date!).toBe(true);
        const items = truth.line_items as Array<{ amount: string }>;
        expect(items.length).toBeGreaterThan(0);
      }
      if (fields.issuer_tax_id)
        expect(normaliseVatId(fields.issuer_tax_id)?.value).toBe(fields.issuer_tax_id);
      if (fields.iban) expect(normaliseIban(fields.iban)).toBe(fields.iban);
    }
    expect(documents.some((d) => d.truth.type === 'credit_note' || d.truth.type === 'receipt')).toBe(true);
  });

  it('prints what its ground truth says, where the engine reads it', async () => {
    const [invoice] = (await generateCorpus(5, 6, 1)).filter((d) => d.truth.type === 'invoice');
    const engine = createEngine({ ingest: { ocr: 'never' } });
    try {
      const file = await engine.upload(invoice!.pdf);
      const text = (await engine.ingest(file.fileId)).tokens.map((t) => t.text).join(' ');
      const fields = invoice!.truth.fields as Record<string, string>;
      expect(text).toContain(fields.invoice_number!);
      for (const word of fields.issuer!.split(' ')) expect(text).toContain(word);
    } finally {
      await engine.close();
    }
  });
});
