import { test } from 'vitest';
import { loadHome } from '@home-mcp-bridge/sim/testing';
import { fixture } from '../helpers/nl-cases.js';
import { plannerFor } from '../helpers/nlp-home.js';
test('try', () => {
  const lang = (process.env.L ?? 'en') as 'en' | 'de';
  const p = plannerFor(loadHome(fixture(lang === 'de' ? 'de/home.yaml' : 'home.yaml')), lang);
  for (const c of (process.env.C ?? '').split(';')) console.log(c, '=>', JSON.stringify(p.plan(c, process.env.A || undefined)));
});
