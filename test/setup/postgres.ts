import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A PostgreSQL server for the tests, or '' when none could be had. */
    pgUrl: string;
    pgSkipReason: string;
  }
}

/**
 * PostgreSQL for the tests: DOCEX_PG_URL when set (CI starts a server), otherwise a throwaway cluster
 * started here from the Debian binaries (initdb/pg_ctl, run as the `postgres` user when we are root),
 * stopped at the end. When neither is possible the PostgreSQL tests are skipped with the reason.
 */
export default async function setup(project: TestProject): Promise<() => void> {
  const given = process.env.DOCEX_PG_URL;
  if (given) {
    project.provide('pgUrl', given);
    project.provide('pgSkipReason', '');
    return () => undefined;
  }
  const bin = findBin();
  if (!bin) {
    project.provide('pgUrl', '');
    project.provide(
      'pgSkipReason',
      'DOCEX_PG_URL is not set and no PostgreSQL binaries (initdb, pg_ctl) were found',
    );
    return () => undefined;
  }
  const dir = mkdtempSync(path.join(os.tmpdir(), 'docex-pg-'));
  const root = process.getuid?.() === 0;
  const asPostgres = (cmd: string, args: string[]): string[] =>
    root ? ['runuser', '-u', 'postgres', '--', cmd, ...args] : [cmd, ...args];
  try {
    if (root) {
      const uid = Number(execFileSync('id', ['-u', 'postgres']).toString().trim());
      const gid = Number(execFileSync('id', ['-g', 'postgres']).toString().trim());
      chownSync(dir, uid, gid);
      chmodSync(dir, 0o700);
    }
    const port = await freePort();
    const data = path.join(dir, 'data');
    run(asPostgres(path.join(bin, 'initdb'), ['-D', data, '-A', 'trust', '-U', 'docex', '--no-sync']));
    run(
      asPostgres(path.join(bin, 'pg_ctl'), [
        '-D',
        data,
        '-l',
        path.join(dir, 'log'),
        '-o',
        `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200`,
        '-w',
        'start',
      ]),
    );
    project.provide('pgUrl', `postgres://docex@127.0.0.1:${port}/postgres`);
    project.provide('pgSkipReason', '');
    return () => {
      const stop = asPostgres(path.join(bin, 'pg_ctl'), ['-D', data, '-m', 'fast', 'stop']);
      spawnSync(stop[0]!, stop.slice(1));
      rmSync(dir, { recursive: true, force: true });
    };
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    project.provide('pgUrl', '');
    project.provide(
      'pgSkipReason',
      `DOCEX_PG_URL is not set and a PostgreSQL server could not be started: ${(error as Error).message}`,
    );
    return () => undefined;
  }
}

function run(command: string[]): void {
  const result = spawnSync(command[0]!, command.slice(1), { encoding: 'utf8' });
  if (result.status !== 0)
    throw new Error(
      `${path.basename(command[0]!)} ${command.slice(1, 3).join(' ')} failed: ${result.stderr || result.stdout}`.trim(),
    );
}

function findBin(): string | undefined {
  const versions = existsSync('/usr/lib/postgresql')
    ? readdirSync('/usr/lib/postgresql').sort((a, b) => Number(b) - Number(a))
    : [];
  for (const v of versions) {
    const bin = `/usr/lib/postgresql/${v}/bin`;
    if (existsSync(path.join(bin, 'initdb')) && existsSync(path.join(bin, 'pg_ctl'))) return bin;
  }
  return undefined;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}
