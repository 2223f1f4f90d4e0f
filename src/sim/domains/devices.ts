// The device domains without a module of their own elsewhere: number, select, button, siren,
// water_heater, humidifier, lawn_mower, remote, text, date, time, datetime, update, image and event,
// with the services, fields, feature filters and refusals Home Assistant 2026.11's demo shows
// (measured against it: an out-of-range number, an option a select does not list, a text too long or
// not matching its pattern, a date that does not parse, a tone a siren does not have).
import { type DomainModule, finish, numeric } from '../domain.js';
import { HomeAssistantError, ServiceValidationError } from '../errors.js';
import { type PathPart, type Validator, Invalid, all, boolean, coerceFloat, coerceInt, isPlainObject, pyFloatStr, range, string } from '../schema.js';

const fail = (msg: string, path: PathPart[]): never => {
  throw new Invalid(msg, path);
};
import type { EntityCtx, FieldDef, ServiceDef } from '../services.js';
import { isoFromMicros, nowMicros } from '../time.js';
import { SINCE } from '../version.js';
import { onOffServices, sel, smallFloat } from './common.js';

const stateSel = (extra: Record<string, unknown> = {}) => ({ state: { hide_states: ['unavailable', 'unknown'], ...extra } });
const f = (v: Validator, selector: Record<string, unknown>, extra: Partial<FieldDef> = {}): FieldDef => ({ v, selector, ...extra });
const n = (x: unknown, fallback: number) => (typeof x === 'number' && Number.isFinite(x) ? x : fallback);
type Def = Omit<ServiceDef, 'name' | 'description'> & { name?: string; description?: string /** The release that brought the service. */; since?: string };
const register = (domain: string, services: Record<string, Def>) => ({
  setup(hub: Parameters<NonNullable<DomainModule['setup']>>[0]) {
    for (const [service, { since, ...def }] of Object.entries(services))
      if (!since || hub.since(since))
        hub.services.register(domain, service, { name: def.name ?? service, description: def.description ?? '', ...def } as ServiceDef);
  },
});
const invalid = (domain: string, key: string, message: string, placeholders: Record<string, string>) =>
  new ServiceValidationError(message, { domain, key, placeholders });

export const number: DomainModule = {
  domain: 'number',
  init(seed) {
    const a = { min: 0, max: 100, step: 1, mode: 'auto', ...seed.attributes };
    numeric(a, ['min', 'max', 'step']);
    return { state: seed.state ?? 'unknown', attributes: finish(a, seed.name) };
  },
  ...register('number', {
    set_value: {
      // Hubs before 2024.4 describe the value as optional (it is required all the same).
      fields: { value: f(coerceFloat, sel.text(), { required: true, example: 42, legacyDescription: { required: false } }) },
      handle: (e) => {
        const value = e.params.value as number;
        const [min, max] = [n(e.state.attributes.min, 0), n(e.state.attributes.max, 100)];
        if (value < min || value > max)
          throw invalid('number', 'out_of_range', `Value ${pyFloatStr(value)} for ${e.id} is outside valid range ${pyFloatStr(min)} - ${pyFloatStr(max)}`, {
            value: String(value),
            entity_id: e.id,
            min_value: pyFloatStr(min),
            max_value: pyFloatStr(max),
          });
        e.write(pyFloatStr(value));
      },
    },
  }),
};

function selectModule(domain: 'select'): DomainModule {
  const opts = (e: EntityCtx) => (e.state.attributes.options as string[] | undefined) ?? [];
  const step = (e: EntityCtx, by: number) => {
    const o = opts(e);
    const i = o.indexOf(e.state.state);
    const cycle = e.params.cycle !== false;
    const next = i + by;
    e.write(o[cycle ? ((next % o.length) + o.length) % o.length : Math.min(Math.max(next, 0), o.length - 1)] ?? e.state.state);
  };
  const cycle = f(boolean, sel.boolean());
  return {
    domain,
    init(seed) {
      const options = Array.isArray(seed.attributes.options) ? (seed.attributes.options as string[]) : [];
      return { state: seed.state ?? options[0] ?? 'unknown', attributes: finish({ options, ...seed.attributes }, seed.name) };
    },
    ...register(domain, {
      select_first: { handle: (e) => void e.write(opts(e)[0] ?? e.state.state) },
      select_last: { handle: (e) => void e.write(opts(e).at(-1) ?? e.state.state) },
      select_next: { fields: { cycle }, handle: (e) => step(e, 1) },
      select_option: {
        fields: {
          option: f(string, stateSel(), {
            required: true,
            example: '"Item A"',
            currentSelector: { state: { hide_states: ['unavailable', 'unknown'], multiple: false } },
          }),
        },
        handle: (e) => {
          const option = e.params.option as string;
          if (!opts(e).includes(option))
            throw invalid(domain, 'not_valid_option', `Option ${option} is not valid for entity ${e.id}, valid options are: ${opts(e).join(', ')}`, {
              entity_id: e.id,
              option,
              options: opts(e).join(', '),
            });
          e.write(option);
        },
      },
      select_previous: { fields: { cycle }, handle: (e) => step(e, -1) },
    }),
  };
}
export const select = selectModule('select');

export const button: DomainModule = {
  domain: 'button',
  init(seed) {
    return { state: seed.state ?? 'unknown', attributes: finish(seed.attributes, seed.name) };
  },
  // A button's state is the time it was last pressed.
  ...register('button', { press: { handle: (e) => void e.write(isoFromMicros(nowMicros())) } }),
};

/** SirenEntityFeature: TURN_ON 1, TURN_OFF 2, TONES 4, VOLUME_SET 8, DURATION 16. */
export const siren: DomainModule = {
  domain: 'siren',
  init(seed) {
    return { state: seed.state ?? 'off', attributes: finish(seed.attributes, seed.name, n(seed.attributes.supported_features, 3)) };
  },
  ...register('siren', {
    turn_on: {
      requiredFeatures: [1],
      fields: {
        tone: f(string, sel.text(), { example: 'fire', filter: { supported_features: [4] } }),
        volume_level: f(smallFloat, sel.number(0, 1, { step: 0.05 }), { example: 0.5, filter: { supported_features: [8] } }),
        duration: f(coerceInt, sel.text(), { example: 15, filter: { supported_features: [16] } }),
      },
      handle: (e) => {
        const tones = e.state.attributes.available_tones as unknown;
        const tone = e.params.tone as string | undefined;
        const known = Array.isArray(tones) ? tones.map(String) : isPlainObject(tones) ? Object.keys(tones) : [];
        if (tone !== undefined && !known.includes(tone))
          throw invalid(
            'siren',
            'invalid_tone',
            `Invalid tone specified for entity ${e.id}: ${tone}, check the available_tones attribute for valid tones to pass in`,
            { entity_id: e.id, tone },
          );
        e.write('on');
      },
    },
    turn_off: { requiredFeatures: [2], handle: (e) => void e.write('off') },
    toggle: { requiredFeatures: [3], handle: (e) => void e.write(e.state.state === 'on' ? 'off' : 'on') },
  }),
};

export const waterHeater: DomainModule = {
  domain: 'water_heater',
  init(seed) {
    const a: Record<string, unknown> = { min_temp: 43.3, max_temp: 60, operation_list: ['eco', 'electric', 'off'], ...seed.attributes };
    numeric(a, ['min_temp', 'max_temp', 'temperature']);
    const mode = seed.state ?? String(a.operation_mode ?? 'eco');
    return { state: mode, attributes: finish({ ...a, operation_mode: mode }, seed.name, n(seed.attributes.supported_features, 0)) };
  },
  setup(hub) {
    const r = (s: string, d: Omit<ServiceDef, 'name' | 'description'>) => hub.services.register('water_heater', s, { name: s, description: '', ...d });
    const setMode = (e: EntityCtx, mode: string) => {
      const list = (e.state.attributes.operation_list as string[] | undefined) ?? [];
      if (!list.includes(mode))
        throw invalid(
          'water_heater',
          'not_valid_operation_mode',
          `Operation mode ${mode} is not valid for ${e.id}. Valid operation modes are: ${list.join(', ')}`,
          { entity_id: e.id, operation_mode: mode, operation_list: list.join(', ') },
        );
      if (mode !== 'off') e.memory.lastMode = mode;
      e.write(mode, { ...e.attrs, operation_mode: mode });
    };
    r('turn_on', {
      handle: (e) =>
        setMode(e, e.state.state !== 'off' ? e.state.state : String(e.memory.lastMode ?? e.state.attributes.operation_list?.toString().split(',')[0] ?? 'eco')),
    });
    r('turn_off', {
      handle: (e) => {
        if (e.state.state !== 'off') e.memory.lastMode = e.state.state;
        e.write('off', { ...e.attrs, operation_mode: 'off' });
      },
    });
    r('set_away_mode', {
      fields: { away_mode: f(boolean, sel.boolean(), { required: true }) },
      handle: (e) => void e.write(e.state.state, { ...e.attrs, away_mode: e.params.away_mode ? 'on' : 'off' }),
    });
    r('set_temperature', {
      fields: {
        temperature: f(coerceFloat, sel.number(0, 250, { step: 0.5, mode: 'box', unit_of_measurement: '°' }), { required: true }),
        operation_mode: f(string, stateSel(), { example: 'eco', currentSelector: { state: { hide_states: ['unavailable', 'unknown'], multiple: false } } }),
      },
      handle: (e) => {
        if (typeof e.params.operation_mode === 'string') setMode(e, e.params.operation_mode);
        e.write(e.hub.states.get(e.id)?.state ?? e.state.state, { ...(e.hub.states.get(e.id)?.attributes ?? e.attrs), temperature: e.params.temperature });
      },
    });
    r('set_operation_mode', {
      fields: {
        operation_mode: f(string, stateSel(), {
          required: true,
          example: 'eco',
          currentSelector: { state: { hide_states: ['unavailable', 'unknown'], multiple: false } },
        }),
      },
      handle: (e) => setMode(e, e.params.operation_mode as string),
    });
  },
};

/** HumidifierEntityFeature.MODES = 1. */
export const humidifier: DomainModule = {
  domain: 'humidifier',
  init(seed) {
    const a = { min_humidity: 0, max_humidity: 100, ...seed.attributes };
    numeric(a, ['min_humidity', 'max_humidity', 'humidity', 'current_humidity']);
    return { state: seed.state ?? 'off', attributes: finish(a, seed.name, n(seed.attributes.supported_features, 0)) };
  },
  setup(hub) {
    for (const [service, def] of Object.entries(onOffServices('humidifier'))) hub.services.register('humidifier', service, def);
    hub.services.register('humidifier', 'set_mode', {
      name: 'set_mode',
      description: '',
      requiredFeatures: [1],
      fields: { mode: f(string, { state: { attribute: 'mode' } }, { required: true, example: 'away' }) },
      handle: (e) => void e.write(e.state.state, { ...e.attrs, mode: e.params.mode }),
    });
    hub.services.register('humidifier', 'set_humidity', {
      name: 'set_humidity',
      description: '',
      fields: {
        humidity: f(
          all(coerceFloat, (v, path) => ((v as number) < 0 || (v as number) > 100 ? fail('expected a percentage between 0 and 100', path) : v)),
          sel.number(0, 100, { unit_of_measurement: '%' }),
          { required: true },
        ),
      },
      handle: (e) => void e.write(e.state.state, { ...e.attrs, humidity: e.params.humidity }),
    });
  },
};

/** LawnMowerEntityFeature: START_MOWING 1, PAUSE 2, DOCK 4, STOP 8 (as the demo's mower moves: dock returns first). */
export const lawnMower: DomainModule = {
  domain: 'lawn_mower',
  init(seed) {
    return { state: seed.state ?? 'docked', attributes: finish(seed.attributes, seed.name, n(seed.attributes.supported_features, 15)) };
  },
  ...register('lawn_mower', {
    start_mowing: { requiredFeatures: [1], handle: (e) => void e.write('mowing') },
    pause: { requiredFeatures: [2], handle: (e) => void e.write('paused') },
    dock: { requiredFeatures: [4], handle: (e) => void e.write('returning') },
    // Not in 2024.3 (the release between is not pinned, so it is dated with the current one).
    stop: { requiredFeatures: [8], since: SINCE.current, handle: (e) => void e.write('idle') },
  }),
};

/** RemoteEntityFeature: LEARN_COMMAND 1, DELETE_COMMAND 2, ACTIVITY 4. */
export const remote: DomainModule = {
  domain: 'remote',
  init(seed) {
    return { state: seed.state ?? 'off', attributes: finish(seed.attributes, seed.name, n(seed.attributes.supported_features, 0)) };
  },
  ...register('remote', {
    turn_off: { handle: (e) => void e.write('off') },
    turn_on: { fields: { activity: f(string, sel.text(), { example: 'BedroomTV', filter: { supported_features: [4] } }) }, handle: (e) => void e.write('on') },
    toggle: { handle: (e) => void e.write(e.state.state === 'on' ? 'off' : 'on') },
    send_command: {
      fields: {
        device: f(string, sel.text(), { example: '32756745' }),
        command: f((v) => (Array.isArray(v) ? v.map(String) : [String(v)]), sel.object(), { required: true, example: 'Play' }),
        num_repeats: f(all(coerceInt, range({ min: 0 })), sel.number(0, 255)),
        delay_secs: f(coerceFloat, sel.number(0, 60, { step: 0.1, unit_of_measurement: 'seconds' })),
        hold_secs: f(coerceFloat, sel.number(0, 60, { step: 0.1, unit_of_measurement: 'seconds' })),
      },
      // The demo remote turns on and records the last command sent.
      handle: (e) => void e.write('on', { ...e.attrs, last_command_sent: (e.params.command as string[]).at(-1) }),
    },
    learn_command: {
      fields: {
        device: f(string, sel.text(), { example: 'television' }),
        command: f((v) => (Array.isArray(v) ? v.map(String) : [String(v)]), sel.object(), { example: 'Turn on' }),
        command_type: f(string, sel.select(['ir', 'rf'])),
        alternative: f(boolean, sel.boolean()),
        timeout: f(coerceInt, sel.number(0, 60, { step: 5, unit_of_measurement: 'seconds' })),
      },
      // The demo's remote cannot learn: Home Assistant answers an empty unknown_error.
      handle: () => {
        throw new Error('');
      },
    },
    delete_command: {
      fields: {
        device: f(string, sel.text(), { example: 'television' }),
        command: f((v) => (Array.isArray(v) ? v.map(String) : [String(v)]), sel.object(), { required: true, example: 'Mute' }),
      },
      handle: () => {
        throw new Error('');
      },
    },
  }),
};

export const text: DomainModule = {
  domain: 'text',
  init(seed) {
    const a = { mode: 'text', min: 0, max: 255, pattern: null, ...seed.attributes };
    numeric(a, ['min', 'max']);
    return { state: seed.state ?? 'unknown', attributes: finish(a, seed.name) };
  },
  ...register('text', {
    set_value: {
      fields: { value: f(string, sel.text(), { required: true, example: 'Hello world!' }) },
      handle: (e) => {
        const value = e.params.value as string;
        const a = e.state.attributes;
        if (value.length < n(a.min, 0))
          throw invalid('text', 'value_too_short', `Value ${value} for ${e.id} is too short (minimum length ${n(a.min, 0)})`, {
            value,
            entity_id: e.id,
            min: String(n(a.min, 0)),
          });
        if (value.length > n(a.max, 255))
          throw invalid('text', 'value_too_long', `Value ${value} for ${e.id} is too long (maximum length ${n(a.max, 255)})`, {
            value,
            entity_id: e.id,
            max: String(n(a.max, 255)),
          });
        if (typeof a.pattern === 'string' && !new RegExp(`^(?:${a.pattern})`).test(value))
          throw invalid('text', 'value_pattern_mismatch', `Value ${value} for ${e.id} doesn't match pattern ${a.pattern}`, {
            value,
            entity_id: e.id,
            pattern: a.pattern,
          });
        e.write(value);
      },
    },
  }),
};

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const TIME = /^(\d{1,2}):(\d{2})(?::(\d{2}))?$/;
const DATETIME = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2}))?(?:\.\d+)?(Z|[+-]\d{2}:?\d{2})?$/;
const pad = (x: number) => String(x).padStart(2, '0');
const validDate = (y: number, m: number, d: number) => {
  const t = new Date(Date.UTC(y, m - 1, d));
  return t.getUTCFullYear() === y && t.getUTCMonth() === m - 1 && t.getUTCDate() === d;
};
/** cv.date */
const dateV: Validator = (v, path) => {
  const m = typeof v === 'string' ? DATE.exec(v) : null;
  if (!m || !validDate(+m[1]!, +m[2]!, +m[3]!)) return fail('Could not parse date', path);
  return v;
};
/** cv.time */
const timeV: Validator = (v, path) => {
  const m = typeof v === 'string' ? TIME.exec(v) : null;
  if (!m || +m[1]! > 23 || +m[2]! > 59 || +(m[3] ?? 0) > 59) return fail(`Invalid time specified: ${String(v)}`, path);
  return `${pad(+m[1]!)}:${m[2]}:${m[3] ?? '00'}`;
};
/** cv.datetime: a time without an offset is in the hub's time zone. */
const datetimeV: Validator = (v, path) => {
  const m = typeof v === 'string' ? DATETIME.exec(v) : null;
  if (!m || !validDate(+m[1]!, +m[2]!, +m[3]!) || +m[4]! > 23 || +m[5]! > 59) return fail(`Invalid datetime specified: ${String(v)}`, path);
  return v;
};

/** Minutes a time zone is ahead of UTC at an instant. */
function zoneOffset(zone: string, at: number): number {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
    })
      .formatToParts(new Date(at))
      .map((p) => [p.type, p.value]),
  );
  const wall = Date.UTC(+parts.year!, +parts.month! - 1, +parts.day!, +parts.hour!, +parts.minute!);
  return Math.round((wall - Math.floor(at / 60000) * 60000) / 60000);
}

/** A datetime as the hub keeps it: in UTC, with +00:00. */
function utcOf(value: string, zone: string): string {
  const m = DATETIME.exec(value)!;
  const wall = Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!, +m[4]!, +m[5]!, +(m[6] ?? 0));
  let at: number;
  if (m[7]) {
    const z = m[7] === 'Z' ? 0 : (m[7].startsWith('-') ? -1 : 1) * (+m[7].slice(1, 3) * 60 + +m[7].slice(-2));
    at = wall - z * 60000;
  } else at = wall - zoneOffset(zone, wall - zoneOffset(zone, wall) * 60000) * 60000;
  return `${new Date(at).toISOString().slice(0, 19)}+00:00`;
}

const oneValue = (
  domain: string,
  key: string,
  v: Validator,
  selector: Record<string, unknown>,
  example: string,
  write: (e: EntityCtx, x: string) => string,
): DomainModule => ({
  domain,
  init(seed) {
    return { state: seed.state ?? 'unknown', attributes: finish(seed.attributes, seed.name) };
  },
  ...register(domain, {
    set_value: {
      fields: { [key]: f(v, selector, { required: true, example }) },
      handle: (e) => void e.write(write(e, e.params[key] as string)),
    },
  }),
});
export const date = oneValue('date', 'date', dateV, { date: {} }, '2022/11/01', (_, x) => x);
export const time = oneValue('time', 'time', timeV, { time: {} }, '22:15', (_, x) => x);
export const datetime = oneValue('datetime', 'datetime', datetimeV, { datetime: {} }, '2023-10-07T21:35:22', (e, x) => utcOf(x, e.hub.home.time_zone ?? 'UTC'));

/** UpdateEntityFeature: INSTALL 1, SPECIFIC_VERSION 2, PROGRESS 4, BACKUP 8, RELEASE_NOTES 16. */
export const update: DomainModule = {
  domain: 'update',
  init(seed) {
    const a = { auto_update: false, installed_version: null, latest_version: null, skipped_version: null, in_progress: false, ...seed.attributes };
    const state = seed.state ?? (a.latest_version !== null && a.latest_version !== a.installed_version ? 'on' : 'off');
    return { state, attributes: finish(a, seed.name, n(seed.attributes.supported_features, 0)) };
  },
  ...register('update', {
    install: {
      fields: {
        version: f(string, sel.text(), { example: '1.0.0' }),
        backup: f(boolean, sel.boolean(), { filter: { supported_features: [8] } }),
      },
      requiredFeatures: [1],
      // Described without a feature filter: Home Assistant refuses an entity without INSTALL when called.
      target: { entity: [{ domain: ['update'] }] },
      // The checks of update/services.py _async_install, in its order and words.
      handle: (e) => {
        const a = e.state.attributes;
        if (e.params.version === undefined && (a.installed_version === a.latest_version || a.latest_version == null))
          throw new HomeAssistantError(`No update available for ${e.id}.`);
        if (e.params.version !== undefined && (e.features & 2) === 0)
          throw new HomeAssistantError(`Installing a specific version is not supported for ${e.id}`);
        if (e.params.backup === true && (e.features & 8) === 0) throw new HomeAssistantError(`Backup is not supported for ${e.id}.`);
        if (a.in_progress !== false && a.in_progress !== undefined) throw new HomeAssistantError(`Update installation already in progress for ${e.id}.`);
        const version = (e.params.version as string | undefined) ?? e.state.attributes.latest_version;
        e.write(version === e.state.attributes.latest_version ? 'off' : 'on', { ...e.attrs, installed_version: version });
      },
    },
    skip: { handle: (e) => void e.write('off', { ...e.attrs, skipped_version: e.state.attributes.latest_version }) },
    clear_skipped: {
      handle: (e) => {
        const a = e.state.attributes;
        e.write(a.latest_version !== a.installed_version ? 'on' : 'off', { ...e.attrs, skipped_version: null });
      },
    },
  }),
};

export const image: DomainModule = {
  domain: 'image',
  init(seed) {
    return { state: seed.state ?? 'unknown', attributes: finish(seed.attributes, seed.name) };
  },
  ...register('image', {
    snapshot: {
      since: SINCE.current,
      fields: { filename: f(string, sel.text(), { required: true, example: '/tmp/image_snapshot.jpg' }) },
      // The simulator keeps no image bytes to write.
      handle: (e) => {
        throw new HomeAssistantError(`Cannot write ${String(e.params.filename)}: the simulator keeps no image of ${e.id}`);
      },
    },
  }),
};

/** Event entities have no services: their state is the time of the last event, event_type what it was. */
export const event: DomainModule = {
  domain: 'event',
  init(seed) {
    return { state: seed.state ?? 'unknown', attributes: finish({ event_types: [], event_type: null, ...seed.attributes }, seed.name) };
  },
};
