import { fileURLToPath } from 'node:url';

const source = (path: string) => fileURLToPath(new URL(path, import.meta.url));

/** Package names (and the package's own `#sim`) the repository's own code imports, read from source under the test runner (exact names: one is a prefix of another). */
export const SOURCE_ALIASES = [
  { find: /^home-mcp-bridge\/plugin$/, replacement: source('./src/plugin-sdk/index.ts') },
  { find: /^@home-mcp-bridge\/sim$/, replacement: source('./src/sim/index.ts') },
  // The product's own name for the simulator's public entry (package.json "imports"), which resolves inside the installed package.
  { find: /^#sim$/, replacement: source('./src/sim/index.ts') },
  { find: /^@home-mcp-bridge\/sim\/testing$/, replacement: source('./src/sim/testing.ts') },
];
