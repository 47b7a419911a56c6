import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { createEngine, DocexError, type PdfReader } from '../src/index.js';
import { createSqlitePersistence } from '../src/adapters/persistence/sqlite-persistence.js';
import { createFsFileStore } from '../src/adapters/stores/fs-file-store.js';
import {
  INVOICE_LINES,
  encodeImage,
  makeEncryptedPdf,
  makePageBombPdf,
  makeTextPdf,
  renderPdfPage,
} from './helpers/make-documents.js';

const engine = createEngine({ ocr: { workers: 1 } });
afterAll(() => engine.close());

const textPdf = () => makeTextPdf([{ lines: INVOICE_LINES }]);

describe('upload', () => {
  it('answers the upload record: a UUID, the time with milliseconds and Z, RECEIVED', async () => {
    const record = await engine.upload(await textPdf(), { name: 'invoice.pdf', metadata: { tags: 'march' } });
    expect(record.fileId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(record.uploadedAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    expect(record).toMatchObject({
      status: 'RECEIVED',
      mediaType: 'application/pdf',
      pageCount: 1,
      name: 'invoice.pdf',
    });
    expect(record.metadata).toEqual({ tags: 'march' });
    expect(await engine.getFile(record.fileId)).toEqual(record);
  });

  it('judges the type by the bytes, not the name', async () => {
    const png = await encodeImage(await renderPdfPage(await textPdf(), 36), 'png');
    const record = await engine.upload(png, { name: 'looks-like.pdf' });
    expect(record.mediaType).toBe('image/png');
    await expect(
      engine.upload(new TextEncoder().encode('just some text'), { name: 'x.pdf' }),
    ).rejects.toMatchObject({
      code: 'UNSUPPORTED_FILE_TYPE',
    });
  });

  it('refuses an empty file', async () => {
    await expect(engine.upload(new Uint8Array())).rejects.toMatchObject({ code: 'EMPTY_FILE' });
  });

  it('enforces the size limit while reading a stream, and an account can have it raised', async () => {
    const small = createEngine({ limits: { maxFileBytes: 64 * 1024 } });
    let pulled = 0;
    async function* endless() {
      for (;;) {
        pulled++;
        yield new Uint8Array(16 * 1024);
      }
    }
    await expect(small.upload(endless())).rejects.toMatchObject({ code: 'FILE_TOO_LARGE', httpStatus: 413 });
    expect(pulled).toBe(5);
    const pdf = await makeTextPdf(Array.from({ length: 40 }, () => ({ lines: INVOICE_LINES })));
    expect(pdf.byteLength).toBeGreaterThan(8 * 1024);
    small.configureAccount('big', { limits: { maxFileBytes: 10 * 1024 * 1024, maxPages: 100 } });
    await expect(small.upload(Readable.from([pdf]), { accountId: 'big' })).resolves.toMatchObject({
      pageCount: 40,
    });
    const tiny = createEngine({ limits: { maxFileBytes: 1024 } });
    await expect(tiny.upload(pdf)).rejects.toMatchObject({ code: 'FILE_TOO_LARGE' });
    await small.close();
    await tiny.close();
  });

  it('enforces the page limit (16 by default) at upload unless told not to, and again when reading', async () => {
    const pdf = await makeTextPdf(Array.from({ length: 17 }, () => ({ lines: INVOICE_LINES.slice(0, 1) })));
    await expect(engine.upload(pdf)).rejects.toMatchObject({ code: 'PAGE_LIMIT_EXCEEDED', httpStatus: 422 });
    const v1 = await engine.upload(pdf, { enforcePageLimit: false });
    await expect(engine.ingest(v1.fileId)).rejects.toMatchObject({ code: 'PAGE_LIMIT_EXCEEDED' });
    engine.configureAccount('raised', { limits: { maxPages: 20 } });
    const raised = await engine.upload(pdf, { accountId: 'raised' });
    const layer = await engine.ingest(raised.fileId, { accountId: 'raised' });
    expect(layer.pages).toHaveLength(17);
  });
});

describe('bad input', () => {
  it('gives each bad file a clear error with a stable code, and goes on serving others', async () => {
    const good = await textPdf();
    const corruptPng = await encodeImage(await renderPdfPage(good, 36), 'png');
    const bombPng = corruptPng.slice();
    new DataView(bombPng.buffer).setUint32(16, 30_000);
    new DataView(bombPng.buffer).setUint32(20, 30_000);
    const jpeg = await encodeImage(await renderPdfPage(good, 72), 'jpeg');

    const cases: Array<[string, Uint8Array, string]> = [
      ['truncated PDF', good.subarray(0, Math.floor(good.length / 2)), 'PDF_CORRUPT'],
      [
        'garbage after a PDF header',
        new TextEncoder().encode('%PDF-1.7\n' + 'x'.repeat(5000)),
        'PDF_CORRUPT',
      ],
      ['encrypted PDF', await makeEncryptedPdf(), 'PDF_ENCRYPTED'],
      ['PDF claiming 10,000 pages', await makePageBombPdf(), 'PAGE_LIMIT_EXCEEDED'],
    ];
    for (const [label, bytes, code] of cases) {
      const failure = await engine.upload(bytes).then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(failure, label).toBeInstanceOf(DocexError);
      expect((failure as DocexError).code, label).toBe(code);
      expect((failure as DocexError).message, label).not.toMatch(/at .*\.(js|ts):\d+/);
    }

    // Images are accepted at upload (the header is read when the file is read) and refused on reading.
    const imageCases: Array<[string, Uint8Array, string]> = [
      ['30,000 x 30,000 PNG', bombPng, 'IMAGE_TOO_LARGE'],
      ['truncated JPEG', jpeg.subarray(0, 300), 'IMAGE_CORRUPT'],
    ];
    for (const [label, bytes, code] of imageCases) {
      const record = await engine.upload(bytes);
      // Refused from the header, not by reading 900 megapixels: far within the test's timeout.
      await expect(engine.ingest(record.fileId), label).rejects.toMatchObject({ code });
    }
    // A v1 upload accepts a damaged PDF, which then fails when read.
    const late = await engine.upload(good.subarray(0, 400), { enforcePageLimit: false });
    await expect(engine.ingest(late.fileId)).rejects.toMatchObject({ code: 'PDF_CORRUPT' });

    const record = await engine.upload(good);
    const layer = await engine.ingest(record.fileId);
    expect(layer.tokens.map((t) => t.text)).toContain('INV-20931');
  });

  it('answers FILE_NOT_FOUND for unknown and malformed ids', async () => {
    await expect(engine.ingest('00000000-0000-4000-8000-000000000000')).rejects.toMatchObject({
      code: 'FILE_NOT_FOUND',
    });
    await expect(engine.getFile('../../etc/passwd')).rejects.toMatchObject({ code: 'FILE_NOT_FOUND' });
  });
});

describe('accounts and engines', () => {
  it('keeps accounts apart', async () => {
    const record = await engine.upload(await textPdf(), { accountId: 'alice' });
    await expect(engine.getFile(record.fileId, { accountId: 'bob' })).rejects.toMatchObject({
      code: 'FILE_NOT_FOUND',
    });
    await expect(engine.ingest(record.fileId, { accountId: 'bob' })).rejects.toMatchObject({
      code: 'FILE_NOT_FOUND',
    });
    expect(await engine.listFiles({ accountId: 'bob' })).toEqual([]);
    expect((await engine.listFiles({ accountId: 'alice' })).map((f) => f.fileId)).toEqual([record.fileId]);
  });

  it('keeps two engines in one process independent', async () => {
    const a = createEngine({ limits: { maxPages: 1 } });
    const b = createEngine();
    const pdf = await makeTextPdf([{ lines: INVOICE_LINES }, { lines: INVOICE_LINES }]);
    const record = await b.upload(pdf);
    await expect(a.getFile(record.fileId)).rejects.toMatchObject({ code: 'FILE_NOT_FOUND' });
    await expect(a.upload(pdf)).rejects.toMatchObject({ code: 'PAGE_LIMIT_EXCEEDED' });
    await a.close();
    await expect(a.upload(pdf)).rejects.toMatchObject({ code: 'ENGINE_CLOSED' });
    expect((await b.ingest(record.fileId)).pages).toHaveLength(2);
    await b.close();
  });

  it('reads a document once: the token layer is persisted and survives a restart', async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'docex-engine-'));
    const persistence = () => createSqlitePersistence({ path: path.join(dir, 'docex.db') });
    try {
      const first = createEngine({ files: createFsFileStore({ dir }), persistence: persistence() });
      const record = await first.upload(await textPdf());
      const layer = await first.ingest(record.fileId);
      await first.close();

      let opened = 0;
      const countingReader: PdfReader = {
        open: async () => {
          opened++;
          throw new Error('must not be called');
        },
      };
      const second = createEngine({
        files: createFsFileStore({ dir }),
        persistence: persistence(),
        pdf: countingReader,
      });
      expect(await second.getTokenLayer(record.fileId)).toEqual(layer);
      expect(await second.ingest(record.fileId)).toEqual(layer);
      expect(opened).toBe(0);
      await second.close();
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
    }
  });

  it('shares one reading between concurrent callers', async () => {
    let opened = 0;
    const { createPdfjsReader } = await import('../src/adapters/pdf/pdfjs-reader.js');
    const real = createPdfjsReader();
    const counting = createEngine({
      pdf: {
        open: (bytes) => {
          opened++;
          return real.open(bytes);
        },
      },
    });
    const record = await counting.upload(await textPdf());
    const before = opened;
    const [x, y] = await Promise.all([counting.ingest(record.fileId), counting.ingest(record.fileId)]);
    expect(x).toEqual(y);
    expect(opened - before).toBe(1);
    await counting.close();
  });
});
