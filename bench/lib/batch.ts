/**
 * The batch command line benchmark (section 9 of bench/run.ts): folders of generated documents, the
 * real `docex` command run as a child process (its summary line parsed, its `--progress plain` lines
 * followed), and the native baselines run over the same files (pdftotext -bbox-layout; pdftoppm +
 * tesseract), one process per file or page, as many at a time as there are cores.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { createPdfjsReader } from '../../src/adapters/pdf/pdfjs-reader.js';
import type { GreyImage } from '../../src/ports/image-backend.js';
import { encodeGreyPng } from '../../src/documents/png.js';
import { makeMultiDocument, makeScannedMulti, pageCountsSumming, type MultiDocument } from './multi.js';
import { run, runPool } from './native.js';
import { splitWords } from './report.js';

// ---------------------------------------------------------------------------------------------------
// The command as a child process

/** The summary `docex <command>` prints on stderr at the end of a batch. */
export interface BatchSummary {
  files: number;
  pages: number;
  failed: number;
  /** Failures by code, as printed ("UNSUPPORTED_FILE 2"), or ''. */
  failures: string;
  /** The batch's own time: from the first file started to the last line written (engine start not included). */
  seconds: number;
  filesPerSecond: number;
}

export interface CliRun {
  /** From spawning the process to its exit: Node start, module loading, engine start, batch, shutdown. */
  wallSeconds: number;
  /**
   * CPU time of the process (all its threads: main, tesseract.js workers, libuv pool), user + system,
   * as last read from /proc/<pid>/stat (every 50 ms: the last moments before the exit are not seen);
   * undefined off Linux.
   */
  cpuSeconds: number | undefined;
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  summary: BatchSummary | undefined;
  /** The last lines of stderr (for a failure's message). */
  stderrTail: string;
}

/** `4.2 s`, `3 min 05 s`, `1 h 02 min` (src/cli/progress.ts formatDuration) in seconds. */
function parseDuration(text: string): number | undefined {
  let m = /^([\d.]+) s$/.exec(text);
  if (m) return Number(m[1]);
  m = /^(\d+) min (\d+) s$/.exec(text);
  if (m) return Number(m[1]) * 60 + Number(m[2]);
  m = /^(\d+) h (\d+) min$/.exec(text);
  if (m) return Number(m[1]) * 3600 + Number(m[2]) * 60;
  return undefined;
}

/**
 * The summary line, e.g. `docex extract: 60 files, 150 pages, 0 failed, 7.3 s (8.21 files/s)`. The
 * seconds are taken from the rate (printed with two decimals) when it is large enough to be more exact
 * than the duration (printed to a tenth of a second, or to the second past one minute).
 */
export function parseSummary(stderr: string, command: string): BatchSummary | undefined {
  const re = new RegExp(
    `docex ${command}: (\\d+) files?, (\\d+) pages?, (\\d+) failed(?: \\(([^)]*)\\))?, (.+?) \\(([\\d.]+) files/s\\)`,
  );
  const m = re.exec(stderr);
  if (!m) return undefined;
  const files = Number(m[1]);
  const filesPerSecond = Number(m[6]);
  const printed = parseDuration(m[5]!);
  const fromRate = filesPerSecond >= 1 ? files / filesPerSecond : undefined;
  const seconds = fromRate ?? printed;
  if (seconds === undefined) return undefined;
  return {
    files,
    pages: Number(m[2]),
    failed: Number(m[3]),
    failures: m[4] ?? '',
    seconds,
    filesPerSecond,
  };
}

/** Clock ticks per second of /proc/<pid>/stat (USER_HZ: 100 on Linux x86 and arm). */
const USER_HZ = 100;

/** User + system CPU seconds of a process and all its threads so far, or undefined. */
export function procCpuSeconds(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which is in parentheses and may hold spaces): utime is the 14th
    // field of the line, stime the 15th.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const utime = Number(fields[11]);
    const stime = Number(fields[12]);
    return Number.isFinite(utime) && Number.isFinite(stime) ? (utime + stime) / USER_HZ : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Runs `node <bin> <args>` to its exit, timing it from the spawn; `onLine` sees each stderr line as it
 * comes (the `--progress plain` lines), `onSpawn` the child's pid.
 */
export function runCli(
  bin: string,
  args: string[],
  options: {
    command: string;
    onSpawn?: (pid: number) => void;
    onLine?: (line: string) => void;
    timeoutMs?: number;
  },
): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const start = performance.now();
    const child = spawn(process.execPath, [bin, ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
    let cpuSeconds: number | undefined;
    const pid = child.pid;
    const cpuTimer =
      pid === undefined
        ? undefined
        : setInterval(() => {
            cpuSeconds = procCpuSeconds(pid) ?? cpuSeconds;
          }, 50);
    if (pid !== undefined) options.onSpawn?.(pid);
    const tail: string[] = [];
    const lines = createInterface({ input: child.stderr });
    lines.on('line', (line) => {
      tail.push(line);
      if (tail.length > 40) tail.shift();
      options.onLine?.(line);
    });
    const timer =
      options.timeoutMs === undefined
        ? undefined
        : setTimeout(() => child.kill('SIGKILL'), options.timeoutMs).unref();
    child.on('error', (error) => {
      if (timer) clearTimeout(timer);
      if (cpuTimer) clearInterval(cpuTimer);
      reject(error);
    });
    child.on('close', (exitCode, signal) => {
      const wallSeconds = (performance.now() - start) / 1000;
      if (timer) clearTimeout(timer);
      if (cpuTimer) clearInterval(cpuTimer);
      const stderrTail = tail.join('\n');
      resolve({
        wallSeconds,
        cpuSeconds,
        exitCode,
        signal,
        summary: parseSummary(stderrTail, options.command),
        stderrTail,
      });
    });
  });
}

/** Why a run does not count (it failed, or some file failed), or undefined when it is good. */
export function runProblem(result: CliRun, files: number): string | undefined {
  if (result.signal) return `docex was killed (${result.signal})`;
  if (!result.summary) return `no summary line (exit ${result.exitCode}): ${result.stderrTail.slice(-500)}`;
  if (result.summary.files !== files)
    return `${result.summary.files} lines written for ${files} files (exit ${result.exitCode})`;
  if (result.summary.failed > 0) return `${result.summary.failed} files failed (${result.summary.failures})`;
  if (result.exitCode !== 0) return `docex exited with ${result.exitCode}`;
  return undefined;
}

export interface ExtractLine {
  file: string;
  status?: string;
  error?: { code: string; message: string };
  results?: { fields: Array<{ name: string; value: unknown }> };
}

export async function readJsonLines(file: string): Promise<ExtractLine[]> {
  const text = await readFile(file, 'utf8');
  return text
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as ExtractLine);
}

/**
 * The header fields of a line that have a value (strings, numbers, booleans), by name. Tables (line
 * items) are left out: their cells carry boxes, and how a row is cut into cells is not a field value.
 */
export function fieldValues(line: ExtractLine | undefined): Map<string, string> {
  const values = new Map<string, string>();
  for (const field of line?.results?.fields ?? []) {
    const { value } = field;
    if (typeof value === 'string' ? value !== '' : typeof value === 'number' || typeof value === 'boolean')
      values.set(field.name, String(value));
  }
  return values;
}

export interface FieldAgreement {
  /** Header fields with a value on the born-digital originals. */
  compared: number;
  /** Of those, the scans gave the same value. */
  same: number;
  /** The scans gave no value. */
  missing: number;
  /** `file field: original -> scan` for each other value. */
  different: string[];
}

/**
 * How many of the header fields read from the born-digital originals the scans gave with the same
 * value: lines are matched by file name without its extension.
 */
export function fieldAgreement(reference: ExtractLine[], scanned: ExtractLine[]): FieldAgreement {
  const key = (file: string): string => path.basename(file).replace(/\.[^.]+$/, '');
  const scans = new Map(scanned.map((l) => [key(l.file), l]));
  const result: FieldAgreement = { compared: 0, same: 0, missing: 0, different: [] };
  for (const line of reference) {
    const want = fieldValues(line);
    const got = fieldValues(scans.get(key(line.file)));
    for (const [name, value] of want) {
      result.compared++;
      const found = got.get(name);
      if (found === value) result.same++;
      else if (found === undefined) result.missing++;
      else
        result.different.push(
          `${key(line.file)} ${name}: ${JSON.stringify(value)} -> ${JSON.stringify(found)}`,
        );
    }
  }
  return result;
}

// ---------------------------------------------------------------------------------------------------
// Documents

/** `count` single-invoice text PDFs of 1 to 4 pages adding up to `pages` (bench/lib/multi.ts drawing). */
export async function makeTextFolder(
  dir: string,
  seed: number,
  count: number,
  pages: number,
): Promise<{ files: string[]; pages: number; bytes: number }> {
  await mkdir(dir, { recursive: true });
  const counts = pageCountsSumming(seed, count, pages);
  let bytes = 0;
  const files: string[] = [];
  for (const [i, n] of counts.entries()) {
    const doc = await makeMultiDocument({ seed: seed + 1 + i, pageCounts: [n], pageMarks: 0.5 });
    const file = path.join(dir, `invoice-${String(i + 1).padStart(3, '0')}.pdf`);
    await writeFile(file, doc.pdf);
    bytes += doc.pdf.byteLength;
    files.push(file);
  }
  return { files, pages, bytes };
}

async function renderGrey(pdf: Uint8Array, dpi: number): Promise<GreyImage[]> {
  const doc = await createPdfjsReader().open(pdf);
  const images: GreyImage[] = [];
  try {
    for (let n = 1; n <= doc.pageCount; n++) {
      const page = await doc.page(n);
      try {
        images.push((await page.render({ dpi, maxPixels: 50_000_000 })).image);
      } finally {
        page.release();
      }
    }
  } finally {
    await doc.close();
  }
  return images;
}

/** One unit of the native scan pipeline: a page of a scanned PDF, or an image file. */
export type ScanPage = { kind: 'pdf'; file: string; page: number } | { kind: 'image'; file: string };

export interface ScanFolder {
  /** The scans: image-only PDFs and PNG/JPEG files. */
  files: string[];
  /** The born-digital originals, one per scan, same name with .pdf (the extraction reference). */
  originals: string[];
  pages: ScanPage[];
  /** The printed words of every page, in order. */
  expected: string[];
  bytes: number;
  jpegEncoder: string;
}

/**
 * Scanned invoices: `pdfPages` (page counts of image-only PDFs, each page a `dpi` greyscale JPEG as
 * bench/lib/multi.ts makeScannedMulti makes it) and `images` single-page invoices as image files (PNG,
 * JPEG, taking turns). The text originals go to `originalsDir` under the same names.
 */
export async function makeScanFolder(
  dir: string,
  originalsDir: string,
  seed: number,
  pdfPages: number[],
  images: number,
  dpi: number,
): Promise<ScanFolder> {
  await mkdir(dir, { recursive: true });
  await mkdir(originalsDir, { recursive: true });
  const folder: ScanFolder = { files: [], originals: [], pages: [], expected: [], bytes: 0, jpegEncoder: '' };
  const words = (doc: MultiDocument): string[] =>
    doc.pages.flatMap((p) => p.lines.flatMap((l) => splitWords(l.text)));
  const add = async (name: string, doc: MultiDocument, bytes: Uint8Array): Promise<string> => {
    const file = path.join(dir, name);
    await writeFile(file, bytes);
    const original = path.join(originalsDir, name.replace(/\.[^.]+$/, '.pdf'));
    await writeFile(original, doc.pdf);
    folder.files.push(file);
    folder.originals.push(original);
    folder.expected.push(...words(doc));
    folder.bytes += bytes.byteLength;
    return file;
  };
  for (const [i, n] of pdfPages.entries()) {
    const doc = await makeMultiDocument({ seed: seed + i, pageCounts: [n], pageMarks: 0.5 });
    const scan = await makeScannedMulti(doc, dpi);
    folder.jpegEncoder = scan.encoder;
    const file = await add(`scan-${String(i + 1).padStart(2, '0')}.pdf`, doc, scan.pdf);
    for (let page = 1; page <= n; page++) folder.pages.push({ kind: 'pdf', file, page });
  }
  for (let i = 0; i < images; i++) {
    const doc = await makeMultiDocument({ seed: seed + 100 + i, pageCounts: [1], pageMarks: 0.5 });
    const name = `photo-${String(i + 1).padStart(2, '0')}`;
    let file: string;
    if (i % 2 === 0) {
      const [image] = await renderGrey(doc.pdf, dpi);
      file = await add(`${name}.png`, doc, encodeGreyPng(image!));
    } else {
      const scan = await makeScannedMulti(doc, dpi);
      file = await add(`${name}.jpg`, doc, scan.jpegs[0]!);
    }
    folder.pages.push({ kind: 'image', file });
  }
  return folder;
}

const SNIPPETS: ReadonlyArray<(n: number) => [string, string]> = [
  (n) => [`Invoice No: INV-${10000 + n}`, `Total due EUR ${(n * 7.31 + 12).toFixed(2)}`],
  (n) => [`Receipt ${n} Thank you`, `Paid GBP ${(n * 3.17 + 5).toFixed(2)}`],
  (n) => [`Order ref PO-${40000 + n}`, `Delivery note ${n}`],
];

/** A small greyscale PNG of two short printed lines (a photographed label or stub), at `dpi`. */
async function smallWordsPng(n: number, dpi: number): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  const page = pdf.addPage([300, 70]);
  const [first, second] = SNIPPETS[n % SNIPPETS.length]!(n);
  page.drawText(first, { x: 16, y: 42, size: 13, font });
  page.drawText(second, { x: 16, y: 18, size: 13, font });
  const [image] = await renderGrey(await pdf.save(), dpi);
  return encodeGreyPng(image!);
}

/**
 * `count` small files for the long run: one-page text invoices, and every `imageEvery`-th file a small
 * PNG of a few words (so about 1/imageEvery of the files need OCR). Sorted by name, the images are
 * spread through the run.
 */
export async function makeMixedFolder(
  dir: string,
  seed: number,
  count: number,
  imageEvery: number,
  dpi: number,
): Promise<{ files: number; images: number; pdfs: number; bytes: number }> {
  await mkdir(dir, { recursive: true });
  let images = 0;
  let bytes = 0;
  for (let i = 1; i <= count; i++) {
    const name = `file-${String(i).padStart(4, '0')}`;
    let data: Uint8Array;
    let file: string;
    if (i % imageEvery === 0) {
      data = await smallWordsPng(i, dpi);
      file = `${name}.png`;
      images++;
    } else {
      data = (await makeMultiDocument({ seed: seed + i, pageCounts: [1], pageMarks: 0 })).pdf;
      file = `${name}.pdf`;
    }
    await writeFile(path.join(dir, file), data);
    bytes += data.byteLength;
  }
  return { files: count, images, pdfs: count - images, bytes };
}

// ---------------------------------------------------------------------------------------------------
// Native baselines

/** pdftotext -bbox-layout over every file, one process per file, `slots` at a time; seconds. */
export async function pdftotextFolder(files: string[], outDir: string, slots: number): Promise<number> {
  await mkdir(outDir, { recursive: true });
  const start = performance.now();
  await runPool(
    files.map(
      (file, i) => () =>
        run('pdftotext', ['-bbox-layout', file, path.join(outDir, `${String(i).padStart(4, '0')}.html`)]),
    ),
    slots,
  );
  return (performance.now() - start) / 1000;
}

/**
 * The native scan pipeline: per page, `pdftoppm -r <dpi> -gray` of that page (for a PDF) then
 * `tesseract ... -c tessedit_create_tsv=1` on the page image (or on the image file itself), one page per process chain and
 * `slots` chains at a time, each tesseract on one thread (OMP_THREAD_LIMIT=1). Answers the seconds and
 * the words tesseract found.
 */
export async function nativeScanPipeline(
  pages: ScanPage[],
  outDir: string,
  slots: number,
  dpi: number,
  tessdataDir?: string,
): Promise<{ seconds: number; words: string[] }> {
  await mkdir(outDir, { recursive: true });
  const env = { ...process.env, OMP_THREAD_LIMIT: '1' };
  const outs = pages.map((_, i) => path.join(outDir, `page-${String(i + 1).padStart(3, '0')}`));
  const start = performance.now();
  await runPool(
    pages.map((page, i) => async () => {
      let image = page.file;
      if (page.kind === 'pdf') {
        const prefix = `${outs[i]!}-raster`;
        await run('pdftoppm', [
          '-f',
          String(page.page),
          '-l',
          String(page.page),
          '-r',
          String(dpi),
          '-gray',
          '-singlefile',
          page.file,
          prefix,
        ]);
        image = `${prefix}.pgm`;
      }
      await run(
        'tesseract',
        [
          image,
          outs[i]!,
          ...(tessdataDir ? ['--tessdata-dir', tessdataDir] : []),
          '-l',
          'eng',
          '--oem',
          '1',
          '--psm',
          '3',
          '--dpi',
          String(dpi),
          // The tsv output; as a variable rather than the `tsv` config file, which another --tessdata-dir lacks.
          '-c',
          'tessedit_create_tsv=1',
        ],
        env,
      );
    }),
    slots,
  );
  const seconds = (performance.now() - start) / 1000;
  const words: string[] = [];
  for (const out of outs) {
    const tsv = await readFile(`${out}.tsv`, 'utf8');
    for (const row of tsv.split('\n').slice(1)) {
      const cells = row.split('\t');
      // level 5 = word; the text is the 12th column.
      if (cells[0] === '5' && cells[11] && cells[11].trim() !== '') words.push(cells[11].trim());
    }
  }
  return { seconds, words };
}

// ---------------------------------------------------------------------------------------------------
// Memory over a long run

export interface MemoryPoint {
  /** Files finished when sampled (the progress line's count), or undefined for a timed sample. */
  files?: number;
  seconds: number;
  rssBytes: number;
}

/** Least-squares slope of y over x (undefined for fewer than two distinct x). */
export function slope(points: Array<[number, number]>): number | undefined {
  const n = points.length;
  if (n < 2) return undefined;
  const mx = points.reduce((a, [x]) => a + x, 0) / n;
  const my = points.reduce((a, [, y]) => a + y, 0) / n;
  let num = 0;
  let den = 0;
  for (const [x, y] of points) {
    num += (x - mx) * (y - my);
    den += (x - mx) ** 2;
  }
  return den === 0 ? undefined : num / den;
}

/** `[n/total] file: ok (...)` from `--progress plain`: the count and the outcome. */
export function parseProgressLine(
  line: string,
): { done: number; total: number; outcome: string } | undefined {
  const m = /^\[(\d+)\/(\d+)\] .*: (\S+) \([\d.]+ files\/s/.exec(line);
  return m ? { done: Number(m[1]), total: Number(m[2]), outcome: m[3]! } : undefined;
}
