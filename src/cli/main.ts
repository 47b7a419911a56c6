import { mkdir, readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { isDocexError } from '../core/errors.js';
import type { OcrMode } from '../documents/ingest.js';
import { createEngine, type Engine, type EngineOptions } from '../engine.js';
import { Interrupt, runBatch, summary } from './batch.js';
import { collectFiles } from './files.js';
import { COMMAND_HELP, GENERAL_HELP } from './help.js';
import { fileWriter, readPreviousRun, streamWriter, type LineWriter, type OutStream } from './output.js';
import { createProgress, type Progress, type ProgressMode, type ProgressStream } from './progress.js';
import { extractWork, forgetting, ingestWork, splitWork, validateWork, type FileWork } from './work.js';

/** The streams the command writes to: the process's, or a test's. */
export interface CliIo {
  stdout: OutStream & { isTTY?: boolean };
  stderr: ProgressStream;
}

const DEFAULT_PRODUCTS = ['invoices:2', 'receipts:1'];
const BATCH_COMMANDS = ['extract', 'split', 'validate', 'ingest'] as const;
type BatchCommand = (typeof BATCH_COMMANDS)[number];

const BATCH_OPTIONS = {
  out: { type: 'string' },
  resume: { type: 'boolean', default: false },
  concurrency: { type: 'string' },
  progress: { type: 'string', default: 'auto' },
  ocr: { type: 'string', default: 'auto' },
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
    port: { type: 'string' },
    host: { type: 'string' },
    'data-dir': { type: 'string' },
    client: { type: 'string', multiple: true },
    namespace: { type: 'string' },
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
    if (command === 'serve') return await serve(parsed.values as ServeValues, stdout, stderr);
    return await batch(command, parsed.positionals, parsed.values as BatchValues, { stdout, stderr });
  } catch (error) {
    if (error instanceof UsageError) return usage(stderr, command, error.message);
    throw error;
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
  progress?: string | undefined;
  ocr?: string | undefined;
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
  io: CliIo,
): Promise<number> {
  const { stdout, stderr } = io;
  // Options first: a usage error reads nothing and leaves an earlier --out file as it was.
  const ocr = (values.ocr ?? 'auto') as OcrMode;
  if (!['auto', 'always', 'never'].includes(ocr)) throw new UsageError('--ocr must be auto, always or never');
  const concurrency =
    values.concurrency === undefined ? os.availableParallelism() : Number(values.concurrency);
  if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > 256)
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
  let rules: { id: string; record: unknown } | undefined;
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

  const storage = values['data-dir'] ? await durableStorage(values['data-dir']) : {};
  const engine = createEngine({
    // A local batch: no upload limits beyond the machine's.
    limits: { maxFileBytes: 512 * 1024 * 1024, maxPages: 1000 },
    ingest: { ocr },
    jobs: { concurrency: Math.max(4, concurrency), shutdownGraceMs: 2000 },
    ...storage,
  });
  let progress: Progress | undefined;
  let out: LineWriter | undefined;
  const interrupt = new Interrupt((text) => {
    progress?.stop();
    stderr.write(text + '\n');
  }).install();
  try {
    let work: FileWork;
    try {
      work = await prepare(command, engine, products, rules, values);
      // In memory, a file's data is dropped once its line is written: memory stays flat however long the
      // batch (with --data-dir it is kept, as the server keeps it).
      if (!values['data-dir']) work = forgetting(engine, work);
    } catch (error) {
      if (!isDocexError(error)) throw error;
      const details = error.details.map((d) => `\n  ${d.path ? `${d.path}: ` : ''}${d.message}`);
      throw new UsageError(`${error.message} (${error.code})${details.join('')}`);
    }
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
    await engine.close();
    interrupt.uninstall();
  }
}

/** Checks the products (and stores the rules) before any file is read; answers the work on one file. */
async function prepare(
  command: BatchCommand,
  engine: Engine,
  products: string[],
  rules: { id: string; record: unknown } | undefined,
  values: BatchValues,
): Promise<FileWork> {
  const options = { locale: values.locale, verbose: values.verbose === true };
  switch (command) {
    case 'extract':
      engine.resolveProducts(products);
      return extractWork(engine, { products, ...options });
    case 'validate':
      engine.resolveProducts(products);
      try {
        await engine.putValidationRules(rules!.id, rules!.record);
      } catch (error) {
        if (!isDocexError(error) || error.details.length === 0) throw error;
        const problems = error.details.map((d) => `\n  ${d.path ? `${d.path}: ` : ''}${d.message}`);
        throw new UsageError(`the rules in ${values.rules} are invalid (${error.code}):${problems.join('')}`);
      }
      return validateWork(engine, { product: products[0]!, rulesId: rules!.id, ...options });
    case 'split':
      return splitWork(engine);
    case 'ingest':
      return ingestWork(engine, { text: values.text === true });
  }
}

async function readRules(file: string): Promise<{ id: string; record: unknown }> {
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
  const id = path.basename(file, path.extname(file)).slice(0, 256) || 'rules';
  return { id, record };
}

/** The embedded durable defaults: files in DIR/files, everything else in the SQLite file DIR/docex.db. */
async function durableStorage(dir: string): Promise<Pick<EngineOptions, 'files' | 'persistence'>> {
  await mkdir(dir, { recursive: true });
  const [{ createFsFileStore }, { createSqlitePersistence }] = await Promise.all([
    import('../adapters/stores/fs-file-store.js'),
    import('../adapters/persistence/sqlite-persistence.js'),
  ]);
  return {
    files: createFsFileStore({ dir: path.join(dir, 'files') }),
    persistence: createSqlitePersistence({ path: path.join(dir, 'docex.db') }),
  };
}

interface ServeValues {
  port?: string | undefined;
  host?: string | undefined;
  'data-dir'?: string | undefined;
  client?: string[] | undefined;
  namespace?: string | undefined;
}

async function serve(values: ServeValues, stdout: CliIo['stdout'], stderr: ProgressStream): Promise<number> {
  const port = Number(values.port ?? process.env.PORT ?? 8080);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new UsageError('--port must be a port number');
  const { startServer } = await import('./serve.js');
  let running;
  try {
    running = await startServer({
      port,
      host: values.host ?? '127.0.0.1',
      dataDir: values['data-dir'] ?? './docex-data',
      clients: values.client ?? [],
      ...(values.namespace ? { namespace: values.namespace } : {}),
      log: (line) => stdout.write(line + '\n'),
    });
  } catch (error) {
    stderr.write(`docex: ${(error as Error).message}\n`);
    return 1;
  }
  const server = running;
  await new Promise<void>((resolve) => {
    const stop = (signal: string): void => {
      stdout.write(`docex: ${signal}, finishing running jobs and stopping\n`);
      void server.close().then(resolve);
    };
    process.once('SIGTERM', () => stop('SIGTERM'));
    process.once('SIGINT', () => stop('SIGINT'));
  });
  return 0;
}
