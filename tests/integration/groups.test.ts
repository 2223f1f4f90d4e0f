// Groups over real HTTP against the built-in simulator: CRUD, control with per-member results,
// nesting, cycles, and the foreign-key rules of nested groups.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
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
const stateOf = async (id: string) => (await call(`/api/state/${id}`)).body.state as string;

describe('storing groups', () => {
  test('create, read (with the entities it reaches), list, replace, delete', async () => {
    const created = await post('/api/group', { name: 'Kitchen Things', entities: ['light.kitchen_ceiling', 'switch.coffee_maker', 'light.kitchen_ceiling'] });
    expect(created.status).toBe(200);
    expect(created.headers.get('location')).toBe('/api/group/kitchen_things');
    expect(created.body).toMatchObject({ id: 'kitchen_things', name: 'Kitchen Things', entities: ['light.kitchen_ceiling', 'switch.coffee_maker'] });

    const one = await call('/api/group/kitchen_things');
    expect(one.body).toMatchObject({ ...created.body, expanded_entities: ['light.kitchen_ceiling', 'switch.coffee_maker'] });
    expect((await call('/api/groups')).body.groups.map((g: Json) => g.id)).toContain('kitchen_things');

    const put = await call('/api/group/Kitchen%20Things', 'PUT', { entities: ['switch.coffee_maker'] });
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({ id: 'kitchen_things', name: 'Kitchen Things', entities: ['switch.coffee_maker'], created_at: created.body.created_at });
    expect((await call('/api/group/kitchen_things', 'PUT', { name: 'Renamed', entities: ['switch.coffee_maker'] })).body.details.field).toBe('name');
    expect((await call('/api/group/nope', 'PUT', { entities: ['switch.coffee_maker'] })).status).toBe(404);

    expect((await call('/api/group/kitchen_things', 'DELETE')).body).toEqual({ success: true, deleted: 'kitchen_things' });
    for (const [path, method] of [
      ['/api/group/kitchen_things', 'GET'],
      ['/api/group/kitchen_things', 'DELETE'],
      ['/api/group/kitchen_things/control', 'POST'],
    ] as const) {
      const r = await call(path, method, method === 'POST' ? { action: 'turn_on' } : undefined);
      expect(r.status, `${method} ${path}`).toBe(404);
      expect(r.body).toMatchObject({ error: true, code: 'NOT_FOUND', details: { group: 'kitchen_things' } });
    }
  });

  test('409 on a taken key, ?replace=true replaces', async () => {
    expect((await post('/api/group', { name: 'Twin', entities: ['switch.coffee_maker'] })).status).toBe(200);
    const clash = await post('/api/group', { name: 'TWIN', entities: ['switch.office_heater'] });
    expect(clash.status).toBe(409);
    expect(clash.body.code).toBe('CONFLICT');
    const replaced = await post('/api/group?replace=true', { name: 'TWIN', entities: ['switch.office_heater'] });
    expect(replaced.status).toBe(200);
    expect(replaced.body).toMatchObject({ name: 'TWIN', entities: ['switch.office_heater'] });
  });

  test('bad input: names, member lists, malformed and unknown entities', async () => {
    const bad = async (body: unknown, query = '') => (await post(`/api/group${query}`, body)).body;
    expect(await bad({ name: '', entities: ['switch.coffee_maker'] })).toMatchObject({ code: 'INVALID_PARAMETERS', details: { field: 'name' } });
    expect(await bad({ name: 'z'.repeat(10_000), entities: ['switch.coffee_maker'] })).toMatchObject({ details: { field: 'name' } });
    expect(await bad({ name: 'g', entities: [] })).toMatchObject({ details: { field: 'entities' } });
    expect(await bad({ name: 'g' })).toMatchObject({ details: { field: 'entities' } });
    expect(await bad({ name: 'g', entities: Array.from({ length: 501 }, (_, i) => `light.l${i}`) })).toMatchObject({ details: { field: 'entities' } });
    expect(await bad({ name: 'g', entities: ['switch.coffee_maker', 'Not An Id'] })).toMatchObject({
      code: 'INVALID_PARAMETERS',
      details: { field: 'entities.1' },
    });
    expect(await bad({ name: 'g', entities: ['group:!!!'] })).toMatchObject({ code: 'INVALID_PARAMETERS', details: { field: 'entities.0' } });
    const unknown = await post('/api/group', { name: 'Ghosts', entities: ['light.ghost'] });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ code: 'INVALID_ENTITY', details: { entity_id: 'light.ghost' } });
    expect((await post('/api/group?allow_unknown=true', { name: 'Ghosts', entities: ['light.ghost'] })).status).toBe(200);
  });

  test('names with SQL metacharacters are stored and read back verbatim', async () => {
    const name = `x"); DELETE FROM group_members; -- 'quoted' %_`;
    const r = await post('/api/group', { name, entities: ['switch.coffee_maker'] });
    expect(r.status).toBe(200);
    expect((await call(`/api/group/${r.body.id}`)).body.name).toBe(name);
    expect((await call(`/api/group/${encodeURIComponent(name)}`)).body.entities).toEqual(['switch.coffee_maker']);
  });
});

describe('control', () => {
  test('an action applies to every member and the states change', async () => {
    await post('/api/group', { name: 'Desk Corner', entities: ['light.office_desk', 'switch.office_heater'] });
    const on = await post('/api/group/desk_corner/control', { action: 'turn_on' });
    expect(on.status).toBe(200);
    expect(on.body).toEqual({
      success: true,
      group: 'desk_corner',
      action: 'turn_on',
      results: [
        { entity_id: 'light.office_desk', action: 'turn_on', status: 'completed', state: 'on' },
        { entity_id: 'switch.office_heater', action: 'turn_on', status: 'completed', state: 'on' },
      ],
    });
    expect(await stateOf('light.office_desk')).toBe('on');
    expect(await stateOf('switch.office_heater')).toBe('on');
    const off = await post('/api/group/desk_corner/control', { action: 'turn_off' });
    expect(off.status).toBe(200);
    expect(await stateOf('light.office_desk')).toBe('off');
    expect(await stateOf('switch.office_heater')).toBe('off');
  });

  test('a member that cannot do the action fails alone: 207 with its error', async () => {
    await post('/api/group', { name: 'Mixed Bag', entities: ['switch.christmas_lights', 'lock.garden_gate', 'sensor.outdoor_temperature'] });
    const r = await post('/api/group/mixed_bag/control', { action: 'turn_on' });
    expect(r.status).toBe(207);
    expect(r.body.success).toBe(false);
    expect(r.body.results).toMatchObject([
      { entity_id: 'switch.christmas_lights', status: 'completed', state: 'on' },
      { entity_id: 'lock.garden_gate', status: 'failed', error: { code: 'INVALID_ACTION' } },
      { entity_id: 'sensor.outdoor_temperature', status: 'failed', error: { code: 'INVALID_ACTION' } },
    ]);
    expect(await stateOf('switch.christmas_lights')).toBe('on');
  });

  test('an action no member can do is refused as a whole; bad bodies are 400', async () => {
    await post('/api/group', { name: 'Only Locks', entities: ['lock.garden_gate', 'lock.back_door'] });
    const r = await post('/api/group/only_locks/control', { action: 'set_hvac_mode', parameters: { hvac_mode: 'heat' } });
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ error: true, code: 'INVALID_ACTION' });
    expect(r.body.details.results).toHaveLength(2);
    expect((await post('/api/group/only_locks/control', {})).body).toMatchObject({ code: 'INVALID_PARAMETERS', details: { field: 'action' } });
    expect((await post('/api/group/only_locks/control', { action: 'lock', parameters: 'now' })).body).toMatchObject({ details: { field: 'parameters' } });
  });

  test('parameters reach every member', async () => {
    await post('/api/group', { name: 'Dimmables', entities: ['light.office_desk', 'light.living_room_lamp'] });
    const r = await post('/api/group/dimmables/control', { action: 'turn_on', parameters: { brightness_pct: 20 } });
    expect(r.status).toBe(200);
    for (const id of ['light.office_desk', 'light.living_room_lamp']) expect(s.app.hub.cache.get(id)?.attributes.brightness).toBe(51);
  });
});

describe('nested groups', () => {
  test('a group of groups reaches every entity once and controls them all', async () => {
    await post('/api/group', { name: 'Inner A', entities: ['light.garden_lights', 'switch.coffee_maker'] });
    await post('/api/group', { name: 'Inner B', entities: ['switch.coffee_maker', 'input_boolean.guest_mode'] });
    const outer = await post('/api/group', { name: 'Outer', entities: ['group:Inner A', 'group:inner_b', 'light.hallway'] });
    expect(outer.status).toBe(200);
    expect(outer.body.entities).toEqual(['group:inner_a', 'group:inner_b', 'light.hallway']);
    const one = await call('/api/group/outer');
    expect(one.body.expanded_entities).toEqual(['light.garden_lights', 'switch.coffee_maker', 'input_boolean.guest_mode', 'light.hallway']);

    const r = await post('/api/group/outer/control', { action: 'turn_on' });
    expect(r.status).toBe(200);
    expect(r.body.results.map((x: Json) => x.entity_id)).toEqual(one.body.expanded_entities);
    for (const id of one.body.expanded_entities) expect(await stateOf(id)).toBe('on');
  });

  test('missing member groups are refused, and a held group cannot be deleted', async () => {
    const missing = await post('/api/group', { name: 'Dangling', entities: ['group:does_not_exist'] });
    expect(missing.status).toBe(400);
    expect(missing.body).toMatchObject({ code: 'INVALID_PARAMETERS', details: { field: 'entities.0', group: 'does_not_exist' } });
    expect((await call('/api/group/dangling')).status).toBe(404);

    await post('/api/group', { name: 'Leaf', entities: ['switch.coffee_maker'] });
    await post('/api/group', { name: 'Holder', entities: ['group:leaf'] });
    const del = await call('/api/group/leaf', 'DELETE');
    expect(del.status).toBe(409);
    expect(del.body).toMatchObject({ code: 'CONFLICT', details: { id: 'leaf', used_by: ['holder'] } });
    expect((await call('/api/group/holder', 'DELETE')).status).toBe(200);
    expect((await call('/api/group/leaf', 'DELETE')).status).toBe(200);
  });

  test('cycles are refused with 400 naming the cycle, and nothing changes', async () => {
    const self = await post('/api/group', { name: 'Narcissus', entities: ['switch.coffee_maker', 'group:narcissus'] });
    expect(self.status).toBe(400);
    expect(self.body.details.cycle).toEqual(['narcissus', 'narcissus']);
    expect((await call('/api/group/narcissus')).status).toBe(404);

    await post('/api/group', { name: 'Ring C', entities: ['switch.coffee_maker'] });
    await post('/api/group', { name: 'Ring B', entities: ['group:ring_c'] });
    await post('/api/group', { name: 'Ring A', entities: ['group:ring_b'] });
    const closing = await call('/api/group/ring_c', 'PUT', { entities: ['switch.coffee_maker', 'group:ring_a'] });
    expect(closing.status).toBe(400);
    expect(closing.body).toMatchObject({ code: 'INVALID_PARAMETERS', details: { field: 'entities', cycle: ['ring_c', 'ring_a', 'ring_b', 'ring_c'] } });
    expect(closing.body.message).toContain('ring_c -> ring_a -> ring_b -> ring_c');
    expect((await call('/api/group/ring_c')).body.entities).toEqual(['switch.coffee_maker']);
    // The same through POST ?replace=true.
    expect((await post('/api/group?replace=true', { name: 'Ring C', entities: ['group:ring_b'] })).body.details.cycle).toEqual(['ring_c', 'ring_b', 'ring_c']);
  });
});
