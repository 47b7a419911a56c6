import { spawnSync } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSqlitePersistence } from '../../src/adapters/persistence/sqlite-persistence.js';
import { createFsFileStore } from '../../src/adapters/stores/fs-file-store.js';
import { createEngine } from '../../src/index.js';
import { INVOICE_LINES, encodeImage, makeTextPdf, renderPdfPage } from '../helpers/make-documents.js';
import { makeMultiDocument } from '../helpers/make-multi.js';
import {
  invoicePdf,
  invoiceWithTotal,
  readLines,
  parseLines,
  run,
  writeBadFiles,
  writeInvoices,
} from './cli-helpers.js';

let dir: string;
let invoice: string;
let bad: { text: string; empty: string; truncated: string };
beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'docex-cli-'));
  invoice = (await writeInvoices(dir, ['invoice.pdf']))[0]!;
  bad = await writeBadFiles(dir);
});
afterAll(() => fs.rm(dir, { recursive: true, force: true }));

/** A fresh directory under the test's temporary one. */
async function subdir(name: string): Promise<string> {
  const d = path.join(dir, name);
  await fs.mkdir(d, { recursive: true });
  return d;
}

type Field = { name: string; value: unknown; confidence?: number };
const fieldsOf = (line: Record<string, unknown> | undefined): Field[] =>
  (line?.results as { fields: Field[] }).fields;

describe('docex extract', () => {
  it('writes {file, fileId, status, results} per file; bad files give error lines and exit code 1', async () => {
    const out = path.join(dir, 'extract.jsonl');
    const { code, stdout, stderr } = await run([
      'extract',
      invoice,
      bad.text,
      bad.empty,
      bad.truncated,
      '--product',
      'invoices:2',
      '--ocr',
      'never',
      '--concurrency',
      '1',
      '--out',
      out,
    ]);
    expect(code).toBe(1);
    expect(stdout).toBe('');
    const [ok, text, empty, truncated, ...more] = await readLines(out);
    expect(more).toEqual([]);
    expect(Object.keys(ok!)).toEqual(['file', 'fileId', 'status', 'results']);
    expect(ok).toMatchObject({ file: invoice, fileId: expect.any(String), status: 'FINALISED' });
    expect(fieldsOf(ok).find((f) => f.name === 'invoice.total')!.value).toBe('150.00');
    expect(Object.keys(fieldsOf(ok)[0]!)).toEqual(['name', 'value', 'confidence', 'boundingBox']);
    expect(text).toEqual({
      file: bad.text,
      error: { code: 'UNSUPPORTED_FILE_TYPE', message: expect.any(String) },
    });
    expect(empty).toEqual({ file: bad.empty, error: { code: 'EMPTY_FILE', message: expect.any(String) } });
    expect(truncated).toEqual({
      file: bad.truncated,
      error: { code: 'PDF_CORRUPT', message: expect.any(String) },
    });
    // Not a terminal: no bar, only the summary.
    expect(stderr).toMatch(
      /^docex extract: 4 files, 1 page, 3 failed \(EMPTY_FILE 1, PDF_CORRUPT 1, UNSUPPORTED_FILE_TYPE 1\), [\d.]+ s \([\d.]+ files\/s\)\n$/,
    );
  });

  it('writes to stdout without --out; --verbose adds the printed text; a missing file is an error line', async () => {
    const missing = path.join(dir, 'missing.pdf');
    const { code, stdout } = await run([
      'extract',
      invoice,
      missing,
      '--ocr',
      'never',
      '--verbose',
      '--concurrency',
      '1',
    ]);
    expect(code).toBe(1);
    const [ok, gone] = parseLines(stdout);
    // Both default products.
    const names = fieldsOf(ok).map((f) => f.name);
    expect(names).toEqual(expect.arrayContaining(['invoice.total', 'bank.iban', 'receipt.total']));
    expect(Object.keys(fieldsOf(ok).find((f) => f.name === 'invoice.total')!)).toContain('candidates');
    expect(gone).toEqual({
      file: missing,
      error: { code: 'IO_ERROR', message: expect.stringContaining('ENOENT') },
    });
  });

  it('keeps files, jobs and results in --data-dir, readable by a later engine', async () => {
    const out = path.join(dir, 'durable.jsonl');
    const dataDir = path.join(dir, 'data');
    const { code } = await run(['extract', invoice, '--ocr', 'never', '--data-dir', dataDir, '--out', out]);
    expect(code).toBe(0);
    const [line] = await readLines(out);
    const engine = createEngine({
      files: createFsFileStore({ dir: path.join(dataDir, 'files') }),
      persistence: createSqlitePersistence({ path: path.join(dataDir, 'docex.db') }),
    });
    try {
      const fileId = line!.fileId as string;
      expect((await engine.getFile(fileId)).name).toBe('invoice.pdf');
      const [job] = await engine.listJobs({ fileId });
      expect(job).toMatchObject({ workflow_id: 'svc.extract', status: 'succeeded' });
      const result = await engine.getResult(fileId);
      expect(result).toEqual({ fileId, status: 'FINALISED', results: line!.results });
    } finally {
      await engine.close();
    }
  });

  it('with --concurrency 3 writes exactly one line per file, in any order', async () => {
    const batch = await subdir('concurrent');
    const good = await writeInvoices(
      batch,
      Array.from({ length: 7 }, (_, i) => `inv-${i}.pdf`),
    );
    const bads = await writeBadFiles(batch);
    const out = path.join(dir, 'concurrent.jsonl');
    const { code, stderr } = await run([
      'extract',
      batch,
      '--ocr',
      'never',
      '--concurrency',
      '3',
      '--out',
      out,
    ]);
    expect(code).toBe(1);
    const lines = await readLines(out);
    expect(lines.map((l) => l.file).sort()).toEqual([...good, ...Object.values(bads)].sort());
    expect(lines.filter((l) => l.status === 'FINALISED')).toHaveLength(7);
    expect(lines.filter((l) => 'error' in l)).toHaveLength(3);
    expect(stderr).toMatch(/^docex extract: 10 files, 7 pages, 3 failed/);
  });
});

describe('--ocr-engine', () => {
  const installed = spawnSync('tesseract', ['--version'], { stdio: 'ignore' }).status === 0;

  it.skipIf(!installed && !process.env.CI)(
    'reads a scan with the tesseract program (native) or tesseract.js (wasm): the same fields',
    async () => {
      const scan = path.join(dir, 'scan.png');
      const pdf = await makeTextPdf([{ lines: INVOICE_LINES }]);
      await fs.writeFile(scan, await encodeImage(await renderPdfPage(pdf, 200), 'png'));
      const read = async (engine: string) => {
        const { code, stdout } = await run([
          'extract',
          scan,
          '--ocr-engine',
          engine,
          '--product',
          'invoices:2',
        ]);
        expect(code).toBe(0);
        return fieldsOf(parseLines(stdout)[0]);
      };
      const native = await read('native');
      expect(native.find((f) => f.name === 'document.referenceNo')?.value).toBe('INV-20931');
      // The same model on both paths: the same values and boxes; word confidences may differ in the
      // third decimal.
      const wasm = await read('wasm');
      const plain = (fields: Field[]) => fields.map((f) => ({ ...f, confidence: undefined }));
      expect(plain(wasm)).toEqual(plain(native));
      for (const [i, field] of wasm.entries())
        expect(Math.abs(Number(field.confidence) - Number(native[i]!.confidence))).toBeLessThan(0.02);
    },
  );

  it('native without the program is a usage error before any file is read', async () => {
    const saved = process.env.PATH;
    process.env.PATH = path.join(dir, 'empty-path');
    try {
      const { code, stdout, stderr } = await run(['extract', invoice, '--ocr-engine', 'native']);
      expect(code).toBe(2);
      expect(stdout).toBe('');
      expect(stderr).toContain('--ocr-engine native needs the tesseract program');
    } finally {
      process.env.PATH = saved;
    }
  });
});

describe('inputs', () => {
  it('takes directories (recursively) and quoted glob patterns, each file once', async () => {
    const tree = await subdir('tree');
    await writeInvoices(tree, ['2024/01/a.pdf', '2024/02/b.pdf', '2023/c.pdf', 'top.pdf']);
    await fs.writeFile(path.join(tree, '2024/readme.txt'), 'not a document');
    const walked = await run(['ingest', tree, '--ocr', 'never', '--concurrency', '1']);
    expect(walked.code).toBe(0);
    expect(parseLines(walked.stdout).map((l) => path.relative(tree, l.file as string))).toEqual([
      '2023/c.pdf',
      '2024/01/a.pdf',
      '2024/02/b.pdf',
      'top.pdf',
    ]);
    const globbed = await run([
      'ingest',
      path.join(tree, '2024/**/*.pdf'),
      path.join(tree, '{top,2023/c}.pdf'),
      path.join(tree, '2024/01/a.pdf'),
      '--ocr',
      'never',
      '--concurrency',
      '1',
    ]);
    expect(globbed.code).toBe(0);
    const lines = parseLines(globbed.stdout);
    expect(lines.map((l) => path.relative(tree, l.file as string))).toEqual([
      '2024/01/a.pdf',
      '2024/02/b.pdf',
      '2023/c.pdf',
      'top.pdf',
    ]);
    expect(lines[0]).toMatchObject({
      fileId: expect.any(String),
      tokens: expect.any(Number),
      lines: expect.any(Number),
    });
  });

  it('says which argument gave nothing, and exits 2 when there is no file at all', async () => {
    const empty = await subdir('empty');
    const result = await run(['extract', empty, path.join(dir, '*.gif'), '--ocr', 'never']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`no document in "${empty}"`);
    expect(result.stderr).toContain(`no document in "${path.join(dir, '*.gif')}"`);
    expect(result.stderr).toContain('no file to read');
  });
});

describe('docex split', () => {
  it('writes {file, fileId, children: [{file_id, pages, confidence}]}', async () => {
    const multi = await makeMultiDocument({ seed: 7, documents: 2, pageCounts: [1, 2], pageMarks: true });
    const file = path.join(dir, 'two-documents.pdf');
    await fs.writeFile(file, multi.pdf);
    const { code, stdout } = await run(['split', file, bad.empty, '--ocr', 'never', '--concurrency', '1']);
    expect(code).toBe(1);
    const [line, error] = parseLines(stdout);
    expect(Object.keys(line!)).toEqual(['file', 'fileId', 'children']);
    const children = line!.children as Array<{
      file_id: string;
      pages: [number, number];
      confidence: number;
    }>;
    expect(children.map((c) => c.pages)).toEqual(multi.segments);
    for (const child of children) {
      expect(child).toEqual({
        file_id: expect.any(String),
        pages: expect.any(Array),
        confidence: expect.any(Number),
      });
    }
    expect(error).toMatchObject({ file: bad.empty, error: { code: 'EMPTY_FILE' } });
  });
});

const TOTAL = "$.predictions['svc.invoice.total']";
const rulesAbove = (limit: number): unknown => ({
  data: {
    checks: [
      {
        condition: { type: 'greater-than', values: [`${TOTAL}.value_norm`, limit], compare_as: 'numeric' },
        note: `Totals above ${limit} need a second look`,
        field_ids: ['svc.invoice.total'],
        priority: 3,
      },
    ],
  },
  schema: true,
});

describe('docex validate', () => {
  let rules: string;
  let small: string;
  beforeAll(async () => {
    rules = path.join(dir, 'high-totals.json');
    await fs.writeFile(rules, JSON.stringify(rulesAbove(1000)));
    small = path.join(dir, 'small.pdf');
    await fs.writeFile(small, await invoicePdf());
    await fs.writeFile(path.join(dir, 'large.pdf'), await invoiceWithTotal('1500.00'));
  });

  it('writes the result and the tasks opened: FINALISED without tasks, IN PROGRESS with them', async () => {
    const large = path.join(dir, 'large.pdf');
    const dataDir = path.join(dir, 'validate-data');
    const args = ['--product', 'invoices:2', '--rules', rules, '--ocr', 'never', '--concurrency', '1'];
    const { code, stdout } = await run([
      'validate',
      small,
      large,
      bad.truncated,
      ...args,
      '--data-dir',
      dataDir,
    ]);
    expect(code).toBe(1);
    const [finalised, inProgress, error] = parseLines(stdout);
    expect(Object.keys(finalised!)).toEqual(['file', 'fileId', 'status', 'results', 'tasks']);
    expect(finalised).toMatchObject({ file: small, status: 'FINALISED', tasks: [] });
    expect(fieldsOf(finalised).find((f) => f.name === 'invoice.total')!.value).toBe('150.00');
    expect(inProgress).toEqual({
      file: large,
      fileId: expect.any(String),
      status: 'IN PROGRESS',
      tasks: [
        {
          id: expect.any(String),
          note: 'Totals above 1000 need a second look',
          field_ids: ['svc.invoice.total'],
          priority: 3,
        },
      ],
    });
    expect(error).toMatchObject({ file: bad.truncated, error: { code: 'PDF_CORRUPT' } });
    // The rules and the task are kept in the data directory, for review (`docex serve`).
    const engine = createEngine({
      files: createFsFileStore({ dir: path.join(dataDir, 'files') }),
      persistence: createSqlitePersistence({ path: path.join(dataDir, 'docex.db') }),
    });
    try {
      expect(await engine.getValidationRules('high-totals')).toEqual(rulesAbove(1000));
      const [task] = await engine.listTasks({ status: 'open' });
      expect(task).toMatchObject({
        id: (inProgress!.tasks as Array<{ id: string }>)[0]!.id,
        fileId: inProgress!.fileId,
      });
      expect(task!.predictions['svc.invoice.total']).toMatchObject({ value: '1500.00', value_norm: 1500 });
    } finally {
      await engine.close();
    }
  });

  it('refuses invalid rules with every problem and its path, before reading any file (exit 2)', async () => {
    const invalid = path.join(dir, 'invalid-rules.json');
    await fs.writeFile(
      invalid,
      JSON.stringify({
        data: { checks: [{ condition: { type: 'equal', values: [1] }, field_ids: [] }] },
        schema: true,
      }),
    );
    const out = path.join(dir, 'never-written.jsonl');
    const result = await run([
      'validate',
      small,
      '--product',
      'invoices:2',
      '--rules',
      invalid,
      '--out',
      out,
    ]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`the rules in ${invalid} are invalid (INVALID_RULES)`);
    expect(result.stderr).toContain('/data/checks/0/note');
    expect(result.stderr).toContain('/data/checks/0/condition/values');
    await expect(fs.access(out)).rejects.toThrow();

    const notJson = path.join(dir, 'not-json.json');
    await fs.writeFile(notJson, '{ checks: [');
    const parse = await run(['validate', small, '--product', 'invoices:2', '--rules', notJson]);
    expect(parse.code).toBe(2);
    expect(parse.stderr).toContain('is not JSON');
  });
});

describe('usage errors (exit 2) and help', () => {
  it.each([
    [['frobnicate'], 'unknown command "frobnicate"'],
    [['--out', 'x'], 'give a command first'],
    [['extract', 'a.pdf', '--bogus'], "Unknown option '--bogus'"],
    [['extract'], 'give at least one file'],
    [['extract', 'a.pdf', '--ocr', 'sometimes'], '--ocr must be auto, always or never'],
    [['extract', 'a.pdf', '--ocr-engine', 'gpu'], '--ocr-engine must be auto, native or wasm'],
    [['serve', '--ocr-engine', 'gpu'], '--ocr-engine must be auto, native or wasm'],
    [['extract', 'a.pdf', '--concurrency', '0'], '--concurrency must be a whole number'],
    [['extract', 'a.pdf', '--concurrency', 'many'], '--concurrency must be a whole number'],
    [['extract', 'a.pdf', '--progress', 'fancy'], '--progress must be auto, bar, plain or none'],
    [['extract', 'a.pdf', '--resume'], '--resume needs --out'],
    [['validate', 'a.pdf', '--rules', 'r.json'], '--product takes exactly one'],
    [
      ['validate', 'a.pdf', '--product', 'invoices:2,receipts:1', '--rules', 'r.json'],
      '--product takes exactly one',
    ],
    [['validate', 'a.pdf', '--product', 'invoices:2'], '--rules FILE is required'],
    [
      ['validate', 'a.pdf', '--product', 'invoices:2', '--rules', '/no/such/rules.json'],
      'cannot read the rules file',
    ],
    [['split', 'a.pdf', '--product', 'invoices:2'], "Unknown option '--product'"],
    [['serve', '--port', 'eighty'], '--port must be a port number'],
    [['help', 'toString'], 'unknown command "toString"'],
    [['extract', 'a.pdf', '--out', '/no/such/dir/out.jsonl'], 'cannot open /no/such/dir/out.jsonl'],
  ])('docex %j', async (argv, message) => {
    const { code, stdout, stderr } = await run(argv);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toContain(message);
    expect(stderr).toContain('--help');
  });

  it('an unknown product is a usage error found before any file is read; an earlier --out is kept', async () => {
    const out = path.join(dir, 'kept.jsonl');
    await fs.writeFile(out, '{"file":"earlier.pdf"}\n');
    const { code, stderr } = await run(['extract', invoice, '--product', 'invoices:9', '--out', out]);
    expect(code).toBe(2);
    expect(stderr).toContain('UNKNOWN_PRODUCT');
    expect(await fs.readFile(out, 'utf8')).toBe('{"file":"earlier.pdf"}\n');
  });

  it('`docex` alone prints the commands on stderr and exits 2; --help and help exit 0', async () => {
    const none = await run([]);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('Commands:');
    for (const argv of [['--help'], ['-h'], ['help']]) {
      const { code, stdout } = await run(argv);
      expect(code).toBe(0);
      expect(stdout).toContain('Usage: docex <command>');
      expect(stdout).toMatch(/Exit codes:\n {2}0 .*\n {2}1 .*\n[\s\S]* {2}2 .*\n[\s\S]* {2}130 /);
    }
  });

  it.each(['extract', 'split', 'validate', 'ingest', 'serve'])(
    'docex %s --help, and docex help <command>',
    async (command) => {
      const { code, stdout, stderr } = await run([command, '--help']);
      expect(code).toBe(0);
      expect(stderr).toBe('');
      expect(stdout).toContain(`Usage: docex ${command}`);
      expect(stdout).toContain('Exit codes:');
      if (command !== 'serve') {
        for (const option of ['--out', '--resume', '--concurrency', '--progress', '--data-dir', '130'])
          expect(stdout).toContain(option);
      }
      expect((await run(['help', command])).stdout).toBe(stdout);
    },
  );
});

describe('--out and --resume', () => {
  it('skips the files already in the output, drops a last line cut short, and writes no duplicates', async () => {
    const batch = await subdir('resume');
    const files = await writeInvoices(
      batch,
      Array.from({ length: 6 }, (_, i) => `inv-${i}.pdf`),
    );
    const out = path.join(dir, 'resume.jsonl');
    const args = [
      'extract',
      batch,
      '--ocr',
      'never',
      '--product',
      'invoices:1',
      '--out',
      out,
      '--concurrency',
      '2',
    ];
    expect((await run(args)).code).toBe(0);
    const first = await readLines(out);
    expect(first).toHaveLength(6);

    // As a crash leaves it: four whole lines and the start of a fifth.
    const text = await fs.readFile(out, 'utf8');
    const kept = text.split('\n').slice(0, 4);
    const fifth = text.split('\n')[4]!;
    await fs.writeFile(out, kept.join('\n') + '\n' + fifth.slice(0, 40));

    const resumed = await run([...args, '--resume']);
    expect(resumed.code).toBe(0);
    expect(resumed.stderr).toContain('removed a last line');
    expect(resumed.stderr).toContain('docex extract: 2 files');
    expect(resumed.stderr).toContain(`4 files skipped: already in ${out}`);
    const lines = await readLines(out);
    expect(lines.map((l) => l.file).sort()).toEqual([...files].sort());
    // The first four lines are the earlier run's, untouched.
    expect(lines.slice(0, 4)).toEqual(first.slice(0, 4));

    // Nothing left to do: nothing is written, exit 0.
    const again = await run([...args, '--resume']);
    expect(again.code).toBe(0);
    expect(again.stderr).toContain('docex extract: 0 files');
    expect(await readLines(out)).toEqual(lines);

    // Without --resume the output is started anew.
    const fresh = await run([
      'extract',
      files[0]!,
      '--ocr',
      'never',
      '--product',
      'invoices:1',
      '--out',
      out,
    ]);
    expect(fresh.code).toBe(0);
    expect((await readLines(out)).map((l) => l.file)).toEqual([files[0]]);
  });

  it('a last line that lacks only its newline is kept and completed', async () => {
    const out = path.join(dir, 'newline.jsonl');
    await fs.writeFile(out, JSON.stringify({ file: invoice, error: { code: 'X', message: 'y' } }));
    const { code } = await run(['extract', invoice, bad.empty, '--ocr', 'never', '--out', out, '--resume']);
    expect(code).toBe(1);
    const lines = await readLines(out);
    expect(lines.map((l) => l.file)).toEqual([invoice, bad.empty]);
  });
});

describe('progress', () => {
  const files = (): string[] => [invoice, bad.text];

  it('draws a bar with files/s and ETA when stderr is a terminal', async () => {
    const out = path.join(dir, 'bar.jsonl');
    const { stderr } = await run(['extract', ...files(), '--ocr', 'never', '--out', out], {
      stderrTTY: true,
    });
    expect(stderr).toContain('\x1b[');
    expect(stderr).toMatch(/2\/2 files \| [\d.]+ files\/s \| ETA \S+ \| 1 failed/);
    expect(stderr).toMatch(/docex extract: 2 files, 1 page, 1 failed \(UNSUPPORTED_FILE_TYPE 1\)/);
  });

  it('no bar when the lines go to the same terminal, nor when stderr is no terminal', async () => {
    const shared = await run(['extract', ...files(), '--ocr', 'never'], { stderrTTY: true, stdoutTTY: true });
    expect(shared.stderr).not.toContain('\x1b[');
    expect(parseLines(shared.stdout)).toHaveLength(2);
    const piped = await run(['extract', ...files(), '--ocr', 'never', '--concurrency', '1']);
    expect(piped.stderr.split('\n')).toEqual([expect.stringMatching(/^docex extract: 2 files/), '']);
  });

  it('--progress plain prints a line per finished file', async () => {
    const { stderr } = await run([
      'extract',
      ...files(),
      '--ocr',
      'never',
      '--concurrency',
      '1',
      '--progress',
      'plain',
    ]);
    const lines = stderr.trim().split('\n');
    expect(lines[0]).toMatch(
      new RegExp(`^\\[1/2\\] ${escape(invoice)}: ok \\([\\d.]+ files/s, ETA [\\d.]+ s\\)$`),
    );
    expect(lines[1]).toMatch(
      new RegExp(`^\\[2/2\\] ${escape(bad.text)}: UNSUPPORTED_FILE_TYPE \\([\\d.]+ files/s\\)$`),
    );
    expect(lines[2]).toMatch(/^docex extract: 2 files/);
  });
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

describe('--version', () => {
  it('prints the package`s version alone and after any command, exit 0', async () => {
    const pkg = JSON.parse(await fs.readFile(new URL('../../package.json', import.meta.url), 'utf8')) as {
      version: string;
    };
    for (const argv of [['--version'], ['-V'], ['extract', '--version'], ['serve', '--version']]) {
      const answer = await run(argv);
      expect(answer.code, argv.join(' ')).toBe(0);
      expect(answer.stdout.trim()).toBe(`docex ${pkg.version} (node ${process.versions.node})`);
    }
  });
});
