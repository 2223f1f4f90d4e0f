// Which entities the hub exposes to its own assistant (Assist, "conversation"), for the setting
// that keeps tools to those (TOOLS_EXPOSED_ONLY). Home Assistant keeps a choice per entity (it
// decides one for every entity when it starts) and lists them with homeassistant/expose_entity/list.
// Two list shapes are in use: 2024.3 lists every choice, true and false; 2026.11 lists only the
// exposed entities. So an entity the list leaves out is hidden when the list carries no `false`
// at all (a privacy failure otherwise: 2026.11 drops an entity from the list when it stops being
// exposed). Only on a hub that lists both kinds does an entity without a choice fall to the
// default rule, repeated here as 2024.3's source has it (exposed_entities.py): exposed when new
// entities are exposed at all, the entity is neither a config/diagnostic entity nor hidden, and
// its domain is one of DEFAULT_DOMAINS, or it is a binary sensor or sensor of the listed classes.
import { HUB_CONNECTED, type Bus } from '../bus.js';
import type { HubEvent } from './types.js';
import { domainOf } from './entity-id.js';
import { MSG } from './protocol.js';
import type { HubReader } from './reader.js';
import type { Logger } from '../log.js';

const ASSISTANT = 'conversation';
const DEFAULT_DOMAINS = new Set(['climate', 'cover', 'fan', 'humidifier', 'light', 'lock', 'scene', 'script', 'switch', 'todo', 'vacuum', 'water_heater']);
const BINARY_SENSOR_CLASSES = new Set(['door', 'garage_door', 'lock', 'motion', 'opening', 'presence', 'window']);
const SENSOR_CLASSES = new Set(['aqi', 'carbon_monoxide', 'carbon_dioxide', 'humidity', 'pm10', 'pm25', 'temperature', 'volatile_organic_compounds']);
const REFRESH_MS = 30_000;

export class Exposure {
  private explicit = new Map<string, boolean>();
  private exposeNew = true;
  /** The hub lists only exposed entities (2026.11): one it leaves out is not exposed. */
  private listsOnlyExposed = false;
  /** False until the hub answered once (or when it refuses: then nothing counts as exposed). */
  private known = false;
  private timer?: NodeJS.Timeout;
  private readonly listeners = new Set<() => void>();

  constructor(
    private readonly hub: HubReader,
    private readonly bus: Bus,
    private readonly log: Logger,
  ) {}

  start(): void {
    this.bus.on('event', this.onEvent);
    this.timer = setInterval(() => void this.refresh(), REFRESH_MS);
    this.timer.unref();
  }

  stop(): void {
    this.bus.off('event', this.onEvent);
    clearInterval(this.timer);
  }

  private readonly onEvent = (e: HubEvent) => {
    if (e.event_type === HUB_CONNECTED || e.event_type === 'entity_registry_updated') void this.refresh();
  };

  /** Hears when the hub's choices changed what is exposed; returns how to stop. */
  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private signature(): string {
    return `${this.known}|${this.exposeNew}|${[...this.explicit]
      .map(([id, on]) => `${id}=${on}`)
      .sort()
      .join(',')}`;
  }

  /** Reads the hub's choices; a hub that refuses (not an admin's token, too old) exposes nothing. */
  async refresh(): Promise<void> {
    const before = this.signature();
    await this.load();
    if (this.signature() !== before) for (const l of [...this.listeners]) l();
  }

  private async load(): Promise<void> {
    try {
      const [list, fresh] = await Promise.all([
        this.hub.query<{ exposed_entities: Record<string, Record<string, boolean>> }>(MSG.exposedEntitiesList),
        this.hub.query<{ expose_new: boolean }>(MSG.exposeNewEntitiesGet, { assistant: ASSISTANT }),
      ]);
      const explicit = new Map<string, boolean>();
      for (const [id, settings] of Object.entries(list.exposed_entities)) if (typeof settings[ASSISTANT] === 'boolean') explicit.set(id, settings[ASSISTANT]);
      this.explicit = explicit;
      this.listsOnlyExposed = ![...explicit.values()].includes(false);
      this.exposeNew = fresh.expose_new;
      this.known = true;
    } catch (err) {
      if (this.known)
        this.log.warn({ err: (err as Error).message }, 'reading which entities Home Assistant exposes failed; none count as exposed until it works');
      this.known = false;
    }
  }

  /** Whether the hub exposes this entity to its own assistant. */
  isExposed(entityId: string): boolean {
    if (!this.known) return false;
    const choice = this.explicit.get(entityId);
    if (choice !== undefined) return choice;
    if (this.listsOnlyExposed || !this.exposeNew) return false;
    const entry = this.hub.registries.entities.get(entityId);
    if (entry && (entry.entity_category || entry.hidden_by)) return false;
    const domain = domainOf(entityId);
    if (DEFAULT_DOMAINS.has(domain)) return true;
    const deviceClass = this.hub.cache.get(entityId)?.attributes.device_class;
    if (domain === 'binary_sensor') return BINARY_SENSOR_CLASSES.has(String(deviceClass));
    if (domain === 'sensor') return SENSOR_CLASSES.has(String(deviceClass));
    return false;
  }
}
