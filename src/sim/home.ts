// The home format the simulator loads (that of tests/fixtures/nl/home.yaml): floors, areas with a
// floor, entities with name, area, state and attributes. Optional extras that the hub also
// knows: devices (an entity on a device takes the device's area), labels, notify targets and a
// per-entity `config` for behaviour that is not an attribute (scene members, script steps), and
// registry facts (platform, unique_id; unique_id: null for an entity the registry does not keep).
import { readFileSync } from 'node:fs';
import * as v from 'valibot';
import { parse as parseYaml } from 'yaml';
import { validEntityId } from './states.js';

export interface HomeFloor {
  id: string;
  name: string;
  level?: number | null;
  aliases?: string[];
  icon?: string | null;
}

export interface HomeArea {
  id: string;
  name: string;
  floor?: string | null;
  aliases?: string[];
  icon?: string | null;
  labels?: string[];
}

export interface HomeDevice {
  id: string;
  name: string;
  area?: string | null;
  manufacturer?: string | null;
  model?: string | null;
  labels?: string[];
}

export interface HomeLabel {
  id: string;
  name: string;
  color?: string | null;
  icon?: string | null;
  description?: string | null;
}

export interface HomeEntity {
  entity_id: string;
  name?: string;
  area?: string | null;
  device?: string | null;
  state?: string;
  attributes?: Record<string, unknown>;
  labels?: string[];
  /** Behaviour that the hub keeps outside the attributes (scene members, script steps, lock jams). */
  config?: Record<string, unknown>;
  platform?: string;
  /** The registry's unique_id; null: the entity has none, so no registry entry either. */
  unique_id?: string | null;
  entity_category?: 'config' | 'diagnostic' | null;
  hidden?: boolean;
}

export interface Home {
  /** location_name in get_config. */
  name?: string;
  time_zone?: string;
  /** Units the hub reports in; climate defaults (min/max temperature) follow it. */
  unit_system?: 'metric' | 'us_customary';
  /** The hub's configured language (get_config language), a BCP 47 tag; English when not given. */
  language?: string;
  floors?: HomeFloor[];
  areas?: HomeArea[];
  devices?: HomeDevice[];
  labels?: HomeLabel[];
  entities: HomeEntity[];
  /** Legacy notify services (notify.<target>) besides notify.notify. */
  notify?: string[];
  /** Lovelace dashboards besides the default one (storage or YAML mode, with a config or none yet). */
  dashboards?: HomeDashboard[];
  /** The energy dashboard's preferences (energy/get_prefs); absent: none saved yet; false: the energy integration is not loaded. */
  energy?: Record<string, unknown> | false;
}

export interface HomeDashboard {
  url_path: string;
  title: string;
  mode: 'storage' | 'yaml';
  filename?: string;
  icon?: string;
  config?: Record<string, unknown>;
}

export class HomeError extends Error {
  override name = 'HomeError';
}

const id = v.pipe(v.string(), v.nonEmpty());
const strList = v.optional(v.array(v.string()));
const nullableText = v.optional(v.nullable(v.string()));
// YAML may read an unquoted state as a number or boolean; the hub's states are strings.
const stateText = v.pipe(
  v.union([v.string(), v.number(), v.boolean()]),
  v.transform((x) => (typeof x === 'boolean' ? (x ? 'on' : 'off') : String(x))),
);

const HomeSchema = v.looseObject({
  name: v.optional(v.string()),
  time_zone: v.optional(v.string()),
  unit_system: v.optional(v.picklist(['metric', 'us_customary'])),
  language: v.optional(v.pipe(v.string(), v.regex(/^[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8})*$/, 'must be a language tag such as en or de-CH'))),
  floors: v.optional(
    v.array(
      v.looseObject({
        id,
        name: v.string(),
        level: v.optional(v.nullable(v.pipe(v.number(), v.integer()))),
        aliases: strList,
        icon: nullableText,
      }),
    ),
  ),
  areas: v.optional(v.array(v.looseObject({ id, name: v.string(), floor: nullableText, aliases: strList, icon: nullableText, labels: strList }))),
  devices: v.optional(v.array(v.looseObject({ id, name: v.string(), area: nullableText, manufacturer: nullableText, model: nullableText, labels: strList }))),
  labels: v.optional(v.array(v.looseObject({ id, name: v.string(), color: nullableText, icon: nullableText, description: nullableText }))),
  entities: v.array(
    v.looseObject({
      entity_id: v.pipe(
        v.string(),
        v.check((x) => validEntityId(x), 'is not a valid entity id (domain.object_id, lower case)'),
      ),
      name: v.optional(v.string()),
      area: nullableText,
      device: nullableText,
      state: v.optional(stateText),
      attributes: v.optional(v.nullable(v.record(v.string(), v.unknown()))),
      labels: strList,
      config: v.optional(v.record(v.string(), v.unknown())),
      platform: v.optional(v.string()),
      unique_id: v.optional(v.nullable(v.pipe(v.string(), v.nonEmpty()))),
      entity_category: v.optional(v.nullable(v.picklist(['config', 'diagnostic']))),
      hidden: v.optional(v.boolean()),
    }),
  ),
  notify: v.optional(v.array(v.pipe(v.string(), v.regex(/^[a-z0-9_]+$/, 'must be a lower-case service name')))),
  dashboards: v.optional(
    v.array(
      v.object({
        url_path: v.pipe(v.string(), v.regex(/^[a-z0-9_]+-[a-z0-9_-]+$/, 'must be a url path with a hyphen, such as wall-panel')),
        title: v.string(),
        mode: v.picklist(['storage', 'yaml']),
        filename: v.optional(v.string()),
        icon: v.optional(v.string()),
        config: v.optional(v.record(v.string(), v.unknown())),
      }),
    ),
  ),
  energy: v.optional(v.union([v.record(v.string(), v.unknown()), v.literal(false)])),
});

/** Validates a parsed home and checks that every reference points at something declared. */
export function parseHome(input: unknown, source = 'home'): Home {
  const result = v.safeParse(HomeSchema, input);
  if (!result.success) {
    const issue = result.issues[0];
    const where = issue.path?.map((p) => String(p.key)).join('.') ?? '';
    throw new HomeError(`${source}: ${where ? `${where}: ` : ''}${issue.message}`);
  }
  const raw = result.output;
  const home: Home = {
    entities: raw.entities.map((e) => {
      const { attributes, ...rest } = e;
      return { ...rest, ...(attributes ? { attributes } : {}) } as HomeEntity;
    }),
  };
  if (raw.name !== undefined) home.name = raw.name;
  if (raw.time_zone !== undefined) home.time_zone = raw.time_zone;
  if (raw.unit_system !== undefined) home.unit_system = raw.unit_system;
  if (raw.language !== undefined) home.language = raw.language;
  if (raw.floors) home.floors = raw.floors as HomeFloor[];
  if (raw.areas) home.areas = raw.areas as HomeArea[];
  if (raw.devices) home.devices = raw.devices as HomeDevice[];
  if (raw.labels) home.labels = raw.labels as HomeLabel[];
  if (raw.notify) home.notify = raw.notify;
  if (raw.dashboards) home.dashboards = raw.dashboards as HomeDashboard[];
  if (raw.energy !== undefined) home.energy = raw.energy;

  const unique = (kind: string, ids: string[]) => {
    const seen = new Set<string>();
    for (const x of ids) {
      if (seen.has(x)) throw new HomeError(`${source}: ${kind} ${x} is declared twice`);
      seen.add(x);
    }
    return seen;
  };
  const floors = unique(
    'floor',
    (home.floors ?? []).map((f) => f.id),
  );
  const areas = unique(
    'area',
    (home.areas ?? []).map((a) => a.id),
  );
  const devices = unique(
    'device',
    (home.devices ?? []).map((d) => d.id),
  );
  const labels = unique(
    'label',
    (home.labels ?? []).map((l) => l.id),
  );
  unique(
    'entity',
    home.entities.map((e) => e.entity_id),
  );
  const need = (set: Set<string>, kind: string, ref: string | null | undefined, who: string) => {
    if (ref && !set.has(ref)) throw new HomeError(`${source}: ${who} refers to unknown ${kind} ${ref}`);
  };
  for (const a of home.areas ?? []) {
    need(floors, 'floor', a.floor, `area ${a.id}`);
    for (const l of a.labels ?? []) need(labels, 'label', l, `area ${a.id}`);
  }
  for (const d of home.devices ?? []) {
    need(areas, 'area', d.area, `device ${d.id}`);
    for (const l of d.labels ?? []) need(labels, 'label', l, `device ${d.id}`);
  }
  for (const e of home.entities) {
    need(areas, 'area', e.area, `entity ${e.entity_id}`);
    need(devices, 'device', e.device, `entity ${e.entity_id}`);
    for (const l of e.labels ?? []) need(labels, 'label', l, `entity ${e.entity_id}`);
  }
  return home;
}

/** Reads a home YAML (or JSON) file. */
export function loadHome(path: string): Home {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new HomeError(`home file ${path}: cannot be read (${(err as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  let data: unknown;
  try {
    data = parseYaml(text);
  } catch (err) {
    throw new HomeError(`home file ${path}: not valid YAML (${(err as Error).message.split('\n')[0]})`);
  }
  return parseHome(data, `home file ${path}`);
}
