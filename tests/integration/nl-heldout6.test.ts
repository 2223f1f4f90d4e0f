// The sixth held-out phrasing set, tests/fixtures/nl/heldout6 (issue 39): sentences as people say or
// type them, written from the two test homes and the case format only, without reading the parser,
// its words or any earlier set (the team tuned the parser on those). It prints correct / refused /
// wrong by category and the wrong actions, and fails when a case that wants a refusal, a question
// back or an answer gets actions. No floor yet: the first score is the blind measure.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { fixture, type Paraphrase, readCases } from '../helpers/nl-cases.js';
import { scoreSet } from '../helpers/nl-score.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

const SETS = [
  { language: 'en' as const, home: 'home.yaml', cases: 'heldout6/en.jsonl' },
  { language: 'de' as const, home: 'de/home.yaml', cases: 'heldout6/de.jsonl' },
];

describe.each(SETS)('the $language sixth held-out phrasings', ({ language, home, cases }) => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ SIM_HOME: fixture(home) });
    await s.app.hub.ready();
  });
  afterAll(() => s?.close());

  test('no action where a refusal, a question back or an answer is wanted', async () => {
    const score = await scoreSet(s, language, 'heldout6 (held out)', readCases<Paraphrase>(cases));
    console.log(score.report);
    expect(score.unsafe, score.report).toEqual([]);
  });
});
