// Parameters as Home Assistant takes them, list-valued choices checked against the entity, and
// answers that say whether the entity now shows what was asked (issue 17).
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(() => s?.close());

const control = (entity_id: string, action: string, parameters: Record<string, unknown> = {}, confirm?: boolean) =>
  s.call('/api/device/control', 'POST', { entity_id, action, parameters, ...(confirm === undefined ? {} : { confirm }) });

describe('coercion as Home Assistant does it', () => {
  test('a numeric string for a number, passed on as a number', async () => {
    const r = await control('light.office_desk', 'turn_on', { brightness_pct: '50' });
    expect(r.status).toBe(200);
    expect(r.body.parameters).toEqual({ brightness_pct: 50 });
    expect(r.body.state.attributes.brightness).toBe(128);
    expect(r.body).toMatchObject({ verified: true, expected: { state: 'on', brightness: 128 }, actual: { state: 'on', brightness: 128 } });
    expect((await control('light.office_desk', 'turn_on', { brightness_pct: 'half' })).body).toMatchObject({
      code: 'INVALID_PARAMETERS',
      details: { field: 'brightness_pct' },
    });
  });

  test('a number for an alarm code', async () => {
    const armed = await control('alarm_control_panel.security', 'alarm_arm_away', { code: 1234 });
    expect(armed.status).toBe(200);
    expect(armed.body.parameters).toEqual({ code: '1234' });
    const off = await control('alarm_control_panel.security', 'alarm_disarm', { code: 1234 }, true);
    expect(off.status).toBe(200);
  });
});

describe('list-valued choices are the entity’s own', () => {
  test.each([
    ['vacuum.robot_vacuum', 'set_fan_speed', { fan_speed: 'turbo' }, 'fan_speed', ['min', 'medium', 'high', 'max']],
    ['media_player.living_room_tv', 'select_source', { source: 'Radio 4' }, 'source', ['HDMI 1', 'HDMI 2', 'Netflix', 'YouTube']],
    ['climate.hallway', 'set_preset_mode', { preset_mode: 'party' }, 'preset_mode', ['home', 'away', 'eco']],
  ])('%s %s %o is refused with the allowed values', async (entity, action, parameters, field, allowed) => {
    const before = (await s.call(`/api/state/${entity}`)).body;
    const r = await control(entity, action, parameters);
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ code: 'INVALID_PARAMETERS', details: { field, entity_id: entity, allowed } });
    expect(r.body.message).toContain(allowed.join(', '));
    expect((await s.call(`/api/state/${entity}`)).body.attributes).toEqual(before.attributes);
  });

  test('an allowed choice goes through and is verified', async () => {
    const r = await control('vacuum.robot_vacuum', 'set_fan_speed', { fan_speed: 'max' });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ verified: true, actual: { fan_speed: 'max' } });
  });

  test('the service-call path checks the same', async () => {
    await expect(
      s.app.services.actions.callService(
        { domain: 'vacuum', service: 'set_fan_speed', data: { fan_speed: 'turbo' }, target: { entity_id: 'vacuum.robot_vacuum' } },
        {},
      ),
    ).rejects.toThrow(/fan_speed: vacuum\.robot_vacuum offers min, medium, high, max/);
  });
});

describe('verified control', () => {
  test('a call whose result differs from what was asked says so', async () => {
    // The poorly installed side door jams when locked.
    const r = await control('lock.garage_side_door', 'lock');
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ verified: false, expected: { state: 'locked' }, actual: { state: 'jammed' } });
  });

  test('a state on its way is pending, not failed', async () => {
    await control('cover.bedroom_curtains', 'close_cover');
    const r = await control('cover.bedroom_curtains', 'open_cover');
    expect(r.status).toBe(200);
    // The simulated curtain travels: the call's own state change is `opening`.
    expect(r.body).toMatchObject({ verified: false, pending: true, expected: { state: 'open' }, actual: { state: 'opening' } });
  });

  test('services with nothing to compare carry no verdict', async () => {
    const r = await control('vacuum.robot_vacuum', 'locate');
    expect(r.status).toBe(200);
    expect(r.body.verified).toBeUndefined();
  });
});
