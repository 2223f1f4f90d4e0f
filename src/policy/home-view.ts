// The hub as callers may see it: every read of entities (REST, tools, resources, prompts, the
// command planner) goes through this view, so an entity the policy hides (TOOLS_EXPOSED_ONLY) is
// absent everywhere alike. Areas, floors, devices and labels are the home's layout and stay whole.
import { areaIdFor } from '../hub/areas.js';
import type { HubReader } from '../hub/reader.js';
import { domainOf } from '../hub/entity-id.js';
import type { Area, Device, EntityEntry, Floor, Label } from '../hub/registries.js';
import type { HubConfig, HubState, ServiceDescription } from '../hub/types.js';
import type { Policy } from './policy.js';

export class HomeView {
  constructor(
    private readonly hub: HubReader,
    private readonly policy: Policy,
  ) {}

  get connected(): boolean {
    return this.hub.isConnected;
  }

  get config(): HubConfig | undefined {
    return this.hub.config;
  }

  state(entityId: string): HubState | undefined {
    return this.policy.maySee(entityId) ? this.hub.cache.get(entityId) : undefined;
  }

  has(entityId: string): boolean {
    return this.state(entityId) !== undefined;
  }

  /** Every visible state, or those of one domain. */
  states(domain?: string): HubState[] {
    const out: HubState[] = [];
    for (const s of this.hub.cache.all()) if ((!domain || domainOf(s.entity_id) === domain) && this.policy.maySee(s.entity_id)) out.push(s);
    return out;
  }

  ids(): string[] {
    return this.states().map((s) => s.entity_id);
  }

  areas(): Area[] {
    return [...this.hub.registries.areas.values()];
  }

  floors(): Floor[] {
    return [...this.hub.registries.floors.values()];
  }

  devices(): Device[] {
    return [...this.hub.registries.devices.values()];
  }

  labels(): Label[] {
    return [...this.hub.registries.labels.values()];
  }

  area(areaId: string): Area | undefined {
    return this.hub.registries.areas.get(areaId);
  }

  floor(floorId: string): Floor | undefined {
    return this.hub.registries.floors.get(floorId);
  }

  device(deviceId: string): Device | undefined {
    return this.hub.registries.devices.get(deviceId);
  }

  /** A visible entity's registry entry. */
  entry(entityId: string): EntityEntry | undefined {
    return this.policy.maySee(entityId) ? this.hub.registries.entities.get(entityId) : undefined;
  }

  /** A visible entity's area: its own, else its device's. */
  areaOf(entityId: string): Area | undefined {
    return this.policy.maySee(entityId) ? this.hub.registries.areaOf(entityId) : undefined;
  }

  /** The area a person's word names (id, name or alias). */
  areaIdFor(word: string): string | undefined {
    return areaIdFor(this.hub.registries.areas.values(), word);
  }

  /** The hub's services of a domain, as it describes them. */
  services(domain: string): Record<string, ServiceDescription> {
    return this.hub.services[domain] ?? {};
  }
}
