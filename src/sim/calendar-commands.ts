// The WebSocket commands of calendars and to-do lists: calendar/event/create, update, delete and
// subscribe (its first message lists the events of a range with their uids, which get_events
// leaves out), todo/item/list and todo/item/move. Each refuses a list or calendar whose
// supported_features lack the operation, as the hub does (not_supported).
import type { Command, CommandConnection } from './commands.js';
import { eventMessage } from './protocol.js';
import { type KeySpec, type Validator, Invalid, isType } from './schema.js';
import { validEntityId } from './states.js';
import { type EventTime, type StoredEvent, addDays, eventsBetween, instances, isDate, parseRule, startUs, timeText } from './domains/calendar-events.js';
import { CALENDAR_CREATE_EVENT, CALENDAR_DELETE_EVENT, CALENDAR_UPDATE_EVENT, calendarEvents, refreshCalendar, zoneOf } from './domains/calendar.js';
import { TODO_MOVE, todoItems } from './domains/todo.js';
import { hexId } from './time.js';
import { parseHubDatetime } from './zone.js';

type Add = (type: string, fields: Record<string, KeySpec>, handle: Command['handle'], admin?: boolean) => void;
type Msg = Record<string, unknown> & { id: number };

const entityId: Validator = (v, path) => {
  if (typeof v === 'string' && validEntityId(v)) return v;
  throw new Invalid(`Entity ID ${String(v)} is an invalid entity ID`, path);
};

/** The entity a command names, with its features; an error sent (and undefined) when it has not the one needed. */
function target(conn: CommandConnection, msg: Msg, domain: string, feature: number, what: string): number | undefined {
  const id = msg.entity_id as string;
  const state = id.startsWith(`${domain}.`) ? conn.hub.states.get(id) : undefined;
  if (!state) {
    conn.sendError(msg.id, 'not_found', domain === 'calendar' ? 'Calendar entity not found' : 'Entity not found');
    return undefined;
  }
  const features = Number(state.attributes.supported_features ?? 0);
  if (feature && !(features & feature)) {
    conn.sendError(msg.id, 'not_supported', what);
    return undefined;
  }
  return features;
}

/** An event as the WebSocket API takes it: dtstart, dtend (both dates or both times), summary, description, location, rrule. */
function readEvent(conn: CommandConnection, msg: Msg): Omit<StoredEvent, 'uid'> | undefined {
  const tz = zoneOf(conn.hub);
  const e = msg.event as Record<string, unknown>;
  const time = (v: unknown): EventTime | undefined => {
    if (typeof v !== 'string') return undefined;
    if (isDate(v)) return { date: v };
    const us = parseHubDatetime(v, tz);
    return us === undefined ? undefined : { us };
  };
  const fail = (message: string) => {
    conn.sendError(msg.id, 'invalid_format', message);
    return undefined;
  };
  const start = time(e.dtstart);
  const end = time(e.dtend);
  if (!start || !end || typeof e.summary !== 'string') return fail("required key not provided @ data['event']");
  if ('date' in start !== 'date' in end) return fail("Expected all values to be the same type: ('dtstart', 'dtend')");
  if (startUs(tz, end) - startUs(tz, start) < 1_000_000) return fail('Expected minimum event duration of 0:00:01');
  if (e.rrule !== undefined) {
    try {
      parseRule(String(e.rrule), tz);
    } catch (err) {
      return fail((err as Error).message);
    }
  }
  return {
    summary: e.summary,
    ...(typeof e.description === 'string' && e.description ? { description: e.description } : {}),
    ...(typeof e.location === 'string' && e.location ? { location: e.location } : {}),
    start,
    end,
    ...(typeof e.rrule === 'string' && e.rrule ? { rrule: e.rrule } : {}),
  };
}

/**
 * The stored event with that uid (the series, not an override), or an error sent: 2026.11's local
 * calendar says only which operation failed (its translated message); 2024.3's quoted the store.
 */
function byUid(conn: CommandConnection, msg: Msg, events: StoredEvent[], op: 'updating' | 'deleting'): StoredEvent | undefined {
  const found = events.find((x) => x.uid === msg.uid && !x.recurrence_id);
  if (!found) conn.sendError(msg.id, 'failed', conn.hub.legacy ? `No existing event with uid ${String(msg.uid)}` : `An error occurred while ${op} the event`);
  return found;
}

/**
 * Ends a series before the instance with this recurrence id (THISANDFUTURE) as the local calendar
 * does: COUNT dropped, UNTIL the day before at the instance's time, in floating local time
 * (20261219T190000; a date for all-day series).
 */
function endBefore(event: StoredEvent, rid: string, tz: string): void {
  const rule = event.rrule!.split(';').filter((p) => !/^(COUNT|UNTIL)=/i.test(p));
  if (![...instances(event, tz, Infinity)].some((i) => i.recurrence_id === rid)) return;
  const [date, time] = rid.split('T');
  const dayBefore = addDays(`${date!.slice(0, 4)}-${date!.slice(4, 6)}-${date!.slice(6, 8)}`, -1).replace(/-/g, '');
  event.rrule = [...rule, `UNTIL=${dayBefore}${time ? `T${time}` : ''}`].join(';');
}

const RANGE_FIELDS = { uid: { v: isType('str'), required: true }, recurrence_id: { v: isType('str') }, recurrence_range: { v: isType('str') } };

export function addCalendarCommands(add: Add, legacy: boolean): void {
  add('calendar/event/create', { entity_id: { v: entityId, required: true }, event: { v: isType('dict'), required: true } }, (conn, msg) => {
    if (target(conn, msg, 'calendar', CALENDAR_CREATE_EVENT, 'Calendar does not support event creation') === undefined) return;
    const event = readEvent(conn, msg);
    if (!event) return;
    calendarEvents(conn.hub, msg.entity_id as string).push({ uid: hexId(), ...event });
    refreshCalendar(conn.hub, msg.entity_id as string);
    conn.sendResult(msg.id);
  });

  add('calendar/event/delete', { entity_id: { v: entityId, required: true }, ...RANGE_FIELDS }, (conn, msg) => {
    if (target(conn, msg, 'calendar', CALENDAR_DELETE_EVENT, 'Calendar does not support event deletion') === undefined) return;
    const id = msg.entity_id as string;
    const tz = zoneOf(conn.hub);
    const events = calendarEvents(conn.hub, id);
    const event = byUid(conn, msg, events, 'deleting');
    if (!event) return;
    const rid = msg.recurrence_id as string | undefined;
    if (!rid || !event.rrule) {
      conn.hub.memory(id).events = events.filter((x) => x.uid !== event.uid);
    } else if (msg.recurrence_range === 'THISANDFUTURE') {
      endBefore(event, rid, tz);
      conn.hub.memory(id).events = events.filter((x) => x.uid !== event.uid || !x.recurrence_id || x.recurrence_id < rid);
    } else {
      event.exdates = [...(event.exdates ?? []), rid];
      conn.hub.memory(id).events = events.filter((x) => x.uid !== event.uid || x.recurrence_id !== rid);
    }
    refreshCalendar(conn.hub, id);
    conn.sendResult(msg.id);
  });

  add('calendar/event/update', { entity_id: { v: entityId, required: true }, ...RANGE_FIELDS, event: { v: isType('dict'), required: true } }, (conn, msg) => {
    if (target(conn, msg, 'calendar', CALENDAR_UPDATE_EVENT, 'Calendar does not support event update') === undefined) return;
    const id = msg.entity_id as string;
    const tz = zoneOf(conn.hub);
    const events = calendarEvents(conn.hub, id);
    const event = byUid(conn, msg, events, 'updating');
    if (!event) return;
    const changed = readEvent(conn, msg);
    if (!changed) return;
    const rid = msg.recurrence_id as string | undefined;
    if (!rid || !event.rrule) {
      Object.assign(event, { description: undefined, location: undefined, rrule: undefined }, changed);
      for (const k of ['description', 'location', 'rrule'] as const) if (event[k] === undefined) delete event[k];
    } else if (msg.recurrence_range === 'THISANDFUTURE') {
      endBefore(event, rid, tz);
      events.push({ uid: hexId(), ...changed });
    } else {
      // One instance: the series skips it and an override with the same uid takes its place.
      event.exdates = [...(event.exdates ?? []), rid];
      const rest = events.filter((x) => x.uid !== event.uid || x.recurrence_id !== rid);
      const { rrule: _ignored, ...single } = changed;
      rest.push({ uid: event.uid, ...single, recurrence_id: rid });
      conn.hub.memory(id).events = rest;
    }
    refreshCalendar(conn.hub, id);
    conn.sendResult(msg.id);
  });

  // The frontend's live calendar view; the first message lists the range's events with uid, recurrence_id and rrule.
  // Each event as the hub's CalendarEvent.as_dict() gives it: times as ISO text (local, or a date),
  // the keys that are unset left out, then all_day.
  if (!legacy) {
    add(
      'calendar/event/subscribe',
      { entity_id: { v: entityId, required: true }, start: { v: isType('str'), required: true }, end: { v: isType('str'), required: true } },
      (conn, msg) => {
        if (target(conn, msg, 'calendar', 0, '') === undefined) return;
        const tz = zoneOf(conn.hub);
        const from = parseHubDatetime(msg.start as string, tz);
        const to = parseHubDatetime(msg.end as string, tz);
        if (from === undefined || to === undefined) return conn.sendError(msg.id, 'invalid_format', 'Invalid datetime');
        const list = () =>
          eventsBetween(calendarEvents(conn.hub, msg.entity_id as string), tz, from, to).map((inst) => ({
            start: timeText(tz, inst.start),
            end: timeText(tz, inst.end),
            summary: inst.event.summary,
            ...(inst.event.description !== undefined ? { description: inst.event.description } : {}),
            ...(inst.event.location ? { location: inst.event.location } : {}),
            uid: inst.event.uid,
            ...(inst.recurrence_id ? { recurrence_id: inst.recurrence_id } : {}),
            ...(inst.event.rrule ? { rrule: inst.event.rrule } : {}),
            all_day: 'date' in inst.start,
          }));
        // Each new state of the calendar sends the list again, as the hub's entity listener does.
        const off = conn.hub.bus.listen('state_changed', (ev) => {
          if ((ev.data as { entity_id?: string }).entity_id === msg.entity_id) conn.send(eventMessage(msg.id, { events: list() }));
        });
        conn.subscriptions.set(msg.id, off);
        conn.sendResult(msg.id);
        conn.send(eventMessage(msg.id, { events: list() }));
      },
    );
  }

  add('todo/item/list', { entity_id: { v: entityId, required: true } }, (conn, msg) => {
    if (target(conn, msg, 'todo', 0, '') === undefined) return;
    conn.sendResult(msg.id, { items: todoItems(conn.hub, msg.entity_id as string).map((i) => ({ ...i })) });
  });

  add(
    'todo/item/move',
    { entity_id: { v: entityId, required: true }, uid: { v: isType('str'), required: true }, previous_uid: { v: isType('str') } },
    (conn, msg) => {
      if (target(conn, msg, 'todo', TODO_MOVE, 'To-do list does not support To-do item reordering') === undefined) return;
      const items = todoItems(conn.hub, msg.entity_id as string);
      const from = items.findIndex((i) => i.uid === msg.uid);
      if (from < 0) return conn.sendError(msg.id, 'failed', `Item '${String(msg.uid)}' not found in todo list`);
      const [item] = items.splice(from, 1);
      const prev = msg.previous_uid === undefined ? -1 : items.findIndex((i) => i.uid === msg.previous_uid);
      if (msg.previous_uid !== undefined && prev < 0) {
        items.splice(from, 0, item!);
        return conn.sendError(msg.id, 'failed', `Item '${String(msg.previous_uid)}' not found in todo list`);
      }
      items.splice(prev + 1, 0, item!);
      conn.sendResult(msg.id);
    },
  );
}
