#!/usr/bin/env node
// The real Home Assistant that the end-to-end suite runs against: install, start, stop, restart.
//
//   node tests/e2e/ha.mjs install [--ha V]   venv with homeassistant==V, cached outside the clone (a venv
//                                            from an older lock gets what the current one adds)
//   node tests/e2e/ha.mjs start [--ha V] [--dir DIR]  fresh instance on a free loopback port,
//                                            onboarded, with a long-lived token; writes DIR/state.json
//   node tests/e2e/ha.mjs stop|restart|status|env|logs [N]|check-local   act on $HA_E2E_STATE (or --state FILE)
//   node tests/e2e/ha.mjs lock [--ha V]      regenerate V's requirements lock from its .in file
//
// V is one of RELEASES (default $HA_E2E_VERSION, else the current release, 2026.11.0). A release
// that needs a newer Python than this machine's runs in a Debian root (debian-root.mjs: needs root
// and debootstrap). The same functions are exported for the tests (see ha-control.ts). Plain Node,
// no dependencies beyond `ws` from the project's node_modules.
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  appendFileSync,
  closeSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readFileSync,
  readSync,
  readdirSync,
  readlinkSync,
  realpathSync,
  renameSync,
  rmSync,
  writeFileSync,
  writeSync,
  fstatSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import WebSocket from 'ws';
import { HOST_CA, MOUNT_POINTS, cacheBase, ensureRoot, requireHost, rootCommand, rootDir, rootStamp } from './debian-root.mjs';
import { allExited, killAll, pidAlive, runLogged, say, seconds, sleep, tail } from './proc.mjs';

/**
 * The Home Assistant releases the suite runs against. `root`: runs in the Debian root (its Python
 * is not this machine's). `lockExcludeNewer`: the lock resolves only releases published before it
 * (for an old release, before it was superseded: newer transitive packages break it).
 * `httpTrial`: YAML `http:` settings start as a pending trial that must be promoted (2026.11).
 */
export const RELEASES = Object.freeze({
  '2026.11.0': {
    python: /^3\.14\./,
    pythonVersion: '3.14',
    // The lock resolves for this exact Python (2026.11.0 requires >= 3.14.2; forky has 3.14.8).
    lockPython: '3.14.8',
    root: true,
    lockIn: 'ha-2026.11.0-requirements.in',
    lock: 'ha-2026.11.0-requirements.txt',
    lockExcludeNewer: '2026-11-24T00:00:00Z',
    hashes: true,
    buildTools: ['setuptools', 'pybind11'],
    httpTrial: true,
  },
  '2024.3.3': {
    python: /^3\.(11|12)\./,
    pythonVersion: '3.11',
    lockPython: '3.11',
    root: false,
    lockIn: 'ha-requirements.in',
    lock: 'ha-requirements.txt',
    lockExcludeNewer: '2024-03-23T00:00:00Z',
    hashes: false,
    buildTools: [],
    httpTrial: false,
  },
});
/** The current release, the one users run. */
export const CURRENT_VERSION = '2026.11.0';
/** The oldest release the bridge supports (config.yaml's homeassistant: minimum). */
export const OLDEST_VERSION = '2024.3.3';

/** $HA_E2E_VERSION, else the current release; refuses a release the suite does not know. */
export function selectedVersion(v = process.env.HA_E2E_VERSION || CURRENT_VERSION) {
  if (!RELEASES[v]) throw new Error(`unknown Home Assistant release ${v}: the suite knows ${Object.keys(RELEASES).join(', ')}`);
  return v;
}

function release(version) {
  return RELEASES[selectedVersion(version)];
}

/** Demo entities the suite relies on (DESIGN.md, "The hub"); start waits until all of them exist. */
const DEMO = [
  'light.bed_light',
  'climate.hvac',
  'cover.kitchen_window',
  'lock.front_door',
  'fan.living_room_fan',
  'media_player.living_room',
  'alarm_control_panel.security',
];
export function demoEntities(version) {
  // 2024.3.3 names the demo vacuum after its name alone; 2026.11 after its device too.
  return Object.freeze([...DEMO, version === '2024.3.3' ? 'vacuum.0_ground_floor' : 'vacuum.demo_vacuum_0_ground_floor']);
}

const HERE = dirname(fileURLToPath(import.meta.url));
const CONFIG_SRC = join(HERE, 'ha-config');
const lockFile = (version) => join(HERE, release(version).lock);

const USER = { name: 'E2E', username: 'e2e', password: 'e2e-password-not-secret', language: 'en' };

function envMs(name, fallbackSeconds) {
  const v = Number(process.env[name]);
  return (Number.isFinite(v) && v > 0 ? v : fallbackSeconds) * 1000;
}

// ---------------------------------------------------------------------------------------------
// install

/** `<cache>/ha-<version>` under `${XDG_CACHE_HOME:-$HOME/.cache}/home-mcp-bridge` (or $HA_E2E_CACHE). */
export function cacheDir(version = selectedVersion()) {
  return join(cacheBase(), `ha-${selectedVersion(version)}`);
}

export function venvDir(version = selectedVersion()) {
  return join(cacheDir(version), 'venv');
}

/** The venv's python as this machine runs it (host releases), or as the chroot'ed process sees it. */
function venvPython(venv) {
  return join(venv, 'bin', 'python');
}

const STAMP = '.home-mcp-bridge-install.json';

function lockDigest(version) {
  return createHash('sha256')
    .update(readFileSync(lockFile(version)))
    .digest('hex');
}

function pythonVersion(cmd) {
  const r = spawnSync(cmd, ['-c', 'import sys; print("%d.%d.%d" % sys.version_info[:3])'], { encoding: 'utf8' });
  return r.status === 0 ? r.stdout.trim() : null;
}

/** A Python of this machine that Home Assistant 2024.3 runs on: $HA_E2E_PYTHON, else python3.11, else python3 (3.11 or 3.12). */
function findPython(version) {
  const rel = release(version);
  const candidates = process.env.HA_E2E_PYTHON ? [process.env.HA_E2E_PYTHON] : ['python3.11', 'python3', 'python3.12'];
  for (const cmd of candidates) {
    const v = pythonVersion(cmd);
    if (v && rel.python.test(v)) return { cmd, version: v };
  }
  throw new Error(`Home Assistant ${version} needs Python ${rel.pythonVersion}; tried ${candidates.join(', ')}. Set HA_E2E_PYTHON to one.`);
}

/** The root's identity, which a venv built in it records (a rebuilt root makes the venv stale). */
const rootId = () => {
  const s = rootStamp();
  return s ? `${s.digest}@${s.created}` : null;
};

/** The cached venv's stamp when the venv is complete for this release (and root), whatever lock built it. */
function completeStamp(version) {
  const venv = venvDir(version);
  try {
    const stamp = JSON.parse(readFileSync(join(venv, STAMP), 'utf8'));
    if (stamp.version !== version) return null;
    // A root venv's bin/python links to the root's python: not a path on this machine.
    if (release(version).root) return stamp.root === rootId() && existsSync(join(venv, 'pyvenv.cfg')) ? stamp : null;
    return existsSync(realpathSync(venvPython(venv))) ? stamp : null;
  } catch {
    return null;
  }
}

/** Whether the cached venv is complete and was built from the current lock (and root). */
export function isInstalled(version = selectedVersion()) {
  return completeStamp(version)?.lock === lockDigest(version);
}

/** A command line (for runLogged or spawn) that runs `argv` with this release's Python. */
function pythonCommand(version, argv, { venv, work, env = {} } = {}) {
  if (!release(version).root) return { cmd: argv[0], args: argv.slice(1), env: { ...process.env, ...env } };
  const binds = [];
  if (venv) binds.push({ src: venv, dst: MOUNT_POINTS.venv });
  if (work) binds.push({ src: work, dst: MOUNT_POINTS.run });
  // pip reaches PyPI through the host's proxies and CA bundle (this network may re-sign TLS).
  const pass = [
    'HTTP_PROXY',
    'HTTPS_PROXY',
    'NO_PROXY',
    'http_proxy',
    'https_proxy',
    'no_proxy',
    'PIP_INDEX_URL',
    'PIP_EXTRA_INDEX_URL',
    'PIP_TRUSTED_HOST',
    'PIP_DEFAULT_TIMEOUT',
  ];
  const inner = { PIP_CERT: HOST_CA, SSL_CERT_FILE: HOST_CA, ...env };
  for (const k of pass) if (process.env[k]) inner[k] = process.env[k];
  const { cmd, args } = rootCommand(argv, { binds, env: inner });
  return { cmd, args, env: process.env };
}

/** Lines of a lock (requirement plus its --hash continuation lines) for the named packages. */
function lockBlocks(text, names) {
  const want = new Set(names.map((n) => n.toLowerCase().replace(/[-_.]+/g, '-')));
  const blocks = text.split(/\n(?=[^\s#])/);
  return `${blocks
    .filter((b) =>
      want.has(
        b
          .split(/[=<>\s]/)[0]
          .toLowerCase()
          .replace(/[-_.]+/g, '-'),
      ),
    )
    .join('\n')}\n`;
}

/**
 * Create the venv once: built in a temporary sibling directory and renamed into place only when
 * complete, so an interrupted install is never reused. Returns the venv path. A release that runs
 * in the Debian root gets the root first (debian-root.mjs), and its venv is made inside it.
 */
export async function installHa({ version = selectedVersion(), force = false } = {}) {
  version = selectedVersion(version);
  const rel = release(version);
  const venv = venvDir(version);
  if (!force && isInstalled(version)) {
    say(`Home Assistant ${version} is installed (cached in ${venv})`);
    return venv;
  }
  if (!force && completeStamp(version)) {
    try {
      await topUp(version);
      return venv;
    } catch (e) {
      say(`topping up ${venv} failed (${e.message}); installing afresh`);
    }
  }
  if (rel.root) {
    requireHost(`Home Assistant ${version}`, { build: !rootStamp() });
    await ensureRoot();
  }
  const root = cacheDir(version);
  mkdirSync(root, { recursive: true });
  // Leftovers of installs that were interrupted (their process is gone).
  for (const name of readdirSync(root)) {
    const m = /^(venv|work)\.(partial|old)-(\d+)-/.exec(name);
    if (m && !pidAlive(Number(m[3]))) rmSync(join(root, name), { recursive: true, force: true });
  }
  const python = rel.root ? { cmd: `/usr/bin/python${rel.pythonVersion}`, version: rootStamp().python } : findPython(version);
  const t0 = Date.now();
  say(`installing Home Assistant ${version} into ${venv} (first run only, takes a few minutes)`);
  say(`  python ${python.version} (${rel.root ? `Debian root ${rootDir()}` : python.cmd}); pip's output goes to ${join(root, 'install.log')}`);
  const partial = mkdtempSync(join(root, `venv.partial-${process.pid}-`));
  // What pip reads (the lock) sits beside the venv, where a chroot'ed pip sees it too.
  const work = mkdtempSync(join(root, `work.partial-${process.pid}-`));
  const log = join(root, 'install.log');
  writeFileSync(log, `# ${new Date().toISOString()} install of Home Assistant ${version} into ${partial}\n`);
  // Inside the root the venv lives at the mount point it is always mounted on.
  const at = rel.root ? { venv: MOUNT_POINTS.venv, work: MOUNT_POINTS.run } : { venv: partial, work };
  const run = (argv, what) => {
    const c = pythonCommand(version, argv, { venv: partial, work });
    return runLogged(c.cmd, c.args, log, what, { env: c.env });
  };
  // Interrupted: stop pip and drop the half-built venv rather than leave pip writing into it.
  const onSignal = async (sig) => {
    killAll(sig);
    await allExited();
    rmSync(partial, { recursive: true, force: true });
    rmSync(work, { recursive: true, force: true });
    say(`install interrupted (${sig}); nothing was kept`);
    process.exit(sig === 'SIGINT' ? 130 : 143);
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    const lockText = readFileSync(lockFile(version), 'utf8');
    writeFileSync(join(work, 'requirements.txt'), lockText);
    await run([python.cmd, '-m', 'venv', at.venv], 'creating the venv');
    const pip = [venvPython(at.venv), '-m', 'pip', 'install', '--no-input', '--disable-pip-version-check', '--progress-bar', 'off'];
    const hashes = rel.hashes ? ['--require-hashes', '--no-deps'] : [];
    if (rel.buildTools.length) {
      // Packages without a wheel for this Python build here, with build tools from the lock.
      writeFileSync(join(work, 'build-tools.txt'), lockBlocks(lockText, rel.buildTools));
      await run([...pip, ...hashes, '-r', join(at.work, 'build-tools.txt')], 'pip install (build tools)');
    }
    const noIsolation = rel.buildTools.length ? ['--no-build-isolation'] : [];
    await run([...pip, ...hashes, ...noIsolation, '-r', join(at.work, 'requirements.txt')], 'pip install');
    const check = pythonCommand(version, [venvPython(at.venv), '-c', 'from homeassistant.const import __version__; print(__version__)'], { venv: partial });
    const checked = spawnSync(check.cmd, check.args, { encoding: 'utf8', env: check.env });
    if (checked.status !== 0 || checked.stdout.trim() !== version) {
      throw new Error(`the new venv does not import homeassistant ${version}: ${checked.stdout}${checked.stderr}`);
    }
    // From now on pip in this venv never reaches an index: if Home Assistant finds a requirement
    // missing at start-up, its install fails at once and ha.mjs says which one, instead of
    // quietly downloading it on every fresh machine. (2026.11 installs with uv: UV_OFFLINE at start.)
    writeFileSync(join(partial, 'pip.conf'), `# Written by tests/e2e/ha.mjs: every requirement is preinstalled from ${rel.lock}.\n[global]\nno-index = true\n`);
    writeFileSync(
      join(partial, STAMP),
      JSON.stringify(
        { version, lock: lockDigest(version), root: rel.root ? rootId() : null, python: python.version, created: new Date().toISOString() },
        null,
        2,
      ),
    );
  } catch (e) {
    rmSync(partial, { recursive: true, force: true });
    throw e;
  } finally {
    rmSync(work, { recursive: true, force: true });
    process.removeListener('SIGINT', onSignal);
    process.removeListener('SIGTERM', onSignal);
  }
  // Swap into place. A host venv moves safely as long as it is run as venv/bin/python (ha.mjs never
  // uses the console scripts, whose #! lines name the temporary path); a root venv was made at its
  // mount point, so its paths never change.
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
    if (!isInstalled(version)) throw e;
  }
  if (old) rmSync(old, { recursive: true, force: true });
  cpSync(log, join(venv, 'install.log'));
  say(`installed Home Assistant ${version} in ${seconds(Date.now() - t0)} s`);
  return venv;
}

/**
 * A complete venv built from an older lock (a requirement added, say, or another worktree's lock)
 * gets what the current lock says installed into it, in place, then the current stamp: what pip
 * finds already installed it leaves, so this takes seconds where a fresh install takes minutes.
 * What the lock no longer names stays installed (harmless; `install --force` builds afresh).
 */
async function topUp(version) {
  const rel = release(version);
  const venv = venvDir(version);
  const root = cacheDir(version);
  const t0 = Date.now();
  const log = join(root, 'install.log');
  const work = mkdtempSync(join(root, `work.partial-${process.pid}-`));
  appendFileSync(log, `# ${new Date().toISOString()} top-up of ${venv} from ${rel.lock}\n`);
  say(`Home Assistant ${version}'s venv was built from another ${rel.lock}: installing what it lacks (pip's output goes to ${log})`);
  try {
    writeFileSync(join(work, 'requirements.txt'), readFileSync(lockFile(version), 'utf8'));
    const at = rel.root ? { venv: MOUNT_POINTS.venv, work: MOUNT_POINTS.run } : { venv, work };
    const pip = [venvPython(at.venv), '-m', 'pip', 'install', '--no-input', '--disable-pip-version-check', '--progress-bar', 'off'];
    const hashes = rel.hashes ? ['--require-hashes', '--no-deps'] : [];
    const noIsolation = rel.buildTools.length ? ['--no-build-isolation'] : [];
    // The venv's pip.conf says no-index (for Home Assistant at start-up); this pip may reach the index.
    const c = pythonCommand(version, [...pip, ...hashes, ...noIsolation, '-r', join(at.work, 'requirements.txt')], {
      venv,
      work,
      env: { PIP_CONFIG_FILE: '/dev/null' },
    });
    await runLogged(c.cmd, c.args, log, 'pip install (top-up)', { env: c.env });
    const stamp = { ...completeStamp(version), lock: lockDigest(version), topped_up: new Date().toISOString() };
    const tmp = join(work, STAMP);
    writeFileSync(tmp, JSON.stringify(stamp, null, 2));
    renameSync(tmp, join(venv, STAMP));
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  say(`topped up Home Assistant ${version} in ${seconds(Date.now() - t0)} s`);
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
  writeFileSync(tmp, `${JSON.stringify(state, null, 2)}\n`);
  renameSync(tmp, state.stateFile);
}

// ---------------------------------------------------------------------------------------------
// logs

export { tail };

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

/**
 * Our Home Assistant process: alive, its command line names our config dir as it sees it, and (in
 * the Debian root, where every run's config dir has the same inside path) its root is that root.
 */
function isOurHa(state) {
  if (!pidAlive(state.pid)) return false;
  try {
    const cmd = readFileSync(`/proc/${state.pid}/cmdline`, 'utf8').split('\0');
    if (!cmd.includes('homeassistant') || !cmd.includes(state.haConfigDir ?? state.configDir)) return false;
    return !state.root || readlinkSync(`/proc/${state.pid}/root`) === state.root;
  } catch {
    return true; // no /proc: trust the pid
  }
}

function spawnHa(state, why) {
  const fd = openSync(state.log, 'a');
  writeSync(fd, `\n===== ha.mjs: ${why} Home Assistant ${state.version} on ${state.url} at ${new Date().toISOString()}\n`);
  const offset = fstatSync(fd).size;
  const argv = [state.python, '-m', 'homeassistant', '--config', state.haConfigDir ?? state.configDir, '--log-no-color'];
  let cmd = argv[0];
  let args = argv.slice(1);
  let env = { ...process.env, PYTHONUNBUFFERED: '1' };
  // Inside an add-on container these would make Home Assistant load the hassio integration.
  delete env.SUPERVISOR;
  delete env.SUPERVISOR_TOKEN;
  if (state.root) {
    // A private mount namespace: the venv (read-only) and the run directory are mounted in the
    // root for this process alone, and unmounted by the kernel when it exits, however it exits.
    // UV_OFFLINE: 2026.11 installs missing requirements with uv, which must not reach an index.
    ({ cmd, args } = rootCommand(argv, {
      root: state.root,
      binds: [
        { src: venvDir(state.version), dst: MOUNT_POINTS.venv, ro: true },
        { src: state.dir, dst: MOUNT_POINTS.run },
      ],
      env: { PYTHONUNBUFFERED: '1', UV_OFFLINE: '1', PIP_CONFIG_FILE: `${MOUNT_POINTS.venv}/pip.conf` },
    }));
    env = process.env;
  }
  const child = spawn(cmd, args, {
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
      const rel = release(state.version);
      throw new StartError(
        `Home Assistant tried to pip install ${pipMatch[1] ?? pipMatch[2]} at start-up: add the requirement ` +
          `to tests/e2e/${rel.lockIn} (pinned as its manifest pins it) and run "node tests/e2e/ha.mjs lock --ha ${state.version}"`,
      );
    }
    // 2026.11: a pending http config that cannot bind falls back to the stable one, which before
    // the first promotion is the default (every interface, port 8123). Never let that run.
    if (/Failed to create HTTP server at port|The new HTTP configuration could not be applied/.test(newLog)) {
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
  await waitFor(
    state,
    spawned,
    'waiting for the HTTP API',
    async () => {
      const r = await http(`${state.url}/api/onboarding`, { timeoutMs: 2000 });
      return r.status === 200 && Array.isArray(r.data);
    },
    deadline,
  );
  if (fresh) {
    state.token = await obtainToken(state);
    writeState(state);
    if (release(state.version).httpTrial) await promoteHttpConfig(state);
  }
  await waitFor(
    state,
    spawned,
    'waiting for Home Assistant to finish starting',
    async () => {
      const r = await http(`${state.url}/api/config`, { token: state.token, timeoutMs: 2000 });
      if (r.status === 401) throw new StartError('the saved token was refused');
      return r.status === 200 && r.data.state === 'RUNNING' && r.data.version === state.version;
    },
    deadline,
  );
  await waitFor(
    state,
    spawned,
    'waiting for the demo entities',
    async () => {
      const r = await http(`${state.url}/api/states`, { token: state.token, timeoutMs: 5000 });
      if (r.status !== 200) return false;
      const ids = new Set(r.data.map((s) => s.entity_id));
      return demoEntities(state.version).every((id) => ids.has(id));
    },
    deadline,
  );
  const wide = listeningSockets(spawned.pid).filter((s) => !s.loopback);
  if (wide.length) throw new StartError(`Home Assistant listens beyond loopback: ${wide.map((s) => `${s.proto} ${s.address}:${s.port}`).join(', ')}`);
}

/**
 * 2026.11 takes YAML `http:` settings as a pending trial: unless promoted within 5 minutes it
 * reverts to the stable config (before any promotion: every interface, port 8123) and restarts.
 * Promote ours (loopback, the port we picked) and check what is now stable.
 */
async function promoteHttpConfig(state) {
  await wsCommand(state, state.token, { type: 'http/config/promote' });
  const conf = await wsCommand(state, state.token, { type: 'http/config' });
  const hosts = [conf.stable?.server_host].flat();
  if (conf.pending !== null || conf.stable?.server_port !== state.port || !hosts.length || !hosts.every((h) => h === '127.0.0.1')) {
    throw new StartError(`after http/config/promote the stable http config is not ours: ${JSON.stringify(conf)}`);
  }
  say(`  promoted the http config (127.0.0.1:${state.port}) to stable`);
}

/** IPv4 or IPv6 address from /proc/net/{tcp,udp}{,6} hex (little-endian 32-bit words). */
function procAddress(hex) {
  const words = hex.match(/.{8}/g).map((w) => Buffer.from(w, 'hex').reverse());
  const bytes = Buffer.concat(words);
  if (bytes.length === 4) return [...bytes].join('.');
  if (bytes.subarray(0, 10).every((b) => b === 0) && bytes[10] === 0xff && bytes[11] === 0xff) return `::ffff:${[...bytes.subarray(12)].join('.')}`;
  const groups = [];
  for (let i = 0; i < 16; i += 2) groups.push(bytes.readUInt16BE(i).toString(16));
  return groups.join(':').replace(/(^|:)0(:0)+(:|$)/, '::');
}

const isLoopback = (a) => /^127\./.test(a) || a === '::1' || a === '0:0:0:0:0:0:0:1' || /^::ffff:127\./.test(a);

/**
 * The TCP sockets listening and UDP sockets bound by a process and the rest of its process group:
 * [{proto, address, port, loopback}]. Read from /proc, so it sees what the kernel sees.
 */
export function listeningSockets(pid) {
  const pids = [pid];
  for (const p of readdirSync('/proc')) {
    if (!/^\d+$/.test(p) || Number(p) === pid) continue;
    try {
      const stat = readFileSync(`/proc/${p}/stat`, 'utf8');
      if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[2]) === pid) pids.push(Number(p));
    } catch {}
  }
  const inodes = new Set();
  for (const p of pids) {
    let fds = [];
    try {
      fds = readdirSync(`/proc/${p}/fd`);
    } catch {}
    for (const fd of fds) {
      try {
        const m = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${p}/fd/${fd}`));
        if (m) inodes.add(m[1]);
      } catch {}
    }
  }
  const out = [];
  for (const file of ['tcp', 'tcp6', 'udp', 'udp6']) {
    let text = '';
    try {
      text = readFileSync(`/proc/${pid}/net/${file}`, 'utf8');
    } catch {
      continue;
    }
    for (const line of text.split('\n').slice(1)) {
      const f = line.trim().split(/\s+/);
      if (f.length < 10 || !inodes.has(f[9])) continue;
      const proto = file.replace('6', '');
      if (proto === 'tcp' && f[3] !== '0A') continue; // only LISTEN
      const [hex, port] = f[1].split(':');
      const address = procAddress(hex);
      out.push({ proto, address, port: parseInt(port, 16), loopback: isLoopback(address) });
    }
  }
  return out;
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
export async function createHa({ version = selectedVersion(), dir, stateFile = defaultStateFile(), timeoutMs = envMs('HA_E2E_START_TIMEOUT', 300) } = {}) {
  version = selectedVersion(version);
  const rel = release(version);
  if (rel.root) requireHost(`Home Assistant ${version}`, { build: !rootStamp() });
  if (!isInstalled(version)) await installHa({ version });
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
    version,
    url: '',
    wsUrl: '',
    port: 0,
    token: null,
    pid: null,
    dir,
    configDir,
    // As Home Assistant sees them: in the Debian root the run directory is mounted at MOUNT_POINTS.run.
    haConfigDir: rel.root ? `${MOUNT_POINTS.run}/config` : configDir,
    root: rel.root ? rootDir() : null,
    log: join(dir, 'hass.log'),
    stateFile,
    python: venvPython(rel.root ? MOUNT_POINTS.venv : venvDir(version)),
    startSeconds: null,
  };
  for (let attempt = 1; ; attempt++) {
    state.port = await freePort();
    state.url = `http://127.0.0.1:${state.port}`;
    state.wsUrl = `ws://127.0.0.1:${state.port}/api/websocket`;
    writeFileSync(join(configDir, 'http.yaml'), `# Written by tests/e2e/ha.mjs for this run.\nserver_host: 127.0.0.1\nserver_port: ${state.port}\n`);
    const t0 = Date.now();
    say(`starting Home Assistant ${version} on ${state.url} (config ${configDir}, log ${state.log}${rel.root ? `, in ${state.root}` : ''})`);
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
    say(`Home Assistant ${version} is ready at ${state.url} in ${state.startSeconds} s (pid ${state.pid}); state in ${state.stateFile}`);
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
  if (state.root) requireHost(`Home Assistant ${state.version}`);
  const t0 = Date.now();
  say(`starting Home Assistant ${state.version} again on ${state.url}`);
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

/**
 * Regenerate a release's lock from its .in file with uv, in a throwaway directory: resolved for
 * its Python on Linux x86_64 with Home Assistant's own package_constraints.txt (from the wheel),
 * with hashes where the release asks for them. Needs only a python3 here (uv resolves for any).
 */
async function lock(version) {
  const rel = release(version);
  const work = mkdtempSync(join(tmpdir(), 'home-mcp-bridge-ha-lock-'));
  const log = join(work, 'lock.log');
  const target = ['--python-version', rel.lockPython, ...(rel.root ? ['--python-platform', 'x86_64-manylinux_2_28'] : [])];
  try {
    say(`resolving ${rel.lockIn} for Python ${rel.pythonVersion} (log ${log})`);
    await runLogged(process.env.HA_E2E_PYTHON || 'python3', ['-m', 'venv', join(work, 'venv')], log, 'creating a venv');
    const py = venvPython(join(work, 'venv'));
    await runLogged(py, ['-m', 'pip', 'install', '--disable-pip-version-check', 'uv'], log, 'installing uv');
    const download = [
      '-m',
      'pip',
      'download',
      '--disable-pip-version-check',
      '--no-deps',
      '--only-binary',
      ':all:',
      '--python-version',
      rel.lockPython,
      '-d',
      work,
      `homeassistant==${version}`,
    ];
    await runLogged(py, download, log, 'downloading the wheel');
    const wheel = readdirSync(work).find((f) => f.startsWith('homeassistant-') && f.endsWith('.whl'));
    const constraints = join(work, 'package_constraints.txt');
    const extract = `import zipfile,sys; open(sys.argv[2],'wb').write(zipfile.ZipFile(sys.argv[1]).read('homeassistant/package_constraints.txt'))`;
    await runLogged(py, ['-c', extract, join(work, wheel), constraints], log, 'reading package_constraints.txt');
    const command = `node tests/e2e/ha.mjs lock --ha ${version}`;
    await runLogged(
      py,
      [
        '-m',
        'uv',
        'pip',
        'compile',
        ...target,
        '--exclude-newer',
        rel.lockExcludeNewer,
        '--custom-compile-command',
        command,
        '--no-annotate',
        ...(rel.hashes ? ['--generate-hashes'] : []),
        '-c',
        constraints,
        join(HERE, rel.lockIn),
        '-o',
        join(work, 'lock.txt'),
      ],
      log,
      'uv pip compile',
    );
    const body = readFileSync(join(work, 'lock.txt'), 'utf8').replace(/^#.*\n/gm, '');
    writeFileSync(
      lockFile(version),
      `# Generated by \`${command}\` from ${rel.lockIn}: every package pinned${rel.hashes ? ' with its hashes' : ''},\n` +
        `# resolved for Python ${rel.pythonVersion} with Home Assistant's package_constraints.txt and only releases published\n` +
        `# before ${rel.lockExcludeNewer}. Do not edit by hand.\n` +
        body,
    );
    say(`wrote ${lockFile(version)} (${body.split('\n').filter((l) => /^[^\s#]/.test(l)).length} packages)`);
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
  const version = selectedVersion(opt('--ha'));
  switch (cmd) {
    case 'install':
      await installHa({ version, force: rest.includes('--force') });
      return 0;
    case 'start': {
      const s = await createHa({ version, dir: opt('--dir'), stateFile: opt('--state') ? stateFile : undefined });
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
      process.stdout.write(
        `export HASS_URL=${shq(s.url)}\nexport HASS_TOKEN=${shq(s.token)}\nexport HA_E2E_STATE=${shq(s.stateFile)}\nexport HA_E2E_VERSION=${shq(s.version)}\n`,
      );
      return 0;
    }
    case 'logs':
      process.stdout.write(`${logTail(Number(rest.find((a) => /^\d+$/.test(a)) ?? 60), stateFile)}\n`);
      return 0;
    case 'lock':
      await lock(version);
      return 0;
    case 'check-local': {
      // After a run: did anything make Home Assistant listen beyond loopback on the way?
      const s = readState(stateFile);
      if (!isOurHa(s)) throw new Error('Home Assistant is not running');
      const sockets = listeningSockets(s.pid);
      const wide = sockets.filter((x) => !x.loopback);
      for (const x of wide) say(`Home Assistant ${s.version} listens beyond loopback: ${x.proto} ${x.address}:${x.port}`);
      if (!wide.length) say(`Home Assistant ${s.version} listens on loopback only (${sockets.map((x) => `${x.proto} ${x.address}:${x.port}`).join(', ')})`);
      return wide.length ? 4 : 0;
    }
    case 'releases':
      process.stdout.write(`${Object.keys(RELEASES).join('\n')}\n`);
      return 0;
    default:
      process.stderr.write(
        'usage: node tests/e2e/ha.mjs install [--ha V] [--force] | start [--ha V] [--dir DIR] | stop | restart | status | env | logs [N]\n' +
          '       | check-local | lock [--ha V] | releases\n' +
          `       V: ${Object.keys(RELEASES).join(' or ')} (default $HA_E2E_VERSION, else ${CURRENT_VERSION})\n` +
          '       (stop, restart, status, env and logs read $HA_E2E_STATE or --state FILE)\n',
      );
      return 2;
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (err) => {
      say(`ERROR: ${process.env.HA_E2E_DEBUG ? (err.stack ?? err) : (err.message ?? err)}`);
      process.exit(err?.exitCode ?? 1);
    },
  );
}
