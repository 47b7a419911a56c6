import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { DEFAULT_PRODUCTS } from '../products/builtin.js';
import { exceededLimit } from '../core/plain-data.js';
import os from 'node:os';
import path from 'node:path';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import type { OcrEngineChoice } from '../default-adapters.js';
import type { OcrMode } from '../documents/ingest.js';
import { Interrupt, runBatch, summary } from './batch.js';
import { docexVersion } from './version.js';
import {
  BATCH_COMMANDS,
  openBatchEngine,
  SetupError,
  type BatchCommand,
  type BatchSetup,
} from './batch-engine.js';
import { startEngineThreads } from './engine-thread-pool.js';
import { collectFiles } from './files.js';
import { COMMAND_HELP, GENERAL_HELP } from './help.js';
import { fileWriter, readPreviousRun, streamWriter, type LineWriter, type OutStream } from './output.js';
import { resolveServeConfig, ServeConfigError, type ServeArgs, type ServeConfig } from './serve-config.js';
import { createProgress, type Progress, type ProgressMode, type ProgressStream } from './progress.js';
import type { FileWork } from './file-work.js';
import { REVIEWERS_OPTIONS, reviewersCommand, ReviewersUsageError } from './reviewers.js';

/** The streams the command writes to: the process's, or a test's. */
export interface CliIo {
  stdout: OutStream & { isTTY?: boolean };
  stderr: ProgressStream;
  /** Read by `docex reviewers --password-stdin`. */
  stdin: AsyncIterable<Uint8Array | string> | Iterable<string>;
  env: Record<string, string | undefined>;
}

const BATCH_OPTIONS = {
  out: { type: 'string' },
  resume: { type: 'boolean', default: false },
  concurrency: { type: 'string' },
  threads: { type: 'string' },
  progress: { type: 'string', default: 'auto' },
  ocr: { type: 'string', default: 'auto' },
  'ocr-engine': { type: 'string', default: 'auto' },
  'data-dir': { type: 'string' },
  help: { type: 'boolean', short: 'h', default: false },
} as const satisfies ParseArgsConfig['options'];

const COMMAND_OPTIONS = {
  extract: {
    ...BATCH_OPTIONS,
    product: { type: 'string', multiple: true },
    locale: { type: 'string' },
    verbose: { type: 'boolean', default: false },
  },
  split: BATCH_OPTIONS,
  validate: {
    ...BATCH_OPTIONS,
    product: { type: 'string', multiple: true },
    rules: { type: 'string' },
    locale: { type: 'string' },
    verbose: { type: 'boolean', default: false },
  },
  ingest: { ...BATCH_OPTIONS, text: { type: 'boolean', default: false } },
  serve: {
    config: { type: 'string' },
    port: { type: 'string' },
    host: { type: 'string' },
    'data-dir': { type: 'string' },
    client: { type: 'string', multiple: true },
    'clients-file': { type: 'string' },
    namespace: { type: 'string' },
    'ocr-engine': { type: 'string' },
    'webhooks-allow-private': { type: 'boolean', default: false },
    'trust-proxy': { type: 'boolean', default: false },
    'log-level': { type: 'string' },
    'no-metrics': { type: 'boolean', default: false },
    'database-url': { type: 'string' },
    'database-schema': { type: 'string' },
    files: { type: 'string' },
    help: { type: 'boolean', short: 'h', default: false },
  },
} as const satisfies Record<string, ParseArgsConfig['options']>;

/** Thrown for a usage error: printed with a pointer to the command's help, exit code 2. */
class UsageError extends Error {}

/**
 * `docex <command> ...`: answers the exit code (0 all good, 1 some file failed, 2 usage error, 130
 * interrupted) rather than exiting, so tests and hosts can call it.
 */
export async function main(argv: string[], io: Partial<CliIo> = {}): Promise<number> {
  const stdout = io.stdout ?? process.stdout;
  const stderr = io.stderr ?? process.stderr;
  const [first, ...rest] = argv;
  if (first === undefined) {
    stderr.write(GENERAL_HELP + '\n');
    return 2;
  }
  // `--version` answers before anything else, after a command too (`docex extract --version`).
  if (first === '--version' || first === '-V' || (!first.startsWith('-') && rest.includes('--version'))) {
    stdout.write(`docex ${docexVersion()} (node ${process.versions.node})\n`);
    return 0;
  }
  if (first === '-h' || first === '--help' || (first === 'help' && rest.length === 0)) {
    stdout.write(GENERAL_HELP + '\n');
    return 0;
  }
  if (first === 'help') {
    const help = Object.hasOwn(COMMAND_HELP, rest[0]!) ? COMMAND_HELP[rest[0]!] : undefined;
    if (!help) return usage(stderr, undefined, `unknown command "${rest[0]}"`);
    stdout.write(help() + '\n');
    return 0;
  }
  if (first === 'reviewers')
    return reviewers(rest, { stdout, stderr, stdin: io.stdin ?? process.stdin, env: io.env ?? process.env });
  if (first !== 'serve' && !(BATCH_COMMANDS as readonly string[]).includes(first)) {
    return usage(
      stderr,
      undefined,
      first.startsWith('-') ? 'give a command first' : `unknown command "${first}"`,
    );
  }
  const command = first as BatchCommand | 'serve';
  let parsed;
  try {
    parsed = parseArgs({
      args: rest,
      allowPositionals: command !== 'serve',
      options: COMMAND_OPTIONS[command],
    });
  } catch (error) {
    return usage(stderr, command, (error as Error).message);
  }
  if (parsed.values.help) {
    stdout.write(COMMAND_HELP[command]!() + '\n');
    return 0;
  }
  try {
    // parseArgs checked every value against the command's options.
    if (command === 'serve') return await serve(parsed.values as ServeArgs, stderr);
    return await batch(command, parsed.positionals, parsed.values as BatchValues, { stdout, stderr });
  } catch (error) {
    if (error instanceof UsageError) return usage(stderr, command, error.message);
    throw error;
  }
}

async function reviewers(argv: string[], io: CliIo): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, allowPositionals: true, options: REVIEWERS_OPTIONS });
  } catch (error) {
    return usage(io.stderr, 'reviewers', (error as Error).message);
  }
  if (parsed.values.help) {
    io.stdout.write(COMMAND_HELP.reviewers!() + '\n');
    return 0;
  }
  if (parsed.positionals.length > 1) {
    return usage(io.stderr, 'reviewers', `one action only, not "${parsed.positionals.join(' ')}"`);
  }
  try {
    return await reviewersCommand(parsed.positionals[0], parsed.values, {
      stdout: io.stdout,
      stderr: io.stderr,
      env: io.env,
      readStdin: async () => {
        let text = '';
        for await (const chunk of io.stdin) {
          text += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
          if (text.includes('\n') || text.length > 64 * 1024) break;
        }
        return text;
      },
    });
  } catch (error) {
    if (error instanceof ReviewersUsageError) return usage(io.stderr, 'reviewers', error.message);
    io.stderr.write(`docex reviewers: ${(error as Error).message}\n`);
    return 1;
  }
}

function usage(stderr: ProgressStream, command: string | undefined, message: string): number {
  const name = command ? `docex ${command}` : 'docex';
  stderr.write(`${name}: ${message}\nRun '${name} --help' for the ${command ? 'options' : 'commands'}.\n`);
  return 2;
}

interface BatchValues {
  out?: string | undefined;
  resume?: boolean | undefined;
  concurrency?: string | undefined;
  threads?: string | undefined;
  progress?: string | undefined;
  ocr?: string | undefined;
  'ocr-engine'?: string | undefined;
  'data-dir'?: string | undefined;
  product?: string[] | undefined;
  rules?: string | undefined;
  locale?: string | undefined;
  verbose?: boolean | undefined;
  text?: boolean | undefined;
}

async function batch(
  command: BatchCommand,
  inputs: string[],
  values: BatchValues,
  io: Pick<CliIo, 'stdout' | 'stderr'>,
): Promise<number> {
  const { stdout, stderr } = io;
  // Options first: a usage error reads nothing and leaves an earlier --out file as it was.
  const ocr = (values.ocr ?? 'auto') as OcrMode;
  if (!['auto', 'always', 'never'].includes(ocr)) throw new UsageError('--ocr must be auto, always or never');
  const ocrEngine = await ocrEngineOption(values['ocr-engine']);
  const concurrencyOption = values.concurrency === undefined ? undefined : Number(values.concurrency);
  if (
    concurrencyOption !== undefined &&
    (!Number.isInteger(concurrencyOption) || concurrencyOption < 1 || concurrencyOption > 256)
  )
    throw new UsageError('--concurrency must be a whole number from 1 to 256');
  const progressOption = values.progress ?? 'auto';
  if (!['auto', 'bar', 'plain', 'none'].includes(progressOption))
    throw new UsageError('--progress must be auto, bar, plain or none');
  if (values.resume && !values.out)
    throw new UsageError('--resume needs --out FILE (the output to continue)');
  const products = (values.product ?? (command === 'extract' ? DEFAULT_PRODUCTS : []))
    .flatMap((p) => p.split(','))
    .map((p) => p.trim())
    .filter(Boolean);
  let rules: BatchSetup['rules'];
  if (command === 'validate') {
    if (products.length !== 1) throw new UsageError('--product takes exactly one product or fieldset id');
    if (!values.rules) throw new UsageError('--rules FILE is required');
    rules = await readRules(values.rules);
  }
  if (inputs.length === 0) throw new UsageError('give at least one file, directory or glob pattern');

  const { files: found, empty } = await collectFiles(inputs);
  for (const arg of empty) stderr.write(`docex ${command}: no document in "${arg}"\n`);
  if (found.length === 0) throw new UsageError('no file to read');
  const previous =
    values.resume && values.out
      ? await readPreviousRun(values.out).catch((error: Error) => {
          throw new UsageError(`cannot read ${values.out}: ${error.message}`);
        })
      : undefined;
  if (previous?.lastLine === 'dropped')
    stderr.write(`docex ${command}: removed a last line of ${values.out} cut short by an interruption\n`);
  const files = previous ? found.filter((f) => !previous.done.has(path.resolve(f))) : found;

  const cores = os.availableParallelism();
  const dataDir = values['data-dir'];
  const threads = resolveThreads(values.threads, dataDir, files.length, cores);
  const concurrency = concurrencyOption ?? (threads > 1 ? 2 * threads : cores);
  const setup: BatchSetup = {
    command,
    ocr,
    ocrEngine,
    products,
    rules,
    locale: values.locale,
    verbose: values.verbose === true,
    text: values.text === true,
    dataDir,
    concurrency: Math.ceil(concurrency / threads),
    // One OCR worker per core, shared by the threads (see threadRunner).
    ...(threads > 1 ? { sharedOcrWorkers: cores } : {}),
  };
  let progress: Progress | undefined;
  let out: LineWriter | undefined;
  let runner: { work: FileWork; close(): Promise<void>; abandon(): Promise<void> } | undefined;
  const interrupt = new Interrupt((text) => {
    progress?.stop();
    stderr.write(text + '\n');
  }).install();
  try {
    try {
      runner = threads > 1 ? await threadRunner(setup, threads) : await inProcessRunner(setup);
    } catch (error) {
      if (error instanceof SetupError) throw new UsageError(error.message);
      throw error;
    }
    const { work } = runner;
    out = values.out
      ? await fileWriter(values.out, { append: values.resume === true }).catch((error: Error) => {
          throw new UsageError(`cannot open ${values.out}: ${error.message}`);
        })
      : streamWriter(stdout);
    const mode: ProgressMode =
      progressOption === 'auto'
        ? stderr.isTTY && (values.out || !stdout.isTTY)
          ? 'bar'
          : 'none'
        : (progressOption as ProgressMode);
    progress = createProgress(mode, files.length, stderr);
    const report = await runBatch({ files, concurrency, work, out, progress, interrupt });
    progress.stop();
    await out.close();
    if (out.error) {
      stderr.write(`docex ${command}: the output could not be written (${out.error.message}); stopped\n`);
    }
    stderr.write(
      summary(command, report, {
        skipped: found.length - files.length,
        outFile: values.out,
        interrupted: interrupt.stopping,
      }),
    );
    if (interrupt.stopping) return 130;
    return report.failed > 0 || out.error ? 1 : 0;
  } finally {
    progress?.stop();
    await out?.close();
    // Abandoned files (a second Ctrl-C) are not waited for.
    await (interrupt.abandonedNow ? runner?.abandon() : runner?.close());
    interrupt.uninstall();
  }
}

/**
 * Engine threads: `--threads`, else one per FILES_PER_THREAD files, up to one per core, when the batch
 * is in memory. A data dir is one engine's SQLite database, so a batch keeping its data runs in this
 * thread.
 */
function resolveThreads(
  option: string | undefined,
  dataDir: string | undefined,
  files: number,
  cores: number,
) {
  if (option !== undefined) {
    const threads = Number(option);
    if (!Number.isInteger(threads) || threads < 1 || threads > 64)
      throw new UsageError('--threads must be a whole number from 1 to 64');
    if (threads > 1 && dataDir) throw new UsageError('--threads above 1 cannot be used with --data-dir');
    return Math.max(1, Math.min(threads, files));
  }
  return dataDir ? 1 : defaultThreads(files, cores);
}

/**
 * Each engine thread warms up on its own (module loading, and the JIT compiling pdf.js and extraction
 * again): about a second of CPU. Measured on 2 cores (BENCHMARKS.md), 2 threads beat one from about
 * 100 text PDFs; below that one thread finishes first. OCR needs no thread: its workers are threads.
 */
const FILES_PER_THREAD = 100;

/** Engine threads of an in-memory batch of `files` files on `cores` cores, unless --threads says. */
export function defaultThreads(files: number, cores: number): number {
  return Math.max(1, Math.min(cores, Math.floor(files / FILES_PER_THREAD)));
}

async function inProcessRunner(setup: BatchSetup) {
  const { engine, work } = await openBatchEngine(setup);
  const close = () => engine.close();
  return { work, close, abandon: close };
}

async function threadRunner(setup: BatchSetup, threads: number) {
  const workers = setup.sharedOcrWorkers;
  const pool = await startEngineThreads({
    threads,
    setup,
    ocr: async () => {
      const { defaultOcrEngine } = await import('../default-adapters.js');
      return defaultOcrEngine(workers === undefined ? {} : { workers }, setup.ocrEngine);
    },
  });
  return { work: pool.work, close: () => pool.close(), abandon: () => pool.terminate() };
}

async function readRules(file: string): Promise<NonNullable<BatchSetup['rules']>> {
  let text;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new UsageError(`cannot read the rules file: ${(error as Error).message}`);
  }
  let record: unknown;
  try {
    record = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`the rules file ${file} is not JSON: ${(error as Error).message}`);
  }
  // Refused here, before engine threads are given a copy (a copy of data nested thousands deep
  // overflows the stack): the rules checker itself accepts far less.
  const excess = exceededLimit(record, { maxDepth: 512, maxBytes: 64 * 1024 * 1024 });
  if (excess) {
    throw new UsageError(
      `the rules in ${file} are invalid (INVALID_RULES): they ${excess === 'depth' ? 'nest too deeply' : 'are too large'}`,
    );
  }
  const id = path.basename(file, path.extname(file)).slice(0, 256) || 'rules';
  return { id, record, file };
}

/**
 * `--ocr-engine`: auto, native or wasm; native is checked now, so that a missing program is a usage
 * error before any file is read rather than an error line for every scan.
 */
async function ocrEngineOption(value: string | undefined): Promise<OcrEngineChoice> {
  const choice = value ?? 'auto';
  if (choice !== 'auto' && choice !== 'native' && choice !== 'wasm')
    throw new UsageError('--ocr-engine must be auto, native or wasm');
  if (choice === 'native') {
    const { nativeTesseractVersion } = await import('../adapters/ocr/native-tesseract-ocr.js');
    if (!(await nativeTesseractVersion()))
      throw new UsageError(
        '--ocr-engine native needs the tesseract program, 5.x, on PATH (Debian: apt-get install tesseract-ocr)',
      );
  }
  return choice;
}

async function serve(values: ServeArgs, stderr: ProgressStream): Promise<number> {
  let config: ServeConfig;
  try {
    config = resolveServeConfig(values, process.env, (file) => readFileSync(file, 'utf8'));
  } catch (error) {
    if (error instanceof ServeConfigError) throw new UsageError(error.message);
    throw error;
  }
  const ocrEngine = await ocrEngineOption(config.ocrEngine);
  const { startServer } = await import('./serve.js');
  const { pino } = await import('pino');
  // JSON lines on stdout: requests, job changes, faults with their stacks, the start-up lines.
  const logger = pino(
    { level: config.logLevel, base: { pid: process.pid } },
    pino.destination({ dest: 1, sync: true }),
  );
  let running;
  try {
    running = await startServer({ ...config, ocrEngine, logger });
  } catch (error) {
    stderr.write(`docex: ${(error as Error).message}\n`);
    return 1;
  }
  const server = running;
  await new Promise<void>((resolve) => {
    const stop = (signal: string): void => {
      logger.info({ signal }, `docex: ${signal}, finishing running jobs and stopping`);
      void server.close().then(resolve);
    };
    process.once('SIGTERM', () => stop('SIGTERM'));
    process.once('SIGINT', () => stop('SIGINT'));
  });
  return 0;
}
