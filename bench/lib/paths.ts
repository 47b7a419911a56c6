/**
 * Where the benchmark's files are, run compiled from dist/bench (npm run bench) or as TypeScript
 * through tsx: its own folder, the output folder bench/out, the repository, the docex command, and
 * its child scripts.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** bench/, or dist/bench/ when compiled. */
export const BENCH_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const COMPILED = path.basename(path.dirname(BENCH_DIR)) === 'dist';
/** The repository root (bench/.. or dist/bench/../..), where bin/docex.js is. */
export const REPO_DIR = COMPILED ? path.resolve(BENCH_DIR, '../..') : path.resolve(BENCH_DIR, '..');
/** bench/out of the repository, also when running compiled from dist/bench. */
export const OUT_DIR = path.join(REPO_DIR, 'bench', 'out');

/** bin/docex.js when it can run (dist/src compiled), or why not. */
export function docexBin(): { bin: string } | { reason: string } {
  const bin = path.join(REPO_DIR, 'bin', 'docex.js');
  if (!existsSync(bin)) return { reason: `${bin} not found` };
  if (!existsSync(path.join(REPO_DIR, 'dist', 'src', 'cli', 'main.js')))
    return { reason: 'dist/src/cli/main.js not found: npm run build' };
  return { bin };
}

/**
 * Forks one of bench/'s child scripts (pipeline-child, http-client, pg-child) with an IPC channel:
 * compiled JavaScript, or TypeScript through tsx (which itself costs some 300 MB of memory, why
 * `npm run bench` compiles first).
 */
export function forkBenchScript(name: string, args: string[]): ChildProcess {
  const compiled = import.meta.url.endsWith('.js');
  return fork(path.join(BENCH_DIR, `${name}.${compiled ? 'js' : 'ts'}`), args, {
    execArgv: compiled ? [] : ['--import', import.meta.resolve('tsx')],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
}
