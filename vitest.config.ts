import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/unit/**/*.test.ts', 'tests/integration/**/*.test.ts', 'tests/browser/**/*.test.ts'],
    // uWebSockets.js is a native addon that must not load in worker threads.
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // In CI every run also records its counts for the log's closing line (scripts/ci-log.mjs).
    reporters: process.env.CI_TALLY_FILE ? ['default', './tests/lib/tally-reporter.mjs'] : ['default'],
    globalSetup: ['tests/global-setup.ts'],
  },
});
