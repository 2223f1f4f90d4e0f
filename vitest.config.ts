import { defineConfig } from 'vitest/config';
import { SOURCE_ALIASES } from './vitest.aliases.js';

export default defineConfig({
  // Plugins import the public API by the package's name, as a user's plugin does, and the bridge
  // and tests import the simulator's entries by its package's; under the test runner those names
  // mean the source, so everything shares one copy of each module.
  resolve: { alias: SOURCE_ALIASES },
  test: {
    // The simulator's own tests live in its package (src/sim/tests) and run here, in the one suite.
    include: ['tests/unit/**/*.test.ts', 'tests/integration/**/*.test.ts', 'tests/browser/**/*.test.ts', 'src/sim/tests/**/*.test.ts'],
    // uWebSockets.js is a native addon that must not load in worker threads.
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // In CI every run also records its counts for the log's closing line (scripts/ci-log.mjs).
    reporters: process.env.CI_TALLY_FILE ? ['default', './tests/lib/tally-reporter.mjs'] : ['default'],
    globalSetup: ['tests/global-setup.ts'],
  },
});
