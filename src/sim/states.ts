// The state machine: one State per entity, written the way the hub writes them. A write that
// changes nothing fires nothing; last_changed moves only when the state string changes.
import type { Bus } from './bus.js';
import { Context } from './context.js';
import { HomeAssistantError } from './errors.js';
import { isoFromMicros, nowMicros, secondsFromMicros } from './time.js';

export type Attributes = Readonly<Record<string, unknown>>;

const ENTITY_ID_RE = /^(?!.+__)(?!_)[\da-z_]+(?<!_)\.(?!_)[\da-z_]+(?<!_)$/;

export function validEntityId(id: string): boolean {
  return ENTITY_ID_RE.test(id);
}

export function splitEntityId(id: string): [string, string] {
  const dot = id.indexOf('.');
  return [id.slice(0, dot), id.slice(dot + 1)];
}

export class State {
  private cachedJson: string | undefined;

  constructor(
    readonly entityId: string,
    readonly state: string,
    readonly attributes: Attributes,
    readonly lastChanged: number,
    readonly lastUpdated: number,
    public lastReported: number,
    readonly context: Context,
    private readonly withReported: boolean,
  ) {}

  get domain(): string {
    return splitEntityId(this.entityId)[0];
  }

  toJSON(): Record<string, unknown> {
    const out: Record<string, unknown> = {
      entity_id: this.entityId,
      state: this.state,
      attributes: this.attributes,
      last_changed: isoFromMicros(this.lastChanged),
    };
    if (this.withReported) out.last_reported = isoFromMicros(this.lastReported);
    out.last_updated = isoFromMicros(this.lastUpdated);
    out.context = this.context;
    return out;
  }

  get json(): string {
    this.cachedJson ??= JSON.stringify(this);
    return this.cachedJson;
  }

  touchReported(us: number): void {
    this.lastReported = us;
    this.cachedJson = undefined;
  }

  /** The `a` form of subscribe_entities: lu only when it differs from lc, c as a bare id if it can be. */
  compressed(): Record<string, unknown> {
    const out: Record<string, unknown> = {
      s: this.state,
      a: this.attributes,
      c: this.context.compressed(),
      lc: secondsFromMicros(this.lastChanged),
    };
    if (this.lastUpdated !== this.lastChanged) out.lu = secondsFromMicros(this.lastUpdated);
    return out;
  }
}

export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== typeof b || a === null || b === null || typeof a !== 'object') {
    return typeof a === 'number' && typeof b === 'number' && Number.isNaN(a) && Number.isNaN(b);
  }
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const bb = b as unknown[];
    return a.length === bb.length && a.every((x, i) => deepEqual(x, bb[i]));
  }
  const ao = a as Record<string, unknown>;
  const bo = b as Record<string, unknown>;
  const ak = Object.keys(ao);
  if (ak.length !== Object.keys(bo).length) return false;
  return ak.every((k) => k in bo && deepEqual(ao[k], bo[k]));
}

export interface StateChangedData {
  entity_id: string;
  old_state: State | null;
  new_state: State | null;
}

export class StateMachine {
  private readonly states = new Map<string, State>();

  constructor(
    private readonly bus: Bus,
    private readonly withReported: boolean,
  ) {}

  get(entityId: string): State | undefined {
    return this.states.get(entityId.toLowerCase());
  }

  all(domain?: string): State[] {
    const list = [...this.states.values()];
    return domain ? list.filter((s) => s.domain === domain) : list;
  }

  get size(): number {
    return this.states.size;
  }

  /** hass.states.async_set: returns the state now in place (the old one if nothing changed). */
  set(entityId: string, state: string, attributes: Record<string, unknown> = {}, opts: { context?: Context; forceUpdate?: boolean } = {}): State {
    const id = entityId.toLowerCase();
    if (!validEntityId(id)) throw new HomeAssistantError(`Invalid entity ID: ${entityId}`);
    if (state.length > 255) {
      throw new HomeAssistantError(`Invalid state with length ${state.length}. State max length is 255 characters.`);
    }
    const now = nowMicros();
    const old = this.states.get(id);
    const sameState = old !== undefined && old.state === state;
    if (sameState && !opts.forceUpdate && deepEqual(old.attributes, attributes)) {
      old.touchReported(now);
      return old;
    }
    const frozen = Object.freeze({ ...attributes });
    const next = new State(id, state, frozen, sameState ? old.lastChanged : now, now, now, opts.context ?? new Context(), this.withReported);
    this.states.set(id, next);
    this.bus.fire<StateChangedData>(
      'state_changed',
      { entity_id: id, old_state: old ?? null, new_state: next },
      { context: next.context, timeFiredMicros: now },
    );
    return next;
  }

  remove(entityId: string, context?: Context): boolean {
    const id = entityId.toLowerCase();
    const old = this.states.get(id);
    if (!old) return false;
    this.states.delete(id);
    this.bus.fire<StateChangedData>('state_changed', { entity_id: id, old_state: old, new_state: null }, { context: context ?? new Context() });
    return true;
  }
}
