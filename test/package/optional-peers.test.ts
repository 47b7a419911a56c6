/**
 * Optional peer dependencies stay optional: from every entry point of the package but the PostgreSQL
 * and S3 ones, no module reached by a static import (type imports included: they become the
 * declarations a consumer's compiler reads with `skipLibCheck: false`) imports `pg` or the AWS SDK.
 * The PostgreSQL and S3 adapters are loaded by `docex serve` with a dynamic `import()` only when asked for.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const REPO = path.resolve(import.meta.dirname, '../..');
const pkg = JSON.parse(readFileSync(path.join(REPO, 'package.json'), 'utf8')) as {
  exports: Record<string, string>;
  peerDependenciesMeta: Record<string, { optional: boolean }>;
  dependencies: Record<string, string>;
};
const OPTIONAL = Object.keys(pkg.peerDependenciesMeta).filter(
  (name) => pkg.peerDependenciesMeta[name]!.optional,
);

/** The source file of a built path (`./dist/src/x.js` → `src/x.ts`). */
function sourceOf(built: string): string {
  return path.join(REPO, built.replace(/^\.\/dist\//, '').replace(/\.js$/, '.ts'));
}

/** Static imports and re-exports of a module (`import ... from`, `export ... from`, `import type`). */
function staticImports(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(/^\s*(?:import|export)\s[^;]*?\sfrom\s+'([^']+)'/gms)].map((m) => m[1]!);
}

/** Every package a module reaches through static imports, with the chain that leads to it. */
function reachedPackages(entry: string, seen = new Set<string>()): Map<string, string[]> {
  const found = new Map<string, string[]>();
  const walk = (file: string, chain: string[]): void => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const spec of staticImports(file)) {
      if (spec.startsWith('.')) {
        walk(path.resolve(path.dirname(file), spec.replace(/\.js$/, '.ts')), [
          ...chain,
          path.relative(REPO, file),
        ]);
      } else if (!spec.startsWith('node:')) {
        const name = spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0]!;
        if (!found.has(name)) found.set(name, [...chain, path.relative(REPO, file)]);
      }
    }
  };
  walk(entry, []);
  return found;
}

describe('optional peer dependencies', () => {
  it('pg and the AWS SDK are optional peers, not dependencies', () => {
    expect(OPTIONAL).toEqual(expect.arrayContaining(['pg', '@aws-sdk/client-s3', '@aws-sdk/lib-storage']));
    for (const name of OPTIONAL) expect(pkg.dependencies[name]).toBeUndefined();
  });

  const entries = Object.entries(pkg.exports).filter(([sub]) => !/postgres|s3/.test(sub));
  it.each(entries.map(([sub, built]) => [sub, built]))('%s reaches no optional peer', (_sub, built) => {
    const reached = reachedPackages(sourceOf(built));
    for (const name of OPTIONAL)
      expect(reached.get(name), `${name} via ${reached.get(name)?.join(' > ')}`).toBeUndefined();
    // Every package it does reach is a dependency of the package (or an optional dependency).
    for (const name of reached.keys()) expect(Object.keys(pkg.dependencies).concat('sharp')).toContain(name);
  });

  it('the walk sees them where they are imported (the PostgreSQL and S3 entries)', () => {
    expect(reachedPackages(sourceOf(pkg.exports['./persistence/postgres']!)).has('pg')).toBe(true);
    expect(reachedPackages(sourceOf(pkg.exports['./stores/s3']!)).has('@aws-sdk/client-s3')).toBe(true);
  });

  it('the published files leave the evaluation tools out, and nothing published imports them', () => {
    const files = (pkg as unknown as { files: string[] }).files;
    expect(files).toContain('!dist/src/evaluation');
    for (const built of [...Object.values(pkg.exports), './dist/src/cli/main.js']) {
      const seen = new Set<string>();
      reachedPackages(sourceOf(built), seen);
      const evaluation = [...seen].filter((f) => path.relative(REPO, f).startsWith('src/evaluation/'));
      expect(evaluation, built).toEqual([]);
    }
  });

  it('docex serve reaches PostgreSQL and S3 only through import()', () => {
    const reached = reachedPackages(path.join(REPO, 'src/cli/main.ts'));
    for (const name of OPTIONAL) expect(reached.has(name), name).toBe(false);
    const storage = readFileSync(path.join(REPO, 'src/cli/serve-storage.ts'), 'utf8');
    expect(storage).toContain("await import('../adapters/persistence/postgres-persistence.js')");
    expect(storage).toContain("await import('../adapters/stores/s3-file-store.js')");
  });
});
