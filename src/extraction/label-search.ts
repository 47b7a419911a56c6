import type { Box } from '../core/types.js';
import type { LabelSet } from './labels.js';
import type { Reader, ReadingHints, ReadValue } from './readers.js';
import { keyOf, type DocumentView, type Row, type ViewToken } from './view.js';

/** A value with where it was read and how much the reading is worth before calibration (0..1). */
export interface Candidate extends ReadValue {
  tokens: ViewToken[];
  /** Evidence score, 0..1: label strength, placement, reading quality. Calibrated into a confidence. */
  score: number;
  /** How it was found, for calibration and `verbose` output: `label-right`, `label-below`, `pattern`, ... */
  source: string;
  label?: string;
}

export interface LabelHit {
  row: Row;
  /** Token positions in the row: the label covers [start, end). */
  start: number;
  end: number;
  strength: 'strong' | 'weak';
  phrase: string;
  /** Text glued to the label's last word (`Date:25/01/2018`), when there is some. */
  inline?: string;
  box: Box;
}

interface Phrase {
  words: string[];
  strength: 'strong' | 'weak';
  text: string;
  /** Position in its list's priority order (longest phrase first), to merge candidate lists. */
  rank: number;
}

/**
 * Phrases in priority order, indexed by their first word: a phrase is only tried where its first
 * word is printed (or, for a long word, printed one letter off).
 */
interface PhraseIndex {
  byFirst: Map<string, Phrase[]>;
  /** Phrases whose first word is "#". */
  afterHash: Phrase[];
  /** First words long enough for `sameWord` to allow a letter off, with their one-letter deletions. */
  long: Array<{ word: string; deletions: string[] }>;
}

interface CompiledSet {
  match: PhraseIndex;
  not: PhraseIndex;
}

/** Label sets split into words and indexed once: the sets are constants, the documents many. */
const compiledSets = new WeakMap<LabelSet, CompiledSet>();

function phrasesOf(set: LabelSet): CompiledSet {
  let compiled = compiledSets.get(set);
  if (!compiled) {
    compiled = compileSet(set);
    compiledSets.set(set, compiled);
  }
  return compiled;
}

function compileSet(set: LabelSet): CompiledSet {
  const make = (text: string, strength: 'strong' | 'weak'): Phrase => ({
    // "#" is a label word of its own; other punctuation is dropped from label words.
    words: text
      .split(/\s+/)
      .map((w) => (w === '#' ? '#' : keyOf(w)))
      .filter((w) => w.length > 0),
    strength,
    text,
    rank: 0,
  });
  const match = [...set.strong.map((p) => make(p, 'strong')), ...(set.weak ?? []).map((p) => make(p, 'weak'))]
    .filter((p) => p.words.length > 0)
    .sort((a, b) => b.words.length - a.words.length);
  const not = (set.not ?? []).map((p) => make(p, 'strong')).filter((p) => p.words.length > 0);
  return { match: indexPhrases(match), not: indexPhrases(not) };
}

function indexPhrases(phrases: Phrase[]): PhraseIndex {
  const byFirst = new Map<string, Phrase[]>();
  const afterHash: Phrase[] = [];
  phrases.forEach((phrase, rank) => {
    phrase.rank = rank;
    const first = phrase.words[0]!;
    if (first === '#') afterHash.push(phrase);
    else byFirst.set(first, [...(byFirst.get(first) ?? []), phrase]);
  });
  const long = [...byFirst.keys()]
    .filter((word) => word.length >= 5)
    .map((word) => ({ word, deletions: deletions(word) }));
  return { byFirst, afterHash, long };
}

/** Two words are the same label word; OCR may have changed one letter of a long word. */
function sameWord(token: string, word: string): boolean {
  if (word === '#') return false;
  if (token === word) return true;
  if (word.length < 5 || Math.abs(token.length - word.length) > 1) return false;
  return editDistanceAtMostOne(token, word);
}

/**
 * A printed word is a label word: the same, or (read by OCR) one letter off. A text layer spells what
 * was printed: "Kunden" in "Kunden AG Mitte" is no "Kunde" label.
 */
export function sameWordAs(token: ViewToken, printed: string, word: string): boolean {
  return token.source === 'ocr' ? sameWord(printed, word) : printed === word && word !== '#';
}

function editDistanceAtMostOne(a: string, b: string): boolean {
  let i = 0;
  let j = 0;
  let edits = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      i++;
      j++;
      continue;
    }
    if (++edits > 1) return false;
    if (a.length > b.length) i++;
    else if (b.length > a.length) j++;
    else {
      i++;
      j++;
    }
  }
  return edits + (a.length - i) + (b.length - j) <= 1;
}

/** Every string `s` gives when one of its characters is dropped. */
function deletions(s: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < s.length; i++) out.push(s.slice(0, i) + s.slice(i + 1));
  return out;
}

/** A token's text split as a label word with its value glued on (`Date:25/01/2018`). */
interface Glued {
  /** The label word's key (`date`). */
  head: string;
  /** The value text after the colon or hash (`25/01/2018`). */
  value: string;
}

const GLUED = /^([^:#]+)[:#]\s*(.+)$/u;
const hasGlue = (text: string): boolean => text.includes(':') || text.includes('#');

const NO_PHRASES: readonly Phrase[] = [];

/**
 * What label matching needs of one document, worked out once however many label sets are looked
 * for: each token's glued-on value, the printed words one letter off a long label word, and the hits.
 */
class LabelContext {
  /** By row and position in the row: the token's glued-on value, when it has one. */
  readonly glued: Array<Array<Glued | undefined>>;
  /**
   * The words label words are compared with (the tokens' keys, and the label words of glued tokens),
   * each with the tokens printing it in reading order.
   */
  private readonly tokensByWord = new Map<string, ViewToken[]>();
  private readonly hashTokens: ViewToken[] = [];
  /** Those of five letters or more by the strings they give when one of their letters is dropped. */
  private readonly byDeletion = new Map<string, string[]>();
  private readonly offByOne = new Map<string, string[]>();
  private readonly slips = new Map<PhraseIndex, Map<string, Phrase[]>>();
  readonly hits = new Map<LabelSet, LabelHit[]>();

  constructor(readonly view: DocumentView) {
    this.glued = view.rows.map((row) =>
      row.tokens.map((token) => {
        this.addWord(token.key, token);
        const last = bilingualLastWord(token.key);
        if (last) this.addWord(last, token);
        if (isHash(token)) this.hashTokens.push(token);
        const m = hasGlue(token.text) ? GLUED.exec(token.text) : null;
        if (!m) return undefined;
        const glued = { head: keyOf(m[1]!), value: m[2]! };
        if (glued.head !== token.key) this.addWord(glued.head, token);
        return glued;
      }),
    );
    // A printed word found here is as long as a label word of five letters or more, or one longer
    // (one a letter shorter is found in `tokensByWord`).
    for (const word of this.tokensByWord.keys()) {
      if (word.length < 5) continue;
      for (const d of deletions(word)) {
        const list = this.byDeletion.get(d);
        if (list) list.push(word);
        else this.byDeletion.set(d, [word]);
      }
    }
  }

  private addWord(word: string, token: ViewToken): void {
    const tokens = this.tokensByWord.get(word);
    if (tokens) tokens.push(token);
    else this.tokensByWord.set(word, [token]);
  }

  /**
   * Where phrases of the index may start, in reading order: the tokens printing a first word (or a
   * word one letter off a long one, or the "#" a phrase starts with). Other positions start none.
   */
  startsOf(index: PhraseIndex): ViewToken[] {
    const starts = new Set<ViewToken>();
    const add = (tokens: readonly ViewToken[] = []): void => tokens.forEach((t) => starts.add(t));
    for (const word of index.byFirst.keys()) add(this.tokensByWord.get(word));
    for (const word of this.slipsOf(index).keys()) add(this.tokensByWord.get(word));
    if (index.afterHash.length > 0) add(this.hashTokens);
    return [...starts].sort((a, b) => a.row - b.row || a.col - b.col);
  }

  /**
   * The document's words other than `word` that `sameWord` takes for it. One letter apart means one
   * inserted (the printed word less a letter is the label word), one dropped (the label word less a
   * letter is printed) or one changed (both less the same letter agree): the deletion indexes find
   * those, `sameWord` has the last say.
   */
  private oneLetterOff(word: string, wordDeletions: readonly string[]): string[] {
    let found = this.offByOne.get(word);
    if (found) return found;
    const candidates = new Set(this.byDeletion.get(word));
    for (const d of wordDeletions) {
      if (this.tokensByWord.has(d)) candidates.add(d);
      for (const same of this.byDeletion.get(d) ?? []) candidates.add(same);
    }
    candidates.delete(word);
    found = [...candidates].filter((candidate) => sameWord(candidate, word));
    this.offByOne.set(word, found);
    return found;
  }

  /** The phrases whose long first word is printed one letter off, by the printed word. */
  slipsOf(index: PhraseIndex): Map<string, Phrase[]> {
    let slips = this.slips.get(index);
    if (!slips) {
      slips = new Map();
      for (const { word, deletions: wordDeletions } of index.long) {
        for (const printed of this.oneLetterOff(word, wordDeletions))
          slips.set(printed, [...(slips.get(printed) ?? []), ...index.byFirst.get(word)!]);
      }
      for (const list of slips.values()) list.sort((a, b) => a.rank - b.rank);
      this.slips.set(index, slips);
    }
    return slips;
  }
}

const contexts = new WeakMap<DocumentView, LabelContext>();

function labelContext(view: DocumentView): LabelContext {
  let context = contexts.get(view);
  if (!context) {
    context = new LabelContext(view);
    contexts.set(view, context);
  }
  return context;
}

const isHash = (token: ViewToken): boolean => token.text === '#' || token.text === '#:';

/**
 * The phrases that may match at a row position, in priority order: those whose first word is the
 * token's word (or one letter off it), or the word before its glued-on value, or "#". A superset:
 * `matchAt` decides.
 */
function phrasesStartingAt(
  row: Row,
  col: number,
  index: PhraseIndex,
  slips: Map<string, Phrase[]>,
  context: LabelContext,
): readonly Phrase[] {
  const token = row.tokens[col]!;
  const own = index.byFirst.get(token.key);
  const ownSlip = slips.get(token.key);
  const glued = context.glued[row.index]![col];
  const hash = isHash(token) && index.afterHash.length > 0;
  const last = bilingualLastWord(token.key);
  // Most positions: one list or none.
  if (!ownSlip && !glued && !hash && !last) return own ?? NO_PHRASES;
  const lists = [own, ownSlip, last === undefined ? undefined : index.byFirst.get(last)];
  if (glued && glued.head !== token.key) lists.push(index.byFirst.get(glued.head), slips.get(glued.head));
  if (hash) lists.push(index.afterHash);
  const found = lists.filter((list): list is Phrase[] => list !== undefined);
  if (found.length <= 1) return found[0] ?? NO_PHRASES;
  return [...new Set(found.flat())].sort((a, b) => a.rank - b.rank);
}

/**
 * The last word of a bilingual label joined by a slash ("TPS/GST", "Nome/Razão"), where its words have
 * two letters or more each; undefined for any other word ("a/c", "s/b", "24/7"). (Not the first word:
 * "Client/Matter" names the matter's number, no client.)
 */
function bilingualLastWord(key: string): string | undefined {
  if (!key.includes('/')) return undefined;
  const parts = key.split('/');
  return parts.length <= 3 && parts.every((p) => /^\p{L}{2,}\.?$/u.test(p))
    ? parts[parts.length - 1]
    : undefined;
}

/** Where the phrase matches at `start` in the row: the end position and any glued-on value text. */
function matchAt(
  row: Row,
  start: number,
  phrase: Phrase,
  context: LabelContext,
): { end: number; inline?: string } | undefined {
  let col = start;
  for (let w = 0; w < phrase.words.length; w++) {
    const token = row.tokens[col];
    if (!token) return undefined;
    const word = phrase.words[w]!;
    if (word === '#' ? isHash(token) : sameWordAs(token, token.key, word)) {
      col++;
      continue;
    }
    // One language's word of a bilingual pair starts the phrase ("No TPS/GST :" holds "gst").
    if (w === 0 && bilingualLastWord(token.key) === word) {
      col++;
      continue;
    }
    // The last word may carry its value after a colon or hash: `Date:25/01/2018`, `No:1234`; a last
    // "#" its value glued after it: `Receipt #2L7Q-BNXP`.
    if (w === phrase.words.length - 1) {
      const glued = context.glued[row.index]![col];
      if (glued && sameWordAs(token, glued.head, word)) return { end: col + 1, inline: glued.value };
      if (word === '#' && w > 0 && /^#[\p{L}\p{N}]/u.test(token.text))
        return { end: col + 1, inline: token.text.slice(1) };
    }
    return undefined;
  }
  return { end: col };
}

/**
 * Every place a label of the set is printed, longest phrase first at each position. Found once per
 * document and set: finders asking again get the same hits (which nobody changes).
 */
export function findLabels(view: DocumentView, set: LabelSet): LabelHit[] {
  const context = labelContext(view);
  let hits = context.hits.get(set);
  if (!hits) {
    hits = scanLabels(phrasesOf(set), context);
    context.hits.set(set, hits);
  }
  return [...hits];
}

function scanLabels(set: CompiledSet, context: LabelContext): LabelHit[] {
  const rows = context.view.rows;
  const slips = context.slipsOf(set.match);
  const excluded = excludedTokens(set.not, context);
  const hits: LabelHit[] = [];
  let last: LabelHit | undefined;
  for (const token of context.startsOf(set.match)) {
    // A position inside the label found last starts no other.
    if (last && token.row === last.row.index && token.col < last.end) continue;
    if (excluded.has(token)) continue;
    const row = rows[token.row]!;
    const start = token.col;
    for (const phrase of phrasesStartingAt(row, start, set.match, slips, context)) {
      const m = matchAt(row, start, phrase, context);
      if (!m) continue;
      const tokens = row.tokens.slice(start, m.end);
      last = {
        row,
        start,
        end: m.end,
        strength: phrase.strength,
        phrase: phrase.text,
        ...(m.inline !== undefined ? { inline: m.inline } : {}),
        box: tokens.reduce(
          (a, t) => ({
            x0: Math.min(a.x0, t.u.x0),
            y0: Math.min(a.y0, t.u.y0),
            x1: Math.max(a.x1, t.u.x1),
            y1: Math.max(a.y1, t.u.y1),
          }),
          { ...tokens[0]!.u },
        ),
      };
      hits.push(last);
      break;
    }
  }
  return hits;
}

/**
 * Tokens inside a phrase that announces another field ("Sub" + "Total"): no label of the set starts
 * there.
 */
function excludedTokens(not: PhraseIndex, context: LabelContext): Set<ViewToken> {
  const excluded = new Set<ViewToken>();
  const slips = context.slipsOf(not);
  for (const token of context.startsOf(not)) {
    const row = context.view.rows[token.row]!;
    const at = token.col;
    for (const phrase of phrasesStartingAt(row, at, not, slips, context)) {
      const m = matchAt(row, at, phrase, context);
      if (!m) continue;
      for (let p = at; p < Math.min(m.end, at + phrase.words.length); p++) excluded.add(row.tokens[p]!);
    }
  }
  return excluded;
}

export interface NearOptions {
  /** Most tokens a value spans. */
  maxTokens: number;
  /** Also look on the rows below the label. */
  below?: boolean;
  /** How far right a value may be, in row heights (default: the whole row). */
  maxRightGap?: number;
  /**
   * Which value right of the label to take when the row holds several: the nearest (`first`, default)
   * or the last before `stopAt` (`last`: "Tax 15% on 112.90 16.94" is 16.94).
   */
  pick?: 'first' | 'last';
  /** Tokens that begin another label: the search to the right stops there. */
  stopAt?: ReadonlySet<number>;
  /** Only the first word after the label may start the value ("Invoice Date" holds no number). */
  adjacent?: boolean;
}

/**
 * Marks between a label and its value, and the term codes of e-invoice renderings ("Invoice number
 * (BT-1)", "Seller (BG-4)").
 */
const SEPARATOR = /^[:#\-–=./]+$/u;

/** A number's word after its label ("Ihre Bestellung Nr. 24-118", "Requisição n.º RQ-17", "Your order ref. PO/7"): no value. */
const NUMBER_WORD = /^(?:nr|no|n|n°|nº|n\.º|n\.°|num|nummer|number|ref)\.?:?$/i;

/**
 * A term code of the European e-invoice standard (EN 16931): "(BT-112)", "[BT-44]", "(BT-38/37)", and
 * as some viewers print them, bare: "BT-44", "BT-38 / BT-37" (whose slash the separators take).
 */
// (Of three digits at most: a number "BT-77120" is an invoice's, not a term's.)
const TERM_CODE = /^(?:[([]B[TG]-\d{1,3}(\/\d{1,3})?[)\]]|B[TG]-\d{1,3}):?$/;

/** Whether a printed word is an e-invoice viewer's term code ("(BT-27)"), part of a label. */
export function isTermCode(text: string): boolean {
  return TERM_CODE.test(text);
}

/**
 * Words between a label and its value that are neither: separators, an e-invoice viewer's term code
 * ("Factuurnummer [BT-1]  2024/0419"), a number's word right after the label, and the label again in
 * another language after a slash ("Bon de commande / PO: FLM-7716").
 */
function betweenLabelAndValue(right: readonly ViewToken[], i: number): boolean {
  const text = right[i]!.text;
  return (
    SEPARATOR.test(text) ||
    isTermCode(text) ||
    (i === 0 && NUMBER_WORD.test(text)) ||
    (i === 1 && right[0]!.text === '/' && /^\p{L}[\p{L}.]*:$/u.test(text))
  );
}

/** A gap between two lines of a row wider than this (a share of the page's width) parts two columns. */
const COLUMN_GAP = 0.12;

/**
 * The best reading of a span starting at `tokens[start]`: the cleanest (highest quality), and of those
 * the longest. Longest-first alone would let a loose reading of "FR119 - SIRET" beat "FR119".
 */
function bestSpanAt(
  tokens: readonly ViewToken[],
  start: number,
  maxTokens: number,
  read: Reader,
  hints: ReadingHints,
): { span: ViewToken[]; value: ReadValue } | undefined {
  let count = Math.min(maxTokens, tokens.length - start);
  if (count < 1) return undefined;
  // Digits across a wide gap (lines of the token layer end at one) are two numbers, not one grouped
  // by a space: `(Inclusive 1` and `101.76` make no 1 101.76. (Words of a date may be split so:
  // `Date: 25` `Mar 2018`.)
  for (let n = 1; n < count; n++) {
    const before = tokens[start + n - 1]!;
    const next = tokens[start + n]!;
    // OCR's lines are not a text layer's: they part where the baseline wavers, so a line's end there
    // parts digits only across a gap (`Amount due: 20` `456,13 PLN`, one amount on a photographed page).
    const lineEnd =
      next.lineId !== before.lineId && (before.source === 'text' || next.u.x0 - before.u.x1 > before.height);
    if (lineEnd && /\d$/.test(before.text) && /^\d/.test(next.text)) {
      count = n;
      break;
    }
    // Nor on one line, across more than a letter's height: a quantity and its price `2   175.00` make
    // no 2 175.00 (a thousands group is a space apart).
    if (/\d$/.test(before.text) && /^\d/.test(next.text) && next.u.x0 - before.u.x1 > before.height) {
      count = n;
      break;
    }
    // Nor does a value run on into another column's line across a column's gap: `NIF: 514872039`
    // beside the buyer's `Av. da Boavista` makes no id `514872039AVDA`.
    if (next.lineId !== before.lineId && next.box.x0 - before.box.x1 > COLUMN_GAP) {
      count = n;
      break;
    }
  }
  // The spans' texts, shortest first, each the one before and a word: built once, not per reading.
  const texts: string[] = [tokens[start]!.text];
  for (let n = 2; n <= count; n++) texts.push(`${texts[n - 2]!} ${tokens[start + n - 1]!.text}`);
  let best: { n: number; value: ReadValue } | undefined;
  for (let n = count; n >= 1; n--) {
    const value = read(texts[n - 1]!, hints);
    if (value && (!best || value.quality > best.value.quality)) best = { n, value };
  }
  return best && { span: tokens.slice(start, start + best.n), value: best.value };
}

/** Values readable next to a label: glued to it, to its right on the row, or just below it. */
/** Words that start a street's name after its house number (Malay, English, Romance). */
const STREET_START =
  /^(jalan|jln|lorong|lrg|persiaran|lebuh|lebuhraya|taman|street|road|avenue|rue|calle|via|avenida|rua)\b/i;

/** A house number right after the label, then a street's words: "No. 5, Jalan ...", "No 12 Lorong ...". */
function houseNumberAfter(hit: LabelHit): boolean {
  const [number, word] = hit.row.tokens.slice(hit.end, hit.end + 2);
  return (
    number !== undefined &&
    word !== undefined &&
    /^\d{1,4}[A-Za-z]?,?$/.test(number.text) &&
    /^\p{L}{3,}/u.test(word.text) &&
    (number.text.endsWith(',') || STREET_START.test(word.text))
  );
}

/**
 * How many words run up to a label on its line, each a space from the next (`most` at most): a label
 * deep in a sentence has many.
 */
export function wordsRunUpTo(
  hit: { row: { tokens: readonly ViewToken[] }; start: number },
  most = 6,
): number {
  let words = 0;
  for (let i = hit.start; i > 0 && words < most; i--) {
    const before = hit.row.tokens[i - 1]!;
    const after = hit.row.tokens[i]!;
    if (after.u.x0 - before.u.x1 > 1.5 * after.height) break;
    words++;
  }
  return words;
}

export function valuesNear(
  view: DocumentView,
  hit: LabelHit,
  read: Reader,
  hints: ReadingHints,
  options: NearOptions,
): Candidate[] {
  const out: Candidate[] = [];
  // A house's number in an address line ("No. 5, Jalan Sultanah Zainab,"): no label of a value.
  if (/^(no|nr|n°|nº)$/.test(keyOf(hit.phrase)) && houseNumberAfter(hit)) return out;
  const strength = hit.strength === 'strong' ? 1 : 0.6;
  const lastLabelToken = hit.row.tokens[hit.end - 1]!;
  if (hit.inline) {
    const value = read(hit.inline, hints);
    if (value)
      out.push({
        ...value,
        tokens: [lastLabelToken],
        score: strength * value.quality,
        source: 'label-inline',
        label: hit.phrase,
      });
  }
  const rowHeight = Math.max(hit.row.height, view.bodyHeight);
  let right = hit.row.tokens.slice(hit.end);
  const stop = right.findIndex((t) => options.stopAt?.has(t.id));
  if (stop >= 0) right = right.slice(0, stop);
  const found: Array<{ span: ViewToken[]; value: ReadValue; gap: number; index: number }> = [];
  // A label's word in a sentence ("All prices include GST. Pump carries ...   Freight:  $35.00"): a
  // value past another label's colon is that label's.
  const wordBefore = hit.start > 0 ? hit.row.tokens[hit.start - 1]! : undefined;
  const sentence = wordBefore !== undefined && /^\p{Ll}/u.test(wordBefore.text);
  for (let i = 0; i < right.length && found.length < (options.pick === 'last' ? 6 : 1); i++) {
    const first = right[i]!;
    if (sentence && i > 0 && /\p{L}:$/u.test(right[i - 1]!.text)) break;
    if (betweenLabelAndValue(right, i)) continue;
    const gap = (first.u.x0 - hit.box.x1) / rowHeight;
    if (options.maxRightGap !== undefined && gap > options.maxRightGap) break;
    if (options.pick !== 'last' && i >= 4) break;
    if (options.adjacent && right.slice(0, i).some((_, j) => !betweenLabelAndValue(right, j))) break;
    const best = bestSpanAt(right, i, options.maxTokens, read, hints);
    if (!best) continue;
    found.push({ ...best, gap, index: i });
    i += best.span.length - 1;
  }
  const chosen = options.pick === 'last' ? found[found.length - 1] : found[0];
  if (chosen) {
    // Nearer is likelier; a value separated by other words is less likely the label's. A label's word
    // in lower case after another in a sentence ("... no aplicado en la factura F24/0412") is prose,
    // not a heading: what follows is seldom its value.
    const between = options.pick === 'last' ? 0 : chosen.index;
    // (Three words at least before it: "Nº de factura:" is a label's own phrase.)
    const prose =
      sentence && hit.start >= 3 && /^\p{Ll}/u.test(hit.row.tokens[hit.start]!.text) && wordsRunUpTo(hit) >= 3
        ? 0.5
        : 1;
    const placement =
      Math.max(0.55, 1 - 0.015 * Math.max(0, chosen.gap - 2)) * (between === 0 ? 1 : 0.8) * prose;
    out.push({
      ...chosen.value,
      tokens: chosen.span,
      score: strength * placement * chosen.value.quality,
      source: 'label-right',
      label: hit.phrase,
    });
  }
  // A label's word inside a sentence ("... returned within 90 days / with receipt. See store"), a
  // lower-case word a space before it, heads no value under it (another column's heading may stand
  // further left: "Teljesítés dátuma    Számla kelte").
  const before = options.below && hit.start > 0 ? hit.row.tokens[hit.start - 1]! : undefined;
  const inSentence =
    before !== undefined &&
    /^\p{Ll}/u.test(before.text) &&
    hit.row.tokens[hit.start]!.u.x0 - before.u.x1 < Math.max(hit.row.height, view.bodyHeight);
  if (options.below && !inSentence) {
    const rows = view.rows;
    for (let r = hit.row.index + 1, seen = 0; r < rows.length && seen < 2; r++) {
      const row = rows[r]!;
      if (row.pageNum !== hit.row.pageNum) break;
      if (row.box.y0 - hit.row.box.y1 > 2.5 * rowHeight) break;
      seen++;
      const under = row.tokens.filter(
        (t) => t.u.x1 > hit.box.x0 - rowHeight && t.u.x0 < hit.box.x1 + 2 * rowHeight,
      );
      if (under.length === 0) {
        // A long label that ends its row, its value alone on the next row at the right margin
        // (`Total Sales (Inclusive of GST)` over `32.70` on a narrow receipt): a wrapped line.
        const wrapped =
          seen === 1 && hit.end === hit.row.tokens.length && row.tokens[0]!.u.x0 > hit.box.x1
            ? bestSpanAt(row.tokens, 0, options.maxTokens, read, hints)
            : undefined;
        if (wrapped && wrapped.span.length === row.tokens.length) {
          out.push({
            ...wrapped.value,
            tokens: wrapped.span,
            score: strength * 0.75 * wrapped.value.quality,
            source: 'label-below',
            label: hit.phrase,
          });
          break;
        }
        continue;
      }
      // (An amount whose thousands a space sets off starts left of the column: "1 916,54" under "DPH".)
      let start = row.tokens.indexOf(under[0]!);
      const previous = row.tokens[start - 1];
      if (
        previous !== undefined &&
        /^-?\d{1,3}$/.test(previous.text) &&
        /^\d{3}(?:[.,]\d{2})?$/.test(under[0]!.text) &&
        under[0]!.u.x0 - previous.u.x1 < 0.6 * under[0]!.height
      )
        start--;
      const best = bestSpanAt(row.tokens, start, options.maxTokens, read, hints);
      if (!best) continue;
      // A label with its value beside it has no other value under it: what is there is another line's.
      const beside = chosen ? 0.5 : 1;
      out.push({
        ...best.value,
        tokens: best.span,
        score: strength * (seen === 1 ? 0.85 : 0.65) * beside * best.value.quality,
        source: 'label-below',
        label: hit.phrase,
      });
      break;
    }
  }
  return out;
}

/**
 * A candidate from a reading, its fields listed: spreading the reading and adding fields costs V8
 * many times more, and the pattern searches make a candidate of every value printed.
 */
function candidateOf(value: ReadValue, tokens: ViewToken[], score: number, source: string): Candidate {
  const candidate: Candidate = {
    value: value.value,
    norm: value.norm,
    quality: value.quality,
    tokens,
    score,
    source,
  };
  if (value.currency !== undefined) candidate.currency = value.currency;
  return candidate;
}

/**
 * A number printed with a per cent sign as the next word ("GST 6.00 % RM0.00"): a rate, never an
 * amount of money.
 */
export function isRate(view: DocumentView, candidate: { tokens: readonly ViewToken[] }): boolean {
  const last = candidate.tokens[candidate.tokens.length - 1];
  if (!last) return false;
  return /^%/.test(view.rows[last.row]?.tokens[last.col + 1]?.text ?? '');
}

/** Every span of the document that reads as a value of the kind (no label needed). */
export function patternValues(
  view: DocumentView,
  read: Reader,
  hints: ReadingHints,
  maxTokens: number,
  baseScore: number,
): Candidate[] {
  const out: Candidate[] = [];
  for (const row of view.rows) {
    for (let i = 0; i < row.tokens.length; i++) {
      const best = bestSpanAt(row.tokens, i, maxTokens, read, hints);
      if (!best) continue;
      out.push(candidateOf(best.value, best.span, baseScore * best.value.quality, 'pattern'));
      i += best.span.length - 1;
    }
  }
  return out;
}
