/** Native tools as baselines: whether they run, their versions, and running them in a pool of processes. */
import { spawn, spawnSync } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';

export const INSTALL_HINT = 'apt-get install poppler-utils tesseract-ocr';

/** Why a native tool cannot be used, or undefined when it runs. */
export function missingTool(command: string, versionArgs: string[]): string | undefined {
  const result = spawnSync(command, versionArgs, { stdio: 'pipe', timeout: 10_000 });
  if (result.error) {
    const code = (result.error as NodeJS.ErrnoException).code;
    return code === 'ENOENT'
      ? `${command} not installed: ${INSTALL_HINT}`
      : `${command} did not run (${code ?? result.error.message})`;
  }
  return undefined;
}

/** First line of the tool's version output (poppler and tesseract print it on stderr or stdout). */
export function toolVersion(command: string, versionArgs: string[]): string {
  const result = spawnSync(command, versionArgs, { encoding: 'utf8', timeout: 10_000 });
  const text = `${result.stdout ?? ''}\n${result.stderr ?? ''}`;
  return (
    text
      .split('\n')
      .map((l) => l.trim())
      .find((l) => l !== '') ?? 'unknown'
  );
}

/** The Debian package (and version) owning a file, when dpkg knows it. */
export function debianPackageOf(file: string): string | undefined {
  const owner = spawnSync('dpkg-query', ['-S', file], { encoding: 'utf8' });
  if (owner.error || owner.status !== 0) return undefined;
  const name = owner.stdout.split(':')[0]?.trim();
  if (!name) return undefined;
  const version = spawnSync('dpkg-query', ['-W', '-f', '${Version}', name], { encoding: 'utf8' });
  return version.status === 0 ? `${name} ${version.stdout.trim()}` : name;
}

/** Runs a command to completion; rejects on a spawn error or a non-zero exit, with its stderr. */
export function run(command: string, args: string[], env: NodeJS.ProcessEnv = process.env): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => {
      if (stderr.length < 4000) stderr += chunk;
    });
    child.on('error', reject);
    child.on('close', (code, signal) => {
      if (code === 0) resolve();
      else reject(new Error(`${command} ${args.join(' ')} failed (${signal ?? code}): ${stderr.trim()}`));
    });
  });
}

/** Runs the tasks with at most `slots` of them at a time. */
export async function runPool(tasks: Array<() => Promise<void>>, slots: number): Promise<void> {
  let next = 0;
  const lane = async (): Promise<void> => {
    while (next < tasks.length) {
      const task = tasks[next++]!;
      await task();
    }
  };
  await Promise.all(Array.from({ length: Math.min(slots, tasks.length) }, lane));
}

/** pdftotext -bbox-layout over every file, one process per file, `slots` at a time; seconds. */
export async function pdftotextFolder(files: string[], outDir: string, slots: number): Promise<number> {
  await mkdir(outDir, { recursive: true });
  const start = performance.now();
  await runPool(
    files.map(
      (file, i) => () =>
        run('pdftotext', ['-bbox-layout', file, path.join(outDir, `${String(i).padStart(4, '0')}.html`)]),
    ),
    slots,
  );
  return (performance.now() - start) / 1000;
}
