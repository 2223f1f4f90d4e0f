// The service a scene's wanted state means, per domain, as Home Assistant's reproduce_state
// modules bring an entity there (homeassistant/components/<domain>/reproduce_state.py): a lock
// `unlocked` is lock.unlock, a cover `open` is open_cover (or a position), an alarm `disarmed` is
// alarm_disarm. Pure. What no row covers comes back as undefined, so the caller can refuse it
// where it matters.

export interface StateCall {
  service: string;
  data: Record<string, unknown>;
}

const num = (x: unknown): number | undefined =>
  typeof x === 'number' ? x : typeof x === 'string' && x.trim() !== '' && !Number.isNaN(Number(x)) ? Number(x) : undefined;

const ON_OFF: Record<string, string> = { on: 'turn_on', off: 'turn_off' };
const LOCK: Record<string, string> = { locked: 'lock', locking: 'lock', unlocked: 'unlock', unlocking: 'unlock', open: 'open', opening: 'open' };
const ALARM: Record<string, string> = {
  disarmed: 'alarm_disarm',
  armed_away: 'alarm_arm_away',
  armed_home: 'alarm_arm_home',
  armed_night: 'alarm_arm_night',
  armed_vacation: 'alarm_arm_vacation',
  armed_custom_bypass: 'alarm_arm_custom_bypass',
  triggered: 'alarm_trigger',
};
const MEDIA: Record<string, string> = { off: 'turn_off', on: 'turn_on', idle: 'turn_on', playing: 'media_play', paused: 'media_pause', standby: 'turn_off' };
const VACUUM: Record<string, string> = {
  cleaning: 'start',
  docked: 'return_to_base',
  returning: 'return_to_base',
  idle: 'stop',
  paused: 'pause',
  on: 'turn_on',
  off: 'turn_off',
};
/** Domains whose scene state is on or off. */
const TOGGLES = new Set(['light', 'switch', 'input_boolean', 'automation', 'fan', 'humidifier', 'siren', 'remote', 'script', 'group']);

/**
 * The calls that bring `entityId`'s domain to `wanted` (a state, or {state, ...attributes}), or
 * undefined when the bridge cannot say (an unknown domain or state).
 */
export function callsForState(domain: string, wanted: unknown): StateCall[] | undefined {
  const w =
    typeof wanted === 'string'
      ? { state: wanted }
      : typeof wanted === 'object' && wanted !== null && !Array.isArray(wanted)
        ? (wanted as Record<string, unknown>)
        : undefined;
  if (!w) return undefined;
  const state = typeof w.state === 'string' ? w.state.toLowerCase() : undefined;
  const attrs = Object.fromEntries(Object.entries(w).filter(([k]) => k !== 'state'));
  const one = (service: string | undefined, data: Record<string, unknown> = {}) => (service ? [{ service, data }] : undefined);
  switch (domain) {
    case 'lock':
      return one(state && LOCK[state]);
    case 'alarm_control_panel':
      return one(state && ALARM[state]);
    case 'cover': {
      const position = num(attrs.current_position);
      const tilt = num(attrs.current_tilt_position);
      const out: StateCall[] = [];
      if (position !== undefined) out.push({ service: 'set_cover_position', data: { position } });
      else if (state === 'open' || state === 'opening') out.push({ service: 'open_cover', data: {} });
      else if (state === 'closed' || state === 'closing') out.push({ service: 'close_cover', data: {} });
      if (tilt !== undefined) out.push({ service: 'set_cover_tilt_position', data: { tilt_position: tilt } });
      return out.length ? out : undefined;
    }
    case 'valve': {
      const position = num(attrs.current_position);
      if (position !== undefined) return one('set_valve_position', { position });
      return one(state === 'open' || state === 'opening' ? 'open_valve' : state === 'closed' || state === 'closing' ? 'close_valve' : undefined);
    }
    case 'media_player':
      return one(state && MEDIA[state]);
    case 'vacuum':
      return one(state && VACUUM[state]);
    case 'climate':
      return state
        ? [
            { service: 'set_hvac_mode', data: { hvac_mode: state } },
            ...(num(attrs.temperature) !== undefined ? [{ service: 'set_temperature', data: { temperature: num(attrs.temperature) } }] : []),
          ]
        : undefined;
    case 'input_number':
    case 'number':
      return num(state) !== undefined ? one('set_value', { value: num(state) }) : undefined;
    case 'input_select':
    case 'select':
      return state ? one('select_option', { option: w.state }) : undefined;
    case 'input_text':
    case 'text':
      return typeof w.state === 'string' ? one('set_value', { value: w.state }) : undefined;
    default:
      if (TOGGLES.has(domain)) {
        // A light or fan given attributes but no state is turned on (as light's reproduce_state does).
        if (!state && Object.keys(attrs).length && (domain === 'light' || domain === 'fan')) return one('turn_on', attrs);
        return one(state && ON_OFF[state], state === 'on' ? attrs : {});
      }
      return undefined;
  }
}

/** The service a device action's type means (its `type` names the action, not always the service). */
export function serviceOfDeviceAction(domain: string, type: string): string {
  const t = type.toLowerCase();
  if (domain === 'cover')
    return (
      (
        {
          open: 'open_cover',
          close: 'close_cover',
          stop: 'stop_cover',
          set_position: 'set_cover_position',
          set_tilt_position: 'set_cover_tilt_position',
          open_tilt: 'open_cover_tilt',
          close_tilt: 'close_cover_tilt',
        } as Record<string, string>
      )[t] ?? t
    );
  if (domain === 'valve')
    return ({ open: 'open_valve', close: 'close_valve', stop: 'stop_valve', set_position: 'set_valve_position' } as Record<string, string>)[t] ?? t;
  if (domain === 'alarm_control_panel') return t === 'disarm' || t.startsWith('arm_') || t === 'trigger' ? `alarm_${t}` : t;
  return t;
}
