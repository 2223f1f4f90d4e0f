#!/usr/bin/env node
// bench/events: fan-out of hub events to many SSE and WebSocket clients, the bridge beside a bare
// uWebSockets.js broadcast and a node:http + `ws` baseline (what peer bridges write), fed by the
// same simulated hub, with the same load clients (separate processes). Then the history's write
// rate with fan-out running. Prints markdown tables. `npm run bench:events -- --help`.
import { fork, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
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
    servers: { type: 'string', default: 'bridge,uws,peer' },
    transports: { type: 'string', default: 'sse,ws' },
    procs: { type: 'string', default: '4' },
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
  --servers LIST      bridge,uws,peer (default all)
  --transports LIST   sse,ws (default both)
  --procs N           load client processes (default 4)
  --history-events N  events of the history run (default 200000); --skip-history skips it
  --cpu-prof DIR      write a CPU profile of each bridge run into DIR
`);
  process.exit(0);
}
if (!existsSync(join(root, 'dist', 'src', 'main.js'))) {
  console.error('bench:events: dist/ is missing: run `npm run bench:events` (it builds first)');
  process.exit(2);
}

const { children, work } = ownedChildren({ scratchPrefix: 'bench-events-' });
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const log = (m) => process.stderr.write(`bench:events: ${m}\n`);
const list = (s) => s.split(',').map((x) => x.trim()).filter(Boolean);

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

async function startServer(kind, sim, maxClients) {
  const port = await freePort();
  if (kind === 'bridge') {
    const env = {
      PATH: process.env.PATH,
      PORT: String(port),
      HOST,
      DATA_DIR: join(work, `data-${port}`),
      HASS_URL: sim.url,
      HASS_TOKEN: sim.token,
      AUTH_USERNAME: 'bench',
      AUTH_PASSWORD: 'bench-password',
      LOG_LEVEL: 'warn',
      RATE_LIMIT_MAX: '0',
      EVENT_SUB_RATE_LIMIT: '0',
      EVENT_SUB_MAX_SUBSCRIPTIONS: String(maxClients + 100),
      SSE_MAX_CONNECTIONS: String(maxClients + 100),
    };
    const prof = opt['cpu-prof'] ? ['--cpu-prof', `--cpu-prof-dir=${opt['cpu-prof']}`] : [];
    const child = spawn(process.execPath, [...prof, 'dist/src/main.js'], { cwd: root, env, stdio: ['ignore', 'ignore', 'inherit'] });
    children.add(child);
    await waitHttp(`http://${HOST}:${port}/health`);
    const res = await fetch(`http://${HOST}:${port}/auth/token`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'bench', password: 'bench-password' }) });
    const { access_token: token } = await res.json();
    for (let i = 0; i < 100 && !(await (await fetch(`http://${HOST}:${port}/health`)).json()).hub.connected; i++) await sleep(100);
    return { child, port, token, sse: '/api/events/stream', ws: '/api/ws', subscribe: JSON.stringify({ type: 'subscribe_events' }) };
  }
  const child = fork(join(here, 'baseline-server.mjs'), [kind, String(port), sim.url, sim.token], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
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
    child.send({ cmd: 'open', host: HOST, port: server.port, transport, path: transport === 'sse' ? server.sse : server.ws, token: server.token, subscribe: server.subscribe, count, offset: p * per, sampleEvery: Math.max(1, Math.floor(n / 200)) });
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
  const inside = kind === 'bridge' ? (await (await fetch(`http://${HOST}:${server.port}/api/sse/metrics`, { headers: { authorization: `Bearer ${server.token}` } })).json()).data.metrics.latency : undefined;
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

const LABEL = { bridge: 'bridge', uws: 'bare uWS', peer: 'node:http + ws' };
const f = (x, d = 1) => (Number.isFinite(x) ? x.toLocaleString('en-US', { maximumFractionDigits: d, minimumFractionDigits: d }) : 'n/a');

const sim = await startSim();
const results = [];
const clientCounts = list(opt.clients).map(Number);
for (const transport of list(opt.transports)) {
  for (const n of clientCounts) {
    for (const kind of list(opt.servers)) {
      log(`${LABEL[kind]} ${transport}: ${n} clients, ${opt.rate} events/s for ${opt.seconds} s`);
      results.push(await run(sim, kind, transport, n, Number(opt.rate), Number(opt.seconds)));
    }
  }
  const n = clientCounts[0];
  for (const kind of list(opt.servers)) {
    log(`${LABEL[kind]} ${transport}: burst, ${n} clients, ${opt['burst-rate']} events/s`);
    results.push({ ...(await run(sim, kind, transport, n, Number(opt['burst-rate']), Math.max(3, Number(opt.seconds) / 2))), burst: true });
  }
}

console.log('\n### Fan-out\n');
console.log('| server | transport | clients | events/s | connected | deliveries/s | undelivered 15 s after | CPU µs / delivery | CPU µs / event | p50 ms | p99 ms | p99 inside the bridge ms | idle RSS / connection |');
console.log('|---|---|---|---|---|---|---|---|---|---|---|---|---|');
for (const r of results) {
  console.log(`| ${LABEL[r.kind]} | ${r.transport} | ${r.n.toLocaleString('en-US')} | ${r.rate}${r.burst ? ' (burst)' : ''} | ${r.connected.toLocaleString('en-US')}${r.failed ? ` (${r.failed} refused)` : ''} | ${f(r.perSecond, 0)} | ${r.lost.toLocaleString('en-US')} | ${f(r.usPerDelivery, 2)} | ${f(r.usPerEvent, 0)} | ${f(r.p50)} | ${f(r.p99)} | ${r.insideP99 === undefined ? '' : f(r.insideP99, 2)} | ${f(r.rssPerConn / 1024, 2)} KiB |`);
}
const ratio = results.filter((r) => r.kind === 'bridge').map((r) => {
  const bare = results.find((b) => b.kind === 'uws' && b.transport === r.transport && b.n === r.n && !!b.burst === !!r.burst);
  return bare ? `| ${r.transport} | ${r.n.toLocaleString('en-US')}${r.burst ? ' (burst)' : ''} | ${f(r.usPerDelivery / bare.usPerDelivery, 2)} |` : undefined;
}).filter(Boolean);
if (ratio.length) {
  console.log('\n| transport | clients | bridge CPU per delivery ÷ bare uWS |');
  console.log('|---|---|---|');
  for (const line of ratio) console.log(line);
}

await sim.call({ cmd: 'stop' });
if (!opt['skip-history']) {
  const rows = [];
  for (const streams of [0, 100]) {
    log(`history: ${opt['history-events']} events through the bridge's event hub, ${streams} SSE clients reading`);
    const child = fork(join(here, 'history.mjs'), [opt['history-events'], String(streams)], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    children.add(child);
    rows.push(await new Promise((resolve) => child.once('message', resolve)));
  }
  console.log('\n### History\n');
  console.log('| events | streams reading | stored | lost | events persisted / s | deliveries |');
  console.log('|---|---|---|---|---|---|');
  for (const h of rows) console.log(`| ${h.events.toLocaleString('en-US')} | ${h.streams} | ${h.stored.toLocaleString('en-US')} | ${(h.events - h.stored).toLocaleString('en-US')} | ${f(h.perSecond, 0)} | ${h.delivered.toLocaleString('en-US')} |`);
}
process.exit(0);
