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
 * scenarios it lists under "Not scored" (extensions, pending, added after the release) decide
 * nothing, unless named in `mustPass`: their checks are counted apart (the suite's exit code
 * counts their failures too, so it decides only when nothing was counted). A failed run with no
 * counted check at all counts as one failure.
 */
export function countChecks(output, code, mustPass = new Set()) {
  const unscoredNames = new Set([...output.matchAll(/^\s+[✓✗] (\S+) \(/gmu)].map((m) => m[1]));
  let passed = 0;
  let failed = 0;
  let unscored = 0;
  for (const [, name, ok, bad] of output.matchAll(/^[✓✗] (\S+): (\d+) passed, (\d+) failed$/gmu)) {
    if (unscoredNames.has(name) && !mustPass.has(name)) unscored += Number(ok) + Number(bad);
    else {
      passed += Number(ok);
      failed += Number(bad);
    }
  }
  // One scenario run on its own prints only "Passed: 2/2, 0 failed, 0 warnings".
  const single = passed + failed + unscored === 0 ? /^Passed: (\d+)\/\d+, (\d+) failed/m.exec(output) : null;
  if (single) {
    passed = Number(single[1]);
    failed = Number(single[2]);
  }
  return { passed, failed: failed === 0 && passed === 0 && code !== 0 ? 1 : failed, unscored };
}
