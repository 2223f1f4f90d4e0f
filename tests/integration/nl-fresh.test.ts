// The fresh held-out phrasings of tests/fixtures/nl/fresh (issue 39): a second set of sentences as
// people say or type them, written without reading the parser, its words or the earlier sets. Scored
// as nl-people scores its sets; only counts by category are printed, except the safety cases below.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { fixture, type Paraphrase, readCases } from '../helpers/nl-cases.js';
import { scoreSet } from '../helpers/nl-score.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

// Floors at what the parser reaches (first scored 2026-11-28: en 135 of 164, 4 wrong; de 122 of 136, 3
// wrong; after the third round en 149, 1 wrong; de 128, 1 wrong); nothing is ever done where the sentence
// asked, was unclear or named what the home lacks. The set's misses have since been read while fixing
// their kinds: judge the next round on a newer set.

const SETS = [
  { language: 'en' as const, home: 'home.yaml', cases: 'fresh/en.jsonl', minCorrect: 0.93, maxWrong: 1 },
  { language: 'de' as const, home: 'de/home.yaml', cases: 'fresh/de.jsonl', minCorrect: 0.94, maxWrong: 1 },
];

describe.each(SETS)('the $language fresh held-out phrasings', ({ language, home, cases: file, minCorrect, maxWrong }) => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ SIM_HOME: fixture(home) });
    await s.app.hub.ready();
  });
  afterAll(() => s?.close());

  test('no action where a refusal, a question back or an answer is wanted, and the score at its floor', async () => {
    const cases = readCases<Paraphrase>(file);
    const { total, unsafe, report } = await scoreSet(s, language, 'fresh (held out)', cases);
    console.log(report);
    expect(unsafe, report).toEqual([]);
    expect(total.correct / cases.length, report).toBeGreaterThanOrEqual(minCorrect);
    expect(total.wrong, report).toBeLessThanOrEqual(maxWrong);
  });
});
