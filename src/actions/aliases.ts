// Generic actions (turn_on, turn_off, toggle, set_value, open, close, stop) and what each means in
// a domain that has no service by that name. Every other action is a service of the entity's domain.

type Data = Record<string, unknown>;
export interface Alias {
  service: string;
  /** Rewrites parameters for set_value, which carries its number as `value`. */
  data?: (value: unknown, rest: Data) => Data;
}

const value =
  (key: string, scale?: (v: number) => number) =>
  (v: unknown, rest: Data): Data => ({
    ...rest,
    [key]: typeof v === 'number' && scale ? scale(v) : v,
  });

export const ALIASES: Record<string, Record<string, Alias>> = {
  cover: {
    turn_on: { service: 'open_cover' },
    turn_off: { service: 'close_cover' },
    open: { service: 'open_cover' },
    close: { service: 'close_cover' },
    stop: { service: 'stop_cover' },
    set_value: { service: 'set_cover_position', data: value('position') },
  },
  valve: {
    turn_on: { service: 'open_valve' },
    turn_off: { service: 'close_valve' },
    open: { service: 'open_valve' },
    close: { service: 'close_valve' },
    stop: { service: 'stop_valve' },
    set_value: { service: 'set_valve_position', data: value('position') },
  },
  lock: { close: { service: 'lock' } },
  vacuum: { turn_on: { service: 'start' }, turn_off: { service: 'return_to_base' }, stop: { service: 'stop' } },
  button: { turn_on: { service: 'press' } },
  input_button: { turn_on: { service: 'press' } },
  light: { set_value: { service: 'turn_on', data: value('brightness_pct') } },
  fan: { set_value: { service: 'set_percentage', data: value('percentage') } },
  climate: { set_value: { service: 'set_temperature', data: value('temperature') } },
  water_heater: { set_value: { service: 'set_temperature', data: value('temperature') } },
  humidifier: { set_value: { service: 'set_humidity', data: value('humidity') } },
  // Volume is 0-1 in the hub; a set_value above 1 is read as a percentage.
  media_player: { set_value: { service: 'volume_set', data: value('volume_level', (v) => (v > 1 ? v / 100 : v)) }, stop: { service: 'media_stop' } },
  input_number: { set_value: { service: 'set_value', data: value('value') } },
  number: { set_value: { service: 'set_value', data: value('value') } },
  input_text: { set_value: { service: 'set_value', data: value('value') } },
  text: { set_value: { service: 'set_value', data: value('value') } },
  input_select: { set_value: { service: 'select_option', data: value('option') } },
  select: { set_value: { service: 'select_option', data: value('option') } },
  input_datetime: { set_value: { service: 'set_datetime', data: value('datetime') } },
};
