// Starts the app in a rehearsed root (rehearse.mjs) as Home Assistant's Supervisor and the image's
// s6 `run` script would: the container's environment (the image's ENV, SUPERVISOR_TOKEN), /data
// mounted, /etc/hosts naming the Supervisor, then what the run script does. s6-overlay and bashio
// are not in the root (GitHub releases), so the script is read, not run: parseRunScript() knows
// each kind of line it may hold and refuses any other, so the two cannot drift apart unnoticed.
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Mounts } from './mounts.mjs';

export const RUN_SCRIPT = 'etc/s6-overlay/s6-rc.d/home-mcp-bridge/run';
const SHEBANG = '#!/command/with-contenv bashio';

/** A shell word: bare, or in single or double quotes (no expansions: the script uses none). */
function word(text) {
  const m = /^'([^']*)'$|^"([^"$`\\]*)"$|^([^\s'"$`\\;&|<>()]+)$/.exec(text);
  if (!m) throw new Error(`not a plain shell word: ${text}`);
  return m[1] ?? m[2] ?? m[3];
}

/**
 * What the run script does: { env, cwd, argv, logs }. Lines: the with-contenv shebang, comments,
 * bashio::log.* calls, `export NAME=value`, `cd DIR || bashio::exit.nok ...` and a final `exec`.
 */
export function parseRunScript(text) {
  const lines = text.split('\n');
  if (lines[0] !== SHEBANG) throw new Error(`run script: the first line must be ${SHEBANG}`);
  const out = { env: {}, cwd: undefined, argv: undefined, logs: [] };
  for (const [i, raw] of lines.entries()) {
    const line = raw.trim();
    if (i === 0 || line === '' || line.startsWith('#')) continue;
    if (out.argv) throw new Error(`run script line ${i + 1}: nothing runs after exec: ${line}`);
    let m;
    if ((m = /^bashio::log\.(?:trace|debug|info|notice|warning|error|fatal) (.+)$/.exec(line))) out.logs.push(word(m[1]));
    else if ((m = /^export ([A-Za-z_][A-Za-z0-9_]*)=(.*)$/.exec(line))) out.env[m[1]] = word(m[2]);
    else if ((m = /^cd (\S+) \|\| bashio::exit\.nok .+$/.exec(line))) out.cwd = word(m[1]);
    else if ((m = /^exec (.+)$/.exec(line))) out.argv = m[1].split(/\s+/).map(word);
    else throw new Error(`run script line ${i + 1} is not one the rehearsal plays: ${line}`);
  }
  if (!out.argv) throw new Error('run script: no exec line');
  if (!out.cwd) throw new Error('run script: no cd line');
  return out;
}

const quote = (s) => `'${String(s).replace(/'/g, `'\\''`)}'`;

/**
 * Starts the app in `rehearsal.root`. `supervisor` is { token, hosts } (hosts: name -> address,
 * written to /etc/hosts as the Supervisor has Docker do); `dataDir` is mounted at /data. Returns
 * { child, run, output(), stop(signal), exited }.
 */
export function startContainer({ rehearsal, dataDir, supervisor, timezone = 'Etc/UTC' }) {
  const root = rehearsal.root;
  const run = parseRunScript(readFileSync(join(root, RUN_SCRIPT), 'utf8'));
  const hosts = [
    '127.0.0.1\tlocalhost',
    '::1\tlocalhost ip6-localhost ip6-loopback',
    ...Object.entries(supervisor.hosts ?? {}).map(([name, ip]) => `${ip}\t${name}`),
  ];
  writeFileSync(join(root, 'etc/hosts'), `${hosts.join('\n')}\n`);
  const mounts = new Mounts();
  mounts.proc(join(root, 'proc'));
  mounts.bind('/dev', join(root, 'dev'));
  mounts.bind(dataDir, join(root, 'data'));
  // The container's environment (with-contenv hands it to the script), then the script's exports.
  const env = {
    ...rehearsal.env,
    HOME: '/root',
    HOSTNAME: 'local-home-mcp-bridge',
    TZ: timezone,
    SUPERVISOR_TOKEN: supervisor.token,
    HASSIO_TOKEN: supervisor.token,
    ...run.env,
  };
  const child = spawn('chroot', [root, '/bin/sh', '-c', `cd ${quote(run.cwd)} && exec ${run.argv.map(quote).join(' ')}`], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (d) => (output += d));
  child.stderr.on('data', (d) => (output += d));
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  void exited.then(() => mounts.release());
  return {
    child,
    run,
    env,
    output: () => output,
    exited,
    /** Sends `signal`; resolves with how it ended, or undefined if it is still running after `graceMs`. */
    async stop(signal = 'SIGTERM', graceMs = 10_000) {
      if (child.exitCode !== null || child.signalCode !== null) return exited;
      child.kill(signal);
      const timer = new Promise((r) => setTimeout(() => r(undefined), graceMs).unref());
      const ended = await Promise.race([exited, timer]);
      if (!ended) {
        child.kill('SIGKILL');
        await exited;
      }
      return ended;
    },
  };
}
