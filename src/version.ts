import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The package's own folder: the nearest one above this module with our package.json (src/ under vitest, dist/src/ when built). */
function packageRoot(): string {
  for (let dir = dirname(fileURLToPath(import.meta.url)); ; dir = dirname(dir)) {
    const file = join(dir, 'package.json');
    if (existsSync(file) && (JSON.parse(readFileSync(file, 'utf8')) as { name?: string }).name === 'home-mcp-bridge') return dir;
    if (dirname(dir) === dir) throw new Error('package.json of home-mcp-bridge not found above src/version');
  }
}

export const PACKAGE_ROOT = packageRoot();

/** The package version, read once from package.json. */
export const VERSION: string = (JSON.parse(readFileSync(join(PACKAGE_ROOT, 'package.json'), 'utf8')) as { version: string }).version;
