// What the hub answers about looking after itself, as Home Assistant 2026.11 does: the area, floor
// and label registries' create/update/delete (config/*_registry/*, errors as "invalid_info"),
// device and entity registry updates, the zone collection (zone/*; the home zone comes from the
// core config and is not in it), repairs (repairs/list_issues, repairs/ignore_issue), the error
// log (system_log/list), system health (system_health/info, a subscription that ends with
// "finish"), config entries (config_entries/get, config_entries/disable; reload over REST) and
// blueprints (blueprint/list) and an update's release notes (update/release_notes). Each registry
// change fires its *_registry_updated event.
import type { Command, CommandConnection } from './commands.js';
import { slugify } from './config/validate.js';
import type { Hub } from './hub.js';
import type { AreaEntry, FloorEntry, LabelEntry } from './registries.js';
import { HA_ERROR } from './names.js';
import { eventMessage } from './protocol.js';
import { fail, type Handler, sendJson } from './rest.js';
import { all, any, coerceInt, dict, Invalid, isType, listOf, literal, oneOf, range, string, type KeySpec, type Validator } from './schema.js';
import { isoFromMicros, nowMicros } from './time.js';

type Msg = Record<string, unknown> & { id: number; type: string };

export interface SimZone {
  id: string;
  name: string;
  latitude: number;
  longitude: number;
  radius: number;
  icon: string | null;
  passive: boolean;
}

export interface SimIssue {
  domain: string;
  issue_id: string;
  severity: 'warning' | 'error' | 'critical';
  translation_key: string;
  translation_placeholders: Record<string, string> | null;
  learn_more_url: string | null;
  is_fixable: boolean;
  ignored: boolean;
  created: string;
}

export interface SimLogEntry {
  name: string;
  message: string[];
  level: 'WARNING' | 'ERROR' | 'CRITICAL';
  source: [string, number];
  timestamp: number;
  first_occurred: number;
  count: number;
  exception: string;
}

export interface SimEntry {
  entry_id: string;
  domain: string;
  title: string;
  state: 'loaded' | 'setup_error' | 'setup_retry' | 'not_loaded' | 'failed_unload';
  disabled_by: 'user' | null;
  reason: string | null;
  /** False for an integration that cannot unload (HA's shopping_list): disabling it waits for a restart. */
  supports_unload?: boolean;
}

/** One per hub, made on first use. */
export class SimAdmin {
  readonly zones = new Map<string, SimZone>();
  readonly issues: SimIssue[] = [];
  readonly log: SimLogEntry[] = [];
  readonly entries = new Map<string, SimEntry>();
  /** Every config entry reloaded, in order (the REST route and homeassistant.reload_config_entry). */
  readonly reloads: string[] = [];
  /** Blueprints by domain, by path. */
  readonly blueprints: Record<'automation' | 'script', Record<string, { metadata: Record<string, unknown> }>> = { automation: {}, script: {} };
  /** An update entity's full release notes (Markdown), as its integration would fetch them. */
  readonly releaseNotes = new Map<string, string>();

  constructor(private readonly hub: Hub) {
    const now = isoFromMicros(nowMicros());
    const seconds = nowMicros() / 1e6;
    const entryOf = (platform: string) => {
      const e = [...hub.registries.entities.values()].find((x) => x.platform === platform && x.config_entry_id);
      return e?.config_entry_id ?? undefined;
    };
    const platforms = new Set([...hub.registries.entities.values()].map((e) => e.platform));
    for (const p of platforms) {
      const id = entryOf(p);
      if (id) this.entries.set(id, { entry_id: id, domain: p, title: p === 'sim' ? 'Simulated devices' : p, state: 'loaded', disabled_by: null, reason: null });
    }
    // One integration that failed to start, with its repair and its log lines: what the health tools explain.
    this.entries.set('01SIMWEATHERFAILED0000000', {
      entry_id: '01SIMWEATHERFAILED0000000',
      domain: 'met',
      title: 'Forecast',
      state: 'setup_retry',
      disabled_by: null,
      reason: 'Cannot connect to the weather service',
    });
    this.issues.push({
      domain: 'met',
      issue_id: 'cannot_connect',
      severity: 'error',
      translation_key: 'cannot_connect',
      translation_placeholders: { title: 'Forecast' },
      learn_more_url: null,
      is_fixable: false,
      ignored: false,
      created: now,
    });
    this.log.push(
      {
        name: 'homeassistant.components.met',
        message: ['Error fetching met data: Cannot connect to the weather service'],
        level: 'ERROR',
        source: ['components/met/coordinator.py', 84],
        timestamp: seconds,
        first_occurred: seconds - 600,
        count: 12,
        exception: '',
      },
      {
        name: 'homeassistant.components.sensor',
        message: ['Entity sensor.outdoor_temperature is using a deprecated unit'],
        level: 'WARNING',
        source: ['components/sensor/__init__.py', 700],
        timestamp: seconds - 60,
        first_occurred: seconds - 60,
        count: 1,
        exception: '',
      },
    );
    this.blueprints.automation['homeassistant/motion_light.yaml'] = {
      metadata: {
        domain: 'automation',
        name: 'Motion-activated Light',
        description: 'Turn on a light when motion is detected.',
        source_url: 'https://github.com/home-assistant/core/blob/dev/homeassistant/components/automation/blueprints/motion_light.yaml',
        author: 'Home Assistant',
        input: {
          motion_entity: { name: 'Motion Sensor', selector: { entity: { filter: [{ device_class: 'occupancy', domain: 'binary_sensor' }] } } },
          light_target: { name: 'Light', selector: { target: { entity: [{ domain: 'light' }] } } },
          no_motion_wait: { name: 'Wait time', default: 120, selector: { number: { min: 0, max: 3600, unit_of_measurement: 'seconds' } } },
        },
      },
    };
    this.blueprints.script['homeassistant/confirmable_notification.yaml'] = {
      metadata: {
        domain: 'script',
        name: 'Confirmable Notification',
        description: 'A script that sends an actionable notification with a confirmation before running the specified action.',
        source_url: 'https://github.com/home-assistant/core/blob/dev/homeassistant/components/script/blueprints/confirmable_notification.yaml',
        author: 'Home Assistant',
        input: { notify_device: { name: 'Device to notify', selector: { device: { integration: 'mobile_app' } } } },
      },
    };
  }

  /** A zone's state: the number of persons in it (none here), its place in attributes. */
  writeZone(z: SimZone): void {
    this.hub.states.set(`zone.${z.id}`, '0', {
      latitude: z.latitude,
      longitude: z.longitude,
      radius: z.radius,
      passive: z.passive,
      persons: [],
      editable: true,
      ...(z.icon ? { icon: z.icon } : {}),
      friendly_name: z.name,
    });
  }
}

const admins = new WeakMap<Hub, SimAdmin>();
export function adminOf(hub: Hub): SimAdmin {
  let a = admins.get(hub);
  if (!a) {
    a = new SimAdmin(hub);
    admins.set(hub, a);
  }
  return a;
}

const positiveInt = all(coerceInt, range({ min: 0 }));
const messageSchema = (type: string, fields: Record<string, KeySpec>) =>
  dict({ id: { v: positiveInt, required: true }, type: { v: literal(type), required: true }, ...fields });
const nullable = (v: Validator): Validator => any(literal(null), v);
const strings = all(isType('list'), listOf(isType('str')));
const number: Validator = (v, path) => {
  if (typeof v !== 'number') throw new Invalid('expected float', path);
  return v;
};
const fieldsOf = (msg: Msg): Record<string, unknown> => Object.fromEntries(Object.entries(msg).filter(([k]) => k !== 'id' && k !== 'type'));

class InvalidInfo extends Error {}

function command(type: string, fields: Record<string, KeySpec>, handle: (conn: CommandConnection, msg: Msg) => unknown, admin = true): [string, Command] {
  return [
    type,
    {
      schema: messageSchema(type, fields),
      admin,
      handle: (conn, msg) => {
        try {
          const out = handle(conn, msg as Msg);
          if (out !== NO_ANSWER) conn.sendResult(msg.id, out ?? null);
        } catch (err) {
          if (err instanceof InvalidInfo) conn.sendError(msg.id, 'invalid_info', err.message);
          else if (err instanceof NotFound) conn.sendError(msg.id, HA_ERROR.notFound, err.message);
          else throw err;
        }
      },
    },
  ];
}
class NotFound extends Error {}
const NO_ANSWER = Symbol('answered');
/** A zone as the collection answers it: no icon key when none was given. */
const zoneWire = ({ icon, ...rest }: SimZone) => (icon ? { ...rest, icon } : rest);

/** The hub's slug for a new registry id from a name, unique among `taken`. */
function newId(name: string, taken: (id: string) => boolean): string {
  const base = slugify(name) || 'unknown';
  let id = base;
  for (let n = 2; taken(id); n++) id = `${base}_${n}`;
  return id;
}

function uniqueName(name: string, others: Iterable<{ name: string }>): void {
  const norm = (s: string) => s.toLowerCase().replace(/\s+/g, '');
  for (const o of others) if (norm(o.name) === norm(name)) throw new InvalidInfo(`The name ${name} (${norm(name)}) is already in use`);
}

const pick = <T extends object>(target: T, fields: Record<string, unknown>, keys: readonly (keyof T & string)[]) => {
  for (const k of keys) if (k in fields) (target as Record<string, unknown>)[k] = fields[k];
};

/**
 * One kind of item Home Assistant keeps as a collection with create/update/delete commands (the
 * area, floor and label registries; the zone collection): the commands' prefix and id field, each
 * command's fields, the item made from create's fields, what update copies, and how the hub answers
 * and announces a change. `collectionCommands` writes the three commands once for every kind.
 */
interface CollectionKind<T extends { name: string }> {
  /** `config/area_registry`, ..., `zone`. */
  prefix: string;
  /** The id field of update and delete messages, and how the hub checks it. */
  idKey: string;
  id: Validator;
  items: (conn: CommandConnection) => Map<string, T>;
  /** create's fields; update takes the same, none required, those in `nullOnUpdate` also null. */
  createFields: Record<string, KeySpec>;
  nullOnUpdate?: readonly string[];
  make: (id: string, f: Record<string, unknown>) => T;
  /** Fields update copies as given; `sets`, lists it keeps without repeats. */
  plain: readonly (keyof T & string)[];
  sets?: readonly (keyof T & string)[];
  /** The registries refuse a name another item has (compared as the hub normalises it); zones do not. */
  uniqueNames: boolean;
  /** Ids a new item may not take besides the collection's own (the home zone's). */
  reserved?: readonly string[];
  /** The error for an id the collection lacks. */
  missing: (id: string, op: 'update' | 'delete') => Error;
  /** The item as create and update answer it. */
  wire: (conn: CommandConnection, item: T) => unknown;
  /** After a change: the hub's event, or the zone's state. */
  changed: (conn: CommandConnection, action: 'create' | 'update' | 'remove', id: string, item?: T) => void;
  /** What a removed item leaves behind (items that named it), and delete's answer. */
  removed?: (conn: CommandConnection, id: string) => void;
  deleteAnswer?: unknown;
}

/** A registry's kind: `<kind>_id` ids, its event `<kind>_registry_updated`, its errors invalid_info. */
function registryKind<T extends { name: string }>(
  kind: 'area' | 'floor' | 'label',
  spec: Omit<CollectionKind<T>, 'prefix' | 'idKey' | 'id' | 'uniqueNames' | 'missing' | 'changed'>,
): CollectionKind<T> {
  const idKey = `${kind}_id`;
  const Kind = `${kind[0]!.toUpperCase()}${kind.slice(1)}`;
  return {
    ...spec,
    prefix: `config/${kind}_registry`,
    idKey,
    id: isType('str'),
    uniqueNames: true,
    missing: (id, op) => new InvalidInfo(op === 'update' ? `'${id}'` : `${Kind} ID doesn't exist`),
    changed: (conn, action, id) => conn.hub.bus.fire(`${kind}_registry_updated`, { action, [idKey]: id }),
  };
}

const optionalList = (f: Record<string, unknown>, k: string) => [...new Set((f[k] as string[] | undefined) ?? [])];
const orNull = <V>(f: Record<string, unknown>, k: string) => (f[k] as V | undefined) ?? null;
const reg = (conn: CommandConnection) => conn.hub.registries;

const AREAS = registryKind<AreaEntry>('area', {
  items: (conn) => reg(conn).areas,
  createFields: {
    name: { v: isType('str'), required: true },
    aliases: { v: isType('list') },
    floor_id: { v: isType('str') },
    icon: { v: isType('str') },
    labels: { v: strings },
    picture: { v: nullable(isType('str')) },
    humidity_entity_id: { v: nullable(isType('str')) },
    temperature_entity_id: { v: nullable(isType('str')) },
  },
  nullOnUpdate: ['floor_id', 'icon'],
  make: (area_id, f) => ({
    area_id,
    name: String(f.name),
    floor_id: orNull(f, 'floor_id'),
    aliases: optionalList(f, 'aliases'),
    icon: orNull(f, 'icon'),
    labels: optionalList(f, 'labels'),
    picture: orNull(f, 'picture'),
  }),
  plain: ['name', 'floor_id', 'icon', 'picture'],
  sets: ['aliases', 'labels'],
  wire: (conn, a) =>
    reg(conn)
      .listAreas()
      .find((x) => x.area_id === a.area_id),
  // What was in it is in no area now (the hub's area registry clears the devices' and entities' area).
  removed: (conn, id) => {
    for (const d of reg(conn).devices.values()) if (d.area_id === id) d.area_id = null;
    for (const e of reg(conn).entities.values()) if (e.area_id === id) e.area_id = null;
  },
  deleteAnswer: 'success',
});

const FLOORS = registryKind<FloorEntry>('floor', {
  items: (conn) => reg(conn).floors,
  createFields: {
    name: { v: isType('str'), required: true },
    aliases: { v: isType('list') },
    icon: { v: nullable(isType('str')) },
    level: { v: nullable(coerceInt) },
  },
  make: (floor_id, f) => ({ floor_id, name: String(f.name), level: orNull(f, 'level'), aliases: optionalList(f, 'aliases'), icon: orNull(f, 'icon') }),
  plain: ['name', 'icon', 'level'],
  sets: ['aliases'],
  wire: (conn, x) =>
    reg(conn)
      .listFloors()
      .find((o) => o.floor_id === x.floor_id),
  removed: (conn, id) => {
    for (const a of reg(conn).areas.values()) if (a.floor_id === id) a.floor_id = null;
  },
});

const LABELS = registryKind<LabelEntry>('label', {
  items: (conn) => reg(conn).labels,
  createFields: {
    name: { v: isType('str'), required: true },
    color: { v: nullable(isType('str')) },
    description: { v: nullable(isType('str')) },
    icon: { v: nullable(isType('str')) },
  },
  make: (label_id, f) => ({ label_id, name: String(f.name), color: orNull(f, 'color'), description: orNull(f, 'description'), icon: orNull(f, 'icon') }),
  plain: ['name', 'color', 'description', 'icon'],
  wire: (conn, x) =>
    reg(conn)
      .listLabels()
      .find((o) => o.label_id === x.label_id),
  removed: (conn, id) => {
    for (const x of [...reg(conn).areas.values(), ...reg(conn).devices.values(), ...reg(conn).entities.values()]) x.labels = x.labels.filter((l) => l !== id);
  },
});

/** The zone collection: no uniqueness, not_found errors, no event; each zone is also a state. */
const ZONES: CollectionKind<SimZone> = {
  prefix: 'zone',
  idKey: 'zone_id',
  id: string,
  items: (conn) => adminOf(conn.hub).zones,
  createFields: {
    name: { v: string, required: true },
    latitude: { v: number, required: true },
    longitude: { v: number, required: true },
    radius: { v: number },
    icon: { v: isType('str') },
    passive: { v: isType('bool') },
  },
  make: (id, f) => ({
    id,
    name: String(f.name),
    latitude: f.latitude as number,
    longitude: f.longitude as number,
    radius: (f.radius as number | undefined) ?? 100,
    icon: orNull(f, 'icon'),
    passive: (f.passive as boolean | undefined) ?? false,
  }),
  plain: ['name', 'latitude', 'longitude', 'radius', 'icon', 'passive'],
  uniqueNames: false,
  reserved: ['home'],
  missing: (id) => new NotFound(`Unable to find zone_id ${id}`),
  wire: (_conn, z) => zoneWire(z),
  changed: (conn, action, id, z) => (action === 'remove' ? conn.hub.states.remove(`zone.${id}`) : adminOf(conn.hub).writeZone(z!)),
};

/** `<prefix>/create`, `/update` and `/delete` for one kind, as the hub answers them. */
function collectionCommands<T extends { name: string }>(k: CollectionKind<T>): [string, Command][] {
  const others = (conn: CommandConnection, except?: T) => [...k.items(conn).values()].filter((o) => o !== except);
  const id = { [k.idKey]: { v: k.id, required: true } };
  const updateFields: Record<string, KeySpec> = { ...id };
  for (const [name, spec] of Object.entries(k.createFields)) updateFields[name] = { v: k.nullOnUpdate?.includes(name) ? nullable(spec.v) : spec.v };
  return [
    command(`${k.prefix}/create`, k.createFields, (conn, msg) => {
      const f = fieldsOf(msg);
      const items = k.items(conn);
      if (k.uniqueNames) uniqueName(String(f.name), others(conn));
      const id = newId(String(f.name), (x) => items.has(x) || !!k.reserved?.includes(x));
      const item = k.make(id, f);
      items.set(id, item);
      k.changed(conn, 'create', id, item);
      return k.wire(conn, item);
    }),
    command(`${k.prefix}/update`, updateFields, (conn, msg) => {
      const f = fieldsOf(msg);
      const id = String(f[k.idKey]);
      const item = k.items(conn).get(id);
      if (!item) throw k.missing(id, 'update');
      if (k.uniqueNames && f.name !== undefined && f.name !== item.name) uniqueName(String(f.name), others(conn, item));
      pick(item, f, k.plain);
      for (const key of k.sets ?? []) if (f[key]) (item as Record<string, unknown>)[key] = [...new Set(f[key] as string[])];
      k.changed(conn, 'update', id, item);
      return k.wire(conn, item);
    }),
    command(`${k.prefix}/delete`, id, (conn, msg) => {
      const id = String(msg[k.idKey]);
      if (!k.items(conn).delete(id)) throw k.missing(id, 'delete');
      k.removed?.(conn, id);
      k.changed(conn, 'remove', id);
      return k.deleteAnswer ?? null;
    }),
  ];
}

export function adminCommands(): Map<string, Command> {
  const fire = (conn: CommandConnection, event: string, data: Record<string, unknown>) => conn.hub.bus.fire(event, data);
  const out: [string, Command][] = [
    // --- areas, floors, labels and zones: create, update, delete ------------------------------
    ...collectionCommands(AREAS),
    ...collectionCommands(FLOORS),
    ...collectionCommands(LABELS),
    ...collectionCommands(ZONES),
    // --- devices and entities ------------------------------------------------------------------
    command(
      'config/device_registry/update',
      {
        device_id: { v: isType('str'), required: true },
        area_id: { v: nullable(isType('str')) },
        disabled_by: { v: nullable(oneOf(['user'])) },
        labels: { v: strings },
        name_by_user: { v: nullable(isType('str')) },
      },
      (conn, msg) => {
        const f = fieldsOf(msg);
        const d = reg(conn).devices.get(String(f.device_id));
        if (!d) throw new NotFound('Device not found');
        pick(d, f, ['area_id', 'disabled_by', 'name_by_user']);
        if (f.labels) d.labels = [...new Set(f.labels as string[])];
        fire(conn, 'device_registry_updated', { action: 'update', device_id: d.id, changes: {} });
        return reg(conn)
          .listDevices()
          .find((x) => x.id === d.id);
      },
    ),
    command(
      'config/entity_registry/update',
      {
        entity_id: { v: isType('str'), required: true },
        name: { v: nullable(isType('str')) },
        icon: { v: nullable(isType('str')) },
        area_id: { v: nullable(isType('str')) },
        aliases: { v: isType('list') },
        labels: { v: strings },
        disabled_by: { v: nullable(oneOf(['user'])) },
        hidden_by: { v: nullable(oneOf(['user'])) },
      },
      (conn, msg) => {
        const f = fieldsOf(msg);
        const id = String(f.entity_id);
        const e = reg(conn).entities.get(id);
        if (!e) throw new NotFound(`Entity not found: ${id}`);
        pick(e, f, ['name', 'icon', 'area_id', 'disabled_by', 'hidden_by']);
        if (f.aliases) e.aliases = [...new Set(f.aliases as string[])];
        if (f.labels) e.labels = [...new Set(f.labels as string[])];
        const s = conn.hub.states.get(id);
        if (s && 'name' in f) conn.hub.states.set(id, s.state, { ...s.attributes, friendly_name: e.name ?? e.original_name ?? id });
        fire(conn, 'entity_registry_updated', { action: 'update', entity_id: id, changes: {} });
        const entry = reg(conn)
          .listEntities()
          .find((x) => x.entity_id === id);
        return { entity_entry: { ...entry, aliases: e.aliases ?? [] } };
      },
    ),
    // --- zones (a storage collection; the home zone is the core config's) ----------------------
    command('zone/list', {}, (conn) => [...adminOf(conn.hub).zones.values()].map(zoneWire), false),
    // --- health ----------------------------------------------------------------------------------
    command('repairs/list_issues', {}, (conn) => ({
      issues: adminOf(conn.hub).issues.map((i) => ({
        breaks_in_ha_version: null,
        created: i.created,
        dismissed_version: i.ignored ? conn.hub.version : null,
        domain: i.domain,
        is_fixable: i.is_fixable,
        issue_domain: null,
        issue_id: i.issue_id,
        learn_more_url: i.learn_more_url,
        severity: i.severity,
        translation_key: i.translation_key,
        translation_placeholders: i.translation_placeholders,
        ignored: i.ignored,
      })),
    })),
    command(
      'repairs/ignore_issue',
      { domain: { v: isType('str'), required: true }, issue_id: { v: isType('str'), required: true }, ignore: { v: isType('bool'), required: true } },
      (conn, msg) => {
        const issue = adminOf(conn.hub).issues.find((i) => i.domain === msg.domain && i.issue_id === msg.issue_id);
        if (!issue) throw new NotFound('Issue not found');
        issue.ignored = msg.ignore as boolean;
        conn.hub.bus.fire('repairs_issue_registry_updated', { action: 'update', domain: issue.domain, issue_id: issue.issue_id });
        return null;
      },
    ),
    command('system_log/list', {}, (conn) => adminOf(conn.hub).log.map((e) => ({ ...e, message: [...e.message] }))),
    command('system_health/info', {}, (conn, msg) => {
      conn.sendResult(msg.id, null);
      const data = {
        homeassistant: {
          info: {
            installation_type: 'Home Assistant Core',
            version: `core-${conn.hub.version}`,
            dev: false,
            hassio: false,
            docker: false,
            virtualenv: true,
            python_version: '3.14.0',
            os_name: 'Linux',
            arch: 'x86_64',
            timezone: conn.hub.home.time_zone ?? 'UTC',
            config_dir: '/config',
          },
        },
        recorder: {
          info: { oldest_recorder_run: isoFromMicros(nowMicros()), database_engine: 'sqlite', database_version: '3.50.0', estimated_db_size: '1.20 MiB' },
        },
      };
      conn.send(eventMessage(msg.id, { type: 'initial', data }));
      conn.send(eventMessage(msg.id, { type: 'finish' }));
      return NO_ANSWER;
    }),
    command('config_entries/get', { domain: { v: isType('str') }, type_filter: { v: strings } }, (conn, msg) =>
      [...adminOf(conn.hub).entries.values()]
        .filter((e) => msg.domain === undefined || e.domain === msg.domain)
        .map((e) => ({
          created_at: 0,
          disabled_by: e.disabled_by,
          domain: e.domain,
          entry_id: e.entry_id,
          error_reason_translation_key: null,
          error_reason_translation_placeholders: null,
          modified_at: 0,
          num_subentries: 0,
          pref_disable_new_entities: false,
          pref_disable_polling: false,
          reason: e.reason,
          source: 'user',
          state: e.state,
          supported_subentry_types: {},
          supports_options: false,
          supports_reconfigure: false,
          supports_remove_device: false,
          supports_unload: e.supports_unload !== false,
          title: e.title,
        })),
    ),
    command(
      'config_entries/disable',
      { entry_id: { v: isType('str'), required: true }, disabled_by: { v: nullable(oneOf(['user'])), required: true } },
      (conn, msg) => {
        const e = adminOf(conn.hub).entries.get(String(msg.entry_id));
        if (!e) throw new NotFound('Config entry not found');
        e.disabled_by = msg.disabled_by as 'user' | null;
        e.reason = null;
        // As HA: an entry that cannot unload stays running as failed_unload, and the answer asks for a restart.
        if (e.disabled_by && e.supports_unload === false && e.state === 'loaded') {
          e.state = 'failed_unload';
          return { require_restart: true };
        }
        e.state = e.disabled_by ? 'not_loaded' : 'loaded';
        return { require_restart: false };
      },
    ),
    command('blueprint/list', { domain: { v: oneOf(['automation', 'script']), required: true } }, (conn, msg) => ({
      ...adminOf(conn.hub).blueprints[msg.domain as 'automation' | 'script'],
    })),
    // --- updates (homeassistant/components/update/__init__.py websocket_release_notes) -------------
    [
      'update/release_notes',
      {
        schema: messageSchema('update/release_notes', { entity_id: { v: isType('str'), required: true } }),
        admin: true,
        handle: (conn, msg) => {
          const id = String(msg.entity_id);
          const s = id.startsWith('update.') ? conn.hub.states.get(id) : undefined;
          if (!s) return conn.sendError(msg.id, HA_ERROR.notFound, 'Entity not found');
          if ((Number(s.attributes.supported_features ?? 0) & 16) === 0)
            return conn.sendError(msg.id, 'not_supported', 'Entity does not support release notes');
          if (s.state === 'unavailable') return conn.sendError(msg.id, HA_ERROR.homeAssistantError, 'Entity is not available');
          conn.sendResult(msg.id, adminOf(conn.hub).releaseNotes.get(id) ?? null);
        },
      },
    ],
  ];
  return new Map(out);
}

/** POST /api/config/config_entries/entry/<id>/reload: unloads and sets the entry up again. */
export function adminRoutes(hub: Hub): Array<{ re: RegExp; methods: Record<string, Handler> }> {
  return [
    {
      re: /^\/api\/config\/config_entries\/entry\/([^/]+)\/reload$/,
      methods: {
        POST: ({ user, res, params }) => {
          if (!user.isAdmin) throw fail(401);
          const e = adminOf(hub).entries.get(params[0] ?? '');
          if (!e) throw fail(404);
          adminOf(hub).reloads.push(e.entry_id);
          if (!e.disabled_by && e.domain !== 'met') e.state = 'loaded';
          sendJson(res, 200, JSON.stringify({ require_restart: false }));
        },
      },
    },
  ];
}
