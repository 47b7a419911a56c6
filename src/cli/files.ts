import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';

const DOCUMENT = /\.(pdf|png|jpe?g|tiff?|gif)$/i;
const GLOB_CHARS = /[*?[{]/;
/** A name starting with a dot, anywhere in a relative path (`.git/`, macOS `._invoice.pdf`). */
const HIDDEN = /(^|\/)\./;

export interface CollectedFiles {
  /** Paths to read, each once, in the order found (directories and glob matches sorted). */
  files: string[];
  /** Arguments that gave nothing: an empty directory, a pattern matching no file. */
  empty: string[];
}

/**
 * The files named by the command line: a file as it is (read, and refused later, whatever its name), a
 * directory walked recursively for PDF, PNG and JPEG files (names starting with a dot, such as `.git`
 * or macOS's `._invoice.pdf`, left out), a glob pattern (`invoices/**\/*.pdf`) matched
 * against the files under its fixed leading directories. A file named twice is read once.
 *
 * Globs are matched here rather than by the shell, so a quoted pattern works on every shell and past
 * the shell's argument-length limit. Supported: `*` (any characters but `/`), `**` as a whole path
 * segment (any number of directories), `?` (one character), `[abc]`/`[a-z]`/`[!abc]`, `{a,b}`
 * (alternatives, nestable) and `\` to escape. `*`, `?` and `**` do not match a name starting with a
 * dot unless the pattern segment itself starts with one, as in the shells.
 */
export async function collectFiles(args: string[]): Promise<CollectedFiles> {
  const files: string[] = [];
  const empty: string[] = [];
  const seen = new Set<string>();
  const add = (file: string): void => {
    const key = path.resolve(file);
    if (seen.has(key)) return;
    seen.add(key);
    files.push(file);
  };
  for (const arg of args) {
    const info = await stat(arg).catch(() => undefined);
    let found: string[];
    if (info?.isDirectory())
      found = await walk(
        path.normalize(arg),
        Infinity,
        (rel, name) => DOCUMENT.test(name) && !HIDDEN.test(rel),
      );
    else if (info || !isGlob(arg)) found = [path.normalize(arg)];
    else found = await expandGlob(arg);
    if (found.length === 0) empty.push(arg);
    found.forEach(add);
  }
  return { files, empty };
}

export function isGlob(text: string): boolean {
  return GLOB_CHARS.test(text);
}

/** The files matching a glob pattern, sorted. */
export async function expandGlob(pattern: string): Promise<string[]> {
  const segments = pattern.split('/');
  // The fixed leading directories: where the walk starts.
  let fixed = 0;
  while (fixed < segments.length - 1 && !isGlob(segments[fixed]!) && !segments[fixed]!.includes('\\'))
    fixed++;
  const baseSegments = segments.slice(0, fixed);
  const base = baseSegments.length === 0 ? '.' : baseSegments.join('/') || '/';
  const rest = segments.slice(fixed).join('/');
  const matcher = globToRegExp(rest);
  // Without `**` or a `/` inside braces, no match lies deeper than the pattern's segment count.
  const depth = rest.includes('**') || /\{[^}]*\//.test(rest) ? Infinity : segments.length - fixed;
  const info = await stat(base).catch(() => undefined);
  if (!info?.isDirectory()) return [];
  return walk(base, depth, (rel) => matcher.test(rel));
}

/** Files under `dir` (recursively, to `depth` levels, sorted by name) whose relative path passes `keep`. */
async function walk(
  dir: string,
  depth: number,
  keep: (relative: string, name: string) => boolean,
  prefix = '',
): Promise<string[]> {
  if (depth <= 0) return [];
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const out: string[] = [];
  for (const entry of entries) {
    const full = dir === '.' ? entry.name : path.join(dir, entry.name);
    const relative = prefix + entry.name;
    let isDirectory = entry.isDirectory();
    let isFile = entry.isFile();
    if (entry.isSymbolicLink()) {
      // A link to a file is read; a link to a directory is not followed (no loops).
      const target = await stat(full).catch(() => undefined);
      isFile = target?.isFile() ?? false;
      isDirectory = false;
    }
    if (isDirectory) out.push(...(await walk(full, depth - 1, keep, relative + '/')));
    else if (isFile && keep(relative, entry.name)) out.push(full);
  }
  return out;
}

/** A glob pattern (relative, `/`-separated) as a regular expression over whole relative paths. */
export function globToRegExp(pattern: string): RegExp {
  return new RegExp(`^${translate(pattern)}$`);
}

function translate(pattern: string, atSegmentStart = true): string {
  let out = '';
  let i = 0;
  let segmentStart = atSegmentStart;
  while (i < pattern.length) {
    const c = pattern[i]!;
    if (
      c === '*' &&
      pattern[i + 1] === '*' &&
      segmentStart &&
      (i + 2 === pattern.length || pattern[i + 2] === '/')
    ) {
      // `**/`: zero or more directories; a final `**`: anything below.
      if (i + 2 === pattern.length) out += '(?:(?!\\.)[^/]*(?:/(?!\\.)[^/]*)*)';
      else out += '(?:(?!\\.)[^/]+/)*';
      i += 3;
      segmentStart = true;
      continue;
    }
    const noDot = segmentStart ? '(?!\\.)' : '';
    segmentStart = false;
    if (c === '*') {
      while (pattern[i + 1] === '*') i++;
      out += `${noDot}[^/]*`;
    } else if (c === '?') {
      out += `${noDot}[^/]`;
    } else if (c === '[') {
      const close = pattern.indexOf(']', i + 2);
      if (close === -1) out += '\\[';
      else {
        let body = pattern.slice(i + 1, close);
        if (body.startsWith('!')) body = '^' + body.slice(1);
        out += `${noDot}[${body.replace(/\\/g, '\\\\')}]`;
        i = close;
      }
    } else if (c === '{') {
      const close = matchingBrace(pattern, i);
      if (close === -1) out += '\\{';
      else {
        const alternatives = splitTopLevel(pattern.slice(i + 1, close));
        out += `(?:${alternatives.map((a) => translate(a, noDot !== '')).join('|')})`;
        i = close;
      }
    } else if (c === '\\' && i + 1 < pattern.length) {
      out += escapeRegExp(pattern[i + 1]!);
      i++;
    } else {
      if (c === '/') segmentStart = true;
      out += escapeRegExp(c);
    }
    i++;
  }
  return out;
}

function matchingBrace(pattern: string, open: number): number {
  let level = 0;
  for (let i = open; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '\\') i++;
    else if (c === '{') level++;
    else if (c === '}' && --level === 0) return i;
  }
  return -1;
}

function splitTopLevel(body: string): string[] {
  const parts: string[] = [];
  let level = 0;
  let start = 0;
  for (let i = 0; i < body.length; i++) {
    const c = body[i];
    if (c === '\\') i++;
    else if (c === '{') level++;
    else if (c === '}') level--;
    else if (c === ',' && level === 0) {
      parts.push(body.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(body.slice(start));
  return parts;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}
