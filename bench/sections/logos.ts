/**
 * Section `logos` (12), born-digital invoices with logos: the invoices of support/multi-draw.ts
 * with the supplier's name also painted as a picture at the top of the first page, as real suppliers'
 * invoices carry a logo. Two sets are drawn from the same seeds: logos beside the name in text (the
 * usual case: the picture adds nothing and must cost nothing), and logos that are the only place the
 * name is printed (the picture must be read). The truth of each document comes from the drawing.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { PDFDocument, StandardFonts, rgb, type PDFImage } from 'pdf-lib';
import { createPdfjsReader } from '../../src/adapters/pdf/pdfjs-reader.js';
import { createEngine } from '../../src/index.js';
import { encodeGreyPng } from '../../src/documents/png.js';
import { MONTHS, SUPPLIERS, seeded } from '../../support/multi-data.js';
import { drawDocument, type DrawnDocument, type DrawnPage } from '../../support/multi-draw.js';
import { fieldValues, readJsonLines, runCli, runProblem } from '../lib/docex-cli.js';
import { pageCountsSumming } from '../lib/multi.js';
import { missingTool, pdftotextFolder, toolVersion } from '../lib/native.js';
import { docexBin } from '../lib/paths.js';
import { na } from '../lib/report.js';
import type { SectionContext } from '../lib/section.js';
import { info, type SummaryRow } from '../lib/summary-row.js';

const A4 = { width: 595, height: 842 };
/** Where the logo sits: above the header every drawn layout starts at about 35 pt from the top. */
const LOGO = { x: 50, top: 6, width: 230, height: 28 };

export interface LogoFolder {
  files: string[];
  pages: number;
  /** What each file says (same order as `files`). */
  truth: DrawnDocument[];
}

/**
 * `count` invoices of 1 to 4 pages adding up to `pages` (one page each when `nameOnlyInLogo`), written
 * to `dir`. `logo`: paint the supplier's name as a picture; `nameOnlyInLogo`: and leave it out of the
 * text (first page; such documents are single pages, so no continuation header repeats it).
 */
export async function makeLogoFolder(
  dir: string,
  options: { seed: number; count: number; pages: number; logo: boolean; nameOnlyInLogo?: boolean },
): Promise<LogoFolder> {
  await mkdir(dir, { recursive: true });
  const counts = options.nameOnlyInLogo
    ? Array.from({ length: options.count }, () => 1)
    : pageCountsSumming(options.seed, options.count, options.pages);
  const logos = new Map<string, Uint8Array>();
  const files: string[] = [];
  const truth: DrawnDocument[] = [];
  for (const [i, pageCount] of counts.entries()) {
    const random = seeded(options.seed + 1 + i);
    const supplier = SUPPLIERS[random.int(0, SUPPLIERS.length - 1)]!;
    const drawn = drawDocument(random, supplier, pageCount, undefined, 0.5, new Set());
    let pages = drawn.pages;
    if (options.nameOnlyInLogo) {
      pages = pages.map((p, n) => (n === 0 ? { lines: p.lines.filter((l) => l.text !== supplier.name) } : p));
    }
    let logo: Uint8Array | undefined;
    if (options.logo) {
      logo = logos.get(supplier.name);
      if (!logo) logos.set(supplier.name, (logo = await logoPng(supplier.name)));
    }
    const file = path.join(dir, `invoice-${String(i + 1).padStart(3, '0')}.pdf`);
    await writeFile(file, await pdfWithLogo(pages, logo));
    files.push(file);
    truth.push(drawn.document);
  }
  return { files, pages: counts.reduce((a, b) => a + b, 0), truth };
}

/** The supplier's name in large bold letters on a light band, rendered to a greyscale PNG at 200 dpi. */
async function logoPng(name: string): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  const page = doc.addPage([LOGO.width, LOGO.height]);
  page.drawRectangle({ x: 0, y: 0, width: LOGO.width, height: LOGO.height, color: rgb(0.9, 0.92, 0.95) });
  page.drawRectangle({ x: 4, y: 5, width: 14, height: 18, color: rgb(0.2, 0.35, 0.6) });
  let size = 16;
  while (size > 8 && bold.widthOfTextAtSize(name, size) > LOGO.width - 30) size--;
  page.drawText(name, { x: 24, y: 9, size, font: bold, color: rgb(0.15, 0.2, 0.35) });
  const reader = createPdfjsReader();
  const pdf = await reader.open(await doc.save());
  try {
    const first = await pdf.page(1);
    const { image } = await first.render({ dpi: 200, maxPixels: 10_000_000 });
    first.release();
    return encodeGreyPng(image);
  } finally {
    await pdf.close();
  }
}

async function pdfWithLogo(pages: DrawnPage[], logo: Uint8Array | undefined): Promise<Uint8Array> {
  const doc = await PDFDocument.create({ updateMetadata: false });
  const regular = await doc.embedFont(StandardFonts.Helvetica);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  const picture: PDFImage | undefined = logo ? await doc.embedPng(logo) : undefined;
  for (const [n, spec] of pages.entries()) {
    const page = doc.addPage([A4.width, A4.height]);
    if (picture && n === 0) {
      page.drawImage(picture, {
        x: LOGO.x,
        y: A4.height - LOGO.top - LOGO.height,
        width: LOGO.width,
        height: LOGO.height,
      });
    }
    for (const line of spec.lines) {
      page.drawText(line.text, {
        x: line.x,
        y: A4.height - line.y,
        size: line.size ?? 12,
        font: line.bold ? bold : regular,
      });
    }
  }
  return doc.save();
}

/** The drawn date (`14 March 2024`, `14.03.2024`, `14/03/2024`) as ISO `2024-03-14`. */
export function isoDate(printed: string): string | undefined {
  let m = /^(\d{1,2})[./](\d{2})[./](\d{4})$/.exec(printed);
  if (m) return `${m[3]}-${m[2]}-${m[1]!.padStart(2, '0')}`;
  m = /^(\d{1,2}) (\p{L}+) (\d{4})$/u.exec(printed);
  const month = m ? MONTHS.indexOf(m[2]!) + 1 : 0;
  if (!m || month === 0) return undefined;
  return `${m[3]}-${String(month).padStart(2, '0')}-${m[1]!.padStart(2, '0')}`;
}

/** Per field, how many documents' value matched the truth (supplier name, number, date, total). */
export function logoAccuracy(
  truth: readonly DrawnDocument[],
  results: ReadonlyArray<Map<string, string> | undefined>,
): { fields: Record<string, { right: number; of: number }>; right: number; of: number } {
  const fields: Record<string, { right: number; of: number }> = {};
  const simple = (s: string): string =>
    s
      .toLowerCase()
      .replace(/[^\p{L}\p{N}]+/gu, ' ')
      .trim();
  const checks: Array<[string, (t: DrawnDocument, v: string) => boolean]> = [
    ['document.supplierName', (t, v) => simple(t.supplier) === simple(v)],
    ['document.referenceNo', (t, v) => simple(t.number) === simple(v)],
    ['document.date', (t, v) => isoDate(t.date) === v],
    ['invoice.total', (t, v) => Math.abs(Number(v) - t.totalValue) < 0.005],
  ];
  let right = 0;
  let of = 0;
  truth.forEach((t, i) => {
    for (const [name, check] of checks) {
      const value = results[i]?.get(name);
      const ok = value !== undefined && check(t, value);
      const entry = (fields[name] ??= { right: 0, of: 0 });
      entry.of++;
      of++;
      if (ok) {
        entry.right++;
        right++;
      }
    }
  });
  return { fields, right, of };
}

// ---------------------------------------------------------------------------------------------------
// The section

/** Files in the set with logos beside the name in text, and their pages (as the 400-file batch run). */
const LOGO_FILES = 400;
const LOGO_PAGES = 1000;
/** Files whose supplier name is only in the logo. */
const LOGO_ONLY_FILES = 24;
const LOGO_SEED = 7100;
const ROUNDS = 2;
/** docex against `pdftotext -bbox-layout` on the logo set, pages/s: within 3x. */
export const TARGET_LOGO_RATIO = 1 / 3;

export interface LogoSection {
  files: number;
  pages: number;
  docexPagesPerSecond: number;
  docexRounds: number[];
  plainPagesPerSecond: number;
  pdftotext: { pagesPerSecond: number; rounds: number[] } | { reason: string };
  ratio: number | undefined;
  /** Pictures read by docex over the logo set (each file's stored layer says which). */
  accuracy: { logo: ReturnType<typeof logoAccuracy>; plain: ReturnType<typeof logoAccuracy> };
  logoOnly: {
    files: number;
    secondsPerFile: number;
    supplierRight: number;
    supplierRightWithoutPictures: number;
    accuracy: ReturnType<typeof logoAccuracy>;
  };
}

/** The section: `n/a` without the docex command (dist/src compiled). */
export async function benchLogos({ tmp, log }: SectionContext): Promise<LogoSection | { reason: string }> {
  log('\n== 12. Born-digital invoices with logos (docex extract as a child process) ==');
  const found = docexBin();
  const logos =
    'reason' in found
      ? { reason: found.reason }
      : await measureLogos(found.bin, tmp, os.availableParallelism(), log);
  if ('reason' in logos) log(`   ${na(logos.reason)}`);
  return logos;
}

async function measureLogos(
  bin: string,
  tmp: string,
  cores: number,
  log: (text: string) => void,
): Promise<LogoSection> {
  const dir = path.join(tmp, 'logos');
  const withLogo = await makeLogoFolder(path.join(dir, 'logo'), {
    seed: LOGO_SEED,
    count: LOGO_FILES,
    pages: LOGO_PAGES,
    logo: true,
  });
  const plain = await makeLogoFolder(path.join(dir, 'plain'), {
    seed: LOGO_SEED,
    count: LOGO_FILES,
    pages: LOGO_PAGES,
    logo: false,
  });
  const only = await makeLogoFolder(path.join(dir, 'logo-only'), {
    seed: LOGO_SEED + 5000,
    count: LOGO_ONLY_FILES,
    pages: LOGO_ONLY_FILES,
    logo: true,
    nameOnlyInLogo: true,
  });
  log(
    `   ${withLogo.files.length} born-digital invoices (${withLogo.pages} pages, bench/sections/logos.ts) with the supplier's name` +
      ` also painted as a logo picture on the first page; the same invoices without logos; ${only.files.length} one-page` +
      ` invoices whose name is only in the logo. docex extract DIR --product invoices:2 (defaults) against` +
      ` pdftotext -bbox-layout, one process per file, ${cores} at a time; ${ROUNDS} rounds, medians`,
  );
  const extract = async (folder: string, out: string, files: number) => {
    const result = await runCli(
      bin,
      ['extract', folder, '--out', out, '--progress', 'none', '--product', 'invoices:2'],
      { command: 'extract', timeoutMs: 900_000 },
    );
    const problem = runProblem(result, files);
    if (problem) throw new Error(problem);
    return result;
  };
  const byFile = async (out: string, files: string[]) => {
    const lines = await readJsonLines(out);
    const found = new Map(lines.map((l) => [path.basename(l.file), fieldValues(l)]));
    return files.map((f) => found.get(path.basename(f)));
  };
  const pagesPerSecond = (seconds: number, pages: number) => pages / seconds;

  const docexRounds: number[] = [];
  const baseRounds: number[] = [];
  const pdftotextMissing = missingTool('pdftotext', ['-v']);
  const logoOut = path.join(dir, 'logo.jsonl');
  for (let round = 0; round < ROUNDS; round++) {
    docexRounds.push(
      pagesPerSecond(
        (await extract(path.join(dir, 'logo'), logoOut, LOGO_FILES)).wallSeconds,
        withLogo.pages,
      ),
    );
    if (!pdftotextMissing) {
      const seconds = await pdftotextFolder(withLogo.files, path.join(dir, 'pdftotext'), cores);
      baseRounds.push(pagesPerSecond(seconds, withLogo.pages));
    }
  }
  const plainOut = path.join(dir, 'plain.jsonl');
  const plainRun = await extract(path.join(dir, 'plain'), plainOut, LOGO_FILES);
  const onlyOut = path.join(dir, 'logo-only.jsonl');
  const onlyRun = await extract(path.join(dir, 'logo-only'), onlyOut, LOGO_ONLY_FILES);

  const logoAcc = logoAccuracy(withLogo.truth, await byFile(logoOut, withLogo.files));
  const plainAcc = logoAccuracy(plain.truth, await byFile(plainOut, plain.files));
  const onlyAcc = logoAccuracy(only.truth, await byFile(onlyOut, only.files));
  // The same logo-only files with pictures never read: what reading them buys.
  const without = await withoutPictures(only.files);
  const withoutAcc = logoAccuracy(only.truth, without);

  const median = (v: number[]) => [...v].sort((a, b) => a - b)[Math.floor((v.length - 1) / 2)]!;
  const docexPps = median(docexRounds);
  const pdftotext = pdftotextMissing
    ? { reason: pdftotextMissing }
    : { pagesPerSecond: median(baseRounds), rounds: baseRounds };
  const ratio = 'pagesPerSecond' in pdftotext ? docexPps / pdftotext.pagesPerSecond : undefined;
  const share = (a: ReturnType<typeof logoAccuracy>) =>
    `${a.right}/${a.of} (${((a.right / a.of) * 100).toFixed(1)} %)`;
  const f = (v: number) => (v >= 100 ? v.toFixed(0) : v.toFixed(1));
  log(
    `   docex, logos    : ${f(docexPps)} pages/s spawn to exit (rounds ${docexRounds.map(f).join(', ')});` +
      ` header fields right ${share(logoAcc)}`,
  );
  log(
    `   docex, no logos : ${f(pagesPerSecond(plainRun.wallSeconds, plain.pages))} pages/s; header fields right ${share(plainAcc)}`,
  );
  log(
    `   pdftotext       : ${'reason' in pdftotext ? `n/a (${pdftotext.reason})` : `${f(pdftotext.pagesPerSecond)} pages/s (rounds ${baseRounds.map(f).join(', ')}; ${toolVersion('pdftotext', ['-v'])})`}`,
  );
  if (ratio !== undefined)
    log(`   ratio docex/pdftotext ${ratio.toFixed(3)} (target >= ${TARGET_LOGO_RATIO.toFixed(3)})`);
  const name = 'document.supplierName';
  log(
    `   name only in the logo: ${only.files.length} files in ${onlyRun.wallSeconds.toFixed(1)} s spawn to exit` +
      ` (${(onlyRun.wallSeconds / only.files.length).toFixed(2)} s a file); supplier name right` +
      ` ${onlyAcc.fields[name]?.right}/${only.files.length} (pictures never read: ${withoutAcc.fields[name]?.right}/${only.files.length});` +
      ` header fields right ${share(onlyAcc)}`,
  );
  return {
    files: withLogo.files.length,
    pages: withLogo.pages,
    docexPagesPerSecond: docexPps,
    docexRounds,
    plainPagesPerSecond: pagesPerSecond(plainRun.wallSeconds, plain.pages),
    pdftotext,
    ratio,
    accuracy: { logo: logoAcc, plain: plainAcc },
    logoOnly: {
      files: only.files.length,
      secondsPerFile: onlyRun.wallSeconds / only.files.length,
      supplierRight: onlyAcc.fields[name]?.right ?? 0,
      supplierRightWithoutPictures: withoutAcc.fields[name]?.right ?? 0,
      accuracy: onlyAcc,
    },
  };
}

/** The header fields of each file extracted in process with pictures never read (pictureBudgetMs 0). */
async function withoutPictures(files: string[]): Promise<Array<Map<string, string> | undefined>> {
  const engine = createEngine({ ingest: { pictureBudgetMs: 0 } });
  try {
    const found: Array<Map<string, string> | undefined> = [];
    for (const file of files) {
      const { fileId } = await engine.upload(await readFile(file));
      const { fields } = await engine.extract(fileId, ['invoices:2']);
      found.push(fieldValues({ file, results: { fields } }));
    }
    return found;
  } finally {
    await engine.close();
  }
}

export function logosSummaryRows(section: LogoSection | { reason: string }): SummaryRow[] {
  if ('reason' in section) return [info('Born-digital invoices with logos', na(section.reason))];
  const pct = (a: { right: number; of: number }) => `${((a.right / a.of) * 100).toFixed(1)} %`;
  const baseline = 'pagesPerSecond' in section.pdftotext ? section.pdftotext.pagesPerSecond : undefined;
  return [
    {
      metric: `Born-digital invoices with logos, ${section.files} files (${section.pages} pages): pages/s, process start included (vs pdftotext -bbox-layout)`,
      docex: section.docexPagesPerSecond.toFixed(1),
      baseline: baseline === undefined ? 'n/a' : baseline.toFixed(0),
      ratio: section.ratio === undefined ? 'n/a' : section.ratio.toFixed(3),
      target: '>= 0.333',
      met: section.ratio === undefined ? 'n/a' : section.ratio >= TARGET_LOGO_RATIO ? 'yes' : 'no',
    },
    {
      metric: '  header fields right with logos (baseline: the same invoices without logos)',
      docex: pct(section.accuracy.logo),
      baseline: pct(section.accuracy.plain),
      ratio: '-',
      target: 'unchanged',
      met: section.accuracy.logo.right >= section.accuracy.plain.right ? 'yes' : 'no',
    },
    {
      metric: `  name only in the logo, ${section.logoOnly.files} files: supplier name right (baseline: pictures never read)`,
      docex: `${section.logoOnly.supplierRight}/${section.logoOnly.files}`,
      baseline: `${section.logoOnly.supplierRightWithoutPictures}/${section.logoOnly.files}`,
      ratio: '-',
      target: '-',
      met: '-',
    },
    {
      metric: '  same, seconds a file, process start included',
      docex: section.logoOnly.secondsPerFile.toFixed(2),
      baseline: '-',
      ratio: '-',
      target: '-',
      met: '-',
    },
  ];
}
