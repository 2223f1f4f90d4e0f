// Bringing an entity to a wanted state through its domain's services, as the hub's
// reproduce_state does for scenes: the services run, so their events and checks happen too.
import type { Context } from '../context.js';
import type { Hub } from '../hub.js';
import { splitEntityId } from '../states.js';

export type Wanted = string | ({ state?: string } & Record<string, unknown>);

const pick = (attrs: Record<string, unknown>, keys: string[]) => Object.fromEntries(Object.entries(attrs).filter(([k]) => keys.includes(k)));

const LIGHT_KEYS = ['brightness', 'brightness_pct', 'color_temp_kelvin', 'hs_color', 'rgb_color', 'xy_color', 'effect', 'color_name', 'transition'];

export async function reproduce(hub: Hub, entityId: string, wanted: Wanted, context: Context): Promise<void> {
  const [domain] = splitEntityId(entityId);
  const { state, ...attrs } = typeof wanted === 'string' ? { state: wanted } : wanted;
  const calls: Array<[string, Record<string, unknown>]> = [];
  const onOff = () => {
    if (state === 'on') calls.push(['turn_on', {}]);
    if (state === 'off') calls.push(['turn_off', {}]);
  };
  switch (domain) {
    case 'light':
      if (state === 'off') calls.push(['turn_off', pick(attrs, ['transition'])]);
      else if (state === 'on' || Object.keys(attrs).length) calls.push(['turn_on', pick(attrs, LIGHT_KEYS)]);
      break;
    case 'switch':
    case 'input_boolean':
    case 'automation':
      onOff();
      break;
    case 'fan':
      if (state === 'off') calls.push(['turn_off', {}]);
      else if (state === 'on') calls.push(['turn_on', pick(attrs, ['percentage', 'preset_mode'])]);
      if (typeof attrs.oscillating === 'boolean') calls.push(['oscillate', { oscillating: attrs.oscillating }]);
      if (typeof attrs.direction === 'string') calls.push(['set_direction', { direction: attrs.direction }]);
      break;
    case 'cover':
      if (typeof attrs.current_position === 'number') calls.push(['set_cover_position', { position: attrs.current_position }]);
      else if (state === 'open') calls.push(['open_cover', {}]);
      else if (state === 'closed') calls.push(['close_cover', {}]);
      break;
    case 'valve':
      if (state === 'open') calls.push(['open_valve', {}]);
      else if (state === 'closed') calls.push(['close_valve', {}]);
      break;
    case 'lock':
      if (state === 'locked') calls.push(['lock', {}]);
      if (state === 'unlocked') calls.push(['unlock', {}]);
      break;
    case 'climate':
      if (state) calls.push(['set_hvac_mode', { hvac_mode: state }]);
      if (typeof attrs.temperature === 'number') calls.push(['set_temperature', { temperature: attrs.temperature }]);
      break;
    case 'media_player':
      if (state === 'off') calls.push(['turn_off', {}]);
      else if (state === 'on' || state === 'idle') calls.push(['turn_on', {}]);
      else if (state === 'playing') calls.push(['media_play', {}]);
      else if (state === 'paused') calls.push(['media_pause', {}]);
      if (typeof attrs.volume_level === 'number') calls.push(['volume_set', { volume_level: attrs.volume_level }]);
      if (typeof attrs.source === 'string') calls.push(['select_source', { source: attrs.source }]);
      break;
    case 'vacuum':
      if (state === 'cleaning') calls.push(['start', {}]);
      else if (state === 'docked' || state === 'returning') calls.push(['return_to_base', {}]);
      else if (state === 'idle') calls.push(['stop', {}]);
      else if (state === 'paused') calls.push(['pause', {}]);
      break;
    default:
      hub.log.warn(`Reproduce state not supported for ${entityId}`);
  }
  for (const [service, data] of calls) {
    try {
      await hub.services.call(domain, service, { ...data, entity_id: entityId }, { context });
    } catch (err) {
      hub.log.warn(`Reproducing ${entityId} with ${domain}.${service} failed: ${(err as Error).message}`);
    }
  }
}
