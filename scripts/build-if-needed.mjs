// Builds with tsc when dist/ is missing or older than any source file (src/ and plugins/), so `npm start` always runs current code;
// `--clean` builds in any case (`npm run build`).
import { existsSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const out = join(root, 'dist', 'src', 'main.js');
// tsc rewrites its build-info file on every build that changed anything; it is the build's time stamp.
const stamp = join(root, 'dist', '.tsbuildinfo');

function newest(dir) {
  let t = 0;
  if (!existsSync(dir)) return t;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    t = Math.max(t, e.isDirectory() ? newest(p) : statSync(p).mtimeMs);
  }
  return t;
}

const clean = process.argv.includes('--clean');
const stale = clean || !existsSync(out) || !existsSync(stamp)
  || Math.max(newest(join(root, 'src')), newest(join(root, 'plugins')), statSync(join(root, 'tsconfig.json')).mtimeMs) > statSync(stamp).mtimeMs;
if (stale) {
  process.stderr.write('building (tsc)...\n');
  // A fresh dist/ each time: a plugin or module that was removed from the source must not linger in the build.
  rmSync(join(root, 'dist'), { recursive: true, force: true });
  execFileSync(process.execPath, [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', join(root, 'tsconfig.json')], { stdio: 'inherit' });
}
