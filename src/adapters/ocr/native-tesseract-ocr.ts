import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rename, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';
import { DocexError, toDocexError } from '../../core/errors.js';
import type { GreyImage } from '../../ports/image-backend.js';
import type { OcrEngine, OcrOptions, OcrWord } from '../../ports/ocr-engine.js';
import { englishModelDir } from './tesseract-model.js';

export interface NativeTesseractOcrOptions {
  /** The tesseract command (5.x): a path or a name looked up on PATH. Default `tesseract`. */
  binary?: string;
  /** Recognition processes at once (each one thread). Default: one per core. */
  workers?: number;
  /** A page taking longer fails with OCR_TIMEOUT (its process is killed). Default 120 s. */
  pageTimeoutMs?: number;
  /**
   * Language packs, as for the tesseract.js pool: a code and a folder holding `<code>.traineddata.gz`.
   * Default: the English model of @tesseract.js-data/eng, the very file the WebAssembly path reads, so
   * both paths read a page alike. Packs are unpacked once into a folder under the system's temporary
   * folder (`--tessdata-dir`).
   */
  languages?: Array<{ code: string; dir: string }>;
}

/** Words of TSV output above this many bytes: the page is refused (a page of text is well under 1 MB). */
const MAX_OUTPUT_BYTES = 64 * 1024 * 1024;

/**
 * Optical character recognition by the host's `tesseract` program (Debian's tesseract-ocr), one
 * process per page, at most `workers` at a time: about twice as fast as tesseract.js's WebAssembly on
 * the same model. The bitmap goes in on stdin as PGM, the words come back as TSV on stdout; no shell,
 * no file of the page on disk. A process that fails or takes too long fails its page only.
 */
export function createNativeTesseractOcr(options: NativeTesseractOcrOptions = {}): OcrEngine & {
  readonly concurrency: number;
} {
  const binary = options.binary ?? 'tesseract';
  const concurrency = Math.max(1, options.workers ?? os.availableParallelism());
  const pageTimeoutMs = options.pageTimeoutMs ?? 120_000;
  const languages = options.languages ?? [{ code: 'eng', dir: englishModelDir() }];
  if (languages.length === 0 || languages.some((l) => !/^[A-Za-z0-9_]{1,32}$/.test(l.code))) {
    throw new DocexError(
      'INVALID_ARGUMENT',
      'OCR languages need at least one pack, each with a code of letters, digits or _.',
    );
  }
  let models: Promise<string> | undefined;
  const queue: Array<() => void> = [];
  const running = new Set<ChildProcess>();
  let active = 0;
  let closed = false;

  const closedError = () => new DocexError('ENGINE_CLOSED', 'The OCR engine has been closed.');

  async function slot(): Promise<void> {
    if (active < concurrency) {
      active++;
      return;
    }
    await new Promise<void>((resolve) => queue.push(resolve));
    if (closed) throw closedError();
  }

  function release(): void {
    const next = queue.shift();
    if (next) next();
    else active--;
  }

  async function recognizeNow(image: GreyImage, opts: OcrOptions): Promise<OcrWord[]> {
    const tessdata = await (models ??= unpackModels(languages));
    if (closed) throw closedError();
    const args = [
      'stdin',
      'stdout',
      '--tessdata-dir',
      tessdata,
      '-l',
      languages.map((l) => l.code).join('+'),
      '--oem',
      '1',
      '--psm',
      String(opts.pageSegmentationMode ?? 3),
    ];
    if (opts.dpi) args.push('--dpi', String(Math.round(opts.dpi)));
    // TSV by parameter, not by the `tsv` config file (which is not in our tessdata folder).
    args.push('-c', 'tessedit_create_tsv=1', '-c', 'debug_file=/dev/null');
    const tsv = await runTesseract(binary, args, image, pageTimeoutMs, running, () => closed);
    return parseTsv(tsv);
  }

  return {
    concurrency,
    async recognize(image: GreyImage, opts: OcrOptions = {}): Promise<OcrWord[]> {
      if (closed) throw closedError();
      if (image.width < 1 || image.height < 1) return [];
      await slot();
      try {
        return await recognizeNow(image, opts);
      } catch (error) {
        if (closed) throw closedError();
        throw toDocexError(error, 'OCR_FAILED', 'Text recognition failed on this page.');
      } finally {
        release();
      }
    },
    async close(): Promise<void> {
      closed = true;
      for (const next of queue.splice(0)) next();
      for (const child of running) child.kill('SIGKILL');
    },
  };
}

function runTesseract(
  binary: string,
  args: string[],
  image: GreyImage,
  timeoutMs: number,
  running: Set<ChildProcess>,
  isClosed: () => boolean,
): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    const child = spawn(binary, args, {
      // One thread a process: the pool runs one process per core (OpenMP threads would fight them).
      env: { ...process.env, OMP_THREAD_LIMIT: '1' },
      stdio: ['pipe', 'pipe', 'pipe'],
      shell: false,
    });
    running.add(child);
    const chunks: Buffer[] = [];
    let size = 0;
    let stderr = '';
    let failure: DocexError | undefined;
    const timer = setTimeout(() => {
      failure = new DocexError('OCR_TIMEOUT', `Text recognition took longer than ${timeoutMs} ms on a page.`);
      child.kill('SIGKILL');
    }, timeoutMs);
    child.stdout.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_OUTPUT_BYTES) {
        failure ??= new DocexError('OCR_FAILED', 'Text recognition gave more output than a page can hold.');
        child.kill('SIGKILL');
        return;
      }
      chunks.push(chunk);
    });
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => {
      if (stderr.length < 2000) stderr += chunk;
    });
    // The process may end before it has read the whole image (a bad image): not an error of ours.
    child.stdin.on('error', () => undefined);
    child.on('error', (error: NodeJS.ErrnoException) => {
      failure ??=
        error.code === 'ENOENT'
          ? new DocexError('OCR_FAILED', `The tesseract program was not found (${binary}).`)
          : new DocexError(
              'OCR_FAILED',
              `The tesseract program could not be started (${error.code ?? 'error'}).`,
            );
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      running.delete(child);
      if (isClosed()) reject(new DocexError('ENGINE_CLOSED', 'The OCR engine has been closed.'));
      else if (failure) reject(failure);
      else if (code !== 0)
        reject(new DocexError('OCR_FAILED', `Text recognition failed on this page: ${firstLine(stderr)}`));
      else resolve(Buffer.concat(chunks).toString('utf8'));
    });
    const header = Buffer.from(`P5\n${image.width} ${image.height}\n255\n`, 'ascii');
    child.stdin.write(header);
    child.stdin.end(Buffer.from(image.data.buffer, image.data.byteOffset, image.data.byteLength));
  });
}

function firstLine(text: string): string {
  const line = text
    .split('\n')
    .map((l) => l.trim())
    .find((l) => l !== '' && !l.startsWith('Estimating resolution'));
  return (line ?? 'no reason given').slice(0, 200);
}

/** Words of tesseract's TSV output (level 5 rows): text, confidence 0..1, box in pixels. */
export function parseTsv(tsv: string): OcrWord[] {
  const words: OcrWord[] = [];
  for (const line of tsv.split('\n')) {
    const cells = line.split('\t');
    if (cells.length < 12 || cells[0] !== '5') continue;
    const text = cells.slice(11).join('\t').trim();
    if (text === '') continue;
    const [left, top, width, height, conf] = cells.slice(6, 11).map(Number) as [
      number,
      number,
      number,
      number,
      number,
    ];
    if (![left, top, width, height, conf].every(Number.isFinite)) continue;
    words.push({
      text,
      confidence: Math.max(0, Math.min(1, conf / 100)),
      x0: left,
      y0: top,
      x1: left + width,
      y1: top + height,
    });
  }
  return words;
}

/**
 * The packs unpacked into a folder of their own under the temporary folder, named by the packs'
 * files (path, size, time), so that every process and every engine of the machine shares one copy and
 * a changed pack gets a new folder. Written to a temporary name and renamed: never half a model.
 */
async function unpackModels(languages: Array<{ code: string; dir: string }>): Promise<string> {
  const hash = createHash('sha256');
  for (const pack of languages) {
    const file = path.join(pack.dir, `${pack.code}.traineddata.gz`);
    const info = await stat(file).catch(() => {
      throw new DocexError('OCR_FAILED', `No OCR language pack "${pack.code}" in ${pack.dir}.`);
    });
    hash.update(`${pack.code}\0${path.resolve(file)}\0${info.size}\0${info.mtimeMs}\0`);
  }
  const dir = path.join(os.tmpdir(), `docex-tessdata-${hash.digest('hex').slice(0, 16)}`);
  await mkdir(dir, { recursive: true });
  for (const pack of languages) {
    const target = path.join(dir, `${pack.code}.traineddata`);
    if (
      await stat(target).then(
        (s) => s.size > 0,
        () => false,
      )
    )
      continue;
    const partial = `${target}.${process.pid}.${Math.random().toString(36).slice(2)}.part`;
    try {
      await pipeline(
        createReadStream(path.join(pack.dir, `${pack.code}.traineddata.gz`)),
        createGunzip(),
        createWriteStream(partial),
      );
      await rename(partial, target);
    } catch (error) {
      await rm(partial, { force: true });
      throw toDocexError(error, 'OCR_FAILED', `The OCR language pack "${pack.code}" could not be unpacked.`);
    }
  }
  return dir;
}

/** The tesseract program's version when it is there and 5.x or later, else undefined. */
export function nativeTesseractVersion(binary = 'tesseract'): Promise<string | undefined> {
  return new Promise((resolve) => {
    let output = '';
    let child: ChildProcess;
    try {
      child = spawn(binary, ['--version'], { stdio: ['ignore', 'pipe', 'pipe'], shell: false });
    } catch {
      resolve(undefined);
      return;
    }
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    const collect = (chunk: Buffer) => {
      if (output.length < 4000) output += chunk.toString('utf8');
    };
    child.stdout?.on('data', collect);
    child.stderr?.on('data', collect);
    child.on('error', () => undefined);
    child.on('close', (code) => {
      clearTimeout(timer);
      const match = /tesseract v?(\d+)\.(\d+)(?:\.(\d+))?/i.exec(output);
      resolve(
        code === 0 && match && Number(match[1]) >= 5 ? match[0].replace(/^tesseract v?/i, '') : undefined,
      );
    });
  });
}
