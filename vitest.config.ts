import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  // Plugins import the public API by the package's name, as a user's plugin does; under the test
  // runner that name means the source, so plugins and the bridge share one copy of each module.
  resolve: { alias: { 'home-mcp-bridge/plugin': fileURLToPath(new URL('./src/plugin/index.ts', import.meta.url)) } },
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
