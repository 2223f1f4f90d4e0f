// Whether the tests left the working tree as they found it: `record FILE` notes git's view of the
// tree (changed and untracked files, ignored ones aside) before the tests, `check FILE` compares
// after and fails listing every path that appeared or changed. CI (.ci/run) runs it around the
// suites, so a test that rewrites a tracked file or leaves a folder in the tree is caught.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const [mode, file] = process.argv.slice(2);
if (!['record', 'check'].includes(mode) || !file) {
  process.stderr.write('usage: node scripts/tree-unchanged.mjs record|check FILE\n');
  process.exit(2);
}

/** Each path git reports as changed or untracked, with a hash of its content (a second change shows). */
function snapshot() {
  const out = execFileSync('git', ['status', '--porcelain=v1', '-z', '--untracked-files=all'], { encoding: 'utf8' });
  const entries = {};
  for (const item of out.split('\0').filter(Boolean)) {
    const path = item.slice(3);
    const full = join(process.cwd(), path);
    const hash = existsSync(full) && statSync(full).isFile() ? createHash('sha256').update(readFileSync(full)).digest('hex').slice(0, 16) : 'gone';
    entries[path] = `${item.slice(0, 2)} ${hash}`;
  }
  return entries;
}

if (mode === 'record') {
  writeFileSync(file, JSON.stringify(snapshot()));
} else {
  const before = JSON.parse(readFileSync(file, 'utf8'));
  const after = snapshot();
  const changed = Object.keys(after)
    .filter((p) => before[p] !== after[p])
    .concat(Object.keys(before).filter((p) => !(p in after)));
  if (changed.length) {
    process.stdout.write(
      `The tests changed the working tree (tracked files rewritten, or files left that .gitignore does not cover):\n${changed.map((p) => `  ${p}`).join('\n')}\n`,
    );
    process.exit(1);
  }
  process.stdout.write('The working tree is as the tests found it.\n');
}
