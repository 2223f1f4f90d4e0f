// Issue 35's cameras, people and places, and energy, against the simulator's demo home: over
// POST /api/tools/call, over MCP in both eras, and the presence questions as commands in English
// and German. A snapshot is a real JPEG read through the hub's camera proxy; no credential of
// Home Assistant's (a camera's access_token, a proxy URL with it) is in any answer.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { RawClient } from '@home-mcp-bridge/sim/testing';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startOf } from '../../src/plugin-sdk/time.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
  await s.app.hub.ready();
});
afterAll(() => s?.close());

type Result = { isError?: boolean; content: { type: string; text?: string; data?: string; mimeType?: string }[]; structuredContent?: Record<string, any> };
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
  expect(r.isError, JSON.stringify(r)).toBe(true);
  return r.structuredContent!.error as { code: string; message: string; details: Record<string, any> };
};

async function hubCall(domain: string, service: string, entity_id: string) {
  const hub = await RawClient.connect(s.app.simulator!.wsUrl, s.app.simulator!.token);
  try {
    const r = await hub.command({ type: 'call_service', domain, service, target: { entity_id } });
    expect(r.success, JSON.stringify(r)).toBe(true);
  } finally {
    await hub.close();
  }
}

async function mcpCall(era: 'legacy' | 'modern', name: string, args: Record<string, unknown>): Promise<Result> {
  const client = new Client({ name: 'home-tests', version: '1.0.0' }, era === 'modern' ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {});
  await client.connect(new StreamableHTTPClientTransport(new URL(`${s.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${s.token}` } } }));
  try {
    return (await client.callTool({ name, arguments: args })) as Result;
  } finally {
    await client.close();
  }
}

describe('cameras', () => {
  test('list and state: whether each streams, and no token or proxy URL anywhere', async () => {
    const list = await ok('cameras', { operation: 'list' });
    expect(list.structuredContent!.cameras).toEqual([
      expect.objectContaining({
        entity_id: 'camera.front_door',
        name: 'Front Door Camera',
        area: 'Hallway',
        state: 'streaming',
        has_stream: true,
        brand: 'Simvision',
      }),
      expect.objectContaining({ entity_id: 'camera.garden', name: 'Garden Camera', area: 'Garden', state: 'idle', has_stream: false, can_turn_off: true }),
    ]);
    const inGarden = await ok('cameras', { operation: 'list', area: 'backyard' });
    expect(inGarden.structuredContent!.cameras.map((c: { entity_id: string }) => c.entity_id)).toEqual(['camera.garden']);
    const state = await ok('cameras', { operation: 'state', entity_id: 'camera.front_door' });
    expect(state.content[0]!.text).toBe('Front Door Camera (camera.front_door, Hallway): streaming, has a stream');
    // The hub's state carries the credential; the bridge drops it where states come in, so no
    // answer has it (describe_entity and the REST state show attributes whole).
    const hubState = (await (
      await fetch(`${s.app.simulator!.url}/api/states/camera.front_door`, { headers: { authorization: `Bearer ${s.app.simulator!.token}` } })
    ).json()) as { attributes: Record<string, unknown> };
    expect(String(hubState.attributes.entity_picture)).toMatch(/\?token=[0-9a-f]{64}$/);
    expect(s.app.hub.cache.get('camera.front_door')!.attributes).not.toHaveProperty('access_token');
    const described = await ok('describe_entity', { entity_id: 'camera.front_door' });
    expect(JSON.stringify(described.structuredContent)).toContain('Simvision');
    const device = await s.call('/api/state/camera.front_door');
    expect(device.status).toBe(200);
    for (const r of [list, inGarden, state, described, device.body]) expect(JSON.stringify(r)).not.toMatch(/token|camera_proxy/);
  });

  test('a snapshot is MCP image content: the camera’s JPEG as the hub serves it, over REST and MCP in both eras', async () => {
    const hubJpeg = Buffer.from(
      await (
        await fetch(`${s.app.simulator!.url}/api/camera_proxy/camera.front_door`, { headers: { authorization: `Bearer ${s.app.simulator!.token}` } })
      ).arrayBuffer(),
    );
    expect([...hubJpeg.subarray(0, 2)]).toEqual([0xff, 0xd8]);
    const answers = [
      await ok('cameras', { operation: 'snapshot', entity_id: 'camera.front_door' }),
      await mcpCall('legacy', 'cameras', { operation: 'snapshot', entity_id: 'camera.front_door' }),
      await mcpCall('modern', 'cameras', { operation: 'snapshot', entity_id: 'camera.front_door' }),
    ];
    for (const r of answers) {
      expect(r.isError).toBeFalsy();
      const image = r.content.find((c) => c.type === 'image')!;
      expect(image.mimeType).toBe('image/jpeg');
      expect(Buffer.from(image.data!, 'base64').equals(hubJpeg)).toBe(true);
      expect(r.content[0]!.text).toMatch(/^Snapshot of Front Door Camera \(camera\.front_door\), 160×120, \d+ bytes, taken /);
      expect(r.structuredContent!.snapshot).toEqual({ mime_type: 'image/jpeg', bytes: hubJpeg.length, width: 160, height: 120 });
      expect(JSON.stringify(r.structuredContent)).not.toMatch(/token|camera_proxy/);
    }
  });

  test('a camera turned off, an unknown one, and arguments that do not go together', async () => {
    await hubCall('camera', 'turn_off', 'camera.garden');
    try {
      const off = await refused('cameras', { operation: 'snapshot', entity_id: 'camera.garden' });
      expect(off).toMatchObject({ code: 'CONFLICT', message: 'camera.garden is off: it gives no snapshot until it is turned on' });
    } finally {
      await hubCall('camera', 'turn_on', 'camera.garden');
    }
    await ok('cameras', { operation: 'snapshot', entity_id: 'camera.garden' });
    const unknown = await refused('cameras', { operation: 'snapshot', entity_id: 'camera.frontdoor' });
    expect(unknown.code).toBe('INVALID_ENTITY');
    expect(unknown.details.available_entities).toContain('camera.front_door');
    const notACamera = await s.call('/api/tools/call', 'POST', { name: 'cameras', arguments: { operation: 'snapshot', entity_id: 'lock.front_door' } });
    expect(notACamera.status).toBe(400);
    expect(JSON.stringify(notACamera.body)).toContain('must be a camera entity id');
    expect((await refused('cameras', { operation: 'snapshot' })).message).toMatch(/^entity_id: say which camera/);
    expect((await refused('cameras', { operation: 'state', entity_id: 'camera.garden', area: 'garden' })).message).toMatch(/^area goes with list/);
  });

  test('over the cap: Home Assistant is asked for a smaller JPEG, and one it cannot make smaller is refused, naming the cap', async () => {
    const small = await startTestServer({ CAMERA_SNAPSHOT_MAX_BYTES: '1024' });
    try {
      await small.app.hub.ready();
      const e = await refused('cameras', { operation: 'snapshot', entity_id: 'camera.front_door' }, small);
      expect(e.code).toBe('PAYLOAD_TOO_LARGE');
      expect(e.message).toMatch(
        /^The snapshot of camera\.front_door is \d+ bytes, over the cap of 1024 \(CAMERA_SNAPSHOT_MAX_BYTES\); asked for \d+×\d+, Home Assistant answered more than the cap/,
      );
      expect(e.details).toMatchObject({ entity_id: 'camera.front_door', max_bytes: 1024 });
    } finally {
      await small.close();
    }
  });
});

describe('people and places', () => {
  test('who is home, where each person is and since when, without coordinates', async () => {
    const r = await ok('people', { operation: 'home' });
    expect(r.structuredContent!.home).toEqual(['Anna']);
    const [anna, ben] = r.structuredContent!.people as Record<string, any>[];
    expect(anna).toMatchObject({
      entity_id: 'person.anna',
      name: 'Anna',
      state: 'home',
      at_home: true,
      zone: 'zone.home',
      place: 'home',
      source: 'device_tracker.anna_phone',
    });
    expect(ben).toMatchObject({ entity_id: 'person.ben', state: 'Work', at_home: false, zone: 'zone.work', place: 'Work' });
    expect(ben!.trackers).toEqual([expect.objectContaining({ entity_id: 'device_tracker.ben_phone', place: 'Work', source_type: 'gps', battery_level: 45 })]);
    // Since when, in the home's zone (Europe/Amsterdam: +01:00 or +02:00).
    expect(anna!.since).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+0[12]:00$/);
    expect(r.content[0]!.text!.split('\n')[0]).toBe('Home: Anna.');
    expect(r.content[0]!.text).toContain('Ben is at Work since ');
    expect(JSON.stringify(r)).not.toMatch(/latitude|longitude|gps_accuracy/);
  });

  test('one person by name, in any case, and the zones with who is in each', async () => {
    const ben = await ok('people', { operation: 'where', person: 'ben' });
    expect(ben.structuredContent!.person).toMatchObject({ entity_id: 'person.ben', place: 'Work' });
    expect(ben.content[0]!.text).toMatch(/^Ben is at Work since /);
    const nobody = await refused('people', { operation: 'where', person: 'Carla' });
    expect(nobody).toMatchObject({ code: 'INVALID_ENTITY', message: 'There is no person "Carla"; people: Anna, Ben' });
    expect((await refused('people', { operation: 'home', person: 'Anna' })).message).toBe('person goes with where, not with home');
    const zones = await ok('people', { operation: 'zones' });
    expect(zones.structuredContent!.zones).toEqual([
      { entity_id: 'zone.home', name: 'Home', radius: 100, passive: false, people: ['Anna'] },
      { entity_id: 'zone.work', name: 'Work', radius: 150, passive: false, people: ['Ben'] },
    ]);
  });

  test('someone leaving changes the answers', async () => {
    // A person's state is the hub's (from its trackers): set here through the hub's REST API.
    const setState = (state: string) =>
      fetch(`${s.app.simulator!.url}/api/states/person.anna`, {
        method: 'POST',
        headers: { authorization: `Bearer ${s.app.simulator!.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ state, attributes: { ...s.app.hub.cache.get('person.anna')!.attributes } }),
      });
    const until = async (state: string) => {
      for (let i = 0; i < 500 && s.app.hub.cache.get('person.anna')?.state !== state; i++) await new Promise((r) => setTimeout(r, 10));
      expect(s.app.hub.cache.get('person.anna')?.state).toBe(state);
    };
    expect((await setState('not_home')).status).toBe(200);
    await until('not_home');
    try {
      const r = await ok('people', { operation: 'home' });
      expect(r.structuredContent!.home).toEqual([]);
      expect(r.content[0]!.text).toMatch(/^Nobody is home\.\nAnna is away \(in no zone\) since /);
      const asked = await s.call('/api/command', 'POST', { command: 'is anyone home?', language: 'en' });
      expect(asked.body).toMatchObject({ success: true, actions: [], message: 'No, 0 of 2.' });
    } finally {
      await setState('home');
      await until('home');
    }
  });

  const questions: [string, string, string][] = [
    ['is anyone home?', 'en', 'Yes, 1 of 2: Anna.'],
    ['who is home?', 'en', 'Anna.'],
    ['where is Anna?', 'en', 'Anna is home.'],
    ['where is Ben?', 'en', 'Ben is at Work.'],
    ['ist jemand zu Hause?', 'de', 'Ja, 1 von 2: Anna.'],
    ['wer ist zu Hause?', 'de', 'Anna.'],
    ['wo ist Anna?', 'de', 'Anna: zu Hause.'],
    ['wo ist Ben?', 'de', 'Ben: in der Zone Work.'],
  ];
  test.each(questions)('the command %j (%s) answers and never acts', async (command, language, answer) => {
    const r = await s.call('/api/command', 'POST', { command, language });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body).toMatchObject({ success: true, actions: [], message: answer });
  });
});

test('people and energy over MCP in both eras answer as over the tool route', async () => {
  for (const era of ['legacy', 'modern'] as const) {
    const where = await mcpCall(era, 'people', { operation: 'where', person: 'Anna' });
    expect(where.isError).toBeFalsy();
    expect(where.structuredContent!.person).toMatchObject({ entity_id: 'person.anna', at_home: true });
    const prefs = await mcpCall(era, 'energy', { operation: 'prefs' });
    expect(prefs.isError).toBeFalsy();
    expect(prefs.structuredContent!.sources).toHaveLength(4);
    const bad = await mcpCall(era, 'people', { operation: 'where', person: 'Carla' });
    expect(bad.isError).toBe(true);
  }
});

describe('energy', () => {
  test('the dashboard’s sources from energy/get_prefs', async () => {
    const r = await ok('energy', { operation: 'prefs' });
    expect(r.structuredContent!.sources).toEqual([
      { flow: 'grid_import', statistic_id: 'sensor.grid_energy_import' },
      { flow: 'grid_export', statistic_id: 'sensor.grid_energy_export' },
      { flow: 'solar_production', statistic_id: 'sensor.solar_energy' },
      { flow: 'gas', statistic_id: 'sensor.gas_meter' },
    ]);
    expect(r.structuredContent!.prefs.energy_sources[0]).toMatchObject({ type: 'grid', stat_energy_from: 'sensor.grid_energy_import' });
    expect(r.content[0]!.text).toBe(
      'grid import: sensor.grid_energy_import, kWh\ngrid export: sensor.grid_energy_export, kWh\nsolar production: sensor.solar_energy, kWh\ngas: sensor.gas_meter, m³',
    );
  });

  test('yesterday’s totals: each meter’s change of sum, consumption from them, with units', async () => {
    const tz = 'Europe/Amsterdam';
    const start = startOf('day', Date.now(), tz, -1);
    const end = startOf('day', Date.now(), tz);
    const HOUR = 3_600_000;
    // Hourly rows from two hours before yesterday to its end; per hour: import 0.5 kWh, export 0.25,
    // solar 0.75 (in Wh for one meter, to be read in kWh), gas 0.125 m³.
    const hours: number[] = [];
    for (let t = start - 2 * HOUR; t < end; t += HOUR) hours.push(t);
    const inPeriod = hours.filter((t) => t >= start).length;
    const hub = await RawClient.connect(s.app.simulator!.wsUrl, s.app.simulator!.token);
    try {
      for (const [id, unit, perHour] of [
        ['sensor.grid_energy_import', 'kWh', 0.5],
        ['sensor.grid_energy_export', 'kWh', 0.25],
        ['sensor.solar_energy', 'kWh', 0.75],
        ['sensor.gas_meter', 'm³', 0.125],
      ] as const) {
        const r = await hub.command({
          type: 'recorder/import_statistics',
          metadata: { has_mean: false, has_sum: true, name: null, source: 'recorder', statistic_id: id, unit_of_measurement: unit },
          stats: hours.map((t, i) => ({ start: new Date(t).toISOString(), state: 100 + perHour * (i + 1), sum: perHour * (i + 1) })),
        });
        expect(r.success, JSON.stringify(r)).toBe(true);
      }
    } finally {
      await hub.close();
    }
    const r = await ok('energy', { operation: 'totals', period: 'yesterday' });
    expect(r.structuredContent).toMatchObject({
      step: 'hour',
      totals: {
        grid_import: { value: 0.5 * inPeriod, unit: 'kWh' },
        grid_export: { value: 0.25 * inPeriod, unit: 'kWh' },
        solar_production: { value: 0.75 * inPeriod, unit: 'kWh' },
        gas: { value: 0.125 * inPeriod, unit: 'm³' },
        consumption: { value: (0.5 + 0.75 - 0.25) * inPeriod, unit: 'kWh' },
      },
    });
    expect(r.structuredContent!.start).toMatch(/T00:00:00\+0[12]:00$/);
    expect(r.content[0]!.text).toContain(`consumption: ${inPeriod} kWh`);
    expect(r.content[0]!.text).toContain(`gas: ${0.125 * inPeriod} m³`);
    // The same period by its bounds.
    const bounded = await ok('energy', { operation: 'totals', start: new Date(start).toISOString(), end: new Date(end).toISOString() });
    expect(bounded.structuredContent!.totals).toEqual(r.structuredContent!.totals);
  });

  test('arguments that do not go together, and a home without energy preferences', async () => {
    expect((await refused('energy', { operation: 'prefs', period: 'today' })).message).toBe('period, start and end go with totals, not with prefs');
    expect((await refused('energy', { operation: 'totals', period: 'today', start: '2026-01-01T00:00:00Z' })).message).toBe(
      'give period or start/end, not both',
    );
    const dir = mkdtempSync(join(tmpdir(), 'hmb-energy-'));
    const file = join(dir, 'home.yaml');
    writeFileSync(file, 'name: Bare\ntime_zone: UTC\nentities:\n  - entity_id: light.lamp\n    state: "off"\n');
    const bare = await startTestServer({ SIM_HOME: file });
    try {
      await bare.app.hub.ready();
      const e = await refused('energy', { operation: 'totals' }, bare);
      expect(e).toMatchObject({
        code: 'NOT_FOUND',
        message: 'The energy dashboard is not set up in Home Assistant (no energy preferences saved): nothing to total',
      });
      // A home with no person, zone or tracker is not offered the people tool: calling it is refused as
      // listing it would be (ToolRegistry: one rule for both), saying why.
      const nobody = await refused('people', { operation: 'home' }, bare);
      expect(nobody).toMatchObject({ code: 'FORBIDDEN', details: { tool: 'people', offered: false } });
    } finally {
      await bare.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('a hub without the energy integration is not offered the energy tool (available()), and calling it says why', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'hmb-energy-'));
    const file = join(dir, 'home.yaml');
    writeFileSync(file, 'name: No energy\ntime_zone: UTC\nenergy: false\nentities:\n  - entity_id: light.lamp\n    state: "off"\n');
    const bare = await startTestServer({ SIM_HOME: file });
    try {
      await bare.app.hub.ready();
      expect(bare.app.hub.config?.components).not.toContain('energy');
      const e = await refused('energy', { operation: 'prefs' }, bare);
      expect(e).toMatchObject({ code: 'FORBIDDEN', details: { tool: 'energy', offered: false } });
      // The demo home (energy loaded) is offered it.
      expect(s.app.hub.config?.components).toContain('energy');
      expect((await ok('energy', { operation: 'prefs' })).isError).toBeFalsy();
    } finally {
      await bare.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
