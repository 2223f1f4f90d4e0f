// Parameters whose allowed values are the entity's own lists (a vacuum's fan speeds, a media
// player's sources, a thermostat's modes). Home Assistant's service schemas take any string for
// them, and many integrations then ignore a value they lack, so the call "succeeds" and nothing
// changes; the bridge checks them against the entity's attributes first and names the choices.
import { AppError } from '../errors.js';
import type { HubState } from '../hub/types.js';
import { echo } from '../validation.js';

/** `domain.service` -> [parameter, the attribute listing its allowed values]. */
const CHOICES: Record<string, readonly (readonly [string, string])[]> = {
  'vacuum.set_fan_speed': [['fan_speed', 'fan_speed_list']],
  'media_player.select_source': [['source', 'source_list']],
  'media_player.select_sound_mode': [['sound_mode', 'sound_mode_list']],
  'light.turn_on': [['effect', 'effect_list']],
  'fan.turn_on': [['preset_mode', 'preset_modes']],
  'fan.set_preset_mode': [['preset_mode', 'preset_modes']],
  'climate.set_preset_mode': [['preset_mode', 'preset_modes']],
  'climate.set_hvac_mode': [['hvac_mode', 'hvac_modes']],
  'climate.set_temperature': [['hvac_mode', 'hvac_modes']],
  'climate.set_fan_mode': [['fan_mode', 'fan_modes']],
  'climate.set_swing_mode': [['swing_mode', 'swing_modes']],
  'humidifier.set_mode': [['mode', 'available_modes']],
  'water_heater.set_operation_mode': [['operation_mode', 'operation_list']],
  'select.select_option': [['option', 'options']],
  'input_select.select_option': [['option', 'options']],
};

/** Throws INVALID_PARAMETERS when a list-valued choice is not one the entity offers. */
export function checkChoices(domain: string, service: string, data: Record<string, unknown>, state: HubState | undefined): void {
  if (!state) return;
  for (const [param, attribute] of CHOICES[`${domain}.${service}`] ?? []) {
    if (!(param in data)) continue;
    const allowed = state.attributes[attribute];
    if (!Array.isArray(allowed)) continue;
    const value = data[param];
    if (allowed.includes(value)) continue;
    const list = allowed.map(String);
    throw new AppError(
      'INVALID_PARAMETERS',
      400,
      `${param}: ${state.entity_id} offers ${list.join(', ') || 'no choices'}, not ${JSON.stringify(echo(value) ?? typeof value)}`,
      {
        field: param,
        entity_id: state.entity_id,
        value: echo(value),
        allowed: list,
      },
    );
  }
}
