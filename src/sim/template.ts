// The simulator's render_template: the common forms of Home Assistant's templates, rendered as its
// engine (Jinja with Home Assistant's helpers) renders them, and an error for every other form, so
// a test never reads a value the real hub would not give. Known: text with {{ expressions }} and
// {# comments #}; literals (numbers, strings, true/false/none); + - * / // % ~, comparisons,
// and/or/not, parentheses; states('id'), state_attr('id', 'attr'), is_state('id', value or list),
// states.domain.object_id(.state/.attributes.x/.entity_id/.name), now() and utcnow() with
// .year/.month/.day/.hour/.minute/.second/.isoformat()/.timestamp(); filters round, float, int,
// lower, upper, string, abs, default. Not known (an error naming it): {% %} blocks, loops over
// states, lists, other functions and filters. As Home Assistant does, a result that reads as a
// number, a boolean or None is answered as one; what the template read is answered in `listeners`.

export interface Listeners {
  all: boolean;
  entities: string[];
  domains: string[];
  time: boolean;
}

export type RenderOutcome = { result: unknown; listeners: Listeners } | { error: string };

/** What the renderer reads: states by id, the time, the hub's time zone. */
export interface TemplateHub {
  state(entityId: string): { state: string; attributes: Record<string, unknown>; entityId: string } | undefined;
  timeZone: string;
  now(): Date;
}

class Unknown extends Error {}
class PyError extends Error {}

/** A Python float (rendered with a decimal point), as opposed to an int (a plain JS number). */
class PyFloat {
  constructor(readonly v: number) {}
}
class PyDate {
  constructor(
    readonly at: Date,
    readonly zone: string,
  ) {}
}
class StateObj {
  constructor(readonly s: { state: string; attributes: Record<string, unknown>; entityId: string }) {}
}
class StatesNs {
  constructor(readonly domain?: string) {}
}
const NONE = null;
type Val = number | PyFloat | string | boolean | null | PyDate | StateObj | StatesNs | Record<string, unknown> | unknown[];

const num = (x: Val): number | undefined => (typeof x === 'number' ? x : x instanceof PyFloat ? x.v : typeof x === 'boolean' ? Number(x) : undefined);
const isFloat = (x: Val) => x instanceof PyFloat;

/** Python's str() of a float. */
function floatStr(v: number): string {
  if (Number.isNaN(v)) return 'nan';
  if (!Number.isFinite(v)) return v > 0 ? 'inf' : '-inf';
  if (Number.isInteger(v) && Math.abs(v) < 1e16) return `${v}.0`;
  const s = String(v);
  return s.includes('e') ? s.replace(/e([+-])(\d)$/, 'e$10$2') : s;
}

function pad(n: number, w = 2): string {
  return String(n).padStart(w, '0');
}

/** The wall time of an instant in a zone, and the zone's offset then. */
function wall(d: Date, zone: string) {
  const p = Object.fromEntries(
    new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    })
      .formatToParts(d)
      .map((x) => [x.type, Number(x.value)]),
  ) as Record<string, number>;
  const [year, month, day, hour, minute, second] = [p.year!, p.month!, p.day!, p.hour!, p.minute!, p.second!];
  const asUtc = Date.UTC(year, month - 1, day, hour, minute, second);
  const offset = Math.round((asUtc - Math.floor(d.getTime() / 1000) * 1000) / 60000);
  return { year, month, day, hour, minute, second, micro: d.getUTCMilliseconds() * 1000, offset };
}

function dateStr(x: PyDate, sep: ' ' | 'T'): string {
  const w = wall(x.at, x.zone);
  const sign = w.offset < 0 ? '-' : '+';
  const o = Math.abs(w.offset);
  const frac = w.micro ? `.${pad(w.micro, 6)}` : '';
  return `${w.year}-${pad(w.month!)}-${pad(w.day!)}${sep}${pad(w.hour!)}:${pad(w.minute!)}:${pad(w.second!)}${frac}${sign}${pad(Math.floor(o / 60))}:${pad(o % 60)}`;
}

/** Python's str() of a value, as Jinja writes it into the output. */
function str(x: Val): string {
  if (x === null) return 'None';
  if (x === true) return 'True';
  if (x === false) return 'False';
  if (typeof x === 'number') return String(x);
  if (x instanceof PyFloat) return floatStr(x.v);
  if (typeof x === 'string') return x;
  if (x instanceof PyDate) return dateStr(x, ' ');
  throw new Unknown('writing a list, a mapping or a state object into the output');
}

// --- tokens ---------------------------------------------------------------------------------

type Tok = { k: 'num'; v: Val } | { k: 'str'; v: string } | { k: 'name'; v: string } | { k: 'op'; v: string } | { k: 'end' };
const OPS = ['//', '==', '!=', '<=', '>=', '+', '-', '*', '/', '%', '~', '<', '>', '(', ')', ',', '.', '|', '[', ']'];

function tokens(src: string): Tok[] {
  const out: Tok[] = [];
  let i = 0;
  while (i < src.length) {
    const c = src[i]!;
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    const m = /^(\d+\.\d*|\.\d+|\d+)/.exec(src.slice(i));
    if (m) {
      out.push({ k: 'num', v: m[1]!.includes('.') ? new PyFloat(Number(m[1])) : Number(m[1]) });
      i += m[1]!.length;
      continue;
    }
    if (c === '"' || c === "'") {
      let j = i + 1;
      let s = '';
      while (j < src.length && src[j] !== c) {
        if (src[j] === '\\') throw new Unknown('escapes in strings');
        s += src[j++];
      }
      if (j >= src.length) throw new PyError('TemplateSyntaxError: unexpected end of template, expected the end of a string');
      out.push({ k: 'str', v: s });
      i = j + 1;
      continue;
    }
    const n = /^[A-Za-z_][A-Za-z0-9_]*/.exec(src.slice(i));
    if (n) {
      out.push({ k: 'name', v: n[0] });
      i += n[0].length;
      continue;
    }
    const op = OPS.find((o) => src.startsWith(o, i));
    if (!op) throw new PyError(`TemplateSyntaxError: unexpected char ${JSON.stringify(c)}`);
    out.push({ k: 'op', v: op });
    i += op.length;
  }
  out.push({ k: 'end' });
  return out;
}

// --- evaluation -----------------------------------------------------------------------------

class Renderer {
  readonly listeners: Listeners = { all: false, entities: [], domains: [], time: false };
  private t: Tok[] = [];
  private p = 0;

  constructor(
    private readonly hub: TemplateHub,
    private readonly source: string,
  ) {}

  private read(id: string) {
    const e = id.toLowerCase();
    if (!this.listeners.entities.includes(e)) this.listeners.entities.push(e);
    return this.hub.state(e);
  }

  expression(src: string): Val {
    this.t = tokens(src);
    this.p = 0;
    const v = this.or();
    const rest = this.t[this.p]!;
    if (rest.k !== 'end') throw this.unknownTok(rest);
    return v;
  }

  private peek(): Tok {
    return this.t[this.p]!;
  }
  private isOp(v: string): boolean {
    const t = this.peek();
    return t.k === 'op' && t.v === v;
  }
  private isName(v: string): boolean {
    const t = this.peek();
    return t.k === 'name' && t.v === v;
  }
  private expect(v: string): void {
    if (!this.isOp(v)) throw new PyError(`TemplateSyntaxError: expected token '${v}'`);
    this.p++;
  }
  private unknownTok(t: Tok): Error {
    return t.k === 'end'
      ? new PyError('TemplateSyntaxError: unexpected end of template')
      : new Unknown(`the form ${JSON.stringify('v' in t ? String(t.v) : '')}`);
  }

  private or(): Val {
    let v = this.and();
    while (this.isName('or')) {
      this.p++;
      const r = this.and();
      v = truthy(v) ? v : r;
    }
    return v;
  }
  private and(): Val {
    let v = this.not();
    while (this.isName('and')) {
      this.p++;
      const r = this.not();
      v = truthy(v) ? r : v;
    }
    return v;
  }
  private not(): Val {
    if (this.isName('not')) {
      this.p++;
      return !truthy(this.not());
    }
    return this.compare();
  }
  private compare(): Val {
    const a = this.additive();
    const t = this.peek();
    if (t.k === 'op' && ['==', '!=', '<', '>', '<=', '>='].includes(t.v)) {
      this.p++;
      return compare(t.v, a, this.additive());
    }
    if (t.k === 'name' && (t.v === 'in' || t.v === 'is')) throw new Unknown(`the operator ${t.v}`);
    return a;
  }
  private additive(): Val {
    let v = this.term();
    for (;;) {
      const t = this.peek();
      if (t.k !== 'op' || !['+', '-', '~'].includes(t.v)) return v;
      this.p++;
      const r = this.term();
      v = t.v === '~' ? str(v) + str(r) : arith(t.v, v, r);
    }
  }
  private term(): Val {
    let v = this.unary();
    for (;;) {
      const t = this.peek();
      if (t.k !== 'op' || !['*', '/', '//', '%'].includes(t.v)) return v;
      this.p++;
      v = arith(t.v, v, this.unary());
    }
  }
  private unary(): Val {
    if (this.isOp('-')) {
      this.p++;
      return arith('-', 0, this.unary());
    }
    return this.filtered();
  }
  private filtered(): Val {
    let v = this.postfix();
    while (this.isOp('|')) {
      this.p++;
      const t = this.peek();
      if (t.k !== 'name') throw new PyError('TemplateSyntaxError: expected a filter name');
      this.p++;
      const args = this.isOp('(') ? this.args() : [];
      v = this.filter(t.v, v, args);
    }
    return v;
  }
  private args(): Val[] {
    this.expect('(');
    const out: Val[] = [];
    while (!this.isOp(')')) {
      const t = this.t[this.p + 1];
      if (this.peek().k === 'name' && t?.k === 'op' && t.v === '=') throw new Unknown('keyword arguments');
      out.push(this.or());
      if (!this.isOp(')')) this.expect(',');
    }
    this.expect(')');
    return out;
  }
  private postfix(): Val {
    let v = this.primary();
    for (;;) {
      if (this.isOp('.')) {
        this.p++;
        const t = this.peek();
        if (t.k !== 'name') throw new PyError('TemplateSyntaxError: expected a name after .');
        this.p++;
        const call = this.isOp('(') ? this.args() : undefined;
        v = this.attribute(v, t.v, call);
      } else if (this.isOp('[') || this.isOp('(')) throw new Unknown('indexing or calling a value');
      else return v;
    }
  }
  private primary(): Val {
    const t = this.peek();
    this.p++;
    if (t.k === 'num' || t.k === 'str') return t.v;
    if (t.k === 'op' && t.v === '(') {
      const v = this.or();
      this.expect(')');
      return v;
    }
    if (t.k === 'name') {
      const lower = t.v.toLowerCase();
      if (lower === 'true') return true;
      if (lower === 'false') return false;
      if (lower === 'none') return NONE;
      if (t.v === 'states' && !this.isOp('(')) return new StatesNs();
      if (this.isOp('(')) return this.call(t.v, this.args());
      throw new Unknown(`the name ${t.v}`);
    }
    throw this.unknownTok(t);
  }

  private call(name: string, args: Val[]): Val {
    const id = (x: Val) => {
      if (typeof x !== 'string') throw new Unknown(`${name}() with an id that is not a string`);
      return x;
    };
    switch (name) {
      case 'states':
        if (args.length !== 1) throw new Unknown('states() with more than the entity id');
        return this.read(id(args[0]!))?.state ?? 'unknown';
      case 'is_state': {
        if (args.length !== 2) throw new PyError(`TypeError: is_state() takes 2 arguments (${args.length} given)`);
        const s = this.read(id(args[0]!));
        const want = args[1];
        if (Array.isArray(want)) throw new Unknown('is_state() with a list');
        return s !== undefined && s.state === want;
      }
      case 'state_attr': {
        if (args.length !== 2) throw new PyError(`TypeError: state_attr() takes 2 arguments (${args.length} given)`);
        const s = this.read(id(args[0]!));
        if (typeof args[1] !== 'string') throw new Unknown('state_attr() with a name that is not a string');
        return s ? fromJson(s.attributes[args[1]]) : NONE;
      }
      case 'now':
      case 'utcnow':
        if (args.length) throw new PyError(`TypeError: ${name}() takes no arguments`);
        this.listeners.time = true;
        return new PyDate(this.hub.now(), name === 'now' ? this.hub.timeZone : 'UTC');
      case 'float':
      case 'int':
        if (args.length < 1 || args.length > 2) throw new Unknown(`${name}() with ${args.length} arguments`);
        return toNumber(name, args[0]!, args[1], args.length > 1, this.source);
    }
    throw new Unknown(`the function ${name}()`);
  }

  private attribute(v: Val, name: string, call: Val[] | undefined): Val {
    if (v instanceof StatesNs) {
      if (call) throw new Unknown(`states.${name}()`);
      if (!v.domain) return new StatesNs(name);
      const s = this.read(`${v.domain}.${name}`);
      return s ? new StateObj(s) : NONE;
    }
    if (v instanceof StateObj && !call) {
      if (name === 'state') return v.s.state;
      if (name === 'entity_id') return v.s.entityId;
      if (name === 'name') return String(v.s.attributes.friendly_name ?? v.s.entityId.split('.')[1]);
      if (name === 'attributes') return { ...v.s.attributes };
      if (name === 'domain') return v.s.entityId.split('.')[0]!;
      if (name === 'object_id') return v.s.entityId.split('.')[1]!;
    }
    if (v !== null && typeof v === 'object' && !Array.isArray(v) && !(v instanceof PyFloat) && !(v instanceof PyDate) && !(v instanceof StateObj) && !call) {
      // Jinja's attribute of a mapping is its item, and undefined (rendered as nothing) when absent: not known here.
      if (name in v) return fromJson((v as Record<string, unknown>)[name]);
      throw new Unknown(`a missing attribute ${name}`);
    }
    if (v instanceof PyDate) {
      const w = wall(v.at, v.zone);
      const parts: Record<string, number> = { year: w.year!, month: w.month!, day: w.day!, hour: w.hour!, minute: w.minute!, second: w.second! };
      if (!call && name in parts) return parts[name]!;
      if (call?.length === 0 && name === 'isoformat') return dateStr(v, 'T');
      if (call?.length === 0 && name === 'timestamp') return new PyFloat(v.at.getTime() / 1000);
    }
    throw new Unknown(`.${name}${call ? '()' : ''}`);
  }

  private filter(name: string, v: Val, args: Val[]): Val {
    switch (name) {
      case 'float':
      case 'int':
        if (args.length > 1) throw new Unknown(`the ${name} filter with ${args.length} arguments`);
        return toNumber(name, v, args[0], args.length > 0, this.source);
      case 'round': {
        if (args.length > 1) throw new Unknown('the round filter with a method');
        const digits = args.length ? num(args[0]!) : 0;
        if (digits === undefined || !Number.isInteger(digits)) throw new Unknown('the round filter with that precision');
        const x = num(typeof v === 'string' ? (toNumber('float', v, undefined, false, this.source) as PyFloat) : v);
        if (x === undefined) throw new Unknown('rounding that value');
        const r = pyRound(x, digits);
        return digits === 0 ? r : new PyFloat(r);
      }
      case 'abs': {
        const x = num(v);
        if (x === undefined || typeof v === 'boolean') throw new Unknown('abs of that value');
        return isFloat(v) ? new PyFloat(Math.abs(x)) : Math.abs(x);
      }
      case 'lower':
      case 'upper': {
        const s = str(v);
        return name === 'lower' ? s.toLowerCase() : s.toUpperCase();
      }
      case 'string':
        return str(v);
      case 'default':
        if (args.length !== 1) throw new Unknown('the default filter with a second argument');
        // Only an undefined value takes the default, and nothing here is undefined.
        return v;
    }
    throw new Unknown(`the filter ${name}`);
  }
}

function fromJson(x: unknown): Val {
  if (x === undefined) return NONE;
  if (typeof x === 'number' && !Number.isInteger(x)) return new PyFloat(x);
  return x as Val;
}

function truthy(v: Val): boolean {
  if (v === null || v === false || v === '' || v === 0) return false;
  if (v instanceof PyFloat) return v.v !== 0;
  if (Array.isArray(v)) return v.length > 0;
  return true;
}

/** Banker's rounding to `digits`, as Python's round(). */
function pyRound(x: number, digits: number): number {
  const m = 10 ** digits;
  const y = x * m;
  const f = Math.floor(y);
  const diff = y - f;
  const r = Math.abs(diff - 0.5) < 1e-9 ? (f % 2 === 0 ? f : f + 1) : Math.round(y);
  return r / m;
}

const FLOAT_TEXT = /^\s*[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?\s*$/;
const INT_TEXT = /^\s*[+-]?\d+\s*$/;

/** Home Assistant's forgiving float/int: the value as a number, else the default, else an error naming the template. */
function toNumber(kind: 'float' | 'int', v: Val, dflt: Val | undefined, hasDefault: boolean, source: string): Val {
  let x: number | undefined;
  if (typeof v === 'number' || v instanceof PyFloat || typeof v === 'boolean') x = num(v);
  else if (typeof v === 'string' && (kind === 'float' ? FLOAT_TEXT : FLOAT_TEXT).test(v)) x = Number(v);
  if (x === undefined) {
    if (hasDefault) return dflt ?? NONE;
    throw new PyError(`ValueError: Template error: ${kind} got invalid input ${pyRepr(v)} when rendering template '${source}' but no default was specified`);
  }
  if (kind === 'float') return new PyFloat(x);
  // int("4.5") fails in Python; Jinja's int filter then tries int(float("4.5")).
  if (typeof v === 'string' && !INT_TEXT.test(v) && !FLOAT_TEXT.test(v)) throw new Unknown('int of that text');
  return Math.trunc(x);
}

function pyRepr(v: Val): string {
  return typeof v === 'string' ? `'${v}'` : str(v);
}

function arith(op: string, a: Val, b: Val): Val {
  if (op === '+' && typeof a === 'string' && typeof b === 'string') return a + b;
  const x = num(a);
  const y = num(b);
  if (x === undefined || y === undefined || typeof a === 'string' || typeof b === 'string')
    throw new PyError(`TypeError: unsupported operand type(s) for ${op}: '${pyType(a)}' and '${pyType(b)}'`);
  const float = isFloat(a) || isFloat(b);
  const wrap = (r: number) => (float ? new PyFloat(r) : r);
  switch (op) {
    case '+':
      return wrap(x + y);
    case '-':
      return wrap(x - y);
    case '*':
      return wrap(x * y);
    case '/':
      if (y === 0) throw new PyError('ZeroDivisionError: division by zero');
      return new PyFloat(x / y);
    case '//':
      if (y === 0) throw new PyError('ZeroDivisionError: integer division or modulo by zero');
      return wrap(Math.floor(x / y));
    case '%':
      if (y === 0) throw new PyError('ZeroDivisionError: integer modulo by zero');
      return wrap(x - Math.floor(x / y) * y);
  }
  throw new Unknown(`the operator ${op}`);
}

function pyType(v: Val): string {
  if (v === null) return 'NoneType';
  if (typeof v === 'boolean') return 'bool';
  if (typeof v === 'number') return 'int';
  if (v instanceof PyFloat) return 'float';
  if (typeof v === 'string') return 'str';
  return 'object';
}

function compare(op: string, a: Val, b: Val): boolean {
  const x = num(a);
  const y = num(b);
  const bothNum = x !== undefined && y !== undefined && typeof a !== 'string' && typeof b !== 'string';
  if (op === '==' || op === '!=') {
    const eq = bothNum ? x === y : typeof a === 'string' || typeof b === 'string' || a === null || b === null ? a === b : undefined;
    if (eq === undefined) throw new Unknown('comparing those values');
    return op === '==' ? eq : !eq;
  }
  if (!bothNum && !(typeof a === 'string' && typeof b === 'string'))
    throw new PyError(`TypeError: '${op}' not supported between instances of '${pyType(a)}' and '${pyType(b)}'`);
  const [l, r] = bothNum ? [x!, y!] : [a as string, b as string];
  return op === '<' ? l < r : op === '>' ? l > r : op === '<=' ? l <= r : l >= r;
}

/** Home Assistant's parse of a rendered result (helpers/template _parse_result): a number, a boolean or None when the text is one. */
function parsed(text: string): unknown {
  const t = text.trim();
  if (/^[+-]?(?!0\d)\d*(?:\.\d*)?$/.test(t) && /\d/.test(t)) return Number(t);
  if (t === 'True') return true;
  if (t === 'False') return false;
  if (t === 'None') return null;
  // A text that reads as a Python list, mapping or tuple becomes one there: not rendered here.
  if (/^[[{(]/.test(t)) throw new Unknown('a result that reads as a list, a mapping or a tuple');
  return t;
}

/** Renders a template once, as Home Assistant's render_template's first answer. */
export function renderTemplate(template: string, hub: TemplateHub): RenderOutcome {
  const r = new Renderer(hub, template);
  // A template without {{, {% or {# is static: Home Assistant answers its text as it is, stripped.
  if (!/\{[{%#]/.test(template)) return { result: template.trim(), listeners: r.listeners };
  let out = '';
  let i = 0;
  try {
    while (i < template.length) {
      const open = template.indexOf('{', i);
      if (open < 0 || open === template.length - 1) {
        out += template.slice(i);
        break;
      }
      const kind = template[open + 1];
      if (kind !== '{' && kind !== '%' && kind !== '#') {
        out += template.slice(i, open + 1);
        i = open + 1;
        continue;
      }
      out += template.slice(i, open);
      if (kind === '%') throw new Unknown('{% %} statements');
      const close = template.indexOf(kind === '{' ? '}}' : '#}', open + 2);
      if (close < 0) throw new PyError(`TemplateSyntaxError: unexpected end of template, expected 'end of ${kind === '{' ? 'print statement' : 'comment'}'.`);
      if (kind === '{') out += str(r.expression(template.slice(open + 2, close)));
      i = close + 2;
    }
  } catch (err) {
    if (err instanceof Unknown) return { error: `TemplateError: the simulator does not render ${err.message}; Home Assistant would` };
    if (err instanceof PyError) return { error: err.message };
    throw err;
  }
  try {
    return { result: parsed(out), listeners: r.listeners };
  } catch (err) {
    if (err instanceof Unknown) return { error: `TemplateError: the simulator does not render ${err.message}; Home Assistant would` };
    throw err;
  }
}
