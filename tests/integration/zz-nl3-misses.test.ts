// TEMPORARY (nl3 working aid, not committed): lists the misses of the fresh and people sets.
import { writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { fixture, judge, readCases, type Paraphrase } from '../helpers/nl-cases.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

const SETS = [
  { language: 'en' as const, home: 'home.yaml', files: ['fresh/en.jsonl', 'people/en.jsonl'] },
  { language: 'de' as const, home: 'de/home.yaml', files: ['fresh/de.jsonl', 'people/de.jsonl'] },
];
describe.each(SETS)('$language misses', ({ language, home, files }) => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ SIM_HOME: fixture(home) });
    await s.app.hub.ready();
  });
  afterAll(() => s?.close());
  test('list', async () => {
    const out: string[] = [];
    for (const file of files) {
      const cases = readCases<Paraphrase>(file);
      let ok = 0;
      for (const p of cases) {
        const r = await s.call('/api/command', 'POST', { command: p.command, language, ...(p.context ? { context: p.context } : {}), dry_run: true });
        const v = judge(p, r.status, r.body);
        if (v === 'correct') { ok++; continue; }
        const got = r.status === 200 ? (r.body.query ? `query ${JSON.stringify(r.body.query.entities)}` : JSON.stringify((r.body.actions ?? []).map((a: any) => `${a.action} ${a.entity_id} ${JSON.stringify(a.parameters ?? {})}`))) : `${r.status} ${r.body.details?.reason ?? r.body.code} ${r.body.message ?? ''} ${JSON.stringify(r.body.details?.words ?? r.body.details?.candidates?.map((c: any) => c.entity_id) ?? '')}`;
        out.push(`${v.toUpperCase()} [${p.category}] ${JSON.stringify(p.command)}${p.context ? ` (in ${p.context.area})` : ''}\n   want ${p.expect} ${JSON.stringify(p.actions ?? p.query ?? p.candidates ?? '')}\n   got  ${got}`);
      }
      out.push(`== ${file}: ${ok}/${cases.length}`);
    }
    writeFileSync(`/tmp/nl3-misses-${language}.txt`, out.join('\n'));
  }, 600000);
});
