// The paraphrase set (tests/fixtures/nl/paraphrases, written for this project, not from the corpus):
// commands as different people say them, with typos, filler, negations, times, conditions,
// compounds, relative changes and things that must be refused, against the English fixture home.
// Any wrong action fails the test; refusing where an action was wanted is a safe miss, counted.
import { afterAll, beforeAll, expect, test } from 'vitest';
import { fixture, judge, readCases, type Paraphrase, type Verdict } from '../helpers/nl-cases.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

/** The share that must be correct; raised as the parser improves, never lowered. */
const FLOOR = 1;

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({ SIM_HOME: fixture('home.yaml') });
  await s.app.hub.ready();
});
afterAll(() => s?.close());

test('no paraphrase plans a wrong action, and most are right', async () => {
  const cases = readCases<Paraphrase>('paraphrases/dev.jsonl');
  const tally: Record<Verdict, string[]> = { correct: [], refused: [], wrong: [] };
  for (const p of cases) {
    const r = await s.call('/api/command', 'POST', { command: p.command, ...(p.context ? { context: p.context } : {}), dry_run: true });
    const verdict = judge(p, r.status, r.body);
    const got = r.status === 200 ? JSON.stringify(r.body.query?.entities ?? r.body.actions?.map((a: { entity_id: string; action: string; parameters: unknown }) => `${a.entity_id}:${a.action}:${JSON.stringify(a.parameters)}`)) : `${r.status} ${r.body.code}: ${r.body.message}`;
    tally[verdict].push(`[${p.category}] ${p.command} (want ${p.expect}) -> ${got}`);
  }
  const summary = `${tally.correct.length} correct, ${tally.refused.length} refused, ${tally.wrong.length} wrong of ${cases.length}`;
  expect(tally.wrong, `${summary}; wrong:\n${tally.wrong.join('\n')}`).toEqual([]);
  expect(tally.correct.length / cases.length, `${summary}; refused:\n${tally.refused.join('\n')}`).toBeGreaterThanOrEqual(FLOOR);
});
