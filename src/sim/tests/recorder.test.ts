// The simulator's recorder over its WebSocket API, in Home Assistant 2024.3's shapes: history in
// the compressed state format, logbook entries with what caused them, statistics imported and
// read back per hour and per day.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { RawClient, type Simulator, startSimulator } from '../testing.js';

let sim: Simulator;
let c: RawClient;
let started: string;

beforeAll(async () => {
  started = new Date(Date.now() - 1000).toISOString();
  sim = await startSimulator({ home: 'demo', userToken: 'user-token' });
  c = await RawClient.connect(sim.wsUrl, sim.token);
});
afterAll(async () => {
  await c.close();
  await sim.stop();
});

const ok = async <T = any>(msg: Record<string, unknown>): Promise<T> => {
  const r = await c.command<T>(msg);
  expect(r.success, JSON.stringify(r.error)).toBe(true);
  return r.result as T;
};

describe('history/history_during_period', () => {
  test('a light turned on and off: the state at the start, then each change', async () => {
    const before = new Date().toISOString();
    await ok({ type: 'call_service', domain: 'light', service: 'turn_on', target: { entity_id: 'light.kitchen_ceiling' } });
    await ok({ type: 'call_service', domain: 'light', service: 'turn_off', target: { entity_id: 'light.kitchen_ceiling' } });
    const full = await ok<Record<string, any[]>>({ type: 'history/history_during_period', start_time: started, entity_ids: ['light.kitchen_ceiling'] });
    const rows = full['light.kitchen_ceiling']!;
    expect(rows.map((r) => r.s).slice(-2)).toEqual(['on', 'off']);
    for (const r of rows) {
      expect(Object.keys(r)).toEqual(['s', 'a', 'lu']);
      expect(typeof r.lu).toBe('number');
    }
    // From a later start: the state in force then comes first, stamped with the start time.
    const later = await ok<Record<string, any[]>>({
      type: 'history/history_during_period',
      start_time: before,
      entity_ids: ['light.kitchen_ceiling'],
      minimal_response: true,
      no_attributes: true,
    });
    const [first, ...rest] = later['light.kitchen_ceiling']!;
    expect(first).toEqual({ s: expect.any(String), lu: Date.parse(before) / 1000 });
    expect(rest.map((r) => Object.keys(r))).toEqual(
      [
        ['s', 'lu'],
        ['s', 'lu'],
      ].slice(0, rest.length),
    );
    expect(rest.at(-1)!.s).toBe('off');
  });

  test('attribute-only changes show only when significant_changes_only is false, with lc', async () => {
    const from = new Date().toISOString();
    sim.setState('light.kitchen_ceiling', 'on', { brightness: 10 });
    sim.setState('light.kitchen_ceiling', 'on', { brightness: 200 });
    const significant = await ok<Record<string, any[]>>({
      type: 'history/history_during_period',
      start_time: from,
      entity_ids: ['light.kitchen_ceiling'],
      include_start_time_state: false,
    });
    expect(significant['light.kitchen_ceiling']!.map((r) => r.a.brightness)).toEqual([10]);
    const all = await ok<Record<string, any[]>>({
      type: 'history/history_during_period',
      start_time: from,
      entity_ids: ['light.kitchen_ceiling'],
      include_start_time_state: false,
      significant_changes_only: false,
    });
    const rows = all['light.kitchen_ceiling']!;
    expect(rows.map((r) => r.a.brightness)).toEqual([10, 200]);
    expect(rows[0]).not.toHaveProperty('lc');
    expect(rows[1]!.lc).toBe(rows[0]!.lu);
  });

  test('the hub’s refusals and empty answers', async () => {
    expect((await c.command({ type: 'history/history_during_period', start_time: 'yesterday', entity_ids: ['light.x'] })).error).toEqual({
      code: 'invalid_start_time',
      message: 'Invalid start_time',
    });
    expect((await c.command({ type: 'history/history_during_period', start_time: started, entity_ids: ['Not An Id'] })).error).toEqual({
      code: 'invalid_entity_ids',
      message: 'Invalid entity_ids',
    });
    expect((await c.command({ type: 'history/history_during_period', start_time: started })).error?.code).toBe('invalid_format');
    expect(await ok({ type: 'history/history_during_period', start_time: '2999-01-01T00:00:00Z', entity_ids: ['light.kitchen_ceiling'] })).toEqual({});
    expect(await ok({ type: 'history/history_during_period', start_time: started, entity_ids: ['light.never_there'] })).toEqual({});
  });
});

describe('logbook/get_events', () => {
  test('a state change says which service call caused it and who made it', async () => {
    const from = new Date().toISOString();
    await ok({ type: 'call_service', domain: 'switch', service: 'toggle', target: { entity_id: 'switch.coffee_maker' } });
    const entries = await ok<any[]>({ type: 'logbook/get_events', start_time: from, entity_ids: ['switch.coffee_maker'] });
    expect(entries).toHaveLength(1);
    expect(entries[0]).toEqual({
      when: expect.any(Number),
      state: sim.getState('switch.coffee_maker')!.state,
      entity_id: 'switch.coffee_maker',
      context_user_id: expect.stringMatching(/^[0-9a-f]{32}$/),
      context_domain: 'switch',
      context_service: 'toggle',
      context_event_type: 'call_service',
    });
  });

  test('attribute changes and continuous sensors stay out; an automation run is described', async () => {
    const from = new Date().toISOString();
    sim.setState('sensor.outdoor_temperature', '3.5');
    sim.setState('light.kitchen_ceiling', sim.getState('light.kitchen_ceiling')!.state, { brightness: 77 });
    sim.hub.bus.fire('automation_triggered', { name: 'Morning', entity_id: 'automation.morning', source: 'time' });
    const entries = await ok<any[]>({ type: 'logbook/get_events', start_time: from });
    expect(entries.map((e) => e.entity_id)).toEqual(['automation.morning']);
    expect(entries[0]).toMatchObject({ name: 'Morning', message: 'triggered by time', source: 'time', domain: 'automation', context_id: expect.any(String) });
    expect(await ok({ type: 'logbook/get_events', start_time: from, entity_ids: ['sensor.outdoor_temperature'] })).toEqual([]);
    expect((await c.command({ type: 'logbook/get_events', start_time: 'soon' })).error).toEqual({ code: 'invalid_start_time', message: 'Invalid start_time' });
  });
});

describe('recorder statistics', () => {
  const hour = (h: number) => new Date(Date.UTC(2024, 0, 15, h)).toISOString();
  test('imported hourly statistics read back per hour, per day, and as change', async () => {
    await ok({
      type: 'recorder/import_statistics',
      metadata: { has_mean: false, has_sum: true, name: 'Grid', source: 'recorder', statistic_id: 'sensor.grid_energy', unit_of_measurement: 'kWh' },
      stats: [0, 1, 2].map((h) => ({ start: hour(h), state: 10 + h, sum: 2 * h })),
    });
    const hourly = await ok<Record<string, any[]>>({
      type: 'recorder/statistics_during_period',
      start_time: hour(1),
      statistic_ids: ['sensor.grid_energy'],
      period: 'hour',
      types: ['state', 'sum', 'change'],
    });
    expect(hourly).toEqual({
      'sensor.grid_energy': [
        { start: Date.parse(hour(1)), end: Date.parse(hour(2)), state: 11, sum: 2, change: 2 },
        { start: Date.parse(hour(2)), end: Date.parse(hour(3)), state: 12, sum: 4, change: 2 },
      ],
    });
    // 00:00-03:00 UTC is one day in the demo home's zone (Europe/Amsterdam).
    const daily = await ok<Record<string, any[]>>({
      type: 'recorder/statistics_during_period',
      start_time: hour(5),
      end_time: hour(6),
      statistic_ids: ['sensor.grid_energy'],
      period: 'day',
    });
    expect(daily['sensor.grid_energy']).toHaveLength(1);
    expect(daily['sensor.grid_energy']![0]).toMatchObject({ state: 12, sum: 4, change: 4 });
    expect(await ok({ type: 'recorder/statistics_during_period', start_time: hour(1), statistic_ids: ['sensor.unknown'], period: 'hour' })).toEqual({});
  });

  test('external statistics keep their source; a start off the hour is refused', async () => {
    await ok({
      type: 'recorder/import_statistics',
      metadata: { has_mean: true, has_sum: false, name: null, source: 'weather', statistic_id: 'weather:outside', unit_of_measurement: '°C' },
      stats: [{ start: hour(0), mean: 4, min: 1, max: 7 }],
    });
    const r = await ok<Record<string, any[]>>({
      type: 'recorder/statistics_during_period',
      start_time: hour(0),
      statistic_ids: ['weather:outside'],
      period: 'hour',
    });
    expect(r['weather:outside']).toEqual([{ start: Date.parse(hour(0)), end: Date.parse(hour(1)), last_reset: null, mean: 4, min: 1, max: 7 }]);
    const bad = await c.command({
      type: 'recorder/import_statistics',
      metadata: { has_mean: true, has_sum: false, name: null, source: 'weather', statistic_id: 'weather:outside', unit_of_measurement: '°C' },
      stats: [{ start: '2024-01-15T00:30:00Z', mean: 1 }],
    });
    expect(bad.success).toBe(false);
    expect(bad.error!.message).toBe('Invalid timestamp');
    const user = await RawClient.connect(sim.wsUrl, 'user-token');
    const meta = { has_mean: true, has_sum: false, name: null, source: 'weather', statistic_id: 'weather:outside', unit_of_measurement: '°C' };
    expect((await user.command({ type: 'recorder/import_statistics', metadata: meta, stats: [] })).error?.code).toBe('unauthorized');
    await user.close();
  });
});
