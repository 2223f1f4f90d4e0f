import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Process-level tests run the built service, so build it first when sources changed. Every
 * temporary folder the run makes (tests, and the bridges they start, call tmpdir()) goes under
 * one folder of its own, which is removed when the run ends: a run leaves nothing behind.
 */
export default function setup(): () => void {
  execFileSync(process.execPath, ['scripts/build-if-needed.mjs'], { stdio: 'inherit' });
  const run = mkdtempSync(join(tmpdir(), 'hmb-run-'));
  // The test workers start after this and take it from the environment.
  process.env.TMPDIR = run;
  return () => rmSync(run, { recursive: true, force: true });
}
