// A test run leaves nothing behind: no temporary folders (tests and the bridges they start make
// many), no rewritten files in the tree. Checked by running a few of the suite's own files in a
// child vitest with a temporary folder of its own, which must be empty afterwards.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from 'vitest';

const root = join(import.meta.dirname, '..', '..');

test('the temporary folders a run makes are gone when it ends', () => {
  const tmp = mkdtempSync(join(tmpdir(), 'hmb-clean-run-'));
  try {
    const run = spawnSync(
      process.execPath,
      [join(root, 'node_modules', 'vitest', 'vitest.mjs'), 'run', 'tests/integration/process.test.ts', 'tests/unit/config.test.ts'],
      {
        cwd: root,
        env: { ...process.env, TMPDIR: tmp, CI_TALLY_FILE: '', NO_COLOR: '1' },
        encoding: 'utf8',
        timeout: 120_000,
      },
    );
    expect(run.status, `${run.stdout}\n${run.stderr}`.slice(-2000)).toBe(0);
    expect(readdirSync(tmp)).toEqual([]);
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}, 150_000);
