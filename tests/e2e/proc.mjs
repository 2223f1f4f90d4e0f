// Process and log helpers shared by ha.mjs and debian-root.mjs: long installs run with their
// output in a log file and a heartbeat on stderr, and are killed when this process is interrupted.
import { spawn } from 'node:child_process';
import { closeSync, fstatSync, openSync, readFileSync, readSync } from 'node:fs';

export const seconds = (ms) => (ms / 1000).toFixed(1);
export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
export const say = (msg) => process.stderr.write(`[ha] ${msg}\n`);

export function pidAlive(pid) {
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
    return buf
      .toString('utf8')
      .split('\n')
      .slice(-lines - 1)
      .join('\n');
  } finally {
    closeSync(fd);
  }
}

function lastMatchingLine(file, re) {
  const lines = tail(file, 200)
    .split('\n')
    .map((l) => l.trim());
  for (let i = lines.length - 1; i >= 0; i--) if (re.test(lines[i])) return lines[i];
  return null;
}

/** Children of runLogged still running; killAll() ends them when this process is interrupted. */
const running = new Set();
/** The signal this process was interrupted by, once killAll(signal) ran. */
let interruptedBy = null;

/** The error for a step cut short by a signal: the CLIs exit 128 + the signal's number with it. */
export function interruption(what, signal) {
  const err = new Error(`${what} interrupted (${signal}); nothing was kept`);
  err.exitCode = signal === 'SIGINT' ? 130 : 143;
  return err;
}

export function killAll(signal = 'SIGTERM') {
  interruptedBy = signal;
  for (const child of running) {
    try {
      // Each runs in a process group of its own: pip's and debootstrap's children go too.
      process.kill(-child.pid, 'SIGKILL');
    } catch {
      child.kill('SIGKILL');
    }
  }
}

/** Resolves when every child of runLogged has exited (after killAll). */
export async function allExited(timeoutMs = 10_000) {
  const end = Date.now() + timeoutMs;
  while (running.size > 0 && Date.now() < end) await sleep(50);
}

const PROGRESS = /^(Collecting|Downloading|Building|Installing|Successfully|I: )/;

/** Runs a command with its output in a log file, printing a heartbeat so CI logs show progress. */
export async function runLogged(cmd, args, logFile, what, { env = process.env } = {}) {
  const fd = openSync(logFile, 'a');
  const t0 = Date.now();
  const child = spawn(cmd, args, { stdio: ['ignore', fd, fd], env: { ...env, PIP_NO_INPUT: '1' }, detached: true });
  closeSync(fd);
  running.add(child);
  const exited = new Promise((res) => {
    child.on('error', (e) => res({ error: e }));
    child.on('exit', (c, s) => res({ code: c ?? (s ? 128 : 1) }));
  });
  const timer = setInterval(() => {
    const last = lastMatchingLine(logFile, PROGRESS) ?? '';
    say(`  ${what}: ${seconds(Date.now() - t0)} s ${last ? `(${last.slice(0, 100)})` : ''}`);
  }, 20_000);
  const { code, error } = await exited;
  running.delete(child);
  clearInterval(timer);
  if (error) throw new Error(`${what}: cannot run ${cmd}: ${error.message}`);
  if (interruptedBy) throw interruption(what, interruptedBy);
  if (code !== 0) {
    throw new Error(`${what} failed (exit ${code}); last lines of ${logFile}:\n${tail(logFile, 40)}`);
  }
}
