// The simulator's REST endpoints, with and without a token, answered as the hub answers them.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type Simulator, startSimulator } from '../testing.js';

let sim: Simulator;
const auth = { Authorization: 'Bearer sim-token' };

beforeAll(async () => {
  sim = await startSimulator({ timing: { coverTravelMs: 0 }, userToken: 'user-token' });
});
afterAll(() => sim.stop());

async function req(method: string, path: string, opts: { body?: unknown; raw?: string; headers?: Record<string, string> } = {}) {
  const res = await fetch(`${sim.url}${path}`, {
    method,
    headers: { ...auth, ...(opts.body !== undefined ? { 'Content-Type': 'application/json' } : {}), ...opts.headers },
    ...(opts.raw !== undefined ? { body: opts.raw } : opts.body !== undefined ? { body: JSON.stringify(opts.body) } : {}),
  });
  const text = await res.text();
  let json: any;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, text, json, type: res.headers.get('content-type') ?? '', headers: res.headers };
}

describe('authentication', () => {
  test('no token or a wrong token: 401 as aiohttp writes it', async () => {
    for (const headers of [{ Authorization: '' }, { Authorization: 'Bearer wrong' }, { Authorization: 'Basic c2ltOnNpbQ==' }]) {
      const res = await req('GET', '/api/', { headers });
      expect(res.status).toBe(401);
      expect(res.text).toBe('401: Unauthorized');
    }
  });

  test('with the token: API running', async () => {
    const res = await req('GET', '/api/');
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ message: 'API running.' });
    expect(res.type).toMatch(/application\/json/);
  });

  test('unknown paths 404, wrong methods 405', async () => {
    expect((await req('GET', '/api/nothing')).text).toBe('404: Not Found');
    expect((await req('DELETE', '/api/config')).status).toBe(405);
  });
});

describe('reading', () => {
  test('config, states, one state, services, events', async () => {
    expect((await req('GET', '/api/config')).json).toMatchObject({ location_name: 'Sim Home', state: 'RUNNING', version: '2026.11.0' });
    const states = (await req('GET', '/api/states')).json as Array<Record<string, unknown>>;
    expect(states.length).toBe(sim.states().length);
    const one = await req('GET', '/api/states/light.kitchen_ceiling');
    expect(one.json).toMatchObject({ entity_id: 'light.kitchen_ceiling', state: 'on', attributes: { friendly_name: 'Kitchen Ceiling' } });
    const missing = await req('GET', '/api/states/light.nowhere');
    expect(missing.status).toBe(404);
    expect(missing.json).toEqual({ message: 'Entity not found.' });
    const services = (await req('GET', '/api/services')).json as Array<{ domain: string; services: Record<string, unknown> }>;
    expect(services.find((s) => s.domain === 'lock')?.services).toHaveProperty('unlock');
    expect(Array.isArray((await req('GET', '/api/events')).json)).toBe(true);
  });
});

describe('services', () => {
  test('a call returns the states it changed', async () => {
    const res = await req('POST', '/api/services/light/turn_off', { body: { entity_id: 'light.kitchen_ceiling' } });
    expect(res.status).toBe(200);
    expect(res.json).toEqual([expect.objectContaining({ entity_id: 'light.kitchen_ceiling', state: 'off' })]);
    const cover = await req('POST', '/api/services/cover/open_cover', { body: { entity_id: 'cover.bedroom_curtains' } });
    expect((cover.json as Array<{ state: string }>).map((s) => s.state)).toEqual(['opening', 'open']);
    const none = await req('POST', '/api/services/light/turn_off', { body: { entity_id: 'light.kitchen_ceiling' } });
    expect(none.json).toEqual([]);
  });

  test('return_response gives changed_states and service_response', async () => {
    const res = await req('POST', '/api/services/script/welcome_home?return_response', { body: {} });
    expect(res.json).toEqual({ changed_states: expect.any(Array), service_response: null });
    const refused = await req('POST', '/api/services/switch/turn_on?return_response', { body: { entity_id: 'switch.coffee_maker' } });
    expect(refused.status).toBe(400);
    expect(refused.json).toEqual({ message: 'Service does not support responses. Remove return_response from request.' });
  });

  test('failures: unknown service and bad data 400, bad JSON has a message, refused calls 500', async () => {
    const unknown = await req('POST', '/api/services/light/explode', { body: {} });
    expect(unknown.status).toBe(400);
    expect(unknown.text).toBe('400: Bad Request');
    const invalid = await req('POST', '/api/services/light/turn_on', { body: { entity_id: 'light.office_desk', brightness_pct: 500 } });
    expect(invalid.status).toBe(400);
    const badJson = await req('POST', '/api/services/light/turn_on', { raw: '{oops' });
    expect(badJson.status).toBe(400);
    expect(badJson.json).toEqual({ message: 'Data should be valid JSON.' });
    const wrongCode = await req('POST', '/api/services/alarm_control_panel/alarm_disarm', { body: { entity_id: 'alarm_control_panel.security', code: '9' } });
    // 2026.11 answers a validation error with a 400 and its message (2024.3.3: a bare 500).
    expect(wrongCode.status).toBe(400);
    expect(wrongCode.json).toEqual({ message: 'invalid_code' });
  });
});

describe('writing states and firing events', () => {
  test('POST /api/states creates (201) then updates (200); DELETE removes', async () => {
    const created = await req('POST', '/api/states/sensor.rest_made', { body: { state: '5', attributes: { unit_of_measurement: 'kg' } } });
    expect(created.status).toBe(201);
    expect(created.headers.get('location')).toBe('/api/states/sensor.rest_made');
    expect(created.json).toMatchObject({ entity_id: 'sensor.rest_made', state: '5', attributes: { unit_of_measurement: 'kg' } });
    const updated = await req('POST', '/api/states/sensor.rest_made', { body: { state: '6' } });
    expect(updated.status).toBe(200);
    expect((await req('POST', '/api/states/sensor.rest_made', { body: { attributes: {} } })).json).toEqual({ message: 'No state specified.' });
    expect((await req('POST', '/api/states/Not-Valid', { body: { state: '1' } })).json).toEqual({ message: 'Invalid entity ID specified.' });
    expect((await req('DELETE', '/api/states/sensor.rest_made')).json).toEqual({ message: 'Entity removed.' });
    expect((await req('DELETE', '/api/states/sensor.rest_made')).status).toBe(404);
  });

  test('POST /api/events fires a REMOTE event', async () => {
    const seen: unknown[] = [];
    const stop = sim.hub.bus.listen('rest_event', (e) => seen.push(e.toJSON()));
    const res = await req('POST', '/api/events/rest_event', { body: { x: 1 } });
    stop();
    expect(res.json).toEqual({ message: 'Event rest_event fired.' });
    expect(seen).toEqual([expect.objectContaining({ event_type: 'rest_event', data: { x: 1 }, origin: 'REMOTE' })]);
    expect((await req('POST', '/api/events/rest_event', { raw: '[1]' })).json).toEqual({ message: 'Event data should be a JSON object' });
    expect((await req('POST', '/api/events/rest_event', { raw: '{x' })).json).toEqual({ message: 'Event data should be valid JSON.' });
  });

  test('a user who is not an administrator may read and call but not fire events', async () => {
    const headers = { Authorization: 'Bearer user-token' };
    expect((await req('GET', '/api/states', { headers })).status).toBe(200);
    expect((await req('POST', '/api/services/switch/turn_on', { body: { entity_id: 'switch.coffee_maker' }, headers })).status).toBe(200);
    expect((await req('POST', '/api/events/x', { body: {}, headers })).status).toBe(401);
  });
});
