import {
  ADDRESS_WORDS,
  COMPANY_WORDS,
  TRADE_WORDS,
  LABELS,
  LEGAL_FORMS,
  WEAK_CUSTOMER_LABELS,
  ATTENTION_LABELS,
  type LabelSet,
} from '../labels.js';
import { normaliseText } from '../normalise/text.js';
import { keyOf, type DocumentView, type ViewToken } from '../view.js';
import { customerBlockTokens } from './customer-block.js';
import { findLabels, isTermCode, sameWordAs, type Candidate, type LabelHit } from '../label-search.js';

/** A run of words of one token-layer line, cut at separators such as "●", "|" or " - ". */
interface Segment {
  tokens: ViewToken[];
  text: string;
  key: string;
  lineId: number;
  /** Position of the segment in reading order on its page. */
  order: number;
  /** The rest of the line after this segment, when the line was cut (an address after a name). */
  rest: ViewToken[];
}

const SEPARATORS = /^(●|•|·|\||-|–|—|\/\/|\*)$/u;
const LEGAL = new Set(LEGAL_FORMS);
const COMPANY = new Set(COMPANY_WORDS);
const TRADE = new Set(TRADE_WORDS);
const ADDRESS = new Set(ADDRESS_WORDS);
const NOT_A_NAME =
  /\b(invoice|tax invoice|rechnung|facture|factuur|faktura|factura|fattura|fatura|lasku|doklad|kvittering|kvitto|paragon|scontrino|receipt|resit|quittung|kassenbon|page|seite|date|datum|total|amount|tel|telephone|phone|fax|email|e-mail|www|http|gst|vat|tva|btw|ust|reg|no\.?|abn|customer|kunde|client|bill to|ship to|cashier|table|order|invoice no|qty|description|thank|welcome|copy|original|duplicate|statement|credit note|gutschrift|avoir|tq|payment terms|terms|for shopping|logo|xrechnung|zugferd|factur-x|peppol|fatturapa|facturae|e-invoice|e-rechnung)\b/i;
/**
 * A shop's notice ("Goods sold are not returnable", "No refund / no exchange"), printed above its name
 * on many tills: never a name, and not the first line of text a letterhead begins with.
 */
const NOTICE =
  /\b(not|non)[\s-]?(returnable|refundable|exchangeable|transferable)|\bno (refunds?|exchanges?|returns?)\b/i;

/** A person at the till or the table under their role's label ("Server: Marisol", "Obsluha: Petra"). */
const PERSON_LABEL =
  /^(server|your server|waiter|waitress|clerk|operator|attendant|served by|driver|kasjer|obsluha|natakar|pénztáros|kassierer|bediener|caissier|caissière|cajero|cajera|mesero|camarero|cameriere|ober)\s*:/i;

/**
 * Words of headings and till lines, never of a shop's name, as OCR may misread them one letter off
 * ("TAX INVQICE", "CHANGF"): a line holding one is no name.
 */
const HEADING_WORDS_NOT_NAMES = [
  'invoice',
  // "Copia di cortesia", "copia cliente": a copy's heading.
  'copia',
  'receipt',
  'cashier',
  'change',
  'summary',
  'simplified',
  'statement',
  'original',
  'duplicate',
  'welcome',
  'willkommen',
  'bienvenue',
  'welkom',
  'benvenuti',
  'bienvenido',
  'bienvenidos',
  'velkommen',
  'välkommen',
  'tervetuloa',
  'prefeitura',
];

function holdsHeadingWord(tokens: readonly ViewToken[]): boolean {
  return tokens.some((t) => HEADING_WORDS_NOT_NAMES.some((word) => sameWordAs(t, t.key, word)));
}

// (Words bounded by letters of any script: "Hôtel" holds no "tel".)
const CONTACT =
  /(@|www\.|https?:|(?<![\p{L}\p{N}])(t[ée]l|t[ée]l[ée]phone|phone|fax|fon|telefon|telefax|telefone|telefono|tlf|email|e-mail|mobile|h\/p|website|hp|whats ?app)(?![\p{L}\p{N}]))/iu;
/** A web address without `www.` ("cedarcoastsupply.ca"): it ends an address (a logo may be one). */
const DOMAIN =
  /(?<![\p{L}\p{N}.])[\p{Ll}\d-]{3,}\.(com|net|org|io|ca|de|fr|nl|be|at|ch|it|es|pt|ie|uk|au|nz|sg|my|in|dk|se|no|fi|pl|cz|eu|co\.uk|com\.au)(?![\p{L}\p{N}])/u;
const TAX_LINE =
  /\b(gst|gstin|cin|usdot|vat|tva|btw|ust|mwst|sst|abn|reg|registration|co\.? ?no|company no|id no|tin|siret|siren|kvk|hrb|iban|bic|invoice|receipt|date|cashier|table|tax|nip|nif|cif|oib|afm|npwp|cuit|c\.u\.i\.t|kt(?=\.)|kennitala|vergi|v\.d(?=\.)|rut|ruc|nit|kmkr|cvr|dič|dic|ičo|ico|uid|cui|mst(?=\s*[:.])|ondernemingsnr|kbo|iva|p\.\s?iva|c\.f|codice fiscale|y-tunnus|org\.?\s?nr|orgnr|cnpj|cpf|rfc|trn)\b/i;

/** Words of a company's capital and trade register, printed after its address in a footer. */
const REGISTER_WORDS =
  /\b(capital|kapital|stammkapital|rcs|rm|r\.\s?m\.|registro mercantil|amtsgericht|registergericht|handelsregister|landesgericht|firmenbuch|sitz|siège|kvk|rpr|rea|registered|licen[cs]e|lic\.|licencia|autorisation|matricule)(?![\p{L}\p{N}])/iu;

/** A telephone number at the start of a text: "(518) 555-0125", "+44 20 7946 0958". */
const PHONE_START = /^(\(\d{2,5}\)|\+\d{1,3})[\s-]?\d{2,4}[\s-]\d{3,5}\b/;

/** A VAT id's shape: a country's two letters glued to eight to twelve digits. */
const VAT_ID_SHAPE = /\b[A-Z]{2}\d{8,12}\b/;

/** A shop's number over its address ("Store #04471", "Station #2218", "Filiale 0433"): no address line. */
const STORE_LINE =
  /^(store|str|station|pay station|branch|shop|outlet|filiale|filiaal|stanice|location|site|loja|tienda|sucursal|magasin|punto vendita)\s*(#|no\.?|nr\.?|n°|n\.)?\s*\d+\b(?!,)\D*$/i;

/**
 * A line of a sentence, not a name's first part: an exclamation, a time of day or opening hours, a
 * number of something ("Open 8am-4pm, closed Mondays", "Breakfast served 7:00-10:30 in The Orangery",
 * "Udkørsel senest 15 min efter betaling").
 */
const SENTENCE_LINE = /[!?]|\b\d{1,2}[:.]\d{2}\b|\b\d{1,2}\s?(?:am|pm)\b|\b\d+\s+\p{Ll}/u;

/** Words that end no name: a line ending in one goes on in the next ("Save more. Live better at"). */
const DANGLING: ReadonlySet<string> = new Set(
  ['at', 'to', 'of', 'for', 'with', 'the', 'from', 'by', 'bei', 'zu', 'von', 'chez', 'à', 'du', 'des'].concat(
    ['van', 'bij', 'voor', 'met', 'en', 'in', 'on'],
  ),
);

/** A branch's name without a number ("Filiale Lindenplatz", "Branch: Harbour City"): no address line. */
const BRANCH_NAME = /^(filiale|filiaal|branch|sucursal|succursale|agence|outlet|niederlassung)\b\D*$/i;

/** A document's title, a copy's mark or a party's heading, alone on a line: no name. */
const TITLE_ALONE =
  /^(?:tax\s+)?(?:invoice|tax invoice|commercial invoice|proforma(?: invoice)?|pro-forma(?: invoice)?|credit note|receipt|bill|statement|rechnung|gutschrift|quittung|facture|avoir|factuur|creditnota|fattura|factura|fatura|faktura|faktúra|lasku|kvitto|kvittering|paragon|original|originál|oryginał|oryginal|copy|copie|kopie|kopia|duplicate|duplicado|recipient|supplier|seller|buyer|customer|sold to|bill to|ship to)$/iu;

/** An e-mail's links under its sender's address ("Unsubscribe | Privacy | Terms", "View in browser"). */
const EMAIL_LINKS = /\b(unsubscribe|privacy|terms|view in browser|help centre|help center)\b/i;

/** A shop's history, not its address ("Family owned since 1962", "Seit 1898"). */
const SINCE_YEAR =
  /\b(since|seit|depuis|desde|dal|sinds|est\.?|established|founded|gegründet|fondée?)\s+(in\s+)?\d{4}\b/i;

/** A sentence's words ("We've received your payment. Your order is on its way."): two make no address. */
const SENTENCE_WORD = /\b(we|we've|we're|you|your|you're|our|is|are|was|thank|thanks|please)\b/gi;

/** A number labelled by up to three words and "#" ("Order #47", "Allentown Branch #14"); an address's "Unit #02-03" aside. */
const HASH_NUMBER = /^(?:\p{L}+\s+){0,2}(\p{L}+)\s*#\s?\d+$/u;

/** A date or a time of day: a receipt's line, not an address's ("2025-01-30 17:44"). */
const DATE_OR_TIME =
  /\b\d{4}-\d{2}-\d{2}\b|\b\d{1,2}[./-]\d{1,2}[./-]\d{2,4}\b|\b\d{1,2}:\d{2}\b|^\d{1,2}\.? \p{L}{3,9}\.? \d{4}$/u;

/** Words far apart on a row (more than this many row heights) belong to different segments. */
const SEGMENT_GAP = 4;

/**
 * Segments of a page in reading order: visual rows cut at wide gaps and at separators. Rows rather than
 * the token layer's lines, because headings printed with wide letter spacing split into several lines.
 */
function segmentsOf(view: DocumentView, pageNum: number): Segment[] {
  const segments: Segment[] = [];
  for (const row of view.rows) {
    if (row.pageNum !== pageNum) continue;
    const parts: ViewToken[][] = [];
    // The dash that ended each part, if a dash did.
    const dashAfter: Array<ViewToken | undefined> = [];
    let current: ViewToken[] = [];
    let previous: ViewToken | undefined;
    for (const token of row.tokens) {
      const gap = previous ? (token.u.x0 - previous.u.x1) / Math.max(row.height, view.bodyHeight) : 0;
      // OCR reads a thin letter (l, I) as "|": only a printed line's "|" separates.
      const separator = SEPARATORS.test(token.text) && !(token.text === '|' && token.source === 'ocr');
      // (A label of its own after a gap of two row heights starts another column's part too, in
      // columns set close: "AUTOAGENZIA LOMBARDA S.R.L.   Denominazione:  VALSERIANA MOTORI S.P.A.")
      const label = gap > 2 && /\p{L}{3,}:$/u.test(token.text);
      if (separator || gap > SEGMENT_GAP || label) {
        if (current.length > 0) {
          parts.push(current);
          dashAfter.push(separator && /^[-–]$/.test(token.text) ? token : undefined);
        }
        current = separator ? [] : [token];
      } else current.push(token);
      previous = token;
    }
    if (current.length > 0) parts.push(current);
    // A company's name in two parts about a dash, the second its trade and legal form ("Quinta do Vale
    // Escuro - Sociedade Agrícola, Lda."): one segment.
    for (let i = parts.length - 2; i >= 0; i--) {
      const [a, b] = [parts[i]!, parts[i + 1]!];
      const dash = dashAfter[i];
      if (dash && b.length <= 4 && hasLegalForm(a) < 0 && isLegalAt(b, b.length - 1))
        parts.splice(i, 2, [...a, dash, ...b]);
    }
    parts.forEach((part, i) => {
      const text = part.map((t) => t.text).join(' ');
      const order = segments.length;
      segments.push({
        tokens: part,
        text,
        key: text.toLowerCase(),
        lineId: order,
        order,
        rest: parts.slice(i + 1).flat(),
      });
    });
  }
  return segments;
}

function letterShare(text: string): number {
  const letters = (text.match(/\p{L}/gu) ?? []).length;
  return letters / Math.max(1, text.replace(/\s/g, '').length);
}

/** OCR's readings of the Malaysian "Sdn Bhd" and "S/B", taken as legal forms only as a pair or whole. */
const OCR_SDN = /^(sdn|son|sen|sbn|sdm|5dn|sdh)\.?$/;
const OCR_BHD = /^(bhd|3hd|8hd|bho|bnd|ehd|bhd\.)$/;
const OCR_SB = /^[s5§]\/[b8]\.?$/;

function isLegalAt(tokens: readonly ViewToken[], i: number): boolean {
  const t = tokens[i]!;
  // A weight after its number ("(50 Kg)"): no German "KG".
  if (/^kg\)?$/i.test(t.text) && /\d$/.test(tokens[i - 1]?.text ?? '')) return false;
  // A Canadian province after a town ("Calgary, AB T2P 0M9"): no Swedish "AB".
  if (t.text === 'AB' && /,$/.test(tokens[i - 1]?.text ?? '')) return false;
  // An Irish county after a town ("Westport, Co. Mayo"): no company's "Co.".
  if (
    t.text.toLowerCase() === 'co.' &&
    /,$/.test(tokens[i - 1]?.text ?? '') &&
    /^\p{Lu}\p{Ll}+$/u.test(tokens[i + 1]?.text ?? '')
  )
    return false;
  // A spa, the word ("Coastline Pool & Spa Supplies Pty Ltd"): Italy's company prints "SpA", "S.p.A.", "SPA".
  if (t.text === 'Spa' || t.text === 'spa') return false;
  if (LEGAL.has(t.key) || LEGAL.has(t.text.toLowerCase()) || OCR_SB.test(t.text.toLowerCase())) return true;
  // A legal form with the company number glued to it: "S/B(587969-U)", "SB(306295-X)".
  const glued = /^(.+?)\(\d{4,8}-[a-z]\)?$/.exec(t.text.toLowerCase())?.[1];
  if (glued && (LEGAL.has(glued) || OCR_SB.test(glued) || glued === 'sb')) return true;
  const next = tokens[i + 1]?.key ?? '';
  const previous = tokens[i - 1]?.key ?? '';
  return (OCR_SDN.test(t.key) && OCR_BHD.test(next)) || (OCR_BHD.test(t.key) && OCR_SDN.test(previous));
}

function hasLegalForm(tokens: readonly ViewToken[]): number {
  return tokens.findIndex((_, i) => isLegalAt(tokens, i));
}

/** A company registration number printed alone ("(1152264-K)", "Co. No: 20154-T"). */
const REGISTRATION = /^\(?\s*(co\.?,?\s*(no|reg)\.?\s*:?\s*|company no\.?\s*:?\s*)?[\d\s-]{4,}[a-z]?\s*\)?$/i;

/** A phone number printed without its label: "(603) 8130 2672", "1800-88-1231". */
const PHONE =
  /(\(?\+?\d{2,4}\)?[\s-]\d{2,4}[\s-]\d{3,5}\b)|(^[\d\s()+-]{9,}$)|(\+\d{1,3}(?:[\s-]\d{1,4}){2,5}\b)/;

/** A company number in a short segment ("815264-U (BPJ)", "(£47213-T)"): Malaysian and similar forms. */
const COMPANY_NUMBER = /\d{4,9}-[A-Z]\b/;

const LABELLED = /\p{L}\.?\s*:\s*\S|\s:\s/u;

function isAddressLine(segment: Segment): boolean {
  const trimmed = segment.text.trim();
  // An e-invoice viewer's term code ("Name (BT-44)") holds no house number: the line is its label's.
  if (/(?:^|\s|\()B[TG]-\d{1,3}\b/.test(trimmed) && /^name\b/i.test(trimmed)) return false;
  if (REGISTRATION.test(trimmed) || STORE_LINE.test(trimmed) || BRANCH_NAME.test(trimmed)) return false;
  // A branch's name ("Shinjuku 3-chome Store", "Mid Valley Branch").
  if (/\b(store|branch|outlet)$/i.test(trimmed)) return false;
  if (EMAIL_LINKS.test(trimmed)) return false;
  if (SINCE_YEAR.test(trimmed) || (trimmed.match(SENTENCE_WORD)?.length ?? 0) >= 2) return false;
  const hashed = HASH_NUMBER.exec(trimmed);
  if (hashed && !ADDRESS.has(hashed[1]!.toLowerCase())) return false;
  if (DATE_OR_TIME.test(segment.text)) return false;
  // A telephone number under a letter ("T 030 555 0917"): its last group is no postcode.
  if (PHONE.test(segment.text) && letterShare(segment.text) < 0.25) return false;
  if (segment.tokens.length <= 4 && COMPANY_NUMBER.test(segment.text)) return false;
  // A member's number after its one word ("Colegiada nº 4.117", "Mitglied Nr. 2231"): no street's.
  const numbered = /^(\p{L}+)\s+(?:nº|n°|no\.?|nr\.?|núm\.?)\s*\d[\d.]*$/iu.exec(trimmed);
  if (numbered && !ADDRESS.has(numbered[1]!.toLowerCase())) return false;
  // A labelled value ("Served by: Mei", "Points : 310"), whatever OCR made of its label: addresses print
  // colons only after a number's "No" ("Lot No: G1"), and a Turkish door's and floor's ("No:14 D:3", "K:4").
  if (LABELLED.test(segment.text.replace(/\bno\.?\s*:|\b[dk]:(?=\d)/gi, ''))) return false;
  if (
    CONTACT.test(segment.text) ||
    /\b(gst|vat|tva|btw|invoice|receipt|tax|date|cashier|total|amount|qty|change|registration|trans|txn|transaction|pump|till|usdot|factura|fattura|facture|faktura|rechnung|factuur|fatura|ticket|beleg|kassenbon|quittung|scontrino|ricevuta|recibo|customer|account|kuittinro|kuitti|kvitto|kvittering|paragon|doklad|matr[ií]cula|kennzeichen|kenteken|plate)\b/i.test(
      segment.text,
    ) ||
    // A bank's or a register's number ("IBAN NL97 RABO ...", "USt-IdNr. DE27... St.-Nr. 232/118/04521").
    /\b(iban|bic|swift|kvk|ust-?idnr|ust-?id|st\.?-nr|steuernummer|steuer-nr|siret|siren|nip|regon|krs)\b/i.test(
      segment.text,
    )
  )
    return false;
  // (Words OCR glued with a comma count each: "GK101,GND FLR,ONE UTAMA".)
  const words = segment.tokens.flatMap((t) => t.key.split(/[,;]+/u)).filter((w) => w.length > 0);
  // ("Dr." first on a line is a person's title, "Dr. Thomas Weigl", not a Drive.)
  const addressWord = words.some(
    (w, i) => (ADDRESS.has(w) && !(i === 0 && w === 'dr')) || STREET_COMPOUND.test(w),
  );
  // A telephone number with words but no street's ("Questions? (312) 555-0188").
  if (!addressWord && PHONE.test(segment.text)) return false;
  // An item's line ends in its price, maybe printed apart ("22241 WS CUT SCISSORS   18.00 $", "PHP
  // LESS 30% -2.37"); an address's number with decimals ("Suite 12.01") comes with a street's word.
  const price = segment.rest.length <= 2 && segment.rest.every((t) => !/\p{L}{2}/u.test(t.text));
  const line = price ? [trimmed, ...segment.rest.map((t) => t.text)].join(' ') : trimmed;
  if (!addressWord && /\d[.,]\d{2}(\s+[^\s\d]{1,2})?$/u.test(line)) return false;
  // So does one with its price and amount ("181010 French Loaf 8 2.40 0 19.20 8"), where an address
  // lists its units with commas ("G.23 & G.22, Plaza Seri Setia,").
  const decimals = trimmed.match(/\b\d+\.\d{2}\b/gu)?.length ?? 0;
  if (!addressWord && decimals >= 2 && !trimmed.includes(',')) return false;
  const postcode = POSTCODE.test(segment.text);
  const houseNumber = /\b\d{1,4}[a-z]?\b/i.test(segment.text) && letterShare(segment.text) > 0.4;
  return addressWord || postcode || houseNumber;
}

/** Numeric postcodes, and the British, Canadian and Irish forms ("LN1 9XY", "K1A 0B1", "H91 XK27"). */
const POSTCODE =
  /\b\d{4,6}\b|\b[A-Z]{1,2}\d[A-Z\d]? ?\d[A-Z]{2}\b|\b[A-Z]\d[A-Z] ?\d[A-Z]\d\b|\b(?:[AC-FHKNPRTV-Y]\d{2}|D6W) ?[0-9AC-FHKNPRTV-Y]{4}\b/;

/** An address with a street's word or a postcode: more than a line with a number in it. */
function plainlyAddress(candidate: Candidate | undefined): boolean {
  return (
    candidate !== undefined &&
    (candidate.tokens.some((t) => ADDRESS.has(t.key) || STREET_COMPOUND.test(t.key)) ||
      POSTCODE.test(candidate.value))
  );
}

/** A street's name of one word with its kind ("Bahnhofstrasse", "Kantstraße", "Lauterweg", "Storgatan"). */
const STREET_COMPOUND =
  /\p{L}{3,}(strasse|straße|str\.|weg|gasse|platz|allee|ring|damm|ufer|vägen|gatan|gade|vej|veien|gata|laan|straat|plein|kade|gracht|dreef|steeg)$/u;

/** An address line that is no company's name ("Bahnhofstrasse 41"; not "Brandt KG", KG a legal form). */
function isStreetLine(segment: Segment): boolean {
  return isAddressLine(segment) && hasLegalForm(segment.tokens) < 0;
}

export interface PartyCandidates {
  supplierName: Candidate[];
  /** The address under the finder's favourite name. */
  supplierAddress: Candidate[];
  customerName: Candidate[];
  /**
   * The address under another of the names proposed: the one a ranking of the names chose. Empty for a
   * candidate that is not one of `supplierName`.
   */
  addressAfterName: (name: Candidate) => Candidate[];
}

/**
 * Supplier name and address from the document's head (largest text near the top, company forms,
 * the line next to the tax id, a name repeated in the footer), and the customer from its label.
 */
export function findParties(view: DocumentView): PartyCandidates {
  const segments = segmentsOf(view, 1);
  const customerTokens = new Set(customerBlockTokens(view));
  // An attention line ("Attn: Trust Accounts") and the company over it ("Eastfield Property Management
  // Pty Ltd") are the customer's.
  for (const hit of findLabels(view, CUSTOMER_LABELS)) {
    if (!ATTENTION_LABELS.has(hit.phrase)) continue;
    const label = hit.row.tokens[hit.start]!;
    const line = segments.find((s) => s.tokens.includes(label))?.tokens ?? [];
    for (const t of [...line, ...(companyAbove(view, segments, label)?.tokens ?? [])])
      customerTokens.add(t.id);
  }
  const repeated = new Map<string, number>();
  const lastPage = view.pageCount > 1 ? segmentsOf(view, view.pageCount) : [];
  for (const s of [...segments, ...lastPage]) {
    const key = normaliseText(s.key);
    repeated.set(key, (repeated.get(key) ?? 0) + 1);
  }
  const body = view.bodyHeight;
  const scored: Array<{ segment: Segment; tokens: ViewToken[]; score: number; owner?: boolean }> = [];
  const firstTextual = segments.findIndex(
    (s) => letterShare(s.text) > 0.6 && s.text.replace(/[^\p{L}]/gu, '').length >= 3 && !NOTICE.test(s.text),
  );
  // Lines a name broken after its "&" took in: a part of a name is not one. (A line holding only the
  // legal form is kept: the line above it may be a stray mark, not the name's start.)
  const continued = new Set<number>();
  for (const segment of segments) {
    if (continued.has(segment.order)) continue;
    if (segment.tokens.some((t) => customerTokens.has(t.id))) continue;
    if (segment.tokens.length > 10 || NOTICE.test(segment.text)) continue;
    const named = nameTokens(view, segments, segment);
    const { legalAt, continuesBelow } = named;
    if (continuesBelow !== undefined) continued.add(continuesBelow);
    // (Not an e-invoice viewer's label before it: "Firmenname (BT-27)  Kühne & Sohn GmbH".)
    const tokens = trimName(withoutLineLabel(named.tokens), legalAt >= 0);
    if (tokens.length === 0) continue;
    // Letters make a name; a company number after its legal form ("77 Quick Mart S/B (123456-X)") is
    // cut before they are counted.
    const text = tokens.map((t) => t.text).join(' ');
    const lettersOnly = text.replace(/[^\p{L}]/gu, '');
    if (lettersOnly.length < 3 || letterShare(text) < 0.55) continue;
    // A legal form alone ("Co.", "Sdn Bhd") is not a name, nor a document's title, a copy's mark or a
    // party's heading alone ("FAKTÚRA", "INVOICE", "ORYGINAŁ", "RECIPIENT").
    if (
      tokens.every((_, i) => isLegalAt(tokens, i)) ||
      TITLE_ALONE.test(text.replace(/[^\p{L}\s-]/gu, '').trim())
    )
      continue;
    // Nor a line a word like "at" ends: a slogan that goes on under it ("Save more. Live better at").
    if (tokens.length > 1 && DANGLING.has(tokens[tokens.length - 1]!.key)) continue;
    // Nor the shop's history ("Your neighbourhood pharmacy since 1994").
    if (SINCE_YEAR.test(text)) continue;
    const score = headerScore(segment, tokens, legalAt, { body, firstTextual, repeated });
    scored.push({ segment, tokens, score, ...(named.owner ? { owner: true } : {}) });
  }
  // A name under "Seller:", "Verkäufer:", "From:" (past lines like "Nummer : 123") is the supplier's.
  for (const hit of findLabels(view, LABELS.supplier!)) {
    if (hit.row.pageNum !== 1 || !endsItsColumn(view, hit)) continue;
    const below = nameBelow(view, segments, columnStart(view, hit));
    // (A party's heading under another's label, "Buyer" under "Seller VAT identifier", is no name.)
    if (
      !below ||
      PARTY_HEADINGS.has(below.tokens.map((t) => t.key).join(' ')) ||
      TITLE_ALONE.test(below.text.replace(/[^\p{L}\s-]/gu, '').trim())
    )
      continue;
    const existing = scored.find((x) => x.segment === below);
    if (existing) existing.score = Math.min(1, existing.score + 0.3);
    else scored.push({ segment: below, tokens: below.tokens, score: 0.7 });
  }
  scored.sort((a, b) => b.score - a.score);
  // The letterhead's name as printed (a logo's word, maybe): the customer is sought apart from it.
  const letterhead = scored[0];
  if (
    letterhead &&
    (preferFullName(letterhead, scored, segments) || preferRegisteredCompany(letterhead, scored, segments))
  )
    scored.sort((a, b) => b.score - a.score);
  // Up to 12: the learned ranking chooses among more than the finder's own favourites.
  const proposed = scored.slice(0, 12);
  const supplierName: Candidate[] = proposed.map(({ tokens, score }) => ({
    value: cleanName(tokens.map((t) => t.text).join(' ')),
    norm: cleanName(tokens.map((t) => t.text).join(' ')),
    quality: 1,
    tokens,
    score,
    source: 'header',
  }));
  const addressOf = (entry: (typeof scored)[number] | undefined): Candidate[] => {
    if (!entry) return [];
    const under = addressAfter(segments, entry.segment, entry.tokens, entry.score);
    if (under.length > 0) return under;
    // Nothing under the name: the name's line repeated with the address, as footers print it
    // ("Name GmbH - Street 1 - 12345 Town").
    const key = normaliseText(entry.tokens.map((t) => t.text).join(' ')).toLowerCase();
    const same = [...segments, ...lastPage].filter(
      (s) => s !== entry.segment && normaliseText(s.text).toLowerCase() === key,
    );
    const footer = same.find((s) => s.rest.length > 0);
    if (footer) return addressAfter(segments, footer, footer.tokens, entry.score * 0.9);
    // Or a footer's line that starts with the name and a comma ("Harvest Lane Market, 4510 Rainier Ave S,
    // Seattle, WA 98118  |  (206) 555-0163"): the address follows the comma.
    const n = entry.tokens.length;
    const led = [...segments, ...lastPage].find(
      (s) =>
        s !== entry.segment &&
        s.tokens.length > n &&
        s.tokens[n - 1]!.text.endsWith(',') &&
        normaliseText(
          s.tokens
            .slice(0, n)
            .map((t) => t.text)
            .join(' ')
            .replace(/,$/, ''),
        ).toLowerCase() === key,
    );
    if (led) {
      const name = { ...led, tokens: led.tokens.slice(0, n), rest: [...led.tokens.slice(n), ...led.rest] };
      const after = addressAfter(segments, name, name.tokens, entry.score * 0.9);
      if (after.length > 0) return after;
    }
    // Or the name printed again over its address (an e-mailed receipt's sender block beside the order),
    // on the first page (whose segments the address is read from).
    for (const again of same.filter((s) => segments.includes(s))) {
      const under = addressAfter(segments, again, again.tokens, entry.score * 0.9);
      if (under.length > 0) return under;
    }
    return [];
  };
  const top = scored[0];
  // The name printed twice, in the letterhead and over a remittance slip ("Remit to:"): the address is
  // the letterhead's, where it has one (the slip's is where payments go).
  const nameKey = (entry: (typeof scored)[number]): string =>
    normaliseText(entry.tokens.map((t) => t.text).join(' ')).toLowerCase();
  const higherTwin =
    top === undefined
      ? undefined
      : scored.find(
          (other) =>
            other !== top &&
            other.tokens[0]!.pageNum === 1 &&
            other.tokens[0]!.box.y0 < top.tokens[0]!.box.y0 - 0.05 &&
            nameKey(other) === nameKey(top),
        );
  const twinAddress = higherTwin
    ? // (Lines of an address, not a labelled value under the twin: "Invoice #: TH-MV-2024-01377".)
      addressOf(higherTwin).filter(
        (c) => plainlyAddress(c) && c.value.includes(', ') && !DATE_OR_TIME.test(c.value),
      )
    : [];
  const topAddress = twinAddress.length > 0 ? twinAddress : addressOf(top);
  // The full name a logo's word starts, printed in the foot of the page ("Greenfield Stores Ltd" over
  // its registration): the address right under the logo (a recipient's block further down is another
  // party's), where the foot gives none plainly (a seller printed in the foot of an invoice has its
  // address there, and the logo's head may hold anything).
  const footerName =
    top !== undefined &&
    letterhead !== undefined &&
    top !== letterhead &&
    top.tokens[0]!.box.y0 - letterhead.tokens[0]!.box.y0 > 0.3;
  const underLogo = (c: Candidate): boolean =>
    c.tokens[0]!.box.y0 - Math.max(...letterhead!.tokens.map((t) => t.box.y1)) <= 5 * body;
  // So does a company printed under the shop's name and address with nothing of its own under it
  // ("KULMAKIOSKI VAAHTERA" / its address / "Vaahtera Kauppa Oy  Y-tunnus ...").
  const letterheadAddress =
    (footerName && !plainlyAddress(topAddress[0])) ||
    (top !== undefined && letterhead !== undefined && top !== letterhead && topAddress.length === 0)
      ? addressOf(letterhead).filter((c) => plainlyAddress(c) && underLogo(c))
      : [];
  const supplierAddress = letterheadAddress.length > 0 ? letterheadAddress : topAddress;
  return {
    supplierName,
    supplierAddress,
    customerName: findCustomer(view, segments, letterhead?.segment),
    // A name with no address under it (a company in a receipt's foot over its register and tax
    // numbers) has the letterhead's.
    addressAfterName: (name) => {
      const at = supplierName.indexOf(name);
      if (at < 0) return [];
      const under = addressOf(proposed[at]);
      return under.length > 0 ? under : supplierAddress;
    },
  };
}

/**
 * A logo's word or two ("QUILLSTACK", "Saltbush Pantry") that start the company's full name printed
 * elsewhere with its legal form ("Quillstack Software, Inc.", "Saltbush Pantry Pty Ltd") are the short
 * form of that name: the full name takes the logo's place, and the logo ranks under it. The full name
 * may open a long footer line of the first page ("Hexaline Télécom SAS - 38 boulevard Vauban - ..."), too
 * long to be a candidate of its own. Only the finder's favourite is replaced so: another line that starts like a
 * longer name (a marketplace's logo over its seller's invoice) is left where it ranks.
 */
function preferFullName(
  short: { segment: Segment; tokens: ViewToken[]; score: number },
  scored: Array<{ segment: Segment; tokens: ViewToken[]; score: number }>,
  segments: readonly Segment[],
): boolean {
  const words = (tokens: readonly ViewToken[]): string[] =>
    tokens.map((t) => t.key.replace(/[^\p{L}\p{N}&]/gu, '')).filter(Boolean);
  // (A name in two prints, "HOCK SENG" over "ZI CHAR", starts the full name with its first line.)
  const own = short.tokens.filter((t) => short.segment.tokens.includes(t));
  const head =
    words(short.tokens).length <= 3 || own.length === short.tokens.length ? words(short.tokens) : words(own);
  if (head.length === 0 || head.length > 3 || hasLegalForm(short.tokens) >= 0) return false;
  // A logo's word in large print with a smaller word beside it ("nordlys" over "erhverv", a business
  // line's name): the large word alone may start the full name ("Nordlys Telecom A/S") where the two do not.
  const [logo, ...beside] = short.tokens;
  const logoWord =
    head.length === 2 &&
    beside.length === 1 &&
    logo!.height >= 1.6 * beside[0]!.height &&
    head[0]!.length >= 4 &&
    !COMPANY.has(head[0]!);
  for (const start of logoWord ? [head, head.slice(0, 1)] : [head]) {
    const full = fullNameStartingWith(start, short, scored, segments);
    if (full) {
      takePlaceOf(full, short);
      return true;
    }
  }
  return false;
}

/** The full name with its legal form that starts with the words `head` (a logo's), where one is printed. */
function fullNameStartingWith(
  head: readonly string[],
  short: { segment: Segment; tokens: ViewToken[]; score: number },
  scored: Array<{ segment: Segment; tokens: ViewToken[]; score: number }>,
  segments: readonly Segment[],
): { segment: Segment; tokens: ViewToken[]; score: number } | undefined {
  const words = (tokens: readonly ViewToken[]): string[] =>
    tokens.map((t) => t.key.replace(/[^\p{L}\p{N}&]/gu, '')).filter(Boolean);
  // (Word by word, or letter by letter: a logo writes its words as one, "nimbusgrid" for "Nimbus Grid
  // Technologies Private Limited".)
  const compactHead = head.join('');
  const startsWith = (tokens: readonly ViewToken[]): boolean => {
    const all = words(tokens);
    if (all.length <= head.length) return false;
    if (head.every((w, i) => all[i] === w)) return true;
    if (head.length !== 1 || compactHead.length < 6) return false;
    let joined = '';
    for (const [i, w] of all.entries()) {
      joined += w;
      if (joined.length >= compactHead.length) return joined === compactHead && i > 0 && i < all.length - 1;
    }
    return false;
  };
  // Of several, the one printed nearest the logo (its letterhead's, not a footer's or a remittance slip's).
  const distance = (other: { segment: Segment }): number =>
    Math.abs(other.segment.order - short.segment.order);
  const full = scored
    .filter((other) => other !== short && hasLegalForm(other.tokens) >= 0 && startsWith(other.tokens))
    .sort((a, b) => distance(a) - distance(b))[0];
  if (full) return full;
  // A logo's one word inside the company's name, printed twice, in a window envelope's sender line and
  // the footer ("BRANDT" for "Dachdeckerei Wilhelm Brandt GmbH & Co. KG").
  const key = (tokens: readonly ViewToken[]): string => words(tokens).join(' ');
  const inside = scored.find(
    (other) =>
      other !== short &&
      head.length === 1 &&
      head[0]!.length >= 4 &&
      !COMPANY.has(head[0]!) &&
      hasLegalForm(other.tokens) >= 0 &&
      words(other.tokens).includes(head[0]!) &&
      segments.filter((s) => key(s.tokens.slice(0, other.tokens.length)) === key(other.tokens)).length >= 2,
  );
  if (inside) return inside;
  // (Not a sentence naming it: "The Larkspur Inn is operated by Larkspur Lodging LLC.")
  const legalIn = (s: Segment): number => {
    const at = hasLegalForm(s.tokens.slice(0, head.length + 6));
    const name = s.tokens
      .slice(0, at + 1)
      .map((t) => t.text)
      .join(' ');
    return at >= 0 && (name.match(SENTENCE_WORD)?.length ?? 0) === 0 ? at : -1;
  };
  /** A name found: among the scored, from now on. */
  const take = (
    segment: Segment,
    tokens: ViewToken[],
  ): { segment: Segment; tokens: ViewToken[]; score: number } => {
    const made = { segment, tokens, score: 0 };
    scored.push(made);
    return made;
  };
  /** A line's words up to its legal form (and a form of several words that goes with it). */
  const upToLegal = (s: Segment): ViewToken[] => {
    const at = legalIn(s);
    return s.tokens.slice(0, at + 1 + trailingLegal(s.tokens, at));
  };
  const line = segments.find((s) => s !== short.segment && startsWith(s.tokens) && legalIn(s) >= head.length);
  if (line) return take(line, upToLegal(line));
  // The company's legal form first, then the logo's words ("SARL Moreau Plomberie Chauffage" under
  // "MOREAU"): the whole line, a short one without a sentence's words.
  const prefixed = segments.find((s) => {
    if (s === short.segment || s.tokens.length < 2 || s.tokens.length > 8) return false;
    if (!isLegalAt(s.tokens, 0) || isLegalAt(s.tokens, 1)) return false;
    const after = words(s.tokens.slice(1));
    return (s.text.match(SENTENCE_WORD)?.length ?? 0) === 0 && head.every((w, i) => after[i] === w);
  });
  if (prefixed) return take(prefixed, prefixed.tokens);
  // The logo's words, a dash, and the rest of the company's name on one line ("Douro Verde - Comércio
  // de Frutas e Mercearia, Lda."), which the dash cut in two segments.
  for (const s of segments) {
    const next = segments[s.order + 1];
    if (s === short.segment || !next || next.tokens[0]!.row !== s.tokens[0]!.row) continue;
    const own = words(s.tokens);
    if (own.length !== head.length || !head.every((w, i) => own[i] === w)) continue;
    const at = hasLegalForm(next.tokens.slice(0, 8));
    if (at < 0 || (next.text.match(SENTENCE_WORD)?.length ?? 0) > 0) continue;
    return take(s, [...s.tokens, ...next.tokens.slice(0, at + 1 + trailingLegal(next.tokens, at))]);
  }
  // A logo's one word that a word of the company's name under it starts ("AGROANDINA" over
  // "DISTRIBUCIONES AGROANDINAS S.A.S."): that name, right under the logo.
  if (head.length === 1 && head[0]!.length >= 6) {
    const x0 = short.segment.tokens[0]!.u.x0;
    const under = segments
      .slice(short.segment.order + 1, short.segment.order + 6)
      .find(
        (s) =>
          Math.abs(s.tokens[0]!.u.x0 - x0) < 0.05 &&
          legalIn(s) >= 1 &&
          words(s.tokens).some((w) => w.startsWith(head[0]!)),
      );
    if (under) return take(under, upToLegal(under));
  }
  return undefined;
}

/**
 * A shop's trading name over its company (`SAKURA MART` over `Sakura Retail Co., Ltd.` and its tax id,
 * `BAR DA NINO` over `Da Nino S.n.c. di Rossi A. & C.` and its P.IVA): the supplier is the company,
 * printed with its legal form in the head of the page, right over its registration or tax id (or with
 * it on its line). The favourite keeps its place when it has a legal form itself.
 */
function preferRegisteredCompany(
  brand: { segment: Segment; tokens: ViewToken[]; score: number },
  scored: Array<{ segment: Segment; tokens: ViewToken[]; score: number; owner?: boolean }>,
  segments: readonly Segment[],
): boolean {
  if (hasLegalForm(brand.tokens) >= 0) return false;
  const says = (text: string): boolean =>
    TAX_LINE.test(text) || COMPANY_NUMBER.test(text) || REGISTRATION.test(text.trim());
  // Its registration on its line, or on the line right under it. (Not further down its block: where a
  // shop prints its company, address and VAT number under its name, the name is what the receipt is
  // known by; the probe sets' writers who were not told otherwise wanted it.)
  const registered = (entry: { segment: Segment; tokens: ViewToken[] }): boolean => {
    const rest = entry.segment.tokens
      .slice(entry.tokens.length)
      .map((t) => t.text)
      .join(' ');
    const next = segments[entry.segment.order + 1];
    const close =
      next !== undefined &&
      next.tokens[0]!.box.y0 - Math.max(...entry.segment.tokens.map((t) => t.box.y1)) < 0.03;
    return says(rest) || (close && says(next.text));
  };
  const onFirstPage = (other: { tokens: ViewToken[] }): boolean => other.tokens[0]!.pageNum === 1;
  // The company the page says owns the shop comes first; then one printed with its registration in the
  // head of the page near the brand. (Not a company in the foot of a receipt: there the shop's name at
  // the top is what the receipt is known by; docs/extraction.md, "Decisions made here".)
  const company =
    scored.find((other) => other !== brand && other.owner === true && onFirstPage(other)) ??
    scored.find(
      (other) =>
        other !== brand &&
        hasLegalForm(other.tokens) >= 0 &&
        // An address line whose word reads as a legal form ("No.4, Jalan Dinar G UG") is no company.
        !/^(no\.?\s*)?\d/i.test(other.tokens[0]!.text) &&
        !ADDRESS.has(other.tokens[0]!.key) &&
        onFirstPage(other) &&
        other.tokens[0]!.box.y0 < 0.35 &&
        Math.abs(other.segment.order - brand.segment.order) <= 8 &&
        registered(other),
    );
  if (!company) return false;
  takePlaceOf(company, brand);
  return true;
}

/** Words before a company that say it owns the shop or sells through the page ("operated by", "unit of"). */
const OWNER_WORDS =
  /^(?:(?:operated|owned|sold|run|betrieben|exploité|exploitée|gestito) (?:by|von|par|da)|(?:unit|division|brand|name) of)$/;
/** A label naming the shop's operator or owner before a colon ("Provozovatel:", "Betreiber:", "Operator:"). */
const OPERATOR_LABEL =
  /^(?:provozovatel|prevadzkovatel|prevádzkovateľ|betreiber(?:in)?|exploitant|operator|operated by|gestore|gestito da|titolare|inhaber(?:in)?|proprietor|owner|eigenaar|uitbater)$/;
/** A line that introduces the owner's name on the line under it ("Owned & Operated by:"). */
const OWNER_LINE =
  /\b(?:operated|owned|run)\s+by\s*:?\s*$|\b(?:a\s+)?(?:unit|division|brand|trading name)\s+of\s*:?\s*$/i;

/** `name` takes the favourite's place, just above it; the favourite ranks under it. */
function takePlaceOf(name: { score: number }, favourite: { score: number }): void {
  name.score = Math.max(name.score, Math.min(1, favourite.score + 0.05));
  favourite.score = Math.min(favourite.score, name.score - 0.15);
}

function lastLegalForm(tokens: readonly ViewToken[]): number {
  for (let i = tokens.length - 1; i >= 0; i--) if (isLegalAt(tokens, i)) return i;
  return -1;
}

/** The words of a segment that make a company name, and where its legal form is (-1 when none). */
function nameTokens(
  view: DocumentView,
  segments: Segment[],
  segment: Segment,
): { tokens: ViewToken[]; legalAt: number; continuesBelow?: number; owner?: boolean } {
  let legalAt = hasLegalForm(segment.tokens);
  let own = segment.tokens;
  // "Owned by: Chef Tan Sdn Bhd": the company follows the colon.
  const colon = own.findIndex((t) => t.text.endsWith(':'));
  // "Provozovatel: Pivnice Kohout s.r.o.", "Betreiber: ...": the label names the shop's operator.
  const operatorLabel =
    colon >= 0 &&
    OPERATOR_LABEL.test(
      keyOf(
        own
          .slice(0, colon + 1)
          .map((t) => t.text)
          .join(' '),
      ),
    );
  if (colon >= 0 && (legalAt > colon || own.length - colon > 2)) {
    own = own.slice(colon + 1);
    legalAt = hasLegalForm(own);
  }
  // "All services are sold by Northwind Cloud Services, Inc.": the company after "sold by", "operated by"...
  // So is "Questions? Contact Cloudtally, Inc. at billing@...": the company after "contact".
  const by = own.findIndex(
    (t, i) =>
      legalAt > i &&
      ((t.key === 'by' && i > 0 && /(ed|sold|run|von|par|door)$/.test(own[i - 1]!.key)) ||
        /^(contact|contactez|kontaktieren|contacteer|contatta|contacte)$/.test(t.key) ||
        // "(A unit of Spice Route Hospitality Pvt. Ltd.)": the company after "a unit of", "a division of",
        // "is a trading name of".
        (t.key === 'of' &&
          i > 0 &&
          /^(unit|division|brand|member|subsidiary|part|name)$/.test(own[i - 1]!.key))),
  );
  // The company that owns the shop or sells through the page: "(A unit of X Pvt. Ltd.)", "Sold by X
  // Ltd", or X on the line under "Owned & Operated by:".
  const above = segments[segment.order - 1];
  let owner =
    (operatorLabel && by < 0 && legalAt >= 0) ||
    (by > 0 && OWNER_WORDS.test(`${own[by - 1]!.key} ${own[by]!.key}`)) ||
    (by < 0 &&
      legalAt >= 0 &&
      above !== undefined &&
      segment.tokens[0]!.box.y0 - above.tokens[0]!.box.y1 < 2 * view.bodyHeight &&
      OWNER_LINE.test(above.text));
  if (by > 0) {
    own = own.slice(by + 1);
    legalAt = hasLegalForm(own);
    owner &&= legalAt >= 0;
  }
  let tokens = legalAt >= 0 ? own.slice(0, legalAt + 1 + trailingLegal(own, legalAt)) : own;
  // After the legal form comes an address or a number, which is cut; a place name that belongs
  // to the name ("Metallhandel AG Duisburg") is kept.
  const after = own.slice(tokens.length);
  if (after.length > 0 && after.length <= 2 && after.every((t) => /^\p{Lu}[\p{L}-]+$/u.test(t.text)))
    tokens = own;
  // A name broken over two lines: the second short line ends in the legal form, or the first ends
  // in "&" ("Best Choice Hardware &" over "Electrical").
  // (The next line of words: OCR's stray marks between are passed, "!" under an "&"; so is another
  // column's smaller print on the name's own row, "BERGBAHNEN   Kasse Talstation" over "ALPGRAT AG".
  // Not a block's heading's: "Exporter   Invoice No." is no name's first line.)
  const height = (x: Segment): number => Math.max(...x.tokens.map((t) => t.height));
  const letterhead = height(segment) >= 1.2 * view.bodyHeight && !NOT_A_NAME.test(segment.text);
  const next = segments
    .slice(segment.order + 1, segment.order + 4)
    .find(
      (s) =>
        /[\p{L}\p{N}]/u.test(s.text) &&
        !(letterhead && s.tokens[0]!.row === segment.tokens[0]!.row && height(s) < 0.8 * height(segment)),
    );
  const near =
    next !== undefined &&
    next.tokens[0]!.box.y0 - segment.tokens[0]!.box.y1 < 2 * view.bodyHeight &&
    overlapAcross(segment, next);
  const close = near && sameStyle(segment, next);
  // (OCR's stray marks after the "&" aside: "Home Master Hardware & !".)
  const words = tokens.slice(0, tokens.findLastIndex((t) => !/^[^\p{L}\p{N}&]+$/u.test(t.text)) + 1);
  // (The "&" says the name goes on: letters up to half as tall again, as OCR boxes them, are its.)
  if (
    legalAt < 0 &&
    near &&
    sameStyle(segment, next, 1.6) &&
    words.length > 0 &&
    /&$|^(and|und|et|en|e|y)$/i.test(words[words.length - 1]!.text) &&
    next.tokens.length <= 4 &&
    letterShare(next.text) > 0.8
  ) {
    const joined = [...words, ...next.tokens];
    const joinedLegal = hasLegalForm(joined);
    return { tokens: joined, legalAt: joinedLegal, continuesBelow: next.order };
  }
  // A legal form that ends the next line (a company number may follow it): "Enterprise" / "Sdn Bhd".
  // One that starts a longer line ("SAS Distribution Lacroix") begins the operating company's name.
  const legalEnding = (line: Segment): number => {
    const at = lastLegalForm(line.tokens);
    const after = line.tokens.slice(at + 1 + (at >= 0 ? trailingLegal(line.tokens, at) : 0));
    return at >= 0 && after.every((t) => !/\p{L}{2}/u.test(t.text) || /\d{4,9}-[A-Z]/.test(t.text)) ? at : -1;
  };
  const nextLegal = next ? legalEnding(next) : -1;
  // (Not a line that says who runs the shop: "The Crown & Anchor is operated by" over the company.)
  if (
    legalAt < 0 &&
    !/:$/.test(segment.text) &&
    !OWNER_LINE.test(segment.text) &&
    !STORE_LINE.test(segment.text.trim()) &&
    !SENTENCE_LINE.test(segment.text) &&
    close &&
    nextLegal >= 0 &&
    // (Four words at most; or three before a legal form of several that ends the line: "SIERRA ALTA,
    // S.A. DE C.V.". A branch's line over a company and its number stays apart: "Desa Park City" over
    // "Golden Scoop Sdn Bhd (169609-A)".)
    (next.tokens.length <= 4 ||
      (hasLegalForm(next.tokens) <= 3 &&
        nextLegal + trailingLegal(next.tokens, nextLegal) === next.tokens.length - 1))
  ) {
    tokens = [...tokens, ...next.tokens.slice(0, nextLegal + 1 + trailingLegal(next.tokens, nextLegal))];
    legalAt = tokens.length - 1;
    return { tokens, legalAt, owner };
  }
  // A line of business words alone ends the name ("Power Hardware" / "Trading", "Fuyi Mini" / "Market").
  if (
    legalAt < 0 &&
    !/:$/.test(segment.text) &&
    close &&
    next.tokens.length <= 2 &&
    next.tokens.every((t) => COMPANY.has(t.key))
  )
    return { tokens: [...words, ...next.tokens], legalAt, continuesBelow: next.order };
  // A letterhead's name in two prints: the page's first line in big letters over a short line of
  // capitalised words in smaller ones, still above the body's print ("MABEL'S" over "KITCHEN & TAP",
  // "Derry Ridge" over "PHARMACY"). (Not a slogan: "Save money. Live better." is no line of titles.)
  if (legalAt < 0 && near && !/:$/.test(segment.text) && nameInTwoPrints(view, segments, segment, next)) {
    const joined = [...words, ...next.tokens];
    return { tokens: joined, legalAt: hasLegalForm(joined), continuesBelow: next.order };
  }
  // Over three lines on a narrow receipt ("Lim Brothers Hardware" / "Enterprise (Bukit" / "Jalil) Sdn Bhd"):
  // two short lines of words, the last ending in the legal form, each right under the one before.
  const third = segments[segment.order + 2];
  const thirdLegal = third ? legalEnding(third) : -1;
  if (
    legalAt < 0 &&
    !/:$/.test(segment.text) &&
    close &&
    third &&
    nextLegal < 0 &&
    thirdLegal >= 0 &&
    next.tokens.length <= 4 &&
    third.tokens.length <= 4 &&
    letterShare(next.text) > 0.8 &&
    // (A name's middle line holds no number: "Pay Station 07" between a car park and its operator.)
    !/\d/.test(next.text) &&
    !isAddressLine(next) &&
    third.tokens[0]!.box.y0 - next.tokens[0]!.box.y1 < 2 * view.bodyHeight &&
    overlapAcross(next, third) &&
    sameStyle(next, third)
  ) {
    tokens = [
      ...tokens,
      ...next.tokens,
      ...third.tokens.slice(0, thirdLegal + 1 + trailingLegal(third.tokens, thirdLegal)),
    ];
    legalAt = tokens.length - 1;
  }
  return { tokens, legalAt, owner };
}

/**
 * The page's first line of text in big print (twice the body's and more) and, right under it, a short
 * line of capitalised words without numbers, smaller but still above the body's print.
 */
function nameInTwoPrints(
  view: DocumentView,
  segments: readonly Segment[],
  top: Segment,
  next: Segment,
): boolean {
  const height = (s: Segment): number => Math.max(...s.tokens.map((t) => t.height));
  const body = view.bodyHeight;
  const first = segments.find(
    (s) => s.tokens[0]!.pageNum === top.tokens[0]!.pageNum && letterShare(s.text) > 0.6,
  );
  const words = next.tokens.filter((t) => /\p{L}/u.test(t.text));
  return (
    first === top &&
    height(top) >= 2 * body &&
    height(next) >= 1.1 * body &&
    height(next) < height(top) &&
    next.tokens.length <= 4 &&
    !/[\d:@]/.test(next.text) &&
    words.length > 0 &&
    words.every((t) => /^\p{Lu}/u.test(t.text)) &&
    !holdsHeadingWord(next.tokens) &&
    !NOT_A_NAME.test(next.text) &&
    !isAddressLine(next)
  );
}

/**
 * Two lines printed alike: both in capitals or neither, their letters of about one size. A name broken
 * over lines keeps its print; a shop's name in capitals over its company's in other letters
 * ("THE FOX & LANTERN" over "Hartwell Inns Ltd") are two names.
 */
function sameStyle(a: Segment, b: Segment, ratio = 1.3): boolean {
  const capitals = (s: Segment): boolean => {
    const letters = s.text.replace(/[^\p{L}]/gu, '');
    return letters.length > 0 && letters.replace(/[^\p{Lu}]/gu, '').length >= 0.8 * letters.length;
  };
  // (Heights of words: OCR boxes an "&" or a stray mark taller or shorter than the letters.)
  const height = (s: Segment): number => {
    const words = s.tokens.filter((t) => /[\p{L}\p{N}]/u.test(t.text));
    return Math.max(...(words.length > 0 ? words : s.tokens).map((t) => t.height));
  };
  const [ha, hb] = [height(a), height(b)];
  return capitals(a) === capitals(b) && Math.max(ha, hb) <= ratio * Math.min(ha, hb);
}

/** Two lines one over the other: their spans across the page overlap (a name broken over lines). */
function overlapAcross(a: Segment, b: Segment): boolean {
  const span = (s: Segment): [number, number] => [
    Math.min(...s.tokens.map((t) => t.box.x0)),
    Math.max(...s.tokens.map((t) => t.box.x1)),
  ];
  const [a0, a1] = span(a);
  const [b0, b1] = span(b);
  return a0 < b1 && b0 < a1;
}

/**
 * How much a segment looks like the supplier's name, 0..1: near the top, large print, a legal form
 * or business word, the first line of text, repeated in the footer; not a label, contact, number or
 * address line; OCR confidence weighs it.
 */
function headerScore(
  segment: Segment,
  tokens: ViewToken[],
  legalAt: number,
  context: { body: number; firstTextual: number; repeated: Map<string, number> },
): number {
  const nameText = tokens.map((t) => t.text).join(' ');
  let score = 0.2;
  const y = segment.tokens[0]!.box.y0;
  score += y < 0.12 ? 0.25 : y < 0.25 ? 0.15 : y > 0.85 ? 0.05 : 0;
  const height = Math.max(...segment.tokens.map((t) => t.height));
  if (height > context.body * 1.3) score += 0.15;
  if (height > context.body * 1.8) score += 0.1;
  if (legalAt >= 0) score += 0.3;
  else if (tokens.some((t) => COMPANY.has(t.key))) score += 0.15;
  if (segment.order === context.firstTextual) score += 0.2;
  else if (segment.order - context.firstTextual <= 2 && segment.order > context.firstTextual) score += 0.05;
  if ((context.repeated.get(normaliseText(segment.key)) ?? 0) > 1) score += 0.1;
  if (
    NOT_A_NAME.test(nameText) ||
    holdsHeadingWord(tokens) ||
    /\bcash sale\b/i.test(nameText) ||
    PERSON_LABEL.test(nameText)
  )
    score -= 0.35;
  // Words ending a sentence ("Save money. Live better.", "Danke für Ihren Einkauf!"): a slogan.
  // (Legal forms and short abbreviations end in a dot too: "Inc.", "Corp.", "Bros.")
  if (
    tokens.some(
      (t) =>
        // (An exclamation mark only as printed: OCR reads an I as "!", "RESTAURANT JIAWE!".)
        (/\p{L}{5,}\.$/u.test(t.text) || (t.source !== 'ocr' && /\p{L}{5,}!$/u.test(t.text))) &&
        !LEGAL.has(t.key) &&
        !LEGAL.has(t.text.toLowerCase()),
    )
  )
    score -= 0.3;
  if (CONTACT.test(nameText)) score -= 0.4;
  // A line of trades alone ("Boulangerie - Pâtisserie" over "LE FOURNIL DE MARGAUX"): what the shop
  // does, not its name.
  const words = tokens.filter((t) => /\p{L}/u.test(t.text));
  if (legalAt < 0 && words.length > 0 && words.every((t) => COMPANY.has(t.key) || TRADE.has(t.key)))
    score -= 0.3;
  if (/\d{3,}/.test(nameText)) score -= 0.15;
  if (isAddressLine(segment) && legalAt < 0) score -= 0.15;
  const meanConfidence = segment.tokens.reduce((s, t) => s + t.confidence, 0) / segment.tokens.length;
  // OCR of logos and stamps yields confident-looking garbage rarely, low-confidence garbage often.
  score *= meanConfidence < 0.5 ? 0.3 : 0.4 + 0.6 * meanConfidence;
  return Math.max(0, Math.min(1, score));
}

/** Words that head a receipt beside the name on its row ("Cash Sale ACME SDN BHD"). */
const HEADING_WORDS = new Set([
  'cash',
  'sale',
  'sales',
  'tax',
  'invoice',
  'receipt',
  'bill',
  'official',
  'simplified',
]);

/**
 * The name without OCR's stray marks and numbers around it: a leading "|" or "{", a till's "#000002",
 * heading words before a name with a legal form, and a company number after it ("815264-U (PJ)").
 */
function trimName(tokens: ViewToken[], legal: boolean): ViewToken[] {
  let start = 0;
  let end = tokens.length;
  const mark = (t: ViewToken): boolean => /^[^\p{L}\p{N}]+$/u.test(t.text) || /^#\d+$/.test(t.text);
  while (start < end && mark(tokens[start]!)) start++;
  if (legal) {
    let heading = start;
    while (heading < end - 1 && HEADING_WORDS.has(tokens[heading]!.key)) heading++;
    if (heading > start && hasLegalForm(tokens.slice(heading, end)) >= 0) start = heading;
  }
  const number = tokens.findIndex((t, i) => i > start && /^\(?[A-Z]?\d{4,9}-[A-Z]\)?$/.test(t.text));
  if (number > start) end = number;
  while (end > start && mark(tokens[end - 1]!)) end--;
  return tokens.slice(start, end);
}

/** Legal forms of two words ("Sdn Bhd", "Pty Ltd") or joined by "&" ("GmbH & Co. KG") are kept whole. */
function trailingLegal(tokens: readonly ViewToken[], at: number): number {
  let extra = 0;
  for (;;) {
    const next = at + 1 + extra;
    if (next < tokens.length && isLegalAt(tokens, next)) extra++;
    // "GmbH & Co. KG": forms joined by "&" are one; so are Mexico's by "de" ("S.A. de C.V.").
    else if (
      (tokens[next]?.text === '&' || tokens[next]?.key === 'de') &&
      next + 1 < tokens.length &&
      isLegalAt(tokens, next + 1)
    )
      extra += 2;
    else return extra;
  }
}

function cleanName(text: string): string {
  // A company number glued to the legal form: "S/B(587969-U)".
  const cut = text
    .replace(/\(\d{4,9}-[A-Z]\)$/u, '')
    .replace(/[,;:]+$/u, '')
    // Malaysia's "Sdn Bhd" as OCR misreads it: "S11 BHD", "SON BHO", "SDH BHD".
    .replace(/\b(?:[S5][DO0Q][NH]|S11)\s+BH[DO0Q]\b/giu, (m) =>
      m === m.toUpperCase() ? 'SDN BHD' : 'Sdn Bhd',
    );
  // A parenthesis the name's line opened or closed around it: "(A unit of X Pvt. Ltd.)".
  // So is one around it whole: "(Hock Seng Eating House Pte. Ltd.)" under its shop's name.
  const unbalanced = (cut.match(/\(/g)?.length ?? 0) !== (cut.match(/\)/g)?.length ?? 0);
  const around = /^\([^()]+\)$/u.test(cut.trim());
  return normaliseText(
    unbalanced || around
      ? cut
          .trim()
          .replace(/^\(\s*/u, '')
          .replace(/\s*\)$/u, '')
      : cut,
  );
}

/** Lines after the supplier's name that read as an address, stopping at contact or tax lines. */
function addressAfter(
  segments: Segment[],
  name: Segment,
  nameTokens: ViewToken[],
  nameScore: number,
): Candidate[] {
  // The rest of the name's own line ("Muster Werke GmbH ● Ecke 12 ● 12345 Stadthausen").
  const line = name.rest.length > 0 ? name.rest : name.tokens.slice(nameTokens.length);
  // (Not another column's words far right of the name on its row: "Formations Cap-Rouge inc.   ...
  // No client : 2041".)
  const last = name.tokens[name.tokens.length - 1];
  const whole =
    last && line[0] && (line[0].u.x0 - last.u.x1) / Math.max(last.height, line[0].height) > 6 ? [] : line;
  // Up to the first contact or tax item on the line ("... - 3994 XZ Town - VAT no.: NL..."), a
  // telephone number without its label ("· (518) 555-0125") or the company's capital and register
  // ("- SAS au capital de 2 000 000 € - RCS Lille").
  const stop = whole.findIndex(
    (t, i) =>
      // A page's number at the line's end ("Page 1 of 1", "Seite 1 von 2").
      (PAGE_WORD.test(t.text) && /^\d+$/.test(whole[i + 1]?.text ?? '')) ||
      // Another column's words far to the right on the row ("... · 10997 Berlin      Rechnungsnummer").
      (i > 0 && (t.u.x0 - whole[i - 1]!.u.x1) / Math.max(t.height, whole[i - 1]!.height) > 6) ||
      // A telephone number of bare digit groups ("· 09 298 44 10 ·").
      whole.slice(i, i + 3).filter((x) => /^\d{2,4}$/.test(x.text)).length === 3 ||
      CONTACT.test(t.text) ||
      DOMAIN.test(t.text) ||
      TAX_LINE.test(t.key) ||
      REGISTER_WORDS.test(t.key) ||
      (/^[(+]/.test(t.text) &&
        PHONE_START.test(
          whole
            .slice(i, i + 3)
            .map((x) => x.text)
            .join(' '),
        )) ||
      (isLegalAt(whole, i) &&
        REGISTER_WORDS.test(
          whole
            .slice(i + 1, i + 3)
            .map((x) => x.key)
            .join(' '),
        )),
  );
  const rest = stop >= 0 ? whole.slice(0, stop) : whole;
  const restSegment: Segment | undefined =
    rest.length > 0
      ? { ...name, tokens: rest, text: rest.map((t) => t.text).join(' '), key: '', rest: [] }
      : undefined;
  const parts: ViewToken[][] = [];
  // (A store's number after the name, "QUIKSTOP FUEL #2217", is no address.)
  if (restSegment && isAddressLine(restSegment) && !/^#\s?\d+$/.test(restSegment.text.trim())) {
    parts.push(rest);
  } else {
    const nameBox = name.tokens[0]!.box;
    let previousBottom = Math.max(...name.tokens.map((t) => t.box.y1));
    const lineHeight = Math.max(...name.tokens.map((t) => t.height));
    const skippedRows = new Set<number>();
    let pending: ViewToken[] | undefined;
    // A name printed after its label in a column of labels ("Name  Vandewalle Facility Supplies BV"):
    // a row that column labels as something else ("Country", "Endpoint ID", "Land:") ends the address.
    // (The label nearest the name: another party's column may stand left of it, "Name:  Stadt
    // Wesermünde    Name:  Lindqvist & Brandt IT-Service GmbH".)
    const nameLabel = segments.findLast(
      (s) =>
        s.tokens[0]!.row === name.tokens[0]!.row &&
        s.tokens[s.tokens.length - 1]!.box.x1 <= nameBox.x0 &&
        NAME_LABEL.test(labelWordsOf(s.tokens)),
    );
    const labelColumn = nameLabel?.tokens[0]!.box.x0;
    const otherRowLabel = (row: number): boolean =>
      labelColumn !== undefined &&
      segments.some(
        (s) =>
          s.tokens[0]!.row === row &&
          Math.abs(s.tokens[0]!.box.x0 - labelColumn) < 0.01 &&
          !isAddressLabel(upToColon(s.tokens)),
      );
    for (const segment of segments.slice(name.order + 1)) {
      const box = segment.tokens[0]!.box;
      if (box.y0 < nameBox.y0 - 0.002) continue;
      // The name's own second line ("FERRETERÍA" over "HNOS. OCAÑA").
      if (segment.tokens.every((t) => nameTokens.includes(t))) {
        previousBottom = Math.max(previousBottom, ...segment.tokens.map((t) => t.box.y1));
        continue;
      }
      // Same column: starts left of the name's right edge and does not start far to its left.
      const x0 = Math.min(...segment.tokens.map((t) => t.box.x0));
      const x1 = Math.max(...segment.tokens.map((t) => t.box.x1));
      const nameX1 = Math.max(...name.tokens.map((t) => t.box.x1));
      if (x0 > nameX1 || x1 < nameBox.x0) continue;
      const segmentHeight = Math.max(...segment.tokens.map((t) => t.height));
      const gap = box.y0 - previousBottom;
      // Under the name the address may start after a few lines; once started, it runs on tightly:
      // a wider gap starts another block (the recipient's address in a letter).
      if (gap > (parts.length === 0 ? 3 * lineHeight : 1.2 * segmentHeight)) break;
      const bottom = Math.max(...segment.tokens.map((t) => t.box.y1));
      // A rule across the receipt ("=========") ends the name's block.
      if (/^[-=_*~.#+]{8,}$/.test(segment.text.replace(/\s+/g, ''))) break;
      // A stray mark beside a line (OCR's `|`) is no line of its own.
      if (!/[\p{L}\p{N}]/u.test(segment.text)) {
        previousBottom = Math.max(previousBottom, bottom);
        continue;
      }
      // (A postcode alone on the address's last line: "Kloof Road, Bedfordview" / "2008".)
      // (Read without its own label in a column of labels: "PLZ und Ort: 28217 Bremen".)
      const bare = withoutAddressLabel(segment.tokens);
      const address =
        isAddressLine(segment) ||
        (bare.length < segment.tokens.length && isAddressLine(segmentOf(segment, bare))) ||
        (parts.length > 0 && /^\d{4,5}$/.test(segment.text.trim()));
      // A VAT id on a line of its own ("BE0726431812") ends an address, whatever its label.
      if (parts.length > 0 && VAT_ID_SHAPE.test(segment.text)) break;
      if (parts.length > 0 && otherRowLabel(segment.tokens[0]!.row)) break;
      if (parts.length === 0) {
        // Before the address: registration numbers, tax ids, stray marks and the operating company's
        // name under a shop's name ("Golden Harvest Marketing Sdn Bhd (123456-D)") are passed.
        if (
          !address ||
          STORE_LINE.test(segment.text.trim()) ||
          hasLegalForm(segment.tokens) >= 0 ||
          CONTACT.test(segment.text) ||
          REGISTER_WORDS.test(segment.text) ||
          /\b(gst|vat|sst|reg|co\.? ?no|company no)\b/i.test(segment.text) ||
          // A labelled company number whose label OCR misread ("CO KEG NO : 364912-K").
          (COMPANY_NUMBER.test(segment.text) && LABELLED.test(segment.text))
        ) {
          // (Lines, not segments: "Herramienta · Menaje · Llaves" is one line passed.)
          skippedRows.add(segment.tokens[0]!.row);
          if (skippedRows.size > 3) break;
          previousBottom = bottom;
          continue;
        }
      } else {
        if (
          CONTACT.test(segment.text) ||
          DOMAIN.test(segment.text) ||
          EMAIL_LINKS.test(segment.text) ||
          TAX_LINE.test(segment.text) ||
          PHONE.test(segment.text) ||
          REGISTER_WORDS.test(segment.text)
        )
          break;
        // Past its first line, an address prints no labelled number ("ID. NO : 0001", a tax id misread);
        // its own line's label is no such ("PLZ und Ort: 28217 Bremen").
        if (LABELLED.test(bare.map((t) => t.text).join(' '))) break;
        // Nor a telephone's line under its letter ("T 0342 41 77 90", "F 030 555 0918").
        if (/^[TFM]\.?\s+[+(\d]/.test(segment.text) && (segment.text.match(/\d/g)?.length ?? 0) >= 6) break;
        // Nor a till's numbers ("ST# 03417  OP# 009112  TE# 14  TR# 02815": store, operator, terminal).
        if ((segment.text.match(/(?:^|\s)\p{L}{1,4}#/gu)?.length ?? 0) >= 2) break;
        // A line of place names alone ("MID CITY", "KUALA LUMPUR") continues an address.
        // (OCR reads an I as `!` or `|`: `MURN!`, `MURN|`.) One line OCR garbled between two
        // address lines ("(J) UL3/X, SEPIA ALA,") is the address's when an address line follows it.
        // A line of words is a place's name only in capitals ("Report a lost item" is none).
        const lowerWords = segment.tokens.filter((t) => /^\p{Ll}/u.test(t.text) && t.text.length > 3).length;
        if (!address && (!/^[\p{L}\s.,'!|-]+$/u.test(segment.text) || lowerWords > 0)) {
          if (pending) break;
          pending = segment.tokens;
          previousBottom = bottom;
          continue;
        }
        // A line of words alone is a place name only if nothing earlier looked like a company; one with
        // a business word ("Market Harborough") is the address's only when an address line follows it.
        if (!address && hasLegalForm(segment.tokens) >= 0) break;
        if (!address && segment.tokens.some((t) => COMPANY.has(t.key))) {
          // (Not a phrase that a lower-case word starts: "at Riverside Saturday Market".)
          if (pending || !/^\p{Lu}/u.test(segment.text)) break;
          pending = segment.tokens;
          previousBottom = bottom;
          continue;
        }
        if (pending) {
          if (!address) break;
          parts.push(pending);
          pending = undefined;
        }
      }
      parts.push(segment.tokens);
      previousBottom = Math.max(...segment.tokens.map((t) => t.box.y1));
      if (parts.length >= 6) break;
    }
  }
  if (parts.length === 0) return [];
  const text = parts
    .map((p) => withoutLineLabel(withoutAddressLabel(p)))
    .filter((p) => p.length > 0)
    .map((p) =>
      p
        .map((t) => t.text)
        .join(' ')
        .replace(/[,\s]+$/u, ''),
    )
    .join(', ');
  const value = normaliseText(text);
  return [
    {
      value,
      norm: value,
      quality: 1,
      tokens: parts.flat(),
      score: Math.min(1, 0.3 + 0.5 * nameScore + 0.05 * Math.min(parts.length, 3)),
      source: 'after-name',
    },
  ];
}

/** A page's word before its number. */
const PAGE_WORD = /^(page|seite|pagina|página|sida|side|strana|sivu)$/i;

/** Words of the labels of an address's lines ("Straße:", "PLZ / Ort", "Post code / City", "Country"). */
const ADDRESS_LABEL_WORDS: ReadonlySet<string> = new Set(
  (
    'address addr adresse anschrift straße strasse street plz ort postcode post postal code zip city town ' +
    'indirizzo comune cap dirección direccion domicilio código codigo ciudad población poblacion adres ' +
    'plaats woonplaats postnummer postort osoite ulica miejscowość morada localidade country land pays ' +
    'paese nazione país pais staat und and et y e line'
  ).split(' '),
);

/** A label of an address's line: every word of it an address word. */
function isAddressLabel(tokens: readonly ViewToken[]): boolean {
  const words = labelWordsOf(tokens).split(' ').filter(Boolean);
  return words.length > 0 && words.every((w) => ADDRESS_LABEL_WORDS.has(w));
}

/** A label's words, its term codes, colon and marks left out ("PLZ / Ort (BT-38 / BT-37):" -> "plz ort"). */
function labelWordsOf(tokens: readonly ViewToken[]): string {
  return withoutTermCodes(tokens)
    .replace(/[^\p{L}\s]/gu, ' ')
    .replace(/\bb[tg]\b/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/** A segment cut to `tokens` of it. */
function segmentOf(segment: Segment, tokens: ViewToken[]): Segment {
  const text = tokens.map((t) => t.text).join(' ');
  return { ...segment, tokens, text, key: text.toLowerCase() };
}

/** A segment's words up to the first colon (its label), or all of them. */
function upToColon(tokens: readonly ViewToken[]): readonly ViewToken[] {
  const colon = tokens.findIndex((t) => t.text.endsWith(':'));
  return colon < 0 ? tokens : tokens.slice(0, colon + 1);
}

/** A line's tokens without an address label before a colon ("PLZ und Ort: 28217 Bremen"). */
function withoutAddressLabel(tokens: ViewToken[]): ViewToken[] {
  const colon = tokens.slice(0, 4).findIndex((t) => t.text.endsWith(':'));
  if (colon < 0) return tokens;
  return isAddressLabel(tokens.slice(0, colon + 1)) ? tokens.slice(colon + 1) : tokens;
}

/**
 * An address line without the label an e-invoice viewer prints before it ("PLZ / Ort (BT-38 / BT-37):
 * 04155 Leipzig"): the words up to a colon, when they name a term code or a line of an address.
 */
function withoutLineLabel(tokens: ViewToken[]): ViewToken[] {
  // Words up to a term code, with or without a colon: "Straße (BT-35)  Hafenstraße 31".
  const code = tokens.slice(0, 8).findLastIndex((t) => isTermCode(t.text));
  if (code >= 0) return tokens.slice(code + 1).filter((t, i) => i > 0 || t.text !== ':');
  const colon = tokens.slice(0, 8).findIndex((t) => t.text.endsWith(':'));
  if (colon < 0 || colon === tokens.length - 1) return tokens;
  const label = tokens.slice(0, colon + 1);
  const named =
    label.some((t) => /^\(?B[TG]-\d+/.test(t.text)) ||
    OTHER_LINE_LABEL.test(label.map((t) => t.key).join(' '));
  return named ? tokens.slice(colon + 1) : tokens;
}

/** Headings of the other parties' blocks, beside the customer's in a row of headings. */
const OTHER_PARTY_HEADING =
  /^(ship(ping)? to|deliver(y)? (to|address)|delivered to|lieferanschrift|lieferadresse|adresse de livraison|livr[ée] à|afleveradres|dirección de envío|indirizzo di consegna|sold by|remit to|seller|vendor)\b/i;

/** Label sets whose labels head other columns of a row of headings. */
const OTHER_HEADINGS = ['referenceNo', 'purchaseOrderNo', 'date', 'dueDate', 'supplierTaxId'] as const;

/** The customer's labels, strong ones only (label sets are constants: matched once per document). */
const CUSTOMER_LABELS: LabelSet = {
  strong: LABELS.customerName!.strong,
  not: LABELS.customerName!.not ?? [],
};
/** A name: a few words starting with a capital or digit, not a sentence or a contact line. */
function isNameLike(text: string, tokens?: readonly ViewToken[]): boolean {
  const words = text.trim().split(/\s+/);
  // A company's name with its legal form may be longer ("Ferramenta Gallo S.a.s. di Gallo Piero & C.").
  const most = tokens && hasLegalForm(tokens) >= 0 ? 10 : 7;
  return (
    words.length <= most &&
    /^[\p{Lu}\p{N}]/u.test(text.trim()) &&
    letterShare(text) > 0.6 &&
    !CONTACT.test(text)
  );
}

/**
 * A label that ends its line or its column's part of it ("Verkäufer" with "Käufer" far to its right,
 * over two blocks side by side): a heading over what is under it.
 */
function endsItsColumn(view: DocumentView, hit: LabelHit): boolean {
  // (A colon set apart is the label's own: "Sold By :".)
  let end = hit.end;
  while (end < hit.row.tokens.length && /^[:：]$/.test(hit.row.tokens[end]!.text)) end++;
  const next = hit.row.tokens[end];
  if (!next) return true;
  const last = hit.row.tokens[end - 1]!;
  return (next.u.x0 - last.u.x1) / Math.max(hit.row.height, view.bodyHeight) > SEGMENT_GAP;
}

/**
 * The first word of the label's part of its row: the column's left edge, which the lines under the
 * label share ("Facturer à / Bill to" over the name: the label found is "Bill to").
 */
function columnStart(view: DocumentView, hit: LabelHit): ViewToken {
  const height = Math.max(hit.row.height, view.bodyHeight);
  let start = hit.start;
  while (start > 0) {
    const before = hit.row.tokens[start - 1]!;
    if ((hit.row.tokens[start]!.u.x0 - before.u.x1) / height > SEGMENT_GAP) break;
    start--;
  }
  return hit.row.tokens[start]!;
}

/** A label at the start of its row or of its column's part of it (a wide gap before it). */
function startsItsColumn(view: DocumentView, hit: LabelHit): boolean {
  const before = hit.row.tokens[hit.start - 1];
  if (!before) return true;
  const first = hit.row.tokens[hit.start]!;
  return (first.u.x0 - before.u.x1) / Math.max(hit.row.height, view.bodyHeight) > SEGMENT_GAP;
}

/** Labels of a party's name inside its block: "Firmenname: ACME GmbH", "Company name: ...". */
const NAME_LABEL =
  /^(name|company|company name|business name|firma|firmenname|name der firma|raison sociale|nom|dénomination|denomination|naam|bedrijfsnaam|empresa|razón social|razon social|nombre|ragione sociale|denominazione|nazwa|nazwa firmy|naziv|név|nev|megnevezés|denumire|denumirea|nimi|navn|namn|názov|nazov|název|nazev|pavadinimas|nosaukums|nimetus)$/;

/**
 * A line under a party's heading that prints its name after a label of names ("Firmenname: Kunden AG
 * Mitte"): the name, as a segment of its own.
 */
function labelledName(segment: Segment): Segment | undefined {
  // "Name  Wasserzweckverband Obere Lauter", "Name (BT-44)  Sportcentrum": a label in a column of
  // labels, its value the next words on the row (up to a wide gap: another column's label).
  if (segment.rest.length > 0 && NAME_LABEL.test(withoutTermCodes(segment.tokens))) {
    const tokens: ViewToken[] = [];
    for (const t of segment.rest) {
      const previous = tokens[tokens.length - 1];
      if (previous && t.box.x0 - previous.box.x1 > 4 * previous.height) break;
      tokens.push(t);
    }
    return { ...segmentOf(segment, tokens), rest: [] };
  }
  const colon = segment.tokens.findIndex((t) => t.text.endsWith(':'));
  if (colon < 0 || colon === segment.tokens.length - 1) return undefined;
  const label = segment.tokens
    .slice(0, colon + 1)
    .map((t) => t.key)
    .join(' ');
  if (!NAME_LABEL.test(label)) return undefined;
  return segmentOf(segment, segment.tokens.slice(colon + 1));
}

/**
 * The name-like line over a label in its column: the first line of the block the label closes, up
 * through its address lines ("Messrs. / Jade Lantern Ltd / G/F, 88 Wellington Street / Central, Hong
 * Kong / Attn: ..."), each within a line and a half of the next. A line under an address line is one
 * too (a town without a postcode).
 */
function companyAbove(view: DocumentView, segments: Segment[], label: ViewToken): Segment | undefined {
  const gap = 1.5 * Math.max(label.height, view.bodyHeight);
  const block: Segment[] = [];
  let top: Pick<ViewToken, 'box'> = label;
  while (block.length < 5) {
    const above = segments
      .filter(
        (s) =>
          s.tokens[0]!.box.y1 <= top.box.y0 + 0.002 &&
          top.box.y0 - s.tokens[0]!.box.y1 < gap &&
          Math.abs(s.tokens[0]!.box.x0 - label.box.x0) < 0.02,
      )
      .pop();
    if (!above) break;
    block.push(above);
    top = above.tokens[0]!;
  }
  for (const [i, line] of block.entries()) {
    const next = block[i + 1];
    if (isStreetLine(line) || (next && isStreetLine(next) && hasLegalForm(line.tokens) < 0)) continue;
    return isNameLike(line.text, line.tokens) ? line : undefined;
  }
  return undefined;
}

/** A label's words without the term codes of e-invoice renderings ("Name (BT-44)") and its colon. */
function withoutTermCodes(tokens: readonly ViewToken[]): string {
  return tokens
    .filter((t) => !isTermCode(t.text) && !/^\(B[TG]-\d+/.test(t.text))
    .map((t) => t.key)
    .join(' ');
}

/** Words of the labels of a party's other lines ("Käuferreferenz", "Straße", "PLZ / Ort", "Kontakt"). */
const OTHER_LINE_LABEL =
  /(referenz|reference|straße|strasse|street|address|adresse|anschrift|\bplz\b|\bort\b|\bland\b|\bcountry\b|\bcity\b|postcode|\bzip\b|phone|telefon|e-?mail|kontakt|contact|register|nummer|number|\bid\b|identifier|\bvat\b|\bust\b|\btax\b|\bdate\b|datum)/;

/** The first name-like segment in the few lines under a label, passing "Nummer : 123"-like lines. */
function nameBelow(
  view: DocumentView,
  segments: Segment[],
  label: ViewToken,
  /** Where the next column's heading starts: words from there on are that column's. */
  columnEnd = Infinity,
): Segment | undefined {
  // (Cut where a gap wider than a space leaves off under the next heading; a name running on
  // under it, its words a space apart, stays whole: "Kelkar Electricals & Appliances".)
  const gapBefore = (tokens: readonly ViewToken[], i: number): number =>
    i === 0
      ? Infinity
      : (tokens[i]!.u.x0 - tokens[i - 1]!.u.x1) / Math.max(tokens[i]!.height, view.bodyHeight);
  const under = segments
    .map((s) => {
      const cut = s.tokens.findIndex((t, i) => t.box.x0 >= columnEnd - 0.002 && gapBefore(s.tokens, i) > 1.5);
      const own = cut < 0 ? s.tokens : s.tokens.slice(0, cut);
      return own.length === s.tokens.length || own.length === 0 ? s : segmentOf(s, own);
    })
    .filter(
      (s) =>
        s.tokens[0]!.box.y0 > label.box.y1 - 0.002 &&
        Math.abs(s.tokens[0]!.box.x0 - label.box.x0) < 0.08 &&
        s.tokens[0]!.box.y0 - label.box.y1 < 0.06,
    );
  for (const segment of under.slice(0, 3)) {
    const named = labelledName(segment);
    if (named) return isNameLike(named.text, named.tokens) ? named : undefined;
    // A labelled line ("Nummer : 12345676") is passed, whatever the gap left between its parts; a
    // label of another column on the same row ("Invoice No.: 123" beside the name) is not this line's.
    if (segment.text.includes(':') || segment.rest[0]?.text.startsWith(':')) continue;
    // So is a number's label with its value in another column ("Reg. No.   123-45-67890").
    if (/\b(no|nr|nº|n°)\.?$/i.test(segment.text.trim())) continue;
    // A label beside its value in a column of labels ("Käuferreferenz  073350001", "Straße  ...").
    if (segment.rest.length > 0 && segment.tokens.length <= 3 && OTHER_LINE_LABEL.test(segment.key)) continue;
    return isNameLike(segment.text, segment.tokens) ? segment : undefined;
  }
  return undefined;
}

/** A money amount printed with its cents ("1.236,00", "$9,600.00"). */
const MONEY = /\d[.,]\d{2}\b/;

/** The rest of a segment's row starts after a wide gap: another column's, not this line's. */
function apartFromRest(view: DocumentView, segment: Segment): boolean {
  const last = segment.tokens[segment.tokens.length - 1]!;
  const next = segment.rest[0];
  if (!next) return true;
  const height = Math.max(view.rows[last.row]!.height, view.bodyHeight);
  return (next.u.x0 - last.u.x1) / height > SEGMENT_GAP;
}

/** Labels of other blocks: rows of headings, and every label's words. */
interface Labelled {
  rows: ReadonlySet<number>;
  tokens: ReadonlySet<number>;
}

/**
 * A name-like line in the upper half of the first page, below the supplier's name, that starts a block
 * of its column with a street under it: the recipient of a letter.
 */
/** The headings of a party's block, as token keys: no name. */
const PARTY_HEADINGS: ReadonlySet<string> = new Set(
  [...LABELS.supplier!.strong, ...LABELS.customerName!.strong].map((label) =>
    label
      .split(/\s+/)
      .map((w) => keyOf(w))
      .filter(Boolean)
      .join(' '),
  ),
);

/** A salutation printed alone over the recipient's name in a letter's address ("Herrn", "Firma", "Mme"). */
const SALUTATION_LINE =
  /^(herrn?|frau|firma|fa\.|mr\.?|mrs\.?|ms\.?|messrs\.?|monsieur|madame|mme|m\.|dhr\.?|mevr\.?|sig\.?|sig\.ra|spett\.le|sr\.?|sra\.?)$/i;

/**
 * A department, an attention or a confidentiality line over the recipient's name in a letter's address
 * ("The Accounts Department", "Accounts Payable", "Buchhaltung", "Attn: Trust Accounts", "PRIVATE &
 * CONFIDENTIAL", "The Finance Director"): the name is under it.
 */
const ATTENTION_LINE =
  /^(?:(?:the\s+)?(?:accounts?|finance|purchasing|procurement)(?:\s+(?:payable|department|dept\.?|team|office))?|buchhaltung|kreditorenbuchhaltung|rechnungseingang|einkauf|comptabilit[ée](?:\s+fournisseurs)?|service\s+comptable|contabilidad|amministrazione|boekhouding|crediteurenadministratie|ostoreskontra|(?:attn|attention|z\.\s?hd\.?|zhd\.?|à l'attention de)\b.*|(?:(?:private|strictly private)\s*(?:&|and)\s*)?confidential|(?:the\s+)?(?:finance|financial|managing|accounts|purchasing)\s+(?:director|manager|controller|officer)|the\s+(?:directors?|partners|proprietor|owner|manager))$/i;

const NUMERIC_DATE = /^\d{1,2}[./-]\d{1,2}[./-]\d{2,4}$/;

function unlabelledRecipient(
  view: DocumentView,
  segments: Segment[],
  supplier: Segment,
  labelled: Labelled,
): Segment | undefined {
  const supplierKey = normaliseText(supplier.key);
  const supplierTop = supplier.tokens[0]!.box.y0;
  for (const [i, segment] of segments.entries()) {
    const box = segment.tokens[0]!.box;
    if (box.y0 <= supplierTop + 0.01 || box.y0 > 0.5) continue;
    if (segment.order === supplier.order || normaliseText(segment.key) === supplierKey) continue;
    // The supplier's full name under its logo ("GREENLINE" over "Greenline Landscape Services LLC").
    // (Or a short logo's words, whole: "DAR ZITOUN" over "Dar Zitoun Traiteur SARL".)
    const logoWord = supplierKey.split(' ')[0]!;
    // (Its legal form may come first: "SARL Moreau Plomberie Chauffage" under "MOREAU".)
    const key = normaliseText(segment.key).replace(/^(?:sarl|sas|sasu|eurl|sa|s\.c\.|pt|cv)\s+/, '');
    if ((logoWord.length >= 4 && key.startsWith(`${logoWord} `)) || key.startsWith(`${supplierKey} `))
      continue;
    // (A company's name may hold an address word: "Brouwerij De Kade B.V.", kade a quay.)
    if (!isNameLike(segment.text) || isStreetLine(segment) || NOT_A_NAME.test(segment.text)) continue;
    // (The rest of its line cut off by a mark is a sender's line, "Supplier GmbH · Street 1"; by a wide
    // gap, another column's: "Ms Eleanor Whitcombe        Invoice no. 10927".)
    if (segment.text.includes(':') || (segment.rest.length > 0 && !apartFromRest(view, segment))) continue;
    // A label, or a row of headings ("INVOICE NO.  DATE  DUE DATE  TERMS"): no block starts there.
    if (segment.tokens.some((t) => labelled.rows.has(t.row) || labelled.tokens.has(t.id))) continue;
    // A block starts its line or its column: the last piece of a tagline ("Design · Digital"), cut
    // from the words before it by a mark, is none.
    const x0 = segment.tokens[0]!.u.x0;
    if (
      segments.some(
        (o) =>
          o.order < segment.order &&
          o.tokens[0]!.row === segment.tokens[0]!.row &&
          x0 - o.tokens[o.tokens.length - 1]!.u.x1 <
            3 * Math.max(o.tokens[0]!.height, segment.tokens[0]!.height),
      )
    )
      continue;
    const height = segment.tokens[0]!.box.y1 - box.y0;
    // Its street within three lines (a department and a contact person may come between), each right
    // under the last.
    const column = segments
      .slice(i + 1)
      .filter((s) => Math.abs(s.tokens[0]!.box.x0 - box.x0) < 0.02 && s.tokens[0]!.box.y0 > box.y1 - 0.002)
      .slice(0, 3);
    let bottom = box.y1;
    let street = false;
    for (const line of column) {
      if (line.tokens[0]!.box.y0 - bottom > 1.5 * height) break;
      // (A table's first row under its headings, "1  Finanzbuchhaltung 01-03/2025  1.236,00", is none.)
      // (Another column's date beside it, "Postboks 214      Fakturadato 11.03.2024", is no amount.)
      if (isAddressLine(line) && !line.rest.some((t) => MONEY.test(t.text) && !NUMERIC_DATE.test(t.text))) {
        street = true;
        break;
      }
      bottom = line.tokens[0]!.box.y1;
    }
    if (!street) continue;
    // A block starts here: a line right above it in its column makes it a later line of another block
    // (the supplier's street under its name).
    const above = segments
      .slice(0, i)
      .reverse()
      .find((s) => Math.abs(s.tokens[0]!.box.x0 - box.x0) < 0.02);
    if (above && box.y0 - above.tokens[0]!.box.y1 < 1.5 * height) continue;
    // A salutation alone on its line ("Herrn" over "Dr. Stefan Brandl"), or a department's or an
    // attention line: the name is the next line.
    if (SALUTATION_LINE.test(segment.text.trim()) || ATTENTION_LINE.test(segment.text.trim())) {
      // (Several such lines may stand over the name: "PRIVATE & CONFIDENTIAL", "The Finance Director".)
      const name = column.find(
        (line) => !SALUTATION_LINE.test(line.text.trim()) && !ATTENTION_LINE.test(line.text.trim()),
      );
      return name && isNameLike(name.text) && !/\d/.test(name.text) ? name : undefined;
    }
    return segment;
  }
  return undefined;
}

/**
 * A recipient's name and the short line right under it that ends in a legal form, as one name ("Kanzlei
 * Mag. Reisinger & Partner" over "Rechtsanwälte OG"). Austria's "OG" counts only as a line's last word
 * (it is "and" in Danish and Norwegian names).
 */
function withLegalLine(segments: readonly Segment[], name: Segment): Segment {
  if (hasLegalForm(name.tokens) >= 0) return name;
  const box = name.tokens[0]!.box;
  const height = box.y1 - box.y0;
  const next = segments.find(
    (s) =>
      s.order > name.order &&
      Math.abs(s.tokens[0]!.box.x0 - box.x0) < 0.02 &&
      s.tokens[0]!.box.y0 > box.y1 - 0.002 &&
      s.tokens[0]!.box.y0 - box.y1 < 1.5 * height,
  );
  if (!next || next.tokens.length > 3) return name;
  const last = next.tokens.length - 1;
  if (!isLegalAt(next.tokens, last) && next.tokens[last]!.key !== 'og') return name;
  return segmentOf(name, [...name.tokens, ...next.tokens]);
}

/** A name the customer finder proposes: the printed words, cleaned, with their tokens. */
function nameCandidate(text: string, tokens: ViewToken[], score: number, source: string): Candidate {
  // A name of two words or more printed twice side by side (the billing and the delivery address's
  // columns close together, "Järvi-Suomen Leipomo Oy   Järvi-Suomen Leipomo Oy") is one name ("Bora
  // Bora" is a name).
  const half = tokens.length / 2;
  if (
    tokens.length >= 4 &&
    Number.isInteger(half) &&
    tokens.slice(0, half).every((t, i) => t.text === tokens[half + i]!.text)
  ) {
    const first = tokens.slice(0, half);
    return nameCandidate(first.map((t) => t.text).join(' '), first, score, source);
  }
  const value = normaliseText(text);
  return { value, norm: value, quality: 1, tokens, score, source };
}

function findCustomer(view: DocumentView, segments: Segment[], supplier: Segment | undefined): Candidate[] {
  const out: Candidate[] = [];
  // "Customer VAT Number", "Customer reference", "Kundennummer": labels of other things.
  const notAName =
    /^(vat|tax|number|no|nr|id|tva|ref|reference|code|nummer|account|order|gln|service|care|support|portal|since)$/;
  const labelWords = (hits: readonly LabelHit[]): number[] =>
    hits.flatMap((hit) => hit.row.tokens.slice(hit.start, hit.end).map((t) => t.id));
  /** The labels of other fields: a row of headings (number, date, order, due date). */
  const otherLabelHits = OTHER_HEADINGS.flatMap((set) => findLabels(view, LABELS[set]!));
  const otherLabels = new Set(labelWords(otherLabelHits));
  // Labels of other blocks: their words, the rows of parties' headings ("Customer   Deliver to") and
  // the rows that hold two or more other labels ("INVOICE NO.  DATE  TERMS"). One such label on a row
  // is another column's ("Invoice no." right of the recipient's name).
  const partyLabels = ['supplier', 'customerName'].flatMap((set) =>
    findLabels(view, LABELS[set]!).filter((hit) => hit.phrase !== 'to'),
  );
  const partyWords = new Set(labelWords(partyLabels));
  const hitsPerRow = new Map<number, number>();
  for (const hit of otherLabelHits) hitsPerRow.set(hit.row.index, (hitsPerRow.get(hit.row.index) ?? 0) + 1);
  const labelled: Labelled = {
    rows: new Set([
      ...partyLabels.map((hit) => hit.row.index),
      ...[...hitsPerRow].filter(([, n]) => n >= 2).map(([row]) => row),
    ]),
    tokens: new Set([...partyWords, ...otherLabels]),
  };
  for (const hit of findLabels(view, CUSTOMER_LABELS)) {
    // (The word right after the label, not another column's: "Invoice to        Service address".)
    const after = hit.row.tokens[hit.end];
    const adjacent =
      after !== undefined &&
      (after.u.x0 - hit.row.tokens[hit.end - 1]!.u.x1) / Math.max(hit.row.height, view.bodyHeight) <
        SEGMENT_GAP;
    if (adjacent && notAName.test(after.key)) continue;
    // "To" is a word of sentences: a label only as "To:" starting its column ("From: ...  To: ...").
    if (hit.phrase === 'to' && !(hit.row.tokens[hit.start]!.text.endsWith(':') && startsItsColumn(view, hit)))
      continue;
    // The words right of the label on its row, up to the next wide gap (another column's text).
    const sameLine: ViewToken[] = [];
    const rowHeight = Math.max(hit.row.height, view.bodyHeight);
    for (const t of hit.row.tokens.slice(hit.end)) {
      if (/^[:#-]+$/.test(t.text)) continue;
      const previous = sameLine[sameLine.length - 1];
      const gap = (t.u.x0 - (previous ? previous.u.x1 : hit.box.x1)) / rowHeight;
      if (gap > (previous ? 2 : 15)) break;
      sameLine.push(t);
    }
    const weak = WEAK_CUSTOMER_LABELS.has(hit.phrase);
    const strength = weak ? 0.5 : 1;
    // "Attention: Building Manager" names a person at the customer: the customer is the name on the
    // line right above, in its block ("Bayview Strata Management").
    if (ATTENTION_LABELS.has(hit.phrase)) {
      const above = companyAbove(view, segments, hit.row.tokens[hit.start]!);
      if (above) {
        out.push(nameCandidate(above.text, above.tokens, 0.65, 'above-attention'));
      }
    }
    // Beside it another column's heading in a row of headings ("N° client  Votre bon de commande"):
    // the value is below, not there.
    // So is a party's heading beside it ("BILL TO   SHIP TO", "Billing address   Delivery address").
    const partyHeading =
      sameLine.some((t) => partyWords.has(t.id)) ||
      OTHER_PARTY_HEADING.test(sameLine.map((t) => t.text).join(' '));
    const heading = partyHeading || sameLine.some((t) => otherLabels.has(t.id));
    if (!heading && sameLine.length > 0 && isNameLike(sameLine.map((t) => t.text).join(' '))) {
      out.push(
        nameCandidate(sameLine.map((t) => t.text).join(' '), sameLine, 0.75 * strength, 'label-right'),
      );
      continue;
    }
    // (A party's heading further right on the row, "Invoice To:  ...  Deliver To:", ends the column
    // too: its name may be printed again under it.)
    const rest = hit.row.tokens.slice(hit.end);
    const farHeading = rest.find(
      (t, i) =>
        partyWords.has(t.id) ||
        OTHER_PARTY_HEADING.test(
          rest
            .slice(i, i + 3)
            .map((x) => x.text)
            .join(' '),
        ),
    );
    const below = nameBelow(
      view,
      segments,
      columnStart(view, hit),
      partyHeading ? sameLine[0]!.box.x0 : (farHeading?.box.x0 ?? Infinity),
    );
    if (below && isNameLike(below.text, below.tokens)) {
      out.push(nameCandidate(below.text, below.tokens, 0.7 * strength, 'label-below'));
    }
  }
  // No label: the recipient's block of a letter, a name over its street and town in the upper half of
  // the first page, under the supplier's name and apart from it.
  if (supplier) {
    const recipient = unlabelledRecipient(view, segments, supplier, labelled);
    if (recipient) {
      const whole = withLegalLine(segments, recipient);
      out.push(nameCandidate(whole.text, whole.tokens, 0.45, 'recipient-block'));
    }
  }
  // Letters with a window: a small sender line ("Supplier GmbH ● Street 1 ● City") over the recipient.
  if (supplier) {
    // (In the head of the page: the footer repeats the name over its registration lines.)
    // (Its parts set off by bullets, or by commas: "Name GmbH, Street 1, 22089 Hamburg".)
    // (In small print: a logo's word over the company's slogan, "NORDHAFEN" over "SPEDITION · SEA ·
    // AIR", is none.)
    const senderLines = segments.filter(
      (s) =>
        (s.rest.length > 0 || (s.text.includes(',') && s.key.length > supplier.key.length + 8)) &&
        s.tokens[0]!.box.y0 < 0.5 &&
        s.order !== supplier.order &&
        Math.max(...s.tokens.map((t) => t.height)) <= 1.2 * view.bodyHeight &&
        normaliseText(s.key).startsWith(normaliseText(supplier.key).slice(0, 8)),
    );
    for (const senderLine of senderLines) {
      const box = senderLine.tokens[0]!.box;
      const next = segments.find(
        (s) =>
          s.tokens[0]!.box.y0 > box.y1 - 0.001 &&
          Math.abs(s.tokens[0]!.box.x0 - box.x0) < 0.06 &&
          s.tokens[0]!.box.y0 - box.y1 < 0.04 &&
          s.lineId !== senderLine.lineId,
      );
      // A salutation on a line of its own ("Herrn", "Firma"), a department or an attention line ("The
      // Accounts Department") is over the name: the line under it (past several such lines).
      const over = (s: Segment): boolean =>
        SALUTATION_LINE.test(s.text.trim()) || ATTENTION_LINE.test(s.text.trim());
      let named = next;
      while (named && over(named)) {
        const above = named;
        named = segments.find(
          (s) =>
            s.order > above.order &&
            Math.abs(s.tokens[0]!.box.x0 - above.tokens[0]!.box.x0) < 0.02 &&
            s.tokens[0]!.box.y0 - above.tokens[0]!.box.y1 < 0.03,
        );
      }
      if (named && isNameLike(named.text) && !isStreetLine(named)) {
        const whole = withLegalLine(segments, named);
        out.push(nameCandidate(whole.text, whole.tokens, 0.55, 'window-address'));
        break;
      }
    }
  }
  return out.sort((a, b) => b.score - a.score);
}
