import { LABELS } from '../labels.js';
import { READERS } from '../readers.js';
import type { DocumentHints } from '../hints.js';
import type { DocumentView } from '../view.js';
import { findLabels, type Candidate } from '../label-search.js';

/** A bill's period: two dates on a labelled row ("01.01.2024 - 31.01.2024", "from X to Y"). */
export function findBillingPeriod(
  view: DocumentView,
  hints: DocumentHints,
): { from: Candidate[]; to: Candidate[]; days: Candidate[] } {
  const read = READERS.date!;
  const from: Candidate[] = [];
  const to: Candidate[] = [];
  const days: Candidate[] = [];
  const rows = new Set(findLabels(view, LABELS.billingPeriod!).map((h) => h.row.index));
  for (const row of view.rows) {
    const dates: Candidate[] = [];
    for (let i = 0; i < row.tokens.length; i++) {
      for (let n = Math.min(4, row.tokens.length - i); n >= 1; n--) {
        const span = row.tokens.slice(i, i + n);
        const value = read(span.map((t) => t.text).join(' '), hints);
        if (!value) continue;
        dates.push({ ...value, tokens: span, score: 0, source: 'period' });
        i += n - 1;
        break;
      }
    }
    if (dates.length !== 2) continue;
    const [a, b] = dates as [Candidate, Candidate];
    if (a.value >= b.value) continue;
    const between = row.tokens
      .slice(row.tokens.indexOf(a.tokens.at(-1)!) + 1, row.tokens.indexOf(b.tokens[0]!))
      .map((t) => t.key);
    const linked =
      between.length <= 2 &&
      (between.length === 0 || between.every((k) => /^(-|–|to|bis|au|tot|until|till|)$/.test(k)));
    if (!linked) continue;
    const score = rows.has(row.index) ? 0.85 : 0.5;
    from.push({ ...a, score });
    to.push({ ...b, score });
    const span = Math.round((Date.parse(b.value) - Date.parse(a.value)) / 86_400_000) + 1;
    days.push({
      value: String(span),
      norm: span,
      quality: 1,
      tokens: [...a.tokens, ...b.tokens],
      score: score * 0.9,
      source: 'period',
    });
  }
  const byScore = (list: Candidate[]) => list.sort((x, y) => y.score - x.score);
  return { from: byScore(from), to: byScore(to), days: byScore(days) };
}
