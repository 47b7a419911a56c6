/** Helpers of the command-line tests: documents on disk, captured streams, JSON Lines, a child process. */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { main } from '../../src/cli/main.js';
import { INVOICE_LINES, makeTextPdf, type TextLine } from '../helpers/make-documents.js';

export const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

let invoice: Uint8Array | undefined;
/** The generated invoice (total 150.00, number INV-20931). */
export async function invoicePdf(): Promise<Uint8Array> {
  invoice ??= await makeTextPdf([{ lines: INVOICE_LINES }]);
  return invoice;
}

/** An invoice whose total is `total`. */
export async function invoiceWithTotal(total: string): Promise<Uint8Array> {
  const lines: TextLine[] = INVOICE_LINES.map((l) =>
    l.text.startsWith('Total') ? { ...l, text: `Total ${total}` } : l,
  );
  return makeTextPdf([{ lines }]);
}

/** Writes good invoices and the three kinds of bad file a batch meets. */
export async function writeBadFiles(
  dir: string,
): Promise<{ text: string; empty: string; truncated: string }> {
  const pdf = await invoicePdf();
  const files = {
    text: path.join(dir, 'text-named.pdf'),
    empty: path.join(dir, 'empty.pdf'),
    truncated: path.join(dir, 'truncated.pdf'),
  };
  await fs.writeFile(files.text, 'This is a text file, whatever its name says.\n');
  await fs.writeFile(files.empty, '');
  await fs.writeFile(files.truncated, pdf.subarray(0, Math.floor(pdf.length / 2)));
  return files;
}

export async function writeInvoices(dir: string, names: string[]): Promise<string[]> {
  const pdf = await invoicePdf();
  const paths = names.map((n) => path.join(dir, n));
  for (const file of paths) {
    await fs.mkdir(path.dirname(file), { recursive: true });
    await fs.writeFile(file, pdf);
  }
  return paths;
}

/** A stream that keeps what is written: stdout or stderr of an in-process run. */
export interface Captured {
  readonly text: string;
  isTTY: boolean;
  columns: number;
  write(text: string): boolean;
  once(event: string, listener: () => void): Captured;
}

export function captured(isTTY = false): Captured {
  let text = '';
  return {
    get text() {
      return text;
    },
    isTTY,
    columns: 120,
    write(chunk: string) {
      text += chunk;
      return true;
    },
    once() {
      return this;
    },
  };
}

/** `main(argv)` with captured streams. */
export async function run(
  argv: string[],
  options: {
    stderrTTY?: boolean;
    stdoutTTY?: boolean;
    stdin?: string;
    env?: Record<string, string | undefined>;
  } = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  const stdout = captured(options.stdoutTTY ?? false);
  const stderr = captured(options.stderrTTY ?? false);
  const code = await main(argv, {
    stdout,
    stderr,
    stdin: [options.stdin ?? ''],
    ...(options.env ? { env: options.env } : {}),
  });
  return { code, stdout: stdout.text, stderr: stderr.text };
}

/** Parses JSON Lines, insisting that every line is whole (ends with a newline) and an object. */
export function parseLines(text: string): Array<Record<string, unknown>> {
  if (text === '') return [];
  if (!text.endsWith('\n')) throw new Error(`output does not end with a newline: ...${text.slice(-80)}`);
  return text
    .slice(0, -1)
    .split('\n')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

export async function readLines(file: string): Promise<Array<Record<string, unknown>>> {
  return parseLines(await fs.readFile(file, 'utf8'));
}

/** The command as a child process (`node --import tsx test/cli/run-cli.ts ...`), stdio piped. */
export function spawnCli(
  argv: string[],
  cwd = REPO,
  options: { peakMemory?: boolean; env?: Record<string, string>; stdin?: string } = {},
): ChildProcess & { output: { stdout: string; stderr: string } } {
  // peakMemory: the child reports its peak resident memory on exit (see peakRssMb).
  const hook = options.peakMemory ? ['--import', path.join(REPO, 'test/cli/peak-memory.ts')] : [];
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', ...hook, path.join(REPO, 'test/cli/run-cli.ts'), ...argv],
    {
      cwd,
      stdio: ['pipe', 'pipe', 'pipe'],
      env: { ...process.env, FORCE_COLOR: '0', ...options.env },
    },
  );
  // What the command reads from stdin (a password), or nothing: stdin ends at once.
  child.stdin.end(options.stdin ?? '');
  const output = { stdout: '', stderr: '' };
  child.stdout.setEncoding('utf8').on('data', (t: string) => (output.stdout += t));
  child.stderr.setEncoding('utf8').on('data', (t: string) => (output.stderr += t));
  return Object.assign(child, { output });
}

/** The peak resident memory a child spawned with `peakMemory` reported on exit, in MB. */
export function peakRssMb(stderr: string): number {
  const match = /\[peak-rss-kb (\d+)\]/.exec(stderr);
  if (!match) throw new Error(`no peak memory reported: ${stderr.slice(-300)}`);
  return Number(match[1]) / 1024;
}

/** How a child ended: its exit code, or the signal that killed it. */
export function exited(child: ChildProcess): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null)
      resolve({ code: child.exitCode, signal: child.signalCode });
    else child.once('exit', (code, signal) => resolve({ code, signal }));
  });
}

/** The URL a spawned `docex serve` says it listens on; rejects when it ends first. */
export function listeningUrl(
  child: ChildProcess & { output: { stdout: string; stderr: string } },
): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    const look = (): void => {
      const found = /listening on (http:\/\/[^\s"]+)/.exec(child.output.stdout);
      if (found) resolve(found[1]!);
    };
    child.stdout!.on('data', look);
    look();
    child.once('exit', () => reject(new Error(`serve ended: ${child.output.stderr}${child.output.stdout}`)));
  });
}
