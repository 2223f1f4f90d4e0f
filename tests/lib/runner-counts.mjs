// What a test runner's own output says it ran, for CI's closing line (tests/lib/tally.mjs).

/**
 * Schemathesis's "Test cases:" summary ("959 generated, 959 passed, 74 skipped", or with "found N
 * unique failures"): every generated case that did not pass failed. Only that line counts (the
 * progress lines above it carry "N passed" too). A failed run with no count counts as one failure.
 */
export function countCases(output, code) {
  const line = /Test cases:\s*\n\s*([^\n]*)/.exec(output)?.[1] ?? '';
  const generated = Number(/(\d+) generated/.exec(line)?.[1] ?? 0);
  const passed = Number(/(\d+) passed/.exec(line)?.[1] ?? 0);
  const failed = generated - passed;
  return { passed, failed: failed > 0 ? failed : code === 0 ? 0 : 1 };
}

/**
 * The suite's summary lines ("✓ tools-list: 3 passed, 0 failed"), scenario by scenario. The
 * scenarios it lists under "Not scored" (pending, added after the release) decide nothing: their
 * checks are counted apart. A failed run with no failing check counts as one failure.
 */
export function countChecks(output, code) {
  const unscoredNames = new Set([...output.matchAll(/^\s+[✓✗] (\S+) \(/gmu)].map((m) => m[1]));
  let passed = 0;
  let failed = 0;
  let unscored = 0;
  for (const [, name, ok, bad] of output.matchAll(/^[✓✗] (\S+): (\d+) passed, (\d+) failed$/gmu)) {
    if (unscoredNames.has(name)) unscored += Number(ok) + Number(bad);
    else {
      passed += Number(ok);
      failed += Number(bad);
    }
  }
  return { passed, failed: failed === 0 && code !== 0 ? 1 : failed, unscored };
}
