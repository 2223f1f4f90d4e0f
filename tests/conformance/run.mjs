#!/usr/bin/env node
// `npm run test:conformance`: the official MCP conformance suite against the built bridge's /mcp.
//   1. installs @modelcontextprotocol/conformance, pinned, once into
//      ~/.cache/home-mcp-bridge/conformance-<version>; it runs on the bridge's own Node (24: the
//      one npm scripts run, node_modules/.bin/node)
//   2. starts the bridge with the fixtures the suite calls by name (tests/fixtures/conformance-plugin,
//      through PLUGINS_DIR) and Host/Origin allow-lists for loopback
//   3. puts a small proxy in front that adds the bearer token (the suite sends none)
//   4. runs `conformance server --requirements <revision>` for 2026-07-28 (stateless requests) and
//      for 2025-11-25 (sessions), and fails unless every scenario a revision requires passes, and
//      json-schema-2020-12 and the tasks extension's scenarios too (listed there as pending or as an
//      extension's). Other scenarios the suite does not score (other extensions, pending ones) are
//      run and counted apart. CONFORMANCE_REQUIREMENTS
//      picks one revision; `-- --scenario NAME` runs one scenario; extra arguments go to the suite.
//   5. runs `conformance authorization` against the bridge's OAuth authorization server (its
//      metadata and a whole authorization code grant), playing the person on the consent page:
//      once with a client ID metadata document (the way clients identify now, served here on
//      loopback), once with a client made by dynamic registration (kept, deprecated).
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
const cache = join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'home-mcp-bridge', `conformance-${SUITE}`);
const cli = join(cache, 'node_modules', '@modelcontextprotocol', 'conformance', 'dist', 'index.js');
const stamp = join(cache, '.complete');
const log = (m) => process.stderr.write(`[conformance] ${m}\n`);
/**
 * Scenarios the suite does not score that the bridge passes all the same, and must keep passing:
 * JSON Schema 2020-12, and the tasks extension's (io.modelcontextprotocol/tasks, docs/tasks.md;
 * tasks-status-notifications is one the suite itself skips for now).
 */
const MUST_PASS = new Set([
  'json-schema-2020-12',
  'tasks-lifecycle',
  'tasks-capability-negotiation',
  'tasks-wire-fields',
  'tasks-request-state-removal',
  'tasks-mrtr-input',
  'tasks-request-headers',
  'tasks-dispatch-and-envelope',
  'tasks-status-notifications',
  'tasks-required-task-error',
  'tasks-mrtr-composition',
]);
let metadataServer;

function install() {
  if (existsSync(stamp)) return;
  log(`installing @modelcontextprotocol/conformance ${SUITE} into ${cache} (once)`);
  mkdirSync(join(cache, '..'), { recursive: true });
  const partial = mkdtempSync(`${cache}.partial-`);
  try {
    writeFileSync(join(partial, 'package.json'), JSON.stringify({ name: 'conformance-runner', private: true }));
    execFileSync('npm', ['install', '--no-audit', '--no-fund', '--save-exact', `@modelcontextprotocol/conformance@${SUITE}`], {
      cwd: partial,
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    writeFileSync(join(partial, '.complete'), `${SUITE}\n`);
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
// Removed however the run ends (an exception included); the suite writes its own files here too.
process.on('exit', () => rmSync(dataDir, { recursive: true, force: true }));
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
  // The client ID metadata document is served on loopback, over http.
  OAUTH_METADATA_PRIVATE: 'true',
  ALLOWED_ORIGINS: loopback.map((h) => `http://${h}:${proxyPort}`).join(','),
};
const bridge = spawn(process.execPath, [join(root, 'dist', 'src', 'main.js')], { env, stdio: ['ignore', 'inherit', 'inherit'] });
let status = 1;
let proxy;
try {
  const url = `http://127.0.0.1:${port}`;
  await waitHealthy(url, bridge);
  const token = (
    await (await fetch(`${url}/auth/token`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(user) })).json()
  ).access_token;
  // The suite's client sends no token: this hop adds one and passes everything else on as it came.
  proxy = createServer((req, res) => {
    const up = request(
      { host: '127.0.0.1', port, path: req.url, method: req.method, headers: { ...req.headers, authorization: `Bearer ${token}` } },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    up.on('error', () => res.destroy());
    res.on('close', () => up.destroy());
    req.pipe(up);
  });
  await new Promise((r) => proxy.listen(proxyPort, '127.0.0.1', r));
  const revisions = process.env.CONFORMANCE_REQUIREMENTS ? [process.env.CONFORMANCE_REQUIREMENTS] : ['2026-07-28', '2025-11-25'];
  // One scenario (`-- --scenario NAME`) runs on its own; otherwise each revision's whole requirement set.
  const extra = process.argv.slice(2);
  const single = extra.includes('--scenario');
  status = 0;
  for (const requirements of single ? revisions.slice(0, 1) : revisions) {
    const args = [
      cli,
      'server',
      '--url',
      `http://localhost:${proxyPort}/mcp`,
      ...(single ? ['--spec-version', requirements] : ['--requirements', requirements]),
      ...extra,
    ];
    log(`node ${process.version}: conformance server --url http://localhost:${proxyPort}/mcp ${single ? extra.join(' ') : `--requirements ${requirements}`}`);
    const suite = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'], cwd: dataDir });
    let output = '';
    suite.stdout.on('data', (chunk) => {
      process.stdout.write(chunk);
      output += chunk.toString();
    });
    const code = await new Promise((resolve) => suite.on('exit', (c) => resolve(c ?? 1)));
    const counts = countChecks(output, code, MUST_PASS);
    recordTally({ runner: `conformance server ${requirements}`, ...counts });
    log(`${requirements}: ${counts.passed} checks passed, ${counts.failed} failed (${counts.unscored} more in scenarios the revision does not score)`);
    if (counts.failed > 0 || counts.passed === 0) status = 1;
  }
  if (!single) {
    status = (await authorization(url, await metadataDocument())) || status;
    status = (await authorization(url, await registeredClient(url))) || status;
  }
} finally {
  proxy?.close();
  bridge.kill('SIGTERM');
  await new Promise((r) => (bridge.exitCode !== null ? r() : bridge.once('exit', r)));
  rmSync(dataDir, { recursive: true, force: true });
}
process.exit(status);

/** A client ID metadata document served on loopback: its URL is the client id. */
async function metadataDocument() {
  const port = await freePort();
  const callbackPort = await freePort();
  const id = `http://127.0.0.1:${port}/oauth/client-metadata.json`;
  const doc = {
    client_id: id,
    client_name: 'MCP conformance suite (metadata document)',
    redirect_uris: [`http://127.0.0.1:${callbackPort}/callback`],
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    token_endpoint_auth_method: 'none',
  };
  metadataServer = createServer((req, res) => {
    res.writeHead(req.url === '/oauth/client-metadata.json' ? 200 : 404, { 'content-type': 'application/json' });
    res.end(req.url === '/oauth/client-metadata.json' ? JSON.stringify(doc) : '{}');
  });
  await new Promise((r) => metadataServer.listen(port, '127.0.0.1', r));
  return { clientId: id, callbackPort, how: 'client ID metadata document' };
}

/** A client made by dynamic registration (RFC 7591; deprecated, kept for older clients). */
async function registeredClient(url) {
  const callbackPort = await freePort();
  const redirect = `http://127.0.0.1:${callbackPort}/callback`;
  const registered = await (
    await fetch(`${url}/oauth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ client_name: 'MCP conformance suite', redirect_uris: [redirect] }),
    })
  ).json();
  return { clientId: registered.client_id, callbackPort, how: 'dynamic registration' };
}

/**
 * The suite's `authorization` command against the bridge's own authorization server: its metadata,
 * and a whole authorization code grant. The suite waits for a browser; this plays the person on the
 * consent page (signs in, allows) and follows the redirect to the suite's callback.
 */
async function authorization(url, { clientId, callbackPort, how }) {
  const args = [cli, 'authorization', '--url', url, '--client-id', clientId, '--resource', `${url}/mcp`, '--port', String(callbackPort)];
  log(`node ${process.version}: conformance authorization --url ${url} --resource ${url}/mcp (${how})`);
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'], cwd: dataDir });
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
  metadataServer?.close();
  const counts = countChecks(output, code);
  recordTally({ runner: `conformance authorization (${how})`, ...counts });
  return counts.failed > 0 || counts.passed === 0 ? 1 : 0;
}
