// A calendar's events as Home Assistant's local calendar keeps them, and how it expands a
// recurring one into the instances a range holds (RFC 5545 RRULE: FREQ=DAILY or WEEKLY, with
// INTERVAL, COUNT, UNTIL and, weekly, BYDAY). All-day events are local dates (end exclusive);
// timed ones are instants, shown in the hub's zone.
import { fromLocal, localParts } from '../zone.js';

/** A local date (all day) or an instant in microseconds. */
export type EventTime = { date: string } | { us: number };

export interface StoredEvent {
  uid: string;
  summary: string;
  description?: string;
  location?: string;
  start: EventTime;
  end: EventTime;
  rrule?: string;
  /** Recurrence ids of instances deleted or replaced by an override. */
  exdates?: string[];
  /** An override of one instance of a recurring event (same uid). */
  recurrence_id?: string;
}

export interface EventInstance {
  event: StoredEvent;
  start: EventTime;
  end: EventTime;
  recurrence_id?: string;
}

const DAY_US = 86_400_000_000;
const WEEKDAYS = ['MO', 'TU', 'WE', 'TH', 'FR', 'SA', 'SU'];
/** Instances looked at for one event before giving up on a range: a daily rule over 27 years. */
const MAX_STEPS = 10_000;

const pad = (n: number, w = 2) => String(n).padStart(w, '0');

/** YYYY-MM-DD of a local calendar date (month and day may overflow). */
export function dateText(year: number, month: number, day: number): string {
  const d = new Date(Date.UTC(year, month - 1, day));
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
export const isDate = (s: string): boolean => DATE.test(s) && dateText(...dateParts(s)) === s;
const dateParts = (s: string): [number, number, number] => {
  const m = DATE.exec(s)!;
  return [Number(m[1]), Number(m[2]), Number(m[3])];
};

export function addDays(date: string, days: number): string {
  const [y, m, d] = dateParts(date);
  return dateText(y, m, d + days);
}

/** Monday 0 ... Sunday 6. */
function weekdayOf(date: string): number {
  const [y, m, d] = dateParts(date);
  return (new Date(Date.UTC(y, m - 1, d)).getUTCDay() + 6) % 7;
}

/** Python's isoformat of a local aware datetime: 2026-11-28T10:00:00+01:00. */
export function localIso(tz: string, us: number): string {
  const p = localParts(tz, us);
  const wall = Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second);
  const offsetMin = Math.round((wall - Math.floor(us / 1_000_000) * 1000) / 60_000);
  const sign = offsetMin < 0 ? '-' : '+';
  const off = Math.abs(offsetMin);
  return `${p.year}-${pad(p.month)}-${pad(p.day)}T${pad(p.hour)}:${pad(p.minute)}:${pad(p.second)}${sign}${pad(Math.floor(off / 60))}:${pad(off % 60)}`;
}

/** The instant an event time starts: an all-day date at local midnight. */
export function startUs(tz: string, t: EventTime): number {
  if ('us' in t) return t.us;
  return fromLocal(tz, ...dateParts(t.date));
}

/** As the hub's calendar writes an event time in service responses and calendar/event/subscribe. */
export function timeText(tz: string, t: EventTime): string {
  return 'date' in t ? t.date : localIso(tz, t.us);
}

/** The recurrence id of an instance, as the local calendar writes it (20261128 or 20261128T100000). */
export function recurrenceId(tz: string, t: EventTime): string {
  if ('date' in t) return t.date.replace(/-/g, '');
  const p = localParts(tz, t.us);
  return `${p.year}${pad(p.month)}${pad(p.day)}T${pad(p.hour)}${pad(p.minute)}${pad(p.second)}`;
}

export interface Rule {
  freq: 'DAILY' | 'WEEKLY' | 'MONTHLY' | 'YEARLY';
  interval: number;
  count?: number;
  /** The last instant (or local date) an instance may start. */
  until?: EventTime;
  byday?: number[];
}

/** Reads an RRULE; throws a message for what it cannot read. */
export function parseRule(text: string, tz: string): Rule {
  const parts = new Map<string, string>();
  for (const piece of text.replace(/^RRULE:/i, '').split(';')) {
    const at = piece.indexOf('=');
    if (at <= 0) throw new Error(`Invalid rrule '${text}'`);
    parts.set(piece.slice(0, at).toUpperCase(), piece.slice(at + 1));
  }
  const freq = parts.get('FREQ');
  if (!freq) throw new Error('rrule did not contain FREQ');
  if (!['DAILY', 'WEEKLY', 'MONTHLY', 'YEARLY'].includes(freq)) throw new Error(`Invalid frequency for rule: ${text}`);
  const rule: Rule = { freq: freq as Rule['freq'], interval: 1 };
  const interval = parts.get('INTERVAL');
  if (interval !== undefined) {
    if (!/^\d+$/.test(interval) || Number(interval) < 1) throw new Error(`Invalid rrule '${text}': invalid INTERVAL`);
    rule.interval = Number(interval);
  }
  const count = parts.get('COUNT');
  if (count !== undefined) {
    if (!/^\d+$/.test(count)) throw new Error(`Invalid rrule '${text}': invalid COUNT`);
    rule.count = Number(count);
  }
  const until = parts.get('UNTIL');
  if (until !== undefined) {
    const m = /^(\d{4})(\d{2})(\d{2})(?:T(\d{2})(\d{2})(\d{2})(Z)?)?$/.exec(until);
    if (!m) throw new Error(`Invalid rrule '${text}': invalid UNTIL`);
    const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
    if (m[4] === undefined) rule.until = { date: dateText(y, mo, d) };
    else if (m[7]) rule.until = { us: Date.UTC(y, mo - 1, d, Number(m[4]), Number(m[5]), Number(m[6])) * 1000 };
    else rule.until = { us: fromLocal(tz, y, mo, d, Number(m[4]), Number(m[5]), Number(m[6])) };
  }
  if (rule.count !== undefined && rule.until !== undefined) throw new Error(`Invalid rrule '${text}': UNTIL and COUNT must not occur in the same rule`);
  const byday = parts.get('BYDAY');
  if (byday !== undefined) {
    const days = byday.split(',').map((d) => WEEKDAYS.indexOf(d.toUpperCase()));
    if (days.some((d) => d < 0)) throw new Error(`Invalid rrule '${text}': invalid BYDAY`);
    rule.byday = [...new Set(days)].sort((a, b) => a - b);
  }
  for (const key of parts.keys()) {
    if (!['FREQ', 'INTERVAL', 'COUNT', 'UNTIL', 'BYDAY', 'WKST'].includes(key)) throw new Error(`The simulator does not expand ${key} in an rrule`);
  }
  if ((rule.freq === 'MONTHLY' || rule.freq === 'YEARLY') && rule.byday) throw new Error(`The simulator does not expand BYDAY in a ${rule.freq} rrule`);
  return rule;
}

/** Local dates (with the start's wall time kept) on which a rule's instances start, in order. */
function* occurrenceDates(first: string, rule: Rule): Generator<string> {
  const [y, m, d] = dateParts(first);
  if (rule.freq === 'DAILY') {
    for (let i = 0; ; i++) yield addDays(first, i * rule.interval);
  }
  if (rule.freq === 'WEEKLY') {
    const days = rule.byday ?? [weekdayOf(first)];
    const monday = addDays(first, -weekdayOf(first));
    for (let w = 0; ; w++) {
      const weekStart = addDays(monday, w * 7 * rule.interval);
      for (const day of days) {
        const date = addDays(weekStart, day);
        if (date >= first) yield date;
      }
    }
  }
  for (let i = 0; ; i++) {
    // A month or year without that day (31 February) has no instance, as RFC 5545 says.
    const date = rule.freq === 'MONTHLY' ? dateText(y, m + i * rule.interval, d) : dateText(y + i * rule.interval, m, d);
    if (Number(date.slice(8)) === d) yield date;
  }
}

/** Each instance of an event, in order, until one starts at or after `endUs`. */
export function* instances(event: StoredEvent, tz: string, endUs: number): Generator<EventInstance> {
  if (!event.rrule) {
    yield { event, start: event.start, end: event.end, ...(event.recurrence_id ? { recurrence_id: event.recurrence_id } : {}) };
    return;
  }
  const rule = parseRule(event.rrule, tz);
  const timed = 'us' in event.start;
  const firstStart = startUs(tz, event.start);
  const lengthUs = startUs(tz, event.end) - firstStart;
  const days = timed ? 0 : Math.round(lengthUs / DAY_US);
  const wall = localParts(tz, firstStart);
  const firstDate = timed ? dateText(wall.year, wall.month, wall.day) : (event.start as { date: string }).date;
  const untilUs = rule.until ? ('date' in rule.until ? startUs(tz, { date: addDays(rule.until.date, 1) }) - 1 : rule.until.us) : Infinity;
  let n = 0;
  let steps = 0;
  for (const date of occurrenceDates(firstDate, rule)) {
    if (++steps > MAX_STEPS) return;
    const start: EventTime = timed ? { us: fromLocal(tz, ...dateParts(date), wall.hour, wall.minute, wall.second) } : { date };
    const at = startUs(tz, start);
    if (at > untilUs || at >= endUs) return;
    if (rule.count !== undefined && n >= rule.count) return;
    n++;
    const end: EventTime = timed ? { us: at + lengthUs } : { date: addDays(date, days) };
    const rid = recurrenceId(tz, start);
    if (event.exdates?.includes(rid)) continue;
    yield { event, start, end, recurrence_id: rid };
  }
}

/** The instances of a calendar's events that overlap [startUs, endUs), sorted by start. */
export function eventsBetween(events: readonly StoredEvent[], tz: string, fromUs: number, toUs: number): EventInstance[] {
  const out: EventInstance[] = [];
  for (const event of events) {
    for (const inst of instances(event, tz, toUs)) {
      if (startUs(tz, inst.end) > fromUs && startUs(tz, inst.start) < toUs) out.push(inst);
    }
  }
  return out.sort((a, b) => startUs(tz, a.start) - startUs(tz, b.start) || a.event.summary.localeCompare(b.event.summary));
}
