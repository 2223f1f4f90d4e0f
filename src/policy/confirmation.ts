// The safety rules every way of acting shares (tools, natural-language commands, the panel):
// actions that open a home to the outside, or its water or gas supply, are held until the caller confirms them.
import { domainOf } from '../hub/entity-id.js';
import type { HubState } from '../hub/types.js';

/** Cover device classes that are a way into the home. */
const ENTRANCES = new Set(['garage', 'gate', 'door']);
/** Valve device classes whose opening lets water or gas flow into the home unseen (a flood, a leak). */
const SUPPLIES = new Set(['water', 'gas']);

/**
 * Why an action needs `confirm: true`, or undefined when it does not. `service` is the hub's
 * service in the entity's domain (after generic actions are resolved). With `via` (how an
 * indirect action reaches it: "running script.unlocker") the reason says so: "running
 * script.unlocker unlocks lock.front_door".
 */
export function confirmationReason(
  entityId: string,
  service: string,
  data: Record<string, unknown>,
  state: HubState | undefined,
  via?: string,
): string | undefined {
  const domain = domainOf(entityId);
  const say = (gerund: string, verb: string, what: string) => (via ? `${via} ${verb} ${what}` : `${gerund} ${what}`);
  if (domain === 'lock' && (service === 'unlock' || service === 'open'))
    return service === 'open' ? say('opening', 'opens', entityId) : say('unlocking', 'unlocks', entityId);
  if (domain === 'alarm_control_panel' && service === 'alarm_disarm') return say('disarming', 'disarms', entityId);
  const opens = service === 'open_cover' || (service === 'set_cover_position' && !(Number(data.position) <= 0));
  if (domain === 'cover' && opens) {
    const cls = state?.attributes.device_class;
    if (typeof cls === 'string' && ENTRANCES.has(cls)) return say('opening', 'opens', `the ${cls} ${entityId}`);
  }
  const opensValve = service === 'open_valve' || (service === 'set_valve_position' && !(Number(data.position) <= 0));
  if (domain === 'valve' && opensValve) {
    const cls = state?.attributes.device_class;
    if (typeof cls === 'string' && SUPPLIES.has(cls)) return say('opening', 'opens', `the ${cls} valve ${entityId}`);
  }
  return undefined;
}
