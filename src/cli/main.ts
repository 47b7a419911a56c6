import { createWriteStream } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { isDocexError } from '../core/errors.js';
import type { OcrMode } from '../documents/ingest.js';
import { createEngine, type Engine, type EngineOptions } from '../engine.js';
import { collectFiles } from './files.js';

const USAGE = `docex: document data extraction, offline

Usage:
  docex extract <file|dir>... [--product ID]... [--locale LOCALE] [--out FILE] [--verbose]
                [--data-dir DIR]
      Reads the fields of each PDF, PNG or JPEG (directories are walked), as svc.extract jobs.
      One JSON line per file: {file, fileId, status, results: {timestamp, fields}} or
      {file, error: {code, message}}.
      --product: product or fieldset ids (invoices:2, receipts:1, svc.invoice), repeatable or comma
      separated; default invoices:2 and receipts:1 together.
      --data-dir: keep files, token layers, jobs and results there (SQLite + files), as \`docex serve\`
      does; without it everything stays in memory.
  docex split <file|dir>... [--out FILE] [--data-dir DIR]
      Finds the documents inside each file (svc.split). One JSON line per file:
      {file, fileId, children: [{file_id, pages: [first, last], confidence}]}.
  docex ingest <file|dir>... [--ocr auto|always|never] [--text] [--out FILE]
      Reads each file into its token layer (words with boxes, lines, blocks): one JSON line per file
      {file, fileId, pages, tokens, lines, blocks} (with --text, the text line by line).
  docex serve [--port N] [--host ADDR] [--data-dir DIR] [--client ID:SECRET[:ACCOUNT]]... [--namespace NS]
      The HTTP interface (v1 and v2) on the embedded defaults: files and a SQLite database in
      --data-dir (default ./docex-data), port 8080 on 127.0.0.1. Without --client it creates a client
      of the account "default" and prints its id and secret. SIGTERM or Ctrl-C stops it cleanly.
  docex --help

Exit code 1 when any file failed, 2 for a usage error.`;

const DEFAULT_PRODUCTS = ['invoices:2', 'receipts:1'];

export async function main(argv: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        ocr: { type: 'string', default: 'auto' },
        out: { type: 'string' },
        text: { type: 'boolean', default: false },
        product: { type: 'string', multiple: true },
        locale: { type: 'string' },
        'data-dir': { type: 'string' },
        port: { type: 'string' },
        host: { type: 'string' },
        client: { type: 'string', multiple: true },
        namespace: { type: 'string' },
        verbose: { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      },
    });
  } catch (error) {
    process.stderr.write(`docex: ${(error as Error).message}\n\n${USAGE}\n`);
    return 2;
  }
  const { positionals, values } = parsed;
  const [command, ...args] = positionals;
  if (values.help || !command) {
    process.stdout.write(USAGE + '\n');
    return values.help ? 0 : 2;
  }
  if (command === 'serve') return serve(values);
  if (command !== 'ingest' && command !== 'extract' && command !== 'split') {
    process.stderr.write(`docex: unknown command "${command}"\n\n${USAGE}\n`);
    return 2;
  }
  const ocr = values.ocr as OcrMode;
  if (!['auto', 'always', 'never'].includes(ocr)) {
    process.stderr.write('docex: --ocr must be auto, always or never\n');
    return 2;
  }
  const files = await collectFiles(args);
  if (files.length === 0) {
    process.stderr.write('docex: give at least one file or a directory holding documents\n');
    return 2;
  }
  const products = (values.product ?? DEFAULT_PRODUCTS)
    .flatMap((p) => p.split(','))
    .map((p) => p.trim())
    .filter(Boolean);
  const out = values.out ? createWriteStream(values.out) : process.stdout;
  // A local batch: no upload limits beyond the machine's.
  const engine = createEngine({
    limits: { maxFileBytes: 512 * 1024 * 1024, maxPages: 1000 },
    ingest: { ocr },
    ...(values['data-dir'] ? await durableStorage(values['data-dir']) : {}),
  });
  const progress =
    values.out && process.stderr.isTTY
      ? (n: number, file: string) =>
          process.stderr.write(`\r[${n}/${files.length}] ${path.basename(file).slice(0, 60).padEnd(60)}`)
      : undefined;
  let failed = 0;
  try {
    // A product id nobody knows is a usage error, found before any file is read.
    if (command === 'extract') engine.catalogue.resolve(products);
    for (const [index, file] of files.entries()) {
      progress?.(index + 1, file);
      let line: Record<string, unknown>;
      try {
        line =
          command === 'extract'
            ? await extractOne(engine, file, products, values)
            : command === 'split'
              ? await splitOne(engine, file)
              : await ingestOne(engine, file, values.text);
      } catch (error) {
        failed++;
        line = {
          file,
          error: isDocexError(error)
            ? { code: error.code, message: error.message }
            : { code: 'IO_ERROR', message: (error as Error).message },
        };
      }
      out.write(JSON.stringify(line) + '\n');
    }
    if (progress) process.stderr.write('\n');
  } catch (error) {
    process.stderr.write(`docex: ${isDocexError(error) ? error.message : (error as Error).message}\n`);
    return 2;
  } finally {
    await engine.close();
    if (out !== process.stdout) await new Promise<void>((resolve) => out.end(resolve));
  }
  return failed > 0 ? 1 : 0;
}

async function extractOne(
  engine: Engine,
  file: string,
  products: string[],
  options: { locale?: string | undefined; verbose?: boolean | undefined },
): Promise<Record<string, unknown>> {
  const record = await engine.upload(await readFile(file), {
    name: path.basename(file),
    flow: 'v2',
    ...(options.locale ? { locale: options.locale } : {}),
  });
  await engine.invoke('svc.extract', { inputs: { file_id: record.fileId, product_ids: products } });
  for (;;) {
    const result = await engine.getResult(record.fileId, {
      timeoutMs: 60_000,
      verbose: options.verbose === true,
    });
    if (result.status === 'FINALISED') return { file, ...result };
  }
}

async function serve(values: {
  port?: string | undefined;
  host?: string | undefined;
  'data-dir'?: string | undefined;
  client?: string[] | undefined;
  namespace?: string | undefined;
}): Promise<number> {
  const port = Number(values.port ?? process.env.PORT ?? 8080);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    process.stderr.write('docex: --port must be a port number\n');
    return 2;
  }
  const { startServer } = await import('./serve.js');
  let running;
  try {
    running = await startServer({
      port,
      host: values.host ?? '127.0.0.1',
      dataDir: values['data-dir'] ?? './docex-data',
      clients: values.client ?? [],
      ...(values.namespace ? { namespace: values.namespace } : {}),
    });
  } catch (error) {
    process.stderr.write(`docex: ${(error as Error).message}\n`);
    return 1;
  }
  const server = running;
  await new Promise<void>((resolve) => {
    const stop = (signal: string): void => {
      process.stdout.write(`docex: ${signal}, finishing running jobs and stopping\n`);
      void server.close().then(resolve);
    };
    process.once('SIGTERM', () => stop('SIGTERM'));
    process.once('SIGINT', () => stop('SIGINT'));
  });
  return 0;
}

async function splitOne(engine: Engine, file: string): Promise<Record<string, unknown>> {
  const record = await engine.upload(await readFile(file), { name: path.basename(file), flow: 'v2' });
  await engine.invoke('svc.split', { inputs: { file_id: record.fileId } });
  for (;;) {
    const result = await engine.getResult(record.fileId, { timeoutMs: 60_000, verbose: true });
    if (result.status !== 'FINALISED') continue;
    const field = result.results.fields.find((f) => f.name === 'components.children');
    const children = field && 'children' in field ? (field.children ?? []) : [];
    return { file, fileId: record.fileId, children };
  }
}

/** The embedded durable defaults: files in DIR/files, everything else in the SQLite file DIR/docex.db. */
async function durableStorage(dir: string): Promise<Pick<EngineOptions, 'files' | 'persistence'>> {
  const [{ createFsFileStore }, { createSqlitePersistence }] = await Promise.all([
    import('../adapters/stores/fs-file-store.js'),
    import('../adapters/persistence/sqlite-persistence.js'),
  ]);
  return {
    files: createFsFileStore({ dir: path.join(dir, 'files') }),
    persistence: createSqlitePersistence({ path: path.join(dir, 'docex.db') }),
  };
}

async function ingestOne(
  engine: Engine,
  file: string,
  withText: boolean | undefined,
): Promise<Record<string, unknown>> {
  const record = await engine.upload(await readFile(file), { name: path.basename(file) });
  const layer = await engine.ingest(record.fileId);
  const line: Record<string, unknown> = {
    file,
    fileId: record.fileId,
    pages: layer.pages,
    tokens: layer.tokens.length,
    lines: layer.lines.length,
    blocks: layer.blocks.length,
  };
  if (withText)
    line.text = layer.lines
      .map((l) => l.tokenIds.map((id) => layer.tokens[id]?.text ?? '').join(' '))
      .join('\n');
  return line;
}
