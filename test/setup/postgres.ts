import type { TestProject } from 'vitest/node';
import { startPostgres } from '../../support/throwaway-postgres.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A PostgreSQL server for the tests, or '' when none could be had. */
    pgUrl: string;
    pgSkipReason: string;
  }
}

/**
 * PostgreSQL for the tests: DOCEX_PG_URL when set (CI starts a server), otherwise a throwaway cluster
 * started here from the Debian binaries and stopped at the end. When neither is possible the PostgreSQL
 * tests are skipped with the reason.
 */
export default async function setup(project: TestProject): Promise<() => void> {
  const server = await startPostgres();
  if ('reason' in server) {
    project.provide('pgUrl', '');
    project.provide('pgSkipReason', server.reason);
    return () => undefined;
  }
  project.provide('pgUrl', server.url);
  project.provide('pgSkipReason', '');
  return () => server.stop();
}
