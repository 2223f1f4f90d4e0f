// The held-out phrasings of tests/fixtures/nl/people (issue 39): commands and questions as people
// say them, written by someone who had not read the parser's data. Scored, never shown: only counts
// by category are printed, so a miss is fixed by teaching the language or the rule.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { fixture, judge, readCases, type Paraphrase, type Verdict } from '../helpers/nl-cases.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

/**
 * The goal is at least 90% correct and no wrong action in each language. The parser is not
 * there yet: the floor is what it reaches (raised as it improves, never lowered). The sets no longer
 * disagree with the earlier ones: a word for a kind of cover means that kind (the German corpus cases
 * follow, see de/README.md), and a relative temperature starts from what the hub reports.
 */
const FLOOR = { en: { correct: 0.93, wrong: 2 }, de: { correct: 0.94, wrong: 0 } };

const SETS = [
  { language: 'en' as const, home: 'home.yaml', cases: 'people/en.jsonl' },
  { language: 'de' as const, home: 'de/home.yaml', cases: 'people/de.jsonl' },
];

describe.each(SETS)('the $language held-out phrasings of people', ({ language, home, cases: file }) => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ SIM_HOME: fixture(home) });
    await s.app.hub.ready();
  });
  afterAll(() => s?.close());

  test(`no more than ${FLOOR[language].wrong} wrong, at least ${FLOOR[language].correct * 100}% correct`, async () => {
    const cases = readCases<Paraphrase>(file);
    const byCategory = new Map<string, Record<Verdict, number>>();
    for (const p of cases) {
      const r = await s.call('/api/command', 'POST', { command: p.command, language, ...(p.context ? { context: p.context } : {}), dry_run: true });
      const v = judge(p, r.status, r.body);
      const t = byCategory.get(p.category) ?? { correct: 0, refused: 0, wrong: 0 };
      t[v]++;
      byCategory.set(p.category, t);
    }
    const total = { correct: 0, refused: 0, wrong: 0 };
    for (const t of byCategory.values()) for (const k of ['correct', 'refused', 'wrong'] as const) total[k] += t[k];
    const rows = [...byCategory].map(
      ([c, t]) => `  ${c.padEnd(20)} ${String(t.correct).padStart(3)} ${String(t.refused).padStart(3)} ${String(t.wrong).padStart(3)}`,
    );
    const report = [
      `${language} people (held out): ${total.correct} correct (${((100 * total.correct) / cases.length).toFixed(1)}%), ${total.refused} refused, ${total.wrong} wrong of ${cases.length}`,
      `  ${'category'.padEnd(20)} ok  ref wrong`,
      ...rows,
    ].join('\n');
    console.log(report);
    expect(total.wrong, report).toBeLessThanOrEqual(FLOOR[language].wrong);
    expect(total.correct / cases.length, report).toBeGreaterThanOrEqual(FLOOR[language].correct);
  });
});
