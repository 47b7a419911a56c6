/**
 * Where a split's time goes: the timed adapters' calls summed, the engine's page features and plan
 * timed alone on a token layer, and the split phase (decisions and children) in parts.
 */
import type { TokenLayer } from '../../src/core/types.js';
import type { Engine } from '../../src/index.js';
import { planSplit } from '../../src/split/boundaries.js';
import { pageFeatures } from '../../src/split/page-features.js';
import { sliceTokenLayer } from '../../src/split/slice-layer.js';
import { median } from './measure.js';
import { fmt } from './report.js';
import type { SplitRun, Timings } from './split-runs.js';

export type CallMs = Record<string, { calls: number; ms: number }>;

/** Calls and summed milliseconds of each timed method (the spans left out). */
export function callMs(...timings: Timings[]): CallMs {
  const out: CallMs = {};
  for (const t of timings) {
    for (const [name, v] of Object.entries(t)) if (v.calls > 0) out[name] = { calls: v.calls, ms: v.ms };
  }
  return out;
}

export const msOf = (calls: CallMs, name: string): number => calls[name]?.ms ?? 0;

export function describeCalls(calls: CallMs): string {
  const parts = Object.entries(calls).map(([name, v]) => `${name} ${fmt(v.ms, 'ms')} (${v.calls})`);
  return parts.length === 0 ? 'none' : parts.join(', ');
}

/** The engine's split features and plan of a token layer, timed alone (median of `rounds`). */
export function featuresAlone(engine: Engine, layer: TokenLayer, rounds: number) {
  const fields = engine.catalogue.fieldsets().flatMap((f) => f.fields);
  const featureMs: number[] = [];
  const planMs: number[] = [];
  const sliceMs: number[] = [];
  for (let r = 0; r < rounds; r++) {
    const s = performance.now();
    for (const page of layer.pages) sliceTokenLayer(layer, page.pageNum, page.pageNum, layer.fileId);
    sliceMs.push(performance.now() - s);
    const a = performance.now();
    const features = pageFeatures(layer, fields);
    const b = performance.now();
    planSplit(features);
    planMs.push(performance.now() - b);
    featureMs.push(b - a);
  }
  return { featuresMs: median(featureMs), planMs: median(planMs), sliceMs: median(sliceMs) };
}

/** Where the split phase (decisions and children, on an ingested file) spends its time. */
export function splitPhaseParts(run: SplitRun, alone: ReturnType<typeof featuresAlone>, calls: CallMs) {
  const copyMs = msOf(calls, 'copyPages');
  const childPdfOpenMs = msOf(calls, 'open');
  return {
    wallMs: run.seconds * 1000,
    queuedMs: run.queuedMs,
    jobRunMs: run.runMs,
    resultMs: run.resultMs,
    featuresMsAlone: alone.featuresMs,
    /** Of the features: each page's slice of the token layer (the rest is extractFields on it). */
    pageSlicesMsAlone: alone.sliceMs,
    planMsAlone: alone.planMs,
    copyPagesMs: copyMs,
    /** Uploading each child counts its pages: pdfjs opens it. */
    childPdfOpenMs,
    otherMs: run.runMs - alone.featuresMs - alone.planMs - copyMs - childPdfOpenMs,
  };
}

export function logSplitParts(
  log: (text: string) => void,
  parts: ReturnType<typeof splitPhaseParts>,
  pages: number,
  children: number,
): void {
  log(
    `               split phase ${fmt(parts.wallMs, 'ms')}: queue ${fmt(parts.queuedMs, 'ms')}, job ${fmt(parts.jobRunMs, 'ms')},` +
      ` verbose result read ${fmt(parts.resultMs, 'ms')}; in the job: page features ${fmt(parts.featuresMsAlone, 'ms')}` +
      ` (${fmt(parts.featuresMsAlone / pages, 'ms/page')}, timed alone: slicing each page's token layer` +
      ` ${fmt(parts.pageSlicesMsAlone, 'ms')}, the rest extractFields of 8 cue fields on each page),` +
      ` decisions ${fmt(parts.planMsAlone, 'ms')}, copying ${children} child PDFs (pdf-lib) ${fmt(parts.copyPagesMs, 'ms')},` +
      ` pdfjs opening each child to count its pages ${fmt(parts.childPdfOpenMs, 'ms')},` +
      ` the rest (child uploads, token layers sliced and stored, stored layer read) ${fmt(parts.otherMs, 'ms')}`,
  );
}
