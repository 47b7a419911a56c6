/** One row of the benchmark's summary table: our figure, the baseline's, their ratio and the target. */
export interface SummaryRow {
  metric: string;
  docex: string;
  baseline: string;
  ratio: string;
  target: string;
  met: string;
}
