import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * docex's version, from its package.json: found by walking up from this module (src/cli in a
 * checkout, dist/src/cli once built, the same in an installed package).
 */
export function docexVersion(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 5; i++) {
    const file = path.join(dir, 'package.json');
    if (existsSync(file)) {
      const pkg = JSON.parse(readFileSync(file, 'utf8')) as { name?: string; version?: string };
      if (pkg.name === 'docex' && pkg.version) return pkg.version;
    }
    dir = path.dirname(dir);
  }
  return 'unknown';
}
