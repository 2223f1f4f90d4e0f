// Time and identifiers the way the hub writes them: microsecond timestamps, Python-style
// isoformat strings, float-second timestamps for compressed states, ULIDs for contexts.
import { randomBytes, randomFillSync } from 'node:crypto';

let lastMicros = 0;

/** Microseconds since the epoch, strictly increasing within this process. */
export function nowMicros(): number {
  const wall = Math.floor((performance.timeOrigin + performance.now()) * 1000);
  lastMicros = wall > lastMicros ? wall : lastMicros + 1;
  return lastMicros;
}

// Most timestamps fall in the same second as the one before, so its formatted prefix is kept.
let isoSecond = NaN;
let isoBase = '';

/** Python's datetime.isoformat() of an aware UTC datetime: microseconds shown unless zero. */
export function isoFromMicros(us: number): string {
  const second = Math.floor(us / 1_000_000);
  if (second !== isoSecond) {
    isoSecond = second;
    isoBase = new Date(second * 1000).toISOString().slice(0, 19);
  }
  const base = isoBase;
  const frac = us % 1_000_000;
  return frac === 0 ? `${base}+00:00` : `${base}.${String(frac).padStart(6, '0')}+00:00`;
}

/** The float seconds that compressed states carry (lc/lu). */
export function secondsFromMicros(us: number): number {
  return us / 1_000_000;
}

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
// One randomFillSync per 256 ids: one call per id was a third of the simulator's CPU under load.
const POOL = Buffer.allocUnsafe(4096);
let poolAt = POOL.length;

/** A ULID (time-ordered, 26 chars) as the hub uses for context ids. */
export function ulid(ms: number = Date.now()): string {
  let time = '';
  let t = ms;
  for (let i = 0; i < 10; i++) {
    time = CROCKFORD[t % 32] + time;
    t = Math.floor(t / 32);
  }
  if (poolAt + 16 > POOL.length) {
    randomFillSync(POOL);
    poolAt = 0;
  }
  let rand = '';
  for (let i = 0; i < 16; i++) rand += CROCKFORD[(POOL[poolAt + i] ?? 0) % 32];
  poolAt += 16;
  return time + rand;
}

/** 32 lowercase hex characters, the shape of registry ids and user ids. */
export function hexId(): string {
  return randomBytes(16).toString('hex');
}
