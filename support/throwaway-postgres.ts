import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';

/**
 * A PostgreSQL server for the tests (test/setup/postgres.ts) and the benchmark (bench/sections/pg.ts,
 * bench/sections/scale.ts): DOCEX_PG_URL when set, otherwise a throwaway cluster started from Debian's
 * binaries (as the `postgres` user when we are root) and removed by `stop`.
 */
export interface PgServer {
  url: string;
  /** `DOCEX_PG_URL`, or the throwaway cluster's binaries. */
  origin: string;
  stop(): void;
}

/** DOCEX_PG_URL, a throwaway cluster (in the system's temp folder), or why there is no server. */
export async function startPostgres(): Promise<PgServer | { reason: string }> {
  const given = process.env.DOCEX_PG_URL;
  if (given) return { url: given, origin: 'DOCEX_PG_URL', stop: () => undefined };
  const bin = findBin();
  if (!bin)
    return { reason: 'DOCEX_PG_URL is not set and no PostgreSQL binaries (initdb, pg_ctl) were found' };
  const dir = mkdtempSync(path.join(os.tmpdir(), 'docex-pg-'));
  const root = process.getuid?.() === 0;
  const asPostgres = (cmd: string, args: string[]): string[] =>
    root ? ['runuser', '-u', 'postgres', '--', cmd, ...args] : [cmd, ...args];
  try {
    if (root) {
      // The cluster's files belong to `postgres` (initdb refuses to run as root).
      const uid = Number(execFileSync('id', ['-u', 'postgres']).toString().trim());
      const gid = Number(execFileSync('id', ['-g', 'postgres']).toString().trim());
      chownSync(dir, uid, gid);
      chmodSync(dir, 0o700);
    }
    const port = await freePort();
    const data = path.join(dir, 'data');
    runOrThrow(asPostgres(path.join(bin, 'initdb'), ['-D', data, '-A', 'trust', '-U', 'docex', '--no-sync']));
    runOrThrow(
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
    return {
      url: `postgres://docex@127.0.0.1:${port}/postgres`,
      origin: `throwaway cluster (${bin}, fsync=off)`,
      stop: () => {
        const stop = asPostgres(path.join(bin, 'pg_ctl'), ['-D', data, '-m', 'fast', 'stop']);
        spawnSync(stop[0]!, stop.slice(1));
        rmSync(dir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    return {
      reason: `DOCEX_PG_URL is not set and a PostgreSQL server could not be started: ${(error as Error).message}`,
    };
  }
}

function runOrThrow(command: string[]): void {
  const result = spawnSync(command[0]!, command.slice(1), { encoding: 'utf8' });
  if (result.error) throw result.error;
  if (result.status !== 0) {
    throw new Error(
      `${path.basename(command[0]!)} ${command.slice(1, 3).join(' ')} failed: ${result.stderr || result.stdout}`.trim(),
    );
  }
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
