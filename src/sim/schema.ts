// A small validator kit that fails the way voluptuous fails, so the hub's error messages
// ("value must be at most 100 for dictionary value @ data['brightness_pct']") come out the same;
// rendered in the 'probatio' style they read as 2026.11's do ("... at 'brightness_pct'").

export class VirtualPath {
  constructor(readonly name: string) {}
}
export type PathPart = string | number | VirtualPath;

import { getCloseMatches } from './difflib.js';

/** How a hub words validation errors: voluptuous (up to 2025) or probatio (2026.11). */
export type ErrorStyle = 'voluptuous' | 'probatio';

/** probatio's words for voluptuous messages that it words differently. */
const PROBATIO_WORDS: Record<string, string> = { 'extra keys not allowed': 'not a valid option' };

export class Invalid extends Error {
  errorType: string | undefined;
  constructor(
    readonly msg: string,
    public path: PathPart[] = [],
    /** The message in probatio's words, where they are not PROBATIO_WORDS'. */
    public probatioMsg?: string,
    /** The path probatio names, where it is not `path` (a list item's index; nothing for a command's extra key). */
    public probatioPath?: PathPart[],
  ) {
    super(msg);
  }
  /** str(err) in voluptuous. */
  get text(): string {
    let out = this.msg;
    if (this.errorType) out += ` for ${this.errorType}`;
    if (this.path.length > 0) out += ` @ data[${this.path.map(pathRepr).join('][')}]`;
    return out;
  }
  /** The path the error is reported at in this style. */
  pathIn(style: ErrorStyle): PathPart[] {
    return style === 'probatio' ? (this.probatioPath ?? this.path) : this.path;
  }
  /** str(err) in the hub's style: probatio names the path as 'a.b[0]' and leaves out the error type. */
  render(style: ErrorStyle): string {
    if (style === 'voluptuous') return this.text;
    let out = this.probatioMsg ?? PROBATIO_WORDS[this.msg] ?? this.msg;
    const path = this.pathIn(style);
    if (path.length > 0) {
      const named = path.map((p, i) => (p instanceof VirtualPath ? `${i ? '.' : ''}<${p.name}>` : typeof p === 'number' ? `[${p}]` : `${i ? '.' : ''}${p}`));
      out += ` at '${named.join('')}'`;
    }
    return out;
  }
}

export class MultipleInvalid extends Invalid {
  constructor(readonly errors: Invalid[]) {
    const first = errors[0] ?? new Invalid('invalid');
    super(first.msg, first.path);
    this.errorType = first.errorType;
  }
  override get text(): string {
    return this.errors[0]?.text ?? 'invalid';
  }
  override render(style: ErrorStyle): string {
    return this.errors[0]?.render(style) ?? 'invalid';
  }
}

/** probatio's unknown key: "not a valid option", with the close keys it suggests (difflib, cutoff 0.7). */
function notAnOption(key: string, pool: string[]): string {
  const close = getCloseMatches(
    key,
    pool.filter((k) => k !== key),
    3,
    0.7,
  ).map((k) => `'${k}'`);
  if (!close.length) return 'not a valid option';
  const candidates = close.length === 1 ? close[0] : `${close.slice(0, -1).join(', ')} or ${close.at(-1)}`;
  return `not a valid option, did you mean ${candidates}?`;
}

/** A validator whose own failures probatio words as `probatioMsg`. */
export function reworded(validator: Validator, probatioMsg: string): Validator {
  return (v, path) => {
    try {
      return validator(v, path);
    } catch (err) {
      if (err instanceof Invalid && err.path.length === path.length) err.probatioMsg = probatioMsg;
      throw err;
    }
  };
}

export type Validator = (value: unknown, path: PathPart[]) => unknown;

function pathRepr(p: PathPart): string {
  if (p instanceof VirtualPath) return `<${p.name}>`;
  return pyRepr(p);
}

/** Python's repr() of a JSON value, for error messages. */
export function pyRepr(value: unknown): string {
  if (value === null || value === undefined) return 'None';
  if (value === true) return 'True';
  if (value === false) return 'False';
  if (typeof value === 'number') return String(value);
  if (typeof value === 'string') {
    const quote = value.includes("'") && !value.includes('"') ? '"' : "'";
    let body = value.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/\r/g, '\\r').replace(/\t/g, '\\t');
    if (quote === "'") body = body.replace(/'/g, "\\'");
    return quote + body + quote;
  }
  if (Array.isArray(value)) return `[${value.map(pyRepr).join(', ')}]`;
  if (typeof value === 'object') {
    return `{${Object.entries(value as Record<string, unknown>)
      .map(([k, v]) => `${pyRepr(k)}: ${pyRepr(v)}`)
      .join(', ')}}`;
  }
  return String(value);
}

/** Python's str() of a float (what f-strings show for a coerced temperature). */
export function pyFloatStr(n: number): string {
  return Number.isInteger(n) ? `${n}.0` : String(n);
}

export function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

const fail = (msg: string, path: PathPart[]): never => {
  throw new Invalid(msg, path);
};

// --- scalars -------------------------------------------------------------------------------

const INT_RE = /^\s*[+-]?\d+(?:_\d+)*\s*$/;
const FLOAT_RE = /^\s*[+-]?(?:(?:\d+(?:_\d+)*)?\.?\d+(?:_\d+)*(?:[eE][+-]?\d+)?|\d+\.|inf(?:inity)?|nan)\s*$/i;

/** vol.Coerce(int) */
export const coerceInt: Validator = (v, path) => {
  if (typeof v === 'boolean') return v ? 1 : 0;
  if (typeof v === 'number' && Number.isFinite(v)) return Math.trunc(v);
  if (typeof v === 'string' && INT_RE.test(v)) return Number.parseInt(v.replace(/_/g, '').trim(), 10);
  return fail('expected int', path);
};

/** vol.Coerce(float) */
export const coerceFloat: Validator = (v, path) => {
  if (typeof v === 'boolean') return v ? 1 : 0;
  if (typeof v === 'number') return v;
  if (typeof v === 'string' && FLOAT_RE.test(v)) {
    const s = v.trim().toLowerCase().replace(/_/g, '');
    if (s.endsWith('nan')) return Number.NaN;
    if (s.includes('inf')) return s.startsWith('-') ? -Infinity : Infinity;
    return Number.parseFloat(s);
  }
  return fail('expected float', path);
};

/** vol.Range */
export function range(opts: { min?: number; max?: number }): Validator {
  return (v, path) => {
    const n = v as number;
    if (opts.min !== undefined && n < opts.min) fail(`value must be at least ${opts.min}`, path);
    if (opts.max !== undefined && n > opts.max) fail(`value must be at most ${opts.max}`, path);
    return v;
  };
}

/** vol.Clamp */
export function clamp(opts: { min?: number; max?: number }): Validator {
  return (v) => {
    let n = v as number;
    if (opts.min !== undefined && n < opts.min) n = opts.min;
    if (opts.max !== undefined && n > opts.max) n = opts.max;
    return n;
  };
}

/** cv.string */
export const string: Validator = (v, path) => {
  if (typeof v === 'string') return v;
  if (v === null || v === undefined) return fail('string value is None', path);
  if (typeof v === 'object') return fail('value should be a string', path);
  if (typeof v === 'boolean') return v ? 'True' : 'False';
  return String(v);
};

/** A bare Python type in a schema (`str`, `dict`, `bool`, `int`, `list`): isinstance check. */
export function isType(name: 'str' | 'dict' | 'bool' | 'int' | 'list'): Validator {
  return (v, path) => {
    const ok =
      name === 'str'
        ? typeof v === 'string'
        : name === 'dict'
          ? isPlainObject(v)
          : name === 'bool'
            ? typeof v === 'boolean'
            : name === 'int'
              ? (typeof v === 'number' && Number.isInteger(v)) || typeof v === 'boolean'
              : Array.isArray(v);
    if (!ok) fail(`expected ${name}`, path);
    return v;
  };
}

const TRUE_WORDS = new Set(['1', 'true', 'yes', 'on', 'enable']);
const FALSE_WORDS = new Set(['0', 'false', 'no', 'off', 'disable']);

/** cv.boolean */
export const boolean: Validator = (v, path) => {
  if (typeof v === 'boolean') return v;
  if (typeof v === 'string') {
    const s = v.toLowerCase().trim();
    if (TRUE_WORDS.has(s)) return true;
    if (FALSE_WORDS.has(s)) return false;
  } else if (typeof v === 'number') {
    if (v === 1) return true;
    if (v === 0) return false;
  }
  return fail(`invalid boolean value ${v === null ? 'None' : String(v)}`, path);
};

/** vol.In */
export function oneOf(values: readonly string[]): Validator {
  const sorted = [...values].sort();
  return (v, path) => {
    if (typeof v === 'string' && values.includes(v)) return v;
    return fail(`value must be one of ${pyRepr(sorted)}`, path);
  };
}

/** vol.Coerce(SomeStrEnum): the enum's values, named like the hub names them. */
export function coerceEnum(typeName: string, values: readonly string[]): Validator {
  return (v, path) => {
    if (typeof v === 'string' && values.includes(v)) return v;
    return fail(`expected ${typeName} or one of ${values.map((x) => pyRepr(x)).join(', ')}`, path);
  };
}

/** A literal value in a schema (`vol.Required("type"): "auth"`). */
export function literal(expected: unknown): Validator {
  return (v, path) => (v === expected ? v : fail('not a valid value', path));
}

/** vol.All(vol.Coerce(tuple), vol.ExactSequence(...)); inner failures keep the outer path. */
export function exactSequence(items: Validator[]): Validator {
  return (v, path) => {
    let list: unknown[];
    if (Array.isArray(v)) list = v;
    else if (typeof v === 'string') list = [...v];
    else return fail('expected tuple', path);
    if (list.length !== items.length) return fail('None', path);
    return list.map((x, i) => {
      try {
        return (items[i] as Validator)(x, path);
      } catch (err) {
        // voluptuous reports the sequence, probatio the item.
        if (err instanceof Invalid && err.path.length === path.length) err.probatioPath = [...path, i];
        throw err;
      }
    });
  };
}

/** cv.ensure_list followed by a validator per item. */
export function listOf(item: Validator): Validator {
  return (v, path) => {
    const list = v === null || v === undefined ? [] : Array.isArray(v) ? v : [v];
    return list.map((x) => item(x, path));
  };
}

/** vol.All */
export function all(...validators: Validator[]): Validator {
  return (v, path) => validators.reduce<unknown>((acc, fn) => fn(acc, path), v);
}

/** vol.Any: the first failure wins unless a later one reaches deeper. */
export function any(...validators: Validator[]): Validator {
  return (v, path) => {
    let error: Invalid | undefined;
    for (const fn of validators) {
      try {
        return fn(v, path);
      } catch (err) {
        if (!(err instanceof Invalid)) throw err;
        if (!error || err.path.length > error.path.length) error = err;
      }
    }
    throw error ?? new Invalid('no valid value', path);
  };
}

// --- mappings ------------------------------------------------------------------------------

export interface KeySpec {
  v: Validator;
  required?: boolean;
  default?: unknown;
  exclusive?: string;
  inclusive?: string;
}

/** vol.Schema({...}) with voluptuous's order of checks: exclusion, inclusion, keys, required. */
/**
 * `extraAtTop`: probatio reports an extra key of this dict as "extra keys not allowed" about the
 * whole value (a WebSocket command's schema), not as "not a valid option at 'key'".
 */
export function dict(keys: Record<string, KeySpec>, extra: 'prevent' | 'allow' = 'prevent', opts: { extraAtTop?: boolean } = {}): Validator {
  const exclusive = new Map<string, string[]>();
  const inclusive = new Map<string, string[]>();
  for (const [key, spec] of Object.entries(keys)) {
    if (spec.exclusive) exclusive.set(spec.exclusive, [...(exclusive.get(spec.exclusive) ?? []), key]);
    if (spec.inclusive) inclusive.set(spec.inclusive, [...(inclusive.get(spec.inclusive) ?? []), key]);
  }
  return (v, path) => {
    if (!isPlainObject(v)) return fail('expected a dictionary', path);
    const errors: Invalid[] = [];
    for (const [group, members] of exclusive) {
      if (members.filter((k) => k in v).length > 1) {
        errors.push(new Invalid(`two or more values in the same group of exclusion '${group}'`, [...path, new VirtualPath(group)]));
      }
    }
    if (errors.length) throw new MultipleInvalid(errors);
    for (const [group, members] of inclusive) {
      const present = members.filter((k) => k in v).length;
      if (present > 0 && present < members.length) {
        errors.push(new Invalid(`some but not all values in the same group of inclusion '${group}'`, [...path, new VirtualPath(group)]));
      }
    }
    if (errors.length) throw new MultipleInvalid(errors);

    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(v)) {
      const spec = keys[key];
      const keyPath = [...path, key];
      if (!spec) {
        if (extra === 'allow') out[key] = value;
        else if (opts.extraAtTop) errors.push(new Invalid('extra keys not allowed', keyPath, 'extra keys not allowed', path));
        else errors.push(new Invalid('extra keys not allowed', keyPath, notAnOption(key, Object.keys(keys))));
        continue;
      }
      try {
        out[key] = spec.v(value, keyPath);
      } catch (err) {
        if (!(err instanceof Invalid)) throw err;
        const list = err instanceof MultipleInvalid ? err.errors : [err];
        for (const e of list) {
          if (e.path.length <= keyPath.length) e.errorType = 'dictionary value';
          errors.push(e);
        }
      }
    }
    for (const [key, spec] of Object.entries(keys)) {
      if (key in v) continue;
      if (spec.required) errors.push(new Invalid('required key not provided', [...path, key]));
      else if (spec.default !== undefined) out[key] = spec.default;
    }
    if (errors.length) throw new MultipleInvalid(errors);
    return out;
  };
}

/** `{str: int}`-style schema: any key, each value checked. */
export function mapOf(value: Validator): Validator {
  return (v, path) => {
    if (!isPlainObject(v)) return fail('expected a dictionary', path);
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) out[k] = value(x, [...path, k]);
    return out;
  };
}

/** cv.has_at_least_one_key */
export function hasAtLeastOneKey(...keys: string[]): Validator {
  return (v, path) => {
    if (!isPlainObject(v)) return fail('expected dictionary', path);
    if (Object.keys(v).some((k) => keys.includes(k))) return v;
    throw new Invalid(`must contain at least one of ${keys.join(', ')}.`, path, `at least one of ${pyRepr(keys)} is required`);
  };
}

// --- reporting -----------------------------------------------------------------------------

function valueAt(data: unknown, path: PathPart[]): unknown {
  let cur: unknown = data;
  for (const p of path) {
    if (p instanceof VirtualPath) return undefined;
    if (Array.isArray(cur) && typeof p === 'number') cur = cur[p];
    else if (isPlainObject(cur) && typeof p === 'string') cur = cur[p];
    else return undefined;
  }
  return cur;
}

/** voluptuous.humanize.humanize_error (probatio's reads the same, in its words) */
export function humanizeError(data: unknown, err: Invalid, style: ErrorStyle = 'voluptuous', maxLength = 500): string {
  if (err instanceof MultipleInvalid) {
    return err.errors
      .map((e) => humanizeError(data, e, style, maxLength))
      .sort()
      .join('\n');
  }
  let got = pyRepr(valueAt(data, err.pathIn(style)));
  if (got.length > maxLength) got = `${got.slice(0, maxLength - 3)}...`;
  return `${err.render(style)}. Got ${got}`;
}
