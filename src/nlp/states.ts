// What state words mean for each kind of entity: which entities a word can be asked about ("locked"
// of a lock or a lock sensor), and whether an entity's state is what the word says.
import type { HubState } from '../hub/types.js';
import type { HomeEntity } from './home.js';

const ON_DOMAINS = new Set([
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
  'binary_sensor',
  'water_heater',
  'group',
]);
const OPENINGS = new Set(['door', 'garage_door', 'opening', 'window']);

/** Whether a state word can be said of this entity. */
export function stateApplies(word: string, e: HomeEntity): boolean {
  switch (word) {
    case 'on':
    case 'off':
      return ON_DOMAINS.has(e.domain);
    case 'open':
    case 'closed':
      return e.domain === 'cover' || e.domain === 'valve' || (e.domain === 'binary_sensor' && OPENINGS.has(e.cls ?? ''));
    case 'locked':
    case 'unlocked':
      return e.domain === 'lock' || (e.domain === 'binary_sensor' && e.cls === 'lock');
    case 'home':
    case 'not_home':
      return e.domain === 'person' || e.domain === 'device_tracker' || (e.domain === 'binary_sensor' && e.cls === 'presence');
    case 'playing':
    case 'paused':
      return e.domain === 'media_player';
    case 'cleaning':
    case 'docked':
      return e.domain === 'vacuum';
    case 'armed':
    case 'disarmed':
      return e.domain === 'alarm_control_panel';
  }
  return false;
}

const isOn = (domain: string, s: string) => {
  if (domain === 'media_player') return !['off', 'standby', 'unavailable', 'unknown'].includes(s);
  if (domain === 'climate') return s !== 'off' && s !== 'unavailable';
  return s === 'on';
};

/** Whether the entity's state is what the word says (binary sensors by their class's sense of on). */
export function stateIs(word: string, e: HomeEntity, st: HubState | undefined, bstate?: { on: boolean }): boolean {
  const s = st?.state ?? 'unknown';
  if (bstate) return s === (bstate.on ? 'on' : 'off');
  switch (word) {
    case 'armed':
      return s.startsWith('armed_');
    case 'on':
      return isOn(e.domain, s);
    case 'off':
      return !isOn(e.domain, s) && s !== 'unavailable';
    case 'open':
      return e.domain === 'binary_sensor' ? s === 'on' : s === 'open' || s === 'opening';
    case 'closed':
      return e.domain === 'binary_sensor' ? s === 'off' : s === 'closed' || s === 'closing';
    case 'locked':
      return e.domain === 'binary_sensor' ? s === 'off' : s === 'locked';
    case 'unlocked':
      return e.domain === 'binary_sensor' ? s === 'on' : s === 'unlocked' || s === 'open';
    case 'home':
      return e.domain === 'binary_sensor' ? s === 'on' : s === 'home';
    case 'not_home':
      return e.domain === 'binary_sensor' ? s === 'off' : s !== 'home';
    default:
      return s === word;
  }
}
