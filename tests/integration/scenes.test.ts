// Scenes over real HTTP against the built-in simulator's demo home: storage in both action
// shapes, validation, activation that really changes states, partial failures, capture, events.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { HubEvent } from '../../src/hub/types.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
  await s.app.hub.ready();
});
afterAll(() => s.close());

type Json = Record<string, any>;
const call = (path: string, method = 'GET', json?: unknown) => s.call(path, method, json);
const post = (path: string, json?: unknown) => call(path, 'POST', json);

const state = (id: string) => s.app.hub.cache.get(id);
async function until(check: () => boolean, what: string, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
/** Sets an entity through the bridge's own control endpoint (confirmed: this is set-up) and waits for the cache to agree. */
async function control(entity_id: string, action: string, parameters: Json = {}, expectState?: string) {
  const r = await post('/api/device/control', { entity_id, action, parameters, confirm: true });
  expect(r.status).toBe(200);
  if (expectState) await until(() => state(entity_id)?.state === expectState, `${entity_id} ${expectState}`);
}
function events(type: string): { list: HubEvent[]; stop: () => void } {
  const list: HubEvent[] = [];
  const on = (e: HubEvent) => {
    if (e.event_type === type) list.push(e);
  };
  s.app.bus.on('event', on);
  return { list, stop: () => s.app.bus.off('event', on) };
}

describe('storing scenes', () => {
  test('/api/config says scenes and groups are on', async () => {
    expect((await call('/api/config')).body.features).toMatchObject({ scenes: true, groups: true });
  });

  test('both action shapes are accepted and stored in one normalised form', async () => {
    const r = await post('/api/scene', {
      name: 'Reading Time',
      description: 'cosy',
      actions: [
        { entity_id: 'light.office_desk', action: 'turn_on', parameters: { brightness_pct: 70 } },
        { device: 'light.bedroom_lamp', action: 'dim', value: 30 },
        { device: 'switch.christmas_lights', action: 'on' },
        { device: 'switch.office_heater', action: 'off' },
        { device: 'cover.garage_door', action: 'close' },
        { device: 'fan.living_room_fan', action: 'set_value', value: 33 },
        { entity_id: 'input_boolean.guest_mode', action: 'toggle' },
      ],
    });
    expect(r.status).toBe(200);
    expect(r.headers.get('location')).toBe('/api/scene/reading_time');
    expect(r.body).toMatchObject({
      id: 'reading_time',
      name: 'Reading Time',
      description: 'cosy',
      actions: [
        { entity_id: 'light.office_desk', action: 'turn_on', parameters: { brightness_pct: 70 } },
        { entity_id: 'light.bedroom_lamp', action: 'turn_on', parameters: { brightness_pct: 30 } },
        { entity_id: 'switch.christmas_lights', action: 'turn_on', parameters: {} },
        { entity_id: 'switch.office_heater', action: 'turn_off', parameters: {} },
        { entity_id: 'cover.garage_door', action: 'close', parameters: {} },
        { entity_id: 'fan.living_room_fan', action: 'set_value', parameters: { value: 33 } },
        { entity_id: 'input_boolean.guest_mode', action: 'toggle', parameters: {} },
      ],
    });
    expect(r.body.created_at).toBe(r.body.updated_at);

    const byKey = await call('/api/scene/reading_time');
    expect(byKey.body).toEqual(r.body);
    // The path may give the name itself: it is brought to the same key.
    expect((await call(`/api/scene/${encodeURIComponent('Reading Time')}`)).body).toEqual(r.body);
    const list = await call('/api/scenes');
    expect(list.body.scenes.map((x: Json) => x.id)).toContain('reading_time');
  });

  test('a taken key gives 409 CONFLICT, ?replace=true replaces (200, created_at kept)', async () => {
    const body = { name: 'Dupe Me', actions: [{ device: 'switch.coffee_maker', action: 'on' }] };
    const first = await post('/api/scene', body);
    expect(first.status).toBe(200);
    // Another spelling of the same key is the same scene.
    const clash = await post('/api/scene', { ...body, name: 'dupe-me!' });
    expect(clash.status).toBe(409);
    expect(clash.body).toMatchObject({ error: true, code: 'CONFLICT', details: { id: 'dupe_me' } });
    const replaced = await post('/api/scene?replace=true', { ...body, name: 'dupe-me!', actions: [{ device: 'switch.coffee_maker', action: 'off' }] });
    expect(replaced.status).toBe(200);
    expect(replaced.body).toMatchObject({ id: 'dupe_me', name: 'dupe-me!', created_at: first.body.created_at, actions: [{ action: 'turn_off' }] });
    expect((await post('/api/scene?replace=true', { ...body, name: 'Fresh One' })).status).toBe(200);
    expect((await post('/api/scene?replace=maybe', body)).body).toMatchObject({ code: 'INVALID_PARAMETERS', details: { field: 'replace' } });
  });

  test('PUT replaces an existing scene, keeps its name when none is given, and 404s for none', async () => {
    await post('/api/scene', { name: 'Put Target', actions: [{ device: 'switch.coffee_maker', action: 'on' }] });
    const put = await call('/api/scene/put_target', 'PUT', { description: 'now off', actions: [{ device: 'switch.coffee_maker', action: 'off' }] });
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({ id: 'put_target', name: 'Put Target', description: 'now off', actions: [{ action: 'turn_off' }] });
    expect((await call('/api/scene/put_target')).body).toEqual(put.body);
    const rename = await call('/api/scene/put_target', 'PUT', { name: 'Other Name', actions: [{ device: 'switch.coffee_maker', action: 'off' }] });
    expect(rename.status).toBe(400);
    expect(rename.body.details.field).toBe('name');
    const missing = await call('/api/scene/no_such_scene', 'PUT', { actions: [{ device: 'switch.coffee_maker', action: 'off' }] });
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ error: true, code: 'NOT_FOUND' });
  });

  test('DELETE removes a scene; unknown scenes are 404 NOT_FOUND everywhere', async () => {
    await post('/api/scene', { name: 'Short Lived', actions: [{ device: 'switch.coffee_maker', action: 'on' }] });
    const del = await call('/api/scene/short_lived', 'DELETE');
    expect(del.status).toBe(200);
    expect(del.body).toEqual({ success: true, deleted: 'short_lived' });
    for (const [path, method] of [
      ['/api/scene/short_lived', 'GET'],
      ['/api/scene/short_lived', 'DELETE'],
      ['/api/scene/short_lived/activate', 'POST'],
    ] as const) {
      const r = await call(path, method);
      expect(r.status, `${method} ${path}`).toBe(404);
      expect(r.body).toMatchObject({ error: true, code: 'NOT_FOUND', details: { scene: 'short_lived' } });
    }
    expect((await post('/api/scene/activate', { name: 'Short Lived' })).body.code).toBe('NOT_FOUND');
  });

  test('names with SQL metacharacters are stored and read back verbatim', async () => {
    const names = [`Robert'); DROP TABLE scenes;--`, `50% "off" \\ _under_ -- /* c */`, `Ünïcödé; SELECT * FROM groups`];
    for (const name of names) {
      const r = await post('/api/scene', { name, actions: [{ device: 'switch.coffee_maker', action: 'on' }] });
      expect(r.status, name).toBe(200);
      const back = await call(`/api/scene/${encodeURIComponent(r.body.id)}`);
      expect(back.body.name).toBe(name);
      expect((await call(`/api/scene/${encodeURIComponent(name)}`)).body.id).toBe(r.body.id);
    }
    const all = (await call('/api/scenes')).body.scenes.map((x: Json) => x.name);
    for (const name of names) expect(all).toContain(name);
    expect((await call('/api/scene/robert_drop_table_scenes')).body.name).toBe(names[0]);
  });
});

describe('refusing bad scenes', () => {
  const ok = [{ device: 'switch.coffee_maker', action: 'on' }];
  const bad = async (body: unknown, query = '') => {
    const r = await post(`/api/scene${query}`, body);
    expect(r.body.error).toBe(true);
    return r;
  };

  test('names: empty, 10,000 characters, no letter or digit, not a string', async () => {
    for (const name of ['', 'x'.repeat(10_000), '!!! ---', 42, undefined]) {
      const r = await bad({ name, actions: ok });
      expect(r.status, String(name).slice(0, 20)).toBe(400);
      expect(r.body).toMatchObject({ code: 'INVALID_PARAMETERS', details: { field: 'name' } });
    }
    expect((await bad({ name: 'x'.repeat(101), actions: ok })).body.message).toMatch(/at most 100/);
    expect((await post('/api/scene', { name: 'y'.repeat(100), actions: ok })).status).toBe(200);
  });

  test('actions: missing, empty, too many, not objects, unknown fields', async () => {
    expect((await bad({ name: 'a' })).body.details.field).toBe('actions');
    expect((await bad({ name: 'a', actions: [] })).body.details.field).toBe('actions');
    const many = Array.from({ length: 501 }, () => ok[0]);
    expect((await bad({ name: 'a', actions: many })).body.message).toMatch(/at most 500/);
    expect((await bad({ name: 'a', actions: ['light.x'] })).body.details.field).toBe('actions.0');
    const mixed = await bad({ name: 'a', actions: [ok[0], { entity_id: 'light.office_desk', action: 'turn_on', value: 3 }] });
    expect(mixed.body).toMatchObject({ code: 'INVALID_PARAMETERS', details: { field: 'actions.1.value' } });
    expect((await bad({ name: 'a', actions: [{ device: 'light.office_desk', action: 'dim' }] })).body.details.field).toBe('actions.0.value');
    expect((await bad({ name: 'a', actions: [{ device: 'light.office_desk', action: 'on', value: 5 }] })).body.details.field).toBe('actions.0.value');
  });

  test('an action the domain does not know is INVALID_ACTION, naming the action', async () => {
    const r = await bad({ name: 'a', actions: [ok[0], { entity_id: 'light.office_desk', action: 'explode' }] });
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ code: 'INVALID_ACTION', details: { at: 'actions.1', action: 'explode', entity_id: 'light.office_desk' } });
    expect(r.body.details.supported_actions).toContain('turn_on');
    const range = await bad({ name: 'a', actions: [{ device: 'light.office_desk', action: 'dim', value: 500 }] });
    expect(range.body).toMatchObject({ code: 'INVALID_PARAMETERS', details: { field: 'brightness_pct' } });
  });

  test('malformed entity ids are INVALID_PARAMETERS; unknown ones INVALID_ENTITY unless ?allow_unknown=true', async () => {
    for (const id of ['Light.Office', 'light', 'light.office desk', 'light..x', "light.x'; --"]) {
      const r = await bad({ name: 'a', actions: [{ entity_id: id, action: 'turn_on' }] });
      expect(r.status, id).toBe(400);
      expect(r.body.code).toBe('INVALID_PARAMETERS');
    }
    const unknown = await bad({ name: 'Ghost Scene', actions: [ok[0], { device: 'light.ghost', action: 'on' }] });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ code: 'INVALID_ENTITY', details: { entity_id: 'light.ghost', at: 'actions.1' } });
    expect(unknown.body.details.available_entities.length).toBeGreaterThan(0);
    expect((await call('/api/scene/ghost_scene')).status).toBe(404);
    const allowed = await post('/api/scene?allow_unknown=true', { name: 'Ghost Scene', actions: [ok[0], { device: 'light.ghost', action: 'on' }] });
    expect(allowed.status).toBe(200);
    // Even then the action must be one the domain has.
    expect((await bad({ name: 'Ghost 2', actions: [{ device: 'light.ghost', action: 'fly' }] }, '?allow_unknown=true')).body.code).toBe('INVALID_ACTION');
  });

  test('a body that is not an object', async () => {
    const r = await post('/api/scene', [1, 2]);
    expect(r.status).toBe(400);
    expect(r.body.code).toBe('INVALID_PARAMETERS');
  });
});

describe('activation', () => {
  test('both paths run the actions, states really change, and scene_activated reaches the bus', async () => {
    await control('light.office_desk', 'turn_off', {}, 'off');
    await control('switch.coffee_maker', 'turn_off', {}, 'off');
    await control('cover.bedroom_curtains', 'set_cover_position', { position: 0 });
    await post('/api/scene', {
      name: 'Wake Up',
      actions: [
        { device: 'light.office_desk', action: 'dim', value: 40 },
        { entity_id: 'switch.coffee_maker', action: 'turn_on' },
        { entity_id: 'cover.bedroom_curtains', action: 'set_value', parameters: { value: 60 } },
      ],
    });
    const seen = events('scene_activated');
    try {
      const r = await post('/api/scene/wake_up/activate');
      expect(r.status).toBe(200);
      expect(r.body).toMatchObject({
        success: true,
        scene: 'wake_up',
        name: 'Wake Up',
        results: [
          { entity_id: 'light.office_desk', action: 'turn_on', status: 'completed', state: 'on' },
          { entity_id: 'switch.coffee_maker', action: 'turn_on', status: 'completed', state: 'on' },
          { entity_id: 'cover.bedroom_curtains', action: 'set_value', status: 'completed' },
        ],
      });
      await until(() => state('cover.bedroom_curtains')?.attributes.current_position === 60, 'curtains at 60');
      const desk = await call('/api/state/light.office_desk');
      expect(desk.body).toMatchObject({ state: 'on', attributes: { brightness: 102 } });
      expect(state('switch.coffee_maker')?.state).toBe('on');

      expect(seen.list).toHaveLength(1);
      expect(seen.list[0]).toMatchObject({
        event_type: 'scene_activated',
        origin: 'LOCAL',
        data: { scene_id: 'wake_up', name: 'Wake Up', success: true, completed: 3, failed: 0 },
        context: { user_id: 'tester' },
      });
      expect(seen.list[0]!.data.entity_ids).toEqual(['light.office_desk', 'switch.coffee_maker', 'cover.bedroom_curtains']);

      // The body form, by name.
      await control('switch.coffee_maker', 'turn_off', {}, 'off');
      const byBody = await post('/api/scene/activate', { name: 'Wake Up' });
      expect(byBody.status).toBe(200);
      expect(byBody.body.scene).toBe('wake_up');
      expect(state('switch.coffee_maker')?.state).toBe('on');
      expect(seen.list).toHaveLength(2);
    } finally {
      seen.stop();
    }
    expect((await post('/api/scene/activate', {})).body).toMatchObject({ code: 'INVALID_PARAMETERS', details: { field: 'name' } });
  });

  test("one entity's actions run in their order, while entities run side by side", async () => {
    await control('light.living_room_lamp', 'turn_on', { brightness: 5 });
    const steps = [10, 30, 50, 70, 90];
    await post('/api/scene', {
      name: 'Ramp',
      actions: [...steps.map((p) => ({ device: 'light.living_room_lamp', action: 'dim', value: p })), { device: 'switch.office_heater', action: 'on' }],
    });
    const brightness: number[] = [];
    const on = (e: HubEvent) => {
      const d = e.data as Json;
      if (e.event_type === 'state_changed' && d.entity_id === 'light.living_room_lamp') brightness.push(d.new_state.attributes.brightness);
    };
    s.app.bus.on('event', on);
    try {
      const r = await post('/api/scene/ramp/activate');
      expect(r.status).toBe(200);
      expect(r.body.results.map((x: Json) => x.status)).toEqual(Array(6).fill('completed'));
    } finally {
      s.app.bus.off('event', on);
    }
    // The hub rounds half to even (76.5 -> 76): the five steps, in the order given.
    expect(brightness).toEqual([26, 76, 128, 178, 230]);
    expect(state('light.living_room_lamp')?.attributes.brightness).toBe(230);
  });

  test('partial failure: 207 with each failed action and its error, the rest done', async () => {
    await control('switch.christmas_lights', 'turn_off', {}, 'off');
    const created = await post('/api/scene?allow_unknown=true', {
      name: 'Half Broken',
      actions: [
        { entity_id: 'switch.christmas_lights', action: 'turn_on' },
        { entity_id: 'light.not_installed_yet', action: 'turn_on' },
        { entity_id: 'climate.hallway', action: 'set_temperature', parameters: { temperature: 50 } },
        { entity_id: 'lock.front_door', action: 'lock' },
      ],
    });
    expect(created.status).toBe(200);
    const seen = events('scene_activated');
    try {
      const r = await post('/api/scene/half_broken/activate');
      expect(r.status).toBe(207);
      expect(r.body.success).toBe(false);
      const [lights, ghost, climate, lock] = r.body.results as Json[];
      expect(lights).toMatchObject({ entity_id: 'switch.christmas_lights', status: 'completed', state: 'on' });
      expect(ghost).toMatchObject({ entity_id: 'light.not_installed_yet', action: 'turn_on', status: 'failed', error: { code: 'INVALID_ENTITY' } });
      // The hub itself refuses these two: out of the thermostat's range, and a lock that needs a code.
      expect(climate).toMatchObject({ status: 'failed', error: { code: 'HUB_ERROR' } });
      expect(climate!.error.message).toMatch(/temperature/i);
      // The lock's refusal names the field to add.
      expect(lock).toMatchObject({ status: 'failed', error: { code: 'INVALID_PARAMETERS' } });
      expect(lock!.error.message).toMatch(/`code`/);
      expect(state('switch.christmas_lights')?.state).toBe('on');
      expect(state('climate.hallway')?.attributes.temperature).not.toBe(50);
      expect(seen.list.at(-1)?.data).toMatchObject({ scene_id: 'half_broken', success: false, completed: 1, failed: 3 });
    } finally {
      seen.stop();
    }
  });

  test('when no action succeeds, the first failure is the answer, with every result in details', async () => {
    await post('/api/scene?allow_unknown=true', {
      name: 'All Broken',
      actions: [
        { entity_id: 'climate.hallway', action: 'set_temperature', parameters: { temperature: 60 } },
        { entity_id: 'light.not_there', action: 'turn_on' },
      ],
    });
    const seen = events('scene_activated');
    try {
      const r = await post('/api/scene/all_broken/activate');
      expect(r.status).toBe(400);
      expect(r.body).toMatchObject({ error: true, code: 'HUB_ERROR' });
      expect(r.body.message).toMatch(/No action of scene all_broken succeeded/);
      expect(r.body.details.results.map((x: Json) => x.status)).toEqual(['failed', 'failed']);
      expect(seen.list).toHaveLength(0);
    } finally {
      seen.stop();
    }
  });
});

describe('capture', () => {
  test('current states become a scene that brings them back', async () => {
    await control('light.bedroom_lamp', 'turn_on', { brightness: 77, color_temp_kelvin: 3000 }, 'on');
    await control('cover.living_room_blinds', 'set_cover_position', { position: 40 });
    await until(() => state('cover.living_room_blinds')?.attributes.current_position === 40, 'blinds at 40');
    await control('climate.bedroom', 'set_temperature', { target_temp_low: 19, target_temp_high: 23 });
    await control('media_player.bedroom_speaker', 'volume_set', { volume_level: 0.35 });
    await control('fan.bedroom_fan', 'set_percentage', { percentage: 66 });
    await control('lock.back_door', 'unlock', {}, 'unlocked');
    await control('switch.office_heater', 'turn_off', {}, 'off');

    const entities = [
      'light.bedroom_lamp',
      'cover.living_room_blinds',
      'climate.bedroom',
      'media_player.bedroom_speaker',
      'fan.bedroom_fan',
      'lock.back_door',
      'switch.office_heater',
      'light.bedroom_lamp', // twice: captured once
    ];
    const r = await post('/api/scene/capture', { name: 'Evening Snapshot', entities });
    expect(r.status).toBe(200);
    const byEntity = (id: string) => (r.body.actions as Json[]).filter((a) => a.entity_id === id);
    expect(byEntity('light.bedroom_lamp')).toEqual([
      { entity_id: 'light.bedroom_lamp', action: 'turn_on', parameters: { brightness: 77, color_temp_kelvin: 3000 } },
    ]);
    expect(byEntity('cover.living_room_blinds')[0]).toEqual({
      entity_id: 'cover.living_room_blinds',
      action: 'set_cover_position',
      parameters: { position: 40 },
    });
    expect(byEntity('climate.bedroom').slice(0, 2)).toEqual([
      { entity_id: 'climate.bedroom', action: 'set_hvac_mode', parameters: { hvac_mode: 'heat_cool' } },
      { entity_id: 'climate.bedroom', action: 'set_temperature', parameters: { target_temp_low: 19, target_temp_high: 23 } },
    ]);
    expect(byEntity('media_player.bedroom_speaker')).toContainEqual({
      entity_id: 'media_player.bedroom_speaker',
      action: 'volume_set',
      parameters: { volume_level: 0.35 },
    });
    expect(byEntity('fan.bedroom_fan')[0]).toMatchObject({ action: 'turn_on', parameters: { percentage: 66 } });
    expect(byEntity('lock.back_door')).toEqual([{ entity_id: 'lock.back_door', action: 'unlock', parameters: {} }]);
    expect(byEntity('switch.office_heater')).toEqual([{ entity_id: 'switch.office_heater', action: 'turn_off', parameters: {} }]);

    // Move everything away, then activate the capture and find the snapshot again.
    await control('light.bedroom_lamp', 'turn_off', {}, 'off');
    await control('cover.living_room_blinds', 'set_cover_position', { position: 90 });
    await until(() => state('cover.living_room_blinds')?.attributes.current_position === 90, 'blinds at 90');
    await control('climate.bedroom', 'set_hvac_mode', { hvac_mode: 'off' }, 'off');
    await control('media_player.bedroom_speaker', 'volume_set', { volume_level: 0.9 });
    await control('fan.bedroom_fan', 'turn_off', {}, 'off');
    await control('lock.back_door', 'lock', {}, 'locked');
    await control('switch.office_heater', 'turn_on', {}, 'on');

    // The snapshot unlocks the back door: it runs only once the person said yes, and until then none of it runs.
    const held = await post('/api/scene/evening_snapshot/activate');
    expect(held).toMatchObject({ status: 409, body: { code: 'CONFIRMATION_REQUIRED', details: { needs_confirmation: ['unlocking lock.back_door'] } } });
    expect(state('switch.office_heater')?.state).toBe('on');
    const act = await post('/api/scene/evening_snapshot/activate?confirm=true');
    expect(act.status).toBe(200);
    await until(() => state('cover.living_room_blinds')?.attributes.current_position === 40, 'blinds back at 40');
    expect(state('light.bedroom_lamp')).toMatchObject({ state: 'on', attributes: { brightness: 77, color_temp_kelvin: 3000 } });
    expect(state('climate.bedroom')).toMatchObject({ state: 'heat_cool', attributes: { target_temp_low: 19, target_temp_high: 23 } });
    expect(state('media_player.bedroom_speaker')?.attributes.volume_level).toBe(0.35);
    expect(state('fan.bedroom_fan')).toMatchObject({ state: 'on', attributes: { percentage: 66 } });
    expect(state('lock.back_door')?.state).toBe('unlocked');
    expect(state('switch.office_heater')?.state).toBe('off');
  });

  test('entities that cannot be captured, unknown ones, and a taken name are refused', async () => {
    const sensor = await post('/api/scene/capture', { name: 'Nope', entities: ['switch.coffee_maker', 'sensor.outdoor_temperature'] });
    expect(sensor.status).toBe(400);
    expect(sensor.body).toMatchObject({ code: 'INVALID_PARAMETERS', details: { field: 'entities.1', entity_id: 'sensor.outdoor_temperature' } });
    const ghost = await post('/api/scene/capture', { name: 'Nope', entities: ['light.ghost'] });
    expect(ghost.status).toBe(404);
    expect(ghost.body.code).toBe('INVALID_ENTITY');
    expect((await post('/api/scene/capture', { name: 'Nope', entities: [] })).body.details.field).toBe('entities');
    expect((await post('/api/scene/capture', { name: 'Nope', entities: ['Bad Id'] })).body.details.field).toBe('entities.0');
    expect((await call('/api/scene/nope')).status).toBe(404);

    expect((await post('/api/scene/capture', { name: 'Twice', entities: ['switch.coffee_maker'] })).status).toBe(200);
    expect((await post('/api/scene/capture', { name: 'Twice', entities: ['switch.coffee_maker'] })).status).toBe(409);
    expect((await post('/api/scene/capture?replace=true', { name: 'Twice', entities: ['switch.office_heater'] })).body.actions[0].entity_id).toBe(
      'switch.office_heater',
    );
  });
});

describe('without the hub', () => {
  test('writes and activations answer 503 CONNECTION_ERROR before the hub was ever reached; reads work', async () => {
    const away = await startTestServer({ HASS_URL: 'http://127.0.0.1:9', HASS_TOKEN: 'unused-token' });
    try {
      const r = await away.api('/api/scene', { method: 'POST', json: { name: 'x', actions: [{ device: 'switch.coffee_maker', action: 'on' }] } });
      expect(r.status).toBe(503);
      expect(await r.json()).toMatchObject({ error: true, code: 'CONNECTION_ERROR' });
      const g = await away.api('/api/group', { method: 'POST', json: { name: 'x', entities: ['switch.coffee_maker'] } });
      expect(g.status).toBe(503);
      expect(await (await away.api('/api/scenes')).json()).toEqual({ scenes: [] });
    } finally {
      await away.close();
    }
  });
});

describe('persistence', () => {
  test('scenes and groups outlive a restart of the service', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'hmb-restart-'));
    try {
      const first = await startTestServer({ DATA_DIR: dataDir });
      await first.app.hub.ready();
      const created = await first.api('/api/scene', { method: 'POST', json: { name: 'Keep Me', actions: [{ device: 'switch.coffee_maker', action: 'on' }] } });
      expect(created.status).toBe(200);
      expect((await first.api('/api/group', { method: 'POST', json: { name: 'Keepers', entities: ['switch.coffee_maker'] } })).status).toBe(200);
      await first.close();

      const second = await startTestServer({ DATA_DIR: dataDir });
      try {
        expect(await (await second.api('/api/scene/keep_me')).json()).toEqual(await created.json());
        expect(((await (await second.api('/api/group/keepers')).json()) as Json).entities).toEqual(['switch.coffee_maker']);
      } finally {
        await second.close();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
