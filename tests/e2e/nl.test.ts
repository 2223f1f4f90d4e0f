// Natural-language commands against the real Home Assistant (each release, demo integration):
// commands that name an entity, an area and a bridge scene change Home Assistant, read back from it;
// a question answers with Home Assistant's own states; an ambiguous one asks.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { RawClient } from '@home-mcp-bridge/sim/testing';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { DEMO_VACUUM, OLDEST } from './ha-control.js';
import { eventually, haStateOf, HASS_TOKEN, HASS_URL } from './ha-rest.js';

let s: TestServer;
let hub: RawClient;
beforeAll(async () => {
  s = await startTestServer({ HASS_URL, HASS_TOKEN });
  await s.app.hub.ready(30_000);
  hub = await RawClient.connect(`${HASS_URL.replace(/^http/, 'ws')}/api/websocket`, HASS_TOKEN);
});
afterAll(async () => {
  await hub?.close();
  await s?.close();
});

const command = async (body: Record<string, unknown>) => {
  const r = await s.call('/api/command', 'POST', body);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body;
};

describe('commands on Home Assistant', () => {
  test('by an entity’s name: off, then on', async () => {
    const off = await command({ command: 'turn off the kitchen lights' });
    expect(off.actions).toMatchObject([{ entity_id: 'light.kitchen_lights', action: 'turn_off', status: 'completed' }]);
    await eventually(
      () => haStateOf('light.kitchen_lights'),
      (x) => x.state === 'off',
      'kitchen lights off',
    );
    await command({ command: 'kitchen lights on' });
    await eventually(
      () => haStateOf('light.kitchen_lights'),
      (x) => x.state === 'on',
      'kitchen lights on',
    );
  });

  test('by an area, learnt from Home Assistant’s registry', async () => {
    const before = await haStateOf('light.office_rgbw_lights');
    // The light's device goes to the bedroom (2026.11 gives a light named after its device no area of its own).
    const devices = (await hub.command<{ id: string; name: string }[]>({ type: 'config/device_registry/list' })).result!;
    const device = devices.find((d) => d.name === 'Office RGBW Lights')!.id;
    try {
      expect((await hub.command({ type: 'config/device_registry/update', device_id: device, area_id: 'bedroom' })).success).toBe(true);
      // The bridge reloads its registries after Home Assistant announces the change.
      await eventually(
        () => s.call('/api/command', 'POST', { command: 'turn off the lights in the bedroom', dry_run: true }),
        (r) => r.status === 200 && r.body.actions.length === 1 && r.body.actions[0].entity_id === 'light.office_rgbw_lights',
        'the bridge knows the light is in the bedroom',
      );
      const r = await command({ command: 'turn off the lights in the bedroom' });
      expect(r.actions).toMatchObject([{ entity_id: 'light.office_rgbw_lights', action: 'turn_off', status: 'completed' }]);
      await eventually(
        () => haStateOf('light.office_rgbw_lights'),
        (x) => x.state === 'off',
        'office light off',
      );
    } finally {
      await hub.command({ type: 'config/device_registry/update', device_id: device, area_id: null });
      if (before.state === 'on') await hub.callService('light', 'turn_on', {}, { entity_id: 'light.office_rgbw_lights' });
    }
  });

  test('"start the vacuum" with the demo’s five vacuums, three of which can start: it asks which, and nothing runs; named, it acts', async () => {
    const all = (await hub.command<{ entity_id: string; attributes: { supported_features: number } }[]>({ type: 'get_states' })).result!.filter((x) =>
      x.entity_id.startsWith('vacuum.'),
    );
    expect(all.length).toBe(5);
    // VacuumEntityFeature.START: the demo's third and fourth floor vacuums cannot be started.
    const startable = all.filter((v) => (v.attributes.supported_features & 8192) !== 0).map((v) => v.entity_id);
    expect(startable).toContain(DEMO_VACUUM);
    expect(startable.length).toBe(3);
    const before = await haStateOf(DEMO_VACUUM);
    const asked = await s.call('/api/command', 'POST', { command: 'start the vacuum' });
    expect(asked.status, JSON.stringify(asked.body)).toBe(409);
    expect(asked.body).toMatchObject({
      code: 'AMBIGUOUS',
      message: expect.stringMatching(/^Which vacuum do you mean: .*\? I did nothing yet\.$/),
      details: { noun: 'vacuum' },
    });
    expect((asked.body.details.candidates as { entity_id: string }[]).map((c) => c.entity_id).sort()).toEqual(startable.sort());
    expect((await haStateOf(DEMO_VACUUM)).last_updated).toBe(before.last_updated);
    // Named (2024.3.3 calls it "0_Ground_floor", 2026.11.0 "Demo vacuum 0 ground floor"), it acts.
    const named = await command({ command: `start ${OLDEST ? '0_Ground_floor' : 'demo vacuum 0 ground floor'}`, dry_run: true });
    expect(named).toMatchObject({ success: true, actions: [{ entity_id: DEMO_VACUUM, action: 'start', status: 'planned' }] });
  });

  test('a bridge scene by its name', async () => {
    expect(
      (
        await s.call('/api/scene', 'POST', {
          name: 'Dim ceiling',
          actions: [{ entity_id: 'light.ceiling_lights', action: 'turn_on', parameters: { brightness_pct: 20 } }],
        })
      ).status,
    ).toBe(200);
    const r = await command({ command: 'activate dim ceiling' });
    expect(r).toMatchObject({ success: true, actions: [{ entity_id: 'light.ceiling_lights', action: 'turn_on', status: 'completed' }] });
    await eventually(
      () => haStateOf('light.ceiling_lights'),
      (x) => x.state === 'on' && x.attributes.brightness === 51,
      'ceiling lights at 20%',
    );
  });

  test('a question answers with Home Assistant’s states', async () => {
    const lock = await haStateOf('lock.front_door');
    const r = await command({ command: 'is the front door locked?' });
    expect(r.actions).toEqual([]);
    expect(r.query.entities).toEqual(['lock.front_door']);
    expect(r.message).toMatch(lock.state === 'locked' ? /^Yes/ : /^No/);
    const lights = await command({ command: 'how many lights are on?' });
    const haLights = (await Promise.all(lights.query.entities.map((id: string) => haStateOf(id)))) as { entity_id: string; state: string }[];
    expect(lights.query.entities.length).toBeGreaterThan(3);
    expect([...lights.query.matching].sort()).toEqual(
      haLights
        .filter((x) => x.state === 'on')
        .map((x) => x.entity_id)
        .sort(),
    );
  });
});
