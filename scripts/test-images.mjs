/**
 * The image backend tests (`npm test`'s last part): each file in a vitest process of its own.
 *
 * Why not with the rest: they load two native image libraries (sharp, and @napi-rs/canvas to draw their
 * samples) into one process, and that process occasionally dies under them ("Worker exited
 * unexpectedly", about one run in fifteen, also with nothing else running; the assertions all pass when
 * it does not). Until the samples are drawn without a native library, a file whose worker crashed is
 * run once more, saying so; a failed assertion is never run again.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dir = path.join(root, 'test', 'adapters', 'image');
const vitest = path.join(root, 'node_modules', 'vitest', 'vitest.mjs');
const files = readdirSync(dir)
  .filter((f) => f.endsWith('.test.ts'))
  .sort();

let failed = false;
for (const file of files) {
  const name = file.replace(/\.test\.ts$/, '');
  for (let attempt = 1; ; attempt++) {
    const run = spawnSync(
      process.execPath,
      [
        vitest,
        'run',
        path.join('test', 'adapters', 'image', file),
        `--outputFile.json=test-results/vitest-${name}.json`,
      ],
      { cwd: root, encoding: 'utf8', stdio: ['inherit', 'pipe', 'pipe'], env: process.env },
    );
    process.stdout.write(run.stdout ?? '');
    process.stderr.write(run.stderr ?? '');
    if (run.status === 0) break;
    const crashed = /Worker exited unexpectedly/.test(`${run.stdout}${run.stderr}`);
    if (crashed && attempt === 1) {
      process.stdout.write(
        `\ndocex: the worker running ${file} crashed (a native module); running it once more\n\n`,
      );
      continue;
    }
    failed = true;
    break;
  }
}
process.exit(failed ? 1 : 0);
