// The parity cases (tests/parity/cases.ts) against the simulator as a 2024.3.3 hub loaded with the
// demo fixture. tests/e2e/parity.test.ts runs the same cases against the real Home Assistant, so a
// case that passes in both says the simulator answers as the real hub does. The second part loads
// the same fixture into a modern (default) simulator: what changed after 2024.3 must stay modern.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RawClient } from '../../src/sim/raw-client.js';
import { type Simulator, startSimulator } from '../../src/sim/index.js';
import { CASES, FIXTURE, HA_VERSION } from '../parity/cases.js';
import { runCase } from '../parity/runner.js';

let sim: Simulator;
let modern: Simulator;

beforeAll(async () => {
  // Shorter than the demo's own delays (5 s arming, 2 s locks), long enough to be seen.
  const timing = { alarmArmingMs: 300, lockMs: 100, coverTravelMs: 100 };
  sim = await startSimulator({ home: FIXTURE, legacy: true, version: HA_VERSION, timing });
  modern = await startSimulator({ home: FIXTURE, timing });
});
afterAll(async () => {
  await sim?.stop();
  await modern?.stop();
});

describe('parity cases against the simulator', () => {
  for (const c of CASES) it(c.name, () => runCase({ url: sim.url, token: sim.token }, c));
});

describe('the same home on a modern simulator (2025.1.0)', () => {
  const call = async (domain: string, service: string, data: Record<string, unknown>, entityId: string, extra: Record<string, unknown> = {}) => {
    const c = await RawClient.connect(modern.wsUrl, modern.token);
    try {
      return await c.command({ type: 'call_service', domain, service, service_data: data, target: { entity_id: entityId }, ...extra });
    } finally {
      await c.close();
    }
  };
  const attrs = (id: string) => modern.getState(id)?.attributes ?? {};

  it('is modern', () => {
    expect(modern.version).toBe('2025.1.0');
    expect(modern.legacy).toBe(false);
  });

  it('rounds hs to rgb (2024.12) and keeps kelvin, clamped to the range', async () => {
    expect(attrs('light.kitchen_lights')).toMatchObject({ hs_color: [345, 75], rgb_color: [255, 64, 112] });
    await call('light', 'turn_on', { color_temp_kelvin: 3000 }, 'light.ceiling_lights');
    expect(attrs('light.ceiling_lights')).toMatchObject({ color_temp_kelvin: 3000, color_temp: 333 });
    await call('light', 'turn_on', { color_temp_kelvin: 10000 }, 'light.ceiling_lights');
    expect(attrs('light.ceiling_lights').color_temp_kelvin).toBe(6535);
  });

  it('answers a wrong alarm code with service_validation_error and keeps previous_state/next_state', async () => {
    const r = await call('alarm_control_panel', 'alarm_arm_away', { code: '0000' }, 'alarm_control_panel.security');
    expect(r.error).toEqual({
      code: 'service_validation_error',
      message: 'Validation error: Invalid alarm code provided',
      translation_key: 'invalid_code',
      translation_placeholders: null,
      translation_domain: 'manual',
    });
    expect(attrs('alarm_control_panel.security')).toMatchObject({ previous_state: null, next_state: null });
  });

  it('checks modes and ranges, with the newer wording', async () => {
    const mode = await call('climate', 'set_hvac_mode', { hvac_mode: 'heat_cool' }, 'climate.hvac');
    expect(mode.error).toMatchObject({ code: 'service_validation_error', translation_key: 'not_valid_hvac_mode' });
    const temp = await call('climate', 'set_temperature', { temperature: 50 }, 'climate.hvac');
    expect(temp.error).toMatchObject({ code: 'service_validation_error', translation_key: 'temp_out_of_range' });
    const preset = await call('fan', 'set_preset_mode', { preset_mode: 'turbo' }, 'fan.living_room_fan');
    expect(preset.error).toMatchObject({ code: 'service_validation_error', message: 'Validation error: Preset mode turbo is not valid, valid preset modes are: auto, smart, sleep, on.' });
    const response = await call('light', 'turn_on', {}, 'light.bed_light', { return_response: true });
    expect(response.error).toMatchObject({ code: 'service_validation_error', translation_key: 'service_does_not_support_response' });
  });

  it('has floors, labels and the newer registry shapes', async () => {
    const c = await RawClient.connect(modern.wsUrl, modern.token);
    try {
      const areas = (await c.command({ type: 'config/area_registry/list' })).result as Array<Record<string, unknown>>;
      expect(areas[0]).toMatchObject({ area_id: 'living_room', floor_id: null, labels: [] });
      const entities = (await c.command({ type: 'config/entity_registry/list' })).result as Array<Record<string, unknown>>;
      expect(entities.find((e) => e.entity_id === 'light.bed_light')).toMatchObject({ platform: 'demo', unique_id: 'light_1', categories: {} });
      expect(entities.some((e) => e.entity_id === 'lock.front_door')).toBe(false);
      const services = (await c.command({ type: 'get_services' })).result as Record<string, Record<string, any>>;
      const fields = services.light?.turn_on.fields;
      expect(fields).toHaveProperty('color_temp_kelvin');
      expect(fields.advanced_fields.fields.color_temp).toMatchObject({ selector: { color_temp: { unit: 'mired' } } });
      expect(fields.rgb_color).toMatchObject({ example: '[255, 100, 100]', selector: { color_rgb: null } });
    } finally {
      await c.close();
    }
  });

  it('opens the openable lock to open (2024.7)', async () => {
    const r = await call('lock', 'open', {}, 'lock.openable_lock');
    expect(r.success).toBe(true);
    expect(modern.getState('lock.openable_lock')?.state).toBe('open');
    expect(attrs('lock.openable_lock')).not.toHaveProperty('changed_by');
  });
});
