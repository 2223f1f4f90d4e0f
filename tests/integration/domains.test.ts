// Every other kind of entity, the general service call, events and templates (issue 35, items 1, 8
// and 9), against the simulator over REST's tool route and MCP in both eras: control_entity acts
// with the services the hub lists and refuses fields it does not describe; call_service answers
// the hub's response data and fires events, refusing Home Assistant's own; render_template renders
// read-only and, with entities hidden from Assist, refuses to show what it read of them.
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { exposeOnly } from '../helpers/exposed-only.js';
import { callToolOk } from '../helpers/tool-call.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(() => s?.close());

const state = (x: TestServer, id: string) => x.app.hub.cache.get(id)?.state;
async function toolError(x: TestServer, name: string, args: Record<string, unknown>) {
  const r = await x.call('/api/tools/call', 'POST', { name, arguments: args });
  expect(r.body.isError, JSON.stringify(r.body)).toBe(true);
  return r.body.structuredContent.error as { code: string; message: string; details: Record<string, any> };
}

/** One tool call over MCP: a 2025-era session, or a 2026-07-28 client. */
async function overMcp(x: TestServer, era: 'legacy' | 'modern', name: string, args: Record<string, unknown>) {
  const client = new Client({ name: 'domains-test', version: '1.0.0' }, era === 'modern' ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {});
  await client.connect(new StreamableHTTPClientTransport(new URL(`${x.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${x.token}` } } }));
  try {
    return (await client.callTool({ name, arguments: args })) as { isError?: boolean; content: { text: string }[]; structuredContent?: any };
  } finally {
    await client.close();
  }
}

describe('control_entity: any entity, with the services its domain has', () => {
  test('acts with a service the hub lists, over the tool route and MCP in both eras', async () => {
    const r = await callToolOk(s, 'control_entity', { entity_id: 'select.mower_mode', service: 'select_option', data: { option: 'turbo' } });
    expect(r.structuredContent).toMatchObject({
      service: 'select.select_option',
      dry_run: false,
      entities: [{ entity_id: 'select.mower_mode', state: 'turbo' }],
    });
    const legacy = await overMcp(s, 'legacy', 'control_entity', { entity_id: 'siren.garage_siren', service: 'turn_on', data: { tone: 'fire' } });
    expect(legacy.isError, JSON.stringify(legacy)).toBeUndefined();
    expect(state(s, 'siren.garage_siren')).toBe('on');
    const modern = await overMcp(s, 'modern', 'control_entity', { entity_id: 'lawn_mower.garden_mower', service: 'start_mowing' });
    expect(modern.isError, JSON.stringify(modern)).toBeUndefined();
    expect(state(s, 'lawn_mower.garden_mower')).toBe('mowing');
  });

  test('a dry run changes nothing', async () => {
    const before = state(s, 'water_heater.boiler');
    const r = await callToolOk(s, 'control_entity', {
      entity_id: 'water_heater.boiler',
      service: 'set_operation_mode',
      data: { operation_mode: 'performance' },
      dry_run: true,
    });
    expect(r.structuredContent).toMatchObject({ dry_run: true, data: { operation_mode: 'performance' } });
    expect(state(s, 'water_heater.boiler')).toBe(before);
  });

  test('a field the service does not describe is refused, naming the ones it takes', async () => {
    const e = await toolError(s, 'control_entity', { entity_id: 'siren.garage_siren', service: 'turn_on', data: { colour: 'red' } });
    expect(e).toMatchObject({ code: 'INVALID_PARAMETERS', details: { field: 'data.colour', accepted: ['tone', 'volume_level', 'duration'] } });
    expect(e.message).toContain('it takes: tone, volume_level, duration');
  });

  test("a service the domain does not have names the entity's services; a value outside the selector is refused before the hub", async () => {
    const e = await toolError(s, 'control_entity', { entity_id: 'number.mower_cutting_height', service: 'turn_on' });
    expect(e.code).toBe('INVALID_ACTION');
    expect(e.details.available_services).toEqual(['set_value']);
    const sensor = await toolError(s, 'control_entity', { entity_id: 'sensor.outdoor_temperature', service: 'turn_on' });
    expect(sensor).toMatchObject({ code: 'INVALID_ACTION', details: { available_services: [] } });
    const hub = await toolError(s, 'control_entity', { entity_id: 'number.mower_cutting_height', service: 'set_value', data: { value: 99 } });
    expect(hub.message).toContain('outside valid range 20.0 - 60.0');
    expect(state(s, 'number.mower_cutting_height')).toBe('40');
  });

  test('an entity the hub does not have, and an unknown argument of the tool itself, are refused', async () => {
    expect((await toolError(s, 'control_entity', { entity_id: 'siren.nowhere', service: 'turn_on' })).code).toBe('INVALID_ENTITY');
    const r = await s.call('/api/tools/call', 'POST', {
      name: 'control_entity',
      arguments: { entity_id: 'siren.garage_siren', service: 'turn_on', tone: 'fire' },
    });
    expect(JSON.stringify(r.body)).toContain('tone');
    expect(r.body.isError ?? r.status >= 400).toBeTruthy();
  });
});

describe('call_service: a service call as Home Assistant takes it, and events', () => {
  test("answers the hub's response data with return_response", async () => {
    const r = await callToolOk(s, 'call_service', {
      operation: 'call',
      domain: 'script',
      service: 'turn_on',
      target: { entity_id: 'script.goodnight' },
      dry_run: true,
    });
    expect(r.structuredContent).toMatchObject({ service: 'script.turn_on', dry_run: true });
    // A script run as its own service answers its response (the simulator's scripts answer none).
    const ran = await callToolOk(s, 'call_service', { operation: 'call', domain: 'script', service: 'goodnight', return_response: true });
    expect(ran.structuredContent).toHaveProperty('response');
    const e = await toolError(s, 'call_service', {
      operation: 'call',
      domain: 'light',
      service: 'turn_on',
      target: { entity_id: 'light.hallway' },
      return_response: true,
    });
    expect(e.message).toContain('gives no response');
  });

  test('a target by area reaches its entities; fields are checked against the description', async () => {
    const r = await callToolOk(s, 'call_service', { operation: 'call', domain: 'switch', service: 'turn_off', target: { area_id: 'kitchen' } });
    expect(r.structuredContent!.entities.map((x: any) => x.entity_id)).toContain('switch.coffee_maker');
    const e = await toolError(s, 'call_service', {
      operation: 'call',
      domain: 'switch',
      service: 'turn_on',
      target: { area_id: 'kitchen' },
      data: { brightness: 3 },
    });
    expect(e).toMatchObject({ code: 'INVALID_PARAMETERS', details: { field: 'data.brightness', accepted: [] } });
    const room = await toolError(s, 'call_service', { operation: 'call', domain: 'switch', service: 'turn_on', target: { room: 'kitchen' } });
    expect(room.code).toBe('INVALID_PARAMETERS');
    expect(room.message).toContain('room');
  });

  test('fires an event the hub hears, over the tool route and MCP; a field of the other operation is refused', async () => {
    const heard: unknown[] = [];
    const off = s.app.simulator!.hub.bus.listen('garden_bell', (e: { data: unknown }) => void heard.push(e.data));
    try {
      await callToolOk(s, 'call_service', { operation: 'fire_event', event_type: 'garden_bell', event_data: { rings: 2 } });
      const modern = await overMcp(s, 'modern', 'call_service', { operation: 'fire_event', event_type: 'garden_bell' });
      expect(modern.isError, JSON.stringify(modern)).toBeUndefined();
      expect(heard).toEqual([{ rings: 2 }, {}]);
    } finally {
      off();
    }
    const e = await toolError(s, 'call_service', { operation: 'fire_event', event_type: 'garden_bell', domain: 'light' });
    expect(e.details.field).toBe('domain');
  });

  test.each([
    'state_changed',
    'call_service',
    'homeassistant_stop',
    'automation_triggered',
    'automation_reloaded',
    'entity_registry_updated',
    'timer.finished',
  ])("Home Assistant's own event %s is refused, saying why", async (type) => {
    const e = await toolError(s, 'call_service', { operation: 'fire_event', event_type: type });
    expect(e).toMatchObject({ code: 'FORBIDDEN', details: { event_type: type, reserved: true } });
  });

  test('an event type in upper case is refused rather than guessed', async () => {
    const e = await toolError(s, 'call_service', { operation: 'fire_event', event_type: 'State_Changed' });
    expect(e).toMatchObject({ code: 'INVALID_PARAMETERS', details: { field: 'event_type' } });
  });
});

describe('render_template: read-only, limited, and only what the caller may see', () => {
  test('renders the common forms and lists what it read, over the tool route and MCP in both eras', async () => {
    const r = await callToolOk(s, 'render_template', {
      template:
        "{{ states('sensor.outdoor_temperature') | float + 1 }} {{ state_attr('climate.bedroom', 'temperature') }} {{ is_state('lock.front_door', 'locked') }}",
    });
    expect(r.structuredContent).toMatchObject({
      entities: expect.arrayContaining(['sensor.outdoor_temperature', 'climate.bedroom', 'lock.front_door']),
      time: false,
    });
    expect(String(r.structuredContent!.result)).toMatch(/^13\.3 \S+ (True|False)$/);
    for (const era of ['legacy', 'modern'] as const) {
      const m = await overMcp(s, era, 'render_template', { template: '{{ (7 / 2) | round }}' });
      expect(m.structuredContent?.result, JSON.stringify(m)).toBe(4);
    }
  });

  test("a template the hub cannot render is refused with the hub's words", async () => {
    const e = await toolError(s, 'render_template', { template: "{{ states('sensor.nowhere') | float }}" });
    expect(e).toMatchObject({ code: 'INVALID_PARAMETERS', details: { field: 'template' } });
    expect(e.message).toContain('float got invalid input');
  });

  test('the output is cut at TEMPLATE_MAX_OUTPUT and says so', async () => {
    const x = await startTestServer({ TEMPLATE_MAX_OUTPUT: '64' });
    try {
      const r = await callToolOk(x, 'render_template', { template: `${'a'.repeat(100)}{{ 1 }}` });
      expect(r.structuredContent).toMatchObject({ truncated: true });
      expect(String(r.structuredContent!.result)).toHaveLength(64);
    } finally {
      await x.close();
    }
  });
});

describe('read-only mode refuses events and calls, and still renders', () => {
  let r: TestServer;
  beforeAll(async () => {
    r = await startTestServer({ TOOLS_READ_ONLY: 'true' });
  });
  afterAll(() => r?.close());

  test('fire_event, call and control_entity are refused; a template renders', async () => {
    for (const [name, args] of [
      ['call_service', { operation: 'fire_event', event_type: 'garden_bell' }],
      ['call_service', { operation: 'fire_event', event_type: 'garden_bell', dry_run: true }],
      ['call_service', { operation: 'call', domain: 'switch', service: 'turn_on', target: { entity_id: 'switch.coffee_maker' } }],
      ['control_entity', { entity_id: 'select.mower_mode', service: 'select_next' }],
    ] as const) {
      const e = await toolError(r, name, args);
      expect(e, `${name} ${JSON.stringify(args)}`).toMatchObject({ code: 'FORBIDDEN', details: { read_only: true } });
    }
    expect((await callToolOk(r, 'render_template', { template: "{{ states('select.mower_mode') }}" })).structuredContent!.result).toBe('quiet');
  });
});

describe('with entities hidden from Assist, a template shows nothing of them', () => {
  let x: TestServer;
  beforeAll(async () => {
    x = await startTestServer({ TOOLS_EXPOSED_ONLY: 'true' });
    await exposeOnly(x, ['light.hallway']);
  });
  afterAll(() => x?.close());

  test('a visible entity renders; a hidden one is refused however its id is written', async () => {
    expect((await callToolOk(x, 'render_template', { template: "{{ states('light.hallway') }}" })).structuredContent!.result).toMatch(/^(on|off)$/);
    for (const template of [
      "{{ states('lock.front_door') }}",
      "{{ states('lock.' ~ 'front_door') }}",
      "{{ states('LOCK.FRONT_DOOR') }}",
      '{{ states.lock.front_door.state }}',
      "{{ is_state('lock.front_door', 'locked') }}",
      "{{ area_entities('hallway') }}",
    ]) {
      const e = await toolError(x, 'render_template', { template });
      expect(e, template).toMatchObject({ code: 'FORBIDDEN', details: { exposed: false } });
      expect(e.message, template).not.toContain('locked');
    }
  });

  test('control_entity on a hidden entity answers as if it did not exist', async () => {
    expect((await toolError(x, 'control_entity', { entity_id: 'siren.garage_siren', service: 'turn_on' })).code).toBe('INVALID_ENTITY');
  });
});

describe('commands name these kinds in English and German (the entities plugin’s words)', () => {
  test.each([
    ['en', 'turn on the garage siren', 'siren.garage_siren', 'turn_on'],
    ['en', 'start the mower', 'lawn_mower.garden_mower', 'start_mowing'],
    ['en', 'dock the lawn mower', 'lawn_mower.garden_mower', 'dock'],
    ['en', 'set the water heater to 55', 'water_heater.boiler', 'set_temperature'],
    ['de', 'schalte die Sirene ein', 'siren.garage_siren', 'turn_on'],
    ['de', 'starte den Rasenmäher', 'lawn_mower.garden_mower', 'start_mowing'],
    ['de', 'schick den Mähroboter zurück', 'lawn_mower.garden_mower', 'dock'],
    ['de', 'stelle den Boiler auf 55 Grad', 'water_heater.boiler', 'set_temperature'],
  ])('%s: %s', async (language, command, entity_id, action) => {
    const r = await s.call('/api/command', 'POST', { command, language, dry_run: true });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.actions).toEqual([expect.objectContaining({ entity_id, action })]);
  });
});
