#!/usr/bin/env node
// bench/tools: how much of an assistant's context the tool list takes (with the config plugin off
// and on), and how long a read tool, an acting tool (a light switched, its new state verified), a
// config change previewed (its diff) and a config change applied (written through the simulator's
// config API and its reload checked) take through POST /api/tools/call. Starts the built bridge
// with its embedded simulator (demo home); prints a markdown table.
// Run with `npm run bench:tools`; options: --calls N (default 500), --warmup N (default 50).
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { ownedChildren } from '../lib/processes.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));
const { values: opt } = parseArgs({ options: { calls: { type: 'string', default: '500' }, warmup: { type: 'string', default: '50' } } });
const CALLS = Number(opt.calls);
const WARMUP = Number(opt.warmup);
const BUDGET_TOKENS = 8000;
const { children, work } = ownedChildren({ scratchPrefix: 'bench-tools-' });

const port = await new Promise((resolve) => {
  const s = createServer();
  s.listen(0, '127.0.0.1', () => {
    const { port: p } = s.address();
    s.close(() => resolve(p));
  });
});
/** The built bridge on `port` with extra settings; answers its base URL, headers and child. */
async function bridge(extra) {
  const env = {
    PATH: process.env.PATH,
    HOME: work,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: mkdtempSync(join(work, 'data-')),
    AUTH_USERNAME: 'bench',
    AUTH_PASSWORD: 'bench-password-1',
    LOG_LEVEL: 'warn',
    RATE_LIMIT_MAX: '0',
    ...extra,
  };
  const child = spawn(process.execPath, [join(root, 'dist', 'src', 'main.js')], { env, stdio: ['ignore', 'inherit', 'inherit'] });
  children.add(child);
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    try {
      if ((await (await fetch(`${base}/health`)).json()).status === 'healthy') break;
    } catch {
      // not listening yet
    }
    if (i > 300) throw new Error('the bridge did not become healthy');
    await new Promise((r) => setTimeout(r, 100));
  }
  const { access_token: token } = await (
    await fetch(`${base}/auth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'bench', password: 'bench-password-1' }),
    })
  ).json();
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const stop = () =>
    new Promise((r) => {
      if (child.exitCode !== null) return r();
      child.once('exit', r);
      child.kill('SIGTERM');
    });
  return { base, headers, stop };
}

const tokens = (tools) => Math.round(JSON.stringify(tools).length / 4);

// The list without the config plugin, then the bridge this bench measures: config editing on.
const off = await bridge({ PLUGINS_DISABLED: 'config' });
const listOff = (await (await fetch(`${off.base}/api/tools`, { headers: off.headers })).json()).tools;
await off.stop();
const { base, headers, stop } = await bridge({ CONFIG_EDITING: 'true' });

const list = await (await fetch(`${base}/api/tools`, { headers })).json();
const listJson = JSON.stringify(list.tools);
// With CONFIG_EDITING off (the default) the tools that change config are not offered.
const listReadOnlyConfig = list.tools.filter((t) => !['config_change', 'config_restore'].includes(t.name));

/** `args(i)` gives the arguments of call i, so an acting tool can alternate (on, off, ...). */
async function time(name, args) {
  let n = 0;
  const once = async () => {
    const body = JSON.stringify({ name, arguments: args(n++) });
    const t = performance.now();
    const r = await fetch(`${base}/api/tools/call`, { method: 'POST', headers, body });
    const out = await r.json();
    if (r.status !== 200 || out.isError) throw new Error(`${name}: ${JSON.stringify(out).slice(0, 300)}`);
    return { ms: performance.now() - t, out };
  };
  for (let i = 0; i < WARMUP; i++) await once();
  const ms = [];
  let verified = 0;
  for (let i = 0; i < CALLS; i++) {
    const { ms: m, out } = await once();
    ms.push(m);
    if (out.structuredContent?.entities?.every((e) => e.verified === true)) verified++;
  }
  ms.sort((a, b) => a - b);
  const q = (p) => ms[Math.min(ms.length - 1, Math.floor(p * ms.length))];
  return { p50: q(0.5), p99: q(0.99), verified };
}

const read = await time('search_entities', () => ({ domain: 'light' }));
// Each call changes the light (on, off, on, ...), so every one waits for a real state change and checks it.
const act = await time('control_lights', (i) => ({ entity_id: 'light.living_room_lamp', command: i % 2 ? 'on' : 'off' }));
// An automation to change: each applied change alternates its brightness, so every one writes, waits
// for the reload and keeps a version; a preview only plans and diffs.
const automation = (pct) => ({
  alias: 'Bench light',
  triggers: [{ trigger: 'event', event_type: 'bench' }],
  actions: [{ action: 'light.turn_on', target: { entity_id: 'light.living_room_lamp' }, data: { brightness_pct: pct } }],
});
await fetch(`${base}/api/tools/call`, {
  method: 'POST',
  headers,
  body: JSON.stringify({
    name: 'config_change',
    arguments: { kind: 'automation', op: 'create', id: 'bench_light', config: automation(10), confirm: true, reason: 'bench' },
  }),
});
const preview = await time('config_change', (i) => ({ kind: 'automation', op: 'update', id: 'bench_light', config: automation(20 + (i % 50)), dry_run: true }));
const applied = await time('config_change', (i) => ({
  kind: 'automation',
  op: 'update',
  id: 'bench_light',
  config: automation(i % 2 ? 30 : 40),
  confirm: true,
  reason: 'bench',
}));
await stop();

const f = (x) => `${x.toFixed(2)} ms`;
const lines = [
  `### bench/tools, ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC`,
  '',
  `node ${process.version}, ${os.cpus()[0]?.model ?? 'cpu'}, ${os.cpus().length} cores; the bridge with its embedded simulator (demo home); ${CALLS} calls each after ${WARMUP} warm-up, one at a time over keep-alive HTTP`,
  '',
  '| What | Figure |',
  '|---|---:|',
  `| tools in the list | ${list.tools.length} (${listOff.length} without the config plugin) |`,
  `| \`GET /api/tools\` tools JSON, every plugin | ${listJson.length.toLocaleString('en')} bytes, ${tokens(list.tools).toLocaleString('en')} tokens (chars / 4); budget ${BUDGET_TOKENS.toLocaleString('en')} |`,
  `| the same without the config plugin (PLUGINS_DISABLED=config) | ${JSON.stringify(listOff).length.toLocaleString('en')} bytes, ${tokens(listOff).toLocaleString('en')} tokens |`,
  `| the list with the config plugin and CONFIG_EDITING off (config_change, config_restore not offered) | ${JSON.stringify(listReadOnlyConfig).length.toLocaleString('en')} bytes, ${tokens(listReadOnlyConfig).toLocaleString('en')} tokens |`,
  `| read tool \`search_entities {domain: light}\` p50 / p99 | ${f(read.p50)} / ${f(read.p99)} |`,
  `| acting tool \`control_lights\` on/off alternately, verified, p50 / p99 | ${f(act.p50)} / ${f(act.p99)} (${act.verified} of ${CALLS} verified) |`,
  `| \`config_change\` preview of an automation (dry_run: diff, checkpoint), p50 / p99 | ${f(preview.p50)} / ${f(preview.p99)} |`,
  `| \`config_change\` applied (version kept, written, reload checked), p50 / p99 | ${f(applied.p50)} / ${f(applied.p99)} |`,
];
process.stdout.write(`${lines.join('\n')}\n`);
process.exit(0);
