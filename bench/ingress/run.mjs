#!/usr/bin/env node
// bench/ingress: a verified tools/call (a light switched on or off, its state read back) through
// `connect --home-assistant` and the simulator's ingress proxy, beside the same call straight to
// /mcp on the bridge's port, in one run: rounds alternate between the two ways so both see the
// same machine. Prints a markdown table. `npm run bench:ingress -- --help`.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { ownedChildren } from '../lib/processes.mjs';
import { freePort, waitHealthy } from '../../tests/lib/bridge-process.mjs';
import { quantile } from '../lib/stats.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));
const { values: opt } = parseArgs({
  options: { calls: { type: 'string', default: '400' }, rounds: { type: 'string', default: '8' }, help: { type: 'boolean', default: false } },
});
if (opt.help) {
  process.stdout.write('usage: node bench/ingress/run.mjs [--calls N per way (400)] [--rounds N (8)]\n');
  process.exit(0);
}
const { children, work } = ownedChildren({ scratchPrefix: 'bench-ingress-' });
const log = (m) => process.stderr.write(`bench:ingress: ${m}\n`);
const user = { username: 'bench', password: 'bench-password' };
const INGRESS_FROM = '127.0.0.2';
const ms = (x) => `${x.toFixed(2)} ms`;

const sim = spawn(process.execPath, [join(root, 'bench', 'ingress', 'sim-worker.mjs')], {
  env: { ...process.env, INGRESS_FROM },
  stdio: ['pipe', 'pipe', 'inherit'],
});
children.add(sim);
const simLines = createInterface({ input: sim.stdout })[Symbol.asyncIterator]();
const { url: haUrl, token: haToken } = JSON.parse((await simLines.next()).value);

const port = await freePort();
const url = `http://127.0.0.1:${port}`;
const env = {
  PATH: process.env.PATH,
  PORT: String(port),
  HOST: '127.0.0.1',
  DATA_DIR: join(work, 'bridge'),
  HASS_URL: haUrl,
  HASS_TOKEN: haToken,
  INGRESS_PROXY: INGRESS_FROM,
  AUTH_USERNAME: user.username,
  AUTH_PASSWORD: user.password,
  RATE_LIMIT_MAX: '0',
  LOG_LEVEL: 'warn',
};
const bridge = spawn(process.execPath, [join(root, 'dist', 'src', 'main.js')], { env, stdio: ['ignore', 'ignore', 'inherit'] });
children.add(bridge);
await waitHealthy(url, bridge);
sim.stdin.write(`${url}\n`);
await simLines.next();
const token = (await (await fetch(`${url}/auth/token`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(user) })).json())
  .access_token;

const direct = new Client({ name: 'bench', version: '1' });
await direct.connect(new StreamableHTTPClientTransport(new URL(`${url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
const viaHa = new Client({ name: 'bench', version: '1' });
const proxy = new StdioClientTransport({
  command: process.execPath,
  args: [join(root, 'dist', 'src', 'main.js'), 'connect', '--home-assistant', haUrl],
  env: { PATH: process.env.PATH, HASS_TOKEN: haToken },
  stderr: 'inherit',
});
await viaHa.connect(proxy);

let flip = 0;
async function call(client) {
  const t = performance.now();
  const r = await client.callTool({ name: 'control_lights', arguments: { entity_id: 'light.office_desk', command: flip++ % 2 ? 'off' : 'on' } });
  const took = performance.now() - t;
  if (r.isError || r.structuredContent?.entities?.[0]?.verified !== true) throw new Error(`the call was not verified: ${JSON.stringify(r.content)}`);
  return took;
}

const ways = [
  ['straight to /mcp on the bridge’s port (bearer token)', direct],
  ['`connect --home-assistant` → ingress proxy → /mcp', viaHa],
];
const times = new Map(ways.map(([name]) => [name, []]));
for (const [, client] of ways) for (let i = 0; i < 30; i++) await call(client);
const rounds = Number(opt.rounds);
const perRound = Math.ceil(Number(opt.calls) / rounds);
for (let r = 0; r < rounds; r++) {
  log(`round ${r + 1} of ${rounds}`);
  for (const [name, client] of r % 2 ? [...ways].reverse() : ways) for (let i = 0; i < perRound; i++) times.get(name).push(await call(client));
}
await direct.close();
await viaHa.close();

console.log(`\n| way (${perRound * rounds} verified tools/call each, interleaved) | p50 | p99 | mean |`);
console.log('|---|---:|---:|---:|');
for (const [name] of ways) {
  const t = times.get(name);
  console.log(`| ${name} | ${ms(quantile(t, 0.5))} | ${ms(quantile(t, 0.99))} | ${ms(t.reduce((a, b) => a + b, 0) / t.length)} |`);
}
bridge.kill('SIGTERM');
sim.kill('SIGTERM');
await Promise.race([once(bridge, 'exit'), new Promise((r) => setTimeout(r, 2000))]);
process.exit(0);
