import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // OCR tests start tesseract workers; two test files at a time keeps a 2-core machine responsive.
    maxWorkers: 2,
  },
});
