// Which entities a service call's target reaches, by Home Assistant's own rule (its
// async_extract_referenced_entity_ids, 2024.4): entity ids as given, groups expanded; through
// floors (their areas), labels (labelled entities, devices and areas), areas (entities whose own
// area it is, and entities without an area of their own on devices in it) and devices (all their
// entities). Indirectly reached entities that are hidden or config/diagnostic are left out.
// Unknown ids reach nothing, as in Home Assistant; the executor refuses them before this runs.
import { MATCH_ALL } from './protocol.js';
import type { Registries } from './registries.js';
import type { StateCache } from './state-cache.js';

/** A target with every key as a list (`none` as an empty list), entity_id possibly `all`. */
export interface TargetLists {
  entity_id: string[] | typeof MATCH_ALL;
  device_id: string[];
  area_id: string[];
  floor_id: string[];
  label_id: string[];
}

export interface ReachedEntities {
  /** entity_id: all. */
  all: boolean;
  /** Named in entity_id, groups replaced by their members, in the order given. */
  explicit: string[];
  /** Reached through devices, areas, floors and labels, sorted. */
  indirect: string[];
}

export const emptyTarget = (): TargetLists => ({ entity_id: [], device_id: [], area_id: [], floor_id: [], label_id: [] });

/** Old-style groups (group.*) stand for their members, as Home Assistant's expand_entity_ids does. */
export function expandGroups(ids: readonly string[], cache: StateCache, seen = new Set<string>()): string[] {
  const out: string[] = [];
  for (const id of ids) {
    if (seen.has(id)) continue;
    seen.add(id);
    const members = id.startsWith('group.') ? cache.get(id)?.attributes.entity_id : undefined;
    if (Array.isArray(members)) {
      for (const m of expandGroups(
        members.filter((x): x is string => typeof x === 'string'),
        cache,
        seen,
      ))
        if (!out.includes(m)) out.push(m);
    } else if (!out.includes(id)) {
      out.push(id);
    }
  }
  return out;
}

export function reachedEntities(t: TargetLists, registries: Registries, cache: StateCache): ReachedEntities {
  const all = t.entity_id === MATCH_ALL;
  const explicit = all ? [] : expandGroups(t.entity_id as string[], cache);
  const indirect = new Set<string>();
  const selectedDevices = new Set(t.device_id);
  const labels = new Set(t.label_id);
  const floors = new Set(t.floor_id);
  if (selectedDevices.size + t.area_id.length + floors.size + labels.size === 0) return { all, explicit, indirect: [] };

  const visible = (e: { entity_category?: string | null; hidden_by?: string | null }) => !e.entity_category && !e.hidden_by;
  const areas = new Set(t.area_id);
  const devices = new Set(t.device_id);
  for (const area of registries.areas.values()) {
    if (area.floor_id && floors.has(area.floor_id)) areas.add(area.area_id);
    if (area.labels?.some((l) => labels.has(l))) areas.add(area.area_id);
  }
  for (const device of registries.devices.values()) {
    if (device.labels?.some((l) => labels.has(l))) devices.add(device.id);
    if (device.area_id && areas.has(device.area_id)) devices.add(device.id);
  }
  for (const e of registries.entities.values()) {
    if (!visible(e)) continue;
    const viaLabel = e.labels?.some((l) => labels.has(l)) ?? false;
    const viaArea = !!e.area_id && areas.has(e.area_id);
    // A device reached through an area or label brings only its entities without an area of their own.
    const viaDevice = !!e.device_id && devices.has(e.device_id) && (!e.area_id || selectedDevices.has(e.device_id));
    if (viaLabel || viaArea || viaDevice) indirect.add(e.entity_id);
  }
  return { all, explicit, indirect: [...indirect].sort() };
}
