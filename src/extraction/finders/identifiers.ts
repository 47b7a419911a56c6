import { LABELS, type LabelSet } from '../labels.js';
import { READERS, type Reader } from '../readers.js';
import type { DocumentHints } from '../hints.js';
import type { DocumentView, ViewToken } from '../view.js';
import { customerBlockTokens } from './customer-block.js';
import { findLabels, patternValues, valuesNear, type Candidate, type LabelHit } from '../label-search.js';

/** Labels that announce the customer's id, not the supplier's. */
const CUSTOMER_ID = /client|customer|kunde|klant|acheteur|buyer|destinataire/i;

/** Labels of the customer's VAT id: a row holding one is not the supplier's. */
const CUSTOMER_VAT: LabelSet = {
  strong: [
    'tva client',
    'n° tva client',
    'customer vat',
    'vat no. customer',
    'ust-id kunde',
    'client vat',
    'btw klant',
    'buyer vat identifier',
    'buyer vat',
    // "Your" tax id, the buyer's: Portuguese "V/ NIF", German "Ihre USt-IdNr.", English "Your VAT No".
    'v/ nif',
    'v/nif',
    'nif cliente',
    'nif do cliente',
    'ihre ust-idnr',
    'ihre ust-id',
    'your vat no',
    'your vat number',
  ],
};

function labelled(
  view: DocumentView,
  set: string,
  read: Reader,
  hints: DocumentHints,
  maxTokens: number,
): Candidate[] {
  return findLabels(view, LABELS[set]!)
    .filter((hit) => !nearHit(view, hit).some((t) => CUSTOMER_ID.test(t.text)))
    .flatMap((hit) => {
      const near = valuesNear(view, hit, read, hints, { maxTokens, below: true, maxRightGap: 20 });
      // A label with its id beside it labels nothing under it: what is there is another line's
      // ("GST Reg No: 201534567K" over "Receipt No : R012-190112-0087").
      return near.some((c) => c.source !== 'label-below')
        ? near.filter((c) => c.source !== 'label-below')
        : near;
    });
}

/** Words and marks of a telephone number ("Tel. +972 4 855 2210"): the digits after them are no id. */
const PHONE_WORD = /^(tel|tél|telefon|telephone|téléphone|phone|ph|fax|mob|mobile|hp|call)\b|^\+\d/i;

/** A candidate right after a telephone's label or its country calling code, within three words. */
function afterContactWord(view: DocumentView, candidate: Candidate): boolean {
  const first = candidate.tokens[0];
  if (!first) return false;
  const row = view.rows[first.row]!;
  return row.tokens.slice(Math.max(0, first.col - 3), first.col).some((t) => PHONE_WORD.test(t.text));
}

/**
 * A label's words and the two after it, up to a wide gap: another column's words on the same row
 * ("Fed. Tax ID: 62-1847305 ... Customer No.") say nothing of whose id it is.
 */
function nearHit(view: DocumentView, hit: LabelHit): ViewToken[] {
  const height = Math.max(hit.row.height, view.bodyHeight);
  const out = hit.row.tokens.slice(hit.start, hit.end);
  for (const t of hit.row.tokens.slice(hit.end, hit.end + 2)) {
    if ((t.u.x0 - out[out.length - 1]!.u.x1) / height > 4) break;
    out.push(t);
  }
  return out;
}

/** Without a check digit's certainty the same number as a checked id with its country's prefix is that id. */
function withoutBareCopies(list: Candidate[]): Candidate[] {
  const checked = list.filter((c) => c.quality >= 1).map((c) => c.value);
  return list.filter(
    (c) =>
      c.quality >= 1 || !checked.some((v) => v !== c.value && /^\d+$/.test(c.value) && v.includes(c.value)),
  );
}

function best(list: Candidate[]): Candidate[] {
  const byValue = new Map<string, Candidate>();
  for (const c of list) {
    const previous = byValue.get(c.value);
    if (!previous) byValue.set(c.value, c);
    else
      byValue.set(c.value, {
        ...(c.score > previous.score ? c : previous),
        score: Math.min(1, Math.max(c.score, previous.score) + 0.05),
      });
  }
  return [...byValue.values()].sort((a, b) => b.score - a.score);
}

/**
 * Tax and bank identifiers. Ids with a check digit (IBAN, ABN, most VAT ids) are trusted when found
 * anywhere; the rest need their label.
 */
export function findIdentifiers(
  view: DocumentView,
  hints: DocumentHints,
): Record<
  'supplierTaxId' | 'supplierABN' | 'iban' | 'bic' | 'bsb' | 'bankAccount' | 'bpayBiller' | 'bpayCrn',
  Candidate[]
> {
  const taxRead = READERS.taxId!;
  const vatLabelled = labelled(view, 'supplierTaxId', taxRead, hints, 6);
  // VAT ids with a country prefix, and India's GSTIN (its state code and check character), are
  // recognisable on their own. (Their prefix in capitals: "Via Emilia Est 318 - 41122" holds none; nor
  // does a number's label, "NO: 000000412873" of a card slip's merchant number.)
  const vatAnywhere = patternValues(
    view,
    (text, h) =>
      /^[A-Z]{2}|^\d{2}[A-Z]{5}\d{4}/.test(text.trim()) && !/^(?:no|nr)\s*[.:]/i.test(text.trim())
        ? taxRead(text, h)
        : undefined,
    hints,
    6,
    0.55,
  ).filter((c) => c.quality >= 1);
  // (Its row, and under a heading in a row of headings the value right below it: "V/ NIF" over
  // "513029478".)
  const customerTokens = new Set(
    findLabels(view, CUSTOMER_VAT).flatMap((hit) => {
      const next = hit.row.tokens.slice(hit.end).find((t) => t.u.x0 > hit.box.x1 + 0.01);
      const under = view.rows[hit.row.index + 1]?.tokens.filter(
        (t) => t.u.x0 >= hit.box.x0 - 0.01 && t.u.x0 < (next?.u.x0 ?? hit.box.x1 + 0.1),
      );
      return [...hit.row.tokens, ...(under ?? [])].map((t) => t.id);
    }),
  );
  // An id printed in the buyer's block ("Bill to", "Kunde"...) is the buyer's: kept only as a doubtful
  // last resort, far behind any other.
  const buyerBlock = customerBlockTokens(view);
  const ibanRead = READERS.iban!;
  const ibanAnywhere = patternValues(view, ibanRead, hints, 8, 0.8);
  // The start of an IBAN reads as a VAT id (`PL66 8591 0007` of `PL66 8591 0007 0021 ...`): none is.
  const ibanTokens = new Set(ibanAnywhere.flatMap((c) => c.tokens.map((t) => t.id)));
  const taxIds = withoutBareCopies([...vatLabelled, ...vatAnywhere]).filter(
    (c) =>
      !c.tokens.some((t) => customerTokens.has(t.id) || ibanTokens.has(t.id)) && !afterContactWord(view, c),
  );
  // The same id printed again outside the buyer's block (a consignee's block above it) is the buyer's too.
  const buyers = new Set(
    taxIds.filter((c) => c.tokens.some((t) => buyerBlock.has(t.id))).map((c) => c.value),
  );
  // (Kept only as a doubtful last resort, where the document prints no other.)
  const others = taxIds.filter((c) => !buyers.has(c.value));
  const supplierTaxId = best(
    others.length > 0
      ? others
      : taxIds.map((c) => ({ ...c, score: c.score * 0.3, source: `${c.source}+buyer-block` })),
  );

  const abnRead = READERS.abn!;
  const supplierABN = best([
    ...labelled(view, 'supplierABN', abnRead, hints, 4),
    ...patternValues(view, abnRead, hints, 4, 0.6),
  ]);
  // An Australian business's tax id is its ABN: the supplier's tax id when no VAT id is printed.
  if (supplierTaxId.length === 0)
    supplierTaxId.push(
      ...supplierABN.map((c) => ({ ...c, score: c.score * 0.9, source: `${c.source}+abn` })),
    );

  const ibanLabelled = labelled(view, 'iban', ibanRead, hints, 8);
  // A printed IBAN that fails its check is still the best reading next to its label.
  const ibanLoose = labelled(
    view,
    'iban',
    (text) => {
      const compact = text
        // (Not the BIC's label beside it: "IBAN : MA64 2304 ... 0008   SWIFT : BASDMAMC".)
        .replace(/\s+(?:swift|bic)\b.*$/i, '')
        .replace(/[.,;:]+$/, '')
        .replace(/\s+/g, '')
        .toUpperCase();
      return /^[A-Z]{2}\d{2}[A-Z0-9]{6,30}$/.test(compact) || /^[A-Z]{2}\d{6,30}$/.test(compact)
        ? { value: compact, norm: compact, quality: 0.5 }
        : undefined;
    },
    hints,
    8,
  );
  return {
    supplierTaxId,
    supplierABN,
    iban: best(
      [...ibanLabelled, ...ibanAnywhere, ...ibanLoose].map((c) =>
        customersAccount(view, c)
          ? { ...c, score: c.score * 0.3, source: `${c.source}+customers-account` }
          : c,
      ),
    ),
    bic: best(labelled(view, 'bic', READERS.bic!, hints, 1)),
    bsb: best(labelled(view, 'bsb', READERS.bsb!, hints, 3)),
    bankAccount: best(labelled(view, 'bankAccount', READERS.bankAccount!, hints, 3)),
    bpayBiller: best(labelled(view, 'bpayBiller', READERS.bpayBiller!, hints, 2)),
    bpayCrn: best(labelled(view, 'bpayCrn', READERS.bpayCrn!, hints, 4)),
  };
}

/**
 * The customer's own account, named so before it on its line: a refund paid to it ("überweisen wir auf
 * Ihr Konto IBAN DE93 ..."), a direct debit taken from it ("von Ihrem Konto", "from your account").
 */
const CUSTOMERS_ACCOUNT =
  /\b(ihr(em)? konto|your (bank )?account|votre compte|uw rekening|su cuenta|vostro conto|il suo conto|din konto|ditt konto)\b/i;

function customersAccount(view: DocumentView, candidate: Candidate): boolean {
  const first = candidate.tokens[0]!;
  const before = view.rows[first.row]!.tokens.filter((t) => t.col < first.col);
  return CUSTOMERS_ACCOUNT.test(before.map((t) => t.text).join(' '));
}
