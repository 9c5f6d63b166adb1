import { defineConfig } from 'vitest/config';

// Two cores on these machines: two forks, and generous timeouts for the tests that
// start the sandbox, Chromium or LibreOffice. Loops inside tests bound themselves.
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'test/**/*.test.tsx'],
    pool: 'forks',
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 60_000,
    reporters: ['default'],
  },
});
