import { defineConfig } from 'vitest/config';

// The end-to-end suite runs against one real Home Assistant, so its files run one at a time.
export default defineConfig({
  test: {
    include: ['tests/e2e/**/*.test.ts'],
    pool: 'forks',
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 120_000,
    reporters: process.env.CI_TALLY_FILE ? ['default', './tests/lib/tally-reporter.mjs'] : ['default'],
  },
});
