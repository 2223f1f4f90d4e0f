#!/usr/bin/env node
// The real Home Assistant that the end-to-end suite runs against: install, start, stop, restart.
//
//   node tests/e2e/ha.mjs install            venv with homeassistant==2024.3.3, cached outside the clone
//   node tests/e2e/ha.mjs start [--dir DIR]  fresh instance on a free loopback port, onboarded, with a
//                                            long-lived token; writes DIR/state.json
//   node tests/e2e/ha.mjs stop|restart|status|env|logs [N]   act on $HA_E2E_STATE (or --state FILE)
//   node tests/e2e/ha.mjs lock               regenerate ha-requirements.txt from ha-requirements.in
//
// The same functions are exported for the tests (see ha-control.ts). Plain Node, no dependencies
// beyond `ws` from the project's node_modules.
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  closeSync, cpSync, existsSync, mkdirSync, mkdtempSync, openSync, readFileSync, readSync, readdirSync,
  realpathSync, renameSync, rmSync, writeFileSync, writeSync, fstatSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { homedir, tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import WebSocket from 'ws';

export const HA_VERSION = '2024.3.3';
/** The lock resolves only releases published before Home Assistant 2024.3.3 was superseded. */
const LOCK_EXCLUDE_NEWER = '2024-03-23T00:00:00Z';

/** Demo entities the suite relies on (DESIGN.md, "The hub"); start waits until all of them exist. */
export const DEMO_ENTITIES = Object.freeze([
  'light.bed_light',
  'climate.hvac',
  'cover.kitchen_window',
  'lock.front_door',
  'fan.living_room_fan',
  'vacuum.0_ground_floor',
  'media_player.living_room',
  'alarm_control_panel.security',
]);

const HERE = dirname(fileURLToPath(import.meta.url));
const CONFIG_SRC = join(HERE, 'ha-config');
const REQS_IN = join(HERE, 'ha-requirements.in');
const REQS_LOCK = join(HERE, 'ha-requirements.txt');

const USER = { name: 'E2E', username: 'e2e', password: 'e2e-password-not-secret', language: 'en' };

const seconds = (ms) => (ms / 1000).toFixed(1);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const say = (msg) => process.stderr.write(`[ha] ${msg}\n`);

function envMs(name, fallbackSeconds) {
  const v = Number(process.env[name]);
  return (Number.isFinite(v) && v > 0 ? v : fallbackSeconds) * 1000;
}

// ---------------------------------------------------------------------------------------------
// install

/** `${XDG_CACHE_HOME:-$HOME/.cache}/home-mcp-bridge/ha-2024.3.3`, or $HA_E2E_CACHE. */
export function cacheDir() {
  if (process.env.HA_E2E_CACHE) return resolve(process.env.HA_E2E_CACHE);
  const base = process.env.XDG_CACHE_HOME || join(homedir(), '.cache');
  return join(base, 'home-mcp-bridge', `ha-${HA_VERSION}`);
}

export function venvDir() {
  return join(cacheDir(), 'venv');
}

function venvPython(venv = venvDir()) {
  return join(venv, 'bin', 'python');
}

const STAMP = '.home-mcp-bridge-install.json';

function lockDigest() {
  return createHash('sha256').update(readFileSync(REQS_LOCK)).digest('hex');
}

function pythonVersion(cmd) {
  const r = spawnSync(cmd, ['-c', 'import sys; print("%d.%d.%d" % sys.version_info[:3])'], { encoding: 'utf8' });
  return r.status === 0 ? r.stdout.trim() : null;
}

/** A Python that Home Assistant 2024.3 runs on: $HA_E2E_PYTHON, else python3.11, else python3 (3.11 or 3.12). */
function findPython() {
  const candidates = process.env.HA_E2E_PYTHON ? [process.env.HA_E2E_PYTHON] : ['python3.11', 'python3', 'python3.12'];
  for (const cmd of candidates) {
    const v = pythonVersion(cmd);
    if (v && /^3\.(11|12)\./.test(v)) return { cmd, version: v };
  }
  throw new Error(
    `Home Assistant ${HA_VERSION} needs Python 3.11 (or 3.12); tried ${candidates.join(', ')}. ` +
      'Set HA_E2E_PYTHON to one.',
  );
}

/** Whether the cached venv is complete and was built from the current lock. */
export function isInstalled() {
  const venv = venvDir();
  try {
    const stamp = JSON.parse(readFileSync(join(venv, STAMP), 'utf8'));
    return stamp.version === HA_VERSION && stamp.lock === lockDigest() && existsSync(realpathSync(venvPython(venv)));
  } catch {
    return false;
  }
}

function pidAlive(pid) {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
  } catch (e) {
    return e.code === 'EPERM';
  }
  try {
    // A zombie has exited; only its parent has not collected it yet.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return true;
  }
}

/** Children of runLogged still running, killed when this process is interrupted. */
const running = new Set();

/** Run a command with its output in a log file, printing a heartbeat so CI logs show progress. */
async function runLogged(cmd, args, logFile, what) {
  const fd = openSync(logFile, 'a');
  const t0 = Date.now();
  const child = spawn(cmd, args, { stdio: ['ignore', fd, fd], env: { ...process.env, PIP_NO_INPUT: '1' } });
  closeSync(fd);
  running.add(child);
  child.on('exit', () => running.delete(child));
  const timer = setInterval(() => {
    const last = lastMatchingLine(logFile, /^(Collecting|Downloading|Building|Installing|Successfully)/) ?? '';
    say(`  ${what}: ${seconds(Date.now() - t0)} s ${last ? `(${last.slice(0, 100)})` : ''}`);
  }, 20_000);
  const code = await new Promise((res) => child.on('exit', (c, s) => res(c ?? (s ? 128 : 1))));
  clearInterval(timer);
  if (code !== 0) {
    throw new Error(`${what} failed (exit ${code}); last lines of ${logFile}:\n${tail(logFile, 40)}`);
  }
}

function lastMatchingLine(file, re) {
  const lines = tail(file, 200).split('\n').map((l) => l.trim());
  for (let i = lines.length - 1; i >= 0; i--) if (re.test(lines[i])) return lines[i];
  return null;
}

/**
 * Create the venv once: built in a temporary sibling directory and renamed into place only when
 * complete, so an interrupted install is never reused. Returns the venv path.
 */
export async function installHa({ force = false } = {}) {
  const venv = venvDir();
  if (!force && isInstalled()) {
    say(`Home Assistant ${HA_VERSION} is installed (cached in ${venv})`);
    return venv;
  }
  const root = cacheDir();
  mkdirSync(root, { recursive: true });
  // Leftovers of installs that were interrupted (their process is gone).
  for (const name of readdirSync(root)) {
    const m = /^venv\.(partial|old)-(\d+)-/.exec(name);
    if (m && !pidAlive(Number(m[2]))) rmSync(join(root, name), { recursive: true, force: true });
  }
  const python = findPython();
  const t0 = Date.now();
  say(`installing Home Assistant ${HA_VERSION} into ${venv} (first run only, takes a few minutes)`);
  say(`  python ${python.version} (${python.cmd}); pip's output goes to ${join(root, 'install.log')}`);
  const partial = mkdtempSync(join(root, `venv.partial-${process.pid}-`));
  const log = join(root, 'install.log');
  writeFileSync(log, `# ${new Date().toISOString()} install of Home Assistant ${HA_VERSION} into ${partial}\n`);
  // Interrupted: stop pip and drop the half-built venv rather than leave pip writing into it.
  const onSignal = (sig) => {
    for (const child of running) child.kill('SIGKILL');
    rmSync(partial, { recursive: true, force: true });
    say(`install interrupted (${sig}); nothing was kept`);
    process.exit(sig === 'SIGINT' ? 130 : 143);
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    await runLogged(python.cmd, ['-m', 'venv', partial], log, 'creating the venv');
    const pip = [
      '-m', 'pip', 'install', '--no-input', '--disable-pip-version-check', '--progress-bar', 'off',
      '-r', REQS_LOCK,
    ];
    await runLogged(venvPython(partial), pip, log, 'pip install');
    const check = spawnSync(venvPython(partial), ['-c', 'from homeassistant.const import __version__; print(__version__)'], {
      encoding: 'utf8',
    });
    if (check.status !== 0 || check.stdout.trim() !== HA_VERSION) {
      throw new Error(`the new venv does not import homeassistant ${HA_VERSION}: ${check.stdout}${check.stderr}`);
    }
    // From now on pip in this venv never reaches an index: if Home Assistant finds a requirement
    // missing at start-up, its pip install fails at once and ha.mjs says which one, instead of
    // quietly downloading it on every fresh machine.
    writeFileSync(
      join(partial, 'pip.conf'),
      '# Written by tests/e2e/ha.mjs: every requirement is preinstalled from ha-requirements.txt.\n' +
        '[global]\nno-index = true\n',
    );
    writeFileSync(
      join(partial, STAMP),
      JSON.stringify({ version: HA_VERSION, lock: lockDigest(), python: python.version, created: new Date().toISOString() }, null, 2),
    );
  } catch (e) {
    rmSync(partial, { recursive: true, force: true });
    throw e;
  } finally {
    process.removeListener('SIGINT', onSignal);
    process.removeListener('SIGTERM', onSignal);
  }
  // Swap into place. A venv moves safely as long as it is run as venv/bin/python (ha.mjs never
  // uses the console scripts, whose #! lines name the temporary path).
  let old = null;
  if (existsSync(venv)) {
    old = `${venv}.old-${process.pid}-${Date.now()}`;
    renameSync(venv, old);
  }
  try {
    renameSync(partial, venv);
  } catch (e) {
    // Another install finished first; use its venv if it is complete.
    rmSync(partial, { recursive: true, force: true });
    if (!isInstalled()) throw e;
  }
  if (old) rmSync(old, { recursive: true, force: true });
  cpSync(log, join(venv, 'install.log'));
  say(`installed Home Assistant ${HA_VERSION} in ${seconds(Date.now() - t0)} s`);
  return venv;
}

// ---------------------------------------------------------------------------------------------
// state file

export function defaultStateFile() {
  return process.env.HA_E2E_STATE ? resolve(process.env.HA_E2E_STATE) : null;
}

export function readState(stateFile = defaultStateFile()) {
  if (!stateFile) throw new Error('no state file: set HA_E2E_STATE (tests/e2e/run.sh does) or pass --state');
  return JSON.parse(readFileSync(stateFile, 'utf8'));
}

function writeState(state) {
  const tmp = `${state.stateFile}.tmp-${process.pid}`;
  writeFileSync(tmp, JSON.stringify(state, null, 2) + '\n');
  renameSync(tmp, state.stateFile);
}

// ---------------------------------------------------------------------------------------------
// logs

/** The last `lines` lines of a file ('' when it does not exist). */
export function tail(file, lines = 60) {
  let fd;
  try {
    fd = openSync(file, 'r');
  } catch {
    return '';
  }
  try {
    const size = fstatSync(fd).size;
    const len = Math.min(size, 256 * 1024);
    const buf = Buffer.alloc(len);
    readSync(fd, buf, 0, len, size - len);
    return buf.toString('utf8').split('\n').slice(-lines - 1).join('\n');
  } finally {
    closeSync(fd);
  }
}

function readFrom(file, offset) {
  let fd;
  try {
    fd = openSync(file, 'r');
  } catch {
    return '';
  }
  try {
    const size = fstatSync(fd).size;
    if (size <= offset) return '';
    const buf = Buffer.alloc(size - offset);
    readSync(fd, buf, 0, buf.length, offset);
    return buf.toString('utf8');
  } finally {
    closeSync(fd);
  }
}

/** Home Assistant's console output (everything it logs, plus anything printed before logging starts). */
export function logTail(lines = 60, stateFile = defaultStateFile()) {
  return tail(readState(stateFile).log, lines);
}

// ---------------------------------------------------------------------------------------------
// start / stop

function freePort() {
  return new Promise((res, rej) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', rej);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => res(port));
    });
  });
}

/** Our Home Assistant process: alive, and its command line names our config dir (guards against pid reuse). */
function isOurHa(state) {
  if (!pidAlive(state.pid)) return false;
  try {
    const cmd = readFileSync(`/proc/${state.pid}/cmdline`, 'utf8').split('\0');
    return cmd.includes('homeassistant') && cmd.includes(state.configDir);
  } catch {
    return true; // no /proc: trust the pid
  }
}

function spawnHa(state, why) {
  const fd = openSync(state.log, 'a');
  writeSync(fd, `\n===== ha.mjs: ${why} Home Assistant ${HA_VERSION} on ${state.url} at ${new Date().toISOString()}\n`);
  const offset = fstatSync(fd).size;
  const env = { ...process.env, PYTHONUNBUFFERED: '1' };
  // Inside an add-on container these would make Home Assistant load the hassio integration.
  delete env.SUPERVISOR;
  delete env.SUPERVISOR_TOKEN;
  const child = spawn(state.python, ['-m', 'homeassistant', '--config', state.configDir, '--log-no-color'], {
    cwd: state.configDir,
    env,
    detached: true, // its own process group, so stop can signal everything it started
    stdio: ['ignore', fd, fd],
  });
  closeSync(fd);
  child.on('error', () => {});
  child.unref();
  return { pid: child.pid, offset };
}

async function http(url, { method = 'GET', token, json, form, timeoutMs = 5000 } = {}) {
  const headers = {};
  let body;
  if (token) headers.authorization = `Bearer ${token}`;
  if (json !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(json);
  } else if (form) {
    body = new URLSearchParams(form);
  }
  const res = await fetch(url, { method, headers, body, signal: AbortSignal.timeout(timeoutMs) });
  const text = await res.text();
  let data = text;
  try {
    data = JSON.parse(text);
  } catch {}
  return { status: res.status, data };
}

class StartError extends Error {}

/**
 * Poll until `probe` returns a value, failing early when Home Assistant exits or logs something
 * that means it will never be ready. Prints progress every 15 s.
 */
async function waitFor(state, spawned, what, probe, deadline) {
  let nextNote = Date.now() + 15_000;
  const t0 = Date.now();
  for (;;) {
    const newLog = readFrom(state.log, spawned.offset);
    const pipMatch = /Attempting install of ([^\s:]+)|Unable to install package ([^\s:]+)/.exec(newLog);
    if (pipMatch) {
      throw new StartError(
        `Home Assistant tried to pip install ${pipMatch[1] ?? pipMatch[2]} at start-up: add the requirement ` +
          `to tests/e2e/ha-requirements.in (pinned as its manifest pins it) and run "node tests/e2e/ha.mjs lock"`,
      );
    }
    if (/Failed to create HTTP server at port/.test(newLog)) {
      const err = new StartError(`Home Assistant could not listen on ${state.url} (port taken?)`);
      err.portTaken = true;
      throw err;
    }
    if (!pidAlive(spawned.pid)) throw new StartError(`Home Assistant exited while ${what}`);
    try {
      const v = await probe();
      if (v !== undefined && v !== null && v !== false) return v;
    } catch {}
    if (Date.now() > deadline) throw new StartError(`Home Assistant was not ready (${what}) within the time limit`);
    if (Date.now() > nextNote) {
      say(`  still ${what} (${seconds(Date.now() - t0)} s)`);
      nextNote = Date.now() + 15_000;
    }
    await sleep(250);
  }
}

/** auth_required → auth → auth_ok, then one command; returns its result. */
function wsCommand(state, accessToken, command, timeoutMs = 15_000) {
  return new Promise((res, rej) => {
    const ws = new WebSocket(`${state.wsUrl}`);
    const timer = setTimeout(() => {
      ws.terminate();
      rej(new Error(`WebSocket ${command.type}: no answer within ${timeoutMs} ms`));
    }, timeoutMs);
    const done = (fn, v) => {
      clearTimeout(timer);
      ws.close();
      fn(v);
    };
    ws.on('error', (e) => done(rej, e));
    ws.on('message', (buf) => {
      const msg = JSON.parse(buf.toString());
      if (msg.type === 'auth_required') ws.send(JSON.stringify({ type: 'auth', access_token: accessToken }));
      else if (msg.type === 'auth_invalid') done(rej, new Error(`WebSocket auth_invalid: ${msg.message}`));
      else if (msg.type === 'auth_ok') ws.send(JSON.stringify({ id: 1, ...command }));
      else if (msg.type === 'result' && msg.id === 1) {
        if (msg.success) done(res, msg.result);
        else done(rej, new Error(`WebSocket ${command.type}: ${JSON.stringify(msg.error)}`));
      }
    });
  });
}

/** Onboard the owner without a browser and turn that into a long-lived access token. */
async function obtainToken(state) {
  const clientId = `${state.url}/`;
  const users = await http(`${state.url}/api/onboarding/users`, { method: 'POST', json: { client_id: clientId, ...USER } });
  if (users.status !== 200 || !users.data?.auth_code) {
    throw new StartError(`POST /api/onboarding/users answered ${users.status}: ${JSON.stringify(users.data)}`);
  }
  const tok = await http(`${state.url}/auth/token`, {
    method: 'POST',
    form: { grant_type: 'authorization_code', code: users.data.auth_code, client_id: clientId },
  });
  if (tok.status !== 200 || !tok.data?.access_token) {
    throw new StartError(`POST /auth/token answered ${tok.status}: ${JSON.stringify(tok.data)}`);
  }
  return wsCommand(state, tok.data.access_token, {
    type: 'auth/long_lived_access_token',
    client_name: 'home-mcp-bridge e2e',
    lifespan: 3650,
  });
}

/** Wait for the API, onboard when fresh, then wait until Home Assistant runs and the demo entities exist. */
async function becomeReady(state, spawned, { fresh, timeoutMs }) {
  const deadline = Date.now() + timeoutMs;
  await waitFor(state, spawned, 'waiting for the HTTP API', async () => {
    const r = await http(`${state.url}/api/onboarding`, { timeoutMs: 2000 });
    return r.status === 200 && Array.isArray(r.data);
  }, deadline);
  if (fresh) {
    state.token = await obtainToken(state);
    writeState(state);
  }
  await waitFor(state, spawned, 'waiting for Home Assistant to finish starting', async () => {
    const r = await http(`${state.url}/api/config`, { token: state.token, timeoutMs: 2000 });
    if (r.status === 401) throw new StartError('the saved token was refused');
    return r.status === 200 && r.data.state === 'RUNNING' && r.data.version === HA_VERSION;
  }, deadline);
  await waitFor(state, spawned, 'waiting for the demo entities', async () => {
    const r = await http(`${state.url}/api/states`, { token: state.token, timeoutMs: 5000 });
    if (r.status !== 200) return false;
    const ids = new Set(r.data.map((s) => s.entity_id));
    return DEMO_ENTITIES.every((id) => ids.has(id));
  }, deadline);
}

async function failStart(state, spawned, err) {
  say(`start failed: ${err.message}`);
  await killGroup(spawned.pid, 10_000);
  state.pid = null;
  writeState(state);
  say(`last lines of ${state.log}:\n${tail(state.log, 60)}`);
}

/**
 * A fresh Home Assistant: copies tests/e2e/ha-config into DIR/config, picks a free loopback
 * port, starts it, onboards the owner and stores a long-lived token. Returns the state, which is
 * also written to DIR/state.json.
 */
export async function createHa({ dir, stateFile = defaultStateFile(), timeoutMs = envMs('HA_E2E_START_TIMEOUT', 300) } = {}) {
  if (!isInstalled()) await installHa();
  if (dir) dir = resolve(dir);
  else if (stateFile) dir = dirname(stateFile);
  else dir = mkdtempSync(join(tmpdir(), 'home-mcp-bridge-ha-'));
  stateFile = stateFile ?? join(dir, 'state.json');
  mkdirSync(dir, { recursive: true });
  const configDir = join(dir, 'config');
  if (existsSync(configDir)) {
    throw new Error(`${configDir} exists: start makes a fresh instance in a new directory; restart starts this one again`);
  }
  cpSync(CONFIG_SRC, configDir, { recursive: true });
  const state = {
    version: HA_VERSION,
    url: '',
    wsUrl: '',
    port: 0,
    token: null,
    pid: null,
    dir,
    configDir,
    log: join(dir, 'hass.log'),
    stateFile,
    python: venvPython(),
    startSeconds: null,
  };
  for (let attempt = 1; ; attempt++) {
    state.port = await freePort();
    state.url = `http://127.0.0.1:${state.port}`;
    state.wsUrl = `ws://127.0.0.1:${state.port}/api/websocket`;
    writeFileSync(
      join(configDir, 'http.yaml'),
      `# Written by tests/e2e/ha.mjs for this run.\nserver_host: 127.0.0.1\nserver_port: ${state.port}\n`,
    );
    const t0 = Date.now();
    say(`starting Home Assistant ${HA_VERSION} on ${state.url} (config ${configDir}, log ${state.log})`);
    const spawned = spawnHa(state, 'starting');
    state.pid = spawned.pid;
    writeState(state); // early, so that stop finds the process even if this start is interrupted
    try {
      await becomeReady(state, spawned, { fresh: true, timeoutMs });
    } catch (err) {
      await failStart(state, spawned, err);
      if (err.portTaken && attempt < 3) continue;
      throw err;
    }
    state.startSeconds = Number(seconds(Date.now() - t0));
    writeState(state);
    say(`Home Assistant ${HA_VERSION} is ready at ${state.url} in ${state.startSeconds} s (pid ${state.pid}); state in ${state.stateFile}`);
    return state;
  }
}

/**
 * Start the Home Assistant of an existing state file again: same port, same config dir, so the
 * stored token stays valid. A no-op when it is already running.
 */
export async function startHa({ stateFile = defaultStateFile(), timeoutMs = envMs('HA_E2E_START_TIMEOUT', 300) } = {}) {
  const state = readState(stateFile);
  if (isOurHa(state)) return state;
  const t0 = Date.now();
  say(`starting Home Assistant ${HA_VERSION} again on ${state.url}`);
  const spawned = spawnHa(state, 'restarting');
  state.pid = spawned.pid;
  writeState(state);
  try {
    await becomeReady(state, spawned, { fresh: false, timeoutMs });
  } catch (err) {
    await failStart(state, spawned, err);
    throw err;
  }
  state.startSeconds = Number(seconds(Date.now() - t0));
  writeState(state);
  say(`Home Assistant is ready again at ${state.url} in ${state.startSeconds} s (pid ${state.pid})`);
  return state;
}

async function killGroup(pid, graceMs) {
  if (!pidAlive(pid)) return;
  const signal = (sig) => {
    try {
      process.kill(-pid, sig);
    } catch {
      try {
        process.kill(pid, sig);
      } catch {}
    }
  };
  signal('SIGTERM');
  const deadline = Date.now() + graceMs;
  while (pidAlive(pid) && Date.now() < deadline) await sleep(100);
  if (pidAlive(pid)) {
    say(`Home Assistant (pid ${pid}) did not stop within ${seconds(graceMs)} s; killing it`);
    signal('SIGKILL');
    const hard = Date.now() + 10_000;
    while (pidAlive(pid) && Date.now() < hard) await sleep(100);
  }
}

/** SIGTERM, then SIGKILL after $HA_E2E_STOP_TIMEOUT (default 30) seconds. Keeps the config dir. */
export async function stopHa({ stateFile = defaultStateFile(), graceMs = envMs('HA_E2E_STOP_TIMEOUT', 30) } = {}) {
  const state = readState(stateFile);
  if (state.pid && isOurHa(state)) {
    const t0 = Date.now();
    await killGroup(state.pid, graceMs);
    say(`stopped Home Assistant (pid ${state.pid}) in ${seconds(Date.now() - t0)} s`);
  }
  state.pid = null;
  writeState(state);
  return state;
}

export async function restartHa(opts = {}) {
  await stopHa(opts);
  return startHa(opts);
}

// ---------------------------------------------------------------------------------------------
// lock

/** Regenerate ha-requirements.txt from ha-requirements.in with uv, in a throwaway directory. */
async function lock() {
  const python = findPython();
  const work = mkdtempSync(join(tmpdir(), 'home-mcp-bridge-ha-lock-'));
  const log = join(work, 'lock.log');
  try {
    say(`resolving ${basename(REQS_IN)} (log ${log})`);
    await runLogged(python.cmd, ['-m', 'venv', join(work, 'venv')], log, 'creating a venv');
    const py = venvPython(join(work, 'venv'));
    await runLogged(py, ['-m', 'pip', 'install', '--disable-pip-version-check', 'uv'], log, 'installing uv');
    await runLogged(py, ['-m', 'pip', 'download', '--disable-pip-version-check', '--no-deps', '-d', work, `homeassistant==${HA_VERSION}`], log, 'downloading the wheel');
    const wheel = readdirSync(work).find((f) => f.startsWith('homeassistant-') && f.endsWith('.whl'));
    const constraints = join(work, 'package_constraints.txt');
    const extract = `import zipfile,sys; open(sys.argv[2],'wb').write(zipfile.ZipFile(sys.argv[1]).read('homeassistant/package_constraints.txt'))`;
    await runLogged(py, ['-c', extract, join(work, wheel), constraints], log, 'reading package_constraints.txt');
    await runLogged(py, [
      '-m', 'uv', 'pip', 'compile', '--python-version', '3.11', '--exclude-newer', LOCK_EXCLUDE_NEWER,
      '--custom-compile-command', 'node tests/e2e/ha.mjs lock', '--no-annotate',
      '-c', constraints, REQS_IN, '-o', join(work, 'lock.txt'),
    ], log, 'uv pip compile');
    const body = readFileSync(join(work, 'lock.txt'), 'utf8').replace(/^#.*\n/gm, '');
    writeFileSync(
      REQS_LOCK,
      '# Generated by `node tests/e2e/ha.mjs lock` from ha-requirements.in: every package pinned, resolved\n' +
        "# with Home Assistant's package_constraints.txt and only releases published before\n" +
        `# ${LOCK_EXCLUDE_NEWER}. Do not edit by hand.\n` + body,
    );
    say(`wrote ${REQS_LOCK} (${body.trim().split('\n').length} packages)`);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

// ---------------------------------------------------------------------------------------------
// CLI

const shq = (s) => `'${String(s).replace(/'/g, `'\\''`)}'`;

async function main(argv) {
  const [cmd, ...rest] = argv;
  const opt = (name) => {
    const i = rest.indexOf(name);
    return i >= 0 ? rest[i + 1] : undefined;
  };
  const stateFile = opt('--state') ? resolve(opt('--state')) : defaultStateFile();
  switch (cmd) {
    case 'install':
      await installHa({ force: rest.includes('--force') });
      return 0;
    case 'start': {
      const s = await createHa({ dir: opt('--dir'), stateFile: opt('--state') ? stateFile : undefined });
      if (resolve(process.env.HA_E2E_STATE ?? '') !== s.stateFile) {
        say(`for stop, restart, env, logs: export HA_E2E_STATE=${shq(s.stateFile)}`);
      }
      return 0;
    }
    case 'stop':
      if (stateFile && existsSync(stateFile)) await stopHa({ stateFile });
      return 0;
    case 'restart':
      await restartHa({ stateFile });
      return 0;
    case 'status': {
      const s = readState(stateFile);
      process.stdout.write(`${JSON.stringify({ ...s, token: s.token ? '(set)' : null, running: isOurHa(s) }, null, 2)}\n`);
      return isOurHa(s) ? 0 : 3;
    }
    case 'env': {
      const s = readState(stateFile);
      process.stdout.write(`export HASS_URL=${shq(s.url)}\nexport HASS_TOKEN=${shq(s.token)}\nexport HA_E2E_STATE=${shq(s.stateFile)}\n`);
      return 0;
    }
    case 'logs':
      process.stdout.write(`${logTail(Number(rest.find((a) => /^\d+$/.test(a)) ?? 60), stateFile)}\n`);
      return 0;
    case 'lock':
      await lock();
      return 0;
    default:
      process.stderr.write(
        'usage: node tests/e2e/ha.mjs install [--force] | start [--dir DIR] | stop | restart | status | env | logs [N] | lock\n' +
          '       (stop, restart, status, env and logs read $HA_E2E_STATE or --state FILE)\n',
      );
      return 2;
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (err) => {
      say(`ERROR: ${process.env.HA_E2E_DEBUG ? err.stack ?? err : err.message ?? err}`);
      process.exit(1);
    },
  );
}
