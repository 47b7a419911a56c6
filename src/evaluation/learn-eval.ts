import { readFileSync } from 'node:fs';
import path from 'node:path';

import { createMemoryPersistence } from '../adapters/persistence/memory-persistence.js';
import type { TokenLayer } from '../core/types.js';
import { createEngine } from '../engine.js';
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
  /** What was read from each later document after learning (by file), for `--out` and score.py. */
  laterAfter: Map<string, PredictedField[] | undefined>;
}

/** The account whose documents are read with nothing learned, and the one whose reviews teach. */
const BEFORE = 'before';
const AFTER = 'after';

/**
 * `npm run eval -- DIR --learn`: for each family with two or more documents, the first (by file name) is
 * reviewed with its ground truth, then the others are extracted; their accuracy before and after, and
 * the accuracy on the documents of the other families with all the memories learned (which must not
 * drop: a document of another supplier must not be taken for a known one).
 *
 * It runs through an engine of its own, as a host would: the documents are uploaded (their token layers,
 * read once into the corpus cache, stored beside them), the review is `engine.learn` with every reviewed
 * value (what completing the document's review task with those values teaches: the same code), the
 * memories live in the engine's persistence, and the later documents are read with `engine.extract`,
 * which recognises their supplier. The pictures of born-digital pages are not read again (the cached
 * layer has the words read when the corpus was evaluated).
 */
export async function evaluateLearning(
  dir: string,
  truths: GroundTruth[],
  layerOf: (file: string) => Promise<TokenLayer>,
  familyOf: (truth: GroundTruth) => string,
): Promise<LearningReport> {
  const persistence = createMemoryPersistence();
  const engine = createEngine({
    persistence,
    ingest: { ocr: 'never', pictureBudgetMs: 0 },
    limits: { maxFileBytes: 512 * 1024 * 1024, maxPages: 100 },
  });
  try {
    const families = new Map<string, GroundTruth[]>();
    for (const gt of [...truths].sort((a, b) => (a.file < b.file ? -1 : 1))) {
      families.set(familyOf(gt), [...(families.get(familyOf(gt)) ?? []), gt]);
    }
    /** The document stored in the account, with its token layer: nothing is read again. */
    const stored = async (gt: GroundTruth, accountId: string): Promise<string> => {
      const file = path.join(dir, gt.file);
      const { fileId } = await engine.upload(readFileSync(file), { accountId, enforcePageLimit: false });
      await persistence.putTokenLayer(accountId, fileId, await layerOf(file));
      return fileId;
    };
    const extract = async (gt: GroundTruth, accountId: string) => {
      const fileId = await stored(gt, accountId);
      const { fields } = await engine.extract(fileId, [productFor(gt.type)], { accountId, verbose: true });
      return fields.map((f): PredictedField & { learned?: unknown } => ({
        name: f.name,
        value: f.value,
        confidence: f.confidence,
        ...('learned' in f && f.learned ? { learned: f.learned } : {}),
      }));
    };
    const repeated = [...families.values()].filter((docs) => docs.length >= 2);
    const later = repeated.flatMap((docs) => docs.slice(1));
    const others = [...families.values()].filter((docs) => docs.length < 2).flat();
    const run = async (docs: GroundTruth[], accountId: string) => {
      const predictions = new Map<string, PredictedField[] | undefined>();
      let recognised = 0;
      for (const gt of docs) {
        const fields = await extract(gt, accountId);
        if (fields.some((f) => f.learned)) recognised++;
        predictions.set(gt.file, fields);
      }
      return { report: scoreCorpus(docs, predictions), recognised, predictions };
    };
    const laterBefore = await run(later, BEFORE);
    const othersBefore = await run(others, BEFORE);
    for (const [first] of repeated) {
      const values: Record<string, string | null> = {};
      for (const [key, name] of Object.entries(fieldMapFor(first!.type))) {
        const value = first!.fields[key];
        if (typeof value === 'string') values[name] = value;
      }
      await engine.learn(await stored(first!, AFTER), values, { accountId: AFTER });
    }
    const laterAfter = await run(later, AFTER);
    const othersAfter = await run(others, AFTER);
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
      laterAfter: laterAfter.predictions,
    };
  } finally {
    await engine.close();
  }
}
