// The one way anything acts on the hub: REST control, scenes, groups, natural language and MCP
// tools all plan and run their actions here, so every rule about actions lives in one place.
// Two entrances: a DeviceCommand (one entity, an action by name or a generic one) and a service
// call as Home Assistant takes it (any target of entities, devices, areas, floors or labels, or
// none at all). Nothing runs without a caller: each run passes the policy checkpoint
// (src/policy/policy.ts) before the hub is asked.
import * as v from 'valibot';
import { AppError, hubUnavailable, invalidParameters, toAppError } from '../errors.js';
import type { ActingHub } from '../hub/acting.js';
import type { HubReader } from '../hub/reader.js';
import { domainOf, isEntityId, MAX_ENTITY_ID } from '../hub/entity-id.js';
import { FLOOR_LABEL_TARGETS_SINCE, MATCH_ALL, MATCH_NONE, TARGET_KEYS, type TargetKey, versionAtLeast } from '../hub/protocol.js';
import { checkServiceData, flattenFields, serviceAccepts } from '../hub/service-fields.js';
import { closestEntities, closestIds } from '../hub/similar.js';
import { emptyTarget, reachedEntities, type TargetLists } from '../hub/targets.js';
import type { ServiceDescription } from '../hub/types.js';
import { toDeviceState, type DeviceState } from '../hub/views.js';
import { anyObject, check, echo } from '../validation.js';
import { ALIASES } from './aliases.js';
import { checkChoices } from './choices.js';
import { kelvinWhereNeeded } from './colour-temperature.js';
import { verify, type Verification } from './verify.js';
import type { AuthorizeOptions, Caller, GuardedAction, Policy } from '../policy/policy.js';
import type { EffectResolver } from '../policy/effects.js';
import { canonicalEntityId, canonicalEntityIds } from '../hub/canonical.js';
import { reservedEvent } from '../policy/reserved-events.js';
import { ACTING_COMMANDS, READ_SERVICES } from './hub-commands.js';

export interface DeviceCommand {
  entity_id: string;
  action: string;
  parameters?: Record<string, unknown>;
}

export interface PlannedAction {
  entity_id: string;
  action: string;
  domain: string;
  service: string;
  data: Record<string, unknown>;
}

export interface ActionOutcome extends Partial<Verification> {
  success: true;
  entity_id: string;
  action: string;
  service: string;
  parameters: Record<string, unknown>;
  state: DeviceState | null;
}

const AVAILABLE_CAP = 20;

/** Entities whose actions run at the same time in a batch; more would only queue up at the hub. */
export const PARALLEL_ENTITIES = 16;

/** One planned action of a batch, and how it went. */
export interface BatchItem<P extends PlannedAction | PlannedCall = PlannedAction | PlannedCall> {
  plan: P;
  /** planned: a dry run; completed: the hub did it; failed: `error` says why (the others ran on). */
  status: 'planned' | 'completed' | 'failed';
  outcome?: P extends PlannedAction ? ActionOutcome : CallOutcome;
  error?: AppError;
}

/** A service call's target: each key an id or a list of ids, as Home Assistant takes them. */
export type ServiceTarget = Partial<Record<TargetKey, string | string[]>>;

/** A service call as Home Assistant takes it. */
export interface ServiceCallRequest {
  domain: string;
  service: string;
  /** Service data (the service's fields); the entities go in target. */
  data?: Record<string, unknown>;
  /** Absent for services that take no target (notify.notify, script.<name>, scene.apply, ...). */
  target?: ServiceTarget;
  /** Ask for the service's response; set by itself for services that only answer with one. */
  return_response?: boolean;
}

/** A checked service call, ready to run: what goes to the hub and which entities it acts on. */
export interface PlannedCall {
  domain: string;
  service: string;
  data: Record<string, unknown>;
  /** The target as given, passed on to the hub as it is; null when the call has none. */
  target: ServiceTarget | null;
  /** The entities the call acts on, by the hub's registries: explicit ones first, then the ones reached through devices, areas, floors and labels. */
  entity_ids: string[];
  return_response: boolean;
}

export interface CallOutcome {
  success: true;
  /** `domain.service`. */
  service: string;
  target: ServiceTarget | null;
  parameters: Record<string, unknown>;
  /** Each entity the call acted on, with its state after the call, and whether it shows what was asked. */
  entities: ({ entity_id: string; state: DeviceState | null } & Partial<Verification>)[];
  /** The service's response, when it was asked for. */
  response?: unknown;
}

const idOrIds = v.union([v.pipe(v.string(), v.nonEmpty()), v.array(v.pipe(v.string(), v.nonEmpty()))], 'must be an id or a list of ids');

/** The target of a service call: entity_id, device_id, area_id, floor_id, label_id. */
export const serviceTargetSchema = v.strictObject({
  entity_id: v.optional(idOrIds),
  device_id: v.optional(idOrIds),
  area_id: v.optional(idOrIds),
  floor_id: v.optional(idOrIds),
  label_id: v.optional(idOrIds),
});

const SLUG = /^[a-z0-9_]+$/;

/** A service call (ServiceCallRequest), for tools and routes that publish it. */
export const serviceCallSchema = v.strictObject({
  domain: v.pipe(v.string(), v.regex(SLUG, 'must be a domain in lower case, such as light or notify')),
  service: v.pipe(v.string(), v.regex(SLUG, 'must be a service name in lower case, such as turn_on')),
  data: v.optional(anyObject),
  target: v.optional(serviceTargetSchema),
  return_response: v.optional(v.boolean()),
});

const asList = (x: string | string[] | undefined): string[] => (x === undefined || x === MATCH_NONE ? [] : Array.isArray(x) ? x : [x]);

const KIND: Record<Exclude<TargetKey, 'entity_id'>, { noun: string; plural: string }> = {
  device_id: { noun: 'Device', plural: 'devices' },
  area_id: { noun: 'Area', plural: 'areas' },
  floor_id: { noun: 'Floor', plural: 'floors' },
  label_id: { noun: 'Label', plural: 'labels' },
};

/** A service call's domain and service as Home Assistant reads them (cv.service lower-cases). */
function canonicalCall(req: ServiceCallRequest): ServiceCallRequest {
  const lower = (x: unknown) => (typeof x === 'string' ? x.trim().toLowerCase() : x);
  return { ...req, domain: lower(req.domain) as string, service: lower(req.service) as string };
}

/** An event to fire on the hub's bus, checked (ActionExecutor.planEvent). */
export interface PlannedEvent {
  event_type: string;
  event_data: Record<string, unknown>;
}

/** Home Assistant's longest event type (MAX_LENGTH_EVENT_EVENT_TYPE). */
const MAX_EVENT_TYPE = 64;
const EVENT_TYPE = /^[a-z0-9_][a-z0-9_.-]*$/;

/** Rules judge a fired event as the targetless action `fire_event.<event_type>` (TOOLS_DENY=fire_event refuses them all). */
export const FIRE_EVENT = 'fire_event';

export function checkEntityId(entityId: unknown, field = 'entity_id'): string {
  if (isEntityId(entityId)) return entityId;
  const value = echo(entityId);
  if (typeof entityId === 'string' && entityId.length > MAX_ENTITY_ID) {
    throw invalidParameters(`${field}: is too long: at most ${MAX_ENTITY_ID} characters (got ${entityId.length})`, { field, value, max_length: MAX_ENTITY_ID });
  }
  throw invalidParameters(`${field}: must look like <domain>.<object_id> in lower case${value === undefined ? '' : ` (got ${JSON.stringify(value)})`}`, {
    field,
    value,
  });
}

export class ActionExecutor {
  constructor(
    private readonly hub: HubReader,
    /** The hub that acts: only this executor and the config service hold it (tests/unit/layers.test.ts). */
    private readonly acting: ActingHub,
    private readonly policy: Policy,
    /** Reads a call written in a config the hub's way (src/policy/effects.ts). */
    private readonly effects?: EffectResolver,
  ) {}

  /** The actions of planned commands and calls, as the policy judges them (it follows them to their effects). */
  guarded(plans: readonly (PlannedAction | PlannedCall)[]): GuardedAction[] {
    return plans.flatMap((p): GuardedAction[] => {
      if ('entity_id' in p) return [{ entity_id: p.entity_id, service: p.service, data: p.data, state: this.hub.cache.get(p.entity_id) }];
      // A service that reaches no entity the bridge knows (notify.mobile_app_phone, or a target
      // the registries do not resolve) is judged by its name.
      if (!p.entity_ids.length) return [{ entity_id: `${p.domain}.${p.service}`, service: p.service, data: p.data, targetless: true }];
      return p.entity_ids.map((id) => ({
        entity_id: id,
        service: p.service,
        data: p.data,
        state: this.hub.cache.get(id),
        ...(domainOf(id) !== p.domain ? { domain: p.domain } : {}),
      }));
    });
  }

  /** Reads what judging these plans needs (script, automation and scene configs) before the checkpoint runs. */
  async prepare(plans: readonly (PlannedAction | PlannedCall)[]): Promise<void> {
    await this.policy.prepare(this.guarded(plans));
  }

  /**
   * The actions a service call written into Home Assistant's config would take when it runs, as the
   * policy judges them: its target resolved through the registries as they are now, ids the hub
   * does not know kept as written (the lists still judge them), a call that reaches no entity
   * judged by its name. Nothing is checked against the hub's services: the config may name a
   * service that is not loaded yet.
   */
  guardedOf(call: {
    domain: string;
    service: string;
    target: Omit<TargetLists, 'entity_id'> & { entity_id: string[] };
    data: Record<string, unknown>;
    device_action?: boolean;
  }): GuardedAction[] {
    if (this.effects) return this.effects.ofCall(call);
    const { domain, service, data } = call;
    const all = call.target.entity_id.includes(MATCH_ALL);
    const lists: TargetLists = { ...call.target, entity_id: all ? MATCH_ALL : call.target.entity_id.filter((id) => id !== MATCH_NONE) };
    const reached = reachedEntities(lists, this.hub.registries, this.hub.cache);
    const ids = reached.all ? [...this.hub.cache.ids()].filter((id) => domainOf(id) === domain) : [...new Set([...reached.explicit, ...reached.indirect])];
    if (!ids.length) return [{ entity_id: `${domain}.${service}`, service, data, targetless: true }];
    return ids.map((id) => ({ entity_id: id, service, data, state: this.hub.cache.get(id) }));
  }

  /**
   * The checkpoint for plans that run together (a scene, a group, a compound command): refuses all
   * of them or none, before any runs. Each run checks its own part again.
   */
  authorize(caller: Caller, plans: readonly (PlannedAction | PlannedCall)[], opts: AuthorizeOptions = {}): void {
    this.policy.authorize(caller, this.guarded(plans), opts);
  }

  /** Reads what judging the plans needs, then holds them to the checkpoint together: all of them or none. */
  async check(caller: Caller, plans: readonly (PlannedAction | PlannedCall)[], opts: AuthorizeOptions = {}): Promise<void> {
    await this.prepare(plans);
    this.authorize(caller, plans, opts);
  }

  /**
   * The one way a batch runs (a scene, a group, a command's steps, a plugin's call): the planned
   * actions pass the checkpoint together (all of them or none run, else it throws), then, unless
   * a dry run, each runs, PARALLEL_ENTITIES entities at a time, one entity's actions in their given
   * order; every action is answered on its own, so one failure does not hide the others. `settle:
   * false` as for run().
   */
  async runBatch<P extends PlannedAction | PlannedCall>(
    plans: readonly P[],
    caller: Caller,
    opts: { dryRun?: boolean; settle?: boolean } = {},
  ): Promise<BatchItem<P>[]> {
    await this.check(caller, plans, { planOnly: opts.dryRun === true });
    if (opts.dryRun) return plans.map((plan) => ({ plan, status: 'planned' }));
    const results: BatchItem<P>[] = new Array(plans.length);
    const chains = new Map<string, number[]>();
    plans.forEach((p, i) => {
      const key = 'entity_id' in p ? p.entity_id : p.entity_ids.join(',') || `${p.domain}.${p.service}`;
      let chain = chains.get(key);
      if (!chain) chains.set(key, (chain = []));
      chain.push(i);
    });
    const settle = opts.settle === undefined ? {} : { settle: opts.settle };
    const queue = [...chains.values()];
    const worker = async () => {
      for (let chain = queue.shift(); chain; chain = queue.shift()) {
        for (const i of chain) {
          const plan = plans[i]!;
          try {
            const outcome = 'entity_id' in plan ? await this.run(plan, caller, settle) : await this.runCall(plan as PlannedCall, caller, settle);
            results[i] = { plan, status: 'completed', outcome: outcome as BatchItem<P>['outcome'] };
          } catch (err) {
            results[i] = { plan, status: 'failed', error: toAppError(err) };
          }
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(PARALLEL_ENTITIES, queue.length) }, worker));
    return results;
  }

  /**
   * Actions an entity supports: the services of its domain whose target filter takes it (by its
   * supported_features), plus the generic actions that map onto one of those.
   */
  supportedActions(entityId: string): string[] {
    const domain = domainOf(entityId);
    const state = this.hub.cache.get(entityId);
    const all = this.hub.services[domain] ?? {};
    const services = Object.keys(all).filter((name) => serviceAccepts(all[name]!, domain, state));
    const aliases = Object.entries(ALIASES[domain] ?? {})
      .filter(([, a]) => services.includes(a.service))
      .map(([name]) => name);
    return [...new Set([...services, ...aliases])].sort();
  }

  unknownEntity(entityId: string): AppError {
    return new AppError('INVALID_ENTITY', 404, `Entity ${entityId} not found`, {
      entity_id: entityId,
      available_entities: closestEntities(
        entityId,
        [...this.hub.cache.ids()].filter((id) => this.policy.maySee(id)),
        AVAILABLE_CAP,
      ),
    });
  }

  /** Validates a command against the hub's entities and services without calling anything. */
  plan(cmd: DeviceCommand, opts: { allowUnknownEntity?: boolean } = {}): PlannedAction {
    const entityId = checkEntityId(canonicalEntityId(cmd.entity_id) ?? cmd.entity_id);
    if (typeof cmd.action !== 'string' || !cmd.action) throw invalidParameters('action: must be a non-empty string', { field: 'action' });
    const params = cmd.parameters ?? {};
    if (typeof params !== 'object' || Array.isArray(params) || params === null) {
      throw invalidParameters('parameters: must be an object', { field: 'parameters' });
    }
    if ('entity_id' in params) throw invalidParameters('parameters.entity_id: the entity is given by entity_id, not in parameters', { field: 'entity_id' });
    const domain = domainOf(entityId);
    if (!this.hub.cache.has(entityId) && !opts.allowUnknownEntity) throw this.unknownEntity(entityId);

    const services = this.hub.services[domain] ?? {};
    const state = this.hub.cache.get(entityId);
    const usable = (name: string) => services[name] !== undefined && serviceAccepts(services[name], domain, state);
    let service = cmd.action;
    let data: Record<string, unknown> = { ...params };
    if (!usable(service)) {
      const alias = ALIASES[domain]?.[cmd.action];
      if (!alias || !usable(alias.service)) {
        const supported = this.supportedActions(entityId);
        const starting = this.hub.isStarting ? ' (Home Assistant is still starting; try again in a moment)' : '';
        throw new AppError('INVALID_ACTION', 400, `${cmd.action} is not supported by ${entityId}; supported: ${supported.join(', ') || 'none'}${starting}`, {
          entity_id: entityId,
          action: cmd.action,
          supported_actions: supported,
        });
      }
      service = alias.service;
      if (alias.data) {
        if (!('value' in data)) throw invalidParameters(`value: ${cmd.action} on ${domain} needs parameters.value`, { field: 'value' });
        const { value, ...rest } = data;
        data = alias.data(value, rest);
      }
    }
    data = checkServiceData(services[service]!, kelvinWhereNeeded(domain, services[service], data), `${domain}.${service}`);
    checkChoices(domain, service, data, state);
    return { entity_id: entityId, action: cmd.action, domain, service, data };
  }

  /** Runs a command for a caller and answers with the entity's state after it. */
  async execute(cmd: DeviceCommand, caller: Caller): Promise<ActionOutcome> {
    checkEntityId(canonicalEntityId(cmd.entity_id) ?? cmd.entity_id);
    // While the hub is away a command fails at once, before any lookup in possibly stale data.
    if (!this.hub.isConnected) throw hubUnavailable();
    return this.run(this.plan(cmd), caller);
  }

  /**
   * `settle: false` skips waiting for a state change that did not come with the hub's answer: for
   * batches, where an entity already in the wanted state would otherwise cost the full wait.
   */
  async run(p: PlannedAction, caller: Caller, opts: { settle?: boolean } = {}): Promise<ActionOutcome> {
    await this.prepare([p]);
    this.authorize(caller, [p]);
    const result = await this.acting.callService(p.domain, p.service, p.data, [p.entity_id], opts.settle === false ? { settleMs: 0 } : {});
    const state = result.states.get(p.entity_id);
    return {
      success: true,
      entity_id: p.entity_id,
      action: p.action,
      service: `${p.domain}.${p.service}`,
      parameters: p.data,
      state: state ? toDeviceState(state, this.hub.registries) : null,
      ...verify(p.domain, p.service, p.data, state),
    };
  }

  // --- service calls with any target, or none ------------------------------------------------

  /** A hub service's description, or INVALID_ACTION naming the services its domain has. */
  serviceOf(domain: string, service: string): ServiceDescription {
    const services = this.hub.services[domain] ?? {};
    const desc = services[service];
    if (desc) return desc;
    const available = Object.keys(services).sort();
    throw new AppError(
      'INVALID_ACTION',
      400,
      available.length ? `${domain}.${service} is not a service; ${domain} has: ${available.join(', ')}` : `The hub has no services in the domain ${domain}`,
      { domain, service, available_services: available },
    );
  }

  /** Checks a service call against the hub's services and registries without calling anything. */
  planCall(given: ServiceCallRequest): PlannedCall {
    const req = canonicalCall(given);
    const call = check(serviceCallSchema, req, { what: 'service call' });
    const { domain, service } = call;
    const what = `${domain}.${service}`;
    const desc = this.serviceOf(domain, service);
    const data = { ...(call.data ?? {}) };
    const fields = flattenFields(desc.fields);
    if (desc.target) {
      for (const key of TARGET_KEYS) {
        if (key in data && !(key in fields)) throw invalidParameters(`data.${key}: give ${key} in target, not in data`, { field: `data.${key}` });
      }
    } else if (call.target) {
      throw invalidParameters(`target: ${what} takes no target`, { field: 'target' });
    }
    if (call.return_response && !desc.response) throw invalidParameters(`return_response: ${what} gives no response`, { field: 'return_response' });
    const checked = checkServiceData(desc, kelvinWhereNeeded(domain, desc, data), what);

    const written = call.target
      ? (Object.fromEntries(TARGET_KEYS.filter((k) => call.target![k] !== undefined).map((k) => [k, call.target![k]])) as ServiceTarget)
      : null;
    const entity_ids = written ? this.entitiesOf(written, desc, what) : this.ownEntity(domain, service);
    // The hub is sent the ids the checkpoint judged, not their spelling.
    const ids = written?.entity_id !== undefined ? canonicalEntityIds(written.entity_id, this.hub.registries) : undefined;
    const canonical = ids ? (ids.all ? MATCH_ALL : ids.ids) : undefined;
    // Sent as given when it already is what was judged; otherwise the judged ids go.
    const same =
      JSON.stringify(written?.entity_id) === JSON.stringify(canonical) ||
      (typeof written?.entity_id === 'string' && ids?.ids.length === 1 && ids.ids[0] === written.entity_id);
    const target = written && ids && !same ? { ...written, entity_id: canonical! } : written;
    for (const id of entity_ids) checkChoices(domain, service, checked, this.hub.cache.get(id));
    return {
      domain,
      service,
      data: checked,
      target,
      entity_ids,
      // A service that only answers with a response refuses calls that do not ask for it.
      return_response: call.return_response ?? desc.response?.optional === false,
    };
  }

  /** Runs a service call for a caller and answers with the state after it of each entity it acted on. */
  async callService(req: ServiceCallRequest, caller: Caller, opts: { settle?: boolean } = {}): Promise<CallOutcome> {
    check(serviceCallSchema, canonicalCall(req), { what: 'service call' });
    if (!this.hub.isConnected) throw hubUnavailable();
    return this.runCall(this.planCall(req), caller, opts);
  }

  /** `settle: false` as for run(). */
  async runCall(p: PlannedCall, caller: Caller, opts: { settle?: boolean } = {}): Promise<CallOutcome> {
    await this.prepare([p]);
    this.authorize(caller, [p]);
    const result = await this.acting.call(
      {
        domain: p.domain,
        service: p.service,
        service_data: p.data,
        ...(p.target ? { target: p.target } : {}),
        ...(p.return_response ? { return_response: true } : {}),
      },
      { watch: p.entity_ids, ...(opts.settle === false ? { settleMs: 0 } : {}) },
    );
    return {
      success: true,
      service: `${p.domain}.${p.service}`,
      target: p.target,
      parameters: p.data,
      entities: p.entity_ids.map((id) => {
        const state = result.states.get(id);
        // An entity of another domain (a light switched through homeassistant.turn_on) is judged by its own domain.
        return {
          entity_id: id,
          state: state ? toDeviceState(state, this.hub.registries) : null,
          ...verify(domainOf(id) === p.domain ? p.domain : domainOf(id), p.service, p.data, state),
        };
      }),
      ...(p.return_response ? { response: result.response ?? null } : {}),
    };
  }

  // --- events ------------------------------------------------------------------------------

  /** Checks an event before anything fires: its type as Home Assistant's own events are written, and not one of Home Assistant's own. */
  planEvent(eventType: unknown, eventData: unknown = {}): PlannedEvent {
    if (typeof eventType !== 'string' || !eventType.trim()) throw invalidParameters('event_type: must be a non-empty string', { field: 'event_type' });
    const type = eventType.trim();
    if (type.length > MAX_EVENT_TYPE)
      throw invalidParameters(`event_type: is too long: at most ${MAX_EVENT_TYPE} characters (got ${type.length})`, { field: 'event_type' });
    if (!EVENT_TYPE.test(type))
      throw invalidParameters(`event_type: write it in lower case with letters, digits, _, . and - (got ${JSON.stringify(type.slice(0, 64))})`, {
        field: 'event_type',
        value: echo(type),
      });
    const why = reservedEvent(type);
    if (why)
      throw new AppError('FORBIDDEN', 403, `${type} is one of Home Assistant's own events, which callers may not fire: ${why}`, {
        field: 'event_type',
        event_type: type,
        reserved: true,
      });
    const data = check(anyObject, eventData, { what: 'event_data' }) as Record<string, unknown>;
    return { event_type: type, event_data: data };
  }

  /** A fired event as the checkpoint judges it: a targetless action, its data's entity ids judged as touched. */
  eventAction(p: PlannedEvent): GuardedAction {
    return { entity_id: `${FIRE_EVENT}.${p.event_type}`, service: FIRE_EVENT, data: p.event_data, targetless: true };
  }

  /** Fires a checked event for a caller (read-only, scope and the lists judge it first); `planOnly` only judges it. */
  async fireEvent(p: PlannedEvent, caller: Caller, opts: AuthorizeOptions = {}): Promise<{ event_type: string; fired: boolean }> {
    const action = this.eventAction(p);
    await this.policy.prepare([action]);
    this.policy.authorize(caller, [action], opts);
    if (opts.planOnly) return { event_type: p.event_type, fired: false };
    if (!this.hub.isConnected) throw hubUnavailable();
    await this.acting.fireEvent(p.event_type, p.event_data);
    return { event_type: p.event_type, fired: true };
  }

  // --- services that only answer, and WebSocket commands that act ----------------------------

  /**
   * Asks a service that only reads (hub-commands.ts) and answers its response, each entity's part
   * kept only when the caller may see it. Nothing changes, so read-only mode allows it.
   */
  async ask(p: PlannedCall): Promise<Record<string, unknown>> {
    const what = `${p.domain}.${p.service}`;
    if (!READ_SERVICES.has(what))
      throw new AppError('INVALID_ACTION', 400, `${what} is not a service that only reads; these are: ${[...READ_SERVICES].join(', ')}`, { service: what });
    for (const id of p.entity_ids) if (!this.policy.maySee(id)) throw this.unknownEntity(id);
    if (!this.hub.isConnected) throw hubUnavailable();
    const result = await this.acting.call(
      { domain: p.domain, service: p.service, service_data: p.data, ...(p.target ? { target: p.target } : {}), return_response: true },
      { settleMs: 0 },
    );
    const response = (result.response ?? {}) as Record<string, unknown>;
    return Object.fromEntries(Object.entries(response).filter(([id]) => this.policy.maySee(id)));
  }

  /** Checks an acting WebSocket command (hub-commands.ts) and the entity it names, without sending it. */
  planCommand(message: { type: string; [k: string]: unknown }): PlannedAction & { message: Record<string, unknown> } {
    const known = ACTING_COMMANDS[message.type];
    if (!known)
      throw invalidParameters(
        `type: ${String(message.type).slice(0, 64)} is not a command the bridge sends; it sends: ${Object.keys(ACTING_COMMANDS).join(', ')}`,
        {
          field: 'type',
        },
      );
    const entityId = checkEntityId(canonicalEntityId(message.entity_id as string) ?? message.entity_id);
    if (domainOf(entityId) !== known.domain)
      throw invalidParameters(`entity_id: ${message.type} acts on ${known.domain} entities, not ${entityId}`, { field: 'entity_id' });
    if (!this.hub.cache.has(entityId)) throw this.unknownEntity(entityId);
    const { type, entity_id: _given, ...data } = message;
    return { entity_id: entityId, action: type, domain: known.domain, service: known.service, data, message: { ...message, entity_id: entityId } };
  }

  /** Sends a planned acting command for a caller, after the checkpoint; answers the hub's result. */
  async runCommand(p: PlannedAction & { message: Record<string, unknown> }, caller: Caller): Promise<unknown> {
    await this.prepare([p]);
    this.authorize(caller, [p]);
    if (!this.hub.isConnected) throw hubUnavailable();
    return this.acting.command(p.message as { type: string });
  }

  /** DEVICE_NOT_FOUND (404, details.device_id and the closest known devices), as the contract has it. */
  unknownDevice(deviceId: string, field = 'device_id'): AppError {
    return this.unknownTarget('device_id', deviceId, field);
  }

  /** 404 for a device, area, floor or label the hub does not know, with the closest known ones. */
  private unknownTarget(key: Exclude<TargetKey, 'entity_id'>, id: string, field = `target.${key}`): AppError {
    const reg = this.hub.registries;
    const known = {
      device_id: () => [...reg.devices.values()].map((d) => ({ id: d.id, names: [d.name_by_user, d.name] })),
      area_id: () => [...reg.areas.values()].map((a) => ({ id: a.area_id, names: [a.name, ...(a.aliases ?? [])] })),
      floor_id: () => [...reg.floors.values()].map((f) => ({ id: f.floor_id, names: [f.name, ...(f.aliases ?? [])] })),
      label_id: () => [...reg.labels.values()].map((l) => ({ id: l.label_id, names: [l.name] })),
    }[key]();
    const kind = KIND[key];
    return new AppError(key === 'device_id' ? 'DEVICE_NOT_FOUND' : 'INVALID_ENTITY', 404, `${kind.noun} ${id} not found`, {
      field,
      [key]: id,
      [`available_${kind.plural}`]: closestIds(id, known, AVAILABLE_CAP),
    });
  }

  /** A script's own service (script.<name>) acts on the script's entity. */
  private ownEntity(domain: string, service: string): string[] {
    const id = `${domain}.${service}`;
    return domain === 'script' && this.hub.cache.has(id) ? [id] : [];
  }

  /** Refuses what the hub would not find, then lists the entities the target reaches that the service acts on. */
  private entitiesOf(target: ServiceTarget, desc: ServiceDescription, what: string): string[] {
    const lists: TargetLists = emptyTarget();
    // Read as Home Assistant reads it: any case, a comma list, all/none, the entity registry's ids.
    const given = canonicalEntityIds(target.entity_id, this.hub.registries);
    if (given.unknown.length) checkEntityId(given.unknown[0], 'target.entity_id');
    lists.entity_id = given.all ? MATCH_ALL : given.ids;
    for (const key of ['device_id', 'area_id', 'floor_id', 'label_id'] as const) lists[key] = asList(target[key]);

    const version = this.hub.config?.version;
    for (const key of ['floor_id', 'label_id'] as const) {
      if (lists[key].length && !versionAtLeast(version, FLOOR_LABEL_TARGETS_SINCE)) {
        throw invalidParameters(
          `target.${key}: Home Assistant ${version} does not take ${KIND[key].plural} as targets (it does from ${FLOOR_LABEL_TARGETS_SINCE} on)`,
          {
            field: `target.${key}`,
            hub_version: version ?? null,
          },
        );
      }
    }
    if (lists.entity_id !== MATCH_ALL) {
      for (const id of lists.entity_id) if (!this.hub.cache.has(id)) throw this.unknownEntity(id);
    }
    const reg = this.hub.registries;
    const registry = { device_id: reg.devices, area_id: reg.areas, floor_id: reg.floors, label_id: reg.labels };
    for (const key of ['device_id', 'area_id', 'floor_id', 'label_id'] as const) {
      for (const id of lists[key]) if (!registry[key].has(id)) throw this.unknownTarget(key, id);
    }

    const accepts = (id: string) => serviceAccepts(desc, domainOf(id), this.hub.cache.get(id));
    // Entities named one by one must be ones the service takes; groups stand for their members.
    if (lists.entity_id !== MATCH_ALL) {
      for (const id of lists.entity_id) {
        if (id.startsWith('group.') || accepts(id)) continue;
        const supported = this.supportedActions(id);
        throw new AppError('INVALID_ACTION', 400, `${what} does not act on ${id}; ${id} supports: ${supported.join(', ') || 'nothing'}`, {
          entity_id: id,
          service: what,
          supported_actions: supported,
        });
      }
    }
    const reached = reachedEntities(lists, reg, this.hub.cache);
    const named = new Set(lists.entity_id === MATCH_ALL ? [] : lists.entity_id);
    const explicit = reached.all
      ? [...this.hub.cache.ids()].filter(accepts).sort()
      : reached.explicit.filter((id) => this.hub.cache.has(id) && (named.has(id) || accepts(id)));
    // Home Assistant skips unavailable entities it reaches indirectly, and those the service cannot act on.
    const indirect = reached.indirect.filter((id) => this.hub.cache.has(id) && this.hub.cache.get(id)!.state !== 'unavailable' && accepts(id));
    return [...new Set([...explicit, ...indirect])];
  }
}
