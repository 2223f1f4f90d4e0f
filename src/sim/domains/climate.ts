// Thermostats: the state is the HVAC mode; targets are checked against min/max as the hub
// checks them (service_validation_error, temp_out_of_range; from 2024.4), modes against the
// entity's lists. hvac_action follows mode and temperatures unless config.reports_action is false.
import { type DomainModule, finish, numeric } from '../domain.js';
import { ServiceValidationError } from '../errors.js';
import type { Hub } from '../hub.js';
import { all, coerceEnum, coerceFloat, coerceInt, hasAtLeastOneKey, pyFloatStr, string } from '../schema.js';
import type { EntityCtx } from '../services.js';
import { SINCE } from '../version.js';
import { booleanField, num, sel } from './common.js';

export const CLIMATE_TARGET_TEMPERATURE = 1;
export const CLIMATE_TARGET_TEMPERATURE_RANGE = 2;
export const CLIMATE_TARGET_HUMIDITY = 4;
export const CLIMATE_FAN_MODE = 8;
export const CLIMATE_PRESET_MODE = 16;
export const CLIMATE_SWING_MODE = 32;
export const CLIMATE_AUX_HEAT = 64;
export const CLIMATE_TURN_OFF = 128;
export const CLIMATE_TURN_ON = 256;
export const CLIMATE_SWING_HORIZONTAL_MODE = 512;

const HVAC_MODES = ['off', 'heat', 'cool', 'heat_cool', 'auto', 'dry', 'fan_only'] as const;
const hvacMode = coerceEnum('HVACMode', HVAC_MODES);

const strList = (x: unknown): string[] => (Array.isArray(x) ? x.map(String) : []);

/**
 * The mode checks: ServiceValidationError not_valid_<kind>_mode. Before 2024.4 only fan, preset
 * and swing modes are checked, with older wording; any HVAC mode of the enum is taken.
 */
function validMode(hub: Hub, kind: 'hvac' | 'fan' | 'preset' | 'swing' | 'swing_horizontal', mode: string, modes: string[]): void {
  if (modes.includes(mode)) return;
  if (hub.legacy && kind === 'hvac') return;
  const words = kind === 'swing_horizontal' ? 'horizontal swing' : kind;
  const title = kind === 'hvac' ? 'HVAC' : words.charAt(0).toUpperCase() + words.slice(1);
  const plain = kind === 'hvac' ? 'HVAC' : words;
  const message = hub.legacy
    ? `The ${kind}_mode ${mode} is not a valid ${kind}_mode: ${modes.join(', ')}`
    : `${title} mode ${mode} is not valid. Valid ${plain} modes are: ${modes.join(', ')}.`;
  throw new ServiceValidationError(message, {
    domain: 'climate',
    key: `not_valid_${kind}_mode`,
    placeholders: { mode, modes: modes.join(', ') },
  });
}

function hvacAction(mode: string, current: number | undefined, target: number | undefined): string {
  if (mode === 'off') return 'off';
  if (current === undefined || target === undefined) return 'idle';
  if (mode === 'heat' || mode === 'heat_cool' || mode === 'auto') {
    if (current < target) return 'heating';
  }
  if (mode === 'cool' || mode === 'heat_cool' || mode === 'auto') {
    if (current > target) return 'cooling';
  }
  if (mode === 'dry') return 'drying';
  if (mode === 'fan_only') return 'fan';
  return 'idle';
}

/** Recomputes hvac_action and writes the new mode and attributes. */
function write(e: EntityCtx, mode: string, attrs: Record<string, unknown>): void {
  const current = typeof attrs.current_temperature === 'number' ? attrs.current_temperature : undefined;
  const target = typeof attrs.temperature === 'number' ? attrs.temperature : undefined;
  if ('hvac_action' in attrs) attrs.hvac_action = hvacAction(mode, current, target);
  if (mode !== 'off') e.memory.lastOn = mode;
  e.write(mode, attrs);
}

function setTemperature(e: EntityCtx): void {
  const p = e.params;
  const a = e.attrs;
  const low = p.target_temp_low as number | undefined;
  const high = p.target_temp_high as number | undefined;
  if (!e.hub.legacy && low !== undefined && high !== undefined && low > high) {
    throw new ServiceValidationError('Target temperature low can not be higher than Target temperature high.', {
      domain: 'climate',
      key: 'low_temp_higher_than_high_temp',
      placeholders: null,
    });
  }
  // 2026.11 refuses a single temperature on a range-only thermostat, and a range on a single one.
  const features = num(a.supported_features, 0);
  if (e.hub.since(SINCE.current)) {
    if (typeof p.temperature === 'number' && !(features & CLIMATE_TARGET_TEMPERATURE)) {
      throw new ServiceValidationError("Set temperature action was used with the 'Target temperature' parameter but the entity does not support it", {
        domain: 'climate',
        key: 'missing_target_temperature_entity_feature',
        placeholders: null,
      });
    }
    if ((low !== undefined || high !== undefined) && !(features & CLIMATE_TARGET_TEMPERATURE_RANGE)) {
      throw new ServiceValidationError(
        "Set temperature action was used with the 'Lower/Upper target temperature' parameter but the entity does not support it",
        {
          domain: 'climate',
          key: 'missing_target_temperature_range_entity_feature',
          placeholders: null,
        },
      );
    }
  }
  const min = num(a.min_temp, 7);
  const max = num(a.max_temp, 35);
  for (const key of ['temperature', 'target_temp_low', 'target_temp_high']) {
    const t = p[key];
    // The range check arrived in 2024.4.
    if (typeof t !== 'number' || e.hub.legacy) continue;
    if (t < min || t > max) {
      throw new ServiceValidationError(`Provided temperature ${pyFloatStr(t)} is not valid. Accepted range is ${min} to ${max}.`, {
        domain: 'climate',
        key: 'temp_out_of_range',
        placeholders: { check_temp: pyFloatStr(t), min_temp: String(min), max_temp: String(max) },
      });
    }
  }
  let mode = e.state.state;
  if (typeof p.hvac_mode === 'string') {
    validMode(e.hub, 'hvac', p.hvac_mode, strList(a.hvac_modes));
    mode = p.hvac_mode;
  }
  // A range-only thermostat takes a single temperature without complaint and shows nothing of it (2024.3).
  if (typeof p.temperature === 'number' && num(a.supported_features, 0) & CLIMATE_TARGET_TEMPERATURE) a.temperature = p.temperature;
  if (low !== undefined && high !== undefined) {
    a.target_temp_low = low;
    a.target_temp_high = high;
  }
  write(e, mode, a);
}

function turnOn(e: EntityCtx): void {
  const modes = strList(e.attrs.hvac_modes);
  const last = e.memory.lastOn;
  let mode: string | undefined = typeof last === 'string' && modes.includes(last) ? last : undefined;
  if (!mode && modes.length === 2 && modes.includes('off')) mode = modes.find((m) => m !== 'off');
  mode ??= ['heat_cool', 'heat', 'cool'].find((m) => modes.includes(m)) ?? modes.find((m) => m !== 'off');
  if (mode) write(e, mode, e.attrs);
}

function turnOff(e: EntityCtx): void {
  if (strList(e.attrs.hvac_modes).includes('off')) write(e, 'off', e.attrs);
}

export const climate: DomainModule = {
  domain: 'climate',
  init(seed, hub: Hub) {
    const a = seed.attributes;
    numeric(a, ['current_temperature', 'temperature', 'target_temp_low', 'target_temp_high', 'min_temp', 'max_temp', 'current_humidity', 'humidity']);
    const f = hub.temperatureUnit === '°F';
    const modes = Array.isArray(a.hvac_modes) ? strList(a.hvac_modes) : ['off', 'heat', 'cool', 'heat_cool', 'auto'];
    const state = seed.state ?? 'off';
    if (!modes.includes(state) && (HVAC_MODES as readonly string[]).includes(state)) modes.push(state);
    const range = typeof a.target_temp_low === 'number' || typeof a.target_temp_high === 'number';
    let features = CLIMATE_TARGET_TEMPERATURE | CLIMATE_TURN_ON | CLIMATE_TURN_OFF;
    if (range) features |= CLIMATE_TARGET_TEMPERATURE_RANGE;
    if (Array.isArray(a.fan_modes)) features |= CLIMATE_FAN_MODE;
    if (Array.isArray(a.preset_modes)) features |= CLIMATE_PRESET_MODE;
    if (Array.isArray(a.swing_modes)) features |= CLIMATE_SWING_MODE;
    if (typeof a.humidity === 'number') features |= CLIMATE_TARGET_HUMIDITY;
    features = num(a.supported_features, features);
    const out: Record<string, unknown> = {
      hvac_modes: modes,
      min_temp: num(a.min_temp, f ? 45 : 7),
      max_temp: num(a.max_temp, f ? 95 : 35),
      ...a,
    };
    out.hvac_modes = modes;
    // A target the home does not give is unknown (Home Assistant reports null), never a made-up 20 °C:
    // a relative change from it would start from a number nobody gave.
    if (features & CLIMATE_TARGET_TEMPERATURE && typeof out.temperature !== 'number' && !range) out.temperature = null;
    // config.reports_action: false, a thermostat that does not say what it is doing: no hvac_action.
    if (seed.config.reports_action === false) delete out.hvac_action;
    else
      out.hvac_action ??= hvacAction(
        state,
        typeof out.current_temperature === 'number' ? out.current_temperature : undefined,
        typeof out.temperature === 'number' ? out.temperature : undefined,
      );
    if (state !== 'off') hub.memory(seed.entityId).lastOn = state;
    return { state, attributes: finish(out, seed.name, features) };
  },
  setup(hub) {
    const r = (service: string, def: Parameters<Hub['services']['register']>[2]) => hub.services.register('climate', service, def);
    const temp = (name: string, extra: object) => ({
      v: coerceFloat,
      name,
      description: `${name} the device aims for.`,
      selector: sel.number(0, 250, { step: 0.1, mode: 'box' }),
      ...extra,
    });
    r('set_temperature', {
      name: 'Set target temperature',
      description: 'Sets the temperature setpoint.',
      before: hasAtLeastOneKey('temperature', 'target_temp_high', 'target_temp_low'),
      requiredFeatures: [CLIMATE_TARGET_TEMPERATURE, CLIMATE_TARGET_TEMPERATURE_RANGE],
      fields: {
        temperature: temp('Target temperature', { exclusive: 'temperature', filter: { supported_features: [CLIMATE_TARGET_TEMPERATURE] } }),
        // 2026.11 describes the two in a section of their own, temperature_range.
        target_temp_high: temp('Upper target temperature', {
          inclusive: 'temperature',
          advanced: true,
          section: 'temperature_range',
          filter: { supported_features: [CLIMATE_TARGET_TEMPERATURE_RANGE] },
        }),
        target_temp_low: temp('Lower target temperature', {
          inclusive: 'temperature',
          advanced: true,
          section: 'temperature_range',
          filter: { supported_features: [CLIMATE_TARGET_TEMPERATURE_RANGE] },
        }),
        hvac_mode: {
          v: hvacMode,
          name: 'HVAC mode',
          description: 'HVAC operation mode.',
          selector: sel.select([...HVAC_MODES], { translation_key: 'hvac_mode' }),
        },
      },
      handle: setTemperature,
    });
    r('set_hvac_mode', {
      name: 'Set HVAC mode',
      description: 'Sets HVAC operation mode.',
      fields: {
        hvac_mode: {
          v: hvacMode,
          required: true,
          // Required all the same; 2024.3 and 2026.11 just do not say so.
          legacyDescription: { required: false },
          currentDescription: { required: false },
          name: 'HVAC mode',
          description: 'HVAC operation mode.',
          selector: sel.select([...HVAC_MODES], { translation_key: 'hvac_mode' }),
        },
      },
      handle: (e) => {
        const mode = e.params.hvac_mode as string;
        validMode(e.hub, 'hvac', mode, strList(e.attrs.hvac_modes));
        write(e, mode, e.attrs);
      },
    });
    const modeService = (kind: 'fan' | 'preset' | 'swing' | 'swing_horizontal', feature: number, label: string) =>
      r(`set_${kind}_mode`, {
        name: `Set ${label} mode`,
        description: `Sets ${label} operation mode.`,
        requiredFeatures: [feature],
        fields: {
          [`${kind}_mode`]: {
            v: string,
            required: true,
            name: `${label.charAt(0).toUpperCase()}${label.slice(1)} mode`,
            description: `${label.charAt(0).toUpperCase()}${label.slice(1)} operation mode.`,
            example: kind === 'fan' ? 'low' : kind === 'preset' ? 'away' : 'on',
            selector: sel.text(),
          },
        },
        handle: (e) => {
          const mode = e.params[`${kind}_mode`] as string;
          validMode(e.hub, kind, mode, strList(e.attrs[`${kind}_modes`]));
          e.attrs[`${kind}_mode`] = mode;
          write(e, e.state.state, e.attrs);
        },
      });
    modeService('fan', CLIMATE_FAN_MODE, 'fan');
    modeService('preset', CLIMATE_PRESET_MODE, 'preset');
    modeService('swing', CLIMATE_SWING_MODE, 'swing');
    if (hub.since(SINCE.current)) modeService('swing_horizontal', CLIMATE_SWING_HORIZONTAL_MODE, 'horizontal swing');
    r('set_humidity', {
      name: 'Set target humidity',
      description: 'Sets target humidity.',
      requiredFeatures: [CLIMATE_TARGET_HUMIDITY],
      fields: {
        humidity: {
          v: all(coerceInt),
          required: true,
          name: 'Humidity',
          description: 'Target humidity.',
          selector: sel.number(30, 99, { unit_of_measurement: '%' }),
        },
      },
      handle: (e) => {
        e.attrs.humidity = e.params.humidity;
        write(e, e.state.state, e.attrs);
      },
    });
    // Auxiliary heat: still there in 2024.3 (the demo's Hvac has it), gone from newer hubs.
    if (hub.legacy) {
      r('set_aux_heat', {
        name: 'Turn on/off auxiliary heater',
        description: 'Turns auxiliary heater on/off.',
        requiredFeatures: [CLIMATE_AUX_HEAT],
        fields: { aux_heat: booleanField('Auxiliary heating', 'New value of auxiliary heater.') },
        handle: (e) => {
          e.attrs.aux_heat = e.params.aux_heat ? 'on' : 'off';
          write(e, e.state.state, e.attrs);
        },
      });
    }
    r('turn_on', { name: 'Turn on', description: 'Turns climate device on.', requiredFeatures: [CLIMATE_TURN_ON], handle: turnOn });
    r('turn_off', { name: 'Turn off', description: 'Turns climate device off.', requiredFeatures: [CLIMATE_TURN_OFF], handle: turnOff });
    r('toggle', {
      name: 'Toggle',
      description: 'Toggles climate device, from on to off, or off to on.',
      requiredFeatures: [CLIMATE_TURN_OFF | CLIMATE_TURN_ON],
      // Both features are needed; the description lists either.
      target: { entity: [{ domain: ['climate'], supported_features: [CLIMATE_TURN_OFF, CLIMATE_TURN_ON] }] },
      handle: (e) => (e.state.state === 'off' ? turnOn(e) : turnOff(e)),
    });
  },
};
