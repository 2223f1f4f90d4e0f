#!/usr/bin/env node
// bench/nl: the command planner. (1) The share of the development cases (tests/fixtures/nl, from
// the Home Assistant intents corpus) that pass, per intent, scored as the fixture's README says.
// (2) How long planning one command takes in a generated home of 1,000 entities (p50, p99), for a
// mix of commands and questions; the home's phrase table is built once, as the service does.
// Runs the built planner in process over the simulator's hub (no network).
// Run with `npm run bench:nl`; options: --entities N (default 1000), --rounds N (default 500), --warmup N
// (default 100 rounds, not counted: the planner's code compiled, as in a bridge that has been running).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const root = fileURLToPath(new URL('../..', import.meta.url));
const { offlinePlanner } = await import(`${root}dist/src/nlp/offline.js`);
const { loadHome } = await import(`${root}dist/src/sim/home.js`);
const { values: opt } = parseArgs({ options: { entities: { type: 'string', default: '1000' }, rounds: { type: 'string', default: '500' }, warmup: { type: 'string', default: '100' } } });
const ENTITIES = Number(opt.entities);
const ROUNDS = Number(opt.rounds);
const WARMUP = Number(opt.warmup);

const plugins = `${root}dist/plugins/`;
const words = readdirSync(plugins)
  .map((p) => `${plugins}${p}/words/en.json`)
  .filter(existsSync)
  .map((f) => JSON.parse(readFileSync(f, 'utf8')));

// --- 1. the development cases ---------------------------------------------------------------
const dev = offlinePlanner(loadHome(`${root}tests/fixtures/nl/home.yaml`), words);
const cases = readFileSync(`${root}tests/fixtures/nl/dev.jsonl`, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
const sameSet = (a, b) => a.length === b.length && [...a].sort().join('\n') === [...b].sort().join('\n');
function passes(c, outcomes) {
  if (c.query) {
    const q = outcomes.filter((o) => o.kind === 'query');
    return q.length === outcomes.length && sameSet([...new Set(q.flatMap((o) => o.entities))], c.query.entities);
  }
  if (!outcomes.every((o) => o.kind === 'act')) return false;
  const got = outcomes.flatMap((o) => o.steps.flatMap((s) => s.entity_ids.map((entity_id) => ({ entity_id, action: s.service, parameters: s.data }))));
  if (!sameSet(got.map((a) => `${a.entity_id} ${a.action}`), c.actions.map((a) => `${a.entity_id} ${a.action}`))) return false;
  return c.actions.every((w) => Object.entries(w.parameters).every(([k, v]) => got.find((a) => a.entity_id === w.entity_id && a.action === w.action).parameters[k] === v));
}
const byIntent = new Map();
for (const c of cases) {
  const t = byIntent.get(c.intent) ?? { pass: 0, total: 0 };
  t.total++;
  if (passes(c, dev.plan(c.command, c.context?.area))) t.pass++;
  byIntent.set(c.intent, t);
}

// --- 2. planning time in a generated home ---------------------------------------------------
const ROOMS = ['Kitchen', 'Living Room', 'Bedroom', 'Office', 'Hallway', 'Bathroom', 'Garage', 'Dining Room', 'Guest Room', 'Nursery', 'Attic', 'Basement', 'Laundry', 'Study', 'Porch', 'Patio', 'Library', 'Gym', 'Pantry', 'Den'];
const KINDS = [
  ['light', 'Lamp', {}, 'on'],
  ['light', 'Ceiling Light', {}, 'off'],
  ['switch', 'Plug', {}, 'off'],
  ['cover', 'Blinds', { device_class: 'blind', current_position: 100 }, 'open'],
  ['lock', 'Door Lock', {}, 'locked'],
  ['fan', 'Fan', {}, 'off'],
  ['media_player', 'Speaker', { volume_level: 0.3 }, 'idle'],
  ['climate', 'Thermostat', { hvac_modes: ['off', 'heat'], temperature: 20, current_temperature: 19 }, 'heat'],
  ['sensor', 'Temperature', { device_class: 'temperature', unit_of_measurement: '°C' }, '20'],
  ['binary_sensor', 'Motion', { device_class: 'motion' }, 'off'],
];
const home = { name: 'Bench', floors: [0, 1, 2, 3].map((i) => ({ id: `floor_${i}`, name: `Floor ${i}` })), areas: ROOMS.map((r, i) => ({ id: r.toLowerCase().replace(/ /g, '_'), name: r, floor: `floor_${i % 4}` })), entities: [] };
for (let i = 0; home.entities.length < ENTITIES; i++) {
  const room = ROOMS[i % ROOMS.length];
  const [domain, kind, attributes, state] = KINDS[Math.floor(i / ROOMS.length) % KINDS.length];
  const n = Math.floor(i / (ROOMS.length * KINDS.length)) + 1;
  const name = `${room} ${kind} ${n}`;
  home.entities.push({ entity_id: `${domain}.${name.toLowerCase().replace(/[^a-z0-9]+/g, '_')}`, name, area: home.areas[i % ROOMS.length].id, state, attributes: { ...attributes } });
}
const big = offlinePlanner(home, words);
const commands = [
  ['turn off the lights in the kitchen'],
  ['set the bedroom lamp 3 to 40%'],
  ['turn on all the lights on floor 2'],
  ['is the hallway door lock 2 locked?'],
  ['what is the temperature in the office?'],
  ['close the blinds', 'Living Room'],
  ['pause the study speaker 1'],
  ['set the den thermostat 1 to 21 degrees'],
  ['which lights are on in the garage?'],
  ['turn off the lights in the kitchen and lock the porch door lock 4'],
  ['make the attic lamp 2 brighter by 20%'],
  ['turn on the lamp'],
];
for (const [c, area] of commands) if (big.plan(c, area).some((o) => o.kind === 'not_understood')) throw new Error(`bench command not understood: ${c}`);
for (let r = 0; r < WARMUP; r++) for (const [c, area] of commands) big.plan(c, area);
const times = [];
for (let r = 0; r < ROUNDS; r++) {
  for (const [c, area] of commands) {
    const t = performance.now();
    big.plan(c, area);
    times.push(performance.now() - t);
  }
}
times.sort((a, b) => a - b);
const pct = (p) => times[Math.min(times.length - 1, Math.floor((p / 100) * times.length))];
const t0 = performance.now();
const rebuilt = offlinePlanner(home, words);
const buildMs = performance.now() - t0;

const rows = [...byIntent].map(([intent, t]) => `| ${intent} | ${t.pass}/${t.total} | ${((100 * t.pass) / t.total).toFixed(1)}% |`);
const pass = [...byIntent.values()].reduce((n, t) => n + t.pass, 0);
console.log(`\nbench/nl — Node ${process.version}, ${cases.length} dev cases; planning in a ${big.deps.home.entities.size}-entity home (${rebuilt.deps.home.entities.size} entities, ${ROOMS.length} areas)\n`);
console.log('| intent | passing | share |\n|---|---|---|');
console.log(rows.join('\n'));
console.log(`| **all** | ${pass}/${cases.length} | **${((100 * pass) / cases.length).toFixed(1)}%** |\n`);
console.log('| planning one command | p50 | p99 | max | goal (p99) |\n|---|---|---|---|---|');
console.log(`| ${commands.length} commands × ${ROUNDS} rounds (after ${WARMUP}) | ${(pct(50) * 1000).toFixed(0)} µs | ${(pct(99) * 1000).toFixed(0)} µs | ${(times[times.length - 1] * 1000).toFixed(0)} µs | under 1 ms: ${pct(99) < 1 ? 'met' : 'NOT met'} |`);
console.log(`\nBuilding the 1,000-entity home (simulator, registries and the phrase table of names): ${buildMs.toFixed(0)} ms, once per change of the home.`);
