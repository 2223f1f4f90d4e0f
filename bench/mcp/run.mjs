#!/usr/bin/env node
// bench/mcp: MCP latency over Streamable HTTP and over stdio (tools/list, and a verified
// tools/call that switches a light on or off in the simulator), a stateless 2026-07-28 call against
// a 2025-era session's call (interleaved, same bridge), memory per 1,000 stateless requests against
// memory per open session, sessions opened and closed per second, and the size of tools/list in
// tokens (budget 8,000); and, given a Home Assistant 2026.10 or later (HASS_URL, HASS_TOKEN), a
// verified tools/call through its /api/mcp/{api_id} beside the same call straight to /mcp
// (bench/mcp/home-assistant.mjs). Prints markdown tables. `npm run bench:mcp -- --help`.
import { spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { ownedChildren } from '../lib/processes.mjs';
import { freePort, waitHealthy } from '../../tests/lib/bridge-process.mjs';
import { quantile } from '../lib/stats.mjs';
import { inspectorOf } from '../lib/inspector.mjs';
import { consent } from '../../tests/lib/oauth-consent.mjs';
import { homeAssistantUnavailable, measureThroughHomeAssistant } from './home-assistant.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));
const { values: opt } = parseArgs({
  options: {
    lists: { type: 'string', default: '300' },
    calls: { type: 'string', default: '100' },
    sessions: { type: 'string', default: '300' },
    'ha-calls': { type: 'string', default: '200' },
    'ha-rounds': { type: 'string', default: '8' },
    help: { type: 'boolean', default: false },
  },
});
if (opt.help) {
  process.stdout.write(
    'usage: node bench/mcp/run.mjs [--lists N (300)] [--calls N (100)] [--sessions N (300)] [--ha-calls N per way (200)] [--ha-rounds N (8)]\n  With HASS_URL and HASS_TOKEN of a Home Assistant 2026.10 or later started from tests/e2e/ha-config, also through its /api/mcp.\n',
  );
  process.exit(0);
}
const { children, work } = ownedChildren({ scratchPrefix: 'bench-mcp-' });
const log = (m) => process.stderr.write(`bench:mcp: ${m}\n`);
const user = { username: 'bench', password: 'bench-password' };

const rss = (pid) => Number(/^VmRSS:\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]) * 1024;
const ms = (x) => x.toFixed(2);

async function timed(n, fn) {
  for (let i = 0; i < Math.min(20, n); i++) await fn(i);
  const out = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    await fn(i);
    out.push(performance.now() - t);
  }
  return out;
}

/** Both measures through one connected client. */
async function measure(client) {
  const lists = await timed(Number(opt.lists), () => client.listTools());
  // On, then off: each call asks for a state, so its result can be verified.
  const calls = await timed(Number(opt.calls), async (i) => {
    const r = await client.callTool({ name: 'control_lights', arguments: { entity_id: 'light.office_desk', command: i % 2 ? 'off' : 'on' } });
    if (r.isError || r.structuredContent?.entities?.[0]?.verified !== true) throw new Error(`the call was not verified: ${JSON.stringify(r.content)}`);
  });
  return { lists, calls };
}

const port = await freePort();
const url = `http://127.0.0.1:${port}`;
const env = {
  PATH: process.env.PATH,
  PORT: String(port),
  HOST: '127.0.0.1',
  DATA_DIR: join(work, 'http'),
  AUTH_USERNAME: user.username,
  AUTH_PASSWORD: user.password,
  RATE_LIMIT_MAX: '0',
  LOG_LEVEL: 'warn',
};
const inspectPort = await freePort();
const bridge = spawn(process.execPath, [`--inspect=127.0.0.1:${inspectPort}`, join(root, 'dist', 'src', 'main.js')], {
  env,
  stdio: ['ignore', 'ignore', 'ignore'],
});
children.add(bridge);
await waitHealthy(url, bridge);
const heap = await inspectorOf(inspectPort);
const token = (await (await fetch(`${url}/auth/token`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(user) })).json())
  .access_token;
const headers = { authorization: `Bearer ${token}` };

log('Streamable HTTP');
const http = new Client({ name: 'bench', version: '1' });
await http.connect(new StreamableHTTPClientTransport(new URL(`${url}/mcp`), { requestInit: { headers } }));
const overHttp = await measure(http);

log('Streamable HTTP: 2026-07-28 stateless against a 2025-era session, interleaved');
const modern = new Client({ name: 'bench', version: '1' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
await modern.connect(new StreamableHTTPClientTransport(new URL(`${url}/mcp`), { requestInit: { headers } }));
const eras = { modern: [], legacy: [] };
const verifiedCall = async (c, i) => {
  const t = performance.now();
  const r = await c.callTool({ name: 'control_lights', arguments: { entity_id: 'light.office_desk', command: i % 2 ? 'off' : 'on' } });
  if (r.isError || r.structuredContent?.entities?.[0]?.verified !== true) throw new Error(`the call was not verified: ${JSON.stringify(r.content)}`);
  return performance.now() - t;
};
for (let i = 0; i < 20; i++) await verifiedCall(i % 2 ? modern : http, i);
for (let i = 0; i < Number(opt.calls) * 2; i++) {
  // Each era switches the light on then off, so every call asks for a change the hub makes.
  const era = Math.floor(i / 2) % 2 ? 'modern' : 'legacy';
  eras[era].push(await verifiedCall(era === 'modern' ? modern : http, i));
}
const { tools: catalogue } = await modern.listTools();
const catalogueBytes = Buffer.byteLength(JSON.stringify(catalogue));
await modern.close();
await http.close();

// Stateless requests hold nothing between them: what 1,000 of them leave behind in the bridge.
log('memory after 1,000 stateless requests');
const meta = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'bench', version: '1' },
  'io.modelcontextprotocol/clientCapabilities': {},
};
const stateless = (i) =>
  fetch(`${url}/mcp`, {
    method: 'POST',
    headers: {
      ...headers,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': 'tools/call',
      'mcp-name': 'describe_entity',
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: i,
      method: 'tools/call',
      params: { name: 'describe_entity', arguments: { entity_id: 'light.office_desk' }, _meta: meta },
    }),
  }).then((r) => r.text());
// What stays after them: the V8 heap after a full collection, after a warm-up and after each of 5
// rounds of 1,000 (single rounds swing a few hundred KiB either way with V8's own caches).
for (let i = 0; i < 1000; i++) await stateless(i);
const heapBefore = await heap.heapAfterGc();
const rounds = [];
for (let round = 0, last = heapBefore; round < 5; round++) {
  for (let i = 0; i < 1000; i++) await stateless(i);
  const now = await heap.heapAfterGc();
  rounds.push(now - last);
  last = now;
}
const per1000Stateless = rounds.reduce((a, b) => a + b, 0) / rounds.length;

log('Streamable HTTP with an OAuth access token');
const oauthToken = await oauthAccessToken();
const viaOAuth = new Client({ name: 'bench', version: '1' });
await viaOAuth.connect(new StreamableHTTPClientTransport(new URL(`${url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${oauthToken}` } } }));
const overOAuth = await measure(viaOAuth);
await viaOAuth.close();

log('stdio');
const stdio = new Client({ name: 'bench', version: '1' });
await stdio.connect(
  new StdioClientTransport({
    command: process.execPath,
    args: [join(root, 'dist', 'src', 'main.js'), 'stdio'],
    env: { PATH: process.env.PATH, DATA_DIR: join(work, 'stdio'), LOG_LEVEL: 'warn' },
    stderr: 'ignore',
  }),
);
const overStdio = await measure(stdio);
await stdio.close();

// Sessions: raw initialize requests, so the client's own cost stays out of the bridge's figures.
const init = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'bench', version: '1' } },
});
const post = { method: 'POST', headers: { ...headers, 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: init };
const open = async () => {
  const r = await fetch(`${url}/mcp`, post);
  await r.text();
  return r.headers.get('mcp-session-id');
};
const close = (sid) =>
  fetch(`${url}/mcp`, { method: 'DELETE', headers: { ...headers, 'mcp-session-id': sid, 'mcp-protocol-version': '2025-11-25' } }).then((r) => r.text());
const n = Number(opt.sessions);
for (let i = 0; i < 20; i++) await close(await open());
global.gc?.();
await new Promise((r) => setTimeout(r, 1000));
const before = rss(bridge.pid);
const heapBeforeSessions = await heap.heapAfterGc();
const ids = [];
for (let i = 0; i < n; i++) ids.push(await open());
await new Promise((r) => setTimeout(r, 1000));
const perSession = (rss(bridge.pid) - before) / n;
const heapPerSession = ((await heap.heapAfterGc()) - heapBeforeSessions) / n;
for (const sid of ids) await close(sid);
const t0 = performance.now();
for (let i = 0; i < n; i++) await close(await open());
const perSecond = n / ((performance.now() - t0) / 1000);
heap.close();
bridge.kill('SIGTERM');

console.log('\n| transport | tools/list p50 | tools/list p99 | verified tools/call p50 | verified tools/call p99 |');
console.log('|---|---|---|---|---|');
for (const [name, r] of [
  ['Streamable HTTP', overHttp],
  ['Streamable HTTP, OAuth access token', overOAuth],
  ['stdio', overStdio],
]) {
  console.log(
    `| ${name} | ${ms(quantile(r.lists, 0.5))} ms | ${ms(quantile(r.lists, 0.99))} ms | ${ms(quantile(r.calls, 0.5))} ms | ${ms(quantile(r.calls, 0.99))} ms |`,
  );
}
console.log('\n| verified tools/call over HTTP, interleaved | p50 | p99 |');
console.log('|---|---|---|');
console.log(`| 2026-07-28, stateless (a server built per request) | ${ms(quantile(eras.modern, 0.5))} ms | ${ms(quantile(eras.modern, 0.99))} ms |`);
console.log(`| 2025-11-25, in a session | ${ms(quantile(eras.legacy, 0.5))} ms | ${ms(quantile(eras.legacy, 0.99))} ms |`);
console.log('\n| memory | figure |');
console.log('|---|---|');
console.log(
  `| left behind by 1,000 stateless 2026-07-28 requests (V8 heap after a full collection; mean of 5 rounds: ${rounds.map((r) => (r / 1024).toFixed(0)).join(', ')} KiB) | ${(per1000Stateless / 1024).toFixed(1)} KiB |`,
);
console.log(`| per open 2025-era session, V8 heap after a full collection (${n} sessions) | ${(heapPerSession / 1024).toFixed(1)} KiB |`);
console.log(`| per open 2025-era session, RSS (${n} sessions) | ${(perSession / 1024).toFixed(1)} KiB |`);
console.log(`| 2025-era sessions opened and closed per second | ${perSecond.toFixed(0)} |`);
const tokens = Math.round(catalogueBytes / 4);
console.log('\n| tools/list | figure |');
console.log('|---|---|');
console.log(`| tools | ${catalogue.length} |`);
console.log(
  `| size | ${catalogueBytes.toLocaleString('en')} bytes ≈ ${tokens.toLocaleString('en')} tokens (4 bytes a token; budget 8,000)${tokens > 8000 ? ' OVER BUDGET' : ''} |`,
);

const unavailable = await homeAssistantUnavailable(process.env.HASS_URL, process.env.HASS_TOKEN);
if (unavailable) {
  log(`no Home Assistant rows: ${unavailable}`);
} else {
  log('through Home Assistant’s /api/mcp and straight to /mcp, alternating');
  const ha = await measureThroughHomeAssistant({
    root,
    work,
    children,
    user,
    calls: Number(opt['ha-calls']),
    rounds: Number(opt['ha-rounds']),
    haUrl: process.env.HASS_URL,
    haToken: process.env.HASS_TOKEN,
    log,
  });
  console.log(`\n| verified tools/call, Home Assistant ${ha.version} as the hub | calls | p50 | p99 | mean |`);
  console.log('|---|---|---|---|---|');
  const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;
  for (const [name, xs] of [
    ['through Home Assistant’s /api/mcp/mcp-home_mcp_bridge (Home Assistant token)', ha.through],
    ['straight to /mcp on the bridge (bridge token)', ha.straight],
  ]) {
    console.log(`| ${name} | ${xs.length} | ${ms(quantile(xs, 0.5))} ms | ${ms(quantile(xs, 0.99))} ms | ${ms(mean(xs))} ms |`);
  }
}
process.exit(0);

/** A hosted assistant's access token: registered, consent given on the form, code exchanged with PKCE. */
async function oauthAccessToken() {
  const redirect = 'http://127.0.0.1:9/callback';
  const { client_id } = await (
    await fetch(`${url}/oauth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ client_name: 'bench', redirect_uris: [redirect] }),
    })
  ).json();
  const verifier = randomBytes(32).toString('base64url');
  const challenge = createHash('sha256').update(verifier).digest('base64url');
  const authorize = `${url}/oauth/authorize?${new URLSearchParams({ response_type: 'code', client_id, redirect_uri: redirect, code_challenge: challenge, code_challenge_method: 'S256' })}`;
  const { location } = await consent(authorize, user);
  const code = new URL(location).searchParams.get('code');
  const body = new URLSearchParams({ grant_type: 'authorization_code', code, client_id, redirect_uri: redirect, code_verifier: verifier });
  return (await (await fetch(`${url}/oauth/token`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body })).json())
    .access_token;
}
