// What a command asks to be done, and the hub service that does it for each kind of entity. The
// words chose an act (turn on, open, set, dim, next track, arm ...) and values; here each entity's
// domain turns that act into a service and its data, or says it has none.
import type { HubState } from '../hub/types.js';
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

/** The act a command's words ask for, or undefined when they name no act at all. */
export function actOf(f: Frame): Act | undefined {
  const strong = f.actions.find((a) => a !== 'set');
  const num = f.numbers[0];
  const prop = f.props.find((p) => CHANGE_PROPS.includes(p)) ?? (num?.unit === 'degrees' ? 'temperature' : num?.unit === 'kelvin' ? 'kelvin' : undefined);
  const value = num?.value ?? f.fraction ?? f.fanSpeed;
  const base: Partial<Act> = { ...(f.code ? { code: f.code } : {}), ...(num?.unit ? { unit: num.unit } : {}) };
  const particle = f.particles.find((p) => p === 'on' || p === 'off');
  const updown = f.particles.find((p) => p === 'up' || p === 'down') ?? f.rel;

  if (f.comparative) {
    const [p, dir] = PROP_OF_COMPARATIVE[f.comparative] ?? ['brightness', 'increase'];
    if (num && !num.by && num.to) return { ...base, verb: 'set', prop: p, value: num.value };
    return { ...base, verb: dir, prop: p, ...(num ? { value: num.value, relative: true } : {}) };
  }
  if (strong === 'dim' || strong === 'brighten') {
    if (num && !num.by) return { ...base, verb: 'set', prop: 'brightness', value: num.value };
    return { ...base, verb: strong === 'dim' ? 'decrease' : 'increase', prop: 'brightness', ...(num ? { value: num.value, relative: true } : {}) };
  }
  if (strong === 'increase' || strong === 'decrease' || (!strong && updown && (prop || value !== undefined))) {
    const verb = strong ?? (updown === 'up' ? 'increase' : 'decrease');
    if (value !== undefined && !num?.by) return { ...base, verb: 'set', prop, value };
    return { ...base, verb, prop, ...(num ? { value: num.value, relative: true } : {}) };
  }
  if (strong === 'arm' || strong === 'disarm') return { ...base, verb: strong, alarm: f.alarmMode };
  if (strong === 'open' && value !== undefined) return { ...base, verb: 'set', prop: 'position', value };
  if (strong === 'turn_on' || (!strong && particle === 'on')) {
    if (f.color || f.kelvin !== undefined || (value !== undefined && prop !== 'temperature')) return { ...base, verb: 'set', prop: prop ?? 'brightness', value, color: f.color, kelvin: f.kelvin };
    return { ...base, verb: 'turn_on' };
  }
  if (strong === 'turn_off' || (!strong && particle === 'off')) return { ...base, verb: 'turn_off' };
  if (strong) return { ...base, verb: strong, ...(value !== undefined ? { value } : {}) };
  if (f.color || f.kelvin !== undefined) return { ...base, verb: 'set', prop: 'color', color: f.color, kelvin: f.kelvin };
  if (f.alarmMode && value === undefined) return { ...base, verb: 'arm', alarm: f.alarmMode };
  if (value !== undefined) return { ...base, verb: 'set', prop, value };
  // "light this room up"
  if (updown === 'up' && f.mentions.some((m) => m.meanings.some((x) => x.k === 'domain' && x.domain === 'light'))) return { verb: 'turn_on' };
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

const num = (x: unknown): number | undefined => (typeof x === 'number' ? x : typeof x === 'string' && x.trim() !== '' && !Number.isNaN(Number(x)) ? Number(x) : undefined);
const clamp = (x: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, x));
const round2 = (x: number) => Math.round(x * 100) / 100;

const ON_OFF = new Set(['light', 'switch', 'fan', 'input_boolean', 'automation', 'media_player', 'climate', 'humidifier', 'siren', 'remote', 'water_heater', 'group']);

/** The service (and data) that does an act on one entity, or undefined when its domain cannot. */
export function serviceFor(act: Act, domain: string, state: HubState | undefined): ServiceStep | undefined {
  const attrs = state?.attributes ?? {};
  const s = (service: string, data: Record<string, unknown> = {}): ServiceStep => ({ service, data });
  switch (act.verb) {
    case 'turn_on':
    case 'start':
      if (domain === 'cover') return act.verb === 'turn_on' ? s('open_cover') : undefined;
      if (domain === 'valve') return s('open_valve');
      if (domain === 'vacuum') return s('start');
      if (domain === 'scene' || domain === 'script') return s('turn_on');
      if (domain === 'automation') return s(act.verb === 'start' ? 'trigger' : 'turn_on');
      if (domain === 'button' || domain === 'input_button') return s('press');
      if (domain === 'media_player' && act.verb === 'start') return s('media_play');
      return ON_OFF.has(domain) ? s('turn_on') : undefined;
    case 'turn_off':
      if (domain === 'cover') return s('close_cover');
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
      return domain === 'media_player' ? s('media_pause') : domain === 'vacuum' ? s('pause') : undefined;
    case 'resume':
      return domain === 'media_player' ? s('media_play') : domain === 'vacuum' ? s('start') : undefined;
    case 'next':
      return domain === 'media_player' ? s('media_next_track') : undefined;
    case 'previous':
      return domain === 'media_player' ? s('media_previous_track') : undefined;
    case 'stop':
      return domain === 'media_player' ? s('media_stop') : domain === 'vacuum' ? s('stop') : domain === 'cover' ? s('stop_cover') : undefined;
    case 'mute':
    case 'unmute':
      return domain === 'media_player' ? s('volume_mute', { is_volume_muted: act.verb === 'mute' }) : undefined;
    case 'clean':
      return domain === 'vacuum' ? s('start') : undefined;
    case 'dock':
      return domain === 'vacuum' ? s('return_to_base') : undefined;
    case 'arm':
      return domain === 'alarm_control_panel' ? s(act.alarm ?? 'alarm_arm_away', act.code ? { code: act.code } : {}) : undefined;
    case 'disarm':
      return domain === 'alarm_control_panel' ? s('alarm_disarm', act.code ? { code: act.code } : {}) : undefined;
    case 'set':
      return setFor(act, domain, attrs);
    case 'increase':
    case 'decrease':
      return stepFor(act, domain, attrs, act.verb === 'increase' ? 1 : -1);
  }
  return undefined;
}

function setFor(act: Act, domain: string, attrs: Record<string, unknown>): ServiceStep | undefined {
  const v = act.value;
  switch (domain) {
    case 'light': {
      if (act.color) return { service: 'turn_on', data: { color_name: act.color } };
      if (act.kelvin !== undefined) return { service: 'turn_on', data: { color_temp_kelvin: act.kelvin } };
      if (v === undefined) return undefined;
      if (act.unit === 'kelvin' || act.prop === 'kelvin') return { service: 'turn_on', data: { color_temp_kelvin: Math.round(v) } };
      if (act.prop && !['brightness', 'color'].includes(act.prop)) return undefined;
      return { service: 'turn_on', data: { brightness_pct: clamp(Math.round(v), 0, 100) } };
    }
    case 'cover':
      if (v === undefined || (act.prop && act.prop !== 'position' && act.prop !== 'brightness')) return undefined;
      return { service: 'set_cover_position', data: { position: clamp(Math.round(v), 0, 100) } };
    case 'valve':
      return v === undefined ? undefined : { service: 'set_valve_position', data: { position: clamp(Math.round(v), 0, 100) } };
    case 'media_player':
      if (v === undefined || (act.prop && act.prop !== 'volume')) return undefined;
      return { service: 'volume_set', data: { volume_level: round2(clamp(v <= 1 && !Number.isInteger(v) ? v : v / 100, 0, 1)) } };
    case 'climate':
      if (v === undefined || (act.prop && act.prop !== 'temperature')) return undefined;
      return { service: 'set_temperature', data: { temperature: v } };
    case 'fan':
      if (v === undefined || (act.prop && !['speed', 'brightness'].includes(act.prop))) return undefined;
      return { service: 'set_percentage', data: { percentage: clamp(Math.round(v), 0, 100) } };
    case 'input_number':
    case 'number':
      return v === undefined ? undefined : { service: 'set_value', data: { value: v } };
    case 'alarm_control_panel':
      return act.alarm ? { service: act.alarm, data: act.code ? { code: act.code } : {} } : undefined;
  }
  return undefined;
}

function stepFor(act: Act, domain: string, attrs: Record<string, unknown>, sign: 1 | -1): ServiceStep | undefined {
  const by = act.relative ? act.value : undefined;
  switch (domain) {
    case 'light':
      if (act.prop && act.prop !== 'brightness') return undefined;
      return { service: 'turn_on', data: { brightness_step_pct: sign * (by ?? 10) } };
    case 'media_player': {
      if (act.prop && act.prop !== 'volume') return undefined;
      if (by === undefined) return { service: sign > 0 ? 'volume_up' : 'volume_down', data: {} };
      const cur = num(attrs.volume_level) ?? 0;
      return { service: 'volume_set', data: { volume_level: round2(clamp(cur + (sign * by) / 100, 0, 1)) } };
    }
    case 'climate': {
      if (act.prop && act.prop !== 'temperature') return undefined;
      const cur = num(attrs.temperature) ?? num(attrs.current_temperature);
      if (cur === undefined) return undefined;
      return { service: 'set_temperature', data: { temperature: cur + sign * (by ?? num(attrs.target_temp_step) ?? 1) } };
    }
    case 'fan': {
      if (act.prop && act.prop !== 'speed') return undefined;
      if (by === undefined) return { service: sign > 0 ? 'increase_speed' : 'decrease_speed', data: {} };
      const cur = num(attrs.percentage) ?? 0;
      return { service: 'set_percentage', data: { percentage: clamp(cur + sign * by, 0, 100) } };
    }
    case 'cover': {
      if (act.prop && act.prop !== 'position') return undefined;
      const cur = num(attrs.current_position);
      if (cur === undefined || by === undefined) return { service: sign > 0 ? 'open_cover' : 'close_cover', data: {} };
      return { service: 'set_cover_position', data: { position: clamp(cur + sign * by, 0, 100) } };
    }
  }
  return undefined;
}
