// Device state and control through the REST API, against the embedded simulator's demo home.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { HubEvent } from '../../src/hub/types.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
  await s.app.hub.ready();
});
afterAll(() => s.close());

type Body = Record<string, any>;
const control = async (entity_id: string, action: string, parameters?: Record<string, unknown>, confirm?: boolean) => {
  const res = await s.api('/api/device/control', { method: 'POST', json: { entity_id, action, parameters, ...(confirm === undefined ? {} : { confirm }) } });
  return { status: res.status, body: (await res.json()) as Body };
};
const ok = async (entity_id: string, action: string, parameters?: Record<string, unknown>, confirm?: boolean) => {
  const r = await control(entity_id, action, parameters, confirm);
  expect(r, JSON.stringify(r.body)).toMatchObject({ status: 200, body: { success: true, entity_id, action } });
  return r.body.state as Body;
};
/** What the hub itself holds now, read from the simulator directly. */
const hubState = (id: string) => s.app.simulator!.getState(id)!;
async function eventually(check: () => void, ms = 3000) {
  const end = Date.now() + ms;
  for (;;) {
    try {
      return check();
    } catch (err) {
      if (Date.now() > end) throw err;
      await new Promise((r) => setTimeout(r, 25));
    }
  }
}

describe('reading states', () => {
  test('GET /api/state lists DeviceState items with areas, sorted by id', async () => {
    const res = await s.api('/api/state');
    expect(res.status).toBe(200);
    expect(res.headers.get('x-hub-stale')).toBeNull();
    const body = (await res.json()) as Body[];
    expect(body.map((x) => x.entity_id).sort()).toEqual(
      s.app
        .simulator!.states()
        .map((x) => x.entity_id)
        .sort(),
    );
    expect(body.map((x) => x.entity_id)).toEqual([...body.map((x) => x.entity_id)].sort());
    const lamp = body.find((x) => x.entity_id === 'light.bedroom_lamp')!;
    expect(lamp).toMatchObject({
      state: hubState('light.bedroom_lamp').state,
      area_id: 'bedroom',
      area: 'Bedroom',
      attributes: { friendly_name: 'Bedroom Lamp' },
    });
    expect(lamp.last_changed).toMatch(/^\d{4}-\d\d-\d\dT/);
  });

  test('?format=devices, ?domain and ?area', async () => {
    const devices = (await (await s.api('/api/state?format=devices')).json()) as { devices: Body[] };
    expect(devices.devices.length).toBe(s.app.simulator!.states().length);
    expect(Object.keys(devices.devices[0]!).sort()).toEqual(['attributes', 'id', 'state']);
    const lights = (await (await s.api('/api/state?domain=light')).json()) as Body[];
    expect(lights.length).toBeGreaterThan(3);
    expect(lights.every((x) => x.entity_id.startsWith('light.'))).toBe(true);
    const kitchen = (await (await s.api('/api/v1/state?area=Kitchen')).json()) as Body[];
    expect(kitchen.length).toBeGreaterThan(0);
    expect(kitchen.every((x) => x.area_id === 'kitchen')).toBe(true);
    const bad = await s.api('/api/state?format=xml');
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ code: 'INVALID_PARAMETERS', details: { field: 'format' } });
  });

  test('GET /api/state/{entity_id}: one state, unknown 404, malformed 400', async () => {
    expect(await (await s.api('/api/state/lock.front_door')).json()).toMatchObject({ entity_id: 'lock.front_door', state: hubState('lock.front_door').state });
    const missing = await s.api('/api/state/lock.front_dor');
    expect(missing.status).toBe(404);
    const body = (await missing.json()) as Body;
    expect(body).toMatchObject({ error: true, code: 'INVALID_ENTITY', details: { entity_id: 'lock.front_dor' } });
    expect(body.details.available_entities[0]).toBe('lock.front_door');
    const malformed = await s.api('/api/state/Lock.Front%20Door');
    expect(malformed.status).toBe(400);
    expect(await malformed.json()).toMatchObject({ code: 'INVALID_PARAMETERS', details: { field: 'entity_id' } });
  });
});

describe('control, domain by domain', () => {
  test('light: brightness and colour, set_value, turn_off', async () => {
    const on = await ok('light.living_room_lamp', 'turn_on', { brightness_pct: 30 });
    expect(on.state).toBe('on');
    expect(Math.abs(on.attributes.brightness - 76.5)).toBeLessThanOrEqual(1);
    expect(hubState('light.living_room_lamp').attributes.brightness).toBe(on.attributes.brightness);
    // An xy light given RGB reports the colour back through its own colour mode.
    const blue = await ok('light.bedroom_lamp', 'turn_on', { rgb_color: [0, 0, 255] });
    expect(blue.attributes.color_mode).toBe('xy');
    const [r, g, b] = blue.attributes.rgb_color as number[];
    expect(b).toBe(255);
    expect(Math.max(r!, g!)).toBeLessThan(60);
    const warm = await ok('light.bedroom_lamp', 'turn_on', { color_temp_kelvin: 2700 });
    expect(warm.attributes).toMatchObject({ color_mode: 'color_temp', color_temp_kelvin: 2700 });
    const set = await ok('light.living_room_lamp', 'set_value', { value: 50 });
    expect(Math.abs(set.attributes.brightness - 127.5)).toBeLessThanOrEqual(1);
    expect((await ok('light.living_room_lamp', 'turn_off')).state).toBe('off');
    expect(hubState('light.living_room_lamp').state).toBe('off');
  });

  test('switch and input_boolean: toggle and turn_on', async () => {
    const before = hubState('switch.coffee_maker').state;
    expect((await ok('switch.coffee_maker', 'toggle')).state).toBe(before === 'on' ? 'off' : 'on');
    expect((await ok('input_boolean.guest_mode', 'turn_on')).state).toBe('on');
  });

  test('climate: temperature and hvac mode', async () => {
    expect((await ok('climate.hallway', 'set_temperature', { temperature: 21.5 })).attributes.temperature).toBe(21.5);
    const modes = hubState('climate.bedroom').attributes.hvac_modes as string[];
    const mode = modes.find((m) => m !== hubState('climate.bedroom').state && m !== 'off')!;
    expect((await ok('climate.bedroom', 'set_hvac_mode', { hvac_mode: mode })).state).toBe(mode);
    expect((await ok('climate.hallway', 'set_value', { value: 19 })).attributes.temperature).toBe(19);
  });

  test("climate: a single temperature on a range-only thermostat is refused in the hub's words", async () => {
    // As Home Assistant 2026.11 does (2024.3.3 took it and showed nothing; parity cases hold the simulator to both).
    const r = await control('climate.bedroom', 'set_temperature', { temperature: 21.5 });
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({
      code: 'HUB_ERROR',
      details: { hub_code: 'service_validation_error', hub_translation_key: 'missing_target_temperature_entity_feature' },
    });
    expect(r.body.message).toContain("'Target temperature' parameter but the entity does not support it");
  });

  test("light: the API's color_temp (mireds) goes to a hub without mireds as kelvin, and is verified in kelvin", async () => {
    const r = await control('light.bedroom_lamp', 'turn_on', { color_temp: 300 });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body).toMatchObject({
      parameters: { color_temp_kelvin: 3333 },
      verified: true,
      expected: { state: 'on', color_temp_kelvin: 3333 },
      actual: { color_temp_kelvin: 3333 },
    });
    expect(r.body.parameters).not.toHaveProperty('color_temp');
    expect(hubState('light.bedroom_lamp').attributes).toMatchObject({ color_mode: 'color_temp', color_temp_kelvin: 3333 });
    const twice = await control('light.bedroom_lamp', 'turn_on', { color_temp: 300, color_temp_kelvin: 3000 });
    expect(twice).toMatchObject({ status: 400, body: { code: 'INVALID_PARAMETERS', details: { field: 'color_temp' } } });
    const bad = await control('light.bedroom_lamp', 'turn_on', { color_temp: 'warm' });
    expect(bad).toMatchObject({ status: 400, body: { code: 'INVALID_PARAMETERS', details: { field: 'color_temp' } } });
  });

  test('cover: position, then open through the generic turn_on', async () => {
    await ok('cover.bedroom_curtains', 'set_cover_position', { position: 40 });
    await eventually(() => expect(hubState('cover.bedroom_curtains').attributes.current_position).toBe(40));
    const opening = await ok('cover.bedroom_curtains', 'turn_on');
    expect(['opening', 'open']).toContain(opening.state);
    await eventually(() => expect(hubState('cover.bedroom_curtains').state).toBe('open'));
  });

  test('lock: lock and unlock; a jammed lock says so', async () => {
    expect((await ok('lock.back_door', 'lock')).state).toBe('locked');
    // Unlocking waits for the person's yes, on this transport as on every other.
    expect(await control('lock.back_door', 'unlock')).toMatchObject({
      status: 409,
      body: { code: 'CONFIRMATION_REQUIRED', details: { needs_confirmation: ['unlocking lock.back_door'] } },
    });
    expect(hubState('lock.back_door').state).toBe('locked');
    expect((await ok('lock.back_door', 'unlock', undefined, true)).state).toBe('unlocked');
    const jam = await control('lock.garage_side_door', 'lock');
    expect(jam.status === 200 ? jam.body.state.state : jam.body.code).toMatch(/jammed|HUB_ERROR/);
  });

  test('fan: percentage', async () => {
    const fan = await ok('fan.living_room_fan', 'turn_on', { percentage: 66 });
    expect(fan).toMatchObject({ state: 'on', attributes: { percentage: 66 } });
    expect((await ok('fan.living_room_fan', 'set_value', { value: 33 })).attributes.percentage).toBe(33);
  });

  test('vacuum: start and return to base', async () => {
    expect((await ok('vacuum.robot_vacuum', 'start')).state).toBe('cleaning');
    expect(['returning', 'docked']).toContain((await ok('vacuum.robot_vacuum', 'return_to_base')).state);
    await eventually(() => expect(hubState('vacuum.robot_vacuum').state).toBe('docked'));
  });

  test('media player: pause and volume', async () => {
    expect((await ok('media_player.kitchen_speaker', 'media_pause')).state).toBe('paused');
    expect((await ok('media_player.kitchen_speaker', 'volume_set', { volume_level: 0.35 })).attributes.volume_level).toBe(0.35);
    expect((await ok('media_player.kitchen_speaker', 'set_value', { value: 60 })).attributes.volume_level).toBe(0.6);
  });

  test('alarm: arm and disarm with the code; a wrong code is refused in the hub’s words', async () => {
    expect((await ok('alarm_control_panel.security', 'alarm_arm_home', { code: '1234' })).state).toBe('armed_home');
    const wrong = await control('alarm_control_panel.security', 'alarm_disarm', { code: '0000' }, true);
    expect(wrong.status, JSON.stringify(wrong.body)).toBe(400);
    expect(wrong.body).toMatchObject({ error: true, code: 'HUB_ERROR', details: { hub_code: expect.any(String) } });
    // 2026.11's manual panel does not translate its message ("Validation error: invalid_code"): said in words.
    expect(wrong.body.message).toBe('Home Assistant refused it: invalid code');
    expect(wrong.body.details).toMatchObject({ hub_message: 'Validation error: invalid_code', hub_translation_key: 'invalid_code' });
    expect(hubState('alarm_control_panel.security').state).toBe('armed_home');
    expect((await control('alarm_control_panel.security', 'alarm_disarm', { code: '1234' })).body.code).toBe('CONFIRMATION_REQUIRED');
    expect((await ok('alarm_control_panel.security', 'alarm_disarm', { code: '1234' }, true)).state).toBe('disarmed');
  });

  test('scene, script and automation', async () => {
    await ok('scene.movie_night', 'turn_on');
    await ok('script.goodnight', 'turn_on');
    const seen: HubEvent[] = [];
    const listener = (e: HubEvent) => seen.push(e);
    s.app.bus.on('event', listener);
    await ok('automation.hallway_motion_light', 'trigger');
    await eventually(() => expect(seen.some((e) => e.event_type === 'automation_triggered')).toBe(true));
    s.app.bus.off('event', listener);
  });
});

describe('control errors', () => {
  test('unknown entity: 404 INVALID_ENTITY with the closest entities first, capped', async () => {
    const r = await control('light.bedroom_lamb', 'turn_on');
    expect(r.status).toBe(404);
    expect(r.body).toMatchObject({ error: true, code: 'INVALID_ENTITY', details: { entity_id: 'light.bedroom_lamb' } });
    expect(r.body.details.available_entities[0]).toBe('light.bedroom_lamp');
    expect(r.body.details.available_entities.length).toBeLessThanOrEqual(20);
  });

  test("by device_id: the device's one entity that takes the action; an unknown device is 404 DEVICE_NOT_FOUND with details.device_id", async () => {
    const post = async (json: Body) => {
      const res = await s.api('/api/device/control', { method: 'POST', json });
      return { status: res.status, body: (await res.json()) as Body };
    };
    const strip = await post({ device_id: 'kitchen_light_strip', action: 'turn_on' });
    expect(strip, JSON.stringify(strip.body)).toMatchObject({
      status: 200,
      body: { success: true, entity_id: 'light.kitchen_strip', action: 'turn_on', state: { state: 'on' } },
    });
    expect(hubState('light.kitchen_strip').state).toBe('on');
    await post({ device_id: 'kitchen_light_strip', action: 'turn_off' });

    const missing = await post({ device_id: 'kitchen_light_strp', action: 'turn_on' });
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ error: true, code: 'DEVICE_NOT_FOUND', details: { device_id: 'kitchen_light_strp', field: 'device_id' } });
    expect(missing.body.details.available_devices[0]).toBe('kitchen_light_strip');

    // The lock's device also has a battery sensor: only the lock takes lock; none takes set_temperature.
    const none = await post({ device_id: 'front_door_lock', action: 'set_temperature' });
    expect(none).toMatchObject({
      status: 400,
      body: {
        code: 'INVALID_ACTION',
        details: { device_id: 'front_door_lock', entities: expect.arrayContaining([expect.objectContaining({ entity_id: 'lock.front_door' })]) },
      },
    });
    // Neither or both of entity_id and device_id: say which field to give.
    expect(await post({ action: 'turn_on' })).toMatchObject({ status: 400, body: { code: 'INVALID_PARAMETERS', details: { field: 'entity_id' } } });
    expect(await post({ entity_id: 'light.kitchen_strip', device_id: 'kitchen_light_strip', action: 'turn_on' })).toMatchObject({
      status: 400,
      body: { code: 'INVALID_PARAMETERS', details: { field: 'device_id' } },
    });
  });

  test('unsupported action: 400 INVALID_ACTION naming the supported ones', async () => {
    const r = await control('light.bedroom_lamp', 'open_cover');
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({
      code: 'INVALID_ACTION',
      details: { supported_actions: expect.arrayContaining(['turn_on', 'turn_off', 'toggle', 'set_value']) },
    });
    expect(r.body.message).toMatch(/supported: .*turn_on/);
    expect((await control('lock.front_door', 'set_value', { value: 1 })).body.code).toBe('INVALID_ACTION');
    // The domain has lock.open, but this lock lacks the feature the service's target asks for.
    const open = await control('lock.back_door', 'open');
    expect(open).toMatchObject({ status: 400, body: { code: 'INVALID_ACTION' } });
    expect(open.body.details.supported_actions).toEqual(expect.arrayContaining(['lock', 'unlock']));
    expect(open.body.details.supported_actions).not.toContain('open');
    expect((await control('lock.garden_gate', 'open', undefined, true)).status).toBe(200);
  });

  test.each([
    [{ brightness_pct: 150 }, 'brightness_pct'],
    [{ brightness: 'bright' }, 'brightness'],
    [{ colour: 'red' }, 'colour'],
    [{ rgb_color: [1, 2] }, 'rgb_color'],
  ])('bad parameters %o: 400 INVALID_PARAMETERS naming %s', async (parameters, field) => {
    const r = await control('light.bedroom_lamp', 'turn_on', parameters);
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ code: 'INVALID_PARAMETERS', details: { field } });
    expect(r.body.message).toContain(field);
  });

  test.each([
    [{ entity_id: 'Light-Bedroom', action: 'turn_on' }, 'entity_id'],
    [{ entity_id: 'light.bedroom_lamp; drop table', action: 'turn_on' }, 'entity_id'],
    [{ entity_id: 'light.bedroom_lamp' }, 'action'],
    [{ entity_id: 'light.bedroom_lamp', action: 'turn_on', parameters: [1] }, 'parameters'],
    [{ entity_id: 'light.bedroom_lamp', action: 'set_value', parameters: {} }, 'value'],
    [{ entity_id: 'light.bedroom_lamp', action: 'turn_on', parameters: { entity_id: 'light.x' } }, 'entity_id'],
  ])('malformed command %o: 400 naming %s', async (json, field) => {
    const res = await s.api('/api/device/control', { method: 'POST', json });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ code: 'INVALID_PARAMETERS', details: { field } });
  });

  test('the hub down: commands 503 at once, reads stale, all well again after', async () => {
    const sim = s.app.simulator!;
    await sim.stop();
    const end = Date.now() + 5000;
    while (s.app.hub.status().connected && Date.now() < end) await new Promise((r) => setTimeout(r, 20));
    const t0 = Date.now();
    const r = await control('light.bedroom_lamp', 'turn_on');
    expect(Date.now() - t0).toBeLessThan(1000);
    expect(r).toMatchObject({ status: 503, body: { error: true, code: 'CONNECTION_ERROR' } });
    const health = (await (await fetch(`${s.url}/health`)).json()) as Body;
    expect(health).toMatchObject({ status: 'degraded', hub: { connected: false } });
    const stale = await s.api('/api/state/light.bedroom_lamp');
    expect(stale.status).toBe(200);
    expect(stale.headers.get('x-hub-stale')).toBe('true');
    expect(Date.parse(stale.headers.get('x-hub-disconnected-since')!)).not.toBeNaN();
    await sim.start();
    await s.app.hub.ready();
    expect((await control('light.bedroom_lamp', 'turn_on')).status).toBe(200);
    expect((await s.api('/api/state')).headers.get('x-hub-stale')).toBeNull();
  });
});
