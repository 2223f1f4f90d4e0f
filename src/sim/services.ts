// The service registry: each service is declared once with its fields, and that one
// declaration gives both its validation (voluptuous-style errors) and its get_services
// description. Entity services run the hub's entity_service_call: resolve the target, skip
// unavailable entities, enforce required features, then run the handler per entity.
import type { Context } from './context.js';
import { HomeAssistantError, ServiceNotFoundError, ServiceValidationError } from './errors.js';
import type { Hub } from './hub.js';
import type { ResolvedTarget, TargetFields } from './registries.js';
import { type KeySpec, type Validator, Invalid, all, dict, hasAtLeastOneKey } from './schema.js';
import { type State, validEntityId } from './states.js';
import { SINCE } from './version.js';
import type { WireField, WireService, WireServices } from './wire.js';

export interface FieldDef extends KeySpec {
  name?: string;
  description?: string;
  selector?: Record<string, unknown>;
  example?: unknown;
  advanced?: boolean;
  filter?: Record<string, unknown>;
  /**
   * Described inside this section on hubs that have sections (flat and advanced before):
   * advanced_fields is collapsed (2026.11 calls it additional_fields).
   */
  section?: 'advanced_fields' | 'temperature_range';
  /** Accepted but not described (aliases the hub still takes). */
  hidden?: boolean;
  /** Described only by hubs of that age (the field is accepted by both). */
  describedBy?: 'legacy' | 'modern';
  /** How hubs before 2024.4 describe the field differently (example null: none given). */
  legacyDescription?: { advanced?: boolean; required?: boolean; example?: unknown; selector?: Record<string, unknown> };
  /** The selector 2026.11 describes, where it is not `selector` with its defaults filled in. */
  currentSelector?: Record<string, unknown>;
  /** How 2026.11 describes the field differently (hidden: accepted, not described). */
  currentDescription?: { required?: boolean; hidden?: boolean };
}

export interface ServiceCall {
  domain: string;
  service: string;
  /** Validated data, target keys included. */
  data: Record<string, unknown>;
  context: Context;
  returnResponse: boolean;
}

/** What an entity service handler works with: one entity, the call, and ways to write. */
export interface EntityCtx {
  readonly id: string;
  readonly state: State;
  /** A copy of the current attributes, free to modify before write(). */
  readonly attrs: Record<string, unknown>;
  readonly features: number;
  /** Service data without the target keys. */
  readonly params: Record<string, unknown>;
  readonly call: ServiceCall;
  readonly hub: Hub;
  /** Home-declared behaviour (scene members, script steps...). */
  readonly config: Record<string, unknown>;
  /** Private per-entity memory (last brightness, travel timers...). */
  readonly memory: Record<string, unknown>;
  write(state: string, attrs?: Record<string, unknown>): State;
}

export interface ServiceDef {
  name: string;
  description: string;
  fields?: Record<string, FieldDef>;
  /** 'entity' (default): target keys accepted and required, handler runs per entity. */
  kind?: 'entity' | 'plain';
  /** Accept keys that are not declared (service data passed through). */
  allowExtra?: boolean;
  /** A check that runs before the field schema (the hub's vol.All order). */
  before?: Validator;
  /** The entity must support one of these feature sets. */
  requiredFeatures?: number[];
  response?: 'optional' | 'only';
  /** The target description, when not "entities of this domain" with the required features. */
  target?: Record<string, unknown>;
  /** The target as hubs before 2024.4 describe it, when that differs. */
  legacyTarget?: Record<string, unknown>;
  /** The target as 2026.11 describes it, when that differs. */
  currentTarget?: Record<string, unknown>;
  /** Per-entity handler of an entity service. */
  handle?: (e: EntityCtx) => unknown;
  /** Whole-call handler: plain services, or entity services that resolve targets themselves. */
  run?: (call: ServiceCall, hub: Hub) => unknown;
}

interface Registered {
  domain: string;
  service: string;
  def: ServiceDef;
  schema: Validator;
}

const TARGET_KEYS = ['entity_id', 'device_id', 'area_id', 'floor_id', 'label_id'] as const;

/** cv.comp_entity_ids: 'all', 'none', or a list (or comma-separated string) of entity ids. */
const entityIdsValidator: Validator = (v, path) => {
  if (typeof v === 'string' && ['all', 'none'].includes(v.toLowerCase())) return v.toLowerCase();
  const list = typeof v === 'string' ? v.split(',').map((s) => s.trim()) : Array.isArray(v) ? v : [v];
  return list.map((item) => {
    const id = typeof item === 'string' ? item.toLowerCase() : '';
    // probatio reports the first alternative of cv.comp_entity_ids that failed.
    if (!validEntityId(id)) throw new Invalid('not a valid value', path, "expected 'all' or 'none'");
    return id;
  });
};

const idListValidator: Validator = (v, path) => {
  if (v === 'none') return 'none';
  const list = Array.isArray(v) ? v : [v];
  return list.map((item) => {
    if (typeof item !== 'string') throw new Invalid('not a valid value', path);
    return item;
  });
};

export function targetFields(legacy: boolean): Record<string, KeySpec> {
  const fields: Record<string, KeySpec> = {
    entity_id: { v: entityIdsValidator },
    device_id: { v: idListValidator },
    area_id: { v: idListValidator },
  };
  if (!legacy) {
    fields.floor_id = { v: idListValidator };
    fields.label_id = { v: idListValidator };
  }
  return fields;
}

export function targetKeys(legacy: boolean): string[] {
  return legacy ? ['entity_id', 'device_id', 'area_id'] : [...TARGET_KEYS];
}

export function supportsFeatures(features: number, sets: number[] | undefined): boolean {
  return !sets || sets.some((set) => (features & set) === set);
}

export class ServiceRegistry {
  private readonly services = new Map<string, Map<string, Registered>>();

  constructor(private readonly hub: Hub) {}

  register(domain: string, service: string, def: ServiceDef): void {
    const legacy = this.hub.legacy;
    const keys: Record<string, KeySpec> = {};
    for (const [name, field] of Object.entries(def.fields ?? {})) keys[name] = field;
    let schema: Validator;
    if ((def.kind ?? 'entity') === 'entity') {
      const body = dict({ ...keys, ...targetFields(legacy) }, def.allowExtra ? 'allow' : 'prevent');
      schema = all(...(def.before ? [def.before] : []), body, hasAtLeastOneKey(...targetKeys(legacy)));
    } else {
      const body = dict(keys, def.allowExtra ? 'allow' : 'prevent');
      schema = def.before ? all(def.before, body) : body;
    }
    let byDomain = this.services.get(domain);
    if (!byDomain) {
      byDomain = new Map();
      this.services.set(domain, byDomain);
    }
    byDomain.set(service, { domain, service, def, schema });
  }

  remove(domain: string, service: string): void {
    this.services.get(domain)?.delete(service);
  }

  has(domain: string, service: string): boolean {
    return this.services.get(domain.toLowerCase())?.has(service.toLowerCase()) ?? false;
  }

  domains(): string[] {
    return [...this.services.keys()];
  }

  /**
   * hass.services.async_call(blocking=True). Throws ServiceNotFoundError, Invalid,
   * ServiceValidationError or HomeAssistantError, as the hub does.
   */
  async call(
    domainIn: string,
    serviceIn: string,
    serviceData: Record<string, unknown> | undefined,
    opts: { context: Context; target?: Record<string, unknown>; returnResponse?: boolean },
  ): Promise<unknown> {
    const domain = domainIn.toLowerCase();
    const service = serviceIn.toLowerCase();
    const reg = this.services.get(domain)?.get(service);
    if (!reg) throw new ServiceNotFoundError(domain, service);
    const returnResponse = opts.returnResponse ?? false;
    if (returnResponse && !reg.def.response) {
      // Before 2024.4 this was a ValueError, which the socket answers as unknown_error.
      if (this.hub.legacy) throw new Error('Invalid argument return_response=True when handler does not support responses');
      throw new ServiceValidationError("An action which does not return responses can't be called with return_response=True.", {
        domain: 'homeassistant',
        key: 'service_does_not_support_response',
        placeholders: { return_response: 'return_response=True' },
      });
    }
    if (!returnResponse && reg.def.response === 'only') {
      if (this.hub.legacy) throw new Error('Service call requires responses but caller did not ask for responses');
      throw new ServiceValidationError('The action requires responses and must be called with return_response=True.', {
        domain: 'homeassistant',
        key: 'service_lacks_response_request',
        placeholders: { return_response: 'return_response=True' },
      });
    }
    const raw: Record<string, unknown> = { ...(serviceData ?? {}), ...(opts.target ?? {}) };
    const data = reg.schema(raw, []) as Record<string, unknown>;
    this.hub.bus.fire('call_service', { domain, service, service_data: raw }, { context: opts.context });
    const call: ServiceCall = { domain, service, data, context: opts.context, returnResponse };
    // Plain services, and entity services that dispatch themselves (homeassistant.turn_on).
    if (reg.def.run) {
      const response = await reg.def.run(call, this.hub);
      return returnResponse ? (response ?? null) : undefined;
    }
    const response = await this.entityCall(reg, call);
    return returnResponse ? response : undefined;
  }

  private async entityCall(reg: Registered, call: ServiceCall): Promise<Record<string, unknown>> {
    const hub = this.hub;
    const resolved: ResolvedTarget = hub.registries.resolveTarget(call.data as TargetFields);
    const candidates = hub.states.all(reg.domain).filter((s) => resolved.all || resolved.explicit.has(s.entityId) || resolved.indirect.has(s.entityId));
    const missing = [...resolved.explicit].filter((id) => !hub.states.get(id));
    if (missing.length) hub.log.warn(`Referenced entities ${missing.join(', ')} are missing or not currently available`);

    const targets: State[] = [];
    for (const s of candidates) {
      if (s.state === 'unavailable') continue;
      const features = Number(s.attributes.supported_features ?? 0);
      if (!supportsFeatures(features, reg.def.requiredFeatures)) {
        if (resolved.explicit.has(s.entityId)) throw this.notSupported(reg, s.entityId);
        continue;
      }
      targets.push(s);
    }
    const params = { ...call.data };
    for (const k of TARGET_KEYS) delete params[k];
    const responses: Record<string, unknown> = {};
    for (const target of targets) {
      const current = hub.states.get(target.entityId);
      if (!current) continue;
      const ctx = this.entityCtx(current, params, call);
      const result = await reg.def.handle?.(ctx);
      if (call.returnResponse) responses[current.entityId] = result ?? null;
    }
    return responses;
  }

  private notSupported(reg: Registered, entityId: string): HomeAssistantError {
    if (this.hub.legacy) return new HomeAssistantError(`Entity ${entityId} does not support this service.`);
    return new ServiceValidationError(`Entity ${entityId} does not support action ${reg.domain}.${reg.service}.`, {
      domain: 'homeassistant',
      key: 'service_not_supported',
      placeholders: { domain: reg.domain, service: reg.service, entity_id: entityId },
    });
  }

  private entityCtx(state: State, params: Record<string, unknown>, call: ServiceCall): EntityCtx {
    const hub = this.hub;
    const id = state.entityId;
    return {
      id,
      state,
      attrs: { ...state.attributes },
      features: Number(state.attributes.supported_features ?? 0),
      params,
      call,
      hub,
      config: hub.entityConfig(id),
      memory: hub.memory(id),
      write: (next, attrs) => hub.states.set(id, next, attrs ?? { ...(hub.states.get(id)?.attributes ?? {}) }, { context: call.context }),
    };
  }

  /** get_services: {domain: {service: {name, description, fields, target?, response?}}} */
  describe(): WireServices {
    const out: WireServices = {};
    for (const [domain, byService] of this.services) {
      const services: Record<string, WireService> = {};
      for (const [service, reg] of byService) services[service] = describeService(reg, this.hub.legacy, this.hub.since(SINCE.translatedServices));
      out[domain] = services;
    }
    return out;
  }
}

/** A selector as 2026.11 serialises it: with the defaults of its options filled in. */
function withDefaults(selector: Record<string, unknown>): Record<string, unknown> {
  const [kind, given] = Object.entries(selector)[0] ?? [];
  if (!kind) return selector;
  const options = (given ?? {}) as Record<string, unknown>;
  const defaults: Record<string, Record<string, unknown>> = {
    number: { step: 1, mode: 'slider' },
    text: { multiline: false, multiple: false },
    object: { multiple: false },
    select: { multiple: false, custom_value: false, sort: false },
    state: { multiple: false },
  };
  return { [kind]: { ...(defaults[kind] ?? {}), ...options } };
}

function describeService(reg: Registered, legacy: boolean, translated: boolean): WireService {
  const { def } = reg;
  const fields: Record<string, WireField> = {};
  // Collapsible sections arrived in 2024.6; older hubs list those fields flat, marked advanced.
  const sections: Record<string, Record<string, WireField>> = {};
  for (const [name, f] of Object.entries(def.fields ?? {})) {
    if (f.hidden || !f.selector || (translated && f.currentDescription?.hidden)) continue;
    if (f.describedBy && f.describedBy !== (legacy ? 'legacy' : 'modern')) continue;
    const inSection = f.section !== undefined && !legacy;
    const old = legacy ? f.legacyDescription : undefined;
    const example = old && 'example' in old ? old.example : f.example;
    const d: WireField = {};
    if (old?.required ?? (translated ? (f.currentDescription?.required ?? f.required) : f.required)) d.required = true;
    if (example !== undefined && example !== null) d.example = example;
    d.selector = translated ? (f.currentSelector ?? withDefaults(f.selector)) : (old?.selector ?? f.selector);
    if (!translated && (old?.advanced ?? (f.advanced || (f.section && legacy)))) d.advanced = true;
    if (f.filter) d.filter = f.filter;
    // 2026.11 leaves names and descriptions to the frontend's translations.
    if (!translated) {
      d.name = f.name ?? name;
      d.description = f.description ?? '';
    }
    if (inSection) (sections[f.section!] ??= {})[name] = d;
    else fields[name] = d;
  }
  for (const [name, section] of Object.entries(sections)) {
    if (name === 'advanced_fields') fields[translated ? 'additional_fields' : name] = { collapsed: true, fields: section };
    else fields[name] = { fields: section };
  }
  const out: WireService = translated ? { fields } : { name: def.name, description: def.description, fields };
  if ((def.kind ?? 'entity') === 'entity') {
    const filter: Record<string, unknown> = { domain: [reg.domain] };
    if (def.requiredFeatures) filter.supported_features = def.requiredFeatures;
    out.target = (legacy ? def.legacyTarget : translated ? def.currentTarget : undefined) ?? def.target ?? { entity: [filter] };
  }
  if (def.response) out.response = { optional: def.response === 'optional' };
  return out;
}
