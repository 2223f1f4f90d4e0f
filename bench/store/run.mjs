#!/usr/bin/env node
// bench/store: scene activation latency through the HTTP API (a real bridge process with its
// embedded simulator), and stored-scene write throughput through the store and through HTTP.
// Prints a markdown table. Run with `npm run bench:store` (builds dist/ first);
// options: node bench/store/run.mjs --help
import { spawn } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { ownedChildren } from '../lib/processes.mjs';
import { quantile } from '../lib/stats.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));
const HOST = '127.0.0.1';
const USER = 'bench';
const PASSWORD = 'bench-password-1';
const LIGHTS = 20;

const { values: opt } = parseArgs({
  options: {
    activations: { type: 'string', default: '300' },
    'store-writes': { type: 'string', default: '20000' },
    'http-writes': { type: 'string', default: '3000' },
    concurrency: { type: 'string', default: '16' },
    help: { type: 'boolean', default: false },
  },
});
if (opt.help) {
  process.stdout.write(`usage: node bench/store/run.mjs [options]
  --activations N    measured activations per scene shape (default 300; the no-change row runs N/30)
  --store-writes N   scene writes straight through the store (default 20000)
  --http-writes N    scene writes through POST /api/scene per row (default 3000)
  --concurrency N    requests in flight for the concurrent HTTP row (default 16)
`);
  process.exit(0);
}
const activations = Number(opt.activations);
const storeWrites = Number(opt['store-writes']);
const httpWrites = Number(opt['http-writes']);
const concurrency = Number(opt.concurrency);

if (!existsSync(join(root, 'dist', 'src', 'main.js'))) {
  process.stderr.write('bench:store: dist/ is missing: run `npm run bench:store` (it builds first) or `npm run build`.\n');
  process.exit(2);
}

const { children, work } = ownedChildren({ scratchPrefix: 'bench-store-' });

// --- figures -------------------------------------------------------------------------------------

function latency(samples) {
  const s = [...samples].sort((a, b) => a - b);
  return { n: s.length, p50: quantile(s, 0.5), p99: quantile(s, 0.99), mean: s.reduce((a, b) => a + b, 0) / s.length };
}
const ms = (x) => x.toFixed(2);
const rate = (n, elapsedMs) => Math.round((n * 1000) / elapsedMs).toLocaleString('en-US');

// --- the bridge ----------------------------------------------------------------------------------

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

/** A home of dimmable lights, so every scene action lands on a light that changes. */
function writeHome() {
  const lines = ['name: Bench Home', 'entities:'];
  for (let i = 0; i < LIGHTS; i++) {
    lines.push(`- entity_id: light.bench_${i}`, `  name: Bench ${i}`, `  state: 'off'`, '  attributes:', '    supported_color_modes: [brightness]');
  }
  const file = join(work, 'home.yaml');
  writeFileSync(file, `${lines.join('\n')}\n`);
  return file;
}

async function startBridge() {
  const port = await freePort();
  const env = {
    PATH: process.env.PATH,
    HOME: process.env.HOME ?? work,
    PORT: String(port),
    HOST,
    DATA_DIR: join(work, 'data'),
    SIM_HOME: writeHome(),
    AUTH_USERNAME: USER,
    AUTH_PASSWORD: PASSWORD,
    LOG_LEVEL: 'warn',
    RATE_LIMIT_MAX: '0',
  };
  const child = spawn(process.execPath, ['dist/src/main.js'], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
  children.add(child);
  let output = '';
  child.stdout.on('data', (d) => (output = (output + d).slice(-8000)));
  child.stderr.on('data', (d) => (output = (output + d).slice(-8000)));
  let exited = false;
  child.once('exit', () => (exited = true));
  const base = `http://${HOST}:${port}`;
  const until = Date.now() + 30_000;
  for (;;) {
    if (exited) throw new Error(`the bridge exited before it was ready:\n${output}`);
    try {
      if ((await (await fetch(`${base}/health`)).json()).status === 'healthy') break;
    } catch {
      // not listening yet
    }
    if (Date.now() > until) throw new Error(`the bridge was not healthy within 30 s:\n${output}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  const res = await fetch(`${base}/auth/token`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ username: USER, password: PASSWORD }),
  });
  const { access_token: token } = await res.json();
  const api = async (path, method = 'GET', json) => {
    const r = await fetch(`${base}${path}`, {
      method,
      headers: { Authorization: `Bearer ${token}`, ...(json === undefined ? {} : { 'Content-Type': 'application/json' }) },
      body: json === undefined ? undefined : JSON.stringify(json),
    });
    const body = await r.json();
    return { status: r.status, body };
  };
  const stop = async () => {
    child.kill('SIGTERM');
    await new Promise((r) => (exited ? r() : child.once('exit', r)));
    children.delete(child);
  };
  return { api, stop };
}

const sceneOf = (name, pct, entities = LIGHTS, actionsPerEntity = 1) => ({
  name,
  actions: Array.from({ length: entities * actionsPerEntity }, (_, i) => ({
    entity_id: `light.bench_${i % entities}`,
    action: 'turn_on',
    parameters: { brightness_pct: pct + Math.floor(i / entities) },
  })),
});

async function must(p, what) {
  const r = await p;
  if (r.status >= 300) throw new Error(`${what} answered ${r.status}: ${JSON.stringify(r.body)}`);
  return r;
}

/** Alternates two scenes so that every activation changes every light (no wait for a change that never comes). */
async function timeActivations(api, a, b, n, warmup = 10) {
  const samples = [];
  for (let i = 0; i < n + warmup; i++) {
    const t = performance.now();
    await must(api(`/api/scene/${i % 2 ? b : a}/activate`, 'POST'), 'activate');
    if (i >= warmup) samples.push(performance.now() - t);
  }
  return latency(samples);
}

async function httpWritesPerSecond(api, n, inFlight) {
  const body = (i) => ({ ...sceneOf(`Write ${i % 500}`, 10 + (i % 50)) });
  let next = 0;
  const t = performance.now();
  await Promise.all(
    Array.from({ length: inFlight }, async () => {
      for (let i = next++; i < n; i = next++) await must(api('/api/scene?replace=true', 'POST', body(i)), 'POST /api/scene');
    }),
  );
  return rate(n, performance.now() - t);
}

// --- the runs ------------------------------------------------------------------------------------

const rows = [];
const bridge = await startBridge();
try {
  const { api } = bridge;
  await must(api('/api/scene', 'POST', sceneOf('Twenty Up', 60)), 'create');
  await must(api('/api/scene', 'POST', sceneOf('Twenty Down', 20)), 'create');
  await must(api('/api/scene', 'POST', sceneOf('One Up', 60, 1, 20)), 'create');
  await must(api('/api/scene', 'POST', sceneOf('One Down', 20, 1, 20)), 'create');

  const par = await timeActivations(api, 'twenty_up', 'twenty_down', activations);
  rows.push(['activate, 20 actions on 20 lights (each changes)', par]);
  const seq = await timeActivations(api, 'one_up', 'one_down', activations);
  rows.push(['activate, 20 actions on 1 light (in order, each changes)', seq]);
  // Nothing changes, so each call waits out the hub client's settle time for a state_changed.
  const still = await timeActivations(api, 'twenty_up', 'twenty_up', Math.max(5, Math.round(activations / 30)), 1);
  rows.push(['activate, 20 actions on 20 lights already in that state', still]);

  rows.push(['POST /api/scene (20 actions, checked against the hub), 1 in flight', { rate: await httpWritesPerSecond(api, httpWrites, 1) }]);
  rows.push([`POST /api/scene (20 actions), ${concurrency} in flight`, { rate: await httpWritesPerSecond(api, httpWrites, concurrency) }]);
} finally {
  await bridge.stop();
}

const { openStore } = await import(join(root, 'dist', 'src', 'store', 'index.js'));
const store = openStore(join(work, 'store-bench.db'));
try {
  const scene = (i) => ({ id: `s${i % 1000}`, name: `S ${i}`, description: null, actions: sceneOf('x', i % 80).actions });
  for (let i = 0; i < 500; i++) store.scenes.put(scene(i));
  let t = performance.now();
  for (let i = 0; i < storeWrites; i++) store.scenes.put(scene(i));
  rows.push(['store: scene put (20 actions), one transaction each', { rate: rate(storeWrites, performance.now() - t) }]);
  t = performance.now();
  for (let i = 0; i < storeWrites; i++) store.scenes.get(`s${i % 1000}`);
  rows.push(['store: scene get', { rate: rate(storeWrites, performance.now() - t) }]);
} finally {
  store.close();
}

// --- the table -----------------------------------------------------------------------------------

const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
process.stdout.write(`\nbench:store on ${cpu} (${os.availableParallelism()} cores), Node ${process.version}, ${new Date().toISOString().slice(0, 10)}\n\n`);
process.stdout.write('| What | n | p50 ms | p99 ms | mean ms | per second |\n|---|---:|---:|---:|---:|---:|\n');
for (const [what, r] of rows) {
  if (r.rate) process.stdout.write(`| ${what} | | | | | ${r.rate} |\n`);
  else process.stdout.write(`| ${what} | ${r.n} | ${ms(r.p50)} | ${ms(r.p99)} | ${ms(r.mean)} | ${rate(r.n, r.mean * r.n)} |\n`);
}
process.exit(0);
