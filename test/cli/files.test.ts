import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collectFiles, globToRegExp } from '../../src/cli/files.js';

describe('globToRegExp', () => {
  const matches = (pattern: string, file: string): boolean => globToRegExp(pattern).test(file);

  it('* and ? stay within a path segment', () => {
    expect(matches('*.pdf', 'a.pdf')).toBe(true);
    expect(matches('*.pdf', 'a/b.pdf')).toBe(false);
    expect(matches('inv-?.pdf', 'inv-1.pdf')).toBe(true);
    expect(matches('inv-?.pdf', 'inv-12.pdf')).toBe(false);
    expect(matches('*.pdf', 'a.PDF')).toBe(false);
  });

  it('** matches any number of directories, none included', () => {
    expect(matches('**/*.pdf', 'a.pdf')).toBe(true);
    expect(matches('**/*.pdf', 'x/y/z/a.pdf')).toBe(true);
    expect(matches('2024/**/*.pdf', '2024/a.pdf')).toBe(true);
    expect(matches('2024/**/*.pdf', '2024/03/a.pdf')).toBe(true);
    expect(matches('2024/**/*.pdf', '2023/03/a.pdf')).toBe(false);
    expect(matches('**', 'x/y/a.png')).toBe(true);
  });

  it('{a,b} alternatives (nested), [abc] classes, escapes', () => {
    expect(matches('*.{pdf,png}', 'a.png')).toBe(true);
    expect(matches('*.{pdf,png}', 'a.jpg')).toBe(false);
    expect(matches('{in,out}/*.{pdf,jp{e,}g}', 'out/a.jpeg')).toBe(true);
    expect(matches('{in,out}/*.{pdf,jp{e,}g}', 'out/a.jpg')).toBe(true);
    expect(matches('inv{*,x}.pdf', 'inv-1.pdf')).toBe(true);
    expect(matches('inv-[0-4].pdf', 'inv-3.pdf')).toBe(true);
    expect(matches('inv-[!0-4].pdf', 'inv-3.pdf')).toBe(false);
    expect(matches('inv-[!0-4].pdf', 'inv-7.pdf')).toBe(true);
    expect(matches('a\\*b.pdf', 'a*b.pdf')).toBe(true);
    expect(matches('a\\*b.pdf', 'axb.pdf')).toBe(false);
    // Regular-expression characters are literal.
    expect(matches('a+(1).pdf', 'a+(1).pdf')).toBe(true);
    expect(matches('a.pdf', 'axpdf')).toBe(false);
  });

  it('wildcards skip names starting with a dot unless the pattern names the dot', () => {
    expect(matches('*.pdf', '.hidden.pdf')).toBe(false);
    expect(matches('**/*.pdf', '.cache/a.pdf')).toBe(false);
    expect(matches('.cache/*.pdf', '.cache/a.pdf')).toBe(true);
    expect(matches('.*.pdf', '.hidden.pdf')).toBe(true);
  });
});

describe('collectFiles', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'docex-files-'));
    for (const file of [
      'a.pdf',
      'b.PNG',
      'c.jpeg',
      'notes.txt',
      '._a.pdf',
      'x/d.pdf',
      'x/y/e.jpg',
      'x/y/f.txt',
      'h.tif',
      'i.GIF',
      '.hidden/g.pdf',
    ])
      await fs
        .mkdir(path.dirname(path.join(dir, file)), { recursive: true })
        .then(() => fs.writeFile(path.join(dir, file), 'x'));
    await fs.mkdir(path.join(dir, 'empty'));
  });
  afterAll(() => fs.rm(dir, { recursive: true, force: true }));

  it('walks directories recursively for PDF, PNG, JPEG, TIFF and GIF files, sorted, hidden ones left out', async () => {
    const { files, empty } = await collectFiles([dir]);
    expect(files.map((f) => path.relative(dir, f))).toEqual([
      'a.pdf',
      'b.PNG',
      'c.jpeg',
      'h.tif',
      'i.GIF',
      'x/d.pdf',
      'x/y/e.jpg',
    ]);
    expect(empty).toEqual([]);
  });

  it('takes a named file whatever its name or existence, once however often it is named', async () => {
    const notes = path.join(dir, 'notes.txt');
    const missing = path.join(dir, 'missing.pdf');
    const { files } = await collectFiles([
      notes,
      missing,
      path.join(dir, '.', 'notes.txt'),
      path.join(dir, 'x'),
    ]);
    expect(files).toEqual([notes, missing, path.join(dir, 'x/d.pdf'), path.join(dir, 'x/y/e.jpg')]);
  });

  it('expands glob patterns under their fixed leading directories', async () => {
    const rel = async (pattern: string): Promise<string[]> =>
      (await collectFiles([path.join(dir, pattern)])).files.map((f) => path.relative(dir, f));
    expect(await rel('**/*.pdf')).toEqual(['a.pdf', 'x/d.pdf']);
    expect(await rel('x/**/*')).toEqual(['x/d.pdf', 'x/y/e.jpg', 'x/y/f.txt']);
    expect(await rel('*.{pdf,PNG}')).toEqual(['a.pdf', 'b.PNG']);
    expect(await rel('x/*/?.jpg')).toEqual(['x/y/e.jpg']);
    expect(await rel('.hidden/*.pdf')).toEqual(['.hidden/g.pdf']);
  });

  it('reports the arguments that gave nothing', async () => {
    const { files, empty } = await collectFiles([
      path.join(dir, 'empty'),
      path.join(dir, '*.gif'),
      path.join(dir, 'nowhere/*.pdf'),
    ]);
    expect(files).toEqual([]);
    expect(empty).toEqual([
      path.join(dir, 'empty'),
      path.join(dir, '*.gif'),
      path.join(dir, 'nowhere/*.pdf'),
    ]);
  });
});
