// The seven attacks, replayed on every transport they used, against the simulator with
// TOOLS_DENY=lock,alarm_control_panel, REQUIRE_CONFIRMATION=true and CONFIG_EDITING=true, plus a
// Home Assistant script that unlocks the front door and a Home Assistant scene that unlocks the
// back door, both made in the hub's own config. Each is refused or asks, and nothing changes.
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { exposeOnly } from '../helpers/exposed-only.js';
import { type Answer, refusals } from '../helpers/refusals.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

let s: TestServer;
const { sim, hub, until, rest, tool, mcp, socket } = refusals(() => s, 'effects-test');

const states = () =>
  Object.fromEntries(
    sim()
      .states()
      .map((x) => [x.entity_id, JSON.stringify([x.state, x.attributes.current_position ?? null])]),
  );
const changeConfig = (config: Record<string, unknown>, id = 'upper') =>
  rest('POST', '/api/ha-config-changes', { kind: 'script', op: 'create', id, config, dry_run: true });
const denied = (a: Answer, what: string) => {
  expect(a.code, `${what}: ${a.message}`).toBe('FORBIDDEN');
  expect(a.details.entity_ids ?? a.details.unresolved ?? a.details.templated, `${what}: ${JSON.stringify(a.details)}`).toBeDefined();
  if (a.details.entity_ids)
    expect(
      a.details.entity_ids.some((id: string) => /^(lock|alarm_control_panel)\./.test(id)),
      what,
    ).toBe(true);
};

beforeAll(async () => {
  s = await startTestServer({ TOOLS_DENY: 'lock,alarm_control_panel', REQUIRE_CONFIRMATION: 'true', CONFIG_EDITING: 'true' });
  // The home as the issue found it: both doors locked, a script and a scene in the hub's own config that unlock.
  await hub('POST', '/api/services/lock/lock', { entity_id: 'lock.back_door' });
  await hub('POST', '/api/config/script/config/unlocker', {
    alias: 'Unlocker',
    sequence: [{ action: 'lock.unlock', target: { entity_id: 'lock.front_door' } }],
  });
  await hub('POST', '/api/config/scene/config/1700000000001', { name: 'Open house', entities: { 'lock.back_door': { state: 'unlocked' } } });
  // A script that toggles the garage door, and an automation Home Assistant runs by itself when the door opens.
  await hub('POST', '/api/config/script/config/flip_garage', {
    alias: 'Flip garage',
    sequence: [{ action: 'cover.toggle', target: { entity_id: 'cover.garage_door' } }],
  });
  await hub('POST', '/api/config/automation/config/garage_light', {
    alias: 'Garage light',
    triggers: [{ trigger: 'state', entity_id: 'cover.garage_door', to: 'open' }],
    actions: [{ action: 'light.turn_on', target: { entity_id: 'light.hallway' } }],
  });
  await until(() => s.app.hub.cache.has('script.flip_garage') && s.app.hub.cache.has('automation.garage_light'), 'the garage script and automation');
  await until(
    () => s.app.hub.cache.has('script.unlocker') && s.app.hub.cache.has('scene.open_house') && s.app.hub.cache.get('lock.back_door')?.state === 'locked',
    'the script, the scene and a locked back door',
  );
  // A bridge scene and group holding the garage door's toggle, stored through the bridge.
  expect((await s.call('/api/scene', 'POST', { name: 'Garage flip', actions: [{ entity_id: 'cover.garage_door', action: 'toggle' }] })).status).toBe(200);
  expect((await s.call('/api/group', 'POST', { name: 'Garage', entities: ['cover.garage_door'] })).status).toBe(200);
});
afterAll(() => s?.close());

describe("the issue's attacks, each refused or asking, nothing changed", () => {
  test('1: upper case, ALL, comma lists in a config written through config editing are read as the hub reads them', async () => {
    const before = states();
    for (const target of ['LOCK.FRONT_DOOR', 'ALL', 'ALARM_CONTROL_PANEL.SECURITY', 'light.hallway, LOCK.FRONT_DOOR']) {
      denied(await changeConfig({ sequence: [{ action: 'lock.unlock', target: { entity_id: target } }] }), target);
    }
    denied(await changeConfig({ sequence: [{ action: 'script.turn_on', target: { entity_id: 'SCRIPT.UNLOCKER' } }] }), 'SCRIPT.UNLOCKER');
    denied(await changeConfig({ sequence: [{ action: 'LOCK.UNLOCK', target: { entity_id: 'lock.front_door' } }] }), 'LOCK.UNLOCK');
    // The same through MCP's config_change.
    denied(
      await mcp('config_change', {
        kind: 'script',
        op: 'create',
        id: 'upper',
        config: { sequence: [{ action: 'lock.unlock', target: { entity_id: 'LOCK.FRONT_DOOR' } }] },
        dry_run: true,
      }),
      'MCP config_change',
    );
    expect(s.app.hub.cache.has('script.upper')).toBe(false);
    expect(states()).toEqual(before);
  });

  test('2: scene.apply in a config names its entities as keys of entities: they are judged', async () => {
    denied(await changeConfig({ sequence: [{ action: 'scene.apply', data: { entities: { 'lock.back_door': 'unlocked' } } }] }), 'scene.apply');
    denied(await changeConfig({ sequence: [{ action: 'scene.create', data: { scene_id: 'x', entities: { 'LOCK.BACK_DOOR': 'unlocked' } } }] }), 'scene.create');
  });

  test('3: homeassistant.turn_on/toggle of a script and scene.turn_on of a scene that unlocks are followed', async () => {
    for (const step of [
      { action: 'homeassistant.turn_on', target: { entity_id: 'script.unlocker' } },
      { action: 'homeassistant.toggle', target: { entity_id: 'script.unlocker' } },
      { action: 'scene.turn_on', target: { entity_id: 'scene.open_house' } },
      { scene: 'scene.open_house' },
      { action: 'script.unlocker' },
    ]) {
      denied(await changeConfig({ sequence: [step] }), JSON.stringify(step));
    }
  });

  test("4: running the hub's own script or scene is judged by what it does, on every transport", async () => {
    const before = states();
    const attempts: [string, () => Promise<Answer>][] = [
      ['tool run_automation script', () => tool('run_automation', { entity_id: 'script.unlocker' })],
      ['tool run_automation scene', () => tool('run_automation', { entity_id: 'scene.open_house' })],
      ['REST device control turn_on', () => rest('POST', '/api/device/control', { entity_id: 'script.unlocker', action: 'turn_on' })],
      ['REST device control, upper case', () => rest('POST', '/api/device/control', { entity_id: 'SCRIPT.UNLOCKER', action: 'turn_on' })],
      ['REST /api/v1 device control', () => rest('POST', '/api/v1/device/control', { entity_id: 'scene.open_house', action: 'turn_on' })],
      ['REST command', () => rest('POST', '/api/command', { command: 'run unlocker' })],
      ['WebSocket command', () => socket('run unlocker')],
      ['MCP run_automation', () => mcp('run_automation', { entity_id: 'script.unlocker' })],
      ['MCP 2026-07-28 run_automation', () => mcp('run_automation', { entity_id: 'scene.open_house' }, 'modern')],
      ['MCP command', () => mcp('command', { command: 'run unlocker' })],
    ];
    for (const [what, attempt] of attempts) {
      const a = await attempt();
      denied(a, what);
      // The command's own words are the language's; every other transport names the effect and how it is reached.
      if (!what.includes('command')) expect(a.message, what).toMatch(/lock\.(front|back)_door \((running script\.unlocker|activating scene\.open_house)\)/);
    }
    expect(states()).toEqual(before);
  });

  test("5: a closed garage door's toggle asks, like open, on every way of toggling it", async () => {
    const before = states();
    const attempts: [string, () => Promise<Answer>][] = [
      ['REST', () => rest('POST', '/api/device/control', { entity_id: 'cover.garage_door', action: 'toggle' })],
      ['REST /api/v1', () => rest('POST', '/api/v1/device/control', { entity_id: 'cover.garage_door', action: 'toggle' })],
      ['REST command', () => rest('POST', '/api/command', { command: 'toggle the garage door' })],
      ['WebSocket command', () => socket('toggle the garage door')],
      ['bridge scene', () => rest('POST', '/api/scene/garage_flip/activate')],
      ['bridge group', () => rest('POST', '/api/group/garage/control', { action: 'toggle' })],
      ['tool bridge_scenes control_group', () => tool('bridge_scenes', { command: 'control_group', name: 'Garage', action: 'toggle' })],
      ['MCP command', () => mcp('command', { command: 'toggle the garage door' })],
    ];
    for (const [what, attempt] of attempts) {
      const a = await attempt();
      expect(a.code, `${what}: ${a.message}`).toBe('CONFIRMATION_REQUIRED');
    }
    expect(states()).toEqual(before);
    expect(s.app.hub.cache.get('cover.garage_door')?.state).toBe('closed');
  });

  test('the general service call and control_entity (issue 35) are judged by what they do, on the tool route and MCP in both eras', async () => {
    const before = states();
    const calls: [string, Record<string, unknown>][] = [
      ['call_service lock.unlock', { operation: 'call', domain: 'lock', service: 'unlock', target: { entity_id: 'lock.front_door' } }],
      [
        'call_service homeassistant.turn_on, upper case',
        { operation: 'call', domain: 'homeassistant', service: 'turn_on', target: { entity_id: 'LOCK.FRONT_DOOR' } },
      ],
      ['call_service script.turn_on', { operation: 'call', domain: 'script', service: 'turn_on', target: { entity_id: 'script.unlocker' } }],
      ['call_service script.<name>', { operation: 'call', domain: 'script', service: 'unlocker' }],
      [
        'call_service homeassistant.turn_on of the script',
        { operation: 'call', domain: 'homeassistant', service: 'turn_on', target: { entity_id: 'script.unlocker' } },
      ],
      ['call_service scene.turn_on', { operation: 'call', domain: 'scene', service: 'turn_on', target: { entity_id: 'scene.open_house' } }],
      ['call_service scene.apply', { operation: 'call', domain: 'scene', service: 'apply', data: { entities: { 'lock.back_door': 'unlocked' } } }],
      ['call_service by area', { operation: 'call', domain: 'lock', service: 'unlock', target: { area_id: 'hallway' } }],
      ['call_service fire_event naming the lock', { operation: 'fire_event', event_type: 'open_sesame', event_data: { entity_id: 'lock.front_door' } }],
    ];
    const attempts: [string, () => Promise<Answer>][] = [
      ...calls.map(([what, args]): [string, () => Promise<Answer>] => [`tool ${what}`, () => tool('call_service', args)]),
      ...calls.map(([what, args]): [string, () => Promise<Answer>] => [`MCP ${what}`, () => mcp('call_service', args)]),
      ...calls.map(([what, args]): [string, () => Promise<Answer>] => [`MCP 2026-07-28 ${what}`, () => mcp('call_service', args, 'modern')]),
      ['tool control_entity lock', () => tool('control_entity', { entity_id: 'lock.front_door', service: 'unlock' })],
      ['tool control_entity script', () => tool('control_entity', { entity_id: 'script.unlocker', service: 'turn_on' })],
      ['MCP control_entity scene', () => mcp('control_entity', { entity_id: 'scene.open_house', service: 'turn_on' }, 'modern')],
    ];
    for (const [what, attempt] of attempts) denied(await attempt(), what);
    // The garage door's toggle asks through the general call as everywhere else.
    const toggle = { operation: 'call', domain: 'cover', service: 'toggle', target: { entity_id: 'cover.garage_door' } };
    expect((await tool('call_service', toggle)).code).toBe('CONFIRMATION_REQUIRED');
    expect((await tool('control_entity', { entity_id: 'cover.garage_door', service: 'toggle' })).code).toBe('CONFIRMATION_REQUIRED');
    expect(states()).toEqual(before);
  });

  test('6: a target or data given whole as a template, and data_template, are refused', async () => {
    for (const step of [
      { action: 'light.turn_on', target: "{{ {'entity_id': 'lock.front_door'} }}" },
      { action: 'lock.unlock', data: "{{ {'entity_id': 'lock.front_door'} }}" },
      { action: 'lock.unlock', data_template: { entity_id: "{{ 'lock.front_door' }}" } },
    ]) {
      const a = await changeConfig({ sequence: [step] });
      expect(a.code, JSON.stringify(step)).toBe('FORBIDDEN');
      expect(a.details.templated ?? a.details.unresolved, JSON.stringify(a.details)).toBeDefined();
    }
  });

  test('7: a registry id in a device action or a target stands for its entity', async () => {
    const entry = s.app.hub.registries.entities.get('lock.front_door');
    expect(entry?.id).toMatch(/^[0-9a-f]{32}$/);
    const device = entry!.device_id!;
    denied(await changeConfig({ sequence: [{ device_id: device, domain: 'lock', entity_id: entry!.id, type: 'unlock' }] }), 'device action by registry id');
    denied(await changeConfig({ sequence: [{ device_id: device, domain: 'lock', type: 'unlock' }] }), 'device action on the device');
    denied(await changeConfig({ sequence: [{ action: 'lock.unlock', target: { entity_id: entry!.id } }] }), 'target by registry id');
    denied(await changeConfig({ sequence: [{ action: 'lock.unlock', target: { device_id: device } }] }), 'target by device');
  });

  test("config editing's confirmation names what a written config would do", async () => {
    const r = await s.call('/api/ha-config-changes', 'POST', {
      kind: 'script',
      op: 'create',
      id: 'garage_flip',
      config: { sequence: [{ action: 'cover.toggle', target: { entity_id: 'cover.garage_door' } }] },
      dry_run: true,
    });
    expect(r.status).toBe(200);
    expect(r.body.needs_confirmation).toEqual(['creating script garage_flip', 'toggling cover.garage_door opens the garage cover.garage_door']);
  });

  test('a dry run and the MCP preview show the effects and the automations that may also run', async () => {
    const garage = { entity_id: 'cover.garage_door', service: 'cover.open_cover', via: 'running script.flip_garage', needs_confirmation: true };
    const may = [{ automation: 'automation.garage_light', because: 'its trigger watches cover.garage_door' }];
    const viaTool = await s.call('/api/tools/call', 'POST', { name: 'run_automation', arguments: { entity_id: 'script.flip_garage', dry_run: true } });
    expect(viaTool.body.structuredContent).toMatchObject({ dry_run: true, preview: { effects: expect.arrayContaining([garage]), may_also_run: may } });
    // The same preview over MCP, held to the tool's published output schema by the client.
    const client = new Client({ name: 'effects-preview', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${s.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${s.token}` } } }));
    try {
      const r = (await client.callTool({ name: 'run_automation', arguments: { entity_id: 'script.flip_garage', dry_run: true } })) as {
        isError?: boolean;
        structuredContent?: Record<string, any>;
      };
      expect(r.isError, JSON.stringify(r)).toBeFalsy();
      expect(r.structuredContent).toMatchObject({ preview: { effects: expect.arrayContaining([garage]), may_also_run: may } });
    } finally {
      await client.close();
    }
    expect(viaTool.body.content[0].text).toContain('Home Assistant may also run automation.garage_light');
    const viaCommand = await s.call('/api/command', 'POST', { command: 'toggle the garage door', dry_run: true });
    expect(viaCommand.status).toBe(200);
    expect(viaCommand.body).toMatchObject({
      dry_run: true,
      effects: [{ entity_id: 'cover.garage_door', service: 'cover.open_cover', via: 'toggling cover.garage_door', needs_confirmation: true }],
      may_also_run: may,
    });
    const viaConfig = await s.call('/api/ha-config-changes', 'POST', {
      kind: 'script',
      op: 'create',
      id: 'outer',
      config: { sequence: [{ action: 'script.flip_garage' }] },
      dry_run: true,
    });
    expect(viaConfig.body).toMatchObject({ effects: expect.arrayContaining([garage]), may_also_run: may });
    expect(viaConfig.body.needs_confirmation).toContain('running script.flip_garage opens the garage cover.garage_door');
    expect(s.app.hub.cache.get('cover.garage_door')?.state).toBe('closed');
  });
});

describe('exposure judges effects too', () => {
  let x: TestServer;
  beforeAll(async () => {
    x = await startTestServer({ TOOLS_EXPOSED_ONLY: 'true' });
    const sim2 = x.app.simulator!;
    const r = await fetch(`${sim2.url}/api/config/script/config/unlocker`, {
      method: 'POST',
      headers: { authorization: `Bearer ${sim2.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ alias: 'Unlocker', sequence: [{ action: 'lock.unlock', target: { entity_id: 'lock.front_door' } }] }),
    });
    expect(r.status).toBe(200);
    await until(() => x.app.hub.cache.has('script.unlocker'), 'the script');
    // The script is exposed to Assist; the lock it unlocks is not.
    await exposeOnly(x, ['script.unlocker']);
  });
  afterAll(() => x?.close());

  test('running an exposed script that unlocks a hidden lock is refused on REST, the tool transport and MCP', async () => {
    const before = x.app.hub.cache.get('lock.front_door')?.state;
    const viaRest = await x.call('/api/device/control', 'POST', { entity_id: 'script.unlocker', action: 'turn_on' });
    expect(viaRest.status).toBe(403);
    expect(viaRest.body.details).toMatchObject({ entity_ids: ['lock.front_door'], exposed: false });
    const viaTool = await x.call('/api/tools/call', 'POST', { name: 'run_automation', arguments: { entity_id: 'script.unlocker' } });
    expect(viaTool.body.structuredContent.error).toMatchObject({ code: 'FORBIDDEN', details: { entity_ids: ['lock.front_door'], exposed: false } });
    expect(x.app.hub.cache.get('lock.front_door')?.state).toBe(before);
  });
});
