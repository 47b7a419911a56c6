/** Printing the figures: numbers, tables, n/a with a reason, and the share of printed words read. */

/** A plain text table: columns padded to their widest cell, numbers right-aligned. */
export function formatTable(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const numeric = (cell: string): boolean => /^[-+]?[\d.,]+\s*[a-zA-Z/%]*$/.test(cell.trim());
  const line = (cells: string[]): string =>
    cells
      .map((cell, i) => (numeric(cell) && i > 0 ? cell.padStart(widths[i]!) : cell.padEnd(widths[i]!)))
      .join(' | ')
      .trimEnd();
  const rule = widths.map((w) => '-'.repeat(w)).join('-|-');
  return [line(header), rule, ...rows.map(line)].join('\n');
}

/** A number with about three significant digits (more for large values, never exponent form). */
export function fmt(value: number | undefined, unit = ''): string {
  if (value === undefined || !Number.isFinite(value)) return 'n/a';
  const abs = Math.abs(value);
  const digits = abs >= 100 ? 0 : abs >= 10 ? 1 : abs >= 1 ? 2 : 3;
  return `${value.toFixed(digits)}${unit ? ` ${unit}` : ''}`;
}

/** Share of the printed words (multiset) that a reader returned exactly. */
export function wordRecall(expected: string[], found: string[]): number {
  const pool = new Map<string, number>();
  for (const word of found) pool.set(word, (pool.get(word) ?? 0) + 1);
  let hits = 0;
  for (const word of expected) {
    const left = pool.get(word) ?? 0;
    if (left > 0) {
      hits++;
      pool.set(word, left - 1);
    }
  }
  return expected.length === 0 ? 1 : hits / expected.length;
}

export function splitWords(text: string): string[] {
  return text.split(/\s+/).filter((w) => w !== '');
}

/** A figure that could not be measured, and why. */
export const na = (reason: string): string => `n/a (${reason})`;

export const yesNo = (ok: boolean): string => (ok ? 'yes' : 'NO');

/** A ratio far below 1 with two significant digits (fmt would round 0.0004 to 0.000). */
export function small(ratio: number): string {
  return ratio > 0 && ratio < 0.1 ? ratio.toPrecision(2) : fmt(ratio);
}
