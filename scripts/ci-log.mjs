#!/usr/bin/env node
// CI's log: one closing line, "N passed, N failed", counting every runner (tests/lib/tally.mjs),
// and no other line that reads as a test runner's summary.
//   node scripts/ci-log.mjs                       copies stdin to stdout, rewording summary lines
//   node scripts/ci-log.mjs --total FILE STATUS   prints the closing line from the tally FILE;
//                                                 a failed exit STATUS with no failure counted
//                                                 counts as one failure (a runner that crashed)
import { createInterface } from 'node:readline';
import { readTally } from '../tests/lib/tally.mjs';

/** Rewords a line that a log reader could take for a runner's summary; other lines pass as they are. */
export function reword(line) {
  return (
    line
      // "12 passed", "1 failed", "2 warnings", "74 skipped", mocha's "3 passing": the count goes after.
      .replace(/\b(\d+) (passed|failed|passing|failing|pending|skipped|errors?|warnings?|xfailed|xpassed|deselected)\b/g, '$2=$1')
      // pytest-style banners ("=== 2 warnings in 27s ===") become plain rules.
      .replace(/^(\s*)={3,}(\s.*\s)={3,}\s*$/, '$1---$2---')
  );
}

export function closingLine(file, status) {
  const { passed, failed } = readTally(file);
  const crashed = status !== 0 && failed === 0 ? 1 : 0;
  return `${passed} passed, ${failed + crashed} failed`;
}

if (process.argv[2] === '--total') {
  process.stdout.write(`${closingLine(process.argv[3], Number(process.argv[4] ?? 0))}\n`);
} else if (import.meta.url === `file://${process.argv[1]}`) {
  const lines = createInterface({ input: process.stdin, crlfDelay: Infinity });
  for await (const line of lines) process.stdout.write(`${reword(line)}\n`);
}
