/**
 * `npm run train -- <corpus dir>... [--cache DIR] [--out FILE]`
 *
 * Fits the learned ranking of candidates (src/extraction/ranker.ts) on corpora in the format of
 * the development corpus: every field's candidates and their generic features are collected from each
 * document, labelled right or wrong against its ground truth, and a logistic model is fitted per field
 * with enough documents (src/evaluation/ranker-training.ts). The calibration curves of every field are
 * fitted on out-of-fold evidence (leave one template family out). Deterministic: the same corpora give
 * the same file. Prints, side by side, the finders' own order and the learned one, in sample and
 * cross-validated by family; writes the model (default src/extraction/ranker-model.json).
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { CALIBRATION } from '../extraction/calibration.js';
import { collectDocuments } from './collect-candidates.js';
import {
  asResultFields,
  chooseReadings,
  crossValidatedFields,
  fitModel,
  predict,
  type DocumentRecord,
} from './ranker-training.js';
import { scoreCorpus, type GroundTruth, type PredictedField, type ScoreReport } from './scoring.js';

const pct = (v: number | null): string => (v === null ? '    -' : (v * 100).toFixed(1).padStart(5));

function familyOf(truth: GroundTruth): string {
  return truth.family ?? truth.file;
}

function summary(report: ScoreReport): string {
  return `${pct(report.accuracy)} %  ECE ${report.ece.toFixed(3)}  conf>=0.9 right ${pct(report.highConfidence.precision)} % (n=${report.highConfidence.n})`;
}

async function main(): Promise<void> {
  const { positionals, values } = parseArgs({
    args: process.argv.slice(2),
    allowPositionals: true,
    options: {
      cache: { type: 'string' },
      out: { type: 'string', default: 'src/extraction/ranker-model.json' },
      'cv-out': { type: 'string', default: 'train-cv-results.jsonl' },
    },
  });
  if (positionals.length === 0) {
    process.stderr.write('usage: npm run train -- <corpus dir>... [--cache DIR] [--out FILE]\n');
    process.exitCode = 2;
    return;
  }
  const documents = await collectDocuments(positionals, values.cache);
  const truths = documents.map((d) => d.truth);
  const { model, outOfFold } = fitModel(documents, familyOf);

  const hand = new Map<string, PredictedField[]>(
    documents.map((d) => [
      d.truth.file,
      asResultFields(
        d.fields.map((f) => ({ name: f.name, ...f.hand })),
        CALIBRATION,
      ),
    ]),
  );
  const handCv = crossValidatedFields(
    documents,
    familyOf,
    new Map(documents.map((d) => [d.truth.file, d.fields.map((f) => ({ name: f.name, ...f.hand }))])),
  );
  // In sample as extraction answers: photos read twice chosen across their readings.
  const learned = new Map<string, PredictedField[]>(
    documents.map((d) => {
      const read = (fields: DocumentRecord['fields']) =>
        asResultFields(predict({ ...d, fields }, model.fields), model.calibration);
      const first = read(d.fields);
      const others = (d.readings ?? []).map(read);
      return [
        d.truth.file,
        others.length > 0
          ? chooseReadings(
              first,
              others,
              d.fields.map((f) => f.group),
              model.readings,
            )
          : first,
      ];
    }),
  );
  const learnedCv = crossValidatedFields(documents, familyOf, outOfFold);
  const log = (s: string) => process.stdout.write(s + '\n');
  log(`\n${documents.length} documents, ${new Set(truths.map(familyOf)).size} families`);
  log(
    `fields with a model: ${Object.entries(model.fields)
      .map(([k, v]) => `${k} (${v.documents} documents)`)
      .join(', ')}`,
  );
  // Each corpus reported on its own (the models are fitted on all of them, out of fold).
  const corpora = positionals.map((dir) => {
    const name = path.basename(path.resolve(dir));
    return { dir, name, prefix: positionals.length > 1 ? `${name}/` : '' };
  });
  for (const corpus of corpora) {
    const own = truths.filter((t) => t.file.startsWith(corpus.prefix));
    const reports = {
      'finders, in sample (shipped curves)': scoreCorpus(own, hand),
      'finders, cross-validated': scoreCorpus(own, handCv),
      'learned, in sample': scoreCorpus(own, learned),
      'learned, cross-validated': scoreCorpus(own, learnedCv),
    };
    log(`\n== ${corpus.name}: ${own.length} documents, ${new Set(own.map(familyOf)).size} families`);
    for (const [name, report] of Object.entries(reports)) log(`  ${name.padEnd(38)} ${summary(report)}`);
    log('  per field, cross-validated: finders -> learned');
    for (const key of Object.keys(reports['finders, cross-validated'].perField)) {
      const a = reports['finders, cross-validated'].perField[key]!;
      const b = reports['learned, cross-validated'].perField[key]!;
      log(`    ${key.padEnd(16)} n=${String(a.n).padStart(4)}  ${pct(a.accuracy)} % -> ${pct(b.accuracy)} %`);
    }
    log('  by document type, cross-validated: finders -> learned');
    for (const [type, a] of Object.entries(reports['finders, cross-validated'].byType)) {
      const b = reports['learned, cross-validated'].byType[type]!;
      log(
        `    ${type.padEnd(26)} n=${String(a.n).padStart(4)}  ${pct(a.accuracy)} % -> ${pct(b.accuracy)} %`,
      );
    }
  }
  // The first corpus's held-out results, named as in that corpus (score.py reads them).
  const first = corpora[0]!;
  writeFileSync(
    values['cv-out'],
    truths
      .filter((t) => t.file.startsWith(first.prefix))
      .map((t) =>
        JSON.stringify({
          file: t.file.slice(first.prefix.length),
          status: 'FINALISED',
          results: { fields: learnedCv.get(t.file) },
        }),
      )
      .join('\n') + '\n',
  );
  writeFileSync(values.out, JSON.stringify(model, null, 1) + '\n');
  log(
    `\nmodel written to ${values.out}; cross-validated results of ${first.name} in ${values['cv-out']} ` +
      "(score with the corpus's score.py)",
  );
}

await main();
