// How entity states are shown to clients: DeviceState (with its area) and the `devices` listing.
import type { Registries } from './registries.js';
import type { HubState } from './types.js';

export interface DeviceState {
  entity_id: string;
  state: string;
  attributes: Record<string, unknown>;
  last_changed: string;
  last_updated: string;
  area_id: string | null;
  area: string | null;
}

export function toDeviceState(s: HubState, registries: Registries): DeviceState {
  const area = registries.areaOf(s.entity_id);
  return {
    entity_id: s.entity_id,
    state: s.state,
    attributes: s.attributes,
    last_changed: s.last_changed,
    last_updated: s.last_updated,
    area_id: area?.area_id ?? null,
    area: area?.name ?? null,
  };
}

export const toDeviceListing = (s: HubState) => ({ id: s.entity_id, state: s.state, attributes: s.attributes });
