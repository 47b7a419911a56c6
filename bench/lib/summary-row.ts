import type { Baseline } from './measure.js';
import { fmt, na, yesNo } from './report.js';

/** One row of the benchmark's summary table: our figure, the baseline's, their ratio and the target. */
export interface SummaryRow {
  metric: string;
  docex: string;
  baseline: string;
  ratio: string;
  target: string;
  met: string;
}

/** A baseline's pages/s, or why it was not measured. */
export const baselineCell = (b: Baseline): string => (b.ok ? fmt(b.pagesPerSecond) : na(b.reason));

export const ratioCell = (r: number | undefined): string => (r === undefined ? 'n/a' : fmt(r));

/** A figure against a baseline measured in the same run, with a target ratio. */
export function targetRow(
  metric: string,
  docex: number,
  baseline: Baseline,
  ratio: number | undefined,
  target: number,
): SummaryRow {
  return {
    metric,
    docex: fmt(docex),
    baseline: baselineCell(baseline),
    ratio: ratioCell(ratio),
    target: `>= ${target}`,
    met: ratio === undefined ? 'n/a' : yesNo(ratio >= target),
  };
}

/** A figure with no baseline and no target. */
export function info(metric: string, docex: string): SummaryRow {
  return { metric, docex, baseline: '-', ratio: '-', target: '-', met: '-' };
}
