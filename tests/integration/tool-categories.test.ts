// Every tool of every category, called through POST /api/tools/call against the simulator, its
// effect read back from the hub; dry runs change nothing; confirmations hold.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(() => s?.close());

type Result = { isError?: boolean; content: { text: string }[]; structuredContent?: Record<string, any> };
const call = async (name: string, args: Record<string, unknown>): Promise<Result> => {
  const r = await s.call('/api/tools/call', 'POST', { name, arguments: args });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body as Result;
};
const ok = async (name: string, args: Record<string, unknown>) => {
  const r = await call(name, args);
  expect(r.isError, r.content[0]?.text).toBeUndefined();
  return r;
};
const refused = async (name: string, args: Record<string, unknown>, code: string) => {
  const r = await call(name, args);
  expect(r.isError, r.content[0]?.text).toBe(true);
  expect(r.structuredContent?.error.code).toBe(code);
  return r;
};
const hub = (id: string) => s.app.simulator!.getState(id)!;
const eventually = async (check: () => void) => {
  for (let i = 0; ; i++) {
    try {
      return check();
    } catch (err) {
      if (i > 100) throw err;
      await new Promise((r) => setTimeout(r, 50));
    }
  }
};

describe('covers', () => {
  test('a position, and a garage door that opens only when confirmed', async () => {
    await ok('control_covers', { entity_id: 'cover.bedroom_curtains', command: 'set_position', position: 40 });
    await eventually(() => expect(hub('cover.bedroom_curtains').attributes.current_position).toBe(40));
    const held = await refused('control_covers', { entity_id: 'cover.garage_door', command: 'open' }, 'CONFIRMATION_REQUIRED');
    expect(held.content[0]!.text).toMatch(/confirm: true/);
    expect(hub('cover.garage_door').state).toBe('closed');
    await ok('control_covers', { entity_id: 'cover.garage_door', command: 'open', confirm: true });
    expect(['opening', 'open']).toContain(hub('cover.garage_door').state);
    const missing = await call('control_covers', { entity_id: 'cover.bedroom_curtains', command: 'set_position' });
    expect(missing).toMatchObject({ isError: true, content: [{ text: 'set_position needs position (0-100).' }] });
  });
});

describe('locks', () => {
  test('lock at once; unlock only when confirmed', async () => {
    await ok('control_locks', { entity_id: 'lock.back_door', command: 'lock' });
    await eventually(() => expect(hub('lock.back_door').state).toBe('locked'));
    await refused('control_locks', { entity_id: 'lock.back_door', command: 'unlock' }, 'CONFIRMATION_REQUIRED');
    expect(hub('lock.back_door').state).toBe('locked');
    await ok('control_locks', { entity_id: 'lock.back_door', command: 'unlock', confirm: true });
    await eventually(() => expect(hub('lock.back_door').state).toBe('unlocked'));
  });
});

describe('fans, vacuums, media, climate', () => {
  test('fan speed', async () => {
    const r = await ok('control_fans', { entity_id: 'fan.living_room_fan', command: 'set_speed', percentage: 50 });
    expect(r.structuredContent!.entities[0]).toMatchObject({ entity_id: 'fan.living_room_fan', verified: true });
    expect(hub('fan.living_room_fan').attributes.percentage).toBe(50);
  });

  test('vacuum start, and a fan speed it does not list', async () => {
    await ok('control_vacuums', { entity_id: 'vacuum.robot_vacuum', command: 'start' });
    expect(hub('vacuum.robot_vacuum').state).toBe('cleaning');
    const r = await refused('control_vacuums', { entity_id: 'vacuum.robot_vacuum', command: 'set_fan_speed', fan_speed: 'turbo' }, 'INVALID_PARAMETERS');
    expect(r.structuredContent!.error.details.allowed).toEqual(['min', 'medium', 'high', 'max']);
  });

  test('media source and volume', async () => {
    await ok('control_media', { entity_id: 'media_player.living_room_tv', command: 'turn_on' });
    await ok('control_media', { entity_id: 'media_player.living_room_tv', command: 'select_source', source: 'Netflix' });
    expect(hub('media_player.living_room_tv').attributes.source).toBe('Netflix');
    await ok('control_media', { entity_id: 'media_player.living_room_tv', command: 'volume_set', volume_level: 0.5 });
    expect(hub('media_player.living_room_tv').attributes.volume_level).toBe(0.5);
  });

  test('climate temperature; one setting per call', async () => {
    const r = await ok('control_climate', { entity_id: 'climate.hallway', temperature: 22 });
    expect(r.structuredContent!.entities[0]).toMatchObject({ verified: true });
    expect(hub('climate.hallway').attributes.temperature).toBe(22);
    const mixed = await call('control_climate', { entity_id: 'climate.hallway', temperature: 22, fan_mode: 'auto' });
    expect(mixed).toMatchObject({ isError: true, content: [{ text: 'One setting per call: got temperature, fan_mode.' }] });
  });
});

describe('alarm', () => {
  test('arm with the code; disarm only when confirmed', async () => {
    await ok('control_alarm', { entity_id: 'alarm_control_panel.security', command: 'arm_home', code: '1234' });
    await eventually(() => expect(hub('alarm_control_panel.security').state).toBe('armed_home'));
    await refused('control_alarm', { entity_id: 'alarm_control_panel.security', command: 'disarm', code: '1234' }, 'CONFIRMATION_REQUIRED');
    await ok('control_alarm', { entity_id: 'alarm_control_panel.security', command: 'disarm', code: '1234', confirm: true });
    await eventually(() => expect(hub('alarm_control_panel.security').state).toBe('disarmed'));
  });
});

describe('notify', () => {
  test('a persistent notification appears in the hub; an unknown notify service names the known ones', async () => {
    const r = await ok('send_notification', { message: 'Dinner is ready', title: 'Kitchen', persistent: true });
    expect(r.content[0]!.text).toBe('Sent through persistent_notification.create.');
    const bad = await refused('send_notification', { message: 'x', service: 'no_such_phone' }, 'INVALID_ACTION');
    expect(bad.structuredContent!.error.details).toMatchObject({
      available_services: ['living_room_tv', 'mobile_app_phone'],
      entities: ['notify.kitchen_display'],
    });
    const both = await refused('send_notification', { message: 'x', service: 'mobile_app_phone', persistent: true }, 'INVALID_PARAMETERS');
    expect(both.content[0]!.text).toBe('Give one of entity_id, service or persistent, not service and persistent.');
  });

  test('with no notify.notify (Home Assistant 2026.11), the only notify entity gets it through notify.send_message; a legacy service by name', async () => {
    const before = s.app.simulator!.notifyMessages.length;
    expect((await ok('send_notification', { message: 'x', dry_run: true })).content[0]!.text).toBe(
      'Would call notify.send_message to notify.kitchen_display with {"message":"x"}.',
    );
    expect((await ok('send_notification', { message: 'Dinner', title: 'Kitchen' })).content[0]!.text).toBe(
      'Sent through notify.send_message to notify.kitchen_display.',
    );
    expect((await ok('send_notification', { message: 'Door', service: 'mobile_app_phone' })).content[0]!.text).toBe('Sent through notify.mobile_app_phone.');
    expect(s.app.simulator!.notifyMessages.slice(before)).toEqual([
      expect.objectContaining({ service: 'send_message', target: 'notify.kitchen_display', message: 'Dinner', title: 'Kitchen' }),
      expect.objectContaining({ service: 'mobile_app_phone', message: 'Door' }),
    ]);
    const unknown = await refused('send_notification', { message: 'x', entity_id: 'notify.attic' }, 'INVALID_ENTITY');
    expect(unknown.structuredContent!.error.details.available_entities).toContain('notify.kitchen_display');
  });
});

describe('automation', () => {
  test('run a scene and a script of the hub; enable and disable an automation', async () => {
    await ok('run_automation', { entity_id: 'scene.movie_night' });
    await ok('run_automation', { entity_id: 'automation.hallway_motion_light', command: 'disable' });
    expect(hub('automation.hallway_motion_light').state).toBe('off');
    await ok('run_automation', { entity_id: 'automation.hallway_motion_light', command: 'enable' });
    expect(hub('automation.hallway_motion_light').state).toBe('on');
    const wrong = await refused('run_automation', { entity_id: 'scene.movie_night', command: 'disable' }, 'INVALID_ACTION');
    expect(wrong.content[0]!.text).toMatch(/for automations/);
  });

  test('the bridge’s own scenes: capture, list, activate; groups: list and control', async () => {
    await ok('control_lights', { entity_id: 'light.office_desk', brightness_pct: 30, command: 'on' });
    const captured = await ok('bridge_scenes', { command: 'capture_scene', name: 'Desk dim', entities: ['light.office_desk'] });
    expect(captured.structuredContent!.scene.id).toBe('desk_dim');
    expect((await ok('bridge_scenes', { command: 'list_scenes' })).structuredContent!.scenes.map((x: { id: string }) => x.id)).toContain('desk_dim');
    await ok('control_lights', { entity_id: 'light.office_desk', command: 'off' });
    await ok('bridge_scenes', { command: 'activate_scene', name: 'Desk dim' });
    expect(hub('light.office_desk').state).toBe('on');
    await s.call('/api/group', 'POST', { name: 'Desk', entities: ['light.office_desk'] });
    await ok('bridge_scenes', { command: 'control_group', name: 'desk', action: 'turn_off' });
    expect(hub('light.office_desk').state).toBe('off');
    await refused('bridge_scenes', { command: 'activate_scene' }, 'INVALID_PARAMETERS');
  });
});

describe('dry runs change nothing, in every acting category', () => {
  test.each([
    ['control_covers', { entity_id: 'cover.living_room_blinds', command: 'close' }, 'cover.living_room_blinds'],
    ['control_locks', { entity_id: 'lock.garden_gate', command: 'unlock', confirm: true }, 'lock.garden_gate'],
    ['control_fans', { entity_id: 'fan.bedroom_fan', command: 'off' }, 'fan.bedroom_fan'],
    ['control_vacuums', { entity_id: 'vacuum.robot_vacuum', command: 'return_to_base' }, 'vacuum.robot_vacuum'],
    ['control_media', { entity_id: 'media_player.living_room_tv', command: 'turn_off' }, 'media_player.living_room_tv'],
    ['control_climate', { entity_id: 'climate.hallway', hvac_mode: 'off' }, 'climate.hallway'],
    ['control_alarm', { entity_id: 'alarm_control_panel.security', command: 'arm_away', code: '1234' }, 'alarm_control_panel.security'],
    ['run_automation', { entity_id: 'automation.garden_lights_at_sunset', command: 'disable' }, 'automation.garden_lights_at_sunset'],
  ])('%s %o', async (name, args, entity) => {
    const before = hub(entity);
    const r = await ok(name, { ...args, dry_run: true });
    expect(r.structuredContent!.dry_run).toBe(true);
    expect(r.content[0]!.text).toMatch(/^Would call /);
    expect(hub(entity).state).toBe(before.state);
    expect(hub(entity).attributes).toEqual(before.attributes);
  });
});

describe('discovery', () => {
  test('search pages with a cursor, never repeating or losing an entity; fields choose what comes back', async () => {
    const all = (await ok('search_entities', { domain: 'light', limit: 100 })).structuredContent!;
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = (await ok('search_entities', { domain: 'light', limit: 2, ...(cursor ? { cursor } : {}) })).structuredContent!;
      seen.push(...page.entities.map((e: { entity_id: string }) => e.entity_id));
      expect(page.total).toBe(all.total);
      cursor = page.next_cursor ?? undefined;
    } while (cursor);
    expect(seen).toEqual(all.entities.map((e: { entity_id: string }) => e.entity_id));
    const slim = (await ok('search_entities', { domain: 'lock', fields: ['entity_id', 'state'] })).structuredContent!;
    for (const e of slim.entities) expect(Object.keys(e)).toEqual(['entity_id', 'state']);
    await refused('search_entities', { cursor: 'forged' }, 'INVALID_PARAMETERS');
  });

  test('search by floor, label and state', async () => {
    const onFloor = (await ok('search_entities', { floor: 'ground floor', limit: 100 })).structuredContent!;
    expect(onFloor.total).toBeGreaterThan(0);
    const security = (await ok('search_entities', { label: 'security', domain: 'lock' })).structuredContent!;
    expect(security.entities.map((e: { entity_id: string }) => e.entity_id)).toContain('lock.front_door');
    const offLights = (await ok('search_entities', { domain: 'light', state: 'off', limit: 100 })).structuredContent!;
    for (const e of offLights.entities) expect(e.state).toBe('off');
  });

  test('areas with their floors and counts; one entity described in full', async () => {
    const r = (await ok('list_areas', {})).structuredContent!;
    const kitchen = r.areas.find((a: { area_id: string }) => a.area_id === 'kitchen');
    expect(kitchen.entities.light).toBeGreaterThan(0);
    expect(r.floors.length).toBeGreaterThan(0);
    const d = (await ok('describe_entity', { entity_id: 'lock.front_door' })).structuredContent!;
    expect(d).toMatchObject({ entity_id: 'lock.front_door', labels: ['Security'] });
    expect(d.supported_actions).toContain('unlock');
    const ghost = await refused('describe_entity', { entity_id: 'light.ghost' }, 'INVALID_ENTITY');
    expect(ghost.structuredContent!.error.details.available_entities.length).toBeGreaterThan(0);
  });
});
