// Checks service data against the fields the hub describes for a service (get_services), so a bad
// parameter is refused with its name before the hub is called. Selectors say what a field takes.
import { invalidParameters } from '../errors.js';
import { echo } from '../validation.js';
import type { HubState, ServiceDescription, ServiceField } from './types.js';

/** Fields of a service, with the sections of newer hubs flattened. */
export function flattenFields(fields: Record<string, ServiceField> | undefined): Record<string, ServiceField> {
  const out: Record<string, ServiceField> = {};
  for (const [name, field] of Object.entries(fields ?? {})) {
    if (field.fields && !field.selector) Object.assign(out, flattenFields(field.fields));
    else out[name] = field;
  }
  return out;
}

type Check = (value: unknown, selector: Record<string, unknown>) => string | undefined;

const NUMERIC = /^\s*-?(\d+\.?\d*|\.\d+)\s*$/;
const TRUE = new Set(['true', 'on', 'yes', 'enable', '1']);
const FALSE = new Set(['false', 'off', 'no', 'disable', '0']);

/**
 * What Home Assistant's own schemas take for a selector, brought to the type the selector means:
 * a numeric string for a number ("50"), a number for text (an alarm or lock code, 1234), the
 * words cv.boolean reads for true/false. Anything else is left for the check to refuse.
 */
const COERCE: Record<string, (v: unknown) => unknown> = {
  number: (v) => (typeof v === 'string' && NUMERIC.test(v) ? Number(v) : v),
  color_temp: (v) => (typeof v === 'string' && NUMERIC.test(v) ? Number(v) : v),
  text: (v) => (typeof v === 'number' && Number.isFinite(v) ? String(v) : v),
  boolean: (v) => {
    const word = typeof v === 'string' ? v.trim().toLowerCase() : typeof v === 'number' ? String(v) : undefined;
    return word !== undefined && TRUE.has(word) ? true : word !== undefined && FALSE.has(word) ? false : v;
  },
};

const isNum = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
const range = (v: number, min: unknown, max: unknown): string | undefined => {
  if (isNum(min) && v < min) return `must be at least ${min}`;
  if (isNum(max) && v > max) return `must be at most ${max}`;
  return undefined;
};
const optionValues = (options: unknown): string[] =>
  Array.isArray(options) ? options.map((o) => (typeof o === 'object' && o !== null ? String((o as { value: unknown }).value) : String(o))) : [];
const stringOrStrings = (v: unknown) => typeof v === 'string' || (Array.isArray(v) && v.every((x) => typeof x === 'string'));

const CHECKS: Record<string, Check> = {
  number: (v, s) => (isNum(v) ? range(v, s.min, s.max) : 'must be a number'),
  boolean: (v) => (typeof v === 'boolean' ? undefined : 'must be true or false'),
  text: (v) => (typeof v === 'string' ? undefined : 'must be a string'),
  select: (v, s) => {
    const allowed = optionValues(s.options);
    const values = s.multiple && Array.isArray(v) ? v : [v];
    for (const one of values) {
      if (typeof one !== 'string') return 'must be a string';
      if (!s.custom_value && allowed.length && !allowed.includes(one)) return `must be one of ${allowed.join(', ')}`;
    }
    return undefined;
  },
  color_rgb: (v) =>
    Array.isArray(v) && v.length === 3 && v.every((c) => Number.isInteger(c) && c >= 0 && c <= 255) ? undefined : 'must be [red, green, blue], each 0-255',
  color_temp: (v, s) => {
    if (!isNum(v)) return 'must be a number';
    const kelvin = s.unit === 'kelvin';
    return range(v, kelvin ? s.min : (s.min_mireds ?? s.min), kelvin ? s.max : (s.max_mireds ?? s.max));
  },
  entity: (v) => (stringOrStrings(v) ? undefined : 'must be an entity id or a list of them'),
  area: (v) => (stringOrStrings(v) ? undefined : 'must be an area id or a list of them'),
  device: (v) => (stringOrStrings(v) ? undefined : 'must be a device id or a list of them'),
  time: (v) => (typeof v === 'string' ? undefined : 'must be a time string'),
  date: (v) => (typeof v === 'string' ? undefined : 'must be a date string'),
  datetime: (v) => (typeof v === 'string' ? undefined : 'must be a date-time string'),
  duration: (v) => (isNum(v) || typeof v === 'string' || (typeof v === 'object' && v !== null) ? undefined : 'must be a duration'),
};

/**
 * Returns the data with each described field brought to its selector's type as Home Assistant
 * would (COERCE), or throws INVALID_PARAMETERS naming the first described field that is missing
 * while required or whose value its selector refuses. Fields the description does not list go on
 * to the hub, which has the last word: its descriptions are not complete (Home Assistant 2024.3
 * takes light.turn_on color_temp_kelvin without describing it) and it refuses unknown keys itself.
 */
export function checkServiceData(service: ServiceDescription, data: Record<string, unknown>, what: string): Record<string, unknown> {
  const fields = flattenFields(service.fields);
  const out: Record<string, unknown> = { ...data };
  for (const [key, given] of Object.entries(data)) {
    const field = fields[key];
    if (!field) continue;
    const [kind, selector] = Object.entries(field.selector ?? {})[0] ?? [];
    const value = kind && COERCE[kind] ? COERCE[kind](given) : given;
    const check = kind ? CHECKS[kind] : undefined;
    const problem = check?.(value, (selector ?? {}) as Record<string, unknown>);
    if (problem) throw invalidParameters(`${key}: ${problem}`, { field: key, value: echo(given) });
    out[key] = value;
  }
  for (const [name, field] of Object.entries(fields)) {
    if (field.required && !(name in data)) throw invalidParameters(`${name}: required by ${what}`, { field: name });
  }
  return out;
}

interface EntityFilter {
  domain?: string[];
  supported_features?: number[];
}

/**
 * Whether a service may target this entity, by the service's target filter: some filter must take
 * the entity's domain and, when it lists feature sets, the entity must have all bits of one of them.
 */
export function serviceAccepts(service: ServiceDescription, domain: string, state: HubState | undefined): boolean {
  const filters = (service.target as { entity?: EntityFilter[] | EntityFilter } | undefined)?.entity;
  const list = Array.isArray(filters) ? filters : filters ? [filters] : [];
  if (list.length === 0) return true;
  const features = Number(state?.attributes.supported_features ?? 0);
  return list.some(
    (f) => (!f.domain || f.domain.includes(domain)) && (!f.supported_features?.length || f.supported_features.some((need) => (features & need) === need)),
  );
}
