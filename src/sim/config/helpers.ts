// Helpers made in Home Assistant's UI: input_boolean, input_number, input_select, input_text,
// input_datetime, input_button, counter and timer, each a storage collection with the WebSocket
// commands <type>/list, /create, /update and /delete (helpers/collection.py). An item's fields are
// checked as 2026.11 checks them and its refusals are worded the same ("required key not provided
// at 'name'. Got None"); update replaces every field but the id, as there. Each item is an entity
// <type>.<id> whose state follows the item.
import { Invalid } from '../schema.js';
import { HomeAssistantError } from '../errors.js';
import type { Hub } from '../hub.js';
import { isPlainObject, pyRepr } from '../schema.js';
import { slugify } from './validate.js';

export const HELPER_TYPES = ['input_boolean', 'input_number', 'input_select', 'input_text', 'input_datetime', 'input_button', 'counter', 'timer'] as const;
export type HelperType = (typeof HELPER_TYPES)[number];

type Item = Record<string, unknown>;

/** A refusal of an item's fields, with what was given (code invalid_format). */
export class HelperInvalid extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'HelperInvalid';
  }
}

/** A number the hub coerced to float, as Python prints it (10 → 10.0). */
class PyFloat {
  constructor(readonly n: number) {}
  toJSON(): number {
    return this.n;
  }
}
const reprOf = (x: unknown): string => {
  if (x instanceof PyFloat) return Number.isInteger(x.n) ? `${x.n}.0` : String(x.n);
  if (Array.isArray(x)) return `[${x.map(reprOf).join(', ')}]`;
  if (isPlainObject(x))
    return `{${Object.entries(x)
      .map(([k, v]) => `${pyRepr(k)}: ${reprOf(v)}`)
      .join(', ')}}`;
  return pyRepr(x);
};
const plain = (x: Item): Item => JSON.parse(JSON.stringify(x)) as Item;

interface Field {
  required?: boolean;
  default?: unknown;
  check(value: unknown, key: string): unknown;
}

const fieldError = (message: string, key: string, value: unknown) => new Invalid(`${message} at '${key}'. Got ${reprOf(value)}`);

const str: Field['check'] = (v, k) => {
  if (typeof v !== 'string') throw fieldError('expected str', k, v);
  return v;
};
const name: Field = {
  required: true,
  check: (v, k) => {
    str(v, k);
    if ((v as string).length < 1) throw fieldError('length of value must be at least 1', k, v);
    return v;
  },
};
const icon: Field = {
  check: (v, k) => {
    str(v, k);
    if (!(v as string).includes(':')) throw fieldError('Icons should be specified in the form "prefix:name"', k, v);
    return v;
  },
};
const float: Field['check'] = (v, k) => {
  const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : Number.NaN;
  if (!Number.isFinite(n)) throw fieldError('expected float', k, v);
  return new PyFloat(n);
};
const int: Field['check'] = (v, k) => {
  const n = typeof v === 'number' ? v : typeof v === 'string' && /^-?\d+$/.test(v.trim()) ? Number(v) : Number.NaN;
  if (!Number.isInteger(n)) throw fieldError('expected int', k, v);
  return n;
};
const bool: Field['check'] = (v, k) => {
  if (typeof v !== 'boolean') throw fieldError('expected bool', k, v);
  return v;
};
const oneOf =
  (values: string[]): Field['check'] =>
  (v, k) => {
    if (typeof v !== 'string' || !values.includes(v)) throw fieldError(`value must be one of ${pyRepr([...values].sort())}`, k, v);
    return v;
  };
const optional = (check: Field['check']): Field => ({ check });
const withDefault = (check: Field['check'], value: unknown): Field => ({ check, default: value });
const nullable =
  (check: Field['check']): Field['check'] =>
  (v, k) =>
    v === null ? null : check(v, k);

/** cv.time_period_str as the timer stores it: "H:MM:SS". */
const duration: Field['check'] = (v, k) => {
  let seconds: number | undefined;
  if (typeof v === 'number') seconds = v;
  else if (typeof v === 'string') {
    const m = /^(-)?(\d+):(\d{1,2})(?::(\d{1,2})(?:\.\d+)?)?$/.exec(v.trim());
    if (m) seconds = Number(m[2]) * 3600 + Number(m[3]) * 60 + Number(m[4] ?? 0);
  } else if (isPlainObject(v)) {
    seconds = Number(v.hours ?? 0) * 3600 + Number(v.minutes ?? 0) * 60 + Number(v.seconds ?? 0);
  }
  if (seconds === undefined || !Number.isFinite(seconds)) throw fieldError(`offset ${String(v)} should be format 'HH:MM', 'HH:MM:SS' or 'HH:MM:SS.F'`, k, v);
  const s = Math.floor(seconds);
  return `${Math.floor(s / 3600)}:${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}:${String(s % 60).padStart(2, '0')}`;
};

const options: Field = {
  required: true,
  check: (v, k) => {
    if (!Array.isArray(v)) throw fieldError('expected list', k, v);
    if (!v.length) throw fieldError('value must not be empty', k, v);
    return v.map((x) => str(x, k));
  },
};

interface HelperKind {
  fields: Record<string, Field>;
  /** Checks of the whole item (vol.All after the fields), worded as the hub words them. */
  whole?(item: Item): void;
  state(item: Item, previous: { state: string; attributes: Record<string, unknown> } | undefined): { state: string; attributes: Record<string, unknown> };
}

const got = (item: Item) => `. Got ${reprOf(Object.fromEntries(Object.entries(item).filter(([k]) => k !== 'id')))}`;
const num = (x: unknown) => (x instanceof PyFloat ? x.n : Number(x));
const common = (item: Item) => ({ ...(item.icon ? { icon: item.icon } : {}), editable: true, friendly_name: item.name });

function datetimeState(item: Item): { state: string; attributes: Record<string, unknown> } {
  const now = new Date();
  const day = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
  const y = day.getUTCFullYear();
  const mo = day.getUTCMonth() + 1;
  const d = day.getUTCDate();
  const date = `${y}-${String(mo).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
  const attrs: Record<string, unknown> = { has_date: item.has_date, has_time: item.has_time, editable: true };
  if (item.has_date) Object.assign(attrs, { year: y, month: mo, day: d });
  if (item.has_time) Object.assign(attrs, { hour: 0, minute: 0, second: 0 });
  attrs.timestamp = item.has_date ? day.getTime() / 1000 : 0;
  attrs.friendly_name = item.name;
  const state = item.has_date && item.has_time ? `${date} 00:00:00` : item.has_date ? date : '00:00:00';
  return { state, attributes: attrs };
}

export const HELPER_KINDS: Record<HelperType, HelperKind> = {
  input_boolean: {
    fields: { name, initial: optional(bool), icon },
    state: (item, prev) => ({
      state: prev?.state ?? (item.initial === true ? 'on' : 'off'),
      attributes: { editable: true, ...(item.icon ? { icon: item.icon } : {}), friendly_name: item.name },
    }),
  },
  input_number: {
    fields: {
      name,
      min: { required: true, check: float },
      max: { required: true, check: float },
      initial: optional(float),
      step: withDefault(float, new PyFloat(1)),
      icon,
      unit_of_measurement: optional(str),
      mode: withDefault(oneOf(['box', 'slider']), 'slider'),
    },
    whole(item) {
      // Home Assistant's own words, the two numbers in this order.
      if (num(item.max) <= num(item.min)) throw new Invalid(`Maximum (${reprOf(item.min)}) is not greater than minimum (${reprOf(item.max)})${got(item)}`);
      if (item.initial !== undefined && (num(item.initial) < num(item.min) || num(item.initial) > num(item.max)))
        throw new Invalid(`Initial value ${reprOf(item.initial)} not in range ${reprOf(item.min)}-${reprOf(item.max)}${got(item)}`);
    },
    state: (item, prev) => {
      const value = prev ? Number(prev.state) : num(item.initial ?? item.min);
      const clamped = Math.min(num(item.max), Math.max(num(item.min), Number.isFinite(value) ? value : num(item.min)));
      return {
        state: Number.isInteger(clamped) ? `${clamped}.0` : String(clamped),
        attributes: {
          min: num(item.min),
          max: num(item.max),
          step: num(item.step),
          mode: item.mode,
          initial: item.initial === undefined ? null : num(item.initial),
          ...(item.unit_of_measurement ? { unit_of_measurement: item.unit_of_measurement } : {}),
          ...common(item),
        },
      };
    },
  },
  input_select: {
    fields: { name, options, initial: optional(str), icon },
    whole(item) {
      const opts = item.options as string[];
      if (new Set(opts).size !== opts.length) throw new HomeAssistantError('Duplicate options are not allowed');
    },
    state: (item, prev) => {
      const opts = item.options as string[];
      const state = prev && opts.includes(prev.state) ? prev.state : typeof item.initial === 'string' && opts.includes(item.initial) ? item.initial : opts[0]!;
      return { state, attributes: { options: opts, ...common(item) } };
    },
  },
  input_text: {
    fields: {
      name,
      min: withDefault(int, 0),
      max: withDefault(int, 100),
      initial: optional(str),
      icon,
      unit_of_measurement: optional(str),
      pattern: optional(str),
      mode: withDefault(oneOf(['password', 'text']), 'text'),
    },
    whole(item) {
      if (num(item.max) < num(item.min)) throw new Invalid(`Max len (${reprOf(item.min)}) is not greater than min len (${reprOf(item.max)})${got(item)}`);
    },
    state: (item, prev) => ({
      state: prev?.state ?? (typeof item.initial === 'string' ? item.initial : 'unknown'),
      attributes: { mode: item.mode, min: item.min, max: item.max, pattern: item.pattern ?? null, ...common(item) },
    }),
  },
  input_datetime: {
    fields: { name, has_date: withDefault(bool, false), has_time: withDefault(bool, false), icon, initial: optional(str) },
    whole(item) {
      if (!item.has_date && !item.has_time) throw new Invalid(`Entity needs at least a date or a time${got(item)}`);
    },
    state: (item) => datetimeState(item),
  },
  input_button: {
    fields: { name, icon },
    state: (item, prev) => ({ state: prev?.state ?? 'unknown', attributes: common(item) }),
  },
  counter: {
    fields: {
      name,
      icon,
      initial: withDefault(int, 0),
      maximum: withDefault(nullable(int), null),
      minimum: withDefault(nullable(int), null),
      restore: withDefault(bool, true),
      step: withDefault(int, 1),
    },
    state: (item, prev) => ({
      state: prev?.state ?? String(item.initial),
      attributes: {
        editable: true,
        initial: item.initial,
        step: item.step,
        ...(item.minimum !== null ? { minimum: item.minimum } : {}),
        ...(item.maximum !== null ? { maximum: item.maximum } : {}),
        ...(item.icon ? { icon: item.icon } : {}),
        friendly_name: item.name,
      },
    }),
  },
  timer: {
    fields: { name, icon, duration: withDefault(duration, '0:00:00'), restore: withDefault(bool, false) },
    state: (item, prev) => ({
      state: prev?.state ?? 'idle',
      attributes: { duration: item.duration, editable: true, last_transition: null, ...(item.icon ? { icon: item.icon } : {}), friendly_name: item.name },
    }),
  },
};

/** An item's fields checked: every problem at once (sorted, as voluptuous joins them), then the whole. */
export function checkItem(type: HelperType, data: Item): Item {
  const kind = HELPER_KINDS[type];
  const errors: string[] = [];
  const out: Item = {};
  for (const [key, value] of Object.entries(data)) {
    const field = kind.fields[key];
    if (!field) {
      errors.push(`not a valid option at '${key}'. Got ${reprOf(value)}`);
      continue;
    }
    try {
      out[key] = field.check(value, key);
    } catch (err) {
      if (!(err instanceof Invalid)) throw err;
      errors.push(err.msg);
    }
  }
  for (const [key, field] of Object.entries(kind.fields)) {
    if (key in data) continue;
    if (field.required) errors.push(`required key not provided at '${key}'. Got None`);
    else if ('default' in field) out[key] = field.default;
  }
  if (errors.length) throw new HelperInvalid(errors.sort().join('\n'));
  try {
    kind.whole?.(out);
  } catch (err) {
    if (err instanceof Invalid) throw new HelperInvalid(err.msg);
    throw err;
  }
  return out;
}

/** Every helper collection: items by type and id, each with its entity. */
export class Helpers {
  private readonly items = new Map<HelperType, Map<string, Item>>();

  constructor(private readonly hub: Hub) {
    for (const t of HELPER_TYPES) this.items.set(t, new Map());
  }

  /** Helpers the home declared (editable ones: the collection's), as if made in the UI. */
  seed(): void {
    for (const type of HELPER_TYPES) {
      for (const s of this.hub.states.all(type)) {
        if (s.attributes.editable === false) continue;
        const id = s.entityId.slice(type.length + 1);
        const item: Item = { id, name: String(s.attributes.friendly_name ?? id) };
        if (typeof s.attributes.icon === 'string') item.icon = s.attributes.icon;
        for (const key of Object.keys(HELPER_KINDS[type].fields)) if (!(key in item) && key in s.attributes && key !== 'initial') item[key] = s.attributes[key];
        this.items.get(type)!.set(id, item);
      }
    }
  }

  list(type: HelperType): Item[] {
    return [...this.items.get(type)!.values()].map(plain);
  }

  get(type: HelperType, id: string): Item | undefined {
    const item = this.items.get(type)!.get(id);
    return item ? plain(item) : undefined;
  }

  create(type: HelperType, data: Item): Item {
    const checked = checkItem(type, data);
    const base = slugify(String(checked.name));
    let id = base;
    for (let n = 2; this.items.get(type)!.has(id) || this.hub.states.get(`${type}.${id}`); n++) id = `${base}_${n}`;
    const item: Item = { id, ...checked };
    this.items.get(type)!.set(id, item);
    const entityId = `${type}.${id}`;
    this.hub.registries.addEntity({ entity_id: entityId, name: String(item.name), platform: type, unique_id: id });
    this.write(type, entityId, item, undefined);
    this.hub.bus.fire('entity_registry_updated', { action: 'create', entity_id: entityId });
    return plain(item);
  }

  update(type: HelperType, id: string, data: Item): Item {
    const current = this.items.get(type)!.get(id);
    if (!current) throw new HelperNotFound(type, id);
    const item: Item = { id, ...checkItem(type, data) };
    this.items.get(type)!.set(id, item);
    const entityId = this.entityOf(type, id);
    const prev = this.hub.states.get(entityId);
    this.write(type, entityId, item, prev ? { state: prev.state, attributes: prev.attributes } : undefined);
    return plain(item);
  }

  delete(type: HelperType, id: string): void {
    if (!this.items.get(type)!.delete(id)) throw new HelperNotFound(type, id);
    const entityId = this.entityOf(type, id);
    this.hub.removeEntity(entityId);
    this.hub.bus.fire('entity_registry_updated', { action: 'remove', entity_id: entityId });
  }

  private entityOf(type: HelperType, id: string): string {
    for (const e of this.hub.registries.entities.values()) if (e.platform === type && e.unique_id === id) return e.entity_id;
    return `${type}.${id}`;
  }

  private write(type: HelperType, entityId: string, item: Item, prev: { state: string; attributes: Record<string, unknown> } | undefined): void {
    const { state, attributes } = HELPER_KINDS[type].state(item, prev);
    this.hub.states.set(entityId, state, JSON.parse(JSON.stringify(attributes)) as Record<string, unknown>);
  }
}

export class HelperNotFound extends Error {
  constructor(
    readonly type: HelperType,
    readonly id: string,
  ) {
    super(`Unable to find ${type}_id ${id}`);
    this.name = 'HelperNotFound';
  }
}
