// The development cases of tests/fixtures/nl (from the Home Assistant intents corpus, CC BY 4.0), in
// English and German, through POST /api/command with dry_run against each corpus's fixture home in
// the simulator, scored as the fixture's README says. The held-out fifth is scored apart
// (nl-held-out.test.ts) and never listed.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { corpusPasses, fixture, readCases, type CorpusCase } from '../helpers/nl-cases.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

/** The share that must pass overall and in every intent; raised as the parser improves, never lowered. */
const FLOOR: Record<string, { overall: number; perIntent: number }> = {
  en: { overall: 1, perIntent: 1 },
  de: { overall: 0.985, perIntent: 0.98 },
};

const CORPORA = [
  { language: 'en', home: 'home.yaml', cases: 'dev.jsonl' },
  { language: 'de', home: 'de/home.yaml', cases: 'de/dev.jsonl' },
];

describe.each(CORPORA)('the $language dev cases', ({ language, home, cases: file }) => {
  const cases = readCases<CorpusCase>(file);
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ SIM_HOME: fixture(home) });
    await s.app.hub.ready();
  });
  afterAll(() => s?.close());

  test(`pass at or above the floor (${FLOOR[language]!.overall * 100}% overall, ${FLOOR[language]!.perIntent * 100}% per intent)`, async () => {
    const byIntent = new Map<string, { pass: number; total: number }>();
    const failures: string[] = [];
    for (const c of cases) {
      const r = await s.call('/api/command', 'POST', { command: c.command, language, ...(c.context ? { context: c.context } : {}), dry_run: true });
      const ok = corpusPasses(c, r.status, r.body);
      const tally = byIntent.get(c.intent) ?? { pass: 0, total: 0 };
      tally.total++;
      if (ok) tally.pass++;
      else
        failures.push(
          `${c.intent}: ${c.context ? `[${c.context.area}] ` : ''}${c.command} -> ${r.status} ${JSON.stringify(r.body.query?.entities ?? r.body.actions?.map((a: { entity_id: string; action: string }) => `${a.entity_id}:${a.action}`) ?? r.body.message)}`,
        );
      byIntent.set(c.intent, tally);
    }
    const pass = [...byIntent.values()].reduce((n, t) => n + t.pass, 0);
    const report = [...byIntent].map(([intent, t]) => `${intent}: ${t.pass}/${t.total}`).join(', ');
    expect(pass / cases.length, `${pass}/${cases.length} passed (${report}); failing:\n${failures.join('\n')}`).toBeGreaterThanOrEqual(
      FLOOR[language]!.overall,
    );
    for (const [intent, t] of byIntent)
      expect(t.pass / t.total, `${intent}: ${t.pass}/${t.total}; failing:\n${failures.filter((f) => f.startsWith(intent)).join('\n')}`).toBeGreaterThanOrEqual(
        FLOOR[language]!.perIntent,
      );
  });
});
