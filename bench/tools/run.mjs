#!/usr/bin/env node
// bench/tools: how much of an assistant's context the tool list takes, and how long a read tool
// and an acting tool (a light switched, its new state verified) take through POST /api/tools/call.
// Starts the built bridge with its embedded simulator (demo home); prints a markdown table.
// Run with `npm run bench:tools`; options: --calls N (default 500), --warmup N (default 50).
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { ownedChildren } from '../lib/processes.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));
const { values: opt } = parseArgs({ options: { calls: { type: 'string', default: '500' }, warmup: { type: 'string', default: '50' } } });
const CALLS = Number(opt.calls);
const WARMUP = Number(opt.warmup);
const BUDGET_TOKENS = 8000;
const { children, work } = ownedChildren({ scratchPrefix: 'bench-tools-' });

const port = await new Promise((resolve) => {
  const s = createServer();
  s.listen(0, '127.0.0.1', () => {
    const { port: p } = s.address();
    s.close(() => resolve(p));
  });
});
const env = { PATH: process.env.PATH, HOME: work, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: mkdtempSync(join(work, 'data-')), AUTH_USERNAME: 'bench', AUTH_PASSWORD: 'bench-password-1', LOG_LEVEL: 'warn', RATE_LIMIT_MAX: '0' };
const child = spawn(process.execPath, [join(root, 'dist', 'src', 'main.js')], { env, stdio: ['ignore', 'inherit', 'inherit'] });
children.add(child);
const base = `http://127.0.0.1:${port}`;
for (let i = 0; ; i++) {
  try {
    if ((await (await fetch(`${base}/health`)).json()).status === 'healthy') break;
  } catch {
    // not listening yet
  }
  if (i > 300) throw new Error('the bridge did not become healthy');
  await new Promise((r) => setTimeout(r, 100));
}
const { access_token: token } = await (await fetch(`${base}/auth/token`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'bench', password: 'bench-password-1' }) })).json();
const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };

const list = await (await fetch(`${base}/api/tools`, { headers })).json();
const listJson = JSON.stringify(list.tools);

/** `args(i)` gives the arguments of call i, so an acting tool can alternate (on, off, ...). */
async function time(name, args) {
  let n = 0;
  const once = async () => {
    const body = JSON.stringify({ name, arguments: args(n++) });
    const t = performance.now();
    const r = await fetch(`${base}/api/tools/call`, { method: 'POST', headers, body });
    const out = await r.json();
    if (r.status !== 200 || out.isError) throw new Error(`${name}: ${JSON.stringify(out).slice(0, 300)}`);
    return { ms: performance.now() - t, out };
  };
  for (let i = 0; i < WARMUP; i++) await once();
  const ms = [];
  let verified = 0;
  for (let i = 0; i < CALLS; i++) {
    const { ms: m, out } = await once();
    ms.push(m);
    if (out.structuredContent?.entities?.every((e) => e.verified === true)) verified++;
  }
  ms.sort((a, b) => a - b);
  const q = (p) => ms[Math.min(ms.length - 1, Math.floor(p * ms.length))];
  return { p50: q(0.5), p99: q(0.99), verified };
}

const read = await time('search_entities', () => ({ domain: 'light' }));
// Each call changes the light (on, off, on, ...), so every one waits for a real state change and checks it.
const act = await time('control_lights', (i) => ({ entity_id: 'light.living_room_lamp', command: i % 2 ? 'on' : 'off' }));
child.kill('SIGTERM');

const f = (x) => `${x.toFixed(2)} ms`;
const lines = [
  `### bench/tools, ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC`,
  '',
  `node ${process.version}, ${os.cpus()[0]?.model ?? 'cpu'}, ${os.cpus().length} cores; the bridge with its embedded simulator (demo home); ${CALLS} calls each after ${WARMUP} warm-up, one at a time over keep-alive HTTP`,
  '',
  '| What | Figure |',
  '|---|---:|',
  `| tools in the list | ${list.tools.length} |`,
  `| \`GET /api/tools\` tools JSON | ${listJson.length.toLocaleString('en')} bytes, ${Math.round(listJson.length / 4).toLocaleString('en')} tokens (chars / 4); budget ${BUDGET_TOKENS.toLocaleString('en')} |`,
  `| read tool \`search_entities {domain: light}\` p50 / p99 | ${f(read.p50)} / ${f(read.p99)} |`,
  `| acting tool \`control_lights\` on/off alternately, verified, p50 / p99 | ${f(act.p50)} / ${f(act.p99)} (${act.verified} of ${CALLS} verified) |`,
];
process.stdout.write(`${lines.join('\n')}\n`);
process.exit(0);
