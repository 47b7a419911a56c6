/**
 * Section `text` (1): text-layer ingestion of born-digital PDFs through the engine (ocr: 'never'),
 * upload then ingest one document after another, against pdftotext -bbox-layout over the same files;
 * both checked for the share of printed words they read.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { createEngine, type Engine } from '../../src/index.js';
import { INVOICE_PAGES, pageWords, type GeneratedPdf } from '../lib/invoice.js';
import { measured, medianRound, timed, type Baseline, type Measured } from '../lib/measure.js';
import { missingTool, run, toolVersion } from '../lib/native.js';
import { fmt, na, splitWords, wordRecall } from '../lib/report.js';
import type { SectionContext } from '../lib/section.js';
import { targetRow, type SummaryRow } from '../lib/summary-row.js';

const TEXT_ROUNDS = 3;
export const TARGET_TEXT_RATIO = 0.5;

export type TextSection = Awaited<ReturnType<typeof benchText>>;

async function ingestAll(
  engine: Engine,
  docs: GeneratedPdf[],
): Promise<{ pages: number; texts: string[][] }> {
  let pages = 0;
  const texts: string[][] = [];
  for (const doc of docs) {
    const record = await engine.upload(doc.bytes);
    const layer = await engine.ingest(record.fileId);
    pages += layer.pages.length;
    texts.push(
      layer.pages.map((p) =>
        layer.tokens
          .filter((t) => t.pageNum === p.pageNum)
          .map((t) => t.text)
          .join(' '),
      ),
    );
  }
  return { pages, texts };
}

function decodeEntities(text: string): string {
  return text
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;|&apos;/g, "'")
    .replace(/&amp;/g, '&');
}

export async function benchText({ tmp, log, invoices }: SectionContext) {
  const [warmDoc, ...docs] = await invoices();
  if (!warmDoc) throw new Error('bench text: no invoices');
  log(
    `\n== 1. Text layer: ${docs.length} born-digital PDFs x ${INVOICE_PAGES} pages, ${TEXT_ROUNDS} rounds ==`,
  );
  const dir = path.join(tmp, 'text');
  await mkdir(dir);
  const files = await Promise.all(
    [warmDoc, ...docs].map(async (doc, i) => {
      const file = path.join(dir, `invoice-${String(i).padStart(2, '0')}.pdf`);
      await writeFile(file, doc.bytes);
      return file;
    }),
  );
  const expected = docs.flatMap((d) => d.pages.map(pageWords)).flat();
  const linesPerPage = docs[0]!.pages.map((items) => new Set(items.map((i) => i.y)).size);
  log(
    `   ${fmt(docs[0]!.bytes.byteLength / 1024, 'KiB')} per PDF, ${linesPerPage.join('/')} text lines on the pages of the first;` +
      ` each round runs docex then pdftotext over the same ${docs.length} files; figures are medians`,
  );

  const engine = createEngine({ ingest: { ocr: 'never' } });
  const pdftotextMissing = missingTool('pdftotext', ['-v']);
  let baselineError: string | undefined;
  const outs = files.map((f) => f.replace(/\.pdf$/, '.html'));
  const oursRounds: Measured[] = [];
  const baseRounds: Measured[] = [];
  let found: string[] = [];
  try {
    // Warm-up: one document through the engine, one file through pdftotext.
    await ingestAll(engine, [warmDoc]);
    if (!pdftotextMissing) {
      await run('pdftotext', ['-bbox-layout', files[0]!, outs[0]!]).catch((error: Error) => {
        baselineError = `pdftotext failed: ${error.message}`;
      });
    }
    for (let round = 0; round < TEXT_ROUNDS; round++) {
      // docex: upload then ingest, one document after another.
      const { value, seconds } = await timed(() => ingestAll(engine, docs));
      oursRounds.push(measured(seconds, value.pages));
      if (round === 0) found = value.texts.flat().flatMap(splitWords);
      // Baseline: pdftotext -bbox-layout over the same files, one after another.
      if (pdftotextMissing || baselineError) continue;
      try {
        const { seconds: s } = await timed(async () => {
          for (let i = 1; i < files.length; i++)
            await run('pdftotext', ['-bbox-layout', files[i]!, outs[i]!]);
        });
        baseRounds.push(measured(s, docs.length * INVOICE_PAGES));
      } catch (error) {
        baselineError = `pdftotext failed: ${(error as Error).message}`;
      }
    }
  } finally {
    await engine.close();
  }

  const ours = {
    ...medianRound(oursRounds),
    rounds: oursRounds.map((r) => r.pagesPerSecond),
    tokens: found.length,
    recall: wordRecall(expected, found),
  };
  log(
    `   docex     : ${ours.pages} pages in ${fmt(ours.seconds, 's')} = ${fmt(ours.pagesPerSecond, 'pages/s')}` +
      ` (rounds: ${ours.rounds.map((v) => fmt(v)).join(', ')}; ${ours.tokens} tokens, ${fmt(ours.recall * 100, '%')} of printed words)`,
  );

  let baseline: Baseline;
  const reason = pdftotextMissing ?? baselineError;
  if (reason) {
    baseline = { ok: false, reason };
    log(`   pdftotext : ${na(reason)}`);
  } else {
    const words: string[] = [];
    for (const out of outs.slice(1)) {
      const html = await readFile(out, 'utf8');
      for (const m of html.matchAll(/<word [^>]*>([^<]*)<\/word>/g)) words.push(decodeEntities(m[1]!));
    }
    const median = medianRound(baseRounds);
    const rounds = baseRounds.map((r) => r.pagesPerSecond);
    const recall = wordRecall(expected, words);
    const tool = toolVersion('pdftotext', ['-v']);
    baseline = { ok: true, ...median, rounds, words: words.length, recall, tool };
    log(
      `   pdftotext : ${median.pages} pages in ${fmt(median.seconds, 's')} = ${fmt(median.pagesPerSecond, 'pages/s')}` +
        ` (rounds: ${rounds.map((v) => fmt(v)).join(', ')}; ${words.length} words, ${fmt(recall * 100, '%')} of printed words; ${tool})`,
    );
  }
  const ratio = baseline.ok ? ours.pagesPerSecond / baseline.pagesPerSecond : undefined;
  if (ratio !== undefined) log(`   ratio docex/pdftotext = ${fmt(ratio)} (target >= ${TARGET_TEXT_RATIO})`);
  return {
    documents: docs.length,
    pagesPerDocument: INVOICE_PAGES,
    rounds: TEXT_ROUNDS,
    docex: ours,
    baseline,
    ratio,
  };
}

export function textSummaryRows(text: TextSection): SummaryRow[] {
  return [
    targetRow(
      'Text layer ingest, pages/s (vs pdftotext -bbox-layout)',
      text.docex.pagesPerSecond,
      text.baseline,
      text.ratio,
      TARGET_TEXT_RATIO,
    ),
  ];
}
