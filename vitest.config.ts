import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // A PostgreSQL server for the scale-out tests (DOCEX_PG_URL, or a throwaway one started here).
    globalSetup: ['test/setup/postgres.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // OCR tests start tesseract workers; two test files at a time keeps a 2-core machine responsive.
    maxWorkers: 2,
    // CI also writes JSON reports (paths set by `npm test`), from which .ci/run prints a plain
    // "N passed, N failed" line.
    reporters: process.env.CI ? ['default', 'json'] : ['default'],
  },
});
