// The history plugin through POST /api/tools/call against the simulator's recorder: state
// history, the logbook with causes, long-term statistics; pages, bad input, hidden entities.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { RawClient } from '@home-mcp-bridge/sim/testing';
import { startTestServer, type TestServer } from '../helpers/server.js';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
  await s.app.hub.ready();
});
afterAll(() => s?.close());

type Result = { isError?: boolean; content: { text: string }[]; structuredContent?: Record<string, any> };
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

describe('get_history', () => {
  test('a light switched on and off: its state at the start, then each change, in pages', async () => {
    await ok('control_lights', { entity_id: 'light.office_desk', command: 'on' });
    await ok('control_lights', { entity_id: 'light.office_desk', command: 'off' });
    const r = await ok('get_history', { entity_ids: ['light.office_desk'], hours: 1 });
    const changes = r.structuredContent!.changes as { entity_id: string; when: string; state: string }[];
    expect(changes.slice(-2).map((c) => c.state)).toEqual(['on', 'off']);
    expect(changes.every((c) => c.entity_id === 'light.office_desk' && /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d\d:\d\d$/.test(c.when))).toBe(true);
    expect(r.content[0]!.text).toMatch(/light\.office_desk off$/m);

    const first = await ok('get_history', { entity_ids: ['light.office_desk'], hours: 1, limit: 1 });
    expect(first.structuredContent).toMatchObject({ total: changes.length, changes: [changes[0]] });
    const cursor = first.structuredContent!.next_cursor as string;
    expect(first.content[0]!.text).toContain(`cursor ${cursor}`);
    const second = await ok('get_history', { entity_ids: ['light.office_desk'], cursor, limit: 1 });
    expect(second.structuredContent!.changes).toEqual([changes[1]]);
  });

  test('attributes on request, with attribute-only changes', async () => {
    await ok('control_lights', { entity_id: 'light.office_desk', brightness_pct: 20, command: 'on' });
    await ok('control_lights', { entity_id: 'light.office_desk', brightness_pct: 60, command: 'on' });
    const r = await ok('get_history', { entity_ids: ['light.office_desk'], hours: 1, attributes: true, limit: 500 });
    const brightness = (r.structuredContent!.changes as { attributes: { brightness?: number } }[]).map((c) => c.attributes.brightness);
    expect(brightness.slice(-2)).toEqual([51, 153]);
  });

  test('unknown entities, bad times and foreign cursors are the caller’s to fix', async () => {
    const unknown = await call('get_history', { entity_ids: ['light.offce_desk'] });
    expect(unknown).toMatchObject({ isError: true, structuredContent: { error: { code: 'INVALID_ENTITY' } } });
    expect(unknown.structuredContent!.error.details.available_entities).toContain('light.office_desk');
    const badTime = await s.call('/api/tools/call', 'POST', { name: 'get_history', arguments: { entity_ids: ['light.office_desk'], start: 'last tuesday' } });
    expect(badTime.status).toBe(400);
    expect(JSON.stringify(badTime.body)).toContain('start');
    const backwards = await call('get_history', { entity_ids: ['light.office_desk'], start: '2024-03-02T00:00:00Z', end: '2024-03-01T00:00:00Z' });
    expect(backwards.content[0]!.text).toMatch(/start: must be before end/);
    const foreign = await call('get_history', { entity_ids: ['light.office_desk'], cursor: 'bm9wZQ' });
    expect(foreign).toMatchObject({ isError: true, structuredContent: { error: { code: 'INVALID_PARAMETERS' } } });
    const before = await ok('get_history', { entity_ids: ['light.office_desk'], start: '2020-01-01T00:00:00Z', end: '2020-01-02T00:00:00Z' });
    expect(before.structuredContent).toMatchObject({ changes: [], total: 0, next_cursor: null });
    expect(before.content[0]!.text).toMatch(/^No recorded states in that period/);
  });
});

describe('get_logbook', () => {
  test('what happened, and what caused it', async () => {
    await ok('control_lights', { entity_id: 'light.kitchen_ceiling', command: 'off' });
    const r = await ok('get_logbook', { entity_ids: ['light.kitchen_ceiling'], hours: 1 });
    const last = (r.structuredContent!.entries as Record<string, unknown>[]).at(-1);
    expect(last).toEqual({ when: expect.any(String), entity_id: 'light.kitchen_ceiling', state: 'off', caused_by: 'light.turn_off by a user' });
    const all = await ok('get_logbook', { hours: 1, limit: 500 });
    expect((all.structuredContent!.entries as { entity_id: string }[]).map((e) => e.entity_id)).toEqual(
      expect.arrayContaining(['light.kitchen_ceiling', 'light.office_desk']),
    );
  });
});

describe('get_statistics', () => {
  test('statistics Home Assistant holds, per hour and per day; none for others', async () => {
    const hub = await RawClient.connect(s.app.simulator!.wsUrl, s.app.simulator!.token);
    const hourStart = (h: number) => new Date(Date.UTC(2024, 2, 1, h)).toISOString();
    const imported = await hub.command({
      type: 'recorder/import_statistics',
      metadata: { has_mean: true, has_sum: false, name: null, source: 'recorder', statistic_id: 'sensor.outdoor_temperature', unit_of_measurement: '°C' },
      stats: [6, 7, 8].map((h) => ({ start: hourStart(h), mean: h + 0.12345, min: h - 1, max: h + 1 })),
    });
    await hub.close();
    expect(imported.success).toBe(true);
    const hourly = await ok('get_statistics', { statistic_ids: ['sensor.outdoor_temperature'], start: hourStart(0), end: hourStart(12) });
    expect(hourly.structuredContent!.statistics).toEqual(
      [6, 7, 8].map((h) => ({
        statistic_id: 'sensor.outdoor_temperature',
        start: expect.any(String),
        end: expect.any(String),
        mean: h + 0.123,
        min: h - 1,
        max: h + 1,
      })),
    );
    expect(hourly.structuredContent!.statistics[0].start).toBe('2024-03-01T07:00:00+01:00');
    const daily = await ok('get_statistics', {
      statistic_ids: ['sensor.outdoor_temperature'],
      start: hourStart(0),
      end: hourStart(12),
      period: 'day',
      types: ['min', 'max'],
    });
    expect(daily.structuredContent!.statistics).toEqual([
      { statistic_id: 'sensor.outdoor_temperature', start: '2024-03-01T00:00:00+01:00', end: '2024-03-02T00:00:00+01:00', min: 5, max: 9 },
    ]);
    const none = await ok('get_statistics', { statistic_ids: ['sensor.hallway_temperature'], start: hourStart(0), end: hourStart(12) });
    expect(none.content[0]!.text).toMatch(/^No statistics for sensor\.hallway_temperature .*\(here: .*sensor\.outdoor_temperature.*\)/);
  });
});

test('TOOLS_EXPOSED_ONLY: history of what Home Assistant does not expose is refused and left out of the logbook', async () => {
  const exposed = await startTestServer({ TOOLS_EXPOSED_ONLY: 'true' });
  try {
    await exposed.app.hub.ready();
    await exposed.app.services.exposure!.refresh();
    const weather = exposed.app.simulator!;
    weather.setState('weather.home', weather.getState('weather.home')!.state === 'rainy' ? 'sunny' : 'rainy');
    const everything = await RawClient.connect(weather.wsUrl, weather.token);
    const raw = await everything.command<{ entity_id: string }[]>({ type: 'logbook/get_events', start_time: new Date(Date.now() - 60_000).toISOString() });
    await everything.close();
    expect(raw.result!.map((e) => e.entity_id)).toContain('weather.home');
    const refused = await call('get_history', { entity_ids: ['weather.home'] }, exposed);
    expect(refused).toMatchObject({ isError: true, structuredContent: { error: { code: 'INVALID_ENTITY' } } });
    const log = await ok('get_logbook', { hours: 1, limit: 500 }, exposed);
    expect((log.structuredContent!.entries as { entity_id: string }[]).map((e) => e.entity_id)).not.toContain('weather.home');
    expect((await ok('get_history', { entity_ids: ['light.office_desk'] }, exposed)).structuredContent!.total).toBeGreaterThan(0);
  } finally {
    await exposed.close();
  }
});
