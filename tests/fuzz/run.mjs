#!/usr/bin/env node
// `npm run test:fuzz`: Schemathesis against the built bridge and its embedded simulator.
//   1. installs Schemathesis and openapi-spec-validator (tests/fuzz/requirements.txt, pinned) once
//      into a cached venv, named by the requirements' hash so a change of pins gets a fresh one
//   2. starts the bridge on a free loopback port with its own data folder, and gets a token; its
//      /api/openapi.json must pass openapi-spec-validator, a second validator independent of the
//      one in tests/integration/openapi.test.ts (which checks only the schema: a duplicate
//      parameter slipped past it)
//   3. runs every operation of /api/openapi.json through all four phases: examples, coverage
//      (boundary values, missing and wrong-typed parts, methods an operation lacks), fuzzing
//      (positive and negative data) and stateful sequences along the document's links, with a fixed
//      seed and a bounded number of examples; checks: no 5xx, status codes, content types and
//      bodies as declared, bad data refused, methods refused with 405 and Allow, and every
//      protected operation refusing a missing or bad token. A dropped connection is a failure
//      (Schemathesis reports it as a network error)
//   4. then the bridge must still be healthy and its store must pass PRAGMA integrity_check
// FUZZ_MAX_EXAMPLES (default 25) and FUZZ_SEED (default 42) tune it; extra arguments go to `st run`.
import { execFileSync, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort, waitHealthy } from '../lib/bridge-process.mjs';
import { countCases } from '../lib/runner-counts.mjs';
import { recordTally } from '../lib/tally.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));
const VERSION = '4.32.5';
const requirements = join(root, 'tests', 'fuzz', 'requirements.txt');
const pins = createHash('sha256').update(readFileSync(requirements)).digest('hex').slice(0, 12);
const cache = join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'home-mcp-bridge', `schemathesis-${VERSION}-${pins}`);
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
    execFileSync(join(partial, 'bin', 'pip'), ['install', '--no-input', '--disable-pip-version-check', '-q', '-r', requirements], { stdio: 'inherit' });
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
};
const bridge = spawn(process.execPath, [join(root, 'dist', 'src', 'main.js')], { env, stdio: ['ignore', 'inherit', 'inherit'] });
let status = 1;
try {
  await waitHealthy(url, bridge);
  // The document first: a second validator, independent of the one the integration tests use.
  const docFile = join(dataDir, 'openapi.json');
  writeFileSync(docFile, await (await fetch(`${url}/api/openapi.json`)).text());
  const spec = spawn(python, ['-m', 'openapi_spec_validator', docFile], { stdio: ['ignore', 'pipe', 'inherit'] });
  let specOut = '';
  spec.stdout.on('data', (chunk) => (specOut += chunk.toString()));
  const specStatus = await new Promise((resolve) => spec.on('exit', (code) => resolve(code ?? 1)));
  log(`openapi-spec-validator: ${specOut.trim().replace(docFile, '/api/openapi.json')}`);
  recordTally({ runner: 'openapi-spec-validator', passed: specStatus === 0 ? 1 : 0, failed: specStatus === 0 ? 0 : 1 });
  const token = (
    await (await fetch(`${url}/auth/token`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(user) })).json()
  ).access_token;
  const args = [
    'run',
    `${url}/api/openapi.json`,
    '--header',
    `Authorization: Bearer ${token}`,
    // unsupported_method: a method an operation lacks gets 405 with Allow. Not allow_header_conformance:
    // Allow lists what a concrete path takes across routes, and /api/scene/activate is also
    // /api/scene/{scene_name} (GET reads a scene named "activate"), which that check counts as extra.
    '--checks',
    'not_a_server_error,status_code_conformance,content_type_conformance,response_schema_conformance,negative_data_rejection,ignored_auth,unsupported_method',
    '--phases',
    'examples,coverage,fuzzing,stateful',
    '--seed',
    process.env.FUZZ_SEED ?? '42',
    '--max-examples',
    process.env.FUZZ_MAX_EXAMPLES ?? '25',
    // One worker: with two, the coverage phase's threads can parse Python source at once, and
    // CPython 3.11 keeps the AST builder's recursion depth per interpreter, not per thread, so
    // Hypothesis (which parses a lambda's whole source file to describe it) intermittently fails
    // with "AST constructor recursion depth mismatch" (a Runtime Error in the report, not a finding).
    '--workers',
    '1',
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
  if (specStatus !== 0) status ||= 1;
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
