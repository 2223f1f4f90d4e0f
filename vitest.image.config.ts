import { defineConfig } from 'vitest/config';

// The image tests (npm run test:image, which rehearses the image first): each file starts the app
// in the rehearsed root on its one port, so files run one at a time.
export default defineConfig({
  test: {
    include: ['tests/image/**/*.test.ts'],
    pool: 'forks',
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
