// bench/events's history run (forked by run.mjs): the bridge in this process, events put on its
// bus as fast as it takes them, SSE clients (default 100) reading in another process; reports how many
// events per second reached the database and whether every one did.
import { fork } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ownRoot = fileURLToPath(new URL('../..', import.meta.url));
// The build to measure (another checkout for a before and after); the load clients are this one's.
const root = process.argv[4] ?? ownRoot;
const { loadConfig } = await import(join(root, 'dist', 'src', 'config', 'load.js'));
const { startApp } = await import(join(root, 'dist', 'src', 'app.js'));
const { serviceEvent } = await import(join(root, 'dist', 'src', 'bus.js'));
const total = Number(process.argv[2] ?? 200_000);
const streams = Number(process.argv[3] ?? 100);
const dir = mkdtempSync(join(tmpdir(), 'bench-history-'));
const config = loadConfig({
  env: {
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: dir,
    AUTH_USERNAME: 'bench',
    AUTH_PASSWORD: 'bench-password',
    LOG_LEVEL: 'silent',
    RATE_LIMIT_MAX: '0',
    EVENT_SUB_RATE_LIMIT: '0',
    EVENT_HISTORY_MAX_ROWS: '100000000',
    STREAM_BUFFER_LIMIT: String(256 * 1048576),
  },
  addonOptionsFile: join(dir, 'none.json'),
});
const app = await startApp(config);
const token = (
  await (
    await fetch(`${app.url}/auth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'bench', password: 'bench-password' }),
    })
  ).json()
).access_token;
const clients = fork(join(ownRoot, 'bench', 'events', 'clients.mjs'), [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
let connected = 0;
clients.on('message', (m) => {
  if (m.connected !== undefined) connected = m.connected;
});
clients.send({
  cmd: 'open',
  host: '127.0.0.1',
  port: app.port,
  transport: 'sse',
  path: '/api/events/stream?event_type=bench_history',
  token,
  count: streams,
  offset: 0,
  sampleEvery: 1000,
});
while (connected < streams) await new Promise((r) => setTimeout(r, 50));

const { store, bus } = app.services;
const before = store.events.count();
const t0 = performance.now();
const cpu0 = process.cpuUsage();
let sent = 0;
await new Promise((resolve) => {
  const step = () => {
    for (let i = 0; i < 1000 && sent < total; i++, sent++)
      bus.emit('event', serviceEvent('bench_history', { n: sent, entity_id: `sensor.bench_${sent % 50}` }));
    if (sent < total) setImmediate(step);
    else setImmediate(resolve);
  };
  step();
});
while (store.events.backlog > 0) await new Promise((r) => setImmediate(r));
const elapsed = (performance.now() - t0) / 1000;
const cpu = process.cpuUsage(cpu0);
const stored = store.events.count() - before;
// The streams drain after the last event is stored: wait until every delivery is counted, or until
// none has arrived for QUIET_MS (a stream cut, or frames lost), and say what is missing.
const QUIET_MS = 10_000;
let delivered = 0;
let ended = 0;
const take = () =>
  new Promise((resolve) => {
    clients.once('message', (m) => {
      ended = m.ended ?? 0;
      resolve(m.count ?? 0);
    });
    clients.send({ cmd: 'take', id: 0 });
  });
const t1 = performance.now();
let lastProgress = Date.now();
while (delivered < total * streams && Date.now() - lastProgress < QUIET_MS) {
  const n = await take();
  if (n) lastProgress = Date.now();
  delivered += n;
  await new Promise((r) => setTimeout(r, 100));
}
const drainSeconds = (performance.now() - t1) / 1000;
clients.kill('SIGKILL');
await app.close();
rmSync(dir, { recursive: true, force: true });
process.send({ events: total, streams, stored, perSecond: total / elapsed, cpuPerEvent: (cpu.user + cpu.system) / total, delivered, ended, drainSeconds });
process.exit(0);
