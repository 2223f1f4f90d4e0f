// Calendars: list them, read the events of a range (recurring events expanded by Home Assistant,
// calendar.get_events), create one (calendar.create_event), change or delete one where the
// calendar supports it (the WebSocket API's calendar/event/update and calendar/event/delete, which
// need the event's uid: the read lists it, from calendar/event/subscribe). Times go to Home
// Assistant as given (without an offset they are the home's time) and come back in the home's
// zone, which the answer names. Reading is a question and never acts.
import { data, definePlugin, type Home, PluginError, text, tool, v } from 'home-mcp-bridge/plugin';

const CREATE = 1;
const DELETE = 2;
const UPDATE = 4;
const DAY_MS = 86_400_000;

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const NAIVE = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2}))?$/;
const when = v.pipe(
  v.string(),
  v.maxLength(40),
  v.check((s) => DATE.test(s) || NAIVE.test(s) || !Number.isNaN(Date.parse(s)), 'must be a date (2026-12-24) or a date and time (2026-12-24T18:00)'),
);
const calendarId = v.pipe(v.string(), v.regex(/^calendar\.[a-z0-9_]+$/, 'must be a calendar entity id such as calendar.family'));

const input = v.object({
  operation: v.picklist(['list', 'events', 'create', 'update', 'delete']),
  entity_id: v.optional(v.union([calendarId, v.pipe(v.array(calendarId), v.minLength(1), v.maxLength(20))])),
  start: v.optional(when),
  end: v.optional(when),
  summary: v.optional(v.pipe(v.string(), v.nonEmpty(), v.maxLength(255))),
  description: v.optional(v.pipe(v.string(), v.maxLength(2000))),
  location: v.optional(v.pipe(v.string(), v.maxLength(255))),
  uid: v.optional(v.pipe(v.string(), v.nonEmpty(), v.maxLength(255))),
  recurrence_id: v.optional(v.pipe(v.string(), v.maxLength(64))),
  this_and_future: v.optional(v.boolean()),
  dry_run: v.optional(v.boolean()),
});
type Args = v.InferOutput<typeof input>;

const ONLY: Record<string, readonly string[]> = {
  summary: ['create', 'update'],
  description: ['create', 'update'],
  location: ['create', 'update'],
  uid: ['update', 'delete'],
  recurrence_id: ['update', 'delete'],
  this_and_future: ['update', 'delete'],
  dry_run: ['create', 'update', 'delete'],
};

const pad = (n: number) => String(n).padStart(2, '0');

/** A time written as given, or moved by days: a date or a time without offset stays on the home's clock. */
function shifted(t: string, days: number): string {
  const m = DATE.test(t) ? /^(\d{4})-(\d{2})-(\d{2})$/.exec(t) : NAIVE.exec(t);
  if (m) {
    const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]), Number(m[4] ?? 0), Number(m[5] ?? 0), Number(m[6] ?? 0)) + days * DAY_MS);
    return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
  }
  return new Date(Date.parse(t) + days * DAY_MS).toISOString();
}
/** As Home Assistant's datetime fields take it (a date is its midnight). */
const asDatetime = (t: string) => (DATE.test(t) ? `${t} 00:00:00` : NAIVE.test(t) ? t.replace('T', ' ') : t);

/** An event time as the hub writes it: "2026-11-28", "2026-11-28T10:00:00+01:00", or {date}/{dateTime}. */
function timeOf(x: unknown): string {
  if (typeof x === 'string') return x;
  const o = (x ?? {}) as { date?: string; dateTime?: string };
  return o.dateTime ?? o.date ?? '';
}

function calendarsOf(home: Home, given: string | string[] | undefined): string[] {
  const ids = given === undefined ? home.states('calendar').map((s) => s.entity_id) : Array.isArray(given) ? given : [given];
  for (const id of ids) if (!home.has(id)) throw home.unknownEntity(id);
  if (!ids.length) throw new PluginError('There are no calendars in this home', {}, 'NOT_FOUND', 404);
  return ids;
}

const featuresOf = (home: Home, id: string) => Number(home.state(id)?.attributes.supported_features ?? 0);
const nameOf = (home: Home, id: string) => String(home.state(id)?.attributes.friendly_name ?? id);

/** The one calendar a change is for, and that it can make that change. */
function writable(home: Home, args: Args, feature: number, verb: string): string {
  if (args.entity_id === undefined || Array.isArray(args.entity_id))
    throw new PluginError(`entity_id: give the one calendar to ${verb} in`, { field: 'entity_id' });
  const id = args.entity_id;
  if (!home.has(id)) throw home.unknownEntity(id);
  if (!(featuresOf(home, id) & feature)) {
    const can = [CREATE, UPDATE, DELETE]
      .filter((f) => featuresOf(home, id) & f)
      .map((f) => ({ [CREATE]: 'create', [UPDATE]: 'update', [DELETE]: 'delete' })[f]);
    throw new PluginError(`${nameOf(home, id)} (${id}) does not let events be ${verb}d; it ${can.length ? `supports: ${can.join(', ')}` : 'is read-only'}`, {
      entity_id: id,
      supported: can,
    });
  }
  return id;
}

interface Listed {
  calendar: string;
  summary: string;
  start: string;
  end: string;
  all_day: boolean;
  description?: string;
  location?: string;
  uid?: string;
  recurrence_id?: string;
}

async function events(home: Home, args: Args, zone: string) {
  const ids = calendarsOf(home, args.entity_id);
  const start = args.start ?? new Date().toISOString();
  const end = args.end ?? shifted(start, 1);
  const answer = await home.ask({
    domain: 'calendar',
    service: 'get_events',
    target: { entity_id: ids },
    data: { start_date_time: asDatetime(start), end_date_time: asDatetime(end) },
  });
  const out: Listed[] = [];
  const notes: string[] = [];
  for (const id of ids) {
    const list = ((answer[id] as { events?: Record<string, unknown>[] } | undefined)?.events ?? []).map(
      (e): Listed => ({
        calendar: id,
        summary: String(e.summary ?? ''),
        start: timeOf(e.start),
        end: timeOf(e.end),
        all_day: DATE.test(timeOf(e.start)),
        ...(e.description ? { description: String(e.description) } : {}),
        ...(e.location ? { location: String(e.location) } : {}),
      }),
    );
    // get_events leaves out each event's uid; a calendar that can change events lists it on its subscription.
    if (list.length && featuresOf(home, id) & (UPDATE | DELETE)) {
      try {
        const sub = await home.read<{ events?: Record<string, unknown>[] }>({
          type: 'calendar/event/subscribe',
          entity_id: id,
          start: asDatetime(start),
          end: asDatetime(end),
        });
        const key = (summary: unknown, s: unknown) => `${String(summary)}|${Date.parse(timeOf(s)) || timeOf(s)}`;
        const uids = new Map((sub.events ?? []).map((e) => [key(e.summary, e.start), e]));
        for (const e of list) {
          const found = uids.get(key(e.summary, e.start));
          if (found?.uid) e.uid = String(found.uid);
          if (found?.recurrence_id) e.recurrence_id = String(found.recurrence_id);
        }
      } catch (err) {
        if ((err as { details?: { hub_code?: string } }).details?.hub_code !== 'unknown_command') throw err;
        notes.push(
          `This Home Assistant (${home.config?.version ?? 'unknown version'}) does not list event ids over its WebSocket API (calendar/event/subscribe), so events cannot be changed or deleted through the bridge; update Home Assistant for that.`,
        );
      }
    }
    out.push(...list);
  }
  out.sort((a, b) => (Date.parse(a.start) || 0) - (Date.parse(b.start) || 0));
  const lines = out.map(
    (e) =>
      `${e.all_day ? `${e.start} (all day)` : `${e.start} – ${e.end}`}: ${e.summary}${e.location ? ` @ ${e.location}` : ''}${ids.length > 1 ? ` [${nameOf(home, e.calendar)}]` : ''}${e.uid ? ` (uid ${e.uid}${e.recurrence_id ? `, recurrence_id ${e.recurrence_id}` : ''})` : ''}`,
  );
  const head = out.length ? `${out.length} event${out.length === 1 ? '' : 's'} from ${start} to ${end}` : `No events from ${start} to ${end}`;
  return data([`${head} (times in ${zone}).`, ...lines, ...notes].join('\n'), { time_zone: zone, start, end, events: out, ...(notes.length ? { notes } : {}) });
}

/** The event as the WebSocket API takes it: dates for an all-day event, else times. */
function eventBody(args: Args): Record<string, unknown> {
  if (!args.summary || !args.start || !args.end)
    throw new PluginError(
      'update: give the whole event: summary, start and end (with description and location if it has them); read it first with operation events',
      {
        field: !args.summary ? 'summary' : !args.start ? 'start' : 'end',
      },
    );
  if (DATE.test(args.start) !== DATE.test(args.end)) throw new PluginError('start and end: give both as dates (all day) or both as times', { field: 'end' });
  return {
    summary: args.summary,
    dtstart: args.start,
    dtend: args.end,
    ...(args.description !== undefined ? { description: args.description } : {}),
    ...(args.location !== undefined ? { location: args.location } : {}),
  };
}

const calendarTool = tool({
  name: 'calendar',
  title: 'Calendars',
  description:
    "Calendars. operation: list; events (start, end: date or local time; default now to +1 day; gives uid); create (summary, start, end; dates = all day, end exclusive); update (uid + whole event); delete (uid). recurrence_id (+this_and_future) for a series' instance.",
  input,
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
  readOperations: ['list', 'events'],
  run: async (args, { home }) => {
    const op = args.operation;
    for (const [field, ops] of Object.entries(ONLY)) {
      if (args[field as keyof Args] !== undefined && !ops.includes(op)) return text(`${field} goes with ${ops.join(' or ')}, not with ${op}.`, true);
    }
    const zone = home.config?.time_zone ?? 'UTC';
    if (op === 'list') {
      const calendars = calendarsOf(home, args.entity_id).map((id) => {
        const f = featuresOf(home, id);
        const s = home.state(id);
        return {
          entity_id: id,
          name: nameOf(home, id),
          state: s?.state ?? null,
          next: s?.attributes.message ? { summary: s.attributes.message, start: s.attributes.start_time, end: s.attributes.end_time } : null,
          can: { create: !!(f & CREATE), update: !!(f & UPDATE), delete: !!(f & DELETE) },
        };
      });
      const lines = calendars.map(
        (c) =>
          `${c.entity_id} (${c.name}): ${c.state === 'on' ? 'an event is on now' : 'nothing on now'}${c.next ? `; next: ${c.next.summary} at ${c.next.start}` : ''}; can ${
            Object.entries(c.can)
              .filter(([, y]) => y)
              .map(([k]) => k)
              .join(', ') || 'only be read'
          }`,
      );
      return data(`Calendars (times in ${zone}):\n${lines.join('\n')}`, { time_zone: zone, calendars });
    }
    if (op === 'events') return events(home, args, zone);
    if (op === 'create') {
      const id = writable(home, args, CREATE, 'create');
      if (!args.summary || !args.start)
        throw new PluginError(`create: give ${!args.summary ? 'summary' : 'start'}`, { field: !args.summary ? 'summary' : 'start' });
      const allDay = DATE.test(args.start);
      const end = args.end ?? (allDay ? shifted(args.start, 1).slice(0, 10) : undefined);
      if (!end) throw new PluginError('end: give when a timed event ends', { field: 'end' });
      if (allDay !== DATE.test(end)) throw new PluginError('start and end: give both as dates (all day) or both as times', { field: 'end' });
      const body: Record<string, unknown> = allDay
        ? { start_date: args.start, end_date: end }
        : { start_date_time: asDatetime(args.start), end_date_time: asDatetime(end) };
      const done = await home.call(
        {
          domain: 'calendar',
          service: 'create_event',
          target: { entity_id: id },
          data: {
            summary: args.summary,
            ...body,
            ...(args.description ? { description: args.description } : {}),
            ...(args.location ? { location: args.location } : {}),
          },
        },
        { dry_run: args.dry_run },
      );
      const what = `"${args.summary}" ${allDay ? `on ${args.start}${end !== shifted(args.start, 1).slice(0, 10) ? ` until ${end} (exclusive)` : ''}` : `from ${args.start} to ${end}`} on ${nameOf(home, id)}`;
      return data(done.dry_run ? `Would create ${what} (times in ${zone}).` : `Created ${what} (times in ${zone}).`, {
        operation: op,
        entity_id: id,
        dry_run: done.dry_run,
        time_zone: zone,
      });
    }
    const update = op === 'update';
    const id = writable(home, args, update ? UPDATE : DELETE, update ? 'update' : 'delete');
    if (!args.uid) throw new PluginError(`uid: ${op} needs the event's uid; operation events lists it`, { field: 'uid' });
    if (args.this_and_future && !args.recurrence_id)
      throw new PluginError('this_and_future goes with recurrence_id (the instance it starts from)', { field: 'this_and_future' });
    const sent = await home.send(
      {
        type: update ? 'calendar/event/update' : 'calendar/event/delete',
        entity_id: id,
        uid: args.uid,
        ...(args.recurrence_id ? { recurrence_id: args.recurrence_id } : {}),
        ...(args.this_and_future ? { recurrence_range: 'THISANDFUTURE' } : {}),
        ...(update ? { event: eventBody(args) } : {}),
      },
      { dry_run: args.dry_run },
    );
    const which = args.recurrence_id ? `${args.this_and_future ? 'this and later instances of' : 'one instance of'} event ${args.uid}` : `event ${args.uid}`;
    const verb = update ? (sent.dry_run ? 'Would update' : 'Updated') : sent.dry_run ? 'Would delete' : 'Deleted';
    return data(`${verb} ${which} on ${nameOf(home, id)}${update ? ` (times in ${zone})` : ''}.`, {
      operation: op,
      entity_id: id,
      uid: args.uid,
      dry_run: sent.dry_run,
      time_zone: zone,
    });
  },
});

export default definePlugin({
  name: 'calendar',
  version: '0.1.0',
  bridge: '^0.2.0',
  description: 'Read calendars and their events; create, change and delete events where the calendar allows it.',
  needs: ['home'],
  words: new URL('./words/', import.meta.url),
  domains: ['calendar'],
  tools: [calendarTool],
});
