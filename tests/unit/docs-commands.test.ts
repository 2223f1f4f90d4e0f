// Commands the docs and the panel tell people to run. `npx NAME` (and its kin) runs whatever the
// npm registry holds under NAME when it is not installed here; this project publishes nothing
// there, so the only names such a command may carry are the dependencies package.json pins.
// The bridge itself is run from the installed copy (a path, `npm link`, or a global install).
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';

const root = join(import.meta.dirname, '..', '..');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  name: string;
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
};
const pinned = new Set([...Object.keys(pkg.dependencies), ...Object.keys(pkg.devDependencies)]);

/** What people read: every Markdown file, the add-on's files and the panel, as committed. */
const files = execFileSync('git', ['ls-files', '-z'], { cwd: root, encoding: 'utf8' })
  .split('\0')
  .filter((f) => /\.(md|html|ya?ml)$/.test(f) || f.startsWith('src/panel/'));

const RUNNERS = /\b(?:npx|pnpx|bunx|npm\s+exec|npm\s+x|pnpm\s+dlx|pnpm\s+exec|yarn\s+dlx)\b((?:\s+-{1,2}[\w-]+(?:=\S+)?)*)\s+(@?[\w./-]+)/g;
// The same in a JSON or JavaScript configuration: "command": "npx", "args": ["-y", "NAME", ...].
const CONFIGURED = /["']?command["']?\s*:\s*["'](?:npx|pnpx|bunx)["']\s*,\s*["']?args["']?\s*:\s*\[([^\]]*)\]/g;

/** Each package a text runs through a package runner. */
function packagesRun(text: string): string[] {
  const out: string[] = [];
  // name@version names the package `name` (a scope's @ comes first).
  for (const m of text.matchAll(RUNNERS)) out.push(m[2]!.replace(/(.)@.*$/, '$1'));
  for (const m of text.matchAll(CONFIGURED)) {
    const args = [...m[1]!.matchAll(/["']([^"']*)["']/g)].map((a) => a[1]!);
    const name = args.find((a) => !a.startsWith('-'));
    if (name) out.push(name);
  }
  return out;
}

test('the rule catches the forms a person would copy', () => {
  expect(packagesRun('run `npx home-mcp-bridge stdio`')).toEqual(['home-mcp-bridge']);
  expect(packagesRun('npx -y home-mcp-bridge connect URL')).toEqual(['home-mcp-bridge']);
  expect(packagesRun('npm exec --yes home-mcp-bridge@latest')).toEqual(['home-mcp-bridge']);
  expect(packagesRun('{ "command": "npx", "args": ["-y", "home-mcp-bridge", "connect"] }')).toEqual(['home-mcp-bridge']);
  expect(packagesRun("{ command: 'npx', args: ['home-mcp-bridge', 'stdio'] }")).toEqual(['home-mcp-bridge']);
  expect(packagesRun('npx vitest run tests/x.test.ts')).toEqual(['vitest']);
  expect(packagesRun('"command": "home-mcp-bridge", "args": ["stdio"]')).toEqual([]);
});

test.each(files)('%s runs no package the project does not pin', (file) => {
  const text = readFileSync(join(root, file), 'utf8');
  const strangers = packagesRun(text).filter((name) => !pinned.has(name));
  expect(strangers, `${file} tells people to run ${strangers.join(', ')} from the npm registry (${pkg.name} is not published; run the installed copy)`).toEqual(
    [],
  );
});
