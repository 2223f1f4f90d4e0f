import { defineConfig } from 'vitest/config';
import { SOURCE_ALIASES } from './vitest.aliases.js';

// The end-to-end suite runs against one real Home Assistant, so its files run one at a time.
// tests/e2e/run.sh runs it once per release; the name labels every test (and failure) with it.
export default defineConfig({
  // Plugins import the public API by the package's name, as a user's plugin does, and the bridge
  // and tests import the simulator's entries by its package's; under the test runner those names
  // mean the source, so everything shares one copy of each module.
  resolve: { alias: SOURCE_ALIASES },
  test: {
    name: `Home Assistant ${process.env.HA_E2E_VERSION ?? '?'}`,
    include: ['tests/e2e/**/*.test.ts'],
    pool: 'forks',
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 120_000,
    reporters: process.env.CI_TALLY_FILE ? ['default', './tests/lib/tally-reporter.mjs'] : ['default'],
  },
});
