import { readFile } from 'node:fs/promises';
import { afterAll, describe, expect, it } from 'vitest';
import { createEngine } from '../../src/index.js';
import { findToken } from '../helpers/make-documents.js';

const fixture = (name: string) => readFile(new URL(`../../fixtures/invoice2data/${name}`, import.meta.url));
const engine = createEngine({ ocr: { workers: 1 } });
afterAll(() => engine.close());

describe('real documents (fixtures/invoice2data, MIT)', () => {
  it('reads the text layer of an Odoo invoice: words, reading order, boxes', async () => {
    const record = await engine.upload(await fixture('AzureInterior.pdf'));
    const layer = await engine.ingest(record.fileId);
    expect(layer.pages).toHaveLength(1);
    expect(layer.pages[0]).toMatchObject({ unit: 'pt', width: 595, height: 842, rotation: 0 });
    const number = findToken(layer.tokens, 'INV/2023/03/0008')!;
    expect(number.source).toBe('text');
    const line = layer.lines[number.lineId]!;
    expect(line.tokenIds.map((id) => layer.tokens[id]!.text).join(' ')).toBe('Invoice INV/2023/03/0008');
    // The heading sits in the upper third of the page, left half.
    expect(number.box.y0).toBeGreaterThan(0.15);
    expect(number.box.y1).toBeLessThan(0.35);
    expect(number.box.x0).toBeLessThan(0.5);
    const date = findToken(layer.tokens, '03/20/2023')!;
    expect(date.box.y0).toBeGreaterThan(number.box.y1);
    expect(layer.tokens.map((t) => t.text)).toEqual(
      expect.arrayContaining(['Azure', 'Interior', '279.84', '262.90']),
    );
  });

  it('OCRs a rendered invoice image with boxes on the words', async () => {
    const record = await engine.upload(await fixture('AmazonWebServices_image.png'));
    const layer = await engine.ingest(record.fileId);
    expect(layer.pages[0]).toMatchObject({ unit: 'px', width: 2975, height: 3850, source: 'ocr' });
    const number = findToken(layer.tokens, '42183017')!;
    expect(number.source).toBe('ocr');
    expect(number.confidence).toBeGreaterThan(0.7);
    const label = findToken(layer.tokens, 'Number:')!;
    // The number is printed to the right of its label, on the same row.
    expect(number.box.x0).toBeGreaterThan(label.box.x1);
    expect(Math.abs((number.box.y0 + number.box.y1) / 2 - (label.box.y0 + label.box.y1) / 2)).toBeLessThan(
      0.01,
    );
    expect(layer.tokens.map((t) => t.text)).toEqual(expect.arrayContaining(['Amazon', 'Invoice', '$4.11']));
  });
});
