import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// The end-to-end suite runs against one real Home Assistant, so its files run one at a time.
export default defineConfig({
  // Plugins import the public API by the package's name, as a user's plugin does; under the test
  // runner that name means the source, so plugins and the bridge share one copy of each module.
  resolve: { alias: { 'home-mcp-bridge/plugin': fileURLToPath(new URL('./src/plugin/index.ts', import.meta.url)) } },
  test: {
    include: ['tests/e2e/**/*.test.ts'],
    pool: 'forks',
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 120_000,
    reporters: process.env.CI_TALLY_FILE ? ['default', './tests/lib/tally-reporter.mjs'] : ['default'],
  },
});
