// Ids as Home Assistant reads them, so the checkpoint judges what the hub will act on and not how
// it was spelt. Home Assistant's validators (cv.entity_id, cv.entity_ids, cv.comp_entity_ids,
// cv.service) lower-case an id, split a comma list and strip its parts, treat `all` and `none`
// (any case) as special, and take the entity registry's id (32 hex digits) wherever a target takes
// an entity; a registry id is turned into the entity id it stands for here.
import { isEntityId } from './entity-id.js';
import type { Registries } from './registries.js';

export const ALL = 'all';
export const NONE = 'none';

/** An entity registry id as Home Assistant accepts it in a target (cv.fake_uuid4_hex). */
const REGISTRY_ID = /^[0-9a-f]{32}$/;

export const isTemplate = (x: unknown): boolean => typeof x === 'string' && (x.includes('{{') || x.includes('{%'));

/** One entity id as cv.entity_id reads it, or undefined when the hub would refuse it. */
export function canonicalEntityId(x: unknown): string | undefined {
  if (typeof x !== 'string' && typeof x !== 'number') return undefined;
  const id = String(x).toLowerCase();
  return isEntityId(id) ? id : undefined;
}

/** A service name (`domain.service`) as cv.service reads it, or undefined. */
export const canonicalService = canonicalEntityId;

/** What an entity_id value names once read as the hub reads it. */
export interface EntityIdList {
  /** `all` was given. */
  all: boolean;
  /** Entity ids, in the order given, without repeats. */
  ids: string[];
  /** Values that are neither an entity id nor a registry id the bridge can resolve. */
  unknown: string[];
}

/**
 * An entity_id value (a string, a comma list, a list, `all` or `none`) as cv.comp_entity_ids_or_uuids
 * reads it, registry ids replaced by their entity ids. `registries` may be absent where only
 * entity ids are allowed.
 */
export function canonicalEntityIds(value: unknown, registries?: Registries): EntityIdList {
  const out: EntityIdList = { all: false, ids: [], unknown: [] };
  if (value === undefined || value === null) return out;
  if (typeof value === 'string') {
    const whole = value.toLowerCase().trim();
    if (whole === ALL) return { ...out, all: true };
    if (whole === NONE) return out;
  }
  const parts: unknown[] = typeof value === 'string' ? value.split(',').map((s) => s.trim()) : Array.isArray(value) ? value : [value];
  for (const part of parts) {
    // `all` inside a list is not Home Assistant's special id, but it is judged as the widest reading.
    if (typeof part === 'string' && part.trim().toLowerCase() === ALL) {
      out.all = true;
      continue;
    }
    const id = canonicalEntityId(part);
    if (id) {
      if (!out.ids.includes(id)) out.ids.push(id);
      continue;
    }
    const byRegistry = typeof part === 'string' && REGISTRY_ID.test(part) ? entityOfRegistryId(part, registries) : undefined;
    if (byRegistry) {
      if (!out.ids.includes(byRegistry)) out.ids.push(byRegistry);
    } else out.unknown.push(typeof part === 'string' ? part : (JSON.stringify(part) ?? String(part)));
  }
  return out;
}

/** The entity id a registry id stands for. */
export function entityOfRegistryId(id: string, registries: Registries | undefined): string | undefined {
  if (!registries) return undefined;
  return registries.entityOfRegistryId(id);
}

/** A list of other ids (device, area, floor, label): a string is one id, `none` none, as the hub reads them. */
export function canonicalIdList(value: unknown): string[] {
  if (value === undefined || value === null) return [];
  if (typeof value === 'string') return value === NONE ? [] : [value];
  return Array.isArray(value) ? value.filter((x): x is string => typeof x === 'string') : [];
}
