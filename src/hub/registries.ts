// Areas, floors, devices, entities and labels from the hub's registries. An entity's area is its
// own, else its device's. Hubs before 2024.3 have no floors or labels and answer unknown_command.
import { EVENT, HA_ERROR, MSG } from './protocol.js';

export interface Floor {
  floor_id: string;
  name: string;
  level?: number | null;
  aliases?: string[];
}
export interface Area {
  area_id: string;
  name: string;
  floor_id?: string | null;
  aliases?: string[];
  /** From 2024.4. */
  labels?: string[];
}
export interface Device {
  id: string;
  name?: string | null;
  name_by_user?: string | null;
  area_id?: string | null;
  manufacturer?: string | null;
  model?: string | null;
  /** From 2024.4. */
  labels?: string[];
}
export interface EntityEntry {
  entity_id: string;
  /** The registry's own id (32 hex digits), which targets and device actions may use for the entity. */
  id?: string;
  device_id?: string | null;
  area_id?: string | null;
  name?: string | null;
  original_name?: string | null;
  disabled_by?: string | null;
  hidden_by?: string | null;
  entity_category?: string | null;
  aliases?: string[];
  labels?: string[];
}
export interface Label {
  label_id: string;
  name: string;
}

export interface RegistrySnapshot {
  areas: Area[];
  floors: Floor[];
  devices: Device[];
  entities: EntityEntry[];
  labels: Label[];
  /** False on hubs that predate floors (they answered unknown_command). */
  floorsSupported: boolean;
}

type Send = (msg: { type: string }) => Promise<unknown>;

const isUnknownCommand = (err: unknown) => typeof err === 'object' && err !== null && (err as { code?: unknown }).code === HA_ERROR.unknownCommand;

async function listOrEmpty<T>(send: Send, type: string): Promise<{ items: T[]; supported: boolean }> {
  try {
    return { items: (await send({ type })) as T[], supported: true };
  } catch (err) {
    if (isUnknownCommand(err)) return { items: [], supported: false };
    throw err;
  }
}

export async function loadRegistries(send: Send): Promise<RegistrySnapshot> {
  const [areas, floors, devices, entities, labels] = await Promise.all([
    send({ type: MSG.areaRegistryList }) as Promise<Area[]>,
    listOrEmpty<Floor>(send, MSG.floorRegistryList),
    send({ type: MSG.deviceRegistryList }) as Promise<Device[]>,
    send({ type: MSG.entityRegistryList }) as Promise<EntityEntry[]>,
    listOrEmpty<Label>(send, MSG.labelRegistryList),
  ]);
  return { areas, floors: floors.items, devices, entities, labels: labels.items, floorsSupported: floors.supported };
}

/** Registry events after which the snapshot is reloaded. */
export const REGISTRY_EVENTS: ReadonlySet<string> = new Set([
  EVENT.areaRegistryUpdated,
  EVENT.floorRegistryUpdated,
  EVENT.deviceRegistryUpdated,
  EVENT.entityRegistryUpdated,
  EVENT.labelRegistryUpdated,
]);

export class Registries {
  readonly areas = new Map<string, Area>();
  readonly floors = new Map<string, Floor>();
  readonly devices = new Map<string, Device>();
  readonly entities = new Map<string, EntityEntry>();
  readonly labels = new Map<string, Label>();
  private readonly byRegistryId = new Map<string, string>();
  floorsSupported = false;

  replace(s: RegistrySnapshot): void {
    const fill = <T>(map: Map<string, T>, items: T[], key: (t: T) => string) => {
      map.clear();
      for (const item of items) map.set(key(item), item);
    };
    fill(this.areas, s.areas, (a) => a.area_id);
    fill(this.floors, s.floors, (f) => f.floor_id);
    fill(this.devices, s.devices, (d) => d.id);
    fill(this.entities, s.entities, (e) => e.entity_id);
    fill(this.labels, s.labels, (l) => l.label_id);
    this.byRegistryId.clear();
    for (const e of s.entities) if (e.id) this.byRegistryId.set(e.id, e.entity_id);
    this.floorsSupported = s.floorsSupported;
  }

  /** The entity id the entity registry's id stands for. */
  entityOfRegistryId(id: string): string | undefined {
    return this.byRegistryId.get(id);
  }

  areaIdOf(entityId: string): string | null {
    const entry = this.entities.get(entityId);
    if (!entry) return null;
    if (entry.area_id) return entry.area_id;
    const device = entry.device_id ? this.devices.get(entry.device_id) : undefined;
    return device?.area_id ?? null;
  }

  areaOf(entityId: string): Area | undefined {
    const id = this.areaIdOf(entityId);
    return id ? this.areas.get(id) : undefined;
  }

  floorOf(entityId: string): Floor | undefined {
    const floorId = this.areaOf(entityId)?.floor_id;
    return floorId ? this.floors.get(floorId) : undefined;
  }
}
