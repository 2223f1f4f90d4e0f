// Natural-language commands against the real Home Assistant (2024.3.3, demo integration): commands
// that name an entity, an area and a bridge scene change Home Assistant, read back from it; a
// question answers with Home Assistant's own states.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { RawClient } from '../../src/sim/raw-client.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
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
    await eventually(() => haStateOf('light.kitchen_lights'), (x) => x.state === 'off', 'kitchen lights off');
    await command({ command: 'kitchen lights on' });
    await eventually(() => haStateOf('light.kitchen_lights'), (x) => x.state === 'on', 'kitchen lights on');
  });

  test('by an area, learnt from Home Assistant’s registry', async () => {
    const before = await haStateOf('light.office_rgbw_lights');
    try {
      expect((await hub.command({ type: 'config/entity_registry/update', entity_id: 'light.office_rgbw_lights', area_id: 'bedroom' })).success).toBe(true);
      // The bridge reloads its registries after Home Assistant announces the change.
      await eventually(
        () => s.call('/api/command', 'POST', { command: 'turn off the lights in the bedroom', dry_run: true }),
        (r) => r.status === 200 && r.body.actions.length === 1 && r.body.actions[0].entity_id === 'light.office_rgbw_lights',
        'the bridge knows the light is in the bedroom',
      );
      const r = await command({ command: 'turn off the lights in the bedroom' });
      expect(r.actions).toMatchObject([{ entity_id: 'light.office_rgbw_lights', action: 'turn_off', status: 'completed' }]);
      await eventually(() => haStateOf('light.office_rgbw_lights'), (x) => x.state === 'off', 'office light off');
    } finally {
      await hub.command({ type: 'config/entity_registry/update', entity_id: 'light.office_rgbw_lights', area_id: null });
      if (before.state === 'on') await hub.callService('light', 'turn_on', {}, { entity_id: 'light.office_rgbw_lights' });
    }
  });

  test('a bridge scene by its name', async () => {
    expect((await s.call('/api/scene', 'POST', { name: 'Dim ceiling', actions: [{ entity_id: 'light.ceiling_lights', action: 'turn_on', parameters: { brightness_pct: 20 } }] })).status).toBe(201);
    const r = await command({ command: 'activate dim ceiling' });
    expect(r).toMatchObject({ success: true, actions: [{ entity_id: 'light.ceiling_lights', action: 'turn_on', status: 'completed' }] });
    await eventually(() => haStateOf('light.ceiling_lights'), (x) => x.state === 'on' && x.attributes.brightness === 51, 'ceiling lights at 20%');
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
    expect([...lights.query.matching].sort()).toEqual(haLights.filter((x) => x.state === 'on').map((x) => x.entity_id).sort());
  });
});
