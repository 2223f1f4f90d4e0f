// How Home Assistant 2026.11 checks an automation or script written through its config API
// (config/automation.py, config/script.py: async_validate_config_item), worded as it words its
// refusals ("Message malformed: required key not provided at 'triggers'"). The simulator checks
// the shapes the bridge's users write most (triggers, conditions, actions by their keys, mode);
// what it does not run (blueprints) it refuses, saying so.
import { isPlainObject, pyRepr } from '../schema.js';
import { validEntityId } from '../states.js';

export class ConfigInvalid extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigInvalid';
  }
}

const at = (path: string) => (path ? ` at '${path}'` : '');
const fail = (message: string, path = ''): never => {
  throw new ConfigInvalid(`${message}${at(path)}`);
};

const MODES = ['parallel', 'queued', 'restart', 'single'];
const SCRIPT_MODE_KEYS = ['mode', 'max', 'max_exceeded'];
const AUTOMATION_KEYS = [
  'id',
  'alias',
  'description',
  'trace',
  'initial_state',
  'hide_entity',
  'triggers',
  'conditions',
  'variables',
  'trigger_variables',
  'actions',
  ...SCRIPT_MODE_KEYS,
];
const SCRIPT_KEYS = ['alias', 'trace', 'icon', 'sequence', 'description', 'variables', 'fields', ...SCRIPT_MODE_KEYS];

export const TRIGGER_PLATFORMS = [
  'calendar',
  'conversation',
  'device',
  'event',
  'geo_location',
  'homeassistant',
  'mqtt',
  'numeric_state',
  'persistent_notification',
  'state',
  'sun',
  'tag',
  'template',
  'time',
  'time_pattern',
  'webhook',
  'zone',
];
const CONDITIONS = ['and', 'or', 'not', 'state', 'numeric_state', 'template', 'time', 'sun', 'zone', 'device', 'trigger'];
/** The keys that tell an action's kind (homeassistant/helpers/config_validation.py ACTIONS_MAP). */
const ACTION_KEYS = [
  'action',
  'service',
  'delay',
  'wait_template',
  'wait_for_trigger',
  'event',
  'condition',
  'choose',
  'if',
  'repeat',
  'parallel',
  'sequence',
  'stop',
  'variables',
  'scene',
  'device_id',
  'set_conversation_response',
];

const isTemplate = (s: string) => s.includes('{{') || s.includes('{%');
const list = (x: unknown): unknown[] => (x === undefined || x === null ? [] : Array.isArray(x) ? x : [x]);

/** cv.entity_ids: one id, a comma-separated string or a list; UUIDs (registry ids) pass too. */
function entityIds(value: unknown, path: string): void {
  const items = typeof value === 'string' ? value.split(',').map((s) => s.trim()) : list(value);
  for (const item of items) {
    const s = typeof item === 'string' ? item : String(item);
    if (!validEntityId(s.toLowerCase()) && !/^[0-9a-f]{32}$/.test(s)) fail(`Entity ${s} is neither a valid entity ID nor a valid UUID`, path);
  }
}

function mode(config: Record<string, unknown>): void {
  if (config.mode !== undefined && !MODES.includes(config.mode as string)) fail(`value must be one of ${pyRepr(MODES)}`, 'mode');
}

function unknownKeys(config: Record<string, unknown>, known: string[]): void {
  for (const key of Object.keys(config)) if (!known.includes(key)) fail('not a valid option', key);
}

function trigger(t: unknown): void {
  if (!isPlainObject(t)) fail('expected a dictionary');
  const kind = (t as Record<string, unknown>).trigger ?? (t as Record<string, unknown>).platform;
  if (typeof kind !== 'string' || !TRIGGER_PLATFORMS.includes(kind)) fail(`Invalid trigger '${String(kind)}' specified`);
  const x = t as Record<string, unknown>;
  // Home Assistant reports these at the trigger's own keys, without the list's path.
  if (kind === 'state' || kind === 'numeric_state') {
    if (x.entity_id === undefined) fail('required key not provided', 'entity_id');
    entityIds(x.entity_id, 'entity_id');
  }
  if (kind === 'event' && x.event_type === undefined) fail('required key not provided', 'event_type');
}

function condition(c: unknown, path: string): void {
  if (typeof c === 'string') return; // a template shorthand
  if (!isPlainObject(c)) fail('expected a dictionary', path);
  const x = c as Record<string, unknown>;
  const kind = x.condition;
  if (typeof kind !== 'string' || !CONDITIONS.includes(kind)) fail(`Invalid condition "${String(kind)}" specified`);
  if (kind === 'state' || kind === 'numeric_state') {
    if (x.entity_id === undefined) fail('required key not provided', `${path}.entity_id`);
    entityIds(x.entity_id, `${path}.entity_id`);
  }
  if (kind === 'state' && x.state === undefined) fail('required key not provided', `${path}.state`);
  if (kind === 'numeric_state' && x.above === undefined && x.below === undefined) fail("at least one of ['below', 'above'] is required", path);
  if (kind === 'and' || kind === 'or' || kind === 'not')
    list(x.conditions).forEach((inner, i) => {
      condition(inner, `${path}.conditions[${i}]`);
    });
}

function action(a: unknown, path: string): void {
  if (!isPlainObject(a)) fail('expected a dictionary', path);
  const x = a as Record<string, unknown>;
  if (!ACTION_KEYS.some((k) => k in x)) fail('Unable to determine action', path);
  const service = x.action ?? x.service;
  if (service !== undefined) {
    const key = 'action' in x ? 'action' : 'service';
    if (typeof service !== 'string' || (!isTemplate(service) && !/^[a-z0-9_]+\.[a-z0-9_]+$/.test(service)))
      fail(`Service ${String(service)} does not match format <domain>.<name>`, `${path}.${key}`);
  }
  if (typeof x.condition === 'string') condition(x, path);
  for (const key of ['sequence', 'then', 'else', 'default'])
    if (Array.isArray(x[key]))
      (x[key] as unknown[]).forEach((s, i) => {
        action(s, `${path}.${key}[${i}]`);
      });
  if (Array.isArray(x.choose)) {
    (x.choose as unknown[]).forEach((option, i) => {
      if (isPlainObject(option))
        list(option.sequence).forEach((s, j) => {
          action(s, `${path}.choose[${i}].sequence[${j}]`);
        });
    });
  }
}

function actions(value: unknown, key: string): void {
  list(value).forEach((a, i) => {
    action(a, `${key}[${i}]`);
  });
}

/** Renames the keys written before 2024.10 (trigger, condition, action), as the hub does before it checks. */
function renamed(config: Record<string, unknown>): Record<string, unknown> {
  const out = { ...config };
  for (const [old, now] of [
    ['trigger', 'triggers'],
    ['condition', 'conditions'],
    ['action', 'actions'],
  ] as const) {
    if (old in out && !(now in out)) {
      out[now] = out[old];
      delete out[old];
    }
  }
  return out;
}

/** An automation as written, checked; returns it with the keys of before 2024.10 renamed. */
export function validateAutomation(config: unknown): Record<string, unknown> {
  if (!isPlainObject(config)) fail('expected a dictionary');
  if ('use_blueprint' in (config as object)) fail('the simulator does not run blueprints');
  const c = renamed(config as Record<string, unknown>);
  unknownKeys(c, AUTOMATION_KEYS);
  if (c.triggers === undefined) fail('required key not provided', 'triggers');
  if (c.actions === undefined) fail('required key not provided', 'actions');
  mode(c);
  list(c.triggers).forEach(trigger);
  list(c.conditions).forEach((x, i) => {
    condition(x, `conditions[${i}]`);
  });
  actions(c.actions, 'actions');
  return c;
}

/** A script as written, checked. */
export function validateScript(config: unknown): Record<string, unknown> {
  if (!isPlainObject(config)) fail('expected a dictionary');
  if ('use_blueprint' in (config as object)) fail('the simulator does not run blueprints');
  const c = config as Record<string, unknown>;
  unknownKeys(c, SCRIPT_KEYS);
  if (c.sequence === undefined) fail('required key not provided', 'sequence');
  mode(c);
  actions(c.sequence, 'sequence');
  return c;
}

/** cv.slug, as the script config's key is checked: "invalid slug Bad Key (try bad_key)". */
export function checkSlug(key: string): string | undefined {
  const slug = key
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9_]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .replace(/_+/g, '_');
  return slug === key ? undefined : `invalid slug ${key} (try ${slug || 'unknown'})`;
}

/** The object id Home Assistant makes of a name (slugify): "Light on with switch" → light_on_with_switch. */
export function slugify(name: string): string {
  const s = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');
  return s || 'unknown';
}
