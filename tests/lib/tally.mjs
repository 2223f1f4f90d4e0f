// What each test runner ran, for CI's one closing line. A runner appends one JSON line to the file
// named by CI_TALLY_FILE (unset outside CI: nothing is written). `unscored` counts checks that ran
// but decide nothing (the conformance suite's pending scenarios), kept apart from passed and failed.
import { appendFileSync, existsSync, readFileSync } from 'node:fs';

/** @param {{runner: string, passed: number, failed: number, skipped?: number, unscored?: number}} counts */
export function recordTally(counts) {
  const file = process.env.CI_TALLY_FILE;
  if (!file) return;
  appendFileSync(file, `${JSON.stringify(counts)}\n`);
}

/** @returns {{passed: number, failed: number, runs: Array<Record<string, unknown>>}} */
export function readTally(file) {
  const runs = existsSync(file)
    ? readFileSync(file, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line))
    : [];
  return {
    passed: runs.reduce((n, r) => n + (r.passed ?? 0), 0),
    failed: runs.reduce((n, r) => n + (r.failed ?? 0), 0),
    runs,
  };
}
