// Cameras, people and energy against the real Home Assistant: the demo's cameras through its
// camera proxy (a snapshot as MCP image content, the cap and Home Assistant's own scaling), the
// people and zone of tests/e2e/ha-config, and energy preferences saved here with statistics
// imported for the demo's energy and gas meters.
import { RawClient } from '@home-mcp-bridge/sim/testing';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startOf } from '../../src/plugin-sdk/time.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { callToolOk } from '../helpers/tool-call.js';
import { HA_VERSION } from './ha-control.js';
import { HASS_TOKEN, HASS_URL, haStateOf } from './ha-rest.js';

let s: TestServer;
let ha: RawClient;
beforeAll(async () => {
  s = await startTestServer({ HASS_URL, HASS_TOKEN });
  await s.app.hub.ready(30_000);
  ha = await RawClient.connect(`${HASS_URL.replace(/^http/, 'ws')}/api/websocket`, HASS_TOKEN);
});
afterAll(async () => {
  await ha?.close();
  await s?.close();
});

const tool = (name: string, args: Record<string, unknown>, server = s) => callToolOk(server, name, args);
const refused = async (name: string, args: Record<string, unknown>, server = s) => {
  const r = await server.call('/api/tools/call', 'POST', { name, arguments: args });
  expect(r.body.isError, JSON.stringify(r.body)).toBe(true);
  return r.body.structuredContent.error as { code: string; message: string; details: Record<string, any> };
};

describe('cameras', () => {
  test('the demo cameras: state, stream, and no token in the answer', async () => {
    const r = await tool('cameras', { operation: 'list' });
    const ids = r.structuredContent!.cameras.map((c: { entity_id: string }) => c.entity_id);
    expect(ids).toEqual(expect.arrayContaining(['camera.demo_camera', 'camera.demo_camera_png']));
    expect(r.structuredContent!.cameras.find((c: { entity_id: string }) => c.entity_id === 'camera.demo_camera')).toMatchObject({ has_stream: true });
    // Home Assistant's state has the credential; the bridge drops it where states come in.
    expect(String((await haStateOf('camera.demo_camera')).attributes.entity_picture)).toMatch(/token=/);
    expect(s.app.hub.cache.get('camera.demo_camera')!.attributes).not.toHaveProperty('access_token');
    const described = await tool('describe_entity', { entity_id: 'camera.demo_camera' });
    expect(JSON.stringify(described)).not.toMatch(/token|camera_proxy/);
    expect(JSON.stringify(r)).not.toMatch(/token|camera_proxy/);
  });

  test('a snapshot is the JPEG Home Assistant serves, as image content', async () => {
    const direct = Buffer.from(
      await (await fetch(`${HASS_URL}/api/camera_proxy/camera.demo_camera`, { headers: { authorization: `Bearer ${HASS_TOKEN}` } })).arrayBuffer(),
    );
    const r = await tool('cameras', { operation: 'snapshot', entity_id: 'camera.demo_camera' });
    const image = (r.content as unknown as { type: string; data?: string; mimeType?: string }[]).find((c) => c.type === 'image')!;
    // The demo camera says image/jpg; the demo cycles four pictures, so compare the kind and the size class.
    expect(image.mimeType).toBe('image/jpg');
    const got = Buffer.from(image.data!, 'base64');
    expect([...got.subarray(0, 2)]).toEqual([0xff, 0xd8]);
    expect(Math.abs(got.length - direct.length)).toBeLessThan(4096);
    expect(r.structuredContent!.snapshot).toMatchObject({ mime_type: 'image/jpg', bytes: got.length, width: expect.any(Number), height: expect.any(Number) });
    const png = await tool('cameras', { operation: 'snapshot', entity_id: 'camera.demo_camera_png' });
    expect(png.structuredContent!.snapshot.mime_type).toBe('image/png');
  });

  test('over the cap: Home Assistant is asked for a smaller JPEG; it is returned when Home Assistant can scale, refused when not', async () => {
    const small = await startTestServer({ HASS_URL, HASS_TOKEN, CAMERA_SNAPSHOT_MAX_BYTES: '16384' });
    try {
      await small.app.hub.ready(30_000);
      const r = await small.call('/api/tools/call', 'POST', { name: 'cameras', arguments: { operation: 'snapshot', entity_id: 'camera.demo_camera' } });
      // Printed for the record: whether this Home Assistant has libturbojpeg to scale with.
      console.log(
        `camera cap 16384 on ${HA_VERSION}: ${r.body.isError ? `refused: ${r.body.structuredContent.error.message}` : JSON.stringify(r.body.structuredContent.snapshot)}`,
      );
      if (r.body.isError) {
        expect(r.body.structuredContent.error).toMatchObject({ code: 'PAYLOAD_TOO_LARGE', details: { max_bytes: 16384 } });
        expect(r.body.structuredContent.error.message).toMatch(/Home Assistant answered (no smaller|more than the cap)/);
      } else {
        expect(r.body.structuredContent.snapshot).toMatchObject({ scaled_from: { bytes: expect.any(Number) } });
        expect(r.body.structuredContent.snapshot.bytes).toBeLessThanOrEqual(16384);
      }
    } finally {
      await small.close();
    }
  });

  test('a camera turned off is refused as off', async () => {
    const off = await ha.command({ type: 'call_service', domain: 'camera', service: 'turn_off', target: { entity_id: 'camera.demo_camera_png' } });
    expect(off.success, JSON.stringify(off)).toBe(true);
    try {
      const e = await refused('cameras', { operation: 'snapshot', entity_id: 'camera.demo_camera_png' });
      expect(e).toMatchObject({ code: 'CONFLICT', message: 'camera.demo_camera_png is off: it gives no snapshot until it is turned on' });
    } finally {
      await ha.command({ type: 'call_service', domain: 'camera', service: 'turn_on', target: { entity_id: 'camera.demo_camera_png' } });
    }
  });
});

describe('people and places', () => {
  test('who is home and where each is, from the configured people and zones', async () => {
    const r = await tool('people', { operation: 'home' });
    // Onboarding made a person for the owner too (person.e2e, no tracker).
    const people = (r.structuredContent!.people as Record<string, any>[]).filter((p) => p.entity_id !== 'person.e2e');
    expect(people.map((p) => p.entity_id)).toEqual(['person.anna', 'person.ben']);
    expect(people[0]).toMatchObject({ name: 'Anna', state: 'home', at_home: true, zone: 'zone.home' });
    expect(people[0]!.trackers).toEqual([expect.objectContaining({ entity_id: 'device_tracker.demo_home_boy', place: 'home' })]);
    expect(people[0]!.since).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+0[12]:00$/);
    expect(people[1]).toMatchObject({ name: 'Ben', state: 'unknown', at_home: false });
    expect(r.structuredContent!.home).toEqual(['Anna']);
    expect(JSON.stringify(r)).not.toMatch(/latitude|longitude/);
    const zones = await tool('people', { operation: 'zones' });
    expect(zones.structuredContent!.zones).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ entity_id: 'zone.home', people: ['Anna'] }),
        expect.objectContaining({ entity_id: 'zone.work', name: 'Work', radius: 150, people: [] }),
      ]),
    );
  });

  test.each([
    ['is anyone home?', 'en', 'Yes, 1 of 3: Anna.'],
    ['who is home?', 'en', 'Anna.'],
    ['where is Anna?', 'en', 'Anna is home.'],
    ['ist jemand zu Hause?', 'de', 'Ja, 1 von 3: Anna.'],
    ['wo ist Anna?', 'de', 'Anna: zu Hause.'],
  ])('the command %j (%s) answers and never acts', async (command, language, answer) => {
    const r = await s.call('/api/command', 'POST', { command, language });
    expect(r.body).toMatchObject({ success: true, actions: [], message: answer });
  });
});

describe('energy', () => {
  test('preferences saved in Home Assistant, and yesterday’s totals from statistics imported for the demo meters', async () => {
    const grid =
      HA_VERSION === '2024.3.3'
        ? {
            type: 'grid',
            flow_from: [{ stat_energy_from: 'sensor.total_energy_kwh', stat_cost: null, entity_energy_price: null, number_energy_price: null }],
            flow_to: [],
            cost_adjustment_day: 0,
          }
        : {
            type: 'grid',
            stat_energy_from: 'sensor.total_energy_kwh',
            stat_energy_to: null,
            stat_cost: null,
            entity_energy_price: null,
            number_energy_price: null,
            stat_compensation: null,
            entity_energy_price_export: null,
            number_energy_price_export: null,
            cost_adjustment_day: 0,
          };
    const gas = { type: 'gas', stat_energy_from: 'sensor.total_gas_m3', stat_cost: null, entity_energy_price: null, number_energy_price: null };
    const saved = await ha.command({ type: 'energy/save_prefs', energy_sources: [grid, gas], device_consumption: [] });
    expect(saved.success, JSON.stringify(saved.error)).toBe(true);

    const prefs = await tool('energy', { operation: 'prefs' });
    expect(prefs.structuredContent!.sources).toEqual([
      { flow: 'grid_import', statistic_id: 'sensor.total_energy_kwh' },
      { flow: 'gas', statistic_id: 'sensor.total_gas_m3' },
    ]);

    const tz = 'Europe/Amsterdam';
    const start = startOf('day', Date.now(), tz, -1);
    const end = startOf('day', Date.now(), tz);
    const HOUR = 3_600_000;
    const hours: number[] = [];
    for (let t = start - 2 * HOUR; t < end; t += HOUR) hours.push(t);
    const inPeriod = hours.filter((t) => t >= start).length;
    for (const [id, unit, perHour] of [
      ['sensor.total_energy_kwh', 'kWh', 0.5],
      ['sensor.total_gas_m3', 'm³', 0.125],
    ] as const) {
      const r = await ha.command({
        type: 'recorder/import_statistics',
        metadata: { has_mean: false, has_sum: true, name: null, source: 'recorder', statistic_id: id, unit_of_measurement: unit },
        stats: hours.map((t, i) => ({ start: new Date(t).toISOString(), state: 1000 + perHour * (i + 1), sum: perHour * (i + 1) })),
      });
      expect(r.success, JSON.stringify(r.error)).toBe(true);
    }
    let totals: Record<string, any> = {};
    for (let i = 0; i < 100; i++) {
      totals = (await tool('energy', { operation: 'totals', period: 'yesterday' })).structuredContent!.totals;
      // The recorder writes the imports in its own time.
      if (totals.grid_import?.value === 0.5 * inPeriod && totals.gas?.value === 0.125 * inPeriod) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(totals).toEqual({
      grid_import: { value: 0.5 * inPeriod, unit: 'kWh' },
      gas: { value: 0.125 * inPeriod, unit: 'm³' },
      consumption: { value: 0.5 * inPeriod, unit: 'kWh' },
    });
  });
});
