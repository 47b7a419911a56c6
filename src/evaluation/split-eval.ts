import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Engine } from '../engine-types.js';
import type { ResultField } from '../extraction/types.js';
import { readGroundTruthFiles } from './corpus.js';
import { productFor, scoreCorpus, type GroundTruth, type PredictedField } from './scoring.js';

interface MultiTruth {
  file: string;
  type: 'multi';
  segments: Array<{ pages: [number, number]; gt: string; file?: string }>;
  smoke_only?: boolean;
}

export interface SplitReport {
  files: Array<{ file: string; want: Array<[number, number]>; got: Array<[number, number]>; exact: boolean }>;
  precision: number;
  recall: number;
  f1: number;
  exact: number;
  /** JSON lines in the format of `docex split` (what the reference scorer score_split.py reads). */
  lines: string[];
  /** Extraction on the children whose pages match a true segment, and on those documents alone. */
  children: { accuracy: number; fields: number };
  originals: { accuracy: number; fields: number };
}

/** Multi-document ground truths of a corpus, as score_split.py selects them (invoice_5p is a smoke test). */
export function multiTruths(dir: string): MultiTruth[] {
  return readGroundTruthFiles(dir).filter(
    (gt): gt is Record<string, unknown> & MultiTruth =>
      gt.type === 'multi' &&
      Array.isArray(gt.segments) &&
      gt.smoke_only !== true &&
      !String(gt.file).includes('invoice_5p'),
  );
}

const starts = (ranges: Array<[number, number]>): Set<number> =>
  new Set(ranges.map((r) => r[0]).filter((p) => p !== 1));

/**
 * Splits every multi-document file of the corpus with `svc.split`, scores the boundaries as
 * score_split.py does (precision, recall and F1 of document starts after page 1, files split exactly),
 * then extracts every child whose pages match a true segment and scores it against that segment's
 * ground truth, beside the same documents extracted alone.
 */
export async function evaluateSplit(
  engine: Engine,
  dir: string,
  upload: (file: string) => Promise<string>,
): Promise<SplitReport> {
  const truths = multiTruths(dir);
  let tp = 0;
  let fp = 0;
  let fn = 0;
  let exact = 0;
  const files: SplitReport['files'] = [];
  const lines: string[] = [];
  const childTruths: GroundTruth[] = [];
  const childPredictions = new Map<string, PredictedField[] | undefined>();
  const originalPredictions = new Map<string, PredictedField[] | undefined>();
  for (const truth of truths) {
    const fileId = await upload(path.join(dir, truth.file));
    await engine.invoke('svc.split', { inputs: { file_id: fileId } });
    const result = await engine.getResult(fileId, { timeoutMs: 300_000, verbose: true });
    const field =
      result.status === 'FINALISED'
        ? result.results.fields.find((f) => f.name === 'components.children')
        : undefined;
    const children = field && 'children' in field ? (field.children ?? []) : [];
    lines.push(JSON.stringify({ file: truth.file, fileId, children }));
    const want = truth.segments.map((s) => s.pages);
    const got = children.map((c) => c.pages);
    const w = starts(want);
    const h = starts(got);
    tp += [...h].filter((p) => w.has(p)).length;
    fp += [...h].filter((p) => !w.has(p)).length;
    fn += [...w].filter((p) => !h.has(p)).length;
    const ok = JSON.stringify(want) === JSON.stringify(got);
    exact += ok ? 1 : 0;
    files.push({ file: truth.file, want, got, exact: ok });

    for (const segment of truth.segments) {
      const gt = JSON.parse(readFileSync(path.join(dir, segment.gt), 'utf8')) as GroundTruth;
      const key = `${truth.file}#${segment.pages.join('-')}`;
      childTruths.push({ ...gt, file: key });
      const product = productFor(gt.type);
      const child = children.find((c) => c.pages[0] === segment.pages[0] && c.pages[1] === segment.pages[1]);
      childPredictions.set(key, child ? await extracted(engine, child.file_id, product) : undefined);
      const original = segment.file ?? gt.file;
      originalPredictions.set(key, await extracted(engine, await upload(path.join(dir, original)), product));
    }
  }
  const precision = tp + fp ? tp / (tp + fp) : 0;
  const recall = tp + fn ? tp / (tp + fn) : 0;
  const f1 = precision + recall ? (2 * precision * recall) / (precision + recall) : 0;
  const childScore = scoreCorpus(childTruths, childPredictions);
  const originalScore = scoreCorpus(childTruths, originalPredictions);
  return {
    files,
    precision,
    recall,
    f1,
    exact,
    lines,
    children: { accuracy: childScore.accuracy, fields: childScore.fields },
    originals: { accuracy: originalScore.accuracy, fields: originalScore.fields },
  };
}

async function extracted(engine: Engine, fileId: string, product: string): Promise<PredictedField[]> {
  await engine.invoke('svc.extract', { inputs: { file_id: fileId, product_ids: [product] } });
  const result = await engine.getResult(fileId, { timeoutMs: 300_000 });
  if (result.status !== 'FINALISED') return [];
  return result.results.fields.filter(
    (f): f is Exclude<ResultField, { value: Array<{ file_id: string }> }> => 'confidence' in f,
  );
}
