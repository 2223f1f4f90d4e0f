// Every development case of tests/fixtures/nl (from the Home Assistant intents corpus, CC BY 4.0)
// through POST /api/command with dry_run, against the fixture home loaded into the simulator, scored
// as the fixture's README says: the set of {entity_id, action} must be equal and each expected
// parameter present with its value; a question must name exactly the expected entities.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';

/** The share that must pass overall and in every intent; raised as the parser improves, never lowered. */
const FLOOR = { overall: 1, perIntent: 1 };

interface Case {
  command: string;
  context?: { area: string };
  intent: string;
  actions?: { entity_id: string; action: string; parameters: Record<string, unknown> }[];
  query?: { entities: string[] };
}

const fixture = (name: string) => fileURLToPath(new URL(`../fixtures/nl/${name}`, import.meta.url));
const cases: Case[] = readFileSync(fixture('dev.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({ SIM_HOME: fixture('home.yaml') });
  await s.app.hub.ready();
});
afterAll(() => s?.close());

const sameSet = (a: string[], b: string[]) => a.length === b.length && [...a].sort().every((x, i) => x === [...b].sort()[i]);

function passes(c: Case, body: Record<string, any>): boolean {
  if (c.query) return Array.isArray(body.query?.entities) && sameSet(body.query.entities, c.query.entities) && (body.actions ?? []).length === 0;
  const got = (body.actions ?? []) as { entity_id: string; action: string; parameters: Record<string, unknown> }[];
  if (!sameSet(got.map((a) => `${a.entity_id} ${a.action}`), c.actions!.map((a) => `${a.entity_id} ${a.action}`))) return false;
  return c.actions!.every((want) => {
    const a = got.find((x) => x.entity_id === want.entity_id && x.action === want.action)!;
    return Object.entries(want.parameters).every(([k, v]) => a.parameters[k] === v);
  });
}

test(`the dev cases pass at or above the floor (${FLOOR.overall * 100}% overall, ${FLOOR.perIntent * 100}% per intent)`, async () => {
  const byIntent = new Map<string, { pass: number; total: number }>();
  const failures: string[] = [];
  for (const c of cases) {
    const r = await s.call('/api/command', 'POST', { command: c.command, ...(c.context ? { context: c.context } : {}), dry_run: true });
    const ok = r.status === 200 && passes(c, r.body);
    const tally = byIntent.get(c.intent) ?? { pass: 0, total: 0 };
    tally.total++;
    if (ok) tally.pass++;
    else failures.push(`${c.intent}: ${c.context ? `[${c.context.area}] ` : ''}${c.command} -> ${r.status} ${JSON.stringify(r.body.query?.entities ?? r.body.actions?.map((a: { entity_id: string; action: string }) => `${a.entity_id}:${a.action}`) ?? r.body.message)}`);
    byIntent.set(c.intent, tally);
  }
  const pass = [...byIntent.values()].reduce((n, t) => n + t.pass, 0);
  const share = pass / cases.length;
  const report = [...byIntent].map(([intent, t]) => `${intent}: ${t.pass}/${t.total}`).join(', ');
  expect(share, `${pass}/${cases.length} passed (${report}); failing:\n${failures.join('\n')}`).toBeGreaterThanOrEqual(FLOOR.overall);
  for (const [intent, t] of byIntent) expect(t.pass / t.total, `${intent}: ${t.pass}/${t.total}; failing:\n${failures.filter((f) => f.startsWith(intent)).join('\n')}`).toBeGreaterThanOrEqual(FLOOR.perIntent);
});
