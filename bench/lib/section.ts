import type { GeneratedPdf } from './invoice.js';

/** What run.ts hands each section's run function. */
export interface SectionContext {
  /** The benchmark's temporary folder (removed at the end of the run). */
  tmp: string;
  log: (text: string) => void;
  /** The generated invoices of sections text, ocr and pipeline (made once, on first use). */
  invoices(): Promise<GeneratedPdf[]>;
}
