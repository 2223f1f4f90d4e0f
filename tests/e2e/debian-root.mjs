#!/usr/bin/env node
// A Debian root filesystem in which Home Assistant releases that need a newer Python than this
// machine's run (2026.11 needs Python 3.14: Debian forky has it). Made with debootstrap from the
// Debian package registry, cached, and entered with chroot inside a private mount namespace.
//
//   node tests/e2e/debian-root.mjs build [--force]   make it once (about 2 minutes), or reuse it
//   node tests/e2e/debian-root.mjs status            where it is and whether it is current (exit 3 if not)
//   node tests/e2e/debian-root.mjs run CMD ARGS...   run a command inside (e.g. bash)
//
// Needs root (debootstrap, mount and chroot do) and debootstrap (`apt-get install debootstrap`);
// refuses with a plain message when either is missing. Nothing is ever mounted in the host's own
// mount namespace: debootstrap and everything that runs inside get a private one (`unshare
// --mount`), whose mounts the kernel removes when its last process exits, whatever the exit (a
// signal, a crash, SIGKILL). The root is built in a `root.partial-*` sibling and renamed into place
// only when it is complete and verified, so an interrupted build never looks complete.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { delimiter, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { allExited, killAll, pidAlive, runLogged, say, seconds } from './proc.mjs';

/** The recipe: what the root holds. A change of it makes a new cache path (the digest). */
export const RECIPE = Object.freeze({
  suite: 'forky',
  // bookworm's debootstrap has no forky script; sid's makes any testing suite.
  script: 'sid',
  variant: 'minbase',
  packages: [
    'python3.14',
    'python3.14-venv',
    'python3.14-dev', // Home Assistant 2026.11 needs Python 3.14
    'gcc',
    'g++',
    'libc6-dev', // pymicro-vad and pyspeex-noise (assist_pipeline) build from source
    'ca-certificates',
    'tzdata', // zoneinfo for the configured time zone
    'libturbojpeg0', // the camera integration logs an error at every start without it
  ],
  python: '3.14',
  revision: 1,
});

const DIGEST = createHash('sha256').update(JSON.stringify(RECIPE)).digest('hex').slice(0, 12);
const STAMP = '.home-mcp-bridge-root.json';

/** Where a chroot'ed process finds the Home Assistant venv and its run directory (bind mounts). */
export const MOUNT_POINTS = Object.freeze({ venv: '/opt/home-mcp-bridge/venv', run: '/srv/home-mcp-bridge' });
/** The host's CA bundle, visible inside under this name (this network may re-sign TLS). */
export const HOST_CA = '/etc/ssl/certs/home-mcp-bridge-host-ca.crt';
const HOST_CA_SOURCE = '/etc/ssl/certs/ca-certificates.crt';

const MIRROR = () => process.env.HA_E2E_DEBIAN_MIRROR || 'http://deb.debian.org/debian';

/** `${XDG_CACHE_HOME:-$HOME/.cache}/home-mcp-bridge`, or $HA_E2E_CACHE. */
export function cacheBase() {
  if (process.env.HA_E2E_CACHE) return resolve(process.env.HA_E2E_CACHE);
  return join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'home-mcp-bridge');
}

/** `<cache>/debian-forky-<recipe digest>`: a new recipe never touches a root that is in use. */
export function rootHome() {
  return join(cacheBase(), `debian-${RECIPE.suite}-${DIGEST}`);
}

export function rootDir() {
  return join(rootHome(), 'root');
}

/** The stamp of the complete root, or null when there is none (or it is from another recipe). */
export function rootStamp() {
  try {
    const stamp = JSON.parse(readFileSync(join(rootDir(), STAMP), 'utf8'));
    if (stamp.digest !== DIGEST) return null;
    if (!existsSync(join(rootDir(), 'usr', 'bin', `python${RECIPE.python}`))) return null;
    return stamp;
  } catch {
    return null;
  }
}

export function isRootCurrent() {
  return rootStamp() !== null;
}

function onPath(cmd) {
  const dirs = [...(process.env.PATH ?? '').split(delimiter), '/usr/sbin', '/sbin', '/usr/bin', '/bin'];
  return dirs.some((d) => d && existsSync(join(d, cmd)));
}

/** What this machine lacks to build or enter the root (an empty list when nothing). */
export function missingPrerequisites({ build = false } = {}) {
  const missing = [];
  if (typeof process.getuid === 'function' && process.getuid() !== 0) {
    missing.push('root: debootstrap, mount and chroot need it (run as root; CI does)');
  }
  for (const cmd of ['unshare', 'mount', 'chroot']) if (!onPath(cmd)) missing.push(`${cmd} (util-linux, coreutils)`);
  if (build) {
    if (!onPath('debootstrap')) missing.push('debootstrap: apt-get install debootstrap');
    else if (!existsSync(`/usr/share/debootstrap/scripts/${RECIPE.script}`)) {
      missing.push(`debootstrap's "${RECIPE.script}" script (/usr/share/debootstrap/scripts/${RECIPE.script}): apt-get install debootstrap`);
    }
  }
  return missing;
}

/** Throws a plain explanation when the machine cannot build (or enter) the root. */
export function requireHost(purpose, { build = false } = {}) {
  const missing = missingPrerequisites({ build });
  if (missing.length === 0) return;
  throw new Error(
    `${purpose} runs in a Debian ${RECIPE.suite} root (Python ${RECIPE.python}) made with debootstrap, without Docker. ` +
      `This machine lacks:\n  - ${missing.join('\n  - ')}`,
  );
}

const shq = (s) => `'${String(s).replace(/'/g, `'\\''`)}'`;

/**
 * The command line that runs `argv` inside the root, in a private mount namespace: /proc, /dev, a
 * private /tmp, the host's resolv.conf and CA bundle, and `binds` ({src, dst, ro}) are mounted
 * there and vanish with the namespace. `env` is the whole environment inside (plus PATH, HOME, LANG).
 */
export function rootCommand(argv, { binds = [], env = {}, root = rootDir() } = {}) {
  const lines = [
    'set -e',
    `r=${shq(root)}`,
    'mount -t proc proc "$r/proc"',
    'mount --rbind /dev "$r/dev"',
    'mount -t tmpfs -o mode=1777 tmpfs "$r/tmp"',
    'if [ -e /etc/resolv.conf ]; then mount --bind /etc/resolv.conf "$r/etc/resolv.conf"; fi',
    `if [ -e ${shq(HOST_CA_SOURCE)} ]; then mount --bind ${shq(HOST_CA_SOURCE)} "$r"${shq(HOST_CA)}; fi`,
  ];
  for (const b of binds) {
    const dst = `"$r"${shq(b.dst)}`;
    lines.push(`mount --bind ${shq(b.src)} ${dst}`);
    if (b.ro) lines.push(`mount -o remount,bind,ro ${dst}`);
  }
  const fullEnv = {
    PATH: `${MOUNT_POINTS.venv}/bin:/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin`,
    HOME: '/root',
    LANG: 'C.UTF-8',
    ...env,
  };
  const envArgs = Object.entries(fullEnv).map(([k, v]) => shq(`${k}=${v}`));
  lines.push(`exec chroot "$r" /usr/bin/env -i ${envArgs.join(' ')} ${argv.map(shq).join(' ')}`);
  return { cmd: 'unshare', args: ['--mount', '--propagation', 'private', '--', '/bin/sh', '-c', lines.join('\n')] };
}

/** Mounts under `dir` in this process's mount namespace (there should never be any). */
function mountsUnder(dir) {
  try {
    const prefix = `${resolve(dir)}/`;
    return readFileSync('/proc/self/mounts', 'utf8')
      .split('\n')
      .map((l) => l.split(' ')[1]?.replace(/\\040/g, ' '))
      .filter((m) => m && (m === resolve(dir) || m.startsWith(prefix)));
  } catch {
    return [];
  }
}

/** rm -rf, refusing when something is mounted inside (it would delete through the mount). */
function removeTree(dir) {
  const mounts = mountsUnder(dir);
  if (mounts.length) throw new Error(`not removing ${dir}: mounted inside it: ${mounts.join(', ')} (unmount them first)`);
  rmSync(dir, { recursive: true, force: true });
}

function runInRootSync(argv, opts = {}) {
  const { cmd, args } = rootCommand(argv, opts);
  return spawnSync(cmd, args, { encoding: 'utf8', timeout: 120_000 });
}

/** Makes the root unless a current one is cached; returns {dir, stamp}. */
export async function ensureRoot({ force = false } = {}) {
  if (!force && isRootCurrent()) return { dir: rootDir(), stamp: rootStamp() };
  requireHost(`Building the Debian ${RECIPE.suite} root`, { build: true });
  const home = rootHome();
  mkdirSync(home, { recursive: true });
  // Leftovers of builds that were interrupted (their process is gone).
  for (const name of readdirSync(home)) {
    const m = /^root\.(partial|old)-(\d+)-/.exec(name);
    if (m && !pidAlive(Number(m[2]))) removeTree(join(home, name));
  }
  const t0 = Date.now();
  const log = join(home, 'build.log');
  const partial = mkdtempSync(join(home, `root.partial-${process.pid}-`));
  writeFileSync(log, `# ${new Date().toISOString()} debootstrap ${RECIPE.suite} into ${partial}\n`);
  say(`building a Debian ${RECIPE.suite} root in ${home} (first run only, about 2 minutes; log ${log})`);
  const onSignal = async (sig) => {
    killAll(sig);
    await allExited();
    try {
      removeTree(partial);
    } catch (e) {
      say(e.message);
    }
    say(`build interrupted (${sig}); nothing was kept`);
    process.exit(sig === 'SIGINT' ? 130 : 143);
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    await runLogged(
      'unshare',
      [
        '--mount',
        '--propagation',
        'private',
        '--',
        'debootstrap',
        `--variant=${RECIPE.variant}`,
        `--include=${RECIPE.packages.join(',')}`,
        RECIPE.suite,
        partial,
        MIRROR(),
        `/usr/share/debootstrap/scripts/${RECIPE.script}`,
      ],
      log,
      'debootstrap',
    );
    // The downloaded packages are not needed any more (about 100 MB).
    const archives = join(partial, 'var', 'cache', 'apt', 'archives');
    if (existsSync(archives)) for (const f of readdirSync(archives)) if (f.endsWith('.deb')) rmSync(join(archives, f));
    // Mount points for rootCommand.
    for (const p of [MOUNT_POINTS.venv, MOUNT_POINTS.run]) mkdirSync(join(partial, p), { recursive: true });
    writeFileSync(join(partial, 'etc', 'resolv.conf'), "# the host's is mounted over this one\n");
    writeFileSync(join(partial, HOST_CA), "# the host's CA bundle is mounted over this one\n");
    const py = runInRootSync(
      [
        `/usr/bin/python${RECIPE.python}`,
        '-c',
        'import sys, venv, ensurepip, ssl, zoneinfo; zoneinfo.ZoneInfo("Europe/Amsterdam"); print("%d.%d.%d" % sys.version_info[:3])',
      ],
      { root: partial },
    );
    const gxx = runInRootSync(['/usr/bin/g++', '--version'], { root: partial });
    if (py.status !== 0 || !py.stdout.startsWith(`${RECIPE.python}.`) || gxx.status !== 0) {
      throw new Error(`the new root does not work:\n${py.stdout}${py.stderr}${gxx.stdout}${gxx.stderr}`);
    }
    const osRelease = readFileSync(join(partial, 'etc', 'os-release'), 'utf8');
    const stamp = {
      digest: DIGEST,
      recipe: RECIPE,
      python: py.stdout.trim(),
      gxx: gxx.stdout.split('\n')[0],
      debian: /^PRETTY_NAME="?([^"\n]*)/m.exec(osRelease)?.[1] ?? null,
      mirror: MIRROR(),
      created: new Date().toISOString(),
      buildSeconds: Number(seconds(Date.now() - t0)),
    };
    writeFileSync(join(partial, STAMP), `${JSON.stringify(stamp, null, 2)}\n`);
    const dir = rootDir();
    let old = null;
    if (existsSync(dir)) {
      old = join(home, `root.old-${process.pid}-${Date.now()}`);
      renameSync(dir, old);
    }
    try {
      renameSync(partial, dir);
    } catch (e) {
      if (!isRootCurrent()) throw e; // another build finished first: use its root
      removeTree(partial);
    }
    if (old) removeTree(old);
    say(`Debian ${RECIPE.suite} root ready in ${seconds(Date.now() - t0)} s: ${stamp.debian}, Python ${stamp.python}`);
    return { dir, stamp: rootStamp() };
  } catch (e) {
    if (existsSync(partial)) removeTree(partial);
    throw e;
  } finally {
    process.removeListener('SIGINT', onSignal);
    process.removeListener('SIGTERM', onSignal);
  }
}

// ---------------------------------------------------------------------------------------------
// CLI

async function main(argv) {
  const [cmd, ...rest] = argv;
  switch (cmd) {
    case 'build': {
      const { dir, stamp } = await ensureRoot({ force: rest.includes('--force') });
      say(`root: ${dir} (${stamp.debian}, Python ${stamp.python}, made ${stamp.created})`);
      return 0;
    }
    case 'status': {
      const stamp = rootStamp();
      process.stdout.write(`${JSON.stringify({ dir: rootDir(), current: stamp !== null, stamp, missing: missingPrerequisites({ build: true }) }, null, 2)}\n`);
      return stamp ? 0 : 3;
    }
    case 'run': {
      if (!rest.length) throw new Error('usage: node tests/e2e/debian-root.mjs run CMD [ARGS...]');
      requireHost('Running a command in the Debian root');
      if (!isRootCurrent()) throw new Error('there is no current root: run "node tests/e2e/debian-root.mjs build" first');
      const { cmd: c, args } = rootCommand(rest, { env: { TERM: process.env.TERM ?? 'dumb' } });
      return spawnSync(c, args, { stdio: 'inherit' }).status ?? 1;
    }
    default:
      process.stderr.write('usage: node tests/e2e/debian-root.mjs build [--force] | status | run CMD [ARGS...]\n');
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
