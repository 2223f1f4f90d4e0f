// The calendar, todo and weather tools against the simulator: over REST /api/tools/call and MCP,
// reads (recurring events expanded, times in the home's zone), writes through the checkpoint
// (read-only mode refuses them but keeps the reads; a deny rule keeps one list or calendar out),
// and what a calendar or list does not support refused in words.
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import pino from 'pino';
import { startSimulator, type Simulator } from '@home-mcp-bridge/sim';
import { RawClient } from '@home-mcp-bridge/sim/testing';
import { expectSubscribedEvent } from '../helpers/calendar-subscribe.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

type Result = { isError?: boolean; content: { text: string }[]; structuredContent?: Record<string, any> };

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
  await s.app.hub.ready();
});
afterAll(() => s?.close());

const call = async (name: string, args: Record<string, unknown>, server = s): Promise<Result> => {
  const r = await server.call('/api/tools/call', 'POST', { name, arguments: args });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body as Result;
};
const ok = async (name: string, args: Record<string, unknown>, server = s) => {
  const r = await call(name, args, server);
  expect(r.isError, r.content[0]?.text).toBeUndefined();
  return r;
};
const refused = async (name: string, args: Record<string, unknown>, server = s) => {
  const r = await call(name, args, server);
  expect(r.isError, r.content[0]?.text).toBe(true);
  return r;
};

/** Today's local date in the demo home's zone, moved by days. */
const localDate = (days: number) => {
  const parts = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Amsterdam', year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date());
  const d = new Date(`${parts}T12:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
};

describe('calendar', () => {
  test('lists calendars with what each can do, times said in the home zone', async () => {
    const r = await ok('calendar', { operation: 'list' });
    const calendars = r.structuredContent!.calendars as { entity_id: string; can: Record<string, boolean> }[];
    expect(calendars.find((c) => c.entity_id === 'calendar.family')?.can).toEqual({ create: true, update: true, delete: true });
    expect(calendars.find((c) => c.entity_id === 'calendar.public_holidays')?.can).toEqual({ create: false, update: false, delete: false });
    expect(r.structuredContent!.time_zone).toBe('Europe/Amsterdam');
    expect(r.content[0]!.text).toContain('Europe/Amsterdam');
  });

  test('events of a range: a weekly series expanded, with uid and recurrence_id, in the home zone', async () => {
    const r = await ok('calendar', { operation: 'events', entity_id: 'calendar.family', start: localDate(0), end: localDate(22) });
    const events = r.structuredContent!.events as { summary: string; start: string; uid?: string; recurrence_id?: string; all_day: boolean }[];
    const bins = events.filter((e) => e.summary === 'Bins out');
    expect(bins).toHaveLength(4);
    expect(bins.map((e) => e.start.slice(0, 10))).toEqual([0, 7, 14, 21].map(localDate));
    expect(bins.every((e) => /T19:00:00\+0[12]:00$/.test(e.start) && e.uid === bins[0]!.uid && e.recurrence_id)).toBe(true);
    expect(events.find((e) => e.summary === 'Grandma visiting')).toMatchObject({ all_day: true, start: localDate(3) });
    expect(r.content[0]!.text).toMatch(/times in Europe\/Amsterdam/);
  });

  test("calendar/event/subscribe: a result, then the range's events as Home Assistant 2026.11 gives them (tests/e2e holds the real one to the same)", async () => {
    const sim = s.app.simulator!;
    const ha = await RawClient.connect(`${sim.url.replace(/^http/, 'ws')}/api/websocket`, sim.token);
    try {
      const id = ha.send({
        type: 'calendar/event/subscribe',
        entity_id: 'calendar.family',
        start: `${localDate(0)}T00:00:00`,
        end: `${localDate(5)}T00:00:00`,
      });
      expect(await ha.waitFor((m) => m.id === id && m.type === 'result')).toEqual({ id, type: 'result', success: true, result: null });
      const events = ((await ha.waitForEvent(id)).event as { events: Record<string, unknown>[] }).events;
      expectSubscribedEvent(events.find((e) => e.summary === 'Dentist')!, { summary: 'Dentist', location: 'Main Street 4', all_day: false });
      expectSubscribedEvent(events.find((e) => e.summary === 'Bins out')!, {
        summary: 'Bins out',
        all_day: false,
        recurrence_id: /^\d{8}T190000$/,
        rrule: 'FREQ=WEEKLY;COUNT=8',
      });
      expectSubscribedEvent(events.find((e) => e.summary === 'Grandma visiting')!, { summary: 'Grandma visiting', all_day: true });
    } finally {
      await ha.close();
    }
  });

  test('create, update one instance, delete the rest of a series; a read-only calendar says so', async () => {
    const day = localDate(9);
    await ok('calendar', {
      operation: 'create',
      entity_id: 'calendar.family',
      summary: 'Plumber',
      start: `${day}T08:00`,
      end: `${day}T09:00`,
      location: 'Kitchen',
    });
    let r = await ok('calendar', { operation: 'events', entity_id: 'calendar.family', start: day, end: localDate(10) });
    const plumber = (r.structuredContent!.events as any[]).find((e) => e.summary === 'Plumber');
    expect(plumber).toMatchObject({ start: expect.stringMatching(new RegExp(`^${day}T08:00:00\\+0[12]:00$`)), location: 'Kitchen' });

    await ok('calendar', {
      operation: 'update',
      entity_id: 'calendar.family',
      uid: plumber.uid,
      summary: 'Plumber (late)',
      start: `${day}T10:00`,
      end: `${day}T11:00`,
    });
    r = await ok('calendar', { operation: 'events', entity_id: 'calendar.family', start: day, end: localDate(10) });
    expect((r.structuredContent!.events as any[]).map((e) => e.summary)).toContain('Plumber (late)');

    const week = await ok('calendar', { operation: 'events', entity_id: 'calendar.family', start: localDate(0), end: localDate(60) });
    const bins = (week.structuredContent!.events as any[]).filter((e) => e.summary === 'Bins out');
    expect(bins).toHaveLength(8);
    await ok('calendar', { operation: 'delete', entity_id: 'calendar.family', uid: bins[2].uid, recurrence_id: bins[2].recurrence_id, this_and_future: true });
    const after = await ok('calendar', { operation: 'events', entity_id: 'calendar.family', start: localDate(0), end: localDate(60) });
    expect((after.structuredContent!.events as any[]).filter((e) => e.summary === 'Bins out')).toHaveLength(2);

    const holidays = await refused('calendar', { operation: 'create', entity_id: 'calendar.public_holidays', summary: 'Party', start: day });
    expect(holidays.content[0]!.text).toMatch(/does not let events be created; it is read-only/);
    const misplaced = await refused('calendar', { operation: 'events', summary: 'x' });
    expect(misplaced.content[0]!.text).toBe('summary goes with create or update, not with events.');
  });

  test('an unknown uid is the hub’s clear refusal', async () => {
    const r = await refused('calendar', { operation: 'delete', entity_id: 'calendar.family', uid: 'nope' });
    expect(r.content[0]!.text).toMatch(/An error occurred while deleting the event/);
  });
});

describe('todo', () => {
  test('the shopping list by name: add, complete, reopen, rename, move, remove', async () => {
    await ok('todo', { operation: 'add', list: 'shopping list', item: 'Milk' });
    let items = (await ok('todo', { operation: 'items', list: 'todo.shopping_list' })).structuredContent!.items as any[];
    expect(items.map((i) => i.summary)).toEqual(['Bread', 'Coffee', 'Eggs', 'Milk']);
    expect(items.find((i) => i.summary === 'Eggs').status).toBe('completed');

    await ok('todo', { operation: 'complete', list: 'Shopping List', item: 'milk' });
    await ok('todo', { operation: 'reopen', list: 'Shopping List', item: 'Eggs' });
    await ok('todo', { operation: 'rename', list: 'Shopping List', item: 'Coffee', new_name: 'Decaf coffee' });
    const planned = await ok('todo', { operation: 'move', list: 'Shopping List', item: 'Milk', dry_run: true });
    expect(planned.content[0]!.text).toBe('Would move "Milk" to the top on Shopping List.');
    expect(((await ok('todo', { operation: 'items', list: 'Shopping List' })).structuredContent!.items as any[]).at(-1).summary).toBe('Milk');
    await ok('todo', { operation: 'move', list: 'Shopping List', item: 'Milk' });
    await ok('todo', { operation: 'move', list: 'Shopping List', item: 'Bread', after: 'Eggs' });
    items = (await ok('todo', { operation: 'items', list: 'Shopping List' })).structuredContent!.items as any[];
    expect(items.map((i) => [i.summary, i.status])).toEqual([
      ['Milk', 'completed'],
      ['Decaf coffee', 'needs_action'],
      ['Eggs', 'needs_action'],
      ['Bread', 'needs_action'],
    ]);
    const open = items.filter((i) => i.status === 'needs_action');
    expect(open.map((i) => i.summary)).toEqual(['Decaf coffee', 'Eggs', 'Bread']);
    expect(s.app.hub.cache.get('todo.shopping_list')?.state).toBe('3');

    await ok('todo', { operation: 'remove', list: 'Shopping List', item: 'Milk' });
    const gone = await refused('todo', { operation: 'complete', list: 'Shopping List', item: 'Milk' });
    expect(gone.content[0]!.text).toMatch(/there is no item "Milk"/);
  });

  test('due dates and descriptions only where the list keeps them', async () => {
    await ok('todo', { operation: 'add', list: 'Chores', item: 'Paint the fence', due: '2030-06-01', description: 'White' });
    const items = (await ok('todo', { operation: 'items', list: 'todo.chores' })).structuredContent!.items as any[];
    expect(items.find((i) => i.summary === 'Paint the fence')).toMatchObject({ due: '2030-06-01', description: 'White', status: 'needs_action' });
    const r = await refused('todo', { operation: 'add', list: 'shopping list', item: 'Cake', due: '2030-06-01' });
    expect(r.content[0]!.text).toBe('due: Shopping List does not keep due dates');
    const which = await refused('todo', { operation: 'items' });
    expect(which.content[0]!.text).toMatch(/^list: say which list/);
  });
});

describe('weather', () => {
  test('current conditions with units; daily and hourly forecasts; a kind the entity lacks said plainly', async () => {
    const now = await ok('weather', { operation: 'current' });
    expect(now.structuredContent).toMatchObject({
      entity_id: 'weather.home',
      condition: 'sunny',
      readings: { temperature: { value: 12.3, unit: '°C' }, humidity: { value: 60, unit: '%' }, wind_speed: { value: 9.4, unit: 'km/h' } },
    });
    const daily = await ok('weather', { operation: 'forecast' });
    expect(daily.structuredContent!.forecast).toHaveLength(7);
    expect(daily.structuredContent!.forecast[1].datetime.slice(0, 10)).toBe(localDate(1));
    expect(daily.structuredContent!.units).toMatchObject({ temperature: '°C', precipitation: 'mm' });
    const hourly = await ok('weather', { operation: 'forecast', type: 'hourly' });
    expect(hourly.structuredContent!.forecast).toHaveLength(24);
    const twice = await refused('weather', { operation: 'forecast', type: 'twice_daily' });
    expect(twice.content[0]!.text).toBe('Home (weather.home) has no twice daily forecast; it offers daily, hourly');
  });
});

describe('through the checkpoint', () => {
  test('read-only mode: reads answer, every write is refused', async () => {
    const ro = await startTestServer({ TOOLS_READ_ONLY: 'true' });
    try {
      await ro.app.hub.ready();
      await ok('calendar', { operation: 'events', start: localDate(0), end: localDate(2) }, ro);
      await ok('todo', { operation: 'items', list: 'shopping list' }, ro);
      await ok('weather', { operation: 'forecast' }, ro);
      for (const [name, args] of [
        ['calendar', { operation: 'create', entity_id: 'calendar.family', summary: 'X', start: localDate(4) }],
        ['todo', { operation: 'add', list: 'shopping list', item: 'Milk' }],
        ['todo', { operation: 'move', list: 'shopping list', item: 'Coffee' }],
      ] as const) {
        const r = await refused(name, args, ro);
        expect(r.structuredContent!.error.code, r.content[0]!.text).toBe('FORBIDDEN');
      }
      const uid = (
        (await ok('calendar', { operation: 'events', entity_id: 'calendar.family', start: localDate(0), end: localDate(2) }, ro)).structuredContent!
          .events as any[]
      )[0].uid;
      const del = await refused('calendar', { operation: 'delete', entity_id: 'calendar.family', uid }, ro);
      expect(del.structuredContent!.error.code).toBe('FORBIDDEN');
    } finally {
      await ro.close();
    }
  });

  test('a deny rule keeps a list and a calendar out of writes, by entity', async () => {
    const denied = await startTestServer({ TOOLS_DENY: 'todo.shopping_list,calendar.family' });
    try {
      await denied.app.hub.ready();
      const move = await refused('todo', { operation: 'move', list: 'shopping list', item: 'Coffee' }, denied);
      expect(move.structuredContent!.error).toMatchObject({ code: 'FORBIDDEN', details: { entity_ids: ['todo.shopping_list'] } });
      const uid = (
        (await ok('calendar', { operation: 'events', entity_id: 'calendar.family', start: localDate(0), end: localDate(2) }, denied)).structuredContent!
          .events as any[]
      )[0].uid;
      const upd = await refused(
        'calendar',
        { operation: 'update', entity_id: 'calendar.family', uid, summary: 'X', start: localDate(1), end: localDate(2) },
        denied,
      );
      expect(upd.structuredContent!.error).toMatchObject({ code: 'FORBIDDEN', details: { entity_ids: ['calendar.family'] } });
      await ok('todo', { operation: 'add', list: 'Chores', item: 'Allowed' }, denied);
    } finally {
      await denied.close();
    }
  });

  test('over MCP: the same tools answer', async () => {
    const client = new Client({ name: 'calendar-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${s.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${s.token}` } } }));
    try {
      // Past the tool list's budget these are found (find_tools) rather than listed.
      const found = (await client.callTool({ name: 'find_tools', arguments: { names: ['calendar', 'todo', 'weather'] } })) as {
        structuredContent: { tools: { name: string }[] };
      };
      const tools = found.structuredContent.tools.filter((t) => ['calendar', 'todo', 'weather'].includes(t.name));
      expect(tools.map((t) => t.name).sort()).toEqual(['calendar', 'todo', 'weather']);
      // Their share of a new client's tools/list (tokens = JSON bytes / 4, as bench:tools counts).
      for (const t of tools) console.log(`${t.name}: ${JSON.stringify(t).length} bytes, ~${Math.round(JSON.stringify(t).length / 4)} tokens`);
      const r = (await client.callTool({ name: 'weather', arguments: { operation: 'current' } })) as Result;
      expect(r.structuredContent).toMatchObject({ entity_id: 'weather.home' });
      const items = (await client.callTool({ name: 'todo', arguments: { operation: 'items', list: 'Chores' } })) as Result;
      expect(items.isError).toBeFalsy();
    } finally {
      await client.close();
    }
  });
});

describe('on Home Assistant 2024.3.3, which has no calendar/event/subscribe', () => {
  let old: Simulator;
  let t: TestServer;
  beforeAll(async () => {
    old = await startSimulator({ legacy: true, logger: pino({ level: 'silent' }) });
    t = await startTestServer({ HASS_URL: old.url, HASS_TOKEN: old.token });
    await t.app.hub.ready();
  });
  afterAll(async () => {
    await t?.close();
    await old?.stop();
  });

  test('events are read, without uids, and the answer says plainly why they cannot be changed', async () => {
    const r = await ok('calendar', { operation: 'events', entity_id: 'calendar.family', start: localDate(0), end: localDate(8) }, t);
    const events = r.structuredContent!.events as { summary: string; uid?: string }[];
    expect(events.filter((e) => e.summary === 'Bins out')).toHaveLength(2);
    expect(events.every((e) => e.uid === undefined)).toBe(true);
    expect(r.structuredContent!.notes).toEqual([
      'This Home Assistant (2024.3.3) does not list event ids over its WebSocket API (calendar/event/subscribe), so events cannot be changed or deleted through the bridge; update Home Assistant for that.',
    ]);
    // What it has works as on 2026.11: creating an event, the to-do lists, forecasts.
    await ok('calendar', { operation: 'create', entity_id: 'calendar.family', summary: 'Old hub', start: localDate(2) }, t);
    await ok('todo', { operation: 'move', list: 'shopping list', item: 'Coffee' }, t);
    await ok('weather', { operation: 'forecast', type: 'hourly' }, t);
  });
});
