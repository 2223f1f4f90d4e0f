// The SDK's types reach a stranger: `npm pack` makes the package, it is installed into a project
// outside the tree (the example plugin's folder, copied), and TypeScript checks the plugin there
// against `home-mcp-bridge/plugin` as installed: the example compiles, and a plugin with a wrong
// field or a misspelt argument does not, the error naming it.
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');
const PKG = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  name: string;
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
  bundleDependencies?: string[];
  bundledDependencies?: string[];
};
const SIM = '@home-mcp-bridge/sim';

const npm = (args: string[], cwd: string) =>
  execFileSync('npm', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, npm_config_update_notifier: 'false' } });

/** TypeScript as installed in the project, on its own tsconfig or on the files given. */
const tsc = (cwd: string, args: string[]) =>
  spawnSync(process.execPath, [join(cwd, 'node_modules', 'typescript', 'bin', 'tsc'), ...args], { cwd, encoding: 'utf8' });

let project: string;
let packed: string[];

beforeAll(() => {
  const tarballs = mkdtempSync(join(tmpdir(), 'hmb-pack-'));
  // As the package stands (its `files`, and whatever prepack does); the tests' global setup built dist/ first.
  npm(['pack', '--silent', '--pack-destination', tarballs], ROOT);
  // The simulator is a workspace of this repository, not published: while the package neither
  // bundles it nor drops it, it is packed beside, as the example's README tells a stranger.
  const bundled = PKG.bundleDependencies ?? PKG.bundledDependencies ?? [];
  if (PKG.dependencies[SIM] && !bundled.includes(SIM)) npm(['pack', '--silent', '--pack-destination', tarballs], join(ROOT, 'src', 'sim'));
  const files = readdirSync(tarballs).filter((f) => f.endsWith('.tgz'));
  const main = files.find((f) => f.startsWith(`${PKG.name}-`))!;
  packed = execFileSync('tar', ['-tzf', join(tarballs, main)], { encoding: 'utf8' })
    .split('\n')
    .filter(Boolean);

  project = mkdtempSync(join(tmpdir(), 'hmb-stranger-'));
  for (const f of ['index.ts', 'package.json', 'tsconfig.json']) cpSync(join(ROOT, 'examples', 'good-night', f), join(project, f));
  // What it needs for types only: nothing is run, so no install scripts; the pinned TypeScript and Node types of this repository.
  npm(
    [
      'install',
      '--save-dev',
      '--ignore-scripts',
      '--omit=optional',
      '--prefer-offline',
      '--no-audit',
      '--no-fund',
      ...files.map((f) => join(tarballs, f)),
      `typescript@${PKG.devDependencies.typescript}`,
      `@types/node@${PKG.devDependencies['@types/node']}`,
    ],
    project,
  );
}, 300_000);

describe('a plugin written outside the tree, against the packed package', () => {
  test('the package carries the SDK’s types and the modules they name', () => {
    for (const f of [
      'package/dist/src/plugin-sdk/index.d.ts',
      'package/dist/src/plugin-sdk/index.js',
      'package/dist/src/plugin-sdk/types.d.ts',
      'package/dist/src/plugin-sdk/definition.d.ts',
    ])
      expect(packed, f).toContain(f);
    const installed = JSON.parse(readFileSync(join(project, 'node_modules', PKG.name, 'package.json'), 'utf8')) as {
      exports: Record<string, { types: string }>;
    };
    expect(existsSync(join(project, 'node_modules', PKG.name, installed.exports['./plugin']!.types))).toBe(true);
  });

  test('the example compiles against it: types resolve, and the build is its index.js', () => {
    const r = tsc(project, ['-p', '.']);
    expect(r.stdout + r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(readFileSync(join(project, 'index.js'), 'utf8')).toMatch(/from 'home-mcp-bridge\/plugin'/);
  });

  test('a wrong field and a misspelt argument are type errors that name them', () => {
    mkdirSync(join(project, 'wrong'));
    writeFileSync(
      join(project, 'wrong', 'index.ts'),
      `import { definePlugin, text, tool, v } from 'home-mcp-bridge/plugin';
export default definePlugin({
  name: 'wrong',
  version: '1.0.0',
  bridge: '^0.2.0',
  needz: ['home'],
  tools: [tool({ name: 'hello', title: 'Hello', description: 'Greets.', input: v.object({ name: v.string() }), run: (args) => text(\`Hello \${args.nme}\`) })],
});
`,
    );
    const wrong = tsc(project, [
      '--noEmit',
      '--strict',
      '--skipLibCheck',
      '--module',
      'nodenext',
      '--moduleResolution',
      'nodenext',
      '--target',
      'es2022',
      '--types',
      'node',
      join('wrong', 'index.ts'),
    ]);
    expect(wrong.status).not.toBe(0);
    // Exactly these two: the SDK's types resolved (no 'cannot find module'), and each names what is wrong.
    expect((wrong.stdout + wrong.stderr).trim().split('\n')).toEqual([
      "wrong/index.ts(6,3): error TS2561: Object literal may only specify known properties, but 'needz' does not exist in type 'PluginDefinition'. Did you mean to write 'needs'?",
      "wrong/index.ts(7,146): error TS2551: Property 'nme' does not exist on type '{ name: string; }'. Did you mean 'name'?",
    ]);
  });
});
