// A home as Home Assistant's WebSocket API would describe it, with no server and no socket: the
// states, registries and services of an in-process hub at the current release. For planning
// commands offline (the parser's benchmark and unit tests); the service itself asks a live hub.
import type { Home } from './home.js';
import { Hub } from './hub.js';
import type { StateObject } from './server.js';
import { CURRENT_VERSION } from './version.js';
import type { WireArea, WireDevice, WireEntity, WireFloor, WireLabel, WireServices } from './wire.js';

export interface HomeSnapshot {
  /** get_states */
  states: StateObject[];
  areas: WireArea[];
  floors: WireFloor[];
  devices: WireDevice[];
  entities: WireEntity[];
  labels: WireLabel[];
  /** get_services */
  services: WireServices;
  /** The unit system's temperature unit. */
  temperatureUnit: '°C' | '°F';
}

export function snapshotHome(home: Home): HomeSnapshot {
  const hub = new Hub({ home, version: CURRENT_VERSION, legacy: false });
  return {
    states: hub.states.all().map((s) => JSON.parse(s.json) as StateObject),
    areas: hub.registries.listAreas(),
    floors: hub.registries.listFloors(),
    devices: hub.registries.listDevices(),
    entities: hub.registries.listEntities(),
    labels: hub.registries.listLabels(),
    services: hub.services.describe(),
    temperatureUnit: hub.temperatureUnit,
  };
}
