// Builds with tsc when dist/ is missing or older than any source file (src/ and plugins/), so `npm start` always runs current code;
// `--clean` builds in any case (`npm run build`). Then the simulator's demo entry is bundled into its
// package (src/sim/dist/index.js, what `@home-mcp-bridge/sim` means at run time): one file holding
// only what demo mode reaches, which is all of the simulator the add-on image carries.
import { existsSync, readdirSync, rmSync, statSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const out = join(root, 'dist', 'src', 'main.js');
// tsc rewrites its build-info file on every build that changed anything; it is the build's time stamp.
const stamp = join(root, 'dist', '.tsbuildinfo');

const simBundle = join(root, 'src', 'sim', 'dist');

function newest(dir) {
  let t = 0;
  if (!existsSync(dir)) return t;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (p === simBundle) continue;
    t = Math.max(t, e.isDirectory() ? newest(p) : statSync(p).mtimeMs);
  }
  return t;
}

const clean = process.argv.includes('--clean');
const stale = clean || !existsSync(out) || !existsSync(stamp) || !existsSync(join(simBundle, 'index.js'))
  || Math.max(newest(join(root, 'src')), newest(join(root, 'plugins')), statSync(join(root, 'tsconfig.json')).mtimeMs) > statSync(stamp).mtimeMs;
if (stale) {
  process.stderr.write('building (tsc)...\n');
  // A fresh dist/ each time: a plugin or module that was removed from the source must not linger in the build.
  rmSync(join(root, 'dist'), { recursive: true, force: true });
  execFileSync(process.execPath, [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', join(root, 'tsconfig.json')], { stdio: 'inherit' });
  await bundleSimulator();
}

/** The simulator's demo entry as tsc compiled it, and what it imports in the package, as one module; dependencies stay imports. */
async function bundleSimulator() {
  const { rolldown } = await import('rolldown');
  rmSync(simBundle, { recursive: true, force: true });
  const bundle = await rolldown({
    input: join(root, 'dist', 'src', 'sim', 'index.js'),
    platform: 'node',
    external: (id) => !id.startsWith('.') && !isAbsolute(id),
    logLevel: 'warn',
  });
  await bundle.write({ file: join(simBundle, 'index.js'), format: 'esm', banner: '// Built by scripts/build-if-needed.mjs from src/sim/index.ts: the simulator\'s demo entry. Do not edit.' });
  await bundle.close();
}
