import { isCreditNote } from '../extraction/finders/document-cues.js';
import type { Candidate } from '../extraction/label-search.js';
import type { ReadingHints } from '../extraction/readers.js';
import type { VerboseFieldResult } from '../extraction/types.js';
import { boundingBoxOf, type DocumentView, type ViewToken } from '../extraction/view.js';
import type { FieldDefinition, FieldKind } from '../products/types.js';
import type { Box } from '../core/types.js';
import type { FieldMemory } from '../ports/supplier-memory-store.js';
import { SUPPLIER_FIELDS } from './learn.js';
import {
  boxOf,
  labelRuns,
  likeRun,
  locateValue,
  plainWords,
  readingsOf,
  sameValue,
  similarity,
} from './locate.js';
import type { Recognition } from './recognise.js';

/** A value a supplier's memory points at in a new document of that supplier. */
export interface LearnedAnswer {
  value: string;
  tokens: ViewToken[];
  /** `value`: the supplier's own value, printed again; `label`: where its label says; `place`: where it was. */
  how: 'value' | 'label' | 'place';
  /** How well the cue fits, 0..1. */
  fit: number;
}

/** How alike misread words must be to the learned value to point at it. */
const LIKE = 0.8;

/** How far (page fractions) a value may lie from where its label or its place says. */
const NEAR_X = 0.08;
const NEAR_Y = 0.012;
/** How far (x plus four times y) a value may lie from where its label says and still be exactly there. */
const EXACT = 0.01;

/**
 * What the memory of a field answers in this document: the supplier's own value when it is printed
 * again (fields that belong to the supplier, or a value every reviewed document had); else the reading
 * of the field's kind that sits where the learned label says (right of it or under it); else the one
 * where the value was printed before. Amounts' labels and places are followed only from documents of
 * the same kind (a credit note's for a credit note, an invoice's or a receipt's for the others).
 * Nothing when no cue fits: the extraction then stands alone.
 */
export function learnedAnswer(
  view: DocumentView,
  hints: ReadingHints,
  kind: FieldKind,
  memory: FieldMemory,
  supplierField: boolean,
  readings: () => Candidate[],
  creditNote = false,
): LearnedAnswer | undefined {
  if (memory.seen.length === 0) return undefined;
  const first = memory.seen[0]!.value;
  const constant = memory.seen.length >= 2 && memory.seen.every((s) => sameValue(kind, s.value, first));
  if (supplierField || constant) {
    const tokens = locateValue(view, hints, kind, first, kind === 'text' ? undefined : readings());
    if (tokens) return { value: first, tokens, how: 'value', fit: 1 };
    // Words misread by OCR still point at the value; unprinted, the supplier's own value fills a field
    // the extraction left empty (and a name of a supplier recognised surely: withSupplierMemory).
    // A run alike in words but not in numbers is another branch's address ("NO.50 ... Kawasan" learned,
    // "NO. 42 ... Taman" printed), not the learned one misread: the page's own reading stands.
    const like = kind === 'text' ? likeRun(view, first, LIKE) : undefined;
    if (like && sameNumbers(first, like.map((t) => t.text).join(' ')))
      return { value: first, tokens: like, how: 'value', fit: 0.97 };
    if (supplierField) return { value: first, tokens: [], how: 'value', fit: 0.8 };
  }
  // A credit note's amounts are followed only on credit notes: there the amount due is the total and
  // the amounts are negative. Its other labels (`Bill to`, `Invoice no.`) say what an invoice's say.
  const seen =
    kind === 'amount' ? memory.seen.filter((s) => (s.creditNote === true) === creditNote) : memory.seen;
  if (seen.length === 0) return undefined;
  // A label printed once: the value is where it stood from that label.
  for (const { placement, value } of seen) {
    const anchor = placement?.anchor;
    if (!placement || !anchor) continue;
    const labels = labelRuns(view, anchor.words);
    if (labels.length !== 1) continue;
    const [label] = labels as [{ pageNum: number; box: Box }];
    const x = (anchor.side === 'left' ? label.box.x1 : label.box.x0) + anchor.dx;
    const y = label.box.y0 + anchor.dy;
    const found = nearest(view, hints, kind, label.pageNum, x, y, x + width(placement.box), value);
    // Where the label says to the point (a born-digital layout), or near it.
    if (found)
      return { value: found.value, tokens: found.tokens, how: 'label', fit: found.near ? 0.95 : 0.85 };
  }
  // A place: trusted when the reviewed documents had the value in the same place (a fixed layout).
  const places = seen.map((s) => s.placement).filter((p): p is NonNullable<typeof p> => p !== null);
  const [place] = places;
  const fixed =
    place !== undefined &&
    places.length >= 2 &&
    places.every(
      (p) =>
        p.pageNum === place.pageNum &&
        Math.abs(p.box.x0 - place.box.x0) <= NEAR_X &&
        Math.abs(p.box.y0 - place.box.y0) <= NEAR_Y,
    );
  if (place) {
    // From one document a place is a weak cue: it fills a field the extraction left empty.
    const { x0, y0, x1 } = place.box;
    const found = nearest(view, hints, kind, place.pageNum, x0, y0, x1, seen[0]!.value);
    if (found) return { value: found.value, tokens: found.tokens, how: 'place', fit: fixed ? 0.85 : 0.6 };
  }
  return undefined;
}

const width = (box: Box): number => box.x1 - box.x0;

/**
 * The reading (or, for words, the run of words as long as the value was) nearest where the value
 * should be: starting at (x, y), or ending at `right` (numbers aligned right in a column).
 */
function nearest(
  view: DocumentView,
  hints: ReadingHints,
  kind: FieldKind,
  pageNum: number,
  x: number,
  y: number,
  right: number,
  example: string,
): { value: string; tokens: ViewToken[]; near: boolean } | undefined {
  if (kind === 'text') {
    const row = view.rows.find(
      (r) => r.pageNum === pageNum && Math.abs(r.box.y0 - y) <= NEAR_Y && r.box.x1 > x,
    );
    if (!row) return undefined;
    const words = plainWords(example).split(' ').length;
    const tokens = row.tokens.filter((t) => t.box.x1 > x - 0.01).slice(0, words);
    if (tokens.length === 0 || Math.abs(tokens[0]!.box.x0 - x) > NEAR_X) return undefined;
    return {
      value: tokens.map((t) => t.text).join(' '),
      tokens,
      near: Math.abs(tokens[0]!.box.x0 - x) + 4 * Math.abs(row.box.y0 - y) <= EXACT,
    };
  }
  let best: { value: string; tokens: ViewToken[]; d: number } | undefined;
  // The words from where the value should start on, read alone: a label before them is not read with them.
  const rows = view.rows
    .filter((r) => r.pageNum === pageNum && Math.abs(r.box.y0 - y) <= 2 * NEAR_Y)
    .map((r) => ({ ...r, tokens: r.tokens.filter((t) => t.box.x0 >= x - NEAR_X) }));
  for (const c of readingsOf({ ...view, rows }, hints, kind)) {
    const box = boxOf(c.tokens);
    if (c.tokens[0]!.pageNum !== pageNum) continue;
    const dx = Math.min(Math.abs(box.x0 - x), Math.abs(box.x1 - right));
    const dy = Math.abs(box.y0 - y);
    if (dx > NEAR_X || dy > NEAR_Y) continue;
    const d = dx + 4 * dy;
    if (!best || d < best.d) best = { value: c.value, tokens: c.tokens, d };
  }
  return best && { value: best.value, tokens: best.tokens, near: best.d <= EXACT };
}

/**
 * How far the memory is trusted: right as often as it was right before, starting from 19 in 20 (it was
 * learned from a reviewed document) and moving with every later review.
 */
export function reliabilityOf(memory: FieldMemory): number {
  return (memory.right + 19) / (memory.used + 20);
}

const NAME_FIELD = 'document.supplierName';
const CUSTOMER_FIELD = 'document.customerName';
const ADDRESS_FIELD = 'document.supplierAddress';
/** How alike a reading must be to a name to be that name garbled (`BERIED (SF) SDH.` for `BEMED (SP) SDN. BHD.`). */
const GARBLED = 0.5;

/**
 * Whether `printed` is `learned` with letters misread, word for word: as many words, at least one
 * different, each different one half alike or more and at most two letters longer or shorter
 * (`CNE ONE THREE SEAFOOD` for `ONE ONE THREE SEAFOOD`, `LAN HING` for `LIAN HING`). A word more or
 * fewer (`MR. D.I.Y. (M) SDN BHD` beside `MR. D.I.Y. SDN BHD`) is a name printed otherwise, not misread.
 */
export function misreadWordForWord(printed: string, learned: string): boolean {
  const a = printed.toLowerCase().split(/\s+/).filter(Boolean);
  const b = learned.toLowerCase().split(/\s+/).filter(Boolean);
  if (a.length !== b.length || a.join(' ') === b.join(' ')) return false;
  return a.every(
    (word, i) =>
      word === b[i] || (Math.abs(word.length - b[i]!.length) <= 2 && similarity(word, b[i]!) >= GARBLED),
  );
}

/** The three amounts of an invoice when they add up (subtotal + tax = total): checked, never overridden. */
const SUM_FIELDS = ['invoice.subTotal', 'invoice.tax', 'invoice.total'] as const;

function amountsAddUp(results: readonly VerboseFieldResult[]): boolean {
  const value = (name: string) => {
    const v = results.find((r) => r.name === name)?.value;
    return typeof v === 'string' ? Number(v) : NaN;
  };
  const [sub, tax, total] = SUM_FIELDS.map(value) as [number, number, number];
  return Number.isFinite(sub + tax + total) && Math.abs(sub + tax - total) < 0.005;
}

/**
 * The document's reading hints with the supplier's date order, when its memory has one and the
 * document itself does not tell (no date in it whose day is above 12).
 */
export function withLearnedHints<H extends ReadingHints>(hints: H, recognition: Recognition | undefined): H {
  const dateOrder = recognition?.memory.dateOrder;
  return dateOrder && !hints.dateOrderSeen ? { ...hints, dateOrder, dateOrderSeen: true } : hints;
}

/**
 * The extraction's results with what the supplier's memory says, when the document is recognised as a
 * known supplier's: a learned value that agrees raises the confidence; one that differs replaces the
 * extracted value when it is trusted more (its reliability against the calibrated confidence), except
 * where the extraction's value is checked (amounts that add up). Every field a memory answered says so
 * (`learned`).
 */
export function withSupplierMemory(
  view: DocumentView,
  hints: ReadingHints,
  fields: readonly FieldDefinition[],
  results: VerboseFieldResult[],
  recognition: Recognition,
): VerboseFieldResult[] {
  const { memory } = recognition;
  // The learned supplier printed as this document's buyer (its tax id in the buyer's block): the
  // document is another supplier's, sent to it.
  const customer = results.find((r) => r.name === CUSTOMER_FIELD)?.value;
  if (memory.name && typeof customer === 'string' && sameValue('text', customer, memory.name)) return results;
  const checked = amountsAddUp(results) ? new Set<string>(SUM_FIELDS) : new Set<string>();
  const memo = new Map<FieldKind, Candidate[]>();
  const readings = (kind: FieldKind) => () => {
    let list = memo.get(kind);
    if (!list) memo.set(kind, (list = readingsOf(view, hints, kind)));
    return list;
  };
  // A layout recognised by its words is less sure than a tax id printed on the page.
  const sureness = recognition.how === 'layout' ? Math.min(1, 0.5 + recognition.score) : 1;
  const creditNote = isCreditNote(view);
  return results.map((result) => {
    const field = fields.find((f) => f.name === result.name);
    const fieldMemory = memory.fields[result.name];
    if (!field || !fieldMemory || field.kind === 'table') return result;
    const supplierField = SUPPLIER_FIELDS.has(field.name);
    const answer = learnedAnswer(
      view,
      hints,
      field.kind,
      fieldMemory,
      supplierField,
      readings(field.kind),
      creditNote,
    );
    if (!answer) return result;
    const confidence = round(reliabilityOf(fieldMemory) * answer.fit * sureness);
    const learned = { supplierId: memory.supplierId, documents: memory.documents, how: answer.how };
    const extracted = typeof result.value === 'string' ? result.value : undefined;
    if (extracted !== undefined && sameValue(field.kind, extracted, answer.value)) {
      return { ...result, confidence: Math.max(result.confidence, confidence), learned };
    }
    if (checked.has(field.name)) return result;
    // The supplier's own value printed again (exactly) outweighs a reading of another party's. Otherwise
    // the learned answer replaces the extraction's when it is trusted more and the extraction considered
    // that value too, or the field is words (names: what stands under a learned label such as `Bill to`);
    // a number or date it never considered only fills a field it left empty.
    const considered = (result.candidates ?? []).some((c) => sameValue(field.kind, c.value, answer.value));
    // The supplier's name, misread past recognition letter by letter, from a supplier recognised surely
    // (its tax id, IBAN, name or address printed): the learned name replaces a weaker reading that is
    // that name garbled or words of the learned address taken for a name. Another name printed stands
    // (two companies may print one id), and so does an address: another branch prints another.
    const repairable =
      field.name === NAME_FIELD &&
      recognition.how !== 'layout' &&
      answer.how === 'value' &&
      answer.tokens.length === 0 &&
      confidence > result.confidence &&
      extracted !== undefined;
    // A garbled name keeps its box: the name is printed there, misread. So does a name the reading
    // gives misread word for word, however confident it is: the reviewed name is the one typed.
    const garbled =
      (repairable && similarity(plainWords(extracted), plainWords(answer.value)) >= GARBLED) ||
      (field.name === NAME_FIELD &&
        recognition.how !== 'layout' &&
        answer.how === 'value' &&
        extracted !== undefined &&
        misreadWordForWord(extracted, answer.value));
    const misreadName =
      garbled ||
      (repairable &&
        plainWords(memory.fields[ADDRESS_FIELD]?.seen[0]?.value ?? '').includes(plainWords(extracted)));
    const trusted =
      (answer.how === 'value' && supplierField && answer.fit === 1) ||
      extracted === undefined ||
      misreadName ||
      (confidence > result.confidence &&
        answer.tokens.length > 0 &&
        (answer.how === 'value' || considered || field.kind === 'text'));
    if (!trusted) return result;
    const text = garbled ? (result.text ?? '') : answer.tokens.map((t) => t.text).join(' ');
    const box = garbled ? result.boundingBox : answer.tokens.length > 0 ? boundingBoxOf(answer.tokens) : null;
    return {
      name: result.name,
      value: answer.value,
      confidence,
      boundingBox: box,
      text,
      valueNorm: field.kind === 'amount' || field.kind === 'integer' ? Number(answer.value) : answer.value,
      candidates: [
        { value: answer.value, confidence, boundingBox: box, text },
        ...(result.candidates ?? []).filter((c) => c.value !== answer.value).slice(0, 4),
      ],
      learned,
    };
  });
}

function round(v: number): number {
  return Math.round(v * 1000) / 1000;
}

/**
 * Every number of `learned` is printed in `printed`, a digit misread aside (one digit changed, added or
 * dropped: OCR's "1831" for "1851", "0450" for "50450").
 */
export function sameNumbers(learned: string, printed: string): boolean {
  const numbers = (text: string): string[] => text.match(/\d+/g) ?? [];
  const seen = numbers(printed);
  return numbers(learned).every((n) => seen.some((p) => oneDigitOff(n, p)));
}

function oneDigitOff(a: string, b: string): boolean {
  if (a === b) return true;
  if (a.length === b.length) return [...a].filter((c, i) => c !== b[i]).length === 1;
  const [short, long] = a.length < b.length ? [a, b] : [b, a];
  if (long.length - short.length !== 1) return false;
  for (let i = 0; i < long.length; i++) if (long.slice(0, i) + long.slice(i + 1) === short) return true;
  return false;
}
