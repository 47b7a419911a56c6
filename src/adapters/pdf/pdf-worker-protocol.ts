import type { Box } from '../../core/types.js';
import type { PdfBudget } from './pdf-budget.js';

/** What the pool gives a PDF worker thread when it starts. */
export interface PdfWorkerData {
  budget: PdfBudget;
  /** Largest typed array or ArrayBuffer the thread may allocate at once (src/adapters/pdf/allocation-cap.ts). */
  maxAllocationBytes: number;
}

/** One operation on the worker's open document (pages are 1-based), or a one-off page copy. */
export type PdfCall =
  | { op: 'open'; bytes: Uint8Array }
  | { op: 'page'; page: number }
  | { op: 'textRuns'; page: number }
  | { op: 'hasImages'; page: number }
  | { op: 'scanImage'; page: number; maxPixels: number }
  | { op: 'imagePlacements'; page: number }
  | { op: 'render'; page: number; dpi: number; maxPixels: number; part?: Box }
  | { op: 'release'; page: number }
  | { op: 'close' }
  | { op: 'copyPages'; bytes: Uint8Array; ranges: Array<[number, number]> };

export interface ToPdfWorker {
  id: number;
  call: PdfCall;
}

export type FromPdfWorker =
  /** Started; `tid` is the thread's id in the operating system when it can tell (Linux). */
  | { type: 'ready'; tid?: number }
  | { type: 'done'; id: number; value: unknown }
  | { type: 'failed'; id: number; error: { code: string; message: string } };
