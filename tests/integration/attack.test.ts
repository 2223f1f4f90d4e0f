// ATTACK: holes found by trying the effect checkpoint (issue 34) as an attacker would, on integ2 at
// 9255ab8, with TOOLS_DENY=lock,alarm_control_panel, REQUIRE_CONFIRMATION=true and CONFIG_EDITING=true.
// Each test failed before the fix in src/policy/effects.ts committed with it:
// - HOLE A: homeassistant.toggle of an old-style group (group.*) holding a closed garage door was
//   judged as the group's own turn_on, reaching the door as cover.turn_on (nothing to confirm);
//   Home Assistant expands the group and calls cover.toggle on the door, which opens it.
// - HOLE C: a cover's toggle was judged from its state alone: `closing` as stop_cover and `open` as
//   close_cover. Home Assistant reverses a closing cover that has no stop feature (it opens) and
//   moves a partly open one against its last movement, which the state does not show.
// - HOLE B: group.set giving a group new members, then acting on that group, was judged with the
//   members the group had before (none for a new group); Home Assistant acts on the new members.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type Answer, refusals } from '../helpers/refusals.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

let s: TestServer;
const { sim, hub, until, rest, tool, mcp, socket } = refusals(() => s, 'attack-test');

const states = () =>
  Object.fromEntries(
    sim()
      .states()
      .map((x) => [x.entity_id, x.state]),
  );
const asksForGarage = (a: Answer, what: string) => {
  expect(a.code, `${what}: ${a.message}`).toBe('CONFIRMATION_REQUIRED');
  expect(a.details.needs_confirmation.join(' '), what).toContain('opens the garage cover.garage_door');
};
const cannotTell = (a: Answer, what: string) => {
  expect(a.code, `${what}: ${a.message}`).toBe('FORBIDDEN');
  expect(a.details.unresolved?.join(' '), `${what}: ${JSON.stringify(a.details)}`).toMatch(/group/);
};

beforeAll(async () => {
  s = await startTestServer({ TOOLS_DENY: 'lock,alarm_control_panel', REQUIRE_CONFIRMATION: 'true', CONFIG_EDITING: 'true' });
  // An old-style group (as groups.yaml or group.set make) holding the closed garage door.
  await hub(
    'POST',
    '/api/states/group.garage_group',
    { state: 'closed', attributes: { entity_id: ['cover.garage_door'], friendly_name: 'Garage group' } },
    201,
  );
  // Scripts in Home Assistant's own config: one toggles that group, one makes a group of the door and toggles it.
  await hub('POST', '/api/config/script/config/flip_group', {
    alias: 'Flip group',
    sequence: [{ action: 'homeassistant.toggle', target: { entity_id: 'group.garage_group' } }],
  });
  await hub('POST', '/api/config/script/config/set_and_flip', {
    alias: 'Set and flip',
    sequence: [
      { action: 'group.set', data: { object_id: 'made_now', entities: ['cover.garage_door'] } },
      { action: 'homeassistant.toggle', target: { entity_id: 'group.made_now' } },
    ],
  });
  await hub('POST', '/api/config/script/config/grow_and_flip', {
    alias: 'Grow and flip',
    sequence: [
      { action: 'group.set', data: { object_id: 'porch', add_entities: ['cover.garage_door'] } },
      { action: 'homeassistant.toggle', target: { entity_id: 'group.porch' } },
    ],
  });
  await hub('POST', '/api/states/group.porch', { state: 'off', attributes: { entity_id: ['light.hallway'], friendly_name: 'Porch' } }, 201);
  // Two gates Home Assistant shows as state only: one closing without the stop feature, one partly open.
  await hub(
    'POST',
    '/api/states/cover.side_gate',
    { state: 'closing', attributes: { device_class: 'gate', supported_features: 3, friendly_name: 'Side gate' } },
    201,
  );
  await hub(
    'POST',
    '/api/states/cover.drive_gate',
    { state: 'open', attributes: { device_class: 'gate', supported_features: 15, current_position: 30, friendly_name: 'Drive gate' } },
    201,
  );
  await until(
    () =>
      ['cover.side_gate', 'cover.drive_gate', 'group.garage_group', 'group.porch', 'script.flip_group', 'script.set_and_flip', 'script.grow_and_flip'].every(
        (id) => s.app.hub.cache.has(id),
      ),
    'the groups and scripts',
  );
});
afterAll(() => s?.close());

describe('ATTACK hole A: toggling an old-style group toggles each member by its own state', () => {
  test('a script toggling a group that holds the closed garage door asks, on every transport', async () => {
    const before = states();
    asksForGarage(await rest('POST', '/api/device/control', { entity_id: 'script.flip_group', action: 'turn_on' }), 'REST');
    asksForGarage(await rest('POST', '/api/v1/device/control', { entity_id: 'script.flip_group', action: 'turn_on' }), '/api/v1');
    asksForGarage(await tool('run_automation', { entity_id: 'script.flip_group' }), 'tool transport');
    asksForGarage(await mcp('run_automation', { entity_id: 'script.flip_group' }, 'legacy'), 'MCP 2025');
    asksForGarage(await mcp('run_automation', { entity_id: 'script.flip_group' }, 'modern'), 'MCP 2026-07-28');
    asksForGarage(await rest('POST', '/api/command', { command: 'run flip group' }), 'command');
    asksForGarage(await socket('run flip group'), 'WebSocket');
    expect(states()).toEqual(before);
  });

  test('config editing names the opening in what the person confirms', async () => {
    const r = await s.call('/api/ha-config-changes', 'POST', {
      kind: 'script',
      op: 'create',
      id: 'flip_again',
      config: { sequence: [{ action: 'homeassistant.toggle', target: { entity_id: 'group.garage_group' } }] },
      dry_run: true,
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.needs_confirmation.join(' ')).toContain('opens the garage cover.garage_door');
  });
});

describe('ATTACK hole B: group.set changes what a group stands for, so acting on it cannot be judged', () => {
  test('a script that makes a group of the garage door and toggles it is refused, on every transport', async () => {
    const before = states();
    for (const id of ['script.set_and_flip', 'script.grow_and_flip']) {
      cannotTell(await rest('POST', '/api/device/control', { entity_id: id, action: 'turn_on' }), `REST ${id}`);
      cannotTell(await tool('run_automation', { entity_id: id }), `tool ${id}`);
      cannotTell(await mcp('run_automation', { entity_id: id }, 'legacy'), `MCP ${id}`);
    }
    cannotTell(await rest('POST', '/api/command', { command: 'run set and flip' }), 'command');
    cannotTell(await socket('run grow and flip'), 'WebSocket');
    expect(s.app.hub.cache.has('group.made_now')).toBe(false);
    expect(states()).toEqual(before);
  });

  test('config editing refuses to write it', async () => {
    for (const step of [
      { action: 'group.set', data: { object_id: 'x', entities: ['cover.garage_door'] } },
      { action: 'group.set', data: { object_id: 'porch', add_entities: 'cover.garage_door' } },
      { action: 'homeassistant.toggle', target: { entity_id: 'group.not_there_yet' } },
    ]) {
      cannotTell(
        await rest('POST', '/api/ha-config-changes', { kind: 'script', op: 'create', id: 'probe', config: { sequence: [step] }, dry_run: true }),
        JSON.stringify(step),
      );
    }
  });
});

describe('ATTACK hole C: a cover toggle that Home Assistant may turn into opening asks', () => {
  test('a closing gate without the stop feature, and a partly open gate, on every transport', async () => {
    const asks = (a: Answer, id: string, what: string) => {
      expect(a.code, `${what}: ${a.message}`).toBe('CONFIRMATION_REQUIRED');
      expect(a.details.needs_confirmation.join(' '), what).toContain(`the gate ${id}`);
    };
    for (const id of ['cover.side_gate', 'cover.drive_gate']) {
      asks(await rest('POST', '/api/device/control', { entity_id: id, action: 'toggle' }), id, `REST ${id}`);
      asks(await rest('POST', '/api/v1/device/control', { entity_id: id, action: 'toggle' }), id, `/api/v1 ${id}`);
    }
    asks(await rest('POST', '/api/command', { command: 'toggle the side gate' }), 'cover.side_gate', 'command');
    asks(await socket('toggle the drive gate'), 'cover.drive_gate', 'WebSocket');
    const r = await s.call('/api/ha-config-changes', 'POST', {
      kind: 'script',
      op: 'create',
      id: 'gates',
      config: { sequence: [{ action: 'cover.toggle', target: { entity_id: ['cover.side_gate', 'cover.drive_gate'] } }] },
      dry_run: true,
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.needs_confirmation.join(' ')).toContain('opens the gate cover.side_gate');
    expect(r.body.needs_confirmation.join(' ')).toContain('opens the gate cover.drive_gate');
  });
});

describe('ATTACK on the general service call and events (issue 35)', () => {
  test('Assist (conversation.process) cannot be asked to unlock what the lists keep out; an event cannot pose as the hub', async () => {
    const before = states();
    // The simulator has no conversation agent: a hub's own service list is what the bridge reads, so one is registered as a real hub would list it.
    sim().hub.services.register('conversation', 'process', {
      kind: 'plain',
      name: 'Process',
      description: 'Launches a conversation from a transcribed text.',
      fields: { text: { v: (x: unknown) => x, required: true, selector: { text: null } } },
      response: 'optional',
      run: () => ({}),
    });
    sim().hub.bus.fire('service_registered', { domain: 'conversation', service: 'process' });
    await until(() => s.app.hub.services.conversation?.process !== undefined, 'conversation.process listed');
    for (const era of ['legacy', 'modern'] as const) {
      const a = await mcp('call_service', { operation: 'call', domain: 'conversation', service: 'process', data: { text: 'unlock the front door' } }, era);
      expect(a.code, a.message).toBe('FORBIDDEN');
      expect(a.details.unresolved.join(' ')).toContain('Assist decides');
    }
    const viaTool = await tool('call_service', { operation: 'call', domain: 'conversation', service: 'process', data: { text: 'unlock the front door' } });
    expect(viaTool.code).toBe('FORBIDDEN');
    for (const event_type of ['state_changed', 'call_service', 'automation_reloaded', 'homeassistant_started']) {
      const e = await tool('call_service', { operation: 'fire_event', event_type });
      expect(e, event_type).toMatchObject({ code: 'FORBIDDEN', details: { reserved: true } });
    }
    expect(states()).toEqual(before);
  });
});
