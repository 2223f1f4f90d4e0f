#!/usr/bin/env node
// bench/tools: how much of an assistant's context the tool list takes, and how long tools take.
// 1. What tools/list gives a new client (2026-07-28, stateless) with default settings, with
//    CONFIG_EDITING on (and ADMIN_TOOLS, where this version has that setting): the list's tokens
//    against the 6,000-token budget, and every tool's own tokens, sorted, listed or found through
//    find_tools (what one find_tools answer costs too).
// 2. The two ways to keep the list small, measured on today's tools plus 16 stand-ins of realistic
//    size for the tools issues 35 and 36 add (tests/fixtures/standin-plugins, not shipped):
//    grouping related tools into one (computed from their definitions: one tool per family with a
//    `tool` field, the members' fields and descriptions merged) against progressive discovery
//    (what the bridge serves: core tools, find_tools, call_tool). docs/tool-list.md reads the figures.
// 3. How long a read tool, an acting tool (a light switched, its new state verified), a config
//    change previewed (its diff) and applied (written through the simulator's config API and its
//    reload checked) take through POST /api/tools/call.
// 4. How long admin_system's lists (updates, release notes, apps) and previews (dry_run of a backup,
//    an install, a restart or reload of the core, an app's restart) take, as in the add-on: the
//    bridge against the simulator with its Supervisor (run in this process), ADMIN_TOOLS on.
// 5. Task status notifications (MCP tasks extension, 2026-07-28): a cover's travel run as a task,
//    its subscriptions/listen stream open over HTTP; from the hub's last state change (the cover
//    arrived, seen in the simulator in this process) to the `completed` notice read off the stream,
//    and from the task's own lastUpdatedAt (the status change, millisecond clock) to the same.
// Starts the built bridge with its embedded simulator (demo home) for 1 to 3; prints markdown tables.
// Run with `npm run bench:tools`; options: --calls N (default 500), --warmup N (default 50),
// --tasks N (default 100, after 5 not counted).
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { ownedChildren } from '../lib/processes.mjs';
import { quantile } from '../lib/stats.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));
const { values: opt } = parseArgs({
  options: { calls: { type: 'string', default: '500' }, warmup: { type: 'string', default: '50' }, tasks: { type: 'string', default: '100' } },
});
const CALLS = Number(opt.calls);
const WARMUP = Number(opt.warmup);
const { TOOL_BUDGET_TOKENS: BUDGET, tokensOf: tokens } = await import(join(root, 'dist', 'src', 'plugin-host', 'tool-discovery.js'));
const { SETTINGS } = await import(join(root, 'dist', 'src', 'config', 'settings.js'));
const HAS_ADMIN_TOOLS = Object.values(SETTINGS).some((x) => x.env === 'ADMIN_TOOLS');
const STANDINS = join(root, 'tests', 'fixtures', 'standin-plugins');
const load = () =>
  os
    .loadavg()
    .map((x) => x.toFixed(2))
    .join(' / ');
const loadBefore = load();
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

const n = (x) => x.toLocaleString('en');

/** One stateless (2026-07-28) MCP request; answers its result, or throws with its error. */
async function mcp(b, method, params = {}) {
  const res = await fetch(`${b.base}/mcp`, {
    method: 'POST',
    headers: {
      ...b.headers,
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': method,
      ...(params.name ? { 'mcp-name': params.name } : {}),
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method,
      params: {
        ...params,
        _meta: {
          'io.modelcontextprotocol/protocolVersion': '2026-07-28',
          'io.modelcontextprotocol/clientInfo': { name: 'bench', version: '1' },
          'io.modelcontextprotocol/clientCapabilities': {},
        },
      },
    }),
  });
  const text = await res.text();
  const json = res.headers.get('content-type')?.includes('text/event-stream')
    ? text
        .split('\n')
        .filter((l) => l.startsWith('data:'))
        .map((l) => l.slice(5))
        .join('')
    : text;
  const msg = JSON.parse(json);
  if (!msg.result) throw new Error(`${method}: ${json.slice(0, 300)}`);
  return msg.result;
}

/**
 * What a new client sees: tools/list as served, every tool it may use (listed, or found through
 * find_tools, whose answers are measured too) with its definition.
 */
async function toolsOf(b) {
  const listed = (await mcp(b, 'tools/list')).tools;
  const every = (await (await fetch(`${b.base}/api/tools`, { headers: b.headers })).json()).tools;
  const names = new Set(listed.map((t) => t.name));
  const offered = listed.filter((t) => t.name !== 'find_tools' && t.name !== 'call_tool');
  const found = [];
  if (names.has('find_tools')) {
    for (const t of every) {
      if (names.has(t.name)) continue;
      const r = await mcp(b, 'tools/call', { name: 'find_tools', arguments: { names: [t.name] } });
      if (r.isError) continue; // not offered to this caller
      offered.push(t);
      // What the model reads: the text block (the wire carries the same JSON again as structuredContent).
      found.push({ name: t.name, answer: Math.ceil(r.content[0].text.length / 4) });
    }
  }
  return { listed, offered, found, listedNames: names };
}

// Grouping, computed: the members of each family become one tool whose `tool` field picks the member.
const FAMILIES = [
  ['control', /^(control_\w+|run_automation|bridge_scenes)$/],
  ['entities', /^(search_entities|list_areas|list_devices|describe_entity)$/],
  ['history', /^get_(history|logbook|statistics)$/],
  ['config', /^config_/],
  ['organizer', /^(calendar|todo)$/],
  ['sensing', /^(camera|weather|people|energy)$/],
  ['admin', /^(registries|zones|system_health|backups|updates|apps|blueprints)$/],
];
function merged(name, members) {
  const variants = new Map();
  for (const m of members)
    for (const [k, schema] of Object.entries(m.inputSchema.properties ?? {})) {
      const seen = variants.get(k) ?? new Map();
      seen.set(JSON.stringify(schema), schema);
      variants.set(k, seen);
    }
  const properties = { tool: { enum: members.map((m) => m.name) } };
  for (const [k, seen] of variants) properties[k] = seen.size === 1 ? [...seen.values()][0] : { anyOf: [...seen.values()] };
  const outputs = new Map(members.filter((m) => m.outputSchema).map((m) => [JSON.stringify(m.outputSchema), m.outputSchema]));
  const all = (hint) => members.every((m) => m.annotations?.[hint] === true);
  return {
    name,
    title: name,
    description: members.map((m) => `${m.name}: ${m.description}`).join(' '),
    inputSchema: { type: 'object', properties, required: ['tool'] },
    ...(outputs.size ? { outputSchema: outputs.size === 1 ? [...outputs.values()][0] : { anyOf: [...outputs.values()] } } : {}),
    annotations: { readOnlyHint: all('readOnlyHint'), destructiveHint: !members.every((m) => m.annotations?.destructiveHint === false), openWorldHint: false },
  };
}
function grouped(tools) {
  const out = [];
  const families = new Map();
  for (const t of tools) {
    const family = FAMILIES.find(([, re]) => re.test(t.name))?.[0];
    if (!family) out.push(t);
    else families.set(family, [...(families.get(family) ?? []), t]);
  }
  for (const [family, members] of families) out.push(members.length > 1 ? merged(family, members) : members[0]);
  return out;
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.floor(s.length / 2)] : 0;
};

// 1. The list per setting, each tool's tokens.
const settings = [
  ['default settings', {}],
  ['CONFIG_EDITING on', { CONFIG_EDITING: 'true' }],
  ...(HAS_ADMIN_TOOLS ? [['CONFIG_EDITING and ADMIN_TOOLS on', { CONFIG_EDITING: 'true', ADMIN_TOOLS: 'true' }]] : []),
];
const perSetting = [];
for (const [label, env] of settings) {
  const b = await bridge(env);
  perSetting.push({ label, ...(await toolsOf(b)) });
  await b.stop();
}
// 2. Today's tools plus the stand-ins, every setting on.
const withStandins = await bridge({ ...settings.at(-1)[1], PLUGINS_DIR: STANDINS });
const future = await toolsOf(withStandins);
await withStandins.stop();

const { base, headers, stop } = await bridge({ CONFIG_EDITING: 'true' });
/** `args(i)` gives the arguments of call i, so an acting tool can alternate (on, off, ...); `b` the bridge called. */
async function time(name, args, b = { base, headers }, answered = () => true) {
  let n = 0;
  const once = async () => {
    const body = JSON.stringify({ name, arguments: args(n++) });
    const t = performance.now();
    const r = await fetch(`${b.base}/api/tools/call`, { method: 'POST', headers: b.headers, body });
    const out = await r.json();
    if (r.status !== 200 || out.isError || !answered(out)) throw new Error(`${name}: ${JSON.stringify(out).slice(0, 300)}`);
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

// 4. admin_system in the add-on: the simulator with its Supervisor, the bridge installed in it as the add-on it calls from.
const { startSimulator } = await import(join(root, 'dist', 'src', 'sim', 'testing.js'));
// A cover travels 200 ms: long enough for the listen stream to open before it arrives (section 5).
const sim = await startSimulator({ supervisor: {}, timing: { coverTravelMs: 200 }, logger: (await import('pino')).default({ level: 'silent' }) });
sim.supervisor.installAddon({
  slug: 'home_mcp_bridge',
  name: 'Home MCP Bridge',
  url: `http://127.0.0.1:${port}`,
  hassioApi: true,
  hassioRole: 'manager',
  // As the add-on's config declares it, so its announcement to Home Assistant is taken.
  discovery: ['mcp'],
});
sim.supervisor.installAddon({ slug: 'core_mosquitto', name: 'Mosquitto broker', url: 'http://127.0.0.1:1', version: '6.5.1' });
sim.setState('update.bulb_firmware', 'on', {
  title: 'Bulb Firmware',
  installed_version: '1.93.3',
  latest_version: '1.94.2',
  in_progress: false,
  release_summary: 'Added support for effects',
  release_url: 'https://www.example.com/release/1.94.2',
  supported_features: 1 | 8 | 16,
  skipped_version: null,
});
sim.setReleaseNotes('update.bulb_firmware', '## 1.94.2\n\n- Effects');
const addon = await bridge({ SUPERVISOR_TOKEN: 'supervisor-token', SUPERVISOR_URL: sim.url, ADMIN_TOOLS: 'true' });
// A preview must be one: planned, not applied.
const system = (args) =>
  time(
    'admin_system',
    () => args,
    addon,
    (out) => !args.dry_run || (out.structuredContent?.dry_run === true && out.structuredContent.applied === false),
  );
const adminSystem = [
  ['`updates` (list)', await system({ operation: 'updates' })],
  ['`release_notes` of one update', await system({ operation: 'release_notes', entity_id: 'update.bulb_firmware' })],
  ['`apps` (list, from the Supervisor)', await system({ operation: 'apps' })],
  ['`backup` preview (dry_run)', await system({ operation: 'backup', name: 'bench', dry_run: true })],
  ['`install` preview (dry_run)', await system({ operation: 'install', entity_id: 'update.bulb_firmware', dry_run: true })],
  ['`restart_core` preview (dry_run)', await system({ operation: 'restart_core', dry_run: true })],
  ['`reload_core` preview (dry_run)', await system({ operation: 'reload_core', dry_run: true })],
  ['`restart_app` preview (dry_run)', await system({ operation: 'restart_app', app: 'core_mosquitto', dry_run: true })],
];

// 5. Task status notifications on a listen stream.
const TASKS = 'io.modelcontextprotocol/tasks';
let rpcId = 0;
const modern = (method, params, name) =>
  fetch(`${addon.base}/mcp`, {
    method: 'POST',
    headers: {
      ...addon.headers,
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': method,
      ...(name ? { 'mcp-name': name } : {}),
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: ++rpcId,
      method,
      params: {
        ...params,
        _meta: {
          'io.modelcontextprotocol/protocolVersion': '2026-07-28',
          'io.modelcontextprotocol/clientInfo': { name: 'bench', version: '1' },
          'io.modelcontextprotocol/clientCapabilities': { extensions: { [TASKS]: {} } },
        },
      },
    }),
  });
/** The next message on an SSE body that matches, with the moment its frame was read. */
function sse(res) {
  const reader = res.body.getReader();
  const decoder = new TextDecoder();
  const queue = [];
  let pending = '';
  return {
    async next(match) {
      for (;;) {
        while (queue.length) {
          const m = queue.shift();
          if (match(m.message)) return m;
        }
        const { value, done } = await reader.read();
        if (done) throw new Error('the listen stream ended');
        const at = performance.now();
        const wall = Date.now();
        pending += decoder.decode(value, { stream: true });
        const frames = pending.split('\n\n');
        pending = frames.pop() ?? '';
        for (const f of frames) {
          const data = /^data: (.*)$/m.exec(f)?.[1];
          if (data) queue.push({ message: JSON.parse(data), at, wall });
        }
      }
    },
    close: () => reader.cancel().catch(() => undefined),
  };
}
const COVER = 'cover.living_room_blinds';
const arrivals = [];
const stopWatching = sim.hub.bus.listen('state_changed', (e) => {
  if (e.data.entity_id === COVER && ['open', 'closed'].includes(e.data.new_state?.state)) arrivals.push(performance.now());
});
const taskTimes = { fromHub: [], fromStatus: [] };
const TASK_ROUNDS = Number(opt.tasks);
for (let i = 0; i < TASK_ROUNDS + 5; i++) {
  const command = i % 2 ? 'open' : 'close';
  const created = (await (await modern('tools/call', { name: 'control_covers', arguments: { entity_id: COVER, command } }, 'control_covers')).json()).result;
  if (created?.resultType !== 'task') throw new Error(`control_covers did not run as a task: ${JSON.stringify(created).slice(0, 300)}`);
  const stream = sse(await modern('subscriptions/listen', { notifications: { taskIds: [created.taskId] } }));
  const before = arrivals.length;
  const done = await stream.next((m) => m.method === 'notifications/tasks' && m.params.status !== 'working');
  if (done.message.params.status !== 'completed')
    throw new Error(`the task ended ${done.message.params.status}: ${JSON.stringify(done.message).slice(0, 300)}`);
  if (arrivals.length !== before + 1) throw new Error(`the cover's arrival was not seen once in the hub (${arrivals.length - before} times)`);
  if (i >= 5) {
    taskTimes.fromHub.push(done.at - arrivals.at(-1));
    taskTimes.fromStatus.push(done.wall - Date.parse(done.message.params.lastUpdatedAt));
  }
  await stream.close();
}
stopWatching();
await addon.stop();
await sim.stop();

const f = (x) => `${x.toFixed(2)} ms`;
const last = perSetting.at(-1);
const sizeOf = new Map(last.offered.map((t) => [t.name, tokens(t)]));
const foundAnswer = new Map(last.found.map((x) => [x.name, x.answer]));
const everything = future.offered;
const asGroups = grouped(everything);
const futureFound = future.found.map((x) => x.answer);
const lines = [
  `### bench/tools, ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC`,
  '',
  `node ${process.version}, ${os.cpus()[0]?.model ?? 'cpu'}, ${os.cpus().length} cores, load ${loadBefore} before, ${load()} after (1 / 5 / 15 min); the bridge with its embedded simulator (demo home); tokens are JSON characters / 4, rounded up; budget ${n(BUDGET)} tokens`,
  '',
  '#### What tools/list gives a new client (2026-07-28, the same list in a 2025 session)',
  '',
  '| Settings | tools offered | all of them listed would be | tools/list as served |',
  '|---|---:|---:|---:|',
  ...perSetting.map(
    (x) =>
      `| ${x.label} | ${x.offered.length} | ${n(tokens(x.offered))} tokens | ${x.listed.length} tools, ${n(tokens(x.listed))} tokens${x.listedNames.has('find_tools') ? ' (core tools, find_tools, call_tool)' : ' (all)'} |`,
  ),
  '',
  `#### Each tool (${last.label}), largest first`,
  '',
  '| Tool | tokens | in tools/list | find_tools answer for it (its text) |',
  '|---|---:|---|---:|',
  ...[...last.listed.filter((t) => !sizeOf.has(t.name)).map((t) => [t.name, tokens(t)]), ...sizeOf]
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .map(
      ([name, size]) => `| ${name} | ${n(size)} | ${last.listedNames.has(name) ? 'yes' : 'found'} | ${foundAnswer.has(name) ? n(foundAnswer.get(name)) : ''} |`,
    ),
  '',
  `#### Grouping against progressive discovery: today's tools plus 16 stand-ins of the coming ones (${everything.length} tools, ${settings.at(-1)[0]})`,
  '',
  '| Way | tools in tools/list | tools/list tokens | to reach a capability not listed |',
  '|---|---:|---:|---|',
  `| every tool listed | ${everything.length} | ${n(tokens(everything))} | - |`,
  `| grouped: ${FAMILIES.length} families (${FAMILIES.map(([name]) => name).join(', ')}) merged into one tool each | ${asGroups.length} | ${n(tokens(asGroups))} | - |`,
  `| progressive discovery (served): core tools, find_tools, call_tool | ${future.listed.length} | ${n(tokens(future.listed))} | one find_tools call: median ${n(median(futureFound))}, largest ${n(Math.max(0, ...futureFound))} tokens of answer |`,
  '',
  '#### Calls through POST /api/tools/call',
  '',
  `${CALLS} calls each after ${WARMUP} warm-up, one at a time over keep-alive HTTP, CONFIG_EDITING on`,
  '',
  '| What | Figure |',
  '|---|---:|',
  `| read tool \`search_entities {domain: light}\` p50 / p99 | ${f(read.p50)} / ${f(read.p99)} |`,
  `| acting tool \`control_lights\` on/off alternately, verified, p50 / p99 | ${f(act.p50)} / ${f(act.p99)} (${act.verified} of ${CALLS} verified) |`,
  `| \`config_change\` preview of an automation (dry_run: diff, checkpoint), p50 / p99 | ${f(preview.p50)} / ${f(preview.p99)} |`,
  `| \`config_change\` applied (version kept, written, reload checked), p50 / p99 | ${f(applied.p50)} / ${f(applied.p99)} |`,
  '',
  '#### admin_system through POST /api/tools/call, as in the add-on',
  '',
  `${CALLS} calls each after ${WARMUP} warm-up, one at a time; the bridge against the simulator with its Supervisor (in the benchmark's process), ADMIN_TOOLS on`,
  '',
  '| Operation | p50 | p99 |',
  '|---|---:|---:|',
  ...adminSystem.map(([what, r]) => `| ${what} | ${f(r.p50)} | ${f(r.p99)} |`),
  '',
  '#### Task status notifications on an HTTP listen stream',
  '',
  `${TASK_ROUNDS} covers' travels run as MCP tasks (2026-07-28, tasks extension), each after its \`subscriptions/listen\` stream opened, 5 more not counted; the same bridge and simulator as above`,
  '',
  '| From | to | p50 | p99 | max |',
  '|---|---|---:|---:|---:|',
  `| the hub's state change (the cover arrived, in the simulator) | the \`completed\` notice read off the stream | ${f(quantile(taskTimes.fromHub, 0.5))} | ${f(quantile(taskTimes.fromHub, 0.99))} | ${f(Math.max(...taskTimes.fromHub))} |`,
  `| the task's status change (its lastUpdatedAt, a millisecond clock) | the same notice | ${quantile(taskTimes.fromStatus, 0.5)} ms | ${quantile(taskTimes.fromStatus, 0.99)} ms | ${Math.max(...taskTimes.fromStatus)} ms |`,
];
process.stdout.write(`${lines.join('\n')}\n`);
process.exit(0);
