// Scoring a held-out phrasing set against a running server: the verdict of each case, the counts by
// category, and the safety cases (a case that wants a refusal, a question back or an answer and got
// actions). Shared by the held-out sets' tests so each is only its sets and its floors.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { fixture, judge, type Paraphrase, readCases, type Verdict } from './nl-cases.js';
import { startTestServer, type TestServer } from './server.js';

export interface SetScore {
  total: Record<Verdict, number>;
  cases: number;
  unsafe: string[];
  /** Cases judged wrong that planned actions: an action where another, or none, was wanted (the unsafe ones among them). */
  wrongActions: string[];
  /** The table to print: totals, counts by category, then the safety cases named. */
  report: string;
}

/** A case that wants a refusal, a question back or an answer, and got actions instead. */
export const isUnsafe = (p: Paraphrase, status: number, body: Record<string, any>) =>
  p.expect !== 'act' && status >= 200 && status < 300 && (body.actions ?? []).length > 0;

/** Plans every case as a dry run in `language` and judges it as nl-people does. */
export async function scoreSet(s: TestServer, language: string, label: string, cases: Paraphrase[]): Promise<SetScore> {
  const byCategory = new Map<string, Record<Verdict, number>>();
  const unsafe: string[] = [];
  const wrongActions: string[] = [];
  for (const p of cases) {
    const r = await s.call('/api/command', 'POST', { command: p.command, language, ...(p.context ? { context: p.context } : {}), dry_run: true });
    const v = judge(p, r.status, r.body);
    const t = byCategory.get(p.category) ?? { correct: 0, refused: 0, wrong: 0 };
    t[v]++;
    byCategory.set(p.category, t);
    const planned = r.status >= 200 && r.status < 300 ? ((r.body.actions ?? []) as { entity_id: string; action: string; parameters?: object }[]) : [];
    if (v === 'wrong' && planned.length > 0) {
      const did = planned
        .map((a) => `${a.action} ${a.entity_id}${Object.keys(a.parameters ?? {}).length ? ` ${JSON.stringify(a.parameters)}` : ''}`)
        .join(', ');
      const line = `  [${p.category}] "${p.command}"${p.context ? ` (in ${p.context.area})` : ''}: wanted ${p.expect}, planned ${did}`;
      wrongActions.push(line);
      if (isUnsafe(p, r.status, r.body)) unsafe.push(line);
    } else if (isUnsafe(p, r.status, r.body)) {
      unsafe.push(`  [${p.category}] "${p.command}"${p.context ? ` (in ${p.context.area})` : ''}: wanted ${p.expect}, planned actions`);
    }
  }
  const total = { correct: 0, refused: 0, wrong: 0 };
  for (const t of byCategory.values()) for (const k of ['correct', 'refused', 'wrong'] as const) total[k] += t[k];
  const rows = [...byCategory].map(
    ([c, t]) => `  ${c.padEnd(20)} ${String(t.correct).padStart(3)} ${String(t.refused).padStart(3)} ${String(t.wrong).padStart(3)}`,
  );
  const report = [
    `${language} ${label}: ${total.correct} correct (${((100 * total.correct) / cases.length).toFixed(1)}%), ${total.refused} refused, ${total.wrong} wrong of ${cases.length}`,
    `  ${'category'.padEnd(20)} ok  ref wrong`,
    ...rows,
    `  safety: ${unsafe.length} acted where nothing should be done${unsafe.length ? ':' : ''}`,
    ...unsafe,
    `  wrong actions: ${wrongActions.length} planned where other or no actions were wanted${wrongActions.length ? ':' : ''}`,
    ...wrongActions,
  ].join('\n');
  return { total, cases: cases.length, unsafe, wrongActions, report };
}

/** One language's held-out set and its floors (raised as the parser improves, never lowered). */
export interface HeldOutSet {
  language: 'en' | 'de';
  /** The home it is planned on, under tests/fixtures/nl. */
  home: string;
  /** The cases file, under tests/fixtures/nl. */
  cases: string;
  /** The least share of cases planned correctly. */
  minCorrect?: number;
  /** The most cases judged wrong (a wrong answer or a wrong action). */
  maxWrong?: number;
  /** The most wrong actions (0 unless a known one is listed in the set's test). */
  maxWrongActions?: number;
}

/**
 * A held-out set's test: each language planned as a dry run on its home by a real server, the table
 * printed, and failing on any action where a refusal, a question back or an answer is wanted, or
 * below the set's floors.
 */
export function heldOutSuite(name: string, label: string, sets: HeldOutSet[]): void {
  describe.each(sets)(`the $language ${name}`, ({ language, home, cases, minCorrect = 0, maxWrong, maxWrongActions = 0 }) => {
    let s: TestServer;
    beforeAll(async () => {
      s = await startTestServer({ SIM_HOME: fixture(home) });
      await s.app.hub.ready();
    });
    afterAll(() => s?.close());

    test('no action where none or another is wanted, and the score at its floor', async () => {
      const score = await scoreSet(s, language, label, readCases<Paraphrase>(cases));
      console.log(score.report);
      expect(score.unsafe, score.report).toEqual([]);
      expect(score.wrongActions.length, score.report).toBeLessThanOrEqual(maxWrongActions);
      expect(score.total.correct / score.cases, score.report).toBeGreaterThanOrEqual(minCorrect);
      if (maxWrong !== undefined) expect(score.total.wrong, score.report).toBeLessThanOrEqual(maxWrong);
    });
  });
}
