// ATTACK: holes found by trying this session's new capabilities (templates, calendars, to-do lists,
// cameras, admin tools, find_tools/call_tool) as an attacker would, on integ at 3bb4ac3. Each test
// failed before the fix committed with it:
// - HOLE T1: with entities hidden from Assist, a template that fails while reading a hidden entity
//   (`{{ states('lock.front_door') | int }}`) answered Home Assistant's error message, which quotes
//   the value it could not convert: the hidden state. The hub sends such an error without saying
//   what the template read, so the listener check never ran.
// - HOLE E1: firing an event (call_service's fire_event) that an automation listens for was judged
//   as `fire_event.<type>` alone: with TOOLS_DENY=lock and REQUIRE_CONFIRMATION, firing the event
//   an automation waits for ran its unlock or garage opening with no refusal and no question. The
//   event's only effect is what listens to it, so it is judged as running those automations, as
//   automation.trigger is. Likewise `tag_scanned` (a tag trigger's event: a tag that opens a door)
//   and the integrations' button events device triggers run on (zha_event, ...) could be fired.
// - HOLE C1: render_template answered a camera's credentials: `{{ state_attr('camera.front_door',
//   'access_token') }}` or its `entity_picture` (`/api/camera_proxy/...?token=`), read by Home
//   Assistant's own template engine from the states the bridge strips them from.
// - HOLE N1: the energy tool's `prefs` answered Home Assistant's energy preferences whole in
//   structuredContent.prefs, naming meters hidden from Assist (sensor.grid_energy_import, ...) that
//   its text and `sources` left out.
// - HOLE T2: Home Assistant's registry helpers that take an entity id (area_id, area_name, floor_id,
//   floor_name, labels, is_hidden_entity, is_device_attr) answer a hidden entity's area, floor and
//   labels (and so that it exists) without reading its state, so nothing lists them as read; only
//   the helpers that list ids (area_entities, ...) were refused before rendering.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { exposeOnly } from '../helpers/exposed-only.js';
import { refusals } from '../helpers/refusals.js';
import { callToolOk } from '../helpers/tool-call.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

async function toolError(x: TestServer, name: string, args: Record<string, unknown>) {
  const r = await x.call('/api/tools/call', 'POST', { name, arguments: args });
  expect(r.body.isError, JSON.stringify(r.body)).toBe(true);
  return r.body.structuredContent.error as { code: string; message: string; details: Record<string, any> };
}

describe('with entities hidden from Assist (TOOLS_EXPOSED_ONLY)', () => {
  let x: TestServer;
  beforeAll(async () => {
    x = await startTestServer({ TOOLS_EXPOSED_ONLY: 'true' });
    await exposeOnly(x, ['light.hallway']);
  });
  afterAll(() => x?.close());

  test('HOLE T1: a template failing on a hidden entity does not quote its state in the error', async () => {
    const hidden = x.app.hub.cache.get('lock.front_door')!.state;
    for (const template of ["{{ states('lock.front_door') | int }}", "{{ states('lock.front_door') | float }}", '{{ states.lock.front_door.state | int }}']) {
      const e = await toolError(x, 'render_template', { template });
      expect(JSON.stringify(e), template).not.toContain(`'${hidden}'`);
      expect(e, template).toMatchObject({ code: 'FORBIDDEN', details: { exposed: false, error_withheld: true } });
    }
    // The hub does not say what a failed rendering read, so any failure but a syntax error is withheld.
    const seen = x.app.hub.cache.get('light.hallway')!.state;
    expect((await toolError(x, 'render_template', { template: "{{ states('light.hallway') | int }}" })).details.error_withheld).toBe(true);
    expect((await toolError(x, 'render_template', { template: '{{ 1 + }}' })).message).toMatch(/TemplateSyntaxError/);
    expect((await callToolOk(x, 'render_template', { template: "{{ states('light.hallway') }}" })).structuredContent!.result).toBe(seen);
  });

  test('HOLE N1: the energy preferences name no hidden meter', async () => {
    const r = await callToolOk(x, 'energy', { operation: 'prefs' });
    const all = JSON.stringify(r);
    for (const id of ['sensor.grid_energy_import', 'sensor.grid_energy_export', 'sensor.solar_energy', 'sensor.gas_meter']) {
      expect(x.app.services.policy.maySee(id)).toBe(false);
      expect(all, id).not.toContain(id);
    }
  });

  test('HOLE T2: registry helpers that take an entity id are refused before rendering', async () => {
    for (const [helper, template] of [
      ['area_id', "{{ area_id('lock.front_door') }}"],
      ['area_name', "{{ area_name('lock.front_door') }}"],
      ['floor_id', "{{ 'lock.front_door' | floor_id }}"],
      ['floor_name', "{{ floor_name('lock.front_door') }}"],
      ['labels', "{{ labels('lock.front_door') }}"],
      ['is_hidden_entity', "{{ is_hidden_entity('lock.front_door') }}"],
      ['is_device_attr', "{{ is_device_attr('lock.front_door', 'model', 'x') }}"],
    ]) {
      const e = await toolError(x, 'render_template', { template: template! });
      expect(e, template).toMatchObject({ code: 'FORBIDDEN', details: { helper, exposed: false } });
    }
  });
});

describe('with TOOLS_DENY=lock and REQUIRE_CONFIRMATION', () => {
  let y: TestServer;
  const { hub, until } = refusals(() => y, 'attack-capabilities');
  beforeAll(async () => {
    y = await startTestServer({ TOOLS_DENY: 'lock', REQUIRE_CONFIRMATION: 'true' });
    await hub('POST', '/api/config/automation/config/sesame', {
      alias: 'Sesame',
      triggers: [{ trigger: 'event', event_type: 'open_sesame' }],
      actions: [{ action: 'cover.open_cover', target: { entity_id: 'cover.garage_door' } }],
    });
    await hub('POST', '/api/config/automation/config/let_in', {
      alias: 'Let in',
      triggers: [{ trigger: 'event', event_type: 'let_in', event_data: { who: 'guest' } }],
      actions: [{ action: 'lock.unlock', target: { entity_id: 'lock.front_door' } }],
    });
    await until(() => y.app.hub.cache.has('automation.sesame') && y.app.hub.cache.has('automation.let_in'), 'the two automations');
  });
  afterAll(() => y?.close());

  test('HOLE E1: firing the event an automation listens for is judged as running it', async () => {
    const fire = (event_type: string, event_data?: Record<string, unknown>) =>
      toolError(y, 'call_service', { operation: 'fire_event', event_type, ...(event_data ? { event_data } : {}) });
    const ask = await fire('open_sesame');
    expect(ask.code, ask.message).toBe('CONFIRMATION_REQUIRED');
    expect(ask.details.needs_confirmation.join(' ')).toContain('cover.garage_door');
    const deny = await fire('let_in', { who: 'guest' });
    expect(deny.code, deny.message).toBe('FORBIDDEN');
    expect(deny.details.entity_ids).toContain('lock.front_door');
    for (const type of ['tag_scanned', 'zha_event']) {
      const own = await fire(type, { tag_id: 'front-door' });
      expect(own.code, `${type}: ${own.message}`).toBe('FORBIDDEN');
    }
    expect((await fire('TAG_SCANNED', { tag_id: 'front-door' })).code).toBe('INVALID_PARAMETERS');
    // An event no automation listens for (or whose data it does not match) fires as before.
    for (const [type, data] of [
      ['doorbell_test', {}],
      ['let_in', { who: 'postman' }],
    ] as const) {
      const r = await callToolOk(y, 'call_service', { operation: 'fire_event', event_type: type, event_data: data });
      expect(r.structuredContent, type).toMatchObject({ fired: true });
    }
  });
});

describe('credentials in states stay out of templates', () => {
  let z: TestServer;
  beforeAll(async () => {
    z = await startTestServer();
  });
  afterAll(() => z?.close());

  test('HOLE C1: a template cannot read a camera access_token or signed picture URL', async () => {
    const token = z.app.simulator!.states().find((x) => x.entity_id === 'camera.front_door')!.attributes.access_token as string;
    expect(token).toBeTruthy();
    for (const template of [
      "{{ state_attr('camera.front_door', 'access_token') }}",
      "{{ state_attr('camera.front_door', 'entity_picture') }}",
      '{{ states.camera.front_door.attributes.access_token }}',
      "{{ state_attr('CAMERA.FRONT_DOOR', 'access_token') | upper }}",
      // Failing on it: Home Assistant's error quotes the value.
      "{{ state_attr('camera.front_door', 'access_token') | int }}",
    ]) {
      const r = await z.call('/api/tools/call', 'POST', { name: 'render_template', arguments: { template } });
      expect(JSON.stringify(r.body), template).not.toContain(token);
      expect(JSON.stringify(r.body), template).not.toContain(token.toUpperCase());
      expect(r.body.structuredContent?.error, template).toMatchObject({ code: 'FORBIDDEN', details: { credentials: true } });
    }
    // Other entities render as before.
    expect((await callToolOk(z, 'render_template', { template: "{{ states('light.hallway') }}" })).structuredContent!.result).toMatch(/^(on|off)$/);
  });
});

describe('what held: read-only mode refuses every new way to change the home', () => {
  let r: TestServer;
  beforeAll(async () => {
    r = await startTestServer({ TOOLS_READ_ONLY: 'true' });
  });
  afterAll(() => r?.close());

  test('calendar create, to-do add and move, events, a service call: 403 read_only, nothing sent', async () => {
    const before = JSON.stringify(r.app.simulator!.states().filter((x) => /^(calendar|todo)\./.test(x.entity_id)));
    for (const [name, args] of [
      ['calendar', { operation: 'create', entity_id: 'calendar.family', summary: 'x', start: '2026-12-24T10:00', end: '2026-12-24T11:00' }],
      ['todo', { operation: 'add', list: 'todo.shopping_list', item: 'x' }],
      ['todo', { operation: 'move', list: 'todo.shopping_list', item: 'Eggs' }],
      ['call_service', { operation: 'fire_event', event_type: 'open_sesame' }],
      ['call_service', { operation: 'call', domain: 'homeassistant', service: 'turn_on', target: { entity_id: 'lock.front_door' } }],
      ['call_service', { operation: 'call', domain: 'todo', service: 'add_item', target: { entity_id: 'TODO.SHOPPING_LIST ' }, data: { item: 'x' } }],
    ] as const) {
      const e = await toolError(r, name, args);
      expect(e.code, `${name} ${JSON.stringify(args)}: ${e.message}`).toBe('FORBIDDEN');
      expect(e.details.read_only, name).toBe(true);
    }
    expect(JSON.stringify(r.app.simulator!.states().filter((x) => /^(calendar|todo)\./.test(x.entity_id)))).toBe(before);
    // Admin tools are off (ADMIN_TOOLS): not offered, 404 through call_tool's target too.
    const admin = await r.call('/api/tools/call', 'POST', { name: 'admin_registry', arguments: { operation: 'list', kind: 'area' } });
    expect(JSON.stringify(admin.body)).toMatch(/NOT_FOUND|not found|No tool/i);
  });
});
