// What a command asks to be done, and the hub service that does it for each kind of entity. The
// words chose an act (turn on, open, set, dim, next track, arm ...) and values; here each entity's
// domain turns that act into a service and its data, or says it has none.
import type { HubState } from '../hub/types.js';
import type { Amount } from './language.js';
import type { Frame } from './parse.js';

export interface Act {
  verb: string;
  /** For set/increase/decrease: what is changed (brightness, volume, temperature, position, speed, color). */
  prop?: string;
  value?: number;
  /** A change by an amount rather than to a value. */
  relative?: boolean;
  unit?: string;
  color?: string;
  kelvin?: number;
  alarm?: string;
  code?: string;
  /** "a little", "a lot": a bounded change, never a full one. */
  amount?: Amount;
  /** Up or down said alone ("blinds down", "mach die Rollos hoch"): open or close what opens. */
  raise?: boolean;
}

/** The hub's units, as its configuration says (unit_system). */
export interface Units {
  temperature: '°C' | '°F';
}

const PROP_OF_COMPARATIVE: Record<string, [string, 'increase' | 'decrease']> = {
  brightness_up: ['brightness', 'increase'],
  brightness_down: ['brightness', 'decrease'],
  temperature_up: ['temperature', 'increase'],
  temperature_down: ['temperature', 'decrease'],
  volume_up: ['volume', 'increase'],
  volume_down: ['volume', 'decrease'],
  speed_up: ['speed', 'increase'],
  speed_down: ['speed', 'decrease'],
};

const CHANGE_PROPS = ['volume', 'temperature', 'brightness', 'position', 'speed', 'color'];
const DEGREES = new Set(['degrees', 'celsius', 'fahrenheit']);

/** Values a person can mean: percentages from 0 to 100, white from 1,000 K to 20,000 K. */
const RANGES: Record<string, [number, number]> = { brightness: [0, 100], position: [0, 100], volume: [0, 100], speed: [0, 100], kelvin: [1000, 20000] };

/** A value the act cannot take as said (150% brightness, a step of 300%), with its range; temperatures are the hub's to check. */
export function outOfRange(act: Act): { value: number; min: number; max: number } | undefined {
  if (act.value === undefined || !['set', 'increase', 'decrease'].includes(act.verb)) return undefined;
  const prop =
    act.unit === 'kelvin'
      ? 'kelvin'
      : act.unit === 'percent' && (!act.prop || act.prop === 'color')
        ? 'brightness'
        : (act.prop ?? (act.color || act.kelvin !== undefined ? undefined : 'brightness'));
  const range = prop ? RANGES[prop] : undefined;
  if (!range) return undefined;
  // A volume below 1 is a level (0.3), not a percentage.
  const v = prop === 'volume' && !act.relative && act.value <= 1 && !Number.isInteger(act.value) ? act.value * 100 : act.value;
  const [min, max] = act.relative ? [0, range[1]] : range;
  return v < min || v > max ? { value: act.value, min, max } : undefined;
}

/** Whites from this colour temperature up are cool ones ("cool the room off" lowers the heating, not the lights). */
const COOL_KELVIN = 4000;

/** Steps of a relative change by how much was asked: a little, as usual, a lot. */
const STEPS: Record<string, Record<Amount | 'normal', number>> = {
  brightness: { small: 5, normal: 10, large: 30 },
  volume: { small: 5, normal: 10, large: 30 },
  position: { small: 20, normal: 100, large: 50 },
  speed: { small: 10, normal: 20, large: 40 },
};

/** The value said: the only number, or of several the last, said after "to" when no other is; undefined where several leave it open. */
export function valueSaid(f: Frame): Frame['numbers'][number] | undefined {
  if (f.numbers.length <= 1) return f.numbers[0];
  const last = f.numbers[f.numbers.length - 1]!;
  return last.to && f.numbers.filter((n) => n.to).length === 1 ? last : undefined;
}

/** The act a command's words ask for, or undefined when they name no act at all. */
export function actOf(f: Frame): Act | undefined {
  const said = f.actions.find((a) => a !== 'set');
  const particle0 = f.particles.find((p) => p === 'on' || p === 'off');
  // "flip the lights back on": the particle says which way, so it is not a toggle; "shut the tv off" is off, not closed.
  const strong = said === 'toggle' && particle0 ? (particle0 === 'on' ? 'turn_on' : 'turn_off') : said === 'close' && particle0 === 'off' ? 'turn_off' : said;
  // "from sixty to seventy", "von 80 auf 30": of several values, the one said after "to" is the one wanted.
  const num = valueSaid(f);
  const prop =
    f.props.find((p) => CHANGE_PROPS.includes(p)) ?? (num?.unit && DEGREES.has(num.unit) ? 'temperature' : num?.unit === 'kelvin' ? 'kelvin' : undefined);
  const value = num?.value ?? f.fraction ?? f.fanSpeed;
  const base: Partial<Act> = { ...(f.code ? { code: f.code } : {}), ...(num?.unit ? { unit: num.unit } : {}), ...(f.amount ? { amount: f.amount } : {}) };
  const particle = f.particles.find((p) => p === 'on' || p === 'off');
  const updown = f.particles.find((p) => p === 'up' || p === 'down') ?? f.rel;

  // "10 percent more", "two degrees less": a change by the amount said.
  if (num && !num.to && f.rel && !f.comparative && strong !== 'dim' && strong !== 'brighten') {
    const up = strong === 'open' || strong === 'increase' || (strong !== 'close' && strong !== 'decrease' && f.rel === 'up');
    return {
      ...base,
      verb: up ? 'increase' : 'decrease',
      prop: prop ?? (strong === 'open' || strong === 'close' ? 'position' : undefined),
      value: num.value,
      relative: true,
    };
  }
  if (f.comparative) {
    const [p, dir] = PROP_OF_COMPARATIVE[f.comparative] ?? ['brightness', 'increase'];
    if (num && !num.by && num.to) return { ...base, verb: 'set', prop: p, value: num.value };
    return { ...base, verb: dir, prop: p, ...(num ? { value: num.value, relative: true } : {}) };
  }
  // "warm it up in here", "cool it down", "cool the room off": with no light named, warm and cool mean the room's temperature.
  const cooled = f.kelvin !== undefined && f.kelvin >= COOL_KELVIN && particle === 'off' ? 'down' : undefined;
  if (
    f.kelvin !== undefined &&
    !f.color &&
    (!strong || (cooled && strong === 'turn_off')) &&
    (updown ?? cooled) &&
    !num &&
    !f.mentions.some((m) => m.meanings.some((x) => x.k === 'domain' && x.domain === 'light'))
  ) {
    return { ...base, verb: (updown ?? cooled) === 'up' ? 'increase' : 'decrease', prop: 'temperature' };
  }
  if (strong === 'dim' || strong === 'brighten') {
    if (num && !num.by) return { ...base, verb: 'set', prop: 'brightness', value: num.value };
    // "dim it to a quarter", "auf ein Viertel": the share said is the level.
    if (!num && f.fraction !== undefined) return { ...base, verb: 'set', prop: 'brightness', value: f.fraction };
    return { ...base, verb: strong === 'dim' ? 'decrease' : 'increase', prop: 'brightness', ...(num ? { value: num.value, relative: true } : {}) };
  }
  if (strong === 'increase' || strong === 'decrease' || (!strong && updown && (prop || value !== undefined))) {
    const verb = strong ?? (updown === 'up' ? 'increase' : 'decrease');
    // "zwei Grad runter", "two degrees up": degrees with up or down and no "to" are a change by them.
    const by = num?.by || (num && !num.to && num.unit !== undefined && DEGREES.has(num.unit));
    if (value !== undefined && !by) return { ...base, verb: 'set', prop, value };
    return { ...base, verb, prop, ...(num ? { value: num.value, relative: true } : {}) };
  }
  if (strong === 'arm' || strong === 'disarm') return { ...base, verb: strong, alarm: f.alarmMode };
  if (strong === 'open' && value !== undefined && (!prop || prop === 'position')) return { ...base, verb: 'set', prop: 'position', value };
  // "open the curtain a little": part of the way.
  if ((strong === 'open' || strong === 'close') && f.amount) return { ...base, verb: strong === 'open' ? 'increase' : 'decrease', prop: 'position' };
  if (strong === 'turn_on' || (!strong && particle === 'on')) {
    if (f.color || f.kelvin !== undefined || value !== undefined) return { ...base, verb: 'set', prop, value, color: f.color, kelvin: f.kelvin };
    return { ...base, verb: 'turn_on' };
  }
  if (strong === 'turn_off') return { ...base, verb: 'turn_off' };
  if (!strong && particle === 'off') return { ...base, verb: 'turn_off', raise: true };
  if (strong) return { ...base, verb: strong, ...(value !== undefined ? { value } : {}) };
  if (f.color || f.kelvin !== undefined)
    return { ...base, verb: 'set', prop: 'color', color: f.color, kelvin: f.kelvin, ...(value !== undefined ? { value } : {}) };
  if (f.alarmMode && value === undefined) return { ...base, verb: 'arm', alarm: f.alarmMode };
  if (value !== undefined) return { ...base, verb: 'set', prop, value };
  // "light this room up"
  if (updown === 'up' && f.mentions.some((m) => m.meanings.some((x) => x.k === 'domain' && x.domain === 'light'))) return { verb: 'turn_on' };
  // "the blinds down", "mach die Rollos hoch": what opens opens or closes, the rest goes up or down a step.
  const alone = f.particles.find((p) => p === 'up' || p === 'down');
  if (alone) return { ...base, verb: alone === 'up' ? 'increase' : 'decrease', raise: true };
  return undefined;
}

/** Domains an act points at when the command names no kind of thing ("pause", "bedroom 50%"). */
export function impliedDomains(act: Act): string[] {
  switch (act.verb) {
    case 'pause':
    case 'resume':
    case 'next':
    case 'previous':
    case 'mute':
    case 'unmute':
      return ['media_player'];
    case 'clean':
    case 'dock':
      return ['vacuum'];
    case 'arm':
    case 'disarm':
      return ['alarm_control_panel'];
    case 'lock':
    case 'unlock':
      return ['lock'];
    case 'open':
    case 'close':
      return ['cover', 'valve'];
    case 'stop':
      return ['media_player', 'vacuum', 'cover'];
    case 'start':
      return ['vacuum'];
  }
  switch (act.prop) {
    case 'volume':
      return ['media_player'];
    case 'temperature':
      return ['climate'];
    case 'position':
      return ['cover'];
    case 'speed':
      return ['fan'];
    case 'brightness':
    case 'color':
    case 'kelvin':
      return ['light'];
  }
  if (act.verb === 'set' && (act.color || act.kelvin !== undefined || act.value !== undefined)) return ['light'];
  return ['light'];
}

export interface ServiceStep {
  service: string;
  data: Record<string, unknown>;
}

const num = (x: unknown): number | undefined =>
  typeof x === 'number' ? x : typeof x === 'string' && x.trim() !== '' && !Number.isNaN(Number(x)) ? Number(x) : undefined;
const clamp = (x: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, x));
const round2 = (x: number) => Math.round(x * 100) / 100;

const ON_OFF = new Set([
  'light',
  'switch',
  'fan',
  'input_boolean',
  'automation',
  'media_player',
  'climate',
  'humidifier',
  'siren',
  'remote',
  'water_heater',
  'group',
]);

/** The service (and data) that does an act on one entity, or undefined when its domain cannot. */
export function serviceFor(act: Act, domain: string, state: HubState | undefined, units: Units = { temperature: '°C' }): ServiceStep | undefined {
  const attrs = state?.attributes ?? {};
  const s = (service: string, data: Record<string, unknown> = {}): ServiceStep => ({ service, data });
  switch (act.verb) {
    case 'turn_on':
    case 'start':
      if (domain === 'cover') return act.verb === 'turn_on' ? s('open_cover') : undefined;
      if (domain === 'valve') return s('open_valve');
      if (domain === 'vacuum') return s('start');
      if (domain === 'lawn_mower') return s('start_mowing');
      if (domain === 'scene' || domain === 'script') return s('turn_on');
      if (domain === 'automation') return s(act.verb === 'start' ? 'trigger' : 'turn_on');
      if (domain === 'button' || domain === 'input_button') return s('press');
      if (domain === 'media_player' && act.verb === 'start') return s('media_play');
      return ON_OFF.has(domain) ? s('turn_on') : undefined;
    case 'turn_off':
      if (domain === 'cover') return s('close_cover');
      // "sperr die Tür ab": off said alone of a lock locks it (never the other way round).
      if (domain === 'lock' && act.raise) return s('lock', act.code ? { code: act.code } : {});
      if (domain === 'valve') return s('close_valve');
      if (domain === 'vacuum') return s('return_to_base');
      if (domain === 'script') return s('turn_off');
      return ON_OFF.has(domain) ? s('turn_off') : undefined;
    case 'toggle':
      return ON_OFF.has(domain) || domain === 'cover' ? s('toggle') : undefined;
    case 'open':
      if (domain === 'cover') return s('open_cover');
      if (domain === 'valve') return s('open_valve');
      if (domain === 'lock') return s('unlock');
      return undefined;
    case 'close':
      if (domain === 'cover') return s('close_cover');
      if (domain === 'valve') return s('close_valve');
      if (domain === 'lock') return s('lock');
      return undefined;
    case 'lock':
    case 'unlock':
      return domain === 'lock' ? s(act.verb, act.code ? { code: act.code } : {}) : undefined;
    case 'pause':
      // "halt die Markise an", "hold the blind": a cover that moves is stopped where it is.
      if (domain === 'cover') return s('stop_cover');
      return domain === 'media_player' ? s('media_pause') : domain === 'vacuum' || domain === 'lawn_mower' ? s('pause') : undefined;
    case 'resume':
      return domain === 'media_player' ? s('media_play') : domain === 'vacuum' ? s('start') : domain === 'lawn_mower' ? s('start_mowing') : undefined;
    case 'next':
      return domain === 'media_player' ? s('media_next_track') : undefined;
    case 'previous':
      // "back" said of a robot sends it back to its base.
      return domain === 'media_player'
        ? s('media_previous_track')
        : domain === 'vacuum'
          ? s('return_to_base')
          : domain === 'lawn_mower'
            ? s('dock')
            : undefined;
    case 'stop':
      if (domain === 'media_player') return s('media_stop');
      if (domain === 'vacuum') return s('stop');
      if (domain === 'cover') return s('stop_cover');
      // "stop the fan": a thing that only runs or not is turned off.
      return ON_OFF.has(domain) && domain !== 'climate' ? s('turn_off') : undefined;
    case 'mute':
    case 'unmute':
      return domain === 'media_player' ? s('volume_mute', { is_volume_muted: act.verb === 'mute' }) : undefined;
    case 'clean':
      return domain === 'vacuum' ? s('start') : undefined;
    case 'dock':
      return domain === 'vacuum' ? s('return_to_base') : domain === 'lawn_mower' ? s('dock') : undefined;
    case 'arm':
      return domain === 'alarm_control_panel' ? s(act.alarm ?? 'alarm_arm_away', act.code ? { code: act.code } : {}) : undefined;
    case 'disarm':
      return domain === 'alarm_control_panel' ? s('alarm_disarm', act.code ? { code: act.code } : {}) : undefined;
    case 'set':
      return setFor(act, domain, attrs, units);
    case 'increase':
    case 'decrease':
      return stepFor(act, domain, attrs, act.verb === 'increase' ? 1 : -1, units);
  }
  return undefined;
}

/**
 * The targets a thermostat takes, in the hub's unit: what it reports, else Home Assistant's climate
 * defaults (DEFAULT_MIN_TEMP 7 °C, DEFAULT_MAX_TEMP 35 °C; 45 °F and 95 °F as a Fahrenheit home shows them).
 * A water heater's defaults are not a room's, so only what it reports counts.
 */
export function temperatureRange(domain: string, attrs: Record<string, unknown>, units: Units): { min?: number; max?: number } {
  const f = units.temperature === '°F';
  const fallback = domain === 'climate';
  return {
    min: num(attrs.min_temp) ?? (fallback ? (f ? 45 : 7) : undefined),
    max: num(attrs.max_temp) ?? (fallback ? (f ? 95 : 35) : undefined),
  };
}

/** A temperature a thermostat or water heater would be set to outside what it takes (70 °C in a kitchen, 22 °F indoors). */
export function temperatureOutOfRange(
  domain: string,
  step: ServiceStep,
  attrs: Record<string, unknown>,
  units: Units,
): { value: number; min: number; max: number } | undefined {
  const t = num(step.data.temperature);
  if (step.service !== 'set_temperature' || t === undefined) return undefined;
  const { min, max } = temperatureRange(domain, attrs, units);
  if ((min !== undefined && t < min) || (max !== undefined && t > max)) return { value: t, min: min ?? -Infinity, max: max ?? Infinity };
  return undefined;
}

/** A temperature said in one unit, in the hub's (21 °C in a Fahrenheit home is 70 °F), to the thermostat's step. */
function inHubUnit(v: number, said: string | undefined, units: Units, step: number): number {
  let t = v;
  if (said === 'celsius' && units.temperature === '°F') t = (v * 9) / 5 + 32;
  if (said === 'fahrenheit' && units.temperature === '°C') t = ((v - 32) * 5) / 9;
  return t === v ? v : Math.round(t / step) * step;
}

function setFor(act: Act, domain: string, attrs: Record<string, unknown>, units: Units): ServiceStep | undefined {
  const v = act.value;
  switch (domain) {
    case 'light': {
      // A colour or a white and a brightness said together go together ("50 percent and warm white").
      const data: Record<string, unknown> = {};
      if (act.color) data.color_name = act.color;
      if (act.kelvin !== undefined) data.color_temp_kelvin = act.kelvin;
      if (v !== undefined) {
        if (act.unit === 'kelvin' || act.prop === 'kelvin') data.color_temp_kelvin = Math.round(v);
        else if (act.prop && !['brightness', 'color'].includes(act.prop)) return undefined;
        else data.brightness_pct = Math.round(v);
      }
      return Object.keys(data).length ? { service: 'turn_on', data } : undefined;
    }
    case 'cover':
      if (v === undefined || (act.prop && act.prop !== 'position' && act.prop !== 'brightness')) return undefined;
      return { service: 'set_cover_position', data: { position: Math.round(v) } };
    case 'valve':
      return v === undefined ? undefined : { service: 'set_valve_position', data: { position: Math.round(v) } };
    case 'media_player':
      if (v === undefined || (act.prop && act.prop !== 'volume')) return undefined;
      return { service: 'volume_set', data: { volume_level: round2(clamp(v <= 1 && !Number.isInteger(v) ? v : v / 100, 0, 1)) } };
    case 'climate':
      if (v === undefined || (act.prop && act.prop !== 'temperature')) return undefined;
      return {
        service: 'set_temperature',
        data: { temperature: inHubUnit(v, act.unit, units, num(attrs.target_temp_step) ?? (units.temperature === '°F' ? 1 : 0.5)) },
      };
    case 'fan':
      if (v === undefined || (act.prop && !['speed', 'brightness'].includes(act.prop))) return undefined;
      return { service: 'set_percentage', data: { percentage: Math.round(v) } };
    case 'input_number':
    case 'number':
      return v === undefined ? undefined : { service: 'set_value', data: { value: v } };
    case 'water_heater':
      if (v === undefined || (act.prop && act.prop !== 'temperature')) return undefined;
      return {
        service: 'set_temperature',
        data: { temperature: inHubUnit(v, act.unit, units, num(attrs.target_temp_step) ?? (units.temperature === '°F' ? 1 : 0.5)) },
      };
    case 'humidifier':
      if (v === undefined || (act.prop && act.prop !== 'humidity')) return undefined;
      return { service: 'set_humidity', data: { humidity: Math.round(v) } };
    case 'alarm_control_panel':
      return act.alarm ? { service: act.alarm, data: act.code ? { code: act.code } : {} } : undefined;
  }
  return undefined;
}

function stepFor(act: Act, domain: string, attrs: Record<string, unknown>, sign: 1 | -1, units: Units): ServiceStep | undefined {
  const by = act.relative ? act.value : undefined;
  const step = (prop: string) => by ?? STEPS[prop]![act.amount ?? 'normal'];
  switch (domain) {
    case 'light':
      if (act.prop && act.prop !== 'brightness') return undefined;
      return { service: 'turn_on', data: { brightness_step_pct: sign * step('brightness') } };
    case 'media_player': {
      if (act.prop && act.prop !== 'volume') return undefined;
      if (by === undefined && !act.amount) return { service: sign > 0 ? 'volume_up' : 'volume_down', data: {} };
      const cur = num(attrs.volume_level) ?? 0;
      return { service: 'volume_set', data: { volume_level: round2(clamp(cur + (sign * step('volume')) / 100, 0, 1)) } };
    }
    case 'climate': {
      if (act.prop && act.prop !== 'temperature') return undefined;
      // From the target the hub reports, else its reading, in the hub's unit; with neither, nothing is guessed.
      const cur = num(attrs.temperature) ?? num(attrs.current_temperature);
      if (cur === undefined) return undefined;
      const f = units.temperature === '°F';
      const unitStep = num(attrs.target_temp_step) ?? (f ? 1 : 0.5);
      // A change said in the other unit (2 °C warmer in a Fahrenheit home) is converted.
      const said = by === undefined ? undefined : act.unit === 'celsius' && f ? (by * 9) / 5 : act.unit === 'fahrenheit' && !f ? (by * 5) / 9 : by;
      const delta = said ?? (act.amount === 'small' ? unitStep : act.amount === 'large' ? (f ? 3 : 2) : Math.max(unitStep, 1));
      // Outside what the thermostat takes (a reading of 1 °F, one up: 2 °F) the planner refuses it, never moves it to
      // an edge; the thermostat still counts as one that was maybe meant ("turn up the heat" with two asks which).
      return { service: 'set_temperature', data: { temperature: Math.round((cur + sign * delta) / unitStep) * unitStep } };
    }
    case 'fan': {
      if (act.prop && act.prop !== 'speed') return undefined;
      if (by === undefined && !act.amount) return { service: sign > 0 ? 'increase_speed' : 'decrease_speed', data: {} };
      const cur = num(attrs.percentage) ?? 0;
      return { service: 'set_percentage', data: { percentage: clamp(cur + sign * step('speed'), 0, 100) } };
    }
    case 'valve':
      return act.raise ? { service: sign > 0 ? 'open_valve' : 'close_valve', data: {} } : undefined;
    case 'lock':
      // "sperr die Tür auf", "Haustür zu": up unlocks, down locks.
      return act.raise ? { service: sign > 0 ? 'unlock' : 'lock', data: act.code ? { code: act.code } : {} } : undefined;
    case 'cover': {
      if (act.prop && act.prop !== 'position') return undefined;
      const cur = num(attrs.current_position);
      if (by === undefined && !act.amount) return { service: sign > 0 ? 'open_cover' : 'close_cover', data: {} };
      // Part of the way needs to know where it is now; a cover that does not say is not guessed at.
      if (cur === undefined) return undefined;
      return { service: 'set_cover_position', data: { position: clamp(cur + sign * step('position'), 0, 100) } };
    }
  }
  return undefined;
}
