// The calendar, todo and weather tools against the real Home Assistant: the demo platform's
// calendars (which lend no feature to change events, so creating is refused in words), the
// shopping list integration's to-do list (add, complete, reopen, move, remove) and its weather entities'
// forecasts. Home Assistant's own answers have the shapes the simulator gives.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { callToolOk, type ToolAnswer } from '../helpers/tool-call.js';
import { eventually, HASS_TOKEN, HASS_URL } from './ha-rest.js';

let s: TestServer;
/** The shopping list's config entry this file made (its integration has no YAML setup), removed after. */
let shoppingEntry: string | undefined;

async function haApi(method: string, path: string, json?: unknown): Promise<any> {
  const r = await fetch(`${HASS_URL}${path}`, {
    method,
    headers: { authorization: `Bearer ${HASS_TOKEN}`, ...(json !== undefined ? { 'content-type': 'application/json' } : {}) },
    ...(json !== undefined ? { body: JSON.stringify(json) } : {}),
  });
  expect(r.status, `${method} ${path}`).toBeLessThan(300);
  return r.json();
}

beforeAll(async () => {
  s = await startTestServer({ HASS_URL, HASS_TOKEN });
  await s.app.hub.ready(30_000);
  if (!s.app.hub.cache.has('todo.shopping_list')) {
    const flow = await haApi('POST', '/api/config/config_entries/flow', { handler: 'shopping_list' });
    const done = flow.type === 'create_entry' ? flow : await haApi('POST', `/api/config/config_entries/flow/${flow.flow_id}`, {});
    expect(done.type, JSON.stringify(done)).toBe('create_entry');
    shoppingEntry = done.result?.entry_id;
    // The bridge hears the new entity and, a moment later, the todo services it brought.
    await eventually(
      () => s.app.hub.cache.has('todo.shopping_list') && s.app.hub.services.todo?.get_items !== undefined,
      (x) => x,
      'todo.shopping_list and its services in the bridge',
    );
  }
});
afterAll(async () => {
  if (shoppingEntry) await haApi('DELETE', `/api/config/config_entries/entry/${shoppingEntry}`);
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

describe('todo', () => {
  test('the demo shopping list: add, complete, reopen, move to the top, remove', async () => {
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
