// The third held-out phrasing set, tests/fixtures/nl/heldout3 (issue 39): sentences as people say or
// type them, written without reading the parser, its words or any earlier set. It prints the counts
// by category and fails when a case that wants a refusal, a question back or an answer gets actions.
// Floors at the first scoring of the parser after the third round (2026-11-28, with the two cover
// cases amended as its README says): en 146 of 164 correct, 1 wrong answer (no action); de 133 of 142,
// 1 wrong answer. The misses were read while merging: judge the next round on a newer set.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { fixture, type Paraphrase, readCases } from '../helpers/nl-cases.js';
import { scoreSet } from '../helpers/nl-score.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

const SETS = [
  { language: 'en' as const, home: 'home.yaml', cases: 'heldout3/en.jsonl', minCorrect: 0.93, maxWrong: 0 },
  { language: 'de' as const, home: 'de/home.yaml', cases: 'heldout3/de.jsonl', minCorrect: 0.96, maxWrong: 0 },
];

describe.each(SETS)('the $language third held-out phrasings', ({ language, home, cases, minCorrect, maxWrong }) => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ SIM_HOME: fixture(home) });
    await s.app.hub.ready();
  });
  afterAll(() => s?.close());

  test('no action where a refusal, a question back or an answer is wanted, and the score at its floor', async () => {
    const score = await scoreSet(s, language, 'heldout3 (held out)', readCases<Paraphrase>(cases));
    console.log(score.report);
    expect(score.unsafe, score.report).toEqual([]);
    expect(score.wrongActions, score.report).toEqual([]);
    expect(score.total.correct / score.cases, score.report).toBeGreaterThanOrEqual(minCorrect);
    expect(score.total.wrong, score.report).toBeLessThanOrEqual(maxWrong);
  });
});
