import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, test } from 'vitest';
// @ts-expect-error plain ESM script without types
import { closingLine, reword } from '../../scripts/ci-log.mjs';
import { countCases, countChecks } from '../lib/runner-counts.mjs';

// What log readers take for a runner's closing line: pytest, vitest/jest, mocha, cargo, the
// conformance suite, and a bare "N passed, N failed".
const SUMMARY = [
  /\b\d+ (passed|failed|passing|failing|skipped|warnings?|errors?)\b/,
  /^\s*={3,}\s.*\s={3,}\s*$/,
  /^\s*(Tests|Test Files)\s+\d+/,
  /test result: /,
];
const readsAsSummary = (line: string) => SUMMARY.some((re) => re.test(line));

const LOG = [
  ' Test Files  58 passed | 1 skipped (59)',
  '      Tests  1 failed | 688 passed | 7 skipped (696)',
  '✓ tools-list: 3 passed, 0 failed',
  '✗ json-schema-2020-12: 1 passed, 1 failed',
  'Total: 74 passed, 1 failed',
  '=================================== SUMMARY ====================================',
  '  959 generated, 959 passed, 74 skipped',
  '============================= 2 warnings in 36.84s =============================',
  '=== 1 failed, 3 passed in 0.12s ===',
  '  3 passing (12ms)',
];

describe('CI log', () => {
  const dir = mkdtempSync(join(tmpdir(), 'hmb-ci-log-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('rewords every line that reads as a runner summary, and keeps what it says', () => {
    expect(LOG.filter(readsAsSummary)).toHaveLength(LOG.length);
    const out = LOG.map((line) => reword(line) as string);
    expect(out.filter(readsAsSummary)).toEqual([]);
    expect(out[1]).toBe('      Tests  failed=1 | passed=688 | skipped=7 (696)');
    expect(out[4]).toBe('Total: passed=74, failed=1');
    expect(out[7]).toBe('--- warnings=2 in 36.84s ---');
  });

  it('leaves ordinary lines alone', () => {
    for (const line of ['[ha] starting Home Assistant 2026.11.0', ' ✓ tests/e2e/parity.test.ts (75 tests) 19992ms', 'added 143 packages in 56s']) {
      expect(reword(line)).toBe(line);
    }
  });

  it('closes with the sum over every runner, and counts a crash with no count as a failure', () => {
    const file = join(dir, 'tally');
    writeFileSync(
      file,
      `${[
        { runner: 'vitest', passed: 689, failed: 0, skipped: 7 },
        { runner: 'schemathesis', passed: 959, failed: 0 },
        { runner: 'conformance server', passed: 74, failed: 0, unscored: 2 },
      ]
        .map((r) => JSON.stringify(r))
        .join('\n')}\n`,
    );
    expect(closingLine(file, 0)).toBe('1722 passed, 0 failed');
    expect(closingLine(file, 1)).toBe('1722 passed, 1 failed');
    expect(closingLine(join(dir, 'none'), 2)).toBe('0 passed, 1 failed');
    const closing = /^\d+ passed, \d+ failed$/;
    expect(closing.test(closingLine(file, 0))).toBe(true);
  });
});

describe('what each runner says it ran', () => {
  test('Schemathesis: the "Test cases" line, not the progress lines above it', () => {
    const out = [
      'Examples',
      '     ✅  9 passed  ⏭  30 skipped',
      'Fuzzing',
      '     ✅ 11 passed  ⏭  37 skipped',
      '',
      'Test cases:',
      '  1011 generated, 1011 passed, 74 skipped',
      '',
      'Seed: 42',
    ].join('\n');
    expect(countCases(out, 0)).toEqual({ passed: 1011, failed: 0 });
    const failing = out.replace('1011 generated, 1011 passed', '1011 generated, found 3 unique failures, 1005 passed');
    expect(countCases(failing, 1)).toEqual({ passed: 1005, failed: 6 });
    expect(countCases('Traceback (most recent call last):', 1)).toEqual({ passed: 0, failed: 1 });
  });

  test('the conformance suite: scored scenarios count, the ones it lists as not scored are apart', () => {
    const out = [
      '=== SUMMARY ===',
      '✓ tools-list: 3 passed, 0 failed',
      '✗ tools-call-sampling: 1 passed, 1 failed',
      '✗ json-schema-2020-12: 1 passed, 1 failed',
      '',
      'Total: 5 passed, 2 failed',
      '',
      'Not scored for 2025-11-25: 1 scenario(s) run, 1 failing. These do not affect conformance.',
      '  ✗ json-schema-2020-12 (pending)',
    ].join('\n');
    expect(countChecks(out, 1)).toEqual({ passed: 4, failed: 1, unscored: 2 });
    expect(countChecks('', 1)).toEqual({ passed: 0, failed: 1, unscored: 0 });
    // A scenario run on its own has no summary, only its own line.
    expect(countChecks('Checks:\n  SUCCESS ...\n\nTest Results:\nPassed: 2/2, 0 failed, 0 warnings', 0)).toEqual({ passed: 2, failed: 0, unscored: 0 });
    // A scenario the revision does not score but the bridge must keep passing counts like the others.
    expect(countChecks(out, 1, new Set(['json-schema-2020-12']))).toEqual({ passed: 5, failed: 2, unscored: 0 });
  });
});
