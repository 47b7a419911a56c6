/**
 * The parts of learning from review on generated documents: recognising a supplier, what one reviewed
 * document teaches, and how a memory joins an extraction (src/learning).
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { createEngine, type Engine } from '../../src/index.js';
import type { TokenLayer } from '../../src/core/types.js';
import { documentHints } from '../../src/extraction/hints.js';
import type { VerboseFieldResult } from '../../src/extraction/types.js';
import { createView, type DocumentView } from '../../src/extraction/view.js';
import { misreadWordForWord, sameNumbers, withSupplierMemory } from '../../src/learning/apply.js';
import { learnFromDocument, MAX_SEEN } from '../../src/learning/learn.js';
import { nameSimilarity, recogniseSupplier } from '../../src/learning/recognise.js';
import type { SupplierMemory } from '../../src/ports/supplier-memory-store.js';
import type { FieldDefinition, FieldKind } from '../../src/products/types.js';
import { INVOICE_LINES, makeTextPdf } from '../helpers/make-documents.js';
import { KESTREL_FIRST, KESTREL_SECOND, kestrelInvoice } from '../helpers/supplier-documents.js';

let engine: Engine;
const views = new Map<string, DocumentView>();

async function viewOf(bytes: Uint8Array): Promise<DocumentView> {
  const { fileId } = await engine.uploadV2(bytes);
  const layer: TokenLayer = await engine.ingest(fileId);
  return createView(layer);
}

beforeAll(async () => {
  engine = createEngine({ ingest: { ocr: 'never' } });
  views.set('first', await viewOf(await kestrelInvoice(KESTREL_FIRST)));
  views.set('second', await viewOf(await kestrelInvoice(KESTREL_SECOND)));
  views.set('other', await viewOf(await makeTextPdf([{ lines: INVOICE_LINES }])));
  views.set(
    'misread',
    await viewOf(
      await makeTextPdf([
        {
          lines: [
            { text: 'Kestrel Instrumcnts GmbH', x: 50, y: 60, size: 16 },
            { text: 'Rechnung 4711 vom 05.06.2024', x: 50, y: 120, size: 10 },
          ],
        },
      ]),
    ),
  );
  // A long name wrapped over three lines, and a name with a mark misread (`S/B` read `§/B`).
  views.set(
    'wrapped',
    await viewOf(
      await makeTextPdf([
        {
          lines: [
            { text: 'Lim Seng Hardware', x: 50, y: 60, size: 14 },
            { text: 'Enterprise (Bukit', x: 50, y: 78, size: 14 },
            { text: 'Jalil) Sdn Bhd 684215-U', x: 50, y: 96, size: 14 },
            { text: 'Tax invoice 4711 05.06.2024', x: 50, y: 140, size: 10 },
          ],
        },
      ]),
    ),
  );
  views.set(
    'mark',
    await viewOf(
      await makeTextPdf([
        {
          lines: [
            { text: "DUKE'S CONFECTIONERY \u00a7/B 815264-U (BPJ)", x: 50, y: 60, size: 12 },
            { text: 'Tax invoice 4711 05.06.2024', x: 50, y: 120, size: 10 },
          ],
        },
      ]),
    ),
  );
  // Two branches of one supplier, and the first branch again with its address misread.
  const branch = (address: string) =>
    makeTextPdf([
      {
        lines: [
          { text: 'Hock Seng Hardware Sdn Bhd', x: 50, y: 60, size: 14 },
          { text: address, x: 50, y: 80, size: 10 },
          { text: '46600 Seri Kembangan, Selangor', x: 50, y: 94, size: 10 },
          { text: 'GST ID: 001234567890', x: 50, y: 108, size: 10 },
          { text: 'Tax invoice 4711 05.06.2024', x: 50, y: 140, size: 10 },
        ],
      },
    ]);
  // Two shops of one industrial estate (their addresses a letter apart), and the first one's name misread.
  const estateShop = (name: string, lot: string) =>
    makeTextPdf([
      {
        lines: [
          { text: name, x: 50, y: 60, size: 14 },
          { text: `Lot ${lot}, Jalan Industri Jaya 3/2,`, x: 50, y: 80, size: 10 },
          { text: 'Taman Perindustrian Jaya Makmur,', x: 50, y: 94, size: 10 },
          { text: '43300 Seri Kembangan, Selangor', x: 50, y: 108, size: 10 },
          { text: 'Cash bill 4711 05.06.2024', x: 50, y: 140, size: 10 },
        ],
      },
    ]);
  views.set('estate-12', await viewOf(await estateShop('Tan Brothers Trading', '12')));
  views.set('estate-14', await viewOf(await estateShop('Sin Hock Hardware', '14')));
  views.set('estate-12-misread', await viewOf(await estateShop('TAN BROTHERS TRADlNG', '12')));
  // The Kestrel invoice with its name garbled past recognition (its tax id printed as ever).
  views.set(
    'garbled',
    await viewOf(
      await makeTextPdf([
        {
          lines: [
            { text: 'Kcstr3l lnstrurncnts GrnhH', x: 50, y: 60, size: 16 },
            { text: 'USt-IdNr. DE811907980', x: 50, y: 95, size: 10 },
            { text: 'Rechnung 4711 vom 05.06.2024', x: 50, y: 120, size: 10 },
          ],
        },
      ]),
    ),
  );
  views.set('branch-60', await viewOf(await branch('No. 60, Jalan PKM 23/22, Kawasan Perindustrian')));
  views.set('branch-38', await viewOf(await branch('No. 38, Jalan PKM 23/22, Taman Perindustrian')));
  views.set(
    'branch-60-misread',
    await viewOf(await branch('No. 6O, Jalan PKM 23/22, Kawasan Perindustrlan')),
  );
}, 60_000);
afterAll(() => engine.close());

const KINDS: Record<string, FieldKind> = {
  'document.referenceNo': 'reference',
  'document.supplierName': 'text',
  'document.supplierAddress': 'text',
  'document.supplierTaxId': 'taxId',
  'document.date': 'date',
  'invoice.subTotal': 'amount',
  'invoice.tax': 'amount',
  'invoice.total': 'amount',
  'invoice.lineitems': 'table',
};

function learn(view: DocumentView, values: Record<string, string | null>, memories: SupplierMemory[] = []) {
  return learnFromDocument(
    { view, hints: documentHints(view), values, kindOf: (name) => KINDS[name] },
    memories,
    { accountId: 'acme', now: new Date().toISOString(), newId: randomUUID },
  );
}

describe('what one reviewed document teaches', () => {
  it('each value with where it was printed and its label, the date order, never nulls or tables', () => {
    const { memory, isNew } = learn(views.get('first')!, {
      'document.referenceNo': 'XK-4411',
      'document.supplierName': 'Kestrel Instruments GmbH',
      'document.supplierTaxId': 'DE 811 907 980',
      'document.date': '2024-04-03',
      'invoice.tax': null,
      'invoice.lineitems': 'ignored',
    });
    expect(isNew).toBe(true);
    expect(memory).toMatchObject({ name: 'Kestrel Instruments GmbH', taxIds: ['DE811907980'], documents: 1 });
    // Printed `03.04.2024` for 3 April: day first.
    expect(memory.dateOrder).toBe('DMY');
    expect(Object.keys(memory.fields).sort()).toEqual([
      'document.date',
      'document.referenceNo',
      'document.supplierName',
      'document.supplierTaxId',
    ]);
    expect(memory.fields['document.referenceNo']!.seen[0]!.placement).toMatchObject({
      pageNum: 1,
      anchor: { words: 'beleg kennung', side: 'left' },
    });
    expect(memory.fingerprint).toContain('kestrel');
  });

  it('keeps values in the form extraction gives them; a value its kind cannot read teaches nothing', () => {
    const { memory } = learn(views.get('first')!, {
      'invoice.total': '1.250,00',
      'document.supplierTaxId': ' de 811 907 980 ',
      'document.date': 'not a date',
    });
    expect(memory.fields['invoice.total']!.seen[0]!.value).toBe('1250.00');
    expect(memory.fields['document.supplierTaxId']!.seen[0]!.value).toBe('DE811907980');
    expect(memory.fields['document.date']).toBeUndefined();
  });

  it('adds to the memory of the supplier it recognises, newest value first, a few at most', () => {
    let memories: SupplierMemory[] = [];
    for (let i = 0; i < MAX_SEEN + 2; i++) {
      const { memory } = learn(
        views.get(i % 2 ? 'second' : 'first')!,
        {
          'document.supplierTaxId': 'DE811907980',
          'document.referenceNo': `XK-${1000 + i}`,
        },
        memories,
      );
      memories = [memory];
    }
    const [memory] = memories;
    expect(memory!.documents).toBe(MAX_SEEN + 2);
    expect(memory!.fields['document.referenceNo']!.seen.map((s) => s.value)).toEqual(
      Array.from({ length: MAX_SEEN }, (_, i) => `XK-${1000 + MAX_SEEN + 1 - i}`),
    );
  });
});

describe('recognising a supplier', () => {
  const memory = (): SupplierMemory =>
    learn(views.get('first')!, {
      'document.supplierName': 'Kestrel Instruments GmbH',
      'document.supplierTaxId': 'DE811907980',
    }).memory;

  it('by a tax id printed in the document, by its name misread by a letter, never another supplier', () => {
    expect(recogniseSupplier(views.get('second')!, [memory()])).toMatchObject({ how: 'tax id', score: 1 });
    const byName = { ...memory(), taxIds: [] };
    expect(recogniseSupplier(views.get('misread')!, [byName])).toMatchObject({ how: 'name' });
    expect(recogniseSupplier(views.get('other')!, [memory()])).toBeUndefined();
    expect(recogniseSupplier(views.get('second')!, [])).toBeUndefined();
  });

  it('by a name wrapped over three lines, or printed with a mark misread', () => {
    const named = (name: string): SupplierMemory => ({ ...memory(), name, taxIds: [], fingerprint: [] });
    const limSeng = named('Lim Seng Hardware Enterprise (Bukit Jalil) Sdn Bhd');
    const dukes = named("DUKE'S CONFECTIONERY S/B");
    expect(nameSimilarity(views.get('wrapped')!, limSeng.name!)).toBeGreaterThanOrEqual(0.95);
    expect(recogniseSupplier(views.get('wrapped')!, [dukes, limSeng])).toMatchObject({
      how: 'name',
      memory: { name: limSeng.name },
    });
    expect(recogniseSupplier(views.get('mark')!, [limSeng, dukes])).toMatchObject({
      how: 'name',
      memory: { name: dukes.name },
    });
    // Neither is taken for the other, nor the Kestrel invoice for either.
    expect(recogniseSupplier(views.get('first')!, [limSeng, dukes])).toBeUndefined();
  });
});

describe('shops of one street', () => {
  const ADDRESS = (lot: string) =>
    `Lot ${lot}, Jalan Industri Jaya 3/2, Taman Perindustrian Jaya Makmur, 43300 Seri Kembangan, Selangor`;

  it("are told apart by name: a neighbour's review teaches a memory of its own", () => {
    const { memory: tan } = learn(views.get('estate-12')!, {
      'document.supplierName': 'Tan Brothers Trading',
      'document.supplierAddress': ADDRESS('12'),
    });
    // The neighbour's address is the first's a digit apart: recognised by it, yet reviewed as another name.
    expect(recogniseSupplier(views.get('estate-14')!, [tan])).toMatchObject({ how: 'address' });
    const { memory: sinHock, isNew } = learn(
      views.get('estate-14')!,
      { 'document.supplierName': 'Sin Hock Hardware', 'document.supplierAddress': ADDRESS('14') },
      [tan],
    );
    expect(isNew).toBe(true);
    expect(sinHock.supplierId).not.toBe(tan.supplierId);
    // The first shop's receipt, its name misread by a letter: its own memory, whichever comes first.
    for (const memories of [
      [sinHock, tan],
      [tan, sinHock],
    ]) {
      expect(recogniseSupplier(views.get('estate-12-misread')!, memories)).toMatchObject({
        how: 'name',
        memory: { name: 'Tan Brothers Trading' },
      });
    }
  });
});

describe('a memory joining an extraction', () => {
  const fields: FieldDefinition[] = [
    'invoice.subTotal',
    'invoice.tax',
    'invoice.total',
    'document.supplierName',
  ].map((name) => ({ name, kind: KINDS[name]! }));
  const result = (name: string, value: string | null, confidence: number): VerboseFieldResult => ({
    name,
    value,
    confidence,
    boundingBox: null,
    candidates: value ? [{ value, confidence, boundingBox: null, text: value }] : [],
  });

  it('never overrides amounts that add up; replaces a doubtful one the extraction also considered', () => {
    const view = views.get('second')!;
    // The reviewed total of the first document stood right of `Zu zahlen`: the second's is 980.40.
    const { memory } = learn(views.get('first')!, {
      'invoice.total': '1250.00',
      'document.supplierTaxId': 'DE811907980',
    });
    const recognition = recogniseSupplier(view, [memory])!;
    const addsUp = [
      result('invoice.subTotal', '100.00', 0.5),
      result('invoice.tax', '19.00', 0.5),
      result('invoice.total', '119.00', 0.5),
    ];
    const kept = withSupplierMemory(view, documentHints(view), fields, addsUp, recognition);
    expect(kept.find((r) => r.name === 'invoice.total')).toMatchObject({ value: '119.00', confidence: 0.5 });

    const doubtful = [
      result('invoice.subTotal', null, 0),
      result('invoice.tax', null, 0),
      {
        ...result('invoice.total', '119.00', 0.5),
        candidates: [
          { value: '119.00', confidence: 0.5, boundingBox: null, text: '119.00' },
          { value: '980.40', confidence: 0.3, boundingBox: null, text: '980,40' },
        ],
      },
    ];
    const replaced = withSupplierMemory(view, documentHints(view), fields, doubtful, recognition);
    const total = replaced.find((r) => r.name === 'invoice.total')!;
    expect(total).toMatchObject({ value: '980.40', learned: { how: 'label', documents: 1 } });
    expect(total.confidence).toBeGreaterThan(0.5);
    expect(total.boundingBox?.pageNum).toBe(1);
  });

  it("fills an empty field with the supplier's own value; agrees with a right one, raising its confidence", () => {
    const view = views.get('second')!;
    const { memory } = learn(views.get('first')!, {
      'document.supplierName': 'Kestrel Instruments GmbH',
      'document.supplierTaxId': 'DE811907980',
    });
    const recognition = recogniseSupplier(view, [memory])!;
    const empty = withSupplierMemory(
      view,
      documentHints(view),
      fields,
      [result('document.supplierName', null, 0)],
      recognition,
    );
    expect(empty[0]).toMatchObject({ value: 'Kestrel Instruments GmbH', learned: { how: 'value' } });
    const right = withSupplierMemory(
      view,
      documentHints(view),
      fields,
      [result('document.supplierName', 'Kestrel Instruments GmbH', 0.5)],
      recognition,
    );
    expect(right[0]!.value).toBe('Kestrel Instruments GmbH');
    expect(right[0]!.confidence).toBeGreaterThanOrEqual(0.9);
  });
});

describe('a name misread past recognition', () => {
  const NAME = 'document.supplierName';
  const fields: FieldDefinition[] = [
    { name: NAME, kind: 'text' },
    { name: 'document.customerName', kind: 'text' },
  ];
  const read = (value: string, customer: string | null = null): VerboseFieldResult[] => {
    const box = { pageNum: 1, topLeft: { x: 0.08, y: 0.06 }, bottomRight: { x: 0.5, y: 0.08 }, tokenIds: [] };
    return [
      { name: NAME, value, confidence: 0.5, boundingBox: box, text: value },
      { name: 'document.customerName', value: customer, confidence: customer ? 0.6 : 0, boundingBox: null },
    ].map((r) => ({ ...r, candidates: [] }));
  };
  const apply = (results: VerboseFieldResult[]) => {
    const view = views.get('garbled')!;
    const { memory } = learn(views.get('first')!, {
      [NAME]: 'Kestrel Instruments GmbH',
      'document.supplierTaxId': 'DE811907980',
    });
    const recognition = recogniseSupplier(view, [memory])!;
    expect(recognition.how).toBe('tax id');
    return withSupplierMemory(view, documentHints(view), fields, results, recognition)[0]!;
  };

  it('is the learned name, where the garbled one was read, from a supplier its tax id recognises', () => {
    const repaired = apply(read('Kcstr3l lnstrurncnts GrnhH'));
    expect(repaired).toMatchObject({ value: 'Kestrel Instruments GmbH', learned: { how: 'value' } });
    expect(repaired.boundingBox?.topLeft).toEqual({ x: 0.08, y: 0.06 });
    expect(repaired.confidence).toBeGreaterThan(0.5);
  });

  it('is the learned name over a confident reading of it misread letter by letter, not over a word more', () => {
    const { memory } = learn(views.get('estate-12')!, { [NAME]: 'Tan Brothers Trading' });
    const view = views.get('estate-12-misread')!;
    const recognition = recogniseSupplier(view, [memory])!;
    expect(recognition.how).toBe('name');
    const given = (value: string) =>
      withSupplierMemory(
        view,
        documentHints(view),
        fields,
        [{ ...read(value)[0]!, confidence: 0.99 }],
        recognition,
      )[0]!;
    expect(given('TAN BROTHERS TRADlNG')).toMatchObject({
      value: 'Tan Brothers Trading',
      learned: { how: 'value' },
    });
    expect(misreadWordForWord('CNE ONE THREE SEAFOOD', 'ONE ONE THREE SEAFOOD')).toBe(true);
    expect(misreadWordForWord('MR. D.I.Y. (M) SDN BHD', 'MR. D.I.Y. SDN BHD')).toBe(false);
    expect(misreadWordForWord('TAN BROTHERS TRADING', 'Tan Brothers Trading')).toBe(false);
    expect(misreadWordForWord('TAN BROTHERS HARDWARE', 'Tan Brothers Trading')).toBe(false);
  });

  it("is not: another company's name printed with that tax id, or the learned supplier as the buyer", () => {
    // Two companies printing one id (a sample id, a group's VAT number): the name printed stands.
    expect(apply(read('Taxiunternehmen Nord GmbH')).value).toBe('Taxiunternehmen Nord GmbH');
    // The learned supplier is this document's customer: another supplier's document, sent to it.
    const sentTo = apply(read('Kcstr3l lnstrurncnts GrnhH', 'Kestrel Instruments GmbH'));
    expect(sentTo.value).toBe('Kcstr3l lnstrurncnts GrnhH');
    expect(sentTo.learned).toBeUndefined();
  });
});

describe("another branch's address", () => {
  const ADDRESS = 'document.supplierAddress';
  const fields: FieldDefinition[] = [{ name: ADDRESS, kind: 'text' }];
  const printed = (view: DocumentView): VerboseFieldResult => ({
    name: ADDRESS,
    value: `${view.rows[1]!.tokens.map((t) => t.text).join(' ')}, 46600 Seri Kembangan, Selangor`,
    confidence: 0.6,
    boundingBox: null,
  });
  const learned = 'No. 60, Jalan PKM 23/22, Kawasan Perindustrian, 46600 Seri Kembangan, Selangor';

  it('is not taken for the learned one misread: numbers tell a branch from a misreading', () => {
    const { memory } = learn(views.get('branch-60')!, {
      [ADDRESS]: learned,
      'document.supplierTaxId': '001234567890',
    });
    const other = views.get('branch-38')!;
    const recognition = recogniseSupplier(other, [memory])!;
    expect(recognition).toBeDefined();
    const [kept] = withSupplierMemory(other, documentHints(other), fields, [printed(other)], recognition);
    expect(kept!.value).toBe(printed(other).value);
    expect(kept!.learned).toBeUndefined();
    // The same branch with letters misread: the learned address repairs it.
    const misread = views.get('branch-60-misread')!;
    const again = recogniseSupplier(misread, [memory])!;
    const [repaired] = withSupplierMemory(misread, documentHints(misread), fields, [printed(misread)], again);
    expect(repaired).toMatchObject({ value: learned, learned: { how: 'value' } });
  });

  it('numbers agree when each learned one is printed, one digit changed, added or dropped aside', () => {
    expect(sameNumbers('Lot 2746-A & 2746-B, 46600', 'LOT 2746-4 & 2726-B, 46600')).toBe(true);
    expect(sameNumbers('Unit G-3B, No 47, 50620 Kuala Lumpur', 'Unit G-38, dg 47, 0620 Kuala Lumpur')).toBe(
      true,
    );
    expect(sameNumbers('No. 60, Jalan PKM 23/22', 'No. 38, Jalan PKM 23/22')).toBe(false);
    expect(sameNumbers('Taman Kenangan 42260, 2272-TMN Sri Mawar', 'Taman Kenangan 42260, 2295-P')).toBe(
      false,
    );
  });
});

describe('credit notes and invoices of one supplier', () => {
  /** A document of the generated supplier: a credit note or an invoice, its balance under `Saldo`. */
  const documentOf = (title: string, balance: string) =>
    makeTextPdf([
      {
        lines: [
          { text: 'Kestrel Instruments GmbH', x: 50, y: 60, size: 16, bold: true },
          { text: 'USt-IdNr. DE811907980', x: 50, y: 80, size: 10 },
          { text: `${title} 4711 vom 05.06.2024`, x: 50, y: 140, size: 12 },
          { text: 'Messkopf Typ 4', x: 50, y: 220, size: 10 },
          { text: 'Saldo', x: 300, y: 400, size: 11 },
          { text: balance, x: 450, y: 400, size: 11 },
        ],
      },
    ]);
  const amountDue = async (bytes: Uint8Array, accountId: string) => {
    const { fileId } = await engine.uploadV2(bytes, { accountId });
    const { fields } = await engine.extract(fileId, ['invoices:2'], { accountId, verbose: true });
    return fields.find((f) => f.name === 'invoice.amountDue') as VerboseFieldResult;
  };

  it("follow a credit note's amount labels only on credit notes; its other cues on both", async () => {
    const accountId = 'credit-notes';
    const { fileId } = await engine.uploadV2(await documentOf('Gutschrift', '-120,00'), { accountId });
    await engine.learn(
      fileId,
      {
        'document.supplierName': 'Kestrel Instruments GmbH',
        'document.supplierTaxId': 'DE811907980',
        'invoice.amountDue': '-120.00',
      },
      { accountId },
    );
    const [memory] = await engine.listSuppliers({ accountId });
    const exported = await engine.exportSupplier(memory!.supplierId, { accountId });
    expect(exported.fields['invoice.amountDue']!.seen[0]).toMatchObject({ creditNote: true });
    const credit = await amountDue(await documentOf('Gutschrift', '-95,00'), accountId);
    expect(credit).toMatchObject({ value: '-95.00', learned: { how: 'label' } });
    // An invoice's `Saldo` is not what the credit note's was: the memory says nothing of it there.
    const invoice = await amountDue(await documentOf('Rechnung', '80,00'), accountId);
    expect(invoice?.learned).toBeUndefined();
    // The supplier's own values join both.
    const { fileId: invoiceId } = await engine.uploadV2(await documentOf('Rechnung', '80,00'), { accountId });
    const { fields } = await engine.extract(invoiceId, ['invoices:2'], { accountId, verbose: true });
    expect(fields.find((f) => f.name === 'document.supplierTaxId')).toMatchObject({
      value: 'DE811907980',
      learned: { how: 'value' },
    });
  });

  it('refuses an imported memory whose creditNote is not true', async () => {
    const accountId = 'credit-notes-import';
    const memory = {
      name: 'Kestrel Instruments GmbH',
      taxIds: [],
      ibans: [],
      fingerprint: [],
      documents: 1,
      fields: {
        'invoice.amountDue': {
          seen: [{ value: '1', placement: null, at: 'x', creditNote: 'yes' }],
          used: 0,
          right: 0,
        },
      },
    };
    await expect(engine.importSupplier(memory, { accountId })).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
    });
  });
});
