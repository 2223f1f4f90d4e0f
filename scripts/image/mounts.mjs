// Mounts into Debian roots (/proc, /dev, caches, /data), each undone when its user is done and,
// whatever happens, when the process exits: a root is never left holding the host's /dev. And
// removal of a root that something is still mounted in is refused, never attempted.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { resolve, sep } from 'node:path';

const active = new Set();
let hooked = false;

function hook() {
  if (hooked) return;
  hooked = true;
  process.on('exit', releaseAll);
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
    process.once(signal, () => {
      releaseAll();
      process.kill(process.pid, signal);
    });
  }
}

/** Mount points at or under `dir`, deepest first (from /proc/self/mountinfo). */
export function mountsUnder(dir) {
  const base = resolve(dir);
  const points = readFileSync('/proc/self/mountinfo', 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => line.split(' ')[4].replace(/\\040/g, ' '));
  return points.filter((p) => p === base || p.startsWith(base + sep)).sort((a, b) => b.length - a.length);
}

function umount(point) {
  const r = spawnSync('umount', [point], { encoding: 'utf8' });
  if (r.status !== 0) spawnSync('umount', ['-l', point]);
}

/** Undoes every mount made here, deepest first. Synchronous: it runs from process exit too. */
export function releaseAll() {
  for (const point of [...active].sort((a, b) => b.length - a.length)) {
    umount(point);
    active.delete(point);
  }
}

/** A set of mounts one user makes and undoes together. */
export class Mounts {
  #points = [];

  #mount(args, target) {
    hook();
    mkdirSync(target, { recursive: true });
    execFileSync('mount', [...args, target], { stdio: ['ignore', 'ignore', 'pipe'] });
    this.#points.push(target);
    active.add(target);
  }

  /** The host's `source` seen at `target` (inside a root). */
  bind(source, target, { readOnly = false } = {}) {
    this.#mount(['--bind', source], target);
    if (readOnly) execFileSync('mount', ['-o', 'remount,bind,ro', target]);
  }

  /** A fresh /proc for a root. */
  proc(target) {
    this.#mount(['-t', 'proc', 'proc'], target);
  }

  release() {
    for (const point of this.#points.splice(0).reverse()) {
      umount(point);
      active.delete(point);
    }
  }
}

/** Deletes a root, or refuses while anything is mounted in it (rm -rf would walk into the host's /dev). */
export function removeRoot(dir) {
  if (!existsSync(dir)) return;
  for (const point of mountsUnder(dir)) umount(point);
  const left = mountsUnder(dir);
  if (left.length > 0) throw new Error(`not removing ${dir}: still mounted there: ${left.join(', ')}`);
  rmSync(dir, { recursive: true, force: true });
}
