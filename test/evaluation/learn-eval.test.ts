/**
 * `npm run eval -- DIR --learn` on a small corpus the test writes: two invoices of one supplier whose
 * reference and order number stand under labels no rule knows, and an invoice of another supplier.
 */
import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { createEngine, type Engine } from '../../src/index.js';
import { evaluateLearning } from '../../src/evaluation/learn-eval.js';
import type { GroundTruth } from '../../src/evaluation/scoring.js';
import { INVOICE_LINES, makeTextPdf } from '../helpers/make-documents.js';
import { KESTREL_FIRST, KESTREL_SECOND, kestrelInvoice } from '../helpers/supplier-documents.js';

let dir: string;
let reader: Engine;

const kestrel = (file: string, reference: string, order: string): GroundTruth => ({
  file,
  type: 'invoice',
  family: 'kestrel',
  fields: { invoice_number: reference, order_number: order, issuer: 'Kestrel Instruments GmbH' },
});
const TRUTHS: GroundTruth[] = [
  kestrel('kestrel-1.pdf', KESTREL_FIRST.reference, KESTREL_FIRST.order),
  kestrel('kestrel-2.pdf', KESTREL_SECOND.reference, KESTREL_SECOND.order),
  {
    file: 'acme.pdf',
    type: 'invoice',
    family: 'acme',
    fields: { invoice_number: 'INV-20931', issuer: 'ACME Supplies Pty Ltd' },
  },
];

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'docex-learn-eval-'));
  await writeFile(path.join(dir, 'kestrel-1.pdf'), await kestrelInvoice(KESTREL_FIRST));
  await writeFile(path.join(dir, 'kestrel-2.pdf'), await kestrelInvoice(KESTREL_SECOND));
  await writeFile(path.join(dir, 'acme.pdf'), await makeTextPdf([{ lines: INVOICE_LINES }]));
  reader = createEngine({ ingest: { ocr: 'never' } });
}, 60_000);
afterAll(async () => {
  await reader.close();
  await rm(dir, { recursive: true, force: true });
});

describe('the learning evaluation', () => {
  it("reads a family's later documents right after its first is reviewed, others unchanged", async () => {
    const layerOf = async (file: string) => {
      const { fileId } = await reader.upload(readFileSync(file));
      return reader.ingest(fileId);
    };
    const report = await evaluateLearning(dir, TRUTHS, layerOf, (gt) => gt.family ?? gt.file);
    expect(report.families).toBe(1);
    expect(report.recognised).toEqual({ later: 1, laterOf: 1, others: 0, othersOf: 1 });
    // The reference and order number under labels no rule knows: wrong before, right after.
    expect(report.later.before.perField.invoice_number!.accuracy).toBe(0);
    expect(report.later.after.perField.invoice_number!.accuracy).toBe(1);
    expect(report.later.after.perField.order_number!.accuracy).toBe(1);
    expect(report.later.after.accuracy!).toBeGreaterThan(report.later.before.accuracy!);
    expect(report.others.after.accuracy).toBe(report.others.before.accuracy);
    // What `--out` writes: the later document as read after learning, its reference right.
    const [later] = TRUTHS.filter((gt) => gt.family === 'kestrel').slice(1);
    const fields = report.laterAfter.get(later!.file);
    expect(fields?.find((f) => f.name === 'document.referenceNo')?.value).toBe(later!.fields.invoice_number);
  });
});
