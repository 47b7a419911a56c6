/**
 * svc.split through the engine: generated files of several invoices are split into children whose page
 * ranges must equal the truth the generator hands back; each child is a PDF of its own with its token
 * layer carried over from the parent (never read again), and works with svc.extract like any upload.
 */
import { PDFDocument } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPdfjsReader } from '../../src/adapters/pdf/pdfjs-reader.js';
import type { FileRecord, TokenLayer } from '../../src/core/types.js';
import { createEngine, type Engine } from '../../src/index.js';
import type { ResultField, SplitFieldResult } from '../../src/extraction/types.js';
import type { PdfReader } from '../../src/ports/pdf-reader.js';
import type { JobRecord } from '../../src/core/jobs.js';
import { encodeImage, makeTextPdf, renderPdfPage, INVOICE_LINES } from '../helpers/make-documents.js';
import {
  makeMultiDocument,
  makeScannedMulti,
  type MultiDocument,
  type MultiOptions,
} from '../helpers/make-multi.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Counts what the PDF reader is asked: documents opened, pages whose text was read. */
function countingReader(): { reader: PdfReader; opened: number; textRuns: number } {
  const real = createPdfjsReader();
  const counts = { opened: 0, textRuns: 0 };
  const reader: PdfReader = {
    async open(bytes, options) {
      counts.opened++;
      const doc = await real.open(bytes, options);
      return {
        get pageCount() {
          return doc.pageCount;
        },
        close: () => doc.close(),
        async page(pageNum) {
          const page = await doc.page(pageNum);
          return new Proxy(page, {
            get(target, key, receiver) {
              if (key === 'textRuns') {
                return () => {
                  counts.textRuns++;
                  return target.textRuns();
                };
              }
              const value: unknown = Reflect.get(target, key, receiver);
              return typeof value === 'function'
                ? (value as (...a: unknown[]) => unknown).bind(target)
                : value;
            },
          });
        },
      };
    },
  };
  return Object.assign(counts, { reader });
}

interface Outcome {
  parentId: string;
  job: JobRecord;
  /** The plain result field and the verbose one. */
  plain: ResultField[];
  field: SplitFieldResult;
  children: FileRecord[];
  ranges: Array<[number, number]>;
}

function splitField(fields: ResultField[]): SplitFieldResult {
  const field = fields.find((f) => f.name === 'components.children');
  if (!field) throw new Error(`No components.children in ${JSON.stringify(fields.map((f) => f.name))}`);
  return field as SplitFieldResult;
}

async function runSplit(engine: Engine, bytes: Uint8Array, name?: string): Promise<Outcome> {
  const upload = await engine.uploadV2(bytes, { ...(name ? { name } : {}), tags: ['batch-7'] });
  const { job } = await engine.invoke('svc.split', { inputs: { file_id: upload.fileId } });
  const plain = await engine.getResult(upload.fileId, { timeoutMs: 60_000 });
  if (plain.status !== 'FINALISED') throw new Error(`split of ${upload.fileId} still ${plain.status}`);
  const verbose = await engine.getResult(upload.fileId, { verbose: true });
  if (verbose.status !== 'FINALISED') throw new Error('verbose result not FINALISED');
  const field = splitField(verbose.results.fields);
  const children = await Promise.all(field.value.map((c) => engine.getFile(c.file_id)));
  const [finished] = await engine.listJobs({ fileId: upload.fileId });
  return {
    parentId: upload.fileId,
    job: finished ?? job,
    plain: plain.results.fields,
    field,
    children,
    ranges: children.map((c) => c.parent!.pages),
  };
}

/** Where the split went wrong, page by page: the pages' text and the reasons of each wrong decision. */
function report(multi: MultiDocument, outcome: Outcome): string {
  const truthStarts = new Set(multi.segments.map((s) => s[0]));
  const wrong = (outcome.field.decisions ?? [])
    .filter((d) => d.start !== truthStarts.has(d.pageNum))
    .map((d) => `  page ${d.pageNum}: start=${d.start} (${d.confidence}) ${d.reasons.join('; ')}`);
  return [
    `expected ${JSON.stringify(multi.segments)}`,
    `actual   ${JSON.stringify(outcome.ranges)}`,
    'wrong decisions:',
    ...wrong,
    'pages:',
    multi.describe(),
  ].join('\n');
}

function pageTexts(layer: TokenLayer, first = 1, last = layer.pages.length): string[] {
  const out: string[] = [];
  for (let p = first; p <= last; p++) {
    out.push(
      layer.tokens
        .filter((t) => t.pageNum === p)
        .map((t) => t.text)
        .join(' '),
    );
  }
  return out;
}

describe('svc.split on generated text PDFs', () => {
  const counts = countingReader();
  let engine: Engine;
  beforeAll(() => {
    engine = createEngine({ ingest: { ocr: 'never' }, limits: { maxPages: 100 }, pdf: counts.reader });
  });
  afterAll(() => engine.close());

  /** Generates, splits and checks the ranges against the truth (with a full report when they differ). */
  async function splitAndCompare(options: MultiOptions): Promise<{ multi: MultiDocument; outcome: Outcome }> {
    const multi = await makeMultiDocument(options);
    const outcome = await runSplit(engine, multi.pdf, `seed-${options.seed}.pdf`);
    expect(outcome.job.status, JSON.stringify(outcome.job.error)).toBe('succeeded');
    expect(outcome.ranges, report(multi, outcome)).toEqual(multi.segments);
    return { multi, outcome };
  }

  const CASES: Array<[string, MultiOptions]> = [
    ['one document of one page', { seed: 1, documents: 1, pageCounts: [1] }],
    [
      'one document of four pages without marks or repeated headers',
      { seed: 2, documents: 1, pageCounts: [4], repeatHeader: 0 },
    ],
    ['two documents', { seed: 2, documents: 2 }],
    ['five documents', { seed: 5, documents: 5 }],
    ['five documents with page marks', { seed: 5, documents: 5, pageMarks: true }],
    ['five documents with blank separators', { seed: 6, documents: 5, blankSeparators: true }],
    ['five documents of one supplier', { seed: 7, documents: 5, sameSupplier: 1 }],
    ['twenty documents with page marks', { seed: 20, documents: 20, pageMarks: true }],
    [
      'twenty documents with page marks, one supplier, no repeated headers',
      { seed: 3, documents: 20, pageMarks: true, sameSupplier: 1, repeatHeader: 0 },
    ],
    [
      'twenty documents of one supplier with repeated headers',
      { seed: 21, documents: 20, sameSupplier: 1, repeatHeader: 1 },
    ],
    [
      'twenty documents with blank separators',
      { seed: 22, documents: 20, blankSeparators: true, sameSupplier: 0.5 },
    ],
    [
      'twenty documents, some marked, some separated, runs of one supplier',
      { seed: 23, documents: 20, blankSeparators: 0.5, pageMarks: 0.5, sameSupplier: 0.5 },
    ],
  ];

  it.each(CASES)('%s: the children are the true documents', async (_name, options) => {
    await splitAndCompare(options);
  });

  // Once a weakness, kept as a regression test (seed 1, 20 documents, default options): the 3-page document at pages 53-55 (Silverline
  // Software Inc., no page marks, no repeated header) is cut after its first page. Page 54 starts with
  // the row "Consulting services (hours)", read as the supplier name (0.625): decision at page 54
  // start=true (0.818) "+1.5 another supplier name; -1 little that opens a document; +1 previous page
  // has a closing total" (page 53 has no total; its "total" is the year 2025 / a fused qty+amount).
  // Expected ... [50,52],[53,55]; actual ... [50,52],[53,53],[54,55].
  it('twenty documents, default options (seed 1): a continuation page is not cut off', async () => {
    await splitAndCompare({ seed: 1, documents: 20 });
  });

  // Once a weakness, kept as a regression test (seed 3, 20 documents of one supplier, no page marks, no repeated headers): same cause at
  // page 39 (second page of the document at 38-41): "+1.5 another supplier name ("Consulting services
  // (hours)"); -1 little that opens a document; +1 previous page has a closing total".
  // Expected ... [37,37],[38,41] ...; actual ... [37,37],[38,38],[39,41] ...
  it('twenty documents of one supplier without marks or repeated headers (seed 3)', async () => {
    await splitAndCompare({ seed: 3, documents: 20, sameSupplier: 1, repeatHeader: 0 });
  });

  describe('the children of a split', () => {
    let multi: MultiDocument;
    let outcome: Outcome;
    let parentLayer: TokenLayer;
    let textRunsAfterSplit: number;
    beforeAll(async () => {
      const before = counts.textRuns;
      ({ multi, outcome } = await splitAndCompare({
        seed: 40,
        documents: 5,
        pageCounts: [2, 1, 3, 1, 2],
        blankSeparators: 0.5,
        pageMarks: 0.5,
      }));
      textRunsAfterSplit = counts.textRuns - before;
      parentLayer = (await engine.getTokenLayer(outcome.parentId))!;
    });

    it('the plain result is exactly the field of the interface: name, value [{file_id}], boundingBox null', () => {
      expect(outcome.plain).toHaveLength(1);
      const [field] = outcome.plain;
      expect(Object.keys(field!).sort()).toEqual(['boundingBox', 'name', 'value']);
      expect(field).toEqual({
        name: 'components.children',
        value: outcome.children.map((c) => ({ file_id: c.fileId })),
        boundingBox: null,
      });
      for (const child of (field as SplitFieldResult).value) {
        expect(Object.keys(child)).toEqual(['file_id']);
        expect(child.file_id).toMatch(UUID);
      }
    });

    it('verbose adds each child with its pages and confidence, and every decision with its reasons', () => {
      const { field } = outcome;
      expect(field.children!.map((c) => c.pages)).toEqual(multi.segments);
      expect(field.children!.map((c) => c.file_id)).toEqual(field.value.map((v) => v.file_id));
      for (const c of field.children!) {
        expect(c.confidence).toBeGreaterThanOrEqual(0.5);
        expect(c.confidence).toBeLessThanOrEqual(1);
      }
      const nonBlank = multi.pages.map((_, i) => i + 1).filter((p) => !multi.blankPages.includes(p));
      expect(field.decisions!.map((d) => d.pageNum)).toEqual(nonBlank.slice(1));
      const starts = new Set(multi.segments.map((s) => s[0]));
      for (const d of field.decisions!) {
        expect(d.start, `page ${d.pageNum}`).toBe(starts.has(d.pageNum));
        expect(d.confidence).toBeGreaterThanOrEqual(0.5);
        expect(d.reasons.length).toBeGreaterThan(0);
      }
    });

    // Once a weakness, kept as a regression test: the right decisions, but one by a coin toss. Page 11 (second and last page of the
    // Greenfield Garden Supplies invoice at pages 10-11, no marks, no repeated header) begins with the row
    // "Delivery and handling", read as the supplier (0.404): decision start=false with confidence 0.5
    // from score 0: "-1 little that opens a document; +1 previous page has a closing total" (page 10
    // has no total label; see the page-features weaknesses). The child [10, 11] has confidence 0.5.
    it('every child and decision is surer than a coin toss', () => {
      for (const c of outcome.field.children!)
        expect(c.confidence, `child ${c.pages.join('-')}`).toBeGreaterThan(0.5);
      for (const d of outcome.field.decisions!)
        expect(d.confidence, `page ${d.pageNum}`).toBeGreaterThan(0.5);
    });

    it('each child is a file of its own: a PDF of its pages, linked to its parent', async () => {
      const parent = await engine.getFile(outcome.parentId);
      expect(new Set(outcome.children.map((c) => c.fileId)).size).toBe(multi.segments.length);
      for (const [i, child] of outcome.children.entries()) {
        const [first, last] = multi.segments[i]!;
        expect(child.fileId).toMatch(UUID);
        expect(child.fileId).not.toBe(parent.fileId);
        expect(child.mediaType).toBe('application/pdf');
        expect(child.pageCount).toBe(last - first + 1);
        expect(child.parent).toEqual({
          fileId: parent.fileId,
          pages: [first, last],
          confidence: outcome.field.children![i]!.confidence,
        });
        expect(child.name).toBe(`seed-40.pdf (pages ${first}-${last})`);
        expect(child.tags).toEqual(['batch-7']);
        expect(child.flow).toBe('v2');
        const bytes = await engine.readFile(child.fileId);
        expect(child.size).toBe(bytes.byteLength);
        const pdf = await PDFDocument.load(bytes);
        expect(pdf.getPageCount()).toBe(last - first + 1);
      }
      // Listed with the parent's other files.
      const listed = (await engine.listFiles({ tag: 'batch-7' })).map((f) => f.fileId);
      for (const child of outcome.children) expect(listed).toContain(child.fileId);
    });

    it('each child has the token layer of its pages, carried over without reading the file again', async () => {
      // The parent's pages were read once each (by the split's own ingest); the children never.
      expect(textRunsAfterSplit).toBe(multi.pages.length);
      for (const [i, child] of outcome.children.entries()) {
        const [first, last] = multi.segments[i]!;
        const layer = await engine.getTokenLayer(child.fileId);
        expect(layer, `child ${i}`).toBeDefined();
        expect(layer!.fileId).toBe(child.fileId);
        expect(layer!.createdAt).toBe(parentLayer.createdAt);
        expect(layer!.pages.map((p) => p.pageNum)).toEqual(
          Array.from({ length: last - first + 1 }, (_, k) => k + 1),
        );
        expect(pageTexts(layer!)).toEqual(pageTexts(parentLayer, first, last));
        layer!.tokens.forEach((t, k) => expect(t.id).toBe(k));
      }
      const before = counts.textRuns;
      for (const child of outcome.children) await engine.ingest(child.fileId);
      expect(counts.textRuns).toBe(before);
    });

    it('the job succeeded with its usage: pages, children, blank pages', () => {
      expect(outcome.job.workflow_id).toBe('svc.split');
      expect(outcome.job.status).toBe('succeeded');
      expect(outcome.job.usage).toEqual({
        pages: multi.pages.length,
        children: multi.segments.length,
        blank_pages: multi.blankPages.length,
        processing_ms: expect.any(Number),
      });
    });

    it('the children work with svc.extract: each total is its document’s total', async () => {
      for (const child of outcome.children) {
        await engine.invoke('svc.extract', {
          inputs: { file_id: child.fileId, product_ids: ['invoices:2'] },
        });
      }
      for (const [i, child] of outcome.children.entries()) {
        const doc = multi.documents[i]!;
        const result = await engine.getResult(child.fileId, { timeoutMs: 30_000 });
        expect(result.status).toBe('FINALISED');
        if (result.status !== 'FINALISED') continue;
        const total = result.results.fields.find((f) => f.name === 'invoice.total');
        const number = result.results.fields.find((f) => f.name === 'document.referenceNo');
        expect(Number(total?.value), `${doc.supplier} ${doc.number}: printed ${doc.total}`).toBeCloseTo(
          doc.totalValue,
          2,
        );
        expect(number?.value).toBe(doc.number);
      }
      // The parent's result is still the split alone.
      const parent = await engine.getResult(outcome.parentId);
      expect(parent.status === 'FINALISED' && parent.results.fields.map((f) => f.name)).toEqual([
        'components.children',
      ]);
    });
  });

  it('a one-document file gives one child of all its pages', async () => {
    const pdf = await makeTextPdf([{ lines: INVOICE_LINES }]);
    const outcome = await runSplit(engine, pdf);
    expect(outcome.ranges).toEqual([[1, 1]]);
    expect(outcome.children[0]!.pageCount).toBe(1);
    expect(pageTexts((await engine.getTokenLayer(outcome.children[0]!.fileId))!)).toEqual(
      pageTexts((await engine.getTokenLayer(outcome.parentId))!),
    );
  });

  it('a PNG gives one child: the same image', async () => {
    const png = await encodeImage(
      await renderPdfPage(await makeTextPdf([{ lines: INVOICE_LINES }]), 60),
      'png',
    );
    const outcome = await runSplit(engine, png);
    expect(outcome.job.status).toBe('succeeded');
    expect(outcome.plain).toEqual([
      { name: 'components.children', value: [{ file_id: outcome.children[0]!.fileId }], boundingBox: null },
    ]);
    const [child] = outcome.children;
    expect(child).toMatchObject({
      mediaType: 'image/png',
      pageCount: 1,
      parent: { fileId: outcome.parentId, pages: [1, 1] },
    });
    expect(await engine.readFile(child!.fileId)).toEqual(await engine.readFile(outcome.parentId));
    expect(await engine.getTokenLayer(child!.fileId)).toBeDefined();
  });

  it('a file of blank pages gives one child of all its pages', async () => {
    const pdf = await makeTextPdf([{ lines: [] }, { lines: [] }]);
    const outcome = await runSplit(engine, pdf);
    expect(outcome.ranges).toEqual([[1, 2]]);
    expect(outcome.children[0]!.pageCount).toBe(2);
  });

  it('refuses an unknown file and inputs other than file_id before queueing anything', async () => {
    await expect(
      engine.invoke('svc.split', { inputs: { file_id: '00000000-0000-4000-8000-000000000000' } }),
    ).rejects.toMatchObject({ code: 'FILE_NOT_FOUND' });
    const upload = await engine.uploadV2(await makeTextPdf([{ lines: INVOICE_LINES }]));
    await expect(
      engine.invoke('svc.split', { inputs: { file_id: upload.fileId, pages: [1, 2] } }),
    ).rejects.toMatchObject({ code: 'INVALID_INPUTS' });
    await expect(engine.invoke('svc.split', { inputs: {} })).rejects.toMatchObject({
      code: 'INVALID_INPUTS',
    });
    expect(await engine.listJobs({ fileId: upload.fileId })).toEqual([]);
  });
});

describe('svc.split on a scan (OCR)', () => {
  let engine: Engine;
  beforeAll(() => {
    engine = createEngine();
  });
  afterAll(() => engine.close());

  it('three scanned documents with page marks and blank separators: the true ranges', async () => {
    const multi = await makeMultiDocument({
      seed: 4,
      documents: 3,
      pageCounts: [2, 1, 1],
      blankSeparators: true,
      pageMarks: true,
      repeatHeader: 0,
    });
    const scan = await makeScannedMulti(multi, 150);
    const outcome = await runSplit(engine, scan);
    expect(outcome.ranges, report(multi, outcome)).toEqual([
      [1, 2],
      [4, 4],
      [6, 6],
    ]);
    expect(outcome.ranges).toEqual(multi.segments);
    const pdf = await PDFDocument.load(await engine.readFile(outcome.children[0]!.fileId));
    expect(pdf.getPageCount()).toBe(2);
    expect(outcome.job.usage).toMatchObject({ pages: 6, children: 3, blank_pages: 2 });
    // The children carry the OCR words of their pages.
    const parent = (await engine.getTokenLayer(outcome.parentId))!;
    const child = (await engine.getTokenLayer(outcome.children[1]!.fileId))!;
    expect(pageTexts(child)).toEqual(pageTexts(parent, 4, 4));
    expect(child.pages[0]!.source).toBe('ocr');
  });

  // Once a weakness, kept as a regression test (scans without page marks): the second page of a 2-page scanned invoice (no repeated
  // header) is cut off. OCR reads its first row "Maintenance contract, quarterly" as the supplier name
  // (0.57), and every scanned page has "total": decision at page 2 start=true (0.881) "+1.5 another
  // supplier name; -1 little that opens a document; +1 previous page has a closing total; +0.5 scanned
  // pages, each complete". Expected [[1,2],[3,3]]; actual [[1,1],[2,2],[3,3]].
  it('two scanned documents without page marks (seed 2): a continuation stays with its document', async () => {
    const multi = await makeMultiDocument({ seed: 2, documents: 2, pageCounts: [2, 1], repeatHeader: 0 });
    const outcome = await runSplit(engine, await makeScannedMulti(multi, 150));
    expect(outcome.ranges, report(multi, outcome)).toEqual(multi.segments);
  });
});
