/**
 * Native tesseract as a baseline: the system's tessdata and models, docex's own model unpacked for the
 * same program, and the one process pool every section runs it through.
 */
import { spawnSync } from 'node:child_process';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { englishModelDir } from '../../src/adapters/ocr/tesseract-ocr.js';
import { debianPackageOf, missingTool, run, runPool } from './native.js';
import { fmt, splitWords } from './report.js';

// ---------------------------------------------------------------------------------------------------
// Models

export interface TesseractModel {
  description: string;
  path: string;
  lstmBytes?: number;
}

function lstmBytes(file: string): number | undefined {
  const result = spawnSync('combine_tessdata', ['-d', file], { encoding: 'utf8' });
  if (result.error) return undefined;
  const match = /\blstm:size=(\d+)/.exec(`${result.stdout}\n${result.stderr}`);
  return match ? Number(match[1]) : undefined;
}

function networkClass(bytes: number | undefined): string {
  if (bytes === undefined) return 'network size unknown';
  const kib = Math.round(bytes / 1024);
  return `LSTM network ${kib} KiB, ${bytes < 1_000_000 ? 'tessdata_fast' : 'tessdata_best/best_int'} class`;
}

export async function describeModel(file: string, origin: string): Promise<TesseractModel> {
  const size = (await readFile(file)).byteLength;
  const lstm = lstmBytes(file);
  const model: TesseractModel = {
    description: `${origin} (${file}, ${fmt(size / 1024 / 1024, 'MiB')}, ${networkClass(lstm)})`,
    path: file,
  };
  if (lstm !== undefined) model.lstmBytes = lstm;
  return model;
}

/** The tessdata folder native tesseract uses and whether it has English, or why it cannot be used. */
export function nativeTessdata(): { dir: string; langs: string[] } | { reason: string } {
  const missing = missingTool('tesseract', ['--version']);
  if (missing) return { reason: missing };
  const result = spawnSync('tesseract', ['--list-langs'], { encoding: 'utf8' });
  const text = `${result.stdout}\n${result.stderr}`;
  const dir = /languages in "([^"]+)"/.exec(text)?.[1];
  const langs = text
    .split('\n')
    .slice(1)
    .map((l) => l.trim())
    .filter((l) => /^[a-z_]+$/i.test(l));
  if (!dir) return { reason: 'tesseract did not report its tessdata folder' };
  if (!langs.includes('eng'))
    return { reason: 'tesseract has no eng model: apt-get install tesseract-ocr-eng' };
  return { dir, langs };
}

/** The system's English model (in `tessdataDir`), described with the Debian package it comes from. */
export function systemModel(tessdataDir: string): Promise<TesseractModel> {
  const file = path.join(tessdataDir, 'eng.traineddata');
  return describeModel(file, `eng from ${debianPackageOf(file) ?? 'the system'}`);
}

/** docex's gzipped model file (tesseract.js reads it). */
export const docexModelFile = (): string => path.join(englishModelDir(), 'eng.traineddata.gz');

/** docex's own model unpacked into a new folder `tessdataDir`, for the native program to run with. */
export async function unpackDocexModel(tessdataDir: string): Promise<TesseractModel> {
  await mkdir(tessdataDir);
  const unpacked = path.join(tessdataDir, 'eng.traineddata');
  await writeFile(unpacked, gunzipSync(await readFile(docexModelFile())));
  return describeModel(unpacked, 'eng from @tesseract.js-data/eng 4.0.0_best_int');
}

// ---------------------------------------------------------------------------------------------------
// The process pool

/** A page for native tesseract: an image file, or a page of a PDF that pdftoppm renders first. */
export type NativePage = { kind: 'image'; file: string } | { kind: 'pdf'; file: string; page: number };

export interface NativeTesseractOptions {
  /** Page chains at a time, each tesseract on one thread (OMP_THREAD_LIMIT=1). */
  slots: number;
  /** `--dpi` of tesseract and `-r` of pdftoppm; tesseract is not told one when undefined. */
  dpi?: number;
  /** Another model folder (`--tessdata-dir`); the system's by default. */
  tessdataDir?: string;
  /** Words from tesseract's tsv (`-c tessedit_create_tsv=1`) rather than its plain text. */
  tsv?: boolean;
}

/**
 * Native tesseract over `pages`, `slots` processes at a time: per page, `pdftoppm -r <dpi> -gray` of
 * that page (for a PDF) then `tesseract IMAGE OUT -l eng --oem 1 --psm 3` into `outs[i]`. Answers the
 * seconds of the pool (the words are read afterwards) and the words found, page after page.
 */
export async function nativeTesseract(
  pages: NativePage[],
  outs: string[],
  options: NativeTesseractOptions,
): Promise<{ seconds: number; words: string[] }> {
  const { slots, dpi, tessdataDir, tsv = false } = options;
  const env = { ...process.env, OMP_THREAD_LIMIT: '1' };
  const args = (image: string, out: string): string[] => [
    image,
    out,
    ...(tessdataDir ? ['--tessdata-dir', tessdataDir] : []),
    '-l',
    'eng',
    '--oem',
    '1',
    '--psm',
    '3',
    ...(dpi === undefined ? [] : ['--dpi', String(dpi)]),
    // The tsv output; as a variable rather than the `tsv` config file, which another --tessdata-dir lacks.
    ...(tsv ? ['-c', 'tessedit_create_tsv=1'] : []),
  ];
  const start = performance.now();
  await runPool(
    pages.map((page, i) => async () => {
      let image = page.file;
      if (page.kind === 'pdf') {
        if (dpi === undefined) throw new Error('native tesseract: a PDF page needs a dpi to be rendered at');
        const prefix = `${outs[i]!}-raster`;
        const at = String(page.page);
        await run('pdftoppm', [
          '-f',
          at,
          '-l',
          at,
          '-r',
          String(dpi),
          '-gray',
          '-singlefile',
          page.file,
          prefix,
        ]);
        image = `${prefix}.pgm`;
      }
      await run('tesseract', args(image, outs[i]!), env);
    }),
    slots,
  );
  const seconds = (performance.now() - start) / 1000;
  const words: string[] = [];
  for (const out of outs) {
    if (!tsv) {
      words.push(...splitWords(await readFile(`${out}.txt`, 'utf8')));
      continue;
    }
    for (const row of (await readFile(`${out}.tsv`, 'utf8')).split('\n').slice(1)) {
      const cells = row.split('\t');
      // level 5 = word; the text is the 12th column.
      if (cells[0] === '5' && cells[11] && cells[11].trim() !== '') words.push(cells[11].trim());
    }
  }
  return { seconds, words };
}
