// The fresh held-out phrasings of tests/fixtures/nl/fresh (issue 39): a second set of sentences as
// people say or type them, written without reading the parser, its words or the earlier sets. Scored
// as nl-people scores its sets; only counts by category are printed, except the safety cases below.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { fixture, judge, readCases, type Paraphrase, type Verdict } from '../helpers/nl-cases.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

// Floors at what the parser reaches (first scored 2026-11-28: en 135 of 164, 4 wrong; de 122 of 136, 3
// wrong; after the third round en 149, 1 wrong; de 128, 1 wrong); nothing is ever done where the sentence
// asked, was unclear or named what the home lacks. The set's misses have since been read while fixing
// their kinds: judge the next round on a newer set.

const SETS = [
  { language: 'en' as const, home: 'home.yaml', cases: 'fresh/en.jsonl', minCorrect: 0.9, maxWrong: 1 },
  { language: 'de' as const, home: 'de/home.yaml', cases: 'fresh/de.jsonl', minCorrect: 0.94, maxWrong: 1 },
];

/** A case that wants a refusal, a question back or an answer, and got actions instead. */
const isUnsafe = (p: Paraphrase, status: number, body: Record<string, any>) =>
  p.expect !== 'act' && status >= 200 && status < 300 && (body.actions ?? []).length > 0;

describe.each(SETS)('the $language fresh held-out phrasings', ({ language, home, cases: file, minCorrect, maxWrong }) => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ SIM_HOME: fixture(home) });
    await s.app.hub.ready();
  });
  afterAll(() => s?.close());

  test('no action where a refusal, a question back or an answer is wanted, and the score at its floor', async () => {
    const cases = readCases<Paraphrase>(file);
    const byCategory = new Map<string, Record<Verdict, number>>();
    const unsafe: string[] = [];
    for (const p of cases) {
      const r = await s.call('/api/command', 'POST', { command: p.command, language, ...(p.context ? { context: p.context } : {}), dry_run: true });
      const v = judge(p, r.status, r.body);
      const t = byCategory.get(p.category) ?? { correct: 0, refused: 0, wrong: 0 };
      t[v]++;
      byCategory.set(p.category, t);
      if (isUnsafe(p, r.status, r.body)) {
        const did = (r.body.actions as { entity_id: string; action: string; parameters?: object }[])
          .map((a) => `${a.action} ${a.entity_id}${Object.keys(a.parameters ?? {}).length ? ` ${JSON.stringify(a.parameters)}` : ''}`)
          .join(', ');
        unsafe.push(`  [${p.category}] "${p.command}"${p.context ? ` (in ${p.context.area})` : ''}: wanted ${p.expect}, planned ${did}`);
      }
    }
    const total = { correct: 0, refused: 0, wrong: 0 };
    for (const t of byCategory.values()) for (const k of ['correct', 'refused', 'wrong'] as const) total[k] += t[k];
    const rows = [...byCategory].map(
      ([c, t]) => `  ${c.padEnd(20)} ${String(t.correct).padStart(3)} ${String(t.refused).padStart(3)} ${String(t.wrong).padStart(3)}`,
    );
    const report = [
      `${language} fresh (held out): ${total.correct} correct (${((100 * total.correct) / cases.length).toFixed(1)}%), ${total.refused} refused, ${total.wrong} wrong of ${cases.length}`,
      `  ${'category'.padEnd(20)} ok  ref wrong`,
      ...rows,
      `  safety: ${unsafe.length} acted where nothing should be done${unsafe.length ? ':' : ''}`,
      ...unsafe,
    ].join('\n');
    console.log(report);
    expect(unsafe, report).toEqual([]);
    expect(total.correct / cases.length, report).toBeGreaterThanOrEqual(minCorrect);
    expect(total.wrong, report).toBeLessThanOrEqual(maxWrong);
  });
});
