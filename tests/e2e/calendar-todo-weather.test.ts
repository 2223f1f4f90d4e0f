// The calendar, todo and weather tools against the real Home Assistant: the demo platform's
// calendars (which lend no feature to change events, so creating is refused in words), a local
// calendar made here (2026.11.0: create, change and delete events, one instance of a series and the
// rest of it; calendar/event/subscribe's answer as the simulator gives it), the shopping list
// integration's to-do list (add, rename, complete, reopen, move, remove) and its weather entities'
// forecasts. Home Assistant's own answers have the shapes the simulator gives.
import { RawClient } from '@home-mcp-bridge/sim/testing';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { expectSubscribedEvent } from '../helpers/calendar-subscribe.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { callToolOk, type ToolAnswer } from '../helpers/tool-call.js';
import { HA_VERSION } from './ha-control.js';
import { configEntryFromFlow, eventually, HASS_TOKEN, HASS_URL, removeConfigEntry } from './ha-rest.js';

let s: TestServer;
/** The shopping list's config entry this file made (its integration has no YAML setup), removed after. */
let shoppingEntry: string | undefined;
/** The local calendar's config entry (2026.11.0), removed after. */
let diaryEntry: string | undefined;
const DIARY = 'calendar.e2e_diary';
/** 2024.3.3's e2e venv has no `ical` (local_calendar's requirement), and that release has no calendar/event/subscribe. */
const LOCAL_CALENDAR = HA_VERSION === '2026.11.0';

beforeAll(async () => {
  s = await startTestServer({ HASS_URL, HASS_TOKEN });
  await s.app.hub.ready(30_000);
  if (!s.app.hub.cache.has('todo.shopping_list')) {
    shoppingEntry = await configEntryFromFlow('shopping_list');
    // The bridge hears the new entity and, a moment later, the todo services it brought.
    await eventually(
      () => s.app.hub.cache.has('todo.shopping_list') && s.app.hub.services.todo?.get_items !== undefined,
      (x) => x,
      'todo.shopping_list and its services in the bridge',
    );
  }
});
afterAll(async () => {
  if (shoppingEntry) await removeConfigEntry(shoppingEntry);
  if (diaryEntry) await removeConfigEntry(diaryEntry);
  await s?.close();
});

const ok = (name: string, args: Record<string, unknown>) => callToolOk(s, name, args);
const refused = async (name: string, args: Record<string, unknown>): Promise<ToolAnswer> => {
  const r = await s.call('/api/tools/call', 'POST', { name, arguments: args });
  expect(r.body.isError, JSON.stringify(r.body)).toBe(true);
  return r.body as ToolAnswer;
};

describe('calendar', () => {
  test('the demo calendars: listed, their events read in the home zone, a change refused in words', async () => {
    const list = await ok('calendar', { operation: 'list' });
    expect(list.structuredContent!.time_zone).toBe('Europe/Amsterdam');
    const calendars = list.structuredContent!.calendars as { entity_id: string; can: Record<string, boolean> }[];
    expect(calendars.length).toBeGreaterThan(0);
    const start = new Date(Date.now() - 86_400_000).toISOString();
    const end = new Date(Date.now() + 14 * 86_400_000).toISOString();
    const r = await ok('calendar', { operation: 'events', start, end });
    const events = r.structuredContent!.events as { calendar: string; summary: string; start: string; end: string }[];
    expect(events.length).toBeGreaterThan(0);
    for (const e of events) {
      expect(calendars.map((c) => c.entity_id)).toContain(e.calendar);
      expect(e.start).toMatch(/^\d{4}-\d\d-\d\d(T\d\d:\d\d:\d\d(\.\d+)?[+-]\d\d:\d\d)?$/);
    }
    const readOnly = calendars.find((c) => !c.can.create);
    if (readOnly) {
      const no = await refused('calendar', { operation: 'create', entity_id: readOnly.entity_id, summary: 'Test', start: '2030-01-01' });
      expect(no.content[0]!.text).toMatch(/does not let events be created/);
    }
  });
});

/** Today's local date in the e2e home's zone, moved by days. */
const localDate = (days: number) => {
  const parts = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Amsterdam', year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date());
  const d = new Date(`${parts}T12:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
};
type Listed = { summary: string; start: string; uid?: string; recurrence_id?: string };

describe.skipIf(!LOCAL_CALENDAR)('a local calendar (2024.3.3: skipped, its e2e venv has no ical and it has no calendar/event/subscribe)', () => {
  let ha: RawClient;
  beforeAll(async () => {
    diaryEntry = await configEntryFromFlow('local_calendar', { calendar_name: 'E2E Diary' });
    await eventually(
      () => s.app.hub.cache.get(DIARY)?.attributes.supported_features,
      (f) => f === 7,
      `${DIARY} with create, delete and update`,
    );
    ha = await RawClient.connect(`${HASS_URL.replace(/^http/, 'ws')}/api/websocket`, HASS_TOKEN);
  });
  afterAll(() => ha?.close());

  const events = async (from: number, to: number) =>
    (await ok('calendar', { operation: 'events', entity_id: DIARY, start: localDate(from), end: localDate(to) })).structuredContent!.events as Listed[];

  test('create, change and delete an event; one instance of a series changed, the rest of it deleted', async () => {
    expect(((await ok('calendar', { operation: 'list' })).structuredContent!.calendars as any[]).find((c) => c.entity_id === DIARY)?.can).toEqual({
      create: true,
      update: true,
      delete: true,
    });
    const day = localDate(9);
    await ok('calendar', { operation: 'create', entity_id: DIARY, summary: 'Plumber', start: `${day}T08:00`, end: `${day}T09:00`, location: 'Kitchen' });
    const plumber = (await events(9, 10)).find((e) => e.summary === 'Plumber')!;
    expect(plumber).toMatchObject({ start: expect.stringMatching(new RegExp(`^${day}T08:00:00\\+0[12]:00$`)), location: 'Kitchen', uid: expect.any(String) });
    await ok('calendar', { operation: 'update', entity_id: DIARY, uid: plumber.uid, summary: 'Plumber (late)', start: `${day}T10:00`, end: `${day}T11:00` });
    expect((await events(9, 10)).map((e) => [e.summary, e.start.slice(11, 16)])).toEqual([['Plumber (late)', '10:00']]);
    await ok('calendar', { operation: 'delete', entity_id: DIARY, uid: plumber.uid });
    expect(await events(9, 10)).toEqual([]);

    // A weekly series, made with Home Assistant's own command (the tool makes single events).
    const first = localDate(1);
    const made = await ha.command({
      type: 'calendar/event/create',
      entity_id: DIARY,
      event: { summary: 'Bins out', dtstart: `${first}T19:00:00`, dtend: `${first}T19:15:00`, rrule: 'FREQ=WEEKLY;COUNT=8' },
    });
    expect(made.success, JSON.stringify(made)).toBe(true);
    const bins = (await events(0, 60)).filter((e) => e.summary === 'Bins out');
    expect(bins).toHaveLength(8);
    expect(bins.every((e) => /T19:00:00\+0[12]:00$/.test(e.start) && e.uid === bins[0]!.uid && /^\d{8}T190000$/.test(e.recurrence_id ?? ''))).toBe(true);
    await ok('calendar', {
      operation: 'update',
      entity_id: DIARY,
      uid: bins[1]!.uid,
      recurrence_id: bins[1]!.recurrence_id,
      summary: 'Bins out (early)',
      start: `${localDate(8)}T07:00`,
      end: `${localDate(8)}T07:15`,
    });
    await ok('calendar', { operation: 'delete', entity_id: DIARY, uid: bins[3]!.uid, recurrence_id: bins[3]!.recurrence_id, this_and_future: true });
    const after = (await events(0, 60)).filter((e) => e.summary.startsWith('Bins out'));
    expect(after.map((e) => e.summary)).toEqual(['Bins out', 'Bins out (early)', 'Bins out']);
    expect(after[1]!.start).toMatch(new RegExp(`^${localDate(8)}T07:00:00\\+0[12]:00$`));
    const unknown = await refused('calendar', { operation: 'delete', entity_id: DIARY, uid: 'nope' });
    expect(unknown.content[0]!.text).toMatch(/An error occurred while deleting the event/);
  });

  test("calendar/event/subscribe answers as the simulator's does: a result, then the range's events with uid, recurrence_id and rrule", async () => {
    const start = `${localDate(0)}T00:00:00`;
    const end = `${localDate(60)}T00:00:00`;
    const id = ha.send({ type: 'calendar/event/subscribe', entity_id: DIARY, start, end });
    const result = await ha.waitFor((m) => m.id === id && m.type === 'result');
    expect(result).toEqual({ id, type: 'result', success: true, result: null });
    const first = (await ha.waitForEvent(id)).event as { events: Record<string, unknown>[] };
    expect(Object.keys(first)).toEqual(['events']);
    const series = first.events.filter((e) => String(e.summary).startsWith('Bins out'));
    expect(series.map((e) => e.summary)).toEqual(['Bins out', 'Bins out (early)', 'Bins out']);
    // Deleting the rest of the series rewrote its rule: COUNT gone, UNTIL the day before, in floating local time.
    const rrule = `FREQ=WEEKLY;UNTIL=${localDate(21).replace(/-/g, '')}T190000`;
    const instance = { summary: 'Bins out', all_day: false, recurrence_id: /^\d{8}T190000$/, rrule };
    expectSubscribedEvent(series[0]!, instance);
    expectSubscribedEvent(series[2]!, instance);
    // The changed instance: an override of the series, with its own recurrence id and no rule.
    expectSubscribedEvent(series[1]!, { summary: 'Bins out (early)', all_day: false, recurrence_id: /^\d{8}T190000$/ });
    // A change to the calendar sends the list again.
    await ok('calendar', { operation: 'create', entity_id: DIARY, summary: 'Dentist', start: `${localDate(2)}T09:00`, end: `${localDate(2)}T09:30` });
    const next = (await ha.waitForEvent(id, (m) => (m.event as any).events.some((e: any) => e.summary === 'Dentist'))).event as { events: any[] };
    expectSubscribedEvent(
      next.events.find((e) => e.summary === 'Dentist'),
      // calendar.create_event's description defaults to "", which the listing keeps.
      { summary: 'Dentist', description: '', all_day: false },
    );
    await ha.command({ type: 'unsubscribe_events', subscription: id });
  });
});

describe('todo', () => {
  test('the demo shopping list: add, complete, reopen, rename, move to the top, remove', async () => {
    const lists = (await ok('todo', { operation: 'lists' })).structuredContent!.lists as { entity_id: string; name: string; supports: string[] }[];
    const shopping = lists.find((l) => l.entity_id === 'todo.shopping_list');
    expect(shopping, JSON.stringify(lists)).toBeDefined();
    const item = `E2E item ${Date.now()}`;
    await ok('todo', { operation: 'add', list: 'todo.shopping_list', item });
    const items = async () =>
      (await ok('todo', { operation: 'items', list: 'todo.shopping_list' })).structuredContent!.items as { summary: string; status: string; uid: string }[];
    expect((await items()).find((i) => i.summary === item)).toMatchObject({ status: 'needs_action', uid: expect.any(String) });
    await ok('todo', { operation: 'complete', list: 'todo.shopping_list', item });
    expect((await items()).find((i) => i.summary === item)?.status).toBe('completed');
    await ok('todo', { operation: 'reopen', list: 'todo.shopping_list', item });
    await ok('todo', { operation: 'rename', list: 'todo.shopping_list', item, new_name: `${item} (renamed)` });
    expect((await items()).find((i) => i.summary === `${item} (renamed)`)).toMatchObject({ status: 'needs_action' });
    await ok('todo', { operation: 'rename', list: 'todo.shopping_list', item: `${item} (renamed)`, new_name: item });
    if (shopping!.supports.includes('move')) {
      await ok('todo', { operation: 'move', list: 'todo.shopping_list', item });
      expect((await items())[0]?.summary).toBe(item);
    }
    await ok('todo', { operation: 'remove', list: 'todo.shopping_list', item });
    expect((await items()).some((i) => i.summary === item)).toBe(false);
  });
});

describe('weather', () => {
  test('current conditions with units, and each forecast kind the demo offers', async () => {
    const weather = s.app.hub.cache.ids();
    const ids = [...weather].filter((id) => id.startsWith('weather.'));
    expect(ids.length).toBeGreaterThan(0);
    for (const id of ids) {
      const now = await ok('weather', { operation: 'current', entity_id: id });
      expect(now.structuredContent!.readings.temperature).toMatchObject({ value: expect.any(Number), unit: '°C' });
      const features = Number(s.app.hub.cache.get(id)?.attributes.supported_features ?? 0);
      for (const [type, bit] of [
        ['daily', 1],
        ['hourly', 2],
        ['twice_daily', 4],
      ] as const) {
        if (features & bit) {
          const f = await ok('weather', { operation: 'forecast', entity_id: id, type });
          expect(f.structuredContent!.forecast.length, `${id} ${type}`).toBeGreaterThan(0);
          expect(f.structuredContent!.forecast[0]).toMatchObject({ datetime: expect.any(String), condition: expect.any(String) });
        } else {
          const no = await refused('weather', { operation: 'forecast', entity_id: id, type });
          expect(no.content[0]!.text).toMatch(new RegExp(`has no ${type.replace('_', ' ')} forecast`));
        }
      }
    }
  });
});
