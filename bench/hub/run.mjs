#!/usr/bin/env node
// bench/hub: the bridge ingesting state_changed events from the hub simulator at rising rates.
// The simulator (sim-worker.mjs) and the bridge (dist/src/main.js, HASS_URL at the simulator) run as
// separate processes; this one only orchestrates and samples. Prints markdown tables.
// Run with `npm run bench:hub` (builds dist/ first); options: node bench/hub/run.mjs --help
import { fork, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { ownedChildren } from '../lib/processes.mjs';
import { quantile } from '../lib/stats.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));
const HOST = '127.0.0.1';
const USER = 'bench';
const PASSWORD = 'bench-password-1';
const CLOCK = 'sensor.bench_clock';

const { values: opt } = parseArgs({
  options: {
    rates: { type: 'string', default: '1000,2500,5000,7500,10000,15000,20000' },
    probe: { type: 'string', default: '10' },
    hold: { type: 'string', default: '60' },
    entities: { type: 'string', default: '1000' },
    'big-home': { type: 'string', default: '5000' },
    'settle-max': { type: 'string', default: '30' },
    'compare-env': { type: 'string', default: 'MALLOC_TRIM_THRESHOLD_=131072' },
    'bridge-env': { type: 'string', default: '' },
    'max-lag': { type: 'string', default: '1000' },
    'flat-mb': { type: 'string', default: '3' },
    'keep-going': { type: 'boolean', default: false },
    'no-rss': { type: 'boolean', default: false },
    'no-hold': { type: 'boolean', default: false },
    'cpu-prof': { type: 'string' },
    csv: { type: 'string' },
    help: { type: 'boolean', default: false },
  },
});
if (opt.help) {
  process.stdout.write(`usage: node bench/hub/run.mjs [options]
  --rates LIST      probe rates in state_changed events/s, ascending (default 1000,2500,5000,7500,10000,15000,20000)
  --probe S         seconds per probe rate (default 10)
  --hold S          seconds to hold the highest passing rate while sampling memory (default 60; 0 skips)
  --entities N      load entities the generator cycles through (default 1000)
  --big-home N      entities in the generated large home for the idle RSS figure (default 5000)
  --settle-max S    idle RSS: wait up to S for V8's idle heap shrink (a 'Mark-Compact (reduce)')
                    before taking the settled figure (default 30)
  --compare-env L   idle RSS: also measure the large home with these extra bridge variables,
                    comma list of K=V (default MALLOC_TRIM_THRESHOLD_=131072; '' skips)
  --bridge-env L    extra variables for every bridge process, comma list of K=V
  --max-lag MS      a rate passes while the bridge stays within MS of the hub (default 1000)
  --flat-mb MB      memory is flat when the last third's mean RSS is within MB of the middle third's (default 3)
  --keep-going      probe every rate, not only up to the first that fails
  --no-rss          skip the idle RSS figures (demo home and large home)
  --no-hold         skip the hold
  --csv FILE        write the hold's per-second samples (s, RSS MB, heap after last GC MB, heap after
                    last full GC MB) to FILE
  --cpu-prof DIR    run the bridge and the simulator of the probes and the hold under node --cpu-prof
                    (profiles in DIR/run-<time>/) and print their hottest functions; figures taken
                    so are not comparable
`);
  process.exit(0);
}

function fail(message) {
  process.stderr.write(`bench:hub: ${message}\n`);
  process.exit(2);
}
const num = (name, min) => {
  const n = Number(opt[name]);
  if (!Number.isFinite(n) || n < min) fail(`--${name} must be a number of at least ${min}, not ${opt[name]}`);
  return n;
};
const rates = opt.rates.split(',').map((s) => Number(s.trim()));
if (!rates.length || rates.some((r) => !(r > 0))) fail(`--rates must be a comma list of positive numbers, not ${opt.rates}`);
rates.sort((a, b) => a - b);
const probeS = num('probe', 2);
const holdS = opt['no-hold'] ? 0 : num('hold', 0);
const loadEntities = num('entities', 1);
const bigHome = num('big-home', 1);
const settleMaxS = num('settle-max', 5);
const envList = (text, name) =>
  Object.fromEntries(
    text
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean)
      .map((kv) => {
        const i = kv.indexOf('=');
        if (i < 1) fail(`--${name}: ${kv} is not K=V`);
        return [kv.slice(0, i), kv.slice(i + 1)];
      }),
  );
const compareEnv = envList(opt['compare-env'], 'compare-env');
const bridgeEnv = envList(opt['bridge-env'], 'bridge-env');
const maxLagMs = num('max-lag', 1);
const flatMb = num('flat-mb', 0);
// A folder per run, so the summary never mixes in an earlier run's profiles.
const profDir = opt['cpu-prof'] ? join(resolve(opt['cpu-prof']), `run-${Date.now()}`) : undefined;
if (profDir) mkdirSync(profDir, { recursive: true });

if (!existsSync('/proc/self/status')) fail('reads memory and CPU figures from /proc, so it runs on Linux only.');
if (!existsSync(join(root, 'dist', 'src', 'main.js'))) fail('dist/ is missing: run `npm run bench:hub` (it builds first) or `npm run build`.');

const { children, work } = ownedChildren({ scratchPrefix: 'bench-hub-' });

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const mean = (xs) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : NaN);
const f0 = (x) => (Number.isFinite(x) ? Math.round(x).toLocaleString('en-US') : 'n/a');
const f1 = (x) => (Number.isFinite(x) ? x.toFixed(1) : 'n/a');
const log = (m) => process.stderr.write(`bench:hub: ${m}\n`);

// --- processes -----------------------------------------------------------------------------------

/** RSS and peak RSS (MB) and CPU time (s) of a process, from /proc. */
function proc(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (key) => Number(new RegExp(`^${key}:\\s+(\\d+)`, 'm').exec(status)?.[1] ?? NaN);
  // Fields after the parenthesised command name; utime and stime are the 12th and 13th of them.
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticks = Number(rest[11]) + Number(rest[12]);
  return { rss: kb('VmRSS') / 1024, hwm: kb('VmHWM') / 1024, cpu: ticks / 100 };
}

/** CPU seconds the whole machine has been busy (all cores), from /proc/stat. */
function machineBusy() {
  const [, ...f] = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).map(Number);
  // user nice system idle iowait irq softirq steal: busy is all but idle and iowait.
  return (f.slice(0, 8).reduce((a, b) => a + b, 0) - f[3] - f[4]) / 100;
}

function freePort() {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, HOST, () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

async function startSim(home, profile = false) {
  const execArgv = profile && profDir ? ['--cpu-prof', `--cpu-prof-dir=${join(profDir, 'sim')}`] : [];
  const child = fork(join(root, 'bench', 'hub', 'sim-worker.mjs'), [], { execArgv, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  children.add(child);
  const pending = new Map();
  let nextId = 0;
  await new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`the simulator exited (${code}) before it was ready`)));
    child.on('message', (m) => {
      if (m.ready) return resolve();
      const p = pending.get(m.id);
      pending.delete(m.id);
      if (m.ok) p?.resolve(m.value);
      else p?.reject(new Error(`simulator: ${m.error}`));
    });
  });
  const call = (cmd, args) =>
    new Promise((resolve, reject) => {
      const id = nextId++;
      pending.set(id, { resolve, reject });
      child.send({ id, cmd, args });
    });
  const info = await call('start', { home });
  const stop = async () => {
    const exited = new Promise((r) => child.once('exit', r));
    await call('stop').catch(() => {});
    await exited;
    children.delete(child);
  };
  return { pid: child.pid, call, stop, ...info };
}

/** Heap figures from the bridge's --trace-gc lines: used after the latest GC, and after the latest full GC. */
const GC_LINE = /(Scavenge|Mark-Compact|Mark-Sweep|Minor Mark-Sweep)\b.*?([\d.]+) \(([\d.]+)\) -> ([\d.]+) \(([\d.]+)\) MB, ([\d.]+) \//;

async function startBridge(sim, label, extraEnv = {}, profile = false) {
  const port = await freePort();
  const env = {
    PATH: process.env.PATH,
    HOME: process.env.HOME ?? work,
    PORT: String(port),
    HOST,
    DATA_DIR: join(work, `data-${label}`),
    HASS_URL: sim.url,
    HASS_TOKEN: sim.token,
    AUTH_USERNAME: USER,
    AUTH_PASSWORD: PASSWORD,
    LOG_LEVEL: 'warn',
    RATE_LIMIT_MAX: '0',
    ...bridgeEnv,
    ...extraEnv,
  };
  const args = ['--trace-gc', ...(profile && profDir ? ['--cpu-prof', `--cpu-prof-dir=${join(profDir, 'bridge')}`] : []), 'dist/src/main.js'];
  const spawned = performance.now();
  const child = spawn(process.execPath, args, { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
  children.add(child);
  const gc = { after: NaN, fullAfter: NaN, pauseMs: 0, count: 0, reduces: 0 };
  const logLines = [];
  let reconnects = 0;
  let tail = '';
  const onData = (d) => {
    const text = tail + d;
    const lines = text.split('\n');
    tail = lines.pop();
    for (const line of lines) {
      const m = GC_LINE.exec(line);
      if (m) {
        gc.after = Number(m[4]);
        if (m[1] === 'Mark-Compact') gc.fullAfter = Number(m[4]);
        if (/Mark-Compact \(reduce\)/.test(line)) gc.reduces++;
        gc.pauseMs += Number(m[6]);
        gc.count++;
        continue;
      }
      if (/hub connection lost/.test(line)) reconnects++;
      logLines.push(line);
      if (logLines.length > 50) logLines.shift();
    }
  };
  child.stdout.on('data', onData);
  child.stderr.on('data', (d) => logLines.push(String(d)));
  let exited = false;
  child.once('exit', () => (exited = true));
  const base = `http://${HOST}:${port}`;
  const until = Date.now() + 60_000;
  for (;;) {
    if (exited) throw new Error(`the bridge exited before it was ready:\n${logLines.join('\n')}`);
    try {
      if ((await (await fetch(`${base}/health`)).json()).status === 'healthy') break;
    } catch {
      // not listening yet
    }
    if (Date.now() > until) throw new Error(`the bridge was not synced with the hub within 60 s:\n${logLines.join('\n')}`);
    await sleep(50);
  }
  const syncS = (performance.now() - spawned) / 1000;
  // Logging in costs memory of its own (scrypt), so it waits until a caller needs the API.
  let token;
  const login = async () => {
    const res = await fetch(`${base}/auth/token`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ username: USER, password: PASSWORD }),
    });
    token = (await res.json()).access_token;
  };
  const get = async (path) => {
    if (!token) await login();
    const r = await fetch(`${base}${path}`, { headers: { Authorization: `Bearer ${token}` } });
    if (r.status !== 200) throw new Error(`GET ${path} answered ${r.status}: ${await r.text()}`);
    return r.json();
  };
  const stop = async () => {
    child.kill('SIGTERM');
    await new Promise((r) => (exited ? r() : child.once('exit', r)));
    children.delete(child);
  };
  return { pid: child.pid, get, login, stop, gc, syncS, reconnects: () => reconnects, logs: logLines };
}

/** The bridge's own count of state_changed received, if it reports one (see the README). */
async function bridgeCount(bridge) {
  const cfg = await bridge.get('/api/config');
  const n = cfg.hub?.events?.state_changed;
  return typeof n === 'number' ? n : undefined;
}

/** Sets a marker state in the hub and waits until the bridge holds it: everything fired before it has arrived. */
async function drain(sim, bridge, value, timeoutMs = 60_000) {
  const t = performance.now();
  await sim.call('marker', { value });
  for (;;) {
    const s = await bridge.get(`/api/state/${CLOCK}`);
    if (s.state === value) return performance.now() - t;
    if (performance.now() - t > timeoutMs) return Infinity;
    await sleep(20);
  }
}

/** Samples until stopped: event lag (bridge's copy of the clock vs now) every 250 ms, RSS and heap every second. */
function sampler(bridge) {
  const lag = [];
  const mem = [];
  const errors = [];
  let running = true;
  const started = performance.now();
  const lagLoop = (async () => {
    while (running) {
      try {
        const s = await bridge.get(`/api/state/${CLOCK}`);
        const v = Number(s.state);
        if (Number.isFinite(v) && v > 1e12) lag.push({ t: (performance.now() - started) / 1000, ms: Date.now() - v });
      } catch (err) {
        errors.push(String(err));
      }
      await sleep(250);
    }
  })();
  const memLoop = (async () => {
    while (running) {
      const p = proc(bridge.pid);
      mem.push({ t: (performance.now() - started) / 1000, rss: p.rss, heap: bridge.gc.after, fullHeap: bridge.gc.fullAfter });
      await sleep(1000);
    }
  })();
  return {
    lag,
    mem,
    errors,
    async stop() {
      running = false;
      await Promise.all([lagLoop, memLoop]);
    },
  };
}

/**
 * Runs the load at one rate for seconds, then stops it and checks that the bridge got every event:
 * each load entity's last value (a per-entity counter) matches the hub's, the bridge's count matches
 * the hub's when the bridge reports one, and the connection never dropped.
 */
async function runRate(sim, bridge, rate, seconds, tag) {
  const prefix = `load_${tag}_`;
  await drain(sim, bridge, `before-${tag}`);
  const counted0 = await bridgeCount(bridge);
  const sent0 = (await sim.call('counts')).stateChanged;
  const reconnects0 = bridge.reconnects();
  const b0 = proc(bridge.pid);
  const s0 = proc(sim.pid);
  const gc0 = { ...bridge.gc };
  const m0 = machineBusy();
  const { started } = await sim.call('load', { entities: loadEntities, rate, prefix });
  const samples = sampler(bridge);
  await sleep(seconds * 1000);
  const end = await sim.call('stopLoad');
  await samples.stop();
  const drainMs = await drain(sim, bridge, `after-${tag}`);
  const b1 = proc(bridge.pid);
  const s1 = proc(sim.pid);
  const m1 = machineBusy();
  const counts = await sim.call('counts');
  const counted1 = await bridgeCount(bridge);
  const sent = counts.stateChanged - sent0;
  const counted = counted0 === undefined || counted1 === undefined ? undefined : counted1 - counted0;

  const held = new Map((await bridge.get('/api/state?domain=sensor')).map((s) => [s.entity_id, s.state]));
  let mismatched = 0;
  for (const [id, value] of Object.entries(end.values)) if (held.get(id) !== value) mismatched++;
  await sim.call('removeLoad');
  await drain(sim, bridge, `removed-${tag}`);

  if (samples.errors.length) log(`${tag}: ${samples.errors.length} lag sample(s) failed, first: ${samples.errors[0]}`);
  if (counts.problems.length) log(`${tag}: the simulator logged:\n${counts.problems.slice(0, 10).join('\n')}`);
  const elapsedS = (end.t - started) / 1000;
  const achieved = end.fired / elapsedS;
  const lagMs = samples.lag.map((x) => x.ms);
  // The first second is the pipeline filling; judge the rest.
  const settled = samples.lag.filter((x) => x.t >= 1).map((x) => x.ms);
  const reconnects = bridge.reconnects() - reconnects0;
  const lost = mismatched > 0 || reconnects > 0 || counts.connections !== 1 || (counted !== undefined && counted !== sent);
  const keptUp = Math.max(...settled) <= maxLagMs && drainMs <= maxLagMs;
  const generated = achieved >= 0.97 * rate;
  return {
    rate,
    seconds: elapsedS,
    fired: end.fired,
    achieved,
    sent,
    counted,
    mismatched,
    reconnects,
    simProblems: counts.problems,
    bridgeCpu: (100 * (b1.cpu - b0.cpu)) / ((end.t - started) / 1000 + drainMs / 1000),
    simCpu: (100 * (s1.cpu - s0.cpu)) / ((end.t - started) / 1000 + drainMs / 1000),
    // Everything else the machine ran meanwhile (other programs, this process): CPU the two measured could not use.
    otherCpu: (100 * (m1 - m0 - (b1.cpu - b0.cpu) - (s1.cpu - s0.cpu))) / ((end.t - started) / 1000 + drainMs / 1000),
    gcPauseShare: (100 * (bridge.gc.pauseMs - gc0.pauseMs)) / 1000 / elapsedS,
    lag: { p50: quantile(lagMs, 0.5), p99: quantile(lagMs, 0.99), max: Math.max(...lagMs) },
    drainMs,
    rss: b1.rss,
    mem: samples.mem,
    lost,
    keptUp,
    generated,
    pass: !lost && keptUp && generated,
  };
}

// --- the runs ------------------------------------------------------------------------------------

const machine = `${os.cpus()[0]?.model?.trim() ?? 'unknown CPU'}, ${os.availableParallelism()} cores, ${Math.round(os.totalmem() / 1024 ** 3)} GB, Node ${process.version}, ${os.platform()} ${os.release()}`;
const load0 = os.loadavg()[0];
log(`machine: ${machine}; load average ${load0.toFixed(2)}`);
if (load0 > 1) log('warning: the machine is busy (load average above 1); figures will be lower than on a quiet machine');

const started = Date.now();
/**
 * Idle RSS: V8 keeps the sync's garbage until its memory reducer runs a 'Mark-Compact (reduce)'
 * some seconds into idleness, so the settled figure is taken after one (or after --settle-max).
 */
async function settle(bridge, waitForReduce) {
  const reduces = bridge.gc.reduces;
  const t = performance.now();
  while (waitForReduce && bridge.gc.reduces === reduces && performance.now() - t < settleMaxS * 1000) await sleep(250);
  const reduced = !waitForReduce || bridge.gc.reduces > reduces;
  await sleep(waitForReduce ? 1000 : 3000);
  const rss = [];
  for (let i = 0; i < 3; i++) {
    rss.push(proc(bridge.pid).rss);
    await sleep(1000);
  }
  return { rss: quantile(rss, 0.5), reduced, heap: bridge.gc.after };
}

const idleRows = [];
if (!opt['no-rss']) {
  const cases = [{ home: 'demo', env: {} }, { home: bigHome, env: {} }, ...(Object.keys(compareEnv).length ? [{ home: bigHome, env: compareEnv }] : [])];
  for (const { home, env } of cases) {
    const envText = Object.entries({ ...bridgeEnv, ...env })
      .map(([k, v]) => `${k}=${v}`)
      .join(' ');
    log(`idle RSS: ${home === 'demo' ? 'demo home' : `${home}-entity home`}${envText ? ` with ${envText}` : ''}`);
    const sim = await startSim(home);
    const bridge = await startBridge(sim, `idle-${home}-${idleRows.length}`, env);
    try {
      const synced = proc(bridge.pid).rss;
      const before = await settle(bridge, true);
      // scrypt's memory is native, so no heap shrink follows; a few seconds show where RSS stays.
      await bridge.login();
      const after = await settle(bridge, false);
      const entities = (await bridge.get('/api/state?format=devices')).devices.length;
      idleRows.push({
        home: home === 'demo' ? 'demo' : `generated, ${home} entities`,
        env: envText,
        entities,
        syncS: bridge.syncS,
        synced,
        before,
        after,
        peak: proc(bridge.pid).hwm,
      });
    } finally {
      await bridge.stop();
      await sim.stop();
    }
  }
}

const probeRows = [];
let hold;
const holds = [];
if (rates.length) {
  const sim = await startSim('demo', true);
  const bridge = await startBridge(sim, 'load', {}, true);
  try {
    for (const rate of rates) {
      log(`probe: ${rate} events/s for ${probeS} s`);
      const r = await runRate(sim, bridge, rate, probeS, `p${rate}`);
      probeRows.push(r);
      if (!r.pass && !opt['keep-going']) break;
    }
    const passing = probeRows
      .filter((r) => r.pass)
      .map((r) => r.rate)
      .sort((a, b) => b - a);
    // The highest passing rate; if it does not hold (no loss, kept up, flat memory), once more one step down.
    for (const rate of holdS > 0 ? passing.slice(0, 2) : []) {
      log(`hold: ${rate} events/s for ${holdS} s`);
      const r = await runRate(sim, bridge, rate, holdS, `h${rate}`);
      const third = r.mem.length / 3;
      const mid = r.mem.slice(Math.floor(third), Math.floor(2 * third));
      const last = r.mem.slice(Math.floor(2 * third));
      r.midRss = mean(mid.map((m) => m.rss));
      r.lastRss = mean(last.map((m) => m.rss));
      r.flat = r.lastRss - r.midRss <= flatMb;
      r.slope = slope(r.mem.slice(Math.floor(third)).map((m) => [m.t, m.rss])) * 60;
      r.heapSlope =
        slope(
          r.mem
            .slice(Math.floor(third))
            .filter((m) => Number.isFinite(m.fullHeap))
            .map((m) => [m.t, m.fullHeap]),
        ) * 60;
      holds.push(r);
      if (r.pass && r.flat) {
        hold = r;
        break;
      }
    }
    if (bridge.reconnects() > 0)
      log(`the bridge lost its hub connection ${bridge.reconnects()} time(s); last log lines:\n${bridge.logs.slice(-10).join('\n')}`);
  } finally {
    await bridge.stop();
    await sim.stop();
  }
}

/** Least-squares slope of [x, y] points (y per x). */
function slope(points) {
  if (points.length < 2) return NaN;
  const mx = mean(points.map((p) => p[0]));
  const my = mean(points.map((p) => p[1]));
  let num = 0;
  let den = 0;
  for (const [x, y] of points) {
    num += (x - mx) * (y - my);
    den += (x - mx) ** 2;
  }
  return num / den;
}

// --- the tables ----------------------------------------------------------------------------------

const out = (s = '') => process.stdout.write(`${s}\n`);
const own = process.cpuUsage();
out(
  `\nbench:hub on ${machine}; simulator and bridge in separate processes sharing the ${os.availableParallelism()} cores (this orchestrating process used ${((own.user + own.system) / 1e6).toFixed(1)} s of CPU); ${new Date().toISOString().slice(0, 10)}, run took ${Math.round((Date.now() - started) / 1000)} s, load average at start ${load0.toFixed(2)}\n`,
);

if (idleRows.length) {
  out(
    `Idle bridge after sync. "Settled, no login yet": median of 3 s sampled once V8's idle heap shrink has run (* if it had not within ${settleMaxS} s); "after one login": median of 3 s sampled 3 s after POST /auth/token (scrypt, 16 MB of native memory on a libuv thread):\n`,
  );
  out(
    '| Home | extra bridge env | entities | sync s | RSS at sync MB | settled RSS MB, no login yet | settled RSS MB, after one login | peak RSS MB | V8 heap after last GC MB |',
  );
  out('|---|---|---:|---:|---:|---:|---:|---:|---:|');
  const star = (x) => `${f1(x.rss)}${x.reduced ? '' : '*'}`;
  for (const r of idleRows)
    out(
      `| ${r.home} | ${r.env ? `\`${r.env}\`` : '(none)'} | ${f0(r.entities)} | ${r.syncS.toFixed(2)} | ${f1(r.synced)} | ${star(r.before)} | ${star(r.after)} | ${f1(r.peak)} | ${f1(r.after.heap)} |`,
    );
  out();
}

const lostCell = (r) => {
  const parts = [`${r.mismatched}/${loadEntities} last values differ`];
  parts.push(r.counted === undefined ? `bridge count n/a (hub fired ${f0(r.sent)})` : `bridge counted ${f0(r.counted)} of ${f0(r.sent)}`);
  if (r.reconnects) parts.push(`${r.reconnects} reconnect(s)`);
  return parts.join('; ');
};
const verdict = (r) => (r.pass ? 'pass' : [!r.generated && 'generator short', !r.keptUp && 'fell behind', r.lost && 'events lost'].filter(Boolean).join(', '));

if (probeRows.length) {
  out(
    `Probes (${probeS} s each, ${loadEntities} load entities; CPU % of one core; "other" is every other process on the machine, this one included; lag = now minus the hub time carried by the bridge's copy of a clock entity the hub sets every 20 ms, sampled every 250 ms; drain = from the load's end until the bridge holds a marker state set after it; pass: generator within 3 % of the rate, lag after the first second and drain at most ${maxLagMs} ms, nothing lost):\n`,
  );
  out(
    '| Rate /s | achieved /s | bridge CPU % | sim CPU % | other CPU % | bridge GC % | lag p50 ms | lag p99 ms | lag max ms | drain ms | loss check | bridge RSS MB | result |',
  );
  out('|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---:|---|');
  for (const r of probeRows) {
    out(
      `| ${f0(r.rate)} | ${f0(r.achieved)} | ${f0(r.bridgeCpu)} | ${f0(r.simCpu)} | ${f0(Math.max(0, r.otherCpu))} | ${f1(r.gcPauseShare)} | ${f0(r.lag.p50)} | ${f0(r.lag.p99)} | ${f0(r.lag.max)} | ${f0(r.drainMs)} | ${lostCell(r)} | ${f1(r.rss)} | ${verdict(r)} |`,
    );
  }
  out();
}

if (holds.length) {
  out(
    `Hold (RSS and V8 heap sampled every second; flat: mean RSS of the last third within ${flatMb} MB of the middle third's; slopes over the last two thirds):\n`,
  );
  out(
    '| Rate /s | s | events | loss check | lag p50/p99/max ms | RSS start/middle/end MB | RSS mid→last third mean MB | RSS slope MB/min | heap after full GC first/last MB | heap slope MB/min | bridge / sim / other CPU % | result |',
  );
  out('|---:|---:|---:|---|---|---|---|---:|---|---:|---|---|');
  for (const r of holds) {
    const m = r.mem;
    const at = (i) => m[Math.min(m.length - 1, Math.max(0, i))];
    const full = m.filter((x) => Number.isFinite(x.fullHeap));
    out(
      `| ${f0(r.rate)} | ${f0(r.seconds)} | ${f0(r.fired)} | ${lostCell(r)} | ${f0(r.lag.p50)}/${f0(r.lag.p99)}/${f0(r.lag.max)} | ${f1(at(0).rss)}/${f1(at(Math.floor(m.length / 2)).rss)}/${f1(at(m.length - 1).rss)} | ${f1(r.midRss)}→${f1(r.lastRss)} | ${r.slope.toFixed(2)} | ${full.length ? `${f1(full[0].fullHeap)}/${f1(full[full.length - 1].fullHeap)}` : 'no full GC'} | ${f1(r.heapSlope)} | ${f0(r.bridgeCpu)} / ${f0(r.simCpu)} / ${f0(Math.max(0, r.otherCpu))} | ${r.pass ? (r.flat ? 'pass, flat' : 'pass, not flat') : verdict(r)} |`,
    );
  }
  out();
}

if (opt.csv && holds.length) {
  const rows = holds.flatMap((h) => h.mem.map((m) => [h.rate, m.t.toFixed(1), m.rss.toFixed(1), m.heap, m.fullHeap].join(',')));
  writeFileSync(resolve(opt.csv), `rate,s,rss_mb,heap_after_gc_mb,heap_after_full_gc_mb\n${rows.join('\n')}\n`);
}

const big = idleRows.find((r) => r.home !== 'demo' && !r.env);
if (holdS > 0 && rates.length) {
  const goal = holdS < 60 ? 'the goal needs a hold of 60 s' : `goal: at least 5,000/s: ${hold && hold.rate >= 5000 ? 'met' : 'not met'}`;
  out(`Highest rate held ${holdS} s with nothing lost and flat memory: ${hold ? `${f0(hold.rate)} events/s` : 'none'} (${goal}).`);
}
const busiest = Math.max(...[...probeRows, ...holds].map((r) => r.otherCpu));
if (busiest > 20) out(`Other processes used up to ${f0(busiest)}% of a core during the load: these are not a quiet machine's figures.`);
if (big) {
  const demo = idleRows.find((r) => r.home === 'demo' && !r.env);
  out(
    `Bridge RSS with a ${f0(big.entities)}-entity home, settled after one login: ${f1(big.after.rss)} MB (goal: under 120 MB: ${big.after.rss < 120 ? 'met' : 'not met'}; peak ${f1(big.peak)} MB${demo ? `; demo home ${f1(demo.after.rss)} MB` : ''}).`,
  );
}

if (profDir) {
  for (const who of ['bridge', 'sim']) {
    out(`\nHottest functions, ${who} (self time, all of its profiled run):\n`);
    out(profileSummary(join(profDir, who)));
  }
}

/** Self time per function over every .cpuprofile in dir, as shares of the busy (not idle) time. */
function profileSummary(dir) {
  const self = new Map();
  let files;
  try {
    files = readdirSync(dir).filter((f) => f.endsWith('.cpuprofile'));
  } catch {
    files = [];
  }
  if (!files.length) return '(no profile written)';
  for (const f of files) {
    const p = JSON.parse(readFileSync(join(dir, f), 'utf8'));
    const dt = new Map();
    // timeDeltas[i] is the time before samples[i]; charge it to that sample's node.
    p.samples.forEach((id, i) => {
      dt.set(id, (dt.get(id) ?? 0) + (p.timeDeltas[i] ?? 0));
    });
    for (const n of p.nodes) {
      const us = dt.get(n.id) ?? 0;
      if (!us) continue;
      const cf = n.callFrame;
      const where = cf.url ? `${cf.url.replace(/^file:\/\//, '').replace(root, '')}:${cf.lineNumber + 1}` : '';
      const key = `${cf.functionName || '(anonymous)'} ${where}`.trim();
      self.set(key, (self.get(key) ?? 0) + us);
    }
  }
  const idle = self.get('(idle)') ?? 0;
  self.delete('(idle)');
  const busy = [...self.values()].reduce((a, b) => a + b, 0);
  const rows = [...self].sort((a, b) => b[1] - a[1]).slice(0, 15);
  return [
    `busy ${f0(busy / 1000)} ms of ${f0((busy + idle) / 1000)} ms profiled\n`,
    '| Function | self ms | % of busy |',
    '|---|---:|---:|',
    ...rows.map(([k, us]) => `| \`${k}\` | ${f0(us / 1000)} | ${((100 * us) / busy).toFixed(1)} |`),
  ].join('\n');
}
process.exit(0);
