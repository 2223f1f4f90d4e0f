// A snapshot of entities as scene actions: for each entity, the service calls that bring it back
// to the state it has now. Only what a service can set is kept (a light's brightness and colour,
// a cover's position, a thermostat's mode and target), and only parameters the hub says the
// service takes. Entities whose state no service restores (sensors, alarm panels that need a
// code, vacuums) are refused rather than silently left out.
import { invalidParameters } from '../errors.js';
import { domainOf } from '../hub/entity-id.js';
import { miredToKelvin } from '../actions/colour-temperature.js';
import { flattenFields } from '../hub/service-fields.js';
import type { HubState, ServiceDescription } from '../hub/types.js';
import type { SceneAction } from '../store/scenes.js';

type Services = Record<string, ServiceDescription>;
type Attrs = Record<string, unknown>;

/**
 * Parameters every hub the bridge supports takes whether or not it describes them: Home
 * Assistant 2024.3 takes light.turn_on's color_temp_kelvin without listing it.
 */
const TAKEN_UNDESCRIBED = new Set(['color_temp_kelvin']);

/** Builds an action when the domain has the service, keeping only the parameters it takes. */
function call(services: Services, entityId: string, service: string, params: Attrs = {}): SceneAction[] {
  const desc = services[service];
  if (!desc) return [];
  const fields = flattenFields(desc.fields);
  const open = Object.keys(fields).length === 0;
  const parameters: Attrs = {};
  for (const [k, val] of Object.entries(params))
    if (val !== undefined && val !== null && (open || k in fields || TAKEN_UNDESCRIBED.has(k))) parameters[k] = val;
  return [{ entity_id: entityId, action: service, parameters }];
}

const num = (x: unknown) => (typeof x === 'number' && Number.isFinite(x) ? x : undefined);
const str = (x: unknown) => (typeof x === 'string' && x !== '' ? x : undefined);
const bool = (x: unknown) => (typeof x === 'boolean' ? x : undefined);

/**
 * The colour attribute that matches the light's colour mode, as a turn_on parameter. A colour
 * temperature is written in kelvin, which every hub takes (2026.11 takes nothing else), so a scene
 * captured on an older hub still works after Home Assistant is upgraded.
 */
function lightColour(a: Attrs): Attrs {
  switch (a.color_mode) {
    case 'color_temp': {
      const kelvin = num(a.color_temp_kelvin) ?? (num(a.color_temp) ? miredToKelvin(num(a.color_temp)!) : undefined);
      return { color_temp_kelvin: kelvin };
    }
    case 'hs':
      return { hs_color: a.hs_color };
    case 'xy':
      return { xy_color: a.xy_color };
    case 'rgb':
      return { rgb_color: a.rgb_color };
    case 'rgbw':
      return { rgbw_color: a.rgbw_color };
    case 'rgbww':
      return { rgbww_color: a.rgbww_color };
    default:
      return {};
  }
}

type Capture = (s: HubState, services: Services) => SceneAction[] | undefined;

const onOff: Capture = (s, sv) => (s.state === 'on' ? call(sv, s.entity_id, 'turn_on') : s.state === 'off' ? call(sv, s.entity_id, 'turn_off') : undefined);

const positioned =
  (kind: 'cover' | 'valve'): Capture =>
  (s, sv) => {
    const a = s.attributes;
    const id = s.entity_id;
    const pos = num(a.current_position);
    const out =
      pos !== undefined && sv[`set_${kind}_position`]
        ? call(sv, id, `set_${kind}_position`, { position: pos })
        : s.state === 'open' || s.state === 'opening'
          ? call(sv, id, `open_${kind}`)
          : s.state === 'closed' || s.state === 'closing'
            ? call(sv, id, `close_${kind}`)
            : undefined;
    const tilt = num(a.current_tilt_position);
    if (out && kind === 'cover' && tilt !== undefined) out.push(...call(sv, id, 'set_cover_tilt_position', { tilt_position: tilt }));
    return out;
  };

const CAPTURE: Record<string, Capture> = {
  light: (s, sv) => {
    if (s.state === 'off') return call(sv, s.entity_id, 'turn_off');
    if (s.state !== 'on') return undefined;
    const a = s.attributes;
    const fields = flattenFields(sv.turn_on?.fields);
    const b = num(a.brightness);
    const brightness = b === undefined ? {} : 'brightness' in fields ? { brightness: b } : { brightness_pct: Math.round((b / 255) * 100) };
    return call(sv, s.entity_id, 'turn_on', { ...brightness, ...lightColour(a) });
  },
  switch: onOff,
  input_boolean: onOff,
  siren: onOff,
  automation: onOff,
  fan: (s, sv) => {
    if (s.state === 'off') return call(sv, s.entity_id, 'turn_off');
    if (s.state !== 'on') return undefined;
    const a = s.attributes;
    const pct = num(a.percentage);
    const out = call(sv, s.entity_id, 'turn_on', pct !== undefined && pct > 0 ? { percentage: pct } : { preset_mode: str(a.preset_mode) });
    if (bool(a.oscillating) !== undefined) out.push(...call(sv, s.entity_id, 'oscillate', { oscillating: a.oscillating }));
    if (str(a.direction)) out.push(...call(sv, s.entity_id, 'set_direction', { direction: a.direction }));
    return out;
  },
  cover: positioned('cover'),
  valve: positioned('valve'),
  climate: (s, sv) => {
    const a = s.attributes;
    const out = call(sv, s.entity_id, 'set_hvac_mode', { hvac_mode: s.state });
    if (s.state === 'off') return out;
    if (num(a.temperature) !== undefined) out.push(...call(sv, s.entity_id, 'set_temperature', { temperature: a.temperature }));
    else if (num(a.target_temp_low) !== undefined && num(a.target_temp_high) !== undefined) {
      out.push(...call(sv, s.entity_id, 'set_temperature', { target_temp_low: a.target_temp_low, target_temp_high: a.target_temp_high }));
    }
    if (str(a.fan_mode)) out.push(...call(sv, s.entity_id, 'set_fan_mode', { fan_mode: a.fan_mode }));
    return out;
  },
  water_heater: (s, sv) => {
    const out = call(sv, s.entity_id, 'set_operation_mode', { operation_mode: s.state });
    if (num(s.attributes.temperature) !== undefined && s.state !== 'off')
      out.push(...call(sv, s.entity_id, 'set_temperature', { temperature: s.attributes.temperature }));
    return out;
  },
  humidifier: (s, sv) => {
    if (s.state === 'off') return call(sv, s.entity_id, 'turn_off');
    if (s.state !== 'on') return undefined;
    const a = s.attributes;
    const out = call(sv, s.entity_id, 'turn_on');
    if (num(a.humidity) !== undefined) out.push(...call(sv, s.entity_id, 'set_humidity', { humidity: a.humidity }));
    if (str(a.mode)) out.push(...call(sv, s.entity_id, 'set_mode', { mode: a.mode }));
    return out;
  },
  media_player: (s, sv) => {
    if (s.state === 'off' || s.state === 'standby') return call(sv, s.entity_id, 'turn_off');
    if (!['on', 'idle', 'playing', 'paused', 'buffering'].includes(s.state)) return undefined;
    const a = s.attributes;
    const out = call(sv, s.entity_id, 'turn_on');
    if (num(a.volume_level) !== undefined) out.push(...call(sv, s.entity_id, 'volume_set', { volume_level: a.volume_level }));
    if (bool(a.is_volume_muted) !== undefined) out.push(...call(sv, s.entity_id, 'volume_mute', { is_volume_muted: a.is_volume_muted }));
    return out;
  },
  lock: (s, sv) =>
    s.state === 'locked' || s.state === 'locking'
      ? call(sv, s.entity_id, 'lock')
      : s.state === 'unlocked' || s.state === 'unlocking' || s.state === 'open' || s.state === 'opening'
        ? call(sv, s.entity_id, 'unlock')
        : undefined,
  input_number: (s, sv) => (num(Number(s.state)) !== undefined ? call(sv, s.entity_id, 'set_value', { value: Number(s.state) }) : undefined),
  number: (s, sv) => (num(Number(s.state)) !== undefined ? call(sv, s.entity_id, 'set_value', { value: Number(s.state) }) : undefined),
  input_select: (s, sv) => call(sv, s.entity_id, 'select_option', { option: s.state }),
  select: (s, sv) => call(sv, s.entity_id, 'select_option', { option: s.state }),
  input_text: (s, sv) => call(sv, s.entity_id, 'set_value', { value: s.state }),
  text: (s, sv) => call(sv, s.entity_id, 'set_value', { value: s.state }),
};

export const CAPTURABLE_DOMAINS = Object.keys(CAPTURE).sort();

/** The actions that restore one entity's current state; INVALID_PARAMETERS when none can. */
export function captureEntity(state: HubState, services: Services | undefined, at: string): SceneAction[] {
  const domain = domainOf(state.entity_id);
  const capture = CAPTURE[domain];
  if (!capture) {
    throw invalidParameters(`${at}: ${domain} entities cannot be captured (capturable: ${CAPTURABLE_DOMAINS.join(', ')})`, {
      field: at,
      entity_id: state.entity_id,
      capturable_domains: CAPTURABLE_DOMAINS,
    });
  }
  const actions = state.state === 'unavailable' || state.state === 'unknown' ? undefined : capture(state, services ?? {});
  if (!actions?.length) {
    throw invalidParameters(`${at}: ${state.entity_id} is ${state.state}, which no service of its domain restores`, {
      field: at,
      entity_id: state.entity_id,
      state: state.state,
    });
  }
  return actions;
}
