// POST /api/command (and /api/v1/command), the WebSocket `command` message and the MCP tool
// `command` over the real service and the simulator's demo home: real runs change the hub, dry runs
// do not, ambiguity acts on nothing, and the safety rules and limits hold.
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({ COMMAND_MAX_LENGTH: '120' });
  await s.app.hub.ready();
});
afterAll(() => s?.close());

const command = (body: Record<string, unknown>, path = '/api/command') => s.call(path, 'POST', body);
const hubState = (id: string) => s.app.simulator!.getState(id)!;

describe('POST /api/command', () => {
  test('turns lights off for real (read back from the hub), with the documented result shape', async () => {
    expect(hubState('light.living_room_ceiling').state).toBe('on');
    const r = await command({ command: 'turn off the lights in the living room' });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ success: true, dry_run: false, message: 'Turned off Living Room Ceiling and Living Room Lamp.' });
    expect(r.body.actions).toEqual([
      { entity_id: 'light.living_room_ceiling', action: 'turn_off', parameters: {}, status: 'completed', state: 'off', verified: true },
      { entity_id: 'light.living_room_lamp', action: 'turn_off', parameters: {}, status: 'completed', state: 'off', verified: true },
    ]);
    expect(r.body.action).toBeUndefined();
    expect(hubState('light.living_room_ceiling').state).toBe('off');
    expect(hubState('light.living_room_lamp').state).toBe('off');
  });

  test('one action also answers in the single-action form; /api/v1 is the same', async () => {
    const r = await command({ command: 'set the bedroom lamp to 30%' }, '/api/v1/command');
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      success: true,
      action: 'turn_on',
      device: 'light.bedroom_lamp',
      actions: [{ entity_id: 'light.bedroom_lamp', action: 'turn_on', parameters: { brightness_pct: 30 }, status: 'completed', state: 'on' }],
    });
    expect(hubState('light.bedroom_lamp').attributes.brightness).toBe(76);
  });

  test('a dry run plans without calling the hub', async () => {
    const before = hubState('switch.coffee_maker').state;
    const r = await command({ command: 'turn on the coffee maker', dry_run: true });
    expect(r.body).toMatchObject({
      success: true,
      dry_run: true,
      actions: [{ entity_id: 'switch.coffee_maker', action: 'turn_on', status: 'planned' }],
      message: 'I would turn on Coffee Maker.',
    });
    expect(hubState('switch.coffee_maker').state).toBe(before);
  });

  test('context.area scopes "here" and kinds of thing alone', async () => {
    const r = await command({ command: 'close the blinds in here', context: { area: 'Living Room' } });
    expect(r.body.actions).toMatchObject([{ entity_id: 'cover.living_room_blinds', action: 'close_cover', status: 'completed' }]);
    expect(['closed', 'closing']).toContain(hubState('cover.living_room_blinds').state);
  });

  test('a compound command runs both parts', async () => {
    const r = await command({ command: 'turn on the hallway light and lock the back door' });
    expect(r.body.actions.map((a: { entity_id: string; action: string }) => `${a.entity_id} ${a.action}`)).toEqual([
      'light.hallway turn_on',
      'lock.back_door lock',
    ]);
    expect(hubState('light.hallway').state).toBe('on');
    expect(hubState('lock.back_door').state).toBe('locked');
  });

  test('a question answers with the hub’s states, and acts on nothing', async () => {
    const r = await command({ command: 'is the front door locked?' });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ success: true, actions: [], query: { entities: ['lock.front_door'], matching: ['lock.front_door'] } });
    expect(r.body.message).toMatch(/^Yes/);
    const which = await command({ command: 'which lights are on in the kitchen?' });
    expect(which.body.query.entities.sort()).toEqual(['light.kitchen_ceiling', 'light.kitchen_strip']);
    expect(which.body.query.matching).toEqual(['light.kitchen_ceiling']);
    expect(which.body.message).toBe('Kitchen Ceiling.');
  });

  test('ambiguity never acts: 409 AMBIGUOUS, a question, the candidates of the right domain only', async () => {
    const before = hubState('light.bedroom_lamp').state;
    const r = await command({ command: 'turn on the lamp' });
    expect(r.status).toBe(409);
    expect(r.body).toMatchObject({
      error: true,
      code: 'AMBIGUOUS',
      message: expect.stringMatching(/^Which lamp do you mean: .*\? I did nothing yet\.$/),
      details: { noun: 'lamp' },
    });
    expect(r.body.details.candidates.map((c: { entity_id: string }) => c.entity_id).sort()).toEqual([
      'light.bedroom_lamp',
      'light.living_room_lamp',
      'light.office_desk',
    ]);
    expect(r.body.details.candidates).toContainEqual({ entity_id: 'light.office_desk', name: 'Office Desk Lamp', area: 'Office' });
    expect(hubState('light.bedroom_lamp').state).toBe(before);
  });

  test('not understood: 422 NOT_UNDERSTOOD naming the words, with the closest known names', async () => {
    const r = await command({ command: 'turn on the kitchen zorblax quuxifier' });
    expect(r.status).toBe(422);
    expect(r.body).toMatchObject({ error: true, code: 'NOT_UNDERSTOOD', details: { reason: 'unknown_words', unknown_words: ['zorblax', 'quuxifier'] } });
    expect(r.body.message).toMatch(/^I did nothing: I did not understand “zorblax” and “quuxifier”/);
    expect(r.body.details.closest_names.length).toBeGreaterThan(0);
  });

  test('unlocking needs confirmation: 409 without it (nothing acts), marked in a dry run, done with confirm', async () => {
    const refused = await command({ command: 'unlock the front door' });
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ code: 'CONFIRMATION_REQUIRED' });
    expect(hubState('lock.front_door').state).toBe('locked');
    const dry = await command({ command: 'unlock the front door', dry_run: true });
    expect(dry.body.actions).toEqual([{ entity_id: 'lock.front_door', action: 'unlock', parameters: {}, status: 'planned', needs_confirmation: true }]);
    const done = await command({ command: 'unlock the front door with code 1234', confirm: true });
    expect(done.status).toBe(200);
    expect(hubState('lock.front_door').state).toBe('unlocked');
  });

  test('the bridge’s own scenes and groups by name', async () => {
    expect(
      (
        await s.call('/api/scene', 'POST', {
          name: 'Reading',
          actions: [{ entity_id: 'light.office_desk', action: 'turn_on', parameters: { brightness_pct: 60 } }],
        })
      ).status,
    ).toBe(200);
    expect((await s.call('/api/group', 'POST', { name: 'Garden things', entities: ['light.garden_lights', 'switch.christmas_lights'] })).status).toBe(200);
    const scene = await command({ command: 'activate reading' });
    expect(scene.body).toMatchObject({
      success: true,
      actions: [{ entity_id: 'light.office_desk', action: 'turn_on', parameters: { brightness_pct: 60 }, status: 'completed' }],
    });
    expect(hubState('light.office_desk').state).toBe('on');
    const group = await command({ command: 'turn on garden things' });
    expect(group.body.actions.map((a: { entity_id: string; status: string }) => `${a.entity_id} ${a.status}`).sort()).toEqual([
      'light.garden_lights completed',
      'switch.christmas_lights completed',
    ]);
    expect(hubState('switch.christmas_lights').state).toBe('on');
  });

  test('bad input: 400 naming the field; over COMMAND_MAX_LENGTH refused', async () => {
    expect((await command({})).status).toBe(400);
    expect((await command({ command: '' })).body).toMatchObject({ code: 'INVALID_PARAMETERS' });
    expect((await command({ command: 'turn on', language: 'xx' })).body).toMatchObject({ code: 'INVALID_PARAMETERS', details: { field: 'language' } });
    const nowhere = await command({ command: 'turn on the lights', context: { area: 'Kitchn' } });
    expect(nowhere.body).toMatchObject({
      code: 'INVALID_PARAMETERS',
      details: { field: 'context.area', available_areas: expect.arrayContaining(['Kitchen']) },
    });
    const long = await command({ command: `turn on ${'the '.repeat(40)}lights` });
    expect(long.status).toBe(400);
    expect(long.body).toMatchObject({ code: 'INVALID_PARAMETERS', details: { field: 'command', max_length: 120 } });
  });

  test('features.nlp is true', async () => {
    expect((await s.call('/api/config')).body.features).toMatchObject({ nlp: true });
  });
});

describe('the same planner elsewhere', () => {
  test('WebSocket: {type: "command", id, payload} -> {type: "command_result", id, ...result}', async () => {
    const ws = new WebSocket(`${s.url.replace('http', 'ws')}/api/ws`, { headers: { authorization: `Bearer ${s.token}` } });
    const messages: any[] = [];
    const waiters: ((m: any) => void)[] = [];
    ws.on('message', (d) => {
      const m = JSON.parse(d.toString());
      const w = waiters.shift();
      if (w) w(m);
      else messages.push(m);
    });
    const next = () => (messages.length ? Promise.resolve(messages.shift()) : new Promise<any>((r) => waiters.push(r)));
    await new Promise((r) => ws.on('open', r));
    expect(await next()).toMatchObject({ type: 'connected', data: { types: expect.arrayContaining(['command']) } });
    ws.send(JSON.stringify({ type: 'command', id: 7, payload: { command: 'turn on the kitchen strip', dry_run: true } }));
    expect(await next()).toMatchObject({
      type: 'command_result',
      id: 7,
      success: true,
      dry_run: true,
      actions: [{ entity_id: 'light.kitchen_strip', action: 'turn_on', status: 'planned' }],
    });
    ws.send(JSON.stringify({ type: 'command', id: 8, payload: { command: 'fly to the moon' } }));
    expect(await next()).toMatchObject({ type: 'error', id: 8, error: { code: 'NOT_UNDERSTOOD' } });
    ws.send(JSON.stringify({ type: 'command', id: 9, payload: {} }));
    expect(await next()).toMatchObject({ type: 'error', id: 9, error: { code: 'INVALID_PARAMETERS' } });
    ws.send(JSON.stringify({ type: 'command', id: 10, payload: { command: 'turn on the lamp' } }));
    const ambiguous = await next();
    expect(ambiguous).toMatchObject({ type: 'error', id: 10, error: { code: 'AMBIGUOUS', details: { noun: 'lamp' } } });
    expect(ambiguous.error.details.candidates.map((c: { entity_id: string }) => c.entity_id).sort()).toEqual([
      'light.bedroom_lamp',
      'light.living_room_lamp',
      'light.office_desk',
    ]);
    ws.close();
  });

  test('the MCP tool `command` runs the same planner', async () => {
    const r = await s.call('/api/tools/call', 'POST', { name: 'command', arguments: { command: 'what is the temperature in the hallway?' } });
    expect(r.status).toBe(200);
    expect(r.body.structuredContent).toMatchObject({ success: true, query: { entities: ['sensor.hallway_temperature'] } });
    expect(r.body.content[0].text).toContain('°C');
    const ambiguous = await s.call('/api/tools/call', 'POST', { name: 'command', arguments: { command: 'turn on the lamp' } });
    // The tool has no client that can be asked which lamp: the shared AMBIGUOUS answer, lamps only.
    expect(ambiguous.body).toMatchObject({ isError: true, structuredContent: { error: { code: 'AMBIGUOUS', details: { candidates: expect.any(Array) } } } });
    expect(ambiguous.body.structuredContent.error.details.candidates.map((c: { entity_id: string }) => c.entity_id).sort()).toEqual([
      'light.bedroom_lamp',
      'light.living_room_lamp',
      'light.office_desk',
    ]);
  });
});
