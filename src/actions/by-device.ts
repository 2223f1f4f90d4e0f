// A DeviceCommand may name a device (device_id) instead of an entity: the device's one entity that
// takes the action does it. A device the hub does not know is DEVICE_NOT_FOUND (the contract's
// code, with details.device_id); a device with several entities that take the action is AMBIGUOUS
// (the caller names one by entity_id): the bridge does not guess which.
import { ambiguous, AppError } from '../errors.js';
import type { HomeView } from '../policy/home-view.js';
import type { ActionExecutor } from './executor.js';

/** The device's entities the caller may see, in id order. */
export function entitiesOfDevice(home: HomeView, deviceId: string): string[] {
  return home
    .ids()
    .filter((id) => home.entry(id)?.device_id === deviceId)
    .sort();
}

/** The one entity of a device that takes an action, or the error that says why there is none. */
export function entityForDevice(home: HomeView, actions: ActionExecutor, deviceId: string, action: string): string {
  const device = home.device(deviceId);
  if (!device) throw actions.unknownDevice(deviceId);
  const own = entitiesOfDevice(home, deviceId);
  const takers = own.filter((id) => actions.supportedActions(id).includes(action));
  if (takers.length === 1) return takers[0]!;
  const name = device.name_by_user ?? device.name ?? deviceId;
  if (!takers.length) {
    const supported = own.map((entity_id) => ({ entity_id, supported_actions: actions.supportedActions(entity_id) }));
    throw new AppError('INVALID_ACTION', 400, `No entity of ${name} (${deviceId}) takes ${action}; its entities: ${own.join(', ') || 'none'}`, {
      device_id: deviceId,
      action,
      entities: supported,
    });
  }
  const candidates = takers.map((entity_id) => {
    const s = home.state(entity_id);
    return {
      entity_id,
      name: typeof s?.attributes.friendly_name === 'string' ? s.attributes.friendly_name : entity_id,
      area: home.areaOf(entity_id)?.name ?? null,
    };
  });
  throw ambiguous(`${name} (${deviceId}) has ${takers.length} entities that take ${action}: ${takers.join(', ')}; give entity_id`, candidates, {
    device_id: deviceId,
  });
}
