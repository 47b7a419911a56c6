import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { WorkerOptions } from 'node:worker_threads';

/**
 * The module of a worker thread that lives beside the module `from` (its `import.meta.url`) under the
 * base name `name`: `.ts` when running from the TypeScript sources (tests, tsx), `.js` when built.
 */
export function siblingModule(from: string, name: string): URL {
  return new URL(`./${name}${from.endsWith('.ts') ? '.ts' : '.js'}`, from);
}

/**
 * The arguments of `new Worker(...)` that run `entry`. Built code runs the module directly. From the
 * sources, a thread does not inherit the loader that runs TypeScript, so a short bootstrap registers tsx
 * (a development dependency, there whenever the sources run) before importing the module.
 */
export function workerArgs(
  entry: URL,
  options: WorkerOptions,
  /**
   * Large JavaScript modules the thread uses (bare specifiers), loaded before tsx is registered when
   * running from the sources: through tsx's loader pdf.js alone takes a second to load, natively 0.1 s.
   */
  preload: string[] = [],
): [string | URL, WorkerOptions] {
  if (!entry.pathname.endsWith('.ts')) return [entry, options];
  // tsx's ESM API (the file its package exports map gives for `import 'tsx/esm/api'`).
  const root = path.dirname(createRequire(import.meta.url).resolve('tsx/package.json'));
  const api = pathToFileURL(path.join(root, 'dist/esm/api/index.mjs')).href;
  const resolve = createRequire(entry);
  const modules = preload.map((m) => pathToFileURL(resolve.resolve(m)).href);
  const bootstrap =
    `Promise.all(${JSON.stringify(modules)}.map((m) => import(m)))` +
    `.then(() => import(${JSON.stringify(api)})).then((tsx) => { tsx.register(); ` +
    `return import(${JSON.stringify(entry.href)}); });`;
  return [bootstrap, { ...options, eval: true }];
}
