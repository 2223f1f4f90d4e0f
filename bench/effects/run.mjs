#!/usr/bin/env node
// bench/effects: what judging effects adds to the checkpoint. Times Policy.authorize on the built
// code, in process, for the same actions with and without the effect resolver: a direct action (a
// light turned on), and running a script of 20 steps (lights, switches, a cover, a nested script,
// a scene), its configs already read (as after the first use: they are kept until Home Assistant
// reloads them). The home is the simulator's demo home's size (about 80 entities) plus the script.
// Prints a markdown table with the CPU model and load.
// Run with `npm run bench:effects`; options: --calls N (default 20000).
import os from 'node:os';
import { parseArgs } from 'node:util';
import { quantile } from '../lib/stats.mjs';

const { values: opt } = parseArgs({ options: { calls: { type: 'string', default: '20000' } } });
const CALLS = Number(opt.calls);
const dist = new URL('../../dist/src/', import.meta.url);
const { Policy } = await import(new URL('policy/policy.js', dist));
const { EffectResolver } = await import(new URL('policy/effects.js', dist));
const { HubConfigs } = await import(new URL('hub/configs.js', dist));
const { StateCache } = await import(new URL('hub/state-cache.js', dist));
const { Registries } = await import(new URL('hub/registries.js', dist));

const T = '2026-11-27T00:00:00+00:00';
const st = (entity_id, state, attributes = {}) => ({ entity_id, state, attributes, last_changed: T, last_updated: T });
const states = [];
for (let i = 0; i < 40; i++) states.push(st(`light.l${i}`, 'off'));
for (let i = 0; i < 20; i++) states.push(st(`switch.s${i}`, 'off'));
for (let i = 0; i < 10; i++) states.push(st(`cover.c${i}`, 'closed', { device_class: i === 0 ? 'garage' : 'blind' }));
states.push(
  st('lock.front_door', 'locked'),
  st('script.twenty', 'off'),
  st('script.inner', 'off'),
  st('scene.evening', 'unknown', { entity_id: ['light.l1', 'light.l2'], id: '1' }),
);
for (let i = 0; i < 5; i++) states.push(st(`automation.a${i}`, 'on', { id: `a${i}` }));
const cache = new StateCache();
cache.replaceAll(states);
const registries = new Registries();
registries.replace({
  areas: [],
  floors: [],
  devices: [],
  entities: states.map((s, i) => ({ entity_id: s.entity_id, id: i.toString(16).padStart(32, '0') })),
  labels: [],
  floorsSupported: true,
});

const steps = [];
for (let i = 0; i < 14; i++) steps.push({ action: 'light.turn_on', target: { entity_id: `light.l${i + 3}` }, data: { brightness_pct: 40 } });
for (let i = 0; i < 3; i++) steps.push({ action: 'switch.turn_off', target: { entity_id: `switch.s${i}` } });
steps.push({ action: 'cover.close_cover', target: { entity_id: 'cover.c1' } }, { action: 'script.inner' }, { scene: 'scene.evening' });
const configs = {
  'script.twenty': { sequence: steps },
  'script.inner': { sequence: [{ action: 'light.turn_off', target: { entity_id: 'light.l30' } }] },
  'scene.evening': { id: '1', name: 'Evening', entities: { 'light.l1': 'on', 'light.l2': { state: 'on', brightness: 80 } } },
};
const hubConfigs = new HubConfigs({ read: async (_d, id) => configs[id] ?? { triggers: [], actions: [] } });
const resolver = new EffectResolver({ cache, registries }, hubConfigs);
const settings = { readOnly: false, allow: [], deny: ['lock', 'alarm_control_panel'], requireConfirmation: true };
const plain = new Policy(settings);
const judged = new Policy(settings, undefined, resolver);

const direct = [{ entity_id: 'light.l0', service: 'turn_on', data: { brightness_pct: 50 }, state: cache.get('light.l0') }];
const script = [{ entity_id: 'script.twenty', service: 'turn_on', data: {}, state: cache.get('script.twenty') }];
await judged.prepare(script);
const fx = judged.effectsOf(script);
if (fx.length !== 24 || fx.some((e) => e.unresolved)) throw new Error(`the script's effects were not all resolved: ${JSON.stringify(fx)}`);

function time(policy, actions) {
  const out = new Float64Array(CALLS);
  for (let i = 0; i < 2000; i++) policy.authorize({}, actions);
  for (let i = 0; i < CALLS; i++) {
    const t0 = process.hrtime.bigint();
    policy.authorize({}, actions);
    out[i] = Number(process.hrtime.bigint() - t0) / 1000;
  }
  return [...out];
}
const rows = [];
for (const [what, actions] of [
  ['direct action (light.turn_on)', direct],
  ['script of 20 steps (lights, switches, a cover, a nested script, a scene)', script],
]) {
  const before = time(plain, actions);
  const after = time(judged, actions);
  const q = (xs, p) => quantile(xs, p);
  rows.push(
    `| ${what} | ${q(before, 0.5).toFixed(1)} | ${q(after, 0.5).toFixed(1)} | ${(q(after, 0.5) - q(before, 0.5)).toFixed(1)} | ${(q(after, 0.99) - q(before, 0.99)).toFixed(1)} |`,
  );
}
const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
const load = os
  .loadavg()
  .map((x) => x.toFixed(2))
  .join(' / ');
console.log(`\nCheckpoint cost of judging effects (Node ${process.version}, ${cpu}, ${os.cpus().length} cores, load ${load}, ${CALLS} calls each)\n`);
console.log('| action | authorize p50 without effects (µs) | with effects (µs) | added p50 (µs) | added p99 (µs) |');
console.log('|---|---:|---:|---:|---:|');
for (const r of rows) console.log(r);
