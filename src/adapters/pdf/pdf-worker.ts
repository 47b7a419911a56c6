/**
 * A PDF worker thread (src/adapters/pdf/pdf-worker-pool.ts): runs pdf.js (and pdf-lib for page copies)
 * on one document at a time for the thread that made it, answering each call with its value or its
 * error. Everything here may be slow or hungry on a hostile file; the pool bounds it by ending the
 * thread.
 */
import { readlinkSync } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import { DocexError, isDocexError } from '../../core/errors.js';
import type { PdfDocument, PdfPage } from '../../ports/pdf-reader.js';
import { capAllocations } from './allocation-cap.js';
import { createPdfLibCopier } from './pdf-lib-copier.js';
import type { FromPdfWorker, PdfCall, PdfWorkerData, ToPdfWorker } from './pdf-worker-protocol.js';
import { createPdfjsReader, loadPdfjs } from './pdfjs-reader.js';

const port = parentPort!;
const { budget, maxAllocationBytes } = workerData as PdfWorkerData;
// Before pdf.js is loaded (at the first open): its buffers are sized by what the file declares.
capAllocations(maxAllocationBytes);
const reader = createPdfjsReader({ budget });
const copier = createPdfLibCopier({ budget });

let doc: PdfDocument | undefined;
const pages = new Map<number, Promise<PdfPage>>();

function page(n: number): Promise<PdfPage> {
  if (!doc) throw new DocexError('INTERNAL', 'No document is open in this PDF worker.');
  let opened = pages.get(n);
  if (!opened) {
    opened = doc.page(n);
    pages.set(n, opened);
    // A page that failed to open is tried again on the next call.
    opened.catch(() => pages.delete(n));
  }
  return opened;
}

async function closeDocument(): Promise<void> {
  const open = doc;
  doc = undefined;
  pages.clear();
  await open?.close();
}

/** The value of a call, and the buffers that travel with it instead of being copied. */
async function run(call: PdfCall): Promise<{ value: unknown; transfer?: ArrayBuffer[] }> {
  switch (call.op) {
    case 'open':
      await closeDocument();
      doc = await reader.open(call.bytes, { transfer: true });
      return { value: doc.pageCount };
    case 'page': {
      const p = await page(call.page);
      return { value: { width: p.width, height: p.height, rotation: p.rotation } };
    }
    case 'textRuns':
      return { value: await (await page(call.page)).textRuns() };
    case 'hasImages':
      return { value: await (await page(call.page)).hasImages() };
    case 'imagePlacements':
      return { value: await (await page(call.page)).imagePlacements() };
    case 'scanImage': {
      const scan = await (await page(call.page)).scanImage(call.maxPixels);
      if (!scan) return { value: undefined };
      const data = alone(scan.image.data);
      return { value: { ...scan, image: { ...scan.image, data } }, transfer: [data.buffer as ArrayBuffer] };
    }
    case 'render': {
      const rendered = await (
        await page(call.page)
      ).render({
        dpi: call.dpi,
        maxPixels: call.maxPixels,
        ...(call.part ? { part: call.part } : {}),
      });
      const data = alone(rendered.image.data);
      return {
        value: { ...rendered, image: { ...rendered.image, data } },
        transfer: [data.buffer as ArrayBuffer],
      };
    }
    case 'release':
      (await pages.get(call.page))?.release();
      return { value: undefined };
    case 'close':
      await closeDocument();
      return { value: undefined };
    case 'copyPages': {
      const copies = (await copier.copyPages(call.bytes, call.ranges)).map(alone);
      return { value: copies, transfer: copies.map((c) => c.buffer as ArrayBuffer) };
    }
  }
}

/**
 * The bytes in a buffer of their own, so that handing the buffer over moves nothing else (a view into a
 * cache of pdf.js, or a pooled buffer, is copied first).
 */
function alone(bytes: Uint8Array): Uint8Array {
  return bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength
    ? bytes
    : new Uint8Array(bytes);
}

port.on('message', ({ id, call }: ToPdfWorker) => {
  run(call).then(
    ({ value, transfer }) => port.postMessage({ type: 'done', id, value } satisfies FromPdfWorker, transfer),
    (error: unknown) => {
      const known = isDocexError(error);
      const message: FromPdfWorker = {
        type: 'failed',
        id,
        error: {
          code: known ? error.code : 'INTERNAL',
          message: known ? error.message : 'The PDF reader failed unexpectedly.',
        },
      };
      port.postMessage(message);
    },
  );
});

/** This thread's id in the operating system (Linux): the pool reads its page faults to see who grows. */
function threadId(): number | undefined {
  try {
    const id = Number(readlinkSync('/proc/thread-self').split('/').pop());
    return Number.isInteger(id) ? id : undefined;
  } catch {
    return undefined;
  }
}

// pdf.js is loaded before the thread says it is ready, so no call's time limit pays for loading it.
await loadPdfjs();
const tid = threadId();
port.postMessage({ type: 'ready', ...(tid !== undefined ? { tid } : {}) } satisfies FromPdfWorker);
