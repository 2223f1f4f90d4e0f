// The REST tool transport over the one tool registry: listing, calling, errors, dry runs, the
// guard (read-only, deny lists), and effects read back from the hub.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { configHomeFile } from '../helpers/config-home.js';
import { refusals } from '../helpers/refusals.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(() => s?.close());

const call = (name: string, args: Record<string, unknown>, server = s) => server.call('/api/tools/call', 'POST', { name, arguments: args });
const hubState = (id: string, server = s) => server.app.simulator!.getState(id)!;

describe('GET /api/tools', () => {
  test('lists every plugin tool with its JSON Schema, output schema and annotations', async () => {
    const r = await s.call('/api/tools');
    expect(r.status).toBe(200);
    const byName = Object.fromEntries((r.body.tools as { name: string }[]).map((t) => [t.name, t]));
    expect(Object.keys(byName).sort()).toEqual([
      'app_home_state',
      'bridge_scenes',
      'calendar',
      'call_service',
      'cameras',
      'command',
      'config_change',
      'config_history',
      'config_read',
      'config_restore',
      'config_trace',
      'control_alarm',
      'control_climate',
      'control_covers',
      'control_entity',
      'control_fans',
      'control_lights',
      'control_locks',
      'control_media',
      'control_vacuums',
      'describe_entity',
      'energy',
      'get_history',
      'get_logbook',
      'get_statistics',
      'list_areas',
      'list_devices',
      'people',
      'render_template',
      'run_automation',
      'search_entities',
      'send_notification',
      'todo',
      'weather',
    ]);
    expect(byName.control_lights).toMatchObject({
      title: 'Control lights',
      inputSchema: {
        type: 'object',
        properties: { brightness_pct: { type: 'integer', minimum: 0, maximum: 100 }, command: { enum: ['on', 'off', 'toggle'] } },
        required: ['command'],
        additionalProperties: false,
      },
      outputSchema: { type: 'object' },
      annotations: { readOnlyHint: false },
    });
    expect(byName.search_entities).toMatchObject({ annotations: { readOnlyHint: true } });
    for (const t of Object.values(byName) as { name: string; description: string; inputSchema: Record<string, unknown> }[]) {
      expect(t.name.length).toBeLessThanOrEqual(64);
      // Every tool refuses what it does not name: a guessed argument is an error, never ignored.
      expect(t.inputSchema.additionalProperties, t.name).toBe(false);
    }
    // Every acting tool that switches on and off says so in the same field.
    for (const name of ['control_lights', 'control_fans'])
      expect((byName[name] as unknown as { inputSchema: { properties: Record<string, { enum?: string[] }> } }).inputSchema.properties.command?.enum).toEqual(
        expect.arrayContaining(['on', 'off']),
      );
  });

  // What a new assistant is shown is held within 6,000 tokens by tool-budget.test.ts (core tools,
  // find_tools, call_tool); REST lists every tool. Each tool's own definition stays small, so a
  // find_tools answer or a client that lists everything does not carry one oversized tool.
  test('each tool’s definition stays small: under 800 tokens (characters / 4)', async () => {
    const r = await s.call('/api/tools');
    const big = (r.body.tools as { name: string }[]).map((t) => [t.name, Math.round(JSON.stringify(t).length / 4)] as const).filter(([, n]) => n >= 800);
    expect(big).toEqual([]);
  });
});

describe('POST /api/tools/call', () => {
  test('list_devices: by area, by word, in pages, with every label', async () => {
    const kitchen = await call('list_devices', { area: 'Kitchen' });
    expect(kitchen.status).toBe(200);
    const devices = kitchen.body.structuredContent.devices as { name: string; area: string; manufacturer: string | null; entities: string[] }[];
    expect(devices.length).toBeGreaterThan(0);
    expect(devices.every((d) => d.area === 'Kitchen')).toBe(true);
    expect(devices.find((d) => d.name === 'Kitchen Light Strip')).toMatchObject({ manufacturer: 'Lumen', entities: ['light.kitchen_strip'] });
    expect(kitchen.body.structuredContent.labels).toEqual(expect.any(Array));
    const lumen = await call('list_devices', { query: 'lumen' });
    expect((lumen.body.structuredContent.devices as { manufacturer: string }[]).every((d) => d.manufacturer === 'Lumen')).toBe(true);
    const first = await call('list_devices', { limit: 2 });
    const next = first.body.structuredContent.next_cursor as string;
    expect(next).toEqual(expect.any(String));
    const second = await call('list_devices', { limit: 2, cursor: next });
    expect(second.body.structuredContent.devices[0].device_id).not.toBe(first.body.structuredContent.devices[0].device_id);
    expect((await call('list_devices', { cursor: 'nope' })).body).toMatchObject({ isError: true });
    const one = await call('list_devices', { device_id: 'kitchen_light_strip' });
    expect(one.body.structuredContent).toMatchObject({ total: 1, devices: [{ device_id: 'kitchen_light_strip', entities: ['light.kitchen_strip'] }] });
    const unknown = await call('list_devices', { device_id: 'kitchen_light_strp' });
    expect(unknown.body).toMatchObject({
      isError: true,
      structuredContent: { error: { code: 'DEVICE_NOT_FOUND', details: { device_id: 'kitchen_light_strp' } } },
    });
  });

  test('control_lights by area: every light there changes, read back from the hub, and says it matches', async () => {
    const r = await call('control_lights', { area: 'Living Room', brightness_pct: 40, command: 'on' });
    expect(r.status).toBe(200);
    expect(r.body.isError).toBeUndefined();
    const lights = r.body.structuredContent.entities as { entity_id: string; state: string; verified: boolean }[];
    expect(lights.map((l) => l.entity_id).sort()).toEqual(['light.living_room_ceiling', 'light.living_room_lamp']);
    for (const l of lights) {
      expect(l).toMatchObject({ state: 'on', verified: true });
      expect(hubState(l.entity_id).attributes.brightness).toBe(102);
    }
  });

  test('a dry run changes nothing and says what would happen', async () => {
    await call('control_lights', { entity_id: 'light.office_desk', command: 'off' });
    const r = await call('control_lights', { entity_id: 'light.office_desk', brightness_pct: 80, dry_run: true, command: 'on' });
    expect(r.body.structuredContent).toEqual({
      service: 'light.turn_on',
      dry_run: true,
      entities: [{ entity_id: 'light.office_desk', state: 'off' }],
      preview: { effects: [{ entity_id: 'light.office_desk', service: 'light.turn_on' }], may_also_run: [] },
    });
    expect(r.body.content[0].text).toMatch(/^Would call light\.turn_on on light\.office_desk with \{"brightness_pct":80\}/);
    expect(hubState('light.office_desk').state).toBe('off');
  });

  test('an argument the tool does not take is refused, naming it and the ones it takes; nothing changes', async () => {
    await call('control_lights', { entity_id: 'light.garden_lights', command: 'off' });
    for (const args of [
      { entity_id: 'light.garden_lights', action: 'turn_off' },
      { entity_id: 'light.garden_lights', state: 'off' },
      { entity_id: 'light.garden_lights', command: 'on', brightnes_pct: 40 },
    ]) {
      const r = await call('control_lights', args);
      const unknown = Object.keys(args).find((k) => !['entity_id', 'command'].includes(k))!;
      expect(r.status, JSON.stringify(r.body)).toBe(400);
      expect(r.body).toMatchObject({
        code: 'INVALID_PARAMETERS',
        details: { field: unknown, unknown_fields: [unknown], accepted_fields: expect.arrayContaining(['entity_id', 'area', 'command', 'brightness_pct']) },
      });
      expect(r.body.message).toMatch(new RegExp(`^${unknown}: is not an argument of control_lights; it takes entity_id, area, dry_run, command, `));
      expect(hubState('light.garden_lights').state).toBe('off');
    }
    // Without the on/off command nothing is guessed either.
    expect((await call('control_lights', { entity_id: 'light.garden_lights' })).body).toMatchObject({
      code: 'INVALID_PARAMETERS',
      details: { field: 'command' },
    });
    // An argument that goes with another command is refused, not ignored.
    const misplaced = await call('control_covers', { entity_id: 'cover.living_room_blinds', command: 'open', position: 30 });
    expect(misplaced.body).toMatchObject({
      isError: true,
      content: [{ text: expect.stringMatching(/^position goes with set_position or set_tilt, not with open/) }],
    });
    expect(hubState('light.garden_lights').state).toBe('off');
  });

  test('the caller’s mistakes are 404 and 400 naming the field; the tool’s are isError results that say what to do', async () => {
    expect((await call('no_such_tool', {})).status).toBe(404);
    // Arguments are an object of named values; a list is not read as one (valibot's record takes arrays).
    const list = await s.call('/api/tools/call', 'POST', { name: 'search_entities', arguments: [null, null] });
    expect(list.status).toBe(400);
    expect(list.body).toMatchObject({ code: 'INVALID_PARAMETERS', details: { field: 'arguments' } });
    const bad = await call('control_lights', { entity_id: 'light.office_desk', brightness_pct: 150, command: 'on' });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ code: 'INVALID_PARAMETERS', details: { field: 'brightness_pct' } });
    expect(bad.body.message).toBe('brightness_pct: must be at most 100');
    const none = await call('control_lights', { command: 'on' });
    expect(none.status).toBe(200);
    expect(none.body).toMatchObject({ isError: true, content: [{ type: 'text', text: expect.stringMatching(/give entity_id .* or area/) }] });
    const ghost = await call('control_lights', { area: 'Attic', command: 'on' });
    expect(ghost.body.isError).toBe(true);
    expect(ghost.body.structuredContent.error.code).toBe('INVALID_ENTITY');
  });
});

describe('the guard', () => {
  test('read-only mode refuses every actuating call, with the reason', async () => {
    const ro = await startTestServer({ TOOLS_READ_ONLY: 'true' });
    try {
      const r = await call('control_lights', { entity_id: 'light.office_desk', command: 'on' }, ro);
      expect(r.body).toMatchObject({ isError: true, structuredContent: { error: { code: 'FORBIDDEN' } } });
      expect(r.body.content[0].text).toMatch(/read-only/);
      expect(hubState('light.office_desk', ro).state).toBe('off');
      // Reading still works.
      expect((await call('search_entities', { domain: 'light' }, ro)).body.isError).toBeUndefined();
    } finally {
      await ro.close();
    }
  });

  test('a deny pattern keeps its entities out, naming them', async () => {
    const denied = await startTestServer({ TOOLS_DENY: 'light.living_room_*' });
    try {
      const r = await call('control_lights', { area: 'living room', command: 'on' }, denied);
      expect(r.body).toMatchObject({
        isError: true,
        structuredContent: { error: { code: 'FORBIDDEN', details: { entity_ids: ['light.living_room_ceiling', 'light.living_room_lamp'] } } },
      });
      expect((await call('control_lights', { entity_id: 'light.office_desk', command: 'on' }, denied)).body.isError).toBeUndefined();
    } finally {
      await denied.close();
    }
  });
});

describe('what is listed is what may be called', () => {
  // A home with lights, a lock and a script but no vacuum, and config editing off (the default):
  // control_vacuums and config_change are not offered, so calling them is refused, on every
  // transport, the same way; they do not run.
  let small: TestServer;
  beforeAll(async () => {
    small = await startTestServer({ SIM_HOME: configHomeFile() });
  });
  afterAll(() => small?.close());
  const probe = refusals(() => small, 'offered-test');

  test('a tool not offered to this caller is refused with FORBIDDEN saying why, over REST and MCP alike, and an unknown one is 404', async () => {
    const client = new Client({ name: 'offered-test', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${small.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${small.token}` } } }),
    );
    const listed = (await client.listTools()).tools.map((t) => t.name);
    await client.close();
    expect(listed).toEqual(expect.arrayContaining(['control_lights', 'control_locks', 'config_read']));
    expect(listed).not.toContain('control_vacuums');
    expect(listed).not.toContain('config_change');

    const vacuum = { entity_id: 'vacuum.anything', command: 'start' };
    const change = { kind: 'helper', op: 'create', id: 'input_boolean', config: { name: 'Guest mode' }, reason: 'guests', dry_run: true };
    for (const answer of [await probe.tool('control_vacuums', vacuum), await probe.mcp('control_vacuums', vacuum)]) {
      expect(answer).toMatchObject({ code: 'FORBIDDEN', details: { tool: 'control_vacuums', offered: false } });
      expect(answer.message).toMatch(/not offered now/);
    }
    for (const answer of [
      await probe.tool('config_change', change),
      await probe.mcp('config_change', change),
      await probe.mcp('config_change', change, 'modern'),
    ]) {
      expect(answer).toMatchObject({ code: 'FORBIDDEN', details: { tool: 'config_change', offered: false, config_editing: false } });
      expect(answer.message).toMatch(/CONFIG_EDITING/);
    }
    // Nothing was made.
    expect(small.app.services.home.ids().filter((id) => id.startsWith('input_boolean.'))).toEqual(['input_boolean.bedtime']);

    const unknown = await call('control_nothing', {}, small);
    expect(unknown.status).toBe(404);
    expect(JSON.stringify(unknown.body)).toMatch(/NOT_FOUND/);
    // A tool that is offered still runs.
    expect((await call('control_lights', { entity_id: 'light.desk', command: 'on' }, small)).body.isError).toBeUndefined();
  });
});
