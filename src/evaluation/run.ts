/**
 * `npm run eval -- <corpus dir> [--out results.jsonl] [--report report.json] [--cache DIR] [--cv family [--train-with DIR]...] [--split]
 *   [--ocr-engine auto|native|wasm] [--second-reading-below CONFIDENCE]`
 *
 * Runs the engine over a corpus in the corpus format of docs/extraction.md (each document beside a JSON ground
 * truth), writes one result line per document in the format of `docex extract --out`, and prints
 * per-field precision, recall and coverage, accuracy per document type and overall, and the
 * reliability table with the expected calibration error. `--cache` keeps token layers between runs
 * (documents are read once); the ranking models and calibration curves are fitted by `npm run train`;
 * `--cv family` reports leave-one-family-out cross-validated figures beside the in-sample ones (the
 * ranking models and the calibration are fitted without the family scored; `--train-with` adds corpora,
 * the generated one, that teach every fold but are not scored) and writes the held-out results beside
 * `--out` (`...-cv.jsonl`).
 * `--learn` measures learning from review (src/evaluation/learn-eval.ts): later documents of each family
 * before and after its first document is reviewed, and the other families with every memory present;
 * `--out` gets the later documents as read after learning.
 * `--split` scores svc.split instead on the multi-document files (boundary precision, recall, F1, files
 * split exactly, and extraction on the children beside the same documents alone); `--out` then gets
 * the lines of `docex split`, which the reference scorer score_split.py reads.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { OcrEngineChoice } from '../default-adapters.js';
import type { EngineOptions } from '../engine-types.js';
import { collectDocuments } from './collect-candidates.js';
import { crossValidatedFields } from './ranker-training.js';
import { groundTruths, openCorpus } from './corpus-layers.js';
import { evaluateSplit } from './split-eval.js';
import { evaluateLearning } from './learn-eval.js';
import { scoreLineItems } from './line-item-scoring.js';
import { productFor, scoreCorpus, type GroundTruth, type PredictedField } from './scoring.js';

const pct = (v: number | null): string => (v === null ? '    -' : (v * 100).toFixed(1).padStart(5));

async function main(): Promise<void> {
  const { positionals, values } = parseArgs({
    args: process.argv.slice(2),
    allowPositionals: true,
    options: {
      out: { type: 'string', default: 'eval-results.jsonl' },
      report: { type: 'string', default: 'eval-report.json' },
      cache: { type: 'string' },
      split: { type: 'boolean', default: false },
      learn: { type: 'boolean', default: false },
      cv: { type: 'string' },
      'train-with': { type: 'string', multiple: true, default: [] },
      'ocr-engine': { type: 'string' },
      'second-reading-below': { type: 'string' },
    },
  });
  const ocrEngine = values['ocr-engine'];
  if (ocrEngine !== undefined && ocrEngine !== 'auto' && ocrEngine !== 'native' && ocrEngine !== 'wasm') {
    process.stderr.write('--ocr-engine takes auto, native or wasm\n');
    process.exitCode = 2;
    return;
  }
  const secondReading = values['second-reading-below'];
  if (secondReading !== undefined && !(Number(secondReading) >= 0 && Number(secondReading) <= 1)) {
    process.stderr.write('--second-reading-below takes a confidence from 0 (never) to 1\n');
    process.exitCode = 2;
    return;
  }
  // A cache keeps token layers made one way: give each way of reading its own --cache.
  const reading: Pick<EngineOptions, 'ocrEngine' | 'ingest'> = {
    ...(ocrEngine ? { ocrEngine: ocrEngine as OcrEngineChoice } : {}),
    ...(secondReading !== undefined ? { ingest: { secondReadingBelow: Number(secondReading) } } : {}),
  };
  const dir = positionals[0];
  if (values.cv !== undefined && values.cv !== 'family') {
    process.stderr.write('--cv takes `family` (leave-one-family-out cross-validation)\n');
    process.exitCode = 2;
    return;
  }
  if (!dir) {
    process.stderr.write(
      'usage: npm run eval -- <corpus dir> [--out FILE] [--report FILE] [--cache DIR] [--cv family] [--split]\n',
    );
    process.exitCode = 2;
    return;
  }
  const truths = groundTruths(dir);
  const corpus = openCorpus({ cache: values.cache, reading });
  const { engine } = corpus;
  if (values.split) {
    try {
      const report = await evaluateSplit(engine, dir, corpus.upload);
      writeFileSync(values.out, report.lines.join('\n') + '\n');
      const log = (s: string) => process.stdout.write(s + '\n');
      for (const f of report.files)
        log(
          `${f.file}: want ${JSON.stringify(f.want)} got ${JSON.stringify(f.got)} ${f.exact ? 'OK' : 'WRONG'}`,
        );
      log(
        `boundary P=${report.precision.toFixed(3)} R=${report.recall.toFixed(3)} F1=${report.f1.toFixed(3)} exact=${report.exact}/${report.files.length}`,
      );
      log(
        `extraction on the children: ${pct(report.children.accuracy)} % of ${report.children.fields} fields; the same documents alone: ${pct(report.originals.accuracy)} %`,
      );
      log(`split lines in ${values.out} (score with the corpus's score_split.py)`);
    } finally {
      await corpus.close();
    }
    return;
  }
  if (values.learn) {
    try {
      const report = await evaluateLearning(
        dir,
        truths,
        async (file) => (await corpus.layer(file)).layer,
        familyOf,
      );
      const log = (s: string) => process.stdout.write(s + '\n');
      const { later, others, recognised } = report;
      log(
        `${report.families} families with two or more documents: the first reviewed, the others read after it`,
      );
      log(
        `  answered from their supplier's memory: ${recognised.later} of ${recognised.laterOf} later documents`,
      );
      log(
        `  documents of other families where a memory answered a field: ${recognised.others} of ${recognised.othersOf}`,
      );
      log('                                 before    after');
      log(
        `  later documents, accuracy      ${pct(later.before.accuracy)} %  ${pct(later.after.accuracy)} %  (n=${later.after.fields})`,
      );
      for (const [k, v] of Object.entries(later.before.perField))
        log(
          `    ${k.padEnd(28)} ${pct(v.accuracy)} %  ${pct(later.after.perField[k]!.accuracy)} %  (n=${v.n})`,
        );
      log(
        `  confidence >= 0.9 right        ${pct(later.before.highConfidence.precision)} %  ${pct(later.after.highConfidence.precision)} %`,
      );
      log(
        `  other families, accuracy       ${pct(others.before.accuracy)} %  ${pct(others.after.accuracy)} %  (n=${others.after.fields})`,
      );
      writeFileSync(
        values.report,
        JSON.stringify(report, (k, v) => (k === 'rows' || k === 'laterAfter' ? undefined : v), 1),
      );
      // The later documents as read after learning, in score.py's format.
      writeFileSync(
        values.out,
        [...report.laterAfter]
          .map(([file, fields]) =>
            JSON.stringify({ file, status: 'FINALISED', results: { fields: fields ?? [] } }),
          )
          .join('\n') + '\n',
      );
      log(`later documents as read after learning in ${values.out}`);
    } finally {
      await corpus.close();
    }
    return;
  }
  const predictions = new Map<string, PredictedField[] | undefined>();
  const lines: string[] = [];
  const started = performance.now();
  try {
    for (const [i, gt] of truths.entries()) {
      const file = path.join(dir, gt.file);
      process.stderr.write(`\r[${i + 1}/${truths.length}] ${gt.file.slice(0, 60).padEnd(60)}`);
      try {
        const fileId = await corpus.upload(file);
        // As the engine extracts: the pictures of a born-digital page are read when a field needs them
        // (the cache then keeps the layer with their words).
        const verbose = (await engine.extract(fileId, [productFor(gt.type)], { verbose: true })).fields;
        const fields = verbose.map(({ name, value, confidence, boundingBox }) => ({
          name,
          value,
          confidence,
          boundingBox,
        }));
        predictions.set(gt.file, fields);
        lines.push(
          JSON.stringify({
            file: gt.file,
            fileId,
            status: 'FINALISED',
            results: { timestamp: new Date().toISOString(), fields },
          }),
        );
      } catch (error) {
        lines.push(
          JSON.stringify({
            file: gt.file,
            error: { code: (error as { code?: string }).code ?? 'ERROR', message: (error as Error).message },
          }),
        );
      }
    }
  } finally {
    await corpus.close();
  }
  process.stderr.write('\n');
  writeFileSync(values.out, lines.join('\n') + '\n');
  const report = scoreCorpus(truths, predictions);
  writeFileSync(values.report, JSON.stringify(report, null, 1));

  const log = (s: string) => process.stdout.write(s + '\n');
  log(
    `\n${truths.length} documents in ${((performance.now() - started) / 1000).toFixed(1)} s; results in ${values.out}, report in ${values.report}\n`,
  );
  log('field              n  precision  recall  coverage');
  for (const [k, v] of Object.entries(report.perField)) {
    log(
      `${k.padEnd(16)} ${String(v.n).padStart(4)}    ${pct(v.precision)}   ${pct(v.recall)}    ${pct(v.predicted / v.n)}`,
    );
  }
  log('\naccuracy by document type');
  for (const [k, v] of Object.entries(report.byType))
    log(`  ${k.padEnd(26)} n=${String(v.n).padStart(4)}  ${pct(v.accuracy)} %`);
  log(`  overall                    n=${String(report.fields).padStart(4)}  ${pct(report.accuracy)} %`);
  log('\nreliability (confidence bin -> share correct)');
  for (const b of report.reliability)
    if (b.n)
      log(
        `  ${b.bin}  n=${String(b.n).padStart(4)}  mean confidence ${pct(b.meanConfidence)} %  correct ${pct(b.shareCorrect)} %`,
      );
  log(
    `  ECE ${report.ece.toFixed(3)}; confidence >= 0.9: n=${report.highConfidence.n}, precision ${pct(report.highConfidence.precision)} %`,
  );
  const tables = truths
    .filter((gt) => gt.line_items)
    .map((gt) => ({
      truth: gt.line_items!,
      table: predictions.get(gt.file)?.find((f) => /line_?items$/iu.test(f.name))?.value ?? null,
    }));
  if (tables.length > 0) {
    // As score.py's `line items:` line (the table field is fitted by nothing: the same in every fold).
    const li = scoreLineItems(tables);
    log(
      `\nline items: ${li.docs} documents, rows true ${li.rowsTrue}, predicted ${li.rowsPredicted}: ` +
        `P ${li.precision.toFixed(3)} R ${li.recall.toFixed(3)} F1 ${li.f1.toFixed(3)}; cells ` +
        Object.entries(li.cells)
          .map(([c, v]) => `${c} ${v.accuracy === null ? '-' : v.accuracy.toFixed(2)} (${v.correct}/${v.n})`)
          .join(', '),
    );
  }

  if (values.cv === 'family') {
    // Everything fitted from data is fitted again without the family scored: the ranking models and
    // the calibration curves (src/evaluation/ranker-training.ts), from the same candidates.
    // Corpora given with --train-with (the generated one) teach every fold, as they teach the shipped
    // model, and are not scored here.
    const extra = values['train-with'] ?? [];
    const documents = await collectDocuments([dir, ...extra], values.cache, reading);
    const prefix = extra.length > 0 ? `${path.basename(path.resolve(dir))}/` : '';
    const all = crossValidatedFields(documents, familyOf);
    const held = new Map(
      [...all]
        .filter(([file]) => file.startsWith(prefix))
        .map(([file, fields]) => [file.slice(prefix.length), fields]),
    );
    // Fields nothing is fitted for (line-item tables) are the same in every fold: as read in sample.
    for (const [file, fields] of held) {
      const names = new Set(fields?.map((f) => f.name));
      held.set(file, [...(fields ?? []), ...(predictions.get(file) ?? []).filter((f) => !names.has(f.name))]);
    }
    const cvReport = scoreCorpus(truths, held);
    const folds = new Set(truths.map(familyOf));
    const cvOut = values.out.replace(/(\.jsonl)?$/, '-cv.jsonl');
    writeFileSync(values.report.replace(/(\.json)?$/, '-cv.json'), JSON.stringify(cvReport, null, 1));
    writeFileSync(
      cvOut,
      truths
        .map((gt) =>
          JSON.stringify({
            file: gt.file,
            status: 'FINALISED',
            results: { fields: held.get(gt.file) ?? [] },
          }),
        )
        .join('\n') + '\n',
    );
    log(
      `\nleave-one-family-out cross-validation: ${folds.size} families held out in turn; the ranking models and`,
    );
    log('calibration curves are fitted without the held-out family. Results with out-of-fold values and');
    log(`confidences in ${cvOut} (score with the corpus's score.py).`);
    log('                                 in sample   cross-validated');
    log(`  accuracy                       ${pct(report.accuracy)} %     ${pct(cvReport.accuracy)} %`);
    for (const [k, v] of Object.entries(report.byType))
      log(`    ${k.padEnd(28)} ${pct(v.accuracy)} %     ${pct(cvReport.byType[k]!.accuracy)} %`);
    log(`  ECE                            ${report.ece.toFixed(3)}       ${cvReport.ece.toFixed(3)}`);
    log(
      `  confidence >= 0.9: right      ${pct(report.highConfidence.precision)} % (n=${report.highConfidence.n})  ` +
        `${pct(cvReport.highConfidence.precision)} % (n=${cvReport.highConfidence.n})`,
    );
    log('  per field: in sample -> cross-validated');
    for (const [k, v] of Object.entries(report.perField))
      log(
        `    ${k.padEnd(16)} n=${String(v.n).padStart(4)}  ${pct(v.accuracy)} % -> ${pct(cvReport.perField[k]!.accuracy)} %`,
      );
    log('  reliability, cross-validated (confidence bin -> share correct)');
    for (const b of cvReport.reliability)
      if (b.n)
        log(
          `    ${b.bin}  n=${String(b.n).padStart(4)}  mean confidence ${pct(b.meanConfidence)} %  correct ${pct(b.shareCorrect)} %`,
        );
  }
}

/** The template family of a document; one of its own when the ground truth names none. */
function familyOf(truth: GroundTruth): string {
  return truth.family ?? truth.file;
}

await main();
