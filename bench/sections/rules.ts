/**
 * Section `rules` (5): validation rules. Evaluations/s of a 50-check v2 rule set on one document's
 * predictions, against the same checks as a hand-written JavaScript function (both must agree on every
 * check first); checkRules calls/s (storing the set); and where an evaluation's time goes.
 */
import { createRulesChecker } from '../../src/conditions/rules.js';
import { DocexError } from '../../src/core/errors.js';
import { createSchemaChecker } from '../../src/core/schema-checker.js';
import { measureRate, type Rate } from '../lib/measure.js';
import { fmt, small } from '../lib/report.js';
import {
  RULES_PRODUCT,
  buildRuleSet,
  conditionDepth,
  conditionPaths,
  evaluateRuleSet,
  handWrittenRuleSet,
  makePredictions,
  pathParts,
  pathsRead,
  productFieldIds,
} from '../lib/rule-set.js';
import type { SectionContext } from '../lib/section.js';
import { info, type SummaryRow } from '../lib/summary-row.js';

const RULES_CHECKS = 50;
const RULES_DOCUMENTS = 8;
// Each figure: a warm-up, then the median of 5 rounds of about 0.3 s (about 1.5 s measured).
const RULES_ROUNDS = 5;
const RULES_ROUND_SECONDS = 0.3;
const RULES_WARMUP_SECONDS = 0.5;

export type RulesSection = ReturnType<typeof measureRules>;

/** The section (synchronous work; async for the shape all sections share). */
export async function benchRules({ log }: SectionContext): Promise<RulesSection> {
  return measureRules(log);
}

/** Every problem of a rejected rule set, so a broken benchmark rule set fails with all of them. */
function rulesProblems(error: unknown): string {
  if (!(error instanceof DocexError)) return (error as Error).message;
  return [error.message, ...error.details.map((d) => `  ${d.path}: ${d.message}`)].join('\n');
}

function measureRules(log: (text: string) => void) {
  log(
    `\n== 5. Validation rules: a ${RULES_CHECKS}-check v2 rule set over the fields of ${RULES_PRODUCT}, vs the same checks as a hand-written JS function ==`,
  );
  const fieldIds = productFieldIds();
  const rules = buildRuleSet(fieldIds);
  const checks = rules.data.checks;
  if (checks.length !== RULES_CHECKS) {
    throw new Error(`bench rules: the rule set has ${checks.length} checks, not ${RULES_CHECKS}`);
  }
  // Stored as svc.validate and the rules store take them: an invalid benchmark rule set stops here.
  const compileStart = performance.now();
  const checker = createRulesChecker(createSchemaChecker());
  const createCheckerMs = performance.now() - compileStart;
  try {
    checker.checkRules(rules);
  } catch (error) {
    throw new Error(`bench rules: checkRules refused the benchmark rule set:\n${rulesProblems(error)}`);
  }
  const docs = makePredictions(fieldIds, RULES_DOCUMENTS);
  const paths = checks.flatMap((c) => conditionPaths(c.condition));
  const depth = Math.max(...checks.map((c) => conditionDepth(c.condition)));
  const dottedForm = paths.filter((p) => p.startsWith('$.predictions.[')).length;

  // Both sides must agree on every check of every document before either is timed.
  const ours = new Uint8Array(RULES_CHECKS);
  const theirs = new Uint8Array(RULES_CHECKS);
  const holding: number[] = [];
  docs.forEach((doc, d) => {
    holding.push(evaluateRuleSet(checks, doc, ours));
    handWrittenRuleSet(doc, theirs);
    const differ = checks
      .map((c, i) => ({ i, c }))
      .filter(({ i }) => ours[i] !== theirs[i])
      .map(({ i, c }) => `#${i + 1} '${c.note}' (evaluate ${ours[i]}, hand-written ${theirs[i]})`);
    if (differ.length > 0) {
      throw new Error(
        `bench rules: document ${d}: the hand-written baseline disagrees on ${differ.join(', ')}`,
      );
    }
  });
  log(
    `   ${checks.length} checks, conditions up to ${depth} levels deep, ${paths.length} variable paths` +
      ` (${dottedForm} written $.predictions.['id'], ${paths.length - dottedForm} $.predictions['id']);` +
      ` checkRules accepts it (checker created in ${fmt(createCheckerMs, 'ms')})`,
  );
  log(
    `   ${docs.length} documents, ${fieldIds.length} fields each (some not found: null value, confidence 0),` +
      ` used in turn; checks holding per document: ${holding.join(', ')}; the hand-written function agrees on all`,
  );
  log(
    `   each figure: ${RULES_WARMUP_SECONDS} s warm-up, then median of ${RULES_ROUNDS} rounds of about ${RULES_ROUND_SECONDS} s`,
  );

  const timing = {
    rounds: RULES_ROUNDS,
    roundSeconds: RULES_ROUND_SECONDS,
    warmupSeconds: RULES_WARMUP_SECONDS,
  };
  const perDoc = (i: number) => docs[i % docs.length]!;
  const evaluation = measureRate((i) => evaluateRuleSet(checks, perDoc(i), ours), timing);
  const baseline = measureRate((i) => handWrittenRuleSet(perDoc(i), theirs), timing);
  // A few copies, so no call meets the very object the previous one validated.
  const copies = Array.from({ length: 4 }, () => structuredClone(rules));
  const storing = measureRate(
    (i) => checker.checkRules(copies[i % copies.length]!).data.checks.length,
    timing,
  );

  // Where the time goes: the paths evaluate reads on each document (following its short-circuits),
  // read alone in the same way, then split into readPath's two parts.
  const traces = docs.map((doc) => checks.flatMap((c) => pathsRead(c.condition, doc)));
  const parsed = traces.map((t) => t.map(pathParts.parsed));
  const readsPerEvaluation = traces.reduce((a, t) => a + t.length, 0) / traces.length;
  const overPaths =
    <T>(list: T[][], read: (path: T, doc: (typeof docs)[number]) => unknown) =>
    (i: number): number => {
      const d = i % docs.length;
      const doc = docs[d]!;
      let found = 0;
      for (const p of list[d]!) if (read(p, doc) !== undefined) found++;
      return found;
    };
  const partTiming = {
    ...timing,
    roundSeconds: RULES_ROUND_SECONDS / 2,
    warmupSeconds: RULES_WARMUP_SECONDS / 2,
  };
  const usPer = (r: Rate): number => 1e6 / r.perSecond;
  const parts = {
    readPath: usPer(measureRate(overPaths(traces, pathParts.readPath), partTiming)),
    parsePath: usPer(measureRate(overPaths(traces, pathParts.parse), partTiming)),
    jsonpath: usPer(measureRate(overPaths(parsed, pathParts.jsonpath), partTiming)),
    directRead: usPer(measureRate(overPaths(traces, pathParts.direct), partTiming)),
  };
  const evaluationUs = usPer(evaluation);
  const breakdown = {
    readPathCallsPerEvaluation: readsPerEvaluation,
    evaluationUs,
    readPathUs: parts.readPath,
    parsePathUs: parts.parsePath,
    jsonpathPlusUs: parts.jsonpath,
    otherUs: evaluationUs - parts.readPath,
    readPathShare: parts.readPath / evaluationUs,
    jsonpathPlusShare: parts.jsonpath / evaluationUs,
    /** readPath's parse followed by a plain property read, in place of jsonpath-plus. */
    directReadUs: parts.directRead,
    estimatedEvaluationsPerSecondWithDirectRead: 1e6 / (evaluationUs - parts.readPath + parts.directRead),
  };

  const ratio = evaluation.perSecond / baseline.perSecond;
  const rounds = (r: Rate): string => r.rounds.map((v) => fmt(v)).join(', ');
  log(
    `   docex      : evaluate() on each check: ${fmt(evaluation.perSecond, 'evaluations/s')}` +
      ` = ${fmt(evaluation.perSecond * RULES_CHECKS, 'checks/s')}, ${fmt(evaluationUs, 'us')} per evaluation` +
      ` (${evaluation.iterations} per round; rounds: ${rounds(evaluation)})`,
  );
  log(
    `   baseline   : hand-written function: ${fmt(baseline.perSecond, 'evaluations/s')}` +
      ` = ${fmt(baseline.perSecond * RULES_CHECKS, 'checks/s')}, ${fmt(usPer(baseline) * 1000, 'ns')} per evaluation` +
      ` (rounds: ${rounds(baseline)})`,
  );
  log(`   ratio docex/hand-written = ${small(ratio)} (hand-written is ${fmt(1 / ratio)}x faster)`);
  log(
    `   checkRules : ${fmt(storing.perSecond, 'calls/s')} = ${fmt(usPer(storing), 'us')} to validate the ${RULES_CHECKS}-check set` +
      ` (rounds: ${rounds(storing)})`,
  );
  log(
    `   where the time goes: ${fmt(readsPerEvaluation)} readPath calls per evaluation, timed alone` +
      ` ${fmt(parts.readPath, 'us')} = ${fmt(breakdown.readPathShare * 100, '%')} of an evaluation` +
      ` (path regex ${fmt(parts.parsePath, 'us')}, jsonpath-plus query ${fmt(parts.jsonpath, 'us')}` +
      ` = ${fmt(breakdown.jsonpathPlusShare * 100, '%')}); the rest of evaluate ${fmt(breakdown.otherUs, 'us')}`,
  );
  log(
    `               the same reads as a plain property lookup after the regex: ${fmt(parts.directRead, 'us')};` +
      ` evaluate would then manage roughly ${fmt(breakdown.estimatedEvaluationsPerSecondWithDirectRead, 'evaluations/s')}`,
  );
  return {
    product: RULES_PRODUCT,
    checks: checks.length,
    fields: fieldIds.length,
    documents: docs.length,
    maxDepth: depth,
    paths: paths.length,
    pathsDottedForm: dottedForm,
    checksHoldingPerDocument: holding,
    createCheckerMs,
    ...timing,
    docex: {
      evaluationsPerSecond: evaluation.perSecond,
      checksPerSecond: evaluation.perSecond * RULES_CHECKS,
      usPerEvaluation: evaluationUs,
      iterationsPerRound: evaluation.iterations,
      rounds: evaluation.rounds,
    },
    baseline: {
      kind: 'hand-written JavaScript function, the same checks',
      evaluationsPerSecond: baseline.perSecond,
      checksPerSecond: baseline.perSecond * RULES_CHECKS,
      usPerEvaluation: usPer(baseline),
      iterationsPerRound: baseline.iterations,
      rounds: baseline.rounds,
    },
    ratio,
    checkRules: {
      callsPerSecond: storing.perSecond,
      usPerCall: usPer(storing),
      rounds: storing.rounds,
    },
    breakdown,
  };
}

export function rulesSummaryRows(rules: RulesSection): SummaryRow[] {
  return [
    {
      metric: `Rules, ${rules.checks} checks: rule-set evaluations/s (vs hand-written JS function)`,
      docex: fmt(rules.docex.evaluationsPerSecond),
      baseline: fmt(rules.baseline.evaluationsPerSecond),
      ratio: small(rules.ratio),
      target: '-',
      met: '-',
    },
    {
      metric: 'Rules: checks/s (vs hand-written JS function)',
      docex: fmt(rules.docex.checksPerSecond),
      baseline: fmt(rules.baseline.checksPerSecond),
      ratio: small(rules.ratio),
      target: '-',
      met: '-',
    },
    info(
      `Rules: checkRules calls/s (storing the ${rules.checks}-check set)`,
      fmt(rules.checkRules.callsPerSecond),
    ),
    info('  info: share of an evaluation in readPath', fmt(rules.breakdown.readPathShare * 100, '%')),
    info(
      '  info: share of an evaluation in jsonpath-plus',
      fmt(rules.breakdown.jsonpathPlusShare * 100, '%'),
    ),
  ];
}
