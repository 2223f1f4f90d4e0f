// Times as the people in the home read them: in the hub's time zone (home.config.time_zone), with
// its offset, and the start of a local day, week, month or year for periods such as "today".

/** The wall-clock parts of an instant in a time zone (undefined when the zone is unknown). */
function wall(ms: number, tz: string): { year: number; month: number; day: number; hour: number; minute: number; second: number; weekday: number } | undefined {
  const parts: Record<string, string> = {};
  try {
    for (const p of new Intl.DateTimeFormat('en-US', {
      timeZone: tz,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      weekday: 'short',
    }).formatToParts(new Date(ms)))
      parts[p.type] = p.value;
  } catch {
    return undefined;
  }
  const weekday = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'].indexOf(parts.weekday!);
  return { year: +parts.year!, month: +parts.month!, day: +parts.day!, hour: +parts.hour!, minute: +parts.minute!, second: +parts.second!, weekday };
}

/** Minutes the zone is ahead of UTC at an instant. */
function offsetAt(ms: number, tz: string): number {
  const w = wall(ms, tz);
  if (!w) return 0;
  return Math.round((Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second) - Math.floor(ms / 1000) * 1000) / 60_000);
}

/** An instant as an ISO string with the offset of the zone (UTC, with Z, when there is none or it is unknown). */
export function localTime(ms: number, tz: string | undefined): string {
  const date = new Date(Math.round(ms));
  const w = tz ? wall(date.getTime(), tz) : undefined;
  if (!tz || !w) return date.toISOString().replace(/\.\d+Z$/, 'Z');
  const offset = offsetAt(date.getTime(), tz);
  const two = (n: number) => String(n).padStart(2, '0');
  const sign = offset < 0 ? '-' : '+';
  return `${w.year}-${two(w.month)}-${two(w.day)}T${two(w.hour)}:${two(w.minute)}:${two(w.second)}${sign}${two(Math.floor(Math.abs(offset) / 60))}:${two(Math.abs(offset) % 60)}`;
}

/** The instant a wall-clock time happens in the zone (the later one across a clock change). */
export function zonedInstant(tz: string | undefined, year: number, month: number, day: number, hour = 0): number {
  const guess = Date.UTC(year, month - 1, day, hour);
  if (!tz) return guess;
  // Two rounds settle the offset, also next to a clock change.
  let at = guess - offsetAt(guess, tz) * 60_000;
  at = guess - offsetAt(at, tz) * 60_000;
  return at;
}

export type CalendarUnit = 'day' | 'week' | 'month' | 'year';

/** The local start of the day, week (Monday), month or year holding an instant, `shift` units later (or earlier, negative). */
export function startOf(unit: CalendarUnit, ms: number, tz: string | undefined, shift = 0): number {
  const w = (tz ? wall(ms, tz) : undefined) ?? wallUtc(ms);
  if (unit === 'year') return zonedInstant(tz, w.year + shift, 1, 1);
  if (unit === 'month') {
    const m = w.year * 12 + (w.month - 1) + shift;
    return zonedInstant(tz, Math.floor(m / 12), (m % 12) + 1, 1);
  }
  const back = unit === 'week' ? w.weekday : 0;
  const days = (unit === 'week' ? 7 : 1) * shift - back;
  const d = new Date(Date.UTC(w.year, w.month - 1, w.day + days));
  return zonedInstant(tz, d.getUTCFullYear(), d.getUTCMonth() + 1, d.getUTCDate());
}

function wallUtc(ms: number) {
  const d = new Date(ms);
  return {
    year: d.getUTCFullYear(),
    month: d.getUTCMonth() + 1,
    day: d.getUTCDate(),
    hour: d.getUTCHours(),
    minute: d.getUTCMinutes(),
    second: d.getUTCSeconds(),
    weekday: (d.getUTCDay() + 6) % 7,
  };
}
