// What an action will do, as opposed to what it is called: the one resolver the checkpoint judges
// through. It turns an action (a command on an entity, a service call, a step of a config) into
// the concrete effects `(entity, service, data)` Home Assistant will carry out, following groups
// (group.* and the domain groups that list members in `entity_id`), homeassistant.turn_on/off/toggle
// (each target's own domain), toggle (the direction the current state gives), scripts and
// automation.trigger (their actions, from the configs Home Assistant loaded), scenes, scene.apply
// and scene.create (the service each wanted state means) and device actions, as deep as MAX_DEPTH,
// each item once. What it cannot know is an effect marked `unresolved` with the reason, for the
// policy to refuse whenever a rule could apply. Synchronous over what the hub told the bridge;
// `missing` lists configs not read yet, for `ready` to read before judging.
import { canonicalEntityIds, canonicalIdList, isTemplate } from '../hub/canonical.js';
import { configDomainOf, type HubConfigs, type ItemConfig } from '../hub/configs.js';
import { domainOf } from '../hub/entity-id.js';
import type { Registries } from '../hub/registries.js';
import type { StateCache } from '../hub/state-cache.js';
import { reachedEntities } from '../hub/targets.js';
import { type ActionRef, referencesOf } from '../ha-config/references.js';
import type { GuardedAction } from './policy.js';
import { callsForState, serviceOfDeviceAction } from './scene-states.js';
import { opaqueService } from './opaque-services.js';

/** How many scripts, automations, scenes and groups deep an action is followed. */
export const MAX_DEPTH = 8;

/** Domain groups: an entity of these domains listing members in `entity_id` passes its service on to them. */
const GROUP_DOMAINS = new Set(['light', 'switch', 'cover', 'fan', 'lock', 'media_player', 'valve', 'climate', 'humidifier', 'siren']);
const GENERIC = new Set(['turn_on', 'turn_off', 'toggle']);
/** Data keys that name entities (`entity_id`, `entities`, `media_player_entity_id`, ...): what they name is judged as touched. */
const ENTITY_DATA = /(^|_)(entity|entities|entity_id|entity_ids)$/;

export interface HubView {
  cache: StateCache;
  registries: Registries;
}

/** A service call as written anywhere (a config step, a raw target): the resolver reads its ids the hub's way. */
export interface CallSpec {
  domain: string;
  service: string;
  target: Partial<Record<'entity_id' | 'device_id' | 'area_id' | 'floor_id' | 'label_id', unknown>>;
  data: Record<string, unknown>;
  device_action?: boolean;
}

const isObject = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x);
const anyTemplate = (x: unknown): boolean => (Array.isArray(x) ? x.some(anyTemplate) : isObject(x) ? Object.values(x).some(anyTemplate) : isTemplate(x));
const membersOf = (attrs: Record<string, unknown> | undefined): string[] | undefined => {
  const m = attrs?.entity_id;
  return Array.isArray(m) ? m.filter((x): x is string => typeof x === 'string') : undefined;
};

/** The service a toggle becomes, from the entity's state now (as each domain's entity toggles). */
export function toggleDirection(domain: string, state: string | undefined, attributes?: Record<string, unknown>): string {
  if (domain === 'cover' || domain === 'valve') {
    const kind = domain === 'cover' ? 'cover' : 'valve';
    // As Home Assistant's cover toggles: moving stops only with the stop feature (8); without it, closing reverses to open.
    const stops = (Number(attributes?.supported_features) & 8) !== 0;
    if (state === 'opening') return stops ? `stop_${kind}` : `close_${kind}`;
    if (state === 'closing') return stops ? `stop_${kind}` : `open_${kind}`;
    // Partly open, the hub picks the direction from the last movement it saw, which it does not show: judged as opening.
    const position = attributes?.current_position;
    if (state === 'open') return typeof position === 'number' && position < 100 ? `open_${kind}` : `close_${kind}`;
    // Closed opens; an unknown position is judged as opening, the direction that needs asking.
    return `open_${kind}`;
  }
  if (domain === 'media_player') return state === 'off' || state === 'standby' ? 'turn_on' : 'turn_off';
  if (domain === 'climate') return state === 'off' ? 'turn_on' : 'turn_off';
  return state === 'on' ? 'turn_off' : 'turn_on';
}

/** Words for how an effect was reached: "running script.unlocker", "toggling cover.garage_door". */
const viaWords = (domain: string, service: string, entityId: string): string => {
  if (domain === 'script' || (domain === 'homeassistant' && entityId.startsWith('script.'))) return `running ${entityId}`;
  if (domain === 'automation' && service === 'trigger') return `running ${entityId}`;
  if (domain === 'scene' && service === 'turn_on') return `activating ${entityId}`;
  if (service === 'toggle') return `toggling ${entityId}`;
  return `${domain}.${service} on ${entityId}`;
};

export class EffectResolver {
  constructor(
    private readonly hub: HubView,
    private readonly configs: HubConfigs,
  ) {}

  /**
   * The effects of actions as the executor planned them (an entity and its domain's service, or a
   * call with no entity named `domain.service`). Each effect keeps the words for what reached it.
   */
  expand(actions: readonly GuardedAction[], missing?: Set<string>): GuardedAction[] {
    const out: GuardedAction[] = [];
    const seen = new Set<string>();
    for (const a of actions) this.one(a, 0, seen, out, missing);
    return out;
  }

  /** Reads every config the actions' effects depend on, as deep as they go, before judging them. */
  async ready(actions: readonly GuardedAction[]): Promise<void> {
    const tried = new Set<string>();
    for (let round = 0; round <= MAX_DEPTH + 1; round++) {
      const missing = new Set<string>();
      this.expand(actions, missing);
      // What failed to load once stays unresolved in this judgement rather than being asked again.
      const next = [...missing].filter((id) => !tried.has(id));
      if (!next.length) return;
      next.forEach((id) => {
        tried.add(id);
      });
      await this.configs.load(next);
    }
  }

  /** The actions a call written anywhere (a config step) takes, its target read as Home Assistant reads it. */
  ofCall(call: CallSpec, via?: string): GuardedAction[] {
    const domain = call.domain.toLowerCase();
    const service = call.device_action ? serviceOfDeviceAction(domain, call.service) : call.service.toLowerCase();
    const data = call.data;
    const unresolved = (why: string): GuardedAction[] => [
      { entity_id: `${domain}.${service}`, service, data, targetless: true, unresolved: why, ...(via ? { via } : {}) },
    ];
    const t = call.target;
    if (anyTemplate(t)) return unresolved(`the target of ${domain}.${service} is a template`);
    const ids = canonicalEntityIds(t.entity_id, this.hub.registries);
    if (ids.unknown.length)
      return unresolved(
        `${ids.unknown.map((x) => JSON.stringify(x)).join(', ')} in the target of ${domain}.${service} is neither an entity id nor a registry id the bridge knows`,
      );
    const lists = {
      device_id: canonicalIdList(t.device_id),
      area_id: canonicalIdList(t.area_id),
      floor_id: canonicalIdList(t.floor_id),
      label_id: canonicalIdList(t.label_id),
    };
    const reg = this.hub.registries;
    const registry = { device_id: reg.devices, area_id: reg.areas, floor_id: reg.floors, label_id: reg.labels };
    for (const key of ['device_id', 'area_id', 'floor_id', 'label_id'] as const) {
      const unknown = lists[key].filter((id) => !registry[key].has(id));
      if (unknown.length)
        return unresolved(`${key.replace('_id', '')} ${unknown.join(', ')} in the target of ${domain}.${service} is not one the bridge knows`);
    }
    let entities: string[];
    if (ids.all) {
      entities = [...this.hub.cache.ids()].filter((id) => domain === 'homeassistant' || domainOf(id) === domain);
    } else {
      const reached = reachedEntities({ entity_id: ids.ids, ...lists }, reg, this.hub.cache);
      // Groups are followed by the resolver itself (and judged themselves), so named ids stay as named.
      entities = [...new Set([...ids.ids, ...reached.indirect.filter((id) => !call.device_action || domainOf(id) === domain)])];
    }
    // A device action reaches the device's entities of its domain.
    if (call.device_action) entities = entities.filter((id) => domainOf(id) === domain);
    if (!entities.length) return [{ entity_id: `${domain}.${service}`, service, data, targetless: true, ...(via ? { via } : {}) }];
    return entities.map((id) => ({
      entity_id: id,
      service,
      data,
      state: this.hub.cache.get(id),
      ...(domain !== domainOf(id) ? { domain } : {}),
      ...(via ? { via } : {}),
    }));
  }

  private one(a: GuardedAction, depth: number, seen: Set<string>, out: GuardedAction[], missing?: Set<string>): void {
    const push = (e: GuardedAction): void => {
      out.push(e);
    };
    const fail = (why: string) => push({ ...a, unresolved: why });
    if (a.unresolved) return push(a);
    const entity = a.entity_id.toLowerCase();
    const domain = (a.domain ?? (a.targetless ? entity.slice(0, entity.indexOf('.')) : domainOf(entity))).toLowerCase();
    const service = a.service.toLowerCase();
    const key = `${domain}.${service}>${entity}>${JSON.stringify(a.data)}`;
    if (seen.has(key)) return;
    seen.add(key);
    if (depth > MAX_DEPTH) return fail(`it runs more than ${MAX_DEPTH} scripts, scenes or groups deep`);
    const via = a.via;
    const follow = (next: GuardedAction) => this.one(next, depth + 1, seen, out, missing);
    const followCalls = (config: ItemConfig, steps: unknown, words: string) => {
      const refs = this.stepsOf(config, steps);
      for (const p of refs.templated) fail(`${words} has a template at ${p}, so what it touches cannot be known before it runs`);
      for (const r of refs.actions) for (const g of this.ofRef(r, words)) follow(g);
    };
    if (isTemplate(a.entity_id) || anyTemplate(a.data)) {
      // A templated value in a plain action's data decides nothing about which entity is touched,
      // except in the services that run other things or read entities from their data.
      if (
        isTemplate(a.entity_id) ||
        ['script', 'scene', 'automation', 'homeassistant', 'group'].includes(domain) ||
        Object.entries(a.data).some(([k, x]) => ENTITY_DATA.test(k) && anyTemplate(x)) ||
        anyTemplate(a.data.position) ||
        anyTemplate(a.data.tilt_position)
      ) {
        return fail(`a template in ${a.targetless ? entity : `${domain}.${service} on ${entity}`} decides what it touches`);
      }
    }

    const opaque = opaqueService(domain, service);
    if (opaque) return fail(opaque);
    if (a.targetless) {
      // A call with no entity: the services that act through their data.
      if (domain === 'scene' && (service === 'apply' || service === 'create')) {
        push(a);
        return this.sceneStates(a.data.entities, `${domain}.${service}`, service === 'create' ? a.data.snapshot_entities : undefined, via, follow, fail);
      }
      if (domain === 'script' && !GENERIC.has(service) && service !== 'reload') {
        return follow({
          entity_id: `script.${service}`,
          service: 'turn_on',
          data: a.data,
          state: this.hub.cache.get(`script.${service}`),
          ...(via ? { via } : {}),
        });
      }
      // A fired event does what the automations listening for it do: judged as running them, as automation.trigger is.
      if (domain === 'fire_event' && service === 'fire_event') {
        push(a);
        this.namedInData(a, domain, service, follow, fail);
        return this.listeners(a.entity_id.slice(a.entity_id.indexOf('.') + 1), a.data, via, missing, fail, followCalls);
      }
      // group.set gives a group new members: acting on it later reaches them, which its judged members do not show.
      if (domain === 'group' && service === 'set' && (a.data.entities !== undefined || a.data.add_entities !== undefined)) {
        return fail(`group.set changes which entities a group stands for, so what acting on that group does cannot be known`);
      }
      push(a);
      return this.namedInData(a, domain, service, follow, fail);
    }
    this.namedInData(a, domain, service, follow, fail);

    const state = this.hub.cache.get(entity);
    // homeassistant.turn_on/turn_off/toggle: each target's own domain's service.
    if (domain === 'homeassistant' && GENERIC.has(service)) {
      return follow({ entity_id: entity, service, data: a.data, state, ...(via ? { via } : {}) });
    }
    // toggle: the direction the state gives (a closed garage door's toggle opens it).
    // Not an old-style group: Home Assistant expands it and toggles each member by its own state.
    if (service === 'toggle' && domain === domainOf(entity) && domain !== 'automation' && domain !== 'group') {
      const direction = toggleDirection(domain, state?.state, state?.attributes);
      return follow({ entity_id: entity, service: direction, data: a.data, state, via: via ?? `toggling ${entity}` });
    }
    // Old-style groups (group.*) stand for their members, in the calling service's domain.
    const members = membersOf(state?.attributes);
    if (domainOf(entity) === 'group') {
      push({ ...a, entity_id: entity, state });
      // A group the hub does not have (yet): group.set may make it at run time, with any members.
      if (!state) return fail(`${entity} is not a group the bridge knows, so what it stands for cannot be known`);
      if (!members) return;
      const words = via ?? viaWords(domain, service, entity);
      for (const m of canonicalEntityIds(members, this.hub.registries).ids) {
        const md = domainOf(m);
        if (domain === 'group' || domain === 'homeassistant' || domain === md)
          follow({ entity_id: m, service, data: a.data, state: this.hub.cache.get(m), via: words, ...(domain === md ? {} : { domain: 'homeassistant' }) });
      }
      return;
    }
    if (domain !== domainOf(entity)) {
      // A service of another domain on this entity (light.turn_on on a switch): the hub skips it, but it is judged as named.
      return push({ ...a, entity_id: entity, state });
    }
    push({ ...a, entity_id: entity, service, state });
    const words = via ?? viaWords(domain, service, entity);

    if (GROUP_DOMAINS.has(domain) && members) {
      for (const m of canonicalEntityIds(members, this.hub.registries).ids)
        follow({ entity_id: m, service, data: a.data, state: this.hub.cache.get(m), via: words });
      return;
    }
    const runs =
      (domain === 'script' && (service === 'turn_on' || entity === `script.${service}`)) ||
      (domain === 'automation' && service === 'trigger') ||
      (domain === 'scene' && service === 'turn_on');
    if (!runs) return;
    const config = this.configs.get(entity);
    if (config === undefined) {
      missing?.add(entity);
      const err = this.configs.errorOf(entity);
      return fail(err ? `Home Assistant's config of ${entity} could not be read (${err})` : `Home Assistant's config of ${entity} has not been read yet`);
    }
    if (domain === 'scene') {
      if (config === null) {
        // A scene with no readable config (written in YAML): its members are known, their states not.
        return fail(
          `${entity} is not a scene whose states the bridge can read (only scenes made in Home Assistant's scene editor are), so what it sets cannot be known`,
        );
      }
      return this.sceneStates(config.entities, `activating ${entity}`, undefined, words, follow, fail);
    }
    if (config === null) return fail(`Home Assistant does not show ${entity}'s config, so what it does cannot be known`);
    const steps = domain === 'script' ? (config.sequence ?? config.actions) : (config.actions ?? config.action);
    followCalls(config, steps ?? [], words);
  }

  /**
   * The automations a fired event sets off: those turned on whose event trigger names its type (a
   * templated type or data filter counts as listening) and whose `event_data` filter the event's
   * data matches. An automation whose config cannot be read may be listening, so it is unresolved.
   */
  private listeners(
    type: string,
    data: Record<string, unknown>,
    via: string | undefined,
    missing: Set<string> | undefined,
    fail: (why: string) => void,
    followCalls: (config: ItemConfig, steps: unknown, words: string) => void,
  ): void {
    for (const id of this.hub.cache.ids()) {
      if (domainOf(id) !== 'automation' || this.hub.cache.get(id)?.state === 'off') continue;
      const config = this.configs.get(id);
      if (config === undefined) {
        missing?.add(id);
        const err = this.configs.errorOf(id);
        fail(
          err
            ? `Home Assistant's config of ${id} could not be read (${err}), so whether it listens for ${type} cannot be known`
            : `Home Assistant's config of ${id} has not been read yet`,
        );
        continue;
      }
      if (config === null) {
        fail(`Home Assistant does not show ${id}'s config, so whether it listens for the event ${type} cannot be known`);
        continue;
      }
      if (!eventTriggersOf(config, type, data)) continue;
      followCalls(config, config.actions ?? config.action ?? [], via ?? `the event ${type} setting off ${id}`);
    }
  }

  /** Entities a call names in its data (tts.speak's media_player_entity_id): judged as touched by it; what cannot be read is refused. */
  private namedInData(a: GuardedAction, domain: string, service: string, follow: (g: GuardedAction) => void, fail: (why: string) => void): void {
    if (domain === 'scene' && (service === 'apply' || service === 'create')) return;
    for (const [key, value] of Object.entries(a.data)) {
      if (!ENTITY_DATA.test(key)) continue;
      const ids = isObject(value) ? { all: false, ids: [], unknown: [JSON.stringify(value)] } : canonicalEntityIds(value, this.hub.registries);
      if (ids.unknown.length || ids.all)
        return fail(`${domain}.${service} names ${ids.all ? 'all' : ids.unknown.join(', ')} in its data (${key}), which the bridge cannot read as entities`);
      const words = `${domain}.${service} with ${key}`;
      for (const id of ids.ids) follow({ entity_id: id, domain, service, data: {}, state: this.hub.cache.get(id), via: a.via ?? words });
    }
  }

  /** A config's steps read once per config as loaded (a reload brings a new object). */
  private readonly parsed = new WeakMap<ItemConfig, ReturnType<typeof referencesOf>>();
  private stepsOf(config: ItemConfig, steps: unknown): ReturnType<typeof referencesOf> {
    let refs = this.parsed.get(config);
    if (!refs) {
      refs = referencesOf(steps, (id) => this.hub.cache.has(id));
      this.parsed.set(config, refs);
    }
    return refs;
  }

  private ofRef(r: ActionRef, via: string): GuardedAction[] {
    return this.ofCall({ domain: r.domain, service: r.service, target: r.target, data: r.data, ...(r.device_action ? { device_action: true } : {}) }, via);
  }

  /** A scene's wanted states ({entity: state or {state, ...}}) as the services that reach them. */
  private sceneStates(
    entities: unknown,
    words: string,
    snapshot: unknown,
    via: string | undefined,
    follow: (g: GuardedAction) => void,
    fail: (why: string) => void,
  ): void {
    const by = via ?? words;
    if (entities !== undefined && !isObject(entities)) return fail(`${words} names its entities in a way the bridge does not read`);
    for (const [raw, wanted] of Object.entries(entities ?? {})) {
      const ids = canonicalEntityIds(raw, this.hub.registries);
      if (ids.all || ids.ids.length !== 1) return fail(`${words} sets ${JSON.stringify(raw)}, which is not an entity id the bridge knows`);
      const id = ids.ids[0]!;
      const calls = callsForState(domainOf(id), wanted);
      if (!calls) return fail(`${words} sets ${id} to ${JSON.stringify(wanted)}, and the bridge cannot tell which service that means`);
      for (const c of calls) follow({ entity_id: id, service: c.service, data: c.data, state: this.hub.cache.get(id), via: by });
    }
    if (snapshot !== undefined) {
      // A snapshot sets its entities back to their states now when the scene is activated.
      const ids = canonicalEntityIds(snapshot, this.hub.registries);
      if (ids.unknown.length || ids.all) return fail(`${words} snapshots ${JSON.stringify(snapshot)}, which the bridge cannot read`);
      for (const id of ids.ids) {
        const now = this.hub.cache.get(id);
        const calls = now ? callsForState(domainOf(id), { state: now.state, ...now.attributes }) : undefined;
        if (!calls) return fail(`${words} snapshots ${id}, whose state the bridge cannot turn into a service`);
        for (const c of calls) follow({ entity_id: id, service: c.service, data: c.data, state: now, via: by });
      }
    }
  }

  /**
   * Automations whose own triggers name an entity these effects change (state, numeric_state and
   * device triggers): Home Assistant may run them by itself afterwards. From the configs read.
   */
  mayAlsoRun(effects: readonly GuardedAction[]): { automation: string; because: string }[] {
    const touched = new Set(effects.filter((e) => !e.targetless).map((e) => e.entity_id));
    // A fired event (src/actions/executor.ts judges it as fire_event.<type>) sets off the automations listening for it.
    const fired = new Set(effects.filter((e) => e.targetless && e.service === 'fire_event').map((e) => e.entity_id.slice('fire_event.'.length)));
    const out: { automation: string; because: string }[] = [];
    for (const id of this.hub.cache.ids()) {
      if (!id.startsWith('automation.')) continue;
      const config = this.configs.get(id);
      if (!config) continue;
      const hit = triggersOn(config).find((e) => touched.has(e));
      if (hit) out.push({ automation: id, because: `its trigger watches ${hit}` });
      else {
        const event = eventTypesOf(config).find((t) => fired.has(t));
        if (event) out.push({ automation: id, because: `its trigger listens for the event ${event}` });
      }
    }
    return out;
  }

  /** Reads every script's, automation's and scene's config now (after the hub connects). */
  async warm(): Promise<void> {
    await this.configs.load([...this.hub.cache.ids()].filter((id) => configDomainOf(id) !== undefined));
  }

  /** Every automation's config, read for mayAlsoRun. */
  async readAutomations(): Promise<void> {
    await this.configs.load([...this.hub.cache.ids()].filter((id) => configDomainOf(id) === 'automation'));
  }
}

/** The entities an automation's triggers watch. */
function triggersOn(config: ItemConfig): string[] {
  const list = config.triggers ?? config.trigger;
  const out: string[] = [];
  for (const t of Array.isArray(list) ? list : list ? [list] : []) {
    if (!isObject(t)) continue;
    const kind = String(t.trigger ?? t.platform ?? '');
    if (kind === 'state' || kind === 'numeric_state' || kind === 'device') out.push(...canonicalEntityIds(t.entity_id).ids);
  }
  return out;
}

/** Whether the event's value passes a trigger's filter as Home Assistant compares (Python's ==; a nested filter counts as passing). */
const sameValue = (given: unknown, wanted: unknown): boolean => {
  if (isObject(wanted) || Array.isArray(wanted)) return true;
  const num = (x: unknown) => (typeof x === 'boolean' ? Number(x) : x);
  if (typeof num(given) === 'number' && typeof num(wanted) === 'number') return num(given) === num(wanted);
  return given === wanted;
};

/** Whether one of an automation's event triggers fires on this event (a template in its type or data filter counts as yes). */
function eventTriggersOf(config: ItemConfig, type: string, data: Record<string, unknown>): boolean {
  const list = config.triggers ?? config.trigger;
  for (const t of Array.isArray(list) ? list : list ? [list] : []) {
    if (!isObject(t) || String(t.trigger ?? t.platform ?? '') !== 'event') continue;
    const types = Array.isArray(t.event_type) ? t.event_type : [t.event_type];
    if (!types.some((x) => x === type || x === '*' || anyTemplate(x))) continue;
    const wanted = t.event_data;
    if (!isObject(wanted) || anyTemplate(wanted)) return true;
    if (Object.entries(wanted).every(([k, w]) => sameValue(data[k], w))) return true;
  }
  return false;
}

/** The event types an automation's event triggers listen for. */
function eventTypesOf(config: ItemConfig): string[] {
  const list = config.triggers ?? config.trigger;
  const out: string[] = [];
  for (const t of Array.isArray(list) ? list : list ? [list] : []) {
    if (!isObject(t) || String(t.trigger ?? t.platform ?? '') !== 'event') continue;
    for (const type of Array.isArray(t.event_type) ? t.event_type : [t.event_type]) if (typeof type === 'string') out.push(type);
  }
  return out;
}
