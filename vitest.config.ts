import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Threads, not forks: a forked test process that loaded sharp (libvips) ended with SIGSEGV in about
    // one run of twenty while exiting (seen on the image-backend files); with threads, 0 in 25 runs.
    pool: 'threads',
    // OCR tests start tesseract workers; two test files at a time keeps a 2-core machine responsive.
    maxWorkers: 2,
    // CI also writes a JSON report, from which .ci/run prints a plain "N passed, N failed" line.
    reporters: process.env.CI ? ['default', 'json'] : ['default'],
    outputFile: { json: 'test-results/vitest.json' },
  },
});
