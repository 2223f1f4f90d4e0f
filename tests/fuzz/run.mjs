#!/usr/bin/env node
// `npm run test:fuzz`: Schemathesis against the built bridge and its embedded simulator.
//   1. installs Schemathesis (tests/fuzz/requirements.txt, pinned) once into a cached venv
//   2. starts the bridge on a free loopback port with its own data folder, and gets a token
//   3. runs every operation of /api/openapi.json: examples, fuzzing (positive and negative data)
//      and stateful sequences along the document's links, with a fixed seed and a bounded number
//      of examples; checks: no 5xx, status codes, content types and bodies as declared, bad data
//      refused, and every protected operation refusing a missing or bad token
//   4. then the bridge must still be healthy and its store must pass PRAGMA integrity_check
// FUZZ_MAX_EXAMPLES (default 25) and FUZZ_SEED (default 42) tune it; extra arguments go to `st run`.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort, waitHealthy } from '../lib/bridge-process.mjs';
import { countCases } from '../lib/runner-counts.mjs';
import { recordTally } from '../lib/tally.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));
const VERSION = '4.32.5';
const cache = join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'home-mcp-bridge', `schemathesis-${VERSION}`);
const venv = join(cache, 'venv');
// Run as a module of the venv's python: script shebangs name the folder the venv was built in.
const python = join(venv, 'bin', 'python');
const stamp = join(venv, '.complete');
const log = (m) => process.stderr.write(`[fuzz] ${m}\n`);

function install() {
  if (existsSync(stamp)) return;
  rmSync(venv, { recursive: true, force: true });
  log(`installing Schemathesis ${VERSION} into ${venv} (once)`);
  mkdirSync(cache, { recursive: true });
  const partial = mkdtempSync(join(cache, 'venv.partial-'));
  try {
    execFileSync('python3', ['-m', 'venv', partial], { stdio: 'inherit' });
    execFileSync(join(partial, 'bin', 'pip'), ['install', '--no-input', '--disable-pip-version-check', '-q', '-r', join(root, 'tests', 'fuzz', 'requirements.txt')], { stdio: 'inherit' });
    // The venv is whole only once it is renamed into place; an interrupted install leaves no half.
    writeFileSync(join(partial, '.complete'), `${VERSION}\n`);
    renameSync(partial, venv);
  } catch (err) {
    rmSync(partial, { recursive: true, force: true });
    throw err;
  }
}

install();
const port = await freePort();
const dataDir = mkdtempSync(join(tmpdir(), 'hmb-fuzz-'));
// Removed however the run ends (an exception included); Schemathesis writes its own files here too.
process.on('exit', () => rmSync(dataDir, { recursive: true, force: true }));
const url = `http://127.0.0.1:${port}`;
const user = { username: 'fuzz', password: 'fuzz-password-1' };
const env = { PATH: process.env.PATH, HOME: process.env.HOME ?? dataDir, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, AUTH_USERNAME: user.username, AUTH_PASSWORD: user.password, RATE_LIMIT_MAX: '0', LOG_LEVEL: 'warn' };
const bridge = spawn(process.execPath, [join(root, 'dist', 'src', 'main.js')], { env, stdio: ['ignore', 'inherit', 'inherit'] });
let status = 1;
try {
  await waitHealthy(url, bridge);
  const token = (await (await fetch(`${url}/auth/token`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(user) })).json()).access_token;
  const args = [
    'run',
    `${url}/api/openapi.json`,
    '--header',
    `Authorization: Bearer ${token}`,
    '--checks',
    'not_a_server_error,status_code_conformance,content_type_conformance,response_schema_conformance,negative_data_rejection,ignored_auth',
    // The coverage phase is left out: Schemathesis 4.32 fails inside it (a Hypothesis internal
    // error), and its unsupported-method probes use methods (QUERY) that uWS's parser drops.
    '--phases',
    'examples,fuzzing,stateful',
    '--seed',
    process.env.FUZZ_SEED ?? '42',
    '--max-examples',
    process.env.FUZZ_MAX_EXAMPLES ?? '25',
    '--workers',
    '2',
    '--generation-database',
    'none',
    '--no-color',
    // Event streams stay open by design: every valid request would wait for a timeout. Their
    // input checks are tested in tests/integration/events.test.ts.
    '--exclude-path',
    '/api/events/stream',
    '--exclude-path',
    '/subscribe_events',
    ...process.argv.slice(2),
  ];
  log(`schemathesis ${args.filter((a) => !a.startsWith('Authorization')).join(' ')}`);
  const run = spawn(python, ['-m', 'schemathesis.cli', ...args], { stdio: ['ignore', 'pipe', 'inherit'], cwd: dataDir });
  let output = '';
  run.stdout.on('data', (chunk) => {
    process.stdout.write(chunk);
    output += chunk.toString();
  });
  status = await new Promise((resolve) => run.on('exit', (code) => resolve(code ?? 1)));
  recordTally({ runner: 'schemathesis', ...countCases(output, status) });
  const health = await (await fetch(`${url}/health`)).json();
  if (health.status !== 'healthy') {
    log(`after the run the bridge is ${health.status}`);
    status ||= 1;
  } else {
    log('after the run the bridge is still healthy');
  }
} finally {
  bridge.kill('SIGTERM');
  await new Promise((r) => (bridge.exitCode !== null ? r() : bridge.once('exit', r)));
}
const { default: Database } = await import('better-sqlite3');
const db = new Database(join(dataDir, 'bridge.db'), { readonly: true });
const integrity = db.pragma('integrity_check', { simple: true });
db.close();
log(`store integrity_check: ${integrity}`);
if (integrity !== 'ok') status ||= 1;
rmSync(dataDir, { recursive: true, force: true });
process.exit(status);
