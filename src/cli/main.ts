import { createWriteStream } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { createEngine } from '../engine.js';
import { isDocexError } from '../core/errors.js';
import type { OcrMode } from '../documents/ingest.js';

const USAGE = `docex: document data extraction, offline

Usage:
  docex ingest <file>... [--ocr auto|always|never] [--text] [--out FILE]
      Reads each PDF, PNG or JPEG into its token layer (words with boxes, lines, blocks) and prints
      one JSON line per file: {file, fileId, pages, tokens, lines, blocks} or {file, error}.
      --text adds the document's text, line by line; --out writes the lines to FILE.
  docex --help

Exit code 1 when any file failed.`;

export async function main(argv: string[]): Promise<number> {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      ocr: { type: 'string', default: 'auto' },
      out: { type: 'string' },
      text: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  const [command, ...files] = positionals;
  if (values.help || !command) {
    process.stdout.write(USAGE + '\n');
    return values.help ? 0 : 2;
  }
  if (command !== 'ingest') {
    process.stderr.write(`docex: unknown command "${command}"\n\n${USAGE}\n`);
    return 2;
  }
  const ocr = values.ocr as OcrMode;
  if (!['auto', 'always', 'never'].includes(ocr)) {
    process.stderr.write('docex: --ocr must be auto, always or never\n');
    return 2;
  }
  if (files.length === 0) {
    process.stderr.write('docex: give at least one file\n');
    return 2;
  }
  const out = values.out ? createWriteStream(values.out) : process.stdout;
  // A local batch: no upload limits beyond the machine's.
  const engine = createEngine({
    limits: { maxFileBytes: 512 * 1024 * 1024, maxPages: 1000 },
    ingest: { ocr },
  });
  let failed = 0;
  try {
    for (const file of files) {
      let line: Record<string, unknown>;
      try {
        const record = await engine.upload(await readFile(file), { name: path.basename(file) });
        const layer = await engine.ingest(record.fileId);
        line = {
          file,
          fileId: record.fileId,
          pages: layer.pages,
          tokens: layer.tokens.length,
          lines: layer.lines.length,
          blocks: layer.blocks.length,
        };
        if (values.text) {
          line.text = layer.lines
            .map((l) => l.tokenIds.map((id) => layer.tokens[id]?.text ?? '').join(' '))
            .join('\n');
        }
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
  } finally {
    await engine.close();
    if (out !== process.stdout) await new Promise<void>((resolve) => out.end(resolve));
  }
  return failed > 0 ? 1 : 0;
}
