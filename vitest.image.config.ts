import { readFileSync } from 'node:fs';
import { defineConfig } from 'vitest/config';
import { SOURCE_ALIASES } from './vitest.aliases.js';

// The image tests (npm run test:image, which rehearses the image first): each file starts the app
// in the rehearsed root on its one port, so files run one at a time. A lane run under qemu-user
// (aarch64 on an x64 host) does the same work several times slower: its waits get room to match.
const rehearsal = process.env.IMAGE_REHEARSAL ? (JSON.parse(readFileSync(process.env.IMAGE_REHEARSAL, 'utf8')) as { emulator: unknown }) : undefined;
const slower = rehearsal?.emulator ? 3 : 1;
export default defineConfig({
  // Plugins import the public API by the package's name, as a user's plugin does, and the bridge
  // and tests import the simulator's entries by its package's; under the test runner those names
  // mean the source, so everything shares one copy of each module.
  resolve: { alias: SOURCE_ALIASES },
  test: {
    include: ['tests/image/**/*.test.ts'],
    pool: 'forks',
    fileParallelism: false,
    testTimeout: 60_000 * slower,
    hookTimeout: 120_000 * slower,
    // In CI every run also records its counts for the log's closing line (scripts/ci-log.mjs).
    reporters: process.env.CI_TALLY_FILE ? ['default', './tests/lib/tally-reporter.mjs'] : ['default'],
  },
});
