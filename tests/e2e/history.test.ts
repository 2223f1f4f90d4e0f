// The history tools against the real Home Assistant with its recorder, history and logbook: a
// change made through the bridge comes back from what Home Assistant recorded; its raw answers
// have the shapes the simulator's recorder gives (src/sim/tests/recorder.test.ts).
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { RawClient } from '@home-mcp-bridge/sim/testing';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { callToolOk } from '../helpers/tool-call.js';
import { eventually, HASS_TOKEN, HASS_URL } from './ha-rest.js';

let s: TestServer;
let ha: RawClient;
const LIGHT = 'light.ceiling_lights';

beforeAll(async () => {
  s = await startTestServer({ HASS_URL, HASS_TOKEN });
  await s.app.hub.ready(30_000);
  ha = await RawClient.connect(`${HASS_URL.replace(/^http/, 'ws')}/api/websocket`, HASS_TOKEN);
});
afterAll(async () => {
  await ha?.close();
  await s?.close();
});

const tool = (name: string, args: Record<string, unknown>) => callToolOk(s, name, args);

describe('history and logbook of a light switched through the bridge', () => {
  let from: string;
  beforeAll(async () => {
    from = new Date(Date.now() - 1000).toISOString();
    await tool('control_lights', { entity_id: LIGHT, command: 'off' });
    await tool('control_lights', { entity_id: LIGHT, command: 'on' });
  });

  test('get_history: off, then on', async () => {
    const r = await eventually(
      () => tool('get_history', { entity_ids: [LIGHT], start: from }),
      (x) =>
        x
          .structuredContent!.changes.map((c: { state: string }) => c.state)
          .join(',')
          .endsWith('off,on'),
      'history of the ceiling lights',
    );
    expect(r.structuredContent!.changes.at(-1)).toEqual({
      entity_id: LIGHT,
      when: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+0[12]:00$/),
      state: 'on',
    });
  });

  test('get_logbook: the change and the service call behind it', async () => {
    const r = await eventually(
      () => tool('get_logbook', { entity_ids: [LIGHT], start: from }),
      (x) => x.structuredContent!.entries.some((e: { state?: string }) => e.state === 'on'),
      'logbook of the ceiling lights',
    );
    expect(r.structuredContent!.entries.at(-1)).toEqual({ when: expect.any(String), entity_id: LIGHT, state: 'on', caused_by: 'light.turn_on by a user' });
  });

  test('Home Assistant’s own answers have the simulator’s shapes', async () => {
    const history = await ha.command({ type: 'history/history_during_period', start_time: from, entity_ids: [LIGHT], significant_changes_only: false });
    for (const row of history.result[LIGHT]) {
      expect(['s,a,lu', 's,a,lu,lc']).toContain(Object.keys(row).join(','));
      expect(typeof row.lu).toBe('number');
    }
    const minimal = await ha.command({
      type: 'history/history_during_period',
      start_time: from,
      entity_ids: [LIGHT],
      minimal_response: true,
      no_attributes: true,
    });
    expect(minimal.result[LIGHT].map((r: object) => Object.keys(r).join(','))).toEqual(minimal.result[LIGHT].map(() => 's,lu'));
    const log = await ha.command({ type: 'logbook/get_events', start_time: from, entity_ids: [LIGHT] });
    expect(log.result.at(-1)).toEqual({
      when: expect.any(Number),
      state: 'on',
      entity_id: LIGHT,
      context_user_id: expect.stringMatching(/^[0-9a-f]{32}$/),
      context_domain: 'light',
      context_service: 'turn_on',
      context_event_type: 'call_service',
    });
    expect((await ha.command({ type: 'history/history_during_period', start_time: 'yesterday', entity_ids: [LIGHT] })).error).toEqual({
      code: 'invalid_start_time',
      message: 'Invalid start_time',
    });
  });
});

test('get_statistics: hourly statistics imported into Home Assistant, per hour and per day', async () => {
  const start = (h: number) => new Date(Date.UTC(2024, 2, 1, h)).toISOString();
  const imported = await ha.command({
    type: 'recorder/import_statistics',
    metadata: { has_mean: false, has_sum: true, name: 'E2E energy', source: 'e2e', statistic_id: 'e2e:energy', unit_of_measurement: 'kWh' },
    stats: [0, 1, 2].map((h) => ({ start: start(h), state: 10 + h, sum: 2 * h })),
  });
  expect(imported.success, JSON.stringify(imported.error)).toBe(true);
  const hourly = await eventually(
    () => tool('get_statistics', { statistic_ids: ['e2e:energy'], start: start(0), end: start(6), types: ['state', 'sum', 'change'] }),
    (x) => x.structuredContent!.total === 3,
    'imported statistics',
  );
  expect(hourly.structuredContent!.statistics.map((r: Record<string, unknown>) => [r.start, r.state, r.sum, r.change])).toEqual([
    ['2024-03-01T01:00:00+01:00', 10, 0, 0],
    ['2024-03-01T02:00:00+01:00', 11, 2, 2],
    ['2024-03-01T03:00:00+01:00', 12, 4, 2],
  ]);
  const raw = await ha.command({
    type: 'recorder/statistics_during_period',
    start_time: start(1),
    statistic_ids: ['e2e:energy'],
    period: 'hour',
    types: ['state', 'sum', 'change'],
  });
  expect(raw.result).toEqual({
    'e2e:energy': [
      { start: Date.parse(start(1)), end: Date.parse(start(2)), state: 11, sum: 2, change: 2 },
      { start: Date.parse(start(2)), end: Date.parse(start(3)), state: 12, sum: 4, change: 2 },
    ],
  });
  const daily = await tool('get_statistics', { statistic_ids: ['e2e:energy'], start: start(0), end: start(6), period: 'day' });
  expect(daily.structuredContent!.statistics).toEqual([
    { statistic_id: 'e2e:energy', start: '2024-03-01T00:00:00+01:00', end: '2024-03-02T00:00:00+01:00', state: 12, sum: 4, change: 4 },
  ]);
});
