// Foreign-architecture binaries through the kernel's binfmt_misc and Debian's qemu-user-static:
// the aarch64 lane of the image rehearsal runs arm64 Debian roots on an x64 host this way.
// enableEmulation() mounts binfmt_misc and registers the interpreter only where they are missing,
// and its release() undoes exactly that: a registration (or mount) that was there before is left
// alone. What this process did is also written to a claim file, so that a run that was killed
// before it could clean up is cleaned up by the next one.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const BINFMT_DIR = '/proc/sys/fs/binfmt_misc';
/** Where Debian's qemu-user-static ships its registrations, one file per architecture. */
export const BINFMT_CONFS = '/usr/lib/binfmt.d';

/**
 * A registration line, `:name:type:offset:magic:mask:interpreter:flags` (the kernel's format, as
 * binfmt.d files hold it), as { name, interpreter, flags, line }.
 */
export function parseRegistration(text) {
  const line = text
    .split('\n')
    .map((l) => l.trim())
    .find((l) => l && !l.startsWith('#'));
  if (!line) throw new Error('no registration line');
  const sep = line[0];
  const fields = line.slice(1).split(sep);
  if (fields.length !== 7) throw new Error(`a registration has 7 fields after its separator, this has ${fields.length}: ${line}`);
  const [name, type, , , , interpreter, flags] = fields;
  if (!name || (type !== 'M' && type !== 'E')) throw new Error(`not a registration: ${line}`);
  if (!interpreter.startsWith('/')) throw new Error(`the interpreter must be an absolute path: ${interpreter}`);
  return { name, interpreter, flags, line };
}

/** An entry under /proc/sys/fs/binfmt_misc as { enabled, interpreter, flags }. */
export function parseEntry(text) {
  const lines = text.split('\n').map((l) => l.trim());
  const enabled = lines[0] === 'enabled';
  if (!enabled && lines[0] !== 'disabled') throw new Error(`not a binfmt_misc entry: ${lines[0]}`);
  const interpreter = /^interpreter (.+)$/m.exec(text)?.[1];
  const flags = /^flags: ?(\S*)$/m.exec(text)?.[1] ?? '';
  if (!interpreter) throw new Error('a binfmt_misc entry without an interpreter');
  return { enabled, interpreter, flags };
}

const mounted = () =>
  readFileSync('/proc/self/mountinfo', 'utf8')
    .split('\n')
    .some((line) => line.split(' ')[4] === BINFMT_DIR && / - binfmt_misc /.test(line));

const alive = (pid) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** Undoes what a claim says was done here: the registration, then the mount. */
function undo(claim, log) {
  if (claim.registered && existsSync(join(BINFMT_DIR, claim.registered))) {
    writeFileSync(join(BINFMT_DIR, claim.registered), '-1');
    log(`binfmt_misc: removed the ${claim.registered} registration made for the rehearsal`);
  }
  if (claim.mounted && mounted()) {
    const r = spawnSync('umount', [BINFMT_DIR], { encoding: 'utf8' });
    if (r.status === 0) log(`binfmt_misc: unmounted ${BINFMT_DIR}`);
    else log(`binfmt_misc: left ${BINFMT_DIR} mounted (${r.stderr.trim()})`);
  }
}

/**
 * Makes binaries of `qemuArch` (qemu's name: aarch64) run here, through the interpreter Debian's
 * qemu-user-static registers. `claimFile` records what was done until release(). Callers hold a
 * lock for the claim's lifetime, so two runs do not undo each other's registration.
 * Returns { name, interpreter, flags, registered, mounted, release() }.
 */
export function enableEmulation(qemuArch, { claimFile, log = () => {} }) {
  if (process.getuid?.() !== 0) throw new Error('registering an interpreter with binfmt_misc needs root');
  // A claim left by a run that was killed: its registration and mount are this lane's to undo.
  if (existsSync(claimFile)) {
    const stale = JSON.parse(readFileSync(claimFile, 'utf8'));
    if (stale.pid && alive(stale.pid) && stale.pid !== process.pid) throw new Error(`${claimFile} is held by the running process ${stale.pid}`);
    log(`binfmt_misc: undoing what a killed run (process ${stale.pid}) left`);
    undo(stale, log);
    rmSync(claimFile, { force: true });
  }
  const confFile = join(BINFMT_CONFS, `qemu-${qemuArch}.conf`);
  if (!existsSync(confFile)) throw new Error(`no ${confFile}: install Debian's qemu-user-static (apt-get install qemu-user-static)`);
  const reg = parseRegistration(readFileSync(confFile, 'utf8'));
  const claim = { pid: process.pid, registered: null, mounted: false };
  const save = () => writeFileSync(claimFile, `${JSON.stringify(claim)}\n`);
  try {
    if (!mounted()) {
      execFileSync('mount', ['-t', 'binfmt_misc', 'binfmt_misc', BINFMT_DIR], { stdio: ['ignore', 'ignore', 'pipe'] });
      claim.mounted = true;
      save();
      log(`binfmt_misc: mounted at ${BINFMT_DIR}`);
    }
    const entryFile = join(BINFMT_DIR, reg.name);
    let entry;
    if (existsSync(entryFile)) {
      entry = parseEntry(readFileSync(entryFile, 'utf8'));
      if (!entry.enabled) throw new Error(`${entryFile} is registered but disabled; enable it (echo 1 > ${entryFile}) or remove it (echo -1 > ${entryFile})`);
      log(`binfmt_misc: ${reg.name} was already registered (${entry.interpreter}, flags ${entry.flags || 'none'}); leaving it as it is`);
    } else {
      if (!existsSync(reg.interpreter)) throw new Error(`${confFile} names ${reg.interpreter}, which is missing: reinstall qemu-user-static`);
      claim.registered = reg.name;
      save();
      writeFileSync(join(BINFMT_DIR, 'register'), reg.line);
      entry = parseEntry(readFileSync(entryFile, 'utf8'));
      log(`binfmt_misc: registered ${reg.name} (${entry.interpreter}, flags ${entry.flags})`);
    }
    // Without F the kernel opens the interpreter at each exec, inside the chroot, where it is not.
    if (!entry.flags.includes('F'))
      throw new Error(
        `${entryFile} has flags "${entry.flags}": a chroot needs F (the interpreter opened when registered); remove it (echo -1 > ${entryFile}) and run again`,
      );
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      undo(claim, log);
      rmSync(claimFile, { force: true });
    };
    // Undone on any exit too, as mounts.mjs does with its mounts (a signal is raised again after).
    process.on('exit', release);
    for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
      process.once(signal, () => {
        release();
        process.kill(process.pid, signal);
      });
    }
    return {
      name: reg.name,
      interpreter: entry.interpreter,
      executable: realpathSync(entry.interpreter),
      flags: entry.flags,
      registered: Boolean(claim.registered),
      mounted: claim.mounted,
      release,
    };
  } catch (err) {
    undo(claim, log);
    rmSync(claimFile, { force: true });
    throw err;
  }
}
