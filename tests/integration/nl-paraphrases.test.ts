// The paraphrase sets (tests/fixtures/nl/paraphrases, written for this project, not from the corpus):
// commands as different people say them, with typos, filler, negations, times, conditions,
// compounds, relative changes and things that must be refused, in English against the English
// fixture home and in German against the German one. Any wrong action fails the test; refusing
// where an action was wanted is a safe miss, counted.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { fixture, judge, readCases, type Paraphrase, type Verdict } from '../helpers/nl-cases.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

/** The share that must be correct; raised as the parser improves, never lowered. */
const FLOOR = { en: 0.99, de: 1 };

const SETS = [
  { language: 'en' as const, home: 'home.yaml', cases: 'paraphrases/dev.jsonl' },
  { language: 'de' as const, home: 'de/home.yaml', cases: 'paraphrases/de/dev.jsonl' },
];

describe.each(SETS)('the $language paraphrases', ({ language, home, cases: file }) => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ SIM_HOME: fixture(home) });
    await s.app.hub.ready();
  });
  afterAll(() => s?.close());

  test('none plans a wrong action, and most are right', async () => {
    const cases = readCases<Paraphrase>(file);
    const tally: Record<Verdict, string[]> = { correct: [], refused: [], wrong: [] };
    for (const p of cases) {
      const r = await s.call('/api/command', 'POST', { command: p.command, language, ...(p.context ? { context: p.context } : {}), dry_run: true });
      const verdict = judge(p, r.status, r.body);
      const got =
        r.status === 200
          ? JSON.stringify(
              r.body.query?.entities ??
                r.body.actions?.map(
                  (a: { entity_id: string; action: string; parameters: unknown }) => `${a.entity_id}:${a.action}:${JSON.stringify(a.parameters)}`,
                ),
            )
          : `${r.status} ${r.body.code}: ${r.body.message}`;
      tally[verdict].push(`[${p.category}] ${p.command} (want ${p.expect}) -> ${got}`);
    }
    const summary = `${tally.correct.length} correct, ${tally.refused.length} refused, ${tally.wrong.length} wrong of ${cases.length}`;
    expect(tally.wrong, `${summary}; wrong:\n${tally.wrong.join('\n')}`).toEqual([]);
    expect(tally.correct.length / cases.length, `${summary}; refused:\n${tally.refused.join('\n')}`).toBeGreaterThanOrEqual(FLOOR[language]);
  });
});
