// The simulator's WebSocket API against the hub's protocol: handshake, ids, commands,
// subscriptions, registries and the error shapes.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { WebSocket } from 'ws';
import { RawClient, type Simulator, startSimulator } from '../testing.js';

let sim: Simulator;
let legacy: Simulator;

beforeAll(async () => {
  sim = await startSimulator({ home: 'demo', userToken: 'user-token', timing: { coverTravelMs: 0 } });
  legacy = await startSimulator({ home: 'demo', legacy: true });
});
afterAll(async () => {
  await sim.stop();
  await legacy.stop();
});

const connect = (s: Simulator = sim, token = s.token) => RawClient.connect(s.wsUrl, token);

describe('handshake', () => {
  test('auth_required carries ha_version, a good token gets auth_ok', async () => {
    const c = await RawClient.connect(sim.wsUrl);
    expect(c.messages[0]).toEqual({ type: 'auth_required', ha_version: '2026.11.0' });
    c.sendRaw(JSON.stringify({ type: 'auth', access_token: 'sim-token' }));
    const ok = await c.waitFor((m) => m.type !== 'auth_required');
    expect(ok).toEqual({ type: 'auth_ok', ha_version: '2026.11.0' });
    expect(sim.connections).toBeGreaterThanOrEqual(1);
    await c.close();
  });

  test('a wrong token gets auth_invalid and the socket is closed', async () => {
    const c = await RawClient.connect(sim.wsUrl);
    c.sendRaw(JSON.stringify({ type: 'auth', access_token: 'nope' }));
    const reply = await c.waitFor((m) => m.type === 'auth_invalid');
    expect(reply).toEqual({ type: 'auth_invalid', message: 'Invalid access token or password' });
    const closed = await c.closed;
    expect(closed.code).toBe(1000);
  });

  test('a malformed auth message is named in auth_invalid', async () => {
    const c = await RawClient.connect(sim.wsUrl);
    c.sendRaw(JSON.stringify({ type: 'login', access_token: 'sim-token' }));
    const reply = await c.waitFor((m) => m.type === 'auth_invalid');
    // 2026.11's wording (probatio); 2024.3.3's is "... not a valid value for dictionary value @ data['type']. Got 'login'".
    expect(reply.message).toBe("Auth message incorrectly formatted: not a valid value at 'type'. Got 'login'");
    await c.closed;
  });

  test('legacy hubs report their own version', async () => {
    const c = await RawClient.connect(legacy.wsUrl, legacy.token);
    expect(c.messages[0]).toEqual({ type: 'auth_required', ha_version: '2024.3.3' });
    expect(c.messages[1]).toEqual({ type: 'auth_ok', ha_version: '2024.3.3' });
    await c.close();
  });
});

describe('message rules', () => {
  test('ids must increase: a reused id is answered with id_reuse', async () => {
    const c = await connect();
    expect((await c.command({ id: 5, type: 'ping' })).type).toBe('pong');
    c.sendRaw(JSON.stringify({ id: 5, type: 'ping' }));
    const reuse = await c.waitFor((m) => m.type === 'result' && m.id === 5);
    expect(reuse).toEqual({
      id: 5,
      type: 'result',
      success: false,
      error: { code: 'id_reuse', message: 'Identifier values have to increase.' },
    });
    c.sendRaw(JSON.stringify({ id: 3, type: 'ping' }));
    expect((await c.waitFor((m) => m.id === 3)).error).toMatchObject({ code: 'id_reuse' });
    expect((await c.command({ id: 6, type: 'ping' })).type).toBe('pong');
    await c.close();
  });

  test('unknown commands, bad shapes and schema errors', async () => {
    const c = await connect();
    const unknown = await c.command({ type: 'no_such_command' });
    expect(unknown.error).toEqual({ code: 'unknown_command', message: 'Unknown command.' });
    c.sendRaw(JSON.stringify({ type: 'ping' }));
    const noId = await c.waitFor((m) => m.type === 'result' && m.id === null);
    expect(noId.error).toEqual({ code: 'invalid_format', message: 'Message incorrectly formatted.' });
    const extra = await c.command({ type: 'ping', extra: 1 });
    // A command's extra key is reported about the whole message (2026.11), not "at 'extra'".
    expect(extra.error).toEqual({ code: 'invalid_format', message: `extra keys not allowed. Got {'type': 'ping', 'extra': 1, 'id': ${extra.id}}` });
    const missing = await c.command({ type: 'call_service', domain: 'light' });
    expect(missing.error).toEqual({ code: 'invalid_format', message: "required key not provided at 'service'. Got None" });
    await c.close();
  });

  test('invalid JSON ends the connection', async () => {
    const c = await connect();
    c.sendRaw('{not json');
    expect((await c.closed).code).toBe(1000);
  });

  test('several commands may come in one JSON array', async () => {
    const c = await connect();
    c.sendRaw(
      JSON.stringify([
        { id: 1, type: 'ping' },
        { id: 2, type: 'ping' },
      ]),
    );
    await c.waitFor((m) => m.id === 2 && m.type === 'pong');
    expect(c.messages.filter((m) => m.type === 'pong').map((m) => m.id)).toEqual([1, 2]);
    await c.close();
  });

  test('with coalesce_messages, messages of one tick arrive as one array frame', async () => {
    const c = await connect();
    const on = await c.command({ id: 1, type: 'supported_features', features: { coalesce_messages: 1 } });
    expect(on).toEqual({ id: 1, type: 'result', success: true, result: null });
    const framesBefore = c.frames;
    c.sendRaw(
      JSON.stringify([
        { id: 2, type: 'ping' },
        { id: 3, type: 'ping' },
        { id: 4, type: 'ping' },
      ]),
    );
    await c.waitFor((m) => m.id === 4);
    expect(c.frames - framesBefore).toBe(1);
    await c.close();
  });

  test('without coalescing, each message is its own frame', async () => {
    const c = await connect();
    const framesBefore = c.frames;
    c.sendRaw(
      JSON.stringify([
        { id: 2, type: 'ping' },
        { id: 3, type: 'ping' },
      ]),
    );
    await c.waitFor((m) => m.id === 3);
    expect(c.frames - framesBefore).toBe(2);
    await c.close();
  });
});

describe('reading the hub', () => {
  test('get_states returns full states', async () => {
    const c = await connect();
    const res = await c.command({ type: 'get_states' });
    const states = res.result as Array<Record<string, unknown>>;
    expect(states.length).toBeGreaterThanOrEqual(40);
    const lamp = states.find((s) => s.entity_id === 'light.living_room_lamp');
    expect(lamp).toMatchObject({
      state: 'on',
      attributes: { brightness: 128, color_mode: 'color_temp', color_temp_kelvin: 2700, friendly_name: 'Living Room Lamp' },
    });
    // 2026.11's lights have no mireds.
    expect(lamp?.attributes).not.toHaveProperty('color_temp');
    expect(Object.keys(lamp ?? {})).toEqual(['entity_id', 'state', 'attributes', 'last_changed', 'last_reported', 'last_updated', 'context']);
    expect(String(lamp?.last_changed)).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{6})?\+00:00$/);
    expect(lamp?.context).toMatchObject({ parent_id: null, user_id: null });
    await c.close();
  });

  test('get_config describes the hub', async () => {
    const c = await connect();
    const config = (await c.command({ type: 'get_config' })).result as Record<string, unknown>;
    expect(config).toMatchObject({ location_name: 'Sim Home', version: '2026.11.0', state: 'RUNNING', time_zone: 'Europe/Amsterdam' });
    expect(config.unit_system).toMatchObject({ temperature: '°C', length: 'km' });
    expect(config.components).toEqual(expect.arrayContaining(['light', 'climate', 'alarm_control_panel', 'websocket_api', 'api']));
    await c.close();
  });

  test('get_services describes fields with selectors and targets', async () => {
    const c = await connect();
    const services = (await c.command({ type: 'get_services' })).result as Record<string, Record<string, Record<string, any>>>;
    const turnOn = services.light?.turn_on;
    expect(turnOn?.target).toEqual({ entity: [{ domain: ['light'] }] });
    // As 2026.11 describes it: no names (translations), selectors with their defaults, no mireds.
    expect(Object.keys(turnOn?.fields ?? {})).toEqual([
      'transition',
      'rgb_color',
      'color_temp_kelvin',
      'brightness_pct',
      'brightness_step_pct',
      'effect',
      'additional_fields',
    ]);
    expect(turnOn?.fields.brightness_pct.selector).toEqual({ number: { min: 0, max: 100, unit_of_measurement: '%', step: 1, mode: 'slider' } });
    const advanced = turnOn?.fields.additional_fields;
    expect(advanced.collapsed).toBe(true);
    expect(advanced.fields.brightness).toEqual({ selector: { number: { min: 0, max: 255, step: 1, mode: 'slider' } }, filter: expect.any(Object) });
    expect(Object.keys(advanced.fields)).toEqual(
      expect.arrayContaining(['rgbw_color', 'rgbww_color', 'color_name', 'hs_color', 'xy_color', 'brightness', 'brightness_step', 'white', 'profile', 'flash']),
    );
    expect(advanced.fields).not.toHaveProperty('color_temp');
    expect(advanced.fields.color_name.selector.select.options).toContain('homeassistant');
    expect(services.climate?.set_temperature?.target).toEqual({ entity: [{ domain: ['climate'], supported_features: [1, 2] }] });
    expect(services.media_player?.volume_set?.fields.volume_level).toMatchObject({ required: true, selector: { number: { min: 0, max: 1, step: 0.01 } } });
    expect(services.notify?.mobile_app_phone?.fields.message.required).toBe(true);
    expect(services.notify?.send_message?.fields.message.required).toBe(true);
    expect(services.script?.goodnight).toMatchObject({ response: { optional: true } });
    for (const domain of [
      'switch',
      'input_boolean',
      'cover',
      'lock',
      'fan',
      'vacuum',
      'alarm_control_panel',
      'scene',
      'automation',
      'persistent_notification',
      'homeassistant',
    ]) {
      expect(Object.keys(services[domain] ?? {}).length, domain).toBeGreaterThan(0);
    }
    await c.close();
  });

  test('registries: areas with floors, devices with areas, entities whose area comes from their device', async () => {
    const c = await connect();
    const areas = (await c.command({ type: 'config/area_registry/list' })).result as Array<Record<string, unknown>>;
    expect(areas.find((a) => a.area_id === 'kitchen')).toMatchObject({ name: 'Kitchen', floor_id: 'ground_floor', aliases: [], labels: [], picture: null });
    const floors = (await c.command({ type: 'config/floor_registry/list' })).result as Array<Record<string, unknown>>;
    expect(floors.map((f) => f.floor_id)).toEqual(['ground_floor', 'first_floor']);
    expect(floors[1]).toMatchObject({ name: 'First Floor', level: 1, aliases: ['upstairs'], icon: null });
    const labels = (await c.command({ type: 'config/label_registry/list' })).result as Array<Record<string, unknown>>;
    expect(labels.map((l) => l.label_id)).toEqual(['security', 'energy', 'entertainment']);
    const devices = (await c.command({ type: 'config/device_registry/list' })).result as Array<Record<string, unknown>>;
    expect(devices.find((d) => d.id === 'living_room_tv')).toMatchObject({ name: 'Living Room TV', area_id: 'living_room', manufacturer: 'Simsung' });
    const entities = (await c.command({ type: 'config/entity_registry/list' })).result as Array<Record<string, unknown>>;
    expect(entities.find((e) => e.entity_id === 'media_player.living_room_tv')).toMatchObject({ device_id: 'living_room_tv', area_id: null });
    expect(entities.find((e) => e.entity_id === 'sensor.bathroom_humidity')).toMatchObject({ device_id: 'hallway_thermostat', area_id: 'bathroom' });
    expect(entities.find((e) => e.entity_id === 'light.kitchen_ceiling')).toMatchObject({
      area_id: 'kitchen',
      device_id: null,
      original_name: 'Kitchen Ceiling',
      platform: 'sim',
    });
    await c.close();
  });

  test('a 2024.2 hub has no floor or label registry', async () => {
    const old = await startSimulator({ home: 'demo', version: '2024.2.5' });
    try {
      expect(old.legacy).toBe(true);
      const c = await connect(old);
      for (const type of ['config/floor_registry/list', 'config/label_registry/list']) {
        expect((await c.command({ type })).error).toEqual({ code: 'unknown_command', message: 'Unknown command.' });
      }
      const entities = (await c.command({ type: 'config/entity_registry/list' })).result as Array<Record<string, unknown>>;
      expect(entities[0]).not.toHaveProperty('labels');
      await c.close();
    } finally {
      await old.stop();
    }
  });

  test('a legacy (2024.3) hub has floors and labels in their first shape, and older shapes elsewhere', async () => {
    const c = await connect(legacy);
    const floors = (await c.command({ type: 'config/floor_registry/list' })).result as Array<Record<string, unknown>>;
    expect(floors[0]).toEqual({ floor_id: 'ground_floor', icon: null, level: 0, name: 'Ground Floor' });
    const labels = (await c.command({ type: 'config/label_registry/list' })).result as Array<Record<string, unknown>>;
    expect(labels[0]).toEqual({ color: 'red', description: null, icon: 'mdi:shield-home', label_id: 'security', name: 'Security' });
    const entities = (await c.command({ type: 'config/entity_registry/list' })).result as Array<Record<string, unknown>>;
    expect(entities[0]).toHaveProperty('labels');
    expect(entities[0]).not.toHaveProperty('categories');
    const areas = (await c.command({ type: 'config/area_registry/list' })).result as Array<Record<string, unknown>>;
    expect(Object.keys(areas[0] ?? {}).sort()).toEqual(['aliases', 'area_id', 'icon', 'name', 'picture']);
    const states = (await c.command({ type: 'get_states' })).result as Array<Record<string, unknown>>;
    expect(states[0]).not.toHaveProperty('last_reported');
    // No collapsible sections yet: the advanced fields are flat and marked advanced.
    const services = (await c.command({ type: 'get_services' })).result as Record<string, Record<string, Record<string, any>>>;
    const fields = services.light?.turn_on?.fields ?? {};
    expect(fields).not.toHaveProperty('advanced_fields');
    expect(fields.brightness).toMatchObject({ advanced: true, selector: { number: { min: 0, max: 255 } } });
    expect(fields).toHaveProperty('kelvin');
    expect(fields).not.toHaveProperty('color_temp_kelvin');
    const bad = await c.command({ type: 'call_service', domain: 'light', service: 'turn_on', target: { floor_id: 'ground_floor' } });
    expect(bad.error).toEqual({ code: 'invalid_format', message: "extra keys not allowed @ data['target']['floor_id']. Got 'ground_floor'" });
    await c.close();
  });
});

describe('subscriptions', () => {
  test('subscribe_entities: the initial a message, then c diffs, then r on removal', async () => {
    const c = await connect();
    sim.setState('sensor.sub_test', '1', { unit_of_measurement: 'W', spare: 'x' });
    const id = c.send({ type: 'subscribe_entities', entity_ids: ['sensor.sub_test', 'light.office_desk'] });
    const result = await c.waitFor((m) => m.id === id && m.type === 'result');
    expect(result).toEqual({ id, type: 'result', success: true, result: null });
    await c.waitFor((m) => m.id === id && m.type === 'event');
    const first = c.events(id)[0] as { a: Record<string, Record<string, unknown>> };
    expect(Object.keys(first.a).sort()).toEqual(['light.office_desk', 'sensor.sub_test']);
    const added = first.a['sensor.sub_test'] ?? {};
    expect(added).toMatchObject({ s: '1', a: { unit_of_measurement: 'W', spare: 'x' } });
    expect(typeof added.c).toBe('string');
    expect(typeof added.lc).toBe('number');
    expect(added).not.toHaveProperty('lu');

    sim.setState('sensor.sub_test', '2', { spare: 'y' });
    await c.waitFor((m) => m.id === id && m.type === 'event' && 'c' in (m.event as object));
    const change = (c.events(id)[1] as { c: Record<string, any> }).c['sensor.sub_test'];
    expect(change['+'].s).toBe('2');
    expect(change['+'].a).toEqual({ spare: 'y' });
    expect(typeof change['+'].lc).toBe('number');
    expect(change['+']).not.toHaveProperty('lu');
    expect(typeof change['+'].c).toBe('string');

    // Attributes only: lu instead of lc, and removed keys under '-'.
    sim.setState('sensor.sub_test', '2', { unit_of_measurement: 'W' }, { replace: true });
    await c.waitFor((m) => m.id === id && m.type === 'event' && c.events(id).length === 3);
    const attrsOnly = (c.events(id)[2] as { c: Record<string, any> }).c['sensor.sub_test'];
    expect(attrsOnly['+']).not.toHaveProperty('s');
    expect(attrsOnly['+']).not.toHaveProperty('lc');
    expect(typeof attrsOnly['+'].lu).toBe('number');
    expect(attrsOnly['-']).toEqual({ a: ['spare'] });

    // Writing the same again changes nothing and sends nothing.
    sim.setState('sensor.sub_test', '2');
    sim.removeState('sensor.sub_test');
    await c.waitFor((m) => m.id === id && m.type === 'event' && 'r' in (m.event as object));
    expect(c.events(id)[3]).toEqual({ r: ['sensor.sub_test'] });
    expect(c.events(id)).toHaveLength(4);
    await c.close();
  });

  test('a change made through a service carries the user context as an object', async () => {
    const c = await connect();
    const id = c.send({ type: 'subscribe_entities', entity_ids: ['switch.christmas_lights'] });
    await c.waitFor((m) => m.id === id && m.type === 'event');
    const res = await c.command({ type: 'call_service', domain: 'switch', service: 'toggle', target: { entity_id: 'switch.christmas_lights' } });
    const ctx = (res.result as { context: Record<string, unknown> }).context;
    expect(res.result).toEqual({ context: { id: expect.any(String), parent_id: null, user_id: expect.any(String) } });
    await c.waitFor((m) => m.id === id && c.events(id).length === 2);
    const diff = (c.events(id)[1] as { c: Record<string, any> }).c['switch.christmas_lights'];
    expect(diff['+'].c).toEqual({ user_id: ctx.user_id, id: ctx.id });
    await c.close();
  });

  test('subscribe_events forwards events until unsubscribed', async () => {
    const c = await connect();
    const all = c.send({ type: 'subscribe_events' });
    const custom = c.send({ type: 'subscribe_events', event_type: 'sim_test_event' });
    await c.waitFor((m) => m.id === custom && m.type === 'result');
    sim.fireEvent('sim_test_event', { n: 1 });
    await c.waitFor((m) => m.id === custom && m.type === 'event');
    const ev = c.events(custom)[0];
    expect(ev).toMatchObject({ event_type: 'sim_test_event', data: { n: 1 }, origin: 'LOCAL' });
    expect(Object.keys(ev ?? {})).toEqual(['event_type', 'data', 'origin', 'time_fired', 'context']);
    expect(c.events(all).some((e) => e.event_type === 'sim_test_event')).toBe(true);

    const unsub = await c.command({ type: 'unsubscribe_events', subscription: custom });
    expect(unsub).toMatchObject({ success: true, result: null });
    sim.fireEvent('sim_test_event', { n: 2 });
    await c.waitFor((m) => m.id === all && m.type === 'event' && (m.event as any).data?.n === 2);
    expect(c.events(custom)).toHaveLength(1);
    const again = await c.command({ type: 'unsubscribe_events', subscription: custom });
    expect(again.error).toEqual({ code: 'not_found', message: 'Subscription not found.' });
    await c.close();
  });

  test('state_changed events carry full old and new states; call_service events come first', async () => {
    const c = await connect();
    const sub = c.send({ type: 'subscribe_events' });
    await c.waitFor((m) => m.id === sub && m.type === 'result');
    await c.command({
      type: 'call_service',
      domain: 'light',
      service: 'turn_on',
      service_data: { brightness_pct: 50 },
      target: { entity_id: 'light.office_desk' },
    });
    const changed = await c.waitFor(
      (m) => m.id === sub && m.type === 'event' && (m.event as any).event_type === 'state_changed' && (m.event as any).data.entity_id === 'light.office_desk',
    );
    const data = (changed.event as any).data;
    expect(data.old_state).toMatchObject({ entity_id: 'light.office_desk', state: 'off' });
    expect(data.new_state).toMatchObject({ entity_id: 'light.office_desk', state: 'on', attributes: { brightness: 128 } });
    const types = c.events(sub).map((e) => e.event_type);
    expect(types.indexOf('call_service')).toBeLessThan(types.indexOf('state_changed'));
    const call = c.events(sub).find((e) => e.event_type === 'call_service');
    expect(call?.data).toEqual({ domain: 'light', service: 'turn_on', service_data: { brightness_pct: 50, entity_id: ['light.office_desk'] } });
    await c.close();
  });

  test('fire_event fires with the caller context; non-admins may not', async () => {
    const c = await connect();
    const sub = c.send({ type: 'subscribe_events', event_type: 'custom_fired' });
    await c.waitFor((m) => m.id === sub && m.type === 'result');
    const res = await c.command({ type: 'fire_event', event_type: 'custom_fired', event_data: { a: 1 } });
    expect(res.result).toMatchObject({ context: { parent_id: null } });
    await c.waitFor((m) => m.id === sub && m.type === 'event');
    expect(c.events(sub)[0]).toMatchObject({ event_type: 'custom_fired', data: { a: 1 } });
    await c.close();

    const u = await connect(sim, 'user-token');
    expect((await u.command({ type: 'fire_event', event_type: 'x' })).error).toEqual({ code: 'unauthorized', message: 'Unauthorized' });
    expect((await u.command({ type: 'subscribe_events' })).error).toEqual({ code: 'unauthorized', message: 'Unauthorized' });
    expect((await u.command({ type: 'subscribe_events', event_type: 'state_changed' })).success).toBe(true);
    const called = await u.command({ type: 'call_service', domain: 'switch', service: 'toggle', target: { entity_id: 'switch.office_heater' } });
    const userId = (called.result as { context: { user_id: string } }).context.user_id;
    expect(userId).toEqual(expect.any(String));
    expect(userId).not.toBe(sim.hub.user.id);
    expect(sim.getState('switch.office_heater')?.context.user_id).toBe(userId);
    await u.close();
  });
});

describe('call_service errors and targets', () => {
  test('unknown services are not_found with the translation fields', async () => {
    const c = await connect();
    const res = await c.command({ type: 'call_service', domain: 'light', service: 'explode', target: { entity_id: 'light.hallway' } });
    expect(res.error).toEqual({
      code: 'not_found',
      message: 'Service light.explode not found.',
      translation_key: 'service_not_found',
      translation_placeholders: { domain: 'light', service: 'explode' },
      translation_domain: 'homeassistant',
    });
    const domain = await c.command({ type: 'call_service', domain: 'nope', service: 'turn_on' });
    expect(domain.error).toMatchObject({ code: 'not_found', message: 'Service nope.turn_on not found.' });
    await c.close();
  });

  test('schema violations are invalid_format with voluptuous messages', async () => {
    const c = await connect();
    const call = (service_data: Record<string, unknown>, target: Record<string, unknown> = { entity_id: 'light.office_desk' }) =>
      c.command({ type: 'call_service', domain: 'light', service: 'turn_on', service_data, target });
    // In 2026.11's words (probatio), as the real hub answers each of these.
    expect((await call({ brightness_pct: 150 })).error).toEqual({
      code: 'invalid_format',
      message: "expected a percentage between 0 and 100 at 'brightness_pct'",
    });
    expect((await call({ brightness: 'bright' })).error?.message).toBe("expected int at 'brightness'");
    expect((await call({ flavour: 'x' })).error?.message).toBe("not a valid option at 'flavour'");
    expect((await call({ color_temp: 300 })).error?.message).toBe("not a valid option, did you mean 'color_temp_kelvin' or 'color_name'? at 'color_temp'");
    expect((await call({ brightnes: 1 })).error?.message).toBe(
      "not a valid option, did you mean 'brightness', 'brightness_pct' or 'brightness_step'? at 'brightnes'",
    );
    expect((await call({ brightness: 10, brightness_pct: 10 })).error?.message).toBe(
      "two or more values in the same group of exclusion 'brightness' at '<brightness>'",
    );
    expect((await call({ rgb_color: [300, 0, 0] })).error?.message).toBe("value must be at most 255 at 'rgb_color[0]'");
    expect((await call({}, {})).error?.message).toBe("at least one of ['entity_id', 'device_id', 'area_id', 'floor_id', 'label_id'] is required");
    // brightness is clamped by the hub, not refused.
    expect((await call({ brightness: 300 })).success).toBe(true);
    expect(sim.getState('light.office_desk')?.attributes.brightness).toBe(255);
    await c.close();
  });

  test('an entity of another domain is ignored; a missing entity is no error', async () => {
    const c = await connect();
    const before = sim.getState('switch.office_heater');
    const res = await c.command({
      type: 'call_service',
      domain: 'light',
      service: 'turn_on',
      target: { entity_id: ['switch.office_heater', 'light.does_not_exist'] },
    });
    expect(res.success).toBe(true);
    expect(sim.getState('switch.office_heater')?.last_updated).toBe(before?.last_updated);
    await c.close();
  });

  test('an entity explicitly targeted without the needed feature fails; via an area it is skipped', async () => {
    const c = await connect();
    const res = await c.command({
      type: 'call_service',
      domain: 'fan',
      service: 'oscillate',
      service_data: { oscillating: true },
      target: { entity_id: 'fan.bedroom_fan' },
    });
    expect(res.error).toEqual({
      code: 'service_validation_error',
      message: 'Validation error: Entity fan.bedroom_fan does not support action fan.oscillate',
      translation_key: 'service_not_supported',
      translation_placeholders: { domain: 'fan', service: 'oscillate', entity_id: 'fan.bedroom_fan' },
      translation_domain: 'homeassistant',
    });
    const viaArea = await c.command({
      type: 'call_service',
      domain: 'fan',
      service: 'oscillate',
      service_data: { oscillating: true },
      target: { area_id: 'bedroom' },
    });
    expect(viaArea.success).toBe(true);
    const old = await RawClient.connect(legacy.wsUrl, legacy.token);
    const legacyRes = await old.command({
      type: 'call_service',
      domain: 'fan',
      service: 'oscillate',
      service_data: { oscillating: true },
      target: { entity_id: 'fan.bedroom_fan' },
    });
    expect(legacyRes.error).toEqual({ code: 'home_assistant_error', message: 'Entity fan.bedroom_fan does not support this service.' });
    await old.close();
    await c.close();
  });

  test('targets by area use the entity area, else the device area; floors and labels resolve too', async () => {
    const c = await connect();
    const call = (domain: string, service: string, target: Record<string, unknown>) => c.command({ type: 'call_service', domain, service, target });
    // light.kitchen_strip has no area of its own; its device is in the kitchen.
    await call('light', 'turn_off', { entity_id: 'all' });
    await call('light', 'turn_on', { area_id: 'kitchen' });
    expect(sim.getState('light.kitchen_strip')?.state).toBe('on');
    expect(sim.getState('light.kitchen_ceiling')?.state).toBe('on');
    expect(sim.getState('light.living_room_lamp')?.state).toBe('off');
    // On the hallway thermostat's device but in the bathroom: not in the hallway.
    const hallway = new Set(['sensor.hallway_temperature']);
    const s = sim.hub.registries.resolveTarget({ area_id: ['hallway'] });
    expect([...s.indirect].filter((id) => id.startsWith('sensor.'))).toEqual([...hallway]);
    expect(sim.hub.registries.resolveTarget({ area_id: ['bathroom'] }).indirect.has('sensor.bathroom_humidity')).toBe(true);
    // Diagnostic entities are not targeted through their device.
    expect(sim.hub.registries.resolveTarget({ device_id: ['front_door_lock'] }).indirect.has('sensor.front_door_lock_battery')).toBe(false);
    await call('light', 'turn_on', { floor_id: 'first_floor' });
    expect(sim.getState('light.bedroom_lamp')?.state).toBe('on');
    expect(sim.getState('light.office_desk')?.state).toBe('on');
    expect(sim.getState('light.hallway')?.state).toBe('off');
    await call('switch', 'turn_on', { label_id: 'energy' });
    expect(sim.getState('switch.coffee_maker')?.state).toBe('on');
    expect(sim.getState('switch.office_heater')?.state).toBe('on');
    expect(sim.getState('switch.christmas_lights')?.state).not.toBe('unavailable');
    await call('media_player', 'turn_on', { device_id: 'living_room_tv' });
    expect(sim.getState('media_player.living_room_tv')?.state).not.toBe('off');
    await c.close();
  });

  test('return_response: scripts answer, other services refuse', async () => {
    const c = await connect();
    const ok = await c.command({ type: 'call_service', domain: 'script', service: 'welcome_home', return_response: true });
    expect(ok.result).toEqual({ context: expect.any(Object), response: null });
    const refused = await c.command({
      type: 'call_service',
      domain: 'switch',
      service: 'turn_on',
      target: { entity_id: 'switch.coffee_maker' },
      return_response: true,
    });
    expect(refused.error).toMatchObject({ code: 'service_validation_error', translation_key: 'service_does_not_support_response' });
    const plain = await c.command({ type: 'call_service', domain: 'switch', service: 'turn_on', target: { entity_id: 'switch.coffee_maker' } });
    expect(Object.keys(plain.result as object)).toEqual(['context']);
    await c.close();
  });

  test('persistent notifications can be listed and subscribed to', async () => {
    const c = await connect();
    const sub = c.send({ type: 'persistent_notification/subscribe' });
    await c.waitFor((m) => m.id === sub && m.type === 'event');
    expect(c.events(sub)[0]).toEqual({ type: 'current', notifications: {} });
    await c.command({
      type: 'call_service',
      domain: 'persistent_notification',
      service: 'create',
      service_data: { message: 'Hi', title: 'T', notification_id: 'n1' },
    });
    await c.waitFor((m) => m.id === sub && c.events(sub).length === 2);
    expect(c.events(sub)[1]).toMatchObject({ type: 'added', notifications: { n1: { notification_id: 'n1', message: 'Hi', title: 'T' } } });
    expect((await c.command({ type: 'persistent_notification/get' })).result).toEqual([expect.objectContaining({ notification_id: 'n1' })]);
    await c.command({ type: 'call_service', domain: 'persistent_notification', service: 'dismiss', service_data: { notification_id: 'n1' } });
    await c.waitFor((m) => m.id === sub && c.events(sub).length === 3);
    expect(c.events(sub)[2]).toMatchObject({ type: 'removed' });
    expect(sim.notifications()).toEqual([]);
    await c.close();
  });
});

test('a plain WebSocket on another path is refused', async () => {
  const ws = new WebSocket(`${sim.url.replace('http', 'ws')}/api/other`);
  const err = await new Promise<Error>((resolve) => ws.once('error', resolve));
  expect(err.message).toMatch(/404/);
});
