// A vitest reporter that records what the run counted (tests/lib/tally.mjs); vitest's own
// reporter still prints the run. A file that failed to load has no tests, so it counts as one
// failure, and so does every error vitest reports outside a test.
import { recordTally } from './tally.mjs';

export default class TallyReporter {
  onTestRunEnd(testModules, unhandledErrors) {
    let passed = 0;
    let failed = unhandledErrors.length;
    let skipped = 0;
    for (const module of testModules) {
      let tests = 0;
      for (const test of module.children.allTests()) {
        tests += 1;
        const { state } = test.result();
        if (state === 'passed') passed += 1;
        else if (state === 'failed') failed += 1;
        else skipped += 1;
      }
      if (tests === 0 && module.state() === 'failed') failed += 1;
    }
    recordTally({ runner: `vitest ${process.env.CI_TALLY_LABEL ?? ''}`.trim(), passed, failed, skipped });
  }
}
