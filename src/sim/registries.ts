// The area, floor, device, entity and label registries, listed in the shape the hub's
// config/*_registry/list commands return (older hubs lack floors, labels and timestamps), and
// the hub's rule for turning a service target into entity ids. An entity declared with
// unique_id: null has no registry entry, as the hub keeps none for entities without a unique id.
import type { Home, HomeEntity } from './home.js';
import { splitEntityId } from './states.js';
import { hexId, nowMicros, secondsFromMicros } from './time.js';
import type { WireArea, WireDevice, WireEntity, WireFloor, WireLabel } from './wire.js';

export interface FloorEntry {
  floor_id: string;
  name: string;
  level: number | null;
  aliases: string[];
  icon: string | null;
}

export interface AreaEntry {
  area_id: string;
  name: string;
  floor_id: string | null;
  aliases: string[];
  icon: string | null;
  labels: string[];
  picture: string | null;
}

export interface DeviceEntry {
  id: string;
  name: string;
  area_id: string | null;
  manufacturer: string | null;
  model: string | null;
  labels: string[];
  config_entry_id: string;
  identifier: string;
  name_by_user?: string | null;
  disabled_by?: 'user' | null;
}

export interface EntityEntry {
  entity_id: string;
  id: string;
  unique_id: string;
  platform: string;
  config_entry_id: string | null;
  device_id: string | null;
  area_id: string | null;
  original_name: string | null;
  entity_category: 'config' | 'diagnostic' | null;
  hidden_by: 'user' | null;
  labels: string[];
  /** Set by the person (entity_registry/update). */
  name?: string | null;
  icon?: string | null;
  aliases?: string[];
  disabled_by?: 'user' | null;
}

export interface LabelEntry {
  label_id: string;
  name: string;
  color: string | null;
  icon: string | null;
  description: string | null;
}

/** The entity-targeting keys of a service call, as validated. */
export interface TargetFields {
  entity_id?: string[] | 'all' | 'none';
  device_id?: string[] | 'none';
  area_id?: string[] | 'none';
  floor_id?: string[] | 'none';
  label_id?: string[] | 'none';
}

export interface ResolvedTarget {
  /** entity_id: all */
  all: boolean;
  explicit: Set<string>;
  indirect: Set<string>;
}

const asList = (x: string[] | 'none' | undefined): string[] => (Array.isArray(x) ? x : []);

/** Domains whose entities come from YAML, not from a config entry. */
const YAML_DOMAINS = new Set(['scene', 'script', 'automation', 'input_boolean']);

export class Registries {
  readonly floors = new Map<string, FloorEntry>();
  readonly areas = new Map<string, AreaEntry>();
  readonly devices = new Map<string, DeviceEntry>();
  readonly entities = new Map<string, EntityEntry>();
  readonly labels = new Map<string, LabelEntry>();
  private readonly configEntries = new Map<string, string>();
  /** Registry timestamps (created_at/modified_at) are those of the hub's start. */
  private readonly createdAt = secondsFromMicros(nowMicros());

  constructor(
    home: Home,
    private readonly legacy: boolean,
    /** Floor and label registries (2024.3): entity entries list labels from then on. */
    private readonly withFloors: boolean = !legacy,
    /** 2026.11's entry shapes: config sub-entries, next_name_part, no has_entity_name. */
    private readonly current: boolean = false,
  ) {
    for (const f of home.floors ?? []) {
      this.floors.set(f.id, { floor_id: f.id, name: f.name, level: f.level ?? null, aliases: f.aliases ?? [], icon: f.icon ?? null });
    }
    for (const l of home.labels ?? []) {
      this.labels.set(l.id, {
        label_id: l.id,
        name: l.name,
        color: l.color ?? null,
        icon: l.icon ?? null,
        description: l.description ?? null,
      });
    }
    for (const a of home.areas ?? []) {
      this.areas.set(a.id, {
        area_id: a.id,
        name: a.name,
        floor_id: a.floor ?? null,
        aliases: a.aliases ?? [],
        icon: a.icon ?? null,
        labels: a.labels ?? [],
        picture: null,
      });
    }
    for (const d of home.devices ?? []) {
      this.devices.set(d.id, {
        id: d.id,
        name: d.name,
        area_id: d.area ?? null,
        manufacturer: d.manufacturer ?? null,
        model: d.model ?? null,
        labels: d.labels ?? [],
        config_entry_id: this.configEntry('sim_devices'),
        identifier: d.id,
      });
    }
    for (const e of home.entities) if (e.unique_id !== null) this.addEntity(e);
  }

  private configEntry(platform: string): string {
    let id = this.configEntries.get(platform);
    if (!id) {
      id = hexId().toUpperCase().slice(0, 26);
      this.configEntries.set(platform, id);
    }
    return id;
  }

  addEntity(e: Pick<HomeEntity, 'entity_id'> & Partial<HomeEntity>): EntityEntry {
    const [domain, objectId] = splitEntityId(e.entity_id);
    const platform = e.platform ?? (YAML_DOMAINS.has(domain) ? domain : 'sim');
    const entry: EntityEntry = {
      entity_id: e.entity_id,
      id: hexId(),
      unique_id: e.unique_id ?? `${platform}_${objectId}`,
      platform,
      config_entry_id: YAML_DOMAINS.has(platform) ? null : this.configEntry(platform),
      device_id: e.device ?? null,
      // An entity on a device keeps its own area null unless one is given: the device's applies.
      area_id: e.area ?? null,
      original_name: e.name ?? null,
      entity_category: e.entity_category ?? null,
      hidden_by: e.hidden ? 'user' : null,
      labels: e.labels ?? [],
    };
    this.entities.set(e.entity_id, entry);
    return entry;
  }

  removeEntity(entityId: string): void {
    this.entities.delete(entityId);
  }

  /** The entity's own area, else its device's area (the rule the hub's UI applies). */
  effectiveArea(entityId: string): string | null {
    const entry = this.entities.get(entityId);
    if (!entry) return null;
    if (entry.area_id) return entry.area_id;
    return entry.device_id ? (this.devices.get(entry.device_id)?.area_id ?? null) : null;
  }

  // --- listings, shaped per hub version -----------------------------------------------------

  listFloors(): WireFloor[] {
    // 2024.3 lists floors without aliases or timestamps.
    if (this.legacy) return [...this.floors.values()].map((f) => ({ floor_id: f.floor_id, icon: f.icon, level: f.level, name: f.name }));
    return [...this.floors.values()].map((f) => ({
      aliases: f.aliases,
      created_at: this.createdAt,
      floor_id: f.floor_id,
      icon: f.icon,
      level: f.level,
      name: f.name,
      modified_at: this.createdAt,
    }));
  }

  listLabels(): WireLabel[] {
    if (this.legacy) {
      return [...this.labels.values()].map((l) => ({ color: l.color, description: l.description, icon: l.icon, label_id: l.label_id, name: l.name }));
    }
    return [...this.labels.values()].map((l) => ({
      color: l.color,
      created_at: this.createdAt,
      description: l.description,
      icon: l.icon,
      label_id: l.label_id,
      name: l.name,
      modified_at: this.createdAt,
    }));
  }

  listAreas(): WireArea[] {
    return [...this.areas.values()].map((a) =>
      this.legacy
        ? { aliases: a.aliases, area_id: a.area_id, icon: a.icon, name: a.name, picture: a.picture }
        : {
            aliases: a.aliases,
            area_id: a.area_id,
            floor_id: a.floor_id,
            humidity_entity_id: null,
            icon: a.icon,
            labels: a.labels,
            name: a.name,
            picture: a.picture,
            temperature_entity_id: null,
            created_at: this.createdAt,
            modified_at: this.createdAt,
          },
    );
  }

  listDevices(): WireDevice[] {
    return [...this.devices.values()].map((d): WireDevice => {
      const base: WireDevice = {
        area_id: d.area_id,
        configuration_url: null,
        config_entries: [d.config_entry_id],
        connections: [],
        disabled_by: d.disabled_by ?? null,
        entry_type: null,
        hw_version: null,
        id: d.id,
        identifiers: [['sim', d.identifier]],
        manufacturer: d.manufacturer,
        model: d.model,
        name_by_user: d.name_by_user ?? null,
        name: d.name,
        serial_number: null,
        sw_version: null,
        via_device_id: null,
      };
      if (this.legacy) return base;
      return {
        ...base,
        created_at: this.createdAt,
        labels: d.labels,
        model_id: null,
        modified_at: this.createdAt,
        primary_config_entry: d.config_entry_id,
        ...(this.current
          ? {
              config_entries_subentries: { [d.config_entry_id]: [null] },
              config_entry_id: d.config_entry_id,
              config_subentry_id: null,
              next_name_part: null,
              parent_device_id: null,
            }
          : {}),
      };
    });
  }

  listEntities(): WireEntity[] {
    return [...this.entities.values()].map((e): WireEntity => {
      const base: WireEntity = {
        area_id: e.area_id,
        config_entry_id: e.config_entry_id,
        device_id: e.device_id,
        disabled_by: e.disabled_by ?? null,
        entity_category: e.entity_category,
        entity_id: e.entity_id,
        has_entity_name: false,
        hidden_by: e.hidden_by,
        icon: e.icon ?? null,
        id: e.id,
        name: e.name ?? null,
        options: {},
        original_name: e.original_name,
        platform: e.platform,
        translation_key: null,
        unique_id: e.unique_id,
      };
      if (this.legacy) return this.withFloors ? { ...base, labels: e.labels } : base;
      const modern: WireEntity = { ...base, categories: {}, created_at: this.createdAt, labels: e.labels, modified_at: this.createdAt };
      if (!this.current) return modern;
      delete modern.has_entity_name;
      return { ...modern, config_subentry_id: null, next_name_part: null };
    });
  }

  // --- targets -------------------------------------------------------------------------------

  /**
   * The hub's async_extract_referenced_entity_ids: explicit ids as given; through areas,
   * floors, devices and labels, every entity that is neither hidden nor a config/diagnostic
   * entity and whose own area matches, or that has no own area and sits on a matching device.
   */
  resolveTarget(t: TargetFields): ResolvedTarget {
    const all = t.entity_id === 'all';
    const explicit = new Set(Array.isArray(t.entity_id) ? t.entity_id : []);
    const indirect = new Set<string>();
    const deviceIds = asList(t.device_id);
    const areaIds = asList(t.area_id);
    const floorIds = this.legacy ? [] : asList(t.floor_id);
    const labelIds = this.legacy ? [] : asList(t.label_id);
    if (deviceIds.length + areaIds.length + floorIds.length + labelIds.length === 0) {
      return { all, explicit, indirect };
    }

    const areas = new Set(areaIds.filter((a) => this.areas.has(a)));
    for (const area of this.areas.values()) {
      if (area.floor_id && floorIds.includes(area.floor_id)) areas.add(area.area_id);
      if (area.labels.some((l) => labelIds.includes(l))) areas.add(area.area_id);
    }
    const devices = new Set(deviceIds.filter((d) => this.devices.has(d)));
    for (const device of this.devices.values()) {
      if (device.area_id && areas.has(device.area_id)) devices.add(device.id);
      if (device.labels.some((l) => labelIds.includes(l))) devices.add(device.id);
    }
    for (const e of this.entities.values()) {
      if (e.entity_category !== null || e.hidden_by !== null) continue;
      if (
        e.labels.some((l) => labelIds.includes(l)) ||
        (e.area_id !== null && areas.has(e.area_id)) ||
        (e.area_id === null && e.device_id !== null && devices.has(e.device_id)) ||
        (e.device_id !== null && deviceIds.includes(e.device_id))
      ) {
        indirect.add(e.entity_id);
      }
    }
    return { all, explicit, indirect };
  }
}
