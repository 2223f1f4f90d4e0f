// The tools against the real Home Assistant: one acting tool per category the demo has an entity
// for, called through the bridge's /api/tools/call, each effect read back from Home Assistant.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { callToolOk } from '../helpers/tool-call.js';
import { RawClient } from '@home-mcp-bridge/sim/testing';
import { DEMO_VACUUM, per } from './ha-control.js';
import { eventually, haStateOf, HASS_TOKEN, HASS_URL } from './ha-rest.js';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({ HASS_URL, HASS_TOKEN });
  await s.app.hub.ready(30_000);
});
afterAll(() => s?.close());

const tool = (name: string, args: Record<string, unknown>) => callToolOk(s, name, args);

describe('one tool per category, read back from Home Assistant', () => {
  test('lights: brightness', async () => {
    const r = await tool('control_lights', { entity_id: 'light.bed_light', brightness_pct: 50, command: 'on' });
    expect(r.structuredContent!.entities[0]).toMatchObject({ entity_id: 'light.bed_light', state: 'on', verified: true });
    expect((await haStateOf('light.bed_light')).attributes.brightness).toBe(128);
  });

  test('climate: target temperature', async () => {
    await tool('control_climate', { entity_id: 'climate.hvac', temperature: 23 });
    expect((await haStateOf('climate.hvac')).attributes.temperature).toBe(23);
  });

  test('covers: a position, reached over time', async () => {
    await tool('control_covers', { entity_id: 'cover.hall_window', command: 'set_position', position: 30 });
    await eventually(
      () => haStateOf('cover.hall_window'),
      (x) => x.attributes.current_position === 30,
      'hall window at 30',
    );
  });

  test('locks: lock, and unlock only with confirm', async () => {
    await tool('control_locks', { entity_id: 'lock.kitchen_door', command: 'lock' });
    await eventually(
      () => haStateOf('lock.kitchen_door'),
      (x) => x.state === 'locked',
      'kitchen door locked',
    );
    const held = await s.call('/api/tools/call', 'POST', { name: 'control_locks', arguments: { entity_id: 'lock.kitchen_door', command: 'unlock' } });
    expect(held.body).toMatchObject({ isError: true, structuredContent: { error: { code: 'CONFIRMATION_REQUIRED' } } });
    expect((await haStateOf('lock.kitchen_door')).state).toBe('locked');
    await tool('control_locks', { entity_id: 'lock.kitchen_door', command: 'unlock', confirm: true });
    await eventually(
      () => haStateOf('lock.kitchen_door'),
      (x) => x.state === 'unlocked',
      'kitchen door unlocked',
    );
  });

  test('fans: full speed', async () => {
    await tool('control_fans', { entity_id: 'fan.living_room_fan', command: 'set_speed', percentage: 100 });
    expect((await haStateOf('fan.living_room_fan')).attributes.percentage).toBe(100);
  });

  test('vacuums: start cleaning, then back to the dock', async () => {
    await tool('control_vacuums', { entity_id: DEMO_VACUUM, command: 'start' });
    expect((await haStateOf(DEMO_VACUUM)).state).toBe('cleaning');
    await tool('control_vacuums', { entity_id: DEMO_VACUUM, command: 'return_to_base' });
    expect(['returning', 'docked']).toContain((await haStateOf(DEMO_VACUUM)).state);
  });

  test('media: volume', async () => {
    await tool('control_media', { entity_id: 'media_player.living_room', command: 'volume_set', volume_level: 0.3 });
    expect((await haStateOf('media_player.living_room')).attributes.volume_level).toBe(0.3);
  });

  test('alarm: arm away with the code, disarm with confirm', async () => {
    await tool('control_alarm', { entity_id: 'alarm_control_panel.security', command: 'arm_away', code: '1234' });
    await eventually(
      () => haStateOf('alarm_control_panel.security'),
      (x) => x.state === 'armed_away',
      'armed away',
    );
    await tool('control_alarm', { entity_id: 'alarm_control_panel.security', command: 'disarm', code: '1234', confirm: true });
    await eventually(
      () => haStateOf('alarm_control_panel.security'),
      (x) => x.state === 'disarmed',
      'disarmed',
    );
  });

  test('notify: a persistent notification', async () => {
    const r = await tool('send_notification', { message: 'From the bridge', title: 'E2E', persistent: true });
    expect(r.content[0]!.text).toBe('Sent through persistent_notification.create.');
  });

  test('notify: with nothing named, the demo notifier gets it (2024.3.3: notify.notify; 2026.11.0: its notify entity, through notify.send_message)', async () => {
    const hub = await RawClient.connect(`${HASS_URL.replace(/^http/, 'ws')}/api/websocket`, HASS_TOKEN);
    try {
      const sub = await hub.command({ type: 'subscribe_events', event_type: 'notify' });
      const r = await tool('send_notification', { message: 'Dinner is ready', title: 'Kitchen' });
      expect(r.content[0]!.text).toBe(per({ '2024.3.3': 'Sent through notify.notify.', '2026.11.0': 'Sent through notify.send_message to notify.notifier.' }));
      const event = await hub.waitForEvent(sub.id);
      expect(event.event.data).toMatchObject({ message: 'Dinner is ready', title: 'Kitchen' });
    } finally {
      await hub.close();
    }
  });

  test('discovery: the demo’s lights, with Home Assistant’s names', async () => {
    const r = await tool('search_entities', { domain: 'light' });
    const names = (r.structuredContent!.entities as { entity_id: string; name: string }[]).map((e) => [e.entity_id, e.name]);
    expect(names).toContainEqual(['light.bed_light', 'Bed Light']);
  });
});
