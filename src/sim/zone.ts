// Wall-clock time in the hub's time zone, for what the hub does in local time: reading a naive
// datetime (dt_util.as_utc assumes the configured zone) and cutting statistics into local days,
// weeks and months. Times are microseconds since the epoch, as everywhere in the simulator.

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(tz: string): Intl.DateTimeFormat {
  let f = formatters.get(tz);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: tz,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(tz, f);
  }
  return f;
}

export interface LocalParts {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

/** The local calendar fields of a UTC instant (whole seconds). */
export function localParts(tz: string, us: number): LocalParts {
  const out: Record<string, number> = {};
  for (const p of formatter(tz).formatToParts(new Date(Math.floor(us / 1000)))) if (p.type !== 'literal') out[p.type] = Number(p.value);
  return { year: out.year!, month: out.month!, day: out.day!, hour: out.hour!, minute: out.minute!, second: out.second! };
}

/** Local minus UTC at that instant, in microseconds. */
function offsetUs(tz: string, us: number): number {
  const p = localParts(tz, us);
  const asUtc = Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second) * 1000;
  return asUtc - Math.floor(us / 1_000_000) * 1_000_000;
}

/** The UTC instant of a local wall-clock time (month may overflow, as Date.UTC allows). */
export function fromLocal(tz: string, year: number, month: number, day: number, hour = 0, minute = 0, second = 0, micros = 0): number {
  const wall = Date.UTC(year, month - 1, day, hour, minute, second) * 1000 + micros;
  // Twice: the offset at the first guess may differ from the offset at the answer (DST).
  const first = wall - offsetUs(tz, wall);
  return wall - offsetUs(tz, first);
}

/** Start of the local day holding `us`. */
export function localDayStart(tz: string, us: number): number {
  const p = localParts(tz, us);
  return fromLocal(tz, p.year, p.month, p.day);
}

/** Start of the local week (Monday) holding `us`. */
export function localWeekStart(tz: string, us: number): number {
  const p = localParts(tz, us);
  const weekday = (new Date(Date.UTC(p.year, p.month - 1, p.day)).getUTCDay() + 6) % 7;
  return fromLocal(tz, p.year, p.month, p.day - weekday);
}

/** Start of the local month holding `us`. */
export function localMonthStart(tz: string, us: number): number {
  const p = localParts(tz, us);
  return fromLocal(tz, p.year, p.month, 1);
}

/** Start of the next local day, week or month after a start found above. */
export function nextLocal(tz: string, startUs: number, period: 'day' | 'week' | 'month'): number {
  const p = localParts(tz, startUs);
  if (period === 'month') return fromLocal(tz, p.year, p.month + 1, 1);
  return fromLocal(tz, p.year, p.month, p.day + (period === 'week' ? 7 : 1));
}

const ISO = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,6})\d*)?)?)?\s*(Z|[+-]\d{2}(?::?\d{2})?)?$/i;

/**
 * dt_util.parse_datetime followed by as_utc: an ISO 8601 date and time, with or without offset
 * (without one, the hub's zone); undefined when it is none.
 */
export function parseHubDatetime(text: string, tz: string): number | undefined {
  const m = ISO.exec(text.trim());
  if (!m) return undefined;
  const [y, mo, d, h = '0', mi = '0', s = '0', frac = '', off] = m.slice(1) as string[];
  const fields = [Number(y), Number(mo), Number(d), Number(h), Number(mi), Number(s)] as const;
  const micros = frac ? Number(frac.padEnd(6, '0')) : 0;
  if (fields[1] < 1 || fields[1] > 12 || fields[2] < 1 || fields[2] > 31 || fields[3] > 23 || fields[4] > 59 || fields[5] > 59) return undefined;
  const probe = new Date(Date.UTC(fields[0], fields[1] - 1, fields[2]));
  if (probe.getUTCDate() !== fields[2]) return undefined;
  if (!off) return fromLocal(tz, ...fields, micros);
  const wall = Date.UTC(fields[0], fields[1] - 1, fields[2], fields[3], fields[4], fields[5]) * 1000 + micros;
  if (off.toUpperCase() === 'Z') return wall;
  const sign = off.startsWith('-') ? -1 : 1;
  const digits = off.slice(1).replace(':', '');
  const minutes = Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2) || '0');
  return wall - sign * minutes * 60_000_000;
}
