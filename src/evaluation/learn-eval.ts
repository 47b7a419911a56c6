import { randomUUID } from 'node:crypto';
import path from 'node:path';

import type { TokenLayer } from '../core/types.js';
import type { Engine } from '../engine-types.js';
import { extractFields } from '../extraction/extract.js';
import { documentHints } from '../extraction/hints.js';
import { createView } from '../extraction/view.js';
import { learnFromDocument } from '../learning/learn.js';
import type { SupplierMemory } from '../ports/supplier-memory-store.js';
import type { FieldDefinition } from '../products/types.js';
import {
  fieldMapFor,
  productFor,
  scoreCorpus,
  type GroundTruth,
  type PredictedField,
  type ScoreReport,
} from './scoring.js';

export interface LearningReport {
  families: number;
  /** The later documents of families with two or more: before learning and after one reviewed document. */
  later: { before: ScoreReport; after: ScoreReport };
  /** Documents of the other families (nothing learned about them), with every family's memory present. */
  others: { before: ScoreReport; after: ScoreReport };
  /** Later documents recognised as their family's supplier, and documents of others recognised as anyone's. */
  recognised: { later: number; laterOf: number; others: number; othersOf: number };
}

/**
 * `npm run eval -- DIR --learn`: for each family with two or more documents, the first (by file name) is
 * reviewed with its ground truth (what completing its task does: `learnFromDocument`), then the others
 * are extracted; their accuracy before and after, and the accuracy on the documents of the other
 * families with all the memories learned (which must not drop: a document of another supplier must not
 * be taken for a known one). Pure functions over the cached token layers: nothing is stored.
 */
export async function evaluateLearning(
  engine: Engine,
  dir: string,
  truths: GroundTruth[],
  layerOf: (file: string) => Promise<TokenLayer>,
  familyOf: (truth: GroundTruth) => string,
): Promise<LearningReport> {
  const families = new Map<string, GroundTruth[]>();
  for (const gt of [...truths].sort((a, b) => (a.file < b.file ? -1 : 1))) {
    families.set(familyOf(gt), [...(families.get(familyOf(gt)) ?? []), gt]);
  }
  const fieldsOf = (gt: GroundTruth): FieldDefinition[] =>
    engine.catalogue.resolve([productFor(gt.type)]).fieldsets.flatMap((f) => f.fields);
  const extract = async (gt: GroundTruth, suppliers: SupplierMemory[]) => {
    const layer = await layerOf(path.join(dir, gt.file));
    const fields = extractFields(layer, { fields: fieldsOf(gt), suppliers });
    return fields.map((f): PredictedField & { learned?: unknown } => ({
      name: f.name,
      value: f.value,
      confidence: f.confidence,
      ...(f.learned ? { learned: f.learned } : {}),
    }));
  };
  let memories: SupplierMemory[] = [];
  const repeated = [...families.values()].filter((docs) => docs.length >= 2);
  for (const [first] of repeated) {
    const layer = await layerOf(path.join(dir, first!.file));
    const view = createView(layer);
    const fields = fieldsOf(first!);
    const kinds = new Map(fields.map((f) => [f.name, f.kind]));
    const values: Record<string, string | null> = {};
    for (const [key, name] of Object.entries(fieldMapFor(first!.type))) {
      const value = first!.fields[key];
      if (typeof value === 'string') values[name] = value;
    }
    const { memory, isNew } = learnFromDocument(
      { view, hints: documentHints(view), values, kindOf: (n) => kinds.get(n) },
      memories,
      { accountId: 'eval', now: new Date().toISOString(), newId: randomUUID },
    );
    memories = isNew
      ? [...memories, memory]
      : memories.map((m) => (m.supplierId === memory.supplierId ? memory : m));
  }
  const later = repeated.flatMap((docs) => docs.slice(1));
  const others = [...families.values()].filter((docs) => docs.length < 2).flat();
  const run = async (docs: GroundTruth[], suppliers: SupplierMemory[]) => {
    const predictions = new Map<string, PredictedField[] | undefined>();
    let recognised = 0;
    for (const gt of docs) {
      const fields = await extract(gt, suppliers);
      if (fields.some((f) => f.learned)) recognised++;
      predictions.set(gt.file, fields);
    }
    return { report: scoreCorpus(docs, predictions), recognised };
  };
  const laterBefore = await run(later, []);
  const laterAfter = await run(later, memories);
  const othersBefore = await run(others, []);
  const othersAfter = await run(others, memories);
  return {
    families: repeated.length,
    later: { before: laterBefore.report, after: laterAfter.report },
    others: { before: othersBefore.report, after: othersAfter.report },
    recognised: {
      later: laterAfter.recognised,
      laterOf: later.length,
      others: othersAfter.recognised,
      othersOf: others.length,
    },
  };
}
