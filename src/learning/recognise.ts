import type { DocumentView } from '../extraction/view.js';
import type { SupplierMemory } from '../ports/supplier-memory-store.js';
import { compactText, likeRun, plainWords, similarity } from './locate.js';

/** Words of a fingerprint, at most. */
export const FINGERPRINT_WORDS = 400;
/** Share of layout words two documents of one supplier have in common, at least. */
export const LAYOUT_MATCH = 0.6;

/** The words of the document's first page: lower-case letters only, 3 or more, each once. */
export function fingerprintOf(view: DocumentView): string[] {
  const words = new Set<string>();
  for (const row of view.rows) {
    if (row.pageNum !== 1) break;
    for (const t of row.tokens) {
      const w = plainWords(t.text);
      if (/^\p{L}{3,}$/u.test(w)) words.add(w);
      if (words.size >= FINGERPRINT_WORDS) return [...words];
    }
  }
  return [...words];
}

export interface Recognition {
  memory: SupplierMemory;
  /** How sure the recognition is, 0..1. */
  score: number;
  how: 'tax id' | 'iban' | 'name' | 'address' | 'layout';
}

/** Rows of the first page where a supplier's name is looked for (the letterhead). */
const NAME_ROWS = 15;
/** How alike a printed name must be to the learned one (OCR misreads a letter or two). */
export const NAME_MATCH = 0.85;

/** Whether the supplier's learned address is printed in the letterhead (misread by a letter or two). */
function addressPrinted(view: DocumentView, memory: SupplierMemory): boolean {
  const address = memory.fields['document.supplierAddress']?.seen[0]?.value;
  if (!address || plainWords(address).length < 12) return false;
  const top: DocumentView = {
    ...view,
    rows: view.rows.filter((r) => r.pageNum === 1).slice(0, 2 * NAME_ROWS),
  };
  return likeRun(top, address, NAME_MATCH) !== undefined;
}

/**
 * How alike the best stretch of the letterhead (a row, or two or three rows together: a long name
 * wraps, of the first page's top) is to the name: as many words as the name has, one fewer or one
 * more (OCR splits a word at a misread mark, `S/B` read `§/B`, or joins two), compared letter by letter.
 */
export function nameSimilarity(view: DocumentView, name: string): number {
  const target = plainWords(name);
  const count = target.split(' ').length;
  if (target.length < 4) return 0;
  const rows = view.rows.filter((r) => r.pageNum === 1).slice(0, NAME_ROWS);
  let best = 0;
  for (let r = 0; r < rows.length; r++) {
    const words = rows
      .slice(r, r + 3)
      .flatMap((row) => row.tokens)
      .map((t) => plainWords(t.text))
      .filter(Boolean)
      .join(' ')
      .split(' ');
    for (const size of new Set([Math.max(1, count - 1), count, count + 1])) {
      for (let i = 0; i + size <= words.length || i === 0; i++) {
        const text = words.slice(i, i + size).join(' ');
        best = Math.max(best, similarity(text, target));
        if (best === 1) return 1;
      }
    }
  }
  return best;
}

/**
 * The supplier whose memory the document matches best: one of its tax ids or IBANs printed in the
 * document (sure), else its name in the letterhead, else its address there (as printed, or misread by a
 * letter or two; a neighbour in the same street matches an address too, so a name counts more), else
 * the words of its layout (a Jaccard share of at least LAYOUT_MATCH). None when
 * nothing matches: a document of an unknown supplier is extracted as if nothing had been learned.
 */
export function recogniseSupplier(
  view: DocumentView,
  memories: readonly SupplierMemory[],
  fingerprint: readonly string[] = fingerprintOf(view),
): Recognition | undefined {
  if (memories.length === 0) return undefined;
  const text = compactText(view.layer.tokens.map((t) => t.text).join(' '));
  const words = new Set(fingerprint);
  // Every word of the letterhead, to try the (costly) letter-by-letter comparisons only for a supplier
  // most of whose words are printed there as learned.
  const top = new Set(
    view.rows
      .filter((r) => r.pageNum === 1)
      .slice(0, 2 * NAME_ROWS)
      .flatMap((r) => r.tokens.flatMap((t) => plainWords(t.text).split(' '))),
  );
  const shares = (value: string | undefined | null): boolean => {
    const wanted = [...new Set(plainWords(value ?? '').split(' '))].filter((w) => /^\p{L}{3,}$/u.test(w));
    const printed = wanted.filter((w) => top.has(w)).length;
    // Most of its words as learned (a letter or two misread leaves the others; of two words, one).
    return (
      wanted.length > 0 &&
      printed >= Math.max(1, Math.ceil(0.6 * wanted.length) - (wanted.length === 2 ? 1 : 0))
    );
  };
  let best: Recognition | undefined;
  for (const memory of memories) {
    let found: Recognition | undefined;
    if (memory.taxIds.some((id) => id.length >= 6 && text.includes(id))) {
      found = { memory, score: 1, how: 'tax id' };
    } else if (memory.ibans.some((iban) => iban.length >= 12 && text.includes(iban))) {
      found = { memory, score: 1, how: 'iban' };
    } else if (shares(memory.name) && nameSimilarity(view, memory.name!) >= NAME_MATCH) {
      found = { memory, score: 0.95, how: 'name' };
    } else if (
      shares(memory.fields['document.supplierAddress']?.seen[0]?.value) &&
      addressPrinted(view, memory)
    ) {
      // Neighbours share a street and an estate: a supplier whose name is printed comes first, and
      // of neighbours the one whose name is most like the letterhead's.
      found = {
        memory,
        score: 0.9 + 0.04 * (memory.name ? nameSimilarity(view, memory.name) : 0),
        how: 'address',
      };
    } else if (words.size > 0 && memory.fingerprint.length > 0) {
      let shared = 0;
      for (const w of memory.fingerprint) if (words.has(w)) shared++;
      const jaccard = shared / (words.size + memory.fingerprint.length - shared);
      if (jaccard >= LAYOUT_MATCH) found = { memory, score: jaccard, how: 'layout' };
    }
    if (found && (!best || found.score > best.score)) best = found;
  }
  return best;
}
