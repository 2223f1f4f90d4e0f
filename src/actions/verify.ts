// Did the call do what was asked? After a call, the entity's state is compared with what the
// service should have made of it. States on the way there (opening, locking, arming) are reported
// as pending, not as failures; services with nothing to compare are not judged.
import type { HubState } from '../hub/types.js';
import { miredToKelvin } from './colour-temperature.js';

export interface Verification {
  verified: boolean;
  /** The state is still moving toward what was asked (a cover opening, a lock locking). */
  pending?: boolean;
  expected: Record<string, unknown>;
  actual: Record<string, unknown>;
}

type Expect = (data: Record<string, unknown>) => Record<string, unknown> | undefined;

const state =
  (s: string): Expect =>
  () => ({ state: s });
const attr =
  (name: string, param = name): Expect =>
  (d) =>
    d[param] === undefined ? undefined : { [name]: d[param] };

/** `domain.service` (or `*.service` for any domain) -> what the entity should show after it. */
const EXPECT: Record<string, Expect> = {
  '*.turn_on': (d) => {
    const out: Record<string, unknown> = { state: 'on' };
    if (typeof d.brightness === 'number') out.brightness = Math.min(255, Math.max(0, Math.round(d.brightness)));
    if (typeof d.brightness_pct === 'number' && d.brightness_pct > 0) out.brightness = Math.round((d.brightness_pct * 255) / 100);
    if (typeof d.brightness_pct === 'number' && d.brightness_pct === 0) return { state: 'off' };
    if (typeof d.color_temp_kelvin === 'number') out.color_temp_kelvin = d.color_temp_kelvin;
    // Mireds (to a hub that still takes them) are compared in kelvin too: every hub shows kelvin.
    else if (typeof d.color_temp === 'number' && d.color_temp > 0) out.color_temp_kelvin = miredToKelvin(d.color_temp);
    if (typeof d.percentage === 'number') out.percentage = d.percentage;
    return out;
  },
  '*.turn_off': state('off'),
  'lock.lock': state('locked'),
  'lock.unlock': state('unlocked'),
  'cover.open_cover': state('open'),
  'cover.close_cover': state('closed'),
  'cover.set_cover_position': (d) => (typeof d.position === 'number' ? { current_position: d.position } : undefined),
  'climate.set_hvac_mode': (d) => (typeof d.hvac_mode === 'string' ? { state: d.hvac_mode } : undefined),
  'climate.set_temperature': (d) => {
    const out: Record<string, unknown> = {};
    if (typeof d.temperature === 'number') out.temperature = d.temperature;
    if (typeof d.target_temp_low === 'number') out.target_temp_low = d.target_temp_low;
    if (typeof d.target_temp_high === 'number') out.target_temp_high = d.target_temp_high;
    if (typeof d.hvac_mode === 'string') out.state = d.hvac_mode;
    return Object.keys(out).length ? out : undefined;
  },
  'climate.set_fan_mode': attr('fan_mode'),
  'climate.set_preset_mode': attr('preset_mode'),
  'climate.set_swing_mode': attr('swing_mode'),
  'fan.set_percentage': (d) => (typeof d.percentage === 'number' ? (d.percentage === 0 ? { state: 'off' } : { percentage: d.percentage }) : undefined),
  'fan.set_preset_mode': attr('preset_mode'),
  'fan.oscillate': attr('oscillating'),
  'fan.set_direction': attr('direction'),
  'media_player.volume_set': attr('volume_level'),
  'media_player.volume_mute': attr('is_volume_muted'),
  'media_player.select_source': attr('source'),
  'media_player.media_pause': state('paused'),
  'media_player.media_play': state('playing'),
  'vacuum.set_fan_speed': attr('fan_speed'),
  'vacuum.start': state('cleaning'),
  'alarm_control_panel.alarm_arm_home': state('armed_home'),
  'alarm_control_panel.alarm_arm_away': state('armed_away'),
  'alarm_control_panel.alarm_arm_night': state('armed_night'),
  'alarm_control_panel.alarm_arm_vacation': state('armed_vacation'),
  'alarm_control_panel.alarm_disarm': state('disarmed'),
  'input_number.set_value': (d) => (d.value === undefined ? undefined : { state: String(d.value) }),
  'input_select.select_option': (d) => (d.option === undefined ? undefined : { state: d.option }),
  'select.select_option': (d) => (d.option === undefined ? undefined : { state: d.option }),
};

/** Domains whose turn_on/turn_off end in on/off (others, such as media players, have their own states). */
const ON_OFF = new Set(['light', 'switch', 'fan', 'input_boolean', 'siren', 'humidifier', 'automation']);

/** States on the way to another: [moving state, where it goes]. */
const MOVING: Record<string, string[]> = {
  opening: ['open'],
  closing: ['closed'],
  locking: ['locked'],
  unlocking: ['unlocked'],
  arming: ['armed_home', 'armed_away', 'armed_night', 'armed_vacation', 'armed_custom_bypass'],
  pending: ['armed_home', 'armed_away', 'armed_night', 'armed_vacation', 'armed_custom_bypass'],
  disarming: ['disarmed'],
};

/** Rounding the hub may apply: brightness by steps of 255, kelvin through mireds, floats. */
function close(key: string, want: unknown, got: unknown): boolean {
  if (typeof want === 'number' && typeof got === 'number') {
    if (key === 'color_temp_kelvin') return Math.abs(want - got) <= Math.max(1, want * 0.01);
    if (key === 'brightness' || key === 'percentage' || key === 'current_position') return Math.abs(want - got) <= 1;
    return Math.abs(want - got) < 1e-6;
  }
  return want === got;
}

/** What the entity should show after this call, or undefined when the service has nothing to compare. */
export function expectationOf(domain: string, service: string, data: Record<string, unknown>): Record<string, unknown> | undefined {
  const specific = EXPECT[`${domain}.${service}`];
  if (specific) return specific(data);
  if ((service === 'turn_on' || service === 'turn_off') && ON_OFF.has(domain)) return EXPECT[`*.${service}`]!(data);
  return undefined;
}

/** Compares the entity's state with what was asked; undefined when nothing is to be compared. */
export function verify(domain: string, service: string, data: Record<string, unknown>, after: HubState | undefined): Verification | undefined {
  const expected = expectationOf(domain, service, data);
  if (!expected || !after) return undefined;
  const actual: Record<string, unknown> = {};
  let verified = true;
  for (const [key, want] of Object.entries(expected)) {
    const got = key === 'state' ? after.state : (after.attributes[key] ?? null);
    actual[key] = got;
    if (!close(key, want, got)) verified = false;
  }
  const pending = !verified && typeof expected.state === 'string' && (MOVING[after.state]?.includes(expected.state) ?? false);
  return { verified, ...(pending ? { pending } : {}), expected, actual };
}
