// Time and identifiers the way the hub writes them: microsecond timestamps, Python-style
// isoformat strings, float-second timestamps for compressed states, ULIDs for contexts.
import { randomBytes } from 'node:crypto';

let lastMicros = 0;

/** Microseconds since the epoch, strictly increasing within this process. */
export function nowMicros(): number {
  const wall = Math.floor((performance.timeOrigin + performance.now()) * 1000);
  lastMicros = wall > lastMicros ? wall : lastMicros + 1;
  return lastMicros;
}

/** Python's datetime.isoformat() of an aware UTC datetime: microseconds shown unless zero. */
export function isoFromMicros(us: number): string {
  const ms = Math.floor(us / 1000);
  const base = new Date(ms).toISOString().slice(0, 19);
  const frac = us % 1_000_000;
  return frac === 0 ? `${base}+00:00` : `${base}.${String(frac).padStart(6, '0')}+00:00`;
}

/** The float seconds that compressed states carry (lc/lu). */
export function secondsFromMicros(us: number): number {
  return us / 1_000_000;
}

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/** A ULID (time-ordered, 26 chars) as the hub uses for context ids. */
export function ulid(ms: number = Date.now()): string {
  let time = '';
  let t = ms;
  for (let i = 0; i < 10; i++) {
    time = CROCKFORD[t % 32] + time;
    t = Math.floor(t / 32);
  }
  const bytes = randomBytes(16);
  let rand = '';
  for (let i = 0; i < 16; i++) rand += CROCKFORD[(bytes[i] ?? 0) % 32];
  return time + rand;
}

/** 32 lowercase hex characters, the shape of registry ids and user ids. */
export function hexId(): string {
  return randomBytes(16).toString('hex');
}
