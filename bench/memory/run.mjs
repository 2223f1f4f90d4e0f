#!/usr/bin/env node
// bench/memory: the add-on's resident memory after start and after an hour of ordinary use.
// The bridge starts exactly as the add-on's s6 run script starts it (its `export`s and the flags
// of its `exec node ...` line, read from rootfs/), against the hub simulator in a process of its own
// (as Home Assistant is). Then an hour of ordinary use, compressed (--speed, default 12: five
// minutes): the home's sensors change every 2 s, the panel is open (its event stream, /health and
// /api/config every 30 s), a dashboard holds a WebSocket subscription, an assistant holds 30 MCP
// conversations an hour (initialize, tools/list, three tool calls), and REST clients read states
// and send commands. RSS (with its anonymous and file-backed parts) is sampled from /proc over
// time, and the bridge's CPU time; --heap also reads the V8 heap through the inspector (which itself costs a little memory).
// Run with `npm run bench:memory` (builds dist/ first); options: node bench/memory/run.mjs --help
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import WebSocket from 'ws';
import { inspectorOf } from '../lib/inspector.mjs';
import { ownedChildren } from '../lib/processes.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));
const RUN_SCRIPT = join(root, 'rootfs', 'etc', 's6-overlay', 's6-rc.d', 'home-mcp-bridge', 'run');
const HOST = '127.0.0.1';
const USER = { username: 'bench', password: 'bench-password-1' };
const LIMIT_MIB = 100;

const { values: opt } = parseArgs({
  options: {
    minutes: { type: 'string', default: '60' },
    speed: { type: 'string', default: '12' },
    samples: { type: 'string', default: '20' },
    settle: { type: 'string', default: '10' },
    heap: { type: 'boolean', default: false },
    'try-flags': { type: 'string', default: '' },
    'try-env': { type: 'string', default: '' },
    'node-flags': { type: 'string' },
    help: { type: 'boolean', default: false },
  },
});
if (opt.help) {
  process.stdout.write(`npm run bench:memory -- [options]
  --minutes N   minutes of ordinary use to play (default 60)
  --speed N     how many times faster than real time (default 12: an hour in 5 minutes)
  --samples N   rows of the table over the run (default 20)
  --settle S    seconds after the start before the "after start" figure (default 10)
  --heap        also read the V8 heap (used/total) through the inspector (adds a little memory)
  --try-flags F --try-env E   Node flags / VAR=value pairs (space-separated) added to the add-on's,
                to try a setting before it goes into the run script
  --node-flags F  Node flags instead of the run script's (the run script before a change, for a
                before and after in one run)
`);
  process.exit(0);
}
const fail = (m) => {
  process.stderr.write(`bench:memory: ${m}\n`);
  process.exit(1);
};
if (!existsSync('/proc/self/status')) fail('reads memory from /proc, so it runs on Linux only.');
if (!existsSync(join(root, 'dist', 'src', 'main.js'))) fail('dist/ is missing: run `npm run bench:memory` (it builds first) or `npm run build`.');

const minutes = Number(opt.minutes);
const speed = Number(opt.speed);
const realMs = (minutes * 60_000) / speed;
const { children, work } = ownedChildren({ scratchPrefix: 'bench-memory-' });
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const log = (m) => process.stderr.write(`bench:memory: ${m}\n`);
const freePort = () =>
  new Promise((resolve) => {
    const s = createServer().listen(0, HOST, () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });

/** What the add-on's run script sets: its exported variables and the flags before the script name. */
function addonLaunch() {
  const text = readFileSync(RUN_SCRIPT, 'utf8');
  const env = Object.fromEntries([...text.matchAll(/^export (\w+)=(\S+)$/gm)].map((m) => [m[1], m[2]]));
  const exec = /^exec node (.*?)\s*dist\/src\/main\.js\s*$/m.exec(text);
  if (!exec) fail(`no "exec node ... dist/src/main.js" line in ${RUN_SCRIPT}`);
  for (const pair of opt['try-env'].split(/\s+/).filter(Boolean)) env[pair.slice(0, pair.indexOf('='))] = pair.slice(pair.indexOf('=') + 1);
  const own = opt['node-flags'] ?? exec[1];
  return { env, flags: [...own.split(/\s+/).filter(Boolean), ...opt['try-flags'].split(/\s+/).filter(Boolean)] };
}

/** Resident memory of a process in MiB: all of it, anonymous (heaps, stacks) and file-backed (code, mapped data). */
function rss(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const mib = (key) => Number(new RegExp(`^${key}:\\s+(\\d+)`, 'm').exec(status)?.[1] ?? NaN) / 1024;
  return { rss: mib('VmRSS'), anon: mib('RssAnon'), file: mib('RssFile'), peak: mib('VmHWM') };
}

/** CPU seconds (user + system) a process has used, from /proc: a flag that saves memory may cost CPU. */
function cpuSeconds(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

async function waitFor(url, child) {
  for (let i = 0; i < 600; i++) {
    if (child.exitCode !== null) fail(`${url}: the process exited (${child.exitCode})`);
    if (
      await fetch(url).then(
        (r) => r.ok,
        () => false,
      )
    )
      return;
    await sleep(100);
  }
  fail(`${url} did not answer within 60 s`);
}

// --- the hub and the bridge ---------------------------------------------------------------------

const simPort = await freePort();
const sim = spawn(process.execPath, [join(root, 'dist', 'src', 'main.js'), 'sim', '--port', String(simPort), '--host', HOST], {
  stdio: ['ignore', 'ignore', 'ignore'],
});
children.add(sim);
const simUrl = `http://${HOST}:${simPort}`;
const simHeaders = { authorization: 'Bearer sim-token', 'content-type': 'application/json' };
for (
  let i = 0;
  !(await fetch(`${simUrl}/api/states`, { headers: simHeaders }).then(
    (r) => r.ok,
    () => false,
  ));
  i++
) {
  if (i > 600 || sim.exitCode !== null) fail('the simulator did not start');
  await sleep(100);
}

const launch = addonLaunch();
const port = await freePort();
const inspectPort = opt.heap ? await freePort() : undefined;
const env = {
  PATH: process.env.PATH,
  ...launch.env,
  DATA_DIR: work,
  PORT: String(port),
  HOST,
  HASS_URL: simUrl,
  HASS_TOKEN: 'sim-token',
  AUTH_USERNAME: USER.username,
  AUTH_PASSWORD: USER.password,
  RATE_LIMIT_MAX: '0',
  LOG_LEVEL: 'warn',
};
const flags = [...launch.flags, ...(inspectPort ? [`--inspect=${HOST}:${inspectPort}`] : [])];
const started = Date.now();
const bridge = spawn(process.execPath, [...flags, 'dist/src/main.js'], { cwd: root, env, stdio: ['ignore', 'ignore', 'inherit'] });
children.add(bridge);
const url = `http://${HOST}:${port}`;
await waitFor(`${url}/health`, bridge);
const inspector = inspectPort ? await inspectorOf(inspectPort) : undefined;
const heapOf = async () => {
  if (!inspector) return undefined;
  const { usedSize, totalSize } = await inspector.heapUsage();
  return { used: usedSize / 1048576, total: totalSize / 1048576 };
};

await sleep(Number(opt.settle) * 1000);
const atStart = { ...rss(bridge.pid), heap: await heapOf() };
const cpuAtStart = cpuSeconds(bridge.pid);
log(`after start: ${atStart.rss.toFixed(1)} MiB resident`);

// --- an hour of ordinary use, compressed --------------------------------------------------------

const token = (await (await fetch(`${url}/auth/token`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(USER) })).json())
  .access_token;
const auth = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
const counts = { events: 0, mcp: 0, tools: 0, rest: 0, panel: 0, errors: 0 };
const guard = (p) => p.catch(() => counts.errors++);
/** Runs `fn` `perHour` times an hour of use (so every 3600/perHour/speed s of real time) until the end. */
const every = (perHour, fn) => {
  const ms = 3_600_000 / perHour / speed;
  const timer = setInterval(() => guard(Promise.resolve().then(fn)), ms);
  return () => clearInterval(timer);
};

// The panel's live stream and a dashboard's WebSocket subscription stay open all along.
const panelStream = new AbortController();
guard(
  fetch(`${url}/api/events/stream`, { headers: auth, signal: panelStream.signal })
    .then(async (res) => {
      for await (const _ of res.body) counts.events++;
    })
    .catch((err) => {
      if (err?.name !== 'AbortError') throw err;
    }),
);
const dashboard = new WebSocket(`ws://${HOST}:${port}/api/ws?token=${token}`);
dashboard.on('open', () => dashboard.send(JSON.stringify({ type: 'subscribe_events', id: 1, event_type: 'state_changed' })));
dashboard.on('error', () => counts.errors++);

const sensors = ['sensor.bathroom_humidity', 'sensor.outdoor_temperature', 'sensor.hallway_temperature'];
let tick = 0;
const stops = [
  // The home: a sensor changes every 2 s.
  every(1800, () => {
    tick++;
    return fetch(`${simUrl}/api/states/${sensors[tick % sensors.length]}`, {
      method: 'POST',
      headers: simHeaders,
      body: JSON.stringify({ state: String(40 + (tick % 30)) }),
    });
  }),
  // The panel's own polling.
  every(120, async () => {
    counts.panel++;
    await (await fetch(`${url}/health`)).arrayBuffer();
    await (await fetch(`${url}/api/config`, { headers: auth })).arrayBuffer();
  }),
  // REST clients: states read, commands sent.
  every(60, async () => {
    counts.rest++;
    await (await fetch(`${url}/api/state`, { headers: auth })).arrayBuffer();
  }),
  every(20, async () => {
    counts.rest++;
    const command = counts.rest % 2 ? 'turn on the kitchen lights' : 'is the front door locked?';
    await (await fetch(`${url}/api/command`, { method: 'POST', headers: auth, body: JSON.stringify({ command }) })).arrayBuffer();
  }),
  // An assistant's conversations over MCP.
  every(30, async () => {
    counts.mcp++;
    const c = new Client({ name: 'bench-memory', version: '1.0.0' });
    await c.connect(new StreamableHTTPClientTransport(new URL(`${url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
    try {
      await c.listTools();
      for (const [name, args] of [
        ['search_entities', { query: 'light' }],
        ['control_lights', { area: 'Kitchen', command: counts.mcp % 2 ? 'on' : 'off' }],
        ['describe_entity', { entity_id: 'climate.hallway' }],
      ]) {
        await c.callTool({ name, arguments: args });
        counts.tools++;
      }
    } finally {
      await c.close();
    }
  }),
];

const rows = [];
const sampleEvery = realMs / Number(opt.samples);
const t0 = Date.now();
for (let i = 1; i <= Number(opt.samples); i++) {
  await sleep(t0 + i * sampleEvery - Date.now());
  const m = { ...rss(bridge.pid), heap: await heapOf() };
  rows.push({ used: ((Date.now() - t0) * speed) / 60_000, ...m });
  log(`${rows.at(-1).used.toFixed(0)} min of use: ${m.rss.toFixed(1)} MiB`);
}
const cpuOfUse = cpuSeconds(bridge.pid) - cpuAtStart;
for (const stop of stops) stop();
panelStream.abort();
dashboard.close();
await sleep(2000);

// --- the table ------------------------------------------------------------------------------------

const f1 = (x) => (x === undefined || !Number.isFinite(x) ? 'n/a' : x.toFixed(1));
const lastThird = rows.slice(Math.floor((rows.length * 2) / 3));
const settled = lastThird.reduce((a, r) => a + r.rss, 0) / lastThird.length;
const end = rows.at(-1);
const machine = `${os.cpus()[0]?.model?.trim() ?? 'unknown CPU'}, ${os.availableParallelism()} cores, ${Math.round(os.totalmem() / 1024 ** 3)} GB, Node ${process.version}, ${os.platform()} ${os.release()}`;
const out = (s = '') => process.stdout.write(`${s}\n`);
out(
  `\nbench:memory on ${machine}; load average ${os
    .loadavg()
    .map((x) => x.toFixed(2))
    .join(' ')}; ${new Date().toISOString().slice(0, 10)}, run took ${Math.round((Date.now() - started) / 1000)} s`,
);
out(
  `The bridge as the add-on starts it (${RUN_SCRIPT.slice(root.length)}): ${Object.entries(launch.env)
    .filter(([k]) => !['DATA_DIR', 'PORT'].includes(k))
    .map(([k, v]) => `${k}=${v}`)
    .join(' ')} node ${launch.flags.join(' ')}; hub: the simulator's demo home in its own process.`,
);
out(
  `Use: ${minutes} min played at ${speed}x (${Math.round(realMs / 1000)} s): ${counts.mcp} MCP conversations (${counts.tools} tool calls), ${counts.rest} REST calls, ${counts.panel} panel polls, ${counts.events} SSE frames received, ${counts.errors} errors. The bridge's CPU time: ${cpuAtStart.toFixed(2)} s to start and settle, ${cpuOfUse.toFixed(2)} s for the use.\n`,
);
out(`| Minutes of use | RSS MiB | anonymous MiB | file-backed MiB |${inspector ? ' V8 heap used / total MiB |' : ''}`);
out(`|---:|---:|---:|---:|${inspector ? '---:|' : ''}`);
const line = (label, r) =>
  out(`| ${label} | ${f1(r.rss)} | ${f1(r.anon)} | ${f1(r.file)} |${inspector ? ` ${f1(r.heap?.used)} / ${f1(r.heap?.total)} |` : ''}`);
line('after start', atStart);
for (const r of rows) line(r.used.toFixed(0), r);
out(`\n| Figure | MiB | under ${LIMIT_MIB} MiB |`);
out('|---|---:|---|');
out(`| after start | ${f1(atStart.rss)} | ${atStart.rss < LIMIT_MIB ? 'yes' : 'NO'} |`);
out(`| after ${minutes} min of use (last sample) | ${f1(end.rss)} | ${end.rss < LIMIT_MIB ? 'yes' : 'NO'} |`);
out(`| settled (mean of the last third) | ${f1(settled)} | ${settled < LIMIT_MIB ? 'yes' : 'NO'} |`);
out(`| peak (VmHWM) | ${f1(end.peak)} | ${end.peak < LIMIT_MIB ? 'yes' : 'NO'} |`);
inspector?.close();
process.exit(atStart.rss < LIMIT_MIB && settled < LIMIT_MIB ? 0 : 1);
