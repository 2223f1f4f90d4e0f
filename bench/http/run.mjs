#!/usr/bin/env node
// bench/http: requests per second and latency of the bridge's HTTP front, beside a bare uWS
// hello-world measured in the same run with the same load settings. Prints a markdown table.
// Run with `npm run bench:http` (builds dist/ first); options: node bench/http/run.mjs --help
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { ownedChildren } from '../lib/processes.mjs';

const here = fileURLToPath(new URL('.', import.meta.url));
const root = join(here, '..', '..');
const HOST = '127.0.0.1';
const USER = 'bench';
const PASSWORD = 'bench-password-1';
// Far above what a run can send, so the limiter does its bookkeeping but never answers 429.
const HUGE_LIMIT = 10_000_000;

const TARGETS = {
  bare: { label: 'bare uWS `GET /health`', server: 'bare', path: '/health' },
  health: { label: 'bridge `GET /health`', server: 'bridge', path: '/health' },
  config: { label: 'bridge `GET /api/config` (token)', server: 'bridge', path: '/api/config', auth: true },
  'config-rl': { label: 'bridge `GET /api/config` (token, rate limiter on)', server: 'bridge-rl', path: '/api/config', auth: true },
  // With --baseline: the same route on another build, for a before/after in one run, and that
  // build's own bare uWS (with --baseline-node, another runtime's: its Node and its uWS).
  'bare-baseline': { label: 'baseline build: bare uWS `GET /health`', server: 'bare-baseline', path: '/health' },
  'config-baseline': { label: 'baseline build `GET /api/config` (token)', server: 'baseline', path: '/api/config', auth: true },
};
const BASELINE_TARGETS = ['bare-baseline', 'config-baseline'];

const { values: opt } = parseArgs({
  options: {
    duration: { type: 'string', default: '10' },
    rounds: { type: 'string', default: '5' },
    warmup: { type: 'string', default: '3' },
    connections: { type: 'string', default: '64' },
    threads: { type: 'string', default: '1' },
    targets: { type: 'string' },
    baseline: { type: 'string' },
    'baseline-node': { type: 'string' },
    'no-pin': { type: 'boolean', default: false },
    profile: { type: 'string' },
    help: { type: 'boolean', default: false },
  },
});

if (opt.help) {
  process.stdout.write(`usage: node bench/http/run.mjs [options]
  --duration S      measured seconds per target, split over the rounds in whole seconds (default 10)
  --rounds N        the targets take turns N times, so drifting machine load hits all alike (default 5)
  --warmup S        unmeasured seconds per target before the first round (default 3)
  --connections N   open connections (default 64)
  --threads N       wrk threads (default 1: the server keeps the other core)
  --targets LIST    comma list of ${Object.keys(TARGETS).join(', ')} (default all but
                    ${BASELINE_TARGETS.join(' and ')}, which --baseline adds)
  --baseline FILE   also run another build's entry point (e.g. a checkout of an older commit's
                    dist/src/main.js) as target config-baseline, and that checkout's
                    bench/http/bare-uws.mjs as bare-baseline, to compare before and after in one run
  --baseline-node F the Node that runs the baseline build (default: this one), e.g. an older
                    runtime's, whose native modules were built for it
  --no-pin          do not pin wrk and the servers to separate cores with taskset
  --profile DIR     run the bridge under node --cpu-prof, writing .cpuprofile files to DIR
                    (figures taken while profiling are not comparable; summarise with profile-summary.mjs)
`);
  process.exit(0);
}

function fail(message) {
  process.stderr.write(`bench:http: ${message}\n`);
  process.exit(2);
}

const duration = Number(opt.duration);
const rounds = Number(opt.rounds);
const warmup = Number(opt.warmup);
const connections = Number(opt.connections);
const threads = Number(opt.threads);
// wrk takes whole seconds only.
const slice = Math.round(duration / rounds);
const defaultTargets = Object.keys(TARGETS).filter((t) => !BASELINE_TARGETS.includes(t) || opt.baseline);
const wanted = (opt.targets ?? defaultTargets.join(','))
  .split(',')
  .map((s) => s.trim())
  .filter(Boolean);
if (wanted.some((t) => BASELINE_TARGETS.includes(t)) && !opt.baseline) fail(`${BASELINE_TARGETS.join(' and ')} need --baseline FILE`);
if (opt.baseline && !existsSync(opt.baseline)) fail(`--baseline: ${opt.baseline} does not exist`);
if (opt['baseline-node'] && !existsSync(opt['baseline-node'])) fail(`--baseline-node: ${opt['baseline-node']} does not exist`);
const baselineNode = opt['baseline-node'] ? resolve(opt['baseline-node']) : process.execPath;
// The checkout the baseline entry point belongs to (<checkout>/dist/src/main.js).
const baselineRoot = opt.baseline ? resolve(opt.baseline, '..', '..', '..') : undefined;
for (const t of wanted) if (!(t in TARGETS)) fail(`unknown target ${t} (known: ${Object.keys(TARGETS).join(', ')})`);
if (!(slice >= 1) || !(warmup >= 0) || !Number.isInteger(warmup))
  fail('--duration / --rounds must give at least 1 second per turn, and --warmup must be whole seconds');
const profileDir = opt.profile ? resolve(opt.profile) : undefined;
if (profileDir) mkdirSync(profileDir, { recursive: true });

// --- prerequisites -----------------------------------------------------------------------------

const wrk = spawnSync('wrk', ['-v'], { encoding: 'utf8' });
if (wrk.error) {
  fail(`the load generator wrk was not found on PATH (${wrk.error.code}).
  It runs as its own process so it does not share the server's event loop.
  Debian/Ubuntu: apt-get install -y wrk   macOS: brew install wrk   See bench/http/README.md.`);
}
const wrkVersion = `${wrk.stdout}${wrk.stderr}`
  .split('\n')[0]
  .replace(/\s*Copyright.*$/, '')
  .trim();

if (!existsSync(join(root, 'dist', 'src', 'main.js'))) fail('dist/src/main.js is missing: run `npm run bench:http` (it builds first) or `npm run build`.');

// Separate cores for load and servers, so neither steals the other's time slices.
const cpus = os.availableParallelism();
const pin = !opt['no-pin'] && cpus >= 2 && !spawnSync('taskset', ['-V']).error;
const serverCpu = String(cpus - 1);
const loadCpu = cpus > 2 ? `0-${cpus - 2}` : '0';
const pinned = (cpu, cmd, args) => (pin ? ['taskset', ['-c', cpu, cmd, ...args]] : [cmd, args]);

// CPU time a process used, in microseconds (Linux /proc; taskset execs, so the pid is the server's).
const procCpu = existsSync('/proc/self/stat');
function cpuMicros(pid) {
  const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return ((Number(f[11]) + Number(f[12])) * 1e6) / 100; // utime + stime, in USER_HZ (100 on Linux)
}

// --- processes ---------------------------------------------------------------------------------

const { children } = ownedChildren();

function freePort() {
  return new Promise((done, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, HOST, () => {
      const { port } = s.address();
      s.close(() => done(port));
    });
  });
}

function start(args, env, node = process.execPath, cwd = root) {
  const [cmd, argv] = pinned(serverCpu, node, args);
  const child = spawn(cmd, argv, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  children.add(child);
  let output = '';
  const keep = (d) => {
    output = (output + d).slice(-8000);
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  child.exited = new Promise((done) => child.once('exit', (code, signal) => done({ code, signal })));
  child.output = () => output;
  return child;
}

async function stop(child) {
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
  await child.exited;
  clearTimeout(timer);
  children.delete(child);
}

async function waitFor(child, what, probe, timeoutMs = 30_000) {
  const until = Date.now() + timeoutMs;
  let exited = false;
  child.exited.then(() => (exited = true));
  for (;;) {
    if (exited) throw new Error(`${what} exited before it was ready:\n${child.output()}`);
    try {
      const v = await probe();
      if (v) return v;
    } catch {
      // not listening yet
    }
    if (Date.now() > until) throw new Error(`${what} not ready after ${timeoutMs / 1000}s:\n${child.output()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function startBare(checkout = root, node = process.execPath) {
  const port = await freePort();
  const child = start([join(checkout, 'bench', 'http', 'bare-uws.mjs')], { PATH: process.env.PATH, PORT: String(port), HOST }, node, checkout);
  await waitFor(child, 'bare uWS', async () => (await fetch(`http://${HOST}:${port}/health`)).ok);
  const engine =
    JSON.parse(
      child
        .output()
        .split('\n')
        .find((l) => l.includes('"listening"')) ?? '{}',
    ).engine ?? 'unknown';
  return { child, port, engine };
}

async function startBridge(rateLimitMax, entry = 'dist/src/main.js', node = process.execPath) {
  const port = await freePort();
  const dataDir = mkdtempSync(join(os.tmpdir(), 'bench-http-'));
  // A clean environment: a HASS_URL or CONFIG_FILE from the caller's shell must not change what is measured.
  const env = {
    PATH: process.env.PATH,
    HOME: process.env.HOME ?? dataDir,
    PORT: String(port),
    HOST,
    DATA_DIR: dataDir,
    AUTH_USERNAME: USER,
    AUTH_PASSWORD: PASSWORD,
    LOG_LEVEL: 'warn',
    RATE_LIMIT_MAX: String(rateLimitMax),
  };
  const args = profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`, entry] : [entry];
  const child = start(args, env, node);
  const base = `http://${HOST}:${port}`;
  // Healthy means the embedded simulator is connected: the steady state a user sees.
  await waitFor(child, 'bridge', async () => (await (await fetch(`${base}/health`)).json()).status === 'healthy');
  const res = await fetch(`${base}/auth/token`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ username: USER, password: PASSWORD }),
  });
  if (!res.ok) throw new Error(`POST /auth/token answered ${res.status}: ${await res.text()}`);
  const token = (await res.json()).access_token;
  const cfg = await fetch(`${base}/api/config`, { headers: { Authorization: `Bearer ${token}` } });
  if (!cfg.ok) throw new Error(`GET /api/config with the token answered ${cfg.status}`);
  const body = await cfg.json();
  if (body.security?.rate_limit?.max !== rateLimitMax)
    throw new Error(`bridge reports rate_limit.max ${body.security?.rate_limit?.max}, expected ${rateLimitMax}`);
  return { child, port, token, engine: body.server?.engine ?? 'unknown', dataDir };
}

// --- load --------------------------------------------------------------------------------------

function runWrk(url, seconds, headers) {
  const args = ['-t', String(threads), '-c', String(connections), '-d', `${seconds}s`, '--timeout', '5s', '-s', join(here, 'report.lua')];
  for (const h of headers) args.push('-H', h);
  args.push(url);
  const [cmd, argv] = pinned(loadCpu, 'wrk', args);
  return new Promise((done, reject) => {
    const p = spawn(cmd, argv, { stdio: ['ignore', 'pipe', 'pipe'] });
    children.add(p);
    let out = '';
    p.stdout.on('data', (d) => (out += d));
    p.stderr.on('data', (d) => (out += d));
    p.once('exit', (code) => {
      children.delete(p);
      const line = out.split('\n').find((l) => l.startsWith('WRK_RESULT '));
      if (code !== 0 || !line) return reject(new Error(`wrk failed (exit ${code}):\n${out}`));
      done(JSON.parse(line.slice('WRK_RESULT '.length)));
    });
  });
}

async function slice1(job, seconds) {
  const before = procCpu ? cpuMicros(job.server.child.pid) : 0;
  const r = await runWrk(job.url, seconds, job.headers);
  const cpu = procCpu ? cpuMicros(job.server.child.pid) - before : NaN;
  return { ...r, rps: r.requests / (r.duration_us / 1e6), cpu };
}

// --- run ---------------------------------------------------------------------------------------

const starters = {
  bare: () => startBare(),
  bridge: () => startBridge(0),
  'bridge-rl': () => startBridge(HUGE_LIMIT),
  baseline: () => startBridge(0, resolve(opt.baseline), baselineNode),
  'bare-baseline': () => startBare(baselineRoot, baselineNode),
};
const servers = {};
const loadBefore = os.loadavg()[0];
const jobs = [];
try {
  for (const id of wanted) {
    const t = TARGETS[id];
    if (!servers[t.server]) {
      process.stderr.write(`starting ${t.server}...\n`);
      servers[t.server] = await starters[t.server]();
    }
    const server = servers[t.server];
    jobs.push({ id, server, url: `http://${HOST}:${server.port}${t.path}`, headers: t.auth ? [`Authorization: Bearer ${server.token}`] : [], slices: [] });
  }
  for (const job of jobs) {
    process.stderr.write(`warm-up ${job.id} (${warmup}s)\n`);
    if (warmup > 0) await runWrk(job.url, warmup, job.headers);
  }
  // Targets take turns, so a burst of other work on the machine lands on all of them rather than one.
  for (let i = 0; i < rounds; i++) {
    process.stderr.write(`round ${i + 1}/${rounds}: ${jobs.map((j) => j.id).join(', ')} (${slice}s each)\n`);
    for (const job of jobs) job.slices.push(await slice1(job, slice));
  }
} catch (err) {
  process.exitCode = 1;
  process.stderr.write(`bench:http: ${err instanceof Error ? err.message : String(err)}\n`);
} finally {
  for (const s of Object.values(servers)) {
    await stop(s.child);
    if (s.dataDir) rmSync(s.dataDir, { recursive: true, force: true });
  }
}
if (process.exitCode) process.exit();
const loadAfter = os.loadavg()[0];

// --- report ------------------------------------------------------------------------------------

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
const sum = (xs) => xs.reduce((a, b) => a + b, 0);
const results = {};
for (const job of jobs) {
  const s = job.slices;
  const errors = {};
  for (const x of s) for (const [k, n] of Object.entries(x.errors)) errors[k] = (errors[k] ?? 0) + n;
  results[job.id] = {
    rps: median(s.map((x) => x.rps)),
    min: Math.min(...s.map((x) => x.rps)),
    max: Math.max(...s.map((x) => x.rps)),
    p50: median(s.map((x) => x.p50_us)),
    p99: median(s.map((x) => x.p99_us)),
    cpuPerReq: sum(s.map((x) => x.cpu)) / sum(s.map((x) => x.requests)),
    errors: Object.entries(errors)
      .filter(([, n]) => n > 0)
      .map(([k, n]) => `${n} ${k}`),
    engine: job.server.engine,
  };
}

const ms = (us) => `${(us / 1000).toFixed(2)} ms`;
const k = (n) => `${(n / 1000).toFixed(0)}k`;
const base = results.bare?.rps;
const lines = [];
lines.push(`### bench/http, ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC`, '');
lines.push(
  `node ${process.version}, ${os.cpus()[0]?.model ?? 'unknown cpu'}, ${cpus} cores, ${os.platform()} ${os.release()}; ` +
    `${wrkVersion}, ${threads} thread, ${connections} connections; per target ${warmup}s warm-up, then ${rounds} turns of ${slice}s; ` +
    (pin ? `wrk on cpu ${loadCpu}, servers on cpu ${serverCpu}` : 'not pinned to cores') +
    `; load average ${loadBefore.toFixed(2)} before, ${loadAfter.toFixed(2)} after`,
  '',
);
lines.push('| target | req/s | p50 | p99 | % of bare uWS | server CPU per request |', '| --- | ---: | ---: | ---: | ---: | ---: |');
for (const id of wanted) {
  const r = results[id];
  const pct = base ? `${((r.rps / base) * 100).toFixed(0)}%` : 'n/a';
  const cpu = Number.isFinite(r.cpuPerReq) ? `${r.cpuPerReq.toFixed(1)} µs` : 'n/a';
  lines.push(
    `| ${TARGETS[id].label} | ${Math.round(r.rps).toLocaleString('en-US')} (${k(r.min)}–${k(r.max)}) | ${ms(r.p50)} | ${ms(r.p99)} | ${pct} | ${cpu} |`,
  );
}
lines.push(
  '',
  "req/s, p50 and p99 are medians over the turns (range of req/s in brackets); CPU per request is the server process's user+system time over its requests.",
  '',
);
const notes = [];
for (const id of wanted) {
  const r = results[id];
  if (r.errors.length) notes.push(`- ${id}: ${r.errors.join(', ')} (status = non-2xx/3xx answers): its figures are not valid`);
  if (r.engine !== 'native') notes.push(`- ${id}: uWS engine is ${r.engine}, not native`);
}
if (profileDir) notes.push(`- the bridge ran under --cpu-prof: figures are not comparable; profiles in ${profileDir}`);
if (base && results.config) {
  const pct = (results.config.rps / base) * 100;
  notes.push(`- goal (authenticated /api/config >= 75% of bare uWS): ${pct >= 75 ? 'met' : 'not met'} (${pct.toFixed(0)}%)`);
}
lines.push(...notes, '');
process.stdout.write(lines.join('\n'));
if (profileDir)
  process.stderr.write(
    `profiles: ${readdirSync(profileDir)
      .filter((f) => f.endsWith('.cpuprofile'))
      .join(', ')}\n`,
  );
