// Automations and scripts as Home Assistant keeps them: automations.yaml (a list, each with its
// id) and scripts.yaml (a map by key), edited through the config API, then reloaded into
// entities. A loaded automation listens to its triggers (state and event triggers run; the other
// kinds are accepted and never fire here), checks its conditions and runs its actions, and every
// run leaves a trace (trace/list, trace/get). An automation that fails to load shows as an
// unavailable entity, as in Home Assistant; `failNextReload` makes the next reload of an item fail
// that way (for the bridge's undo).
import { Context } from '../context.js';
import type { Hub } from '../hub.js';
import { isPlainObject } from '../schema.js';
import { splitEntityId } from '../states.js';
import { isoFromMicros, nowMicros } from '../time.js';
import { errorText, type Run, runSteps, stepsOf } from '../domains/runner.js';
import { checkCondition, ConditionError } from './conditions.js';
import { TraceRun, TraceStore } from './traces.js';
import { ConfigInvalid, slugify, validateAutomation, validateScript } from './validate.js';

type Config = Record<string, unknown>;

/** What set a run off: a trigger of the automation's own, or the automation.trigger action. */
interface Firing {
  index?: number;
  description?: string;
  variables: Record<string, unknown>;
  context: Context;
}

const list = (x: unknown): unknown[] => (x === undefined || x === null ? [] : Array.isArray(x) ? x : [x]);
const ids = (x: unknown): string[] => (typeof x === 'string' ? x.split(',').map((s) => s.trim()) : list(x).map(String));
const copy = <T>(x: T): T => structuredClone(x);

export class ScriptedConfig {
  /** automations.yaml: each item as written (the id first). */
  readonly automations: Config[] = [];
  /** scripts.yaml: key → script. */
  readonly scripts = new Map<string, Config>();
  readonly traces = new TraceStore();
  /** Config keys whose next reload fails (the entity comes back unavailable). */
  readonly failNextReload = new Set<string>();
  private readonly disarm = new Map<string, () => void>();
  /** What each entity was made from at its last reload, as written (automation/config, script/config answer this). */
  readonly loaded = new Map<string, Config>();

  constructor(private readonly hub: Hub) {}

  /** The automations and scripts the home declared, as if they were in the files. */
  seed(): void {
    for (const s of this.hub.states.all('automation')) {
      const id = String(s.attributes.id ?? splitEntityId(s.entityId)[1]);
      const config = this.hub.entityConfig(s.entityId);
      this.automations.push({
        id,
        alias: String(s.attributes.friendly_name ?? id),
        ...(config.description ? { description: config.description } : {}),
        triggers: list(config.triggers),
        ...(config.conditions ? { conditions: config.conditions } : {}),
        actions: stepsOf(config, 'actions'),
      });
      this.loaded.set(s.entityId, copy(this.automations.at(-1)!));
      this.arm(s.entityId, this.automations.at(-1)!);
    }
    for (const s of this.hub.states.all('script')) {
      const key = splitEntityId(s.entityId)[1];
      const config = this.hub.entityConfig(s.entityId);
      this.scripts.set(key, { alias: String(s.attributes.friendly_name ?? key), ...copy(config), sequence: stepsOf(config, 'sequence') });
      this.loaded.set(s.entityId, copy(this.scripts.get(key)!));
    }
  }

  // --- automations -------------------------------------------------------------------------

  automation(id: string): Config | undefined {
    return this.automations.find((a) => a.id === id);
  }

  /** The entity of the automation with this config id. */
  automationEntity(id: string): string | undefined {
    return this.hub.states.all('automation').find((s) => s.attributes.id === id)?.entityId;
  }

  /** The config id of an automation entity. */
  automationId(entityId: string): string | undefined {
    const id = this.hub.states.get(entityId)?.attributes.id;
    return typeof id === 'string' ? id : undefined;
  }

  /** Writes an automation as the config view does: known keys first, in the hub's order. */
  writeAutomation(id: string, value: Config): void {
    const ordered: Config = { id };
    for (const key of ['alias', 'description', 'triggers', 'trigger', 'conditions', 'condition', 'actions', 'action'])
      if (key in value) ordered[key] = value[key];
    Object.assign(ordered, value, { id });
    const at = this.automations.findIndex((a) => a.id === id);
    if (at >= 0) this.automations[at] = copy(ordered);
    else this.automations.push(copy(ordered));
  }

  deleteAutomation(id: string): boolean {
    const at = this.automations.findIndex((a) => a.id === id);
    if (at < 0) return false;
    this.automations.splice(at, 1);
    return true;
  }

  /** automation.reload with an id: that automation's entity is made again from the file. */
  /** automation.reload (of one item, as the config view's hook does): then automation_reloaded, as the hub fires. */
  reloadAutomation(id: string): void {
    this.reloadOneAutomation(id);
    this.hub.bus.fire('automation_reloaded', {});
  }

  private reloadOneAutomation(id: string): void {
    const config = this.automation(id);
    const existing = this.automationEntity(id);
    if (!config) {
      if (existing) this.removeEntity(existing);
      return;
    }
    const index = this.automations.indexOf(config);
    const name = config.alias !== undefined && config.alias !== null ? String(config.alias) : `automation ${index}`;
    let valid: Config | undefined;
    try {
      valid = validateAutomation(config);
    } catch (err) {
      if (!(err instanceof ConfigInvalid)) throw err;
    }
    if (this.failNextReload.delete(id)) valid = undefined;
    const entityId = existing ?? this.freeEntityId('automation', slugify(name));
    const previous = this.hub.states.get(entityId);
    this.disarm.get(entityId)?.();
    this.disarm.delete(entityId);
    if (!existing) {
      this.hub.registries.addEntity({ entity_id: entityId, name, platform: 'automation', unique_id: id });
      this.hub.bus.fire('entity_registry_updated', { action: 'create', entity_id: entityId });
    }
    this.loaded.set(entityId, copy(config));
    if (!valid) {
      this.hub.states.set(entityId, 'unavailable', { id, friendly_name: name });
      return;
    }
    const on = previous && previous.state !== 'unavailable' ? previous.state === 'on' : valid.initial_state !== false;
    const stored = this.hub.entityConfig(entityId);
    for (const k of Object.keys(stored)) delete stored[k];
    Object.assign(stored, copy(valid));
    this.hub.states.set(entityId, on ? 'on' : 'off', {
      id,
      last_triggered: previous?.attributes.last_triggered ?? null,
      mode: valid.mode ?? 'single',
      current: 0,
      friendly_name: name,
    });
    this.arm(entityId, valid);
  }

  private removeEntity(entityId: string): void {
    this.loaded.delete(entityId);
    this.disarm.get(entityId)?.();
    this.disarm.delete(entityId);
    this.hub.removeEntity(entityId);
    this.hub.bus.fire('entity_registry_updated', { action: 'remove', entity_id: entityId });
  }

  private freeEntityId(domain: string, objectId: string): string {
    let id = `${domain}.${objectId}`;
    for (let n = 2; this.hub.states.get(id) || this.hub.registries.entities.has(id); n++) id = `${domain}.${objectId}_${n}`;
    return id;
  }

  /** Listens to an automation's state and event triggers. */
  private arm(entityId: string, config: Config): void {
    const stops: (() => void)[] = [];
    for (const [index, t] of list(config.triggers ?? config.trigger).entries()) {
      if (!isPlainObject(t) || t.enabled === false) continue;
      const kind = t.trigger ?? t.platform;
      if (kind === 'state') {
        const watched = new Set(ids(t.entity_id));
        const to = t.to === undefined ? undefined : list(t.to).map(String);
        const from = t.from === undefined ? undefined : list(t.from).map(String);
        stops.push(
          this.hub.bus.listen('state_changed', (event) => {
            const {
              entity_id: changed,
              old_state: old,
              new_state: now,
            } = event.data as { entity_id: string; old_state: { state: string } | null; new_state: { state: string } | null };
            if (!watched.has(changed) || !now) return;
            // Without to/from, a state trigger fires on any change of state or attributes; with to, only when the state is one of them.
            if (to && !to.includes(now.state)) return;
            if (from && !(old && from.includes(old.state))) return;
            if ((to || from) && old && old.state === now.state) return;
            const description = `state of ${changed}`;
            const trigger = {
              id: String(t.id ?? index),
              idx: String(index),
              alias: t.alias ?? null,
              platform: 'state',
              entity_id: changed,
              from_state: old,
              to_state: now,
              for: null,
              attribute: null,
              description,
            };
            setImmediate(() => void this.runAutomation(entityId, { index, description, variables: { trigger }, context: event.context }));
          }),
        );
      } else if (kind === 'event') {
        const type = String(t.event_type);
        stops.push(
          this.hub.bus.listen(type, (event) => {
            const description = `event '${type}'`;
            const trigger = { id: String(t.id ?? index), idx: String(index), alias: t.alias ?? null, platform: 'event', event, description };
            setImmediate(() => void this.runAutomation(entityId, { index, description, variables: { trigger }, context: event.context }));
          }),
        );
      }
    }
    this.disarm.set(entityId, () =>
      stops.forEach((s) => {
        s();
      }),
    );
  }

  /** One run of an automation, its trace kept: from a trigger, or from automation.trigger (skip_condition as given). */
  async runAutomation(entityId: string, firing: Firing, opts: { skipCondition?: boolean } = {}): Promise<void> {
    const hub = this.hub;
    const state = hub.states.get(entityId);
    const id = this.automationId(entityId);
    if (!state || state.state === 'unavailable' || id === undefined) return;
    // A disabled automation does not react to its triggers; the action still runs it.
    if (firing.index !== undefined && state.state !== 'on') return;
    const config = this.automation(id) ?? {};
    const context = new Context(null, firing.context.id);
    const run = new TraceRun('automation', id, copy(config), context, firing.description ?? null);
    const self = state.toJSON();
    run.step(firing.index === undefined ? 'trigger' : `trigger/${firing.index}`, {
      changed_variables: { this: self, trigger: firing.index === undefined ? { platform: null } : firing.variables.trigger },
    });
    this.traces.add(run);
    const memory = hub.memory(entityId);
    if (memory.run) {
      run.end('failed_single');
      hub.log.warn(`${entityId}: Already running`);
      return;
    }
    const loaded = hub.entityConfig(entityId);
    if (!opts.skipCondition) {
      try {
        for (const [i, c] of list(loaded.conditions).entries()) {
          if (!checkCondition(hub, c, { run, path: `condition/${i}` })) {
            run.end('failed_conditions');
            return;
          }
        }
      } catch (err) {
        if (!(err instanceof ConditionError)) throw err;
        run.end('error', err.message);
        return;
      }
    }
    const r: Run = { cancelled: false };
    memory.run = r;
    const name = String(state.attributes.friendly_name ?? entityId);
    const now = hub.states.get(entityId)!;
    hub.states.set(entityId, now.state, { ...now.attributes, last_triggered: isoFromMicros(nowMicros()), current: 1 }, { context });
    hub.bus.fire('automation_triggered', { name, entity_id: entityId }, { context });
    try {
      await runSteps(hub, stepsOf(loaded, 'actions'), context, r, { run, prefix: 'action' });
      run.end(r.cancelled ? 'cancelled' : 'finished');
    } catch (err) {
      run.end('error', errorText(err));
    } finally {
      delete memory.run;
      const latest = hub.states.get(entityId);
      if (latest) hub.states.set(entityId, latest.state, { ...latest.attributes, current: 0 }, { context });
    }
  }

  // --- scripts -----------------------------------------------------------------------------

  writeScript(key: string, value: Config): void {
    this.scripts.set(key, copy(value));
  }

  deleteScript(key: string): boolean {
    return this.scripts.delete(key);
  }

  /** script.reload: every script's entity and service made again from the file. */
  reloadScripts(): void {
    const hub = this.hub;
    for (const s of hub.states.all('script')) {
      const key = splitEntityId(s.entityId)[1];
      if (this.scripts.has(key)) continue;
      hub.services.remove('script', key);
      this.removeEntity(s.entityId);
      hub.bus.fire('service_removed', { domain: 'script', service: key });
    }
    for (const [key, config] of this.scripts) {
      const entityId = `script.${key}`;
      let valid: Config | undefined;
      try {
        valid = validateScript(config);
      } catch (err) {
        if (!(err instanceof ConfigInvalid)) throw err;
      }
      if (this.failNextReload.delete(key)) valid = undefined;
      const existed = hub.states.get(entityId);
      const name = config.alias !== undefined ? String(config.alias) : key;
      this.loaded.set(entityId, copy(config));
      if (!valid) {
        hub.services.remove('script', key);
        hub.states.set(entityId, 'unavailable', { friendly_name: name });
        continue;
      }
      const before = existed ? JSON.stringify(hub.entityConfig(entityId)) : undefined;
      if (before === JSON.stringify(valid) && existed?.state !== 'unavailable') continue;
      const isNew = !hub.registries.entities.has(entityId);
      // addEntity makes the state and registers script.<key> with the script's fields.
      hub.addEntity({ entity_id: entityId, name, config: copy(valid), platform: 'script', unique_id: key });
      if (existed?.attributes.last_triggered) {
        const s = hub.states.get(entityId)!;
        hub.states.set(entityId, s.state, { ...s.attributes, last_triggered: existed.attributes.last_triggered });
      }
      if (isNew) hub.bus.fire('entity_registry_updated', { action: 'create', entity_id: entityId });
      if (!existed || existed.state === 'unavailable') hub.bus.fire('service_registered', { domain: 'script', service: key });
    }
  }

  /** The trace of a script run that has started (script.ts writes its steps). */
  scriptTrace(key: string, context: Context): TraceRun {
    const run = new TraceRun('script', key, copy(this.scripts.get(key) ?? {}), context);
    this.traces.add(run);
    return run;
  }
}
