// The helper domains besides input_boolean (switch.ts): input_number, input_select, input_text,
// input_datetime, input_button, counter and timer, with their everyday services. Items made
// through the config commands live in src/sim/config/helpers.ts; a home may declare them too.
import { type DomainModule, finish, numeric } from '../domain.js';
import { HomeAssistantError, ServiceValidationError } from '../errors.js';
import { coerceFloat, coerceInt, isPlainObject, string } from '../schema.js';
import type { EntityCtx, FieldDef, ServiceDef } from '../services.js';
import { isoFromMicros, nowMicros } from '../time.js';
import { sel } from './common.js';

const reload = (description: string): ServiceDef => ({ kind: 'plain', name: 'Reload', description, run: () => undefined });
const field = (v: FieldDef['v'], required = true): FieldDef => ({ v, required, selector: sel.text() });
const n = (x: unknown, fallback: number) => (typeof x === 'number' && Number.isFinite(x) ? x : fallback);
const fmt = (x: number) => (Number.isInteger(x) ? `${x}.0` : String(x));

function setNumber(e: EntityCtx, value: number): void {
  const min = n(e.state.attributes.min, 0);
  const max = n(e.state.attributes.max, 100);
  if (value < min || value > max) throw new ServiceValidationError(`Invalid value for ${e.id}: ${value} (range ${min} - ${max})`);
  e.write(fmt(value));
}

export const inputNumber: DomainModule = {
  domain: 'input_number',
  init(seed) {
    const a = { min: 0, max: 100, step: 1, mode: 'slider', initial: null, editable: true, ...seed.attributes };
    numeric(a, ['min', 'max', 'step']);
    return { state: seed.state ?? fmt(n(a.min, 0)), attributes: finish(a, seed.name) };
  },
  setup(hub) {
    const r = (s: string, d: ServiceDef) => hub.services.register('input_number', s, d);
    r('set_value', {
      name: 'Set',
      description: 'Sets the value.',
      fields: { value: field(coerceFloat) },
      handle: (e) => setNumber(e, e.params.value as number),
    });
    r('increment', {
      name: 'Increment',
      description: 'Increments the value by 1 step.',
      handle: (e) => setNumber(e, Math.min(Number(e.state.state) + n(e.state.attributes.step, 1), n(e.state.attributes.max, 100))),
    });
    r('decrement', {
      name: 'Decrement',
      description: 'Decrements the current value by 1 step.',
      handle: (e) => setNumber(e, Math.max(Number(e.state.state) - n(e.state.attributes.step, 1), n(e.state.attributes.min, 0))),
    });
    r('reload', reload('Reloads helpers from the YAML-configuration.'));
  },
};

export const inputSelect: DomainModule = {
  domain: 'input_select',
  init(seed) {
    const options = Array.isArray(seed.attributes.options) ? (seed.attributes.options as string[]) : [];
    return { state: seed.state ?? options[0] ?? 'unknown', attributes: finish({ options, editable: true, ...seed.attributes }, seed.name) };
  },
  setup(hub) {
    const r = (s: string, d: ServiceDef) => hub.services.register('input_select', s, d);
    const opts = (e: EntityCtx) => (e.state.attributes.options as string[] | undefined) ?? [];
    const step = (e: EntityCtx, by: number) => {
      const o = opts(e);
      const i = o.indexOf(e.state.state);
      e.write(o[(((i + by) % o.length) + o.length) % o.length]!);
    };
    r('select_option', {
      name: 'Select',
      description: 'Selects an option.',
      fields: { option: field(string) },
      handle: (e) => {
        const option = e.params.option as string;
        if (!opts(e).includes(option))
          throw new ServiceValidationError(`Option ${option} is not valid for entity ${e.id}, valid options are: ${opts(e).join(', ')}`);
        e.write(option);
      },
    });
    r('select_next', { name: 'Next', description: 'Selects the next option.', handle: (e) => step(e, 1) });
    r('select_previous', { name: 'Previous', description: 'Selects the previous option.', handle: (e) => step(e, -1) });
    r('select_first', { name: 'First', description: 'Selects the first option.', handle: (e) => void e.write(opts(e)[0] ?? e.state.state) });
    r('select_last', { name: 'Last', description: 'Selects the last option.', handle: (e) => void e.write(opts(e).at(-1) ?? e.state.state) });
    r('reload', reload('Reloads helpers from the YAML-configuration.'));
  },
};

export const inputText: DomainModule = {
  domain: 'input_text',
  init(seed) {
    return {
      state: seed.state ?? 'unknown',
      attributes: finish({ mode: 'text', min: 0, max: 100, pattern: null, editable: true, ...seed.attributes }, seed.name),
    };
  },
  setup(hub) {
    const r = (s: string, d: ServiceDef) => hub.services.register('input_text', s, d);
    r('set_value', {
      name: 'Set',
      description: 'Sets the value.',
      fields: { value: field(string) },
      handle: (e) => {
        const value = e.params.value as string;
        const min = n(e.state.attributes.min, 0);
        const max = n(e.state.attributes.max, 100);
        if (value.length < min || value.length > max) throw new ServiceValidationError(`Invalid value for ${e.id}: ${value} (length range ${min} - ${max})`);
        e.write(value);
      },
    });
    r('reload', reload('Reloads helpers from the YAML-configuration.'));
  },
};

export const inputDatetime: DomainModule = {
  domain: 'input_datetime',
  init(seed) {
    return { state: seed.state ?? 'unknown', attributes: finish({ has_date: true, has_time: true, editable: true, ...seed.attributes }, seed.name) };
  },
  setup(hub) {
    const r = (s: string, d: ServiceDef) => hub.services.register('input_datetime', s, d);
    r('set_datetime', {
      name: 'Set',
      description: 'Sets the date and/or time.',
      fields: { date: field(string, false), time: field(string, false), datetime: field(string, false) },
      handle: (e) => {
        const p = e.params;
        const value =
          typeof p.datetime === 'string' ? p.datetime.replace('T', ' ').slice(0, 19) : [p.date, p.time].filter((x) => typeof x === 'string').join(' ');
        if (!value) throw new HomeAssistantError('Either date, time or datetime is needed');
        e.write(value);
      },
    });
    r('reload', reload('Reloads helpers from the YAML-configuration.'));
  },
};

export const inputButton: DomainModule = {
  domain: 'input_button',
  init(seed) {
    return { state: seed.state ?? 'unknown', attributes: finish({ editable: true, ...seed.attributes }, seed.name) };
  },
  setup(hub) {
    hub.services.register('input_button', 'press', {
      name: 'Press',
      description: 'Mimics the physical button press on the device.',
      handle: (e) => void e.write(isoFromMicros(nowMicros())),
    });
    hub.services.register('input_button', 'reload', reload('Reloads helpers from the YAML-configuration.'));
  },
};

export const counter: DomainModule = {
  domain: 'counter',
  init(seed) {
    const a = { editable: true, initial: 0, step: 1, ...seed.attributes };
    return { state: seed.state ?? String(a.initial), attributes: finish(a, seed.name) };
  },
  setup(hub) {
    const r = (s: string, d: ServiceDef) => hub.services.register('counter', s, d);
    const set = (e: EntityCtx, value: number) => {
      const a = e.state.attributes;
      if ((typeof a.minimum === 'number' && value < a.minimum) || (typeof a.maximum === 'number' && value > a.maximum)) {
        throw new ServiceValidationError(`Value ${value} for ${e.id} exceeding the minimum value of ${String(a.minimum)}`);
      }
      e.write(String(value));
    };
    r('increment', {
      name: 'Increment',
      description: 'Increments a counter by its step size.',
      handle: (e) => set(e, Number(e.state.state) + n(e.state.attributes.step, 1)),
    });
    r('decrement', {
      name: 'Decrement',
      description: 'Decrements a counter by its step size.',
      handle: (e) => set(e, Number(e.state.state) - n(e.state.attributes.step, 1)),
    });
    r('reset', { name: 'Reset', description: 'Resets a counter to its initial value.', handle: (e) => void e.write(String(n(e.state.attributes.initial, 0))) });
    r('set_value', {
      name: 'Set',
      description: 'Sets the counter to a specific value.',
      fields: { value: field(coerceInt) },
      handle: (e) => set(e, e.params.value as number),
    });
  },
};

export const timer: DomainModule = {
  domain: 'timer',
  init(seed) {
    return { state: seed.state ?? 'idle', attributes: finish({ duration: '0:00:00', editable: true, last_transition: null, ...seed.attributes }, seed.name) };
  },
  setup(hub) {
    const r = (s: string, d: ServiceDef) => hub.services.register('timer', s, d);
    const move = (e: EntityCtx, state: string, extra: Record<string, unknown> = {}) =>
      void e.write(state, { ...e.attrs, last_transition: isoFromMicros(nowMicros()), ...extra });
    r('start', {
      name: 'Start',
      description: 'Starts a timer or restarts it with a provided duration.',
      fields: { duration: field(string, false) },
      handle: (e) => move(e, 'active', isPlainObject(e.params) && e.params.duration ? { duration: e.params.duration } : {}),
    });
    r('pause', {
      name: 'Pause',
      description: 'Pauses a running timer, retaining the remaining duration for later continuation.',
      handle: (e) => move(e, 'paused'),
    });
    r('cancel', {
      name: 'Cancel',
      description: 'Resets a timer’s duration to the last known initial value without firing the timer finished event.',
      handle: (e) => move(e, 'idle'),
    });
    r('finish', { name: 'Finish', description: 'Finishes a running timer earlier than scheduled.', handle: (e) => move(e, 'idle') });
    r('reload', reload('Reloads timers from the YAML-configuration.'));
  },
};
