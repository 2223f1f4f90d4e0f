#!/usr/bin/env node
// bench/http/front-js.mjs: the JavaScript the front runs for one authenticated GET /api/config-like
// request, without uWS, sockets or the kernel: the front's catch-all is called in a loop with a
// stand-in for uWS's request and response (their methods do nothing). It shows what our code costs
// per request apart from uWS's native calls, steadily even on a busy machine, and compares builds
// (`--baseline <checkout>`: another checkout's dist/, e.g. main's) in one process.
// Usage: node scripts/build-if-needed.mjs && node bench/http/front-js.mjs [--baseline DIR] [--requests N] [--rounds N]
import os from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const root = join(fileURLToPath(new URL('.', import.meta.url)), '..', '..');
const { values: opt } = parseArgs({
  options: { baseline: { type: 'string' }, requests: { type: 'string', default: '500000' }, rounds: { type: 'string', default: '5' } },
});
const requests = Number(opt.requests);
const rounds = Number(opt.rounds);

/** The front of one checkout mounted on a stand-in uWS app: returns its catch-all and a request to feed it. */
async function mount(checkout) {
  const load = (p) => import(join(checkout, 'dist', 'src', p));
  const { mountFront } = await load('http/front.js');
  const { RouteTable, jsonMemo } = await load('http/routes.js');
  const { createAdmission } = await load('http/admission.js');
  const { TokenService } = await load('auth/tokens.js');
  const { RateLimiter } = await load('http/rate-limit.js');
  const { IngressTrust } = await load('auth/ingress.js');
  const { Cors } = await load('http/cors.js');
  const tokens = new TokenService('bench-secret-'.repeat(4), 3600);
  const token = (await tokens.issue('bench')).access_token;
  // A signed-in user's token: refused once the user is gone (the rule admission applies).
  const users = new Map([['bench', 0]]);
  const refusal = (p) => (users.has(p.sub) ? undefined : new Error('user removed'));
  const admit = createAdmission(tokens, new RateLimiter(0, 60_000), refusal, new IngressTrust('172.30.32.2'), {});
  const hub = { url: 'http://127.0.0.1:8123', mode: 'simulator', connected: true, version: '2026.11.0', events: { received: 0, state_changed: 0 } };
  const features = { nlp: true, scenes: true, groups: true, events: true, config_editing: false };
  const table = new RouteTable();
  table.add({
    method: 'GET',
    path: '/api/config',
    summary: 'config',
    // As /api/config: its inputs read per request, its body (about 430 bytes) built when one changes.
    handler: jsonMemo(
      () => {
        const v = [8080, hub.url, hub.mode, 'demo', hub.connected, hub.version, hub.events.received, hub.events.state_changed];
        for (const k in features) v.push(k, features[k]);
        return v;
      },
      () => ({ server: { port: 8080, host: '127.0.0.1', version: '0.2.0' }, hub, features, security: { note: 'x'.repeat(200) } }),
    ),
  });
  table.add({ method: 'GET', path: '/api/state/:entity_id', summary: 'state', handler: () => ({}) });
  table.add({ method: 'POST', path: '/api/services', summary: 'call', handler: () => ({}) });
  let handler;
  const app = { any: (_pattern, h) => (handler = h), ws: () => {} };
  const tracker = { closing: false, refused() {}, sockets: new Set(), begin: (r) => void (r.tracked = true), finished() {} };
  mountFront(app, table, { admit, cors: new Cors([]), bodyLimit: 1 << 20, log: { error() {}, isLevelEnabled: () => false } }, tracker);
  const headers = [
    ['host', '127.0.0.1:8080'],
    ['authorization', `Bearer ${token}`],
  ];
  let status = '';
  const res = {
    writeStatus(s) {
      status = String(s);
      return res;
    },
    writeHeader: () => res,
    end: () => res,
    endWithoutBody: () => res,
    onAborted: () => res,
    onData: () => res,
    cork(f) {
      f();
      return res;
    },
    getRemoteAddressAsText: () => new TextEncoder().encode('127.0.0.1').buffer,
  };
  // uWS hands over new strings per request: they are copied here too (not the same interned ones).
  const req = {
    forEach: (cb) => {
      for (const [k, v] of headers) cb(`${k} `.trimEnd(), `${v} `.trimEnd());
    },
    getUrl: () => '/api/config '.trimEnd(),
    getQuery: () => '',
    getCaseSensitiveMethod: () => 'GET '.trimEnd(),
  };
  // uWS writes "200 OK" itself when no status is written.
  status = '200 OK';
  handler(res, req);
  if (!status.startsWith('200')) throw new Error(`${checkout}: the stand-in request was answered ${status}, not 200`);
  return () => handler(res, req);
}

const builds = [['this checkout', await mount(root)]];
if (opt.baseline) builds.push([`baseline (${opt.baseline})`, await mount(resolve(opt.baseline))]);
const loadBefore = os.loadavg()[0];
const times = new Map(builds.map(([name]) => [name, []]));
for (let r = 0; r < rounds + 1; r++) {
  for (const [name, run] of builds) {
    const t = process.hrtime.bigint();
    for (let i = 0; i < requests; i++) run();
    // The first round warms up (the optimising compiler) and is not counted.
    if (r > 0) times.get(name).push(Number(process.hrtime.bigint() - t) / requests);
  }
}
const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
process.stdout.write(`### bench/http/front-js, ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC

node ${process.version}, ${os.cpus()[0]?.model ?? 'unknown CPU'}, ${os.availableParallelism()} cores; ${requests} requests per round, ${rounds} rounds after one to warm up; load average ${loadBefore.toFixed(2)} before, ${os.loadavg()[0].toFixed(2)} after

| build | JavaScript per request (median) | range |
| --- | ---: | ---: |
${builds.map(([name]) => `| ${name} | ${(median(times.get(name)) / 1000).toFixed(2)} µs | ${(Math.min(...times.get(name)) / 1000).toFixed(2)}–${(Math.max(...times.get(name)) / 1000).toFixed(2)} µs |`).join('\n')}

uWS's native calls, the kernel and the socket are not in these figures (bench:http measures them).
`);
