#!/usr/bin/env node
// bench/events: fan-out of hub events to many SSE and WebSocket clients, the bridge beside a bare
// uWebSockets.js broadcast and a node:http + `ws` baseline (what peer bridges write), fed by the
// same simulated hub, with the same load clients (separate processes); optionally another build
// of the bridge (--baseline) in the same run, for a before and after. Then idle connections (the
// memory each costs, up to what the open-files limit allows), and the history's write rate with
// fan-out running. Prints markdown tables. `npm run bench:events -- --help`.
import { fork, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { ownedChildren } from '../lib/processes.mjs';
import { freePort } from '../../tests/lib/bridge-process.mjs';
import { quantile } from '../lib/stats.mjs';

const here = fileURLToPath(new URL('.', import.meta.url));
const root = join(here, '..', '..');
const HOST = '127.0.0.1';

const { values: opt } = parseArgs({
  options: {
    clients: { type: 'string', default: '1000,10000' },
    rate: { type: 'string', default: '100' },
    'burst-rate': { type: 'string', default: '1000' },
    seconds: { type: 'string', default: '8' },
    servers: { type: 'string' },
    transports: { type: 'string', default: 'sse,ws' },
    procs: { type: 'string', default: '4' },
    repeat: { type: 'string', default: '3' },
    baseline: { type: 'string' },
    'node-options': { type: 'string' },
    idle: { type: 'string', default: '20000' },
    settle: { type: 'string', default: '20' },
    'skip-idle': { type: 'boolean', default: false },
    'skip-fanout': { type: 'boolean', default: false },
    'history-events': { type: 'string', default: '200000' },
    'skip-history': { type: 'boolean', default: false },
    'cpu-prof': { type: 'string' },
    help: { type: 'boolean', default: false },
  },
});
if (opt.help) {
  process.stdout.write(`usage: node bench/events/run.mjs [options]
  --clients LIST      concurrent clients per run (default 1000,10000)
  --rate N            hub events per second (default 100)
  --burst-rate N      events per second of the burst run, at the first client count (default 1000)
  --seconds S         measured seconds per run (default 8)
  --servers LIST      bridge,before,uws,peer (default all; before needs --baseline)
  --transports LIST   sse,ws (default both)
  --procs N           load client processes (default 4)
  --repeat N          runs of each bridge build at the first client count and rate; the table shows
                      each figure's median (default 3)
  --baseline DIR      another checkout of the bridge, built (DIR/dist/src/main.js), run as "before"
  --node-options STR  Node flags for the bridge processes (default: those of the add-on's run script)
  --idle N            idle connections per server and transport (default 20000, or what the
                      open-files limit allows); --settle S seconds before each idle RSS reading
                      (default 20); --skip-idle skips this part
  --skip-fanout       skip the fan-out runs
  --history-events N  events of the history run (default 200000); --skip-history skips it
  --cpu-prof DIR      write a CPU profile of each bridge run (and history run) into DIR
`);
  process.exit(0);
}
if (!existsSync(join(root, 'dist', 'src', 'main.js'))) {
  console.error('bench:events: dist/ is missing: run `npm run bench:events` (it builds first)');
  process.exit(2);
}
const baseline = opt.baseline ? resolve(opt.baseline) : undefined;
if (baseline && !existsSync(join(baseline, 'dist', 'src', 'main.js'))) {
  console.error(`bench:events: --baseline ${baseline} has no dist/src/main.js (build it first)`);
  process.exit(2);
}

const { children, work } = ownedChildren({ scratchPrefix: 'bench-events-' });
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const log = (m) => process.stderr.write(`bench:events: ${m}\n`);
const list = (s) =>
  s
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean);
const median = (xs) => quantile(xs, 0.5);

/** The Node flags the add-on starts the bridge with (its run script's `exec node ... dist/src/main.js`). */
function addonNodeFlags() {
  const run = readFileSync(join(root, 'rootfs', 'etc', 's6-overlay', 's6-rc.d', 'home-mcp-bridge', 'run'), 'utf8');
  const m = /^exec node (.*?)\s*dist\/src\/main\.js/m.exec(run);
  return m ? m[1].split(/\s+/).filter(Boolean) : [];
}
const nodeFlags = opt['node-options'] !== undefined ? opt['node-options'].split(/\s+/).filter(Boolean) : addonNodeFlags();

/** The open-files limit of this process (children inherit it). */
function openFilesLimit(pid = 'self') {
  const m = /^Max open files\s+(\d+|unlimited)/m.exec(readFileSync(`/proc/${pid}/limits`, 'utf8'));
  return m && m[1] !== 'unlimited' ? Number(m[1]) : Infinity;
}

/** Resident memory (bytes) and CPU time (µs) of a process, from /proc. */
function proc(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const rss = Number(/^VmRSS:\s+(\d+)/m.exec(status)[1]) * 1024;
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return { rss, cpuUs: (Number(rest[11]) + Number(rest[12])) * 10_000 };
}

function ipc(child) {
  const pending = new Map();
  let next = 0;
  child.on('message', (m) => {
    if (m.id !== undefined && pending.has(m.id)) {
      pending.get(m.id)(m);
      pending.delete(m.id);
    }
  });
  return (msg) =>
    new Promise((resolve) => {
      const id = next++;
      pending.set(id, resolve);
      child.send({ ...msg, id });
    });
}

async function startSim() {
  const child = fork(join(here, 'sim-worker.mjs'), [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  children.add(child);
  const info = await new Promise((resolve) => child.once('message', resolve));
  return { ...info, call: ipc(child) };
}

async function waitHttp(url, ms = 30_000) {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    try {
      const r = await fetch(url);
      await r.body?.cancel();
      return;
    } catch {
      await sleep(100);
    }
  }
  throw new Error(`${url} did not answer`);
}

const BUILD = { bridge: root, before: baseline };

async function startServer(kind, sim, maxClients) {
  const port = await freePort();
  if (kind === 'bridge' || kind === 'before') {
    const env = {
      PATH: process.env.PATH,
      PORT: String(port),
      HOST,
      DATA_DIR: join(work, `data-${port}`),
      // No hub given (idle runs): the bridge runs its embedded simulator.
      ...(sim ? { HASS_URL: sim.url, HASS_TOKEN: sim.token } : {}),
      AUTH_USERNAME: 'bench',
      AUTH_PASSWORD: 'bench-password',
      LOG_LEVEL: 'warn',
      RATE_LIMIT_MAX: '0',
      EVENT_SUB_RATE_LIMIT: '0',
      EVENT_SUB_MAX_SUBSCRIPTIONS: String(maxClients + 100),
      SSE_MAX_CONNECTIONS: String(maxClients + 100),
      // As the add-on runs it.
      MALLOC_TRIM_THRESHOLD_: '131072',
    };
    const prof = opt['cpu-prof'] ? ['--cpu-prof', `--cpu-prof-dir=${opt['cpu-prof']}`] : [];
    const child = spawn(process.execPath, [...nodeFlags, ...prof, 'dist/src/main.js'], { cwd: BUILD[kind], env, stdio: ['ignore', 'ignore', 'inherit'] });
    children.add(child);
    await waitHttp(`http://${HOST}:${port}/health`);
    const res = await fetch(`http://${HOST}:${port}/auth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'bench', password: 'bench-password' }),
    });
    const { access_token: token } = await res.json();
    for (let i = 0; i < 100 && sim && !(await (await fetch(`http://${HOST}:${port}/health`)).json()).hub.connected; i++) await sleep(100);
    return { child, port, token, sse: '/api/events/stream', ws: '/api/ws', subscribe: JSON.stringify({ type: 'subscribe_events' }) };
  }
  const child = fork(join(here, 'baseline-server.mjs'), [kind, String(port), sim?.url ?? '', sim?.token ?? ''], {
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  children.add(child);
  await new Promise((resolve) => child.once('message', resolve));
  return { child, port, sse: '/sse', ws: '/ws' };
}

async function stopServer(s) {
  const exited = new Promise((r) => s.child.once('exit', r));
  s.child.kill('SIGTERM');
  await Promise.race([exited, sleep(5000)]);
  s.child.kill('SIGKILL');
  children.delete(s.child);
}

async function openClients(server, transport, n, procs) {
  const workers = [];
  const per = Math.ceil(n / procs);
  for (let p = 0; p < procs && p * per < n; p++) {
    const child = fork(join(here, 'clients.mjs'), [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    children.add(child);
    const state = { connected: 0, failed: 0 };
    child.on('message', (m) => {
      if (m.connected !== undefined) Object.assign(state, m);
    });
    const count = Math.min(per, n - p * per);
    child.send({
      cmd: 'open',
      host: HOST,
      port: server.port,
      transport,
      path: transport === 'sse' ? server.sse : server.ws,
      token: server.token,
      subscribe: server.subscribe,
      count,
      offset: p * per,
      sampleEvery: Math.max(1, Math.floor(n / 200)),
    });
    workers.push({ child, state, call: ipc(child) });
  }
  const end = Date.now() + 120_000;
  for (;;) {
    const c = workers.reduce((a, w) => a + w.state.connected, 0);
    const f = workers.reduce((a, w) => a + w.state.failed, 0);
    if (c + f >= n || Date.now() > end) return { workers, connected: c, failed: f };
    await sleep(100);
  }
}

async function take(workers) {
  const parts = await Promise.all(workers.map((w) => w.call({ cmd: 'take' })));
  return { count: parts.reduce((a, p) => a + p.count, 0), latencies: parts.flatMap((p) => p.latencies) };
}

async function closeClients(workers) {
  await Promise.all(workers.map((w) => w.call({ cmd: 'close' })));
  for (const w of workers) {
    w.child.kill('SIGKILL');
    children.delete(w.child);
  }
}

/** One run: clients connect (idle memory measured), events flow at `rate` for `seconds`, then drain. */
async function run(sim, kind, transport, n, rate, seconds) {
  const server = await startServer(kind, sim, n);
  await sleep(500);
  const idle0 = proc(server.child.pid);
  const { workers, connected, failed } = await openClients(server, transport, n, Number(opt.procs));
  await sleep(1500);
  const idle1 = proc(server.child.pid);
  await take(workers);
  const before = proc(server.child.pid);
  const t0 = performance.now();
  await sim.call({ cmd: 'load', rate });
  await sleep(seconds * 1000);
  const { fired } = await sim.call({ cmd: 'stop' });
  // Let what was sent arrive (bounded), so deliveries and CPU cover the same events.
  const expected = fired * connected;
  let got = await take(workers);
  const lat = got.latencies.slice();
  let delivered = got.count;
  const drainEnd = Date.now() + 15_000;
  while (delivered < expected && Date.now() < drainEnd) {
    await sleep(200);
    got = await take(workers);
    delivered += got.count;
    for (const x of got.latencies) lat.push(x);
  }
  const elapsed = (performance.now() - t0) / 1000;
  const after = proc(server.child.pid);
  // The bridge's own view: from an event's arrival on its bus to the write to the socket.
  const inside =
    kind === 'bridge' || kind === 'before'
      ? (await (await fetch(`http://${HOST}:${server.port}/api/sse/metrics`, { headers: { authorization: `Bearer ${server.token}` } })).json()).data.metrics
          .latency
      : undefined;
  await closeClients(workers);
  await stopServer(server);
  const cpuUs = after.cpuUs - before.cpuUs;
  return {
    kind,
    transport,
    n,
    rate,
    connected,
    failed,
    fired,
    delivered,
    lost: Math.max(0, expected - delivered),
    perSecond: delivered / elapsed,
    usPerDelivery: delivered ? cpuUs / delivered : NaN,
    usPerEvent: fired ? cpuUs / fired : NaN,
    p50: quantile(lat, 0.5),
    p99: quantile(lat, 0.99),
    insideP99: inside?.p99,
    rssPerConn: connected ? (idle1.rss - idle0.rss) / connected : NaN,
  };
}

/** Several runs of one configuration as one row: each figure's median, and the p99s of every run. */
function medianRow(rows) {
  if (rows.length === 1) return rows[0];
  const m = (k) => median(rows.map((r) => r[k]).filter((x) => x !== undefined));
  return {
    ...rows[0],
    connected: Math.min(...rows.map((r) => r.connected)),
    failed: Math.max(...rows.map((r) => r.failed)),
    delivered: m('delivered'),
    lost: m('lost'),
    perSecond: m('perSecond'),
    usPerDelivery: m('usPerDelivery'),
    usPerEvent: m('usPerEvent'),
    p50: m('p50'),
    p99: m('p99'),
    insideP99: m('insideP99'),
    rssPerConn: m('rssPerConn'),
    p99s: rows.map((r) => r.p99),
  };
}

/** RSS of a process once it stops moving (at most `seconds`), sampled every second. */
async function settledRss(pid, seconds) {
  let last = proc(pid).rss;
  for (let s = 0; s < seconds; s++) {
    await sleep(1000);
    last = proc(pid).rss;
  }
  return last;
}

/** Idle connections: RSS per connection 1.5 s after they connected, and after `settle` s. */
async function idleRun(kind, transport, n) {
  const server = await startServer(kind, undefined, n);
  const limit = openFilesLimit(server.child.pid);
  const settle = Number(opt.settle);
  const rss0 = await settledRss(server.child.pid, settle);
  const { workers, connected, failed } = await openClients(server, transport, n, Number(opt.procs));
  await sleep(1500);
  const early = proc(server.child.pid).rss;
  const late = await settledRss(server.child.pid, settle);
  await closeClients(workers);
  await stopServer(server);
  return { kind, transport, n, connected, failed, limit, early: (early - rss0) / connected, late: (late - rss0) / connected };
}

const LABEL = { bridge: 'bridge', before: 'bridge before', uws: 'bare uWS', peer: 'node:http + ws' };
const f = (x, d = 1) => (Number.isFinite(x) ? x.toLocaleString('en-US', { maximumFractionDigits: d, minimumFractionDigits: d }) : 'n/a');
const servers = list(opt.servers ?? (baseline ? 'bridge,before,uws,peer' : 'bridge,uws,peer'));
if (servers.includes('before') && !baseline) {
  console.error('bench:events: the server "before" needs --baseline DIR');
  process.exit(2);
}
const isBridge = (kind) => kind === 'bridge' || kind === 'before';

console.log(`Node ${process.version}; bridge flags: ${nodeFlags.length ? nodeFlags.join(' ') : '(none)'}; open-files limit ${openFilesLimit()}`);

if (!opt['skip-fanout']) {
  const sim = await startSim();
  const results = [];
  const clientCounts = list(opt.clients).map(Number);
  const repeat = Number(opt.repeat);
  for (const transport of list(opt.transports)) {
    const configs = [
      ...clientCounts.map((n) => ({ n, rate: Number(opt.rate), burst: false })),
      { n: clientCounts[0], rate: Number(opt['burst-rate']), burst: true },
    ];
    for (const c of configs) {
      for (const kind of servers) {
        // The repeats go to the figure whose median the goal names: the first client count at the base rate.
        const times = isBridge(kind) && c.n === clientCounts[0] && !c.burst ? repeat : 1;
        const rows = [];
        for (let i = 0; i < times; i++) {
          log(`${LABEL[kind]} ${transport}: ${c.n} clients, ${c.rate} events/s${c.burst ? ' (burst)' : ''}${times > 1 ? `, run ${i + 1} of ${times}` : ''}`);
          rows.push(await run(sim, kind, transport, c.n, c.rate, c.burst ? Math.max(3, Number(opt.seconds) / 2) : Number(opt.seconds)));
        }
        results.push({ ...medianRow(rows), burst: c.burst });
      }
    }
  }
  await sim.call({ cmd: 'stop' });

  console.log('\n### Fan-out\n');
  console.log(
    '| server | transport | clients | events/s | connected | deliveries/s | undelivered 15 s after | CPU µs / delivery | CPU µs / event | p50 ms | p99 ms | p99 inside the bridge ms | RSS / connection 1.5 s after connecting |',
  );
  console.log('|---|---|---|---|---|---|---|---|---|---|---|---|---|');
  for (const r of results) {
    const p99 = r.p99s ? `${f(r.p99)} (${r.p99s.map((x) => f(x)).join(', ')})` : f(r.p99);
    console.log(
      `| ${LABEL[r.kind]} | ${r.transport} | ${r.n.toLocaleString('en-US')} | ${r.rate}${r.burst ? ' (burst)' : ''} | ${r.connected.toLocaleString('en-US')}${r.failed ? ` (${r.failed} refused)` : ''} | ${f(r.perSecond, 0)} | ${Math.round(r.lost).toLocaleString('en-US')} | ${f(r.usPerDelivery, 2)} | ${f(r.usPerEvent, 0)} | ${f(r.p50)} | ${p99} | ${r.insideP99 === undefined ? '' : f(r.insideP99, 2)} | ${f(r.rssPerConn / 1024, 2)} KiB |`,
    );
  }
  const ratio = results
    .filter((r) => isBridge(r.kind))
    .map((r) => {
      const bare = results.find((b) => b.kind === 'uws' && b.transport === r.transport && b.n === r.n && !!b.burst === !!r.burst);
      return bare
        ? `| ${LABEL[r.kind]} | ${r.transport} | ${r.n.toLocaleString('en-US')}${r.burst ? ' (burst)' : ''} | ${f(r.usPerDelivery / bare.usPerDelivery, 2)} |`
        : undefined;
    })
    .filter(Boolean);
  if (ratio.length) {
    console.log('\n| server | transport | clients | CPU per delivery ÷ bare uWS |');
    console.log('|---|---|---|---|');
    for (const line of ratio) console.log(line);
  }
}

if (!opt['skip-idle']) {
  // The server needs a descriptor per connection and a few of its own.
  const n = Math.min(Number(opt.idle), openFilesLimit() - 128);
  const rows = [];
  for (const transport of list(opt.transports)) {
    for (const kind of servers) {
      log(`idle: ${LABEL[kind]} ${transport}, ${n} connections`);
      rows.push(await idleRun(kind, transport, n));
    }
  }
  console.log(
    `\n### Idle connections (${Number(opt.idle).toLocaleString('en-US')} asked; the open-files limit is ${openFilesLimit().toLocaleString('en-US')} per process)\n`,
  );
  console.log(`| server | transport | connections | RSS / connection 1.5 s after | RSS / connection ${opt.settle} s after | open-files limit |`);
  console.log('|---|---|---|---|---|---|');
  for (const r of rows)
    console.log(
      `| ${LABEL[r.kind]} | ${r.transport} | ${r.connected.toLocaleString('en-US')}${r.failed ? ` (${r.failed} refused)` : ''} | ${f(r.early / 1024, 2)} KiB | ${f(r.late / 1024, 2)} KiB | ${r.limit.toLocaleString('en-US')} |`,
    );
}

if (!opt['skip-history']) {
  const rows = [];
  for (const kind of servers.filter(isBridge)) {
    for (const streams of [0, 100]) {
      log(`history (${LABEL[kind]}): ${opt['history-events']} events through the bridge's bus, ${streams} SSE clients reading`);
      const prof = opt['cpu-prof'] ? ['--cpu-prof', `--cpu-prof-dir=${opt['cpu-prof']}`, `--cpu-prof-name=history-${kind}-${streams}.cpuprofile`] : [];
      const child = fork(join(here, 'history.mjs'), [opt['history-events'], String(streams), BUILD[kind]], {
        stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
        execArgv: [...nodeFlags, ...prof],
      });
      children.add(child);
      rows.push({ kind, ...(await new Promise((resolve) => child.once('message', resolve))) });
      // Its CPU profile, if asked for, is written as it exits.
      if (child.exitCode === null) await new Promise((resolve) => child.once('exit', resolve));
    }
  }
  console.log('\n### History\n');
  console.log(
    '| build | events | streams reading | stored | lost | events persisted / s | process CPU µs / event | deliveries | missing | streams cut | drained in s after the last stored |',
  );
  console.log('|---|---|---|---|---|---|---|---|---|---|---|');
  for (const h of rows)
    console.log(
      `| ${LABEL[h.kind]} | ${h.events.toLocaleString('en-US')} | ${h.streams} | ${h.stored.toLocaleString('en-US')} | ${(h.events - h.stored).toLocaleString('en-US')} | ${f(h.perSecond, 0)} | ${f(h.cpuPerEvent, 1)} | ${h.delivered.toLocaleString('en-US')} of ${(h.events * h.streams).toLocaleString('en-US')} | ${(h.events * h.streams - h.delivered).toLocaleString('en-US')} | ${h.ended ?? ''} | ${h.drainSeconds === undefined ? '' : f(h.drainSeconds, 1)} |`,
    );
}
process.exit(0);
