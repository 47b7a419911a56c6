/** A page-number mark printed on a page: "Page 2 of 3", "Seite 2/2", "1/4", "- 2 -". */
export interface PageMark {
  index: number;
  /** The number of pages, when the mark gives it. */
  count?: number;
}

const WORD =
  '(?:page|seite|blatt|pagina|página|pag\\.?|pág\\.?|p\\.|sida|side|strona|folio|bladzijde|blz\\.?)';
const OF = '(?:of|von|/|de|di|sur|van|z|af|av|\\|)';
const WITH_COUNT = new RegExp(
  `(?:^|[^\\p{L}])${WORD}\\s*:?\\s*(\\d{1,3})\\s*${OF}\\s*(\\d{1,3})(?!\\d)`,
  'iu',
);
/** "Page 3" alone on its line (running text such as "see page 2" is a reference, not a mark). */
const WITHOUT_COUNT = new RegExp(`^[-–—(\\s]*${WORD}\\s*:?\\s*(\\d{1,3})[-–—)\\s]*$`, 'iu');
const BARE_FRACTION = /^\(?\s*(\d{1,2})\s*\/\s*(\d{1,2})\s*\)?$/;
const DASHED = /^[-–—]\s*(\d{1,3})\s*[-–—]$/;

/**
 * The page mark among a page's lines, each given with its vertical position (0 top, 1 bottom).
 * A bare "1/4" or "- 2 -" counts only alone on a line in the top or bottom eighth of the page
 * (elsewhere it is more likely a date or a quantity).
 */
export function findPageMark(lines: ReadonlyArray<{ text: string; y: number }>): PageMark | undefined {
  let fallback: PageMark | undefined;
  for (const { text, y } of lines) {
    const compact = text.trim();
    const withCount = WITH_COUNT.exec(compact);
    if (withCount) {
      const mark = markOf(withCount[1]!, withCount[2]!);
      if (mark) return mark;
    }
    const margin = y < 0.125 || y > 0.875;
    if (margin) {
      const fraction = BARE_FRACTION.exec(compact);
      if (fraction) {
        const mark = markOf(fraction[1]!, fraction[2]!);
        if (mark) fallback ??= mark;
      }
      const dashed = DASHED.exec(compact);
      if (dashed) fallback ??= { index: Number(dashed[1]) };
    }
    const single = WITHOUT_COUNT.exec(compact);
    if (single && Number(single[1]) >= 1) fallback ??= { index: Number(single[1]) };
  }
  return fallback;
}

function markOf(index: string, count: string): PageMark | undefined {
  const i = Number(index);
  const n = Number(count);
  return i >= 1 && n >= 1 && i <= n && n <= 200 ? { index: i, count: n } : undefined;
}
