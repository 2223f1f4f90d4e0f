// CI's check that the tests left the working tree as they found it (scripts/tree-unchanged.mjs),
// run on a repository of its own.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from 'vitest';

const SCRIPT = join(import.meta.dirname, '..', '..', 'scripts', 'tree-unchanged.mjs');

test('passes on an unchanged tree, and fails naming each file rewritten or left behind', () => {
  const repo = mkdtempSync(join(tmpdir(), 'hmb-tree-'));
  try {
    const git = (...args: string[]) => execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], { cwd: repo });
    git('init', '-q');
    writeFileSync(join(repo, '.gitignore'), 'ignored/\n');
    writeFileSync(join(repo, 'shot.png'), 'before');
    writeFileSync(join(repo, 'edited-before.txt'), 'a');
    git('add', '.');
    git('commit', '-qm', 'start');
    // A change made before the tests is not theirs.
    writeFileSync(join(repo, 'edited-before.txt'), 'b');
    const record = join(repo, '..', `${repo.split('/').pop()}.json`);
    const run = (mode: string) => spawnSync(process.execPath, [SCRIPT, mode, record], { cwd: repo, encoding: 'utf8' });
    expect(run('record').status).toBe(0);
    expect(run('check')).toMatchObject({ status: 0 });
    writeFileSync(join(repo, 'shot.png'), 'after');
    writeFileSync(join(repo, '.schemathesis'), 'x');
    writeFileSync(join(repo, 'edited-before.txt'), 'c');
    execFileSync('mkdir', ['-p', join(repo, 'ignored')]);
    writeFileSync(join(repo, 'ignored', 'fine'), 'x');
    const after = run('check');
    expect(after.status).toBe(1);
    expect(after.stdout).toMatch(/The tests changed the working tree/);
    expect(
      after.stdout
        .split('\n')
        .filter((l) => l.startsWith('  '))
        .map((l) => l.trim())
        .sort(),
    ).toEqual(['.schemathesis', 'edited-before.txt', 'shot.png']);
    rmSync(record, { force: true });
  } finally {
    rmSync(repo, { recursive: true, force: true });
  }
});
