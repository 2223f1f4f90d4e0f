import { defineConfig } from 'vitest/config';

// The end-to-end suite runs against one real Home Assistant, so its files run one at a time.
// tests/e2e/run.sh runs it once per release; the name labels every test (and failure) with it.
export default defineConfig({
  test: {
    name: `Home Assistant ${process.env.HA_E2E_VERSION ?? '?'}`,
    include: ['tests/e2e/**/*.test.ts'],
    pool: 'forks',
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
