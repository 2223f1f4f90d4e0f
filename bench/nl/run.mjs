#!/usr/bin/env node
// bench/nl: the command planner, English and German in one run. (1) The share of the corpus cases
// (tests/fixtures/nl and nl/de, from the Home Assistant intents corpus) that pass, per intent, for
// the dev part and the held-out part (scored, never listed), and the paraphrase sets as correct,
// refused and wrong. (2) How long planning one command takes in a generated home of 1,000
// entities (p50, p99) in each language, for a mix of commands and questions; the home's phrase
// table is built once, as the service does. (3) The plugins' sayings (src/nlp/sayings.ts): how
// long a to-do and a calendar sentence take to be matched with their slots read, and what a device
// command pays to pass them all before the planner has its turn. Runs the built planner in process
// over the simulator's hub (no network).
// Run with `npm run bench:nl`; options: --entities N (default 1000), --rounds N (default 500), --warmup N
// (default 100 rounds, not counted: the planner's code compiled, as in a bridge that has been running).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { availableParallelism, cpus, loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { quantile } from '../lib/stats.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));
const { offlinePlanner } = await import(`${root}dist/src/nlp/offline.js`);
const { dateWordsOf, matchSaying } = await import(`${root}dist/src/nlp/sayings.js`);
const { loadHome } = await import('@home-mcp-bridge/sim');
const { values: opt } = parseArgs({
  options: { entities: { type: 'string', default: '1000' }, rounds: { type: 'string', default: '500' }, warmup: { type: 'string', default: '100' } },
});
const ENTITIES = Number(opt.entities);
const ROUNDS = Number(opt.rounds);
const WARMUP = Number(opt.warmup);

// Every built-in plugin's words, by language, as the loader reads them.
const plugins = `${root}dist/plugins/`;
const words = readdirSync(plugins)
  .map((p) => `${plugins}${p}/words`)
  .filter(existsSync)
  .map((dir) =>
    Object.fromEntries(
      readdirSync(dir)
        .filter((f) => f.endsWith('.json'))
        .map((f) => [f.slice(0, -5), JSON.parse(readFileSync(`${dir}/${f}`, 'utf8'))]),
    ),
  );
const fixtures = `${root}tests/fixtures/nl/`;
const read = (file) =>
  existsSync(file)
    ? readFileSync(file, 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l))
    : [];

// --- 1. the cases -------------------------------------------------------------------------------
const sameSet = (a, b) => a.length === b.length && [...a].sort().join('\n') === [...b].sort().join('\n');
const planned = (outcomes) =>
  outcomes.flatMap((o) =>
    o.kind === 'act' ? o.steps.flatMap((s) => s.entity_ids.map((entity_id) => ({ entity_id, action: s.service, parameters: s.data }))) : [],
  );
const valueMatches = (want, got) => (Array.isArray(want) && want.length === 2 ? typeof got === 'number' && got >= want[0] && got <= want[1] : got === want);
function actionsMatch(want, got) {
  if (want.length !== got.length) return false;
  const left = [...got];
  for (const w of want) {
    const i = left.findIndex(
      (g) =>
        g.entity_id === w.entity_id &&
        w.action.split('|').includes(g.action) &&
        Object.entries(w.parameters ?? {}).every(([k, v]) => valueMatches(v, g.parameters[k])),
    );
    if (i < 0) return false;
    left.splice(i, 1);
  }
  return true;
}
function passes(c, outcomes) {
  if (c.refused) return outcomes.some((o) => o.kind === 'not_understood' && o.reason === c.refused) && !outcomes.some((o) => o.kind === 'act');
  if (c.query) {
    const q = outcomes.filter((o) => o.kind === 'query');
    return q.length === outcomes.length && sameSet([...new Set(q.flatMap((o) => o.entities))], c.query.entities);
  }
  return outcomes.every((o) => o.kind === 'act') && actionsMatch(c.actions, planned(outcomes));
}
/** As tests/helpers/nl-cases.ts judges a reply: correct, refused (a safe miss) or wrong. */
function judge(p, outcomes) {
  const acted = outcomes.every((o) => o.kind === 'act' || o.kind === 'scene') && outcomes.some((o) => o.kind === 'act' || o.kind === 'scene');
  const answered = outcomes.every((o) => o.kind === 'query');
  const refused = outcomes.some((o) => o.kind === 'not_understood' || o.kind === 'ambiguous');
  if (p.expect === 'refuse') return refused ? 'correct' : 'wrong';
  if (p.expect === 'ask')
    return refused
      ? outcomes.length === 1 && outcomes[0].kind === 'ambiguous' && sameSet(outcomes[0].candidates, p.candidates)
        ? 'correct'
        : 'refused'
      : 'wrong';
  if (refused) return 'refused';
  if (p.expect === 'query') return answered && sameSet([...new Set(outcomes.flatMap((o) => o.entities))], p.query.entities) ? 'correct' : 'wrong';
  const got = [
    ...planned(outcomes),
    ...outcomes.filter((o) => o.kind === 'scene').map((o) => ({ entity_id: `scene.${o.key}`, action: 'turn_on', parameters: {} })),
  ];
  return acted && actionsMatch(p.actions, got) ? 'correct' : 'wrong';
}

const LANGUAGES = [
  { code: 'en', dir: '' },
  { code: 'de', dir: 'de/' },
];
const scores = [];
for (const { code, dir } of LANGUAGES) {
  const planner = offlinePlanner(loadHome(`${fixtures}${dir}home.yaml`), words, code);
  const plan = (c) => planner.plan(c.command, c.context?.area);
  const part = (file) => {
    const byIntent = new Map();
    for (const c of read(`${fixtures}${dir}${file}`)) {
      const t = byIntent.get(c.intent) ?? { pass: 0, total: 0 };
      t.total++;
      if (passes(c, plan(c))) t.pass++;
      byIntent.set(c.intent, t);
    }
    return byIntent;
  };
  const tally = (file) => {
    const t = { correct: 0, refused: 0, wrong: 0 };
    for (const p of read(`${fixtures}paraphrases/${dir}${file}`)) t[judge(p, plan(p))]++;
    return t;
  };
  scores.push({ code, dev: part('dev.jsonl'), held: part('held-out.jsonl'), paraphrases: { dev: tally('dev.jsonl'), held: tally('held-out.jsonl') } });
}

// --- 2. planning time in generated homes --------------------------------------------------------
const HOMES = {
  en: {
    rooms: [
      'Kitchen',
      'Living Room',
      'Bedroom',
      'Office',
      'Hallway',
      'Bathroom',
      'Garage',
      'Dining Room',
      'Guest Room',
      'Nursery',
      'Attic',
      'Basement',
      'Laundry',
      'Study',
      'Porch',
      'Patio',
      'Library',
      'Gym',
      'Pantry',
      'Den',
    ],
    floor: 'Floor',
    kinds: ['Lamp', 'Ceiling Light', 'Plug', 'Blinds', 'Door Lock', 'Fan', 'Speaker', 'Thermostat', 'Temperature', 'Motion'],
    commands: [
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
      ['um, turn off the gym lamb 1'],
      ["please don't turn on the office fan 2"],
    ],
  },
  de: {
    rooms: [
      'Küche',
      'Wohnzimmer',
      'Schlafzimmer',
      'Büro',
      'Flur',
      'Bad',
      'Garage',
      'Esszimmer',
      'Gästezimmer',
      'Kinderzimmer',
      'Dachboden',
      'Keller',
      'Waschküche',
      'Arbeitszimmer',
      'Veranda',
      'Terrasse',
      'Bibliothek',
      'Fitnessraum',
      'Speisekammer',
      'Hobbyraum',
    ],
    floor: 'Etage',
    kinds: ['Lampe', 'Deckenlicht', 'Steckdose', 'Rollo', 'Türschloss', 'Ventilator', 'Lautsprecher', 'Thermostat', 'Temperatur', 'Bewegungsmelder'],
    commands: [
      ['schalte das Licht in der Küche aus'],
      ['stelle die Schlafzimmer Lampe 3 auf 40 %'],
      ['schalte alle Lichter auf Etage 2 ein'],
      ['ist das Flur Türschloss 2 abgeschlossen?'],
      ['wie ist die Temperatur im Büro?'],
      ['mach die Rollos zu', 'Wohnzimmer'],
      ['pausiere den Arbeitszimmer Lautsprecher 1'],
      ['stelle den Hobbyraum Thermostat 1 auf einundzwanzig Grad'],
      ['welche Lichter sind in der Garage an?'],
      ['schalte das Licht in der Küche aus und schließ das Veranda Türschloss 4 ab'],
      ['mach die Dachboden Lampe 2 um 20 % heller'],
      ['schalte die Lampe an'],
      ['äh, schalte die Fitnessraumlampe 1 aus'],
      ['schalte den Büro Ventilator 2 bitte nicht ein'],
    ],
  },
};
const KINDS = [
  ['light', {}, 'on'],
  ['light', {}, 'off'],
  ['switch', {}, 'off'],
  ['cover', { device_class: 'blind', current_position: 100 }, 'open'],
  ['lock', {}, 'locked'],
  ['fan', {}, 'off'],
  ['media_player', { volume_level: 0.3 }, 'idle'],
  ['climate', { hvac_modes: ['off', 'heat'], temperature: 20, current_temperature: 19 }, 'heat'],
  ['sensor', { device_class: 'temperature', unit_of_measurement: '°C' }, '20'],
  ['binary_sensor', { device_class: 'motion' }, 'off'],
];
function generated(spec) {
  const ROOMS = spec.rooms;
  const home = {
    name: 'Bench',
    floors: [0, 1, 2, 3].map((i) => ({ id: `floor_${i}`, name: `${spec.floor} ${i}` })),
    areas: ROOMS.map((r, i) => ({ id: `area_${i}`, name: r, floor: `floor_${i % 4}` })),
    entities: [],
  };
  for (let i = 0; home.entities.length < ENTITIES; i++) {
    const k = Math.floor(i / ROOMS.length) % KINDS.length;
    const [domain, attributes, state] = KINDS[k];
    const n = Math.floor(i / (ROOMS.length * KINDS.length)) + 1;
    const name = `${ROOMS[i % ROOMS.length]} ${spec.kinds[k]} ${n}`;
    home.entities.push({ entity_id: `${domain}.e${i}`, name, area: home.areas[i % ROOMS.length].id, state, attributes: { ...attributes } });
  }
  return home;
}
const timing = [];
for (const { code } of LANGUAGES) {
  const spec = HOMES[code];
  const home = generated(spec);
  const t0 = performance.now();
  const big = offlinePlanner(home, words, code);
  const buildMs = performance.now() - t0;
  for (const [c, area] of spec.commands) {
    const out = big.plan(c, area);
    const refusing = c.includes("don't") || c.includes('nicht');
    if (out.some((o) => o.kind === 'not_understood') !== refusing)
      throw new Error(`bench command (${code}) not planned as meant: ${c} -> ${JSON.stringify(out).slice(0, 300)}`);
  }
  for (let r = 0; r < WARMUP; r++) for (const [c, area] of spec.commands) big.plan(c, area);
  // Wall time, and the process's CPU time for the same call: on a shared machine the first also
  // counts the time other processes held the CPU.
  const times = [];
  const cpu = [];
  for (let r = 0; r < ROUNDS; r++) {
    for (const [c, area] of spec.commands) {
      const u = process.cpuUsage();
      const t = performance.now();
      big.plan(c, area);
      times.push(performance.now() - t);
      const d = process.cpuUsage(u);
      cpu.push((d.user + d.system) / 1000);
    }
  }
  timing.push({ code, times, cpu, entities: big.deps.home.entities.size, commands: spec.commands.length, buildMs });
}

// --- 3. the plugins' sayings ------------------------------------------------------------------------
// As the command service asks them (answerSaying) before planning: the sentence against every
// saying, the home's lists and calendars by name, today's date. `want` is the tool and operation
// meant, or null: no saying fits and the planner takes the sentence.
const SAYINGS = {
  en: [
    ['a to-do sentence', 'add milk and eggs to my shopping list', 'todo.add'],
    ['a calendar sentence', "what's on the family calendar tomorrow", 'calendar.events'],
    ['a device command passing them', 'turn off the lights in the kitchen', null],
  ],
  de: [
    ['a to-do sentence', 'setz Milch und Eier auf meine Einkaufsliste', 'todo.add'],
    ['a calendar sentence', 'was steht morgen im Familienkalender', 'calendar.events'],
    ['a device command passing them', 'schalte das Licht in der Küche aus', null],
  ],
};
const NAMED = {
  todo: [
    { entity_id: 'todo.shopping_list', name: 'Shopping List' },
    { entity_id: 'todo.chores', name: 'Chores' },
  ],
  calendar: [
    { entity_id: 'calendar.family', name: 'Family' },
    { entity_id: 'calendar.work', name: 'Work' },
  ],
  weather: [{ entity_id: 'weather.home', name: 'Home' }],
};
const sayingTimes = [];
for (const { code } of LANGUAGES) {
  const { lang } = offlinePlanner(loadHome(`${fixtures}home.yaml`), words, code).deps;
  const sayingWords = { sayings: lang.sayings, dates: dateWordsOf(lang), aliases: lang.aliases, kinds: lang.named_kinds };
  const sayingHome = { entities: (domain) => NAMED[domain] ?? [], today: { date: '2026-11-28', weekday: 5 } };
  const match = (sentence) => matchSaying(sentence, sayingWords, sayingHome);
  for (const [what, sentence, want] of SAYINGS[code]) {
    const m = match(sentence);
    const got = m ? `${m.saying.tool}.${m.args.operation}` : null;
    if (got !== want) throw new Error(`bench sentence (${code}) not matched as meant: ${sentence} -> ${got ?? 'no saying'} (meant ${want ?? 'no saying'})`);
    for (let r = 0; r < WARMUP; r++) match(sentence);
    const times = [];
    const cpu = [];
    for (let r = 0; r < ROUNDS; r++) {
      const u = process.cpuUsage();
      const t = performance.now();
      match(sentence);
      times.push(performance.now() - t);
      const d = process.cpuUsage(u);
      cpu.push((d.user + d.system) / 1000);
    }
    sayingTimes.push({ code, what, sentence, times, cpu, sayings: lang.sayings.length });
  }
}

// --- the tables -----------------------------------------------------------------------------------
const pct = (a, b) => (b ? `${((100 * a) / b).toFixed(1)}%` : '-');
const sum = (m) => [...m.values()].reduce((n, t) => ({ pass: n.pass + t.pass, total: n.total + t.total }), { pass: 0, total: 0 });
console.log(`\nbench/nl — Node ${process.version}; corpus cases and paraphrases against the fixture homes; planning in generated ${ENTITIES}-entity homes\n`);
for (const s of scores) {
  console.log(`**${s.code}** corpus cases\n\n| intent | dev | held out |\n|---|---|---|`);
  const intents = [...new Set([...s.dev.keys(), ...s.held.keys()])];
  for (const i of intents) {
    const d = s.dev.get(i) ?? { pass: 0, total: 0 };
    const h = s.held.get(i) ?? { pass: 0, total: 0 };
    console.log(`| ${i} | ${d.pass}/${d.total} (${pct(d.pass, d.total)}) | ${h.pass}/${h.total} (${pct(h.pass, h.total)}) |`);
  }
  const d = sum(s.dev);
  const h = sum(s.held);
  console.log(`| **all** | **${d.pass}/${d.total} (${pct(d.pass, d.total)})** | **${h.pass}/${h.total} (${pct(h.pass, h.total)})** |\n`);
}
console.log('| paraphrases | dev: correct / refused / wrong | held out: correct / refused / wrong |\n|---|---|---|');
for (const s of scores) {
  const f = (t) =>
    `${t.correct} / ${t.refused} / ${t.wrong} of ${t.correct + t.refused + t.wrong} (${pct(t.correct, t.correct + t.refused + t.wrong)} correct)`;
  console.log(`| ${s.code} | ${f(s.paraphrases.dev)} | ${f(s.paraphrases.held)} |`);
}
const us = (ms) => `${(ms * 1000).toFixed(0)} µs`;
console.log(
  `\n| planning one command (load average ${loadavg()[0].toFixed(1)} on ${availableParallelism()} cores) | p50 | p99 | max | CPU p50 | CPU p99 | goal (p99) |\n|---|---|---|---|---|---|---|`,
);
for (const t of timing) {
  const p99 = quantile(t.times, 0.99);
  console.log(
    `| ${t.code}: ${t.commands} commands × ${ROUNDS} rounds (after ${WARMUP}), ${t.entities} entities | ${us(quantile(t.times, 0.5))} | ${us(p99)} | ${us(Math.max(...t.times))} | ${us(quantile(t.cpu, 0.5))} | ${us(quantile(t.cpu, 0.99))} | under 1 ms: ${p99 < 1 ? 'met' : `NOT met${quantile(t.cpu, 0.99) < 1 ? ' (CPU time met)' : ''}`} |`,
  );
}
console.log(
  `\nBuilding a ${ENTITIES}-entity home (simulator, registries and the phrase table of names): ${timing.map((t) => `${t.code} ${t.buildMs.toFixed(0)} ms`).join(', ')}, once per change of the home.`,
);
const us1 = (ms) => `${(ms * 1000).toFixed(1)} µs`;
console.log(
  `\n| the plugins' sayings: matching one sentence (${cpus()[0]?.model ?? 'cpu'}, load average ${loadavg()[0].toFixed(1)} on ${availableParallelism()} cores; ${ROUNDS} rounds after ${WARMUP}) | sayings | p50 | p99 | CPU p50 | CPU p99 |\n|---|---|---|---|---|---|`,
);
for (const t of sayingTimes)
  console.log(
    `| ${t.code}: ${t.what} ("${t.sentence}") | ${t.sayings} | ${us1(quantile(t.times, 0.5))} | ${us1(quantile(t.times, 0.99))} | ${us1(quantile(t.cpu, 0.5))} | ${us1(quantile(t.cpu, 0.99))} |`,
  );
