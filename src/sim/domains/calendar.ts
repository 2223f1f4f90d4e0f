// Calendars as Home Assistant's local calendar runs them: events declared in the home file
// (config.events; `day` counts from the day the simulator starts, so a demo always has something
// today and tomorrow), read with calendar.get_events (recurring events expanded), created with
// calendar.create_event; changed and deleted over the WebSocket API (calendar-commands.ts). The
// state is on while an event runs, with the current or next event in the attributes.
import { type DomainModule, finish } from '../domain.js';
import { ServiceValidationError } from '../errors.js';
import type { Hub } from '../hub.js';
import { Invalid, type Validator, all, coerceInt, dict, range, string } from '../schema.js';
import { hexId, nowMicros } from '../time.js';
import { fromLocal, localParts, parseHubDatetime } from '../zone.js';
import { type EventTime, type StoredEvent, addDays, dateText, eventsBetween, isDate, localIso, startUs, timeText } from './calendar-events.js';
import { num, sel } from './common.js';

export const CALENDAR_CREATE_EVENT = 1;
export const CALENDAR_DELETE_EVENT = 2;
export const CALENDAR_UPDATE_EVENT = 4;

export const zoneOf = (hub: Hub): string => hub.home.time_zone ?? 'UTC';

/** The events a calendar holds now (kept in the entity's memory). */
export function calendarEvents(hub: Hub, entityId: string): StoredEvent[] {
  const memory = hub.memory(entityId);
  if (!memory.events) memory.events = declaredEvents(hub, entityId);
  return memory.events as StoredEvent[];
}

/** config.events: [{summary, day (from today), time 'HH:MM', minutes | days, rrule, description, location}]. */
function declaredEvents(hub: Hub, entityId: string): StoredEvent[] {
  const tz = zoneOf(hub);
  const today = localParts(tz, nowMicros());
  const list = hub.entityConfig(entityId).events;
  if (!Array.isArray(list)) return [];
  return list.map((raw: Record<string, unknown>) => {
    const date = dateText(today.year, today.month, today.day + num(raw.day, 0));
    const [y, m, d] = date.split('-').map(Number) as [number, number, number];
    let start: EventTime;
    let end: EventTime;
    if (typeof raw.time === 'string') {
      const [h, min] = raw.time.split(':').map(Number) as [number, number];
      const at = fromLocal(tz, y, m, d, h, min);
      start = { us: at };
      end = { us: at + num(raw.minutes, 60) * 60_000_000 };
    } else {
      start = { date };
      end = { date: addDays(date, num(raw.days, 1)) };
    }
    return {
      uid: String(raw.uid ?? hexId()),
      summary: String(raw.summary ?? ''),
      ...(typeof raw.description === 'string' ? { description: raw.description } : {}),
      ...(typeof raw.location === 'string' ? { location: raw.location } : {}),
      start,
      end,
      ...(typeof raw.rrule === 'string' ? { rrule: raw.rrule } : {}),
    };
  });
}

/** The state: on while an event runs; the current or next event's fields as attributes. */
function calendarState(hub: Hub, entityId: string, base: Record<string, unknown>): { state: string; attributes: Record<string, unknown> } {
  const tz = zoneOf(hub);
  const now = nowMicros();
  const next = eventsBetween(calendarEvents(hub, entityId), tz, now, now + 400 * 86_400_000_000)[0];
  const attrs: Record<string, unknown> = {};
  if (next) {
    const local = (t: EventTime) => localIso(tz, startUs(tz, t)).slice(0, 19).replace('T', ' ');
    attrs.message = next.event.summary;
    attrs.all_day = 'date' in next.start;
    attrs.start_time = local(next.start);
    attrs.end_time = local(next.end);
    attrs.location = next.event.location ?? '';
    attrs.description = next.event.description ?? '';
  }
  const on = next !== undefined && startUs(tz, next.start) <= now;
  return {
    state: on ? 'on' : 'off',
    attributes: finish({ ...attrs, friendly_name: base.friendly_name }, String(base.friendly_name ?? ''), num(base.supported_features, 0)),
  };
}

/** Writes the state again after the events changed. */
export function refreshCalendar(hub: Hub, entityId: string): void {
  const current = hub.states.get(entityId);
  if (!current) return;
  const next = calendarState(hub, entityId, current.attributes);
  hub.states.set(entityId, next.state, next.attributes);
}

/** cv.datetime: an ISO date and time, without an offset read in the hub's zone. */
const datetime =
  (hub: Hub): Validator =>
  (v, path) => {
    const us = typeof v === 'string' ? parseHubDatetime(v, zoneOf(hub)) : undefined;
    if (us === undefined) throw new Invalid('Invalid datetime specified', path);
    return us;
  };

const date: Validator = (v, path) => {
  if (typeof v === 'string' && isDate(v)) return v;
  throw new Invalid('Invalid date specified', path);
};

/** cv.time_period: "HH:MM[:SS]" or {days, hours, minutes, seconds}; positive. */
const duration: Validator = (v, path) => {
  let seconds: number | undefined;
  if (typeof v === 'string') {
    const m = /^(-)?(\d+):(\d{1,2})(?::(\d{1,2}))?$/.exec(v);
    if (m) seconds = (m[1] ? -1 : 1) * (Number(m[2]) * 3600 + Number(m[3]) * 60 + Number(m[4] ?? 0));
  } else if (v && typeof v === 'object' && !Array.isArray(v)) {
    const o = v as Record<string, unknown>;
    const units: Record<string, number> = { days: 86400, hours: 3600, minutes: 60, seconds: 1, milliseconds: 0.001 };
    if (Object.keys(o).every((k) => k in units && typeof o[k] === 'number'))
      seconds = Object.entries(o).reduce((s, [k, n]) => s + units[k]! * (n as number), 0);
  }
  if (seconds === undefined) throw new Invalid('offset HH:MM:SS or a dictionary of days, hours, minutes, seconds expected', path);
  if (seconds <= 0) throw new Invalid('Time period must be positive', path);
  return seconds * 1_000_000;
};

/** cv.has_at_most_one_key */
const atMostOne =
  (...keys: string[]): Validator =>
  (v, path) => {
    if (v && typeof v === 'object' && keys.filter((k) => k in (v as object)).length > 1)
      throw new Invalid(`must contain at most one of ${keys.join(', ')}.`, path);
    return v;
  };
const atLeastOne =
  (...keys: string[]): Validator =>
  (v, path) => {
    if (v && typeof v === 'object' && keys.some((k) => k in (v as object))) return v;
    throw new Invalid(`must contain at least one of ${keys.join(', ')}.`, path);
  };

/** The event as a get_events response lists it: start, end, summary, description, location. */
export function listed(tz: string, inst: { event: StoredEvent; start: EventTime; end: EventTime }): Record<string, unknown> {
  return {
    start: timeText(tz, inst.start),
    end: timeText(tz, inst.end),
    summary: inst.event.summary,
    ...(inst.event.description !== undefined ? { description: inst.event.description } : {}),
    ...(inst.event.location ? { location: inst.event.location } : {}),
  };
}

export const calendar: DomainModule = {
  domain: 'calendar',
  init(seed, hub) {
    const features = num(seed.attributes.supported_features, CALENDAR_CREATE_EVENT | CALENDAR_DELETE_EVENT | CALENDAR_UPDATE_EVENT);
    return calendarState(hub, seed.entityId, { friendly_name: seed.attributes.friendly_name ?? seed.name, supported_features: features });
  },
  setup(hub) {
    hub.services.register('calendar', 'get_events', {
      name: 'Get events',
      description: 'Get events on a calendar within a time range.',
      response: 'only',
      before: all(atLeastOne('end_date_time', 'duration'), atMostOne('end_date_time', 'duration')),
      fields: {
        start_date_time: {
          v: datetime(hub),
          name: 'Start time',
          description: 'Returns active events after this time (exclusive). When not set, defaults to now.',
          example: '2022-03-22 20:00:00',
          selector: { datetime: null },
        },
        end_date_time: {
          v: datetime(hub),
          name: 'End time',
          description: "Returns active events before this time (exclusive). Cannot be used with 'duration'.",
          example: '2022-03-22 22:00:00',
          selector: { datetime: null },
        },
        duration: {
          v: duration,
          name: 'Duration',
          description: 'Returns active events from start_date_time until the specified duration.',
          selector: { duration: null },
        },
      },
      handle: (e) => {
        const tz = zoneOf(e.hub);
        const start = (e.params.start_date_time as number | undefined) ?? nowMicros();
        const end = (e.params.end_date_time as number | undefined) ?? start + (e.params.duration as number);
        if (start >= end)
          throw new ServiceValidationError('Expected end time to be after start time', { domain: 'calendar', key: 'end_date_before_start', placeholders: {} });
        return { events: eventsBetween(calendarEvents(e.hub, e.id), tz, start, end).map((inst) => listed(tz, inst)) };
      },
    });
    hub.services.register('calendar', 'create_event', {
      name: 'Create event',
      description: 'Adds a new calendar event.',
      requiredFeatures: [CALENDAR_CREATE_EVENT],
      before: all(atLeastOne('start_date', 'start_date_time', 'in'), atMostOne('start_date', 'start_date_time', 'in')),
      fields: {
        summary: {
          v: string,
          required: true,
          name: 'Summary',
          description: 'Defines the short summary or subject for the event.',
          example: 'Department Party',
          selector: sel.text(),
        },
        description: {
          v: string,
          default: '',
          name: 'Description',
          description: 'A more complete description of the event than the one provided by the summary.',
          selector: sel.text(),
        },
        start_date_time: {
          v: datetime(hub),
          inclusive: 'datetimes',
          name: 'Start time',
          description: 'The date and time the event should start.',
          example: '2022-03-22 20:00:00',
          selector: { datetime: null },
        },
        end_date_time: {
          v: datetime(hub),
          inclusive: 'datetimes',
          name: 'End time',
          description: 'The date and time the event should end.',
          example: '2022-03-22 22:00:00',
          selector: { datetime: null },
        },
        start_date: {
          v: date,
          inclusive: 'dates',
          name: 'Start date',
          description: 'The date the all-day event should start.',
          example: '2022-03-22',
          selector: { date: null },
        },
        end_date: {
          v: date,
          inclusive: 'dates',
          name: 'End date',
          description: 'The date the all-day event should end (exclusive).',
          example: '2022-03-23',
          selector: { date: null },
        },
        in: {
          v: dict({
            days: { v: all(coerceInt, range({ min: 0 })), exclusive: 'event_types' },
            weeks: { v: all(coerceInt, range({ min: 0 })), exclusive: 'event_types' },
          }),
          name: 'In',
          description: 'Days or weeks that you want to create the event in.',
          example: '{"days": 2} or {"weeks": 2}',
          selector: { object: null },
        },
        location: {
          v: string,
          name: 'Location',
          description: 'The location of the event.',
          example: 'Conference Room - F123, Bldg. 002',
          selector: sel.text(),
        },
      },
      handle: (e) => {
        const tz = zoneOf(e.hub);
        const p = e.params;
        let start: EventTime;
        let end: EventTime;
        if (p.in) {
          const within = p.in as { days?: number; weeks?: number };
          const today = localParts(tz, nowMicros());
          const day = dateText(today.year, today.month, today.day + (within.days ?? 0) + (within.weeks ?? 0) * 7);
          start = { date: day };
          end = { date: addDays(day, 1) };
        } else if (p.start_date) {
          start = { date: p.start_date as string };
          end = { date: p.end_date as string };
        } else {
          start = { us: p.start_date_time as number };
          end = { us: p.end_date_time as number };
        }
        if (startUs(tz, end) - startUs(tz, start) < 1_000_000)
          throw new ServiceValidationError('Expected minimum event duration of 0:00:01', { domain: 'calendar', key: 'min_duration', placeholders: {} });
        calendarEvents(e.hub, e.id).push({
          uid: hexId(),
          summary: p.summary as string,
          // The service's description defaults to "" (kept, unlike an unset one, in every listing).
          description: (p.description as string | undefined) ?? '',
          ...(p.location ? { location: p.location as string } : {}),
          start,
          end,
        });
        refreshCalendar(e.hub, e.id);
      },
    });
  },
};
