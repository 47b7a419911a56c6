/**
 * The shape of the code, checked: no import cycle in src (type-only imports included), workflows
 * never import the engine that runs them, tests never import from bench/, the architecture map in
 * docs/architecture.md names every folder of src, and nothing cites a file outside the repository.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '..');

function filesUnder(dir: string, ext: RegExp): string[] {
  const out: string[] = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...filesUnder(full, ext));
    else if (ext.test(entry.name)) out.push(full);
  }
  return out;
}

/** The relative modules a file imports or re-exports (static, type-only and dynamic imports). */
function importsOf(file: string): string[] {
  const text = fs.readFileSync(file, 'utf8');
  const specs = [
    ...text.matchAll(/^\s*(?:import|export)\b[^;'"]*?\bfrom\s*['"]([^'"]+)['"]/gm),
    ...text.matchAll(/^\s*import\s*['"]([^'"]+)['"]/gm),
    ...text.matchAll(/\bimport\(\s*['"]([^'"]+)['"]\s*\)/g),
  ].map((m) => m[1]!);
  return specs
    .filter((s) => s.startsWith('.'))
    .map((s) => path.resolve(path.dirname(file), s).replace(/\.js$/, '.ts'));
}

/** The strongly connected components of more than one module (Tarjan): the import cycles. */
function cycles(graph: Map<string, string[]>): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, counter);
    low.set(v, counter);
    counter++;
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!graph.has(w)) continue;
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) {
        low.set(v, Math.min(low.get(v)!, index.get(w)!));
      }
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1) found.push(component.map((f) => path.relative(ROOT, f)).sort());
    }
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return found;
}

describe('the architecture', () => {
  const sources = filesUnder(path.join(ROOT, 'src'), /\.ts$/);
  const graph = new Map(sources.map((f) => [f, importsOf(f)]));

  it('reads the imports it checks (the engine imports its parts)', () => {
    const engine = graph.get(path.join(ROOT, 'src/engine.ts'))!;
    expect(engine).toContain(path.join(ROOT, 'src/engine/context.ts'));
    expect(graph.get(path.join(ROOT, 'src/engine/context.ts'))).toContain(
      path.join(ROOT, 'src/engine-types.ts'),
    );
  });

  it('has no import cycle in src, type-only imports included', () => {
    expect(cycles(graph)).toEqual([]);
  });

  it('finds a cycle when there is one', () => {
    const a = '/x/a.ts';
    const b = '/x/b.ts';
    expect(
      cycles(
        new Map([
          [a, [b]],
          [b, [a]],
          ['/x/c.ts', [a]],
        ]),
      ),
    ).toHaveLength(1);
  });

  it('keeps workflows from importing the engine', () => {
    const engineModules = (f: string): boolean =>
      f === path.join(ROOT, 'src/engine.ts') ||
      f === path.join(ROOT, 'src/engine-types.ts') ||
      f.startsWith(path.join(ROOT, 'src/engine') + path.sep);
    const offending = sources
      .filter((f) => f.startsWith(path.join(ROOT, 'src/workflows') + path.sep))
      .flatMap((f) =>
        importsOf(f)
          .filter(engineModules)
          .map((m) => `${path.relative(ROOT, f)} -> ${m}`),
      );
    expect(offending).toEqual([]);
  });

  it('keeps tests from importing bench/', () => {
    const bench = path.join(ROOT, 'bench') + path.sep;
    const offending = filesUnder(path.join(ROOT, 'test'), /\.(ts|mjs)$/).flatMap((f) =>
      importsOf(f)
        .filter((m) => m.startsWith(bench))
        .map((m) => `${path.relative(ROOT, f)} -> ${path.relative(ROOT, m)}`),
    );
    expect(offending).toEqual([]);
  });

  it('names every folder of src in the map of docs/architecture.md', () => {
    const map = fs.readFileSync(path.join(ROOT, 'docs/architecture.md'), 'utf8');
    const folders = (dir: string): string[] =>
      fs
        .readdirSync(path.join(ROOT, dir), { withFileTypes: true })
        .filter((e) => e.isDirectory())
        .map((e) => e.name);
    const missing = [
      ...folders('src').filter((name) => !new RegExp(`^\\s+${name}/\\s`, 'm').test(map)),
      ...folders('src/adapters').filter((name) => !new RegExp(`^\\s+${name}/\\s`, 'm').test(map)),
    ];
    expect(missing).toEqual([]);
    // Folders deeper down are named in their parent's line (`finders/`, `routes/`).
    const nested = fs
      .readdirSync(path.join(ROOT, 'src'), { withFileTypes: true })
      .filter((e) => e.isDirectory() && e.name !== 'adapters')
      .flatMap((e) => folders(`src/${e.name}`).map((name) => `${e.name}/${name}`));
    expect(nested.filter((p) => !map.includes(`${p.split('/')[1]}/`))).toEqual([]);
  });

  it('names only files that exist in its docs and comments', () => {
    const texts = [
      ...sources,
      ...filesUnder(path.join(ROOT, 'docs'), /\.md$/),
      ...filesUnder(path.join(ROOT, 'bench'), /\.ts$/),
      path.join(ROOT, 'README.md'),
      path.join(ROOT, 'BENCHMARKS.md'),
    ];
    const named = new Set(
      texts.flatMap((f) =>
        [
          ...fs
            .readFileSync(f, 'utf8')
            .matchAll(/(?<![\w./-])(?:src|test|bench|support|scripts|docs)\/[\w./-]+\.(?:ts|mjs|md)\b/g),
        ].map((m) => m[0]),
      ),
    );
    expect([...named].filter((p) => !fs.existsSync(path.join(ROOT, p)))).toEqual([]);
  });

  it('cites no file outside the repository in its sources and docs', () => {
    const texts = [...sources, ...filesUnder(path.join(ROOT, 'docs'), /\.md$/), path.join(ROOT, 'README.md')];
    const offending = texts.filter((f) =>
      /\.\.\/shared\/|\bshared\/(corpus|spec|tools|notes)\b/.test(fs.readFileSync(f, 'utf8')),
    );
    expect(offending.map((f) => path.relative(ROOT, f))).toEqual([]);
  });
});
