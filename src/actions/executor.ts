// The one way anything acts on a device: REST control, scenes, groups, natural language and MCP
// tools all plan and run their actions here, so every rule about actions lives in one place.
import { AppError, hubUnavailable, invalidParameters } from '../errors.js';
import type { HubClient } from '../hub/client.js';
import { domainOf, isEntityId } from '../hub/entity-id.js';
import { checkServiceData, serviceAccepts } from '../hub/service-fields.js';
import { closestEntities } from '../hub/similar.js';
import { toDeviceState, type DeviceState } from '../hub/views.js';
import { ALIASES } from './aliases.js';

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

export interface ActionOutcome {
  success: true;
  entity_id: string;
  action: string;
  service: string;
  parameters: Record<string, unknown>;
  state: DeviceState | null;
}

const AVAILABLE_CAP = 20;

export function checkEntityId(entityId: unknown, field = 'entity_id'): string {
  if (!isEntityId(entityId)) {
    throw invalidParameters(`${field}: must look like <domain>.<object_id> in lower case (got ${JSON.stringify(entityId)?.slice(0, 80)})`, { field, value: entityId });
  }
  return entityId;
}

export class ActionExecutor {
  constructor(private readonly hub: HubClient) {}

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
      available_entities: closestEntities(entityId, this.hub.cache.ids(), AVAILABLE_CAP),
    });
  }

  /** Validates a command against the hub's entities and services without calling anything. */
  plan(cmd: DeviceCommand, opts: { allowUnknownEntity?: boolean } = {}): PlannedAction {
    const entityId = checkEntityId(cmd.entity_id);
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
        throw new AppError('INVALID_ACTION', 400, `${cmd.action} is not supported by ${entityId}; supported: ${supported.join(', ') || 'none'}`, {
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
    checkServiceData(services[service]!, data, `${domain}.${service}`);
    return { entity_id: entityId, action: cmd.action, domain, service, data };
  }

  /** Runs a command and answers with the entity's state after it. */
  async execute(cmd: DeviceCommand): Promise<ActionOutcome> {
    checkEntityId(cmd.entity_id);
    // While the hub is away a command fails at once, before any lookup in possibly stale data.
    if (!this.hub.isConnected) throw hubUnavailable();
    return this.run(this.plan(cmd));
  }

  /**
   * `settle: false` skips waiting for a state change that did not come with the hub's answer: for
   * batches, where an entity already in the wanted state would otherwise cost the full wait.
   */
  async run(p: PlannedAction, opts: { settle?: boolean } = {}): Promise<ActionOutcome> {
    const result = await this.hub.callService(p.domain, p.service, p.data, [p.entity_id], opts.settle === false ? { settleMs: 0 } : {});
    const state = result.states.get(p.entity_id);
    return {
      success: true,
      entity_id: p.entity_id,
      action: p.action,
      service: `${p.domain}.${p.service}`,
      parameters: p.data,
      state: state ? toDeviceState(state, this.hub.registries) : null,
    };
  }
}
