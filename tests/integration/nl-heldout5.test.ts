// The fifth held-out phrasing set, tests/fixtures/nl/heldout5 (issue 39): sentences as people say or
// type them, written from the two test homes and the case format only, without reading the parser,
// its words or any earlier set (the team tuned the parser on those). It prints correct / refused /
// wrong by category and the wrong actions, and fails when a case that wants a refusal, a question
// back or an answer gets actions. Floors at the score after the sixth round (en 162 of 174, de 141 of
// 149, no wrong action in either; history questions are answered from the recorder): a change may not
// fall below them, nor add a wrong action.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { fixture, type Paraphrase, readCases } from '../helpers/nl-cases.js';
import { scoreSet } from '../helpers/nl-score.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

const SETS = [
  { language: 'en' as const, home: 'home.yaml', cases: 'heldout5/en.jsonl', minCorrect: 0.93, maxWrongActions: 0 },
  { language: 'de' as const, home: 'de/home.yaml', cases: 'heldout5/de.jsonl', minCorrect: 0.93, maxWrongActions: 0 },
];

describe.each(SETS)('the $language fifth held-out phrasings', ({ language, home, cases, minCorrect, maxWrongActions }) => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ SIM_HOME: fixture(home) });
    await s.app.hub.ready();
  });
  afterAll(() => s?.close());

  test('no action where a refusal, a question back or an answer is wanted, and the score at its floor', async () => {
    const score = await scoreSet(s, language, 'heldout5 (held out)', readCases<Paraphrase>(cases));
    console.log(score.report);
    expect(score.unsafe, score.report).toEqual([]);
    expect(score.wrongActions.length, score.report).toBeLessThanOrEqual(maxWrongActions);
    expect(score.total.correct / score.cases, score.report).toBeGreaterThanOrEqual(minCorrect);
  });
});
